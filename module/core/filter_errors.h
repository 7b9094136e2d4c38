/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_errors.h - every error the event filter compiler can report.
 *
 * The texts (filter_parse.c) are the ones Linux 6.12 prints for event
 * filters (in the `filter` file after "parse_error: " and in error_log
 * under the location "event filter parse error"), word for word and in
 * the same order. Some of them are never produced by khist (IP_FIELD_ONLY
 * concerns the function tracer's perf filter, BAD_SUBSYS_FILTER the
 * subsystem-wide filter file); they are kept so that the table stays
 * complete.
 *
 * KHIST_FERR_NONE means "no specific error": the failure is then shown as
 * "Error: (<n>)" in the filter file and logged as "Error" (code ERRNO) at
 * position 0, as the kernel does.
 *
 * The text of a code comes from khist_filter_err_text() (filter_parse.h).
 */
#ifndef _KHIST_CORE_FILTER_ERRORS_H
#define _KHIST_CORE_FILTER_ERRORS_H

#include "core_env.h"

/* Filter errors; their texts are in filter_parse.c. */
enum khist_filter_errcode {
	KHIST_FERR_NONE,
	KHIST_FERR_INVALID_OP,
	KHIST_FERR_TOO_MANY_OPEN,
	KHIST_FERR_TOO_MANY_CLOSE,
	KHIST_FERR_MISSING_QUOTE,
	KHIST_FERR_MISSING_BRACE_OPEN,
	KHIST_FERR_MISSING_BRACE_CLOSE,
	KHIST_FERR_OPERAND_TOO_LONG,
	KHIST_FERR_EXPECT_STRING,
	KHIST_FERR_EXPECT_DIGIT,
	KHIST_FERR_ILLEGAL_FIELD_OP,
	KHIST_FERR_FIELD_NOT_FOUND,
	KHIST_FERR_ILLEGAL_INTVAL,
	KHIST_FERR_BAD_SUBSYS_FILTER,
	KHIST_FERR_TOO_MANY_PREDS,
	KHIST_FERR_INVALID_FILTER,
	KHIST_FERR_INVALID_CPULIST,
	KHIST_FERR_IP_FIELD_ONLY,
	KHIST_FERR_INVALID_VALUE,
	KHIST_FERR_NO_FUNCTION,
	KHIST_FERR_ERRNO,
	KHIST_FERR_NO_FILTER,
	KHIST_FERR_MAX
};

#endif /* _KHIST_CORE_FILTER_ERRORS_H */
