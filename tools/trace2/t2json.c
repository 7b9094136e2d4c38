// SPDX-License-Identifier: GPL-2.0
/*
 * t2json.c - the JSON reader of khist-trace2: one Trace2 line (one JSON
 * object) into a flat member table. Strict JSON (RFC 8259) except that
 * bytes >= 0x80 are taken as they come (Git writes paths raw, not always
 * UTF-8). Every read is bounded by the line's length; nothing is
 * allocated. Fuzzed by selftests/fuzz/trace2_fuzz.c.
 */
#include <string.h>

#include "t2json.h"

struct cur {
	const char *p;
	const char *start;
	const char *end;
	const char *err;
};

static int fail(struct cur *c, const char *why)
{
	if (!c->err)
		c->err = why;
	return -1;
}

static void skip_ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
				 *c->p == '\r' || *c->p == '\n'))
		c->p++;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Four hex digits after "\u" at c->p; moves past them. */
static int read_hex4(struct cur *c, unsigned int *out)
{
	unsigned int v = 0;
	int i, d;

	if (c->end - c->p < 4)
		return fail(c, "short \\u escape");
	for (i = 0; i < 4; i++) {
		d = hexval(c->p[i]);
		if (d < 0)
			return fail(c, "bad \\u escape");
		v = v << 4 | (unsigned int)d;
	}
	c->p += 4;
	*out = v;
	return 0;
}

struct sink {
	char *out;
	size_t cap;
	size_t len;
	bool clipped;
};

static void put(struct sink *s, const char *b, size_t n)
{
	size_t room = s->len < s->cap ? s->cap - s->len : 0;

	if (n > room) {
		s->clipped = true;
		n = room;
	}
	if (n && s->out)
		memcpy(s->out + s->len, b, n);
	s->len += n;
}

static void put_utf8(struct sink *s, unsigned int cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	/* A character is kept whole or not at all. */
	if (s->len + n > s->cap) {
		s->clipped = true;
		s->cap = s->len;
		return;
	}
	put(s, b, n);
}

/*
 * A string at c->p (on its opening quote): checked to its end, decoded
 * into @s as far as it has room. The decoded form is never longer than
 * the text.
 */
static int scan_string(struct cur *c, struct sink *s)
{
	unsigned int cp, lo;
	char ch;

	c->p++;
	for (;;) {
		if (c->p >= c->end)
			return fail(c, "unterminated string");
		ch = *c->p++;
		if (ch == '"')
			return 0;
		if ((unsigned char)ch < 0x20)
			return fail(c, "control character in string");
		if (ch != '\\') {
			put(s, &ch, 1);
			continue;
		}
		if (c->p >= c->end)
			return fail(c, "unterminated string");
		ch = *c->p++;
		switch (ch) {
		case '"':
		case '\\':
		case '/':
			break;
		case 'b':
			ch = '\b';
			break;
		case 'f':
			ch = '\f';
			break;
		case 'n':
			ch = '\n';
			break;
		case 'r':
			ch = '\r';
			break;
		case 't':
			ch = '\t';
			break;
		case 'u':
			if (read_hex4(c, &cp))
				return -1;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail(c, "lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (c->end - c->p < 2 || c->p[0] != '\\' ||
				    c->p[1] != 'u')
					return fail(c, "lone high surrogate");
				c->p += 2;
				if (read_hex4(c, &lo))
					return -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(c, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
			}
			put_utf8(s, cp);
			continue;
		default:
			return fail(c, "bad escape");
		}
		put(s, &ch, 1);
	}
}

static bool digit(const struct cur *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

static int scan_number(struct cur *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (!digit(c))
		return fail(c, "bad number");
	if (*c->p == '0')
		c->p++;
	else
		while (digit(c))
			c->p++;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!digit(c))
			return fail(c, "bad fraction");
		while (digit(c))
			c->p++;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!digit(c))
			return fail(c, "bad exponent");
		while (digit(c))
			c->p++;
	}
	return 0;
}

static int scan_word(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n))
		return fail(c, "bad literal");
	c->p += n;
	return 0;
}

static int scan_value(struct cur *c, unsigned int depth, enum t2j_type *type);

/* An array or object at c->p, checked and skipped. */
static int scan_nested(struct cur *c, unsigned int depth, bool object)
{
	const char close = object ? '}' : ']';
	struct sink none = { 0 };
	enum t2j_type t;

	if (depth >= T2J_MAX_DEPTH)
		return fail(c, "nested too deep");
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 0;
	}
	for (;;) {
		if (object) {
			if (c->p >= c->end || *c->p != '"')
				return fail(c, "expected a key");
			if (scan_string(c, &none))
				return -1;
			skip_ws(c);
			if (c->p >= c->end || *c->p != ':')
				return fail(c, "expected ':'");
			c->p++;
			skip_ws(c);
		}
		if (scan_value(c, depth + 1, &t))
			return -1;
		skip_ws(c);
		if (c->p >= c->end)
			return fail(c, "unterminated array or object");
		if (*c->p == close) {
			c->p++;
			return 0;
		}
		if (*c->p != ',')
			return fail(c, "expected ',' or a closing bracket");
		c->p++;
		skip_ws(c);
	}
}

