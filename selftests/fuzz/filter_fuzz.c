// SPDX-License-Identifier: GPL-2.0
/*
 * filter_fuzz.c - libFuzzer target: the event filter compiler and its
 * evaluator.
 *
 * Input: the filter text, optionally followed by a NUL byte and raw bytes
 * that are used as one record. The text is trimmed as the `filter` file
 * does and compiled against every schema of schemas.h; each compiled
 * filter is run on that record, on generated records (valid and corrupt
 * __data_loc / __rel_loc locators, char * "addresses" that can or cannot
 * be read) and on records cut short. Every record lives in a buffer of
 * exactly its length, so ASan reports any read outside it. Checked:
 *   - a failure has a valid message code, its errno and a caret at most
 *     one past the text; never -ENOMEM; the `filter` file text renders;
 *   - a compiled filter keeps the text, and every jump goes forward;
 *   - a filter with a direct form (integer compares) gives the general
 *     evaluator's answer by it on every record long enough for it;
 *   - "!(<text>)", when it compiles, gives the opposite answer on every
 *     record, and "(<text>)" the same answer;
 *   - nothing stays allocated.
 */
#include <kshim/kernel.h>
#include "filter_parse.h"
#include "records.h"

#define TEXT_MAX 4096
#define NR_GEN 12

static void check(bool ok, const char *what, const char *text, size_t len)
{
	if (ok)
		return;
	fprintf(stderr, "filter_fuzz: %s\ninput: '%.*s'\n", what, (int)len,
		text);
	abort();
}

static bool match(const struct khist_filter *f, const struct fz_rec *r,
		  char *strbuf, unsigned int k)
{
	char comm[KHIST_FILTER_COMM_LEN] = "";
	struct khist_filter_ctx ctx = {
		.cpu = (int)(k % 9),
		.comm = k % 5 ? comm : NULL,
		.fetch_str = k % 7 ? fz_fetch_str : NULL,
		.strbuf = k % 11 ? strbuf : NULL,
	};
	bool m;

	/* Like task->comm: always the full size, NUL-padded. */
	strncpy(comm, fz_strs[k % FZ_NR_STRS], sizeof(comm) - 1);
	m = khist_filter_match(f, r->p, r->len, k % 13 ? &ctx : NULL);
	/* The direct form, where the probe would use it, agrees. */
	if (f->fast && r->len >= f->fast_need)
		check(khist_filter_fast_match(f, r->p) == m,
		      "direct form differs from the general evaluator", f->text,
		      f->text_len);
	return m;
}

static void check_jumps(const struct khist_filter *f, const char *t, size_t len)
{
	unsigned int i;

	check(f->nr_preds > 0, "no predicate", t, len);
	for (i = 0; i < f->nr_preds; i++) {
		const struct khist_fpred *p = &f->preds[i];

		check(p->on_true > i && p->on_true <= f->nr_preds + 1,
		      "jump on true", t, len);
		check(p->on_false > i && p->on_false <= f->nr_preds + 1,
		      "jump on false", t, len);
	}
}

static void check_err(int ret, const struct khist_filter_error *err,
		      const char *t, size_t len)
{
	char buf[TEXT_MAX + 256];
	int n;

	check(ret < 0 && ret != -ENOMEM, "bad errno", t, len);
	check(err->ret == ret, "err->ret", t, len);
	check(err->code >= 0 && err->code < KHIST_FERR_MAX, "error code", t,
	      len);
	/* The kernel records one past the byte at fault, which may be the NUL. */
	check(err->pos <= len + 2, "caret past the text", t, len);
	check(khist_filter_errlog_pos(err) <= len + 2, "error_log caret", t,
	      len);
	check(khist_filter_errlog_msg(err) != NULL, "error_log message", t,
	      len);
	n = khist_filter_format_failed(t, len, err, buf, sizeof(buf));
	check(n >= 0, "filter file text", t, len);
}

/* Compile @pre + @t + @post; NULL when that does not compile. */
static struct khist_filter *wrap(const struct khist_event_schema *sc,
				 const struct khist_filter_opts *o,
				 const char *pre, const char *t, size_t len,
				 const char *post)
{
	static char buf[TEXT_MAX + 16];
	struct khist_filter_error err;
	struct khist_filter *f;
	size_t a = strlen(pre), b = strlen(post);

	memcpy(buf, pre, a);
	memcpy(buf + a, t, len);
	memcpy(buf + a + len, post, b);
	if (khist_filter_compile(sc, buf, a + len + b, o, &f, &err))
		return NULL;
	return f;
}

static void one(const struct khist_event_schema *sc, const char *t, size_t len,
		const struct fz_rec *user, char *strbuf)
{
	struct khist_filter_opts o = {
		.nr_cpus = len % 2 ? 8 : 0,
		.func_range = fz_func_range,
	};
	struct khist_filter *f, *neg, *par;
	struct khist_filter_error err;
	struct fz_rec recs[NR_GEN + 1];
	unsigned int k, n = 0;
	char show[TEXT_MAX + 8];
	bool m;
	int ret;

	ret = khist_filter_compile(sc, t, len, &o, &f, &err);
	if (ret) {
		check_err(ret, &err, t, len);
		return;
	}
	check(f->text_len == len && !memcmp(f->text, t, len), "stored text", t,
	      len);
	check(khist_filter_show(f->text, show, sizeof(show)) == (int)len + 1,
	      "filter file", t, len);
	check_jumps(f, t, len);
	neg = wrap(sc, &o, "!(", t, len, ")");
	par = wrap(sc, &o, "(", t, len, ")");
	if (user)
		recs[n++] = *user;
	for (k = 0; k < NR_GEN; k++)
		fz_gen_record(sc, &recs[n++], k);
	for (k = 0; k < n; k++) {
		m = match(f, &recs[k], strbuf, k);
		check(match(f, &recs[k], strbuf, k) == m, "not deterministic",
		      t, len);
		if (neg)
			check(match(neg, &recs[k], strbuf, k) == !m,
			      "!(filter) is not the negation", t, len);
		if (par)
			check(match(par, &recs[k], strbuf, k) == m,
			      "(filter) differs from filter", t, len);
	}
	for (k = user ? 1 : 0; k < n; k++)
		free(recs[k].p);
	khist_filter_free(par);
	khist_filter_free(neg);
	khist_filter_free(f);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const u8 *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size, len;
	long live = kshim_live_allocations();
	struct fz_rec user = { NULL, 0 };
	char *t, *strbuf;
	unsigned int i;

	if (tlen > TEXT_MAX)
		return -1;
	/* The text in a buffer of its own exact size. */
	t = malloc(tlen ? tlen : 1);
	memcpy(t, data, tlen);
	if (nul) {
		user.len = min_t(size_t, size - tlen - 1, FZ_REC_MAX);
		user.p = malloc(user.len ? user.len : 1);
		memcpy(user.p, nul + 1, user.len);
	}
	strbuf = malloc(KHIST_FILTER_STRBUF);
	fz_rng = fz_fnv(data, size);
	len = khist_filter_trim(t, tlen);
	check(len <= tlen, "trim", t, tlen);
	khist_filter_is_clear(t, len);
	for (i = 0; i < FZ_NR_SCHEMAS; i++)
		one(fz_schemas[i], t, len, nul ? &user : NULL, strbuf);
	check(kshim_live_allocations() == live, "memory left allocated", t,
	      tlen);
	free(strbuf);
	free(user.p);
	free(t);
	return 0;
}
