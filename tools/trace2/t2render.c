// SPDX-License-Identifier: GPL-2.0
/*
 * t2render.c - records back to text.
 *
 * The input is a record log ("R <index> <registration text>" and
 * "W <index> <hex payload>" lines): each payload is decoded with the
 * layout parsed from its registration text, checked as user_events
 * checks it, and printed as fields (decode) or as the Trace2 line it came
 * from. The event rendering keeps Git's key order and value encoding; it
 * leaves out file and line (not carried) and, like Git's brief mode,
 * nothing else: time, sid (from the process's version or start record),
 * repo (when not 0). argv and ancestry are carried joined, so they are
 * split again on their separators. The perf and normal renderings follow
 * Git's column layouts with what the records hold.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "t2render.h"
#include "t2sink.h"

#define MAX_IDX 4096
#define NR_SIDS 1024

struct sid_ent {
	int32_t pid;
	char sid[256];
};

struct render {
	FILE *out;
	enum t2_render_fmt how;
	const char *prefix;
	struct sid_ent sids[NR_SIDS];
};

static void jstr(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		default:
			if (p[i] < 0x20)
				fprintf(f, "\\u%04x", p[i]);
			else
				fputc(p[i], f);
		}
	}
	fputc('"', f);
}

static void jkey_str(FILE *f, const char *key, const struct t2_rec *r,
		     const char *field)
{
	size_t n;
	const char *s = t2_str(r, field, &n);

	fprintf(f, ",\"%s\":", key);
	jstr(f, s, n);
}

static void jkey_str_opt(FILE *f, const char *key, const struct t2_rec *r,
			 const char *field)
{
	size_t n;

	t2_str(r, field, &n);
	if (n)
		jkey_str(f, key, r, field);
}

static void jkey_int(FILE *f, const char *key, const struct t2_rec *r,
		     const char *field)
{
	fprintf(f, ",\"%s\":%" PRId64, key, (int64_t)t2_num(r, field));
}

static void put_secs(FILE *f, uint64_t us)
{
	fprintf(f, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

static void jkey_secs(FILE *f, const char *key, const struct t2_rec *r,
		      const char *field)
{
	fprintf(f, ",\"%s\":", key);
	put_secs(f, t2_num(r, field));
}

/* A joined text field as a JSON array, split on @sep. */
static void jkey_split(FILE *f, const char *key, const struct t2_rec *r,
		       const char *field, const char *sep)
{
	size_t n, sl = strlen(sep);
	const char *s = t2_str(r, field, &n), *end = s + n, *q;

	fprintf(f, ",\"%s\":[", key);
	while (n && s <= end) {
		for (q = s; q + sl <= end && memcmp(q, sep, sl); q++)
			;
		if (q + sl > end)
			q = end;
		jstr(f, s, (size_t)(q - s));
		if (q == end)
			break;
		fputc(',', f);
		s = q + sl;
	}
	fputc(']', f);
}

