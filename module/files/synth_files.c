// SPDX-License-Identifier: GPL-2.0
/*
 * synth_files.c - the `synthetic_events` and `dynamic_events` files of the
 * top instance, and the synthetic kind of dynamic event (module-wide).
 *
 *   echo 'name type field; ...' >> synthetic_events    define
 *   echo '!name' >> synthetic_events                    remove
 *   echo 'name ...' > synthetic_events    remove all (EBUSY: none), define
 *   cat synthetic_events                  "name\ttype field; type field"
 */
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "base/instance.h"
#include "events/events.h"
#include "synth/synth_internal.h"
#include "files/files.h"

static int synth_file_show(struct seq_file *m, void *v)
{
	struct khist_dynevent *ev;
	int ret = 0;

	/* The lines of `dynamic_events` without their "s:synthetic/". */
	mutex_lock(&khist_event_mutex);
	list_for_each_entry(ev, &khist_dynevent_list, list) {
		if (ev->ops != &khist_synth_dyn_ops)
			continue;
		ret = khist_dynevent_seq_print(m, ev, NULL);
		if (ret)
			break;
	}
	mutex_unlock(&khist_event_mutex);
	return ret;
}

static int synth_file_open(struct inode *inode, struct file *file)
{
	int ret;

	if (khist_fs_open_truncates(file)) {
		ret = khist_dynevent_release_all(&khist_synth_dyn_ops);
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, synth_file_show, NULL);
}

static int synth_file_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

static ssize_t synth_file_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return khist_run_commands(ubuf, count, ppos, khist_synth_command);
}

static loff_t synth_file_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations synth_file_fops = {
	.owner = THIS_MODULE,
	.open = synth_file_open,
	.read = seq_read,
	.write = synth_file_write,
	.llseek = synth_file_llseek,
	.release = synth_file_release,
};

/**
 * khist_synth_files_create() - `dynamic_events` (with kprobe_events,
 * uprobe_events and their profiles) and `synthetic_events`
 * @inst: the top-level instance, the only one with these files
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_synth_files_create(struct khist_instance *inst)
{
	struct khist_node *n;
	int ret;

	ret = khist_dynevent_files_create(inst);
	if (ret)
		return ret;
	n = khist_fs_create_file(inst->dir, "synthetic_events",
				 KHIST_MODE_WRITE, &synth_file_fops, NULL);
	if (IS_ERR(n)) {
		khist_dynevent_files_remove(inst);
		return PTR_ERR(n);
	}
	return 0;
}

/**
 * khist_synth_files_remove() - undo khist_synth_files_create()
 * @inst: the top-level instance
 *
 * Context: process context, module init or exit (no file is open).
 */
void khist_synth_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "synthetic_events"));
	khist_dynevent_files_remove(inst);
}

/**
 * khist_synth_init() - the synthetic kind of dynamic event
 *
 * Context: process context, module init.
 * Return: 0.
 */
int khist_synth_init(void)
{
	khist_dynevent_ops_register(&khist_synth_dyn_ops);
	return 0;
}

/**
 * khist_synth_exit() - remove every synthetic event and their kind
 *
 * Run after the hist engine dropped its references and triggers; an
 * event still enabled is detached and removed all the same.
 *
 * Context: process context, module exit.
 */
void khist_synth_exit(void)
{
	khist_dynevent_ops_unregister(&khist_synth_dyn_ops);
	khist_synth_remove_all();
}
