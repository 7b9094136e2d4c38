// SPDX-License-Identifier: GPL-2.0
/*
 * sql.c - `khist sql`: libtracefs's SQL dialect for hist triggers and
 * synthetic events (the tracefs_sql(3) man page), turned into the
 * commands khist's files take.
 *
 *   SELECT item[, item...] FROM event [AS a]
 *          [JOIN event2 [AS b] ON a.x = b.y [AND a.z = b.w ...]]
 *          [WHERE filter]
 *
 * Without JOIN the items are the keys of one hist trigger on event;
 * CAST(field AS hex|sym|sym-offset|syscall|execname|comm|log|log2) adds
 * the key's modifier, CAST(field AS _COUNTER_) makes it a value.
 *
 * With JOIN the items are the fields of a synthetic event: a.f, b.f,
 * b.f - a.g or b.f + a.g (AS name; a timestamp is a.TIMESTAMP,
 * a.TIMESTAMP_USECS or a.common_timestamp[.usecs]). The start event
 * (FROM) gets a trigger keyed on the ON fields that saves what the end
 * event (JOIN) needs in variables; the end event's trigger computes the
 * rest and fires the synthetic event with onmatch().trace(). The WHERE
 * filter is split at its top-level && into each event's "if" filter.
 * Variables are named as libtracefs names them (__<name>_<pid>_<n>), so
 * the commands read as sqlhist's do.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "khist.h"

#define KH_SQL_MAXTOK 512
#define KH_SQL_MAXITEM 32
#define KH_SQL_MAXKEY 8

static const char kh_sql_help[] =
	"usage: khist sql [-n NAME] [--dry-run] 'SELECT ...'\n"
	"Turn a query in libtracefs's SQL dialect into hist triggers and, for a\n"
	"JOIN, a synthetic event NAME (default Anonymous), install them and\n"
	"print the commands; --dry-run prints them only.\n"
	"  SELECT keys FROM event [WHERE filter]\n"
	"  SELECT fields FROM ev1 AS a JOIN ev2 AS b ON a.x = b.y [WHERE filter]\n";

enum kh_tok_kind { KT_END, KT_ID, KT_NUM, KT_STR, KT_OP };

struct kh_tok {
	enum kh_tok_kind kind;
	char *s;
	size_t pos;
	bool escaped;
};

/* A field of an event's format file. */
struct kh_field {
	char type[64];
	unsigned int size;
	bool is_signed;
	unsigned int array;
};

struct kh_event {
	char sys[256];
	char ev[256];
	char alias[256];
	char *format;
};

/* A reference to a field: which event (0 start, 1 end) and its name. */
struct kh_ref {
	int ev;
	char name[256];
	bool ts;
};

enum kh_item_kind { KI_FIELD, KI_CALC };

struct kh_item {
	enum kh_item_kind kind;
	struct kh_ref a;
	struct kh_ref b;
	char op;
	char cast[32];
	char alias[256];
};

struct kh_sql {
	const char *text;
	struct kh_tok *t;
	size_t nt;
	size_t i;
	struct kh_item item[KH_SQL_MAXITEM];
	int nitem;
	struct kh_event e[2];
	int nev;
	struct kh_ref on[KH_SQL_MAXKEY][2];
	int non;
	size_t where;
	size_t where_end;
};

