// SPDX-License-Identifier: GPL-2.0
/*
 * khist-trace2 - Git's Trace2 event stream into khist user events.
 *
 *   khist-trace2 listen [--socket PATH] [--mode OCTAL] [--tee FILE] OUT...
 *   khist-trace2 replay [--dry-run] [--tee FILE] OUT... FILE|-
 *   khist-trace2 decode [FILE|-|--khist DIR]
 *   khist-trace2 render --format event|perf|normal [FILE|-|--khist DIR]
 *   khist-trace2 ctl wait-idle|stats|stop [--socket PATH]
 *   khist-trace2 formats [--layout]
 *
 * OUT: --data PATH (khist's user_events_data; default: in the first khist
 * mount, /sys/kernel/khist, else /sys/kernel/tracing), or --fake LOG (a
 * record log, the host-side stand-in for user_events_data), with
 * --fake-enable EV,EV... (events that have a consumer; default all),
 * --prefix NAME (trace2_), --persist, --stats.
 *
 * listen: one epoll loop over a unix stream socket (Git connects once per
 * process and writes one line per event). Each wake-up is a round: new
 * connections are accepted and every connection is read to EAGAIN, again
 * until nothing new connected; the complete lines of the round are
 * ordered by their "time" (stable, so each connection keeps its order)
 * and mapped. It never waits on khist: records go out
 * with one writev() each, or are dropped (counted) while khist is not
 * there. Lines longer than 1 MiB are dropped (counted). A control socket
 * PATH.ctl (mode 0600) answers `ctl`.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "t2map.h"
#include "t2khist.h"
#include "t2render.h"
#include "t2sink.h"

#define LINE_MAX_BYTES (1u << 20)
#define BUF_START (64u << 10)
/* Bytes read from one connection in one round, passes of one round. */
#define ROUND_BYTES (4u << 20)
#define ROUND_PASSES 64
#define DEFAULT_SOCKET "/run/khist/trace2.sock"

struct conn {
	int fd;
	int pid;
	bool ctl;
	bool eof;
	bool skipping;
	char *buf;
	size_t len;
	size_t cap;
	char key[48];
	uint64_t last_time;
	struct conn *next;
};

struct item {
	struct conn *c;
	size_t off;
	size_t len;
	uint64_t time;
	uint64_t seq;
};

struct bridge {
	struct t2_sink sink;
	struct t2_mapper *map;
	FILE *tee;
	int lfd;
	int cfd;
	int ep;
	struct conn *conns;
	unsigned int nconn;
	uint64_t conn_total;
	uint64_t bytes;
	uint64_t oversize;
	uint64_t seq;
	char *arena;
	size_t arena_len;
	size_t arena_cap;
	struct item *items;
	size_t nitems;
	size_t items_cap;
	struct conn *waiters;
};

static volatile sig_atomic_t stop_flag, stats_flag;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		stats_flag = 1;
	else
		stop_flag = 1;
}

static void usage(void)
{
	fputs("usage: khist-trace2 listen [--socket PATH] [--mode OCTAL] [--tee FILE] OUT...\n"
	      "       khist-trace2 replay [--dry-run] [--tee FILE] OUT... FILE|-\n"
	      "       khist-trace2 decode [FILE|-|--khist DIR]\n"
	      "       khist-trace2 render --format event|perf|normal [FILE|-|--khist DIR]\n"
	      "       khist-trace2 ctl wait-idle|stats|stop [--socket PATH] [--timeout S]\n"
	      "       khist-trace2 formats [--layout] [--prefix P]\n"
	      "OUT:   --data PATH | --fake LOG [--fake-enable EV,...] [--prefix P]\n"
	      "       [--persist] [--stats]\n",
	      stderr);
	exit(2);
}

