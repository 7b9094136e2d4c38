// SPDX-License-Identifier: GPL-2.0
/*
 * target.c - the trigger commands that act on another event of the same
 * instance: enable_event and disable_event switch it on and off in soft
 * mode (its enable file shows "1*" or "0*" while the trigger exists),
 * enable_hist and disable_hist continue and pause its hist triggers.
 *
 * The target is in soft mode from the moment the trigger is set (its probe
 * runs, its records are dropped until enable_event lets them through),
 * as in ftrace, for enable_hist and disable_hist too.
 */
#include "base/instance.h"
#include "trigger/triggers.h"

/* With a count, only hits that change the target's state count. */
static bool khist_event_done(struct khist_cmd *c)
{
	bool on = khist_cmd_type_of(c)->on;

	return on == !READ_ONCE(c->target->soft_disabled);
}

static void khist_event_fire(struct khist_cmd *c, void *rec)
{
	khist_event_soft_enable(c->target, khist_cmd_type_of(c)->on);
}

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
 * khist_target_unreg_all() - drop an event's enable_hist/disable_hist
 * triggers: ftrace's O_TRUNC open does it (and keeps the others)
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_target_unreg_all(struct khist_event *ev)
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

struct khist_cmd_type khist_enable_event_cmd = {
	.type = { .name = "enable_event", KHIST_CMD_OPS },
	.group = KHIST_GRP_EVENT,
	.on = true,
	.target = true,
	.done = khist_event_done,
	.fire = khist_event_fire,
};

struct khist_cmd_type khist_disable_event_cmd = {
	.type = { .name = "disable_event", KHIST_CMD_OPS },
	.group = KHIST_GRP_EVENT,
	.target = true,
	.done = khist_event_done,
	.fire = khist_event_fire,
};

struct khist_cmd_type khist_enable_hist_cmd = {
	.type = { .name = "enable_hist",
		  KHIST_CMD_OPS,
		  .unreg_all = khist_target_unreg_all },
	.group = KHIST_GRP_HIST,
	.on = true,
	.target = true,
	.fire = khist_hist_fire,
};

struct khist_cmd_type khist_disable_hist_cmd = {
	.type = { .name = "disable_hist",
		  KHIST_CMD_OPS,
		  .unreg_all = khist_target_unreg_all },
	.group = KHIST_GRP_HIST,
	.target = true,
	.fire = khist_hist_fire,
};
