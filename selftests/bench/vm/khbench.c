// SPDX-License-Identifier: GPL-2.0
/*
 * khbench.c - the workloads of khist's per-event benchmark (make bench).
 *
 * Runs in the bench VM. Each workload repeats one deterministic operation
 * ITERS times, in BATCHES equal batches timed with CLOCK_MONOTONIC, and
 * prints one line:
 *
 *   ns=<mean ns per event> min=<fastest batch, ns per event>
 *   med=<median batch> cpu=<CPU time / wall time, %> events=<N>
 *
 * Under QEMU's -icount shift=0 a guest ns is one guest instruction, so the
 * figures are instruction counts and repeat exactly.
 *
 * Workloads (one "event" each, unless said otherwise):
 *   getppid N [THREADS]  syscall 110 (raw_syscalls:sys_enter, sys_exit);
 *                        THREADS > 1: N on each thread, thread t pinned to
 *                        CPU t, one batch timed from the common start to
 *                        the last thread's end
 *   enosys N KEYS        syscall 1000 + (i mod KEYS): no such syscall, so
 *                        -ENOSYS, but sys_enter sees id = that number, a
 *                        field whose value the workload controls
 *   fresh N [FIRST]      syscall FIRST + i (default 1000): a new id each time
 *   pingpong N           two processes on CPU 0 bounce a byte through two
 *                        pipes; an event is one context switch (two per
 *                        round trip), sched:sched_switch
 *   poll N               poll() on 31 ignored fds (fd -1) with no timeout:
 *                        more than fit on the kernel's stack, so exactly one
 *                        kmalloc() of 24 bytes and one kfree() per call
 *                        (kmem:kmalloc)
 *   read FILE [COPY]     read FILE to the end once, keeping a copy in COPY;
 *                        prints ns= and bytes=
 *   write FILE TEXT      append TEXT and a newline to FILE in one write();
 *                        on failure print the errno's text and exit 1
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_BATCHES 100
#define MAX_THREADS 8

static long iters;
static int batches = 20;
static int nthreads = 1;
static long keys = 1;
static long first = 1000;

static double now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One bare syscall instruction, no libc wrapper: exactly one sys_enter. */
static inline long raw_syscall0(long nr)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("khbench: sched_setaffinity");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(double *batch_ns, double total_ns, double cpu_ns,
		   long events_per_batch)
{
	double sorted[MAX_BATCHES];
	int i;

	memcpy(sorted, batch_ns, sizeof(double) * batches);
	qsort(sorted, batches, sizeof(double), cmp_double);
	for (i = 0; i < batches; i++)
		sorted[i] /= events_per_batch;
	printf("ns=%.2f min=%.2f med=%.2f cpu=%.1f events=%ld\n",
	       total_ns / ((double)events_per_batch * batches), sorted[0],
	       sorted[batches / 2], 100.0 * cpu_ns / total_ns,
	       events_per_batch * batches);
}

/* ---- syscall loops, optionally on several threads ---- */

enum loop_kind { LOOP_GETPPID, LOOP_ENOSYS, LOOP_FRESH, LOOP_POLL };

static enum loop_kind kind;
static pthread_barrier_t barrier;
static double batch_ns[MAX_BATCHES];
static double cpu_ns[MAX_THREADS];

static void run_batch(long from, long n)
{
	struct pollfd fds[31];
	long i;

	switch (kind) {
	case LOOP_GETPPID:
		for (i = 0; i < n; i++)
			raw_syscall0(SYS_getppid);
		break;
	case LOOP_ENOSYS:
		for (i = from; i < from + n; i++)
			raw_syscall0(1000 + i % keys);
		break;
	case LOOP_FRESH:
		for (i = from; i < from + n; i++)
			raw_syscall0(first + i);
		break;
	case LOOP_POLL:
		for (i = 0; i < 31; i++)
			fds[i] = (struct pollfd){ .fd = -1 };
		for (i = 0; i < n; i++)
			poll(fds, 31, 0);
		break;
	}
}

