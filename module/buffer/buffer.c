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

	ret = khist_ringbuf_charge_size(KHIST_RB_DEFAULT_SIZE, &charge);
	if (!ret)
		ret = khist_mem_charge(charge);
	if (ret)
		return ret;
	ret = -ENOMEM;
	buf = khist_kzalloc(sizeof(*buf), GFP_KERNEL);
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
