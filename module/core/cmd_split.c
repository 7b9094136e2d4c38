// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_split.c - command files' writes cut into commands (see cmd_split.h).
 */
#include "core_env.h"
#include "cmd_split.h"
#include "lex.h"

/**
 * khist_cmd_split_run() - run a write to a line-based command file
 * @s: the write; @s->too_long is set on return
 *
 * Each chunk of at most KHIST_CMD_BUF - 1 bytes is copied into @s->buf
 * and cut at its newlines. A line without a newline that does not end the
 * write is carried to the start of the next chunk; one that already
 * starts a chunk is too long. Each line is cut at its first '#' and
 * handed to @s->line, until one is refused.
 *
 * Context: whatever @s->copy and @s->line need (process context in the
 *          module); no allocation.
 * Return: @s->count, -EINVAL for a line that is too long, or the first
 *         error of @s->copy or @s->line.
 */
ssize_t khist_cmd_split_run(struct khist_cmd_split *s)
{
	size_t done = 0, size;
	char *buf, *p;
	int ret;

	s->too_long = false;
	while (done < s->count) {
		size = min_t(size_t, s->count - done, KHIST_CMD_BUF - 1);
		ret = s->copy(s->buf, done, size, s->arg);
		if (ret)
			return ret;
		s->buf[size] = '\0';
		buf = s->buf;
		do {
			p = strchr(buf, '\n');
			if (p) {
				*p = '\0';
				size = p - buf + 1;
			} else {
				size = strlen(buf);
				if (done + size < s->count) {
					/* Carried to the next chunk. */
					if (buf != s->buf)
						break;
					s->too_long = true;
					return -EINVAL;
				}
			}
			done += size;
			p = strchr(buf, '#');
			if (p)
				*p = '\0';
			ret = s->line(buf, s->arg);
			if (ret)
				return ret;
			buf += size;
		} while (done < s->count);
	}
	return done;
}

/**
 * khist_trigger_split() - cut a trigger command into its name and params
 * @text:   the command, NUL ended; changed in place
 * @params: set to the parameters (blanks before them skipped), or NULL
 *          when there are none
 *
 * The name ends at the first ':', blank or tab; a leading '!' (removal)
 * stays part of it.
 *
 * Context: any; no allocation.
 * Return: the name (the empty string for an empty command).
 */
char *khist_trigger_split(char *text, char **params)
{
	char *word, *p;

	while (khist_isspace(*text))
		text++;
	word = text;
	for (p = text; *p && *p != ':' && *p != ' ' && *p != '\t'; p++)
		;
	*params = NULL;
	if (!*p)
		return word;
	*p++ = '\0';
	while (khist_isspace(*p))
		p++;
	if (*p)
		*params = p;
	return word;
}
