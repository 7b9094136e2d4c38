// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - the fail_pid and fail_nth module parameters (see fault.h).
 *
 *   echo $$ > /sys/module/khist/parameters/fail_pid   this shell's points
 *   echo 3 > /sys/module/khist/parameters/fail_nth    fail its 3rd, once
 *   ... an operation ...
 *   cat /sys/module/khist/parameters/fail_nth         0: it failed; else
 *                                                     3 minus the points met
 *   echo 0 > /sys/module/khist/parameters/fail_pid    off
 */
#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include "mem/fault.h"

DEFINE_STATIC_KEY_FALSE(khist_fault_key);

static int khist_fail_pid;
static atomic_t khist_fail_nth = ATOMIC_INIT(0);
/* Serialises changes of fail_pid with the key's state. */
static DEFINE_MUTEX(khist_fault_lock);

/**
 * __khist_should_fail() - the slow part of khist_should_fail()
 * @gfp: the allocation's flags
 * @ip:  where the fault point is (logged when it fails)
 *
 * Context: any; only a sleeping allocation by the task fail_pid names
 * counts.
 * Return: true for the fail_nth-th such point since fail_nth was set.
 */
bool __khist_should_fail(gfp_t gfp, unsigned long ip)
{
	if (!(gfp & __GFP_DIRECT_RECLAIM) || in_interrupt())
		return false;
	if (task_pid_nr(current) != READ_ONCE(khist_fail_pid))
		return false;
	if (!atomic_add_unless(&khist_fail_nth, -1, 0))
		return false;
	if (atomic_read(&khist_fail_nth))
		return false;
	pr_info("fail_nth: allocation failed on request at %pS\n", (void *)ip);
	return true;
}

static int khist_fail_pid_set(const char *val, const struct kernel_param *kp)
{
	int pid, ret;

	ret = kstrtoint(val, 0, &pid);
	if (ret)
		return ret;
	if (pid < 0)
		return -EINVAL;
	/* A module being loaded is live: insmod may set it too. */
	if (!try_module_get(THIS_MODULE))
		return -EBUSY;
	mutex_lock(&khist_fault_lock);
	if (pid && !khist_fail_pid)
		static_branch_enable(&khist_fault_key);
	WRITE_ONCE(khist_fail_pid, pid);
	if (!pid) {
		atomic_set(&khist_fail_nth, 0);
		if (static_key_enabled(&khist_fault_key))
			static_branch_disable(&khist_fault_key);
	}
	mutex_unlock(&khist_fault_lock);
	module_put(THIS_MODULE);
	return 0;
}

static const struct kernel_param_ops khist_fail_pid_ops = {
	.set = khist_fail_pid_set,
	.get = param_get_int,
};

module_param_cb(fail_pid, &khist_fail_pid_ops, &khist_fail_pid, 0600);
MODULE_PARM_DESC(fail_pid,
		 "Task whose allocations fail_nth counts (0: injection off)");

static int khist_fail_nth_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret)
		return ret;
	if (n < 0)
		return -EINVAL;
	atomic_set(&khist_fail_nth, n);
	return 0;
}

static int khist_fail_nth_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&khist_fail_nth));
}

static const struct kernel_param_ops khist_fail_nth_ops = {
	.set = khist_fail_nth_set,
	.get = khist_fail_nth_get,
};

module_param_cb(fail_nth, &khist_fail_nth_ops, NULL, 0600);
#define KHIST_FAIL_NTH_DESC \
	"Fail the Nth next allocation of task fail_pid, once (0 once it did)"
MODULE_PARM_DESC(fail_nth, KHIST_FAIL_NTH_DESC);

/**
 * khist_fault_exit() - turn injection off at unload
 *
 * Context: process context.
 */
void khist_fault_exit(void)
{
	mutex_lock(&khist_fault_lock);
	WRITE_ONCE(khist_fail_pid, 0);
	atomic_set(&khist_fail_nth, 0);
	if (static_key_enabled(&khist_fault_key))
		static_branch_disable(&khist_fault_key);
	mutex_unlock(&khist_fault_lock);
}
