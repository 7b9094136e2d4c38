// SPDX-License-Identifier: GPL-2.0
/*
 * trigger.c - the trigger engine behind every event's `trigger` file: the
 * command registry, dispatch of writes by command word, truncation, the
 * listing, the per-hit walk of an event's triggers, and teardown when an
 * event goes away (see hist.h).
 */
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "base/instance.h"
#include "core/cmd_split.h"
#include "events/evfilter.h"
#include "events/hooks.h"
#include "mem/mem.h"
#include "trigger/engine.h"

static LIST_HEAD(khist_trigger_types);

/**
 * khist_trigger_type_register() - add a trigger command
 * @type: the command (static; its @list is used by the registry)
 *
 * Context: process context.
 * Return: 0, or -EEXIST when a command of that name exists.
 */
int khist_trigger_type_register(struct khist_trigger_type *type)
{
	struct khist_trigger_type *t;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(t, &khist_trigger_types, list) {
		if (!strcmp(t->name, type->name)) {
			ret = -EEXIST;
			goto out;
		}
	}
	list_add_tail(&type->list, &khist_trigger_types);
out:
	mutex_unlock(&khist_event_mutex);
	return ret;
}

static void khist_trigger_drop_type(struct khist_trigger_type *type);

/**
 * khist_trigger_type_find() - a registered command by its word
 * @name: the command word
 *
 * Context: process context, khist_event_mutex held.
 * Return: the command, or NULL.
 */
struct khist_trigger_type *khist_trigger_type_find(const char *name)
{
	struct khist_trigger_type *t;

	list_for_each_entry(t, &khist_trigger_types, list)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/**
 * khist_trigger_type_unregister() - remove a command and its triggers
 * @type: the command
 *
 * Every trigger of @type on every event is removed first.
 *
 * Context: process context.
 */
void khist_trigger_type_unregister(struct khist_trigger_type *type)
{
	mutex_lock(&khist_event_mutex);
	khist_trigger_drop_type(type);
	list_del_init(&type->list);
	mutex_unlock(&khist_event_mutex);
}

/**
 * khist_ev_triggers_get() - an event's trigger list, created on first use
 * @ev: the event
 *
 * The list is charged to mem_limit_kb until the event goes
 * (khist_trig_removed()).
 *
 * Context: process context, khist_event_mutex held.
 * Return: the list, or ERR_PTR(-ENOMEM) or ERR_PTR(-ENOSPC) (over the
 * memory limit).
 */
struct khist_ev_triggers *khist_ev_triggers_get(struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	int ret;

	lockdep_assert_held(&khist_event_mutex);
	if (et)
		return et;
	ret = khist_mem_charge(sizeof(*et));
	if (ret)
		return ERR_PTR(ret);
	et = kzalloc(sizeof(*et), GFP_KERNEL);
	if (!et) {
		khist_mem_uncharge(sizeof(*et));
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&et->list);
	/* Published before has_triggers is set; pairs with READ_ONCE. */
	smp_store_release(&ev->trigger_data, et);
	return et;
}

/* What of the record @t and its filter read (KHIST_READS_*). */
static unsigned int khist_trigger_reads(struct khist_trigger *t)
{
	unsigned int r = t->type->reads ? t->type->reads(t) : KHIST_READS_ALL;

	if (t->filter)
		r |= t->filter->reads;
	return r;
}

/*
 * Lower @ev's trig_reads to what its remaining triggers read, after one was
 * unlinked: a probe that sees the lower value no longer sees that trigger
 * (release, paired with the acquire in khist_rec_reserve_ev()).
 */
static void khist_trigger_reads_update(struct khist_event *ev,
				       struct khist_ev_triggers *et)
{
	struct khist_trigger *t;
	unsigned int r = 0;

	list_for_each_entry(t, &et->list, list)
		r |= khist_trigger_reads(t);
	/* After the unlink: pairs with the acquire on the fast path. */
	smp_store_release(&ev->trig_reads, r);
}

/*
 * Set et->one, and ev->fast when that one trigger is a counting hist,
 * after @et's list changed. A probe that still sees the old values runs
 * the triggers as they were before the change (an unlinked trigger is
 * freed only after khist_trigger_sync()).
 */
static void khist_trigger_one_update(struct khist_event *ev,
				     struct khist_ev_triggers *et)
{
	struct khist_trigger *one = NULL;

