/* SPDX-License-Identifier: GPL-2.0 */
/*
 * triggers.h - the trigger commands other than hist: traceon, traceoff,
 * snapshot, stacktrace, enable_event, disable_event, enable_hist and
 * disable_hist, with ftrace's syntax, counts, filters, identity rules and
 * listing. They plug into the trigger engine (hist/hist.h) as command
 * types.
 *
 * A command's triggers are identified by their group, not their name:
 * traceon and traceoff are one group, so are enable_event and
 * disable_event (per target event) and enable_hist and disable_hist (per
 * target event). An event has at most one trigger per group; "!cmd"
 * removes it whichever of the two commands made it. New triggers go to
 * the head of the event's list, so the newest is listed first.
 */
#ifndef _KHIST_TRIGGERS_TRIGGERS_H
#define _KHIST_TRIGGERS_TRIGGERS_H

#include <linux/atomic.h>
#include "trigger/engine.h"

struct khist_cmd;

/**
 * enum khist_cmd_group - which commands share an identity
 * @KHIST_GRP_ONOFF:    traceon, traceoff
 * @KHIST_GRP_SNAPSHOT: snapshot
 * @KHIST_GRP_STACK:    stacktrace
 * @KHIST_GRP_EVENT:    enable_event, disable_event (and a target event)
 * @KHIST_GRP_HIST:     enable_hist, disable_hist (and a target event)
 */
enum khist_cmd_group {
	KHIST_GRP_ONOFF,
	KHIST_GRP_SNAPSHOT,
	KHIST_GRP_STACK,
	KHIST_GRP_EVENT,
	KHIST_GRP_HIST,
};

/**
 * struct khist_cmd_type - a command and what it does on a hit
 * @type:   its trigger type (name, callbacks) in the engine's registry
 * @group:  enum khist_cmd_group
 * @on:     traceon, enable_event, enable_hist (else the off variant)
 * @target: takes a <system>:<event> parameter
 * @done:   with a count: the hit changes nothing, so the count is kept
 *          (NULL: every hit counts); any context
 * @fire:   act on a hit of the record @rec (common header first); any
 *          context (NMI included), preemption disabled
 * @prepare: optional, before the trigger is added (process context,
 *          khist_event_mutex held); returns 0 or -errno
 */
struct khist_cmd_type {
	struct khist_trigger_type type;
	enum khist_cmd_group group;
	bool on;
	bool target;
	bool (*done)(struct khist_cmd *c);
	void (*fire)(struct khist_cmd *c, void *rec);
	int (*prepare)(struct khist_cmd *c);
};

/**
 * struct khist_cmd - one non-hist trigger on one event
 * @base:    the engine's trigger (@base.ev is the event it is on)
 * @count:   hits left with a count, -1 for unlimited
 * @counted: a count was given (":N"); without one @count stays -1
 * @target:  enable_*, disable_*: the event acted on (referenced)
 * @target_used: @target is in soft mode for this trigger
 * @charged: charged to mem_limit_kb (not the object of a '!' removal)
 * @tname:   enable_*, disable_*: "<system>:<event>" of @target, as listed
 */
struct khist_cmd {
	struct khist_trigger base;
	atomic_long_t count;
	bool counted;
	struct khist_event *target;
	bool target_used;
	bool charged;
	char *tname;
};

/* The engine callbacks every command uses. */
#define KHIST_CMD_OPS                                     \
	.parse = khist_cmd_parse, .call = khist_cmd_call, \
	.print = khist_cmd_print, .free = khist_cmd_free

static inline struct khist_cmd *khist_to_cmd(struct khist_trigger *t)
{
	return container_of(t, struct khist_cmd, base);
}

static inline const struct khist_cmd_type *
khist_cmd_type_of(const struct khist_cmd *c)
{
	return container_of(c->base.type, struct khist_cmd_type, type);
}

/* cmd.c: parsing, listing, counting, freeing; the registry */
int khist_cmd_parse(struct khist_event *ev, const char *glob, char *param,
		    const char *text);
void khist_cmd_call(struct khist_trigger *t, void *rec, unsigned int size,
		    u64 ts);
void khist_cmd_print(struct seq_file *m, struct khist_trigger *t);
void khist_cmd_free(struct khist_trigger *t);
void khist_cmd_error(struct khist_event *ev, const char *cmd, const char *msg,
		     const char *text, unsigned int pos);
int khist_cmds_init(void);
void khist_cmds_exit(void);

/* target.c: enable_event, disable_event */
extern struct khist_cmd_type khist_enable_event_cmd, khist_disable_event_cmd;

/* basic.c: traceon, traceoff, snapshot, stacktrace */
extern struct khist_cmd_type khist_traceon_cmd, khist_traceoff_cmd,
	khist_snapshot_cmd, khist_stacktrace_cmd;

#endif /* _KHIST_TRIGGERS_TRIGGERS_H */
