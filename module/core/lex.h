/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lex.h - the characters, spans, words, numbers and bounded appends that
 * the core's parsers (filter, hist, synth, eprobe, trigger) share.
 *
 * The character classes are the kernel's ctype, Latin-1 included (0xa0 is
 * a space, 0xc0-0xff but the two operators are letters), written out here
 * so that userspace builds do not depend on the C library's locale.
 */
#ifndef _KHIST_CORE_LEX_H
#define _KHIST_CORE_LEX_H

#include "core_env.h"

static inline bool khist_isspace(char ch)
{
	unsigned char c = ch;

	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static inline bool khist_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool khist_isxdigit(char c)
{
	char l = c | 0x20;

	return khist_isdigit(c) || (l >= 'a' && l <= 'f');
}

static inline bool khist_isalpha(char ch)
{
	unsigned char c = ch, l = c | 0x20;

	return (l >= 'a' && l <= 'z') || (c >= 0xc0 && c != 0xd7 && c != 0xf7);
}

static inline bool khist_isalnum(char c)
{
	return khist_isdigit(c) || khist_isalpha(c);
}

/**
 * struct khist_span - a byte range of a command's text
 * @pos: offset from the start of the text
 * @len: length in bytes
 */
struct khist_span {
	u16 pos;
	u16 len;
};

const char *khist_skip_spaces(const char *s);
const char *khist_word(const char *s, size_t *len);
unsigned int khist_count_words(const char *s, char stop);
bool khist_good_name(const char *s);
int khist_parse_u64(const char *s, size_t len, u64 *val);
int khist_parse_long(const char *s, long *val);
unsigned long khist_prefix_ulong(const char *s, const char **end);
int khist_puts(char *buf, size_t size, int pos, const char *str);

#endif /* _KHIST_CORE_LEX_H */
