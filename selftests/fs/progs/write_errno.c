// SPDX-License-Identifier: GPL-2.0
/*
 * write_errno [-t] FILE TEXT - write TEXT (one write, no newline added) to
 * FILE opened for appending, or with O_TRUNC given -t, and print "ok" or
 * the error's name ("EINVAL", "EEXIST", ...; "errno N" for others). Exit
 * status 0 either way: the output is what tests compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case EEXIST:
		return "EEXIST";
	case ENOENT:
		return "ENOENT";
	case ENODEV:
		return "ENODEV";
	case ENOMEM:
		return "ENOMEM";
	case EBUSY:
		return "EBUSY";
	case ERANGE:
		return "ERANGE";
	case ENOSPC:
		return "ENOSPC";
	case E2BIG:
		return "E2BIG";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	default:
		return NULL;
	}
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_APPEND, i = 1, fd;
	const char *name;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "-t")) {
		flags = O_WRONLY | O_TRUNC;
		i++;
	}
	if (argc != i + 2) {
		fprintf(stderr, "usage: write_errno [-t] FILE TEXT\n");
		return 2;
	}
	fd = open(argv[i], flags);
	if (fd < 0) {
		printf("open: %s\n", strerror(errno));
		return 0;
	}
	n = write(fd, argv[i + 1], strlen(argv[i + 1]));
	if (n >= 0) {
		printf("ok\n");
	} else {
		name = errname(errno);
		if (name)
			printf("%s\n", name);
		else
			printf("errno %d\n", errno);
	}
	close(fd);
	return 0;
}
