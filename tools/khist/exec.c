// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c - `khist exec`: run an unmodified tracing tool (trace-cmd, a
 * libtracefs program, a script) with khist as its tracing directory.
 *
 * libtracefs finds the tracing directory as the first line of
 * /proc/mounts whose type is "tracefs"; without one it mounts tracefs at
 * /sys/kernel/tracing, or falls back to <debugfs>/tracing. khist cannot
 * register the type name "tracefs", so in a private mount namespace:
 *
 *   1. the khist mount is cloned (open_tree), before anything is hidden;
 *   2. every tracefs and debugfs mount is detached, so no path and no
 *      /proc/mounts line leads to the native tracing directory;
 *   3. /sys/kernel/tracing gets a read-only tracefs mount of the native
 *      "options" directory (source "khist-exec"): the one "tracefs" line
 *      of /proc/mounts, which libtracefs accepts; nothing of the native
 *      buffer or events is in it;
 *   4. the khist clone is mounted over it, hiding it: every path under
 *      /sys/kernel/tracing is khist's. If that mount goes, what is left
 *      is a read-only directory of option files with no events and no
 *      buffer, where a tool fails instead of tracing natively;
 *   5. /sys/kernel/debug becomes an empty read-only tmpfs whose "tracing"
 *      directory is khist too (for tools that use the old path);
 *   6. the tool is exec'd in that namespace, with the same pid.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "khist.h"
#include <uapi/khist.h>

#define KH_EXEC_TRACING "/sys/kernel/tracing"
#define KH_EXEC_DEBUG "/sys/kernel/debug"

static const char kh_exec_help[] =
	"usage: khist exec [--mount DIR] [--] TOOL [ARGS...]\n"
	"Run TOOL (trace-cmd, a libtracefs program, ...) in a private mount\n"
	"namespace where khist is the tracing directory: the native tracefs\n"
	"and debugfs are hidden, /sys/kernel/tracing is the khist mount DIR\n"
	"(default: --root, $KHIST_ROOT, or the first khist mount), and\n"
	"/proc/mounts lists one tracefs-type mount there, which libtracefs\n"
	"accepts. Needs root. The exit status is TOOL's; 127 when TOOL cannot\n"
	"be run, 1 when the namespace cannot be set up.\n";

/* The octal escapes (\040 for a space) of a mountinfo path, in place. */
static void kh_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/*
 * One line of /proc/self/mountinfo split: the root of the mount in its
 * filesystem, its mount point and its filesystem type. Returns false on
 * a line of another shape.
 */
static bool kh_mountinfo_line(char *line, char **root, char **mnt, char **type)
{
	char *save = NULL, *f[5], *sep;
	int i;

	sep = strstr(line, " - ");
	if (!sep)
		return false;
	*sep = '\0';
	for (i = 0; i < 5; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			return false;
	}
	*type = strtok_r(sep + 3, " ", &save);
	if (!*type)
		return false;
	*root = f[3];
	*mnt = f[4];
	kh_unescape(*root);
	kh_unescape(*mnt);
	return true;
}

/*
 * The mount points of /proc/self/mountinfo: with @dir NULL, the last one
 * whose type is tracefs or debugfs (NULL when none is left); with @dir,
 * @dir itself when a khist mount of the whole filesystem is there.
 */
static char *kh_mountinfo_find(const char *dir)
{
	char *text = kh_read_file("/proc/self/mountinfo", NULL);
	char *line, *save = NULL, *found = NULL;

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *root, *mnt, *type;

		if (!kh_mountinfo_line(line, &root, &mnt, &type))
			continue;
		if (dir ? (!strcmp(type, "khist") && !strcmp(root, "/") &&
			   !strcmp(mnt, dir)) :
			  (!strcmp(type, "tracefs") ||
			   !strcmp(type, "debugfs"))) {
			free(found);
			found = kh_xstrdup(mnt);
		}
	}
	free(text);
	return found;
}

