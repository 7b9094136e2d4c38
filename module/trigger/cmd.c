// SPDX-License-Identifier: GPL-2.0
/*
 * cmd.c - what the non-hist trigger commands share: parsing a write to a
 * `trigger` file, the identity rules, counting hits, the listing line,
 * freeing, and registering the commands with the trigger engine.
 *
 * A command is written as
 *
 *   [!]cmd[:N] [if <filter>]                        traceon, snapshot, ...
 *   [!]cmd:<system>:<event>[:N] [if <filter>]       enable_event, ...
 *
 * and parsed the way ftrace parses it, quirks included: for the first
 * form, text after the command that does not start with a digit is taken
 * as the filter part, which must then start with "if"; a count is
 * everything up to the first space or tab, of which only the part before
 * a ':' is read (kstrtoul, base 0, so 0x10 works); a removal ("!cmd")
 * checks nothing but the target event and removes the event's trigger of
 * the same group, silently nothing if there is none. The kernel rejects
 * these commands without a word in error_log; khist logs why (see
 * Documentation/triggers.rst), with the same error codes.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "core/hist_errors.h"
#include "core/trigger_parse.h"
#include "mem/mem.h"
#include "trigger/triggers.h"

/* In ftrace's registration order: the "# Available triggers:" line. */
static struct khist_cmd_type *const khist_cmd_types[] = {
	&khist_traceon_cmd,	 &khist_traceoff_cmd,
	&khist_snapshot_cmd,	 &khist_stacktrace_cmd,
	&khist_enable_event_cmd, &khist_disable_event_cmd,
};

/*
 * A command of this file's kind by its word: the ones above, and the ones
 * other layers build on this code and register themselves (enable_hist,
 * disable_hist).
 */
static const struct khist_cmd_type *khist_cmd_lookup(const char *name)
{
	const struct khist_trigger_type *t = khist_trigger_type_find(name);

	if (!t || t->parse != khist_cmd_parse)
		return NULL;
	return container_of(t, struct khist_cmd_type, type);
}

static bool khist_is_cmd(const struct khist_trigger *t)
{
	return t->type->parse == khist_cmd_parse;
}

/**
 * khist_cmd_error() - log a rejected command in the instance's error_log
 * @ev:   the event whose trigger file was written
 * @cmd:  the command word
 * @msg:  the error text
 * @text: the whole command
 * @pos:  caret position in @text
 *
 * The location is "<cmd>:<system>:<event>", as hist's "hist:<sys>:<ev>".
 *
 * Context: process context.
 */
void khist_cmd_error(struct khist_event *ev, const char *cmd, const char *msg,
		     const char *text, unsigned int pos)
{
	char loc[128];

	snprintf(loc, sizeof(loc), "%s:%s:%s", cmd, ev->schema.system,
		 ev->schema.name);
	khist_error_report(ev->inst, loc, msg, text, pos);
}

/* The trigger of @c's group (and target) on @c's event, or NULL. */
static struct khist_cmd *khist_cmd_find(struct khist_event *ev,
					const struct khist_cmd *c)
{
	const struct khist_cmd_type *ct = khist_cmd_type_of(c);
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t;
	struct khist_cmd *o;

	if (!et)
		return NULL;
	list_for_each_entry(t, &et->list, list) {
		if (!khist_is_cmd(t))
			continue;
		o = khist_to_cmd(t);
		if (khist_cmd_type_of(o)->group == ct->group &&
		    o->target == c->target)
			return o;
	}
	return NULL;
}

/* Release what a trigger holds; it is not linked (any more). */
static void khist_cmd_destroy(struct khist_cmd *c)
{
	lockdep_assert_held(&khist_event_mutex);
	if (c->target) {
		if (c->target_used)
			khist_event_put_use(c->target);
		khist_event_put(c->target);
	}
	khist_trigger_free_filter(&c->base);
	kfree(c->tname);
	if (c->charged)
		khist_mem_uncharge(sizeof(*c));
	kfree(c);
}

