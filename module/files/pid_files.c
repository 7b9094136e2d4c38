// SPDX-License-Identifier: GPL-2.0
/*
 * pid_files.c - set_event_pid and set_event_notrace_pid of an instance.
 *
 * Reading lists the pids, one a line, in ascending order. A write adds
 * the space or newline separated pids it holds (all or nothing); opening
 * with O_TRUNC (`>`) empties the list first, so `echo > set_event_pid`
 * clears it. The list itself lives in events/pidfilter.c.
 */
#include <linux/fs.h>
#include <linux/ctype.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "events/pidfilter.h"
#include "files/files.h"

/* The most of one write taken at once; write() comes back for the rest. */
#define KHIST_PID_WRITE_MAX (64 * 1024)

static const struct {
	const char *name;
	enum khist_pids_kind kind;
} khist_pid_files[] = {
	{ "set_event_pid", KHIST_PIDS_TRACE },
	{ "set_event_notrace_pid", KHIST_PIDS_NOTRACE },
};

static enum khist_pids_kind khist_pid_file_kind(const struct file *file)
{
	return strcmp(file->f_path.dentry->d_name.name, "set_event_pid") ?
		       KHIST_PIDS_NOTRACE :
		       KHIST_PIDS_TRACE;
}

static int khist_pid_file_seq(struct seq_file *m, void *v)
{
	const struct file *file = m->file;

	khist_pidf_show(m, m->private, khist_pid_file_kind(file));
	return 0;
}

static int khist_pid_file_open(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;

	if (khist_fs_open_truncates(file))
		khist_pidf_clear(inst, khist_pid_file_kind(file));
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_pid_file_seq, inst);
}

static int khist_pid_file_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

static ssize_t khist_pid_file_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct khist_instance *inst = file_inode(file)->i_private;
	size_t len = min_t(size_t, count, KHIST_PID_WRITE_MAX);
	char *text;
	ssize_t ret;

	if (!count)
		return 0;
	text = memdup_user_nul(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	if (len < count) {
		/* Stop after the last separator; the rest comes next. */
		while (len && !isspace(text[len - 1]))
			len--;
		if (!len) {
			kfree(text);
			return -EINVAL;
		}
		text[len] = '\0';
	}
	ret = khist_pidf_write(inst, khist_pid_file_kind(file), text);
	kfree(text);
	if (ret)
		return ret;
	*ppos += len;
	return len;
}

static loff_t khist_pid_file_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	return noop_llseek(file, off, whence);
}

static const struct file_operations khist_pid_file_fops = {
	.owner = THIS_MODULE,
	.open = khist_pid_file_open,
	.read = seq_read,
	.write = khist_pid_file_write,
	.llseek = khist_pid_file_llseek,
	.release = khist_pid_file_release,
};

/**
 * khist_pid_files_remove() - remove the pid files and stop the filter
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_pid_files_remove(struct khist_instance *inst)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_pid_files); i++) {
		const char *name = khist_pid_files[i].name;

		khist_fs_remove(khist_fs_lookup(inst->dir, name));
	}
	khist_pidf_destroy(inst);
}

/**
 * khist_pid_files_create() - the task filter of an instance and its files
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno; khist_pid_files_remove() undoes a partial create.
 */
int khist_pid_files_create(struct khist_instance *inst)
{
	struct khist_node *n;
	unsigned int i;
	int ret;

	if (!inst->pidf) {
		ret = khist_pidf_create(inst);
		if (ret)
			return ret;
	}
	for (i = 0; i < ARRAY_SIZE(khist_pid_files); i++) {
		n = khist_fs_create_file(inst->dir, khist_pid_files[i].name,
					 KHIST_MODE_WRITE, &khist_pid_file_fops,
					 inst);
		if (IS_ERR(n))
			return PTR_ERR(n);
		khist_instance_get(inst);
		khist_fs_set_release(n, khist_instance_node_release);
	}
	return 0;
}
