// SPDX-License-Identifier: GPL-2.0
/*
 * recorder_files.c - the files recorders (trace-cmd, libtracefs) read or
 * write besides the pages: tracing_cpumask, buffer_total_size_kb and
 * buffer_subbuf_size_kb in every instance; saved_cmdlines,
 * saved_cmdlines_size, saved_tgids and printk_formats at the top level.
 *
 * khist never calls trace_printk(), so its printk_formats is empty: no
 * record of its buffers points at a format string. The names and tgids
 * come from the one pid cache behind the TASK column (buffer/cmdline.c),
 * which has room for KHIST_COMM_SETS * KHIST_COMM_WAYS tasks and cannot
 * be resized.
 */
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "files/files.h"
#include "buffer/buffer.h"

/* ---- tracing_cpumask ---- */

static ssize_t khist_cpumask_read(struct file *file, char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	ssize_t ret;
	char *str;
	int len;

	len = snprintf(NULL, 0, "%*pb\n", cpumask_pr_args(buf->cpus)) + 1;
	str = kmalloc(len, GFP_KERNEL);
	if (!str)
		return -ENOMEM;
	len = scnprintf(str, len, "%*pb\n", cpumask_pr_args(buf->cpus));
	ret = simple_read_from_buffer(ubuf, cnt, ppos, str, len);
	kfree(str);
	return ret;
}

/*
 * The CPUs written are the CPUs whose events the buffer records from now
 * on; the records already in the buffer stay.
 */
static ssize_t khist_cpumask_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	cpumask_var_t mask;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse_user(ubuf, cnt, mask);
	if (!ret) {
		mutex_lock(&buf->read_lock);
		/* Word by word: the record path tests one bit, lock-free. */
		cpumask_copy(buf->cpus, mask);
		mutex_unlock(&buf->read_lock);
	}
	free_cpumask_var(mask);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_cpumask_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_cpumask_read,
	.write = khist_cpumask_write,
	.llseek = default_llseek,
};

/* ---- buffer_total_size_kb, buffer_subbuf_size_kb ---- */

/* Each possible CPU's buffer_size_kb, summed, as ftrace sums them. */
static ssize_t khist_total_size_read(struct file *file, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long kb = 0;
	char str[24];
	int cpu, len;

	for_each_possible_cpu(cpu)
		kb += READ_ONCE(buf->entries[cpu]) >> 10;
	len = scnprintf(str, sizeof(str), "%lu\n", kb);
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

static const struct file_operations khist_total_size_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_total_size_read,
	.llseek = default_llseek,
};

#if KHIST_HAS_SUBBUF_SIZE
/*
 * The sub-buffer size of the instance's buffer, in KiB: a power-of-two
 * number of pages, from 1 to 128 (2^KHIST_RB_MAX_ORDER).
 */
static ssize_t khist_subbuf_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	char str[24];
	int len;

	mutex_lock(&buf->read_lock);
	len = scnprintf(str, sizeof(str), "%lu\n",
			(PAGE_SIZE << khist_rb_subbuf_order(buf->rb)) >> 10);
	mutex_unlock(&buf->read_lock);
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

/*
 * As ftrace: the KiB asked for are rounded up to whole pages, then to a
 * power of two of them; 0 and more than 128 pages are -EINVAL (so is a
 * count too big to hold, as ftrace's int arithmetic finds it). The
 * buffers keep their data room in sub-buffers of the new size; a reader
 * iterating the buffer (`trace` open) makes it -EBUSY.
 */
static ssize_t khist_subbuf_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long kb;
	int pages, order;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &kb);
	if (ret)
		return ret;
	/* ftrace's arithmetic, wrap-arounds and all, for its errnos. */
	kb *= 1024;
	pages = DIV_ROUND_UP(kb, PAGE_SIZE);
	order = fls(pages - 1);
	if (order < 0 || order > KHIST_RB_MAX_ORDER)
		return -EINVAL;
	mutex_lock(&buf->read_lock);
	ret = khist_ringbuf_set_order(buf, order);
	mutex_unlock(&buf->read_lock);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_subbuf_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_subbuf_read,
	.write = khist_subbuf_write,
	.llseek = default_llseek,
};
#endif

