// SPDX-License-Identifier: GPL-2.0
/*
 * stress_load - the event workload of the khist stress test.
 *
 *   stress_load -w WORKERS -n CALLS [-m MARKER]
 *   stress_load -w WORKERS -t SECONDS [-m MARKER]
 *
 * Forks WORKERS processes. Each one calls getpriority() exactly CALLS
 * times (or for SECONDS), the known count the test checks hist totals
 * against (a system call nothing else in the test VM makes: busybox's
 * timeout, for one, calls getppid()),
 * and in between makes the other events khist traces happen: a
 * sched_yield() every 64 calls (sched_switch, sched_waking), a child
 * forked and reaped every 1024 (sched_process_fork/exit/free, wakeups,
 * kmalloc) and, with -m, a write to MARKER (the trace_marker) every 256,
 * whose failure is ignored (the file goes away when khist is unloaded).
 * Prints one line per worker, "worker PID CALLS", once all have exited,
 * then "total N"; exits non-zero when a worker failed. Killing it kills
 * the workers.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 64

static long calls_done;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void side_events(long i, const char *marker)
{
	char line[64];
	pid_t c;
	int fd, len;

	if (i % 64 == 0)
		sched_yield();
	if (marker && i % 256 == 0) {
		fd = open(marker, O_WRONLY);
		if (fd >= 0) {
			len = snprintf(line, sizeof(line), "stress %d %ld",
				       (int)getpid(), i);
			/* khist may be gone: not an error here */
			len = write(fd, line, len);
			close(fd);
		}
	}
	if (i % 1024 == 0) {
		c = fork();
		if (c == 0)
			_exit(0);
		if (c > 0)
			waitpid(c, NULL, 0);
	}
}

/* One worker: the result file descriptor gets the number of calls made. */
static int worker(long calls, double secs, const char *marker, int out)
{
	double end = now() + secs;
	long i;

	for (i = 0; calls ? i < calls : 1; i++) {
		if (!calls && (i & 255) == 0 && now() >= end)
			break;
		syscall(SYS_getpriority, PRIO_PROCESS, 0);
		calls_done = i + 1;
		side_events(i, marker);
	}
	if (write(out, &calls_done, sizeof(calls_done)) != sizeof(calls_done))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int fds[MAX_WORKERS][2], workers = 1, opt, st, failed = 0, w;
	pid_t pids[MAX_WORKERS];
	const char *marker = NULL;
	long calls = 0, got, total = 0;
	double secs = 0;

	while ((opt = getopt(argc, argv, "w:n:t:m:")) != -1) {
		switch (opt) {
		case 'w':
			workers = atoi(optarg);
			break;
		case 'n':
			calls = atol(optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'm':
			marker = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (workers < 1 || workers > MAX_WORKERS || (calls <= 0) == (secs <= 0))
		goto usage;
	for (w = 0; w < workers; w++) {
		if (pipe(fds[w]))
			return perror("pipe"), 1;
		pids[w] = fork();
		if (pids[w] < 0)
			return perror("fork"), 1;
		if (pids[w] == 0) {
			/* Killing stress_load ends its workers too. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(fds[w][0]);
			_exit(worker(calls, secs, marker, fds[w][1]));
		}
		close(fds[w][1]);
	}
	for (w = 0; w < workers; w++) {
		got = -1;
		if (read(fds[w][0], &got, sizeof(got)) != sizeof(got))
			got = -1;
		if (waitpid(pids[w], &st, 0) != pids[w] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) || got < 0) {
			fprintf(stderr, "stress_load: worker %d failed\n",
				(int)pids[w]);
			failed = 1;
			continue;
		}
		printf("worker %d %ld\n", (int)pids[w], got);
		total += got;
	}
	printf("total %ld\n", total);
	return failed;
usage:
	fprintf(stderr,
		"usage: stress_load -w WORKERS (-n CALLS | -t SECONDS) [-m MARKER]\n");
	return 2;
}
