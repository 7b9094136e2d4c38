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
#define khist_idmap_t struct user_namespace
#define khist_nop_idmap (&init_user_ns)
#else
#define khist_idmap_t struct mnt_idmap
#define khist_nop_idmap (&nop_mnt_idmap)
#endif

/* 6.6 hid inode timestamps behind accessors (simple_inode_init_ts()). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define khist_inode_init_ts(ino)                                \
	do {                                                    \
		struct inode *__ts_inode = (ino);               \
		__ts_inode->i_atime = current_time(__ts_inode); \
		__ts_inode->i_mtime = __ts_inode->i_atime;      \
		__ts_inode->i_ctime = __ts_inode->i_atime;      \
	} while (0)
#else
#define khist_inode_init_ts(ino) simple_inode_init_ts(ino)
#endif

/* 6.6 passed the statx request mask on to generic_fillattr(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define khist_fillattr(idmap, mask, inode, stat) \
	((void)(mask), generic_fillattr(idmap, inode, stat))
#else
#define khist_fillattr(idmap, mask, inode, stat) \
	generic_fillattr(idmap, mask, inode, stat)
#endif

/*
 * 6.8 made the ring buffer's sub-buffer size a file, buffer_subbuf_size_kb,
 * and let it be changed (ring_buffer_subbuf_order_set()). Before, every
 * sub-buffer is one page: order 0.
 */
#define KHIST_HAS_SUBBUF_SIZE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0))
#if KHIST_HAS_SUBBUF_SIZE
#define khist_rb_subbuf_order(rb) ring_buffer_subbuf_order_get(rb)
#define khist_rb_set_subbuf_order(rb, order) \
	ring_buffer_subbuf_order_set(rb, order)
#else
#define khist_rb_subbuf_order(rb) ((void)(rb), 0)
#define khist_rb_set_subbuf_order(rb, order) \
	((void)(rb), (order) ? -EOPNOTSUPP : 0)
#endif

/*
 * 6.2 dropped the (unused) event argument of ring_buffer_unlock_commit().
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define khist_rb_unlock_commit(rb, rbe) ring_buffer_unlock_commit(rb, rbe)
#else
#define khist_rb_unlock_commit(rb, rbe) \
	((void)(rbe), ring_buffer_unlock_commit(rb))
#endif

/*
 * 6.10 turned the gfp bit numbers into an enum (___GFP_*_BIT), which the
 * kmem events' "print fmt" shows by value, as ftrace's eval maps do.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define KHIST_HAVE_GFP_BIT_ENUM 1
#endif

/*
 * 6.10 folded CONFIG_MEMCG_KMEM into CONFIG_MEMCG (kmalloc's "accounted").
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define KHIST_MEMCG_KMEM IS_ENABLED(CONFIG_MEMCG)
#else
#define KHIST_MEMCG_KMEM IS_ENABLED(CONFIG_MEMCG_KMEM)
#endif

/*
 * Lazy preemption (PREEMPT_LAZY: Debian's 6.12-rt, mainline 6.13) takes
 * the bit of TRACE_FLAG_IRQS_NOSUPPORT for TRACE_FLAG_NEED_RESCHED_LAZY.
 */
#ifdef CONFIG_ARCH_HAS_PREEMPT_LAZY
#define KHIST_HAVE_RESCHED_LAZY 1
#else
#define KHIST_HAVE_RESCHED_LAZY 0
#endif

/* 6.5 dropped the vmas argument of pin_user_pages_remote(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define khist_pin_user_pages_remote(mm, start, nr, flags, pages, locked) \
	pin_user_pages_remote(mm, start, nr, flags, pages, NULL, locked)
#else
#define khist_pin_user_pages_remote(mm, start, nr, flags, pages, locked) \
	pin_user_pages_remote(mm, start, nr, flags, pages, locked)
#endif

/*
 * The reader's spare sub-buffer page (trace_pipe_raw). 6.7 wrapped the data
 * page in struct buffer_data_read_page (sub-buffers of several pages), and
 * Debian's 6.12 has ring_buffer_alloc_read_page() fill in a pointer, reusing
 * a spare of the right order. Before 6.7 the spare is the data page itself,
 * allocated once: khist stores it as an opaque struct buffer_data_read_page
 * pointer, and 6.1's ring_buffer_read_page() may exchange it with the
 * buffer's reader page, hence the pointer to pointer.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
struct buffer_data_read_page;
#define khist_rb_alloc_read_page(rb, cpu, rpp)                             \
	({                                                                 \
		struct buffer_data_read_page **__rpp = (rpp);              \
		void *__p = *__rpp ? (void *)*__rpp :                      \
				     ring_buffer_alloc_read_page(rb, cpu); \
		if (!IS_ERR(__p))                                          \
			*__rpp = __p;                                      \
		PTR_ERR_OR_ZERO(__p);                                      \
	})
#define khist_rb_read_page(rb, rpp, len, cpu, full) \
	ring_buffer_read_page(rb, (void **)(rpp), len, cpu, full)
#define khist_rb_read_page_data(rp) ((void *)(rp))
#define khist_rb_read_page_size(rp) ((rp) ? (unsigned int)PAGE_SIZE : 0U)
#define khist_rb_free_read_page(rb, cpu, rp) \
	ring_buffer_free_read_page(rb, cpu, (void *)(rp))
#else
#define khist_rb_alloc_read_page(rb, cpu, rpp) \
	ring_buffer_alloc_read_page(rb, cpu, rpp)
#define khist_rb_read_page(rb, rpp, len, cpu, full) \
	ring_buffer_read_page(rb, *(rpp), len, cpu, full)
#define khist_rb_read_page_data(rp) ring_buffer_read_page_data(rp)
#define khist_rb_read_page_size(rp) ring_buffer_read_page_size(rp)
#define khist_rb_free_read_page(rb, cpu, rp) \
	ring_buffer_free_read_page(rb, cpu, rp)
#endif

/*
 * 6.7 raised what one trace_marker write() records from 1 KiB
 * (TRACE_BUF_SIZE) to 4 KiB (TRACE_MARKER_MAX_SIZE).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
#define KHIST_MARKER_CAP 1024
#else
#define KHIST_MARKER_CAP 4096
#endif

/*
 * The longest trace_marker_raw write() taken: 3 KiB before 6.7 (then cut
 * to KHIST_MARKER_CAP), after it what the biggest event holds (checked
 * by the writer, this bound only keeps its sums small).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
#define KHIST_RAW_MAX (3 * 1024)
#else
#define KHIST_RAW_MAX KHIST_MARKER_CAP
#endif

#endif /* _KHIST_COMPAT_COMPAT_H */
