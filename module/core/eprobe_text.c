// SPDX-License-Identifier: GPL-2.0
/*
 * eprobe_text.c - the tables and texts of event probes: the error_log
 * texts, the fetch types with their format and print conversions, and the
 * texts derived from a parsed definition (print fmt, the dynamic_events
 * listing, the format fields) and the match of a removal line. The
 * grammar is in eprobe_parse.c.
 */
#include "eprobe_parse.h"
#include "lex.h"

static const char *const ep_err_text[KHIST_EPERR_COUNT] = {
	[KHIST_EPERR_NO_GROUP_NAME] = "Group name is not specified",
	[KHIST_EPERR_GROUP_TOO_LONG] = "Group name is too long",
	[KHIST_EPERR_BAD_GROUP_NAME] =
		"Group name must follow the same rules as C identifiers",
	[KHIST_EPERR_NO_EVENT_NAME] = "Event name is not specified",
	[KHIST_EPERR_EVENT_TOO_LONG] = "Event name is too long",
	[KHIST_EPERR_BAD_EVENT_NAME] =
		"Event name must follow the same rules as C identifiers",
	[KHIST_EPERR_EVENT_EXIST] =
		"Given group/event name is already used by another event",
	[KHIST_EPERR_BAD_VAR] = "Invalid $-variable specified",
	[KHIST_EPERR_BAD_MEM_ADDR] = "Invalid memory address",
	[KHIST_EPERR_BAD_IMM] = "Invalid immediate value",
	[KHIST_EPERR_IMMSTR_NO_CLOSE] = "String is not closed with '\"'",
	[KHIST_EPERR_FILE_ON_KPROBE] =
		"File offset is not available with kprobe",
	[KHIST_EPERR_TOO_MANY_OPS] = "Dereference is too much nested",
	[KHIST_EPERR_DEREF_NEED_BRACE] = "Dereference needs a brace",
	[KHIST_EPERR_BAD_DEREF_OFFS] = "Invalid dereference offset",
	[KHIST_EPERR_DEREF_OPEN_BRACE] = "Dereference brace is not closed",
	[KHIST_EPERR_COMM_CANT_DEREF] = "$comm can not be dereferenced",
	[KHIST_EPERR_BAD_FETCH_ARG] = "Invalid fetch argument",
	[KHIST_EPERR_ARRAY_NO_CLOSE] = "Array is not closed",
	[KHIST_EPERR_BAD_ARRAY_SUFFIX] = "Array has wrong suffix",
	[KHIST_EPERR_BAD_ARRAY_NUM] = "Invalid array size",
	[KHIST_EPERR_ARRAY_TOO_BIG] = "Array number is too big",
	[KHIST_EPERR_BAD_TYPE] = "Unknown type is specified",
	[KHIST_EPERR_BAD_STRING] = "String accepts only memory argument",
	[KHIST_EPERR_BAD_SYMSTRING] =
		"Symbol String doesn't accept data/userdata",
	[KHIST_EPERR_BAD_BITFIELD] = "Invalid bitfield",
	[KHIST_EPERR_ARG_NAME_TOO_LONG] = "Argument name is too long",
	[KHIST_EPERR_NO_ARG_NAME] = "Argument name is not specified",
	[KHIST_EPERR_BAD_ARG_NAME] =
		"Argument name must follow the same rules as C identifiers",
	[KHIST_EPERR_USED_ARG_NAME] = "This argument name is already used",
	[KHIST_EPERR_ARG_TOO_LONG] = "Argument expression is too long",
	[KHIST_EPERR_NO_ARG_BODY] = "No argument expression",
	[KHIST_EPERR_NO_EVENT_INFO] =
		"This requires both group and event name to attach",
	[KHIST_EPERR_BAD_ATTACH_EVENT] = "Attached event does not exist",
	[KHIST_EPERR_NO_EP_FILTER] = "No filter rule after 'if'",
	[KHIST_EPERR_NOSUP_BTFARG] = "BTF is not available or not supported",
	[KHIST_EPERR_EVENT_TOO_BIG] = "Event too big (too many fields?)",
	[KHIST_EPERR_NO_SYMBOLS] =
		"Kernel symbols cannot be looked up by khist; use @<address>",
	[KHIST_EPERR_BAD_MAXACT_TYPE] = "Maxactive is only for function exit",
	[KHIST_EPERR_BAD_MAXACT] = "Invalid maxactive number",
	[KHIST_EPERR_MAXACT_TOO_BIG] = "Maxactive is too big",
	[KHIST_EPERR_BAD_PROBE_ADDR] = "Invalid probed address or symbol",
	[KHIST_EPERR_BAD_RETPROBE] =
		"Retprobe address must be an function entry",
	[KHIST_EPERR_BAD_ADDR_SUFFIX] = "Invalid probed address suffix",
	[KHIST_EPERR_RETVAL_ON_PROBE] = "$retval is not available on probe",
	[KHIST_EPERR_BAD_STACK_NUM] = "Invalid stack number",
	[KHIST_EPERR_BAD_ARG_NUM] = "Invalid argument number",
	[KHIST_EPERR_BAD_REG_NAME] = "Invalid register name",
	[KHIST_EPERR_NOFENTRY_ARGS] =
		"$arg* can be used only on function entry or exit",
	[KHIST_EPERR_BAD_INSN_BNDRY] =
		"Probe point is not an instruction boundary",
	[KHIST_EPERR_FAIL_REG_PROBE] = "Failed to register probe event",
	[KHIST_EPERR_NEED_STRING_TYPE] =
		"$comm and immediate-string only accepts string type",
	[KHIST_EPERR_SAME_PROBE] =
		"There is already the exact same probe event",
	[KHIST_EPERR_FILE_NOT_FOUND] = "Failed to find the given file",
	[KHIST_EPERR_NO_REGULAR_FILE] = "Not a regular file",
	[KHIST_EPERR_BAD_REFCNT] = "Invalid reference counter offset",
	[KHIST_EPERR_REFCNT_OPEN_BRACE] =
		"Reference counter brace is not closed",
	[KHIST_EPERR_BAD_REFCNT_SUFFIX] = "Reference counter has wrong suffix",
	[KHIST_EPERR_BAD_UPROBE_OFFS] = "Invalid uprobe offset",
	[KHIST_EPERR_BAD_FILE_OFFS] = "Invalid file offset value",
	[KHIST_EPERR_SYM_ON_UPROBE] = "Symbol is not available with uprobe",
};

