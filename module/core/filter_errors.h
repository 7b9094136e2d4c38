/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_errors.h - every error the event filter compiler can report, as
 * one X-macro table: KHIST_FERR(code, text).
 *
 * The texts are the ones Linux 6.12 prints for event filters (in the
 * `filter` file after "parse_error: " and in error_log under the location
 * "event filter parse error"), word for word and in the same order. Some
 * of them are never produced by khist (IP_FIELD_ONLY concerns the function
 * tracer's perf filter, BAD_SUBSYS_FILTER the subsystem-wide filter file);
 * they are kept so that the table stays complete.
 *
 * KHIST_FERR_NONE means "no specific error": the failure is then shown as
 * "Error: (<n>)" in the filter file and logged as "Error" (code ERRNO) at
 * position 0, as the kernel does.
 *
 * Use: enum khist_filter_errcode lists KHIST_FERR_<code>; the text of a
 * code comes from khist_filter_err_text() (filter_parse.h).
 */
#ifndef _KHIST_CORE_FILTER_ERRORS_H
#define _KHIST_CORE_FILTER_ERRORS_H

#include "core_env.h"

#define KHIST_FILTER_ERRORS                                                  \
	KHIST_FERR(NONE, "No error")                                         \
	KHIST_FERR(INVALID_OP, "Invalid operator")                           \
	KHIST_FERR(TOO_MANY_OPEN, "Too many '('")                            \
	KHIST_FERR(TOO_MANY_CLOSE, "Too few '('")                            \
	KHIST_FERR(MISSING_QUOTE, "Missing matching quote")                  \
	KHIST_FERR(MISSING_BRACE_OPEN, "Missing '{'")                        \
	KHIST_FERR(MISSING_BRACE_CLOSE, "Missing '}'")                       \
	KHIST_FERR(OPERAND_TOO_LONG, "Operand too long")                     \
	KHIST_FERR(EXPECT_STRING, "Expecting string field")                  \
	KHIST_FERR(EXPECT_DIGIT, "Expecting numeric field")                  \
	KHIST_FERR(ILLEGAL_FIELD_OP, "Illegal operation for field type")     \
	KHIST_FERR(FIELD_NOT_FOUND, "Field not found")                       \
	KHIST_FERR(ILLEGAL_INTVAL, "Illegal integer value")                  \
	KHIST_FERR(                                                          \
		BAD_SUBSYS_FILTER,                                           \
		"Couldn't find or set field in one of a subsystem's events") \
	KHIST_FERR(TOO_MANY_PREDS, "Too many terms in predicate expression") \
	KHIST_FERR(INVALID_FILTER, "Meaningless filter expression")          \
	KHIST_FERR(INVALID_CPULIST, "Invalid cpulist")                       \
	KHIST_FERR(IP_FIELD_ONLY,                                            \
		   "Only 'ip' field is supported for function trace")        \
	KHIST_FERR(INVALID_VALUE, "Invalid value (did you forget quotes)?")  \
	KHIST_FERR(NO_FUNCTION, "Function not found")                        \
	KHIST_FERR(ERRNO, "Error")                                           \
	KHIST_FERR(NO_FILTER, "No filter found")

#define KHIST_FERR(code, text) KHIST_FERR_##code,
/* enum khist_filter_errcode: KHIST_FERR_<code> for each row above. */
enum khist_filter_errcode { KHIST_FILTER_ERRORS KHIST_FERR_MAX };

#undef KHIST_FERR

#endif /* _KHIST_CORE_FILTER_ERRORS_H */