static void print_stats(struct bridge *b, FILE *f)
{
	const struct t2_stats *st = t2_map_stats(b->map);
	unsigned int i;

	fprintf(f, "lines %" PRIu64 "\n", st->lines);
	fprintf(f, "malformed %" PRIu64 "\n", st->malformed);
	fprintf(f, "oversize %" PRIu64 "\n", b->oversize);
	fprintf(f, "bytes %" PRIu64 "\n", b->bytes);
	fprintf(f, "connections_open %u\n", b->nconn);
	fprintf(f, "connections_total %" PRIu64 "\n", b->conn_total);
	for (i = 0; i < T2E_NR; i++)
		if (i != T2E_CMD)
			fprintf(f, "event_%s %" PRIu64 "\n", t2_event_name(i),
				st->per_event[i]);
	fprintf(f, "made_cmd %" PRIu64 "\n", st->made);
	fprintf(f, "bad_fields %" PRIu64 "\n", st->bad_fields);
	fprintf(f, "clipped %" PRIu64 "\n", st->clipped);
	fprintf(f, "max_nesting %" PRIu64 "\n", st->max_nesting);
	fprintf(f, "evicted %" PRIu64 "\n", st->evicted);
	t2_sink_stats(&b->sink, f);
	fflush(f);
}

static uint64_t fake_enable_mask(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint64_t mask = 0;
	size_t pl = strlen("trace2_");
	int ev;

	if (!copy)
		exit(1);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "trace2_", pl))
			tok += pl;
		ev = t2_event_lookup(tok);
		if (ev < 0 && !strcmp(tok, "cmd"))
			ev = T2E_CMD;
		if (ev < 0 && !strcmp(tok, "unknown"))
			ev = T2E_UNKNOWN;
		if (ev < 0) {
			fprintf(stderr, "khist-trace2: no event %s\n", tok);
			exit(2);
		}
		mask |= 1ULL << ev;
	}
	free(copy);
	return mask;
}

/* ---- lines ---- */

static void map_line(struct bridge *b, struct conn *c, const char *line,
		     size_t len)
{
	char key[48];

	if (b->tee) {
		fwrite(line, 1, len, b->tee);
		fputc('\n', b->tee);
	}
	if (t2_map_line(b->map, line, len, c ? c->pid : 0, key, sizeof(key)) >=
		    0 &&
	    c && !c->key[0])
		memcpy(c->key, key, sizeof(key));
}

