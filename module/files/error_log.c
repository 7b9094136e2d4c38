// SPDX-License-Identifier: GPL-2.0
/*
 * error_log.c - the `error_log` file of an instance (khist_error_report()
 * in base/instance.c fills the log it shows).
 *
 * Reading shows the last eight errors, oldest first, in ftrace's layout;
 * opening for write with O_TRUNC (`echo > error_log`) clears the log; other
 * writes are accepted and ignored, as in ftrace.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "base/instance.h"
#include "files/files.h"

static int khist_errlog_show(struct seq_file *m, void *v)
{
	struct khist_instance *inst = m->private;
	const struct khist_errlog_entry *e;
	unsigned int i;
	char *buf;
	int len;

	mutex_lock(&inst->errlog_lock);
	for (i = 0; (e = khist_errlog_get(&inst->errlog, i)); i++) {
		len = khist_errlog_format(e, NULL, 0);
		buf = kmalloc(len + 1, GFP_KERNEL);
		if (!buf) {
			mutex_unlock(&inst->errlog_lock);
			return -ENOMEM;
		}
		khist_errlog_format(e, buf, len + 1);
		seq_puts(m, buf);
		kfree(buf);
	}
	mutex_unlock(&inst->errlog_lock);
	return 0;
}

static int khist_errlog_open(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;

	if (khist_fs_open_truncates(file)) {
		mutex_lock(&inst->errlog_lock);
		khist_errlog_clear(&inst->errlog);
		mutex_unlock(&inst->errlog_lock);
	}
	return single_open(file, khist_errlog_show, inst);
}

static ssize_t khist_errlog_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations khist_errlog_fops = {
	.owner = THIS_MODULE,
	.open = khist_errlog_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = khist_errlog_write,
	.release = single_release,
};

/**
 * khist_errlog_create() - add the `error_log` file to an instance
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_errlog_create(struct khist_instance *inst)
{
	struct khist_node *node;

	node = khist_fs_create_file(inst->dir, "error_log", KHIST_MODE_WRITE,
				    &khist_errlog_fops, inst);
	if (IS_ERR(node))
		return PTR_ERR(node);
	/* The log outlives rmdir of its instance while the file is open. */
	khist_instance_get(inst);
	khist_fs_set_release(node, khist_instance_node_release);
	return 0;
}
