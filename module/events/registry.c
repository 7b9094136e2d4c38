// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the list of events, their ids, systems and enable state.
 *
 * An event comes from a struct khist_event_def (built-in, or registered by
 * another module through khist_events_register()). Registration gives it
 * an id, a directory and files; unregistration detaches its probe, waits
 * until no probe can still be running, and drops it. Ids are handed out
 * cyclically, so records of a removed event left in the ring buffer are
 * never taken for another event: they print as an unknown type.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/xarray.h>
#include "base/instance.h"
#include "events.h"
#include "evfilter.h"
#include "mem/mem.h"

/* First dynamic id; lower ids are ftrace's fixed ones (print is 5). */
#define KHIST_ID_FIRST 32
#define KHIST_ID_LAST 0xffff

/**
 * struct khist_event_system - one events/<system>/ directory of an instance
 * @ref:    references: the instance's list, and the directory and enable
 *          file nodes made for it (an open file keeps it)
 * @name:   system name (owned)
 * @inst:   the instance (not referenced: valid while on its list)
 * @dir:    its directory, NULL while it has no event
 * @events: its events
 * @list:   entry in the instance's systems
 */
struct khist_event_system {
	struct kref ref;
	char *name;
	struct khist_instance *inst;
	struct khist_node *dir;
	struct list_head events;
	struct list_head list;
};

/* Serialises the registry, the instance list and every event's state. */
DEFINE_MUTEX(khist_event_mutex);
const struct khist_trigger_ops *khist_trigger_ops;
/* The files of events, systems and instances (files/), set at init. */
static const struct khist_events_listener *khist_events_listener;

static DEFINE_XARRAY_ALLOC(khist_event_ids);
static u32 khist_next_id = KHIST_ID_FIRST;
static struct khist_instance *khist_events_inst;

/**
 * khist_event_get() - take a reference on an event
 * @ev: the event
 *
 * Context: any.
 */
void khist_event_get(struct khist_event *ev)
{
	kref_get(&ev->ref);
}

static void khist_event_release(struct kref *ref)
{
	struct khist_event *ev = container_of(ref, struct khist_event, ref);

	/* An instance's copy of an event was charged by mkdir. */
	if (ev->inst != khist_events_inst)
		khist_mem_uncharge(sizeof(*ev));
	kfree(ev->filter_text);
	khist_instance_put(ev->inst);
	kfree(ev);
}

/**
 * khist_event_put() - drop a reference on an event
 * @ev: the event (may be NULL)
 *
 * Context: process context.
 */
void khist_event_put(struct khist_event *ev)
{
	if (ev)
		kref_put(&ev->ref, khist_event_release);
}

/**
 * khist_event_find_in() - look an instance's event up by system and name
 * @inst:   the instance
 * @system: system name
 * @name:   event name
 *
 * Context: process context, khist_event_mutex held.
 * Return: the event or NULL.
 */
struct khist_event *khist_event_find_in(struct khist_instance *inst,
					const char *system, const char *name)
{
	struct khist_event *ev;

	lockdep_assert_held(&khist_event_mutex);
	if (!inst)
		return NULL;
	list_for_each_entry(ev, &inst->events, list)
		if (!strcmp(ev->schema.system, system) &&
		    !strcmp(ev->schema.name, name))
			return ev;
	return NULL;
}

/**
 * khist_event_find() - look a top-level event up by system and name
 * @system: system name
 * @name:   event name
 *
 * Context: process context, khist_event_mutex held.
 * Return: the event or NULL.
 */
struct khist_event *khist_event_find(const char *system, const char *name)
{
	return khist_event_find_in(khist_events_inst, system, name);
}

/**
 * khist_event_by_id() - look an event up by its id (common_type)
 * @id: the id
 *
 * Ids belong to definitions: this gives the top instance's event, whose
 * definition prints records of every instance.
 *
 * Context: process context with khist_event_mutex held, or an RCU read
 * section (the event may then be unregistered under the caller).
 * Return: the event or NULL.
 */
struct khist_event *khist_event_by_id(unsigned int id)
{
	return xa_load(&khist_event_ids, id);
}

struct khist_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void khist_tp_match(struct tracepoint *tp, void *priv)
{
	struct khist_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

static struct tracepoint *khist_tp_lookup(const char *name)
{
	struct khist_tp_find f = { .name = name };

