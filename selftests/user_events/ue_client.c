// SPDX-License-Identifier: GPL-2.0
/*
 * ue_client.c - a user_events client for khist's in-VM tests, built
 * against khist's uapi header (-I include/uapi) exactly as a program
 * written for the kernel's user_events would be.
 *
 *   ue_client emit DIR 'name fields' N [KEY...]
 *	register, then write N records; numbers get i % 7, char[N] and
 *	string locators KEY[i % nkeys] (default "k0".."k2"). Prints
 *	"enabled=<bit> written=<ok> ebadf=<n> other=<n>".
 *   ue_client e2big DIR
 *	a record one byte over a ring-buffer page: prints the errno name.
 *   ue_client fork DIR 'name fields'
 *	register, fork; the child waits for its copy of the enable word
 *	to change: prints "child=<0|1>" (1: the bit reached the child).
 *   ue_client storm DIR 'name fields' SECONDS THREADS
 *	THREADS writers on one fd for SECONDS, errors ignored; then prints
 *	"writes=<n> errors=<n>" (for teardown tests: the event deleted, the
 *	module unloaded under them).
 *   ue_client multi DIR FLAGS 'name fields'...
 *	register each command on one fd with USER_EVENT_REG_MULTI_FORMAT
 *	and the other flags FLAGS (a number), command i on bit i of one
 *	word; print the write indexes ("0 1 0"), or the errno name of the
 *	first failure, then "ready", then sleep until killed.
 *   ue_client del DIR NAME
 *	DIAG_IOCSDEL NAME: prints "ok" or the errno name.
 *   ue_client forksync DIR 'name fields' N
 *	register; N times fork a child that unregisters its copy at once
 *	(prints "child_unreg=<successes>/N"); then fork, unregister in the
 *	parent at once and enable the event: the child's own registration
 *	must still get the bit ("parent_first=<0|1>").
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/user_events.h>

#define MAXF 32

struct field {
	char type[64];
	unsigned int size;
	int loc; /* 0 none, 1 data, 2 rel */
	int is_char;
};

static struct field fields[MAXF];
static unsigned int nfields;
static int fd;
static volatile unsigned int enabled;
static int write_index;
static volatile int stop;

/* A crude parse of "name t f;t f" into sizes, enough for the tests. */
static void parse(const char *cmd)
{
	const char *p = strchr(cmd, ' ');
	char buf[512], *save, *tok;

	if (!p)
		return;
	snprintf(buf, sizeof(buf), "%s", p + 1);
	for (tok = strtok_r(buf, ";", &save); tok && nfields < MAXF;
	     tok = strtok_r(NULL, ";", &save)) {
		struct field *f = &fields[nfields];
		char *br;

		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		snprintf(f->type, sizeof(f->type), "%s", tok);
		if (!strncmp(tok, "__data_loc", 10) ||
		    !strncmp(tok, "__rel_loc", 9)) {
			f->loc = tok[2] == 'd' ? 1 : 2;
			f->is_char = 1;
			f->size = 4;
		} else if ((br = strchr(tok, '['))) {
			f->size = strtoul(br + 1, NULL, 0);
			f->is_char = 1;
		} else if (strstr(tok, "64")) {
			f->size = 8;
		} else if (strstr(tok, "32") || !strncmp(tok, "int", 3) ||
			   !strncmp(tok, "unsigned int", 12)) {
			f->size = 4;
		} else if (strstr(tok, "16") || strstr(tok, "short")) {
			f->size = 2;
		} else {
			f->size = 1;
		}
		nfields++;
	}
}

static void open_reg(const char *dir, const char *cmd)
{
	struct user_reg reg = { 0 };
	char path[256];

	snprintf(path, sizeof(path), "%s/user_events_data", dir);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perror(path);
		exit(2);
	}
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(enabled);
	reg.enable_addr = (unsigned long)&enabled;
	reg.name_args = (unsigned long)cmd;
	if (ioctl(fd, DIAG_IOCSREG, &reg) < 0) {
		printf("reg: %s\n", strerror(errno));
		exit(2);
	}
	write_index = reg.write_index;
	parse(cmd);
}