/* ---- saved_cmdlines, saved_cmdlines_size, saved_tgids, printk_formats ---- */

static int khist_cmdlines_show(struct seq_file *m, void *v)
{
	khist_comm_show(m, false);
	return 0;
}

static int khist_tgids_show(struct seq_file *m, void *v)
{
	khist_comm_show(m, true);
	return 0;
}

static int khist_cmdlines_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", khist_comm_capacity());
	return 0;
}

/* No trace_printk() in khist: no format to list. */
static int khist_printk_formats_show(struct seq_file *m, void *v)
{
	return 0;
}

static int khist_cmdlines_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_cmdlines_show, NULL);
}

static int khist_tgids_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_tgids_show, NULL);
}

static int khist_cmdlines_size_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_cmdlines_size_show, NULL);
}

static int khist_printk_formats_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_printk_formats_show, NULL);
}

#define KHIST_SEQ_FOPS(name, opener)                 \
	static const struct file_operations name = { \
		.owner = THIS_MODULE,                \
		.open = opener,                      \
		.read = seq_read,                    \
		.llseek = seq_lseek,                 \
		.release = single_release,           \
	}

KHIST_SEQ_FOPS(khist_cmdlines_fops, khist_cmdlines_open);
KHIST_SEQ_FOPS(khist_tgids_fops, khist_tgids_open);
/*
 * As ftrace: a number of names from 1 to 32768 (else EINVAL) replaces the
 * cache by an empty one of that size; ENOMEM keeps the old one.
 */
static ssize_t khist_cmdlines_size_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val > UINT_MAX)
		return -EINVAL;
	ret = khist_comm_resize(val);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_cmdlines_size_fops = {
	.owner = THIS_MODULE,
	.open = khist_cmdlines_size_open,
	.read = seq_read,
	.write = khist_cmdlines_size_write,
	.llseek = seq_lseek,
	.release = single_release,
};

KHIST_SEQ_FOPS(khist_printk_formats_fops, khist_printk_formats_open);

static const struct khist_recorder_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	bool top_only;
} khist_recorder_files[] = {
	{ "tracing_cpumask", KHIST_MODE_WRITE, &khist_cpumask_fops },
	{ "buffer_total_size_kb", KHIST_MODE_READ, &khist_total_size_fops },
#if KHIST_HAS_SUBBUF_SIZE
	{ "buffer_subbuf_size_kb", KHIST_MODE_WRITE, &khist_subbuf_fops },
#endif
	{ "saved_cmdlines", KHIST_MODE_READ, &khist_cmdlines_fops, true },
	{ "saved_cmdlines_size", KHIST_MODE_WRITE, &khist_cmdlines_size_fops,
	  true },
	{ "saved_tgids", KHIST_MODE_READ, &khist_tgids_fops, true },
	{ "printk_formats", KHIST_MODE_READ, &khist_printk_formats_fops, true },
};

static void khist_recorder_node_release(void *data)
{
	struct khist_buffer *buf = data;

	khist_instance_put(buf->inst);
}

/**
 * khist_recorder_files_create() - add the recorders' files to an instance
 * @inst: the instance, its buffer allocated
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_recorder_files_create(struct khist_instance *inst)
{
	const struct khist_recorder_file *f;
	struct khist_node *node;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_recorder_files); i++) {
		f = &khist_recorder_files[i];
		if (f->top_only && inst->name[0])
			continue;
		node = khist_fs_create_file(inst->dir, f->name, f->mode,
					    f->fops, inst->buf);
		if (IS_ERR(node)) {
			khist_recorder_files_remove(inst);
			return PTR_ERR(node);
		}
		/* The buffer lives as long as the instance. */
		khist_instance_get(inst);
		khist_fs_set_release(node, khist_recorder_node_release);
	}
	return 0;
}

/**
 * khist_recorder_files_remove() - remove what khist_recorder_files_create()
 * made
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_recorder_files_remove(struct khist_instance *inst)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_recorder_files); i++)
		khist_fs_remove(khist_fs_lookup(inst->dir,
						khist_recorder_files[i].name));
}
