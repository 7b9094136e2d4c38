// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - the record fast path: reserve, trigger hook, filter, commit.
 *
 * A probe reserves its record in the ring buffer when the event is to be
 * recorded, or in a per-CPU scratch slot when only its triggers want it
 * (soft mode, tracing_on 0, buffer full), and when several instances
 * want it. The scratch has one page-sized slot per context level (task,
 * softirq, hardirq, NMI), so a probe interrupted by another never shares
 * its slot, and any record the ring buffer would take fits; nothing is
 * allocated and no lock is taken on this path. A record that cannot be
 * delivered (bigger than the ring buffer takes, nested deeper than the
 * levels, refused by the buffer) is counted in the instance's `dropped`
 * and, for the hists that missed it, in their Lost total.
 *
 * The trigger engine above this layer is reached only through the per-hit
 * calls of events/hooks.h.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "mem/mem.h"
#include "events/events.h"
#include "events/evfilter.h"
#include "events/hooks.h"
#include "events/pidfilter.h"

#define KHIST_SCRATCH_LEVELS 4
#define KHIST_SCRATCH_SLOT PAGE_SIZE

struct khist_scratch {
	int level;
	char slot[KHIST_SCRATCH_LEVELS][KHIST_SCRATCH_SLOT] __aligned(8);
};

static struct khist_scratch __percpu *khist_scratch;

/*
 * The common_flags and common_preempt_count of a record, as ftrace computes
 * them for a trace event: the probe runs with one preemption level taken
 * by the tracepoint (or by khist_trace_<name>()), which is not counted.
 */
static u8 khist_hdr_flags(void)
{
	unsigned int pc = preempt_count();
	u8 flags = 0;

	if (irqs_disabled())
		flags |= TRACE_FLAG_IRQS_OFF;
	if (pc & NMI_MASK)
		flags |= TRACE_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= TRACE_FLAG_SOFTIRQ;
	if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
		flags |= TRACE_FLAG_BH_OFF;
	if (tif_need_resched())
		flags |= TRACE_FLAG_NEED_RESCHED;
#if KHIST_HAVE_RESCHED_LAZY
	if (test_thread_flag(TIF_NEED_RESCHED_LAZY))
		flags |= TRACE_FLAG_NEED_RESCHED_LAZY;
#endif
	if (test_preempt_need_resched())
		flags |= TRACE_FLAG_PREEMPT_RESCHED;
	return flags;
}

static __always_inline u8 khist_hdr_pc(void)
{
	unsigned int depth, mig = 0;

	depth = min_t(unsigned int, preempt_count() & 0xff, 0xf);
	if (depth)
		depth--;
#ifdef CONFIG_SMP
	mig = min_t(unsigned int, current->migration_disabled, 0xf);
#endif
	return depth | mig << 4;
}

static struct khist_common_hdr khist_hdr(u16 type)
{
	struct khist_common_hdr hdr = {
		.type = type,
		.flags = khist_hdr_flags(),
		.preempt_count = khist_hdr_pc(),
		.pid = current->pid,
	};

	return hdr;
}

/* The flags and the depth a trigger reads (out of line: seldom read). */
static noinline void khist_hdr_read(struct khist_common_hdr *hdr,
				    unsigned int reads)
{
	if (reads & KHIST_READS_FLAGS)
		hdr->flags = khist_hdr_flags();
	if (reads & KHIST_READS_PC)
		hdr->preempt_count = khist_hdr_pc();
}

/*
 * Fill a header for triggers only: common_type and common_pid, and the
 * flags and the preemption depth only when a trigger reads them.
 */
static __always_inline void khist_hdr_for(struct khist_common_hdr *hdr,
					  u16 type, unsigned int reads)
{
	hdr->type = type;
	hdr->flags = 0;
	hdr->preempt_count = 0;
	hdr->pid = current->pid;
	if (unlikely(reads & (KHIST_READS_FLAGS | KHIST_READS_PC)))
		khist_hdr_read(hdr, reads);
}

/*
 * Only the trigger engine sets has_triggers (khist_event_set_triggers()),
 * so the engine is there to call: directly, not through its ops.
 */
static void khist_rec_run_triggers(struct khist_event *ev, void *rec,
				   unsigned int size)
{
	if (READ_ONCE(ev->has_triggers))
		khist_triggers_call(ev, rec, size);
}

