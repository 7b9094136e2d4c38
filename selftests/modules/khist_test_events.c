// SPDX-License-Identifier: GPL-2.0
/*
 * khist_test_events.c - a deterministic event source for khist's tests.
 *
 * Registers the events of khist_test_events.h (system khist_test) and a
 * debugfs file, /sys/kernel/debug/khist_test/fire. Writing "N SEED" fires
 * N khist_test:sample events whose fields come from a xorshift64* stream
 * seeded with SEED, and after each one a pair_a (even seq) or pair_b (odd
 * seq) event. The same N and SEED give the same records on every kernel.
 *
 *   seq    0 .. N-1
 *   val64  x, the next value of the stream
 *   val32  (s32)((x >> 32) % 1000) - 500
 *   small  x & 0xff
 *   name   "name<(x >> 8) % 8>"
 *   word   one of "alpha" "bravo" "charlie" "delta" "echo-echo-echo",
 *          picked by (x >> 20) % 5
 *   key    (pair_a/pair_b) (x >> 4) % 10
 *
 * A second file, /sys/kernel/debug/khist_test/use, takes ("+sys:event")
 * or drops ("-sys:event") a soft use of any event, as a trigger would.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define KHIST_CREATE_EVENTS
#include "khist_test_events.h"

static struct khist_event_def *khist_test_list[4];
static unsigned int khist_test_nr;
static struct dentry *khist_test_dir;

static u64 khist_test_next(u64 *s)
{
	u64 x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* @atomic: with preemption off, so nothing else runs on this CPU meanwhile. */
static void khist_test_fire(unsigned int n, u64 seed, bool atomic)
{
	static const char *const words[] = {
		"alpha", "bravo", "charlie", "delta", "echo-echo-echo",
	};
	u64 state = seed ? seed : 1;
	char name[16];
	unsigned int i;
	u64 x;

	for (i = 0; i < n; i++) {
		x = khist_test_next(&state);
		snprintf(name, sizeof(name), "name%llu", (x >> 8) % 8);
		khist_trace_sample(i, x, (s32)((x >> 32) % 1000) - 500,
				   x & 0xff, name, words[(x >> 20) % 5]);
		if (i & 1)
			khist_trace_pair_b(i, (x >> 4) % 10);
		else
			khist_trace_pair_a(i, (x >> 4) % 10);
		if (!atomic)
			cond_resched();
	}
}

static ssize_t khist_test_fire_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	unsigned int n;
	char buf[64];
	char mode[8];
	u64 seed;
	int got;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	/* "N SEED", or "N SEED atomic" for a burst nothing can preempt. */
	got = sscanf(buf, "%u %llu %7s", &n, &seed, mode);
	if (got < 2 || (got == 3 && strcmp(mode, "atomic")))
		return -EINVAL;
	if (got == 3 && n > 100000)
		return -EINVAL;
	if (got == 3) {
		preempt_disable();
		khist_test_fire(n, seed, true);
		preempt_enable();
	} else {
		khist_test_fire(n, seed, false);
	}
	return cnt;
}

static ssize_t khist_test_use_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	char buf[128], *sys, *name;
	int ret;

	if (cnt >= sizeof(buf) || cnt < 2)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	sys = strim(buf);
	if (*sys != '+' && *sys != '-')
		return -EINVAL;
	name = strchr(sys, ':');
	if (!name)
		return -EINVAL;
	*name++ = '\0';
	ret = khist_event_use(sys + 1, name, *sys == '+');
	return ret ? ret : cnt;
}

static const struct file_operations khist_test_use_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = khist_test_use_write,
};

static const struct file_operations khist_test_fire_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = khist_test_fire_write,
};

static int __init khist_test_init(void)
{
	int ret;

	khist_test_nr =
		khist_test_defs(khist_test_list, ARRAY_SIZE(khist_test_list));
	if (WARN_ON(khist_test_nr > ARRAY_SIZE(khist_test_list)))
		return -E2BIG;
	ret = khist_events_register(khist_test_list, khist_test_nr);
	if (ret)
		return ret;
	khist_test_dir = debugfs_create_dir("khist_test", NULL);
	debugfs_create_file("fire", 0200, khist_test_dir, NULL,
			    &khist_test_fire_fops);
	debugfs_create_file("use", 0200, khist_test_dir, NULL,
			    &khist_test_use_fops);
	return 0;
}

static void __exit khist_test_exit(void)
{
	debugfs_remove(khist_test_dir);
	khist_events_unregister(khist_test_list, khist_test_nr);
}

module_init(khist_test_init);
module_exit(khist_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("khist test event source (deterministic khist_test events)");
