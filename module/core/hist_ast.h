/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_ast.h - syntax tree of one hist trigger command, as produced by
 * khist_hist_parse() (hist_parse.c) and consumed by the binder
 * (hist_bind.c) and the inter-event layer.
 *
 * Every piece of text is a struct khist_span: a byte range of the command's
 * working copy (struct khist_hist_cmd.work). The working copy has the same
 * length as the error_log command text (struct khist_hist_cmd.cmd, which is
 * "hist:" plus everything the user wrote after "hist:"), so a span's @pos
 * is also a position in the error_log command. The only difference between
 * the two is that ".sym-offset" reads ".symXoffset" in the working copy,
 * as in the kernel, so that its '-' is not taken for an operator.
 *
 * Expressions are parsed completely here, but problems that the kernel
 * only notices while it binds (in the middle of resolving fields, so after
 * earlier fields may already have failed) are recorded as KHIST_EX_ERR
 * nodes and reported by the binder in the kernel's order. Sort items carry
 * their own deferred error the same way. The whole tree lives in one arena
 * owned by the command.
 */
#ifndef _KHIST_CORE_HIST_AST_H
#define _KHIST_CORE_HIST_AST_H

#include "core_env.h"
#include "lex.h"

/* khist's limits; the kernel's values are in the comments. */
#define KHIST_KEYS_MAX 8 /* kernel: 3 */
#define KHIST_VALS_MAX 7 /* besides the raw hitcount; kernel: 2 */
#define KHIST_VARS_MAX 32 /* definitions per trigger; kernel: 16 */
#define KHIST_SORT_KEYS_MAX 2 /* as the kernel (error text says 2) */
#define KHIST_ACTIONS_MAX 8 /* as the kernel */
#define KHIST_PARAMS_MAX 64 /* action params, as the kernel */
#define KHIST_SUBEXPR_MAX 3 /* operators per expression, as kernel */
#define KHIST_KEY_SIZE_MAX 1024 /* kernel: 384 */
#define KHIST_HIST_BITS_MIN 7
#define KHIST_HIST_BITS_MAX 17
#define KHIST_HIST_BITS_DEFAULT 11
#define KHIST_STR_MAX 256 /* string key slot / variable storage */
#define KHIST_STACK_DEPTH 16
#define KHIST_STACK_SIZE 128 /* KHIST_STACK_DEPTH * 8 */
#define KHIST_CMD_MAX 4095 /* one trigger write, < PAGE_SIZE */

/**
 * enum khist_ex_kind - node kinds of an expression tree
 * @KHIST_EX_ATOM:   field, special field or variable reference
 * @KHIST_EX_CONST:  numeric literal (base 0, unsigned)
 * @KHIST_EX_UMINUS: -( @l )
 * @KHIST_EX_BINOP:  @l @op @r
 * @KHIST_EX_ERR:    the kernel fails here (deferred error, see top)
 */
enum khist_ex_kind {
	KHIST_EX_ATOM,
	KHIST_EX_CONST,
	KHIST_EX_UMINUS,
	KHIST_EX_BINOP,
	KHIST_EX_ERR,
};

/**
 * struct khist_ex - one expression node
 * @kind:     enum khist_ex_kind
 * @op:       '+', '-', '*' or '/' for KHIST_EX_BINOP
 * @is_ref:   ATOM: @name starts with '$' (a variable reference)
 * @has_mod:  ATOM: a '.' follows the field name; @mod is what follows it
 * @qualified: ATOM: written as sys.event.<name>
 * @err:      ERR: enum khist_hist_errcode
 * @err_pos:  ERR: caret position
 * @text:     the whole (sub)expression as written
 * @sys:      ATOM, qualified: subsystem
 * @event:    ATOM, qualified: event
 * @name:     ATOM: what follows the qualifier ("$var", "field.mod")
 * @fname:    ATOM: @name up to its first '.' (the field or "$var")
 * @mod:      ATOM: modifier text after the first '.' (may be empty)
 * @constant: CONST: the value
 * @l:        left operand (UMINUS: the operand)
 * @r:        right operand
 */
struct khist_ex {
	u8 kind;
	char op;
	u8 is_ref;
	u8 has_mod;
	u8 qualified;
	u16 err;
	u16 err_pos;
	struct khist_span text;
	struct khist_span sys;
	struct khist_span event;
	struct khist_span name;
	struct khist_span fname;
	struct khist_span mod;
	u64 constant;
	struct khist_ex *l;
	struct khist_ex *r;
};

/**
 * struct khist_item - one key, value or variable definition
 * @text:     the item as written (a variable: the part after '=')
 * @var:      variable definitions: the name before '='
 * @ex:       its expression tree (NULL for the legacy "stacktrace" key)
 * @hitcount: value item that is the implicit raw hitcount (skipped)
 * @legacy_stack: key item that is exactly "stacktrace"
 */
struct khist_item {
	struct khist_span text;
	struct khist_span var;
	struct khist_ex *ex;
	u8 hitcount;
	u8 legacy_stack;
};

/**
 * struct khist_sort_item - one sort= entry
 * @text: the entry as written
 * @name: up to the first '.'
 * @mod:  after the first '.' (valid if @has_mod)
 * @has_mod: a '.' is present
 * @err:  deferred error (0 if none) and its caret @err_pos
 * @err_pos: see @err
 */
