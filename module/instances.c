// SPDX-License-Identifier: GPL-2.0
/*
 * instances.c - the instance orchestrator: it assembles the top level (the
 * root of the khist filesystem) and the instances users make with mkdir in
 * instances/ from every part (files, ring buffer, events), and takes them
 * apart. The object itself (references, error_log) is base/instance.c.
 *
 * An instance has its own error_log, ring buffer and trace files, and its
 * own copy of every event (enable state, filter, triggers, histograms).
 * rmdir disables its events, drops their triggers and removes its files;
 * files still open keep the instance's memory (buffer, error_log) until
 * they are closed, through the instance's reference count.
 */
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/string.h>
#include "base/instance.h"
#include "files/files.h"
#include "mem/mem.h"
#include "buffer/buffer.h"
#include "events/events.h"
#include "events/pidfilter.h"
#include "instances.h"

/* Serialises mkdir and rmdir of instances. */
static DEFINE_MUTEX(khist_instance_mutex);

/* The parts above base/ that the last reference frees. */
static void khist_instance_release_parts(struct khist_instance *inst)
{
	khist_pidf_free(inst);
	khist_ringbuf_free(inst);
}

static const struct khist_instance_ops khist_instance_ops = {
	.release = khist_instance_release_parts,
};

/*
 * The ring buffer and its files (trace, trace_pipe, snapshot, ...); the
 * buffer itself is freed with the instance (khist_instance_release_parts()).
 */
static int khist_instance_buffer_add(struct khist_instance *inst)
{
	int ret;

	ret = khist_ringbuf_init(inst);
	if (ret)
		return ret;
	ret = khist_trace_files_create(inst);
	if (ret)
		goto out_buf;
	ret = khist_snapshot_files_create(inst);
	if (ret)
		goto out_trace;
	ret = khist_percpu_files_create(inst);
	if (ret)
		goto out_snap;
	ret = khist_recorder_files_create(inst);
	if (ret)
		goto out_percpu;
	return 0;

out_percpu:
	khist_percpu_files_remove(inst);
out_snap:
	khist_snapshot_files_remove(inst);
out_trace:
	khist_trace_files_remove(inst);

out_buf:
	khist_ringbuf_free(inst);
	return ret;
}

/* Remove the buffer's files; the buffer lives on while files are open. */
static void khist_instance_buffer_remove(struct khist_instance *inst)
{
	khist_recorder_files_remove(inst);
	khist_percpu_files_remove(inst);
	khist_snapshot_files_remove(inst);
	khist_trace_files_remove(inst);
}

/*
 * A directory of an instance (its own, events/, instances/) references it
 * as a file does: its node's data stays valid while the node lives.
 */
static struct khist_node *khist_instance_dir_create(struct khist_node *parent,
						    const char *name,
						    struct khist_instance *inst)
{
	struct khist_node *dir = khist_fs_create_dir(parent, name, inst);

	if (!IS_ERR(dir)) {
		khist_instance_get(inst);
		khist_fs_set_release(dir, khist_instance_node_release);
	}
	return dir;
}

/* Remove every file and directory the instance created in its directory. */
static void khist_instance_remove_files(struct khist_instance *inst)
{
	static const char *const names[] = { "README", "error_log", "events",
					     "instances" };
	unsigned int i;

	khist_conform_exit(inst);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		khist_fs_remove(khist_fs_lookup(inst->dir, names[i]));
}

/*
 * error_log, events/, the conformance files (current_tracer, options/, ...),
 * the ring buffer and every event, in inst->dir.
 */
static int khist_instance_fill(struct khist_instance *inst)
{
	int ret;

	ret = khist_errlog_create(inst);
	if (ret)
		return ret;
	inst->events_dir = khist_instance_dir_create(inst->dir, "events", inst);
	if (IS_ERR(inst->events_dir)) {
		ret = PTR_ERR(inst->events_dir);
		inst->events_dir = NULL;
		return ret;
	}
	/* Its entries are owned as eventfs's are (fs/node.c). */
	khist_fs_set_events_top(inst->events_dir);
	ret = khist_conform_init(inst);
	if (ret)
		return ret;
	return khist_instance_buffer_add(inst);
}