/**
 * khist_ep_err_text() - the error_log text of an error code
 * @err: enum khist_ep_errcode
 *
 * Context: any.
 * Return: the text, "" for KHIST_EPERR_NONE or an unknown code.
 */
const char *khist_ep_err_text(int err)
{
	if (err <= KHIST_EPERR_NONE || err >= KHIST_EPERR_COUNT)
		return "";
	return ep_err_text[err];
}

/**
 * khist_ep_set_error() - add an error to a parse result
 * @cmd: the result
 * @err: enum khist_ep_errcode
 * @pos: caret position in @cmd->cmd
 *
 * For errors found after parsing (the name is taken). Errors beyond
 * KHIST_EP_ERRS are dropped.
 *
 * Context: any.
 */
void khist_ep_set_error(struct khist_ep_cmd *cmd, int err, unsigned int pos)
{
	if (cmd->nr_err >= KHIST_EP_ERRS)
		return;
	cmd->err[cmd->nr_err] = err;
	cmd->pos[cmd->nr_err++] = pos;
}

/* ftrace's conversions for 64-bit values: "%L" with u, d or x. */
#define EP_L "L"

/* What an argument without a type is fetched as: a long, in hex. */
#define EP_DEFAULT_TYPE "x64"

static const struct khist_ep_type ep_types[] = {
	{ "string", "__data_loc char[]", "\\\"%s\\\"", 4, 1, KHIST_EPP_STRING },
	{ "ustring", "__data_loc char[]", "\\\"%s\\\"", 4, 1,
	  KHIST_EPP_STRING },
	{ "symstr", "__data_loc char[]", "\\\"%s\\\"", 4, 1, KHIST_EPP_STRING },
	{ "u8", "u8", "%u", 1, 0, KHIST_EPP_UNSIGNED },
	{ "u16", "u16", "%u", 2, 0, KHIST_EPP_UNSIGNED },
	{ "u32", "u32", "%u", 4, 0, KHIST_EPP_UNSIGNED },
	{ "u64", "u64", "%" EP_L "u", 8, 0, KHIST_EPP_UNSIGNED },
	{ "s8", "s8", "%d", 1, 1, KHIST_EPP_SIGNED },
	{ "s16", "s16", "%d", 2, 1, KHIST_EPP_SIGNED },
	{ "s32", "s32", "%d", 4, 1, KHIST_EPP_SIGNED },
	{ "s64", "s64", "%" EP_L "d", 8, 1, KHIST_EPP_SIGNED },
	{ "x8", "u8", "0x%x", 1, 0, KHIST_EPP_HEX },
	{ "x16", "u16", "0x%x", 2, 0, KHIST_EPP_HEX },
	{ "x32", "u32", "0x%x", 4, 0, KHIST_EPP_HEX },
	{ "x64", "u64", "0x%" EP_L "x", 8, 0, KHIST_EPP_HEX },
	{ "char", "u8", "'%c'", 1, 0, KHIST_EPP_CHAR },
	{ "symbol", "u64", "%pS", 8, 0, KHIST_EPP_SYMBOL },
};