/*
 * A record built for the triggers only: an only trigger that is a
 * counting hist is called directly.
 */
static __always_inline void
khist_rec_scratch_triggers(struct khist_event *ev, void *rec, unsigned int size)
{
	/* Pairs with the release in trigger.c. */
	struct khist_trigger *t = smp_load_acquire(&ev->fast);

	if (t)
		khist_triggers_fast_rec(t, rec, size);
	else
		khist_triggers_call(ev, rec, size);
}

/*
 * Triggers that read only the header: run them on one built on the stack
 * and build nothing else. Out of line, so that the reserve path has no
 * local whose address is taken; the header is its only local, hence no
 * stack canary here either.
 */
static noinline __no_stack_protector void
khist_rec_hdr_only(struct khist_event *ev, unsigned int reads)
{
	struct khist_common_hdr hdr;

	khist_hdr_for(&hdr, ev->schema.id, reads);
	/* The caller has just seen has_triggers set. */
	khist_rec_scratch_triggers(ev, &hdr, sizeof(hdr));
}

/* A counting hist's miss: the full path, for a record of the header only. */
static noinline void khist_rec_fast_miss(struct khist_event *ev)
{
	unsigned int reads;

	if (!READ_ONCE(ev->has_triggers))
		return;
	/*
	 * Pairs with the releases in trigger.c. A trigger that was just
	 * added may read fields: it sees the size of a header.
	 */
	reads = smp_load_acquire(&ev->trig_reads);
	khist_rec_hdr_only(ev, reads);
}

/*
 * set_event_pid filters the task out of @ev's instance: nothing is
 * recorded, but unconditional triggers still fire (6.12's order), on a
 * header built on the stack.
 */
static noinline __no_stack_protector void
khist_rec_pid_ignored(struct khist_event *ev)
{
	struct khist_common_hdr hdr;

	if (!READ_ONCE(ev->has_triggers))
		return;
	khist_hdr_for(&hdr, ev->schema.id, 0);
	khist_triggers_call_uncond(ev, &hdr, sizeof(hdr));
}

/**
 * khist_rec_fast() - one hit of an event that is only counted
 * @ev: def->fast (see khist_rec_counted())
 *
 * The event is not recorded and its only trigger is a counting hist: a
 * hit on a key this CPU counted last is counted without a record; any
 * other hit runs the trigger on a record of the header only, which is
 * all that such a trigger reads.
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_rec_fast(struct khist_event *ev)
{
	struct khist_trigger *t;

	/* set_event_pid: the task's events do not feed the hists either. */
	if (khist_pidf_ignored(ev->inst))
		return;
	/* Pairs with the release in trigger.c. */
	t = smp_load_acquire(&ev->fast);
	if (likely(t) && khist_triggers_fast(t))
		return;
	khist_rec_fast_miss(ev);
}
EXPORT_SYMBOL_GPL(khist_rec_fast);

/* A record @ev's instance should have had and did not get. */
static void khist_rec_dropped(struct khist_event *ev)
{
	struct khist_buffer *buf = READ_ONCE(ev->inst->buf);

	if (buf)
		atomic_long_inc(&buf->dropped);
}

/*
 * No record could be built for @ev's triggers: the instance and each of
 * the event's hists count it.
 */
static noinline void khist_rec_lost(struct khist_event *ev)
{
	khist_rec_dropped(ev);
	if (READ_ONCE(ev->has_triggers))
		khist_triggers_lost(ev);
}

/* Take this CPU's scratch slot for the current context level. */
static __always_inline void *khist_scratch_get(unsigned int size)
{
	struct khist_scratch *s;
	int level;

	/* Never bigger than the ring buffer takes (KHIST_REC_MAX). */
	BUILD_BUG_ON(KHIST_REC_MAX > KHIST_SCRATCH_SLOT);
	if (size > KHIST_REC_MAX)
		return NULL;
	s = this_cpu_ptr(khist_scratch);
	level = this_cpu_inc_return(khist_scratch->level) - 1;
	if (unlikely(level >= KHIST_SCRATCH_LEVELS)) {
		this_cpu_dec(khist_scratch->level);
		return NULL;
	}
	return s->slot[level];
}

