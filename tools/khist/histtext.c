// SPDX-License-Identifier: GPL-2.0
/*
 * histtext.c - read the text of a `hist` file back into tables, and write
 * them out for people (khist show) or for Prometheus (khist export).
 *
 * A table starts at its "# trigger info: " line; an entry is
 * "{ key: value, key: value } name: value  name: value" (a stack trace
 * key runs over several lines until the '}'); "Totals:" ends the table
 * with its Hits, Entries and Dropped. Nothing else is needed: the names
 * and the order are the hist file's own.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "khist.h"

void kh_buf_printf(struct kh_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + n < b->cap) {
			b->len += n;
			return;
		}
		b->cap = (b->cap + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			kh_err("out of memory");
			exit(1);
		}
	}
}

void kh_buf_free(struct kh_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static char *kh_strndup(const char *s, size_t n)
{
	char *p;

	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	p = kh_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void kh_push(char ***arr, unsigned int *n, char *s)
{
	*arr = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!*arr) {
		kh_err("out of memory");
		exit(1);
	}
	(*arr)[(*n)++] = s;
}

static bool kh_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' ||
	       c == '(' || c == ')' || c == '-' || c == '+' || c == '*' ||
	       c == '/';
}

/*
 * Where a "name: " label starts at or after @p: at the start of the key
 * text or after ", ". Returns its start (and the name's end in *@colon).
 */
static const char *kh_next_label(const char *start, const char *p,
				 const char *end, const char **colon)
{
	for (; p < end; p++) {
		const char *q = p;

		if (p != start &&
		    !(p - start >= 2 && p[-2] == ',' && p[-1] == ' '))
			continue;
		while (q < end && kh_ident(*q))
			q++;
		if (q > p && q < end && *q == ':' &&
		    (q + 1 == end || q[1] == ' ' || q[1] == '\n')) {
			*colon = q;
			return p;
		}
	}
	return NULL;
}

static void kh_parse_keys(struct kh_row *r, const char *s, const char *end)
{
	const char *colon, *lab, *next, *ncolon;
	unsigned int n = 0;

	while (s < end && (*s == ' ' || *s == '\n'))
		s++;
	lab = kh_next_label(s, s, end, &colon);
	if (!lab) {
		kh_push(&r->kname, &n, kh_xstrdup("key"));
		kh_push(&r->kval, &r->nkeys, kh_strndup(s, end - s));
		return;
	}
	while (lab) {
		const char *vend;
		char *v, *c;

		next = kh_next_label(s, colon + 1, end, &ncolon);
		vend = next ? next - 2 : end;
		n = r->nkeys;
		kh_push(&r->kname, &n, kh_strndup(lab, colon - lab));
		v = kh_strndup(colon + 1, vend - colon - 1);
		/* A stack trace: one frame a line, joined by ";". */
		for (c = v; *c; c++)
			if (*c == '\n')
				*c = ';';
		kh_push(&r->kval, &r->nkeys, v);
		lab = next;
		colon = ncolon;
	}
}

static void kh_parse_vals(struct kh_row *r, const char *p)
{
	while (*p) {
		const char *n, *v;
		unsigned int cnt = r->nvals;

		while (*p == ' ' || *p == '\t')
			p++;
		n = p;
		while (*p && *p != ':' && *p != ' ')
			p++;
		if (*p != ':' || p == n)
			break;
		kh_push(&r->vname, &cnt, kh_strndup(n, p - n));
		p++;
		while (*p == ' ')
			p++;
		v = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		kh_push(&r->vval, &r->nvals, kh_strndup(v, p - v));
	}
}

static struct kh_table *kh_new_table(struct kh_hist *h, const char *trigger)
{
	struct kh_table *t;
	char *s;

	h->t = realloc(h->t, (h->n + 1) * sizeof(*h->t));
	if (!h->t) {
		kh_err("out of memory");
		exit(1);
	}
	t = &h->t[h->n++];
	memset(t, 0, sizeof(*t));
	t->bkey = -1;
	t->trigger = kh_xstrdup(trigger);
	s = strstr(t->trigger, " [");
	if (s)
		*s = '\0';
	return t;
}

static struct kh_row *kh_new_row(struct kh_table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->rows = realloc(t->rows, t->cap * sizeof(*t->rows));
		if (!t->rows) {
			kh_err("out of memory");
			exit(1);
		}
	}
	memset(&t->rows[t->nrows], 0, sizeof(*t->rows));
	return &t->rows[t->nrows++];
}

