// SPDX-License-Identifier: GPL-2.0
/*
 * hist_util.c - what the hist parser, binder and printer share: error
 * texts, the arena that holds a command's tree, span comparison, caret
 * positions (ftrace's first-occurrence rule) and number parsing.
 */
#include "core_env.h"
#include "hist_parse_int.h"

static const char *const khist_hist_err_texts[KHIST_HERR_COUNT] = {
	[KHIST_HERR_NONE] = "No error",
	[KHIST_HERR_DUPLICATE_VAR] = "Variable already defined",
	[KHIST_HERR_VAR_NOT_UNIQUE] =
		"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable",
	[KHIST_HERR_TOO_MANY_VARS] = "Too many variables defined",
	[KHIST_HERR_MALFORMED_ASSIGNMENT] = "Malformed assignment",
	[KHIST_HERR_NAMED_MISMATCH] =
		"Named hist trigger doesn't match existing named trigger (includes variables)",
	[KHIST_HERR_TRIGGER_EEXIST] = "Hist trigger already exists",
	[KHIST_HERR_TRIGGER_ENOENT_CLEAR] =
		"Can't clear or continue a nonexistent hist trigger",
	[KHIST_HERR_SET_CLOCK_FAIL] = "Couldn't set trace_clock",
	[KHIST_HERR_BAD_FIELD_MODIFIER] = "Invalid field modifier",
	[KHIST_HERR_TOO_MANY_SUBEXPR] = "Too many subexpressions (3 max)",
	[KHIST_HERR_TIMESTAMP_MISMATCH] =
		"Timestamp units in expression don't match",
	[KHIST_HERR_TOO_MANY_FIELD_VARS] = "Too many field variables defined",
	[KHIST_HERR_EVENT_FILE_NOT_FOUND] = "Event file not found",
	[KHIST_HERR_HIST_NOT_FOUND] = "Matching event histogram not found",
	[KHIST_HERR_HIST_CREATE_FAIL] = "Couldn't create histogram for field",
	[KHIST_HERR_SYNTH_VAR_NOT_FOUND] = "Couldn't find synthetic variable",
	[KHIST_HERR_SYNTH_EVENT_NOT_FOUND] = "Couldn't find synthetic event",
	[KHIST_HERR_SYNTH_TYPE_MISMATCH] =
		"Param type doesn't match synthetic event field type",
	[KHIST_HERR_SYNTH_COUNT_MISMATCH] =
		"Param count doesn't match synthetic event field count",
	[KHIST_HERR_FIELD_VAR_PARSE_FAIL] = "Couldn't parse field variable",
	[KHIST_HERR_VAR_CREATE_FIND_FAIL] = "Couldn't create or find variable",
	[KHIST_HERR_ONX_NOT_VAR] =
		"For onmax(x) or onchange(x), x must be a variable",
	[KHIST_HERR_ONX_VAR_NOT_FOUND] =
		"Couldn't find onmax or onchange variable",
	[KHIST_HERR_ONX_VAR_CREATE_FAIL] =
		"Couldn't create onmax or onchange variable",
	[KHIST_HERR_FIELD_VAR_CREATE_FAIL] = "Couldn't create field variable",
	[KHIST_HERR_TOO_MANY_PARAMS] = "Too many action params",
	[KHIST_HERR_PARAM_NOT_FOUND] = "Couldn't find param",
	[KHIST_HERR_INVALID_PARAM] = "Invalid action param",
	[KHIST_HERR_ACTION_NOT_FOUND] = "No action found",
	[KHIST_HERR_NO_SAVE_PARAMS] = "No params found for save()",
	[KHIST_HERR_TOO_MANY_SAVE_ACTIONS] =
		"Can't have more than one save() action per hist",
	[KHIST_HERR_ACTION_MISMATCH] = "Handler doesn't support action",
	[KHIST_HERR_NO_CLOSING_PAREN] = "No closing paren found",
	[KHIST_HERR_SUBSYS_NOT_FOUND] = "Missing subsystem",
	[KHIST_HERR_INVALID_SUBSYS_EVENT] = "Invalid subsystem or event name",
	[KHIST_HERR_INVALID_REF_KEY] =
		"Using variable references in keys not supported",
	[KHIST_HERR_VAR_NOT_FOUND] = "Couldn't find variable",
	[KHIST_HERR_FIELD_NOT_FOUND] = "Couldn't find field",
	[KHIST_HERR_EMPTY_ASSIGNMENT] = "Empty assignment",
	[KHIST_HERR_INVALID_SORT_MODIFIER] = "Invalid sort modifier",
	[KHIST_HERR_EMPTY_SORT_FIELD] = "Empty sort field",
	[KHIST_HERR_TOO_MANY_SORT_FIELDS] = "Too many sort fields (Max = 2)",
	[KHIST_HERR_INVALID_SORT_FIELD] = "Sort field must be a key or a val",
	[KHIST_HERR_INVALID_STR_OPERAND] =
		"String type can not be an operand in expression",
	[KHIST_HERR_EXPECT_NUMBER] = "Expecting numeric literal",
	[KHIST_HERR_UNARY_MINUS_SUBEXPR] =
		"Unary minus not supported in sub-expressions",
	[KHIST_HERR_DIVISION_BY_ZERO] = "Division by zero",
	[KHIST_HERR_NEED_NOHC_VAL] =
		"Non-hitcount value is required for 'nohitcount'",
	[KHIST_HERR_EMPTY_PARAM] = "Missing hist trigger parameters",
	[KHIST_HERR_BAD_IF] =
		"Misplaced 'if': a filter needs text before and after it",
	[KHIST_HERR_UNKNOWN_TOKEN] = "Unknown hist trigger attribute",
	[KHIST_HERR_NO_KEYS] = "Missing keys= attribute",
	[KHIST_HERR_BAD_SIZE] = "Invalid size= (must be 128..131072)",
	[KHIST_HERR_TOO_MANY_KEYS] = "Too many keys (max 8)",
	[KHIST_HERR_KEY_TOO_LARGE] = "Compound key too large (max 1024 bytes)",
	[KHIST_HERR_TOO_MANY_VALS] = "Too many values (max 7 besides hitcount)",
	[KHIST_HERR_TOO_MANY_ACTIONS] =
		"Too many handler.action entries (max 8)",
	[KHIST_HERR_BAD_EXPR] =
		"Malformed expression (missing operand, or unary minus without -(...))",
	[KHIST_HERR_ONX_NO_PAREN] =
		"Missing ')' after onmax(/onchange( variable",
	[KHIST_HERR_UNSUPPORTED_FIELD] =
		"Field type can not be used in a hist trigger",
	[KHIST_HERR_CMD_TOO_LONG] = "Hist trigger command too long",
	[KHIST_HERR_ENTRY_TOO_LARGE] =
		"Too many string or stack variables (max 15)",
	[KHIST_HERR_MEM_LIMIT] =
		"khist memory limit reached (module parameter mem_limit_kb)",
	[KHIST_HERR_SNAPSHOT_BUSY] =
		"The instance already has a snapshot() action",
	[KHIST_HERR_SYNTH_NOT_STRING] =
		"Param of a synthetic string field must be a string",
	[KHIST_HERR_INVALID_SORT_FIGURE] =
		"Sort figure not shown by this value (.stats: count,min,mean,max,stddev; .quantiles: p50,p90,p99,p99.9,max)",
	[KHIST_HERR_ONX_DIST] =
		"onmax/onchange track one value; for its distribution add vals=$var.stats or vals=$var.quantiles",
};