/* A record in scratch, for the triggers: the caller fills the header. */
static __always_inline void *khist_rec_in_scratch(struct khist_rec_ctx *ctx,
						  struct khist_event *ev,
						  unsigned int size, bool multi)
{
	void *rec = khist_scratch_get(size);

	if (!rec)
		return NULL;
	ctx->rec = rec;
	ctx->size = size;
	ctx->rbe = NULL;
	ctx->ev = ev;
	ctx->multi = multi;
	return rec;
}

/*
 * The event is recorded: the record goes to the ring buffer, or to
 * scratch for the triggers when the buffer refuses it (full, disabled).
 * Out of line: the triggers-only path then needs few registers.
 */
static noinline void *khist_rec_reserve_rb(struct khist_rec_ctx *ctx,
					   struct khist_event *ev,
					   struct khist_buffer *buf,
					   unsigned int size)
{
	/* Before the ring buffer takes its own preemption level. */
	struct khist_common_hdr hdr = khist_hdr(ev->schema.id);
	struct trace_buffer *rb = READ_ONCE(buf->rb);
	struct ring_buffer_event *rbe;
	void *rec;

	rbe = ring_buffer_lock_reserve(rb, size);
	if (rbe) {
		rec = ring_buffer_event_data(rbe);
		ctx->rec = rec;
		ctx->size = size;
		ctx->rbe = rbe;
		ctx->rb = rb;
		ctx->ev = ev;
		ctx->multi = false;
	} else {
		/* Refused (too big, resizing, nested): not recorded. */
		if (READ_ONCE(buf->on))
			khist_rec_dropped(ev);
		if (!READ_ONCE(ev->has_triggers))
			return NULL;
		rec = khist_rec_in_scratch(ctx, ev, size, false);
		if (!rec) {
			khist_triggers_lost(ev);
			return NULL;
		}
	}
	*(struct khist_common_hdr *)rec = hdr;
	return rec;
}

/*
 * khist_rec_reserve_ev(), inline in khist_rec_reserve(): when only the
 * triggers want the record, it is built in scratch with the header
 * fields they read (none but the header: on the stack, see
 * khist_rec_hdr_only()).
 */
static __always_inline void *khist_rec_reserve_one(struct khist_rec_ctx *ctx,
						   struct khist_event *ev,
						   unsigned int size)
{
	struct khist_buffer *buf = READ_ONCE(ev->inst->buf);
	unsigned int reads;
	void *rec;

	if (unlikely(!buf))
		return NULL;
	if (!READ_ONCE(ev->soft_disabled) && khist_buffer_records(buf))
		return khist_rec_reserve_rb(ctx, ev, buf, size);
	/* Nobody wants it: stop before building anything. */
	if (!READ_ONCE(ev->has_triggers))
		return NULL;
	/* Pairs with the releases in trigger.c. */
	reads = smp_load_acquire(&ev->trig_reads);
	if (!(reads & KHIST_READS_FIELDS)) {
		khist_rec_hdr_only(ev, reads);
		return NULL;
	}
	rec = khist_rec_in_scratch(ctx, ev, size, false);
	if (unlikely(!rec)) {
		khist_rec_lost(ev);
		return NULL;
	}
	khist_hdr_for(rec, ev->schema.id, reads);
	return rec;
}

/**
 * khist_rec_reserve_ev() - start a record for one instance's event
 * @ctx:  the record's context, on the caller's stack
 * @ev:   the event
 * @size: bytes, common header included
 *
 * Context: any (NMI included), preemption disabled.
 * Return: the record with its common header filled, or NULL when nobody
 * wants it (then khist_rec_commit() must not be called).
 */
void *khist_rec_reserve_ev(struct khist_rec_ctx *ctx, struct khist_event *ev,
			   unsigned int size)
{
	return khist_rec_reserve_one(ctx, ev, size);
}

/* Whether @ev's instance wants a record of it: recorded or triggered. */
static bool khist_rec_wanted(struct khist_event *ev)
{
	struct khist_buffer *buf = READ_ONCE(ev->inst->buf);

	if (!READ_ONCE(ev->attached) || !buf)
		return false;
	if (READ_ONCE(ev->has_triggers))
		return true;
	return !READ_ONCE(ev->soft_disabled) && khist_buffer_records(buf);
}