	for_each_kernel_tracepoint(khist_tp_match, &f);
	return f.tp;
}

/* Register the definition's probe for its first user. */
static int khist_probe_get(struct khist_event *top)
{
	struct khist_event_def *def = top->def;
	struct tracepoint *tp;
	int ret = 0;

	if (top->probe_users++)
		return 0;
	if (def->reg) {
		ret = def->reg(def, true);
	} else if (def->tp_name) {
		tp = khist_tp_lookup(def->tp_name);
		ret = tp ? tracepoint_probe_register(tp, def->probe, def) :
			   -ENOENT;
	}
	if (ret) {
		top->probe_users--;
		return ret;
	}
	WRITE_ONCE(def->active, 1);
	return 0;
}

/* Unregister it when its last user goes. */
static void khist_probe_put(struct khist_event *top)
{
	struct khist_event_def *def = top->def;
	struct tracepoint *tp;

	if (WARN_ON_ONCE(top->probe_users <= 0) || --top->probe_users)
		return;
	WRITE_ONCE(def->active, 0);
	if (def->reg) {
		def->reg(def, false);
	} else if (def->tp_name) {
		tp = khist_tp_lookup(def->tp_name);
		if (tp)
			WARN_ON_ONCE(tracepoint_probe_unregister(tp, def->probe,
								 def));
	}
}

/**
 * khist_event_fast_sync() - publish or withdraw an event's counted hits
 * @ev: any instance's event
 *
 * def->fast lets the probe hand a hit to khist_rec_fast() before building
 * anything. It is set while the top instance's event has a counting hist
 * that reads no record (ev->fast, ev->fast_norec) and nothing else wants
 * the event: attached for that trigger's soft use alone (no other trigger
 * or enable_event/disable_event target use, which could switch recording
 * on from a probe), not recorded, and no other instance's event
 * attached. Called after every change of any of those: by
 * khist_event_set_enabled() (which attaches), khist_event_detach() and
 * the trigger engine.
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_event_fast_sync(struct khist_event *ev)
{
	struct khist_event_def *def = ev->def;
	struct khist_event *top = def ? def->ev : NULL;
	bool on;

	lockdep_assert_held(&khist_event_mutex);
	if (!top)
		return;
	on = top->fast && top->fast_norec && top->attached &&
	     READ_ONCE(top->soft_disabled) && top->sm_ref == 1 &&
	     !top->nr_multi;
	/* After the state it depends on; pairs with khist_rec_counted(). */
	smp_store_release(&def->fast, on ? top : NULL);
}

static int khist_event_attach(struct khist_event *ev)
{
	struct khist_event *top = ev->def->ev;
	int ret;

	ret = khist_probe_get(top);
	if (ret)
		return ret;
	if (ev->def->attach) {
		ret = ev->def->attach(ev, true);
		if (ret) {
			khist_probe_put(top);
			return ret;
		}
	}
	/*
	 * Another instance's event: the probe hands records to every
	 * instance from now on (nr_multi before attached, so that a probe
	 * seeing this event attached takes that path).
	 */
	if (ev != top)
		WRITE_ONCE(top->nr_multi, top->nr_multi + 1);
	WRITE_ONCE(ev->attached, 1);
	return 0;
}

static void khist_event_detach(struct khist_event *ev)
{
	struct khist_event *top = ev->def->ev;

	WRITE_ONCE(ev->attached, 0);
	if (ev->def->attach)
		ev->def->attach(ev, false);
	if (ev != top)
		WRITE_ONCE(top->nr_multi, top->nr_multi - 1);
	khist_event_fast_sync(top);
	khist_probe_put(top);
}

/* khist_event_set_enabled() but for its checks and khist_event_fast_sync(). */
static int khist_event_enable_locked(struct khist_event *ev, bool on, bool soft)
{
	bool detach;
	int ret;

	if (!on) {
		if (soft) {
			if (WARN_ON_ONCE(ev->sm_ref <= 0))
				return -EINVAL;
			if (--ev->sm_ref > 0)
				return 0;
			detach = READ_ONCE(ev->soft_disabled);
		} else {
			detach = !ev->sm_ref;
		}
		if (detach && ev->attached)
			khist_event_detach(ev);
		WRITE_ONCE(ev->soft_disabled, ev->sm_ref > 0);
		return 0;
	}
	if (soft) {
		if (++ev->sm_ref > 1)
			return 0;
	} else {
		WRITE_ONCE(ev->soft_disabled, 0);
	}
	if (ev->attached)
		return 0;
	if (soft)
		WRITE_ONCE(ev->soft_disabled, 1);
	ret = khist_event_attach(ev);
	if (ret) {
		if (soft)
			ev->sm_ref--;
		WRITE_ONCE(ev->soft_disabled, 0);
	}
	return ret;
}