/**
 * khist_cmd_free() - free an unlinked trigger (the engine's @free)
 * @t: the trigger, past a grace period
 *
 * The target of an enable/disable command leaves soft mode only now, so
 * that a hit still running cannot switch it after it is released.
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_cmd_free(struct khist_trigger *t)
{
	khist_cmd_destroy(khist_to_cmd(t));
}

/* The <system>:<event> that khist_trigger_parse() found: look it up. */
static int khist_cmd_target(struct khist_event *ev, struct khist_cmd *c,
			    const struct khist_trig_cmd *tc, const char *text)
{
	const char *name = khist_cmd_type_of(c)->type.name;
	struct khist_event *target;
	char *sys, *event;
	int ret = 0;

	sys = kmemdup_nul(text + tc->sys.pos, tc->sys.len, GFP_KERNEL);
	event = kmemdup_nul(text + tc->event.pos, tc->event.len, GFP_KERNEL);
	if (!sys || !event) {
		ret = -ENOMEM;
		goto out;
	}
	target = khist_event_find_in(ev->inst, sys, event);
	/* ftrace/print and the like cannot be enabled. */
	if (!target || (target->def->flags & KHIST_EVF_IGNORE_ENABLE)) {
		const char *msg;

		msg = khist_trigger_err_text(KHIST_TRERR_EVENT_NOT_FOUND);
		khist_cmd_error(ev, name, msg, text, tc->sys.pos);
		ret = -EINVAL;
		goto out;
	}
	c->tname = kasprintf(GFP_KERNEL, "%s:%s", target->schema.system,
			     target->schema.name);
	if (!c->tname) {
		ret = -ENOMEM;
		goto out;
	}
	khist_event_get(target);
	c->target = target;
out:
	kfree(sys);
	kfree(event);
	return ret;
}

static void khist_cmd_remove(struct khist_event *ev, struct khist_cmd *c)
{
	struct khist_cmd *old = khist_cmd_find(ev, c);
	LIST_HEAD(gone);

	if (!old)
		return;
	khist_trigger_queue_free(&old->base, &gone);
	khist_trigger_free_list(&gone);
}

static int khist_cmd_add(struct khist_event *ev, struct khist_cmd *c,
			 const char *text)
{
	const struct khist_cmd_type *ct = khist_cmd_type_of(c);
	int ret;

	if (ct->prepare) {
		ret = ct->prepare(c);
		if (ret)
			return ret;
	}
	if (khist_cmd_find(ev, c)) {
		khist_cmd_error(ev, ct->type.name, "Trigger already exists",
				text, 0);
		return -EEXIST;
	}
	if (c->target) {
		ret = khist_event_get_use(c->target);
		if (ret)
			return ret;
		c->target_used = true;
	}
	ret = khist_trigger_add(ev, &c->base);
	/* The event's first trigger: its list did not fit. */
	if (ret == -ENOSPC)
		khist_cmd_error(ev, ct->type.name,
				khist_hist_err_text(KHIST_HERR_MEM_LIMIT), text,
				0);
	return ret;
}

/**
 * khist_cmd_parse() - a write of one of these commands to a trigger file
 * @ev:    the event
 * @glob:  the command word as written ("traceon", "!traceon")
 * @param: what follows it, or NULL
 * @text:  the whole command
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno, as ftrace: -EINVAL for syntax errors and unknown
 * target events, -EEXIST when the event has a trigger of that group
 * already, the filter compiler's error for a bad filter.
 */
