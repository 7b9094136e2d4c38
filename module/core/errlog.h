/* SPDX-License-Identifier: GPL-2.0 */
/*
 * errlog.h - the `error_log` ring: the last KHIST_ERRLOG_MAX rejected
 * commands, each with where it was written, what was wrong, the command
 * text and the byte position the caret points at.
 *
 * The ring owns copies of every string. It does no locking: the caller
 * (one per trace instance) serialises adds, reads and clears.
 *
 * Rendered entry, as ftrace prints it:
 *
 *   [  117.415632] hist:kmem:kmalloc: error: Sort field must be a key or a val
 *     Command: hist:keys=common_pid:sort=junk
 *                                        ^
 *
 * The caret line is 11 spaces, @pos more spaces, then '^'.
 */
#ifndef _KHIST_CORE_ERRLOG_H
#define _KHIST_CORE_ERRLOG_H

#include "core_env.h"

#define KHIST_ERRLOG_MAX 8

/**
 * struct khist_errlog_entry - one rejected command
 * @ts_ns: when it was rejected (trace clock, ns)
 * @loc:   where, e.g. "hist:sched:sched_switch" or "synthetic_events"
 * @msg:   what was wrong (static text)
 * @cmd:   the command as written
 * @pos:   byte offset into @cmd the caret points at
 */
struct khist_errlog_entry {
	u64 ts_ns;
	char *loc;
	const char *msg;
	char *cmd;
	unsigned int pos;
};

/**
 * struct khist_errlog - ring of the most recent errors
 * @ent:   slots, oldest first starting at @first
 * @first: index of the oldest entry
 * @count: number of valid entries
 */
struct khist_errlog {
	struct khist_errlog_entry ent[KHIST_ERRLOG_MAX];
	unsigned int first;
	unsigned int count;
};

void khist_errlog_init(struct khist_errlog *log);
int khist_errlog_add(struct khist_errlog *log, u64 ts_ns, const char *loc,
		     const char *msg, const char *cmd, unsigned int pos);
void khist_errlog_clear(struct khist_errlog *log);
const struct khist_errlog_entry *
khist_errlog_get(const struct khist_errlog *log, unsigned int i);
int khist_errlog_format(const struct khist_errlog_entry *e, char *buf,
			size_t size);

#endif /* _KHIST_CORE_ERRLOG_H */
