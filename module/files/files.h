/* SPDX-License-Identifier: GPL-2.0 */
/*
 * files.h - the control files of an instance (files/), as the instance
 * orchestrator creates them. Among them the small top-level files that
 * ftrace's tools and selftests expect next to the event files:
 * current_tracer, available_tracers, trace_clock, trace_options and
 * options/ (tracer.c, options.c).
 *
 * khist has no function or latency tracers, so "nop" is its only tracer;
 * its ring buffer is the kernel's, whose clock a module cannot change, so
 * "local" is its only trace clock. Options exist only when khist does what
 * they say.
 */
#ifndef _KHIST_FILES_FILES_H
#define _KHIST_FILES_FILES_H

#include "base/instance.h"
#include "buffer/buffer.h"

void khist_files_init(void);
void khist_files_exit(void);
int khist_conform_init(struct khist_instance *inst);
void khist_conform_exit(struct khist_instance *inst);
int khist_options_create(struct khist_instance *inst);
void khist_options_remove(struct khist_instance *inst);
int khist_pid_files_create(struct khist_instance *inst);
void khist_pid_files_remove(struct khist_instance *inst);
const char *khist_trace_clock_name(const struct khist_instance *inst);

/* README (readme.c) and error_log (error_log.c). */
int khist_readme_create(struct khist_instance *inst);
int khist_errlog_create(struct khist_instance *inst);

/* dynamic_events (dynamic_events.c), and its line splitter. */
int khist_dynevent_files_create(struct khist_instance *inst);
void khist_dynevent_files_remove(struct khist_instance *inst);
ssize_t khist_run_commands(const char __user *ubuf, size_t count, loff_t *ppos,
			   int (*fn)(const char *line));

/* user_events_data, user_events_status (user_events_files.c). */
int khist_ue_files_create(struct khist_instance *inst);
void khist_ue_files_remove(struct khist_instance *inst);
int khist_ue_files_init(void);
void khist_ue_files_exit(void);

/* dynamic_events and synthetic_events (synth_files.c). */
int khist_synth_files_create(struct khist_instance *inst);
void khist_synth_files_remove(struct khist_instance *inst);

/*
 * The ring buffer's files (trace_files.c, recorder_files.c,
 * snapshot_file.c).
 */
int khist_trace_files_create(struct khist_instance *inst);
void khist_trace_files_remove(struct khist_instance *inst);
int khist_recorder_files_create(struct khist_instance *inst);
void khist_recorder_files_remove(struct khist_instance *inst);
int khist_snapshot_files_create(struct khist_instance *inst);
void khist_snapshot_files_remove(struct khist_instance *inst);
int khist_trace_view_open(struct inode *inode, struct file *file,
			  struct trace_buffer *rb, khist_trace_header_fn header,
			  void *data);
int khist_trace_view_open_cpu(struct inode *inode, struct file *file,
			      struct trace_buffer *rb, int only,
			      khist_trace_header_fn header, void *data);
int khist_trace_view_release(struct inode *inode, struct file *file);

/**
 * struct khist_cpu_file - what the files of per_cpu/cpuN/ are about
 * @buf: the instance's buffer
 * @cpu: N
 */
struct khist_cpu_file {
	struct khist_buffer *buf;
	int cpu;
};

/* per_cpu/ (percpu_files.c), and the per-CPU views of trace_files.c. */
int khist_percpu_files_create(struct khist_instance *inst);
void khist_percpu_files_remove(struct khist_instance *inst);
extern const struct file_operations khist_trace_percpu_fops;
extern const struct file_operations khist_pipe_percpu_fops;

#endif /* _KHIST_FILES_FILES_H */
