// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs_test.c - Debian's libtracefs drives khist.
 *
 *   khist-tracefs-test KHIST_DIR [TEST]
 *
 * libtracefs is pointed at the khist mount with tracefs_set_tracing_dir()
 * and, because its existence checks for the top-level (NULL) instance look
 * at the real tracefs, every call gets tracefs_instance_alloc(KHIST_DIR,
 * NULL) instead of NULL. Tests (TAP lines, names stable for the stage's
 * known-missing table):
 *   events  libtracefs loads khist's events (tracefs_local_events)
 *   hist    tracefs_hist_* start/pause/continue/reset/destroy of a hist
 *           keyed by common_pid and ip.sym on ftrace/print, driven through
 *           trace_marker; our pid's hitcount checked after each step
 *   synth   tracefs_synth_*: wakeup latency from sched_waking to
 *           sched_switch, a hist on the synthetic event shows our sleeper
 *   sql     tracefs_sql(): the same join written in SQL
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <tracefs.h>

static char *dir;
static struct tracefs_instance *top;
static struct tep_handle *tep;

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Show the file as TAP comments (after a failure). */
static void diag_file(const char *sys, const char *ev, const char *file)
{
	char *text = tracefs_event_file_read(top, sys, ev, file, NULL);
	char *line, *save = NULL;

	diag("--- %s/%s/%s:", sys, ev, file);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		diag("  %s", line);
	free(text);
}

static void diag_errlog(void)
{
	char *err = tracefs_error_all(top);

	if (err && *err)
		diag("error_log: %s", err);
	free(err);
}

/* The command libtracefs writes for @hist. */
static void diag_hist_cmd(struct tracefs_hist *hist)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	tracefs_hist_echo_cmd(&seq, top, hist, TRACEFS_HIST_CMD_START);
	trace_seq_terminate(&seq);
	diag("command: %s", seq.buffer);
	trace_seq_destroy(&seq);
}

static int marker(const char *text)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * The hitcount of the hist line whose key part contains @key, -1 if there
 * is no such line, -2 if the file cannot be read.
 */
static long hits(const char *sys, const char *ev, const char *key)
{
	char *text = tracefs_event_file_read(top, sys, ev, "hist", NULL);
	char *line, *save = NULL, *h;
	long n = -1;

	if (!text)
		return -2;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{' || !strstr(line, key))
			continue;
		h = strstr(line, "hitcount:");
		if (h)
			n = strtol(h + 9, NULL, 10);
	}
	free(text);
	return n;
}

static int file_has(const char *sys, const char *ev, const char *file,
		    const char *what)
{
	char *text = tracefs_event_file_read(top, sys, ev, file, NULL);
	int ret = text && strstr(text, what);

	free(text);
	return ret;
}

static int result(int ok, const char *name)
{
	printf("%s - tracefs: %s\n", ok ? "ok" : "not ok", name);
	return ok ? 0 : 1;
}

static int test_events(void)
{
	static const char *const need[][2] = {
		{ "sched", "sched_waking" },
		{ "sched", "sched_switch" },
		{ "kmem", "kmalloc" },
		{ "ftrace", "print" },
	};
	unsigned int i;
	int ok = !!tep;

	for (i = 0; ok && i < sizeof(need) / sizeof(need[0]); i++)
		if (!tep_find_event_by_name(tep, need[i][0], need[i][1])) {
			diag("event %s/%s not loaded", need[i][0], need[i][1]);
			ok = 0;
		}
	return result(ok,
		      "events: tracefs_local_events() loads khist's events");
}

/* Expect @want hits on our own line of ftrace/print's hist, or diagnose. */
static int expect_hits(struct tracefs_hist *hist, const char *step, long want)
{
	char key[64];
	long got;

	snprintf(key, sizeof(key), "common_pid: %10d,", (int)getpid());
	got = hits("ftrace", "print", key);
	if (got == want)
		return 1;
	diag("%s: hitcount of '%s' is %ld, want %ld", step, key, got, want);
	diag_hist_cmd(hist);
	diag_file("ftrace", "print", "trigger");
	diag_file("ftrace", "print", "hist");
	diag_errlog();
	return 0;
}

