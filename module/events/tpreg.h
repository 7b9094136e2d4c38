/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpreg.h - the events generated from the target kernel's trace headers
 * (tpreg.c), and the table of generated units they come from: units.c,
 * written by tools/tpgen/tpgen.sh next to the units it compiled, or
 * tp_none.c when khist.ko is built without them.
 */
#ifndef _KHIST_EVENTS_TPREG_H
#define _KHIST_EVENTS_TPREG_H

#include <khist/tp/tp.h>

extern const struct khist_tp_unit *const khist_tp_units[];
extern const unsigned int khist_tp_nr_units;

int khist_tpreg_register(void);
void khist_tpreg_unregister(void);

#endif /* _KHIST_EVENTS_TPREG_H */