/* The first khist mount in /proc/self/mountinfo, or NULL. */
static char *kh_first_khist(void)
{
	char *text = kh_read_file("/proc/self/mountinfo", NULL);
	char *line, *save = NULL, *found = NULL;

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *root, *mnt, *type;

		if (kh_mountinfo_line(line, &root, &mnt, &type) &&
		    !strcmp(type, "khist") && !strcmp(root, "/"))
			found = kh_xstrdup(mnt);
	}
	free(text);
	return found;
}

/*
 * The khist mount to use: @opt, else the global --root or $KHIST_ROOT,
 * else the first khist mount. It must be the root of a khist mount, not
 * another filesystem nor a directory inside khist (an instance).
 */
static char *kh_exec_source(const char *opt)
{
	char real[PATH_MAX], *at;
	const char *dir = opt ? opt : kh_root_given();
	struct statfs sf;

	if (!dir) {
		at = kh_first_khist();
		if (!at)
			kh_err("exec: khist is not mounted (mount -t khist nodev /sys/kernel/khist), or give --mount DIR");
		return at;
	}
	if (!realpath(dir, real) || statfs(real, &sf)) {
		kh_err("exec: %s: %s", dir, strerror(errno));
		return NULL;
	}
	if (sf.f_type != KHIST_FS_MAGIC) {
		kh_err("exec: %s: not a khist mount (filesystem magic 0x%lx)",
		       dir, (unsigned long)sf.f_type);
		return NULL;
	}
	at = kh_mountinfo_find(real);
	if (!at)
		kh_err("exec: %s: inside khist but not where it is mounted (give the mount point)",
		       dir);
	return at;
}

/* Detach every tracefs and debugfs mount of this namespace. */
static int kh_hide_native(void)
{
	char *mnt;
	int n;

	for (n = 0; (mnt = kh_mountinfo_find(NULL)); n++) {
		if (n > 4096 || umount2(mnt, MNT_DETACH)) {
			kh_err("exec: cannot hide the native mount at %s: %s",
			       mnt, n > 4096 ? "too many" : strerror(errno));
			free(mnt);
			return -1;
		}
		free(mnt);
	}
	return 0;
}

/*
 * A read-only tracefs mount at @at whose root is the native "options"
 * directory: what libtracefs's type check finds, holding nothing to trace.
 */
