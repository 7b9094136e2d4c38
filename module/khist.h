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

#include <linux/mutex.h>
#include "fs/fs.h"
#include "core/errlog.h"

/**
 * struct khist_instance - one tracing instance
 * @name:         "" for the top level
 * @dir:          its directory
 * @events_dir:   its events/ directory
 * @errlog_lock:  serialises @errlog
 * @errlog:       the last rejected commands, shown in error_log
 */
struct khist_instance {
	const char *name;
	struct khist_node *dir;
	struct khist_node *events_dir;
	struct mutex errlog_lock;
	struct khist_errlog errlog;
};

extern struct khist_instance *khist_top;

int khist_instance_init(void);
void khist_instance_exit(void);

int khist_readme_create(struct khist_instance *inst);
int khist_errlog_create(struct khist_instance *inst);
void khist_error_report(struct khist_instance *inst, const char *loc,
			const char *msg, const char *cmd, unsigned int pos);

/* Events and the ring buffer (module/events/, module/ringbuf/). */
int khist_events_init(struct khist_instance *inst);
void khist_events_exit(void);
int khist_ringbuf_init(struct khist_instance *inst);
void khist_ringbuf_exit(struct khist_instance *inst);

#endif /* _KHIST_KHIST_H */
