// SPDX-License-Identifier: GPL-2.0
/*
 * dynamic_events.c - the `dynamic_events` file (events/dynevent.c keeps
 * the list and dispatches each line), `kprobe_events` and `kprobe_profile`
 * (eprobe/kprobe.c), `uprobe_events` and `uprobe_profile` (eprobe/uprobe.c),
 * and the line splitter ftrace uses for its command
 * files, which `synthetic_events` shares.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "core/cmd_split.h"
#include "core/synth_parse.h"
#include "events/dynevent.h"
#include "eprobe/eprobe.h"
#include "files/files.h"
#include "mem/mem.h"

/* A write being run by khist_run_commands(). */
struct khist_run_ctx {
	const char __user *ubuf;
	int (*fn)(const char *line);
};

static int khist_run_copy(char *dst, size_t off, size_t len, void *arg)
{
	const char __user *ubuf = ((struct khist_run_ctx *)arg)->ubuf;

	return copy_from_user(dst, ubuf + off, len) ? -EFAULT : 0;
}

static int khist_run_line(char *line, void *arg)
{
	return ((struct khist_run_ctx *)arg)->fn(line);
}

/**
 * khist_run_commands() - feed a write to a command file, line by line
 * @ubuf:  the user's buffer
 * @count: its size
 * @ppos:  the file position (unused, as in ftrace)
 * @fn:    called for each line, newline and '#' comment removed
 *
 * As ftrace's command files: the write is read in 4 KiB chunks; a line
 * must fit one (4094 bytes and its newline); processing stops at the first
 * line @fn refuses, and the lines before it stay applied. The cutting is
 * khist_cmd_split_run()'s.
 *
 * Context: process context.
 * Return: @count, or the first error.
 */
ssize_t khist_run_commands(const char __user *ubuf, size_t count, loff_t *ppos,
			   int (*fn)(const char *line))
{
	struct khist_run_ctx ctx = { .ubuf = ubuf, .fn = fn };
	struct khist_cmd_split s = {
		.count = count,
		.copy = khist_run_copy,
		.line = khist_run_line,
		.arg = &ctx,
	};
	ssize_t ret;

	s.buf = khist_kmalloc(KHIST_CMD_BUF, GFP_KERNEL);
	if (!s.buf)
		return -ENOMEM;
	ret = khist_cmd_split_run(&s);
	if (s.too_long)
		pr_warn("command line too long: at most %d bytes\n",
			KHIST_CMD_BUF - 2);
	kfree(s.buf);
	return ret;
}

static int khist_dynevent_show(struct seq_file *m, void *v)
{
	return khist_dynevent_show_all(m);
}

static int khist_dynevent_open(struct inode *inode, struct file *file)
{
	int ret;

	if (khist_fs_open_truncates(file)) {
		ret = khist_dynevent_release_all(NULL);
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_dynevent_show, NULL);
}

static int khist_dynevent_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

static ssize_t khist_dynevent_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	return khist_run_commands(ubuf, count, ppos, khist_dynevent_command);
}

static loff_t khist_dynevent_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations khist_dynevent_fops = {
	.owner = THIS_MODULE,
	.open = khist_dynevent_open,
	.read = seq_read,
	.write = khist_dynevent_write,
	.llseek = khist_dynevent_llseek,
	.release = khist_dynevent_release,
};

/* ---- kprobe_events and kprobe_profile ---------------------------------- */

static int khist_kprobe_events_show(struct seq_file *m, void *v)
{
	return khist_kprobe_show(m);
}

static int khist_kprobe_events_open(struct inode *inode, struct file *file)
{
	int ret;

	if (khist_fs_open_truncates(file)) {
		ret = khist_kprobe_clear();
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_kprobe_events_show, NULL);
}

static ssize_t khist_kprobe_events_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	return khist_run_commands(ubuf, count, ppos, khist_kprobe_command);
}

static const struct file_operations khist_kprobe_events_fops = {
	.owner = THIS_MODULE,
	.open = khist_kprobe_events_open,
	.read = seq_read,
	.write = khist_kprobe_events_write,
	.llseek = khist_dynevent_llseek,
	.release = khist_dynevent_release,
};

static int khist_kprobe_profile_seq(struct seq_file *m, void *v)
{
	return khist_kprobe_profile_show(m);
}

static int khist_kprobe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_kprobe_profile_seq, NULL);
}

static const struct file_operations khist_kprobe_profile_fops = {
	.owner = THIS_MODULE,
	.open = khist_kprobe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- uprobe_events and uprobe_profile ---------------------------------- */

static int khist_uprobe_events_show(struct seq_file *m, void *v)
{
	return khist_uprobe_show(m);
}

static int khist_uprobe_events_open(struct inode *inode, struct file *file)
{
	int ret;

	if (khist_fs_open_truncates(file)) {
		ret = khist_uprobe_clear();
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_uprobe_events_show, NULL);
}

static ssize_t khist_uprobe_events_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	return khist_run_commands(ubuf, count, ppos, khist_uprobe_command);
}

static const struct file_operations khist_uprobe_events_fops = {
	.owner = THIS_MODULE,
	.open = khist_uprobe_events_open,
	.read = seq_read,
	.write = khist_uprobe_events_write,
	.llseek = khist_dynevent_llseek,
	.release = khist_dynevent_release,
};

static int khist_uprobe_profile_seq(struct seq_file *m, void *v)
{
	return khist_uprobe_profile_show(m);
}

static int khist_uprobe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_uprobe_profile_seq, NULL);
}

static const struct file_operations khist_uprobe_profile_fops = {
	.owner = THIS_MODULE,
	.open = khist_uprobe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * khist_dynevent_files_create() - add `dynamic_events` to an instance
 * @inst: the top-level instance
 *
 * Context: process context, module init.
 * Return: 0 or -errno.
 */
int khist_dynevent_files_create(struct khist_instance *inst)
{
	struct khist_node *n;

	/* Global state only: no data to keep alive. */
	n = khist_fs_create_file(inst->dir, "dynamic_events", KHIST_MODE_WRITE,
				 &khist_dynevent_fops, NULL);
	if (IS_ERR(n))
		return PTR_ERR(n);
	n = khist_fs_create_file(inst->dir, "kprobe_events", KHIST_MODE_WRITE,
				 &khist_kprobe_events_fops, NULL);
	if (IS_ERR(n))
		goto out;
	n = khist_fs_create_file(inst->dir, "kprobe_profile", KHIST_MODE_READ,
				 &khist_kprobe_profile_fops, NULL);
	if (IS_ERR(n))
		goto out;
	n = khist_fs_create_file(inst->dir, "uprobe_events", KHIST_MODE_WRITE,
				 &khist_uprobe_events_fops, NULL);
	if (IS_ERR(n))
		goto out;
	n = khist_fs_create_file(inst->dir, "uprobe_profile", KHIST_MODE_READ,
				 &khist_uprobe_profile_fops, NULL);
	if (!IS_ERR(n))
		return 0;
out:
	khist_dynevent_files_remove(inst);
	return PTR_ERR(n);
}

/**
 * khist_dynevent_files_remove() - undo khist_dynevent_files_create()
 * @inst: the instance
 *
 * Context: process context, module exit.
 */
void khist_dynevent_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "uprobe_profile"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "uprobe_events"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "kprobe_profile"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "kprobe_events"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "dynamic_events"));
}
