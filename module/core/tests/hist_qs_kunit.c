// SPDX-License-Identifier: GPL-2.0
/*
 * hist_qs_kunit.c - the .stats and .quantiles value modifiers (khist
 * extensions, issue 23) in the hist grammar: where they are accepted,
 * the error and caret where they are not, the trigger listing and its
 * round trip, sort on such a value, and values fired through the core's
 * eval path into per-entry sketches checked against the inputs.
 */
#include <kunit/test.h>
#include "hist_bind.h"
#include "hist_errors.h"
#include "hist_eval.h"
#include "hist_print.h"
#include "hist_sort.h"
#include "qsketch.h"

static const struct khist_field_desc qs_f[] = {
	{ "lat", "u64", 8, 8, 0, KHIST_FK_INT, 8 },
	{ "cpu", "unsigned int", 16, 4, 0, KHIST_FK_INT, 4 },
};

static const struct khist_event_schema qs_sc = {
	"test", "qs", 3, qs_f, ARRAY_SIZE(qs_f), 24
};

/* An owner that keeps distributions (the wired module). */
static const struct khist_bind_ops dist_ops = { .dists = true };

/* The listing @buf (@n bytes, " [active]\n" included) parses back to itself. */
static void qs_expect_round_trip(struct kunit *test, const char *buf, int n)
{
	static char again[512];
	struct khist_hist_spec *sp = NULL;
	struct khist_hist_err err;
	int ret;

	n -= strlen(" [active]\n");
	ret = khist_hist_compile(buf, n, &qs_sc, &dist_ops, &sp, &err);
	KUNIT_ASSERT_EQ(test, ret, 0);
	khist_hist_print(sp, false, again, sizeof(again));
	KUNIT_EXPECT_STREQ(test, again, buf);
	khist_hist_spec_free(sp);
}

static void hist_qs_accepted(struct kunit *test)
{
	static const struct {
		const char *cmd, *listing;
		u32 flag;
	} ok[] = {
		{ "hist:keys=cpu:vals=lat.stats",
		  "hist:keys=cpu:vals=hitcount,lat.stats:sort=hitcount:size=2048 [active]\n",
		  KHIST_HF_STATS },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.descending",
		  "hist:keys=cpu:vals=hitcount,lat.quantiles:sort=lat.quantiles.descending:size=2048 [active]\n",
		  KHIST_HF_QUANTILES },
	};
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	static char buf[512];
	unsigned int i;
	int ret, n;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ret = khist_hist_compile(ok[i].cmd, strlen(ok[i].cmd), &qs_sc,
					 &dist_ops, &sp, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, sp->n_vals, 2);
		KUNIT_EXPECT_TRUE(test, sp->vals[1]->flags & ok[i].flag);
		n = khist_hist_print(sp, false, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, ok[i].listing);
		qs_expect_round_trip(test, buf, n);
		khist_hist_spec_free(sp);
	}
}

/* @cmd must be refused with @code, the caret under the first @at in it. */
static void qs_expect_refused(struct kunit *test, const char *cmd,
			      const char *at, int code)
{
	struct khist_hist_spec *sp = NULL;
	struct khist_hist_err err;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = khist_hist_compile(cmd, strlen(cmd), &qs_sc, &dist_ops, &sp,
				 &err);
	KUNIT_EXPECT_NE(test, ret, 0);
	if (!ret) {
		khist_hist_spec_free(sp);
		return;
	}
	KUNIT_EXPECT_EQ(test, err.e[0].code, code);
	KUNIT_EXPECT_EQ(test, err.e[0].pos, strstr(cmd, at) - cmd);
}