static int kh_sql_fail(struct kh_sql *q, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int kh_sql_fail(struct kh_sql *q, size_t at, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		msg = NULL;
	kh_err("sql: %s", msg ? msg : "out of memory");
	free(msg);
	fprintf(stderr, "  %s\n  %*s^\n", q->text, (int)at, "");
	return -1;
}

static int kh_sql_lex(struct kh_sql *q)
{
	const char *s = q->text, *p = s;
	size_t cap = 0;

	for (;;) {
		struct kh_tok t = { 0 };
		const char *b;

		while (isspace((unsigned char)*p))
			p++;
		t.pos = p - s;
		b = p;
		if (!*p) {
			t.kind = KT_END;
		} else if (*p == '\\' &&
			   (isalpha((unsigned char)p[1]) || p[1] == '_')) {
			/* \from: a field named as a keyword. */
			t.kind = KT_ID;
			t.escaped = true;
			b = ++p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			t.kind = KT_ID;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
		} else if (isdigit((unsigned char)*p)) {
			t.kind = KT_NUM;
			while (isalnum((unsigned char)*p))
				p++;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p++;

			t.kind = KT_STR;
			while (*p && *p != quote)
				p++;
			if (!*p)
				return kh_sql_fail(q, t.pos,
						   "unterminated string");
			p++;
		} else {
			static const char *const two[] = { "==", "!=", "<=",
							   ">=", "&&", "||" };
			unsigned int k;

			t.kind = KT_OP;
			p++;
			for (k = 0; k < sizeof(two) / sizeof(two[0]); k++)
				if (!strncmp(b, two[k], 2)) {
					p = b + 2;
					break;
				}
			if (!strchr(",.()-+=<>!~&|*/;", *b))
				return kh_sql_fail(q, t.pos,
						   "unexpected character '%c'",
						   *b);
		}
		t.s = strndup(b, p - b);
		if (!t.s) {
			kh_err("out of memory");
			exit(1);
		}
		if (q->nt == cap) {
			cap = cap ? cap * 2 : 64;
			q->t = realloc(q->t, cap * sizeof(*q->t));
			if (!q->t) {
				kh_err("out of memory");
				exit(1);
			}
		}
		q->t[q->nt++] = t;
		if (t.kind == KT_END)
			return 0;
		if (q->nt > KH_SQL_MAXTOK)
			return kh_sql_fail(q, t.pos, "query too long");
	}
}

static struct kh_tok *kh_peek(struct kh_sql *q)
{
	return &q->t[q->i];
}

static bool kh_is_kw(const struct kh_tok *t, const char *kw)
{
	return t->kind == KT_ID && !t->escaped && !strcasecmp(t->s, kw);
}

static bool kh_accept_kw(struct kh_sql *q, const char *kw)
{
	if (!kh_is_kw(kh_peek(q), kw))
		return false;
	q->i++;
	return true;
}

static bool kh_accept_op(struct kh_sql *q, const char *op)
{
	struct kh_tok *t = kh_peek(q);

	if (t->kind != KT_OP || strcmp(t->s, op))
		return false;
	q->i++;
	return true;
}

static bool kh_keyword(const struct kh_tok *t)
{
	static const char *const kws[] = { "select", "from", "join", "on",
					   "where",  "as",   "and",  "cast" };
	unsigned int k;

	for (k = 0; k < sizeof(kws) / sizeof(kws[0]); k++)
		if (kh_is_kw(t, kws[k]))
			return true;
	return false;
}

/* A dotted name: a.b.c into @parts; returns how many. */
static int kh_dotted(struct kh_sql *q, char **parts, int max)
{
	int n = 0;

	do {
		struct kh_tok *t = kh_peek(q);

		if (t->kind != KT_ID || kh_keyword(t) || n == max)
			return kh_sql_fail(q, t->pos, "expected a name");
		parts[n++] = t->s;
		q->i++;
	} while (kh_accept_op(q, "."));
	return n;
}

/* The events: does @sys/@ev exist; find the system of a bare event name. */
static bool kh_event_exists(const char *sys, const char *ev)
{
	char *p = kh_event_path(NULL, sys, ev, "format");
	bool ok = !access(p, R_OK);

	free(p);
	return ok;
}

static int kh_find_system(struct kh_sql *q, size_t at, const char *ev,
			  char *sys, size_t len)
{
	char *path;
	struct dirent *d;
	DIR *dir;
	int found = 0;

	if (asprintf(&path, "%s/events", kh_root()) < 0)
		return -1;
	dir = opendir(path);
	free(path);
	if (!dir)
		return kh_sql_fail(q, at, "cannot read %s/events", kh_root());
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !kh_event_exists(d->d_name, ev))
			continue;
		if (found++)
			break;
		snprintf(sys, len, "%s", d->d_name);
	}
	closedir(dir);
	if (found == 1)
		return 0;
	return kh_sql_fail(
		q, at,
		found ? "event '%s' is in several systems: give system.%s" :
			"no event '%s'%.0s",
		ev, ev);
}

