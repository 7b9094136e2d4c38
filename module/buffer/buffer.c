// SPDX-License-Identifier: GPL-2.0
/*
 * buffer.c - an instance's ring buffer: allocation (with its snapshot
 * spare), reader wake-up, and freeing with the instance. The record path
 * that writes it is events/record.c, its files are files/.
 */
#include <linux/irq_work.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"
#include "mem/mem.h"

static void khist_wake_readers(struct irq_work *work)
{
	struct khist_buffer *buf =
		container_of(work, struct khist_buffer, wake_work);

	wake_up_all(&buf->wait);
}

/**
 * khist_ringbuf_want() - what an instance's buffers are charged at a size
 * @rb:     the instance's buffer as it is, or NULL for a new one
 * @cpu:    the CPU whose buffer gets @size bytes, or RING_BUFFER_ALL_CPUS
 * @size:   bytes (0: each CPU keeps the data it holds now, as a change of
 *          sub-buffer order does)
 * @order:  the sub-buffer order, in pages
 * @charge: set to the bytes to charge against mem_limit_kb
 *
 * The struct, every possible CPU's buffer (@size for the CPUs that
 * change, ring_buffer_size() of @rb for the others), and the snapshot's
 * spare buffer at its resting size (one-page sub-buffers, the minimum
 * per CPU; an allocated snapshot is charged on its own, see snapshot.c).
 *
 * Context: any.
 * Return: 0, or -EINVAL when the sizes are too big to count.
 */
int khist_ringbuf_want(struct trace_buffer *rb, int cpu, unsigned long size,
		       unsigned int order, u64 *charge)
{
	u64 total = sizeof(struct khist_buffer), bytes;
	unsigned long s;
	int c;

	total += (u64)nr_cpu_ids * sizeof(unsigned long);
	for_each_possible_cpu(c) {
		s = size;
		if (rb && (!size || (cpu != RING_BUFFER_ALL_CPUS && c != cpu)))
			s = ring_buffer_size(rb, c);
		if (khist_ringbuf_cpu_bytes(s, order, &bytes) ||
		    check_add_overflow(total, bytes, &total))
			return -EINVAL;
		/* The spare's two pages and reader page. */
		if (khist_ringbuf_cpu_bytes(1, 0, &bytes) ||
		    check_add_overflow(total, bytes, &total))
			return -EINVAL;
	}
	*charge = total;
	return 0;
}

/*
 * What the buffer_size_kb files show after a resize of @cpu: its new size;
 * for all of them, CPU 0's on every CPU, as ftrace records it.
 */
static void khist_ringbuf_set_entries(struct khist_buffer *buf, int cpu)
{
	unsigned long size;
	int c;

	if (cpu != RING_BUFFER_ALL_CPUS) {
		WRITE_ONCE(buf->entries[cpu], ring_buffer_size(buf->rb, cpu));
		return;
	}
	size = ring_buffer_size(buf->rb, 0);
	for_each_possible_cpu(c)
		WRITE_ONCE(buf->entries[c], size);
}

/*
 * A change of @buf's buffers to @want bytes: growth is charged before it
 * (khist_ringbuf_precharge()), a shrink given back after it, or the
 * growth if it failed (khist_ringbuf_settle()).
 */
static int khist_ringbuf_precharge(struct khist_buffer *buf, u64 want)
{
	lockdep_assert_held(&buf->read_lock);
	if (want > buf->charged)
		return khist_mem_recharge(buf->charged, want);
	return 0;
}

static int khist_ringbuf_settle(struct khist_buffer *buf, u64 want, int ret)
{
	if (ret < 0) {
		if (want > buf->charged)
			khist_mem_recharge(want, buf->charged);
		return ret;
	}
	if (want < buf->charged)
		khist_mem_recharge(buf->charged, want);
	buf->charged = want;
	return 0;
}

/**
 * khist_ringbuf_resize() - buffer_size_kb: resize an instance's buffers
 * @buf:  the instance's buffer
 * @size: bytes
 * @cpu:  the CPU whose buffer is resized, or RING_BUFFER_ALL_CPUS
 *
 * Charged to mem_limit_kb before it grows; the snapshot buffer, when
 * allocated, follows (snapshot.c). On failure every buffer keeps its size.
 *
 * Context: process context, may sleep; @buf->read_lock held.
 * Return: 0 or -errno (-ENOSPC: over mem_limit_kb; -ENOMEM; -EBUSY: a
 * reader iterates the buffer).
 */
