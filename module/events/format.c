// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - one line of `trace` for a record: the common columns (task,
 * CPU, flags, timestamp) and the event's own print format, found by the
 * record's type in the registry.
 */
#include <linux/sched.h>
#include <linux/trace_events.h>
#include "buffer/buffer.h"
#include "events/events.h"

static char khist_irqs_char(u8 f)
{
	if ((f & TRACE_FLAG_IRQS_OFF) && (f & TRACE_FLAG_BH_OFF))
		return 'D';
	if (f & TRACE_FLAG_IRQS_OFF)
		return 'd';
	if (f & TRACE_FLAG_BH_OFF)
		return 'b';
#if !KHIST_HAVE_RESCHED_LAZY
	if (f & TRACE_FLAG_IRQS_NOSUPPORT)
		return 'X';
#endif
	return '.';
}

#if KHIST_HAVE_RESCHED_LAZY
/* The need-resched column with lazy preemption (N/L: now, lazily). */
static char khist_resched_char(u8 f)
{
	bool now = f & TRACE_FLAG_NEED_RESCHED;
	bool lazy = f & TRACE_FLAG_NEED_RESCHED_LAZY;
	bool preempt = f & TRACE_FLAG_PREEMPT_RESCHED;

	if (now && lazy)
		return preempt ? 'B' : 'b';
	if (now)
		return preempt ? 'N' : 'n';
	if (lazy)
		return preempt ? 'L' : 'l';
	return preempt ? 'p' : '.';
}
#else
static char khist_resched_char(u8 f)
{
	switch (f & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED)) {
	case TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED:
		return 'N';
	case TRACE_FLAG_NEED_RESCHED:
		return 'n';
	case TRACE_FLAG_PREEMPT_RESCHED:
		return 'p';
	default:
		return '.';
	}
}
#endif

static char khist_ctx_char(u8 f)
{
	bool nmi = f & TRACE_FLAG_NMI, hard = f & TRACE_FLAG_HARDIRQ;
	bool soft = f & TRACE_FLAG_SOFTIRQ;

	if (nmi)
		return hard ? 'Z' : 'z';
	if (hard)
		return soft ? 'H' : 'h';
	return soft ? 's' : '.';
}

static char khist_hex_or_dot(unsigned int v)
{
	return v ? hex_asc[v & 0xf] : '.';
}

/**
 * khist_ringbuf_format() - one line of `trace` / `trace_pipe`
 * @out:  where the line goes (with its newline)
 * @cpu:  the CPU the record came from
 * @ts:   its timestamp in ns
 * @rec:  the record
 * @size: its size
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_ringbuf_format(struct khist_out *out, int cpu, u64 ts,
			  const void *rec, unsigned int size)
{
	const struct khist_common_hdr *hdr = rec;
	char scratch[KHIST_PRINT_SCRATCH];
	struct khist_print_ctx p = {
		.out = out,
		.rec = rec,
		.size = size,
		.scratch = scratch,
	};
	char comm[TASK_COMM_LEN];
	struct khist_event *ev;
	unsigned long usecs;
	u64 t;

	if (size < sizeof(*hdr))
		return;
	khist_comm_lookup(hdr->pid, comm);
	t = div_u64(ts + 500, NSEC_PER_USEC);
	usecs = do_div(t, USEC_PER_SEC);
	khist_out_printf(out, "%16s-%-7d [%03d] %c%c%c%c%c %5llu.%06lu: ", comm,
			 hdr->pid, cpu, khist_irqs_char(hdr->flags),
			 khist_resched_char(hdr->flags),
			 khist_ctx_char(hdr->flags),
			 khist_hex_or_dot(hdr->preempt_count & 0xf),
			 khist_hex_or_dot(hdr->preempt_count >> 4), t, usecs);
	ev = khist_event_by_id(hdr->type);
	if (!ev || !ev->def || size < ev->schema.rec_size) {
		khist_out_printf(out, "Unknown type %d\n", hdr->type);
		return;
	}
	if (!(ev->def->flags & KHIST_EVF_NO_NAME))
		khist_out_printf(out, "%s: ", ev->schema.name);
	ev->def->print(&p);
	khist_out_printf(out, "\n");
}
