/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evfilter.h - event filters in the kernel: the portable filter compiler
 * (core/filter_*) bound to khist events, their `filter` files, the
 * error_log and the fast path.
 *
 * The same compiled object serves an event's `filter` file and the
 * `if <filter>` clause of a trigger on that event. Evaluation needs the
 * CPU, the task name and, for `char *` fields, a fault-safe string copy
 * into a scratch buffer; khist_evfilter_match() provides them, with one
 * scratch buffer per CPU and per context level (task, softirq, hardirq,
 * NMI) so that nested evaluations never share one.
 */
#ifndef _KHIST_EVENTS_EVFILTER_H
#define _KHIST_EVENTS_EVFILTER_H

#include <linux/types.h>
#include "core/filter_parse.h"

struct khist_event;
struct khist_instance;

int khist_evfilter_init(void);
void khist_evfilter_exit(void);
int khist_evfilter_compile(struct khist_instance *inst, struct khist_event *ev,
			   const char *text, size_t len,
			   struct khist_filter **out,
			   struct khist_filter_error *err);
bool khist_evfilter_match_general(const struct khist_filter *f, const void *rec,
				  unsigned int size);
void khist_evfilter_free(struct khist_filter *f);
int khist_evfilter_set(struct khist_event *ev, const char *text, size_t len);

/**
 * khist_evfilter_match() - does a record pass a filter?
 * @f:    the filter (NULL passes everything)
 * @rec:  the record, common header first
 * @size: its size in bytes
 *
 * Inline in the probes: a filter of integer compares (the direct form
 * built at compile time) runs here without a call; anything else goes to
 * the general evaluator with the CPU, the task name and the string
 * scratch buffers (khist_evfilter_match_general()).
 *
 * Context: any (NMI included), preemption disabled.
 * Return: true when the record passes.
 */
static __always_inline bool khist_evfilter_match(const struct khist_filter *f,
						 const void *rec,
						 unsigned int size)
{
	if (!f)
		return true;
	if (likely(f->fast) && size >= f->fast_need)
		return khist_filter_fast_match(f, rec);
	return khist_evfilter_match_general(f, rec, size);
}

#endif /* _KHIST_EVENTS_EVFILTER_H */
