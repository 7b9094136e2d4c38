// SPDX-License-Identifier: GPL-2.0
/*
 * map_stress_tsan.c - the map stress test under ThreadSanitizer, with
 * fewer operations. See map_stress_common.h.
 */
#define MAP_STRESS_SCALE 10
#include "map_stress_common.h"
