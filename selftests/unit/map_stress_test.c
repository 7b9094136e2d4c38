// SPDX-License-Identifier: GPL-2.0
/*
 * map_stress_test.c - concurrent inserts, adds, growth and snapshots of
 * the histogram map, under ASan/UBSan. See map_stress_common.h.
 */
#include "map_stress_common.h"
