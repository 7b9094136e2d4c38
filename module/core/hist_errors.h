/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_errors.h - every error a hist trigger command can produce, as one
 * X-macro table: KHIST_HERR(code, text).
 *
 * The first block holds the texts Linux 6.12 writes to error_log for hist
 * commands, word for word (they are the interface: the selftests grep
 * them). The second block holds khist's own texts for the failures that
 * the kernel returns as a bare -EINVAL with no error_log entry; they are
 * a documented improvement (Documentation/trigger-syntax.rst).
 *
 * Use: enum khist_hist_errcode lists KHIST_HERR_<code>; the text of a code
 * comes from khist_hist_err_text().
 */
#ifndef _KHIST_CORE_HIST_ERRORS_H
#define _KHIST_CORE_HIST_ERRORS_H

#include "core_env.h"

#define KHIST_HIST_KERNEL_ERRORS					\
	KHIST_HERR(NONE, "No error")					\
	KHIST_HERR(DUPLICATE_VAR, "Variable already defined")		\
	KHIST_HERR(VAR_NOT_UNIQUE, "Variable name not unique, need to use fully qualified name (subsys.event.var) for variable") \
	KHIST_HERR(TOO_MANY_VARS, "Too many variables defined")	\
	KHIST_HERR(MALFORMED_ASSIGNMENT, "Malformed assignment")	\
	KHIST_HERR(NAMED_MISMATCH, "Named hist trigger doesn't match existing named trigger (includes variables)") \
	KHIST_HERR(TRIGGER_EEXIST, "Hist trigger already exists")	\
	KHIST_HERR(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger") \
	KHIST_HERR(SET_CLOCK_FAIL, "Couldn't set trace_clock")	\
	KHIST_HERR(BAD_FIELD_MODIFIER, "Invalid field modifier")	\
	KHIST_HERR(TOO_MANY_SUBEXPR, "Too many subexpressions (3 max)") \
	KHIST_HERR(TIMESTAMP_MISMATCH, "Timestamp units in expression don't match") \
	KHIST_HERR(TOO_MANY_FIELD_VARS, "Too many field variables defined") \
	KHIST_HERR(EVENT_FILE_NOT_FOUND, "Event file not found")	\
	KHIST_HERR(HIST_NOT_FOUND, "Matching event histogram not found") \
	KHIST_HERR(HIST_CREATE_FAIL, "Couldn't create histogram for field") \
	KHIST_HERR(SYNTH_VAR_NOT_FOUND, "Couldn't find synthetic variable") \
	KHIST_HERR(SYNTH_EVENT_NOT_FOUND, "Couldn't find synthetic event") \
	KHIST_HERR(SYNTH_TYPE_MISMATCH, "Param type doesn't match synthetic event field type") \
	KHIST_HERR(SYNTH_COUNT_MISMATCH, "Param count doesn't match synthetic event field count") \
	KHIST_HERR(FIELD_VAR_PARSE_FAIL, "Couldn't parse field variable") \
	KHIST_HERR(VAR_CREATE_FIND_FAIL, "Couldn't create or find variable") \
	KHIST_HERR(ONX_NOT_VAR, "For onmax(x) or onchange(x), x must be a variable") \
	KHIST_HERR(ONX_VAR_NOT_FOUND, "Couldn't find onmax or onchange variable") \
	KHIST_HERR(ONX_VAR_CREATE_FAIL, "Couldn't create onmax or onchange variable") \
	KHIST_HERR(FIELD_VAR_CREATE_FAIL, "Couldn't create field variable") \
	KHIST_HERR(TOO_MANY_PARAMS, "Too many action params")		\
	KHIST_HERR(PARAM_NOT_FOUND, "Couldn't find param")		\
	KHIST_HERR(INVALID_PARAM, "Invalid action param")		\
	KHIST_HERR(ACTION_NOT_FOUND, "No action found")		\
	KHIST_HERR(NO_SAVE_PARAMS, "No params found for save()")	\
	KHIST_HERR(TOO_MANY_SAVE_ACTIONS, "Can't have more than one save() action per hist") \
	KHIST_HERR(ACTION_MISMATCH, "Handler doesn't support action")	\
	KHIST_HERR(NO_CLOSING_PAREN, "No closing paren found")	\
	KHIST_HERR(SUBSYS_NOT_FOUND, "Missing subsystem")		\
	KHIST_HERR(INVALID_SUBSYS_EVENT, "Invalid subsystem or event name") \
	KHIST_HERR(INVALID_REF_KEY, "Using variable references in keys not supported") \
	KHIST_HERR(VAR_NOT_FOUND, "Couldn't find variable")		\
	KHIST_HERR(FIELD_NOT_FOUND, "Couldn't find field")		\
	KHIST_HERR(EMPTY_ASSIGNMENT, "Empty assignment")		\
	KHIST_HERR(INVALID_SORT_MODIFIER, "Invalid sort modifier")	\
	KHIST_HERR(EMPTY_SORT_FIELD, "Empty sort field")		\
	KHIST_HERR(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)") \
	KHIST_HERR(INVALID_SORT_FIELD, "Sort field must be a key or a val") \
	KHIST_HERR(INVALID_STR_OPERAND, "String type can not be an operand in expression") \
	KHIST_HERR(EXPECT_NUMBER, "Expecting numeric literal")	\
	KHIST_HERR(UNARY_MINUS_SUBEXPR, "Unary minus not supported in sub-expressions") \
	KHIST_HERR(DIVISION_BY_ZERO, "Division by zero")		\
	KHIST_HERR(NEED_NOHC_VAL, "Non-hitcount value is required for 'nohitcount'")

/* khist only: the kernel fails these with a bare -EINVAL. */
#define KHIST_HIST_KHIST_ERRORS						\
	KHIST_HERR(EMPTY_PARAM, "Missing hist trigger parameters")	\
	KHIST_HERR(BAD_IF, "Misplaced 'if': a filter needs text before and after it") \
	KHIST_HERR(UNKNOWN_TOKEN, "Unknown hist trigger attribute")	\
	KHIST_HERR(NO_KEYS, "Missing keys= attribute")		\
	KHIST_HERR(BAD_SIZE, "Invalid size= (must be 128..131072)")	\
	KHIST_HERR(TOO_MANY_KEYS, "Too many keys (max 8)")		\
	KHIST_HERR(KEY_TOO_LARGE, "Compound key too large (max 1024 bytes)") \
	KHIST_HERR(TOO_MANY_VALS, "Too many values (max 7 besides hitcount)") \
	KHIST_HERR(TOO_MANY_ACTIONS, "Too many handler.action entries (max 8)") \
	KHIST_HERR(BAD_EXPR, "Malformed expression (missing operand, or unary minus without -(...))") \
	KHIST_HERR(ONX_NO_PAREN, "Missing ')' after onmax(/onchange( variable") \
	KHIST_HERR(UNSUPPORTED_FIELD, "Field type can not be used in a hist trigger") \
	KHIST_HERR(CMD_TOO_LONG, "Hist trigger command too long")	\
	KHIST_HERR(ENTRY_TOO_LARGE, "Too many string or stack variables (max 15)")

#define KHIST_HERR(code, text) KHIST_HERR_##code,
/**
 * enum khist_hist_errcode - hist command errors; see the table above
 */
enum khist_hist_errcode {
	KHIST_HIST_KERNEL_ERRORS
	KHIST_HIST_KHIST_ERRORS
	KHIST_HERR_COUNT
};
#undef KHIST_HERR

/* First code that is not a kernel error text. */
#define KHIST_HERR_FIRST_KHIST KHIST_HERR_EMPTY_PARAM

const char *khist_hist_err_text(unsigned int code);

#endif /* _KHIST_CORE_HIST_ERRORS_H */
