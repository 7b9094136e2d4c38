// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - `khist export`: chosen hists as OpenMetrics (or Prometheus
 * text) on stdout, into node_exporter's textfile directory (written to a
 * temporary file, then renamed over khist.prom), or served over HTTP at
 * /metrics. The tables are read anew for every write and every scrape.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "khist.h"

static const char kh_export_help[] =
	"usage: khist export [-i INSTANCE] [--textfile DIR [--interval S]] [--listen ADDR]\n"
	"                    [--format openmetrics|prometheus] --hist SYSTEM:EVENT ...\n"
	"Write the hists of the events given with --hist as metrics: a .log2 or\n"
	".buckets key becomes a histogram (_bucket{le}, _count, and _sum when the\n"
	"key's field is also a value), other keys labels, values and Hits and\n"
	"Dropped counters. Without --textfile or --listen, to stdout (OpenMetrics).\n"
	"--textfile DIR writes DIR/khist.prom atomically (Prometheus text, for\n"
	"node_exporter's textfile collector), every S seconds with --interval.\n"
	"--listen [HOST:]PORT serves /metrics over HTTP until stopped.\n";

/**
 * kh_export_hists() - the metrics of @n events' hist files
 * @n:           number of events
 * @events:      "sys:event" each
 * @inst:        instance, or NULL
 * @openmetrics: OpenMetrics (else Prometheus text 0.0.4)
 * @out:         appended to
 *
 * Return: 0, or 1 after an error message.
 */
int kh_export_hists(int n, char **events, const char *inst, bool openmetrics,
		    struct kh_buf *out)
{
	struct kh_metrics *m = kh_metrics_new(openmetrics);
	int i, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		char sys[256], ev[256], *path, *text;
		struct kh_hist h;

		if (kh_event_split(events[i], sys, sizeof(sys), ev,
				   sizeof(ev))) {
			ret = 1;
			break;
		}
		path = kh_event_path(inst, sys, ev, "hist");
		text = kh_read_file(path, NULL);
		if (!text) {
			kh_err("%s: %s (%s)", events[i], strerror(errno), path);
			free(path);
			ret = 1;
			break;
		}
		free(path);
		kh_hist_parse(text, &h);
		kh_metrics_add(m, sys, ev, &h);
		kh_hist_free(&h);
		free(text);
	}
	if (!ret)
		kh_metrics_render(m, out);
	kh_metrics_free(m);
	return ret;
}

static int kh_write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t r = write(fd, s, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		s += r;
		n -= r;
	}
	return 0;
}

/* DIR/.khist.prom.PID, then rename to DIR/khist.prom. */
static int kh_textfile(const char *dir, const struct kh_buf *b)
{
	char *tmp, *dst;
	int fd, ret = 1;

	if (asprintf(&tmp, "%s/.khist.prom.%d", dir, (int)getpid()) < 0)
		return 1;
	if (asprintf(&dst, "%s/khist.prom", dir) < 0) {
		free(tmp);
		return 1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		kh_err("%s: %s", tmp, strerror(errno));
	} else if (kh_write_all(fd, b->s ? b->s : "", b->len) || fsync(fd)) {
		kh_err("%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
	} else if (close(fd) || rename(tmp, dst)) {
		kh_err("%s: %s", dst, strerror(errno));
		unlink(tmp);
	} else {
		ret = 0;
	}
	free(tmp);
	free(dst);
	return ret;
}

static volatile sig_atomic_t kh_export_stop;

static void kh_export_signal(int sig)
{
	kh_export_stop = 1;
}

static int kh_listen_socket(const char *addr)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	char host[256] = "", *colon;
	const char *port = addr;
	int fd = -1, one = 1, r;

	colon = strrchr(addr, ':');
	if (colon) {
		size_t n = colon - addr;

		if (n >= sizeof(host)) {
			kh_err("--listen %s: host too long", addr);
			return -1;
		}
		memcpy(host, addr, n);
		host[n] = '\0';
		port = colon + 1;
	}
	/* [::1]:9100 */
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	r = getaddrinfo(*host ? host : NULL, port, &hints, &res);
	if (r) {
		kh_err("--listen %s: %s", addr, gai_strerror(r));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 16))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		kh_err("--listen %s: %s", addr, strerror(errno));
	return fd;
}