static int kh_parse_event(struct kh_sql *q, struct kh_event *e)
{
	size_t at = kh_peek(q)->pos;
	char *parts[2];
	int n = kh_dotted(q, parts, 2);
	char *path;

	if (n < 0)
		return -1;
	if (n == 2) {
		snprintf(e->sys, sizeof(e->sys), "%s", parts[0]);
		snprintf(e->ev, sizeof(e->ev), "%s", parts[1]);
		if (!kh_event_exists(e->sys, e->ev))
			return kh_sql_fail(q, at, "no event %s.%s", e->sys,
					   e->ev);
	} else {
		snprintf(e->ev, sizeof(e->ev), "%s", parts[0]);
		if (kh_find_system(q, at, e->ev, e->sys, sizeof(e->sys)))
			return -1;
	}
	if (kh_accept_kw(q, "as")) {
		struct kh_tok *t = kh_peek(q);

		if (t->kind != KT_ID || kh_keyword(t))
			return kh_sql_fail(q, t->pos, "expected an alias");
		snprintf(e->alias, sizeof(e->alias), "%s", t->s);
		q->i++;
	}
	path = kh_event_path(NULL, e->sys, e->ev, "format");
	e->format = kh_read_file(path, NULL);
	free(path);
	if (!e->format)
		return kh_sql_fail(q, at, "%s.%s: cannot read its format",
				   e->sys, e->ev);
	return 0;
}

/* A field's line in a format file: its type, size and sign. */
static bool kh_field_of(const struct kh_event *e, const char *name,
			struct kh_field *f)
{
	const char *p = e->format;

	while ((p = strstr(p, "field:"))) {
		const char *decl = p + 6, *end = strchr(decl, ';');
		const char *nm, *ne, *br;
		size_t nlen = strlen(name);

		p = decl;
		if (!end)
			break;
		/* The name: the last identifier before any [N]. */
		br = memchr(decl, '[', end - decl);
		ne = br ? br : end;
		while (ne > decl && isspace((unsigned char)ne[-1]))
			ne--;
		nm = ne;
		while (nm > decl &&
		       (isalnum((unsigned char)nm[-1]) || nm[-1] == '_'))
			nm--;
		if ((size_t)(ne - nm) != nlen || strncmp(nm, name, nlen))
			continue;
		memset(f, 0, sizeof(*f));
		snprintf(f->type, sizeof(f->type), "%.*s", (int)(nm - decl),
			 decl);
		while (*f->type &&
		       isspace((unsigned char)f->type[strlen(f->type) - 1]))
			f->type[strlen(f->type) - 1] = '\0';
		if (br)
			f->array = strtoul(br + 1, NULL, 10);
		p = strstr(end, "size:");
		f->size = p ? strtoul(p + 5, NULL, 10) : 0;
		p = strstr(end, "signed:");
		f->is_signed = p && p[7] == '1';
		return true;
	}
	return false;
}

/*
 * A field reference: [alias|event|system.event.]field[.usecs], or
 * alias.TIMESTAMP / alias.TIMESTAMP_USECS.
 */
