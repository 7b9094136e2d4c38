/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_env.h - the single include seam of khist's portable core.
 *
 * Every file in module/core/ includes this header and its own headers,
 * nothing else. In the kernel it pulls the kernel's headers; in userspace
 * (unit tests, fuzzers, tools) it pulls the shims in tools/include/kshim/,
 * which implement the same vocabulary (u64, READ_ONCE, cmpxchg, kmalloc,
 * ERR_PTR, ...) on top of libc and the compiler's atomic builtins.
 *
 * Rules for the core: no printk, no sleeping locks, no VFS or tracepoint
 * types; errors are returned as data (negative errno plus a position).
 */
#ifndef _KHIST_CORE_CORE_ENV_H
#define _KHIST_CORE_CORE_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#else
#include <kshim/kernel.h>
#endif

#endif /* _KHIST_CORE_CORE_ENV_H */
