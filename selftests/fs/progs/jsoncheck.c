// SPDX-License-Identifier: GPL-2.0
/*
 * jsoncheck FILE - check that FILE holds exactly one JSON text as RFC 8259
 * defines it (grammar, string escapes, no control characters in strings,
 * valid UTF-8, nothing but whitespace around it). The guest of the VM
 * tests has no python3; this is its `python3 -m json.tool`.
 *
 * Exit 0 when valid, after printing every scalar as "PATH VALUE", one a
 * line, PATH the members and indices from the root joined by '.'
 * (triggers.0.totals.hits 42), VALUE as written (strings with their
 * quotes and escapes): tests compare them with `hist` using grep and awk.
 * Exit 1 with "jsoncheck: offset N: what" on stderr when invalid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH_MAX 64
#define PATH_MAX_LEN 4096

static const unsigned char *p, *end;
static const unsigned char *start;
static char path[PATH_MAX_LEN];
static int depth;

static void fail(const char *what)
{
	fprintf(stderr, "jsoncheck: offset %ld: %s\n", (long)(p - start), what);
	exit(1);
}

static void ws(void)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One UTF-8 sequence at p (p[0] >= 0x80): its length, or fail. */
static int utf8_seq(void)
{
	unsigned char c = p[0];
	unsigned int cp, n, i;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		fail("invalid UTF-8 lead byte");
	}
	if (end - p < (long)n)
		fail("truncated UTF-8 sequence");
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			fail("invalid UTF-8 continuation byte");
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		fail("overlong or invalid UTF-8 code point");
	return n;
}

/* A string at p; its bytes (with quotes) from *s, length *n. */
static void string(const unsigned char **s, size_t *n)
{
	int i, u;

	*s = p;
	if (p >= end || *p != '"')
		fail("expected a string");
	p++;
	for (;;) {
		if (p >= end)
			fail("unterminated string");
		if (*p == '"')
			break;
		if (*p < 0x20)
			fail("control character in a string");
		if (*p == '\\') {
			p++;
			if (p >= end)
				fail("unterminated escape");
			if (strchr("\"\\/bfnrt", *p) && *p) {
				p++;
				continue;
			}
			if (*p != 'u')
				fail("invalid escape");
			p++;
			for (i = 0, u = 0; i < 4; i++) {
				if (p >= end || hexval(*p) < 0)
					fail("invalid \\u escape");
				u = u << 4 | hexval(*p++);
			}
			(void)u;
			continue;
		}
		if (*p >= 0x80)
			p += utf8_seq();
		else
			p++;
	}
	p++;
	*n = p - *s;
}

static void number(void)
{
	if (p < end && *p == '-')
		p++;
	if (p >= end)
		fail("truncated number");
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	} else {
		fail("invalid number");
	}
	if (p < end && *p == '.') {
		p++;
		if (p >= end || *p < '0' || *p > '9')
			fail("invalid fraction");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			fail("invalid exponent");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
}

static void literal(const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - p) < n || memcmp(p, w, n))
		fail("invalid literal");
	p += n;
}

static void value(void);

/* Append ".name" (or "name" at the root) to path; its old length. */
static size_t path_push(const char *s, size_t n)
{
	size_t len = strlen(path);

	if (len + n + 2 >= sizeof(path))
		fail("path too long");
	if (len)
		path[len++] = '.';
	memcpy(path + len, s, n);
	path[len + n] = '\0';
	return len ? len - 1 : 0;
}

static void object(void)
{
	const unsigned char *s;
	size_t n, old;

	p++;
	ws();
	if (p < end && *p == '}') {
		p++;
		return;
	}
	for (;;) {
		ws();
		string(&s, &n);
		ws();
		if (p >= end || *p != ':')
			fail("expected ':'");
		p++;
		/* Without the quotes. */
		old = path_push((const char *)s + 1, n - 2);
		value();
		path[old] = '\0';
		ws();
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '}') {
			p++;
			return;
		}
		fail("expected ',' or '}'");
	}
}

static void array(void)
{
	char idx[24];
	size_t old;
	long i = 0;

	p++;
	ws();
	if (p < end && *p == ']') {
		p++;
		return;
	}
	for (;; i++) {
		snprintf(idx, sizeof(idx), "%ld", i);
		old = path_push(idx, strlen(idx));
		value();
		path[old] = '\0';
		ws();
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == ']') {
			p++;
			return;
		}
		fail("expected ',' or ']'");
	}
}

static void value(void)
{
	const unsigned char *s = NULL;
	size_t n;

	ws();
	if (p >= end)
		fail("expected a value");
	if (*p == '{' || *p == '[') {
		if (++depth > DEPTH_MAX)
			fail("nested too deep");
		if (*p == '{')
			object();
		else
			array();
		depth--;
		return;
	}
	s = p;
	if (*p == '"')
		string(&s, &n);
	else if (*p == '-' || (*p >= '0' && *p <= '9'))
		number();
	else if (*p == 't')
		literal("true");
	else if (*p == 'f')
		literal("false");
	else if (*p == 'n')
		literal("null");
	else
		fail("unexpected character");
	n = p - s;
	printf("%s %.*s\n", path, (int)n, (const char *)s);
}

int main(int argc, char **argv)
{
	size_t cap = 1 << 16, len = 0, r;
	unsigned char *buf;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: jsoncheck FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	buf = malloc(cap);
	while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		perror(argv[1]);
		return 2;
	}
	fclose(f);
	start = p = buf;
	end = buf + len;
	value();
	ws();
	if (p != end)
		fail("trailing bytes after the value");
	return 0;
}