static int kh_parse_ref(struct kh_sql *q, struct kh_ref *r)
{
	size_t at = kh_peek(q)->pos;
	char *parts[4], *name;
	int n = kh_dotted(q, parts, 4), k = 0, e;
	bool usecs = false;
	struct kh_field f;

	if (n < 0)
		return -1;
	memset(r, 0, sizeof(*r));
	r->ev = -1;
	if (n > 1 && !strcmp(parts[n - 1], "usecs")) {
		usecs = true;
		n--;
	}
	for (e = 0; e < q->nev && r->ev < 0; e++) {
		const struct kh_event *ev = &q->e[e];

		if (n >= 3 && !strcmp(parts[0], ev->sys) &&
		    !strcmp(parts[1], ev->ev)) {
			r->ev = e;
			k = 2;
		} else if (n >= 2 &&
			   (!strcmp(parts[0], ev->ev) ||
			    (*ev->alias && !strcmp(parts[0], ev->alias)))) {
			r->ev = e;
			k = 1;
		}
	}
	if (r->ev < 0) {
		if (q->nev > 1)
			return kh_sql_fail(q, at,
					   "'%s': name the event (alias.field)",
					   parts[0]);
		r->ev = 0;
	}
	if (n - k != 1)
		return kh_sql_fail(q, at, "'%s': not a field of %s", parts[k],
				   q->e[r->ev].ev);
	name = parts[k];
	if (!strcmp(name, "TIMESTAMP") || !strcmp(name, "TIMESTAMP_USECS") ||
	    !strcmp(name, "common_timestamp")) {
		r->ts = true;
		snprintf(r->name, sizeof(r->name), "common_timestamp%s",
			 usecs || !strcmp(name, "TIMESTAMP_USECS") ? ".usecs" :
								     "");
		return 0;
	}
	if (usecs)
		return kh_sql_fail(q, at, "'.usecs' is for timestamps");
	if (!kh_field_of(&q->e[r->ev], name, &f) && strcmp(name, "cpu"))
		return kh_sql_fail(q, at, "field '%s' is not part of event %s",
				   name, q->e[r->ev].ev);
	snprintf(r->name, sizeof(r->name), "%s", name);
	return 0;
}

/* One select item, parsed after FROM and JOIN are known. */
static int kh_parse_item(struct kh_sql *q, struct kh_item *it)
{
	int paren = 0;

	memset(it, 0, sizeof(*it));
	if (kh_accept_kw(q, "cast")) {
		struct kh_tok *t;

		if (!kh_accept_op(q, "("))
			return kh_sql_fail(q, kh_peek(q)->pos, "expected '('");
		if (kh_parse_ref(q, &it->a))
			return -1;
		if (!kh_accept_kw(q, "as"))
			return kh_sql_fail(q, kh_peek(q)->pos, "expected AS");
		t = kh_peek(q);
		if (t->kind != KT_ID)
			return kh_sql_fail(q, t->pos, "expected a type");
		snprintf(it->cast, sizeof(it->cast), "%s", t->s);
		q->i++;
		/* SYM-OFFSET */
		if (kh_accept_op(q, "-")) {
			t = kh_peek(q);
			if (t->kind != KT_ID)
				return kh_sql_fail(q, t->pos,
						   "expected a type");
			snprintf(it->cast + strlen(it->cast),
				 sizeof(it->cast) - strlen(it->cast), "-%s",
				 t->s);
			q->i++;
		}
		if (!kh_accept_op(q, ")"))
			return kh_sql_fail(q, kh_peek(q)->pos, "expected ')'");
		it->kind = KI_FIELD;
	} else {
		while (kh_accept_op(q, "("))
			paren++;
		if (kh_parse_ref(q, &it->a))
			return -1;
		it->kind = KI_FIELD;
		if (kh_peek(q)->kind == KT_OP &&
		    (!strcmp(kh_peek(q)->s, "-") ||
		     !strcmp(kh_peek(q)->s, "+"))) {
			it->op = kh_peek(q)->s[0];
			q->i++;
			if (kh_parse_ref(q, &it->b))
				return -1;
			it->kind = KI_CALC;
		}
		while (paren--)
			if (!kh_accept_op(q, ")"))
				return kh_sql_fail(q, kh_peek(q)->pos,
						   "expected ')'");
	}
	if (kh_accept_kw(q, "as")) {
		struct kh_tok *t = kh_peek(q);

		if (t->kind != KT_ID || kh_keyword(t))
			return kh_sql_fail(q, t->pos,
					   "expected a name after AS");
		snprintf(it->alias, sizeof(it->alias), "%s", t->s);
		q->i++;
	}
	return 0;
}

