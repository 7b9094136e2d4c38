/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t2json.h - a bounded parser for one line of Git's Trace2 event stream:
 * one JSON object whose members are read into a flat table. Strings are
 * decoded into caller memory; arrays and objects are validated and kept
 * as raw text. No allocation, no recursion beyond T2J_MAX_DEPTH.
 */
#ifndef KHIST_TRACE2_JSON_H
#define KHIST_TRACE2_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define T2J_MAX_MEMBERS 32
#define T2J_MAX_DEPTH 64

enum t2j_type {
	T2J_STRING,
	T2J_NUMBER,
	T2J_TRUE,
	T2J_FALSE,
	T2J_NULL,
	T2J_ARRAY,
	T2J_OBJECT,
};

/*
 * struct t2j_val - one member value.
 * @type: what it is
 * @raw: its text in the line (for a string: with the quotes)
 * @raw_len: length of @raw
 * @str: T2J_STRING: the decoded bytes, NUL-terminated (may hold NULs)
 * @len: length of @str
 */
struct t2j_val {
	enum t2j_type type;
	const char *raw;
	size_t raw_len;
	const char *str;
	size_t len;
};

struct t2j_member {
	const char *key;
	struct t2j_val v;
};

/*
 * struct t2j_obj - a parsed line.
 * @n: members read
 * @m: the members, in line order
 * @err: on failure, a short reason
 * @err_pos: on failure, the byte offset where it was found
 */
struct t2j_obj {
	unsigned int n;
	struct t2j_member m[T2J_MAX_MEMBERS];
	const char *err;
	size_t err_pos;
};

/* Scratch bytes t2j_parse() may need for a line of @len bytes. */
#define T2J_SCRATCH(len) ((len) + 2 * T2J_MAX_MEMBERS + 8)

int t2j_parse(const char *line, size_t len, struct t2j_obj *o, char *scratch,
	      size_t scratch_size);
const struct t2j_val *t2j_get(const struct t2j_obj *o, const char *key);
int t2j_str_array(const struct t2j_val *v, const char *sep, char *out,
		  size_t out_size, unsigned int *count, bool *clipped);
int t2j_str_elem(const struct t2j_val *v, unsigned int idx, char *out,
		 size_t out_size);
int t2j_int(const struct t2j_val *v, int64_t *out);
int t2j_usec(const char *s, size_t len, uint64_t *out);

#endif
