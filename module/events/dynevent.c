// SPDX-License-Identifier: GPL-2.0
/*
 * dynevent.c - the run-time events of every kind (synthetic events, event
 * probes) in one list, and the dispatch of a `dynamic_events` line:
 * creation by the kind that takes it, removal by "-:[group/]name",
 * removal of them all. The file itself is files/dynamic_events.c.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "events/events.h"
#include "core/cmd_split.h"
#include "core/synth_parse.h"
#include "events/dynevent.h"

LIST_HEAD(khist_dynevent_list);
static LIST_HEAD(khist_dynevent_kinds);
/* Serialises ->create() calls and the list of kinds. */
static DEFINE_MUTEX(khist_dynevent_kinds_lock);

/**
 * khist_dynevent_ops_register() - add a kind of dynamic event
 * @ops: its operations (static)
 *
 * Context: process context.
 */
void khist_dynevent_ops_register(struct khist_dynevent_ops *ops)
{
	mutex_lock(&khist_dynevent_kinds_lock);
	list_add_tail(&ops->list, &khist_dynevent_kinds);
	mutex_unlock(&khist_dynevent_kinds_lock);
}

/**
 * khist_dynevent_ops_unregister() - remove a kind added by
 * khist_dynevent_ops_register(); its events must be gone
 * @ops: its operations
 *
 * Context: process context.
 */
void khist_dynevent_ops_unregister(struct khist_dynevent_ops *ops)
{
	mutex_lock(&khist_dynevent_kinds_lock);
	list_del_init(&ops->list);
	mutex_unlock(&khist_dynevent_kinds_lock);
}

/**
 * khist_dynevent_add() - put a new event at the end of the list
 * @ev:  the event
 * @ops: its kind
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_dynevent_add(struct khist_dynevent *ev,
			const struct khist_dynevent_ops *ops)
{
	lockdep_assert_held(&khist_event_mutex);
	ev->ops = ops;
	list_add_tail(&ev->list, &khist_dynevent_list);
}

/**
 * khist_dynevent_del() - take an event off the list
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_dynevent_del(struct khist_dynevent *ev)
{
	lockdep_assert_held(&khist_event_mutex);
	list_del_init(&ev->list);
}

/**
 * khist_dynevent_remove() - free one event unless it is busy
 * @ev: the event
 *
 * The one place where the busy rule of every kind is applied before its
 * ->free().
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, or -EBUSY and @ev is untouched.
 */
int khist_dynevent_remove(struct khist_dynevent *ev)
{
	lockdep_assert_held(&khist_event_mutex);
	if (ev->ops->is_busy(ev))
		return -EBUSY;
	ev->ops->free(ev);
	return 0;
}

/**
 * khist_dynevent_seq_print() - an event's listing line into a seq_file
 * @m:      the listing being read
 * @ev:     the event
 * @prefix: text before the kind's line (NULL: none)
 *
 * The line is measured with ->print(), then printed into a buffer of that
 * size: no line is ever cut, whatever its length.
 *
 * Context: process context, khist_event_mutex held; may sleep.
 * Return: 0 or -ENOMEM.
 */
int khist_dynevent_seq_print(struct seq_file *m,
			     const struct khist_dynevent *ev,
			     const char *prefix)
{
	int len = ev->ops->print(ev, NULL, 0);
	char *buf;

	lockdep_assert_held(&khist_event_mutex);
	if (len < 0)
		return len;
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ev->ops->print(ev, buf, len + 1);
	if (prefix)
		seq_puts(m, prefix);
	seq_puts(m, buf);
	kfree(buf);
	return 0;
}

/**
 * khist_dynevent_release_all() - remove every event of a kind, or none
 * @type: the kind, or NULL for every kind
 *
 * Nothing is removed when one of the events is busy.
 *
 * Context: process context.
 * Return: 0 or -EBUSY (an event freed before the busy one stays freed:
 * the check of every event comes first, so only when freeing one makes
 * another busy).
 */
int khist_dynevent_release_all(const struct khist_dynevent_ops *type)
{
	struct khist_dynevent *ev, *tmp;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(ev, &khist_dynevent_list, list) {
		if (type && ev->ops != type)
			continue;
		if (ev->ops->is_busy(ev)) {
			ret = -EBUSY;
			goto out;
		}
	}
	list_for_each_entry_safe(ev, tmp, &khist_dynevent_list, list) {
		if (type && ev->ops != type)
			continue;
		ret = khist_dynevent_remove(ev);
		if (ret)
			break;
	}
out:
	mutex_unlock(&khist_event_mutex);
	return ret;
}

/**
 * khist_dynevent_remove_kind() - "-:[group/]event [args]": remove every
 * matching event of a kind
 * @line: the line
 * @type: the kind, or NULL for every kind
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -ENOENT when nothing matched, -EINVAL, -EBUSY, -ENOMEM.
 */
int khist_dynevent_remove_kind(const char *line,
			       const struct khist_dynevent_ops *type)
{
	struct khist_dynevent *ev, *tmp;
	const char *system, *event;
	char **argv;
	int argc, ret;

	argv = argv_split(GFP_KERNEL, line, &argc);
	if (!argv)
		return -ENOMEM;
	ret = argc ? khist_dynevent_parse_remove(argv[0], &system, &event) :
		     -EINVAL;
	if (ret)
		goto out;
	ret = -ENOENT;
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(ev, tmp, &khist_dynevent_list, list) {
		if (type && ev->ops != type)
			continue;
		if (!ev->ops->match(system, event, argc - 1,
				    (const char **)argv + 1, ev))
			continue;
		ret = khist_dynevent_remove(ev);
		if (ret)
			break;
	}
	mutex_unlock(&khist_event_mutex);
out:
	argv_free(argv);
	return ret;
}

/**
 * khist_dynevent_command() - one line written to `dynamic_events`
 * @line: the line, newline and comment removed
 *
 * "-:[group/]event [args]" (or '!') removes every matching event of any
 * kind; any other line is offered to each registered kind in turn.
 *
 * Context: process context.
 * Return: 0 or -errno (-EINVAL when no kind takes the line).
 */
int khist_dynevent_command(const char *line)
{
	struct khist_dynevent_ops *ops;
	int ret = -ENODEV;

	if (line[0] == '-' || line[0] == '!')
		return khist_dynevent_remove_kind(line, NULL);
	mutex_lock(&khist_dynevent_kinds_lock);
	list_for_each_entry(ops, &khist_dynevent_kinds, list) {
		ret = ops->create(line);
		if (ret != -ECANCELED)
			break;
	}
	mutex_unlock(&khist_dynevent_kinds_lock);
	return ret == -ECANCELED ? -EINVAL : ret;
}

/**
 * khist_dynevent_show_all() - the lines of every run-time event, as
 * `dynamic_events` lists them
 * @m: the seq_file
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0 or -ENOMEM.
 */
int khist_dynevent_show_all(struct seq_file *m)
{
	return khist_dynevent_show_kind(m, NULL);
}

/**
 * khist_dynevent_show_kind() - the lines of the run-time events of a kind
 * @m:    the seq_file
 * @type: the kind, or NULL for every kind
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0 or -ENOMEM.
 */
int khist_dynevent_show_kind(struct seq_file *m,
			     const struct khist_dynevent_ops *type)
{
	struct khist_dynevent *ev;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(ev, &khist_dynevent_list, list) {
		if (type && ev->ops != type)
			continue;
		ret = khist_dynevent_seq_print(m, ev, ev->ops->prefix);
		if (ret)
			break;
	}
	mutex_unlock(&khist_event_mutex);
	return ret;
}
