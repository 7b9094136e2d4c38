/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_json.h - `hist_json`, a khist extension: the data of the `hist`
 * file as one RFC 8259 JSON document, schema version KHIST_JSON_VERSION
 * (Documentation/hist_json.rst, Documentation/hist_json.schema.json).
 *
 * Two layers:
 *   - struct khist_json, a streaming writer: every call appends a little
 *     text through the owner's write callback (a seq_file, a buffer), so
 *     a table of any size is written entry by entry with no allocation.
 *     It inserts the commas, escapes strings (control characters, '"',
 *     '\', and any byte that is not part of valid UTF-8 as \u00XX; the
 *     hist layer then adds the exact bytes in hex beside) and
 *     checks the nesting: misuse is reported by khist_json_end(), never
 *     a malformed document silently.
 *   - the hist layer: khist_hjson_table_begin() describes one trigger
 *     (text, keys, values, sort, variables) and opens its entries;
 *     khist_hjson_entry() writes one entry (keys with their raw values
 *     and the modifiers' renderings, values, .stats/.quantiles, set
 *     variables, saved onmax/onchange values) in the order the caller
 *     sorted them; khist_hjson_table_end() writes the totals.
 *
 * What the core cannot know (symbols, syscall names, whether this reader
 * may see kernel addresses) comes from struct khist_hjson_ops.
 */
#ifndef _KHIST_CORE_HIST_JSON_H
#define _KHIST_CORE_HIST_JSON_H

#include "core_env.h"
#include "hist_bind.h"
#include "qsketch.h"

#define KHIST_JSON_VERSION 1
#define KHIST_JSON_DEPTH 16

/**
 * struct khist_json - streaming JSON writer
 * @write: appends @n bytes of @s to the output
 * @ctx:   passed to @write
 * @depth: open objects and arrays
 * @first: bit d set while the container at depth d has no member yet
 * @obj:   bit d set when the container at depth d is an object
 * @err:   0, or -EINVAL after a misuse (further calls do nothing)
 */
struct khist_json {
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
	unsigned int depth;
	u32 first;
	u32 obj;
	int err;
};

void khist_json_init(struct khist_json *j,
		     void (*write)(void *ctx, const char *s, size_t n),
		     void *ctx);
void khist_json_obj_begin(struct khist_json *j, const char *name);
void khist_json_obj_end(struct khist_json *j);
void khist_json_arr_begin(struct khist_json *j, const char *name);
void khist_json_arr_end(struct khist_json *j);
void khist_json_str(struct khist_json *j, const char *name, const char *s);
void khist_json_strn(struct khist_json *j, const char *name, const char *s,
		     size_t n);
void khist_json_u64(struct khist_json *j, const char *name, u64 v);
void khist_json_s64(struct khist_json *j, const char *name, s64 v);
void khist_json_bool(struct khist_json *j, const char *name, bool v);
void khist_json_null(struct khist_json *j, const char *name);
int khist_json_end(struct khist_json *j);

/**
 * struct khist_hjson_ops - what the owner renders for the core
 * @ctx:          passed back
 * @symbol:       writes the symbol of @addr ("func" for .sym, with
 *                "+off/size" for .sym-offset and stack entries) into
 *                @buf (NUL-terminated); returns its length, 0 if none
 * @syscall_name: the name of syscall @nr, or NULL if unknown
 * @addr_hidden:  true when this reader may not see kernel address @v: the
 *                raw value is then written as @buf (the owner's hashed
 *                form, e.g. %p) in a string instead of a number
 * @hash:         writes the owner's hashed form of @v into @buf, for a
 *                number that would give an address back (the sum of
 *                address values), whatever its value
 *
 * Every callback may be NULL (no symbol, no syscall names, nothing
 * hidden).
 */
struct khist_hjson_ops {
	void *ctx;
	int (*symbol)(void *ctx, u64 addr, bool offset, char *buf, size_t size);
	const char *(*syscall_name)(void *ctx, u64 nr);
	bool (*addr_hidden)(void *ctx, u64 v, char *buf, size_t size);
	void (*hash)(void *ctx, u64 v, char *buf, size_t size);
};

/**
 * struct khist_hjson_saved - values an onmax/onchange handler saved
 * @handler:  its text, e.g. "onmax($lat)"
 * @track:    the tracked value (the max, or the last changed value)
 * @n:        saved fields
 * @names:    their names
 * @vals:     their values
 */
struct khist_hjson_saved {
	const char *handler;
	u64 track;
	unsigned int n;
	const char *const *names;
	const u64 *vals;
};

/**
 * struct khist_hjson_entry - one entry, as the owner read it
 * @key:     the compound key bytes (spec->key_size)
 * @comm:    the comm saved for a .execname key, or NULL
 * @sums:    spec->n_vals sums (sums[0]: the raw hitcount)
 * @qs:      per value, its merged distribution for .stats/.quantiles
 *           values (NULL elsewhere); NULL when there is none
 * @vars:    spec->n_vars variable values (numeric variables), or NULL
 * @var_set: which of @vars are set
 * @saved:   @n_saved handler records (onmax/onchange), or NULL
 * @n_saved: see @saved
 */
struct khist_hjson_entry {
	const u8 *key;
	const char *comm;
	const u64 *sums;
	const struct khist_qs_snap *const *qs;
	const u64 *vars;
	const bool *var_set;
	const struct khist_hjson_saved *saved;
	unsigned int n_saved;
};

/**
 * struct khist_hjson_totals - the Totals of one table
 * @hits:         hits, as `hist` prints them
 * @entries:      entries written
 * @dropped:      keys the map refused
 * @lost:         hits that never reached the table (khist's Lost line)
 * @grow_refused: growths refused by the memory limit
 */
struct khist_hjson_totals {
	u64 hits;
	u64 entries;
	u64 dropped;
	u64 lost;
	u64 grow_refused;
};

void khist_hjson_doc_begin(struct khist_json *j, const char *system,
			   const char *event);
void khist_hjson_doc_end(struct khist_json *j);
void khist_hjson_table_begin(struct khist_json *j,
			     const struct khist_hist_spec *sp,
			     const char *trigger_text, bool paused);
void khist_hjson_entry(struct khist_json *j, const struct khist_hist_spec *sp,
		       const struct khist_hjson_ops *ops,
		       const struct khist_hjson_entry *e);
void khist_hjson_table_end(struct khist_json *j,
			   const struct khist_hjson_totals *t);

#endif /* _KHIST_CORE_HIST_JSON_H */