/**
 * khist_event_set_enabled() - enable or disable an event, hard or soft
 * @ev:   the event
 * @on:   enable or disable
 * @soft: a soft user (trigger, hist) rather than the enable file
 *
 * Hard enable records the event; a soft user only needs the probe, so an
 * event that is not hard-enabled stays soft-disabled while it has soft
 * users ("0*" in its enable file). Hard disable of an event with soft
 * users keeps the probe and only soft-disables it.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno (the probe could not be attached).
 */
int khist_event_set_enabled(struct khist_event *ev, bool on, bool soft)
{
	int ret;

	lockdep_assert_held(&khist_event_mutex);
	if (!ev->def)
		return -ENODEV;
	ret = khist_event_enable_locked(ev, on, soft);
	khist_event_fast_sync(ev);
	return ret;
}

/**
 * khist_event_get_use() - attach an event for a trigger or a histogram
 * @ev: the event
 *
 * The event's probe runs (and the trigger hook is called when
 * khist_event_set_triggers() is on) whether or not the event is enabled;
 * its enable file shows the soft mode with a '*'.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno.
 */
int khist_event_get_use(struct khist_event *ev)
{
	return khist_event_set_enabled(ev, true, true);
}

/**
 * khist_event_put_use() - drop a use taken by khist_event_get_use()
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_event_put_use(struct khist_event *ev)
{
	khist_event_set_enabled(ev, false, true);
}

/**
 * khist_event_use() - take or drop a soft use of an event, by name
 * @system: event system
 * @name:   event name
 * @get:    take (true) or drop (false) a use
 *
 * What a trigger does to its event (khist_event_get_use()), for modules
 * and tests: the event's probe runs while it has uses, and its enable file
 * shows the soft mode ("0*", "1*").
 *
 * Context: process context.
 * Return: 0, -ENOENT for an unknown event, -EINVAL when dropping a use
 * that was not taken, or the error of attaching the probe.
 */
