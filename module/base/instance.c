// SPDX-License-Identifier: GPL-2.0
/*
 * instance.c - the instance object: allocation, references, release, and
 * the error_log ring every layer reports rejected commands to.
 *
 * A khist instance is what ftrace calls a trace array. This file knows
 * none of its parts above base/: the last reference calls the release
 * callback the orchestrator (instances.c) gave khist_instance_alloc(),
 * which frees the ring buffer.
 */
#include <linux/err.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include "base/instance.h"
#include "mem/mem.h"

/* Every instance, the top level first; khist_event_mutex. */
LIST_HEAD(khist_instances);
struct khist_instance *khist_top;

static void khist_instance_release(struct kref *ref)
{
	struct khist_instance *inst =
		container_of(ref, struct khist_instance, ref);

	if (inst->ops && inst->ops->release)
		inst->ops->release(inst);
	khist_errlog_clear(&inst->errlog);
	if (inst != khist_top)
		kfree(inst->name);
	kfree(inst);
	khist_mem_uncharge(sizeof(*inst));
}

/**
 * khist_instance_get() - take a reference on an instance
 * @inst: the instance
 *
 * Context: any.
 */
void khist_instance_get(struct khist_instance *inst)
{
	kref_get(&inst->ref);
}

/**
 * khist_instance_put() - drop a reference; the last one frees it
 * @inst: the instance (may be NULL)
 *
 * Context: process context (the last put frees the ring buffer).
 */
void khist_instance_put(struct khist_instance *inst)
{
	if (inst)
		kref_put(&inst->ref, khist_instance_release);
}

/**
 * khist_instance_node_release() - release callback of an instance's files
 * @inst: the instance the file referenced
 *
 * Context: process context (inode eviction).
 */
void khist_instance_node_release(void *inst)
{
	khist_instance_put(inst);
}

/**
 * khist_instance_alloc() - a new instance object, with one reference
 * @name: "" for the top level, else its directory name (the instance owns
 *        it from now on, freed with the instance)
 * @ops:  the orchestrator's callbacks (kept, not copied)
 *
 * Context: process context; may sleep.
 * Return: the instance or an ERR_PTR().
 */
struct khist_instance *
khist_instance_alloc(const char *name, const struct khist_instance_ops *ops)
{
	struct khist_instance *inst;
	int ret;

	ret = khist_mem_charge(sizeof(*inst));
	if (ret)
		return ERR_PTR(ret);
	inst = khist_kzalloc(sizeof(*inst), GFP_KERNEL);
	if (!inst) {
		khist_mem_uncharge(sizeof(*inst));
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&inst->ref);
	INIT_LIST_HEAD(&inst->events);
	INIT_LIST_HEAD(&inst->systems);
	INIT_LIST_HEAD(&inst->list);
	mutex_init(&inst->errlog_lock);
	khist_errlog_init(&inst->errlog);
	inst->name = name;
	inst->ops = ops;
	return inst;
}

/**
 * khist_error_report() - add a rejected command to an instance's error_log
 * @inst: the instance (NULL means the top level)
 * @loc:  where, e.g. "hist:sched:sched_switch"
 * @msg:  static error text
 * @cmd:  the command as the user wrote it
 * @pos:  caret position in @cmd
 *
 * If memory is short the entry is lost, but the command is rejected with
 * its own error code all the same.
 *
 * Context: process context; takes the instance's errlog_lock; may sleep.
 */
void khist_error_report(struct khist_instance *inst, const char *loc,
			const char *msg, const char *cmd, unsigned int pos)
{
	if (!inst)
		inst = khist_top;
	mutex_lock(&inst->errlog_lock);
	if (khist_errlog_add(&inst->errlog, local_clock(), loc, msg, cmd, pos))
		pr_warn_ratelimited("error_log: no memory to record: %s\n",
				    msg);
	mutex_unlock(&inst->errlog_lock);
}
