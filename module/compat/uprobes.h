/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uprobes.h - registering a uprobe consumer, the same way on every
 * supported kernel.
 *
 * 6.12 changed the API: uprobe_register() takes the reference counter
 * offset and returns the struct uprobe, which uprobe_unregister_nosync()
 * takes, and uprobe_unregister_sync() waits for the running handlers.
 * Before, uprobe_register_refctr() returned 0 or -errno and
 * uprobe_unregister() took the inode and offset again and waited itself.
 */
#ifndef _KHIST_COMPAT_UPROBES_H
#define _KHIST_COMPAT_UPROBES_H

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/uprobes.h>

/**
 * struct khist_uprobe_reg - a registered consumer, for its unregistration
 * @inode:  the probed file's inode (the caller holds a reference)
 * @offset: the probed offset in it
 * @uprobe: 6.12: what uprobe_register() returned
 */
struct khist_uprobe_reg {
	struct inode *inode;
	loff_t offset;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	struct uprobe *uprobe;
#endif
};

/**
 * khist_uprobe_register() - add a consumer to the uprobe at @offset of
 * @inode, inserting the breakpoint in every process that maps it
 * @r:       filled for khist_uprobe_unregister()
 * @inode:   the file
 * @offset:  the offset in it
 * @ref_ctr: the offset of its reference counter (0: none)
 * @uc:      the consumer
 *
 * Context: process context; may sleep.
 * Return: 0 or -errno.
 */
static inline int khist_uprobe_register(struct khist_uprobe_reg *r,
					struct inode *inode, loff_t offset,
					loff_t ref_ctr,
					struct uprobe_consumer *uc)
{
	r->inode = inode;
	r->offset = offset;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	r->uprobe = uprobe_register(inode, offset, ref_ctr, uc);
	return PTR_ERR_OR_ZERO(r->uprobe);
#else
	return uprobe_register_refctr(inode, offset, ref_ctr, uc);
#endif
}

/**
 * khist_uprobe_unregister() - remove a consumer added by
 * khist_uprobe_register(); no handler of it runs after this returns
 * @r:  as filled by the registration
 * @uc: the consumer
 *
 * Context: process context; may sleep.
 */
static inline void khist_uprobe_unregister(struct khist_uprobe_reg *r,
					   struct uprobe_consumer *uc)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	uprobe_unregister_nosync(r->uprobe, uc);
	uprobe_unregister_sync();
#else
	uprobe_unregister(r->inode, r->offset, uc);
#endif
}

#endif /* _KHIST_COMPAT_UPROBES_H */
