/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_bind.h - binds a parsed hist command (hist_ast.h) to an event
 * schema (schema.h), producing the "hist spec" the runtime builds its map
 * and per-hit code from.
 *
 * Bound spec, in short (what the runtime needs):
 *
 *   struct khist_hist_spec
 *     keys[n_keys]   struct khist_hkey: the key tree @f and its slot in the
 *                    compound key (@offset, @size: a multiple of 8).
 *                    @key_size is the sum. A single numeric key can be
 *                    hashed as its u64 value; otherwise zero a key_size
 *                    buffer and fill each slot: integers widened to u64
 *                    (sign-extended if @f->is_signed), static strings
 *                    copied up to size-1 and NUL-terminated, __data_loc /
 *                    __rel_loc strings likewise (slot 256), stacks as
 *                    KHIST_STACK_DEPTH unsigned longs.
 *     vals[n_vals]   vals[0] is the raw hitcount; the others are u64 sums
 *                    of their tree's value (an explicit hitcount adds 1).
 *     vars[n_vars]   per-entry variables: @f's value is stored (strings
 *                    and stacks in string slot @str_idx) on each hit.
 *     sort[n_sort]   hitcount, a value (or a figure of a .stats or
 *                    .quantiles value) or a key, ascending/descending.
 *     map_bits, name, clock (used only if @timestamps), ts_usecs,
 *     pause/cont/clear/nohitcount/remove, filter (verbatim text), and
 *     the handler/action ASTs (cmd->actions) for the inter-event layer.
 *
 *   struct khist_bfield (one tree node)
 *     @kind: FIELD (read @field from the record, @size bytes), TIMESTAMP,
 *     CPU, STACK (capture a stack, or read a long[] field), HITCOUNT (1),
 *     CONST (@constant), VARREF (another trigger's variable: @ref_*; the
 *     inter-event layer resolves it), UMINUS (@l), BINOP (@l @op @r, u64
 *     arithmetic with wrap-around; division by 0 at run time gives
 *     U64_MAX). Then the @flags modifiers: LOG2 (order_base_2, or with
 *     @buckets = k the low bound of a .log2=k sub-bucket), BUCKET
 *     (value / @buckets * @buckets), USECS (timestamp in us), and display
 *     flags (HEX, SYM, SYM_OFFSET, EXECNAME, SYSCALL, PERCENT, GRAPH).
 */
#ifndef _KHIST_CORE_HIST_BIND_H
#define _KHIST_CORE_HIST_BIND_H

#include "core_env.h"
#include "schema.h"
#include "hist_parse.h"

/* struct khist_bfield.flags */
#define KHIST_HF_HEX BIT(0)
#define KHIST_HF_SYM BIT(1)
#define KHIST_HF_SYM_OFFSET BIT(2)
#define KHIST_HF_EXECNAME BIT(3)
#define KHIST_HF_SYSCALL BIT(4)
#define KHIST_HF_LOG2 BIT(5)
#define KHIST_HF_BUCKET BIT(6)
#define KHIST_HF_USECS BIT(7)
#define KHIST_HF_PERCENT BIT(8)
#define KHIST_HF_GRAPH BIT(9)
#define KHIST_HF_STACKTRACE BIT(10)
#define KHIST_HF_STRING BIT(11)
#define KHIST_HF_TIMESTAMP BIT(12)
#define KHIST_HF_CPU BIT(13)
#define KHIST_HF_HITCOUNT BIT(14)
#define KHIST_HF_CONST BIT(15)
#define KHIST_HF_EXPR BIT(16)
#define KHIST_HF_VARREF BIT(17)
#define KHIST_HF_ALIAS BIT(18)
#define KHIST_HF_KEY BIT(19)
#define KHIST_HF_VAR BIT(20)
/* khist extensions (issue 23): per-entry distributions of a value */
#define KHIST_HF_STATS BIT(21)
#define KHIST_HF_QUANTILES BIT(22)
/* .log2=k (khist extension): k, 1 to this, is kept in @buckets */
#define KHIST_LOG2_SUB_MAX 16
/* a value "$var.stats" of this trigger's variable: its tree, its name */
#define KHIST_HF_VARVAL BIT(23)