static void kh_find_bucket(struct kh_table *t)
{
	unsigned int i;
	const struct kh_row *r;

	if (!t->nrows)
		return;
	r = &t->rows[0];
	for (i = 0; i < r->nkeys; i++) {
		const char *v = r->kval[i];

		while (*v == ' ')
			v++;
		if (*v == '[' && strstr(v, ", ") && strchr(v, ')')) {
			t->bkey = i;
			t->bkind = KH_B_HALFOPEN;
			return;
		}
		if (strncmp(v, "~ ", 2))
			continue;
		t->bkey = i;
		t->bkind = v[2] == '2' && v[3] == '^' ? KH_B_LOG2 : KH_B_RANGE;
		return;
	}
}

/**
 * kh_hist_parse() - read a hist file's text into tables
 * @text: the text
 * @h:    filled; free with kh_hist_free()
 *
 * Return: the number of tables (0: no hist trigger on the event).
 */
int kh_hist_parse(const char *text, struct kh_hist *h)
{
	struct kh_table *t = NULL;
	const char *p = text;

	memset(h, 0, sizeof(*h));
	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);
		unsigned long long v;

		if (!strncmp(p, "# trigger info: ", 16)) {
			char *line = kh_strndup(p + 16, next - p - 16);

			t = kh_new_table(h, line);
			free(line);
		} else if (t && *p == '{') {
			const char *close = strchr(p, '}');
			struct kh_row *r;
			char *rest;

			if (!close)
				break;
			r = kh_new_row(t);
			kh_parse_keys(r, p + 1, close);
			eol = strchr(close, '\n');
			next = eol ? eol + 1 : close + strlen(close);
			rest = kh_strndup(close + 1, next - close - 1);
			kh_parse_vals(r, rest);
			free(rest);
		} else if (t && sscanf(p, " Hits: %llu", &v) == 1) {
			t->hits = v;
			t->totals = true;
		} else if (t && sscanf(p, " Entries: %llu", &v) == 1) {
			t->entries = v;
		} else if (t && sscanf(p, " Dropped: %llu", &v) == 1) {
			t->dropped = v;
			kh_find_bucket(t);
			t = NULL;
		}
		p = next;
	}
	if (t)
		kh_find_bucket(t);
	return h->n;
}

void kh_hist_free(struct kh_hist *h)
{
	size_t i, j;
	unsigned int k;

	for (i = 0; i < h->n; i++) {
		struct kh_table *t = &h->t[i];

		for (j = 0; j < t->nrows; j++) {
			struct kh_row *r = &t->rows[j];

			for (k = 0; k < r->nkeys; k++) {
				free(r->kname[k]);
				free(r->kval[k]);
			}
			for (k = 0; k < r->nvals; k++) {
				free(r->vname[k]);
				free(r->vval[k]);
			}
			free(r->kname);
			free(r->kval);
			free(r->vname);
			free(r->vval);
		}
		free(t->rows);
		free(t->trigger);
	}
	free(h->t);
	memset(h, 0, sizeof(*h));
}

/**
 * kh_bucket_range() - the values a bucket key holds
 * @t:    the table (its bucket kind)
 * @kval: the key as printed, "~ 2^N" or "~ lo-hi"
 * @lo:   smallest value in the bucket
 * @hi:   largest value in the bucket (the "le" of Prometheus)
 *
 * .log2 puts v in bucket N = ceil(log2(v)) (0 and 1 in bucket 0), so
 * bucket N holds (2^(N-1), 2^N]; .buckets=S prints lo and lo + S - 1;
 * .log2=k prints [lo, hi), hi one past the bucket (2^64 for the top one).
 *
 * Return: false if @kval is not a bucket.
 */
bool kh_bucket_range(const struct kh_table *t, const char *kval, double *lo,
		     double *hi)
{
	long long a, b;
	unsigned int n;
	double x, y;

	if (t->bkind == KH_B_HALFOPEN &&
	    sscanf(kval, " [%lf, %lf)", &x, &y) == 2) {
		*lo = x;
		*hi = y - 1;
		return true;
	}
	if (t->bkind == KH_B_LOG2 && sscanf(kval, "~ 2^%u", &n) == 1) {
		*hi = ldexp(1.0, n);
		*lo = n == 0 ? 0 : n == 1 ? 2 : ldexp(1.0, n - 1) + 1;
		return true;
	}
	if (t->bkind == KH_B_RANGE &&
	    sscanf(kval, "~ %lld-%lld", &a, &b) == 2) {
		*lo = a;
		*hi = b;
		return true;
	}
	return false;
}