/* The "time" of a line, cheaply, for ordering a batch. */
static uint64_t line_time(const char *line, size_t len, uint64_t dflt)
{
	static const char pat[] = "\"time\":\"";
	const char *p = memmem(line, len, pat, sizeof(pat) - 1), *q;
	uint64_t us;

	if (!p)
		return dflt;
	p += sizeof(pat) - 1;
	q = memchr(p, '"', (size_t)(line + len - p));
	if (!q || t2_parse_time(p, (size_t)(q - p), &us))
		return dflt;
	return us;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int add_item(struct bridge *b, struct conn *c, const char *line,
		    size_t len)
{
	struct item *it;

	if (b->arena_len + len > b->arena_cap) {
		size_t cap = b->arena_cap ? b->arena_cap : BUF_START;
		char *na;

		while (cap < b->arena_len + len)
			cap *= 2;
		na = realloc(b->arena, cap);
		if (!na)
			return -1;
		b->arena = na;
		b->arena_cap = cap;
	}
	if (b->nitems == b->items_cap) {
		size_t cap = b->items_cap ? 2 * b->items_cap : 256;
		struct item *ni = realloc(b->items, cap * sizeof(*ni));

		if (!ni)
			return -1;
		b->items = ni;
		b->items_cap = cap;
	}
	memcpy(b->arena + b->arena_len, line, len);
	it = &b->items[b->nitems++];
	it->c = c;
	it->off = b->arena_len;
	it->len = len;
	it->time = line_time(line, len, c->last_time);
	c->last_time = it->time;
	it->seq = b->seq++;
	b->arena_len += len;
	return 0;
}

/* Complete lines of @c into the batch; the rest stays buffered. */
static void split_lines(struct bridge *b, struct conn *c)
{
	size_t start = 0, i;

	for (i = 0; i < c->len; i++) {
		if (c->buf[i] != '\n')
			continue;
		if (c->skipping)
			c->skipping = false;
		else if (add_item(b, c, c->buf + start, i - start))
			t2_map_line(b->map, "", 0, 0, NULL, 0);
		start = i + 1;
	}
	if (c->eof && start < c->len && !c->skipping) {
		/* A last line without its newline: take it as it is. */
		if (add_item(b, c, c->buf + start, c->len - start))
			t2_map_line(b->map, "", 0, 0, NULL, 0);
		start = c->len;
	}
	memmove(c->buf, c->buf + start, c->len - start);
	c->len -= start;
	if (c->len >= LINE_MAX_BYTES) {
		/* Drop the line (counted once); skip to its end. */
		if (!c->skipping)
			b->oversize++;
		c->len = 0;
		c->skipping = true;
	}
}

/*
 * Read what @c has, up to ROUND_BYTES: a writer that never pauses cannot
 * hold the loop (epoll reports it again at the next round).
 */
static void read_conn(struct bridge *b, struct conn *c)
{
	size_t got = 0;
	ssize_t n;

	for (;;) {
		if (got >= ROUND_BYTES)
			break;
		if (c->len == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : BUF_START;
			char *nb;

			if (cap > LINE_MAX_BYTES)
				cap = LINE_MAX_BYTES;
			if (cap == c->cap) {
				split_lines(b, c);
				continue;
			}
			nb = realloc(c->buf, cap);
			if (!nb) {
				c->eof = true;
				break;
			}
			c->buf = nb;
			c->cap = cap;
		}
		n = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (n > 0) {
			b->bytes += (uint64_t)n;
			c->len += (size_t)n;
			got += (size_t)n;
			continue;
		}
		if (n == 0)
			c->eof = true;
		else if (errno == EINTR)
			continue;
		else if (errno != EAGAIN && errno != EWOULDBLOCK)
			c->eof = true;
		break;
	}
	split_lines(b, c);
}

static void run_batch(struct bridge *b)
{
	size_t i;

	qsort(b->items, b->nitems, sizeof(*b->items), cmp_item);
	for (i = 0; i < b->nitems; i++)
		map_line(b, b->items[i].c, b->arena + b->items[i].off,
			 b->items[i].len);
	b->nitems = 0;
	b->arena_len = 0;
	if (b->tee)
		fflush(b->tee);
}

/* ---- sockets ---- */

static int make_socket(const char *path, int type, mode_t mode)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	char *slash;
	int fd, probe;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "khist-trace2: socket path too long: %s\n",
			path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr,
				"khist-trace2: %s exists and is not a socket\n",
				path);
			return -1;
		}
		probe = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
		if (probe >= 0 &&
		    !connect(probe, (struct sockaddr *)&sa, sizeof(sa))) {
			close(probe);
			fprintf(stderr, "khist-trace2: %s is in use\n", path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	/* The default, /run/khist/, may not exist yet: one level is made. */
	slash = strrchr(sa.sun_path, '/');
	if (slash && slash != sa.sun_path) {
		*slash = 0;
		if (mkdir(sa.sun_path, 0755) && errno != EEXIST)
			fprintf(stderr, "khist-trace2: mkdir %s: %s\n",
				sa.sun_path, strerror(errno));
		*slash = '/';
	}
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    chmod(path, mode) || listen(fd, 512)) {
		fprintf(stderr, "khist-trace2: %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void add_conn(struct bridge *b, int fd, bool ctl)
{
	struct epoll_event e = { .events = EPOLLIN | EPOLLRDHUP };
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct conn *c = calloc(1, sizeof(*c));

	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->ctl = ctl;
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl))
		c->pid = cred.pid;
	e.data.ptr = c;
	if (epoll_ctl(b->ep, EPOLL_CTL_ADD, fd, &e)) {
		close(fd);
		free(c);
		return;
	}
	c->next = b->conns;
	b->conns = c;
	if (!ctl) {
		b->nconn++;
		b->conn_total++;
	}
}

static unsigned int accept_all(struct bridge *b, int lfd, bool ctl)
{
	unsigned int n = 0;
	int fd;

	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return n;
		add_conn(b, fd, ctl);
		n++;
	}
}

/*
 * One round: accept what is pending and read every connection, again
 * until no new connection came. Whatever a process wrote before another
 * connected (a parent's child_start before its child's first line) or
 * before another's line (a child's last lines before the parent's
 * child_exit) is then read in the same round or an earlier one; the
 * round is then handled in time order.
 */