static int markers(int n)
{
	while (n--)
		if (marker("khist-tracefs-test"))
			return -1;
	return 0;
}

/*
 * A two-key hist (our pid, the writer's address as a symbol) on
 * ftrace/print, sorted by hitcount, driven by trace_marker writes.
 */
static int test_hist(void)
{
	struct tracefs_hist *hist;
	int ok = 0;

	hist = tracefs_hist_alloc_2d(tep, "ftrace", "print", "common_pid",
				     TRACEFS_HIST_KEY_NORMAL, "ip",
				     TRACEFS_HIST_KEY_SYM);
	if (!hist || tracefs_hist_add_sort_key(hist, "hitcount") ||
	    tracefs_hist_sort_key_direction(hist, "hitcount",
					    TRACEFS_HIST_SORT_DESCENDING)) {
		diag("tracefs_hist_alloc_2d failed");
		goto out;
	}
	if (tracefs_hist_start(top, hist)) {
		diag("tracefs_hist_start: %s", strerror(errno));
		diag_hist_cmd(hist);
		diag_errlog();
		goto out;
	}
	if (markers(3) || !expect_hits(hist, "start", 3))
		goto out;
	if (tracefs_hist_pause(top, hist) ||
	    !file_has("ftrace", "print", "trigger", "[paused]")) {
		diag("tracefs_hist_pause did not pause");
		diag_file("ftrace", "print", "trigger");
		goto out;
	}
	if (markers(2) || !expect_hits(hist, "paused", 3))
		goto out;
	if (tracefs_hist_continue(top, hist)) {
		diag("tracefs_hist_continue: %s", strerror(errno));
		goto out;
	}
	if (markers(1) || !expect_hits(hist, "continued", 4))
		goto out;
	if (tracefs_hist_reset(top, hist)) {
		diag("tracefs_hist_reset: %s", strerror(errno));
		goto out;
	}
	if (!expect_hits(hist, "reset", -1))
		goto out;
	if (markers(2) || !expect_hits(hist, "after reset", 2))
		goto out;
	if (tracefs_hist_destroy(top, hist) ||
	    file_has("ftrace", "print", "trigger", "hist:")) {
		diag("tracefs_hist_destroy left the trigger");
		diag_file("ftrace", "print", "trigger");
		goto out;
	}
	ok = 1;
out:
	if (hist) {
		if (!ok)
			tracefs_hist_destroy(top, hist);
		tracefs_hist_free(hist);
	}
	return result(ok,
		      "hist: start, pause, continue, reset, destroy on "
		      "ftrace/print with the hist file checked at each step");
}

