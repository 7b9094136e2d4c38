// SPDX-License-Identifier: GPL-2.0
/*
 * hist_json_test.c - `hist_json` end to end in userspace: hist triggers
 * are compiled by the core, deterministic records are fired through the
 * core's eval path (key build, values, variables, .stats/.quantiles
 * sketches) into the core map, the table is read and sorted as `hist`
 * does, and rendered with hist_json.c. An independent reference (raw
 * keys, comm bytes, hitcounts, sums, every value of every distribution)
 * is written next to it with plain fprintf, and hist_json_check.py
 * checks the document: `python3 -m json.tool`, the shipped JSON Schema,
 * and field by field against the reference (quantiles against the sorted
 * values, within 1/128). Also the writer's own checks: escaping, nesting
 * misuse. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist_bind.h"
#include "hist_eval.h"
#include "hist_json.h"
#include "hist_print.h"
#include "hist_sort.h"
#include "map.h"
#include "qsketch.h"

#define N_RECS 3000
#define JSON_OUT KHIST_TOP "/build/unit/hist_json"
#define MAX_ENT 1024

static int tap, failed;

static void ok(bool cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++tap, what);
	if (!cond)
		failed = 1;
}

struct rec {
	struct khist_common_hdr h;
	u64 lat;
	u32 id;
	s32 delta;
	u64 addr;
	char name[16];
};

static const struct khist_field_desc rec_f[] = {
	{ "lat", "u64", 8, 8, 0, KHIST_FK_INT, 8 },
	{ "id", "unsigned int", 16, 4, 0, KHIST_FK_INT, 4 },
	{ "delta", "int", 20, 4, 1, KHIST_FK_INT, 4 },
	{ "addr", "unsigned long", 24, 8, 0, KHIST_FK_INT, 8 },
	{ "name", "char[16]", 32, 16, 0, KHIST_FK_STRING, 1 },
};

static const struct khist_event_schema rec_sc = {
	"test", "rec", 9, rec_f, ARRAY_SIZE(rec_f), sizeof(struct rec)
};

/* Comms and names with every kind of byte a string may hold. */
static const char *const comms[] = {
	"bash",
	"we\"ird\\",
	"ctl\x01\x1f\n\t",
	"latin\xe9",
	"utf8 \xc3\xa9",
	"bad\xc3(",
	"\xe9t\xe9",
	"\xf0\x9f\x98\x80"
	"emoji",
};

static const char *const names[] = { "alpha", "be\"ta", "\x7f\xff",
				     "gamma/\\" };

static u64 lcg_state = 1;

static u64 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 11;
}

static void make_rec(struct rec *r, unsigned int i)
{
	memset(r, 0, sizeof(*r));
	r->h.pid = (s32)(i % ARRAY_SIZE(comms)) + 100;
	r->lat = 500 + lcg() % 20000 + (i % 97 == 0 ? lcg() % 50000000 : 0);
	r->id = (u32)(lcg() % 13);
	r->delta = (s32)(lcg() % 101) - 50;
	r->addr = 0xffffffff81000000ULL + (lcg() % 5) * 0x40;
	strncpy(r->name, names[lcg() % ARRAY_SIZE(names)], sizeof(r->name) - 1);
}

/* The reference, one per distinct key. */
struct ref_ent {
	u8 *key;
	const char *comm;
	u64 *sums;
	u64 *vals[KHIST_VALS_MAX + 1];
	unsigned int n_vals;
};

static struct ref_ent refs[MAX_ENT];
static unsigned int n_refs;
static const char *cur_comm;
static unsigned int qs_off[KHIST_VALS_MAX + 1];

static void elt_init(struct khist_map_elt *elt, void *priv)
{
	struct khist_map *map = priv;

	memset(khist_map_elt_extra(elt), 0, map->p.extra_size);
	strncpy(khist_map_elt_extra(elt), cur_comm, 15);
}

/* Test renderings of what the module would look up. */
static int sym(void *ctx, u64 addr, bool off, char *buf, size_t size)
{
	return snprintf(buf, size, off ? "sym_%llx+0x0/0x10" : "sym_%llx",
			(unsigned long long)addr);
}

static const char *sc_name(void *ctx, u64 nr)
{
	static const char *const n[] = { "read", "write", "open", "close" };

	return nr < ARRAY_SIZE(n) ? n[nr] : NULL;
}

static const struct khist_hjson_ops jops = { .symbol = sym,
					     .syscall_name = sc_name };

struct out {
	FILE *f;
};

static void out_write(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ((struct out *)ctx)->f);
}

static bool is_qs(const struct khist_bfield *f)
{
	return f->flags & (KHIST_HF_STATS | KHIST_HF_QUANTILES);
}

static struct ref_ent *ref_get(const struct khist_hist_spec *sp, const u8 *key)
{
	struct ref_ent *r;
	unsigned int i;

