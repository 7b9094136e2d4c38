/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the one place where kernel versions are compared.
 *
 * Force-included into every khist object by Kbuild. The rest of khist is
 * written against the newest supported kernel (6.12); each entry below maps
 * an older kernel onto that API and names the release that introduced what
 * it papers over, so it can be deleted when the floor rises.
 */
#ifndef _KHIST_COMPAT_COMPAT_H
#define _KHIST_COMPAT_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "khist supports Linux 6.1 to 6.12"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#warning "khist is tested on Linux 6.1 and 6.12 only"
#endif

/*
 * local_clock() is exported from 6.2 on; before that it is an inline
 * wrapper around sched_clock_cpu(), which is exported.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define KHIST_COMPAT_LOCAL_CLOCK_INLINE 1
#endif

#endif /* _KHIST_COMPAT_COMPAT_H */
