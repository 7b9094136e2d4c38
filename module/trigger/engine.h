/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - khist's trigger engine, as the trigger commands (trigger/,
 * hist/, eprobe/) see it. The engine knows no command: each registers its
 * struct khist_trigger_type, hist from its own init.
 *
 * Triggers
 *
 *   Every event with triggers has a struct khist_ev_triggers in
 *   ev->trigger_data: an RCU list of struct khist_trigger, walked on every
 *   hit (khist_triggers_call()) in list order; an event's only trigger
 *   is called without the walk (khist_ev_triggers.one). A trigger belongs
 *   to one command type (struct khist_trigger_type: "hist", and the
 *   commands other areas register with khist_trigger_type_register()).
 *   Writes to an event's `trigger` file are dispatched by command word;
 *   opening it with O_TRUNC asks every type to drop its triggers on that
 *   event.
 */
#ifndef _KHIST_TRIGGER_ENGINE_H
#define _KHIST_TRIGGER_ENGINE_H

#include <linux/list.h>
#include <linux/seq_file.h>
#include "events/events.h"

struct khist_trigger;

/**
 * struct khist_trigger_type - one trigger command ("hist", "traceon", ...)
 * @name:   the command word
 * @tail:   new triggers go to the tail of the event's list (hist), else
 *          to the head (the kernel's order for the other commands)
 * @hidden: not listed in the `trigger` file, which shows the available
 *          commands while only hidden triggers are on the event (event
 *          probes; such a type is not registered)
 * @cond:   it reads the record (hist, event probes) or must come after
 *          it is written (traceoff, stacktrace): as in ftrace, while an
 *          event has such a trigger or a filtered one, none of its
 *          triggers fires for a task that set_event_pid filters out
 *          (khist_triggers_call_uncond())
 * @parse:  handle one write: @glob is the command word as written (with
 *          its '!' for removal), @param what follows it (may be NULL) and
 *          @text the whole command. Process context, khist_event_mutex
 *          held. Returns 0 or -errno (having logged to error_log).
 * @call:   one hit (the trigger is not paused and its filter matched);
 *          any context, as khist_triggers_call()
 * @reads:  optional: what of the record @call reads (KHIST_READS_*;
 *          without it, all of it); mutex held, before the trigger is
 *          linked
 * @print:  its line in the `trigger` file; mutex held
 * @unreg_all: drop this type's triggers from @ev (O_TRUNC open); mutex
 *          held; may keep triggers that others depend on
 * @unlink: optional; the trigger was just unlinked (mutex held): release
 *          what others could still find (names, references)
 * @free:   free a trigger unlinked from its event, after a grace period;
 *          process context
 * @counting: optional: @t, the event's only trigger, can count a hit
 *          without its record (khist_triggers_fast() of events/hooks.h,
 *          which the type implements); mutex held
 * @counting_norec: optional, with @counting: and reads nothing of the
 *          record at all; mutex held
 * @lost:   optional: a hit of the event that no record could be built
 *          for (khist_triggers_lost()); any context, as @call
 * @list:   entry in the type registry
 */
struct khist_trigger_type {
	const char *name;
	bool tail;
	bool hidden;
	bool cond;
	int (*parse)(struct khist_event *ev, const char *glob, char *param,
		     const char *text);
	void (*call)(struct khist_trigger *t, void *rec, unsigned int size,
		     u64 ts);
	unsigned int (*reads)(struct khist_trigger *t);
	void (*print)(struct seq_file *m, struct khist_trigger *t);
	void (*unreg_all)(struct khist_event *ev);
	void (*unlink)(struct khist_trigger *t);
	void (*free)(struct khist_trigger *t);
	bool (*counting)(const struct khist_trigger *t);
	bool (*counting_norec)(const struct khist_trigger *t);
	void (*lost)(struct khist_trigger *t);
	struct list_head list;
};

/**
 * struct khist_trigger - one trigger on one event
 * @list:       entry in the event's trigger list (RCU)
 * @type:       its command
 * @ev:         its event
 * @paused:     skipped on hits (read with READ_ONCE())
 * @filter:     compiled `if` filter (evfilter.h), or NULL
 * @filter_str: the filter text, or NULL
 * @free_list:  entry in a list of triggers waiting for a grace period
 */
struct khist_trigger {
	struct list_head list;
	const struct khist_trigger_type *type;
	struct khist_event *ev;
	int paused;
	struct khist_filter *filter;
	char *filter_str;
	struct list_head free_list;
};

/**
 * struct khist_ev_triggers - ev->trigger_data
 * @list: the event's triggers, in the order they run and are listed
 * @one:  the trigger when @list holds exactly one, else NULL: a hit then
 *        calls it without walking the list
 */
struct khist_ev_triggers {
	struct list_head list;
	struct khist_trigger *one;
};

/* The engine (engine.c). */
int khist_trigger_type_register(struct khist_trigger_type *type);
void khist_trigger_type_unregister(struct khist_trigger_type *type);
struct khist_ev_triggers *khist_ev_triggers_get(struct khist_event *ev);
int khist_trigger_add(struct khist_event *ev, struct khist_trigger *t);
void khist_trigger_unlink(struct khist_trigger *t);
void khist_trigger_queue_free(struct khist_trigger *t, struct list_head *gone);
void khist_trigger_free_list(struct list_head *gone);
void khist_trigger_sync(void);
void khist_trigger_free_filter(struct khist_trigger *t);
int khist_trigger_set_filter(struct khist_trigger *t, const char *text);
struct khist_trigger_type *khist_trigger_type_find(const char *name);
int khist_triggers_init(void);
void khist_triggers_exit(void);

#endif /* _KHIST_TRIGGER_ENGINE_H */
