// SPDX-License-Identifier: GPL-2.0
/*
 * stack.c - ftrace/kernel_stack: stack-trace records in an instance's ring
 * buffer, as options/stacktrace writes them after every recorded event
 * (and a stacktrace trigger may, through khist_stack_record()).
 *
 * The record has ftrace's layout (its format file is the kernel's): the
 * common header of the event it follows, the number of entries, then the
 * return addresses. Frames inside khist.ko (probe, ring-buffer code, this
 * file) are left out, so the first entry is where the event happened.
 * `trace` shows it as ftrace does:
 *
 *     <task>-<pid> [cpu] flags  ts: <stack trace>
 *      => kernel_clone
 *      => __do_sys_vfork
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/stacktrace.h>
#include "base/instance.h"
#include "events/events.h"
#include "buffer/buffer.h"

/* Frames saved, and kept after dropping khist's own. */
#define KHIST_STACK_SAVE 24
#define KHIST_STACK_KEEP 16

/*
 * The frames are saved per CPU and nesting level (task, softirq, hardirq,
 * NMI, triggers of synthetic events), off the probe's stack.
 */
#define KHIST_STACK_LEVELS 8

struct khist_stack_bufs {
	int level;
	unsigned long entries[KHIST_STACK_LEVELS][KHIST_STACK_SAVE];
};

static DEFINE_PER_CPU(struct khist_stack_bufs, khist_stack_bufs);

/* ftrace's fixed id of kernel_stack (TRACE_STACK). */
#define KHIST_STACK_ID 4

/**
 * struct khist_stack_rec - one ftrace/kernel_stack record
 * @hdr:    common header (the traced event's, with this event's type)
 * @size:   entries in @caller
 * @caller: return addresses, innermost first
 */
struct khist_stack_rec {
	struct khist_common_hdr hdr;
	int size;
	unsigned long caller[];
};

/* The kernel's print fmt of kernel_stack, byte for byte. */
#define KHIST_STACK_PRINT_FMT \
	"\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1], (void *)REC->caller[2], (void *)REC->caller[3], (void *)REC->caller[4], (void *)REC->caller[5], (void *)REC->caller[6], (void *)REC->caller[7]"

static struct khist_field_desc khist_stack_fields[] = {
	{ "size", "int", 8, 4, 1, KHIST_FK_INT, 4 },
	{ "caller", "unsigned long[8]", 16, 64, 0, KHIST_FK_ARRAY, 8 },
};

static void khist_stack_print(struct khist_print_ctx *p)
{
	const struct khist_stack_rec *r = p->rec;
	unsigned int i, n;

	n = (p->size - sizeof(*r)) / sizeof(r->caller[0]);
	if (r->size >= 0 && r->size < n)
		n = r->size;
	khist_out_printf(p->out, "<stack trace>");
	for (i = 0; i < n; i++)
		khist_out_printf(p->out, "\n => %ps", (void *)r->caller[i]);
}

static int khist_stack_reg(struct khist_event_def *def, bool on)
{
	return 0;
}

struct khist_event_def khist_kernel_stack_def = {
	.system = "ftrace",
	.name = "kernel_stack",
	.fields = khist_stack_fields,
	.nr_fields = ARRAY_SIZE(khist_stack_fields),
	.rec_size = sizeof(struct khist_stack_rec),
	.print_fmt = KHIST_STACK_PRINT_FMT,
	.print = khist_stack_print,
	.reg = khist_stack_reg,
	.fixed_id = KHIST_STACK_ID,
	.flags = KHIST_EVF_IGNORE_ENABLE | KHIST_EVF_NO_NAME,
};

/**
 * khist_stack_record() - write the current stack into an instance's buffer
 * @inst: the instance
 * @hdr:  common header of the event the stack belongs to (flags, preempt
 *        count and pid are taken from it)
 *
 * Nothing is written when the buffer is off or full, as for any event.
 *
 * Context: any (NMI included), preemption disabled; no allocation.
 */
void khist_stack_record(struct khist_instance *inst,
			const struct khist_common_hdr *hdr)
{
	struct khist_buffer *buf = READ_ONCE(inst->buf);
	struct ring_buffer_event *rbe;
	struct khist_stack_rec *r;
	struct trace_buffer *rb;
	unsigned int n, first = 0;
	unsigned long *entries;
	int level;

	if (!buf || !READ_ONCE(buf->on))
		return;
	/* An interrupt or NMI that nests here takes the next level. */
	level = this_cpu_inc_return(khist_stack_bufs.level) - 1;
	barrier();
	if (level >= KHIST_STACK_LEVELS)
		goto out;
	entries = this_cpu_ptr(&khist_stack_bufs)->entries[level];
	n = stack_trace_save(entries, KHIST_STACK_SAVE, 0);
	while (first < n && within_module(entries[first], THIS_MODULE))
		first++;
	n = min_t(unsigned int, n - first, KHIST_STACK_KEEP);
	/* Once: a snapshot may swap the instance's buffers meanwhile. */
	rb = READ_ONCE(buf->rb);
	rbe = ring_buffer_lock_reserve(rb, sizeof(*r) + n * sizeof(long));
	if (!rbe)
		goto out;
	r = ring_buffer_event_data(rbe);
	r->hdr = *hdr;
	r->hdr.type = KHIST_STACK_ID;
	r->size = n;
	memcpy(r->caller, entries + first, n * sizeof(long));
	khist_rb_unlock_commit(rb, rbe);
	/* The TASK column, when the event itself was not recorded. */
	khist_comm_save(current, khist_comm_wanted(inst));
out:
	barrier();
	this_cpu_dec(khist_stack_bufs.level);
}