	for (i = 0; i < n_refs; i++)
		if (!memcmp(refs[i].key, key, sp->key_size))
			return &refs[i];
	r = &refs[n_refs++];
	memset(r, 0, sizeof(*r));
	r->key = malloc(sp->key_size);
	memcpy(r->key, key, sp->key_size);
	r->comm = cur_comm;
	r->sums = calloc(sp->n_vals, sizeof(u64));
	for (i = 0; i < sp->n_vals; i++)
		r->vals[i] = calloc(N_RECS, sizeof(u64));
	return r;
}

static void ref_free(const struct khist_hist_spec *sp)
{
	unsigned int i, k;

	for (i = 0; i < n_refs; i++) {
		free(refs[i].key);
		free(refs[i].sums);
		for (k = 0; k < sp->n_vals; k++)
			free(refs[i].vals[k]);
	}
	n_refs = 0;
}

static void put_bytes(FILE *f, const char *s, size_t max)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < max && s[i]; i++)
		fprintf(f, "%s%u", i ? "," : "", (u8)s[i]);
	fputc(']', f);
}

/* The reference: raw keys (strings as byte arrays) and every value. */
static void write_ref(FILE *f, const struct khist_hist_spec *sp)
{
	unsigned int i, k, v, d;

	fprintf(f, "{\"entries\":[");
	for (i = 0; i < n_refs; i++) {
		struct ref_ent *r = &refs[i];

		fprintf(f, "%s{\"key\":[", i ? "," : "");
		for (k = 0; k < sp->n_keys; k++) {
			const struct khist_hkey *hk = &sp->keys[k];
			const u8 *slot = r->key + hk->offset;
			u64 x;

			if (k)
				fputc(',', f);
			if (hk->f->flags & KHIST_HF_STRING) {
				put_bytes(f, (const char *)slot, hk->size);
			} else if (hk->f->flags & KHIST_HF_STACKTRACE) {
				const unsigned long *st = (const void *)slot;

				fputc('[', f);
				for (d = 0; d < KHIST_STACK_DEPTH && st[d]; d++)
					fprintf(f, "%s%lu", d ? "," : "",
						st[d]);
				fputc(']', f);
			} else {
				memcpy(&x, slot, 8);
				if (hk->f->is_signed)
					fprintf(f, "%lld", (long long)x);
				else
					fprintf(f, "%llu",
						(unsigned long long)x);
			}
		}
		fprintf(f, "],\"comm\":");
		put_bytes(f, r->comm, 15);
		fprintf(f, ",\"sums\":[");
		for (v = 0; v < sp->n_vals; v++)
			fprintf(f, "%s%llu", v ? "," : "",
				(unsigned long long)r->sums[v]);
		fprintf(f, "],\"values\":[");
		for (v = 0; v < sp->n_vals; v++) {
			fprintf(f, "%s[", v ? "," : "");
			if (v && is_qs(sp->vals[v]))
				for (d = 0; d < r->n_vals; d++)
					fprintf(f, "%s%llu", d ? "," : "",
						(unsigned long long)
							r->vals[v][d]);
			fputc(']', f);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]}\n");
}

static const struct khist_bind_ops bops = { .dists = true };

