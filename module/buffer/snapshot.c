// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - each instance's snapshot buffer: the spare, the swap, the
 * resize. The `snapshot` file is files/snapshot_file.c, the snapshot
 * trigger's note events/print.c.
 *
 * A snapshot exchanges two pointers: the instance's buffer (buf->rb) and
 * the spare one. Writers that reserved a record before the exchange still
 * commit it into the buffer they reserved it in (khist_rec_ctx.rb), so a
 * snapshot taken by a trigger of a trace_marker write or of an enabled
 * event keeps that very record, as ftrace does. Nothing is allocated or
 * copied, so it works in any context; in NMI the lock is only tried (an
 * NMI that interrupted a swap, or one racing with another CPU's, skips its
 * snapshot), where ftrace refuses every snapshot from NMI.
 *
 * Swaps are held off (snap->hold) while the `snapshot` file is read, while
 * the spare buffer is resized or cleared, and for anyone who asks with
 * khist_snapshot_hold(); a snapshot asked for meanwhile is skipped, as
 * ftrace skips one while tracing is stopped.
 *
 * Allocation, freeing and resizing are serialised by snap->mutex; the
 * swap state (spare, allocated, hold) by snap->lock, an arch spinlock
 * taken with interrupts off.
 */
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "base/instance.h"
#include "mem/mem.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"

/**
 * struct khist_snapshot - the spare buffer of an instance
 * @spare:     the buffer not being recorded into
 * @lock:      protects @spare (and buf->rb against other swaps),
 *             @allocated and @hold
 * @allocated: the snapshot is allocated: swaps are allowed
 * @hold:      swaps held off while non-zero
 * @cond:      a hist snapshot() action owns the snapshot (under @mutex):
 *             writes to the `snapshot` file get -EBUSY, as ftrace's
 *             conditional snapshot
 * @charged:   bytes charged against mem_limit_kb while allocated, or
 *             while a failed shrink left the pages (under @mutex)
 * @mutex:     serialises allocation, freeing and resizing
 */
struct khist_snapshot {
	struct trace_buffer *spare;
	arch_spinlock_t lock;
	bool allocated;
	int hold;
	bool cond;
	u64 charged;
	struct mutex mutex; /* see @mutex above */
};

static void khist_snap_lock(struct khist_snapshot *snap, unsigned long *flags)
{
	local_irq_save(*flags);
	arch_spin_lock(&snap->lock);
}

static void khist_snap_unlock(struct khist_snapshot *snap, unsigned long flags)
{
	arch_spin_unlock(&snap->lock);
	local_irq_restore(flags);
}

/**
 * khist_snapshot_alloc() - give a new instance buffer its spare buffer
 * @buf: the buffer, not yet published
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int khist_snapshot_alloc(struct khist_buffer *buf)
{
	struct khist_snapshot *snap;

	snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	/* The minimum: two pages per CPU, as ftrace's unallocated snapshot. */
	snap->spare = ring_buffer_alloc(1, RB_FL_OVERWRITE);
	if (!snap->spare) {
		kfree(snap);
		return -ENOMEM;
	}
	snap->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	mutex_init(&snap->mutex);
	buf->snap = snap;
	return 0;
}

/**
 * khist_snapshot_free() - free the spare buffer with the instance's buffer
 * @buf: the buffer; no probe and no file can use it any more
 *
 * Context: process context.
 */
void khist_snapshot_free(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;

	if (!snap)
		return;
	buf->snap = NULL;
	if (snap->charged)
		khist_mem_uncharge(snap->charged);
	ring_buffer_free(snap->spare);
	mutex_destroy(&snap->mutex);
	kfree(snap);
}

/**
 * khist_snapshot_hold() - keep snapshots from being taken
 * @buf: the instance's buffer
 *
 * Until the matching khist_snapshot_unhold(), buf->rb and the snapshot
 * buffer stay where they are; snapshots asked for meanwhile are skipped.
 *
 * Context: any but NMI.
 */
void khist_snapshot_hold(struct khist_buffer *buf)
{
	unsigned long flags;

	khist_snap_lock(buf->snap, &flags);
	buf->snap->hold++;
	khist_snap_unlock(buf->snap, flags);
}

/**
 * khist_snapshot_unhold() - undo khist_snapshot_hold()
 * @buf: the instance's buffer
 *
 * Context: any but NMI.
 */
void khist_snapshot_unhold(struct khist_buffer *buf)
{
	unsigned long flags;

	khist_snap_lock(buf->snap, &flags);
	buf->snap->hold--;
	khist_snap_unlock(buf->snap, flags);
}

