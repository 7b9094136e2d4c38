/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist.h - module-wide objects shared by the glue code.
 *
 * A khist instance is what ftrace calls a trace array: a directory with its
 * own control files (README, error_log, events/, ...). The top-level
 * instance is the root of the khist filesystem.
 */
#ifndef _KHIST_KHIST_H
#define _KHIST_KHIST_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include "fs/fs.h"
#include "core/errlog.h"
#include "fault/fault.h"

struct khist_buffer;
struct khist_event;

/**
 * struct khist_instance - one tracing instance
 * @name:         "" for the top level, else its directory name (owned)
 * @ref:          references: the instance list, and every file of the
 *                instance (they may stay open after rmdir)
 * @dir:          its directory
 * @events_dir:   its events/ directory
 * @buf:          its ring buffer
 * @events:       its events (struct khist_event.list), sorted like the
 *                registry; khist_event_mutex
 * @systems:      its events/<system>/ directories; khist_event_mutex
 * @print_ev:     its ftrace/print event (trace_marker writes it)
 * @list:         entry in khist_instances; khist_event_mutex
 * @errlog_lock:  serialises @errlog
 * @errlog:       the last rejected commands, shown in error_log
 * @options:      trace options (bits of enum khist_option, conform/)
 */
struct khist_instance {
	const char *name;
	struct kref ref;
	struct khist_node *dir;
	struct khist_node *events_dir;
	struct khist_buffer *buf;
	struct list_head events;
	struct list_head systems;
	struct khist_event *print_ev;
	struct list_head list;
	struct mutex errlog_lock; /* see @errlog_lock above */
	struct khist_errlog errlog;
	unsigned long options;
};

extern struct khist_instance *khist_top;
extern struct list_head khist_instances;

void khist_instance_get(struct khist_instance *inst);
void khist_instance_put(struct khist_instance *inst);
void khist_instance_node_release(void *inst);
int khist_instances_dir_create(struct khist_instance *top);

int khist_instance_init(void);
void khist_instance_exit(void);

int khist_readme_create(struct khist_instance *inst);
int khist_errlog_create(struct khist_instance *inst);
void khist_error_report(struct khist_instance *inst, const char *loc,
			const char *msg, const char *cmd, unsigned int pos);

/* Events and the ring buffer (module/events/, module/ringbuf/). */
int khist_events_init(struct khist_instance *inst);
void khist_events_exit(void);
int khist_events_instance_add(struct khist_instance *inst);
void khist_events_instance_remove(struct khist_instance *inst);
int khist_rec_scratch_init(void);
void khist_rec_scratch_exit(void);
int khist_ringbuf_init(struct khist_instance *inst);
void khist_ringbuf_exit(struct khist_instance *inst);
void khist_ringbuf_free(struct khist_instance *inst);

#endif /* _KHIST_KHIST_H */
