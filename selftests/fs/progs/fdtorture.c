// SPDX-License-Identifier: GPL-2.0
/*
 * fdtorture - open file descriptors against removal of what they name.
 *
 *   fdtorture io FD read|write [TEXT]
 *	one read (up to 64 bytes) or write of TEXT on an inherited FD;
 *	prints "data N" or "error NAME".
 *   fdtorture matrix MNT REMOVE-CMD PATH...
 *	walk every PATH (files and directories below it), open each entry
 *	O_RDONLY and, when writable, O_RDWR; run REMOVE-CMD with sh; spray
 *	the slab by making synthetic events with long field names in
 *	MNT/synthetic_events; then read, write, lseek, poll, getdents and
 *	openat every fd, remove the spray, do it all again, close. Prints a
 *	count per call and result and "matrix ok"; the VM must survive.
 *   fdtorture spray MNT N create|delete
 *	the spray alone: N synthetic events zspN with long field names.
 *   fdtorture churn MNT SECONDS
 *	C1: one thread mkdirs and rmdirs instances/c1 while two threads
 *	stat, open and list paths below it; prints the counts.
 *   fdtorture readdir-stall DIR STAT-PATH
 *	getdents64 on DIR into a buffer whose second page faults into a
 *	userfaultfd nobody serves, so the call sleeps in the middle of the
 *	listing; meanwhile stat STAT-PATH must finish within 5 s. Prints
 *	"lookup ok MS" or "lookup blocked", then lets the listing finish.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 65536

struct ent {
	char path[512];
	int fd;
	int is_dir;
	int rw;
};

static struct ent ents[MAX_FDS];
static int nents;

/* Results seen: one counter per (call, errno), errno 0 meaning success. */
static const char *const calls[] = { "read",	 "write",  "lseek", "poll",
				     "getdents", "openat", "fstat" };
#define NR_CALLS (sizeof(calls) / sizeof(calls[0]))
static unsigned long seen[NR_CALLS][256];

static void note(unsigned int call, long ret)
{
	int e = ret < 0 ? errno : 0;

	seen[call][e < 256 ? e : 255]++;
}

static void add(const char *path, int is_dir, int flags)
{
	int fd;

	if (nents >= MAX_FDS) {
		fprintf(stderr, "too many entries\n");
		exit(2);
	}
	fd = open(path,
		  flags | O_NONBLOCK | O_CLOEXEC | (is_dir ? O_DIRECTORY : 0));
	if (fd < 0) {
		fprintf(stderr, "open %s (%s): %s\n", path,
			(flags & O_ACCMODE) == O_RDWR ? "rw" : "ro",
			strerror(errno));
		exit(1);
	}
	snprintf(ents[nents].path, sizeof(ents[nents].path), "%s", path);
	ents[nents].fd = fd;
	ents[nents].is_dir = is_dir;
	ents[nents].rw = (flags & O_ACCMODE) == O_RDWR;
	nents++;
}

