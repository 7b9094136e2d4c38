// SPDX-License-Identifier: GPL-2.0
/*
 * builtin.c - the events khist.ko provides: probes on the kernel's sched,
 * irq, timer, kmem and raw_syscalls tracepoints (generated from ev_*.h by
 * the macros of include/khist/, each probe checked at compile time against
 * the tracepoint's prototype), the syscalls events (syscalls.c) and
 * ftrace/print.
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
#include <linux/ctype.h>
#include "base/instance.h"
#include "events.h"
#include "tpreg.h"

#define KHIST_ON_TRACEPOINTS
#define KHIST_CREATE_EVENTS
#include "events/ev_sched.h"
#include "events/ev_irq.h"
#include "events/ev_timer.h"
#include "events/ev_kmem.h"
#include "events/ev_raw_syscalls.h"

#define KHIST_MAX_BUILTIN 32

/* Enum constants a "print fmt" shows by value (ftrace's eval maps). */
struct khist_eval {
	const char *name;
	unsigned long val;
};

#define KHIST_EVAL(x) \
	{             \
#x, x \
	}
static const struct khist_eval khist_evals[] = {
#ifdef KHIST_HAVE_GFP_BIT_ENUM
	KHIST_EVAL(___GFP_DMA_BIT),
	KHIST_EVAL(___GFP_HIGHMEM_BIT),
	KHIST_EVAL(___GFP_MOVABLE_BIT),
	KHIST_EVAL(___GFP_RECLAIMABLE_BIT),
	KHIST_EVAL(___GFP_HIGH_BIT),
	KHIST_EVAL(___GFP_IO_BIT),
	KHIST_EVAL(___GFP_FS_BIT),
	KHIST_EVAL(___GFP_ZERO_BIT),
	KHIST_EVAL(___GFP_DMA32_BIT),
	KHIST_EVAL(___GFP_DIRECT_RECLAIM_BIT),
	KHIST_EVAL(___GFP_KSWAPD_RECLAIM_BIT),
	KHIST_EVAL(___GFP_WRITE_BIT),
	KHIST_EVAL(___GFP_NOWARN_BIT),
	KHIST_EVAL(___GFP_RETRY_MAYFAIL_BIT),
	KHIST_EVAL(___GFP_NOFAIL_BIT),
	KHIST_EVAL(___GFP_NORETRY_BIT),
	KHIST_EVAL(___GFP_MEMALLOC_BIT),
	KHIST_EVAL(___GFP_COMP_BIT),
	KHIST_EVAL(___GFP_NOMEMALLOC_BIT),
	KHIST_EVAL(___GFP_HARDWALL_BIT),
	KHIST_EVAL(___GFP_THISNODE_BIT),
	KHIST_EVAL(___GFP_ACCOUNT_BIT),
	KHIST_EVAL(___GFP_ZEROTAGS_BIT),
#ifdef CONFIG_KASAN_HW_TAGS
	KHIST_EVAL(___GFP_SKIP_ZERO_BIT),
	KHIST_EVAL(___GFP_SKIP_KASAN_BIT),
#endif
#ifdef CONFIG_LOCKDEP
	KHIST_EVAL(___GFP_NOLOCKDEP_BIT),
#endif
#ifdef CONFIG_SLAB_OBJ_EXT
	KHIST_EVAL(___GFP_NO_OBJ_EXT_BIT),
#endif
#endif
	{ NULL, 0 },
};

static const char *khist_eval_lookup(const char *s, size_t len,
				     unsigned long *val)
{
	const struct khist_eval *e;

	for (e = khist_evals; e->name; e++)
		if (strlen(e->name) == len && !strncmp(e->name, s, len)) {
			*val = e->val;
			return e->name;
		}
	return NULL;
}

/* The print fmt of @def with every eval-map name replaced by its value;
 * NULL when there is nothing to replace (or no memory: keep the names).
 */
