// SPDX-License-Identifier: GPL-2.0
/*
 * errlog_file.c - the `error_log` file of an instance and the function the
 * rest of khist calls to report a rejected command.
 *
 * Reading shows the last eight errors, oldest first, in ftrace's layout;
 * opening for write with O_TRUNC (`echo > error_log`) clears the log; other
 * writes are accepted and ignored, as in ftrace.
 */
#include <linux/fs.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "khist.h"

/**
 * khist_error_report() - add a rejected command to an instance's error_log
 * @inst: the instance (NULL means the top level)
 * @loc:  where, e.g. "hist:sched:sched_switch"
 * @msg:  static error text
 * @cmd:  the command as the user wrote it
 * @pos:  caret position in @cmd
 *
 * If memory is short the entry is lost, but the command is rejected with
 * its own error code all the same.
 *
 * Context: process context; takes the instance's errlog_lock; may sleep.
 */
void khist_error_report(struct khist_instance *inst, const char *loc,
			const char *msg, const char *cmd, unsigned int pos)
{
	if (!inst)
		inst = khist_top;
	mutex_lock(&inst->errlog_lock);
	if (khist_errlog_add(&inst->errlog, local_clock(), loc, msg, cmd, pos))
		pr_warn_ratelimited("error_log: no memory to record: %s\n",
				    msg);
	mutex_unlock(&inst->errlog_lock);
}

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