/* Fires the records, renders the table; 0 when the checker agrees. */
static int run_trigger(const char *cmd, unsigned int n)
{
	struct khist_map_params p = { .max_entries = 128, .grow_limit = 1024 };
	static const struct khist_map_ops ops = { .elt_init = elt_init };
	static struct khist_qs_snap snaps[KHIST_VALS_MAX + 1];
	const struct khist_qs_snap *qsp[KHIST_VALS_MAX + 1];
	struct khist_hrow *rows, **order;
	u64 vars[KHIST_VARS_MAX], *sums;
	bool vset[KHIST_VARS_MAX];
	struct khist_hist_spec *sp = NULL;
	struct khist_hjson_totals tot = {};
	struct khist_hjson_saved saved;
	const char *saved_names[1] = { "lat" };
	u64 saved_vals[1];
	struct khist_map_stats st;
	struct khist_hsorter s;
	struct khist_map_elt *elt;
	struct khist_map *map;
	struct khist_json j;
	char path[256], rpath[256], text[512], sh[1024];
	unsigned int i, v, n_qs = 0, nrows = 0;
	struct out o;
	struct rec r;
	u32 pos = 0;
	u8 *key;
	int ret;

	ret = khist_hist_compile(cmd, strlen(cmd), &rec_sc, &bops, &sp, NULL);
	if (ret) {
		printf("# compile failed: %d\n", ret);
		return ret;
	}
	p.key_size = sp->key_size;
	p.n_sums = sp->n_vals;
	p.n_vars = sp->n_vars;
	for (v = 1; v < sp->n_vals; v++)
		if (is_qs(sp->vals[v]))
			qs_off[v] = 16 + n_qs++ * sizeof(struct khist_qsketch);
	p.extra_size = 16 + n_qs * sizeof(struct khist_qsketch);
	map = khist_map_create(&p, &ops, NULL);
	if (IS_ERR(map))
		return -ENOMEM;
	/* elt_init needs the map: pass it as its own argument. */
	map->priv = map;
	key = calloc(1, sp->key_size);
	lcg_state = 1;
	for (i = 0; i < N_RECS; i++) {
		unsigned long stack[KHIST_STACK_DEPTH] = {
			0xffffffff81001000UL + (i % 3) * 8, 0xffffffff81002000UL
		};
		struct khist_eval_ctx c = { .rec = &r,
					    .size = sizeof(r),
					    .ts = (u64)i * 1000,
					    .stack = stack };
		struct ref_ent *re;

		make_rec(&r, i);
		cur_comm = comms[r.h.pid - 100];
		c.comm = cur_comm;
		memset(key, 0, sp->key_size);
		khist_hist_key_build(sp, &c, key);
		if (khist_map_should_grow(map))
			khist_map_grow(map);
		elt = khist_map_insert(map, key);
		if (!elt)
			continue;
		re = ref_get(sp, key);
		khist_map_add(elt, 0, 1);
		re->sums[0]++;
		for (v = 1; v < sp->n_vals; v++) {
			u64 x = khist_hist_eval(sp->vals[v], &c);

			khist_map_add(elt, v, x);
			re->sums[v] += x;
			re->vals[v][re->n_vals] = x;
			if (is_qs(sp->vals[v]))
				khist_qs_record(
					(void *)((u8 *)khist_map_elt_extra(elt) +
						 qs_off[v]),
					x);
		}
		re->n_vals++;
		for (v = 0; v < sp->n_vars; v++)
			if (sp->vars[v].str_idx < 0)
				khist_map_set_var(elt, v,
						  khist_hist_eval(sp->vars[v].f,
								  &c));
	}
	/* Read and sort the table as `hist` does. */
	khist_map_get_stats(map, &st);
	rows = calloc(st.entries + 1, sizeof(*rows));
	order = calloc(st.entries + 1, sizeof(*order));
	sums = calloc((size_t)(st.entries + 1) * sp->n_vals, sizeof(u64));
	khist_hsorter_init(&s, sp);
	while ((elt = khist_map_next(map, &pos))) {
		u64 *rs = sums + (size_t)nrows * sp->n_vals;

		for (v = 0; v < sp->n_vals; v++)
			rs[v] = khist_map_read_sum(elt, v);
		rows[nrows] = (struct khist_hrow){ &s, khist_map_elt_key(elt),
						   rs, elt };
		order[nrows] = &rows[nrows];
		nrows++;
	}
	khist_hist_sort(&s, order, nrows);
	snprintf(path, sizeof(path), "%s/t%u.json", JSON_OUT, n);
	snprintf(rpath, sizeof(rpath), "%s/t%u.ref.json", JSON_OUT, n);
	o.f = fopen(path, "w");
	if (!o.f)
		return -EIO;
	khist_hist_print(sp, false, text, sizeof(text));
	khist_json_init(&j, out_write, &o);
	khist_hjson_doc_begin(&j, "test", "rec");
	khist_hjson_table_begin(&j, sp, text, false);
	for (i = 0; i < nrows; i++) {
		struct khist_hjson_entry e = {
			.key = order[i]->key,
			.comm = khist_map_elt_extra(order[i]->priv),
			.sums = order[i]->sums,
			.vars = vars,
			.var_set = vset,
		};

		elt = order[i]->priv;
		for (v = 0; v < sp->n_vals; v++) {
			qsp[v] = NULL;
			if (!v || !is_qs(sp->vals[v]))
				continue;
			khist_qs_snap_init(&snaps[v]);
			khist_qs_snap_add(
				&snaps[v],
				(void *)((u8 *)khist_map_elt_extra(elt) +
					 qs_off[v]));
			qsp[v] = &snaps[v];
		}
		e.qs = n_qs ? qsp : NULL;
		for (v = 0; v < sp->n_vars; v++) {
			vset[v] = khist_map_var_is_set(elt, v);
			vars[v] = khist_map_get_var(elt, v);
		}
		/* A handler record, as onmax(lat) would save it. */
		if (n_qs) {
			saved_vals[0] = snaps[sp->n_vals - 1].max;
			saved = (struct khist_hjson_saved){ "onmax(lat)",
							    saved_vals[0], 1,
							    saved_names,
							    saved_vals };
			e.saved = &saved;
			e.n_saved = 1;
		}
		khist_hjson_entry(&j, sp, &jops, &e);
	}
	tot.hits = st.hits;
	tot.entries = nrows;
	tot.dropped = st.drops;
	tot.grow_refused = st.grow_refused;
	khist_hjson_table_end(&j, &tot);
	khist_hjson_doc_end(&j);
	ret = khist_json_end(&j);
	fclose(o.f);
	o.f = fopen(rpath, "w");
	if (!o.f)
		return -EIO;
	write_ref(o.f, sp);
	fclose(o.f);
	if (!ret) {
		snprintf(sh, sizeof(sh),
			 "python3 -m json.tool %s >/dev/null && "
			 "python3 %s/selftests/unit/hist_json_check.py "
			 "%s/Documentation/hist_json.schema.json %s %s",
			 path, KHIST_TOP, KHIST_TOP, path, rpath);
		ret = system(sh) ? -EINVAL : 0;
	}
	free(rows);
	free(order);
	free(sums);
	free(key);
	ref_free(sp);
	khist_map_destroy(map);
	khist_hist_spec_free(sp);
	return ret;
}

