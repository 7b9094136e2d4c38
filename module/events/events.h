/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - khist's event registry, as the rest of khist sees it.
 *
 * Every event (built-in probe on a kernel tracepoint, event of another
 * module, ftrace/print) is a struct khist_event_def; each instance (the
 * top level and every instances/<name>/) has its own struct khist_event
 * for it - ftrace's trace_event_file - with a schema (the layout the hist
 * binder and the filter compiler bind against), a directory
 * events/<system>/<name>/, its own filter and triggers, and an enable
 * state modelled on ftrace's:
 *
 *   attached      the probe is registered (user enable, or a soft user)
 *   sm_ref        soft users: triggers, hist (khist_event_get_use())
 *   soft_disabled attached for soft users only: records are built for the
 *                 triggers but not written to the ring buffer
 *
 * One probe per definition serves every instance: it is registered while
 * any instance's event is attached. The top instance's event (def->ev)
 * also carries that shared state and an RCU list of the other instances'
 * events; while one of those is attached the probe builds the record once
 * and hands it to each attached instance (ringbuf.c).
 *
 * Locking: khist_event_mutex protects the registry and every event's
 * state; the fast path reads the few fields it needs with READ_ONCE().
 */
#ifndef _KHIST_EVENTS_EVENTS_H
#define _KHIST_EVENTS_EVENTS_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <khist/event.h>
#include "fs/fs.h"
#include "base/instance.h"

struct khist_event_system;
struct khist_instance;
struct khist_filter;
struct khist_ev_triggers;
struct khist_trigger;

/**
 * struct khist_event - a registered event
 * @schema:        name, id and record layout (fields exclude the header)
 * @def:           the static definition; NULL once unregistered
 * @inst:          its instance (a reference is held)
 * @sys:           its system (in @inst)
 * @dir:           events/<system>/<name>/
 * @list:          entry in @inst's events, sorted by system then name
 * @sys_list:      entry in @sys's event list
 * @inst_node:     other instances: entry in the top event's @inst_evs
 * @inst_evs:      top instance only: the other instances' events (RCU)
 * @probe_users:   top instance only: attached events of this definition
 *                 (the probe is registered while it is non-zero)
 * @nr_multi:      top instance only: attached events of other instances
 * @ref:           references: registry + one per file node
 * @attached:      wants the probe (enabled, or soft users)
 * @sm_ref:        soft users (triggers, hist)
 * @soft_disabled: attached for soft users only, not recorded
 * @has_triggers:  call the trigger hook on every hit
 * @trig_reads:    what of the record the triggers and their filters read
 *                 (KHIST_READS_*): while the event is not recorded, the
 *                 fast path builds only that (set before a trigger is
 *                 linked, lowered after one is unlinked; release/acquire)
 * @filter_text:   the `filter` file's text, NULL when none
 * @filter:        compiled filter (evfilter.c), or NULL
 * @trigger_data:  the trigger engine's list (trigger/engine.h), untouched
 *                 by the registry
 * @fast:          the trigger engine's counting hist for the event, or NULL
 *                 (set by the engine under khist_event_mutex, release,
 *                 then khist_event_fast_sync()). A record built for the
 *                 triggers only is handed to khist_triggers_fast_rec()
 *                 instead of khist_triggers_call(). When @fast_norec is
 *                 set too and nothing else wants the event, def->fast
 *                 points here and the probe calls khist_rec_fast(), which
 *                 hands the hit to khist_triggers_fast() without a record.
 * @fast_norec:    @fast reads nothing of the record (set with @fast)
 */
struct khist_event {
	struct khist_event_schema schema;
	struct khist_event_def *def;
	struct khist_instance *inst;
	struct khist_event_system *sys;
	struct khist_node *dir;
	struct list_head list;
	struct list_head sys_list;
	struct list_head inst_node;
	struct list_head inst_evs;
	int probe_users;
	int nr_multi;
	struct kref ref;
	int attached;
	int sm_ref;
	int soft_disabled;
	int has_triggers;
	int trig_reads;
	char *filter_text;
	struct khist_filter __rcu *filter;
	struct khist_ev_triggers *trigger_data;
	struct khist_trigger *fast;
	int fast_norec;
};

