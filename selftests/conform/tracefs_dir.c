// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs_dir.c - what unmodified libtracefs takes for the tracing
 * directory, for test.d/tools/tools-exec.tc:
 *
 *   khist-tracefs-dir [SYSTEM EVENT]
 *
 * prints "dir: " and tracefs_tracing_dir(), "top: " and the top-level
 * instance's directory (libtracefs finds it again from /proc/mounts),
 * then, with SYSTEM EVENT, "event: " and the "name:" line of the event's
 * format read through libtracefs, or "event: none". Exit status 0 when
 * the directory was found (and the event, if asked for), else 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

int main(int argc, char **argv)
{
	const char *dir = tracefs_tracing_dir();
	char *top = tracefs_instance_get_dir(NULL), *fmt, *name;
	int rc = 0;

	printf("dir: %s\n", dir ? dir : "(none)");
	printf("top: %s\n", top ? top : "(none)");
	if (!dir || !top)
		rc = 1;
	free(top);
	if (argc != 3)
		return rc;
	fmt = tracefs_event_file_read(NULL, argv[1], argv[2], "format", NULL);
	name = fmt ? strstr(fmt, "name: ") : NULL;
	if (name) {
		name[strcspn(name, "\n")] = '\0';
		printf("event: %s\n", name + 6);
	} else {
		printf("event: none\n");
		rc = 1;
	}
	free(fmt);
	return rc;
}