static bool kh_num(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s)
		return false;
	if (!strncmp(s, "0x", 2))
		*v = (double)strtoull(s, NULL, 16);
	return true;
}

static const char *kh_val(const struct kh_row *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nvals; i++)
		if (!strcmp(r->vname[i], name))
			return r->vval[i];
	return NULL;
}

static size_t kh_max(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void kh_render_table(struct kh_buf *out, const struct kh_table *t,
			    int width)
{
	unsigned int ncols = 0, c, k;
	size_t *w, i;
	double total = 0, maxc = 0, v;
	const struct kh_row *r0 = t->nrows ? &t->rows[0] : NULL;
	char cell[64];

	kh_buf_printf(out, "# %s\n", t->trigger);
	if (!r0) {
		kh_buf_printf(out, "(no entries)\n");
		goto totals;
	}
	ncols = r0->nkeys + r0->nvals;
	w = calloc(ncols + 1, sizeof(*w));
	if (!w) {
		kh_err("out of memory");
		exit(1);
	}
	for (k = 0; k < r0->nkeys; k++)
		w[k] = strlen(r0->kname[k]);
	for (k = 0; k < r0->nvals; k++)
		w[r0->nkeys + k] = strlen(r0->vname[k]);
	for (i = 0; i < t->nrows; i++) {
		const struct kh_row *r = &t->rows[i];
		const char *hc = kh_val(r, "hitcount");
		double lo, hi;

		for (k = 0; k < r->nkeys && k < r0->nkeys; k++) {
			size_t l = strlen(r->kval[k]);

			if ((int)k == t->bkey &&
			    kh_bucket_range(t, r->kval[k], &lo, &hi))
				l = snprintf(cell, sizeof(cell), "%.0f-%.0f",
					     lo, hi);
			w[k] = kh_max(w[k], l);
		}
		for (k = 0; k < r->nvals && k < r0->nvals; k++)
			w[r0->nkeys + k] =
				kh_max(w[r0->nkeys + k], strlen(r->vval[k]));
		if (hc && kh_num(hc, &v)) {
			total += v;
			if (v > maxc)
				maxc = v;
		}
	}
	for (k = 0; k < r0->nkeys; k++)
		kh_buf_printf(out, "%-*s  ", (int)w[k],
			      (int)k == t->bkey ? "range" : r0->kname[k]);
	for (k = 0; k < r0->nvals; k++)
		kh_buf_printf(out, "%*s  ", (int)w[r0->nkeys + k],
			      r0->vname[k]);
	if (t->bkey >= 0)
		kh_buf_printf(out, "%7s  %s", "percent", "distribution");
	kh_buf_printf(out, "\n");
	for (i = 0; i < t->nrows; i++) {
		const struct kh_row *r = &t->rows[i];
		const char *hc = kh_val(r, "hitcount");
		double lo, hi;

		for (c = 0; c < r0->nkeys; c++) {
			const char *kv = c < r->nkeys ? r->kval[c] : "";

			if ((int)c == t->bkey &&
			    kh_bucket_range(t, kv, &lo, &hi)) {
				snprintf(cell, sizeof(cell), "%.0f-%.0f", lo,
					 hi);
				kv = cell;
			}
			kh_buf_printf(out, "%-*s  ", (int)w[c], kv);
		}
		for (c = 0; c < r0->nvals; c++)
			kh_buf_printf(out, "%*s  ", (int)w[r0->nkeys + c],
				      c < r->nvals ? r->vval[c] : "");
		if (t->bkey >= 0 && hc && kh_num(hc, &v)) {
			int bar = maxc > 0 ? (int)(v * width / maxc + 0.5) : 0;

			kh_buf_printf(out, "%6.2f%%  |",
				      total > 0 ? 100.0 * v / total : 0.0);
			while (bar-- > 0)
				kh_buf_printf(out, "#");
		}
		kh_buf_printf(out, "\n");
	}
	free(w);
totals:
	if (t->totals)
		kh_buf_printf(out, "hits %llu  entries %llu  dropped %llu\n",
			      t->hits, t->entries, t->dropped);
}

/**
 * kh_render() - a hist file's tables for people
 * @out:   appended to
 * @title: first line ("sys:event"), or NULL
 * @h:     the tables
 * @width: width of the longest bar of a bucket key's chart
 */
void kh_render(struct kh_buf *out, const char *title, const struct kh_hist *h,
	       int width)
{
	size_t i;

	if (title)
		kh_buf_printf(out, "%s\n", title);
	if (!h->n)
		kh_buf_printf(out, "(no hist trigger)\n");
	for (i = 0; i < h->n; i++) {
		if (i)
			kh_buf_printf(out, "\n");
		kh_render_table(out, &h->t[i], width);
	}
}

/* ---- OpenMetrics / Prometheus text ----------------------------------- */

struct kh_family {
	char *name;
	const char *type;
	const char *help;
	struct kh_buf samples;
};

struct kh_metrics {
	bool om;
	struct kh_family *f;
	size_t n;
};

struct kh_metrics *kh_metrics_new(bool openmetrics)
{
	struct kh_metrics *m = calloc(1, sizeof(*m));

	if (!m) {
		kh_err("out of memory");
		exit(1);
	}
	m->om = openmetrics;
	return m;
}

/* [a-zA-Z_][a-zA-Z0-9_]*: anything else becomes '_'. */
static void kh_sanitize(struct kh_buf *b, const char *s)
{
	if (b->len && b->s[b->len - 1] != '_')
		kh_buf_printf(b, "_");
	for (; *s; s++) {
		char c = isalnum((unsigned char)*s) ? *s : '_';

		if (c == '_' && b->len && b->s[b->len - 1] == '_')
			continue;
		kh_buf_printf(b, "%c", c);
	}
	while (b->len && b->s[b->len - 1] == '_')
		b->s[--b->len] = '\0';
}

static struct kh_family *kh_family(struct kh_metrics *m, const char *name,
				   const char *type, const char *help)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].name, name))
			return &m->f[i];
	m->f = realloc(m->f, (m->n + 1) * sizeof(*m->f));
	if (!m->f) {
		kh_err("out of memory");
		exit(1);
	}
	memset(&m->f[m->n], 0, sizeof(*m->f));
	m->f[m->n].name = kh_xstrdup(name);
	m->f[m->n].type = type;
	m->f[m->n].help = help;
	return &m->f[m->n++];
}

