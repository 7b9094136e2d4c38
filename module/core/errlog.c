// SPDX-License-Identifier: GPL-2.0
/*
 * errlog.c - the `error_log` ring (see errlog.h).
 */
#include "core_env.h"
#include "errlog.h"

/**
 * khist_errlog_init() - start an empty error log
 * @log: the log
 *
 * Context: any; no allocation.
 */
void khist_errlog_init(struct khist_errlog *log)
{
	memset(log, 0, sizeof(*log));
}

static void khist_errlog_entry_free(struct khist_errlog_entry *e)
{
	kfree(e->loc);
	kfree(e->cmd);
	memset(e, 0, sizeof(*e));
}

/**
 * khist_errlog_add() - record a rejected command, dropping the oldest
 * @log:   the log
 * @ts_ns: timestamp in ns
 * @loc:   location text, copied
 * @msg:   error text; must outlive the log (static strings)
 * @cmd:   command text, copied
 * @pos:   caret position in @cmd; like ftrace's, it may point past the
 *         end of @cmd (some filter errors do) and is kept as a u16
 *
 * Context: process context, caller serialises access to @log; may sleep
 * (GFP_KERNEL).
 * Return: 0, or -ENOMEM with @log unchanged.
 */
int khist_errlog_add(struct khist_errlog *log, u64 ts_ns, const char *loc,
		     const char *msg, const char *cmd, unsigned int pos)
{
	struct khist_errlog_entry *e;
	char *loc_copy, *cmd_copy;

	loc_copy = kstrdup(loc, GFP_KERNEL);
	cmd_copy = kstrdup(cmd, GFP_KERNEL);
	if (!loc_copy || !cmd_copy) {
		kfree(loc_copy);
		kfree(cmd_copy);
		return -ENOMEM;
	}
	if (log->count == KHIST_ERRLOG_MAX) {
		e = &log->ent[log->first];
		khist_errlog_entry_free(e);
		log->first = (log->first + 1) % KHIST_ERRLOG_MAX;
	} else {
		e = &log->ent[(log->first + log->count) % KHIST_ERRLOG_MAX];
		log->count++;
	}
	e->ts_ns = ts_ns;
	e->loc = loc_copy;
	e->msg = msg;
	e->cmd = cmd_copy;
	e->pos = pos > 0xffff ? 0xffff : pos;
	return 0;
}

/**
 * khist_errlog_clear() - forget every entry
 * @log: the log
 *
 * Context: caller serialises access to @log.
 */
void khist_errlog_clear(struct khist_errlog *log)
{
	unsigned int i;

	for (i = 0; i < KHIST_ERRLOG_MAX; i++)
		khist_errlog_entry_free(&log->ent[i]);
	log->first = 0;
	log->count = 0;
}

/**
 * khist_errlog_get() - the @i-th entry, oldest first
 * @log: the log
 * @i:   index, 0 is the oldest
 *
 * Context: caller serialises access to @log.
 * Return: the entry, or NULL when @i is past the last one.
 */
const struct khist_errlog_entry *
khist_errlog_get(const struct khist_errlog *log, unsigned int i)
{
	if (i >= log->count)
		return NULL;
	return &log->ent[(log->first + i) % KHIST_ERRLOG_MAX];
}

/**
 * khist_errlog_format() - render one entry as ftrace does
 * @e:    the entry
 * @buf:  output buffer
 * @size: size of @buf
 *
 * Context: any.
 * Return: the length the full text needs (excluding the NUL), as
 * snprintf(); the output is truncated when that is >= @size.
 */
int khist_errlog_format(const struct khist_errlog_entry *e, char *buf,
			size_t size)
{
	u64 sec = e->ts_ns / 1000000000ULL;
	unsigned int usec = (unsigned int)(e->ts_ns % 1000000000ULL / 1000);

	/* Header line, command line, then 11 + pos spaces and the caret. */
	return snprintf(buf, size,
			"[%5llu.%06u] %s: error: %s\n  Command: %s\n%*s^\n",
			(unsigned long long)sec, usec, e->loc, e->msg, e->cmd,
			(int)(11 + e->pos), "");
}