/* SELECT ... FROM ... [JOIN ... ON ...] [WHERE ...] */
static int kh_sql_parse(struct kh_sql *q)
{
	size_t items;
	int depth = 0;

	if (!kh_accept_kw(q, "select"))
		return kh_sql_fail(q, kh_peek(q)->pos, "expected SELECT");
	/* The items name the events: find FROM and JOIN first. */
	items = q->i;
	for (; kh_peek(q)->kind != KT_END; q->i++) {
		if (kh_accept_op(q, "(")) {
			q->i--;
			depth++;
		} else if (kh_peek(q)->kind == KT_OP &&
			   !strcmp(kh_peek(q)->s, ")")) {
			depth--;
		} else if (!depth && kh_is_kw(kh_peek(q), "from")) {
			break;
		}
	}
	if (!kh_accept_kw(q, "from"))
		return kh_sql_fail(q, kh_peek(q)->pos, "expected FROM");
	if (kh_parse_event(q, &q->e[0]))
		return -1;
	q->nev = 1;
	if (kh_accept_kw(q, "join")) {
		if (kh_parse_event(q, &q->e[1]))
			return -1;
		q->nev = 2;
		if (!kh_accept_kw(q, "on"))
			return kh_sql_fail(q, kh_peek(q)->pos, "expected ON");
		do {
			struct kh_ref l, r;
			size_t at = kh_peek(q)->pos;

			if (q->non == KH_SQL_MAXKEY)
				return kh_sql_fail(q, at, "too many ON fields");
			if (kh_parse_ref(q, &l))
				return -1;
			if (!kh_accept_op(q, "=") && !kh_accept_op(q, "=="))
				return kh_sql_fail(q, kh_peek(q)->pos,
						   "expected '='");
			if (kh_parse_ref(q, &r))
				return -1;
			if (l.ev == r.ev || l.ts || r.ts)
				return kh_sql_fail(
					q, at,
					"ON compares a field of each event");
			q->on[q->non][l.ev] = l;
			q->on[q->non][r.ev] = r;
			q->non++;
		} while (kh_accept_kw(q, "and") || kh_accept_op(q, "&&"));
	}
	if (kh_accept_kw(q, "where")) {
		q->where = q->i;
		while (kh_peek(q)->kind != KT_END)
			q->i++;
		q->where_end = q->i;
		if (q->where == q->where_end)
			return kh_sql_fail(q, kh_peek(q)->pos,
					   "expected a filter");
	}
	if (kh_peek(q)->kind != KT_END)
		return kh_sql_fail(q, kh_peek(q)->pos, "unexpected '%s'",
				   kh_peek(q)->s);
	q->i = items;
	do {
		if (q->nitem == KH_SQL_MAXITEM)
			return kh_sql_fail(q, kh_peek(q)->pos,
					   "too many fields");
		if (kh_parse_item(q, &q->item[q->nitem++]))
			return -1;
	} while (kh_accept_op(q, ","));
	if (!kh_is_kw(kh_peek(q), "from"))
		return kh_sql_fail(q, kh_peek(q)->pos, "expected ',' or FROM");
	return 0;
}

/*
 * The WHERE filter of event @ev: its top-level && terms that name only
 * that event, fields without their event, joined by &&. A term naming
 * both events is refused; the filters of the two events can only be
 * anded.
 */