/**
 * struct khist_trigger_ops - the trigger/hist engine, as the event files
 * call it (set once with khist_trigger_ops_set()); the fast path calls
 * khist_triggers_call() directly while an event has triggers
 * @write:  a write to events/<sys>/<name>/trigger (@buf NUL-terminated,
 *          whitespace-trimmed; a write adds or, with '!', removes one
 *          trigger, whatever the open flags); @buf NULL: the file is being
 *          opened with O_TRUNC, remove the event's triggers (ftrace's
 *          "unregister all").
 *          Process context, khist_event_mutex NOT held. Return 0 or
 *          -errno.
 * @show:   print the `trigger` file; process context, mutex held. When
 *          NULL, the file shows the "# Available triggers:" header.
 * @removed: @ev is being unregistered: drop every trigger on it. Process
 *          context, mutex held; the probe is already detached.
 */
struct khist_trigger_ops {
	int (*write)(struct khist_event *ev, char *buf);
	int (*show)(struct seq_file *m, struct khist_event *ev);
	void (*removed)(struct khist_event *ev);
};

extern struct mutex khist_event_mutex;
extern const struct khist_trigger_ops *khist_trigger_ops;

/* Registry (registry.c). */
int khist_events_top_add(struct khist_instance *inst);
void khist_events_top_remove(struct khist_instance *inst);
int khist_events_init(void);
void khist_events_exit(void);
int khist_events_instance_add(struct khist_instance *inst);
void khist_events_instance_remove(struct khist_instance *inst);
struct khist_event *khist_event_find(const char *system, const char *name);
struct khist_event *khist_event_find_in(struct khist_instance *inst,
					const char *system, const char *name);
struct khist_event *khist_event_by_id(unsigned int id);
void khist_event_get(struct khist_event *ev);
void khist_event_put(struct khist_event *ev);
int khist_event_set_enabled(struct khist_event *ev, bool on, bool soft);
void khist_event_fast_sync(struct khist_event *ev);
int khist_event_get_use(struct khist_event *ev);
void khist_event_put_use(struct khist_event *ev);
void khist_event_soft_enable(struct khist_event *ev, bool on);
void khist_event_set_triggers(struct khist_event *ev, bool on);
void khist_trigger_ops_set(const struct khist_trigger_ops *ops);
int khist_event_register_locked(struct khist_event_def *def);
void khist_event_unregister_locked(struct khist_event_def *def);
const char *khist_event_enable_state(struct khist_event *ev, char *buf);
const char *khist_event_system_name(struct khist_event_system *sys);
void khist_event_system_get(struct khist_event_system *sys);
void khist_event_system_put(struct khist_event_system *sys);
struct khist_instance *
khist_event_system_instance(struct khist_event_system *sys);
int khist_event_system_for_each(struct khist_event_system *sys,
				int (*fn)(struct khist_event *ev, void *arg),
				void *arg);

/**
 * struct khist_events_listener - the files of the registry's objects,
 * made by files/ (registered with khist_events_listener_set() at init); the
 * registry calls them under khist_event_mutex unless said otherwise
 * @system_added:     make events/<system>/ in @events_dir; ERR_PTR() on
 *                    failure
 * @event_added:      make the files of events/<system>/<name>/ (the
 *                    directory exists); 0 or -errno
 * @instance_added:   make the files of an instance's events/ directory
 *                    (set_event, ...); mutex NOT held; 0 or -errno
 * @instance_removed: remove them; mutex NOT held
 * All in process context.
 */
struct khist_events_listener {
	struct khist_node *(*system_added)(struct khist_node *events_dir,
					   struct khist_event_system *sys);
	int (*event_added)(struct khist_event *ev);
	int (*instance_added)(struct khist_instance *inst);
	void (*instance_removed)(struct khist_instance *inst);
};

void khist_events_listener_set(const struct khist_events_listener *l);

/* Built-in events (builtin.c, syscalls.c, print.c, stack.c). */
int khist_builtin_register(void);
void khist_builtin_unregister(void);
extern struct khist_event_def khist_print_def;
extern struct khist_event_def khist_raw_data_def;
void khist_snapshot_trigger(struct khist_instance *inst);

/* The record path's per-CPU scratch (record.c). */
int khist_rec_scratch_init(void);
void khist_rec_scratch_exit(void);

/* One line of `trace` (format.c). */
void khist_ringbuf_format(struct khist_out *out, int cpu, u64 ts,
			  const void *rec, unsigned int size);
extern struct khist_event_def khist_kernel_stack_def;
void khist_stack_record(struct khist_instance *inst,
			const struct khist_common_hdr *hdr);
unsigned int khist_syscall_defs(struct khist_event_def **defs,
				unsigned int max);

#endif /* _KHIST_EVENTS_EVENTS_H */