/**
 * khist_snapshot_hold_spare() - hold swaps and return the snapshot buffer,
 * which then stays put until khist_snapshot_unhold()
 * @buf: the instance's buffer
 *
 * Context: any.
 * Return: the snapshot (spare) buffer.
 */
struct trace_buffer *khist_snapshot_hold_spare(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	struct trace_buffer *rb;
	unsigned long flags;

	khist_snap_lock(snap, &flags);
	snap->hold++;
	rb = snap->spare;
	khist_snap_unlock(snap, flags);
	return rb;
}

/**
 * khist_snapshot_swap() - exchange buf->rb and the snapshot buffer
 * @buf: the instance's buffer
 *
 * Context: any (NMI included), preemption disabled.
 * Return: done, skipped (held, or the lock was busy in NMI), or not
 * allocated (the caller decides what that means).
 */
enum khist_swap_result khist_snapshot_swap(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	enum khist_swap_result res = KHIST_SWAP_SKIPPED;
	struct trace_buffer *old;
	unsigned long flags;

	local_irq_save(flags);
	if (in_nmi()) {
		/* The interrupted code may hold it on this very CPU. */
		if (!arch_spin_trylock(&snap->lock))
			goto out;
	} else {
		arch_spin_lock(&snap->lock);
	}
	if (!snap->allocated) {
		res = KHIST_SWAP_UNALLOCATED;
	} else if (!snap->hold) {
		old = buf->rb;
		/* tracing_on is buf->on; the buffer itself always records. */
		ring_buffer_record_on(snap->spare);
		WRITE_ONCE(buf->rb, snap->spare);
		snap->spare = old;
		res = KHIST_SWAP_DONE;
	}
	arch_spin_unlock(&snap->lock);
out:
	local_irq_restore(flags);
	return res;
}

/*
 * Give @to the size @from has on @cpu, or on every CPU for
 * RING_BUFFER_ALL_CPUS (a CPU the buffer has no pages for is left alone).
 * Swaps are held, or @to is the unallocated spare.
 */
static int khist_rb_copy_size(struct trace_buffer *to,
			      struct trace_buffer *from, int cpu)
{
	unsigned long size;
	int c, ret;