static int kh_sql_filter(struct kh_sql *q, int ev, struct kh_buf *out)
{
	size_t i = q->where, start;

	while (i < q->where_end) {
		struct kh_buf term = { 0 };
		int depth = 0, which = -1;

		start = i;
		for (; i < q->where_end; i++) {
			struct kh_tok *t = &q->t[i];

			if (t->kind == KT_OP && !strcmp(t->s, "("))
				depth++;
			else if (t->kind == KT_OP && !strcmp(t->s, ")"))
				depth--;
			else if (!depth &&
				 ((t->kind == KT_OP && !strcmp(t->s, "&&")) ||
				  kh_is_kw(t, "and")))
				break;
		}
		/* The term's text, its field references resolved. */
		for (q->i = start; q->i < i;) {
			struct kh_tok *t = kh_peek(q);
			struct kh_ref r;

			if (t->kind == KT_ID && !kh_is_kw(t, "and") &&
			    !kh_is_kw(t, "or")) {
				if (kh_parse_ref(q, &r)) {
					kh_buf_free(&term);
					return -1;
				}
				if (r.ts) {
					kh_buf_free(&term);
					return kh_sql_fail(
						q, t->pos,
						"a timestamp cannot be filtered on");
				}
				if (which >= 0 && which != r.ev) {
					kh_buf_free(&term);
					return kh_sql_fail(
						q, t->pos,
						"a filter term names both events: only && may join the events' filters");
				}
				which = r.ev;
				kh_buf_printf(&term, "%s", r.name);
				continue;
			}
			if (kh_is_kw(t, "and"))
				kh_buf_printf(&term, "&&");
			else if (kh_is_kw(t, "or"))
				kh_buf_printf(&term, "||");
			else if (t->kind == KT_OP && strchr("=!<>", t->s[0]) &&
				 strcmp(t->s, "!"))
				kh_buf_printf(&term, " %s ", t->s);
			else if (t->kind == KT_STR)
				kh_buf_printf(&term, "\"%.*s\"",
					      (int)strlen(t->s) - 2, t->s + 1);
			else
				kh_buf_printf(&term, "%s", t->s);
			q->i++;
		}
		if (which < 0) {
			kh_buf_free(&term);
			return kh_sql_fail(q, q->t[start].pos,
					   "a filter term without a field");
		}
		if (which == ev && term.s)
			kh_buf_printf(out, "%s%s", out->len ? "&&" : "",
				      term.s);
		kh_buf_free(&term);
		if (i < q->where_end)
			i++;
	}
	return 0;
}

/* A synthetic field's type, as libtracefs declares it. */
static void kh_synth_type(const struct kh_sql *q, const struct kh_ref *r,
			  const char *name, struct kh_buf *out)
{
	struct kh_field f;

	if (r->ts || !kh_field_of(&q->e[r->ev], r->name, &f)) {
		kh_buf_printf(out, "u64 %s; ", name);
		return;
	}
	if (f.array && strstr(f.type, "char"))
		kh_buf_printf(out, "char %s[%u]; ", name, f.array);
	else if (!strcmp(f.type, "pid_t"))
		kh_buf_printf(out, "pid_t %s; ", name);
	else
		kh_buf_printf(out, "%c%u %s; ", f.is_signed ? 's' : 'u',
			      f.size * 8, name);
}