int khist_event_use(const char *system, const char *name, bool get)
{
	struct khist_event *ev;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	ev = khist_event_find(system, name);
	if (!ev)
		ret = -ENOENT;
	else if (get)
		ret = khist_event_get_use(ev);
	else if (ev->sm_ref <= 0)
		ret = -EINVAL;
	else
		khist_event_put_use(ev);
	mutex_unlock(&khist_event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(khist_event_use);

/**
 * khist_event_soft_enable() - let a soft-mode event record, or stop it
 * @ev: the event, with at least one use
 * @on: record (enable_event trigger) or not (disable_event trigger)
 *
 * Context: any, including the fast path of another event.
 */
void khist_event_soft_enable(struct khist_event *ev, bool on)
{
	WRITE_ONCE(ev->soft_disabled, !on);
}

/**
 * khist_event_set_triggers() - turn the per-hit trigger hook on or off
 * @ev: the event
 * @on: call khist_triggers_call() on every hit
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_event_set_triggers(struct khist_event *ev, bool on)
{
	WRITE_ONCE(ev->has_triggers, on);
}

/**
 * khist_trigger_ops_set() - install the trigger/hist engine
 * @ops: its callbacks (static), or NULL
 *
 * Context: process context.
 */
void khist_trigger_ops_set(const struct khist_trigger_ops *ops)
{
	mutex_lock(&khist_event_mutex);
	WRITE_ONCE(khist_trigger_ops, ops);
	mutex_unlock(&khist_event_mutex);
}

/**
 * khist_event_enable_state() - what the event's enable file shows
 * @ev:  the event
 * @buf: at least 4 bytes
 *
 * Context: khist_event_mutex held.
 * Return: @buf, holding "0", "1", "0*" or "1*" and a newline.
 */
const char *khist_event_enable_state(struct khist_event *ev, char *buf)
{
	bool rec = ev->attached && !READ_ONCE(ev->soft_disabled);
	bool soft = ev->sm_ref || READ_ONCE(ev->soft_disabled);

	buf[0] = rec ? '1' : '0';
	buf[1] = soft ? '*' : '\n';
	buf[2] = soft ? '\n' : '\0';
	buf[3] = '\0';
	return buf;
}

static void khist_event_system_release(struct kref *ref)
{
	struct khist_event_system *sys =
		container_of(ref, struct khist_event_system, ref);

	kfree(sys->name);
	kfree(sys);
}

/**
 * khist_event_system_get() - take a reference on a system
 * @sys: the system
 *
 * Context: any; the caller already holds a reference or khist_event_mutex.
 */
void khist_event_system_get(struct khist_event_system *sys)
{
	kref_get(&sys->ref);
}

/**
 * khist_event_system_put() - drop a reference; the last one frees it
 * @sys: the system
 *
 * Context: any.
 */
void khist_event_system_put(struct khist_event_system *sys)
{
	kref_put(&sys->ref, khist_event_system_release);
}

static struct khist_event_system *khist_system_get(struct khist_instance *inst,
						   const char *name)
{
	struct khist_event_system *sys;

	list_for_each_entry(sys, &inst->systems, list)
		if (!strcmp(sys->name, name))
			goto have;
	sys = khist_kzalloc(sizeof(*sys), GFP_KERNEL);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	sys->name = khist_kstrdup(name, GFP_KERNEL);
	if (!sys->name) {
		kfree(sys);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&sys->ref);
	sys->inst = inst;
	INIT_LIST_HEAD(&sys->events);
	list_add_tail(&sys->list, &inst->systems);
have:
	if (!sys->dir) {
		sys->dir = khist_events_listener->system_added(inst->events_dir,
							       sys);
		if (IS_ERR(sys->dir)) {
			long err = PTR_ERR(sys->dir);

			sys->dir = NULL;
			return ERR_PTR(err);
		}
	}
	return sys;
}

static void khist_system_drop_dir(struct khist_event_system *sys)
{
	if (sys->dir && list_empty(&sys->events)) {
		khist_fs_remove(sys->dir);
		sys->dir = NULL;
	}
}

/*
 * Drop an instance's system entries (their events are gone). A system
 * stays allocated while a file of its removed directory is open; that file
 * then answers ENODEV.
 */
static void khist_systems_free(struct khist_instance *inst)
{
	struct khist_event_system *sys, *tmp;

	list_for_each_entry_safe(sys, tmp, &inst->systems, list) {
		WARN_ON_ONCE(!list_empty(&sys->events));
		if (sys->dir)
			khist_fs_remove(sys->dir);
		sys->dir = NULL;
		list_del_init(&sys->list);
		khist_event_system_put(sys);
	}
}

/**
 * khist_event_system_instance() - the instance a system directory is in
 * @sys: the system
 *
 * Context: any.
 * Return: the instance.
 */
struct khist_instance *
khist_event_system_instance(struct khist_event_system *sys)
{
	return sys->inst;
}

/**
 * khist_event_system_name() - name of an event's system
 * @sys: the system
 *
 * Context: any.
 * Return: the name.
 */
const char *khist_event_system_name(struct khist_event_system *sys)
{
	return sys->name;
}

/**
 * khist_event_system_for_each() - call @fn on every event of a system
 * @sys: the system
 * @fn:  callback; a non-zero return stops the walk
 * @arg: passed to @fn
 *
 * Context: khist_event_mutex held.
 * Return: the last value @fn returned, or 0.
 */
int khist_event_system_for_each(struct khist_event_system *sys,
				int (*fn)(struct khist_event *ev, void *arg),
				void *arg)
{
	struct khist_event *ev;
	int ret;

	list_for_each_entry(ev, &sys->events, sys_list) {
		ret = fn(ev, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static struct khist_event *khist_event_alloc(struct khist_event_def *def,
					     struct khist_instance *inst)
{
	struct khist_event *ev;

	ev = khist_kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	kref_init(&ev->ref);
	INIT_LIST_HEAD(&ev->list);
	INIT_LIST_HEAD(&ev->sys_list);
	INIT_LIST_HEAD(&ev->inst_node);
	INIT_LIST_HEAD(&ev->inst_evs);
	ev->def = def;
	khist_instance_get(inst);
	ev->inst = inst;
	ev->schema.system = def->system;
	ev->schema.name = def->name;
	ev->schema.fields = def->fields;
	ev->schema.nr_fields = def->nr_fields;
	ev->schema.rec_size = def->rec_size;
	return ev;
}

static void khist_event_dir_release(void *data)
{
	khist_event_put(data);
}

/* Give @ev its directory and files in its instance, and list it there. */
static int khist_event_publish(struct khist_event *ev)
{
	struct khist_instance *inst = ev->inst;
	struct khist_event_system *sys;
	int ret;

	sys = khist_system_get(inst, ev->def->system);
	if (IS_ERR(sys))
		return PTR_ERR(sys);
	ev->sys = sys;
	ev->dir = khist_fs_create_dir(sys->dir, ev->def->name, ev);
	if (IS_ERR(ev->dir)) {
		ret = PTR_ERR(ev->dir);
		ev->dir = NULL;
		khist_system_drop_dir(sys);
		return ret;
	}
	/* The directory's data (inode->i_private) lives as long as it. */
	khist_event_get(ev);
	khist_fs_set_release(ev->dir, khist_event_dir_release);
	ret = khist_events_listener->event_added(ev);
	if (ret) {
		khist_fs_remove(ev->dir);
		ev->dir = NULL;
		khist_system_drop_dir(sys);
		return ret;
	}
	list_add_tail(&ev->sys_list, &sys->events);
	list_add_tail(&ev->list, &inst->events);
	if (ev->def == &khist_print_def)
		WRITE_ONCE(inst->print_ev, ev);
	if (ev->def == &khist_raw_data_def)
		WRITE_ONCE(inst->raw_ev, ev);
	return 0;
}

/* Undo khist_event_publish(). */
static void khist_event_unpublish(struct khist_event *ev)
{
	struct khist_instance *inst = ev->inst;

	if (READ_ONCE(inst->print_ev) == ev)
		WRITE_ONCE(inst->print_ev, NULL);
	if (READ_ONCE(inst->raw_ev) == ev)
		WRITE_ONCE(inst->raw_ev, NULL);
	khist_fs_remove(ev->dir);
	list_del_init(&ev->list);
	list_del_init(&ev->sys_list);
	khist_system_drop_dir(ev->sys);
}

/* The event of @top's definition in another instance @inst. */
static int khist_event_add_inst(struct khist_event *top,
				struct khist_instance *inst)
{
	struct khist_event *ev;
	int ret;

	ret = khist_mem_charge(sizeof(*ev));
	if (ret)
		return ret;
	ev = khist_event_alloc(top->def, inst);
	if (!ev) {
		khist_mem_uncharge(sizeof(*ev));
		return -ENOMEM;
	}
	ev->schema.id = top->schema.id;
	ret = khist_event_publish(ev);
	if (ret) {
		khist_event_put(ev);
		return ret;
	}
	list_add_tail_rcu(&ev->inst_node, &top->inst_evs);
	/*
	 * ftrace/print has no enable file and is always recorded: enabled
	 * here as in the top instance, so that a trigger's soft use does not
	 * keep trace_marker text out of the instance's buffer.
	 */
	if (top->attached && (top->def->flags & KHIST_EVF_IGNORE_ENABLE))
		khist_event_set_enabled(ev, true, false);
	return 0;
}

/*
 * Detach and unlink one event of any instance. The caller then waits for
 * running probes and calls khist_event_free().
 */
static void khist_event_unlink(struct khist_event *ev)
{
	const struct khist_trigger_ops *tops = khist_trigger_ops;

	if (ev->attached)
		khist_event_detach(ev);
	if (tops && tops->removed)
		tops->removed(ev);
	WRITE_ONCE(ev->has_triggers, 0);
	khist_event_unpublish(ev);
	if (ev != ev->def->ev)
		list_del_rcu(&ev->inst_node);
}

static void khist_event_free(struct khist_event *ev)
{
	khist_evfilter_free(rcu_dereference_protected(ev->filter, 1));
	RCU_INIT_POINTER(ev->filter, NULL);
	ev->def = NULL;
	khist_event_put(ev);
}

/* Unlink a definition from every instance; its events go on @gone. */
static void khist_def_unlink(struct khist_event_def *def,
			     struct list_head *gone)
{
	struct khist_event *top = def->ev, *ev, *tmp;

	if (!top)
		return;
	list_for_each_entry_safe(ev, tmp, &top->inst_evs, inst_node) {
		khist_event_unlink(ev);
		list_add_tail(&ev->list, gone);
	}
	khist_event_unlink(top);
	xa_erase(&khist_event_ids, top->schema.id);
	WRITE_ONCE(def->fast, NULL);
	WRITE_ONCE(def->ev, NULL);
	list_add_tail(&top->list, gone);
}

/* Free the events on @gone once no probe can see them. */
static void khist_events_free(struct list_head *gone)
{
	struct khist_event *ev, *tmp;

	if (list_empty(gone))
		return;
	tracepoint_synchronize_unregister();
	list_for_each_entry_safe(ev, tmp, gone, list) {
		list_del_init(&ev->list);
		khist_event_free(ev);
	}
}

static int khist_event_add(struct khist_event_def *def)
{
	struct khist_instance *inst;
	struct khist_event *top;
	LIST_HEAD(gone);
	u32 id;
	int ret;

	if (khist_event_find(def->system, def->name))
		return -EEXIST;
	if (def->layout)
		def->layout();
	top = khist_event_alloc(def, khist_events_inst);
	if (!top)
		return -ENOMEM;
	if (def->fixed_id) {
		id = def->fixed_id;
		ret = xa_insert(&khist_event_ids, id, top, GFP_KERNEL);
	} else {
		ret = xa_alloc_cyclic(&khist_event_ids, &id, top,
				      XA_LIMIT(KHIST_ID_FIRST, KHIST_ID_LAST),
				      &khist_next_id, GFP_KERNEL);
		if (ret > 0)
			ret = 0;
	}
	if (ret)
		goto out_free;
	top->schema.id = id;
	ret = khist_event_publish(top);
	if (ret)
		goto out_id;
	WRITE_ONCE(def->ev, top);
	list_for_each_entry(inst, &khist_instances, list) {
		if (inst == khist_events_inst)
			continue;
		ret = khist_event_add_inst(top, inst);
		if (ret) {
			khist_def_unlink(def, &gone);
			khist_events_free(&gone);
			return ret;
		}
	}
	return 0;

out_id:
	xa_erase(&khist_event_ids, id);
out_free:
	khist_event_put(top);
	return ret;
}

static void khist_events_remove(struct khist_event_def *const *defs,
				unsigned int nr)
{
	LIST_HEAD(gone);
	unsigned int i;

	for (i = 0; i < nr; i++)
		khist_def_unlink(defs[i], &gone);
	/* No probe of these events runs after this. */
	khist_events_free(&gone);
}

/**
 * khist_events_register() - add events to khist
 * @defs: their definitions; they must stay valid until unregistered
 * @nr:   number of @defs
 *
 * Each event gets an id and its directory events/<system>/<name>/. The
 * event is not attached until enabled or used by a trigger.
 *
 * Context: process context (module init).
 * Return: 0, or -errno with none of @defs registered.
 */
int khist_events_register(struct khist_event_def *const *defs, unsigned int nr)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	if (!khist_events_inst) {
		ret = -ENODEV;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		ret = khist_event_add(defs[i]);
		if (ret) {
			pr_warn("cannot register event %s:%s: %d\n",
				defs[i]->system, defs[i]->name, ret);
			khist_events_remove(defs, i);
			break;
		}
	}
out:
	mutex_unlock(&khist_event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(khist_events_register);

/**
 * khist_events_unregister() - remove events added by khist_events_register()
 * @defs: their definitions
 * @nr:   number of @defs
 *
 * Detaches the probes and waits until none of them can still run, so the
 * caller may free or unload what the probes use once this returns.
 *
 * Context: process context (module exit).
 */
void khist_events_unregister(struct khist_event_def *const *defs,
			     unsigned int nr)
{
	mutex_lock(&khist_event_mutex);
	khist_events_remove(defs, nr);
	mutex_unlock(&khist_event_mutex);
}
EXPORT_SYMBOL_GPL(khist_events_unregister);

/**
 * khist_event_register_locked() - add one event defined at run time
 * @def: its definition; it must stay valid until unregistered
 *
 * For dynamic events (synthetic events), whose creator already holds the
 * registry lock to check names and keep its own list in step. The event
 * appears in every instance.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, -EEXIST, -ENODEV (no registry), -ENOMEM.
 */
int khist_event_register_locked(struct khist_event_def *def)
{
	lockdep_assert_held(&khist_event_mutex);
	if (!khist_events_inst)
		return -ENODEV;
	return khist_event_add(def);
}

/**
 * khist_event_unregister_locked() - remove one event added by
 * khist_event_register_locked()
 * @def: its definition
 *
 * Detaches it in every instance, drops its triggers and waits until no
 * probe or direct call can still be using it.
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_event_unregister_locked(struct khist_event_def *def)
{
	lockdep_assert_held(&khist_event_mutex);
	khist_events_remove(&def, 1);
}

/**
 * khist_events_listener_set() - who makes the files of events, systems and
 * instances' events/ directories
 * @l: the listener (files/), or NULL at module exit
 *
 * Context: process context, module init or exit, before any instance
 * exists or after every one is gone.
 */
void khist_events_listener_set(const struct khist_events_listener *l)
{
	khist_events_listener = l;
}

/**
 * khist_events_instance_add() - give a new instance every event
 * @inst: the instance, its events/ directory made
 *
 * Context: process context (mkdir in instances/).
 * Return: 0 or -errno with nothing left behind.
 */
int khist_events_instance_add(struct khist_instance *inst)
{
	struct khist_event *top;
	int ret;

	ret = khist_events_listener->instance_added(inst);
	if (ret)
		return ret;
	mutex_lock(&khist_event_mutex);
	list_add_tail(&inst->list, &khist_instances);
	list_for_each_entry(top, &khist_events_inst->events, list) {
		ret = khist_event_add_inst(top, inst);
		if (ret)
			break;
	}
	mutex_unlock(&khist_event_mutex);
	if (ret)
		khist_events_instance_remove(inst);
	return ret;
}

/**
 * khist_events_instance_remove() - drop an instance's events
 * @inst: the instance
 *
 * Disables its events, drops their triggers and waits until no probe can
 * still hand them a record.
 *
 * Context: process context (rmdir in instances/).
 */
void khist_events_instance_remove(struct khist_instance *inst)
{
	struct khist_event *ev, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&khist_event_mutex);
	list_del_init(&inst->list);
	list_for_each_entry_safe(ev, tmp, &inst->events, list) {
		khist_event_unlink(ev);
		list_add_tail(&ev->list, &gone);
	}
	khist_events_free(&gone);
	khist_systems_free(inst);
	mutex_unlock(&khist_event_mutex);
	khist_events_listener->instance_removed(inst);
}

/**
 * khist_events_top_add() - make the top-level instance the registry's own:
 * the one every event is registered in and copied from
 * @inst: the top-level instance (its events/ directory exists)
 *
 * Only the top instance: instances made by mkdir come through
 * khist_events_instance_add().
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_events_top_add(struct khist_instance *inst)
{
	int ret;

	ret = khist_events_listener->instance_added(inst);
	if (ret)
		return ret;
	mutex_lock(&khist_event_mutex);
	khist_events_inst = inst;
	list_add(&inst->list, &khist_instances);
	mutex_unlock(&khist_event_mutex);
	return 0;
}

/**
 * khist_events_top_remove() - undo khist_events_top_add()
 * @inst: the top-level instance
 *
 * Every event and every other instance is gone already.
 *
 * Context: process context, module exit.
 */
void khist_events_top_remove(struct khist_instance *inst)
{
	mutex_lock(&khist_event_mutex);
	WARN_ON(!list_empty(&inst->events));
	list_del_init(&inst->list);
	khist_systems_free(inst);
	khist_events_inst = NULL;
	WARN_ON(!list_empty(&khist_instances));
	mutex_unlock(&khist_event_mutex);
	khist_events_listener->instance_removed(inst);
}

/**
 * khist_events_init() - bring the event registry up: register the
 * built-in events
 *
 * The top-level instance is the registry's already (khist_events_top_add()).
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_events_init(void)
{
	return khist_builtin_register();
}

/**
 * khist_events_exit() - remove every built-in event
 *
 * Every other instance is gone already, and every event of a kind
 * registered at run time.
 *
 * Context: process context, module exit.
 */
void khist_events_exit(void)
{
	khist_builtin_unregister();
	xa_destroy(&khist_event_ids);
}