/* The multi path could not build a record: each instance that wanted it. */
static noinline void khist_rec_lost_multi(struct khist_event *top)
{
	struct khist_event *ev;

	if (khist_rec_wanted(top))
		khist_rec_lost(top);
	/* Readers of inst_evs: this probe, with preemption disabled. */
	list_for_each_entry_rcu(ev, &top->inst_evs, inst_node)
		if (khist_rec_wanted(ev))
			khist_rec_lost(ev);
}

/* Another instance's event is attached too: built once, in scratch. */
static noinline void *khist_rec_reserve_multi(struct khist_rec_ctx *ctx,
					      struct khist_event *top,
					      unsigned int size)
{
	struct khist_common_hdr hdr = khist_hdr(top->schema.id);
	void *rec;

	rec = khist_rec_in_scratch(ctx, top, size, true);
	if (unlikely(!rec)) {
		khist_rec_lost_multi(top);
		return NULL;
	}
	*(struct khist_common_hdr *)rec = hdr;
	return rec;
}

/**
 * khist_rec_reserve() - start a record of an event
 * @ctx:  the record's context, on the caller's stack
 * @def:  the event
 * @size: bytes, common header included
 *
 * While only the top instance uses the event, the record is written in
 * place in its ring buffer (or scratch, for triggers only). When another
 * instance's event is attached too, it is built once in scratch and
 * khist_rec_commit() hands it to each attached instance.
 *
 * Context: any (NMI included), preemption disabled.
 * Return: the record with its common header filled, or NULL when nobody
 * wants it (then khist_rec_commit() must not be called).
 */
void *khist_rec_reserve(struct khist_rec_ctx *ctx, struct khist_event_def *def,
			unsigned int size)
{
	struct khist_event *top = READ_ONCE(def->ev);

	if (unlikely(!top))
		return NULL;
	if (unlikely(READ_ONCE(top->nr_multi)))
		return khist_rec_reserve_multi(ctx, top, size);
	if (!READ_ONCE(top->attached))
		return NULL;
	if (khist_pidf_ignored(top->inst)) {
		khist_rec_pid_ignored(top);
		return NULL;
	}
	return khist_rec_reserve_one(ctx, top, size);
}
EXPORT_SYMBOL_GPL(khist_rec_reserve);

static void khist_wake(struct khist_buffer *buf)
{
	if (atomic_read(&buf->waiters))
		irq_work_queue(&buf->wake_work);
}

static void khist_rec_finish(struct khist_rec_ctx *ctx)
{
	struct khist_event *ev = ctx->ev;
	struct khist_buffer *buf = ev->inst->buf;
	struct khist_filter *filter;

	if (!ctx->rbe) {
		this_cpu_dec(khist_scratch->level);
		return;
	}
	/* The buffer it was reserved in, even if a snapshot swapped them. */
	filter = rcu_dereference_sched(ev->filter);
	if (filter && !khist_evfilter_match(filter, ctx->rec, ctx->size)) {
		ring_buffer_discard_commit(ctx->rb, ctx->rbe);
		return;
	}
	khist_comm_save(current, khist_comm_wanted(ev->inst));
	if (khist_stack_wanted(ev->inst)) {
		/* options/stacktrace: the stack follows the event. */
		const struct khist_common_hdr hdr = *(typeof(hdr) *)ctx->rec;

		khist_rb_unlock_commit(ctx->rb, ctx->rbe);
		khist_stack_record(ev->inst, &hdr);
	} else {
		khist_rb_unlock_commit(ctx->rb, ctx->rbe);
	}
	khist_wake(buf);
}

