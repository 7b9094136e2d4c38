/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_pred.h - internal interface between the two halves of the filter
 * compiler: filter_parse.c (the expression: &&, ||, !, parentheses, and the
 * flattening into jumps) and filter_pred.c (one predicate: field lookup,
 * operator, and the value: number, quoted string, CPUS{} list or function).
 *
 * Not for use outside the filter compiler; the public interface is
 * filter_parse.h.
 */
#ifndef _KHIST_CORE_FILTER_PRED_H
#define _KHIST_CORE_FILTER_PRED_H

#include "core_env.h"
#include "filter_parse.h"
#include "lex.h"

/* State of one compilation: the text and where errors go. */
struct khist_fparse {
	const char *s;
	size_t len;
	const struct khist_event_schema *schema;
	const struct khist_filter_opts *opts;
	unsigned int nr_cpus;
	struct khist_filter_error *err;
};

/* How the filter sees a field (the kernel's filter types). */
static inline char at(const struct khist_fparse *p, size_t i)
{
	return i < p->len ? p->s[i] : '\0';
}

/* Record an error; returns the errno the kernel gives for such errors. */
static inline int fail(struct khist_fparse *p, int code, size_t pos)
{
	p->err->code = code;
	p->err->pos = pos;
	return -EINVAL;
}

int khist_filter_parse_pred(struct khist_fparse *p, size_t start,
			    struct khist_fpred *pr, size_t *end);

#endif /* _KHIST_CORE_FILTER_PRED_H */
