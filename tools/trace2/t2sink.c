// SPDX-License-Identifier: GPL-2.0
/*
 * t2sink.c - the outputs of khist-trace2.
 *
 * T2S_UE: opens user_events_data (retried with a backoff while it is
 * missing, so the bridge may start before khist), registers every event
 * with DIAG_IOCSREG and an enable word of its own, and writes a record
 * with one writev() of the write index and the payload, only while the
 * kernel side has set the event's enable bit.
 * T2S_FAKE: the same steps against a plain file that must exist (also
 * retried): a registration is the line "R <index> <text>", a write the
 * line "W <index> <payload in hex>". `khist-trace2 decode` and `render`
 * read such a log. fake_enable stands in for the enable bits.
 * T2S_TEXT: records decoded from their payload, one text line each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "t2sink.h"
#include <linux/user_events.h>

/* Longest registration command user_events takes, NUL included. */
#define T2_CMD_MAX 512

/**
 * t2_now_ms() - monotonic time.
 *
 * Context: any.
 * Return: milliseconds.
 */
uint64_t t2_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/**
 * t2_ue_default_path() - where user_events_data is: in the first khist
 * mount of /proc/mounts, else in /sys/kernel/khist if it exists there,
 * else in the kernel's tracefs (/sys/kernel/tracing).
 * @buf: for the path
 * @size: its size
 *
 * Context: process.
 * Return: @buf.
 */
const char *t2_ue_default_path(char *buf, size_t size)
{
	char dev[256], dir[1024], type[64];
	FILE *f = fopen("/proc/mounts", "re");
	bool found = false;

	while (f && fscanf(f, "%255s %1023s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "khist")) {
			found = true;
			break;
		}
	if (f)
		fclose(f);
	if (found) {
		snprintf(buf, size, "%s/user_events_data", dir);
		return buf;
	}
	snprintf(buf, size, "/sys/kernel/khist/user_events_data");
	if (!access(buf, F_OK))
		return buf;
	snprintf(buf, size, "/sys/kernel/tracing/user_events_data");
	return buf;
}

/**
 * t2_sink_init() - an output, not open yet.
 * @s: the sink
 * @mode: T2S_*
 * @path: see struct t2_sink
 *
 * Context: process.
 */
void t2_sink_init(struct t2_sink *s, enum t2_sink_mode mode, const char *path)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->mode = mode;
	s->path = path;
	s->prefix = "trace2_";
	s->fake_enable = ~0ULL;
	s->fd = -1;
	s->backoff = 100;
	s->out = stdout;
	for (i = 0; i < T2E_NR; i++)
		s->idx[i] = -1;
}

static int reg_one(struct t2_sink *s, unsigned int ev)
{
	char cmd[T2_CMD_MAX];
	struct user_reg reg;

	if (!t2_event_cmd(ev, s->prefix, cmd, sizeof(cmd)) ||
	    t2_fmt_parse(&s->fmt[ev], cmd))
		return -EINVAL;
	if (s->mode == T2S_TEXT) {
		s->idx[ev] = (int)ev;
		return 0;
	}
	if (s->mode == T2S_FAKE) {
		if (dprintf(s->fd, "R %u %s\n", ev, cmd) < 0)
			return -errno;
		s->idx[ev] = (int)ev;
		s->enable[ev] = (s->fake_enable >> ev) & 1;
		return 0;
	}
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(s->enable[ev]);
	reg.flags = s->persist ? USER_EVENT_REG_PERSIST : 0;
	reg.enable_addr = (uint64_t)(uintptr_t)&s->enable[ev];
	reg.name_args = (uint64_t)(uintptr_t)cmd;
	if (ioctl(s->fd, DIAG_IOCSREG, &reg) < 0) {
		fprintf(stderr, "khist-trace2: register %s: %s\n", cmd,
			strerror(errno));
		return -errno;
	}
	s->idx[ev] = (int)reg.write_index;
	return 0;
}

/* Open and register, unless the last attempt was too recent. */
static bool sink_ready(struct t2_sink *s)
{
	char buf[1100];
	const char *path = s->path;
	unsigned int ev;
	uint64_t now;

	if (s->fd >= 0 || s->mode == T2S_TEXT) {
		if (s->mode == T2S_TEXT && s->idx[0] < 0)
			for (ev = 0; ev < T2E_NR; ev++)
				reg_one(s, ev);
		return true;
	}
	now = t2_now_ms();
	if (now < s->next_try)
		return false;
	if (!path)
		path = t2_ue_default_path(buf, sizeof(buf));
	s->fd = open(path,
		     (s->mode == T2S_FAKE ? O_WRONLY | O_APPEND : O_RDWR) |
			     O_CLOEXEC);
	if (s->fd < 0) {
		s->next_try = now + s->backoff;
		if (s->backoff < 5000)
			s->backoff *= 2;
		return false;
	}
	s->opened++;
	s->backoff = 100;
	for (ev = 0; ev < T2E_NR; ev++)
		reg_one(s, ev);
	return true;
}

/**
 * t2_sink_enabled() - whether a record of @ev would be written now (the
 * mapper skips encoding otherwise); counts why not.
 * @ctx: the sink
 * @ev: T2E_*
 *
 * Context: process.
 * Return: true if the event has a consumer.
 */