static int scan_value(struct cur *c, unsigned int depth, enum t2j_type *type)
{
	struct sink none = { 0 };

	if (c->p >= c->end)
		return fail(c, "missing value");
	switch (*c->p) {
	case '"':
		*type = T2J_STRING;
		return scan_string(c, &none);
	case '{':
		*type = T2J_OBJECT;
		return scan_nested(c, depth, true);
	case '[':
		*type = T2J_ARRAY;
		return scan_nested(c, depth, false);
	case 't':
		*type = T2J_TRUE;
		return scan_word(c, "true");
	case 'f':
		*type = T2J_FALSE;
		return scan_word(c, "false");
	case 'n':
		*type = T2J_NULL;
		return scan_word(c, "null");
	default:
		*type = T2J_NUMBER;
		return scan_number(c);
	}
}

/* Decode the string at c->p into scratch, NUL-terminated. */
static int take_string(struct cur *c, struct sink *s, const char **str,
		       size_t *len)
{
	size_t at = s->len;

	if (scan_string(c, s))
		return -1;
	put(s, "", 1);
	if (s->clipped)
		return fail(c, "scratch space exhausted");
	*str = s->out + at;
	*len = s->len - at - 1;
	return 0;
}

/**
 * t2j_parse() - read one line of the Trace2 event stream.
 * @line: the line, without its newline (need not be NUL-terminated)
 * @len: its length
 * @o: the member table to fill
 * @scratch: memory for the decoded keys and strings
 * @scratch_size: its size, at least T2J_SCRATCH(@len)
 *
 * The line must hold exactly one JSON object (white space around it is
 * allowed). Member keys and string values are decoded into @scratch;
 * other values point into @line.
 *
 * Context: any; does not allocate.
 * Return: 0, or -1 with @o->err and @o->err_pos set.
 */
int t2j_parse(const char *line, size_t len, struct t2j_obj *o, char *scratch,
	      size_t scratch_size)
{
	struct cur c = { .p = line, .start = line, .end = line + len };
	struct sink s = { .out = scratch, .cap = scratch_size };
	struct t2j_member *m;
	const char *at;
	size_t klen;

	o->n = 0;
	o->err = NULL;
	o->err_pos = 0;
	skip_ws(&c);
	if (c.p >= c.end || *c.p != '{') {
		fail(&c, "not an object");
		goto out;
	}
	c.p++;
	skip_ws(&c);
	if (c.p < c.end && *c.p == '}') {
		c.p++;
		goto tail;
	}
	for (;;) {
		if (o->n == T2J_MAX_MEMBERS) {
			fail(&c, "too many members");
			goto out;
		}
		m = &o->m[o->n];
		if (c.p >= c.end || *c.p != '"') {
			fail(&c, "expected a key");
			goto out;
		}
		if (take_string(&c, &s, &m->key, &klen))
			goto out;
		skip_ws(&c);
		if (c.p >= c.end || *c.p != ':') {
			fail(&c, "expected ':'");
			goto out;
		}
		c.p++;
		skip_ws(&c);
		at = c.p;
		if (c.p < c.end && *c.p == '"') {
			m->v.type = T2J_STRING;
			if (take_string(&c, &s, &m->v.str, &m->v.len))
				goto out;
		} else {
			if (scan_value(&c, 1, &m->v.type))
				goto out;
			m->v.str = NULL;
			m->v.len = 0;
		}
		m->v.raw = at;
		m->v.raw_len = (size_t)(c.p - at);
		o->n++;
		skip_ws(&c);
		if (c.p >= c.end) {
			fail(&c, "unterminated object");
			goto out;
		}
		if (*c.p == '}') {
			c.p++;
			break;
		}
		if (*c.p != ',') {
			fail(&c, "expected ',' or '}'");
			goto out;
		}
		c.p++;
		skip_ws(&c);
	}
tail:
	skip_ws(&c);
	if (c.p != c.end)
		fail(&c, "text after the object");
out:
	if (!c.err)
		return 0;
	o->err = c.err;
	o->err_pos = (size_t)(c.p - c.start);
	return -1;
}

/**
 * t2j_get() - a member by key.
 * @o: a parsed line
 * @key: the key
 *
 * Context: any.
 * Return: the first member value with that key, or NULL.
 */