/**
 * khist_hist_err_text() - text of a hist error code
 * @code: enum khist_hist_errcode
 *
 * Context: any.
 * Return: static string; "Error" for an unknown code.
 */
const char *khist_hist_err_text(unsigned int code)
{
	if (code >= ARRAY_SIZE(khist_hist_err_texts) ||
	    !khist_hist_err_texts[code])
		return "Error";
	return khist_hist_err_texts[code];
}

/* ---- arena ------------------------------------------------------------ */

struct khist_arena_chunk {
	struct khist_arena_chunk *next;
	size_t cap;
	u64 data[];
};

#define KHIST_ARENA_CHUNK 2048

/**
 * khist_arena_alloc() - zeroed, 8-byte aligned memory from an arena
 * @a:    the arena
 * @size: bytes wanted
 *
 * Context: process context, may sleep (GFP_KERNEL).
 * Return: the memory, or NULL when out of memory.
 */
void *khist_arena_alloc(struct khist_arena *a, size_t size)
{
	struct khist_arena_chunk *c;
	void *p;

	size = ALIGN(size, 8);
	if (!a->head || a->cap - a->used < size) {
		size_t cap = max_t(size_t, size, KHIST_ARENA_CHUNK);

		c = kmalloc(sizeof(*c) + cap, GFP_KERNEL);
		if (!c)
			return NULL;
		c->next = a->head;
		c->cap = cap;
		a->head = c;
		a->used = 0;
		a->cap = cap;
		a->bytes += sizeof(*c) + cap;
	}
	p = (char *)a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

/**
 * khist_arena_strndup() - copy @n bytes of @s into the arena, NUL-ended
 * @a: the arena
 * @s: source (need not be NUL-terminated)
 * @n: bytes to copy
 *
 * Context: process context, may sleep.
 * Return: the copy, or NULL when out of memory.
 */
char *khist_arena_strndup(struct khist_arena *a, const char *s, size_t n)
{
	char *d = khist_arena_alloc(a, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

/**
 * khist_arena_free() - release everything allocated from @a
 * @a: the arena; left empty and reusable
 *
 * Context: any.
 */
void khist_arena_free(struct khist_arena *a)
{
	struct khist_arena_chunk *c = a->head, *n;

	while (c) {
		n = c->next;
		kfree(c);
		c = n;
	}
	a->head = NULL;
	a->used = 0;
	a->cap = 0;
	a->bytes = 0;
}

/* ---- spans, carets, numbers -------------------------------------------- */
/**
 * khist_span_eq() - does a span of the working text equal @str?
 * @cmd: the command
 * @s:   the span
 * @str: NUL-terminated string
 *
 * Context: any.
 * Return: true if equal.
 */
bool khist_span_eq(const struct khist_hist_cmd *cmd, struct khist_span s,
		   const char *str)
{
	return strlen(str) == s.len && !memcmp(cmd->work + s.pos, str, s.len);
}

static u16 find_mem(const char *hay, size_t hlen, const char *needle,
		    size_t nlen)
{
	size_t i;

	if (!nlen || nlen > hlen)
		return 0;
	for (i = 0; i + nlen <= hlen; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, nlen))
			return i;
	return 0;
}

/**
 * khist_hist_errpos() - caret position for an offending piece of text
 * @cmd: the command
 * @pos: start of the text in the working copy
 * @len: its length
 *
 * Like the kernel: the first occurrence of that text in the error_log
 * command, or 0 when it does not occur there (or is empty).
 *
 * Context: any.
 * Return: the caret position.
 */
u16 khist_hist_errpos(const struct khist_hist_cmd *cmd, u16 pos, u16 len)
{
	return find_mem(cmd->cmd, cmd->len, cmd->work + pos, len);
}

/**
 * khist_hist_errpos_str() - caret position of a literal string
 * @cmd: the command
 * @s:   text to look for, such as "sort="
 *
 * Context: any.
 * Return: position of its first occurrence in the command, or 0.
 */
u16 khist_hist_errpos_str(const struct khist_hist_cmd *cmd, const char *s)
{
	return find_mem(cmd->cmd, cmd->len, s, strlen(s));
}

/**
 * khist_hist_err_add() - append one error_log entry to @err
 * @err:  error record (may be NULL)
 * @code: enum khist_hist_errcode
 * @pos:  caret position
 *
 * Context: any.
 */
void khist_hist_err_add(struct khist_hist_err *err, unsigned int code, u16 pos)
{
	if (!err || err->n >= KHIST_HIST_ERRS_MAX)
		return;
	err->e[err->n].code = code;
	err->e[err->n].pos = pos;
	err->n++;
}
