/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conform.h - the small top-level files that ftrace's tools and selftests
 * expect next to the event files: current_tracer, available_tracers,
 * trace_clock, trace_options and options/.
 *
 * khist has no function or latency tracers, so "nop" is its only tracer;
 * its ring buffer is the kernel's, whose clock a module cannot change, so
 * "local" is its only trace clock. Options exist only when khist does what
 * they say.
 */
#ifndef _KHIST_CONFORM_CONFORM_H
#define _KHIST_CONFORM_CONFORM_H

#include <linux/types.h>
#include <khist/event.h>
#include "khist.h"

struct khist_instance;
struct khist_common_hdr;

/**
 * enum khist_option - the trace options khist honours (bits of
 * struct khist_instance.options)
 * @KHIST_OPT_PAUSE_ON_TRACE: reading `trace` stops recording until the
 *                            reader closes it (on by default, as in ftrace)
 * @KHIST_OPT_STACKTRACE:     a stack trace record follows every event
 *                            record (ftrace/kernel_stack)
 * @KHIST_NR_OPTIONS:         number of options
 */
enum khist_option {
	KHIST_OPT_PAUSE_ON_TRACE,
	KHIST_OPT_STACKTRACE,
	KHIST_NR_OPTIONS,
};

int khist_conform_init(struct khist_instance *inst);
void khist_conform_exit(struct khist_instance *inst);
int khist_options_create(struct khist_instance *inst);
void khist_options_remove(struct khist_instance *inst);
bool khist_option_get(const struct khist_instance *inst, enum khist_option opt);
const char *khist_trace_clock_name(const struct khist_instance *inst);

extern struct khist_event_def khist_kernel_stack_def;
void khist_stack_record(struct khist_instance *inst,
			const struct khist_common_hdr *hdr);

/**
 * khist_stack_wanted() - does this instance record a stack after events?
 * @inst: the instance
 *
 * Context: any (the ring buffer's fast path).
 * Return: options/stacktrace of @inst.
 */
static inline bool khist_stack_wanted(const struct khist_instance *inst)
{
	return unlikely(READ_ONCE(inst->options) & BIT(KHIST_OPT_STACKTRACE));
}

#endif /* _KHIST_CONFORM_CONFORM_H */