enum khist_bf_kind {
	KHIST_BF_FIELD,
	KHIST_BF_TIMESTAMP,
	KHIST_BF_CPU,
	KHIST_BF_STACK,
	KHIST_BF_HITCOUNT,
	KHIST_BF_CONST,
	KHIST_BF_VARREF,
	KHIST_BF_UMINUS,
	KHIST_BF_BINOP,
};

/**
 * struct khist_bfield - one bound operand or expression node
 * @kind:      enum khist_bf_kind
 * @op:        BINOP: '+', '-', '*', '/'
 * @is_signed: value is signed (copied from the left operand in BINOP)
 * @ref_qualified: VARREF written as sys.event.$var
 * @ref_resolved:  VARREF resolved by the resolver callback
 * @ref_const: VARREF to a constant variable (value in @constant)
 * @flags:     KHIST_HF_*
 * @size:      value size in bytes (strings: slot size)
 * @field:     FIELD/STACK: the schema field (NULL for common_stacktrace)
 * @buckets:   BUCKET: bucket width; LOG2: 0 for ftrace's .log2, k for
 *             khist's .log2=k (2^k sub-buckets per power of two)
 * @constant:  CONST: the value
 * @l:         left operand (UMINUS: the operand)
 * @r:         right operand
 * @ref_sys:   VARREF: subsystem ("" if unqualified)
 * @ref_event: VARREF: event ("" if unqualified)
 * @ref_var:   VARREF: variable name, without '$'
 * @name:      the kernel's "field name" (used to match sort= entries)
 * @text:      expressions: the re-rendered text ("a-$b"); else @name
 * @var_name:  top-level variable definitions: the variable's name
 * @ref_idx:   VARREF (and alias): the reference slot the inter-event
 *             layer gave it (its value is read from there on a hit)
 */
struct khist_bfield {
	u8 kind;
	char op;
	u8 is_signed;
	u8 ref_qualified;
	u8 ref_resolved;
	u8 ref_const;
	u32 flags;
	u16 size;
	const struct khist_field_desc *field;
	u64 buckets;
	u64 constant;
	struct khist_bfield *l;
	struct khist_bfield *r;
	const char *ref_sys;
	const char *ref_event;
	const char *ref_var;
	const char *name;
	const char *text;
	const char *var_name;
	u16 ref_idx;
};

/**
 * struct khist_hkey - one key
 * @f:      its tree
 * @offset: byte offset in the compound key
 * @size:   slot size (multiple of 8)
 */
struct khist_hkey {
	struct khist_bfield *f;
	u16 offset;
	u16 size;
};

/**
 * struct khist_hvar - one variable of this trigger
 * @name:    its name
 * @f:       its tree (flags include KHIST_HF_VAR)
 * @str_idx: string/stack slot, or -1
 */
struct khist_hvar {
	const char *name;
	struct khist_bfield *f;
	int str_idx;
};

enum khist_sort_src {
	KHIST_SORT_HITCOUNT,
	KHIST_SORT_VAL,
	KHIST_SORT_KEY,
};

/**
 * struct khist_hsort - one sort key
 * @src:        enum khist_sort_src
 * @idx:        index into vals[] or keys[]
 * @descending: sort descending
 * @fig:        KHIST_SORT_VAL of a .stats or .quantiles value (khist
 *              extension): 0 sorts on the sum, k + 1 on the k-th figure
 *              hist prints after it (khist_qs_figures() order, e.g.
 *              "lat.p99")
 */
struct khist_hsort {
	u8 src;
	u8 idx;
	u8 descending;
	u8 fig;
};

/**
 * struct khist_var_info - what the resolver reports about a variable
 * @usecs:     it holds a timestamp in microseconds
 * @is_const:  it is a constant variable, of value @constant
 * @is_string: it holds a string or a stack
 * @size:      value size
 * @constant:  see @is_const
 */