static void civil(uint64_t us, char *buf, size_t size, bool date)
{
	int64_t days = (int64_t)(us / 1000000 / 86400), y, era;
	unsigned int doe, yoe, doy, mp, d, m, sod;

	sod = (unsigned int)(us / 1000000 % 86400);
	days += 719468;
	era = days / 146097;
	doe = (unsigned int)(days - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	if (date)
		snprintf(buf, size, "%04lld-%02u-%02uT%02u:%02u:%02u.%06uZ",
			 (long long)y, m, d, sod / 3600, sod / 60 % 60,
			 sod % 60, (unsigned int)(us % 1000000));
	else
		snprintf(buf, size, "%02u:%02u:%02u.%06u", sod / 3600,
			 sod / 60 % 60, sod % 60, (unsigned int)(us % 1000000));
}

static struct sid_ent *sid_slot(struct render *rd, int32_t pid)
{
	unsigned int h = (uint32_t)pid % NR_SIDS, i;

	for (i = 0; i < NR_SIDS; i++) {
		struct sid_ent *e = &rd->sids[(h + i) % NR_SIDS];

		if (e->pid == pid || !e->sid[0])
			return e;
	}
	/* Full: reuse the home slot. */
	return &rd->sids[h];
}

static void render_event(struct render *rd, const struct t2_rec *r, int ev)
{
	FILE *f = rd->out;
	struct sid_ent *se = sid_slot(rd, (int32_t)t2_num(r, "pid"));
	uint64_t time_us = t2_num(r, "time_us"), repo = t2_num(r, "repo");
	size_t n;
	const char *s;
	char tbuf[40];

	if (ev == T2E_UNKNOWN) {
		s = t2_str(r, "json", &n);
		fwrite(s, 1, n, f);
		fputc('\n', f);
		return;
	}
	fprintf(f,
		"{\"event\":\"%s\",\"sid\":", t2_event_name((unsigned int)ev));
	if (se->pid != (int32_t)t2_num(r, "pid"))
		jstr(f, "", 0);
	else
		jstr(f, se->sid, strlen(se->sid));
	jkey_str(f, "thread", r, "thread");
	if (time_us) {
		civil(time_us, tbuf, sizeof(tbuf), true);
		fprintf(f, ",\"time\":\"%s\"", tbuf);
	}
	if (ev == T2E_DEF_REPO ||
	    (repo && (ev == T2E_REGION_ENTER || ev == T2E_REGION_LEAVE ||
		      ev == T2E_DATA || ev == T2E_DATA_JSON)))
		fprintf(f, ",\"repo\":%" PRIu64, repo);
	switch (ev) {
	case T2E_VERSION:
		fprintf(f, ",\"evt\":\"%" PRIu64 "\"", t2_num(r, "evt"));
		jkey_str(f, "exe", r, "exe");
		break;
	case T2E_START:
		jkey_secs(f, "t_abs", r, "t_abs");
		jkey_split(f, "argv", r, "argv", " ");
		break;
	case T2E_EXIT:
	case T2E_ATEXIT:
		jkey_secs(f, "t_abs", r, "t_abs");
		jkey_int(f, "code", r, "code");
		break;
	case T2E_SIGNAL:
		jkey_secs(f, "t_abs", r, "t_abs");
		jkey_int(f, "signo", r, "signo");
		break;
	case T2E_ERROR:
		jkey_str(f, "msg", r, "msg");
		jkey_str(f, "fmt", r, "fmt");
		break;
	case T2E_CMD_PATH:
		jkey_str(f, "path", r, "path");
		break;
	case T2E_CMD_ANCESTRY:
		jkey_split(f, "ancestry", r, "ancestry", " <- ");
		break;
	case T2E_CMD_NAME:
		jkey_str(f, "name", r, "name");
		jkey_str(f, "hierarchy", r, "hierarchy");
		break;
	case T2E_CMD_MODE:
		jkey_str(f, "name", r, "name");
		break;
	case T2E_ALIAS:
		jkey_str(f, "alias", r, "alias");
		jkey_split(f, "argv", r, "argv", " ");
		break;
	case T2E_CHILD_START:
		jkey_int(f, "child_id", r, "child_id");
		jkey_str(f, "child_class", r, "child_class");
		jkey_str_opt(f, "hook_name", r, "hook_name");
		jkey_str_opt(f, "cd", r, "cd");
		fprintf(f, ",\"use_shell\":%s",
			t2_num(r, "use_shell") ? "true" : "false");
		jkey_split(f, "argv", r, "argv", " ");
		break;
	case T2E_CHILD_EXIT:
	case T2E_CHILD_READY:
		jkey_int(f, "child_id", r, "child_id");
		jkey_int(f, "pid", r, "child_pid");
		if (ev == T2E_CHILD_EXIT)
			jkey_int(f, "code", r, "code");
		else
			jkey_str(f, "ready", r, "ready");
		jkey_secs(f, "t_rel", r, "t_rel");
		break;
	case T2E_THREAD_EXIT:
		jkey_secs(f, "t_rel", r, "t_rel");
		break;
	case T2E_EXEC:
		jkey_int(f, "exec_id", r, "exec_id");
		jkey_str_opt(f, "exe", r, "exe");
		jkey_split(f, "argv", r, "argv", " ");
		break;
	case T2E_EXEC_RESULT:
		jkey_int(f, "exec_id", r, "exec_id");
		jkey_int(f, "code", r, "code");
		break;
	case T2E_DEF_PARAM:
		jkey_str_opt(f, "scope", r, "scope");
		jkey_str(f, "param", r, "param");
		jkey_str(f, "value", r, "value");
		break;
	case T2E_DEF_REPO:
		jkey_str(f, "worktree", r, "worktree");
		break;
	case T2E_REGION_LEAVE:
		jkey_secs(f, "t_rel", r, "t_rel");
		/* fall through */
	case T2E_REGION_ENTER:
		jkey_int(f, "nesting", r, "nesting");
		jkey_str_opt(f, "category", r, "category");
		jkey_str_opt(f, "label", r, "label");
		jkey_str_opt(f, "msg", r, "msg");
		break;
	case T2E_DATA:
	case T2E_DATA_JSON:
		jkey_secs(f, "t_abs", r, "t_abs");
		jkey_secs(f, "t_rel", r, "t_rel");
		jkey_int(f, "nesting", r, "nesting");
		jkey_str(f, "category", r, "category");
		jkey_str(f, "key", r, "key");
		if (ev == T2E_DATA) {
			jkey_str(f, "value", r, "value");
		} else {
			s = t2_str(r, "value", &n);
			fputs(",\"value\":", f);
			fwrite(s, 1, n, f);
		}
		break;
	case T2E_TIMER:
	case T2E_TH_TIMER:
		jkey_str(f, "category", r, "category");
		jkey_str(f, "name", r, "name");
		jkey_int(f, "intervals", r, "intervals");
		jkey_secs(f, "t_total", r, "t_total");
		jkey_secs(f, "t_min", r, "t_min");
		jkey_secs(f, "t_max", r, "t_max");
		break;
	case T2E_COUNTER:
	case T2E_TH_COUNTER:
		jkey_str(f, "category", r, "category");
		jkey_str(f, "name", r, "name");
		jkey_int(f, "count", r, "count");
		break;
	case T2E_PRINTF:
		jkey_secs(f, "t_abs", r, "t_abs");
		jkey_str(f, "msg", r, "msg");
		break;
	default:
		break;
	}
	fputs("}\n", f);
}

/* "%9.6f" of microseconds, or blanks. */
static void col_secs(FILE *f, const struct t2_rec *r, const char *field)
{
	char b[32];
	uint64_t us;

	if (t2_fmt_field(r->fmt, field) < 0) {
		fputs("          | ", f);
		return;
	}
	us = t2_num(r, field);
	snprintf(b, sizeof(b), "%" PRIu64 ".%06" PRIu64, us / 1000000,
		 us % 1000000);
	fprintf(f, "%9s | ", b);
}

static void txt(FILE *f, const struct t2_rec *r, const char *field)
{
	size_t n;
	const char *s = t2_str(r, field, &n);

	fwrite(s, 1, n, f);
}

/* The message part of perf and normal lines. */
static void message(FILE *f, const struct t2_rec *r, int ev, bool perf)
{
	char b[32];

	switch (ev) {
	case T2E_VERSION:
		txt(f, r, "exe");
		break;
	case T2E_START:
	case T2E_EXEC:
		if (ev == T2E_EXEC)
			fprintf(f, perf ? "id:%d argv:[" : "[%d] ",
				(int)t2_num(r, "exec_id"));
		txt(f, r, "argv");
		if (perf && ev == T2E_EXEC)
			fputc(']', f);
		break;
	case T2E_EXIT:
	case T2E_ATEXIT:
	case T2E_SIGNAL:
		if (!perf) {
			snprintf(b, sizeof(b), "%" PRIu64 ".%06" PRIu64,
				 t2_num(r, "t_abs") / 1000000,
				 t2_num(r, "t_abs") % 1000000);
			fprintf(f, "elapsed:%s ", b);
		}
		fprintf(f, ev == T2E_SIGNAL ? "signo:%d" : "code:%d",
			(int)t2_num(r, ev == T2E_SIGNAL ? "signo" : "code"));
		break;
	case T2E_ERROR:
		txt(f, r, "msg");
		break;
	case T2E_CMD_PATH:
		txt(f, r, "path");
		break;
	case T2E_CMD_ANCESTRY:
		fputs("ancestry:[", f);
		txt(f, r, "ancestry");
		fputc(']', f);
		break;
	case T2E_CMD_NAME:
		txt(f, r, "name");
		fputs(" (", f);
		txt(f, r, "hierarchy");
		fputc(')', f);
		break;
	case T2E_CMD_MODE:
		txt(f, r, "name");
		break;
	case T2E_ALIAS:
		fputs("alias:", f);
		txt(f, r, "alias");
		fputs(" argv:[", f);
		txt(f, r, "argv");
		fputc(']', f);
		break;
	case T2E_CHILD_START:
		fprintf(f, perf ? "[ch%d] class:" : "[%d] ",
			(int)t2_num(r, "child_id"));
		if (perf) {
			txt(f, r, "child_class");
			fputs(" argv:[", f);
		}
		txt(f, r, "argv");
		if (perf)
			fputc(']', f);
		break;
	case T2E_CHILD_EXIT:
		fprintf(f,
			perf ? "[ch%d] pid:%d code:%d" : "[%d] pid:%d code:%d",
			(int)t2_num(r, "child_id"), (int)t2_num(r, "child_pid"),
			(int)t2_num(r, "code"));
		if (!perf)
			fprintf(f, " elapsed:%" PRIu64 ".%06" PRIu64,
				t2_num(r, "t_rel") / 1000000,
				t2_num(r, "t_rel") % 1000000);
		break;
	case T2E_CHILD_READY:
		fprintf(f, perf ? "[ch%d] pid:%d ready:" : "[%d] pid:%d ready:",
			(int)t2_num(r, "child_id"),
			(int)t2_num(r, "child_pid"));
		txt(f, r, "ready");
		break;
	case T2E_EXEC_RESULT:
		fprintf(f, perf ? "id:%d code:%d" : "[%d] code:%d",
			(int)t2_num(r, "exec_id"), (int)t2_num(r, "code"));
		break;
	case T2E_DEF_PARAM:
		fputs("scope:", f);
		txt(f, r, "scope");
		fputc(' ', f);
		txt(f, r, "param");
		fputc(perf ? ':' : '=', f);
		txt(f, r, "value");
		break;
	case T2E_DEF_REPO:
		fputs("worktree:", f);
		txt(f, r, "worktree");
		break;
	case T2E_REGION_ENTER:
	case T2E_REGION_LEAVE:
		fputs("label:", f);
		txt(f, r, "label");
		if (t2_str(r, "msg", NULL)[0]) {
			fputc(' ', f);
			txt(f, r, "msg");
		}
		break;
	case T2E_DATA:
	case T2E_DATA_JSON:
		txt(f, r, "key");
		fputc(':', f);
		txt(f, r, "value");
		break;
	case T2E_TIMER:
	case T2E_TH_TIMER:
		if (!perf) {
			txt(f, r, "category");
			fputc('/', f);
		} else {
			fputs("name:", f);
		}
		txt(f, r, "name");
		fprintf(f, " intervals:%" PRIu64, t2_num(r, "intervals"));
		fprintf(f, " total:%" PRIu64 ".%06" PRIu64,
			t2_num(r, "t_total") / 1000000,
			t2_num(r, "t_total") % 1000000);
		fprintf(f, " min:%" PRIu64 ".%06" PRIu64,
			t2_num(r, "t_min") / 1000000,
			t2_num(r, "t_min") % 1000000);
		fprintf(f, " max:%" PRIu64 ".%06" PRIu64,
			t2_num(r, "t_max") / 1000000,
			t2_num(r, "t_max") % 1000000);
		break;
	case T2E_COUNTER:
	case T2E_TH_COUNTER:
		if (!perf) {
			txt(f, r, "category");
			fputc('/', f);
		} else {
			fputs("name:", f);
		}
		txt(f, r, "name");
		fprintf(f, " value:%" PRIu64, t2_num(r, "count"));
		break;
	case T2E_PRINTF:
		txt(f, r, "msg");
		break;
	case T2E_UNKNOWN:
		txt(f, r, "event");
		break;
	default:
		break;
	}
}

static void render_perf(struct render *rd, const struct t2_rec *r, int ev)
{
	FILE *f = rd->out;
	char tbuf[40], cat[16] = "", rb[24] = "";
	uint64_t repo = t2_num(r, "repo"), nest;
	size_t n;
	const char *s;

	civil(t2_num(r, "time_us"), tbuf, sizeof(tbuf), false);
	fprintf(f, "%s %-28s | d%u | ", tbuf, "",
		(unsigned int)t2_num(r, "depth"));
	s = t2_str(r, "thread", &n);
	fprintf(f, "%-24.*s | %-12s | ", (int)n, s,
		t2_event_name((unsigned int)ev));
	if (repo)
		snprintf(rb, sizeof(rb), "r%" PRIu64, repo);
	fprintf(f, "%-3s | ", rb);
	col_secs(f, r,
		 ev == T2E_CHILD_EXIT || ev == T2E_CHILD_READY ||
				 ev == T2E_REGION_LEAVE ||
				 ev == T2E_THREAD_EXIT ?
			 "-" :
			 "t_abs");
	col_secs(f, r, "t_rel");
	if (ev != T2E_CMD_NAME && t2_fmt_field(r->fmt, "category") >= 0) {
		s = t2_str(r, "category", &n);
		snprintf(cat, sizeof(cat), "%.*s", (int)(n > 12 ? 12 : n), s);
	}
	fprintf(f, "%-12.12s | ", cat);
	nest = t2_fmt_field(r->fmt, "nesting") >= 0 ? t2_num(r, "nesting") : 0;
	for (; nest > 1; nest--)
		fputs("..", f);
	message(f, r, ev, true);
	fputc('\n', f);
}

static void render_normal(struct render *rd, const struct t2_rec *r, int ev)
{
	FILE *f = rd->out;
	char tbuf[40];
	const char *name = t2_event_name((unsigned int)ev);

	switch (ev) {
	case T2E_REGION_ENTER:
	case T2E_REGION_LEAVE:
	case T2E_DATA:
	case T2E_DATA_JSON:
	case T2E_THREAD_START:
	case T2E_THREAD_EXIT:
		return;
	default:
		break;
	}
	civil(t2_num(r, "time_us"), tbuf, sizeof(tbuf), false);
	fprintf(f, "%-49s %s", tbuf, name);
	/* Git writes the id right after these names: child_start[0]. */
	if (ev != T2E_CHILD_START && ev != T2E_CHILD_EXIT &&
	    ev != T2E_CHILD_READY && ev != T2E_EXEC && ev != T2E_EXEC_RESULT)
		fputc(' ', f);
	message(f, r, ev, false);
	fputc('\n', f);
}

static void render_one(struct render *rd, const struct t2_rec *r)
{
	size_t pl = strlen(rd->prefix);
	const char *name = r->fmt->name;
	struct sid_ent *se;
	size_t n;
	const char *s;
	int ev;

	if (rd->how == T2R_DECODE) {
		t2_print_rec(rd->out, r);
		return;
	}
	if (strncmp(name, rd->prefix, pl))
		return;
	ev = t2_event_lookup(name + pl);
	if (ev < 0 && !strcmp(name + pl, "unknown"))
		ev = T2E_UNKNOWN;
	if (ev < 0)
		return;
	if (ev == T2E_VERSION || ev == T2E_START) {
		se = sid_slot(rd, (int32_t)t2_num(r, "pid"));
		s = t2_str(r, "sid", &n);
		se->pid = (int32_t)t2_num(r, "pid");
		snprintf(se->sid, sizeof(se->sid), "%.*s", (int)n, s);
	}
	if (rd->how == T2R_EVENT)
		render_event(rd, r, ev);
	else if (rd->how == T2R_PERF)
		render_perf(rd, r, ev);
	else
		render_normal(rd, r, ev);
}

static int unhex(const char *s, size_t n, unsigned char *out)
{
	size_t i;
	int hi, lo;

	if (n % 2)
		return -1;
	for (i = 0; i < n / 2; i++) {
		hi = isxdigit((unsigned char)s[2 * i]) ? s[2 * i] : -1;
		lo = isxdigit((unsigned char)s[2 * i + 1]) ? s[2 * i + 1] : -1;
		if (hi < 0 || lo < 0)
			return -1;
		hi = hi <= '9' ? hi - '0' : (hi | 0x20) - 'a' + 10;
		lo = lo <= '9' ? lo - '0' : (lo | 0x20) - 'a' + 10;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

/**
 * t2_render_log() - read a record log and print every record.
 * @in: the log
 * @out: where the text goes
 * @how: T2R_DECODE (fields) or a Trace2 rendering
 * @prefix: the event-name prefix of trace2 events ("trace2_")
 * @bad: out: lines that could not be read or decoded
 *
 * Context: process.
 * Return: 0, or -1 when out of memory.
 */
int t2_render_log(FILE *in, FILE *out, enum t2_render_fmt how,
		  const char *prefix, unsigned long *bad)
{
	struct t2_fmt **fmts = calloc(MAX_IDX, sizeof(*fmts));
	struct render *rd = calloc(1, sizeof(*rd));
	unsigned char *buf = NULL;
	char *line = NULL, *end;
	size_t cap = 0, bcap = 0;
	unsigned long idx;
	struct t2_rec r;
	ssize_t n;
	int rc = -1;

	*bad = 0;
	if (!fmts || !rd)
		goto out;
	rd->out = out;
	rd->how = how;
	rd->prefix = prefix;
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (n < 4 || (line[0] != 'R' && line[0] != 'W') ||
		    line[1] != ' ')
			goto bad;
		idx = strtoul(line + 2, &end, 10);
		if (end == line + 2 || *end != ' ' || idx >= MAX_IDX)
			goto bad;
		end++;
		if (line[0] == 'R') {
			if (!fmts[idx])
				fmts[idx] = malloc(sizeof(**fmts));
			if (!fmts[idx])
				goto out;
			if (t2_fmt_parse(fmts[idx], end)) {
				free(fmts[idx]);
				fmts[idx] = NULL;
				goto bad;
			}
			continue;
		}
		if (!fmts[idx])
			goto bad;
		if ((size_t)n > bcap) {
			unsigned char *nb = realloc(buf, (size_t)n);

			if (!nb)
				goto out;
			buf = nb;
			bcap = (size_t)n;
		}
		if (unhex(end, strlen(end), buf) ||
		    t2_decode(&r, fmts[idx], buf, strlen(end) / 2))
			goto bad;
		render_one(rd, &r);
		continue;
bad:
		(*bad)++;
	}
	rc = 0;
out:
	if (fmts)
		for (idx = 0; idx < MAX_IDX; idx++)
			free(fmts[idx]);
	free(fmts);
	free(rd);
	free(buf);
	free(line);
	return rc;
}