const struct t2j_val *t2j_get(const struct t2j_obj *o, const char *key)
{
	unsigned int i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->m[i].key, key))
			return &o->m[i].v;
	return NULL;
}

/**
 * t2j_str_array() - an array of strings, decoded and joined.
 * @v: the value (an array already checked by t2j_parse())
 * @sep: what goes between two elements
 * @out: the joined text, NUL-terminated, clipped to @out_size - 1 bytes
 * @out_size: size of @out, at least 1
 * @count: out: the number of elements
 * @clipped: out: set when @out could not hold everything
 *
 * Context: any.
 * Return: 0, or -1 if @v is not an array of strings only.
 */
int t2j_str_array(const struct t2j_val *v, const char *sep, char *out,
		  size_t out_size, unsigned int *count, bool *clipped)
{
	struct cur c;
	struct sink s = { .out = out, .cap = out_size - 1 };

	*count = 0;
	out[0] = 0;
	if (v->type != T2J_ARRAY)
		return -1;
	c = (struct cur){ .p = v->raw,
			  .start = v->raw,
			  .end = v->raw + v->raw_len };
	c.p++;
	skip_ws(&c);
	if (c.p < c.end && *c.p == ']')
		goto done;
	for (;;) {
		if (c.p >= c.end || *c.p != '"')
			return -1;
		if (*count)
			put(&s, sep, strlen(sep));
		if (scan_string(&c, &s))
			return -1;
		(*count)++;
		skip_ws(&c);
		if (c.p >= c.end)
			return -1;
		if (*c.p == ']')
			break;
		if (*c.p != ',')
			return -1;
		c.p++;
		skip_ws(&c);
	}
done:
	out[s.len] = 0;
	if (s.clipped)
		*clipped = true;
	return 0;
}

/**
 * t2j_int() - an integer member.
 * @v: the value
 * @out: the integer
 *
 * Context: any.
 * Return: 0, or -1 if @v is not a JSON integer (no fraction, no exponent)
 * that fits 64 signed bits.
 */
int t2j_int(const struct t2j_val *v, int64_t *out)
{
	const char *p = v->raw, *end = v->raw + v->raw_len;
	bool neg = false;
	uint64_t n = 0, lim;

	if (v->type != T2J_NUMBER)
		return -1;
	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (p == end)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (n > (lim - (uint64_t)(*p - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*out = neg ? (int64_t)(0 - n) : (int64_t)n;
	return 0;
}

/**
 * t2j_usec() - decimal seconds, as Git prints them ("%.6f"), in whole
 * microseconds, with no floating point: digits past the sixth decimal are
 * dropped, missing ones count as zeros.
 * @s: the text
 * @len: its length
 * @out: microseconds
 *
 * Context: any.
 * Return: 0, or -1 if @s is not a non-negative decimal that fits.
 */
int t2j_usec(const char *s, size_t len, uint64_t *out)
{
	const char *p = s, *end = s + len;
	uint64_t sec = 0, frac = 0;
	unsigned int nd = 0;

	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000 - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && *p == '.') {
		p++;
		if (p == end || *p < '0' || *p > '9')
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (nd < 6) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nd++;
			}
	}
	if (p != end)
		return -1;
	for (; nd < 6; nd++)
		frac *= 10;
	*out = sec * 1000000 + frac;
	return 0;
}

/**
 * t2j_str_elem() - one string of an array, decoded.
 * @v: the value (an array already checked by t2j_parse())
 * @idx: which element, from 0
 * @out: the string, NUL-terminated, clipped to @out_size - 1 bytes
 * @out_size: size of @out, at least 1
 *
 * Context: any.
 * Return: 0, or -1 if there is no such element or it is not a string.
 */
int t2j_str_elem(const struct t2j_val *v, unsigned int idx, char *out,
		 size_t out_size)
{
	struct sink s = { .out = out, .cap = out_size - 1 };
	unsigned int i = 0;
	enum t2j_type t;
	struct cur c;

	out[0] = 0;
	if (v->type != T2J_ARRAY)
		return -1;
	c = (struct cur){ .p = v->raw,
			  .start = v->raw,
			  .end = v->raw + v->raw_len };
	c.p++;
	skip_ws(&c);
	for (;;) {
		if (c.p >= c.end || *c.p == ']')
			return -1;
		if (i == idx) {
			if (*c.p != '"' || scan_string(&c, &s))
				return -1;
			out[s.len] = 0;
			return 0;
		}
		if (scan_value(&c, 1, &t))
			return -1;
		i++;
		skip_ws(&c);
		if (c.p >= c.end || *c.p != ',')
			return -1;
		c.p++;
		skip_ws(&c);
	}
}