	if (list_is_singular(&et->list))
		one = list_first_entry(&et->list, struct khist_trigger, list);
	/* The trigger is filled in before a probe finds it here. */
	smp_store_release(&et->one, one);
	if (one && !(one->type->counting && one->type->counting(one)))
		one = NULL;
	ev->fast_norec = one && one->type->counting_norec &&
			 one->type->counting_norec(one);
	/* So too for khist_rec_fast() and the scratch commit. */
	smp_store_release(&ev->fast, one);
	khist_event_fast_sync(ev);
}

/**
 * khist_trigger_add() - link a trigger to its event and let it run
 * @ev: the event
 * @t:  the trigger, fully built
 *
 * Attaches the event's probe (a soft use: the event records only if it is
 * enabled) for as long as the trigger is linked.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno (the trigger is then not linked).
 */
int khist_trigger_add(struct khist_event *ev, struct khist_trigger *t)
{
	struct khist_ev_triggers *et = khist_ev_triggers_get(ev);
	int ret;

	lockdep_assert_held(&khist_event_mutex);
	if (IS_ERR(et))
		return PTR_ERR(et);
	ret = khist_event_get_use(ev);
	if (ret)
		return ret;
	t->ev = ev;
	/* Before a probe can find it: its fields are then filled in. */
	smp_store_release(&ev->trig_reads,
			  ev->trig_reads | khist_trigger_reads(t));
	if (t->type->tail)
		list_add_tail_rcu(&t->list, &et->list);
	else
		list_add_rcu(&t->list, &et->list);
	khist_trigger_one_update(ev, et);
	khist_event_set_triggers(ev, true);
	return 0;
}

/**
 * khist_trigger_unlink() - stop a trigger; free it after khist_trigger_sync()
 * @t: the trigger
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_trigger_unlink(struct khist_trigger *t)
{
	struct khist_ev_triggers *et = t->ev->trigger_data;

	lockdep_assert_held(&khist_event_mutex);
	list_del_rcu(&t->list);
	khist_trigger_one_update(t->ev, et);
	if (list_empty(&et->list))
		khist_event_set_triggers(t->ev, false);
	khist_trigger_reads_update(t->ev, et);
	khist_event_put_use(t->ev);
	if (t->type->unlink)
		t->type->unlink(t);
}

/**
 * khist_trigger_queue_free() - unlink a trigger and queue it for freeing
 * @t:    the trigger
 * @gone: a list for khist_trigger_free_list()
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_trigger_queue_free(struct khist_trigger *t, struct list_head *gone)
{
	khist_trigger_unlink(t);
	list_add_tail(&t->free_list, gone);
}

/**
 * khist_trigger_sync() - wait until no probe can still see an unlinked
 * trigger or an old filter
 *
 * Context: process context, may sleep.
 */
void khist_trigger_sync(void)
{
	tracepoint_synchronize_unregister();
}

/**
 * khist_trigger_set_filter() - compile a trigger's `if` filter
 * @t:    the trigger, not yet linked (@t->ev set)
 * @text: the filter text (NUL-terminated)
 *
 * The filter compiler logs its own errors to error_log ("event filter
 * parse error"), as ftrace does.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno.
 */
int khist_trigger_set_filter(struct khist_trigger *t, const char *text)
{
	struct khist_filter *f;
	int ret;

	ret = khist_evfilter_compile(NULL, t->ev, text, strlen(text), &f, NULL);
	if (ret)
		return ret;
	t->filter_str = kstrdup(text, GFP_KERNEL);
	if (!t->filter_str) {
		khist_evfilter_free(f);
		return -ENOMEM;
	}
	t->filter = f;
	return 0;
}

/**
 * khist_trigger_free_filter() - free a trigger's filter
 * @t: the trigger, unlinked and past a grace period (or never linked)
 *
 * Context: process context.
 */
void khist_trigger_free_filter(struct khist_trigger *t)
{
	khist_evfilter_free(t->filter);
	t->filter = NULL;
	kfree(t->filter_str);
	t->filter_str = NULL;
}

static __always_inline void khist_trigger_run(struct khist_trigger *t,
					      void *rec, unsigned int size)
{
	if (READ_ONCE(t->paused))
		return;
	if (t->filter && !khist_evfilter_match(t->filter, rec, size))
		return;
	/* Hist triggers, the usual case, without a retpoline. */
	INDIRECT_CALL_1(t->type->call, khist_hist_call, t, rec, size, 0);
}

/* Several triggers: walk the list (out of line, see khist_triggers_call()). */
static noinline void khist_triggers_walk(struct khist_ev_triggers *et,
					 void *rec, unsigned int size)
{
	struct khist_trigger *t;

	list_for_each_entry_rcu(t, &et->list, list)
		khist_trigger_run(t, rec, size);
}

/**
 * khist_triggers_call() - one hit of an event with triggers (called by the
 * fast path while the event's has_triggers is set)
 * @ev:   the event
 * @rec:  the record, common header first
 * @size: its size
 *
 * Runs every trigger that is not paused and whose filter matches, in list
 * order. No trigger type gets the time of the hit from here (hist reads
 * its own clock=), so it is passed as 0.
 *
 * Context: any, NMI included, preemption disabled.
 */
void khist_triggers_call(struct khist_event *ev, void *rec, unsigned int size)
{
	struct khist_ev_triggers *et;
	struct khist_trigger *t;

	/* Pairs with the release in khist_ev_triggers_get(). */
	et = smp_load_acquire(&ev->trigger_data);
	if (!et)
		return;
	/*
	 * The usual single trigger: called from here, which then needs no
	 * registers of its own to walk a list (pairs with the release in
	 * khist_trigger_one_update()).
	 */
	t = smp_load_acquire(&et->one);
	if (t)
		khist_trigger_run(t, rec, size);
	else
		khist_triggers_walk(et, rec, size);
}

/**
 * khist_triggers_call_uncond() - a hit by a task that set_event_pid
 * filters out of the event's instance
 * @ev:   the event (it has triggers)
 * @rec:  a record of the common header only
 * @size: its size
 *
 * As in ftrace, triggers that fire without the record (no filter, a type
 * without ->cond: traceon, snapshot, enable_event, ...) fire before the
 * task is looked at, but only while every trigger of the event is such a
 * one; otherwise none fires. None of them reads more than the header.
 *
 * Context: any, NMI included, preemption disabled.
 */
void khist_triggers_call_uncond(struct khist_event *ev, void *rec,
				unsigned int size)
{
	struct khist_ev_triggers *et;
	struct khist_trigger *t;

	/* Pairs with the release in khist_ev_triggers_get(). */
	et = smp_load_acquire(&ev->trigger_data);
	if (!et)
		return;
	list_for_each_entry_rcu(t, &et->list, list)
		if (t->filter || t->type->cond)
			return;
	list_for_each_entry_rcu(t, &et->list, list)
		if (!READ_ONCE(t->paused))
			t->type->call(t, rec, size, 0);
}

/**
 * khist_triggers_lost() - a hit of an event that its triggers never saw
 * @ev: the event (it has triggers)
 *
 * The fast path could not build the record (bigger than the ring buffer
 * takes, or nested deeper than its scratch levels): every hist of the
 * event that is not paused counts the hit as lost (its type's ->lost),
 * whatever its filter would have said.
 *
 * Context: any, NMI included, preemption disabled.
 */
void khist_triggers_lost(struct khist_event *ev)
{
	struct khist_ev_triggers *et;
	struct khist_trigger *t;

	/* Pairs with the release in khist_ev_triggers_get(). */
	et = smp_load_acquire(&ev->trigger_data);
	if (!et)
		return;
	list_for_each_entry_rcu(t, &et->list, list)
		if (t->type->lost && !READ_ONCE(t->paused))
			t->type->lost(t);
}

/**
 * khist_trigger_free_list() - free unlinked triggers once no probe sees them
 * @gone: triggers queued by khist_trigger_queue_free()
 *
 * Context: process context, may sleep.
 */
void khist_trigger_free_list(struct list_head *gone)
{
	struct khist_trigger *t, *n;

	if (list_empty(gone))
		return;
	khist_trigger_sync();
	list_for_each_entry_safe(t, n, gone, free_list) {
		list_del(&t->free_list);
		t->type->free(t);
	}
}

static void khist_trigger_drop_type(struct khist_trigger_type *type)
{
	struct khist_ev_triggers *et;
	struct khist_trigger *t, *n;
	struct khist_instance *inst;
	struct khist_event *ev;
	LIST_HEAD(gone);

	list_for_each_entry(inst, &khist_instances, list) {
		list_for_each_entry(ev, &inst->events, list) {
			et = ev->trigger_data;
			if (!et)
				continue;
			list_for_each_entry_safe(t, n, &et->list, list) {
				if (t->type == type)
					khist_trigger_queue_free(t, &gone);
			}
		}
	}
	khist_trigger_free_list(&gone);
}

static void khist_trig_unreg_all(struct khist_event *ev)
{
	struct khist_trigger_type *type;

	list_for_each_entry(type, &khist_trigger_types, list)
		if (type->unreg_all)
			type->unreg_all(ev);
}

static int khist_trig_write(struct khist_event *ev, char *buf)
{
	struct khist_trigger_type *type;
	char *text, *cmd, *next, *word;
	int ret = -EINVAL;

	mutex_lock(&khist_event_mutex);
	if (!ev->def || list_empty(&ev->list)) {
		ret = -ENODEV;
		goto out;
	}
	if (!buf) {
		khist_trig_unreg_all(ev);
		ret = 0;
		goto out;
	}
	text = skip_spaces(buf);
	cmd = kstrdup(text, GFP_KERNEL);
	if (!cmd) {
		ret = -ENOMEM;
		goto out;
	}
	word = khist_trigger_split(cmd, &next);
	list_for_each_entry(type, &khist_trigger_types, list) {
		if (!strcmp(type->name, word[0] == '!' ? word + 1 : word)) {
			ret = type->parse(ev, word, next, text);
			break;
		}
	}
	kfree(cmd);
out:
	mutex_unlock(&khist_event_mutex);
	return ret;
}

static int khist_trig_show(struct seq_file *m, struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger_type *type;
	struct khist_trigger *t;
	bool shown = false;

	if (et)
		list_for_each_entry(t, &et->list, list)
			shown |= !t->type->hidden;
	if (!shown) {
		/* The registered commands, in registration order. */
		seq_puts(m, "# Available triggers:\n#");
		list_for_each_entry(type, &khist_trigger_types, list)
			seq_printf(m, " %s", type->name);
		seq_putc(m, '\n');
		return 0;
	}
	list_for_each_entry(t, &et->list, list)
		if (!t->type->hidden)
			t->type->print(m, t);
	return 0;
}

/* @ev is being unregistered: its probe is detached; drop everything. */
static void khist_trig_removed(struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t, *n;
	LIST_HEAD(gone);

	if (!et)
		return;
	list_for_each_entry_safe(t, n, &et->list, list)
		khist_trigger_queue_free(t, &gone);
	khist_trigger_free_list(&gone);
	WRITE_ONCE(ev->trigger_data, NULL);
	khist_trigger_sync();
	kfree(et);
	khist_mem_uncharge(sizeof(*et));
}

static const struct khist_trigger_ops khist_trig_ops = {
	.write = khist_trig_write,
	.show = khist_trig_show,
	.removed = khist_trig_removed,
};

/**
 * khist_triggers_init() - install the trigger engine
 *
 * Context: process context, module init, before any event exists.
 * Return: 0.
 */
int khist_triggers_init(void)
{
	khist_trigger_ops_set(&khist_trig_ops);
	return 0;
}

/**
 * khist_triggers_exit() - remove the trigger engine
 *
 * Every event is gone by now (their removal dropped their triggers).
 *
 * Context: process context, module exit.
 */
void khist_triggers_exit(void)
{
	khist_trigger_ops_set(NULL);
}