static void hist_qs_refused(struct kunit *test)
{
	static const struct {
		const char *cmd;
		const char *at; /* the caret's text */
	} bad[] = {
		/* a key is not a distribution */
		{ "hist:keys=lat.stats", "stats" },
		{ "hist:keys=cpu,lat.quantiles:vals=lat", "quantiles" },
		/* a variable holds one value */
		{ "hist:keys=cpu:l=lat.quantiles", "quantiles" },
		/* no such modifier */
		{ "hist:keys=cpu:vals=lat.stat", "stat" },
		{ "hist:keys=cpu:vals=lat.quantilesx", "quantilesx" },
	};
	struct khist_hist_spec *sp = NULL;
	struct khist_hist_err err;
	unsigned int i;
	int ret;

	/* The caret is under the modifier. */
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		qs_expect_refused(test, bad[i].cmd, bad[i].at,
				  KHIST_HERR_BAD_FIELD_MODIFIER);
	/* An owner without distributions refuses them (not wired yet). */
	for (i = 0; i < 2; i++) {
		static const char *const cmd = "hist:keys=cpu:vals=lat.stats";
		struct khist_bind_ops none = {};

		ret = khist_hist_compile(cmd, strlen(cmd), &qs_sc,
					 i ? &none : NULL, &sp, &err);
		KUNIT_EXPECT_NE(test, ret, 0);
		if (!ret) {
			khist_hist_spec_free(sp);
			continue;
		}
		KUNIT_EXPECT_EQ(test, err.e[0].code,
				KHIST_HERR_BAD_FIELD_MODIFIER);
		KUNIT_EXPECT_EQ(test, err.e[0].pos, strlen(cmd) - 5);
	}
}

/* sort= on a figure hist prints after a .stats/.quantiles value. */
static void hist_qs_sort_figure(struct kunit *test)
{
	static const struct {
		const char *cmd, *sort; /* sort: the listing's sort= */
		u8 fig[2], desc[2];
	} ok[] = {
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.p99",
		  "lat.p99",
		  { 3, 0 },
		  { 0, 0 } },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.p99.9.descending",
		  "lat.p99.9.descending",
		  { 4, 0 },
		  { 1, 0 } },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.p50.ascending,cpu",
		  "lat.p50,cpu",
		  { 1, 0 },
		  { 0, 0 } },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=hitcount,lat.max.descending",
		  "hitcount,lat.max.descending",
		  { 0, 5 },
		  { 0, 1 } },
		{ "hist:keys=cpu:vals=lat.stats:sort=lat.max",
		  "lat.max",
		  { 4, 0 },
		  { 0, 0 } },
		{ "hist:keys=cpu:vals=lat.stats:sort=lat.stddev.descending,lat.count",
		  "lat.stddev.descending,lat.count",
		  { 5, 1 },
		  { 1, 0 } },
		{ "hist:keys=cpu:vals=lat.stats:sort=lat.min,lat.mean.descending",
		  "lat.min,lat.mean.descending",
		  { 2, 3 },
		  { 0, 1 } },
	};
	static const struct {
		const char *cmd;
		const char *at; /* the caret's text */
		unsigned int code;
	} bad[] = {
		/* a figure of the other modifier */
		{ "hist:keys=cpu:vals=lat.stats:sort=lat.p99", "lat.p99",
		  KHIST_HERR_INVALID_SORT_FIGURE },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=cpu,lat.stddev",
		  "lat.stddev", KHIST_HERR_INVALID_SORT_FIGURE },
		/* no such figure */
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.p42", "lat.p42",
		  KHIST_HERR_INVALID_SORT_FIGURE },
		{ "hist:keys=cpu:vals=lat.quantiles:sort=lat.p99.9.down",
		  "lat.p99.9.down", KHIST_HERR_INVALID_SORT_FIGURE },
		{ "hist:keys=cpu:vals=lat.stats:sort=lat.p99.9.descending",
		  "lat.p99.9.descending", KHIST_HERR_INVALID_SORT_FIGURE },
		/* a value without a distribution */
		{ "hist:keys=cpu:vals=lat:sort=lat.p99", "lat.p99",
		  KHIST_HERR_INVALID_SORT_FIGURE },
		{ "hist:keys=cpu:vals=lat:sort=lat.min.descending", "lat.min",
		  KHIST_HERR_INVALID_SORT_FIGURE },
		/* not a figure name: the kernel's error, under the modifier */
		{ "hist:keys=cpu:vals=lat:sort=lat.junk", "junk",
		  KHIST_HERR_INVALID_SORT_MODIFIER },
		/* keys and hitcount have no figures */
		{ "hist:keys=cpu:vals=lat.stats:sort=cpu.max", "max",
		  KHIST_HERR_INVALID_SORT_MODIFIER },
		{ "hist:keys=cpu:vals=lat.stats:sort=hitcount.max", "max",
		  KHIST_HERR_INVALID_SORT_MODIFIER },
	};
	static char buf[512], want[128];
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	struct khist_hsorter so;
	unsigned int i, k;
	int ret, n;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ret = khist_hist_compile(ok[i].cmd, strlen(ok[i].cmd), &qs_sc,
					 &dist_ops, &sp, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		for (k = 0; k < sp->n_sort; k++) {
			KUNIT_EXPECT_EQ(test, sp->sort[k].fig, ok[i].fig[k]);
			KUNIT_EXPECT_EQ(test, sp->sort[k].descending,
					ok[i].desc[k]);
		}
		khist_hsorter_init(&so, sp);
		KUNIT_EXPECT_EQ(test, khist_hsorter_needs_figs(&so), true);
		n = khist_hist_print(sp, false, buf, sizeof(buf));
		snprintf(want, sizeof(want), ":sort=%s:size=", ok[i].sort);
		KUNIT_EXPECT_NOT_NULL(test, strstr(buf, want));
		qs_expect_round_trip(test, buf, n);
		khist_hist_spec_free(sp);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		qs_expect_refused(test, bad[i].cmd, bad[i].at, bad[i].code);
}

