/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.h - allocation failures injected on request into khist's control
 * paths, for tests of their error handling.
 *
 * Debian's kernels have no CONFIG_FAULT_INJECTION (no failslab, no
 * /proc/self/fail-nth), so khist carries its own switch, modelled on
 * fail-nth: two root-only module parameters name a task (fail_pid) and
 * which of the task's next fault points fails (fail_nth: the Nth, once).
 * A fault point sits before each allocation of the control paths that
 * create things (filesystem nodes, events and their systems, instances
 * and their buffers, event probes, synthetic events). Only sleeping
 * allocations (__GFP_DIRECT_RECLAIM) are fault points, so a probe, which
 * never sleeps, never meets one.
 *
 * Off (fail_pid 0, the default), a fault point is a static branch that
 * is never taken: no load, no call.
 */
#ifndef _KHIST_FAULT_FAULT_H
#define _KHIST_FAULT_FAULT_H

#include <linux/jump_label.h>
#include <linux/slab.h>
#include <linux/string.h>

DECLARE_STATIC_KEY_FALSE(khist_fault_key);

bool __khist_should_fail(gfp_t gfp, unsigned long ip);

/**
 * khist_should_fail() - a fault point: should this allocation fail?
 * @gfp: the allocation's flags
 *
 * Context: any; true only in process context, for the task named by
 * fail_pid, at the fail_nth-th point it reaches.
 * Return: true when the caller must act as if the allocation failed.
 */
static __always_inline bool khist_should_fail(gfp_t gfp)
{
	if (static_branch_unlikely(&khist_fault_key))
		return __khist_should_fail(gfp, _THIS_IP_);
	return false;
}

/* kzalloc(), kcalloc(), kmalloc(), kstrdup() with a fault point. */
static inline void *khist_kzalloc(size_t size, gfp_t gfp)
{
	return khist_should_fail(gfp) ? NULL : kzalloc(size, gfp);
}

static inline void *khist_kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return khist_should_fail(gfp) ? NULL : kcalloc(n, size, gfp);
}

static inline void *khist_kmalloc(size_t size, gfp_t gfp)
{
	return khist_should_fail(gfp) ? NULL : kmalloc(size, gfp);
}

static inline char *khist_kstrdup(const char *s, gfp_t gfp)
{
	return khist_should_fail(gfp) ? NULL : kstrdup(s, gfp);
}

void khist_fault_exit(void);

#endif /* _KHIST_FAULT_FAULT_H */
