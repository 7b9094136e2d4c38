// SPDX-License-Identifier: GPL-2.0
/*
 * target.c - the trigger commands that act on another event of the same
 * instance: enable_event and disable_event switch it on and off in soft
 * mode (its enable file shows "1*" or "0*" while the trigger exists).
 * enable_hist and disable_hist, built on the same code (cmd.c), are
 * hist's (hist/hist_onoff.c).
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