static const char *kh_cast_suffix(const char *c)
{
	static const struct {
		const char *cast, *suffix;
	} map[] = {
		{ "hex", ".hex" },
		{ "sym", ".sym" },
		{ "sym-offset", ".sym-offset" },
		{ "syscall", ".syscall" },
		{ "execname", ".execname" },
		{ "comm", ".execname" },
		{ "log", ".log2" },
		{ "log2", ".log2" },
		{ "_counter_", "" },
		{ "__counter__", "" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcasecmp(c, map[i].cast))
			return map[i].suffix;
	return NULL;
}

/* The one hist trigger of a query without JOIN. */
static int kh_sql_hist(struct kh_sql *q, struct kh_buf *trig)
{
	struct kh_buf keys = { 0 }, vals = { 0 }, filt = { 0 };
	int i;

	for (i = 0; i < q->nitem; i++) {
		const struct kh_item *it = &q->item[i];
		const char *suf = "";

		if (it->kind == KI_CALC) {
			kh_err("sql: a calculation needs a JOIN");
			goto fail;
		}
		if (*it->cast) {
			suf = kh_cast_suffix(it->cast);
			if (!suf) {
				kh_err("sql: unknown CAST type '%s'", it->cast);
				goto fail;
			}
		}
		if (*it->cast && !*suf)
			kh_buf_printf(&vals, "%s%s", vals.len ? "," : "",
				      it->a.name);
		else
			kh_buf_printf(&keys, "%s%s%s", keys.len ? "," : "",
				      it->a.name, suf);
	}
	if (!keys.len) {
		kh_err("sql: a hist needs a key (a field that is not a _COUNTER_)");
		goto fail;
	}
	if (q->where_end && kh_sql_filter(q, 0, &filt))
		goto fail;
	kh_buf_printf(trig, "hist:keys=%s%s%s%s%s", keys.s,
		      vals.len ? ":vals=" : "", vals.len ? vals.s : "",
		      filt.len ? " if " : "", filt.len ? filt.s : "");
	kh_buf_free(&keys);
	kh_buf_free(&vals);
	kh_buf_free(&filt);
	return 0;
fail:
	kh_buf_free(&keys);
	kh_buf_free(&vals);
	kh_buf_free(&filt);
	return -1;
}

/* The synthetic event and the two triggers of a JOIN. */
static int kh_sql_synth(struct kh_sql *q, const char *name, struct kh_buf *def,
			struct kh_buf *st, struct kh_buf *en)
{
	struct kh_buf sv = { 0 }, ev = { 0 }, args = { 0 }, f0 = { 0 },
		      f1 = { 0 };
	int i, n = 0, pid = (int)getpid(), ret = -1;

	for (i = 0; i < q->nitem; i++) {
		const struct kh_item *it = &q->item[i];
		const struct kh_ref *s, *e;
		const char *fname = *it->alias ? it->alias : it->a.name;
		char var[300];

		if (*it->cast) {
			kh_err("sql: CAST is for a hist without JOIN");
			goto out;
		}
		if (it->kind == KI_FIELD) {
			if (it->a.ts && !*it->alias) {
				kh_err("sql: name the timestamp with AS");
				goto out;
			}
			kh_synth_type(q, &it->a, fname, def);
			if (it->a.ev == 1) {
				/* An end field: a variable of the end event. */
				snprintf(var, sizeof(var), "__%s_%d_%d",
					 *it->alias ? it->alias : "arg", pid,
					 ++n);
				kh_buf_printf(&ev, "%s%s=%s", ev.len ? "," : "",
					      var, it->a.name);
			} else {
				/* A start field: saved, then read at the end. */
				snprintf(var, sizeof(var), "__%s_%d_%d", fname,
					 pid, ++n);
				kh_buf_printf(&sv, "%s__arg_%d_%d=%s",
					      sv.len ? "," : "", pid, ++n,
					      it->a.name);
				kh_buf_printf(&ev, "%s%s=$__arg_%d_%d",
					      ev.len ? "," : "", var, pid, n);
			}
			kh_buf_printf(&args, ",$%s", var);
			continue;
		}
		if (!*it->alias) {
			kh_err("sql: name a calculation with AS");
			goto out;
		}
		if (it->a.ev == it->b.ev) {
			kh_err("sql: %s: a calculation takes a field of each event",
			       it->alias);
			goto out;
		}
		s = it->a.ev ? &it->b : &it->a;
		e = it->a.ev ? &it->a : &it->b;
		kh_synth_type(q, e, it->alias, def);
		kh_buf_printf(&sv, "%s__arg_%d_%d=%s", sv.len ? "," : "", pid,
			      ++n, s->name);
		snprintf(var, sizeof(var), "__%s_%d_%d", it->alias, pid, n + 1);
		if (it->op == '+' || it->a.ev == 1)
			kh_buf_printf(&ev, "%s%s=%s%c$__arg_%d_%d",
				      ev.len ? "," : "", var, e->name, it->op,
				      pid, n);
		else
			/* start - end */
			kh_buf_printf(&ev, "%s%s=$__arg_%d_%d-%s",
				      ev.len ? "," : "", var, pid, n, e->name);
		n++;
		kh_buf_printf(&args, ",$%s", var);
	}
	if (q->where_end &&
	    (kh_sql_filter(q, 0, &f0) || kh_sql_filter(q, 1, &f1)))
		goto out;
	kh_buf_printf(st, "hist:keys=");
	kh_buf_printf(en, "hist:keys=");
	for (i = 0; i < q->non; i++) {
		kh_buf_printf(st, "%s%s", i ? "," : "", q->on[i][0].name);
		kh_buf_printf(en, "%s%s", i ? "," : "", q->on[i][1].name);
	}
	if (sv.len)
		kh_buf_printf(st, ":%s", sv.s);
	if (f0.len)
		kh_buf_printf(st, " if %s", f0.s);
	if (ev.len)
		kh_buf_printf(en, ":%s", ev.s);
	kh_buf_printf(en, ":onmatch(%s.%s).trace(%s%s)", q->e[0].sys,
		      q->e[0].ev, name, args.len ? args.s : "");
	if (f1.len)
		kh_buf_printf(en, " if %s", f1.s);
	/* "type name; " each: the definition ends at the last ';'. */
	if (def->len)
		def->s[--def->len] = '\0';
	ret = 0;
out:
	kh_buf_free(&sv);
	kh_buf_free(&ev);
	kh_buf_free(&args);
	kh_buf_free(&f0);
	kh_buf_free(&f1);
	return ret;
}

static char *kh_sql_path(const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", kh_root(), file) < 0) {
		kh_err("out of memory");
		exit(1);
	}
	return p;
}

