// SPDX-License-Identifier: GPL-2.0
/*
 * t2khist.c - the trace2 records held in khist's ring buffer, as a
 * record log.
 *
 * Each per_cpu/cpuN/trace_pipe_raw of a khist mount (or instance) is read
 * to its end (O_NONBLOCK: a read that would wait ends it), and every
 * sub-buffer is walked: its header (a 64-bit time stamp, then the commit,
 * whose two top bits say that events were lost before it), then the
 * events, each a 32-bit header of a 5-bit type and a 27-bit time delta:
 * 1-28 that many 32-bit words of data, 0 a length word first, 29 padding
 * (a delta of 0: the rest of the sub-buffer), 30 a time extend and 31 an
 * absolute time stamp (one more word each). A data event starts with the
 * 8-byte common header (its type id in the first 16 bits); what follows
 * is the payload a user_events writer sent. The records of every CPU are
 * put in time order and written as a record log ("R <event> <registration
 * text>" once per event, then "W <event> <payload in hex>"), the input of
 * t2_render_log(). Reading consumes, as any trace_pipe_raw reader does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t2khist.h"
#include "t2map.h"

#define TYPE_PAD 29
#define TYPE_EXTEND 30
#define TYPE_STAMP 31
#define COMMIT_LOST (3ULL << 30)
#define ENTRY_HDR 8

struct krec {
	uint64_t ts;
	unsigned int cpu;
	unsigned long seq;
	unsigned int ev;
	size_t len;
	unsigned char *payload;
};

struct kread {
	int ids[T2E_NR];
	struct krec *recs;
	size_t nrec, cap;
	unsigned long seq;
	struct t2_khist_stats *st;
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int add_rec(struct kread *k, uint64_t ts, unsigned int cpu,
		   const unsigned char *data, size_t len)
{
	unsigned int type, ev;
	struct krec *r;

	if (len < ENTRY_HDR) {
		k->st->bad++;
		return 0;
	}
	type = data[0] | data[1] << 8;
	for (ev = 0; ev < T2E_NR; ev++)
		if (k->ids[ev] >= 0 && (unsigned int)k->ids[ev] == type)
			break;
	if (ev == T2E_NR) {
		k->st->other++;
		return 0;
	}
	if (k->nrec == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;
		struct krec *n = realloc(k->recs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		k->recs = n;
		k->cap = cap;
	}
	r = &k->recs[k->nrec];
	r->payload = malloc(len - ENTRY_HDR + 1);
	if (!r->payload)
		return -ENOMEM;
	memcpy(r->payload, data + ENTRY_HDR, len - ENTRY_HDR);
	r->len = len - ENTRY_HDR;
	r->ts = ts;
	r->cpu = cpu;
	r->seq = k->seq++;
	r->ev = ev;
	k->nrec++;
	return 0;
}

/* Walk one sub-buffer of @n bytes read from CPU @cpu. */
static int walk(struct kread *k, unsigned int cpu, const unsigned char *pg,
		size_t n)
{
	uint64_t ts, commit, ext;
	size_t off = 16, end;
	uint32_t hdr, len;
	int ret;

	if (n < 16) {
		k->st->bad++;
		return 0;
	}
	ts = le64(pg);
	commit = le64(pg + 8);
	if (commit & COMMIT_LOST)
		k->st->lost_pages++;
	commit &= ~COMMIT_LOST & 0xffffffffULL;
	if (commit > n - 16) {
		k->st->bad++;
		return 0;
	}
	end = 16 + commit;
	while (off + 4 <= end) {
		hdr = le32(pg + off);
		switch (hdr & 31) {
		case TYPE_PAD:
			if (!(hdr >> 5))
				return 0;
			if (off + 8 > end)
				goto bad;
			off += 4 + le32(pg + off + 4);
			break;
		case TYPE_EXTEND:
		case TYPE_STAMP:
			if (off + 8 > end)
				goto bad;
			ext = (uint64_t)le32(pg + off + 4) << 27 | hdr >> 5;
			if ((hdr & 31) == TYPE_EXTEND)
				ts += ext;
			else
				ts = ext | (ts & ~((1ULL << 59) - 1));
			off += 8;
			break;
		case 0:
			if (off + 8 > end)
				goto bad;
			len = le32(pg + off + 4);
			if (len < 4 || len > end - off - 4)
				goto bad;
			ts += hdr >> 5;
			ret = add_rec(k, ts, cpu, pg + off + 8, len - 4);
			if (ret)
				return ret;
			off += 4 + len;
			break;
		default:
			len = (hdr & 31) * 4;
			if (len > end - off - 4)
				goto bad;
			ts += hdr >> 5;
			ret = add_rec(k, ts, cpu, pg + off + 4, len);
			if (ret)
				return ret;
			off += 4 + len;
		}
	}
	return 0;
bad:
	k->st->bad++;
	return 0;
}

