// SPDX-License-Identifier: GPL-2.0
/*
 * trace2_fuzz.c - libFuzzer target: the Trace2 line reader and mapper of
 * khist-trace2 (tools/trace2/t2json.c, t2map.c).
 *
 * The input is a piece of a Trace2 event stream: lines split on '\n',
 * each handed over in a buffer of exactly its length (ASan sees any read
 * past it), all through one mapper so the per-process state (command
 * names, child tables, summaries) is exercised across lines. Checked,
 * besides "no sanitizer report":
 *   - the reader: a failure has a reason and a position inside the line;
 *     on success every member's raw text lies inside the line, decoded
 *     strings are no longer than their text and end in NUL, arrays of
 *     strings join within the room given;
 *   - the mapper: every line is counted once (malformed or one event);
 *     every record's payload fits T2_PAYLOAD_MAX and decodes again with
 *     its event's layout (every locator inside the payload, NUL-ended),
 *     char[N] fields shorter than N, the same numbers read back;
 *   - nothing stays allocated (ASan's leak check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/trace2/t2json.h"
#include "../../tools/trace2/t2map.h"

static void check(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "trace2_fuzz: %s\n", what);
	abort();
}

static unsigned long records;

static void fz_emit(void *ctx, const struct t2_rec *r,
		    const unsigned char *payload, size_t len)
{
	const struct t2_fmt *fmt = t2_map_fmt((unsigned int)r->ev);
	unsigned char *copy = malloc(len ? len : 1);
	struct t2_rec d;
	unsigned int i;

	check(!!copy, "out of memory");
	check(len <= T2_PAYLOAD_MAX, "payload over T2_PAYLOAD_MAX");
	check(len >= fmt->fixed, "payload shorter than its fixed part");
	memcpy(copy, payload, len);
	check(!t2_decode(&d, fmt, copy, len), "payload does not decode");
	for (i = 0; i < fmt->nf; i++) {
		const struct t2_field *f = &fmt->f[i];

		if (f->type == T2F_CHAR)
			check(d.v[i].len < f->size,
			      "char[N] field not NUL-ended");
		else if (f->type != T2F_REL && f->type != T2F_DATA &&
			 f->size == 8)
			check(d.v[i].n == r->v[i].n,
			      "number read back differs");
		else if (f->type == T2F_REL)
			check(d.v[i].len <= T2_TEXT_MAX,
			      "text over T2_TEXT_MAX");
	}
	free(copy);
	records++;
	(void)ctx;
}

static void check_obj(const char *line, size_t len)
{
	size_t need = T2J_SCRATCH(len);
	char *scratch = malloc(need), out[64];
	struct t2j_obj o;
	unsigned int i, n;
	bool clipped = false;

	check(!!scratch, "out of memory");
	if (t2j_parse(line, len, &o, scratch, need)) {
		check(!!o.err, "failure without a reason");
		check(o.err_pos <= len, "failure position past the line");
		free(scratch);
		return;
	}
	check(o.n <= T2J_MAX_MEMBERS, "too many members");
	for (i = 0; i < o.n; i++) {
		const struct t2j_val *v = &o.m[i].v;

		check(v->raw >= line && v->raw + v->raw_len <= line + len,
		      "value text outside the line");
		if (v->type == T2J_STRING) {
			check(v->str >= scratch &&
				      v->str + v->len < scratch + need,
			      "string outside the scratch space");
			check(v->len <= v->raw_len,
			      "decoded string longer than its text");
			check(v->str[v->len] == 0, "string not NUL-ended");
		}
		if (v->type == T2J_ARRAY &&
		    !t2j_str_array(v, " <- ", out, sizeof(out), &n, &clipped))
			check(strlen(out) < sizeof(out),
			      "joined array overflows");
	}
	free(scratch);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct t2_out out = { .emit = fz_emit };
	const struct t2_stats *st;
	struct t2_mapper *m = t2_map_new(&out);
	uint64_t sum = 0, lines = 0;
	size_t start = 0, i, len;
	char *line, key[48];
	unsigned int ev;

	check(!!m, "no mapper");
	for (i = 0; i <= size; i++) {
		if (i < size && data[i] != '\n')
			continue;
		len = i - start;
		line = malloc(len ? len : 1);
		check(!!line, "out of memory");
		memcpy(line, data + start, len);
		check_obj(line, len);
		t2_map_line(m, line, len, (int)(lines & 1) * 4242, key,
			    sizeof(key));
		free(line);
		lines++;
		start = i + 1;
	}
	t2_map_end_all(m);
	st = t2_map_stats(m);
	for (ev = 0; ev < T2E_NR; ev++)
		sum += st->per_event[ev];
	check(st->lines == lines, "lines miscounted");
	check(st->malformed + sum == lines,
	      "a line neither malformed nor an event");
	t2_map_free(m);
	return 0;
}