static char wbuf[4096];
static size_t wlen;

static void buf_write(void *ctx, const char *s, size_t n)
{
	if (wlen + n < sizeof(wbuf)) {
		memcpy(wbuf + wlen, s, n);
		wlen += n;
	}
	wbuf[wlen] = '\0';
}

/* The writer alone: escapes, numbers, and misuse reported. */
static void writer_checks(void)
{
	struct khist_json j;

	wlen = 0;
	khist_json_init(&j, buf_write, NULL);
	khist_json_obj_begin(&j, NULL);
	khist_json_str(&j, "s", "a\"b\\c\x01\n\t\x7f\xe9\xc3\xa9\xed\xa0\x80");
	khist_json_s64(&j, "n", S64_MIN);
	khist_json_u64(&j, "u", U64_MAX);
	khist_json_arr_begin(&j, "a");
	khist_json_bool(&j, NULL, true);
	khist_json_null(&j, NULL);
	khist_json_arr_end(&j);
	khist_json_obj_end(&j);
	ok(!khist_json_end(&j) &&
		   !strcmp(wbuf,
			   "{\"s\":\"a\\\"b\\\\c\\u0001\\n\\t\x7f\\u00e9\xc3\xa9"
			   "\\u00ed\\u00a0\\u0080\",\"n\":-9223372036854775808,"
			   "\"u\":18446744073709551615,\"a\":[true,null]}\n"),
	   "json writer: escapes and numbers");
	if (failed)
		printf("# got %s", wbuf);
	khist_json_init(&j, buf_write, NULL);
	khist_json_obj_begin(&j, NULL);
	khist_json_u64(&j, NULL, 1);
	ok(khist_json_end(&j) == -EINVAL, "json writer: value without a name");
	khist_json_init(&j, buf_write, NULL);
	khist_json_arr_begin(&j, NULL);
	khist_json_obj_end(&j);
	ok(khist_json_end(&j) == -EINVAL, "json writer: mismatched close");
	khist_json_init(&j, buf_write, NULL);
	khist_json_arr_begin(&j, NULL);
	ok(khist_json_end(&j) == -EINVAL, "json writer: left open");
	khist_json_init(&j, buf_write, NULL);
	khist_json_u64(&j, NULL, 1);
	khist_json_u64(&j, NULL, 2);
	ok(khist_json_end(&j) == -EINVAL, "json writer: two documents");
}

static const char *const triggers[] = {
	"hist:keys=common_pid.execname:vals=hitcount,lat.quantiles:sort=hitcount.descending",
	"hist:keys=lat.log2:vals=hitcount,lat.stats,delta",
	"hist:keys=lat.log2=3,name:vals=hitcount,delta:sort=lat",
	"hist:keys=id.syscall,name:vals=lat:sort=lat.descending,name",
	"hist:keys=lat.buckets=1000,addr.sym-offset:vals=hitcount:sort=lat",
	"hist:keys=common_stacktrace:vals=hitcount",
	"hist:keys=delta:vals=lat.stats,id.quantiles:sort=delta",
	"hist:keys=addr.hex,name:vals=hitcount:ts0=common_timestamp:d=delta",
	"hist:keys=name:vals=lat:nohitcount",
};

int main(void)
{
	char what[256];
	unsigned int i;

	printf("TAP version 13\n");
	writer_checks();
	if (system("python3 -c 1 2>/dev/null") ||
	    system("mkdir -p " JSON_OUT)) {
		printf("ok %d - hist_json tables # SKIP no python3\n", ++tap);
	} else {
		for (i = 0; i < ARRAY_SIZE(triggers); i++) {
			snprintf(what, sizeof(what), "hist_json t%u: %s", i,
				 triggers[i]);
			ok(!run_trigger(triggers[i], i), what);
		}
	}
	ok(kshim_live_allocations() == 0, "no memory left allocated");
	printf("1..%d\n", tap);
	return failed;
}