static int read_cpu(struct kread *k, const char *dir, unsigned int cpu,
		    size_t subbuf)
{
	unsigned char *pg = malloc(subbuf);
	char path[4096];
	int fd, ret = 0;
	ssize_t n;

	if (!pg)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", dir,
		 cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		n = read(fd, pg, subbuf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		k->st->pages++;
		ret = walk(k, cpu, pg, (size_t)n);
		if (ret)
			break;
	}
	close(fd);
out:
	free(pg);
	return ret;
}

static int by_time(const void *a, const void *b)
{
	const struct krec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/**
 * t2_khist_log() - khist's buffered trace2 records as a record log.
 * @dir: a khist mount or instance directory
 * @prefix: the trace2 event-name prefix ("trace2_")
 * @out: where the record log goes
 * @st: out: what was read
 *
 * Context: process; consumes what trace_pipe_raw gives.
 * Return: 0, -ENOENT when @dir has no per_cpu/cpu0 or no trace2 event,
 * another negative errno on a failed read or allocation.
 */
int t2_khist_log(const char *dir, const char *prefix, FILE *out,
		 struct t2_khist_stats *st)
{
	struct kread k = { .st = st };
	char path[4096], buf[4096];
	const char *cmd;
	size_t subbuf = (size_t)sysconf(_SC_PAGESIZE), i, j;
	unsigned int ev, cpu, found = 0;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	for (ev = 0; ev < T2E_NR; ev++) {
		k.ids[ev] = -1;
		snprintf(path, sizeof(path), "%s/events/user_events/%s%s/id",
			 dir, prefix, t2_event_name(ev));
		if (read_small(path, buf, sizeof(buf)))
			continue;
		k.ids[ev] = atoi(buf);
		cmd = t2_event_cmd(ev, prefix, buf, sizeof(buf));
		if (!cmd)
			continue;
		fprintf(out, "R %u %s\n", ev, cmd);
		found++;
	}
	if (!found)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", dir);
	if (!read_small(path, buf, sizeof(buf)) && atol(buf) > 0)
		subbuf = (size_t)atol(buf) * 1024;
	for (cpu = 0;; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", dir, cpu);
		if (access(path, F_OK)) {
			if (!cpu)
				ret = -ENOENT;
			break;
		}
		st->cpus++;
		ret = read_cpu(&k, dir, cpu, subbuf);
		if (ret)
			break;
	}
	if (!ret) {
		qsort(k.recs, k.nrec, sizeof(*k.recs), by_time);
		for (i = 0; i < k.nrec; i++) {
			fprintf(out, "W %u ", k.recs[i].ev);
			for (j = 0; j < k.recs[i].len; j++)
				fprintf(out, "%02x", k.recs[i].payload[j]);
			fputc('\n', out);
		}
		st->records = k.nrec;
	}
	for (i = 0; i < k.nrec; i++)
		free(k.recs[i].payload);
	free(k.recs);
	return ret;
}
