// SPDX-License-Identifier: GPL-2.0
/*
 * tp_none.c - the empty table of generated units, linked into khist.ko
 * when it is built without the events generated from the kernel's trace
 * headers (KHIST_TPGEN=0, or the generator did not run).
 */
#include "events/tpreg.h"

const struct khist_tp_unit *const khist_tp_units[] = { NULL };
const unsigned int khist_tp_nr_units;
