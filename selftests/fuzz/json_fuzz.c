// SPDX-License-Identifier: GPL-2.0
/*
 * json_fuzz.c - libFuzzer target for the hist_json writer (hist_json.c):
 * the input is a sequence of writer calls (open/close objects and arrays,
 * strings of arbitrary bytes, numbers, true/false/null, with or without a
 * member name). A reference model of the nesting, written independently,
 * says whether the sequence is a valid document; khist_json_end() must
 * agree. A valid document is parsed back by a strict RFC 8259 parser
 * (below): every string must decode to the code points of its input bytes
 * (valid UTF-8 kept, any other byte as U+0080..U+00FF), every number to
 * its value, and nothing may follow the document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist_json.h"

#define OUT_MAX (1 << 20)
#define EXP_MAX 4096

static char out[OUT_MAX];
static size_t out_len;
static bool out_full;

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "json_fuzz: %s\n", what);
		abort();
	}
}

static void wr(void *ctx, const char *s, size_t n)
{
	if (out_len + n > OUT_MAX) {
		out_full = true;
		return;
	}
	memcpy(out + out_len, s, n);
	out_len += n;
}

/* What the parser must find, in document order. */
struct tok {
	int kind; /* 's' string, 'u' u64, 'i' s64, 't', 'f', 'n' */
	u32 cp[64];
	unsigned int n_cp;
	u64 u;
};

static struct tok exp_t[EXP_MAX], got_t[EXP_MAX];
static unsigned int n_exp, n_got;

