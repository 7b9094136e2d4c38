/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pidfilter.h - an instance's task filter (set_event_pid,
 * set_event_notrace_pid, options/event-fork) and its fast-path check.
 */
#ifndef _KHIST_EVENTS_PIDFILTER_H
#define _KHIST_EVENTS_PIDFILTER_H

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include "base/instance.h"

/**
 * enum khist_pids_kind - the two lists of an instance
 * @KHIST_PIDS_TRACE:   set_event_pid: only these tasks are traced
 * @KHIST_PIDS_NOTRACE: set_event_notrace_pid: these tasks are not
 * @KHIST_PIDS_NR:      number of lists
 */
enum khist_pids_kind {
	KHIST_PIDS_TRACE,
	KHIST_PIDS_NOTRACE,
	KHIST_PIDS_NR,
};

struct khist_pids;

/**
 * struct khist_pidf - the task filter of one instance (inst->pidf)
 * @list:   the lists, sorted pid arrays swapped under RCU; NULL when empty
 * @ignore: per CPU, whether the events of the task running there are
 *          dropped; kept by the sched probes, read by the record path
 * @active: the probes are registered and @ignore is valid
 * @dead:   the instance is going: no list may be set any more
 * @lock:   serialises the swaps of @list (writers, fork, exit)
 * @mutex:  serialises the writers, @active and @dead
 * @inst:   the instance
 */
struct khist_pidf {
	struct khist_pids __rcu *list[KHIST_PIDS_NR];
	bool __percpu *ignore;
	bool active;
	bool dead;
	raw_spinlock_t lock; /* see @lock above */
	struct mutex mutex; /* see @mutex above */
	struct khist_instance *inst;
};

DECLARE_STATIC_KEY_FALSE(khist_pidf_key);

/**
 * khist_pidf_ignored() - are the current task's events dropped by @inst?
 * @inst: the instance
 *
 * A static key keeps this to a no-op while no instance has a list.
 *
 * Context: any (NMI included), preemption disabled.
 * Return: true when the record must not be built for @inst.
 */
static __always_inline bool
khist_pidf_ignored(const struct khist_instance *inst)
{
	struct khist_pidf *pf;

	if (!static_branch_unlikely(&khist_pidf_key))
		return false;
	pf = READ_ONCE(inst->pidf);
	return pf && READ_ONCE(pf->active) && this_cpu_read(*pf->ignore);
}

int khist_pidf_create(struct khist_instance *inst);
void khist_pidf_destroy(struct khist_instance *inst);
void khist_pidf_free(struct khist_instance *inst);
int khist_pidf_clear(struct khist_instance *inst, enum khist_pids_kind kind);
int khist_pidf_write(struct khist_instance *inst, enum khist_pids_kind kind,
		     char *text);
void khist_pidf_show(struct seq_file *m, struct khist_instance *inst,
		     enum khist_pids_kind kind);

#endif /* _KHIST_EVENTS_PIDFILTER_H */
