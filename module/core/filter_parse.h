/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_parse.h - compile the text of an event filter against an event's
 * record layout, and render what the `filter` file and error_log show.
 *
 * The language is Linux 6.12's (Documentation/filters.rst): predicates
 * "<field>[.ustring|.function] <op> <value>" combined with &&, || and !,
 * with parentheses. The compiler reads the text through a pointer and a
 * length, never writes into it, keeps no state between calls, and reports
 * a failure as data: a message code from filter_errors.h, the caret
 * position the kernel would record, and the errno the kernel's write()
 * would return.
 *
 * Typical use by the filesystem glue (the `filter` file):
 *
 *   len = khist_filter_trim(buf, len);
 *   if (khist_filter_is_clear(buf, len))  -> drop the filter, show "none"
 *   ret = khist_filter_compile(schema, buf, len, &opts, &f, &err);
 *   on success: install f; the file shows f->text
 *   on failure: the file shows khist_filter_format_failed(); error_log
 *               gets KHIST_FILTER_ERRLOG_LOC, khist_filter_errlog_msg(),
 *               the text and khist_filter_errlog_pos(); the filter is
 *               disabled; write() returns ret.
 */
#ifndef _KHIST_CORE_FILTER_PARSE_H
#define _KHIST_CORE_FILTER_PARSE_H

#include "core_env.h"
#include "schema.h"
#include "filter_errors.h"
#include "filter_eval.h"

/* error_log location of every filter error. */
#define KHIST_FILTER_ERRLOG_LOC "event filter parse error"
/* A quoted string must be shorter than this. */
#define KHIST_FILTER_STR_MAX 256

/**
 * struct khist_filter_error - why a filter did not compile
 * @code: enum khist_filter_errcode; KHIST_FERR_NONE when the kernel gives
 *        no message (shown as "Error: (0)", logged as "Error" at 0)
 * @pos:  caret position, as the kernel computes it (it may be one past
 *        the end of the text; the `filter` file clamps it to the length)
 * @ret:  the negative errno the kernel's write() returns for this failure
 *        (usually -EINVAL, but e.g. "Too few '('" gives -EPERM)
 */
struct khist_filter_error {
	int code;
	unsigned int pos;
	int ret;
};

/**
 * struct khist_filter_opts - environment of the compiler (all optional)
 * @nr_cpus:    bits of a CPUS{} mask (the kernel's nr_cpumask_bits);
 *              0 means nr_cpu_ids
 * @func_range: resolve "<field>.function == <sym>": find the function that
 *              contains @addr, or, when @name is not NULL, the function
 *              called @name, and give its [@start, @end) address range.
 *              Return 0 on success, non-zero if not found. NULL: every
 *              lookup fails ("Function not found").
 * @priv:       passed to @func_range
 */
struct khist_filter_opts {
	unsigned int nr_cpus;
	int (*func_range)(void *priv, const char *name, unsigned long addr,
			  unsigned long *start, unsigned long *end);
	void *priv;
};

int khist_filter_compile(const struct khist_event_schema *schema,
			 const char *text, size_t len,
			 const struct khist_filter_opts *opts,
			 struct khist_filter **out,
			 struct khist_filter_error *err);
void khist_filter_free(struct khist_filter *f);

const char *khist_filter_err_text(int code);
const char *khist_filter_errlog_msg(const struct khist_filter_error *err);
unsigned int khist_filter_errlog_pos(const struct khist_filter_error *err);
int khist_filter_format_failed(const char *text, size_t len,
			       const struct khist_filter_error *err, char *buf,
			       size_t size);
int khist_filter_show(const char *stored, char *buf, size_t size);
size_t khist_filter_trim(const char *text, size_t len);
bool khist_filter_is_clear(const char *text, size_t len);

#endif /* _KHIST_CORE_FILTER_PARSE_H */
