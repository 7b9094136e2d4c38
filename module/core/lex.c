// SPDX-License-Identifier: GPL-2.0
/*
 * lex.c - words, names, numbers and bounded appends for the core's
 * parsers (see lex.h). Nothing here writes into the text it reads.
 */
#include "lex.h"

/**
 * khist_skip_spaces() - step over blanks
 * @s: NUL-terminated text
 *
 * Context: any.
 * Return: the first character of @s that is not a space (maybe its NUL).
 */
const char *khist_skip_spaces(const char *s)
{
	while (khist_isspace(*s))
		s++;
	return s;
}

/**
 * khist_word() - find the next blank-separated word
 * @s:   NUL-terminated text
 * @len: set to the word's length (0 when there is none)
 *
 * Context: any.
 * Return: where the word starts; at the NUL of @s when there is none.
 */
const char *khist_word(const char *s, size_t *len)
{
	const char *e;

	s = khist_skip_spaces(s);
	for (e = s; *e && !khist_isspace(*e); e++)
		;
	*len = e - s;
	return s;
}

/**
 * khist_count_words() - count blank-separated words
 * @s:    NUL-terminated text
 * @stop: a character that ends the count as the NUL does ('\0' for none)
 *
 * Context: any.
 * Return: the number of words of @s before its end or its first @stop.
 */
unsigned int khist_count_words(const char *s, char stop)
{
	unsigned int n = 0;
	bool in = false;

	for (; *s && *s != stop; s++) {
		if (khist_isspace(*s)) {
			in = false;
		} else if (!in) {
			in = true;
			n++;
		}
	}
	return n;
}

/**
 * khist_good_name() - is this a C identifier?
 * @s: NUL-terminated name
 *
 * Context: any.
 * Return: true for a letter or '_' followed by letters, digits and '_'.
 */
bool khist_good_name(const char *s)
{
	if (!khist_isalpha(*s) && *s != '_')
		return false;
	while (*++s)
		if (!khist_isalnum(*s) && *s != '_')
			return false;
	return true;
}

/**
 * khist_parse_u64() - parse an unsigned number like kstrtoull(s, 0, ...)
 * @s:   text (need not be NUL-terminated)
 * @len: its length
 * @val: result
 *
 * Accepts an optional '+', then "0x"/"0X" hex, leading-0 octal or
 * decimal, and one optional trailing newline; nothing else.
 *
 * Context: any.
 * Return: 0, -EINVAL for bad syntax, -ERANGE on overflow.
 */
int khist_parse_u64(const char *s, size_t len, u64 *val)
{
	unsigned int base = 10, d;
	size_t i = 0, start;
	u64 v = 0;

	if (len && s[len - 1] == '\n')
		len--;
	if (i < len && s[i] == '+')
		i++;
	if (i + 1 < len && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (i < len && s[i] == '0') {
		base = 8;
	}
	start = i;
	for (; i < len; i++) {
		char c = s[i];

		if (khist_isdigit(c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (i == start)
		return -EINVAL;
	*val = v;
	return 0;
}

/**
 * khist_parse_long() - parse a signed number like kstrtol(s, 0, ...)
 * @s:   NUL-terminated text
 * @val: result
 *
 * An optional '-', then what khist_parse_u64() accepts, within a long.
 *
 * Context: any.
 * Return: 0, -EINVAL for bad syntax, -ERANGE when it does not fit.
 */
int khist_parse_long(const char *s, long *val)
{
	bool neg = *s == '-';
	u64 u;
	int ret;

	if (neg)
		s++;
	ret = khist_parse_u64(s, strlen(s), &u);
	if (ret)
		return ret;
	if (u > (u64)LONG_MAX + neg)
		return -ERANGE;
	*val = neg ? (long)-u : (long)u;
	return 0;
}

/**
 * khist_prefix_ulong() - the number at the start of a text, as
 * simple_strtoul(s, end, 0)
 * @s:   NUL-terminated text
 * @end: set to the first character not taken
 *
 * Takes as many digits of the base ("0x" hex, leading-0 octal, decimal)
 * as there are, maybe none, and wraps on overflow.
 *
 * Context: any.
 * Return: the value (0 when there were no digits).
 */
unsigned long khist_prefix_ulong(const char *s, const char **end)
{
	unsigned int base = 10, d;
	unsigned long v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    khist_isxdigit(s[2])) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (;; s++) {
		if (khist_isdigit(*s))
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	*end = s;
	return v;
}

/**
 * khist_puts() - append a string to a text being built, as snprintf()
 * @buf:  the text (may be NULL when @size is 0, to measure)
 * @size: bytes in @buf
 * @pos:  the text's length so far
 * @str:  what to append
 *
 * Writes never past @size and leaves @buf NUL-terminated when anything
 * was written.
 *
 * Context: any.
 * Return: the length after @str, whether or not it fitted.
 */
int khist_puts(char *buf, size_t size, int pos, const char *str)
{
	size_t len = strlen(str), room;

	if (buf && (size_t)pos < size) {
		room = min(len, size - pos - 1);
		memcpy(buf + pos, str, room);
		buf[pos + room] = '\0';
	}
	return pos + len;
}