/* The sorter orders rows by the figures the caller put in them. */
static void hist_qs_sort_rows(struct kunit *test)
{
	static const char cmd[] =
		"hist:keys=cpu:vals=lat.quantiles:sort=lat.p99.descending,cpu";
	/* cpu key, sum (lat), figure: p99 order differs from sum order */
	static const u64 in[][3] = {
		{ 1, 900, 10 },
		{ 2, 100, 50 },
		{ 3, 500, 50 },
		{ 4, 10, 70 },
	};
	static const u64 want_cpu[] = { 4, 2, 3, 1 };
	struct khist_hrow store[ARRAY_SIZE(in)], *rows[ARRAY_SIZE(in)];
	u8 keys[ARRAY_SIZE(in)][8];
	u64 sums[ARRAY_SIZE(in)][2];
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	struct khist_hsorter so;
	unsigned int i;
	u64 cpu;
	int ret;

	ret = khist_hist_compile(cmd, strlen(cmd), &qs_sc, &dist_ops, &sp,
				 &err);
	KUNIT_ASSERT_EQ(test, ret, 0);
	khist_hsorter_init(&so, sp);
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		memset(keys[i], 0, sizeof(keys[i]));
		memcpy(keys[i], &in[i][0], 4);
		sums[i][0] = 1;
		sums[i][1] = in[i][1];
		memset(&store[i], 0, sizeof(store[i]));
		store[i].s = &so;
		store[i].key = keys[i];
		store[i].sums = sums[i];
		store[i].figs[0] = in[i][2];
		rows[i] = &store[i];
	}
	khist_hist_sort(&so, rows, ARRAY_SIZE(in));
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		cpu = 0;
		memcpy(&cpu, rows[i]->key, 4);
		KUNIT_EXPECT_EQ(test, cpu, want_cpu[i]);
	}
	khist_hist_spec_free(sp);
}

