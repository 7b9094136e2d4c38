/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - khist's synthetic events, as the hist action layer and other
 * modules use them.
 *
 * A synthetic event is an event with no tracepoint behind it: it is
 * defined at run time (a line written to `synthetic_events`, an s: line
 * in `dynamic_events`, or khist_synth_create() from a module), gets a
 * directory events/synthetic/<name>/ like any other event, and is fired
 * by calls to khist_synth_trace() - from hist actions (onmatch().trace(),
 * onmax(), ...) or from a module. Firing it writes a record to the ring
 * buffer when the event is enabled and runs the event's own triggers
 * (hists on synthetic events), exactly like a tracepoint hit.
 *
 * References: a user that fires an event takes a reference with
 * khist_synth_get() and keeps it as long as it may call
 * khist_synth_trace(); a referenced event cannot be removed (removal gives
 * -EBUSY, as does removing an event that is enabled or has triggers).
 *
 * Values: khist_synth_trace() takes one u64 per field, in field order.
 * Numbers are stored at the field's size. A string field (char[N] or
 * char[]) takes a pointer to a NUL-terminated kernel string, cast to u64;
 * it is copied into the record (char[N]: at most 255 bytes into its
 * 256-byte slot; char[]: at most KHIST_SYNTH_STR_MAX bytes including the
 * NUL), reading it with the fault-tolerant accessors, so a bad pointer
 * records "(fault)". A stack field takes a pointer to an unsigned long
 * array: a count n, then n return addresses; at most
 * KHIST_SYNTH_STACK_DEPTH are kept, up to the first zero.
 */
#ifndef _KHIST_SYNTH_SYNTH_H
#define _KHIST_SYNTH_SYNTH_H

#include <linux/module.h>
#include <linux/types.h>
#include "core/synth_parse.h"

struct khist_event;
struct khist_instance;
struct khist_synth_event;

/* Inside khist (the hist action layer). */
struct khist_synth_event *khist_synth_get_locked(const char *name);
struct khist_synth_event *khist_synth_from_event(struct khist_event *ev);
struct khist_event *khist_synth_event(struct khist_synth_event *se);
bool khist_synth_busy(struct khist_synth_event *se);

/* Module init and exit (module/instances.c). */
int khist_synth_init(void);
void khist_synth_exit(void);

#endif /* _KHIST_SYNTH_SYNTH_H */
