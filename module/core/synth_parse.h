/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_parse.h - synthetic event definitions: the command language of the
 * `synthetic_events` file (and of `s:` lines in `dynamic_events`), the
 * record layout it implies, its listing and print format, and the type
 * check a value must pass to be stored in a field.
 *
 * Portable core: no VFS, no locks, errors are data. The caller owns the
 * registry (is the name taken?) and the error log (where the error goes).
 *
 * Record layout (the same as ftrace's): the 8-byte common header, then
 * one 8-byte slot per field in definition order, except that a fixed
 * string (char[N]) takes a 256-byte slot whatever N is. A dynamic string
 * or a stack keeps in its slot a u32 locator, (length << 16) | offset from
 * the record start, and its bytes follow the fixed part, in field order.
 * A stack's bytes are a count word n then n return addresses.
 */
#ifndef _KHIST_CORE_SYNTH_PARSE_H
#define _KHIST_CORE_SYNTH_PARSE_H

#include "core_env.h"
#include <khist/synth.h>

/**
 * enum khist_synth_errcode - why a definition was refused (the texts, in
 * khist_synth_err_text(), are ftrace's byte for byte)
 * @KHIST_SERR_NONE:               no error
 * @KHIST_SERR_BAD_NAME:           "Illegal name"
 * @KHIST_SERR_INVALID_CMD:        "Command must be of the form: <name>
 *                                 field[;field] ..."
 * @KHIST_SERR_INVALID_DYN_CMD:    the same for s: lines of dynamic_events
 * @KHIST_SERR_EVENT_EXISTS:       "Event already exists"
 * @KHIST_SERR_TOO_MANY_FIELDS:    "Too many fields"
 * @KHIST_SERR_INCOMPLETE_TYPE:    "Incomplete type"
 * @KHIST_SERR_INVALID_TYPE:       "Invalid type"
 * @KHIST_SERR_INVALID_FIELD:      "Invalid field"
 * @KHIST_SERR_INVALID_ARRAY_SPEC: "Invalid array specification"
 * @KHIST_SERR_COUNT:              number of codes
 */
enum khist_synth_errcode {
	KHIST_SERR_NONE,
	KHIST_SERR_BAD_NAME,
	KHIST_SERR_INVALID_CMD,
	KHIST_SERR_INVALID_DYN_CMD,
	KHIST_SERR_EVENT_EXISTS,
	KHIST_SERR_TOO_MANY_FIELDS,
	KHIST_SERR_INCOMPLETE_TYPE,
	KHIST_SERR_INVALID_TYPE,
	KHIST_SERR_INVALID_FIELD,
	KHIST_SERR_INVALID_ARRAY_SPEC,
	KHIST_SERR_COUNT
};

/**
 * struct khist_synth_def - a parsed synthetic event definition
 * @name:       event name
 * @nr_fields:  entries in @fields (1..KHIST_SYNTH_FIELDS_MAX)
 * @nr_dynamic: fields with @is_dynamic set
 * @fixed_size: bytes of the fixed part of a record, header included
 * @fields:     the fields, in definition order, laid out
 *
 * One allocation holds the structure, the fields and their strings:
 * free it with khist_synth_def_free().
 */
struct khist_synth_def {
	const char *name;
	unsigned int nr_fields;
	unsigned int nr_dynamic;
	unsigned int fixed_size;
	struct khist_synth_field *fields;
};

/**
 * enum khist_synth_op - what a parsed command asks for
 * @KHIST_SYNTH_NOP:    nothing (blank line)
 * @KHIST_SYNTH_CREATE: define khist_synth_cmd.def
 * @KHIST_SYNTH_DELETE: remove the event khist_synth_cmd.name
 */
enum khist_synth_op {
	KHIST_SYNTH_NOP,
	KHIST_SYNTH_CREATE,
	KHIST_SYNTH_DELETE,
};

/**
 * struct khist_synth_cmd - the outcome of parsing one command line
 * @op:   what to do
 * @def:  the definition (KHIST_SYNTH_CREATE), owned by this structure
 * @name: the name to remove (KHIST_SYNTH_DELETE), owned
 * @err:  enum khist_synth_errcode when the command is refused, else 0
 * @cmd:  the command as ftrace logs it (the line without leading blanks;
 *        points into the parsed line)
 * @pos:  the caret position in @cmd for @err
 */
struct khist_synth_cmd {
	enum khist_synth_op op;
	struct khist_synth_def *def;
	char *name;
	int err;
	const char *cmd;
	unsigned int pos;
};

/* Parse a `dynamic_events` line (s:[synthetic/]name fields). */
#define KHIST_SYNTH_PARSE_DYN 0x1

/**
 * typedef khist_synth_exists_fn - is this name a synthetic event already?
 * @name: the name
 * @arg:  the caller's argument
 *
 * Return: true if an event of that name exists.
 */
typedef bool (*khist_synth_exists_fn)(const char *name, void *arg);

int khist_synth_parse(const char *line, unsigned int flags,
		      khist_synth_exists_fn exists, void *arg,
		      struct khist_synth_cmd *out);
void khist_synth_cmd_release(struct khist_synth_cmd *cmd);
void khist_synth_def_free(struct khist_synth_def *def);
const char *khist_synth_err_text(int err);
bool khist_synth_good_name(const char *name);
const char *khist_synth_field_fmt(const char *type);
const char *khist_synth_list_type(const struct khist_synth_field *f);
int khist_synth_show(const struct khist_synth_def *def, char *buf, size_t size);
int khist_synth_print_fmt(const struct khist_synth_def *def, char *buf,
			  size_t size);
bool khist_synth_type_is_string(const char *type);
bool khist_synth_param_ok(const struct khist_synth_field *f, const char *type,
			  unsigned int size, bool is_signed, bool is_stack);
int khist_dynevent_parse_remove(char *line, const char **system,
				const char **event);

#endif /* _KHIST_CORE_SYNTH_PARSE_H */
