/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist.h - the khist command: shared declarations of its parts.
 *
 *   main.c      option parsing, the filesystem (list, fields, hist, show,
 *               watch), errors
 *   format.c    an event's `format` file read into a core schema
 *   check.c     `khist check`: the module's core parsers, offline
 *   histtext.c  a `hist` file's text parsed into tables, rendered for
 *               people (show) or as OpenMetrics/Prometheus text (export)
 *   export.c    `khist export`: textfile and HTTP
 *   exec.c      `khist exec`: a tool run with khist as its tracing dir
 *   sql.c       `khist sql`: libtracefs's SQL dialect as hist triggers
 */
#ifndef _KHIST_TOOL_H
#define _KHIST_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One growing text buffer. */
struct kh_buf {
	char *s;
	size_t len;
	size_t cap;
};

void kh_buf_printf(struct kh_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void kh_buf_free(struct kh_buf *b);

/* Errors: one line on stderr, "khist: ...". */
void kh_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *kh_xmalloc(size_t n);
char *kh_xstrdup(const char *s);
char *kh_read_file(const char *path, size_t *len);

/* The mounted khist filesystem (--root, $KHIST_ROOT, /proc/mounts). */
const char *kh_root(void);
const char *kh_root_given(void);
int kh_event_split(const char *arg, char *sys, size_t syssz, char *ev,
		   size_t evsz);
char *kh_event_path(const char *inst, const char *sys, const char *ev,
		    const char *file);

/* A row of a hist table: its keys and values as printed. */
struct kh_row {
	unsigned int nkeys;
	char **kname;
	char **kval;
	unsigned int nvals;
	char **vname;
	char **vval;
};

/*
 * How a key was bucketed: from "~ 2^N" (.log2), "~ lo-hi" (.buckets) or
 * "[lo, hi)" (khist's .log2=k).
 */
enum kh_bucket { KH_B_NONE, KH_B_LOG2, KH_B_RANGE, KH_B_HALFOPEN };

/* One hist trigger's table in a hist file. */
struct kh_table {
	char *trigger;
	struct kh_row *rows;
	size_t nrows;
	size_t cap;
	int bkey;
	enum kh_bucket bkind;
	unsigned long long hits, entries, dropped;
	bool totals;
};

struct kh_hist {
	struct kh_table *t;
	size_t n;
};

int kh_hist_parse(const char *text, struct kh_hist *h);
void kh_hist_free(struct kh_hist *h);
bool kh_bucket_range(const struct kh_table *t, const char *kval, double *lo,
		     double *hi);
void kh_render(struct kh_buf *out, const char *title, const struct kh_hist *h,
	       int width);

/* Export: one event's hist added to a set of metric families. */
struct kh_metrics;
struct kh_metrics *kh_metrics_new(bool openmetrics);
void kh_metrics_add(struct kh_metrics *m, const char *sys, const char *ev,
		    const struct kh_hist *h);
void kh_metrics_render(struct kh_metrics *m, struct kh_buf *out);
void kh_metrics_free(struct kh_metrics *m);

int kh_cmd_check(int argc, char **argv);
int kh_cmd_export(int argc, char **argv);
int kh_cmd_exec(int argc, char **argv);
int kh_cmd_sql(int argc, char **argv);
int kh_write_cmd(const char *path, const char *cmd, const char *inst);
int kh_export_hists(int n, char **events, const char *inst, bool openmetrics,
		    struct kh_buf *out);
int kh_format_fields(const char *text, FILE *out);

#endif /* _KHIST_TOOL_H */