bool t2_sink_enabled(void *ctx, unsigned int ev)
{
	struct t2_sink *s = ctx;

	if (!sink_ready(s)) {
		s->no_sink++;
		return false;
	}
	if (s->mode == T2S_TEXT)
		return true;
	if (s->idx[ev] < 0 ||
	    !(__atomic_load_n(&s->enable[ev], __ATOMIC_RELAXED) & 1)) {
		s->disabled++;
		return false;
	}
	return true;
}

static unsigned int err_slot(int e)
{
	switch (e) {
	case EBADF:
		return 0;
	case ENOENT:
		return 1;
	case E2BIG:
		return 2;
	case EFAULT:
		return 3;
	default:
		return 4;
	}
}

static void print_text(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\\')
			fputs("\\\\", f);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else if (p[i] == '\t')
			fputs("\\t", f);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(f, "\\x%02x", p[i]);
		else
			fputc(p[i], f);
	}
}

/**
 * t2_print_rec() - a record as one line: "name field=value ...", numbers
 * in decimal (signed fields signed), text with \\, \n, \t and \xNN
 * escapes.
 * @f: where to
 * @r: the record
 *
 * Context: process.
 */
void t2_print_rec(FILE *f, const struct t2_rec *r)
{
	const struct t2_fmt *fmt = r->fmt;
	unsigned int i;

	fputs(fmt->name, f);
	for (i = 0; i < fmt->nf; i++) {
		const struct t2_field *fd = &fmt->f[i];

		fprintf(f, " %s=", fd->name);
		switch (fd->type) {
		case T2F_CHAR:
		case T2F_REL:
		case T2F_DATA:
			print_text(f, r->v[i].s ? r->v[i].s : "", r->v[i].len);
			break;
		case T2F_S8:
		case T2F_S16:
		case T2F_S32:
		case T2F_S64:
			fprintf(f, "%lld", (long long)r->v[i].n);
			break;
		default:
			fprintf(f, "%llu", (unsigned long long)r->v[i].n);
			break;
		}
	}
	fputc('\n', f);
}

/**
 * t2_sink_emit() - write one record (struct t2_out.emit).
 * @ctx: the sink
 * @r: the record
 * @payload: its encoded payload
 * @len: its length
 *
 * Context: process; never blocks on khist.
 */
void t2_sink_emit(void *ctx, const struct t2_rec *r,
		  const unsigned char *payload, size_t len)
{
	struct t2_sink *s = ctx;
	unsigned int ev = (unsigned int)r->ev;
	struct t2_rec d;
	int32_t idx = s->idx[ev];
	struct iovec iov[2] = {
		{ .iov_base = &idx, .iov_len = sizeof(idx) },
		{ .iov_base = (void *)payload, .iov_len = len },
	};
	static const char hex[] = "0123456789abcdef";
	char *line;
	size_t i;

	if (s->mode == T2S_TEXT) {
		/* Decoded again from the payload: the text shows what a
		 * reader of the registered format would see.
		 */
		if (t2_decode(&d, &s->fmt[ev], payload, len)) {
			s->err[err_slot(EFAULT)]++;
			return;
		}
		t2_print_rec(s->out, &d);
		s->written++;
		return;
	}
	if (s->mode == T2S_FAKE) {
		line = malloc(2 * len + 32);
		if (!line) {
			s->err[err_slot(ENOMEM)]++;
			return;
		}
		i = (size_t)sprintf(line, "W %d ", idx);
		for (size_t k = 0; k < len; k++) {
			line[i++] = hex[payload[k] >> 4];
			line[i++] = hex[payload[k] & 15];
		}
		line[i++] = '\n';
		if (write(s->fd, line, i) != (ssize_t)i)
			s->err[err_slot(errno)]++;
		else
			s->written++;
		free(line);
		return;
	}
	if (writev(s->fd, iov, 2) >= 0) {
		s->written++;
		return;
	}
	s->err[err_slot(errno)]++;
	/* The event was deleted under us: register it again. */
	if (errno == ENOENT && !reg_one(s, ev))
		s->reregistered++;
}

/**
 * t2_sink_close() - close the output (registrations go with the fd).
 * @s: the sink
 *
 * Context: process.
 */
void t2_sink_close(struct t2_sink *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->out)
		fflush(s->out);
}

/**
 * t2_sink_stats() - the sink's counters, one "name value" line each.
 * @s: the sink
 * @f: where to
 *
 * Context: process.
 */
void t2_sink_stats(const struct t2_sink *s, FILE *f)
{
	fprintf(f, "sink %s\n",
		s->fd >= 0 || s->mode == T2S_TEXT ? "open" : "waiting");
	fprintf(f, "sink_opened %llu\n", (unsigned long long)s->opened);
	fprintf(f, "written %llu\n", (unsigned long long)s->written);
	fprintf(f, "skipped_disabled %llu\n", (unsigned long long)s->disabled);
	fprintf(f, "dropped_no_sink %llu\n", (unsigned long long)s->no_sink);
	fprintf(f, "write_error_EBADF %llu\n", (unsigned long long)s->err[0]);
	fprintf(f, "write_error_ENOENT %llu\n", (unsigned long long)s->err[1]);
	fprintf(f, "write_error_E2BIG %llu\n", (unsigned long long)s->err[2]);
	fprintf(f, "write_error_EFAULT %llu\n", (unsigned long long)s->err[3]);
	fprintf(f, "write_error_other %llu\n", (unsigned long long)s->err[4]);
	fprintf(f, "reregistered %llu\n", (unsigned long long)s->reregistered);
}
