// SPDX-License-Identifier: GPL-2.0
/*
 * hist_onoff.c - enable_hist and disable_hist: trigger commands that
 * continue and pause every hist trigger of another event of the same
 * instance. They are target commands of trigger/cmd.c (count, target
 * parsing, soft mode of the target); hist registers them from
 * khist_hist_init(), before "hist" itself, as ftrace lists them.
 */
#include "base/instance.h"
#include "hist.h"
#include "trigger/triggers.h"

/* Pause or continue every hist trigger of the target, as ftrace. */
static void khist_hist_fire(struct khist_cmd *c, void *rec)
{
	struct khist_ev_triggers *et;
	struct khist_trigger *t;
	int paused = !khist_cmd_type_of(c)->on;

	/* Triggers are freed after a grace period that covers this hit. */
	et = smp_load_acquire(&c->target->trigger_data);
	if (!et)
		return;
	list_for_each_entry_rcu(t, &et->list, list)
		if (khist_is_hist(t))
			WRITE_ONCE(t->paused, paused);
}

/**
 * khist_hist_onoff_unreg_all() - drop an event's enable_hist/disable_hist
 * triggers: ftrace's O_TRUNC open does it (and keeps the others)
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 */
static void khist_hist_onoff_unreg_all(struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t, *n;
	LIST_HEAD(gone);

	if (!et)
		return;
	list_for_each_entry_safe(t, n, &et->list, list)
		if (t->type == &khist_enable_hist_cmd.type ||
		    t->type == &khist_disable_hist_cmd.type)
			khist_trigger_queue_free(t, &gone);
	khist_trigger_free_list(&gone);
}

struct khist_cmd_type khist_enable_hist_cmd = {
	.type = { .name = "enable_hist",
		  KHIST_CMD_OPS,
		  .unreg_all = khist_hist_onoff_unreg_all },
	.group = KHIST_GRP_HIST,
	.on = true,
	.target = true,
	.fire = khist_hist_fire,
};

struct khist_cmd_type khist_disable_hist_cmd = {
	.type = { .name = "disable_hist",
		  KHIST_CMD_OPS,
		  .unreg_all = khist_hist_onoff_unreg_all },
	.group = KHIST_GRP_HIST,
	.target = true,
	.fire = khist_hist_fire,
};