static void *loop_thread(void *arg)
{
	long t = (long)arg;
	long per = iters / batches;
	double c0, w0 = 0;
	int b;

	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	for (b = 0; b < batches; b++) {
		w0 = now_ns(CLOCK_MONOTONIC);
		run_batch(b * per, per);
		batch_ns[b] = now_ns(CLOCK_MONOTONIC) - w0;
	}
	cpu_ns[t] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

/*
 * Several threads: thread t pinned to CPU t, all start together and run
 * every iteration without further synchronisation; the figure is the wall
 * time until the last one is done, per iteration of one thread. (With
 * per-batch barriers, a vCPU that QEMU is not running at the time would
 * stall the other one at every barrier.)
 */
static void *par_thread(void *arg)
{
	long t = (long)arg;
	double c0;

	pin(t);
	pthread_barrier_wait(&barrier);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	run_batch(0, iters);
	cpu_ns[t] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

static int run_loop(void)
{
	pthread_t tid[MAX_THREADS];
	double total = 0, cpu = 0, w0;
	long t;
	int b;

	if (nthreads == 1) {
		loop_thread((void *)0);
		for (b = 0; b < batches; b++)
			total += batch_ns[b];
		report(batch_ns, total, cpu_ns[0], iters / batches);
		return 0;
	}
	pthread_barrier_init(&barrier, NULL, nthreads + 1);
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&tid[t], NULL, par_thread, (void *)t)) {
			fprintf(stderr, "khbench: pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&barrier);
	w0 = now_ns(CLOCK_MONOTONIC);
	for (t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	total = now_ns(CLOCK_MONOTONIC) - w0;
	for (t = 0; t < nthreads; t++)
		cpu += cpu_ns[t];
	batches = 1;
	batch_ns[0] = total;
	report(batch_ns, total, cpu / nthreads, iters);
	return 0;
}

/* ---- pipe ping-pong: two context switches per round trip ---- */

static int run_pingpong(void)
{
	long per = iters / batches, i;
	int ab[2], ba[2], b;
	double c0, w0;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba)) {
		perror("khbench: pipe");
		return 1;
	}
	pin(0);
	pid = fork();
	if (pid < 0) {
		perror("khbench: fork");
		return 1;
	}
	if (!pid) {
		close(ab[1]);
		close(ba[0]);
		for (;;) {
			if (read(ab[0], &c, 1) != 1)
				_exit(0);
			if (write(ba[1], &c, 1) != 1)
				_exit(1);
		}
	}
	close(ab[0]);
	close(ba[1]);
	/* One round trip first, so that the child is running and waiting. */
	if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
		return 1;
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	for (b = 0; b < batches; b++) {
		w0 = now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < per; i++) {
			if (write(ab[1], &c, 1) != 1 ||
			    read(ba[0], &c, 1) != 1) {
				perror("khbench: pingpong");
				return 1;
			}
		}
		batch_ns[b] = now_ns(CLOCK_MONOTONIC) - w0;
	}
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	close(ab[1]);
	waitpid(pid, NULL, 0);
	for (i = 0, w0 = 0; i < batches; i++)
		w0 += batch_ns[i];
	/*
	 * cpu%: both processes share CPU 0, so the parent's share of the wall
	 * time is about half; double it to read 100 when nothing else ran.
	 */
	report(batch_ns, w0, 2 * c0, 2 * per);
	return 0;
}

static int run_read(const char *path, const char *copy)
{
	static char buf[1 << 16];
	int fd, out = -1;
	long total = 0;
	double w0;
	ssize_t n;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "khbench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (copy) {
		out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0) {
			fprintf(stderr, "khbench: %s: %s\n", copy,
				strerror(errno));
			return 1;
		}
	}
	/* The copy goes to tmpfs: a memcpy per chunk, timed with the read. */
	w0 = now_ns(CLOCK_MONOTONIC);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		total += n;
		if (out >= 0 && write(out, buf, n) != n) {
			perror("khbench: copy");
			return 1;
		}
	}
	w0 = now_ns(CLOCK_MONOTONIC) - w0;
	close(fd);
	if (out >= 0)
		close(out);
	if (n < 0) {
		fprintf(stderr, "khbench: read %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	printf("ns=%.0f bytes=%ld\n", w0, total);
	return 0;
}

static int run_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	char *line = malloc(len + 2);
	int fd, err = 0;

	if (!line)
		return 1;
	memcpy(line, text, len);
	line[len] = '\n';
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, line, len + 1) != (ssize_t)(len + 1))
		err = errno;
	if (fd >= 0)
		close(fd);
	free(line);
	if (err) {
		printf("%s\n", strerror(err));
		return 1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: khbench getppid N [THREADS] | enosys N KEYS | fresh N [FIRST]\n"
		"       | pingpong N | poll N | read FILE [COPY] | write FILE TEXT\n"
		"       (env KHBENCH_BATCHES: batches per run, 20)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *w;

	if (argc < 3)
		usage();
	w = argv[1];
	if (!strcmp(w, "read"))
		return run_read(argv[2], argc > 3 ? argv[3] : NULL);
	if (!strcmp(w, "write") && argc > 3)
		return run_write(argv[2], argv[3]);
	iters = atol(argv[2]);
	if (getenv("KHBENCH_BATCHES"))
		batches = atoi(getenv("KHBENCH_BATCHES"));
	if (batches < 1 || batches > MAX_BATCHES || iters < batches)
		usage();
	iters -= iters % batches;
	if (!strcmp(w, "getppid")) {
		kind = LOOP_GETPPID;
		if (argc > 3)
			nthreads = atoi(argv[3]);
		if (nthreads < 1 || nthreads > MAX_THREADS)
			usage();
	} else if (!strcmp(w, "enosys") && argc > 3) {
		kind = LOOP_ENOSYS;
		keys = atol(argv[3]);
		if (keys < 1)
			usage();
	} else if (!strcmp(w, "fresh")) {
		kind = LOOP_FRESH;
		if (argc > 3)
			first = atol(argv[3]);
	} else if (!strcmp(w, "poll")) {
		kind = LOOP_POLL;
	} else if (!strcmp(w, "pingpong")) {
		return run_pingpong();
	} else {
		usage();
	}
	return run_loop();
}