static int kh_tracefs_decoy(const char *at)
{
	int fs, mfd, dfd = -1;
	char *opts = NULL;

	fs = fsopen("tracefs", FSOPEN_CLOEXEC);
	if (fs < 0) {
		kh_err("exec: the kernel's tracefs cannot be mounted (%s): libtracefs needs a mount of that type",
		       strerror(errno));
		return -1;
	}
	if (fsconfig(fs, FSCONFIG_SET_STRING, "source", "khist-exec", 0) ||
	    fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		kh_err("exec: tracefs: %s", strerror(errno));
		close(fs);
		return -1;
	}
	mfd = fsmount(fs, FSMOUNT_CLOEXEC,
		      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			      MOUNT_ATTR_NOEXEC);
	close(fs);
	if (mfd < 0) {
		kh_err("exec: tracefs: fsmount: %s", strerror(errno));
		return -1;
	}
	/* A subdirectory is cloned from an attached mount only. */
	if (move_mount(mfd, "", AT_FDCWD, at, MOVE_MOUNT_F_EMPTY_PATH)) {
		kh_err("exec: %s: %s", at, strerror(errno));
		close(mfd);
		return -1;
	}
	close(mfd);
	if (asprintf(&opts, "%s/options", at) >= 0)
		dfd = open_tree(AT_FDCWD, opts,
				OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (dfd < 0)
		kh_err("exec: %s: %s", opts ? opts : at, strerror(errno));
	free(opts);
	if (umount2(at, MNT_DETACH)) {
		kh_err("exec: %s: %s", at, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	if (dfd < 0)
		return -1;
	if (move_mount(dfd, "", AT_FDCWD, at, MOVE_MOUNT_F_EMPTY_PATH)) {
		kh_err("exec: %s: %s", at, strerror(errno));
		close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

/* /sys/kernel/debug: an empty read-only tmpfs, with khist at tracing/. */
static int kh_debug_dir(void)
{
	struct stat st;
	int tfd;

	if (stat(KH_EXEC_DEBUG, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (mount("khist-exec", KH_EXEC_DEBUG, "tmpfs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=16k") ||
	    mkdir(KH_EXEC_DEBUG "/tracing", 0755)) {
		kh_err("exec: %s: %s", KH_EXEC_DEBUG, strerror(errno));
		return -1;
	}
	tfd = open_tree(AT_FDCWD, KH_EXEC_TRACING,
			OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tfd < 0 || move_mount(tfd, "", AT_FDCWD, KH_EXEC_DEBUG "/tracing",
				  MOVE_MOUNT_F_EMPTY_PATH)) {
		kh_err("exec: %s/tracing: %s", KH_EXEC_DEBUG, strerror(errno));
		if (tfd >= 0)
			close(tfd);
		return -1;
	}
	close(tfd);
	if (mount(NULL, KH_EXEC_DEBUG, NULL,
		  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV |
			  MS_NOEXEC,
		  NULL)) {
		kh_err("exec: %s: read-only: %s", KH_EXEC_DEBUG,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* The namespace: see the top of this file. */
static int kh_exec_setup(const char *src)
{
	struct stat st;
	int kfd;

	if (unshare(CLONE_NEWNS)) {
		kh_err("exec: unshare(CLONE_NEWNS): %s%s", strerror(errno),
		       errno == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		kh_err("exec: making / private: %s", strerror(errno));
		return -1;
	}
	/* Cloned first: the khist mount may sit on a mount hidden next. */
	kfd = open_tree(AT_FDCWD, src, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (kfd < 0) {
		kh_err("exec: %s: %s", src, strerror(errno));
		return -1;
	}
	if (kh_hide_native())
		goto fail;
	if (stat(KH_EXEC_TRACING, &st) || !S_ISDIR(st.st_mode)) {
		kh_err("exec: %s: no such directory (is sysfs mounted?)",
		       KH_EXEC_TRACING);
		goto fail;
	}
	if (kh_tracefs_decoy(KH_EXEC_TRACING))
		goto fail;
	/* The clone itself goes there: a detached mount is not cloned again. */
	if (move_mount(kfd, "", AT_FDCWD, KH_EXEC_TRACING,
		       MOVE_MOUNT_F_EMPTY_PATH)) {
		kh_err("exec: mounting khist at %s: %s", KH_EXEC_TRACING,
		       strerror(errno));
		goto fail;
	}
	if (kh_debug_dir())
		goto fail;
	close(kfd);
	return 0;
fail:
	close(kfd);
	return -1;
}

int kh_cmd_exec(int argc, char **argv)
{
	const char *mnt = NULL;
	char *src;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--help") ||
			   !strcmp(argv[i], "-h")) {
			fputs(kh_exec_help, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--mount") && i + 1 < argc) {
			mnt = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--mount=", 8) && argv[i][8]) {
			mnt = argv[i] + 8;
			i++;
		} else {
			kh_err("exec: bad option '%s' (khist exec --help)",
			       argv[i]);
			return 1;
		}
	}
	if (i >= argc) {
		kh_err("exec: give the tool to run (khist exec [--mount DIR] -- TOOL ARGS...)");
		return 1;
	}
	if (geteuid()) {
		kh_err("exec: needs root: it hides the native tracefs in a private mount namespace");
		return 1;
	}
	src = kh_exec_source(mnt);
	if (!src)
		return 1;
	if (kh_exec_setup(src)) {
		free(src);
		return 1;
	}
	free(src);
	execvp(argv[i], argv + i);
	kh_err("exec: %s: %s", argv[i], strerror(errno));
	exit(127);
}