/* Build record @i into @buf; returns its length. */
static size_t build(char *buf, unsigned int i, char **keys, int nkeys)
{
	size_t fixed = 0, len, off;
	const char *key = keys[i % nkeys];
	unsigned int k;
	unsigned long long v = i % 7;

	for (k = 0; k < nfields; k++)
		fixed += fields[k].size;
	len = fixed;
	for (k = 0, off = 0; k < nfields; off += fields[k++].size) {
		struct field *f = &fields[k];
		unsigned int loc, slen = strlen(key) + 1;

		if (f->loc) {
			/* Data after the fixed part; offsets as the ABI says. */
			if (f->loc == 1)
				loc = (slen << 16) | (unsigned int)(8 + len);
			else
				loc = (slen << 16) |
				      (unsigned int)(len - off - 4);
			memcpy(buf + off, &loc, 4);
			memcpy(buf + len, key, slen);
			len += slen;
		} else if (f->is_char) {
			memset(buf + off, 0, f->size);
			strncpy(buf + off, key, f->size - 1);
		} else {
			memcpy(buf + off, &v, f->size);
		}
	}
	return len;
}

static int emit(int argc, char **argv)
{
	static char *defkeys[] = { "k0", "k1", "k2" };
	unsigned int n = atoi(argv[4]), i, ok = 0, ebadf = 0, other = 0;
	char **keys = argc > 5 ? argv + 5 : defkeys;
	int nkeys = argc > 5 ? argc - 5 : 3;
	char buf[4096];
	struct iovec io[2];

	open_reg(argv[2], argv[3]);
	for (i = 0; i < n; i++) {
		io[0].iov_base = &write_index;
		io[0].iov_len = 4;
		io[1].iov_base = buf;
		io[1].iov_len = build(buf, i, keys, nkeys);
		if (writev(fd, io, 2) >= 0)
			ok++;
		else if (errno == EBADF)
			ebadf++;
		else
			other++;
	}
	printf("enabled=%u written=%u ebadf=%u other=%u\n", enabled, ok, ebadf,
	       other);
	return 0;
}

static int e2big(char **argv)
{
	static char buf[8192];
	struct iovec io[2];
	int ret;

	open_reg(argv[2], "__ue_big char[8] a");
	io[0].iov_base = &write_index;
	io[0].iov_len = 4;
	io[1].iov_base = buf;
	io[1].iov_len = 4096 - 16 - 8 - 8 + 1;
	ret = writev(fd, io, 2);
	printf("%s\n", ret < 0 ? (errno == E2BIG ? "E2BIG" : strerror(errno)) :
				 "written");
	return 0;
}

static int do_fork(char **argv)
{
	char path[256];
	int i, st, efd;
	pid_t pid;

	open_reg(argv[2], argv[3]);
	pid = fork();
	if (!pid) {
		enabled = 0; /* a private copy of the page */
		for (i = 0; i < 50 && !enabled; i++)
			usleep(100000);
		_exit(enabled ? 0 : 1);
	}
	usleep(300000);
	snprintf(path, sizeof(path), "%s/events/user_events/%.*s/enable",
		 argv[2], (int)strcspn(argv[3], " "), argv[3]);
	efd = open(path, O_WRONLY);
	if (efd < 0 || write(efd, "1", 1) != 1) {
		perror(path);
		return 2;
	}
	waitpid(pid, &st, 0);
	printf("child=%d parent=%u\n", WEXITSTATUS(st) == 0, enabled);
	if (write(efd, "0", 1) != 1)
		return 2;
	close(efd);
	return 0;
}

static unsigned long writes, errs;