/**
 * khist_ep_find_type() - look a fetch type up by name
 * @name: as written after ':' ("u32", "b4@0/32", ...), NULL for the default
 *
 * A bitfield takes the unsigned type of its container.
 *
 * Context: any.
 * Return: the type, or NULL when there is no such type.
 */
const struct khist_ep_type *khist_ep_find_type(const char *name)
{
	const char *slash;
	unsigned int i;
	u64 bits;

	if (!name)
		name = EP_DEFAULT_TYPE;
	if (name[0] == 'b') {
		/* b<width>@<offset>/<container bits> */
		slash = strchr(name, '/');
		if (!slash ||
		    khist_parse_u64(slash + 1, strlen(slash + 1), &bits))
			return NULL;
		switch (bits) {
		case 8:
			return khist_ep_find_type("u8");
		case 16:
			return khist_ep_find_type("u16");
		case 32:
			return khist_ep_find_type("u32");
		case 64:
			return khist_ep_find_type("u64");
		default:
			return NULL;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ep_types); i++)
		if (!strcmp(ep_types[i].name, name))
			return &ep_types[i];
	return NULL;
}

/* ---- texts ------------------------------------------------------------- */

/* Append "[@v]". */
static int ep_put_index(char *buf, size_t size, int pos, unsigned int v)
{
	char tmp[16];

	snprintf(tmp, sizeof(tmp), "[%u]", v);
	return khist_puts(buf, size, pos, tmp);
}

/**
 * khist_ep_print_fmt() - the "print fmt" of an event probe
 * @def:  the definition
 * @buf:  where it goes (may be NULL with @size 0, to measure)
 * @size: bytes in @buf
 *
 * Context: any.
 * Return: its length, without the NUL.
 */
int khist_ep_print_fmt(const struct khist_ep_def *def, char *buf, size_t size)
{
	const struct khist_ep_arg *a;
	unsigned int i, k;
	int pos = 0;
	bool str;

	pos = khist_puts(buf, size, pos, "\"");
	if (khist_ep_is_ret(def))
		pos = khist_puts(buf, size, pos, "(%lx <- %lx)");
	else if (def->kind != KHIST_EPK_EVENT)
		pos = khist_puts(buf, size, pos, "(%lx)");
	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		pos = khist_puts(buf, size, pos, " ");
		pos = khist_puts(buf, size, pos, a->name);
		pos = khist_puts(buf, size, pos, "=");
		if (!a->count) {
			pos = khist_puts(buf, size, pos, a->type->fmt);
			continue;
		}
		for (k = 0; k < a->count; k++) {
			pos = khist_puts(buf, size, pos, k ? "," : "{");
			pos = khist_puts(buf, size, pos, a->type->fmt);
		}
		pos = khist_puts(buf, size, pos, "}");
	}
	pos = khist_puts(buf, size, pos, "\"");
	if (khist_ep_is_ret(def))
		pos = khist_puts(buf, size, pos,
				 ", REC->__probe_func, REC->__probe_ret_ip");
	else if (def->kind != KHIST_EPK_EVENT)
		pos = khist_puts(buf, size, pos, ", REC->__probe_ip");
	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		str = a->type->print == KHIST_EPP_STRING;
		for (k = 0; k < (a->count ? a->count : 1); k++) {
			pos = khist_puts(buf, size, pos,
					 str ? ", __get_str(" : ", REC->");
			pos = khist_puts(buf, size, pos, a->name);
			if (a->count)
				pos = ep_put_index(buf, size, pos, k);
			if (str)
				pos = khist_puts(buf, size, pos, ")");
		}
	}
	return pos;
}

