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
 * 6.3 replaced the struct user_namespace argument of inode operations
 * (permission, mkdir, ...) by struct mnt_idmap.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
typedef struct user_namespace khist_idmap_t;
#define khist_nop_idmap (&init_user_ns)
#else
typedef struct mnt_idmap khist_idmap_t;
#define khist_nop_idmap (&nop_mnt_idmap)
#endif

/* 6.6 hid inode timestamps behind accessors (simple_inode_init_ts()). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define khist_inode_init_ts(inode) \
	((inode)->i_atime = (inode)->i_mtime = (inode)->i_ctime = \
		 current_time(inode))
#else
#define khist_inode_init_ts(inode) simple_inode_init_ts(inode)
#endif

#endif /* _KHIST_COMPAT_COMPAT_H */