/* Values fired through the eval path into one sketch per entry. */
static void hist_qs_eval_path(struct kunit *test)
{
	const char *cmd = "hist:keys=cpu:vals=lat.quantiles,lat.stats";
	static struct khist_qsketch q[4][2];
	struct khist_qs_snap *s;
	struct khist_hist_spec *sp;
	struct khist_qs_stats st;
	static u64 lat[4][250];
	u64 key[1], v;
	u8 rec[24] = {};
	unsigned int i, c, k;
	u32 cpu;

	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd, strlen(cmd), &qs_sc, &dist_ops,
					   &sp, NULL),
			0);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	memset(q, 0, sizeof(q));
	for (i = 0; i < 1000; i++) {
		struct khist_eval_ctx ctx = { .rec = rec, .size = sizeof(rec) };

		cpu = i % 4;
		v = (u64)(i * 7919 % 1000 + 1) * (cpu + 1) * 1000;
		memcpy(rec + 8, &v, 8);
		memcpy(rec + 16, &cpu, 4);
		khist_hist_key_build(sp, &ctx, (u8 *)key);
		c = (unsigned int)key[0];
		KUNIT_ASSERT_LT(test, c, 4);
		lat[c][i / 4] = v;
		for (k = 1; k < sp->n_vals; k++)
			khist_qs_record(&q[c][k - 1],
					khist_hist_eval(sp->vals[k], &ctx));
	}
	for (c = 0; c < 4; c++) {
		/* Offline: the 250 values of this cpu, sorted by insertion. */
		for (i = 1; i < 250; i++)
			for (k = i; k && lat[c][k - 1] > lat[c][k]; k--) {
				v = lat[c][k];
				lat[c][k] = lat[c][k - 1];
				lat[c][k - 1] = v;
			}
		khist_qs_snap_init(s);
		khist_qs_snap_add(s, &q[c][0]);
		/* p50 is rank 125, p90 225, p99 248, p99.9 250 */
		v = khist_qs_quantile(s, 5000);
		KUNIT_EXPECT_LE(test,
				v > lat[c][124] ? v - lat[c][124] :
						  lat[c][124] - v,
				lat[c][124] / 128);
		v = khist_qs_quantile(s, 9000);
		KUNIT_EXPECT_LE(test,
				v > lat[c][224] ? v - lat[c][224] :
						  lat[c][224] - v,
				lat[c][224] / 128);
		v = khist_qs_quantile(s, 9900);
		KUNIT_EXPECT_LE(test,
				v > lat[c][247] ? v - lat[c][247] :
						  lat[c][247] - v,
				lat[c][247] / 128);
		KUNIT_EXPECT_EQ(test, khist_qs_quantile(s, 10000), lat[c][249]);
		khist_qs_snap_init(s);
		khist_qs_snap_add(s, &q[c][1]);
		khist_qs_stats(s, &st);
		KUNIT_EXPECT_EQ(test, st.count, 250);
		KUNIT_EXPECT_EQ(test, st.min, lat[c][0]);
		KUNIT_EXPECT_EQ(test, st.max, lat[c][249]);
	}
	khist_hist_spec_free(sp);
	kfree(s);
}

/* Variables: "x" of another trigger, "s" a string, "k" the constant 5. */
static int qs_find_var(void *ctx, const char *sys, const char *event,
		       const char *var, struct khist_var_info *info)
{
	info->size = 8;
	if (!strcmp(var, "x") || !strcmp(var, "ts0"))
		return 0;
	if (!strcmp(var, "s")) {
		info->is_string = 1;
		info->size = KHIST_STR_MAX;
		return 0;
	}
	return -ENOENT;
}

static const struct khist_bind_ops ref_ops = {
	.dists = true,
	.find_var = qs_find_var,
};