/* One instance's share of a record built in scratch. */
static void khist_rec_deliver(struct khist_event *ev, struct khist_rec_ctx *ctx)
{
	struct khist_buffer *buf = ev->inst->buf;
	struct khist_filter *filter;
	struct trace_buffer *rb = NULL;

	if (!READ_ONCE(ev->attached))
		return;
	if (khist_pidf_ignored(ev->inst)) {
		khist_rec_pid_ignored(ev);
		return;
	}
	/*
	 * Whether and where it is recorded is decided before the triggers
	 * run, as if it had been reserved (see khist_rec_reserve_ev()): a
	 * traceoff trigger still records its own hit, a snapshot trigger
	 * sends it to the buffer that becomes the snapshot.
	 */
	if (!READ_ONCE(ev->soft_disabled) && khist_buffer_records(buf))
		rb = READ_ONCE(buf->rb);
	khist_rec_run_triggers(ev, ctx->rec, ctx->size);
	if (!rb)
		return;
	filter = rcu_dereference_sched(ev->filter);
	if (filter && !khist_evfilter_match(filter, ctx->rec, ctx->size))
		return;
	khist_comm_save(current, khist_comm_wanted(ev->inst));
	if (ring_buffer_write(rb, ctx->size, ctx->rec)) {
		khist_rec_dropped(ev);
		return;
	}
	if (khist_stack_wanted(ev->inst))
		khist_stack_record(ev->inst, ctx->rec);
	khist_wake(buf);
}

/**
 * khist_rec_commit() - finish a record: triggers, filter, ring buffer
 * @ctx: the context khist_rec_reserve() filled
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_rec_commit(struct khist_rec_ctx *ctx)
{
	struct khist_event *ev;

	if (!ctx->multi) {
		if (!ctx->rbe) {
			/*
			 * In scratch: built only because has_triggers was set
			 * (the list itself says which triggers still run).
			 */
			khist_rec_scratch_triggers(ctx->ev, ctx->rec,
						   ctx->size);
			this_cpu_dec(khist_scratch->level);
			return;
		}
		khist_rec_run_triggers(ctx->ev, ctx->rec, ctx->size);
		khist_rec_finish(ctx);
		return;
	}
	/* Readers of inst_evs: this probe, with preemption disabled. */
	khist_rec_deliver(ctx->ev, ctx);
	list_for_each_entry_rcu(ev, &ctx->ev->inst_evs, inst_node)
		khist_rec_deliver(ev, ctx);
	this_cpu_dec(khist_scratch->level);
}
EXPORT_SYMBOL_GPL(khist_rec_commit);

/**
 * khist_rec_commit_quiet() - commit a record of khist's own, without
 * triggers
 * @ctx: the context khist_rec_reserve_ev() filled
 *
 * For the records khist writes itself (stack traces, notes), which ftrace
 * writes without running the triggers of their event either.
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_rec_commit_quiet(struct khist_rec_ctx *ctx)
{
	khist_rec_finish(ctx);
}

/**
 * khist_rec_commit_marker() - commit a trace_marker record, ftrace's way
 * @ctx: the context khist_rec_reserve() filled
 * @s:   the text in the record, NUL-terminated, room for one more byte
 * @len: strlen(@s)
 *
 * Triggers see the text as written; the newline `trace` shows is added
 * afterwards, when it is missing (so `if buf == "start"` matches "start").
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_rec_commit_marker(struct khist_rec_ctx *ctx, char *s, size_t len)
{
	khist_rec_run_triggers(ctx->ev, ctx->rec, ctx->size);
	if (!len || s[len - 1] != '\n') {
		s[len++] = '\n';
		s[len] = '\0';
	}
	khist_rec_finish(ctx);
}

/* The scratch's bytes: KHIST_SCRATCH_LEVELS pages per possible CPU. */
static u64 khist_rec_scratch_size(void)
{
	return (u64)sizeof(struct khist_scratch) * num_possible_cpus();
}

/**
 * khist_rec_scratch_init() - allocate the per-CPU record scratch, charged
 * against mem_limit_kb
 *
 * Context: process context, module init.
 * Return: 0 or -ENOMEM.
 */
int khist_rec_scratch_init(void)
{
	int ret;

	ret = khist_mem_charge(khist_rec_scratch_size());
	if (ret)
		return ret;
	khist_scratch = alloc_percpu(struct khist_scratch);
	if (!khist_scratch) {
		khist_mem_uncharge(khist_rec_scratch_size());
		return -ENOMEM;
	}
	return 0;
}

/**
 * khist_rec_scratch_exit() - free it; no probe can run any more
 *
 * Context: process context, module exit.
 */
void khist_rec_scratch_exit(void)
{
	if (!khist_scratch)
		return;
	free_percpu(khist_scratch);
	khist_scratch = NULL;
	khist_mem_uncharge(khist_rec_scratch_size());
}
