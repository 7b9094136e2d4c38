// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - each instance's snapshot buffer and its `snapshot` file.
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
#include "events/events.h"
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

/* Hold swaps and return the snapshot buffer, which then stays put. */
static struct trace_buffer *khist_snap_hold_spare(struct khist_snapshot *snap)
{
	struct trace_buffer *rb;
	unsigned long flags;

	khist_snap_lock(snap, &flags);
	snap->hold++;
	rb = snap->spare;
	khist_snap_unlock(snap, flags);
	return rb;
}

enum khist_swap_result {
	KHIST_SWAP_DONE,
	KHIST_SWAP_UNALLOCATED,
	KHIST_SWAP_SKIPPED,
};

/* Exchange buf->rb and the snapshot buffer. Any context. */
static enum khist_swap_result khist_snap_swap(struct khist_buffer *buf)
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

/* Write @text into the instance's buffer as an ftrace/print record. */
static void khist_snap_note(struct khist_instance *inst, const char *text)
{
	size_t len = strlen(text);
	struct khist_rec_ctx ctx;
	struct khist_event *ev;
	char *rec;

	ev = READ_ONCE(inst->print_ev);
	if (!ev)
		return;
	rec = khist_rec_reserve_ev(&ctx, ev,
				   khist_print_def.rec_size + len + 1);
	if (!rec)
		return;
	*(unsigned long *)(rec + sizeof(struct khist_common_hdr)) =
		(unsigned long)khist_snapshot_trigger;
	memcpy(rec + khist_print_def.rec_size, text, len + 1);
	khist_rec_commit_quiet(&ctx);
}

/**
 * khist_snapshot_trigger() - take a snapshot of an instance's buffer
 * @inst: the instance
 *
 * As ftrace's snapshot trigger: when the snapshot is not allocated (it was
 * freed after the trigger was set), two notes go into the buffer and
 * tracing stops, so that what led there is kept.
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_snapshot_trigger(struct khist_instance *inst)
{
	struct khist_buffer *buf = READ_ONCE(inst->buf);

	if (!buf || khist_snap_swap(buf) != KHIST_SWAP_UNALLOCATED)
		return;
	khist_snap_note(inst, "*** SNAPSHOT NOT ALLOCATED ***\n");
	khist_snap_note(inst, "*** stopping trace here!   ***\n");
	ring_buffer_record_off(READ_ONCE(buf->rb));
	WRITE_ONCE(buf->on, 0);
}

/* Resize the spare buffer to @size bytes per CPU; swaps are held. */
static int khist_snap_resize_spare(struct khist_snapshot *snap,
				   unsigned long size)
{
	return ring_buffer_resize(snap->spare, size, RING_BUFFER_ALL_CPUS);
}

/* The per-CPU size of @rb (every CPU has the same, as in ftrace). */
static unsigned long khist_rb_size(struct trace_buffer *rb)
{
	return ring_buffer_size(rb, cpumask_first(cpu_online_mask));
}