/* Code points the writer must produce for @n bytes of @s (to a NUL). */
static void expect_str(const u8 *s, size_t n)
{
	struct tok *t = &exp_t[n_exp++];
	size_t i = 0, len, k;
	u32 cp;

	t->kind = 's';
	t->n_cp = 0;
	while (i < n && s[i]) {
		len = 0;
		if (s[i] >= 0xc2 && s[i] <= 0xf4) {
			len = s[i] < 0xe0 ? 2 : s[i] < 0xf0 ? 3 : 4;
			if (i + len > n)
				len = 0;
			cp = s[i] & (0x7f >> len);
			for (k = 1; len && k < len; k++) {
				if ((s[i + k] & 0xc0) != 0x80)
					len = 0;
				else
					cp = (cp << 6) | (s[i + k] & 0x3f);
			}
			if (len &&
			    ((len == 3 && cp < 0x800) ||
			     (len == 4 && cp < 0x10000) ||
			     (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff))
				len = 0;
		}
		if (len) {
			t->cp[t->n_cp++] = cp;
			i += len;
		} else {
			t->cp[t->n_cp++] = s[i++];
		}
	}
}

/* A strict parser: RFC 8259 values, UTF-8 checked, tokens collected. */
static const u8 *p, *pe;

static void ws(void)
{
	while (p < pe && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
}

static bool parse_value(int depth);

static u32 hexv(u8 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

static bool parse_string(void)
{
	struct tok *t = &got_t[n_got++];
	u32 cp, h;
	int k, len;

	check(n_got <= EXP_MAX, "too many tokens");
	t->kind = 's';
	t->n_cp = 0;
	if (p >= pe || *p++ != '"')
		return false;
	for (;;) {
		if (p >= pe)
			return false;
		if (*p == '"') {
			p++;
			return true;
		}
		if (*p < 0x20)
			return false;
		if (*p == '\\') {
			p++;
			if (p >= pe)
				return false;
			switch (*p++) {
			case '"':
				cp = '"';
				break;
			case '\\':
				cp = '\\';
				break;
			case '/':
				cp = '/';
				break;
			case 'b':
				cp = 8;
				break;
			case 'f':
				cp = 12;
				break;
			case 'n':
				cp = 10;
				break;
			case 'r':
				cp = 13;
				break;
			case 't':
				cp = 9;
				break;
			case 'u':
				if (pe - p < 4)
					return false;
				cp = 0;
				for (k = 0; k < 4; k++) {
					h = hexv(*p++);
					if (h > 15)
						return false;
					cp = cp << 4 | h;
				}
				/* The writer never needs surrogates. */
				if (cp >= 0xd800 && cp <= 0xdfff)
					return false;
				break;
			default:
				return false;
			}
		} else if (*p < 0x80) {
			cp = *p++;
		} else {
			len = *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
			if (*p < 0xc2 || *p > 0xf4 || pe - p < len)
				return false;
			cp = *p & (0x7f >> len);
			for (k = 1; k < len; k++) {
				if ((p[k] & 0xc0) != 0x80)
					return false;
				cp = cp << 6 | (p[k] & 0x3f);
			}
			if ((len == 3 && cp < 0x800) ||
			    (len == 4 && cp < 0x10000) ||
			    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
				return false;
			p += len;
		}
		if (t->n_cp >= ARRAY_SIZE(t->cp))
			return false;
		t->cp[t->n_cp++] = cp;
	}
}

static bool parse_number(void)
{
	struct tok *t = &got_t[n_got++];
	bool neg = false;
	u64 v = 0;

	check(n_got <= EXP_MAX, "too many tokens");
	if (*p == '-') {
		neg = true;
		p++;
	}
	if (p >= pe || *p < '0' || *p > '9')
		return false;
	/* No leading zeros, no fraction or exponent from this writer. */
	if (*p == '0' && p + 1 < pe && p[1] >= '0' && p[1] <= '9')
		return false;
	while (p < pe && *p >= '0' && *p <= '9') {
		check(v <= (U64_MAX - (*p - '0')) / 10, "number too large");
		v = v * 10 + (*p++ - '0');
	}
	t->kind = neg ? 'i' : 'u';
	t->u = neg ? -v : v;
	return true;
}

static bool lit(const char *w, int kind)
{
	size_t n = strlen(w);

	if ((size_t)(pe - p) < n || memcmp(p, w, n))
		return false;
	p += n;
	got_t[n_got++].kind = kind;
	return true;
}

static bool parse_value(int depth)
{
	bool first = true;

	if (depth > 64)
		return false;
	ws();
	if (p >= pe)
		return false;
	switch (*p) {
	case '{':
		p++;
		for (;;) {
			ws();
			if (p < pe && *p == '}' && first) {
				p++;
				return true;
			}
			if (!first) {
				if (p < pe && *p == '}') {
					p++;
					return true;
				}
				if (p >= pe || *p++ != ',')
					return false;
				ws();
			}
			first = false;
			if (!parse_string())
				return false;
			ws();
			if (p >= pe || *p++ != ':')
				return false;
			if (!parse_value(depth + 1))
				return false;
			ws();
		}
	case '[':
		p++;
		for (;;) {
			ws();
			if (p < pe && *p == ']' && first) {
				p++;
				return true;
			}
			if (!first) {
				if (p < pe && *p == ']') {
					p++;
					return true;
				}
				if (p >= pe || *p++ != ',')
					return false;
			}
			first = false;
			if (!parse_value(depth + 1))
				return false;
			ws();
		}
	case '"':
		return parse_string();
	case 't':
		return lit("true", 't');
	case 'f':
		return lit("false", 'f');
	case 'n':
		return lit("null", 'n');
	default:
		return parse_number();
	}
}

/* The reference model of the nesting (independent of hist_json.c). */
static int m_depth;
static bool m_obj[KHIST_JSON_DEPTH + 1], m_any[KHIST_JSON_DEPTH + 1];
static bool m_bad;

static bool m_member(bool named)
{
	if (m_bad)
		return false;
	if ((!m_depth && m_any[0]) || m_obj[m_depth] != named) {
		m_bad = true;
		return false;
	}
	m_any[m_depth] = true;
	return true;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const char *const names[] = { "a", "b\"", "\xff", "" };
	const u8 *in = data, *end = data + size;
	struct khist_json j;
	const char *name;
	size_t n;
	u64 v;
	u8 op;
	int ret;

	out_len = 0;
	out_full = false;
	n_exp = 0;
	n_got = 0;
	m_depth = 0;
	m_bad = false;
	memset(m_obj, 0, sizeof(m_obj));
	memset(m_any, 0, sizeof(m_any));
	khist_json_init(&j, wr, NULL);
	while (in < end && n_exp < EXP_MAX - 2) {
		op = *in++;
		name = op & 0x80 ? names[(op >> 5) & 3] : NULL;
		/* Everything but a close is a member (or the top value). */
		if ((op & 7) != 2 && (op & 7) != 3 && m_member(name) && name)
			expect_str((const u8 *)name, SIZE_MAX);
		switch (op & 7) {
		case 0:
		case 1:
			if (op & 1)
				khist_json_arr_begin(&j, name);
			else
				khist_json_obj_begin(&j, name);
			if (m_bad)
				break;
			if (m_depth + 1 >= KHIST_JSON_DEPTH) {
				m_bad = true;
				break;
			}
			m_depth++;
			m_obj[m_depth] = !(op & 1);
			m_any[m_depth] = false;
			break;
		case 2:
			khist_json_obj_end(&j);
			if (!m_bad && (!m_depth || !m_obj[m_depth]))
				m_bad = true;
			else if (!m_bad)
				m_depth--;
			break;
		case 3:
			khist_json_arr_end(&j);
			if (!m_bad && (!m_depth || m_obj[m_depth]))
				m_bad = true;
			else if (!m_bad)
				m_depth--;
			break;
		case 4:
			n = in < end ? *in++ % 48 : 0;
			n = min_t(size_t, n, (size_t)(end - in));
			khist_json_strn(&j, name, (const char *)in, n);
			if (!m_bad)
				expect_str(in, n);
			in += n;
			break;
		case 5:
		case 6:
			v = 0;
			for (n = 0; n < 8 && in < end; n++)
				v = v << 8 | *in++;
			if (op & 0x10)
				v >>= (op >> 3) & 63;
			if ((op & 7) == 5)
				khist_json_u64(&j, name, v);
			else
				khist_json_s64(&j, name, (s64)v);
			if (!m_bad) {
				exp_t[n_exp].kind =
					(op & 7) == 6 && (s64)v < 0 ? 'i' : 'u';
				exp_t[n_exp++].u = v;
			}
			break;
		default:
			if (op & 0x40) {
				khist_json_null(&j, name);
				if (!m_bad)
					exp_t[n_exp++].kind = 'n';
			} else {
				khist_json_bool(&j, name, op & 0x20);
				if (!m_bad)
					exp_t[n_exp++].kind = op & 0x20 ? 't' :
									  'f';
			}
		}
		/* A misused close or open was refused before its member. */
		if (m_bad)
			break;
	}
	/* Valid only with one complete value at the top. */
	if (!m_bad && (m_depth || !m_any[0]))
		m_bad = true;
	ret = khist_json_end(&j);
	check(!!ret == m_bad,
	      m_bad ? "misuse not reported" : "valid document refused");
	if (ret || out_full)
		return 0;
	p = (const u8 *)out;
	pe = p + out_len;
	check(parse_value(0), "output is not JSON");
	ws();
	check(p == pe, "text after the document");
	check(n_got == n_exp, "token count");
	for (n = 0; n < n_exp; n++) {
		check(got_t[n].kind == exp_t[n].kind, "token kind");
		if (exp_t[n].kind == 's')
			check(got_t[n].n_cp == exp_t[n].n_cp &&
				      !memcmp(got_t[n].cp, exp_t[n].cp,
					      exp_t[n].n_cp * sizeof(u32)),
			      "string round trip");
		else if (exp_t[n].kind == 'u' || exp_t[n].kind == 'i')
			check(got_t[n].u == exp_t[n].u, "number round trip");
	}
	return 0;
}