/**
 * khist_ep_show() - an event probe's line in `dynamic_events`
 * @def:  the definition
 * @buf:  where it goes (may be NULL with @size 0, to measure)
 * @size: bytes in @buf
 *
 * "e:group/event system.event name=text ...", newline included; the
 * filter is not shown (as in ftrace).
 *
 * Context: any.
 * Return: its length, without the NUL.
 */
int khist_ep_show(const struct khist_ep_def *def, char *buf, size_t size)
{
	unsigned int i;
	int pos = 0;
	char tmp[32];

	if (khist_ep_is_user(def)) {
		pos = khist_puts(buf, size, pos,
				 khist_ep_is_ret(def) ? "r:" : "p:");
		pos = khist_puts(buf, size, pos, def->group);
		pos = khist_puts(buf, size, pos, "/");
		pos = khist_puts(buf, size, pos, def->event);
		pos = khist_puts(buf, size, pos, " ");
		pos = khist_puts(buf, size, pos, def->path);
		/* The offset as the kernel lists it: all 16 hex digits. */
		snprintf(tmp, sizeof(tmp), ":0x%016lx", def->offset);
		pos = khist_puts(buf, size, pos, tmp);
		if (def->ref_ctr) {
			snprintf(tmp, sizeof(tmp), "(0x%lx)", def->ref_ctr);
			pos = khist_puts(buf, size, pos, tmp);
		}
		goto args;
	}
	if (def->kind != KHIST_EPK_EVENT) {
		pos = khist_puts(buf, size, pos,
				 def->kind == KHIST_EPK_KRETPROBE ? "r" : "p");
		if (def->maxactive) {
			snprintf(tmp, sizeof(tmp), "%u", def->maxactive);
			pos = khist_puts(buf, size, pos, tmp);
		}
		pos = khist_puts(buf, size, pos, ":");
		pos = khist_puts(buf, size, pos, def->group);
		pos = khist_puts(buf, size, pos, "/");
		pos = khist_puts(buf, size, pos, def->event);
		pos = khist_puts(buf, size, pos, " ");
		if (!def->symbol)
			snprintf(tmp, sizeof(tmp), "0x%llx",
				 (unsigned long long)def->addr);
		else if (def->offset)
			snprintf(tmp, sizeof(tmp), "+%lu", def->offset);
		else
			tmp[0] = '\0';
		if (def->symbol)
			pos = khist_puts(buf, size, pos, def->symbol);
		pos = khist_puts(buf, size, pos, tmp);
		goto args;
	}
	pos = khist_puts(buf, size, pos, "e:");
	pos = khist_puts(buf, size, pos, def->group);
	pos = khist_puts(buf, size, pos, "/");
	pos = khist_puts(buf, size, pos, def->event);
	pos = khist_puts(buf, size, pos, " ");
	pos = khist_puts(buf, size, pos, def->system);
	pos = khist_puts(buf, size, pos, ".");
	pos = khist_puts(buf, size, pos, def->target);
args:
	for (i = 0; i < def->nr_args; i++) {
		pos = khist_puts(buf, size, pos, " ");
		pos = khist_puts(buf, size, pos, def->args[i].name);
		pos = khist_puts(buf, size, pos, "=");
		pos = khist_puts(buf, size, pos, def->args[i].text);
	}
	pos = khist_puts(buf, size, pos, "\n");
	return pos;
}

/**
 * khist_ep_nr_fields() - how many fields khist_ep_fields() fills
 * @def: the definition
 *
 * Context: any.
 * Return: the arguments, after __probe_ip (kprobes) or __probe_func and
 * __probe_ret_ip (kretprobes).
 */
unsigned int khist_ep_nr_fields(const struct khist_ep_def *def)
{
	return def->nr_args + (def->hdr_size - KHIST_EP_HDR_SIZE) / 8;
}

/**
 * khist_ep_fields() - the event's fields, for `format`, filters and hists
 * @def:   the definition
 * @descs: khist_ep_nr_fields() entries, filled (they point into @def):
 *         the probe's own fields first, then the arguments
 *
 * A string is a __data_loc char[]; an array is a fixed array of its
 * element type.
 *
 * Context: any.
 */
void khist_ep_fields(const struct khist_ep_def *def,
		     struct khist_field_desc *descs)
{
	static const char *const hdr[] = { "__probe_ip", "__probe_func",
					   "__probe_ret_ip" };
	const struct khist_ep_arg *a;
	unsigned int i, k, h = khist_ep_nr_fields(def) - def->nr_args;

