/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_parse.h - the hist trigger command parser.
 *
 * khist_hist_parse() takes one command line as written to a `trigger`
 * file ("[!]hist:keys=...[ if filter]", already trimmed of surrounding
 * whitespace), never modifies it, and returns the syntax tree of
 * hist_ast.h, or an error as data: an error code (hist_errors.h) and the
 * caret position in the error_log command text, computed the way Linux
 * 6.12 does it (first occurrence of the offending text, see
 * khist_hist_errpos()).
 *
 * Errors that the kernel only detects while binding fields are kept in
 * the tree and reported by the binder; khist_hist_syntax_check() reports
 * the first of them without a schema.
 */
#ifndef _KHIST_CORE_HIST_PARSE_H
#define _KHIST_CORE_HIST_PARSE_H

#include "core_env.h"
#include "hist_ast.h"
#include "hist_errors.h"

#define KHIST_HIST_ERRS_MAX 3

/**
 * struct khist_hist_err - what went wrong, for error_log
 * @n:    number of entries to log (the kernel logs two for a missing
 *        variable: "Couldn't find variable" then "Couldn't find field",
 *        three for an ambiguous one: "Variable name not unique ..."
 *        first)
 * @e:    the entries, oldest first
 * @e.code: enum khist_hist_errcode
 * @e.pos:  caret position in the error_log command text
 */
struct khist_hist_err {
	unsigned int n;
	struct {
		u16 code;
		u16 pos;
	} e[KHIST_HIST_ERRS_MAX];
};

int khist_hist_parse(const char *text, size_t len, struct khist_hist_cmd **out,
		     struct khist_hist_err *err);
void khist_hist_cmd_free(struct khist_hist_cmd *cmd);
int khist_hist_syntax_check(const struct khist_hist_cmd *cmd,
			    struct khist_hist_err *err);
u16 khist_hist_errpos(const struct khist_hist_cmd *cmd, u16 pos, u16 len);
u16 khist_hist_errpos_str(const struct khist_hist_cmd *cmd, const char *s);
void khist_hist_err_add(struct khist_hist_err *err, unsigned int code, u16 pos);
bool khist_span_eq(const struct khist_hist_cmd *cmd, struct khist_span s,
		   const char *str);
int khist_hist_dump(const struct khist_hist_cmd *cmd, char *buf, size_t size);

#endif /* _KHIST_CORE_HIST_PARSE_H */