static void kh_label(struct kh_buf *b, const char *name, const char *val)
{
	struct kh_buf n = { 0 };

	kh_sanitize(&n, name);
	kh_buf_printf(b, "%s%s=\"", b->len ? "," : "", n.s ? n.s : "key");
	kh_buf_free(&n);
	for (; *val; val++) {
		if (*val == '"' || *val == '\\')
			kh_buf_printf(b, "\\%c", *val);
		else if (*val == '\n')
			kh_buf_printf(b, "\\n");
		else
			kh_buf_printf(b, "%c", *val);
	}
	kh_buf_printf(b, "\"");
}

static void kh_sample(struct kh_family *f, const char *suffix,
		      const char *labels, const char *extra, double v)
{
	bool any = (labels && *labels) || extra;

	kh_buf_printf(&f->samples, "%s%s", f->name, suffix);
	if (any)
		kh_buf_printf(&f->samples, "{%s%s%s}", labels ? labels : "",
			      labels && *labels && extra ? "," : "",
			      extra ? extra : "");
	kh_buf_printf(&f->samples, " %.17g\n", v);
}

/* The family of a counter: OpenMetrics names it without "_total". */
static struct kh_family *kh_counter(struct kh_metrics *m, const char *base,
				    const char *what, const char *help,
				    const char **suffix)
{
	struct kh_buf n = { 0 };
	struct kh_family *f;

	kh_buf_printf(&n, "%s", base);
	kh_sanitize(&n, what);
	if (!m->om)
		kh_buf_printf(&n, "_total");
	f = kh_family(m, n.s, "counter", help);
	kh_buf_free(&n);
	*suffix = m->om ? "_total" : "";
	return f;
}

struct kh_bucket_row {
	double le;
	double count;
};