	for (k = 0; k < h; k++) {
		memset(&descs[k], 0, sizeof(descs[k]));
		descs[k].name = hdr[khist_ep_is_ret(def) ? k + 1 : 0];
		descs[k].type = "unsigned long";
		descs[k].offset = KHIST_EP_HDR_SIZE + 8 * k;
		descs[k].size = 8;
		descs[k].elem_size = 8;
		descs[k].kind = KHIST_FK_INT;
	}
	descs += h;
	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		descs[i].name = a->name;
		descs[i].type = a->ftype;
		descs[i].offset = a->offset;
		descs[i].size = a->type->size * (a->count ? a->count : 1);
		descs[i].is_signed = a->type->is_signed;
		descs[i].elem_size = a->type->size;
		if (a->count) {
			descs[i].kind = KHIST_FK_ARRAY;
		} else if (a->type->print == KHIST_EPP_STRING) {
			descs[i].kind = KHIST_FK_DYNSTRING;
			descs[i].elem_size = 1;
		} else {
			descs[i].kind = KHIST_FK_INT;
		}
	}
}

/* Word 0 of a removal line: the probe's place, as the listing shows it. */
static bool kp_match_place(const struct khist_ep_def *def, const char *w)
{
	char tmp[KHIST_EP_NAME_MAX + 32];
	size_t len;

	if (khist_ep_is_user(def)) {
		/* "PATH:OFFSET[(REF_CTR)]" */
		len = strlen(def->path);
		if (strncmp(w, def->path, len) || w[len] != ':')
			return false;
		w += len + 1;
		if (def->ref_ctr)
			snprintf(tmp, sizeof(tmp), "0x%016lx(0x%lx)",
				 def->offset, def->ref_ctr);
		else
			snprintf(tmp, sizeof(tmp), "0x%016lx", def->offset);
	} else if (!def->symbol) {
		snprintf(tmp, sizeof(tmp), "0x%llx",
			 (unsigned long long)def->addr);
	} else if (def->offset) {
		snprintf(tmp, sizeof(tmp), "%s+%lu", def->symbol, def->offset);
	} else {
		snprintf(tmp, sizeof(tmp), "%s", def->symbol);
	}
	return !strcmp(w, tmp);
}

/* A kprobe or uprobe removal line's "place [args]". */
static bool kp_match_head(const struct khist_ep_def *def, int argc,
			  const char *const *argv)
{
	size_t len;
	int i;

	if (!kp_match_place(def, argv[0]))
		return false;
	if ((unsigned int)argc - 1 > def->nr_args)
		return false;
	for (i = 1; i < argc; i++) {
		len = strlen(def->args[i - 1].name);
		if (strncmp(argv[i], def->args[i - 1].name, len) ||
		    argv[i][len] != '=' ||
		    strcmp(argv[i] + len + 1, def->args[i - 1].text))
			return false;
	}
	return true;
}

/**
 * khist_ep_match() - does a removal line name this probe?
 * @def:    the probe
 * @system: the group written, or NULL
 * @event:  the event written ("" for a whole group)
 * @argc:   words after the name
 * @argv:   the attached "system.event" (or system/event), then arguments
 *          that must be the probe's first ones, as listed
 *
 * Context: any.
 * Return: true when every given part matches.
 */
bool khist_ep_match(const struct khist_ep_def *def, const char *system,
		    const char *event, int argc, const char *const *argv)
{
	const char *sep;
	size_t len;
	int i;

	if (system && strcmp(def->group, system))
		return false;
	if (event[0] && strcmp(def->event, event))
		return false;
	if (argc < 1)
		return true;
	if (def->kind != KHIST_EPK_EVENT)
		return kp_match_head(def, argc, argv);
	sep = strchr(argv[0], '/');
	if (!sep)
		sep = strchr(argv[0], '.');
	if (!sep)
		return false;
	len = sep - argv[0];
	if (strncmp(def->system, argv[0], len) || def->system[len] ||
	    strcmp(def->target, sep + 1))
		return false;
	argc--;
	if ((unsigned int)argc > def->nr_args)
		return false;
	for (i = 0; i < argc; i++) {
		len = strlen(def->args[i].name);
		if (strncmp(argv[i + 1], def->args[i].name, len) ||
		    argv[i + 1][len] != '=' ||
		    strcmp(argv[i + 1] + len + 1, def->args[i].text))
			return false;
	}
	return true;
}