static char *khist_eval_fmt(const char *fmt)
{
	size_t len, out = 0, size = strlen(fmt) + 1;
	const char *p = fmt, *start;
	unsigned long val;
	bool hit = false;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	while (*p) {
		if (!isalpha(*p) && *p != '_') {
			buf[out++] = *p++;
			continue;
		}
		start = p;
		while (isalnum(*p) || *p == '_')
			p++;
		len = p - start;
		/* A decimal value is never longer than the enum's name. */
		if (khist_eval_lookup(start, len, &val)) {
			out += scnprintf(buf + out, size - out, "%lu", val);
			hit = true;
		} else {
			memcpy(buf + out, start, len);
			out += len;
		}
	}
	buf[out] = '\0';
	if (!hit) {
		kfree(buf);
		return NULL;
	}
	return buf;
}

/* print fmt strings made by khist_eval_fmt(), to free at exit */
static char *khist_evaluated[KHIST_MAX_BUILTIN];

static struct khist_event_def *khist_builtin[KHIST_MAX_BUILTIN];
static unsigned int khist_nr_builtin;

static void khist_evaluated_free(void)
{
	unsigned int i;

	for (i = 0; i < KHIST_MAX_BUILTIN; i++) {
		kfree(khist_evaluated[i]);
		khist_evaluated[i] = NULL;
	}
}

/* The syscall events (a table of the target kernel's, see syscalls.c). */
static struct khist_event_def **khist_sc_defs;
static unsigned int khist_nr_sc;

static int khist_syscalls_register(void)
{
	unsigned int n = khist_syscall_defs(NULL, 0);
	int ret;

	if (!n)
		return 0;
	khist_sc_defs = kcalloc(n, sizeof(*khist_sc_defs), GFP_KERNEL);
	if (!khist_sc_defs)
		return -ENOMEM;
	khist_syscall_defs(khist_sc_defs, n);
	ret = khist_events_register(khist_sc_defs, n);
	if (ret) {
		kfree(khist_sc_defs);
		khist_sc_defs = NULL;
		return ret;
	}
	khist_nr_sc = n;
	return 0;
}

static void khist_syscalls_unregister(void)
{
	if (!khist_sc_defs)
		return;
	khist_events_unregister(khist_sc_defs, khist_nr_sc);
	khist_nr_sc = 0;
	kfree(khist_sc_defs);
	khist_sc_defs = NULL;
}

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
		khist_sched_defs, khist_irq_defs,	   khist_timer_defs,
		khist_kmem_defs,  khist_raw_syscalls_defs,
	};
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		n += lists[i](khist_builtin + n, KHIST_MAX_BUILTIN - 3 - n);
		if (WARN_ON(n > KHIST_MAX_BUILTIN - 3))
			return -E2BIG;
	}
	khist_builtin[n++] = &khist_print_def;
	khist_builtin[n++] = &khist_raw_data_def;
	khist_builtin[n++] = &khist_kernel_stack_def;
	for (i = 0; i < n; i++) {
		khist_evaluated[i] =
			khist_eval_fmt(khist_builtin[i]->print_fmt);
		if (khist_evaluated[i])
			khist_builtin[i]->print_fmt = khist_evaluated[i];
	}
	ret = khist_events_register(khist_builtin, n);
	if (ret) {
		khist_evaluated_free();
		return ret;
	}
	khist_nr_builtin = n;
	mutex_lock(&khist_event_mutex);
	ret = khist_event_set_enabled(khist_print_def.ev, true, false);
	mutex_unlock(&khist_event_mutex);
	if (!ret)
		ret = khist_syscalls_register();
	/* The generated events, but for the names registered above. */
	if (!ret)
		ret = khist_tpreg_register();
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
	khist_tpreg_unregister();
	khist_syscalls_unregister();
	khist_events_unregister(khist_builtin, khist_nr_builtin);
	khist_nr_builtin = 0;
	khist_evaluated_free();
}