static void *writer(void *arg __attribute__((unused)))
{
	static char *keys[] = { "storm" };
	char buf[4096];
	struct iovec io[2];
	unsigned int i = 0;

	while (!stop) {
		io[0].iov_base = &write_index;
		io[0].iov_len = 4;
		io[1].iov_base = buf;
		io[1].iov_len = build(buf, i++, keys, 1);
		if (writev(fd, io, 2) >= 0)
			__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&errs, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static int storm(char **argv)
{
	unsigned int secs = atoi(argv[4]), n = atoi(argv[5]), i;
	pthread_t t[16];

	open_reg(argv[2], argv[3]);
	printf("registered\n");
	fflush(stdout);
	if (n > 16)
		n = 16;
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, writer, NULL);
	sleep(secs);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("writes=%lu errors=%lu\n", writes, errs);
	return 0;
}

static const char *errname(int e)
{
	switch (e) {
	case EBUSY:
		return "EBUSY";
	case ENOENT:
		return "ENOENT";
	case EINVAL:
		return "EINVAL";
	case EADDRINUSE:
		return "EADDRINUSE";
	case ENOSPC:
		return "ENOSPC";
	case EPERM:
		return "EPERM";
	default:
		return strerror(e);
	}
}

static int data_open(const char *dir)
{
	char path[256];
	int d;

	snprintf(path, sizeof(path), "%s/user_events_data", dir);
	d = open(path, O_RDWR);
	if (d < 0) {
		perror(path);
		exit(2);
	}
	return d;
}

static int unreg_bit0(void)
{
	struct user_unreg u = { 0 };

	u.size = sizeof(u);
	u.disable_bit = 0;
	u.disable_addr = (unsigned long)&enabled;
	return ioctl(fd, DIAG_IOCSUNREG, &u);
}

static int forksync(char **argv)
{
	int i, n = atoi(argv[4]), st, ok = 0, efd;
	char path[256];
	pid_t pid;

	open_reg(argv[2], argv[3]);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid)
			_exit(unreg_bit0() ? 1 : 0);
		waitpid(pid, &st, 0);
		ok += WIFEXITED(st) && !WEXITSTATUS(st);
	}
	printf("child_unreg=%d/%d\n", ok, n);
	snprintf(path, sizeof(path), "%s/events/user_events/%.*s/enable",
		 argv[2], (int)strcspn(argv[3], " "), argv[3]);
	efd = open(path, O_WRONLY);
	if (efd < 0) {
		perror(path);
		return 2;
	}
	pid = fork();
	if (!pid) {
		for (i = 0; i < 50 && !enabled; i++)
			usleep(100000);
		_exit(enabled ? 0 : 1);
	}
	if (unreg_bit0() || write(efd, "1", 1) != 1) {
		perror("unreg/enable");
		return 2;
	}
	waitpid(pid, &st, 0);
	printf("parent_first=%d\n", WIFEXITED(st) && !WEXITSTATUS(st));
	if (write(efd, "0", 1) != 1)
		return 2;
	close(efd);
	return 0;
}

static int multi(int argc, char **argv)
{
	static unsigned long long word;
	unsigned int flags = strtoul(argv[3], NULL, 0);
	struct user_reg reg;
	int i, d = data_open(argv[2]);

	for (i = 4; i < argc && i - 4 < 64; i++) {
		memset(&reg, 0, sizeof(reg));
		reg.size = sizeof(reg);
		reg.flags = USER_EVENT_REG_MULTI_FORMAT | flags;
		reg.enable_bit = i - 4;
		reg.enable_size = sizeof(word);
		reg.enable_addr = (unsigned long)&word;
		reg.name_args = (unsigned long)argv[i];
		if (ioctl(d, DIAG_IOCSREG, &reg) < 0) {
			printf("%s%s\n", i > 4 ? "\n" : "", errname(errno));
			break;
		}
		printf("%s%u", i > 4 ? " " : "", reg.write_index);
	}
	if (i == argc)
		printf("\n");
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static int del(char **argv)
{
	int d = data_open(argv[2]);

	if (ioctl(d, DIAG_IOCSDEL, argv[3]) < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	close(d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "multi"))
		return multi(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "del"))
		return del(argv);
	if (argc >= 5 && !strcmp(argv[1], "forksync"))
		return forksync(argv);
	if (argc >= 5 && !strcmp(argv[1], "emit"))
		return emit(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "e2big"))
		return e2big(argv);
	if (argc >= 4 && !strcmp(argv[1], "fork"))
		return do_fork(argv);
	if (argc >= 6 && !strcmp(argv[1], "storm"))
		return storm(argv);
	fprintf(stderr, "usage: see the comment at the top of ue_client.c\n");
	return 2;
}
