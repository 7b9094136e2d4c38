// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_dir_shim.c - an LD_PRELOAD library that points libtracefs at the
 * directory in $KHIST_TRACING_DIR before the program starts.
 *
 * trace-cmd has no option or environment variable for its tracing
 * directory: libtracefs finds it by filesystem type ("tracefs") in
 * /proc/mounts, which an out-of-tree filesystem cannot claim. libtracefs
 * does have tracefs_set_tracing_dir(), and Debian's trace-cmd uses the
 * shared libtracefs, so calling it from a constructor redirects every
 * path trace-cmd asks libtracefs for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <tracefs.h>

__attribute__((constructor)) static void khist_shim_init(void)
{
	char *dir = getenv("KHIST_TRACING_DIR");

	if (dir && tracefs_set_tracing_dir(dir))
		fprintf(stderr, "khist shim: cannot use %s\n", dir);
}
