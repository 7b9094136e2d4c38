// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - the module-wide memory limit (mem_limit_kb) and the accounting
 * behind it (mem_used, and the leak report at unload). See mem.h.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/sysfs.h>
#include "mem/mem.h"

static unsigned long khist_mem_limit_kb;
static atomic64_t khist_mem_bytes = ATOMIC64_INIT(0);
static atomic_long_t khist_mem_objects = ATOMIC_LONG_INIT(0);

/* 0 is "not set" at load only; afterwards a limit must be positive. */
static int khist_mem_limit_set(const char *val, const struct kernel_param *kp)
{
	unsigned long kb;
	int ret;

	ret = kstrtoul(val, 0, &kb);
	if (ret)
		return ret;
	if (!kb || kb > (U64_MAX >> 10))
		return -EINVAL;
	WRITE_ONCE(khist_mem_limit_kb, kb);
	return 0;
}

static const struct kernel_param_ops khist_mem_limit_ops = {
	.set = khist_mem_limit_set,
	.get = param_get_ulong,
};

module_param_cb(mem_limit_kb, &khist_mem_limit_ops, &khist_mem_limit_kb, 0644);
#define KHIST_MEM_LIMIT_DESC \
	"Most KiB for maps, triggers, buffers, instances, synthetic events"
MODULE_PARM_DESC(mem_limit_kb, KHIST_MEM_LIMIT_DESC " (default: RAM/4)");

static int khist_mem_used_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n", khist_mem_used());
}

static const struct kernel_param_ops khist_mem_used_ops = {
	.get = khist_mem_used_get,
};

module_param_cb(mem_used, &khist_mem_used_ops, NULL, 0444);
MODULE_PARM_DESC(mem_used, "Bytes charged against mem_limit_kb now");

/**
 * khist_mem_limit() - the limit in bytes
 *
 * Context: any.
 * Return: mem_limit_kb in bytes.
 */
u64 khist_mem_limit(void)
{
	return (u64)READ_ONCE(khist_mem_limit_kb) << 10;
}

/**
 * khist_mem_used() - bytes charged now
 *
 * Context: any.
 * Return: the sum of the live charges.
 */
u64 khist_mem_used(void)
{
	return atomic64_read(&khist_mem_bytes);
}

static void khist_mem_refused(u64 bytes)
{
	pr_warn_ratelimited("mem_limit_kb %llu reached, %llu bytes refused\n",
			    khist_mem_limit() >> 10, bytes);
}

/* Add @bytes to the bytes charged unless that passes the limit. */
static int khist_mem_add(u64 bytes)
{
	u64 limit = khist_mem_limit();
	s64 old = atomic64_read(&khist_mem_bytes);
	u64 new;

	do {
		if (check_add_overflow((u64)old, bytes, &new) || new > limit) {
			khist_mem_refused(bytes);
			return -ENOSPC;
		}
	} while (!atomic64_try_cmpxchg(&khist_mem_bytes, &old, new));
	return 0;
}

/**
 * khist_mem_charge() - account for an allocation about to be made
 * @bytes: its size (0 still counts one object)
 *
 * Every successful charge must be undone by exactly one
 * khist_mem_uncharge() of the same size.
 *
 * Context: any; configuration paths (process context).
 * Return: 0, or -ENOSPC when the charge would pass mem_limit_kb (nothing
 * is charged then, and the kernel log says so, rate-limited).
 */
int khist_mem_charge(u64 bytes)
{
	int ret = khist_mem_add(bytes);

	if (!ret)
		atomic_long_inc(&khist_mem_objects);
	return ret;
}

/**
 * khist_mem_uncharge() - undo khist_mem_charge() after the free
 * @bytes: the size charged
 *
 * Context: any.
 */
void khist_mem_uncharge(u64 bytes)
{
	atomic64_sub(bytes, &khist_mem_bytes);
	atomic_long_dec(&khist_mem_objects);
}

/**
 * khist_mem_recharge() - a charged object changes size
 * @old: bytes charged for it now
 * @new: bytes it will take
 *
 * Growth is charged before the object grows (and undone with the
 * opposite call if growing fails); a shrink is uncharged after it.
 *
 * Context: any.
 * Return: 0, or -ENOSPC when growing would pass mem_limit_kb.
 */
int khist_mem_recharge(u64 old, u64 new)
{
	if (new > old)
		return khist_mem_add(new - old);
	atomic64_sub(old - new, &khist_mem_bytes);
	return 0;
}

/* Bytes that open files pin for their readers (khist_mem_pin()). */
static atomic64_t khist_mem_pinned = ATOMIC64_INIT(0);

static void khist_mem_pin_refused(u64 pinned, u64 bytes)
{
	pr_warn_ratelimited("open files pin %llu bytes, %llu more refused\n",
			    pinned, bytes);
}

/**
 * khist_mem_pin() - charge what an open file keeps for its reader
 * @bytes: the bytes it keeps until it is closed
 *
 * A reader of a ``gid=`` mount may open as many files as its fd limit
 * allows: what they keep is charged against mem_limit_kb like the rest,
 * and all of it together may not pass a quarter of the limit, so readers
 * cannot take what root's configuration needs. Undo with khist_mem_unpin().
 *
 * Context: any.
 * Return: 0 or -ENOSPC.
 */
int khist_mem_pin(u64 bytes)
{
	u64 cap = khist_mem_limit() / KHIST_MEM_PIN_SHARE;
	s64 old = atomic64_read(&khist_mem_pinned);
	u64 new;
	int ret;

	do {
		if (check_add_overflow((u64)old, bytes, &new) || new > cap) {
			khist_mem_pin_refused(old, bytes);
			return -ENOSPC;
		}
	} while (!atomic64_try_cmpxchg(&khist_mem_pinned, &old, new));
	/* Bytes only: a file's buffer grows by steps, each pinned anew. */
	ret = khist_mem_add(bytes);
	if (ret)
		atomic64_sub(bytes, &khist_mem_pinned);
	return ret;
}

/**
 * khist_mem_unpin() - give back what khist_mem_pin() charged
 * @bytes: as passed to khist_mem_pin()
 *
 * Context: any.
 */
void khist_mem_unpin(u64 bytes)
{
	atomic64_sub(bytes, &khist_mem_bytes);
	atomic64_sub(bytes, &khist_mem_pinned);
}

/**
 * khist_mem_init() - the default limit, a quarter of RAM, unless
 * mem_limit_kb was given at load
 *
 * Context: process context, module init.
 */
void khist_mem_init(void)
{
	if (!khist_mem_limit_kb)
		khist_mem_limit_kb =
			max(totalram_pages() / 4 * (PAGE_SIZE >> 10), 1UL);
}

/**
 * khist_mem_exit() - report what is still charged once everything is freed
 *
 * Context: process context, module exit, after every subsystem is down.
 */
void khist_mem_exit(void)
{
	s64 bytes = atomic64_read(&khist_mem_bytes);
	long objects = atomic_long_read(&khist_mem_objects);

	if (bytes || objects)
		pr_err("leak: %lld bytes in %ld objects still charged at unload\n",
		       bytes, objects);
}
