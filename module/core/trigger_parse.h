/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trigger_parse.h - the grammar of a write to an event's `trigger` file,
 * for every command but the body of "hist":
 *
 *   [!]<cmd>[:N] [if <filter>]                      traceon, traceoff,
 *                                                   snapshot, stacktrace
 *   [!]<cmd>:<system>:<event>[:N] [if <filter>]     enable_event,
 *                                                   disable_event,
 *                                                   enable_hist,
 *                                                   disable_hist
 *   [!]hist[:<attributes>] [if <filter>]            the hist parser's
 *
 * Read as ftrace reads it, quirks included: the command word ends at the
 * first ':', space or tab; for the first form, a parameter that does not
 * start with a digit is all filter part, which must then start with the
 * word "if"; a count is the first space- or tab-separated word, of which
 * only the part before a ':' is read (as kstrtoul(), base 0); for the
 * second form that word is <system>:<event>[:N]. A removal ("!cmd") reads
 * nothing past the target.
 *
 * Portable core: nothing is looked up, allocated or logged. The result
 * holds byte ranges of the text and, when the command is malformed, an
 * error code and the caret position ftrace's error_log would show. The
 * kernel glue looks the target event up before it reports a count or
 * filter error (KHIST_TRERR_EVENT_NOT_FOUND comes first, as in ftrace).
 */
#ifndef _KHIST_CORE_TRIGGER_PARSE_H
#define _KHIST_CORE_TRIGGER_PARSE_H

#include "core_env.h"

/**
 * enum khist_trig_kind - the commands, in ftrace's registration order
 * @KHIST_TRIG_TRACEON:       traceon
 * @KHIST_TRIG_TRACEOFF:      traceoff
 * @KHIST_TRIG_SNAPSHOT:      snapshot
 * @KHIST_TRIG_STACKTRACE:    stacktrace
 * @KHIST_TRIG_ENABLE_EVENT:  enable_event (takes a target)
 * @KHIST_TRIG_DISABLE_EVENT: disable_event (takes a target)
 * @KHIST_TRIG_ENABLE_HIST:   enable_hist (takes a target)
 * @KHIST_TRIG_DISABLE_HIST:  disable_hist (takes a target)
 * @KHIST_TRIG_HIST:          hist (its parameters go to the hist parser)
 * @KHIST_TRIG_NR:            number of kinds
 */
enum khist_trig_kind {
	KHIST_TRIG_TRACEON,
	KHIST_TRIG_TRACEOFF,
	KHIST_TRIG_SNAPSHOT,
	KHIST_TRIG_STACKTRACE,
	KHIST_TRIG_ENABLE_EVENT,
	KHIST_TRIG_DISABLE_EVENT,
	KHIST_TRIG_ENABLE_HIST,
	KHIST_TRIG_DISABLE_HIST,
	KHIST_TRIG_HIST,
	KHIST_TRIG_NR,
};

/**
 * enum khist_trig_errcode - why a trigger command is refused
 * @KHIST_TRERR_NONE:            no error
 * @KHIST_TRERR_UNKNOWN_CMD:     no such command (ftrace logs nothing)
 * @KHIST_TRERR_MISSING_EVENT:   no <system>:<event> after a target command
 * @KHIST_TRERR_EVENT_NOT_FOUND: the target does not exist (the glue's
 *                               finding; the caret is at @sys)
 * @KHIST_TRERR_INVALID_COUNT:   the count is not a number or out of range
 * @KHIST_TRERR_EXPECTED_IF:     the filter part does not start with "if"
 * @KHIST_TRERR_MISSING_FILTER:  nothing after "if"
 * @KHIST_TRERR_COUNT:           number of codes
 */
enum khist_trig_errcode {
	KHIST_TRERR_NONE,
	KHIST_TRERR_UNKNOWN_CMD,
	KHIST_TRERR_MISSING_EVENT,
	KHIST_TRERR_EVENT_NOT_FOUND,
	KHIST_TRERR_INVALID_COUNT,
	KHIST_TRERR_EXPECTED_IF,
	KHIST_TRERR_MISSING_FILTER,
	KHIST_TRERR_COUNT,
};

/**
 * struct khist_trig_span - a byte range of the command text
 * @pos: offset from the start of the text
 * @len: length in bytes
 */
struct khist_trig_span {
	unsigned int pos;
	unsigned int len;
};

/**
 * struct khist_trig_cmd - one parsed trigger command
 * @kind:       enum khist_trig_kind (valid unless KHIST_TRERR_UNKNOWN_CMD)
 * @remove:     written with a leading '!'
 * @word:       the command word, '!' included
 * @has_params: something follows the command word
 * @params:     what follows it (blanks before it skipped)
 * @has_target: @sys and @event are set (target commands only)
 * @sys:        the target's system
 * @event:      the target's event name
 * @counted:    a count was given (and is valid unless @err says so)
 * @count:      its value; U64_MAX is ftrace's "unlimited"
 * @number:     the text the count was read from
 * @has_filter: @filter is set
 * @filter:     the filter text after "if " (maybe empty)
 * @err:        enum khist_trig_errcode, the first error found
 * @pos:        the caret position of @err in the text
 */
struct khist_trig_cmd {
	int kind;
	bool remove;
	struct khist_trig_span word;
	bool has_params;
	struct khist_trig_span params;
	bool has_target;
	struct khist_trig_span sys;
	struct khist_trig_span event;
	bool counted;
	u64 count;
	struct khist_trig_span number;
	bool has_filter;
	struct khist_trig_span filter;
	int err;
	unsigned int pos;
};

int khist_trigger_parse(const char *text, struct khist_trig_cmd *tc);
const char *khist_trigger_kind_name(int kind);
bool khist_trigger_kind_has_target(int kind);
const char *khist_trigger_err_text(int err);
int khist_trigger_split_dotted(const char *s, size_t len,
			       struct khist_trig_span *sys,
			       struct khist_trig_span *event,
			       struct khist_trig_span *rest);

#endif /* _KHIST_CORE_TRIGGER_PARSE_H */
