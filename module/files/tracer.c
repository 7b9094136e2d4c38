// SPDX-License-Identifier: GPL-2.0
/*
 * tracer.c - current_tracer, available_tracers and trace_clock at the root
 * of an instance.
 *
 * Each is a choice among fixed names. khist offers exactly one of each:
 * the "nop" tracer (events only, no function or latency tracer) and the
 * "local" clock, the one the kernel's ring buffer is created with (a module
 * cannot change it: ring_buffer_set_clock() is not exported). Writing the
 * offered name succeeds, as `echo nop > current_tracer` does in ftrace;
 * any other name is refused with EINVAL, as ftrace refuses a tracer or
 * clock it does not have.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "files/files.h"

/* Longest name a choice file accepts (ftrace: 100 for tracers). */
#define KHIST_CHOICE_MAX 100

/**
 * struct khist_choice - a file that selects one of several names
 * @names: the names, in the order they are listed
 * @nr:    how many
 * @cur:   index of the selected one
 * @all:   reading lists every name, the selected one in brackets
 *         (trace_clock); otherwise only the selected one (current_tracer)
 */
struct khist_choice {
	const char *const *names;
	unsigned int nr;
	unsigned int cur;
	bool all;
};

static const char *const khist_tracers[] = { "nop" };
static const char *const khist_clocks[] = { "local" };

static struct khist_choice khist_tracer_choice = {
	.names = khist_tracers,
	.nr = ARRAY_SIZE(khist_tracers),
};

static struct khist_choice khist_clock_choice = {
	.names = khist_clocks,
	.nr = ARRAY_SIZE(khist_clocks),
	.all = true,
};

static ssize_t khist_choice_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	const struct khist_choice *c = file->private_data;
	char *text;
	size_t len = 0, size = 2;
	unsigned int i;
	ssize_t ret;

	for (i = 0; i < c->nr; i++)
		size += strlen(c->names[i]) + 3;
	text = kmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	for (i = 0; i < c->nr; i++) {
		const char *fmt = i == c->cur ? "[%s]" : "%s";

		if (!c->all) {
			if (i == c->cur)
				len = scnprintf(text, size, "%s", c->names[i]);
			continue;
		}
		if (i)
			text[len++] = ' ';
		len += scnprintf(text + len, size - len, fmt, c->names[i]);
	}
	text[len++] = '\n';
	ret = simple_read_from_buffer(ubuf, cnt, ppos, text, len);
	kfree(text);
	return ret;
}

static ssize_t khist_choice_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct khist_choice *c = file->private_data;
	char buf[KHIST_CHOICE_MAX + 1];
	unsigned int i;
	char *name;

	if (cnt > KHIST_CHOICE_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	name = strim(buf);
	for (i = 0; i < c->nr; i++) {
		if (!strcmp(name, c->names[i])) {
			WRITE_ONCE(c->cur, i);
			*ppos += cnt;
			return cnt;
		}
	}
	return -EINVAL;
}

static const struct file_operations khist_choice_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_choice_read,
	.write = khist_choice_write,
	.llseek = default_llseek,
};

static ssize_t khist_avail_tracers_read(struct file *file, char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	char text[KHIST_CHOICE_MAX + 2];
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_tracers); i++)
		len += scnprintf(text + len, sizeof(text) - len, "%s%c",
				 khist_tracers[i],
				 i + 1 < ARRAY_SIZE(khist_tracers) ? ' ' :
								     '\n');
	return simple_read_from_buffer(ubuf, cnt, ppos, text, len);
}

static const struct file_operations khist_avail_tracers_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_avail_tracers_read,
	.llseek = default_llseek,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	void *data;
} khist_conform_files[] = {
	{ "current_tracer", KHIST_MODE_WRITE, &khist_choice_fops,
	  &khist_tracer_choice },
	{ "available_tracers", KHIST_MODE_READ, &khist_avail_tracers_fops,
	  NULL },
	{ "trace_clock", KHIST_MODE_WRITE, &khist_choice_fops,
	  &khist_clock_choice },
};

/**
 * khist_trace_clock_name() - the name of an instance's trace clock
 * @inst: the instance
 *
 * What a hist trigger lists as clock=, and the clock of the timestamps in
 * the instance's ring buffer.
 *
 * Context: any.
 * Return: a static string.
 */
const char *khist_trace_clock_name(const struct khist_instance *inst)
{
	return khist_clocks[READ_ONCE(khist_clock_choice.cur)];
}

/**
 * khist_conform_exit() - remove what khist_conform_init() made
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_conform_exit(struct khist_instance *inst)
{
	unsigned int i;

	khist_options_remove(inst);
	for (i = 0; i < ARRAY_SIZE(khist_conform_files); i++)
		khist_fs_remove(khist_fs_lookup(inst->dir,
						khist_conform_files[i].name));
}

/**
 * khist_conform_init() - add current_tracer, available_tracers,
 * trace_clock, trace_options and options/ to an instance
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_conform_init(struct khist_instance *inst)
{
	struct khist_node *n;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(khist_conform_files); i++) {
		n = khist_fs_create_file(inst->dir, khist_conform_files[i].name,
					 khist_conform_files[i].mode,
					 khist_conform_files[i].fops,
					 khist_conform_files[i].data);
		if (IS_ERR(n)) {
			ret = PTR_ERR(n);
			goto fail;
		}
	}
	ret = khist_options_create(inst);
	if (ret)
		goto fail;
	return 0;
fail:
	khist_conform_exit(inst);
	return ret;
}
