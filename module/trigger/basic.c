// SPDX-License-Identifier: GPL-2.0
/*
 * basic.c - the trigger commands that act on the instance itself:
 * traceon and traceoff (its tracing_on), snapshot (a snapshot of its
 * buffer) and stacktrace (a kernel_stack record in its buffer).
 *
 * They run when the event's record is built and before it is committed,
 * so the record of the hit itself is written as ftrace writes it: a
 * traceoff still records its own hit (ftrace runs traceoff after the
 * commit), and with a snapshot, a record already reserved goes into the
 * buffer that becomes the snapshot (ftrace swaps in the middle as well).
 */
#include "base/instance.h"
#include "buffer/buffer.h"
#include "events/events.h"
#include "buffer/snapshot.h"
#include "trigger/triggers.h"

static struct khist_buffer *khist_cmd_buf(struct khist_cmd *c)
{
	return READ_ONCE(c->base.ev->inst->buf);
}

/* tracing_on of the trigger's instance, as the tracing_on file sets it. */
static void khist_cmd_tracing(struct khist_cmd *c, bool on)
{
	struct khist_buffer *buf = khist_cmd_buf(c);
	struct trace_buffer *rb;

	if (!buf || !!READ_ONCE(buf->on) == on)
		return;
	rb = READ_ONCE(buf->rb);
	if (on)
		ring_buffer_record_on(rb);
	else
		ring_buffer_record_off(rb);
	WRITE_ONCE(buf->on, on);
}

/* With a count, only hits that change tracing_on count. */
static bool khist_traceon_done(struct khist_cmd *c)
{
	struct khist_buffer *buf = khist_cmd_buf(c);

	return !buf || READ_ONCE(buf->on);
}

static bool khist_traceoff_done(struct khist_cmd *c)
{
	struct khist_buffer *buf = khist_cmd_buf(c);

	return !buf || !READ_ONCE(buf->on);
}

static void khist_traceon_fire(struct khist_cmd *c, void *rec)
{
	khist_cmd_tracing(c, true);
}

static void khist_traceoff_fire(struct khist_cmd *c, void *rec)
{
	khist_cmd_tracing(c, false);
}

static int khist_snapshot_prepare(struct khist_cmd *c)
{
	return khist_snapshot_arm(c->base.ev->inst);
}

static void khist_snapshot_fire(struct khist_cmd *c, void *rec)
{
	khist_snapshot_trigger(c->base.ev->inst);
}

/* ftrace/kernel_stack (conform/stack.c), with the hit's header. */
static void khist_stacktrace_fire(struct khist_cmd *c, void *rec)
{
	khist_stack_record(c->base.ev->inst, rec);
}

struct khist_cmd_type khist_traceon_cmd = {
	.type = { .name = "traceon", KHIST_CMD_OPS },
	.group = KHIST_GRP_ONOFF,
	.on = true,
	.done = khist_traceon_done,
	.fire = khist_traceon_fire,
};

struct khist_cmd_type khist_traceoff_cmd = {
	.type = { .name = "traceoff", KHIST_CMD_OPS, .cond = true },
	.group = KHIST_GRP_ONOFF,
	.done = khist_traceoff_done,
	.fire = khist_traceoff_fire,
};

struct khist_cmd_type khist_snapshot_cmd = {
	.type = { .name = "snapshot", KHIST_CMD_OPS },
	.group = KHIST_GRP_SNAPSHOT,
	.fire = khist_snapshot_fire,
	.prepare = khist_snapshot_prepare,
};

struct khist_cmd_type khist_stacktrace_cmd = {
	.type = { .name = "stacktrace", KHIST_CMD_OPS, .cond = true },
	.group = KHIST_GRP_STACK,
	.fire = khist_stacktrace_fire,
};