/* Children named "khist-sleeper" sleep and wake up a few times. */
static void sleepers(void)
{
	int i, j;

	for (i = 0; i < 2; i++) {
		if (fork() == 0) {
			prctl(PR_SET_NAME, "khist-sleeper");
			for (j = 0; j < 5; j++)
				usleep(20000);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
}

/*
 * Create @synth, put a hist keyed by comm on the synthetic event, run the
 * sleepers, and expect a line for them; then take everything down.
 */
static int run_synth(struct tracefs_synth *synth, const char *name,
		     const char *lat)
{
	struct tracefs_hist *hist = NULL;
	struct tep_handle *tep2 = NULL;
	int ok = 0, created = 0;
	char path[4096];
	struct stat st;
	long n;

	if (tracefs_synth_create(synth)) {
		diag("tracefs_synth_create: %s", strerror(errno));
		diag_errlog();
		goto out;
	}
	created = 1;
	snprintf(path, sizeof(path), "%s/events/synthetic/%s", dir, name);
	if (stat(path, &st)) {
		diag("%s missing after create", path);
		goto out;
	}
	tep2 = tracefs_local_events(dir);
	hist = tep2 ? tracefs_hist_alloc(tep2, "synthetic", name, "comm",
					 TRACEFS_HIST_KEY_NORMAL) :
		      NULL;
	if (!hist || tracefs_hist_add_value(hist, lat) ||
	    tracefs_hist_start(top, hist)) {
		diag("hist on synthetic/%s failed", name);
		diag_errlog();
		goto out;
	}
	sleepers();
	n = hits("synthetic", name, "khist-sleeper");
	if (n < 1) {
		diag("synthetic/%s: no hits for khist-sleeper (%ld)", name, n);
		diag_file("synthetic", name, "hist");
		diag_file("sched", "sched_waking", "trigger");
		diag_file("sched", "sched_switch", "trigger");
		diag_errlog();
		goto out;
	}
	if (tracefs_hist_destroy(top, hist)) {
		diag("tracefs_hist_destroy on synthetic/%s failed", name);
		goto out;
	}
	tracefs_hist_free(hist);
	hist = NULL;
	created = 0;
	if (tracefs_synth_destroy(synth)) {
		diag("tracefs_synth_destroy: %s", strerror(errno));
		diag_errlog();
		goto out;
	}
	if (!stat(path, &st)) {
		diag("%s still there after destroy", path);
		goto out;
	}
	ok = 1;
out:
	if (hist) {
		tracefs_hist_destroy(top, hist);
		tracefs_hist_free(hist);
	}
	if (created)
		tracefs_synth_destroy(synth);
	if (tep2)
		tep_free(tep2);
	return ok;
}

static int test_synth(void)
{
	struct tracefs_synth *synth;
	int ok = 0;

	synth = tracefs_synth_alloc(tep, "khist_wakeup_lat", "sched",
				    "sched_waking", "sched", "sched_switch",
				    "pid", "next_pid", "pid");
	if (!synth ||
	    tracefs_synth_add_compare_field(synth, TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_SYNTH_DELTA_END, "lat") ||
	    tracefs_synth_add_end_field(synth, "next_comm", "comm") ||
	    tracefs_synth_add_end_field(synth, "next_prio", "prio")) {
		diag("building the synthetic event failed: %s",
		     strerror(errno));
	} else {
		ok = run_synth(synth, "khist_wakeup_lat", "lat");
	}
	tracefs_synth_free(synth);
	return result(ok, "synth: wakeup latency sched_waking -> sched_switch, "
			  "hist on the synthetic event");
}

static int test_sql(void)
{
	static const char sql[] =
		"SELECT end.next_comm AS comm, start.pid AS pid, "
		"(end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS lat "
		"FROM sched_waking AS start JOIN sched_switch AS end "
		"ON start.pid = end.next_pid";
	struct tracefs_synth *synth;
	char *err = NULL;
	int ok = 0;

	synth = tracefs_sql(tep, "khist_sql_lat", sql, &err);
	if (!synth)
		diag("tracefs_sql: %s", err ? err : strerror(errno));
	else
		ok = run_synth(synth, "khist_sql_lat", "lat");
	tracefs_synth_free(synth);
	free(err);
	return result(ok, "sql: tracefs_sql() join of sched_waking and "
			  "sched_switch, hist on the result");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} tests[] = {
		{ "events", test_events },
		{ "hist", test_hist },
		{ "synth", test_synth },
		{ "sql", test_sql },
	};
	unsigned int i;
	int bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s KHIST_DIR [TEST]\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tracefs_set_tracing_dir(dir)) {
		printf("not ok - tracefs: tracefs_set_tracing_dir(%s)\n", dir);
		return 1;
	}
	top = tracefs_instance_alloc(dir, NULL);
	tep = tracefs_local_events(dir);
	if (!top) {
		printf("not ok - tracefs: tracefs_instance_alloc(%s, NULL)\n",
		       dir);
		return 1;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (argc > 2 && strcmp(argv[2], tests[i].name))
			continue;
		if (!tep && i) {
			printf("not ok - tracefs: %s: no events loaded\n",
			       tests[i].name);
			bad++;
			continue;
		}
		bad += tests[i].fn();
	}
	tracefs_instance_free(top);
	if (tep)
		tep_free(tep);
	return bad ? 1 : 0;
}
