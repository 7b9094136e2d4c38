/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_split.h - cutting what a user writes to a command file into the
 * commands khist runs.
 *
 * `dynamic_events` and `synthetic_events` take one command per line: a
 * write is read in chunks of KHIST_CMD_BUF - 1 bytes, each line (its
 * newline and anything from a '#' removed) is run in order, and the first
 * refused line stops the write (the lines before it stay applied). A line
 * must fit in one chunk; a NUL byte ends the text of a chunk, so a line
 * holding one is refused as too long, as ftrace does.
 *
 * A `trigger` write is one command: "[!]<name>[: \t]<params>", blanks
 * around it ignored.
 *
 * Portable core: no user copies, no logging; the caller gives a copy
 * function and the handler of one line, and logs a line that is too long.
 */
#ifndef _KHIST_CORE_CMD_SPLIT_H
#define _KHIST_CORE_CMD_SPLIT_H

#include "core_env.h"

/* Bytes of the chunk buffer: a line holds at most KHIST_CMD_BUF - 2. */
#define KHIST_CMD_BUF 4096

/**
 * struct khist_cmd_split - one write to a line-based command file
 * @buf:      KHIST_CMD_BUF bytes the chunks are copied into
 * @count:    bytes written
 * @copy:     copies @len bytes at offset @off of the write into @dst;
 *            returns 0 or -errno
 * @line:     runs one line (newline and comment removed, NUL ended; it
 *            may change the line's bytes); returns 0 or -errno
 * @arg:      passed to @copy and @line
 * @too_long: set when the write was refused for a line longer than a
 *            chunk (the caller logs it)
 */
struct khist_cmd_split {
	char *buf;
	size_t count;
	int (*copy)(char *dst, size_t off, size_t len, void *arg);
	int (*line)(char *line, void *arg);
	void *arg;
	bool too_long;
};

ssize_t khist_cmd_split_run(struct khist_cmd_split *s);
char *khist_trigger_split(char *text, char **params);

#endif /* _KHIST_CORE_CMD_SPLIT_H */