static int kh_le_cmp(const void *a, const void *b)
{
	const struct kh_bucket_row *x = a, *y = b;

	return x->le < y->le ? -1 : x->le > y->le;
}

/* The labels of a row's keys but the bucket key (and the table index). */
static void kh_row_labels(struct kh_buf *b, const struct kh_table *t,
			  const struct kh_row *r, const char *hist_label)
{
	unsigned int k;

	if (hist_label)
		kh_buf_printf(b, "%s", hist_label);
	for (k = 0; k < r->nkeys; k++)
		if ((int)k != t->bkey)
			kh_label(b, r->kname[k], r->kval[k]);
	if (!b->s)
		kh_buf_printf(b, "%s", "");
}

static void kh_metrics_histogram(struct kh_metrics *m, const char *base,
				 const struct kh_table *t, const char *hl)
{
	struct kh_buf name = { 0 };
	struct kh_family *f;
	size_t i, j;
	char *used = calloc(t->nrows + 1, 1);
	struct kh_bucket_row *br = calloc(t->nrows + 1, sizeof(*br));
	struct kh_bucket_row *all = calloc(t->nrows + 1, sizeof(*all));
	size_t nall = 0, k;

	if (!used || !br || !all) {
		kh_err("out of memory");
		exit(1);
	}
	for (i = 0; i < t->nrows; i++) {
		double lo, hi;

		if (kh_bucket_range(t, t->rows[i].kval[t->bkey], &lo, &hi))
			all[nall++].le = hi;
	}
	qsort(all, nall, sizeof(*all), kh_le_cmp);
	kh_buf_printf(&name, "%s", base);
	kh_sanitize(&name, t->rows[0].kname[t->bkey]);
	f = kh_family(m, name.s, "histogram",
		      "khist hist trigger: hits by the bucketed key");
	/* One histogram per set of the other keys' values. */
	for (i = 0; i < t->nrows; i++) {
		struct kh_buf lab = { 0 };
		size_t nb = 0;
		double cum = 0, sum = 0, lo, hi, v;
		bool have_sum = false;

		if (used[i])
			continue;
		kh_row_labels(&lab, t, &t->rows[i], hl);
		for (j = i; j < t->nrows; j++) {
			struct kh_buf l2 = { 0 };
			const struct kh_row *r = &t->rows[j];

			const char *hc = kh_val(r, "hitcount");
			const char *sv = kh_val(r, r->kname[t->bkey]);

			if (used[j])
				continue;
			kh_row_labels(&l2, t, r, hl);
			if (strcmp(l2.s, lab.s)) {
				kh_buf_free(&l2);
				continue;
			}
			kh_buf_free(&l2);
			used[j] = 1;
			if (!kh_bucket_range(t, r->kval[t->bkey], &lo, &hi))
				continue;
			br[nb].le = hi;
			br[nb].count = hc && kh_num(hc, &v) ? v : 0;
			nb++;
			/* keys=x.log2:vals=x gives the exact sum of x. */
			if (sv && kh_num(sv, &v)) {
				sum += v;
				have_sum = true;
			}
		}
		qsort(br, nb, sizeof(*br), kh_le_cmp);
		/*
		 * Every label set gets every bound of the table, so that
		 * sums over label sets (sum by (le)) stay cumulative.
		 */
		for (j = 0, k = 0; j < nall; j++) {
			char le[64];

			if (j + 1 < nall && all[j + 1].le == all[j].le)
				continue;
			while (k < nb && br[k].le <= all[j].le)
				cum += br[k++].count;
			snprintf(le, sizeof(le), "le=\"%.17g\"", all[j].le);
			kh_sample(f, "_bucket", lab.s, le, cum);
		}
		kh_sample(f, "_bucket", lab.s, "le=\"+Inf\"", cum);
		kh_sample(f, "_count", lab.s, NULL, cum);
		if (have_sum)
			kh_sample(f, "_sum", lab.s, NULL, sum);
		kh_buf_free(&lab);
	}
	free(used);
	free(br);
	free(all);
	kh_buf_free(&name);
}