static void kh_http_reply(int fd, const char *status, const char *type,
			  const char *body, size_t len)
{
	char head[512];
	int n;

	n = snprintf(head, sizeof(head),
		     "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		     status, type, len);
	if (!kh_write_all(fd, head, n))
		kh_write_all(fd, body, len);
}

/* One request: GET /metrics, the format chosen by its Accept header. */
static void kh_http_one(int fd, int n, char **events, const char *inst,
			const char *format)
{
	char req[8192];
	size_t got = 0;
	struct timeval tv = { .tv_sec = 5 };
	bool om;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (got < sizeof(req) - 1) {
		ssize_t r = read(fd, req + got, sizeof(req) - 1 - got);

		if (r <= 0)
			break;
		got += r;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[got] = '\0';
	if (strncmp(req, "GET ", 4)) {
		kh_http_reply(fd, "405 Method Not Allowed", "text/plain",
			      "GET only\n", 9);
		return;
	}
	if (strncmp(req + 4, "/metrics ", 9) &&
	    strncmp(req + 4, "/metrics?", 9)) {
		kh_http_reply(fd, "404 Not Found", "text/plain",
			      "see /metrics\n", 13);
		return;
	}
	if (format)
		om = !strcmp(format, "openmetrics");
	else
		om = strcasestr(req, "application/openmetrics-text") != NULL;
	{
		struct kh_buf b = { 0 };

		if (kh_export_hists(n, events, inst, om, &b)) {
			kh_http_reply(fd, "500 Internal Server Error",
				      "text/plain", "khist: cannot read\n", 19);
		} else {
			kh_http_reply(
				fd, "200 OK",
				om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
				     "text/plain; version=0.0.4; charset=utf-8",
				b.s ? b.s : "", b.len);
		}
		kh_buf_free(&b);
	}
}

/**
 * kh_cmd_export() - `khist export`
 * @argc: arguments, "export" first
 * @argv: see @argc
 *
 * Return: 0 or 1.
 */
int kh_cmd_export(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "textfile", required_argument, NULL, 't' },
		{ "listen", required_argument, NULL, 'l' },
		{ "hist", required_argument, NULL, 'H' },
		{ "interval", required_argument, NULL, 'n' },
		{ "instance", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *textfile = NULL, *listen_addr = NULL, *inst = NULL;
	const char *format = NULL;
	char **events = NULL;
	double interval = 0;
	int n = 0, o, ret = 0;
	struct sigaction sa;

	optind = 1;
	while ((o = getopt_long(argc, argv, "+i:n:h", lo, NULL)) != -1) {
		switch (o) {
		case 't':
			textfile = optarg;
			break;
		case 'l':
			listen_addr = optarg;
			break;
		case 'H':
			events = realloc(events, (n + 1) * sizeof(*events));
			if (!events)
				return 1;
			events[n++] = optarg;
			break;
		case 'n':
			interval = atof(optarg);
			if (!(interval >= 0.1)) {
				kh_err("--interval: 0.1 s or more");
				return 1;
			}
			break;
		case 'i':
			inst = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "openmetrics") &&
			    strcmp(optarg, "prometheus")) {
				kh_err("--format: openmetrics or prometheus");
				return 1;
			}
			format = optarg;
			break;
		case 'h':
			fputs(kh_export_help, stdout);
			return 0;
		default:
			kh_err("export: bad option (khist export --help)");
			return 1;
		}
	}
	/* Events may also follow the options. */
	for (; optind < argc; optind++) {
		events = realloc(events, (n + 1) * sizeof(*events));
		if (!events)
			return 1;
		events[n++] = argv[optind];
	}
	if (!n) {
		kh_err("export: give the hists, --hist SYSTEM:EVENT (khist export --help)");
		return 1;
	}
	kh_root();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kh_export_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (listen_addr) {
		int lfd = kh_listen_socket(listen_addr);

		if (lfd < 0) {
			free(events);
			return 1;
		}
		while (!kh_export_stop) {
			int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

			if (c < 0)
				continue;
			kh_http_one(c, n, events, inst, format);
			close(c);
		}
		close(lfd);
	} else if (textfile) {
		bool om = format && !strcmp(format, "openmetrics");

		do {
			struct kh_buf b = { 0 };
			struct timespec ts;

			ret = kh_export_hists(n, events, inst, om, &b);
			if (!ret)
				ret = kh_textfile(textfile, &b);
			kh_buf_free(&b);
			if (ret || !interval)
				break;
			ts.tv_sec = (time_t)interval;
			ts.tv_nsec = (long)((interval - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		} while (!kh_export_stop);
	} else {
		struct kh_buf b = { 0 };

		ret = kh_export_hists(n, events, inst,
				      !format || !strcmp(format, "openmetrics"),
				      &b);
		if (!ret && b.s)
			fputs(b.s, stdout);
		kh_buf_free(&b);
	}
	free(events);
	return ret;
}
