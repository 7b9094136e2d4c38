// SPDX-License-Identifier: GPL-2.0
/*
 * builtin.c - the events khist.ko provides: probes on the kernel's sched,
 * irq, timer, kmem and raw_syscalls tracepoints (generated from ev_*.h by
 * the macros of include/khist/, each probe checked at compile time against
 * the tracepoint's prototype), the syscalls events and ftrace/print.
 */
#include <linux/binfmts.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <trace/events/irq.h>
#include <trace/events/kmem.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/timer.h>
#include "khist.h"
#include "events.h"

#define KHIST_ON_TRACEPOINTS
#define KHIST_CREATE_EVENTS
#include "events/ev_sched.h"
#include "events/ev_irq.h"
#include "events/ev_timer.h"
#include "events/ev_kmem.h"
#include "events/ev_raw_syscalls.h"

#define KHIST_MAX_BUILTIN 32

static struct khist_event_def *khist_builtin[KHIST_MAX_BUILTIN];
static unsigned int khist_nr_builtin;

/**
 * khist_builtin_register() - register the built-in events
 *
 * Context: process context, module init.
 * Return: 0 or -errno with none registered.
 */
int khist_builtin_register(void)
{
	unsigned int (*const lists[])(struct khist_event_def **,
				      unsigned int) = {
		khist_sched_defs, khist_irq_defs, khist_timer_defs,
		khist_kmem_defs, khist_raw_syscalls_defs, khist_syscall_defs,
	};
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		n += lists[i](khist_builtin + n, KHIST_MAX_BUILTIN - 1 - n);
		if (WARN_ON(n > KHIST_MAX_BUILTIN - 1))
			return -E2BIG;
	}
	khist_builtin[n++] = &khist_print_def;
	ret = khist_events_register(khist_builtin, n);
	if (ret)
		return ret;
	khist_nr_builtin = n;
	mutex_lock(&khist_event_mutex);
	ret = khist_event_set_enabled(khist_print_def.ev, true, false);
	mutex_unlock(&khist_event_mutex);
	if (ret)
		khist_builtin_unregister();
	return ret;
}

/**
 * khist_builtin_unregister() - remove the built-in events
 *
 * Context: process context, module exit.
 */
void khist_builtin_unregister(void)
{
	khist_events_unregister(khist_builtin, khist_nr_builtin);
	khist_nr_builtin = 0;
}