int kh_cmd_sql(int argc, char **argv)
{
	struct kh_buf def = { 0 }, st = { 0 }, en = { 0 };
	char *dyn = NULL, *stp = NULL, *enp = NULL, *defcmd = NULL;
	const char *name = "Anonymous";
	struct kh_sql q = { 0 };
	bool dry = false;
	int i = 1, ret = 1;
	size_t k;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(kh_sql_help, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--dry-run")) {
			dry = true;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			kh_err("sql: bad option '%s' (khist sql --help)",
			       argv[i]);
			return 1;
		}
	}
	if (argc - i != 1) {
		kh_err("sql: give one query (khist sql --help)");
		return 1;
	}
	for (k = 0; name[k]; k++)
		if (!isalnum((unsigned char)name[k]) && name[k] != '_')
			break;
	if (!*name || name[k] || isdigit((unsigned char)*name)) {
		kh_err("sql: -n '%s': a name is letters, digits and _", name);
		return 1;
	}
	q.text = argv[i];
	if (kh_sql_lex(&q) || kh_sql_parse(&q))
		goto out;
	if (q.nev == 1) {
		if (kh_sql_hist(&q, &st))
			goto out;
		stp = kh_event_path(NULL, q.e[0].sys, q.e[0].ev, "trigger");
		printf("echo '%s' > %s\n", st.s, stp);
		ret = dry ? 0 : kh_write_cmd(stp, st.s, NULL);
		goto out;
	}
	if (kh_sql_synth(&q, name, &def, &st, &en))
		goto out;
	dyn = kh_sql_path("dynamic_events");
	stp = kh_event_path(NULL, q.e[0].sys, q.e[0].ev, "trigger");
	enp = kh_event_path(NULL, q.e[1].sys, q.e[1].ev, "trigger");
	if (asprintf(&defcmd, "s:%s %s", name, def.s ? def.s : "") < 0) {
		defcmd = NULL;
		goto out;
	}
	printf("echo '%s' >> %s\n", defcmd, dyn);
	printf("echo '%s' >> %s\n", st.s, stp);
	printf("echo '%s' >> %s\n", en.s, enp);
	fflush(stdout);
	if (dry) {
		ret = 0;
		goto out;
	}
	/* In order; what went in comes out again when a later step fails. */
	if (kh_write_cmd(dyn, defcmd, NULL))
		goto out;
	if (kh_write_cmd(stp, st.s, NULL)) {
		char *rm;

		if (asprintf(&rm, "-:%s", name) >= 0) {
			kh_write_cmd(dyn, rm, NULL);
			free(rm);
		}
		goto out;
	}
	if (kh_write_cmd(enp, en.s, NULL)) {
		char *rm;

		if (asprintf(&rm, "!%s", st.s) >= 0) {
			kh_write_cmd(stp, rm, NULL);
			free(rm);
		}
		if (asprintf(&rm, "-:%s", name) >= 0) {
			kh_write_cmd(dyn, rm, NULL);
			free(rm);
		}
		goto out;
	}
	ret = 0;
out:
	for (k = 0; k < q.nt; k++)
		free(q.t[k].s);
	free(q.t);
	free(q.e[0].format);
	free(q.e[1].format);
	kh_buf_free(&def);
	kh_buf_free(&st);
	kh_buf_free(&en);
	free(dyn);
	free(stp);
	free(enp);
	free(defcmd);
	return ret;
}
