// SPDX-License-Identifier: GPL-2.0
/*
 * user_events_files.c - the user_events_data and user_events_status files
 * at the top level (events/user_events.c does the work), and the u: kind
 * of `dynamic_events`.
 *
 * user_events_data takes the DIAG_IOCS* ioctls and writes of records on
 * any open file, read-only ones excepted, as the kernel's does (some
 * clients open it O_WRONLY). Each open file pins the module.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/uio.h>
#include "base/instance.h"
#include "events/user_events.h"
#include "files/files.h"

static int khist_ue_data_open(struct inode *inode, struct file *file)
{
	struct khist_ue_file *uf = khist_ue_file_alloc();

	if (!uf)
		return -ENOMEM;
	file->private_data = uf;
	return 0;
}

static int khist_ue_data_release(struct inode *inode, struct file *file)
{
	khist_ue_file_free(file->private_data);
	return 0;
}

static ssize_t khist_ue_data_write_iter(struct kiocb *kiocb,
					struct iov_iter *from)
{
	return khist_ue_write(kiocb->ki_filp->private_data, from);
}

static long khist_ue_data_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case DIAG_IOCSREG:
		return khist_ue_ioctl_reg(file->private_data, uarg);
	case DIAG_IOCSDEL:
		return khist_ue_ioctl_del(uarg);
	case DIAG_IOCSUNREG:
		return khist_ue_ioctl_unreg(uarg);
	}
	return -ENOTTY;
}

static const struct file_operations khist_ue_data_fops = {
	.owner = THIS_MODULE,
	.open = khist_ue_data_open,
	.write_iter = khist_ue_data_write_iter,
	.unlocked_ioctl = khist_ue_data_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = khist_ue_data_release,
	.llseek = noop_llseek,
};

static int khist_ue_status_file_show(struct seq_file *m, void *v)
{
	return khist_ue_status_show(m);
}

DEFINE_SHOW_ATTRIBUTE(khist_ue_status_file);

/**
 * khist_ue_files_create() - user_events_data and user_events_status
 * @inst: the top-level instance, the only one with these files
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_ue_files_create(struct khist_instance *inst)
{
	struct khist_node *n;

	/* Global state only: no data to keep alive. */
	n = khist_fs_create_file(inst->dir, "user_events_data",
				 KHIST_MODE_WRITE, &khist_ue_data_fops, NULL);
	if (IS_ERR(n))
		return PTR_ERR(n);
	n = khist_fs_create_file(inst->dir, "user_events_status",
				 KHIST_MODE_READ, &khist_ue_status_file_fops,
				 NULL);
	if (IS_ERR(n)) {
		khist_fs_remove(khist_fs_lookup(inst->dir, "user_events_data"));
		return PTR_ERR(n);
	}
	return 0;
}

/**
 * khist_ue_files_remove() - undo khist_ue_files_create()
 * @inst: the top-level instance
 *
 * Context: process context, module init or exit (no file is open).
 */
void khist_ue_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "user_events_status"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "user_events_data"));
}

/**
 * khist_ue_files_init() - user-space events and the u: kind of
 * `dynamic_events`
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_ue_files_init(void)
{
	int ret;

	ret = khist_ue_init();
	if (ret)
		return ret;
	khist_dynevent_ops_register(&khist_ue_dyn_ops);
	return 0;
}

/**
 * khist_ue_files_exit() - undo khist_ue_files_init(), removing every
 * user-space event
 *
 * Context: process context, module exit (no user_events_data is open).
 */
void khist_ue_files_exit(void)
{
	khist_dynevent_ops_unregister(&khist_ue_dyn_ops);
	khist_ue_exit();
}