static void read_round(struct bridge *b)
{
	unsigned int pass = 0;
	struct conn *c;

	do {
		for (c = b->conns; c; c = c->next)
			if (!c->ctl && !c->eof)
				read_conn(b, c);
	} while (accept_all(b, b->lfd, false) && ++pass < ROUND_PASSES);
}
static void drop_conn(struct bridge *b, struct conn *c)
{
	struct conn **pp;

	for (pp = &b->conns; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	epoll_ctl(b->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (!c->ctl) {
		b->nconn--;
		t2_map_end(b->map, c->key);
	}
	free(c->buf);
	free(c);
}

/* A control command: answered now, or (wait-idle) once nothing is open. */
static void ctl_cmd(struct bridge *b, struct conn *c)
{
	FILE *f;
	char *nl = memchr(c->buf, '\n', c->len);

	if (!nl && !c->eof)
		return;
	if (nl)
		*nl = 0;
	else if (c->len < c->cap)
		c->buf[c->len] = 0;
	else
		c->buf[c->len - 1] = 0;
	epoll_ctl(b->ep, EPOLL_CTL_DEL, c->fd, NULL);
	if (!strcmp(c->buf, "wait-idle")) {
		struct conn **pp;

		for (pp = &b->conns; *pp; pp = &(*pp)->next)
			if (*pp == c) {
				*pp = c->next;
				break;
			}
		c->next = b->waiters;
		b->waiters = c;
		return;
	}
	if (!strcmp(c->buf, "stop"))
		stop_flag = 1;
	f = fdopen(dup(c->fd), "w");
	if (f) {
		if (!strcmp(c->buf, "stats") || !strcmp(c->buf, "stop"))
			print_stats(b, f);
		else
			fprintf(f, "error unknown command\n");
		fclose(f);
	}
	drop_conn(b, c);
}

static void answer_waiters(struct bridge *b)
{
	struct conn *c;
	FILE *f;

	if (!b->waiters)
		return;
	accept_all(b, b->lfd, false);
	if (b->nconn)
		return;
	while ((c = b->waiters)) {
		b->waiters = c->next;
		f = fdopen(c->fd, "w");
		if (f) {
			print_stats(b, f);
			fclose(f);
		} else {
			close(c->fd);
		}
		free(c->buf);
		free(c);
	}
}

static int listen_loop(struct bridge *b, const char *path, mode_t mode)
{
	struct epoll_event ev[64], e = { .events = EPOLLIN };
	char cpath[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];
	struct conn *c, *next;
	bool accept_ctl;
	int n, i;

	snprintf(cpath, sizeof(cpath), "%s.ctl", path);
	b->lfd = make_socket(path, SOCK_STREAM, mode);
	if (b->lfd < 0)
		return 1;
	b->cfd = make_socket(cpath, SOCK_STREAM, 0600);
	b->ep = epoll_create1(EPOLL_CLOEXEC);
	if (b->cfd < 0 || b->ep < 0)
		return 1;
	e.data.ptr = &b->lfd;
	epoll_ctl(b->ep, EPOLL_CTL_ADD, b->lfd, &e);
	e.data.ptr = &b->cfd;
	epoll_ctl(b->ep, EPOLL_CTL_ADD, b->cfd, &e);
	/* Try the output at once, so a ready khist is registered early. */
	t2_sink_enabled(&b->sink, T2E_VERSION);
	b->sink.no_sink = 0;
	b->sink.disabled = 0;
	fprintf(stderr, "khist-trace2: listening on %s\n", path);
	while (!stop_flag) {
		n = epoll_wait(b->ep, ev, 64, b->sink.fd < 0 ? 200 : 1000);
		if (n < 0 && errno != EINTR)
			break;
		accept_ctl = false;
		for (i = 0; i < n; i++) {
			if (ev[i].data.ptr == &b->lfd)
				continue;
			if (ev[i].data.ptr == &b->cfd) {
				accept_ctl = true;
				continue;
			}
			c = ev[i].data.ptr;
			if (c->ctl) {
				ssize_t r;

				if (!c->buf) {
					c->buf = malloc(256);
					c->cap = c->buf ? 256 : 0;
				}
				r = c->buf ? read(c->fd, c->buf + c->len,
						  c->cap - c->len) :
					     0;
				if (r > 0)
					c->len += (size_t)r;
				if (r == 0 || c->len == c->cap)
					c->eof = true;
			}
		}
		read_round(b);
		run_batch(b);
		for (c = b->conns; c; c = next) {
			next = c->next;
			if (c->ctl && (c->eof || memchr(c->buf ? c->buf : "",
							'\n', c->len)))
				ctl_cmd(b, c);
			else if (!c->ctl && c->eof)
				drop_conn(b, c);
		}
		if (accept_ctl)
			accept_all(b, b->cfd, true);
		answer_waiters(b);
		if (stats_flag) {
			stats_flag = 0;
			print_stats(b, stderr);
		}
	}
	/* Whatever is still buffered or queued is read before leaving. */
	accept_all(b, b->lfd, false);
	for (c = b->conns; c; c = c->next)
		if (!c->ctl) {
			read_conn(b, c);
			c->eof = true;
			split_lines(b, c);
		}
	run_batch(b);
	while (b->conns)
		drop_conn(b, b->conns);
	unlink(path);
	unlink(cpath);
	return 0;
}

/* ---- commands ---- */

static int ctl_main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = DEFAULT_SOCKET, *cmd = NULL;
	struct timeval tv = { .tv_sec = 60 };
	char buf[4096];
	ssize_t n;
	int i, fd;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			path = argv[++i];
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			tv.tv_sec = atoi(argv[++i]);
		else if (!cmd)
			cmd = argv[i];
		else
			usage();
	}
	if (!cmd)
		usage();
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s.ctl", path) >=
	    (int)sizeof(sa.sun_path))
		usage();
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "khist-trace2: %s: %s\n", sa.sun_path,
			strerror(errno));
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (dprintf(fd, "%s\n", cmd) < 0)
		return 1;
	shutdown(fd, SHUT_WR);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	if (n < 0) {
		fprintf(stderr, "khist-trace2: ctl %s: %s\n", cmd,
			strerror(errno));
		return 1;
	}
	return 0;
}