	if (cpu != RING_BUFFER_ALL_CPUS) {
		size = ring_buffer_size(from, cpu);
		return size ? ring_buffer_resize(to, size, cpu) : 0;
	}
	for_each_possible_cpu(c) {
		size = ring_buffer_size(from, c);
		if (!size || size == ring_buffer_size(to, c))
			continue;
		ret = ring_buffer_resize(to, size, c);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Make the spare buffer the main buffer's twin: the same sub-buffer order
 * and the same size on every CPU, as ftrace allocates its snapshot.
 */
static int khist_snap_match(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	int order = khist_rb_subbuf_order(buf->rb);
	int ret = 0;

	if (khist_rb_subbuf_order(snap->spare) != order)
		ret = khist_rb_set_subbuf_order(snap->spare, order);
	if (!ret)
		ret = khist_rb_copy_size(snap->spare, buf->rb,
					 RING_BUFFER_ALL_CPUS);
	return ret;
}

/* Back to the resting size: one-page sub-buffers, the minimum per CPU. */
static int khist_snap_shrink(struct khist_snapshot *snap)
{
	int ret;

	ret = khist_rb_set_subbuf_order(snap->spare, 0);
	if (!ret)
		ret = ring_buffer_resize(snap->spare, 1, RING_BUFFER_ALL_CPUS);
	return ret;
}

/* Allocate the snapshot: give the spare buffer the main buffer's size. */
static int khist_snap_allocate(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	unsigned long flags;
	u64 charge;
	int ret;

	lockdep_assert_held(&snap->mutex);
	if (snap->allocated)
		return 0;
	/*
	 * What the main buffer is charged: its pages, a little more than
	 * the spare's at the same size.
	 */
	charge = READ_ONCE(buf->charged);
	/* Pages a failed shrink left are charged already. */
	if (snap->charged)
		ret = khist_mem_recharge(snap->charged, charge);
	else
		ret = khist_mem_charge(charge);
	if (ret)
		return ret;
	/* Not allocated: no swap can move buf->rb or the spare. */
	ret = khist_snap_match(buf);
	if (ret < 0) {
		/* Charged for as long as its pages stay. */
		snap->charged = charge;
		if (khist_snap_shrink(snap) >= 0) {
			khist_mem_uncharge(charge);
			snap->charged = 0;
		}
		return ret;
	}
	snap->charged = charge;
	khist_snap_lock(snap, &flags);
	snap->allocated = true;
	khist_snap_unlock(snap, flags);
	return 0;
}

/* Free it: back to the minimum size, empty. */
static void khist_snap_release(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	unsigned long flags;

	lockdep_assert_held(&snap->mutex);
	/* A shrink that failed before is tried again (see below). */
	if (!snap->allocated && !snap->charged)
		return;
	khist_snap_lock(snap, &flags);
	snap->allocated = false;
	khist_snap_unlock(snap, flags);
	ring_buffer_reset(snap->spare);
	/*
	 * An iterator open on the spare (a snapshot reader, or a trace
	 * reader whose buffer was swapped) makes the shrink fail with
	 * -EBUSY: its pages stay, and so does their charge, until the next
	 * free or allocation.
	 */
	if (khist_snap_shrink(snap) < 0)
		return;
	khist_mem_uncharge(snap->charged);
	snap->charged = 0;
}

/* Empty the snapshot buffer, if allocated. */
static void khist_snap_clear(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	struct trace_buffer *rb;

	lockdep_assert_held(&snap->mutex);
	if (!snap->allocated)
		return;
	rb = khist_snapshot_hold_spare(buf);
	ring_buffer_reset(rb);
	khist_snapshot_unhold(buf);
}

/**
 * khist_snapshot_arm() - make sure an instance's snapshot is allocated
 * @inst: the instance
 *
 * What a snapshot trigger or action does when it is set up, as ftrace.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (no memory for the buffer).
 */
int khist_snapshot_arm(struct khist_instance *inst)
{
	struct khist_snapshot *snap = inst->buf->snap;
	int ret;

	mutex_lock(&snap->mutex);
	ret = khist_snap_allocate(inst->buf);
	mutex_unlock(&snap->mutex);
	return ret;
}

/**
 * khist_snapshot_cond_claim() - a hist snapshot() action takes the
 * instance's snapshot over
 * @inst: the instance
 *
 * Allocates the snapshot like khist_snapshot_arm(); from then on the
 * `snapshot` file refuses writes with -EBUSY until
 * khist_snapshot_cond_release(). The caller allows one claim per instance.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (no memory for the buffer).
 */
int khist_snapshot_cond_claim(struct khist_instance *inst)
{
	struct khist_snapshot *snap = inst->buf->snap;
	int ret;

	mutex_lock(&snap->mutex);
	ret = khist_snap_allocate(inst->buf);
	if (!ret)
		snap->cond = true;
	mutex_unlock(&snap->mutex);
	return ret;
}

/**
 * khist_snapshot_cond_release() - the snapshot() action is gone
 * @inst: the instance
 *
 * Context: process context, may sleep.
 */
void khist_snapshot_cond_release(struct khist_instance *inst)
{
	struct khist_snapshot *snap = inst->buf->snap;

	mutex_lock(&snap->mutex);
	snap->cond = false;
	mutex_unlock(&snap->mutex);
}

/*
 * A resize or a change of order that may fail: each is one fault point
 * (fail_nth), as the ring buffer's pages are when allocated.
 */
static int khist_rb_try_resize(struct trace_buffer *rb, unsigned long size,
			       int cpu)
{
	if (khist_should_fail(GFP_KERNEL))
		return -ENOMEM;
	return ring_buffer_resize(rb, size, cpu);
}

static int khist_rb_try_order(struct trace_buffer *rb, unsigned int order)
{
	if (khist_should_fail(GFP_KERNEL))
		return -ENOMEM;
	return khist_rb_set_subbuf_order(rb, order);
}

/*
 * An allocated snapshot's charge goes to @want with the main buffer's:
 * growth before the change (*@grew set), then khist_snap_settle() after.
 */
static int khist_snap_precharge(struct khist_snapshot *snap, u64 want,
				bool *grew)
{
	int ret;

	*grew = false;
	if (!snap->allocated || want <= snap->charged)
		return 0;
	ret = khist_mem_recharge(snap->charged, want);
	*grew = !ret;
	return ret;
}

static void khist_snap_settle(struct khist_snapshot *snap, u64 want, bool grew,
			      int ret)
{
	if (!snap->allocated)
		return;
	if (ret < 0) {
		if (grew)
			khist_mem_recharge(want, snap->charged);
		return;
	}
	if (!grew && want != snap->charged)
		khist_mem_recharge(snap->charged, want);
	snap->charged = want;
}

/**
 * khist_buffers_resize() - resize an instance's buffers
 * @buf:  the instance's buffer
 * @size: bytes
 * @cpu:  the CPU whose buffers are resized, or RING_BUFFER_ALL_CPUS
 * @want: what the main buffer is charged after it (khist_ringbuf_want())
 *
 * The snapshot buffer, when allocated, gets the same size, and @want
 * charged to mem_limit_kb (the caller charges the main buffer); no
 * snapshot is taken meanwhile. On failure both keep their sizes.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (-ENOSPC: over mem_limit_kb).
 */
int khist_buffers_resize(struct khist_buffer *buf, unsigned long size, int cpu,
			 u64 want)
{
	struct khist_snapshot *snap = buf->snap;
	bool grew;
	int ret;

	mutex_lock(&snap->mutex);
	ret = khist_snap_precharge(snap, want, &grew);
	if (ret)
		goto out_unlock;
	khist_snapshot_hold(buf);
	ret = khist_rb_try_resize(buf->rb, size, cpu);
	if (ret >= 0 && snap->allocated) {
		ret = khist_rb_try_resize(snap->spare, size, cpu);
		/*
		 * Both keep the old sizes rather than differ: the spare, which
		 * failed whole, still has them.
		 */
		if (ret < 0)
			khist_rb_copy_size(buf->rb, snap->spare, cpu);
	}
	khist_snapshot_unhold(buf);
	khist_snap_settle(snap, want, grew, ret);
out_unlock:
	mutex_unlock(&snap->mutex);
	return ret < 0 ? ret : 0;
}

/**
 * khist_buffers_set_order() - change the sub-buffer order of an instance's
 * buffers
 * @buf:   the instance's buffer
 * @order: sub-buffers of 2^@order pages
 * @want:  what the main buffer is charged after it (khist_ringbuf_want())
 *
 * As khist_buffers_resize(): the allocated snapshot follows, and on
 * failure both keep their order. An unallocated snapshot keeps one-page
 * sub-buffers until it is allocated, as ftrace's.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (-ENOSPC: over mem_limit_kb).
 */
int khist_buffers_set_order(struct khist_buffer *buf, unsigned int order,
			    u64 want)
{
	struct khist_snapshot *snap = buf->snap;
	int old, ret;
	bool grew;

	mutex_lock(&snap->mutex);
	ret = khist_snap_precharge(snap, want, &grew);
	if (ret)
		goto out_unlock;
	khist_snapshot_hold(buf);
	old = khist_rb_subbuf_order(buf->rb);
	ret = khist_rb_try_order(buf->rb, order);
	if (!ret && snap->allocated) {
		ret = khist_rb_try_order(snap->spare, order);
		if (ret)
			(void)khist_rb_set_subbuf_order(buf->rb, old);
	}
	khist_snapshot_unhold(buf);
	khist_snap_settle(snap, want, grew, ret);
out_unlock:
	mutex_unlock(&snap->mutex);
	return ret;
}

/**
 * khist_snapshot_command() - what a write of @val to `snapshot` does
 * @buf: the instance's buffer
 * @val: 0 frees the snapshot, 1 allocates it and takes a snapshot, any
 *       other value clears it
 *
 * Context: process context; takes the snapshot's mutex.
 * Return: 0 or -errno (-EBUSY: a hist snapshot() action owns it).
 */
int khist_snapshot_command(struct khist_buffer *buf, unsigned long val)
{
	struct khist_snapshot *snap = buf->snap;
	int ret = 0;

	mutex_lock(&snap->mutex);
	if (snap->cond) {
		/* A snapshot() action decides when the buffers swap. */
		mutex_unlock(&snap->mutex);
		return -EBUSY;
	}
	switch (val) {
	case 0:
		khist_snap_release(buf);
		break;
	case 1:
		ret = khist_snap_allocate(buf);
		if (ret)
			break;
		/* Same sizes as the main buffer, as ftrace re-checks. */
		khist_snapshot_hold(buf);
		ret = khist_snap_match(buf);
		khist_snapshot_unhold(buf);
		if (ret < 0)
			break;
		khist_snapshot_swap(buf);
		ret = 0;
		break;
	default:
		khist_snap_clear(buf);
		break;
	}
	mutex_unlock(&snap->mutex);
	return ret;
}

/**
 * khist_snapshot_allocated() - is the snapshot buffer allocated?
 * @buf: the instance's buffer
 *
 * Context: any.
 * Return: the state the `snapshot` file's header shows.
 */
bool khist_snapshot_allocated(struct khist_buffer *buf)
{
	return READ_ONCE(buf->snap->allocated);
}
