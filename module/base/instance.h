/* SPDX-License-Identifier: GPL-2.0 */
/*
 * instance.h - the instance object: allocation, references, error_log
 * ring and option bits (base/). Assembling an instance from its parts
 * (buffer, events, files) is instances.c's job.
 *
 * A khist instance is what ftrace calls a trace array: a directory with its
 * own control files (README, error_log, events/, ...). The top-level
 * instance is the root of the khist filesystem.
 */
#ifndef _KHIST_BASE_INSTANCE_H
#define _KHIST_BASE_INSTANCE_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include "fs/fs.h"
#include "core/errlog.h"
#include "mem/fault.h"

/* What khist_comm_save() saves of a task (bits of khist_comm_wanted()). */
#define KHIST_SAVE_COMM 0x1
#define KHIST_SAVE_TGID 0x2

struct khist_buffer;
struct khist_event;
struct khist_instance;
struct khist_pidf;

/**
 * enum khist_option - the trace options khist honours (bits of
 * struct khist_instance.options; files/options.c shows them)
 * @KHIST_OPT_RECORD_CMD:     a record saves its writer's name for the TASK
 *                            column and saved_cmdlines (on by default)
 * @KHIST_OPT_RECORD_TGID:    a record saves its writer's thread group id
 *                            for saved_tgids (off by default)
 * @KHIST_OPT_PAUSE_ON_TRACE: reading `trace` stops recording until the
 *                            reader closes it (on by default, as in ftrace)
 * @KHIST_OPT_STACKTRACE:     a stack trace record follows every event
 *                            record (ftrace/kernel_stack)
 * @KHIST_OPT_EVENT_FORK:     the children of a task in set_event_pid or
 *                            set_event_notrace_pid join it at fork, and
 *                            every listed task leaves it when it is freed
 * @KHIST_OPT_MARKERS:        trace_marker and trace_marker_raw take writes
 *                            (on by default; off, they fail with EINVAL)
 * @KHIST_NR_OPTIONS:         number of options
 */
enum khist_option {
	KHIST_OPT_RECORD_CMD,
	KHIST_OPT_RECORD_TGID,
	KHIST_OPT_PAUSE_ON_TRACE,
	KHIST_OPT_STACKTRACE,
	KHIST_OPT_EVENT_FORK,
	KHIST_OPT_MARKERS,
	KHIST_NR_OPTIONS,
};

/**
 * struct khist_instance_ops - what the orchestrator (instances.c) adds to
 * the object, called by base/ without knowing the layers above it
 * @release: the last reference is gone: free the parts above base/ (the
 *           ring buffer); process context. May be NULL.
 */
struct khist_instance_ops {
	void (*release)(struct khist_instance *inst);
};

/**
 * struct khist_instance - one tracing instance
 * @name:         "" for the top level, else its directory name (owned)
 * @ref:          references: the instance list, and every file of the
 *                instance (they may stay open after rmdir)
 * @dir:          its directory
 * @events_dir:   its events/ directory
 * @buf:          its ring buffer
 * @events:       its events (struct khist_event.list), sorted like the
 *                registry; khist_event_mutex
 * @systems:      its events/<system>/ directories; khist_event_mutex
 * @print_ev:     its ftrace/print event (trace_marker writes it)
 * @raw_ev:       its ftrace/raw_data event (trace_marker_raw writes it)
 * @list:         entry in khist_instances; khist_event_mutex
 * @errlog_lock:  serialises @errlog
 * @errlog:       the last rejected commands, shown in error_log
 * @options:      trace options (bits of enum khist_option)
 * @ops:          the orchestrator's callbacks
 * @pidf:         its task filter (events/pidfilter.c), NULL until made
 */
struct khist_instance {
	const char *name;
	struct kref ref;
	struct khist_node *dir;
	struct khist_node *events_dir;
	struct khist_buffer *buf;
	struct list_head events;
	struct list_head systems;
	struct khist_event *print_ev;
	struct khist_event *raw_ev;
	struct list_head list;
	struct mutex errlog_lock; /* see @errlog_lock above */
	struct khist_errlog errlog;
	unsigned long options;
	const struct khist_instance_ops *ops;
	struct khist_pidf *pidf;
};

extern struct khist_instance *khist_top;
extern struct list_head khist_instances;

struct khist_instance *
khist_instance_alloc(const char *name, const struct khist_instance_ops *ops);
void khist_instance_get(struct khist_instance *inst);
void khist_instance_put(struct khist_instance *inst);
void khist_instance_node_release(void *inst);
void khist_error_report(struct khist_instance *inst, const char *loc,
			const char *msg, const char *cmd, unsigned int pos);

/**
 * khist_option_get() - is an option set on an instance?
 * @inst: the instance
 * @opt:  the option
 *
 * Context: any.
 * Return: the option's value.
 */
static inline bool khist_option_get(const struct khist_instance *inst,
				    enum khist_option opt)
{
	return test_bit(opt, &inst->options);
}

/**
 * khist_stack_wanted() - does this instance record a stack after events?
 * @inst: the instance
 *
 * Context: any (the record fast path).
 * Return: options/stacktrace of @inst.
 */
static inline bool khist_stack_wanted(const struct khist_instance *inst)
{
	return unlikely(READ_ONCE(inst->options) & BIT(KHIST_OPT_STACKTRACE));
}

/**
 * khist_comm_wanted() - what of its writer a record of this instance saves
 * @inst: the instance
 *
 * Context: any (the record fast path).
 * Return: KHIST_SAVE_COMM (options/record-cmd) | KHIST_SAVE_TGID
 * (options/record-tgid).
 */
static inline unsigned int khist_comm_wanted(const struct khist_instance *inst)
{
	unsigned long o = READ_ONCE(inst->options);

	/* The option bits are the KHIST_SAVE_* bits. */
	BUILD_BUG_ON(BIT(KHIST_OPT_RECORD_CMD) != KHIST_SAVE_COMM);
	BUILD_BUG_ON(BIT(KHIST_OPT_RECORD_TGID) != KHIST_SAVE_TGID);
	return o & (KHIST_SAVE_COMM | KHIST_SAVE_TGID);
}

#endif /* _KHIST_BASE_INSTANCE_H */
