// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - trace_options and the options/ directory of an instance.
 *
 * Only options that khist honours are listed; each is one bit of
 * struct khist_instance.options. `options/<name>` reads 0 or 1 and takes
 * 0 or 1; `trace_options` lists every option, off ones with a "no"
 * prefix, and takes "<name>" or "no<name>", as in ftrace.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "files/files.h"

static const struct {
	const char *name;
	bool on;
} khist_option_info[KHIST_NR_OPTIONS] = {
	[KHIST_OPT_RECORD_CMD] = { "record-cmd", true },
	[KHIST_OPT_RECORD_TGID] = { "record-tgid", false },
	[KHIST_OPT_PAUSE_ON_TRACE] = { "pause-on-trace", true },
	[KHIST_OPT_STACKTRACE] = { "stacktrace", false },
	[KHIST_OPT_EVENT_FORK] = { "event-fork", false },
	[KHIST_OPT_MARKERS] = { "markers", true },
};

/* The data of an options/<name> file. */
struct khist_option_file {
	struct khist_instance *inst;
	enum khist_option opt;
};

/* Files may outlive the instance's rmdir: each holds a reference. */
static void khist_option_file_free(void *data)
{
	struct khist_option_file *of = data;

	khist_instance_put(of->inst);
	kfree(of);
}

/* Longest trace_options write: "no" + the longest name, with slack. */
#define KHIST_OPTION_MAX 64

static void khist_option_set(struct khist_instance *inst, enum khist_option opt,
			     bool on)
{
	if (on)
		set_bit(opt, &inst->options);
	else
		clear_bit(opt, &inst->options);
}

static ssize_t khist_option_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	const struct khist_option_file *of = file->private_data;
	char s[3];

	s[0] = khist_option_get(of->inst, of->opt) ? '1' : '0';
	s[1] = '\n';
	return simple_read_from_buffer(ubuf, cnt, ppos, s, 2);
}

static ssize_t khist_option_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	const struct khist_option_file *of = file->private_data;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	khist_option_set(of->inst, of->opt, val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_option_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_option_read,
	.write = khist_option_write,
	.llseek = default_llseek,
};

static ssize_t khist_trace_options_read(struct file *file, char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	const struct khist_instance *inst = file->private_data;
	size_t len = 0, size = 1;
	unsigned int i;
	ssize_t ret;
	char *text;

	for (i = 0; i < KHIST_NR_OPTIONS; i++)
		size += strlen(khist_option_info[i].name) + 3;
	text = kmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	for (i = 0; i < KHIST_NR_OPTIONS; i++)
		len += scnprintf(text + len, size - len, "%s%s\n",
				 khist_option_get(inst, i) ? "" : "no",
				 khist_option_info[i].name);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, text, len);
	kfree(text);
	return ret;
}

static ssize_t khist_trace_options_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	struct khist_instance *inst = file->private_data;
	char buf[KHIST_OPTION_MAX + 1];
	bool on = true;
	unsigned int i;
	char *name;

	if (cnt > KHIST_OPTION_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	name = strim(buf);
	if (!strncmp(name, "no", 2)) {
		name += 2;
		on = false;
	}
	for (i = 0; i < KHIST_NR_OPTIONS; i++) {
		if (!strcmp(name, khist_option_info[i].name)) {
			khist_option_set(inst, i, on);
			*ppos += cnt;
			return cnt;
		}
	}
	return -EINVAL;
}

static const struct file_operations khist_trace_options_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_trace_options_read,
	.write = khist_trace_options_write,
	.llseek = default_llseek,
};

/**
 * khist_options_remove() - remove trace_options and options/
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_options_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "trace_options"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "options"));
}

/**
 * khist_options_create() - set the default options of an instance and add
 * trace_options and options/<name> files
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_options_create(struct khist_instance *inst)
{
	struct khist_option_file *of;
	struct khist_node *dir, *n;
	unsigned int i;

	for (i = 0; i < KHIST_NR_OPTIONS; i++)
		khist_option_set(inst, i, khist_option_info[i].on);
	n = khist_fs_create_file(inst->dir, "trace_options", KHIST_MODE_WRITE,
				 &khist_trace_options_fops, inst);
	if (IS_ERR(n))
		return PTR_ERR(n);
	khist_instance_get(inst);
	khist_fs_set_release(n, khist_instance_node_release);
	dir = khist_fs_create_dir(inst->dir, "options", inst);
	if (IS_ERR(dir)) {
		n = dir;
		goto fail;
	}
	khist_instance_get(inst);
	khist_fs_set_release(dir, khist_instance_node_release);
	for (i = 0; i < KHIST_NR_OPTIONS; i++) {
		of = kzalloc(sizeof(*of), GFP_KERNEL);
		if (!of) {
			n = ERR_PTR(-ENOMEM);
			goto fail;
		}
		of->inst = inst;
		of->opt = i;
		n = khist_fs_create_file(dir, khist_option_info[i].name,
					 KHIST_MODE_WRITE, &khist_option_fops,
					 of);
		if (IS_ERR(n)) {
			kfree(of);
			goto fail;
		}
		khist_instance_get(inst);
		khist_fs_set_release(n, khist_option_file_free);
	}
	return 0;
fail:
	khist_options_remove(inst);
	return PTR_ERR(n);
}
