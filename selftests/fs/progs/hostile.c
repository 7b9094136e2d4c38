// SPDX-License-Identifier: GPL-2.0
/*
 * hostile - a group reader of a gid= mount that tries to stall root, and
 * root's side that times its control writes meanwhile.
 *
 *   hostile uffd FILE SECS
 *	read FILE (trace_pipe) into a page that userfaultfd leaves missing:
 *	the read blocks inside the kernel's copy to user space. Prints
 *	"fault held" once it does, keeps it blocked SECS seconds, then
 *	fills the page and prints what the read returned ("read N").
 *   hostile reader MNT SECS NHIST HIST...
 *	for SECS seconds: hold MNT/trace and MNT/snapshot open and storm
 *	them with lseek and pread at large offsets, read the HIST files
 *	through NHIST fds each, and block in MNT/trace_pipe reads. Prints
 *	"reader done" and counts.
 *   hostile pin FILE N USED
 *	open FILE N times and read each fd to its end, all kept open; print
 *	how many reads succeeded, failed with ENOSPC or otherwise, and how
 *	much the number in file USED (mem_used) grew meanwhile.
 *   hostile control MNT SECS DEADLINE_MS
 *	for SECS seconds (at least one round): root's control writes
 *	(tracing_on, buffer_size_kb, a trigger, mkdir/rmdir of an instance,
 *	a synthetic event). Prints each kind's worst latency; exits 1 when
 *	one took longer than DEADLINE_MS or failed other than with EBUSY
 *	(buffer_size_kb while a reader iterates: ftrace's answer too).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* ---- uffd ---- */

struct uffd_read {
	int fd;
	char *page;
	ssize_t ret;
	int err;
};

static void *uffd_reader(void *arg)
{
	struct uffd_read *r = arg;

	r->ret = read(r->fd, r->page, 4096);
	r->err = errno;
	return NULL;
}

static int do_uffd(const char *file, int secs)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_zeropage zp = { 0 };
	struct uffd_read r = { 0 };
	struct uffd_msg msg;
	struct pollfd pfd;
	long psz = sysconf(_SC_PAGESIZE);
	pthread_t th;
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	r.page = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.page == MAP_FAILED)
		die("mmap");
	reg.range.start = (unsigned long)r.page;
	reg.range.len = psz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	r.fd = open(file, O_RDONLY);
	if (r.fd < 0)
		die(file);
	if (pthread_create(&th, NULL, uffd_reader, &r))
		die("pthread_create");
	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 30000) != 1)
		die("no fault within 30 s");
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		die("uffd message");
	printf("fault held\n");
	fflush(stdout);
	sleep(secs);
	zp.range.start = (unsigned long)r.page;
	zp.range.len = psz;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp) && errno != EEXIST)
		die("UFFDIO_ZEROPAGE");
	pthread_join(th, NULL);
	if (r.ret < 0)
		printf("read error %d\n", r.err);
	else
		printf("read %zd\n", r.ret);
	return 0;
}

/* ---- reader ---- */

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	stop = 1;
}

/* Stop after @secs: SIGALRM interrupts a sleeping read (no SA_RESTART). */
static void stop_after(int secs)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		die("sigaction");
	alarm(secs);
}

static int open_or_die(const char *mnt, const char *name, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	fd = open(path, flags);
	if (fd < 0)
		die(path);
	return fd;
}

/* lseek and pread at offsets up to far past the end. */
static long storm_seek(int fd, unsigned int *seed)
{
	static char buf[65536];
	off_t off = (off_t)(rand_r(seed) % 64) << 16;
	long n = 0;

	if (lseek(fd, off, SEEK_SET) >= 0 && read(fd, buf, 4096) >= 0)
		n++;
	if (pread(fd, buf, sizeof(buf), off << 4) >= 0)
		n++;
	return n;
}

static long read_all(int fd)
{
	static char buf[1 << 16];
	long total = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	return n < 0 ? -1 : total;
}

static int do_reader(const char *mnt, int secs, int nhist, int nfiles,
		     char **files)
{
	unsigned int seed = getpid();
	long seeks = 0, hists = 0, hist_err = 0, pipe_bytes = 0;
	int trace, snap, pipefd, *hfd, i, j;
	pid_t pipe_pid, hist_pid;
	char buf[4096];
	ssize_t n;

	trace = open_or_die(mnt, "trace", O_RDONLY);
	snap = open_or_die(mnt, "snapshot", O_RDONLY);
	/* A child sleeps in trace_pipe reads the whole time. */
	pipe_pid = fork();
	if (pipe_pid < 0)
		die("fork");
	if (!pipe_pid) {
		pipefd = open_or_die(mnt, "trace_pipe", O_RDONLY);
		stop_after(secs);
		while (!stop) {
			n = read(pipefd, buf, sizeof(buf));
			if (n > 0)
				pipe_bytes += n;
		}
		printf("pipe bytes %ld\n", pipe_bytes);
		exit(0);
	}
	/* Another reads the hist files through nhist fds each. */
	hist_pid = fork();
	if (hist_pid < 0)
		die("fork");
	if (!hist_pid) {
		hfd = calloc((size_t)nhist * nfiles, sizeof(*hfd));
		if (!hfd)
			die("calloc");
		for (i = 0; i < nfiles; i++)
			for (j = 0; j < nhist; j++)
				hfd[i * nhist + j] = open(files[i], O_RDONLY);
		stop_after(secs);
		while (!stop) {
			for (i = 0; i < nhist * nfiles && !stop; i++) {
				if (hfd[i] < 0 || read_all(hfd[i]) < 0)
					hist_err++;
				else
					hists++;
			}
		}
		printf("hist reads %ld, errors %ld\n", hists, hist_err);
		exit(0);
	}
	/* And this one seeks far into trace and snapshot. */
	stop_after(secs);
	while (!stop)
		seeks += storm_seek(trace, &seed) + storm_seek(snap, &seed);
	waitpid(pipe_pid, NULL, 0);
	waitpid(hist_pid, NULL, 0);
	printf("reader done: %ld seeks\n", seeks);
	return 0;
}