static int khist_instance_mkdir(struct khist_node *dir, const char *name)
{
	struct khist_instance *inst;
	char *copy;
	int ret;

	copy = khist_kstrdup(name, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	inst = khist_instance_alloc(copy, &khist_instance_ops);
	if (IS_ERR(inst)) {
		kfree(copy);
		return PTR_ERR(inst);
	}
	mutex_lock(&khist_instance_mutex);
	inst->dir = khist_instance_dir_create(dir, name, inst);
	if (IS_ERR(inst->dir)) {
		ret = PTR_ERR(inst->dir);
		goto out_unlock;
	}
	ret = khist_instance_fill(inst);
	if (ret)
		goto out_files;
	ret = khist_events_instance_add(inst);
	if (ret) {
		khist_instance_buffer_remove(inst);
		goto out_files;
	}
	mutex_unlock(&khist_instance_mutex);
	return 0;

out_files:
	khist_instance_remove_files(inst);
	khist_fs_remove(inst->dir);
out_unlock:
	mutex_unlock(&khist_instance_mutex);
	khist_instance_put(inst);
	return ret;
}

/* Take an instance apart; the caller holds khist_instance_mutex. */
static void khist_instance_destroy(struct khist_instance *inst)
{
	khist_events_instance_remove(inst);
	khist_instance_buffer_remove(inst);
	khist_instance_remove_files(inst);
	khist_fs_remove(inst->dir);
	khist_instance_put(inst);
}

static int khist_instance_rmdir(struct khist_node *dir,
				struct khist_node *child)
{
	/* The child's node references the instance (see above). */
	struct khist_instance *inst = child->data;

	mutex_lock(&khist_instance_mutex);
	if (khist_fs_node_removed(child)) {
		mutex_unlock(&khist_instance_mutex);
		return -ENOENT;
	}
	khist_instance_destroy(inst);
	mutex_unlock(&khist_instance_mutex);
	return 0;
}

static const struct khist_dir_ops khist_instances_ops = {
	.mkdir = khist_instance_mkdir,
	.rmdir = khist_instance_rmdir,
};

/*
 * The files only the top level has: dynamic_events (with kprobe_events,
 * uprobe_events and their profiles), synthetic_events, user_events_data
 * and user_events_status. The events they define are module-wide, so
 * they live at the top only; main.c brings up what is behind them.
 */
static int khist_instance_top_files_create(struct khist_instance *inst)
{
	int ret;

	ret = khist_synth_files_create(inst);
	if (ret)
		return ret;
	ret = khist_ue_files_create(inst);
	if (ret)
		khist_synth_files_remove(inst);
	return ret;
}

static void khist_instance_top_files_remove(struct khist_instance *inst)
{
	khist_ue_files_remove(inst);
	khist_synth_files_remove(inst);
}

/**
 * khist_instance_init() - create the top-level instance: README, error_log,
 * events/, the trace files and the files only the top level has, at the
 * root of the filesystem; it becomes the instance every event is
 * registered in
 *
 * instances/ comes later, with khist_instances_init().
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_instance_init(void)
{
	struct khist_instance *inst;
	int ret;

	inst = khist_instance_alloc("", &khist_instance_ops);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	khist_top = inst;
	inst->dir = khist_fs_root();
	ret = khist_readme_create(inst);
	if (ret)
		goto out_files;
	ret = khist_instance_fill(inst);
	if (ret)
		goto out_files;
	ret = khist_events_top_add(inst);
	if (ret)
		goto out_buffer;
	ret = khist_instance_top_files_create(inst);
	if (ret)
		goto out_events;
	return 0;

out_events:
	khist_events_top_remove(inst);
out_buffer:
	khist_instance_buffer_remove(inst);
out_files:
	khist_instance_remove_files(inst);
	/* Still the top: its name ("") is not freed with it. */
	khist_instance_put(inst);
	khist_top = NULL;
	return ret;
}

/**
 * khist_instance_exit() - remove the top level
 *
 * Context: process context, module exit (the filesystem is unmounted, so
 * no file is open), after khist_instances_exit() and the module-wide
 * parts main.c brought up after khist_instance_init().
 */
void khist_instance_exit(void)
{
	khist_instance_top_files_remove(khist_top);
	khist_events_top_remove(khist_top);
	khist_instance_buffer_remove(khist_top);
	khist_instance_remove_files(khist_top);
	khist_instance_put(khist_top);
	khist_top = NULL;
}

/**
 * khist_instances_init() - create instances/ in the top level: from now
 * on, mkdir there makes an instance with a copy of every event
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_instances_init(void)
{
	struct khist_node *dir;

	dir = khist_instance_dir_create(khist_top->dir, "instances", khist_top);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	khist_fs_set_dir_ops(dir, &khist_instances_ops);
	return 0;
}

/**
 * khist_instances_exit() - remove every instance made in instances/, and
 * instances/
 *
 * Context: process context, module exit (the filesystem is unmounted, so
 * no file is open and no mkdir/rmdir can race).
 */
void khist_instances_exit(void)
{
	struct khist_instance *inst, *tmp;

	mutex_lock(&khist_instance_mutex);
	list_for_each_entry_safe(inst, tmp, &khist_instances, list)
		if (inst != khist_top)
			khist_instance_destroy(inst);
	mutex_unlock(&khist_instance_mutex);
	khist_fs_remove(khist_fs_lookup(khist_top->dir, "instances"));
}