static FILE *open_in(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdin;
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "khist-trace2: %s: %s\n", path,
			strerror(errno));
		exit(1);
	}
	return f;
}

static int render_main(int argc, char **argv, bool decode)
{
	enum t2_render_fmt how = T2R_DECODE;
	const char *in = NULL, *prefix = "trace2_", *kdir = NULL;
	struct t2_khist_stats kst;
	char *klog = NULL;
	size_t klen = 0;
	unsigned long bad;
	FILE *f;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!decode && !strcmp(argv[i], "--format") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "event"))
				how = T2R_EVENT;
			else if (!strcmp(argv[i], "perf"))
				how = T2R_PERF;
			else if (!strcmp(argv[i], "normal"))
				how = T2R_NORMAL;
			else
				usage();
		} else if (!strcmp(argv[i], "--prefix") && i + 1 < argc) {
			prefix = argv[++i];
		} else if (!strcmp(argv[i], "--khist") && i + 1 < argc) {
			kdir = argv[++i];
		} else if (!in) {
			in = argv[i];
		} else {
			usage();
		}
	}
	if ((!decode && how == T2R_DECODE) || (kdir && in))
		usage();
	if (kdir) {
		/* khist's ring buffer, as a record log in memory. */
		f = open_memstream(&klog, &klen);
		if (!f) {
			fprintf(stderr, "khist-trace2: out of memory\n");
			return 1;
		}
		ret = t2_khist_log(kdir, prefix, f, &kst);
		fclose(f);
		if (ret == -ENOENT) {
			fprintf(stderr,
				"khist-trace2: %s: no per_cpu/cpu0/trace_pipe_raw or no events/user_events/%s*\n",
				kdir, prefix);
			free(klog);
			return 1;
		}
		if (ret) {
			fprintf(stderr, "khist-trace2: %s: %s\n", kdir,
				strerror(-ret));
			free(klog);
			return 1;
		}
		if (kst.lost_pages)
			fprintf(stderr,
				"khist-trace2: %s: events were lost before %lu sub-buffers (the ring buffer was overwritten)\n",
				kdir, kst.lost_pages);
		if (kst.bad)
			fprintf(stderr,
				"khist-trace2: %s: %lu unreadable sub-buffers or events\n",
				kdir, kst.bad);
		f = fmemopen(klog, klen ? klen : 1, "r");
		if (!f) {
			fprintf(stderr, "khist-trace2: out of memory\n");
			free(klog);
			return 1;
		}
	} else {
		f = open_in(in);
	}
	ret = t2_render_log(f, stdout, how, prefix, &bad);
	if (kdir) {
		fclose(f);
		free(klog);
	}
	if (ret) {
		fprintf(stderr, "khist-trace2: out of memory\n");
		return 1;
	}
	if (bad)
		fprintf(stderr, "khist-trace2: %lu unreadable log lines\n",
			bad);
	return bad ? 1 : 0;
}