/* ---- pin ---- */

static long long read_ll(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%lld", &v) != 1)
		die(path);
	fclose(f);
	return v;
}

/* Open FILE N times and read each fd to the end, keeping them all open. */
static int do_pin(const char *file, int n, const char *used)
{
	static char buf[1 << 16];
	long long before = read_ll(used);
	int ok = 0, enospc = 0, other = 0, i, fd;
	ssize_t r;

	for (i = 0; i < n; i++) {
		fd = open(file, O_RDONLY);
		if (fd < 0) {
			if (errno == ENOSPC)
				enospc++;
			else
				other++;
			continue;
		}
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			;
		if (!r)
			ok++;
		else if (errno == ENOSPC)
			enospc++;
		else
			other++;
	}
	printf("read %d enospc %d other %d pinned %lld\n", ok, enospc, other,
	       read_ll(used) - before);
	return 0;
}

/* ---- control ---- */

enum { C_ON, C_SIZE, C_TRIG, C_MKDIR, C_RMDIR, C_SYNTH, C_NR };
static const char *const cname[C_NR] = {
	"tracing_on", "buffer_size_kb", "trigger", "mkdir", "rmdir", "synth",
};
static double worst[C_NR];
static long count[C_NR], busy;
static int failed;

static void timed(int kind, double t0, int ret, int deadline)
{
	double dt = now_ms() - t0;

	count[kind]++;
	if (dt > worst[kind])
		worst[kind] = dt;
	if (dt > deadline) {
		printf("%s took %.0f ms (deadline %d ms)\n", cname[kind], dt,
		       deadline);
		failed = 1;
	}
	if (ret < 0 && kind == C_SIZE && errno == EBUSY) {
		busy++;
	} else if (ret < 0) {
		printf("%s: %s\n", cname[kind], strerror(errno));
		failed = 1;
	}
}

static int write_str(const char *mnt, const char *name, const char *s,
		     int flags)
{
	char path[4096];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n < 0 ? -1 : 0;
}

static int do_control(const char *mnt, int secs, int deadline)
{
	static const char *const trig = "events/sched/sched_switch/trigger";
	double t0, end = now_ms() + secs * 1e3;
	char dir[4096];
	int ret, i;

	snprintf(dir, sizeof(dir), "%s/instances/hostile", mnt);
	do {
		t0 = now_ms();
		ret = write_str(mnt, "tracing_on", "0", O_TRUNC);
		if (!ret)
			ret = write_str(mnt, "tracing_on", "1", O_TRUNC);
		timed(C_ON, t0, ret, deadline);
		t0 = now_ms();
		/* ftrace's default size (1410 KiB shown): nothing left changed. */
		ret = write_str(mnt, "buffer_size_kb", "1408", O_TRUNC);
		timed(C_SIZE, t0, ret, deadline);
		t0 = now_ms();
		ret = write_str(mnt, trig, "hist:keys=common_pid", O_TRUNC);
		if (!ret)
			ret = write_str(mnt, trig, "!hist:keys=common_pid",
					O_APPEND);
		timed(C_TRIG, t0, ret, deadline);
		t0 = now_ms();
		ret = mkdir(dir, 0755);
		timed(C_MKDIR, t0, ret, deadline);
		t0 = now_ms();
		ret = rmdir(dir);
		timed(C_RMDIR, t0, ret, deadline);
		t0 = now_ms();
		ret = write_str(mnt, "synthetic_events", "hostile_ev u64 x",
				O_APPEND);
		if (!ret)
			ret = write_str(mnt, "synthetic_events", "!hostile_ev",
					O_APPEND);
		timed(C_SYNTH, t0, ret, deadline);
	} while (now_ms() < end);
	for (i = 0; i < C_NR; i++)
		printf("worst %s %.0f ms (%ld writes)\n", cname[i], worst[i],
		       count[i]);
	printf("buffer_size_kb EBUSY %ld\n", busy);
	return failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "uffd"))
		return do_uffd(argv[2], atoi(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "reader"))
		return do_reader(argv[2], atoi(argv[3]), atoi(argv[4]),
				 argc - 5, argv + 5);
	if (argc == 5 && !strcmp(argv[1], "pin"))
		return do_pin(argv[2], atoi(argv[3]), argv[4]);
	if (argc == 5 && !strcmp(argv[1], "control"))
		return do_control(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr,
		"usage: hostile uffd FILE SECS | reader MNT SECS NHIST HIST... | pin FILE N USED | control MNT SECS DEADLINE_MS\n");
	return 2;
}