struct khist_sort_item {
	struct khist_span text;
	struct khist_span name;
	struct khist_span mod;
	u8 has_mod;
	u16 err;
	u16 err_pos;
};

enum khist_handler {
	KHIST_HANDLER_ONMATCH = 1,
	KHIST_HANDLER_ONMAX,
	KHIST_HANDLER_ONCHANGE,
};

enum khist_action_kind {
	KHIST_ACTION_TRACE = 1,
	KHIST_ACTION_SAVE,
	KHIST_ACTION_SNAPSHOT,
};

/**
 * struct khist_action - one handler.action token, parsed (not resolved)
 * @text:      the whole token
 * @handler:   enum khist_handler
 * @action:    enum khist_action_kind
 * @trace_kw:  written as trace(synth,...) rather than synth(...)
 * @arg:       onmatch: "sys.event"; onmax/onchange: the variable text
 *             as written (normally "$var")
 * @sys:       onmatch: subsystem
 * @event:     onmatch: event
 * @name:      action name as written ("save", "snapshot", "trace", or the
 *             synthetic event name)
 * @synth:     synthetic event to emit (ACTION_TRACE)
 * @n_params:  number of entries in @params
 * @params:    parameters, whitespace-stripped, as written
 */
struct khist_action {
	struct khist_span text;
	u8 handler;
	u8 action;
	u8 trace_kw;
	struct khist_span arg;
	struct khist_span sys;
	struct khist_span event;
	struct khist_span name;
	struct khist_span synth;
	u16 n_params;
	struct khist_span *params;
};

struct khist_arena_chunk;

/**
 * struct khist_arena - bump allocator, freed all at once
 * @head: most recent chunk
 * @used: bytes used in @head
 * @cap:  bytes available in @head
 * @bytes: bytes of all the chunks, headers included (what it costs)
 */
struct khist_arena {
	struct khist_arena_chunk *head;
	size_t used;
	size_t cap;
	size_t bytes;
};

void *khist_arena_alloc(struct khist_arena *a, size_t size);
char *khist_arena_strndup(struct khist_arena *a, const char *s, size_t n);
void khist_arena_free(struct khist_arena *a);

/**
 * struct khist_hist_cmd - one parsed hist command
 * @cmd:       error_log command text ("hist:..."), NUL-terminated
 * @work:      working copy of @cmd (".sym-offset" as ".symXoffset")
 * @len:       length of both
 * @remove:    written with a leading '!'
 * @keys:      keys= items; @n_keys of them (@has_keys: keys= was given)
 * @n_keys:    see @keys
 * @has_keys:  see @keys
 * @vals:      vals= items including skipped raw hitcount items
 * @n_vals:    number of @vals
 * @vals_rest: kernel quirk: a lone trailing "hitcount" after the value
 *             limit is accepted and ignored; set when that happened
 * @keys_over: more keys than KHIST_KEYS_MAX (reported by the binder,
 *             after the keys that fit, as the kernel orders it)
 * @vals_over: more values than KHIST_VALS_MAX (likewise)
 * @keys_over_pos: caret for @keys_over
 * @vals_over_pos: caret for @vals_over
 * @vars:      variable definitions, in order; @n_vars of them
 * @n_vars:    see @vars
 * @sort:      sort= items; @n_sort of them (@has_sort: sort= was given)
 * @n_sort:    see @sort
 * @has_sort:  see @sort
 * @name:      name= value (len 0 if absent); @has_name
 * @has_name:  see @name
 * @clock:     clock= value, whitespace-stripped; "global" if absent
 * @map_bits:  log2 of size= (rounded up), KHIST_HIST_BITS_DEFAULT if absent
 * @size_given: size= was present
 * @pause:     pause given
 * @cont:      cont or continue given
 * @clear:     clear given
 * @nohitcount: nohitcount or NOHC given
 * @filter:    filter text after "if" (len 0 if none); @has_filter
 * @has_filter: see @filter
 * @actions:   handler.action tokens; @n_actions
 * @n_actions: see @actions
 * @arena:     owns everything above
 */
struct khist_hist_cmd {
	char *cmd;
	char *work;
	u16 len;
	u8 remove;
	struct khist_item keys[KHIST_KEYS_MAX];
	u8 n_keys;
	u8 has_keys;
	struct khist_item vals[KHIST_VALS_MAX + 2];
	u8 n_vals;
	u8 vals_rest;
	u8 keys_over;
	u8 vals_over;
	u16 keys_over_pos;
	u16 vals_over_pos;
	struct khist_item vars[KHIST_VARS_MAX];
	u8 n_vars;
	struct khist_sort_item sort[KHIST_SORT_KEYS_MAX];
	u8 n_sort;
	u8 has_sort;
	struct khist_span name;
	u8 has_name;
	const char *clock;
	u8 map_bits;
	u8 size_given;
	u8 pause;
	u8 cont;
	u8 clear;
	u8 nohitcount;
	struct khist_span filter;
	u8 has_filter;
	struct khist_action actions[KHIST_ACTIONS_MAX];
	u8 n_actions;
	struct khist_arena arena;
};

#endif /* _KHIST_CORE_HIST_AST_H */