int khist_ringbuf_resize(struct khist_buffer *buf, unsigned long size, int cpu)
{
	u64 want;
	int ret;

	ret = khist_ringbuf_want(buf->rb, cpu, size,
				 khist_rb_subbuf_order(buf->rb), &want);
	if (!ret)
		ret = khist_ringbuf_precharge(buf, want);
	if (ret)
		return ret;
	ret = khist_buffers_resize(buf, size, cpu, want);
	ret = khist_ringbuf_settle(buf, want, ret);
	if (!ret)
		khist_ringbuf_set_entries(buf, cpu);
	return ret;
}

/**
 * khist_ringbuf_set_order() - buffer_subbuf_size_kb: change the sub-buffer
 * size of an instance's buffers
 * @buf:   the instance's buffer
 * @order: sub-buffers of 2^@order pages
 *
 * Each CPU's buffer keeps room for the data it holds now, in whole
 * sub-buffers of the new size (what the ring buffer does), charged to
 * mem_limit_kb before it grows; the snapshot buffer, when allocated,
 * follows. On failure every buffer keeps its order and size.
 *
 * Context: process context, may sleep; @buf->read_lock held.
 * Return: 0 or -errno (-ENOSPC: over mem_limit_kb; -ENOMEM; -EBUSY: a
 * reader iterates the buffer; -EOPNOTSUPP before 6.8).
 */
int khist_ringbuf_set_order(struct khist_buffer *buf, unsigned int order)
{
	u64 want;
	int ret;

	if (order == khist_rb_subbuf_order(buf->rb))
		return 0;
	ret = khist_ringbuf_want(buf->rb, RING_BUFFER_ALL_CPUS, 0, order,
				 &want);
	if (!ret)
		ret = khist_ringbuf_precharge(buf, want);
	if (ret)
		return ret;
	ret = khist_buffers_set_order(buf, order, want);
	return khist_ringbuf_settle(buf, want, ret);
}

/**
 * khist_ringbuf_init() - allocate an instance's buffer
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind (-ENOSPC: over
 * mem_limit_kb).
 */
int khist_ringbuf_init(struct khist_instance *inst)
{
	struct khist_buffer *buf;
	u64 charge;
	int ret;

	ret = khist_ringbuf_want(NULL, RING_BUFFER_ALL_CPUS,
				 KHIST_RB_DEFAULT_SIZE, 0, &charge);
	if (!ret)
		ret = khist_mem_charge(charge);
	if (ret)
		return ret;
	ret = -ENOMEM;
	buf = khist_kzalloc(struct_size(buf, entries, nr_cpu_ids), GFP_KERNEL);
	if (!buf)
		goto out_charge;
	buf->charged = charge;
	/* The ring buffer's pages count as one fault point. */
	if (!khist_should_fail(GFP_KERNEL))
		buf->rb = ring_buffer_alloc(KHIST_RB_DEFAULT_SIZE,
					    RB_FL_OVERWRITE);
	if (!buf->rb)
		goto out_buf;
	if (!zalloc_cpumask_var(&buf->cpus, GFP_KERNEL))
		goto out_rb;
	cpumask_copy(buf->cpus, cpu_possible_mask);
	khist_ringbuf_set_entries(buf, RING_BUFFER_ALL_CPUS);
	ret = khist_snapshot_alloc(buf);
	if (ret)
		goto out_mask;
	buf->on = 1;
	buf->inst = inst;
	init_waitqueue_head(&buf->wait);
	atomic_set(&buf->waiters, 0);
	init_irq_work(&buf->wake_work, khist_wake_readers);
	mutex_init(&buf->read_lock);
	WRITE_ONCE(inst->buf, buf);
	return 0;

out_mask:
	free_cpumask_var(buf->cpus);
out_rb:
	ring_buffer_free(buf->rb);
out_buf:
	kfree(buf);
out_charge:
	khist_mem_uncharge(charge);
	return ret;
}

/**
 * khist_ringbuf_free() - free an instance's buffer
 * @inst: the instance, on its last reference
 *
 * Context: process context; no probe and no file can use it any more.
 */
void khist_ringbuf_free(struct khist_instance *inst)
{
	struct khist_buffer *buf = inst->buf;

	if (!buf)
		return;
	inst->buf = NULL;
	irq_work_sync(&buf->wake_work);
	khist_snapshot_free(buf);
	ring_buffer_free(buf->rb);
	free_cpumask_var(buf->cpus);
	khist_mem_uncharge(buf->charged);
	kfree(buf);
}