struct khist_var_info {
	u8 usecs;
	u8 is_const;
	u8 is_string;
	u16 size;
	u64 constant;
};

/**
 * struct khist_bind_ops - optional lookups into the rest of the instance
 * @ctx:          passed back to the callbacks
 * @event_exists: does sys/event exist? (onmatch); NULL: assume yes
 * @var_taken:    is the name already a variable of another hist trigger on
 *                this event? ("Variable already defined"); NULL: no
 * @find_var:     look up another trigger's variable: 0 found, -ENOENT
 *                not found, -ENOTUNIQ ambiguous; NULL: leave unresolved
 * @dists:        the owner keeps per-entry distributions (qsketch.h), so
 *                the .stats and .quantiles value modifiers (khist
 *                extensions) are accepted; without it (and without ops)
 *                they are refused like any unknown modifier
 *
 * Names are passed NUL-terminated; @sys and @event are "" if the
 * reference is not qualified.
 */
struct khist_bind_ops {
	void *ctx;
	bool (*event_exists)(void *ctx, const char *sys, const char *event);
	bool (*var_taken)(void *ctx, const char *var);
	int (*find_var)(void *ctx, const char *sys, const char *event,
			const char *var, struct khist_var_info *info);
	bool dists;
};

/**
 * struct khist_hist_spec - a bound hist trigger
 * @cmd:        the parsed command (owned)
 * @schema:     the event it is bound to
 * @keys:       keys, @n_keys of them, @key_size bytes in all
 * @n_keys:     see @keys
 * @key_size:   see @keys
 * @vals:       values; vals[0] is the raw hitcount; @n_vals in all
 * @n_vals:     see @vals
 * @vars:       variables of this trigger, @n_vars of them
 * @n_vars:     see @vars
 * @n_var_str:  string/stack variable slots per entry
 * @sort:       sort keys, @n_sort (at least 1)
 * @n_sort:     see @sort
 * @map_bits:   log2 of the number of entries
 * @name:       name= value or NULL
 * @clock:      trace clock name
 * @filter:     filter text or NULL
 * @timestamps: common_timestamp is used
 * @ts_usecs:   any .usecs timestamp: all timestamps in microseconds
 * @pause:      pause attribute
 * @cont:       cont/continue attribute
 * @clear:      clear attribute
 * @nohitcount: nohitcount/NOHC attribute
 * @remove:     '!' command
 * @arena:      owns the bound trees
 * @charged:    bytes its owner charged for it (khist_hist_spec_bytes()),
 *              left to the owner
 */
struct khist_hist_spec {
	struct khist_hist_cmd *cmd;
	const struct khist_event_schema *schema;
	struct khist_hkey keys[KHIST_KEYS_MAX];
	unsigned int n_keys;
	unsigned int key_size;
	struct khist_bfield *vals[KHIST_VALS_MAX + 1];
	unsigned int n_vals;
	struct khist_hvar vars[KHIST_VARS_MAX];
	unsigned int n_vars;
	unsigned int n_var_str;
	struct khist_hsort sort[KHIST_SORT_KEYS_MAX];
	unsigned int n_sort;
	unsigned int map_bits;
	const char *name;
	const char *clock;
	const char *filter;
	u8 timestamps;
	u8 ts_usecs;
	u8 pause;
	u8 cont;
	u8 clear;
	u8 nohitcount;
	u8 remove;
	struct khist_arena arena;
	size_t charged;
};

int khist_hist_bind(struct khist_hist_cmd *cmd,
		    const struct khist_event_schema *schema,
		    const struct khist_bind_ops *ops,
		    struct khist_hist_spec **out, struct khist_hist_err *err);
void khist_hist_spec_free(struct khist_hist_spec *spec);
size_t khist_hist_spec_bytes(const struct khist_hist_spec *spec);
int khist_hist_compile(const char *text, size_t len,
		       const struct khist_event_schema *schema,
		       const struct khist_bind_ops *ops,
		       struct khist_hist_spec **out,
		       struct khist_hist_err *err);

#endif /* _KHIST_CORE_HIST_BIND_H */
