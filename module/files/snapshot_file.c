// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_file.c - the `snapshot` file of an instance: reading shows the
 * snapshot buffer (swaps held while it is open), writing 0, 1 or another
 * number frees, takes or clears it (buffer/snapshot.c does the work).
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"
#include "files/files.h"

/* ftrace's text, byte for byte, one line per entry. */
static const char *const khist_snap_help[] = {
	"# Snapshot commands:",
	"# echo 0 > snapshot : Clears and frees snapshot buffer",
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.",
	"#                      Takes a snapshot of the main buffer.",
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)",
	"#                      (Doesn't have to be '2' works with any number that",
	"#                       is not a '0' or '1')",
};

static void khist_snap_header(struct khist_out *out, struct trace_buffer *rb,
			      bool empty, void *data)
{
	struct khist_buffer *buf = data;
	unsigned int i;

	if (!empty) {
		khist_ringbuf_header(out, rb);
		return;
	}
	khist_out_printf(out, "# tracer: nop\n#\n#\n# * Snapshot is %s *\n#\n",
			 khist_snapshot_allocated(buf) ? "allocated" : "freed");
	for (i = 0; i < ARRAY_SIZE(khist_snap_help); i++)
		khist_out_printf(out, "%s\n", khist_snap_help[i]);
}

static int khist_snap_open(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;
	struct khist_buffer *buf = inst->buf;
	struct trace_buffer *rb;
	int ret;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	/* The buffer read stays the snapshot until the file is closed. */
	rb = khist_snapshot_hold_spare(buf);
	ret = khist_trace_view_open(inode, file, rb, khist_snap_header, buf);
	if (ret)
		khist_snapshot_unhold(buf);
	return ret;
}

static int khist_snap_release_file(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	khist_trace_view_release(inode, file);
	khist_snapshot_unhold(inst->buf);
	return 0;
}

static ssize_t khist_snap_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct khist_instance *inst = file_inode(file)->i_private;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	ret = khist_snapshot_command(inst->buf, val);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static loff_t khist_snap_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations khist_snap_fops = {
	.owner = THIS_MODULE,
	.open = khist_snap_open,
	.read = seq_read,
	.write = khist_snap_write,
	.llseek = khist_snap_llseek,
	.release = khist_snap_release_file,
};

/**
 * khist_snapshot_files_create() - add `snapshot` to an instance
 * @inst: the instance, its buffer initialised
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_snapshot_files_create(struct khist_instance *inst)
{
	struct khist_node *node;

	node = khist_fs_create_file(inst->dir, "snapshot", KHIST_MODE_WRITE,
				    &khist_snap_fops, inst);
	if (IS_ERR(node))
		return PTR_ERR(node);
	/* The buffers live as long as the instance. */
	khist_instance_get(inst);
	khist_fs_set_release(node, khist_instance_node_release);
	return 0;
}

/**
 * khist_snapshot_files_remove() - remove `snapshot`
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_snapshot_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "snapshot"));
}
