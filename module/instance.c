// SPDX-License-Identifier: GPL-2.0
/*
 * instance.c - the top-level khist instance and its directory.
 */
#include <linux/slab.h>
#include <linux/err.h>
#include "khist.h"

struct khist_instance *khist_top;

static void khist_instance_free(struct khist_instance *inst)
{
	khist_errlog_clear(&inst->errlog);
	kfree(inst);
}

/* Remove every file and directory the instance created in its directory. */
static void khist_instance_remove_files(struct khist_instance *inst)
{
	static const char *const names[] = { "README", "error_log", "events" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		khist_fs_remove(khist_fs_lookup(inst->dir, names[i]));
}

/**
 * khist_instance_init() - create the top-level instance: README, error_log
 * and events/ at the root of the filesystem
 *
 * Context: process context, module init.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_instance_init(void)
{
	struct khist_instance *inst;
	int ret;

	inst = kzalloc(sizeof(*inst), GFP_KERNEL);
	if (!inst)
		return -ENOMEM;
	inst->name = "";
	mutex_init(&inst->errlog_lock);
	khist_errlog_init(&inst->errlog);
	inst->dir = khist_fs_root();
	ret = khist_readme_create(inst);
	if (ret)
		goto out_files;
	ret = khist_errlog_create(inst);
	if (ret)
		goto out_files;
	inst->events_dir = khist_fs_create_dir(inst->dir, "events", inst);
	if (IS_ERR(inst->events_dir)) {
		ret = PTR_ERR(inst->events_dir);
		goto out_files;
	}
	ret = khist_ringbuf_init(inst);
	if (ret)
		goto out_files;
	ret = khist_events_init(inst);
	if (ret) {
		khist_ringbuf_exit(inst);
		goto out_files;
	}
	khist_top = inst;
	return 0;

out_files:
	khist_instance_remove_files(inst);
	khist_instance_free(inst);
	return ret;
}

/**
 * khist_instance_exit() - free the top-level instance
 *
 * Context: process context, module exit, before the tree is dropped.
 */
void khist_instance_exit(void)
{
	khist_events_exit();
	khist_ringbuf_exit(khist_top);
	khist_instance_remove_files(khist_top);
	khist_instance_free(khist_top);
	khist_top = NULL;
}