/* "$var.stats" / "$var.quantiles": a variable's distribution. */
static void hist_qs_var_refs(struct kunit *test)
{
	static const struct {
		const char *cmd, *listing, *name;
		u32 flag;
		u8 kind;
	} ok[] = {
		/* another trigger's variable: a reference with the flag */
		{ "hist:keys=cpu:vals=$x.quantiles:sort=x.p99.descending",
		  "hist:keys=cpu:vals=hitcount,$x.quantiles:sort=x.p99.descending:size=2048 [active]\n",
		  "x", KHIST_HF_QUANTILES, KHIST_BF_VARREF },
		{ "hist:keys=cpu:vals=test.qs.$x.stats",
		  "hist:keys=cpu:vals=hitcount,test.qs.$x.stats:sort=hitcount:size=2048 [active]\n",
		  "test.qs.$x", KHIST_HF_STATS, KHIST_BF_VARREF },
		/* this trigger's variable: its definition, named after it */
		{ "hist:keys=cpu:lat=lat-$ts0:vals=$lat.quantiles:sort=lat.p50",
		  "hist:keys=cpu:vals=hitcount,$lat.quantiles:lat=lat-$ts0:sort=lat.p50:size=2048 [active]\n",
		  "lat", KHIST_HF_QUANTILES | KHIST_HF_VARVAL, KHIST_BF_BINOP },
		{ "hist:keys=cpu:vals=$c.stats:c=cpu",
		  "hist:keys=cpu:vals=hitcount,$c.stats:c=cpu:sort=hitcount:size=2048 [active]\n",
		  "c", KHIST_HF_STATS | KHIST_HF_VARVAL, KHIST_BF_FIELD },
		{ "hist:keys=cpu:y=$x:vals=$y.stats",
		  "hist:keys=cpu:vals=hitcount,$y.stats:y=$x:sort=hitcount:size=2048 [active]\n",
		  "y", KHIST_HF_STATS | KHIST_HF_VARVAL, KHIST_BF_VARREF },
	};
	static const struct {
		const char *cmd;
		const char *at; /* the caret's text */
		unsigned int code;
	} bad[] = {
		/* an operand of an expression is no whole value */
		{ "hist:keys=cpu:vals=lat.quantiles-$ts0", "quantiles",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		{ "hist:keys=cpu:vals=lat-$x.stats", "stats",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		/* nor is a key or a variable */
		{ "hist:keys=$x.stats", "stats",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		{ "hist:keys=cpu:y=$x.stats", "stats",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		/* a string has no distribution */
		{ "hist:keys=cpu:vals=$s.stats", "stats",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		{ "hist:keys=cpu:vals=$l.stats:l=lat.hex", "stats",
		  KHIST_HERR_BAD_FIELD_MODIFIER },
		/* no such variable: the kernel's error */
		{ "hist:keys=cpu:vals=$nope.stats", "nope",
		  KHIST_HERR_VAR_NOT_FOUND },
		/* onmax/onchange track one value */
		{ "hist:keys=cpu:lat=lat:onmax($lat.stats).save(cpu)", "stats)",
		  KHIST_HERR_ONX_DIST },
		{ "hist:keys=cpu:lat=lat:onchange($lat.quantiles).save(cpu)",
		  "quantiles)", KHIST_HERR_ONX_DIST },
	};
	static char buf[512], again[512];
	struct khist_hist_spec *sp, *sp2;
	struct khist_hist_err err;
	unsigned int i;
	int ret, n;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ret = khist_hist_compile(ok[i].cmd, strlen(ok[i].cmd), &qs_sc,
					 &ref_ops, &sp, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, sp->n_vals, 2);
		KUNIT_EXPECT_EQ(test, sp->vals[1]->flags & ok[i].flag,
				ok[i].flag);
		KUNIT_EXPECT_EQ(test, sp->vals[1]->kind, ok[i].kind);
		KUNIT_EXPECT_STREQ(test, sp->vals[1]->name, ok[i].name);
		n = khist_hist_print(sp, false, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, ok[i].listing);
		n -= strlen(" [active]\n");
		ret = khist_hist_compile(buf, n, &qs_sc, &ref_ops, &sp2, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		khist_hist_print(sp2, false, again, sizeof(again));
		KUNIT_EXPECT_STREQ(test, again, buf);
		khist_hist_spec_free(sp2);
		khist_hist_spec_free(sp);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		sp = NULL;
		memset(&err, 0, sizeof(err));
		ret = khist_hist_compile(bad[i].cmd, strlen(bad[i].cmd), &qs_sc,
					 &ref_ops, &sp, &err);
		KUNIT_EXPECT_NE(test, ret, 0);
		if (!ret) {
			khist_hist_spec_free(sp);
			continue;
		}
		if (err.e[0].code != bad[i].code ||
		    err.e[0].pos != strstr(bad[i].cmd, bad[i].at) - bad[i].cmd)
			kunit_info(test, "%s: code %u pos %u\n", bad[i].cmd,
				   err.e[0].code, err.e[0].pos);
		KUNIT_EXPECT_EQ(test, err.e[0].code, bad[i].code);
		KUNIT_EXPECT_EQ(test, err.e[0].pos,
				strstr(bad[i].cmd, bad[i].at) - bad[i].cmd);
	}
}

static struct kunit_case hist_qs_cases[] = {
	KUNIT_CASE(hist_qs_accepted),
	KUNIT_CASE(hist_qs_refused),
	KUNIT_CASE(hist_qs_sort_figure),
	KUNIT_CASE(hist_qs_sort_rows),
	KUNIT_CASE(hist_qs_eval_path),
	KUNIT_CASE(hist_qs_var_refs),
	{},
};

static struct kunit_suite hist_qs_suite = {
	.name = "khist_hist_qs",
	.test_cases = hist_qs_cases,
};

kunit_test_suite(hist_qs_suite);
