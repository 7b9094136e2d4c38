// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - module init and exit: the one ladder of module-wide parts, each
 * brought up in order and taken down in reverse. Per-instance parts are
 * instances.c's (the top instance is the last step here).
 */
#include <linux/init.h>
#include <linux/module.h>
#include "base/instance.h"
#include "events/evfilter.h"
#include "eprobe/eprobe.h"
#include "hist/hist.h"
#include "trigger/triggers.h"
#include "mem/mem.h"
#include "synth/synth.h"
#include "events/events.h"
#include "files/files.h"
#include "instances.h"

static int __init khist_init(void)
{
	int ret;

	khist_mem_init();
	ret = khist_evfilter_init();
	if (ret)
		return ret;
	ret = khist_fs_init();
	if (ret)
		goto out_evf;
	/* Before hist: the trigger file lists commands in ftrace's order. */
	ret = khist_cmds_init();
	if (ret)
		goto out_fs;
	ret = khist_triggers_init();
	if (ret)
		goto out_cmds;
	ret = khist_hist_init();
	if (ret)
		goto out_trig;
	/* The event registry makes its files through files/. */
	khist_files_init();
	/* The record path's per-CPU scratch, before any probe can run. */
	ret = khist_rec_scratch_init();
	if (ret)
		goto out_files;
	/* The instance every event is registered in, and its files. */
	ret = khist_instance_init();
	if (ret)
		goto out_scratch;
	ret = khist_events_init();
	if (ret)
		goto out_inst;
	ret = khist_synth_init();
	if (ret)
		goto out_events;
	ret = khist_ue_files_init();
	if (ret)
		goto out_synth;
	/* mkdir in instances/ copies every event registered so far. */
	ret = khist_instances_init();
	if (ret)
		goto out_ue;
	/* After `dynamic_events` (synthetic events, in the top instance). */
	ret = khist_eprobe_init();
	if (ret)
		goto out_instances;
	khist_kprobe_init();
	/* After the kprobes, whose parser passes PATH:OFFSET lines on. */
	khist_uprobe_init();
	pr_info("loaded; mount with: mount -t khist nodev /sys/kernel/khist\n");
	return 0;

out_instances:
	khist_instances_exit();
out_ue:
	khist_ue_files_exit();
out_synth:
	khist_synth_exit();
out_events:
	khist_events_exit();
out_inst:
	khist_instance_exit();
out_scratch:
	khist_rec_scratch_exit();
	khist_comm_exit();
out_files:
	khist_files_exit();
	khist_hist_exit();
out_trig:
	khist_triggers_exit();
out_cmds:
	khist_cmds_exit();
out_fs:
	khist_fs_exit();
out_evf:
	khist_evfilter_exit();
	khist_mem_exit();
	return ret;
}

static void __exit khist_exit(void)
{
	khist_fault_exit();
	khist_eprobe_exit();
	/* After the event probes, which may sit on a kprobe's event. */
	khist_kprobe_exit();
	khist_uprobe_exit();
	khist_instances_exit();
	khist_ue_files_exit();
	khist_synth_exit();
	khist_events_exit();
	khist_instance_exit();
	khist_rec_scratch_exit();
	khist_comm_exit();
	khist_files_exit();
	khist_hist_exit();
	khist_triggers_exit();
	khist_cmds_exit();
	khist_fs_exit();
	khist_evfilter_exit();
	khist_mem_exit();
}

module_init(khist_init);
module_exit(khist_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-style hist triggers for any kernel with tracepoints");
MODULE_AUTHOR("The khist authors");
MODULE_VERSION(KHIST_VERSION);