static void walk(const char *path)
{
	char sub[512];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (lstat(path, &st)) {
		fprintf(stderr, "stat %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		if (st.st_mode & S_IRUSR)
			add(path, 0, O_RDONLY);
		if ((st.st_mode & (S_IRUSR | S_IWUSR)) == (S_IRUSR | S_IWUSR))
			add(path, 0, O_RDWR);
		else if (st.st_mode & S_IWUSR)
			add(path, 0, O_WRONLY);
		return;
	}
	add(path, 1, O_RDONLY);
	dir = opendir(path);
	if (!dir) {
		fprintf(stderr, "opendir %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
		walk(sub);
	}
	closedir(dir);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * N synthetic events, each with fields whose names fill kmalloc-32 up to
 * kmalloc-256 with 'B' (0x42): a freed object reused for them reads as
 * pointers 0x4242424242424242.
 */
static void spray(const char *mnt, int n, int create)
{
	static const int lens[] = { 24, 56, 100, 200 };
	char path[512], cmd[4096], name[256];
	int i, j, len, nf;

	snprintf(path, sizeof(path), "%s/synthetic_events", mnt);
	for (i = 0; i < n; i++) {
		if (!create) {
			snprintf(cmd, sizeof(cmd), "!zsp%d", i);
			write_file(path, cmd);
			continue;
		}
		len = lens[i % 4];
		nf = 3000 / (len + 6);
		if (nf > 60)
			nf = 60;
		snprintf(cmd, sizeof(cmd), "zsp%d", i);
		for (j = 0; j < nf; j++) {
			memset(name, 'B', len);
			snprintf(name + len, sizeof(name) - len, "%02d", j);
			snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd),
				 "%s u64 %s", j ? ";" : "", name);
		}
		if (write_file(path, cmd))
			fprintf(stderr, "spray zsp%d: %s\n", i,
				strerror(errno));
	}
}

static void exercise(const char *mnt)
{
	char buf[8192], name[256];
	struct pollfd pfd;
	struct stat st;
	int i, fd;
	long r;

	for (i = 0; i < nents; i++) {
		struct ent *e = &ents[i];

		r = read(e->fd, buf, sizeof(buf));
		note(0, r);
		r = pread(e->fd, buf, 64, 0);
		note(0, r);
		if (e->rw) {
			r = write(e->fd, "1\n", 2);
			note(1, r);
			r = write(e->fd, "0\n", 2);
			note(1, r);
		}
		r = lseek(e->fd, 0, SEEK_SET);
		note(2, r);
		r = lseek(e->fd, 1, SEEK_CUR);
		note(2, r);
		r = lseek(e->fd, 0, SEEK_END);
		note(2, r);
		pfd.fd = e->fd;
		pfd.events = POLLIN | POLLOUT;
		r = poll(&pfd, 1, 0);
		note(3, r);
		lseek(e->fd, 0, SEEK_SET);
		r = syscall(SYS_getdents64, e->fd, buf, sizeof(buf));
		note(4, r);
		r = fstat(e->fd, &st);
		note(6, r);
		if (!e->is_dir)
			continue;
		/* Every name it had: a removed directory has none left. */
		snprintf(name, sizeof(name), "%s", "enable");
		fd = openat(e->fd, name, O_RDONLY | O_NONBLOCK);
		note(5, fd);
		if (fd >= 0) {
			fprintf(stderr, "openat %s/%s works after removal\n",
				e->path, name);
			exit(1);
		}
	}
	(void)mnt;
}

static void report(void)
{
	unsigned int c, e;

	for (c = 0; c < NR_CALLS; c++)
		for (e = 0; e < 256; e++)
			if (seen[c][e])
				printf("%s %s %lu\n", calls[c],
				       e ? strerrorname_np(e) : "ok",
				       seen[c][e]);
}

static int matrix(int argc, char **argv)
{
	const char *mnt = argv[2];
	struct rlimit rl = { MAX_FDS + 64, MAX_FDS + 64 };
	int i;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		perror("setrlimit");
	for (i = 4; i < argc; i++)
		walk(argv[i]);
	printf("opened %d fds\n", nents);
	fflush(stdout);
	if (system(argv[3])) {
		fprintf(stderr, "removal failed: %s\n", argv[3]);
		return 1;
	}
	for (i = 0; i < nents; i++)
		if (!access(ents[i].path, F_OK)) {
			fprintf(stderr, "%s still there\n", ents[i].path);
			return 1;
		}
	spray(mnt, 16, 1);
	exercise(mnt);
	spray(mnt, 16, 0);
	exercise(mnt);
	for (i = 0; i < nents; i++)
		close(ents[i].fd);
	report();
	printf("matrix ok\n");
	return 0;
}

static int io(int argc, char **argv)
{
	int fd = atoi(argv[2]);
	char buf[64];
	ssize_t n;

	if (!strcmp(argv[3], "read"))
		n = read(fd, buf, sizeof(buf));
	else
		n = write(fd, argc > 4 ? argv[4] : "",
			  argc > 4 ? strlen(argv[4]) : 0);
	if (n < 0)
		printf("error %s\n", strerrorname_np(errno));
	else
		printf("data %zd\n", n);
	return 0;
}

/* ---- C1: lookups against mkdir/rmdir ---- */

static volatile int stop;
static const char *churn_mnt;
static unsigned long nr_dirs, nr_stats, nr_opens;

static void *churn_dirs(void *arg)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/instances/c1", churn_mnt);
	while (!stop) {
		if (!mkdir(path, 0750))
			rmdir(path);
		__atomic_add_fetch(&nr_dirs, 1, __ATOMIC_RELAXED);
	}
	return arg;
}