static int bridge_main(int argc, char **argv, bool replay)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "tee", required_argument, NULL, 't' },
		{ "data", required_argument, NULL, 'd' },
		{ "fake", required_argument, NULL, 'f' },
		{ "fake-enable", required_argument, NULL, 'e' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "persist", no_argument, NULL, 'P' },
		{ "stats", no_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ 0 }
	};
	const char *sock = DEFAULT_SOCKET, *data = NULL, *fake = NULL;
	const char *tee = NULL, *prefix = "trace2_", *enable = NULL;
	bool persist = false, stats = false, dry = false;
	struct bridge b = { .lfd = -1, .cfd = -1, .ep = -1 };
	mode_t mode = 0660;
	struct t2_out out;
	struct sigaction sa = { .sa_handler = on_signal };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *in;
	int o, rc = 0;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 's':
			sock = optarg;
			break;
		case 'm':
			mode = (mode_t)strtoul(optarg, NULL, 8);
			break;
		case 't':
			tee = optarg;
			break;
		case 'd':
			data = optarg;
			break;
		case 'f':
			fake = optarg;
			break;
		case 'e':
			enable = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'P':
			persist = true;
			break;
		case 'S':
			stats = true;
			break;
		case 'n':
			dry = true;
			break;
		default:
			usage();
		}
	}
	if ((replay && optind != argc - 1) || (!replay && optind != argc) ||
	    (!replay && dry) || (fake && data) || (dry && (fake || data)))
		usage();
	t2_sink_init(&b.sink,
		     dry  ? T2S_TEXT :
		     fake ? T2S_FAKE :
			    T2S_UE,
		     fake ? fake : data);
	b.sink.prefix = prefix;
	b.sink.persist = persist;
	if (enable)
		b.sink.fake_enable = fake_enable_mask(enable);
	if (tee) {
		b.tee = fopen(tee, "ae");
		if (!b.tee) {
			fprintf(stderr, "khist-trace2: %s: %s\n", tee,
				strerror(errno));
			return 1;
		}
	}
	out = (struct t2_out){ .enabled = t2_sink_enabled,
			       .emit = t2_sink_emit,
			       .ctx = &b.sink };
	b.map = t2_map_new(&out);
	if (!b.map) {
		fprintf(stderr, "khist-trace2: out of memory\n");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	if (replay) {
		in = open_in(argv[optind]);
		while ((n = getline(&line, &cap, in)) > 0) {
			if (line[n - 1] == '\n')
				n--;
			if ((size_t)n >= LINE_MAX_BYTES) {
				b.oversize++;
				continue;
			}
			map_line(&b, NULL, line, (size_t)n);
		}
		free(line);
		t2_map_end_all(b.map);
	} else {
		rc = listen_loop(&b, sock, mode);
	}
	if (stats || !replay)
		print_stats(&b, stderr);
	t2_sink_close(&b.sink);
	if (b.tee)
		fclose(b.tee);
	t2_map_free(b.map);
	free(b.arena);
	free(b.items);
	return rc;
}

/*
 * The events: their registration text, or (--layout) each field's record
 * offset (the payload's + the 8-byte common header) and the fixed size.
 */
static int formats_main(int argc, char **argv)
{
	const char *prefix = "trace2_";
	bool layout = false;
	char cmd[512];
	struct t2_fmt fmt;
	unsigned int ev, i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--layout"))
			layout = true;
		else if (!strcmp(argv[a], "--prefix") && a + 1 < argc)
			prefix = argv[++a];
		else
			usage();
	}
	for (ev = 0; ev < T2E_NR; ev++) {
		if (!t2_event_cmd(ev, prefix, cmd, sizeof(cmd)) ||
		    t2_fmt_parse(&fmt, cmd))
			return 1;
		if (!layout) {
			puts(cmd);
			continue;
		}
		printf("%s", fmt.name);
		for (i = 0; i < fmt.nf; i++)
			printf(" %s@%u", fmt.f[i].name, fmt.f[i].off + 8);
		printf(" size=%u\n", fmt.fixed + 8);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "listen"))
		return bridge_main(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "replay"))
		return bridge_main(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "decode"))
		return render_main(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "render"))
		return render_main(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "formats"))
		return formats_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ctl"))
		return ctl_main(argc - 1, argv + 1);
	usage();
	return 2;
}