/* Every value but the hitcount: a counter of its sums, per label set. */
static void kh_metrics_values(struct kh_metrics *m, const char *base,
			      const struct kh_table *t, const char *hl)
{
	unsigned int k;
	size_t i, j;

	if (!t->nrows)
		return;
	for (k = 0; k < t->rows[0].nvals; k++) {
		const char *vn = t->rows[0].vname[k];
		char what[256];
		char *used = calloc(t->nrows + 1, 1);
		const char *suffix;
		struct kh_family *f;

		if (!used) {
			kh_err("out of memory");
			exit(1);
		}
		if (!strcmp(vn, "hitcount") && t->bkey >= 0) {
			free(used);
			continue;
		}
		/* vals_<name>: apart from a histogram named after a key. */
		snprintf(what, sizeof(what), "vals_%s", vn);
		f = kh_counter(m, base, what,
			       "khist hist trigger: a value's sum", &suffix);
		for (i = 0; i < t->nrows; i++) {
			struct kh_buf lab = { 0 };
			double sum = 0, v;
			bool any = false;

			if (used[i])
				continue;
			kh_row_labels(&lab, t, &t->rows[i], hl);
			for (j = i; j < t->nrows; j++) {
				struct kh_buf l2 = { 0 };
				const char *s = kh_val(&t->rows[j], vn);

				if (used[j])
					continue;
				kh_row_labels(&l2, t, &t->rows[j], hl);
				if (!strcmp(l2.s, lab.s)) {
					used[j] = 1;
					if (s && kh_num(s, &v)) {
						sum += v;
						any = true;
					}
				}
				kh_buf_free(&l2);
			}
			if (any)
				kh_sample(f, suffix, lab.s, NULL, sum);
			kh_buf_free(&lab);
		}
		free(used);
	}
}

/**
 * kh_metrics_add() - add one event's hist file to the metrics
 * @m:   the metrics
 * @sys: the event's system
 * @ev:  the event
 * @h:   its tables
 *
 * Names: khist_<sys>_<event>_<what>; a bucket key gives a histogram
 * named after the key, every other value a counter of its sums,
 * ..._vals_<value>, with the other keys as labels (a "hist" label tells the tables of one event apart);
 * Hits and Dropped are counters, Entries a gauge.
 */
void kh_metrics_add(struct kh_metrics *m, const char *sys, const char *ev,
		    const struct kh_hist *h)
{
	struct kh_buf base = { 0 };
	size_t i;

	kh_buf_printf(&base, "khist");
	kh_sanitize(&base, sys);
	kh_sanitize(&base, ev);
	for (i = 0; i < h->n; i++) {
		const struct kh_table *t = &h->t[i];
		struct kh_buf hl = { 0 };
		const char *suffix;
		struct kh_family *f;
		struct kh_buf gn = { 0 };

		if (h->n > 1)
			kh_buf_printf(&hl, "hist=\"%zu\"", i);
		if (t->bkey >= 0 && t->nrows)
			kh_metrics_histogram(m, base.s, t, hl.s);
		kh_metrics_values(m, base.s, t, hl.s);
		if (t->totals) {
			f = kh_counter(m, base.s, "hits",
				       "khist hist trigger: events counted",
				       &suffix);
			kh_sample(f, suffix, hl.s, NULL, t->hits);
			f = kh_counter(m, base.s, "dropped",
				       "khist hist trigger: events dropped",
				       &suffix);
			kh_sample(f, suffix, hl.s, NULL, t->dropped);
			kh_buf_printf(&gn, "%s_entries", base.s);
			f = kh_family(m, gn.s, "gauge",
				      "khist hist trigger: entries in use");
			kh_sample(f, "", hl.s, NULL, t->entries);
			kh_buf_free(&gn);
		}
		kh_buf_free(&hl);
	}
	kh_buf_free(&base);
}

/**
 * kh_metrics_render() - the text of every family, each sample once
 * @m:   the metrics
 * @out: appended to; OpenMetrics ends with "# EOF"
 */
void kh_metrics_render(struct kh_metrics *m, struct kh_buf *out)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct kh_family *f = &m->f[i];

		kh_buf_printf(out, "# HELP %s %s\n", f->name, f->help);
		kh_buf_printf(out, "# TYPE %s %s\n", f->name, f->type);
		if (f->samples.s)
			kh_buf_printf(out, "%s", f->samples.s);
	}
	if (m->om)
		kh_buf_printf(out, "# EOF\n");
}

void kh_metrics_free(struct kh_metrics *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->f[i].name);
		kh_buf_free(&m->f[i].samples);
	}
	free(m->f);
	free(m);
}
