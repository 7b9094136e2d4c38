// SPDX-License-Identifier: GPL-2.0
/*
 * ue_shim.c - a stand-in for a kernel's user_events_data, preloaded into
 * khist-trace2 (LD_PRELOAD) by run.sh, so that the bridge's real output
 * path - open(), DIAG_IOCSREG, the enable words, writev() with the write
 * index - runs and is checked on a host without user_events.
 *
 * open() of a path ending in "/user_events_data" that does not exist
 * opens /dev/null instead and marks the fd. On that fd:
 *   ioctl(DIAG_IOCSREG): checks the argument as the ABI documents it
 *     (size 28, enable_size 4 or 8, bit inside it, aligned address,
 *     known flags, a command under 512 bytes), gives out write indexes
 *     from 0, logs "R <index> <command>", and sets the enable bit if the
 *     event name is in T2SHIM_ENABLE (comma list; unset: every event);
 *   writev(): checks that the first iovec is the 4-byte index of a
 *     registered event and logs "W <index> <payload hex>"; with
 *     T2SHIM_ERRNO=EBADF every write fails with EBADF, with
 *     T2SHIM_ERRNO=ENOENT1 the first write fails with ENOENT and the event
 *     counts as deleted until registered again.
 * Anything against the ABI is logged as "ERR <what>" and fails with
 * EINVAL. The log is T2SHIM_LOG.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/user_events.h>

/* Longest registration command user_events takes, NUL included. */
#define T2_CMD_MAX 512

#define MAX_EV 256

static int ue_fd = -1;
static int nreg;
static char names[MAX_EV][64];
static int deleted[MAX_EV];
static int enoent_done;

static void logf_(const char *fmt, ...)
{
	const char *p = getenv("T2SHIM_LOG");
	va_list ap;
	FILE *f;

	if (!p)
		return;
	f = fopen(p, "a");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static int bad(const char *what)
{
	logf_("ERR %s\n", what);
	errno = EINVAL;
	return -1;
}

static int wanted(const char *name)
{
	const char *list = getenv("T2SHIM_ENABLE"), *p;
	size_t n = strlen(name);

	if (!list)
		return 1;
	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static int do_open(const char *path, int flags, mode_t mode,
		   int (*real)(const char *, int, ...))
{
	size_t n = strlen(path), s = strlen("/user_events_data");
	struct stat st;
	int fd;

	if (n < s || strcmp(path + n - s, "/user_events_data") ||
	    !stat(path, &st))
		return real(path, flags, mode);
	if ((flags & O_ACCMODE) == O_RDONLY)
		return bad("user_events_data opened read-only");
	fd = real("/dev/null", O_RDWR | (flags & O_CLOEXEC));
	if (fd >= 0)
		ue_fd = fd;
	return fd;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
							      "open");
	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return do_open(path, flags, mode, real);
}

int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
							      "open64");
	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return do_open(path, flags, mode, real);
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	struct user_reg *reg;
	const char *cmd;
	size_t len;
	va_list ap;
	void *arg;
	int i;

	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
							       "ioctl");
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != ue_fd || fd < 0)
		return real(fd, req, arg);
	if (req != DIAG_IOCSREG)
		return bad("unknown ioctl");
	reg = arg;
	if (reg->size != sizeof(*reg))
		return bad("user_reg.size");
	if (reg->enable_size != 4 && reg->enable_size != 8)
		return bad("user_reg.enable_size");
	if (reg->enable_bit >= 8 * reg->enable_size)
		return bad("user_reg.enable_bit");
	if (reg->enable_addr % reg->enable_size)
		return bad("user_reg.enable_addr not aligned");
	if (reg->flags &
	    ~(uint16_t)(USER_EVENT_REG_PERSIST | USER_EVENT_REG_MULTI_FORMAT))
		return bad("user_reg.flags");
	cmd = (const char *)(uintptr_t)reg->name_args;
	len = strnlen(cmd, T2_CMD_MAX);
	if (len >= T2_CMD_MAX)
		return bad("command over 512 bytes");
	for (i = 0; i < nreg; i++)
		if (!strncmp(names[i], cmd, strcspn(cmd, " ")) &&
		    strlen(names[i]) == strcspn(cmd, " "))
			break;
	if (i == nreg) {
		if (nreg == MAX_EV)
			return bad("too many events");
		snprintf(names[nreg], sizeof(names[0]), "%.*s",
			 (int)strcspn(cmd, " "), cmd);
		nreg++;
	}
	deleted[i] = 0;
	reg->write_index = (uint32_t)i;
	logf_("R %d %s%s\n", i, cmd,
	      reg->flags & USER_EVENT_REG_PERSIST ? " [persist]" : "");
	if (wanted(names[i])) {
		if (reg->enable_size == 4)
			*(uint32_t *)(uintptr_t)reg->enable_addr |=
				1u << reg->enable_bit;
		else
			*(uint64_t *)(uintptr_t)reg->enable_addr |=
				1ull << reg->enable_bit;
	}
	return 0;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	static ssize_t (*real)(int, const struct iovec *, int);
	const char *err = getenv("T2SHIM_ERRNO");
	ssize_t total = 0;
	char *line, *p;
	int32_t idx;
	int i;

	if (!real)
		real = (ssize_t(*)(int, const struct iovec *,
				   int))dlsym(RTLD_NEXT, "writev");
	if (fd != ue_fd || fd < 0)
		return real(fd, iov, cnt);
	if (cnt < 1 || iov[0].iov_len != 4)
		return bad("first iovec is not the 4-byte index");
	memcpy(&idx, iov[0].iov_base, 4);
	if (idx < 0 || idx >= nreg)
		return bad("unknown write index");
	if (err && !strcmp(err, "EBADF")) {
		errno = EBADF;
		return -1;
	}
	if (err && !strcmp(err, "ENOENT1") && !enoent_done) {
		enoent_done = 1;
		deleted[idx] = 1;
	}
	if (deleted[idx]) {
		errno = ENOENT;
		return -1;
	}
	for (i = 0; i < cnt; i++)
		total += (ssize_t)iov[i].iov_len;
	line = malloc(2 * (size_t)total + 1);
	if (!line)
		return -1;
	p = line;
	for (i = 1; i < cnt; i++)
		for (size_t k = 0; k < iov[i].iov_len; k++)
			p += sprintf(p, "%02x",
				     ((unsigned char *)iov[i].iov_base)[k]);
	logf_("W %d %s\n", idx, line);
	free(line);
	return total;
}