/* Allocate the snapshot: give the spare buffer the main buffer's size. */
static int khist_snap_allocate(struct khist_buffer *buf)
{
	struct khist_snapshot *snap = buf->snap;
	unsigned long flags, size;
	u64 charge;
	int ret;

	lockdep_assert_held(&snap->mutex);
	if (snap->allocated)
		return 0;
	/* Not allocated: no swap can move buf->rb or the spare. */
	size = khist_rb_size(buf->rb);
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
	ret = khist_snap_resize_spare(snap, size);
	if (ret < 0) {
		/* Charged for as long as its pages stay. */
		snap->charged = charge;
		if (khist_snap_resize_spare(snap, 1) >= 0) {
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
	if (khist_snap_resize_spare(snap, 1) < 0)
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
	rb = khist_snap_hold_spare(snap);
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

/**
 * khist_buffers_resize() - buffer_size_kb: resize an instance's buffers
 * @buf:  the instance's buffer
 * @size: bytes per CPU
 *
 * The snapshot buffer, when allocated, gets the same size, charged to
 * mem_limit_kb (the caller charges the main buffer); no snapshot is taken
 * meanwhile.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (-ENOSPC: over mem_limit_kb).
 */
int khist_buffers_resize(struct khist_buffer *buf, unsigned long size)
{
	struct khist_snapshot *snap = buf->snap;
	bool recharged = false;
	unsigned long old;
	u64 want;
	int ret;

	ret = khist_ringbuf_charge_size(size, &want);
	if (ret)
		return ret;
	mutex_lock(&snap->mutex);
	/* The snapshot's growth is charged before anything changes. */
	if (snap->allocated && want > snap->charged) {
		ret = khist_mem_recharge(snap->charged, want);
		if (ret)
			goto out_unlock;
		recharged = true;
	}
	khist_snapshot_hold(buf);
	old = khist_rb_size(buf->rb);
	ret = ring_buffer_resize(buf->rb, size, RING_BUFFER_ALL_CPUS);
	if (ret >= 0 && snap->allocated) {
		ret = khist_snap_resize_spare(snap, size);
		/* Both keep the old size rather than differ. */
		if (ret < 0)
			ring_buffer_resize(buf->rb, old, RING_BUFFER_ALL_CPUS);
	}
	khist_snapshot_unhold(buf);
	if (snap->allocated) {
		if (ret < 0 && recharged)
			khist_mem_recharge(want, snap->charged);
		else if (ret >= 0 && want != snap->charged && !recharged)
			khist_mem_recharge(snap->charged, want);
		if (ret >= 0)
			snap->charged = want;
	}
out_unlock:
	mutex_unlock(&snap->mutex);
	return ret < 0 ? ret : 0;
}

/* ---- the snapshot file ---- */

/* ftrace's text, byte for byte, one line per entry. */
static const char *const khist_snap_help[] = {
	"# Snapshot commands:",
	"# echo 0 > snapshot : Clears and frees snapshot buffer",
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.",
	"#                      Takes a snapshot of the main buffer.",
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)",
	"#                      (Doesn't have to be '2' works with any number that",
	"#                       is not a '0' or '1')",
};

static void khist_snap_header(struct khist_out *out, struct trace_buffer *rb,
			      bool empty, void *data)
{
	struct khist_snapshot *snap = data;
	unsigned int i;

	if (!empty) {
		khist_ringbuf_header(out, rb);
		return;
	}
	khist_out_printf(out, "# tracer: nop\n#\n#\n# * Snapshot is %s *\n#\n",
			 READ_ONCE(snap->allocated) ? "allocated" : "freed");
	for (i = 0; i < ARRAY_SIZE(khist_snap_help); i++)
		khist_out_printf(out, "%s\n", khist_snap_help[i]);
}

static int khist_snap_open(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;
	struct khist_buffer *buf = inst->buf;
	struct trace_buffer *rb;
	int ret;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	/* The buffer read stays the snapshot until the file is closed. */
	rb = khist_snap_hold_spare(buf->snap);
	ret = khist_trace_view_open(inode, file, rb, khist_snap_header,
				    buf->snap);
	if (ret)
		khist_snapshot_unhold(buf);
	return ret;
}

static int khist_snap_release_file(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	khist_trace_view_release(inode, file);
	khist_snapshot_unhold(inst->buf);
	return 0;
}

static ssize_t khist_snap_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct khist_instance *inst = file_inode(file)->i_private;
	struct khist_buffer *buf = inst->buf;
	struct khist_snapshot *snap = buf->snap;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
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
		/* Same size as the main buffer, as ftrace re-checks. */
		if (khist_rb_size(snap->spare) != khist_rb_size(buf->rb)) {
			khist_snapshot_hold(buf);
			ret = khist_snap_resize_spare(snap,
						      khist_rb_size(buf->rb));
			khist_snapshot_unhold(buf);
			if (ret < 0)
				break;
		}
		khist_snap_swap(buf);
		ret = 0;
		break;
	default:
		khist_snap_clear(buf);
		break;
	}
	mutex_unlock(&snap->mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static loff_t khist_snap_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations khist_snap_fops = {
	.owner = THIS_MODULE,
	.open = khist_snap_open,
	.read = seq_read,
	.write = khist_snap_write,
	.llseek = khist_snap_llseek,
	.release = khist_snap_release_file,
};

/**
 * khist_snapshot_files_create() - add `snapshot` to an instance
 * @inst: the instance, its buffer initialised
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_snapshot_files_create(struct khist_instance *inst)
{
	struct khist_node *node;

	node = khist_fs_create_file(inst->dir, "snapshot", KHIST_MODE_WRITE,
				    &khist_snap_fops, inst);
	if (IS_ERR(node))
		return PTR_ERR(node);
	/* The buffers live as long as the instance. */
	khist_instance_get(inst);
	khist_fs_set_release(node, khist_instance_node_release);
	return 0;
}

/**
 * khist_snapshot_files_remove() - remove `snapshot`
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_snapshot_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "snapshot"));
}
