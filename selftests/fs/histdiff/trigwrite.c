// SPDX-License-Identifier: GPL-2.0
/*
 * trigwrite.c - write one command to a tracefs-like control file with a single
 * write() and report the outcome as text, for the differential tests.
 *
 *   trigwrite [-t] FILE TEXT
 *
 * Opens FILE for writing, appending (like the shell's >>), or truncating
 * with -t (like >), writes TEXT plus a newline in one call and prints "ok"
 * or the errno's name and message, e.g. "EEXIST File exists". The shell's
 * builtins cannot do this: dash reports every failed write as "I/O error".
 * Exit status: 0 on success, 1 when the open or write failed, 2 on usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case EEXIST:
		return "EEXIST";
	case ENOENT:
		return "ENOENT";
	case EBUSY:
		return "EBUSY";
	case ENOMEM:
		return "ENOMEM";
	case ENODEV:
		return "ENODEV";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case ENOSPC:
		return "ENOSPC";
	case E2BIG:
		return "E2BIG";
	case EIO:
		return "EIO";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return "E?";
	}
}

static int report(int e)
{
	printf("%s %s\n", errno_name(e), strerror(e));
	return 1;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_APPEND;
	size_t len;
	ssize_t n;
	char *buf;
	int fd;

	if (argc == 4 && strcmp(argv[1], "-t") == 0) {
		flags = O_WRONLY | O_TRUNC;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: trigwrite [-t] FILE TEXT\n");
		return 2;
	}
	len = strlen(argv[2]);
	buf = malloc(len + 2);
	if (!buf)
		return report(ENOMEM);
	memcpy(buf, argv[2], len);
	buf[len++] = '\n';
	buf[len] = '\0';

	fd = open(argv[1], flags);
	if (fd < 0)
		return report(errno);
	n = write(fd, buf, len);
	if (n < 0)
		return report(errno);
	if ((size_t)n != len) {
		printf("short write %zd of %zu\n", n, len);
		return 1;
	}
	if (close(fd))
		return report(errno);
	free(buf);
	puts("ok");
	return 0;
}