static void *churn_lookups(void *arg)
{
	static const char *const tails[] = {
		"",
		"/events",
		"/events/sched",
		"/events/sched/enable",
		"/events/sched/sched_switch",
		"/events/sched/sched_switch/format",
		"/events/sched/sched_switch/enable",
		"/trace",
		"/options",
	};
	char path[512], buf[256];
	unsigned int i = 0;
	struct stat st;
	int fd;

	while (!stop) {
		snprintf(path, sizeof(path), "%s/instances/c1%s", churn_mnt,
			 tails[i++ % (sizeof(tails) / sizeof(tails[0]))]);
		stat(path, &st);
		__atomic_add_fetch(&nr_stats, 1, __ATOMIC_RELAXED);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (read(fd, buf, sizeof(buf)) < 0 && errno == EISDIR)
			syscall(SYS_getdents64, fd, buf, sizeof(buf));
		close(fd);
		__atomic_add_fetch(&nr_opens, 1, __ATOMIC_RELAXED);
	}
	return arg;
}

static int churn(char **argv)
{
	pthread_t t[3];
	int i;

	churn_mnt = argv[2];
	pthread_create(&t[0], NULL, churn_dirs, NULL);
	pthread_create(&t[1], NULL, churn_lookups, NULL);
	pthread_create(&t[2], NULL, churn_lookups, NULL);
	sleep(atoi(argv[3]));
	stop = 1;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("churn mkdir/rmdir %lu stat %lu open %lu\n", nr_dirs, nr_stats,
	       nr_opens);
	return nr_dirs && nr_opens ? 0 : 1;
}

/* ---- B1: readdir into a slow buffer ---- */

static int dir_fd;
static char *dents;
static long dents_ret;

static void *lister(void *arg)
{
	dents_ret = syscall(SYS_getdents64, dir_fd, dents, 4096);
	return arg;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

struct stat_job {
	const char *path;
	volatile int done;
	int ret;
};

static void *stater(void *arg)
{
	struct stat_job *j = arg;
	struct stat st;

	j->ret = stat(j->path, &st);
	j->done = 1;
	return NULL;
}

static int readdir_stall(char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {};
	struct uffdio_zeropage zp = {};
	struct stat_job job = { .path = argv[3] };
	long psz = sysconf(_SC_PAGESIZE);
	struct timespec t0;
	pthread_t t, s;
	int uffd, blocked;
	char *area;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0) {
		printf("unsupported userfaultfd: %s\n", strerror(errno));
		return 3;
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		perror("UFFDIO_API");
		return 1;
	}
	area = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	area[0] = 1; /* the first page is there, the second is not */
	reg.range.start = (unsigned long)area;
	reg.range.len = 2 * psz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		perror("UFFDIO_REGISTER");
		return 1;
	}
	dir_fd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (dir_fd < 0) {
		perror(argv[2]);
		return 1;
	}
	/* "." and ".." fit in the first page; the first child does not. */
	dents = area + psz - 56;
	pthread_create(&t, NULL, lister, NULL);
	/* Wait until the listing sleeps on the missing page. */
	{
		struct pollfd p = { .fd = uffd, .events = POLLIN };
		struct uffd_msg msg;

		if (poll(&p, 1, 5000) != 1 ||
		    read(uffd, &msg, sizeof(msg)) != sizeof(msg)) {
			printf("listing did not fault\n");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&s, NULL, stater, &job);
	while (!job.done && ms_since(&t0) < 5000)
		usleep(10000);
	blocked = !job.done;
	if (!blocked)
		printf("lookup ok %ld ms (%s)\n", ms_since(&t0),
		       job.ret ? "not found" : "found");
	else
		printf("lookup blocked\n");
	fflush(stdout);
	zp.range.start = (unsigned long)area + psz;
	zp.range.len = psz;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
		perror("UFFDIO_ZEROPAGE");
	pthread_join(t, NULL);
	pthread_join(s, NULL);
	printf("listing returned %ld\n", dents_ret);
	return !blocked && dents_ret > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "io"))
		return io(argc, argv);
	if (argc >= 5 && !strcmp(argv[1], "matrix"))
		return matrix(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "spray")) {
		spray(argv[2], atoi(argv[3]), !strcmp(argv[4], "create"));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "churn"))
		return churn(argv);
	if (argc == 4 && !strcmp(argv[1], "readdir-stall"))
		return readdir_stall(argv);
	fprintf(stderr, "usage: see the comment at the top of fdtorture.c\n");
	return 2;
}