int khist_cmd_parse(struct khist_event *ev, const char *glob, char *param,
		    const char *text)
{
	const char *mem_msg = khist_hist_err_text(KHIST_HERR_MEM_LIMIT);
	bool remove = glob[0] == '!';
	const struct khist_cmd_type *ct;
	struct khist_trig_cmd tc;
	struct khist_cmd *c;
	int ret, perr;

	ct = khist_cmd_lookup(remove ? glob + 1 : glob);
	if (WARN_ON_ONCE(!ct))
		return -EINVAL;
	/* A removal only looks for the trigger: never refused. */
	if (!remove) {
		ret = khist_mem_charge(sizeof(*c));
		if (ret) {
			khist_cmd_error(ev, ct->type.name, mem_msg, text, 0);
			return ret;
		}
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		if (!remove)
			khist_mem_uncharge(sizeof(*c));
		return -ENOMEM;
	}
	c->charged = !remove;
	c->base.type = &ct->type;
	c->base.ev = ev;
	atomic_long_set(&c->count, -1);
	/*
	 * As ftrace: a missing target first, then the target's look-up, then
	 * (unless this is a removal) the count's and the filter's errors.
	 */
	perr = khist_trigger_parse(text, &tc);
	if (tc.err == KHIST_TRERR_MISSING_EVENT) {
		khist_cmd_error(ev, ct->type.name,
				khist_trigger_err_text(tc.err), text, tc.pos);
		ret = perr;
		goto out;
	}
	if (ct->target) {
		ret = khist_cmd_target(ev, c, &tc, text);
		if (ret)
			goto out;
	}
	if (remove) {
		khist_cmd_remove(ev, c);
		ret = 0;
		goto out;
	}
	if (tc.err) {
		/* -ERANGE for a count that overflows, as kstrtoul(). */
		khist_cmd_error(ev, ct->type.name,
				khist_trigger_err_text(tc.err), text, tc.pos);
		ret = perr;
		goto out;
	}
	if (tc.counted) {
		c->counted = true;
		/* As ftrace: ULONG_MAX reads back as -1, "unlimited". */
		atomic_long_set(&c->count, (long)tc.count);
	}
	/* The filter part runs to the end of @text: it is NUL-terminated. */
	if (tc.has_filter) {
		ret = khist_trigger_set_filter(&c->base, text + tc.filter.pos);
		if (ret)
			goto out;
	}
	ret = khist_cmd_add(ev, c, text);
	if (!ret)
		return 0;
out:
	khist_cmd_destroy(c);
	return ret;
}

/* Take one hit off the count; false once it is used up. */
static bool khist_cmd_take(struct khist_cmd *c)
{
	long n = atomic_long_read(&c->count);

	do {
		if (!n)
			return false;
		if (n == -1)
			return true;
	} while (!atomic_long_try_cmpxchg(&c->count, &n, n - 1));
	return true;
}

/**
 * khist_cmd_call() - one hit (the engine's @call)
 * @t:    the trigger; not paused, its filter matched
 * @rec:  the record
 * @size: its size
 * @ts:   its timestamp
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_cmd_call(struct khist_trigger *t, void *rec, unsigned int size,
		    u64 ts)
{
	struct khist_cmd *c = khist_to_cmd(t);
	const struct khist_cmd_type *ct = khist_cmd_type_of(c);

	if (c->counted) {
		if (ct->done && ct->done(c))
			return;
		if (!khist_cmd_take(c))
			return;
	}
	ct->fire(c, rec);
}

/**
 * khist_cmd_print() - the trigger's line in the trigger file
 * @m: the file
 * @t: the trigger
 *
 * "<cmd>[:<system>:<event>]:unlimited|:count=N[ if <filter>]", as ftrace.
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_cmd_print(struct seq_file *m, struct khist_trigger *t)
{
	struct khist_cmd *c = khist_to_cmd(t);
	long n = atomic_long_read(&c->count);

	seq_puts(m, t->type->name);
	if (c->tname)
		seq_printf(m, ":%s", c->tname);
	if (n == -1)
		seq_puts(m, ":unlimited");
	else
		seq_printf(m, ":count=%ld", n);
	if (t->filter_str)
		seq_printf(m, " if %s\n", t->filter_str);
	else
		seq_putc(m, '\n');
}

/**
 * khist_cmds_init() - register the commands with the trigger engine
 *
 * Called before hist registers its commands, so that the trigger file
 * lists the commands in ftrace's order.
 *
 * Context: process context, module init.
 * Return: 0 or -errno with none registered.
 */
int khist_cmds_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(khist_cmd_types); i++) {
		INIT_LIST_HEAD(&khist_cmd_types[i]->type.list);
		ret = khist_trigger_type_register(&khist_cmd_types[i]->type);
		if (ret) {
			khist_cmds_exit();
			return ret;
		}
	}
	return 0;
}

/**
 * khist_cmds_exit() - unregister the commands, dropping their triggers
 *
 * Safe to call again.
 *
 * Context: process context, module exit.
 */
void khist_cmds_exit(void)
{
	unsigned int i = ARRAY_SIZE(khist_cmd_types);

	while (i--)
		khist_trigger_type_unregister(&khist_cmd_types[i]->type);
}
