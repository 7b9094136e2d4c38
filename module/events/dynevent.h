/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dynevent.h - the `dynamic_events` file and the list of events created at
 * run time, shared by every kind of dynamic event (synthetic events here;
 * event probes and others can plug in the same way).
 *
 * A kind registers a struct khist_dynevent_ops. A line written to
 * `dynamic_events` that starts with "-:" (or "!") removes the matching
 * events of every kind; any other line is offered to each kind's
 * ->create() in registration order until one does not return -ECANCELED.
 * Each created event embeds a struct khist_dynevent and adds it to the
 * list, which keeps creation order for the listing.
 *
 * Rules every kind gets from this layer rather than keeping its own copy:
 * an event is freed only through khist_dynevent_remove() (or the removals
 * built on it), which asks ->is_busy() first and answers -EBUSY, so ->free()
 * never sees a busy event; and the listing line is measured with
 * ->print(), then printed once into a buffer of that size, behind the
 * kind's ->prefix (khist_dynevent_seq_print()).
 *
 * Locking: the list and every event on it are protected by
 * khist_event_mutex. ->create() is called without it; ->print(),
 * ->is_busy(), ->match() and ->free() with it held.
 */
#ifndef _KHIST_EVENTS_DYNEVENT_H
#define _KHIST_EVENTS_DYNEVENT_H

#include <linux/list.h>
#include <linux/seq_file.h>

struct khist_instance;
struct khist_dynevent;

/**
 * struct khist_dynevent_ops - one kind of dynamic event
 * @create:  handle one line; -ECANCELED when the line is not of this kind
 * @print:   the event's listing line after @prefix, newline included, into
 *           @buf of @size bytes (NULL and 0 to measure); its full length,
 *           as snprintf()
 * @prefix:  what `dynamic_events` shows before ->print()'s text ("" none)
 * @is_busy: the event may not be removed now
 * @free:    remove the event (unregister and free it); called only after
 *           ->is_busy() said no
 * @match:   is this the event @system/@event (@system NULL: any group)?
 *           @argc/@argv are the words after the name on the removal line
 * @list:    entry in the list of kinds
 */
struct khist_dynevent_ops {
	int (*create)(const char *line);
	int (*print)(const struct khist_dynevent *ev, char *buf, size_t size);
	const char *prefix;
	bool (*is_busy)(struct khist_dynevent *ev);
	void (*free)(struct khist_dynevent *ev);
	bool (*match)(const char *system, const char *event, int argc,
		      const char **argv, struct khist_dynevent *ev);
	struct list_head list;
};

/**
 * struct khist_dynevent - the part of a dynamic event the list knows
 * @list: entry in the list of dynamic events, in creation order
 * @ops:  its kind
 */
struct khist_dynevent {
	struct list_head list;
	const struct khist_dynevent_ops *ops;
};

extern struct list_head khist_dynevent_list;

void khist_dynevent_ops_register(struct khist_dynevent_ops *ops);
void khist_dynevent_ops_unregister(struct khist_dynevent_ops *ops);
void khist_dynevent_add(struct khist_dynevent *ev,
			const struct khist_dynevent_ops *ops);
void khist_dynevent_del(struct khist_dynevent *ev);
int khist_dynevent_remove(struct khist_dynevent *ev);
int khist_dynevent_seq_print(struct seq_file *m,
			     const struct khist_dynevent *ev,
			     const char *prefix);
int khist_dynevent_release_all(const struct khist_dynevent_ops *type);
int khist_dynevent_command(const char *line);
int khist_dynevent_show_all(struct seq_file *m);
int khist_dynevent_remove_kind(const char *line,
			       const struct khist_dynevent_ops *type);
int khist_dynevent_show_kind(struct seq_file *m,
			     const struct khist_dynevent_ops *type);

#endif /* _KHIST_EVENTS_DYNEVENT_H */
