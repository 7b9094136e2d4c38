// SPDX-License-Identifier: GPL-2.0
/*
 * hist_log2_kunit.c - the .log2=k key modifier (khist extension, issue
 * 23): its buckets against their definition, the key the evaluator
 * stores, where the modifier is accepted, its errors and carets, and the
 * listing's round trip.
 */
#include <kunit/test.h>
#include "hist_bind.h"
#include "hist_errors.h"
#include "hist_eval.h"
#include "hist_print.h"

static const struct khist_field_desc l2_f[] = {
	{ "bytes_req", "size_t", 8, 8, 0, KHIST_FK_INT, 8 },
	{ "prio", "int", 16, 4, 1, KHIST_FK_INT, 4 },
};

static const struct khist_event_schema l2_sc = {
	"test", "l2", 5, l2_f, ARRAY_SIZE(l2_f), 24
};

/* The bucket of @v by the definition, the slow way: [lo, lo + w). */
static void l2_ref(u64 v, unsigned int k, u64 *lo, u64 *w)
{
	unsigned int e = 0;
	u64 step;

	while (e < 63 && (v >> (e + 1)))
		e++;
	/* [2^e, 2^(e+1)) in 2^k pieces of 2^e / 2^k, at least 1 wide */
	step = e > k ? (1ULL << e) >> k : 1;
	*w = step;
	*lo = v - (v % step);
}

static void hist_log2_buckets(struct kunit *test)
{
	static const u64 edge[] = { 0,		1,
				    2,		3,
				    4,		7,
				    8,		15,
				    16,		17,
				    31,		32,
				    33,		39,
				    40,		1000,
				    4095,	4096,
				    4097,	(1ULL << 32) - 1,
				    1ULL << 32, (1ULL << 63) - 1,
				    1ULL << 63, U64_MAX };
	u64 seed = 0x243f6a8885a308d3ULL, v, lo, w, got;
	unsigned int k, i;

	for (k = 1; k <= KHIST_LOG2_SUB_MAX; k++) {
		for (i = 0; i < ARRAY_SIZE(edge) + 2000; i++) {
			if (i < ARRAY_SIZE(edge)) {
				v = edge[i];
			} else {
				seed = seed * 6364136223846793005ULL +
				       1442695040888963407ULL;
				v = seed >> (seed & 63);
			}
			l2_ref(v, k, &lo, &w);
			got = khist_hist_log2_sub(v, k);
			KUNIT_EXPECT_EQ(test, got, lo);
			KUNIT_EXPECT_EQ(test, khist_hist_log2_sub_width(got, k),
					w);
			/* the key is its own bucket's low bound */
			KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(got, k), got);
		}
	}
	/* 0 and 1 apart; k = 2: 8..15 in pieces of 2, 16..31 of 4 */
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(0, 1), 0);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(1, 1), 1);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(3, 1), 3);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(7, 2), 7);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(9, 2), 8);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(11, 2), 10);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(23, 2), 20);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub_width(20, 2), 4);
	/* bytes_req.log2=2: 32..63 in [32, 40), [40, 48), [48, 56), [56, 64) */
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(39, 2), 32);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(40, 2), 40);
	KUNIT_EXPECT_EQ(test, khist_hist_log2_sub(63, 2), 56);
	/* 2^k buckets in every power of two from 2^k on */
	for (k = 1; k <= 6; k++) {
		unsigned int n = 0;
		u64 prev = U64_MAX;

		for (v = 1ULL << 10; v < 1ULL << 11; v++) {
			got = khist_hist_log2_sub(v, k);
			n += got != prev;
			prev = got;
		}
		KUNIT_EXPECT_EQ(test, n, 1U << k);
	}
	/* the top bucket ends at 2^64 */
	got = khist_hist_log2_sub(U64_MAX, 4);
	KUNIT_EXPECT_EQ(test, got + khist_hist_log2_sub_width(got, 4), 0);
}

/* The evaluator stores the bucket's low bound as the key. */
static void hist_log2_key(struct kunit *test)
{
	static const char cmd[] = "hist:keys=bytes_req.log2=3,prio";
	struct khist_hist_spec *sp = NULL;
	u8 rec[24] = {};
	u64 key[2], v, w;
	s32 prio = -5;
	unsigned int i;

	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd, strlen(cmd), &l2_sc, NULL, &sp,
					   NULL),
			0);
	KUNIT_EXPECT_EQ(test, sp->keys[0].f->buckets, 3);
	KUNIT_EXPECT_TRUE(test, sp->keys[0].f->flags & KHIST_HF_LOG2);
	for (i = 0; i < 300; i++) {
		struct khist_eval_ctx c = { .rec = rec, .size = sizeof(rec) };

		v = (u64)i * i * 37;
		memcpy(rec + 8, &v, 8);
		memcpy(rec + 16, &prio, 4);
		khist_hist_key_build(sp, &c, (u8 *)key);
		KUNIT_EXPECT_EQ(test, key[0], khist_hist_log2_sub(v, 3));
		KUNIT_EXPECT_LE(test, key[0], v);
		w = khist_hist_log2_sub_width(key[0], 3);
		KUNIT_EXPECT_GT(test, key[0] + w, v);
		KUNIT_EXPECT_EQ(test, key[1], (u64)(s64)prio);
	}
	khist_hist_spec_free(sp);
}

static void hist_log2_grammar(struct kunit *test)
{
	static const struct {
		const char *cmd, *listing;
	} ok[] = {
		{ "hist:keys=bytes_req.log2=4",
		  "hist:keys=bytes_req.log2=4:vals=hitcount:sort=hitcount:size=2048 [active]\n" },
		{ "hist:keys=bytes_req.log2=16:sort=bytes_req.log2=16",
		  "hist:keys=bytes_req.log2=16:vals=hitcount:sort=bytes_req.log2=16:size=2048 [active]\n" },
		{ "hist:keys=prio.log2=1:sort=prio",
		  "hist:keys=prio.log2=1:vals=hitcount:sort=prio.log2=1:size=2048 [active]\n" },
		/* ftrace's .log2 is unchanged */
		{ "hist:keys=bytes_req.log2",
		  "hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 [active]\n" },
	};
	static const struct {
		const char *cmd;
		const char *at; /* the caret's text */
	} bad[] = {
		/* k from 1 to 16 */
		{ "hist:keys=bytes_req.log2=0", "0" },
		{ "hist:keys=bytes_req.log2=17", "17" },
		{ "hist:keys=bytes_req.log2=", "log2=" },
		{ "hist:keys=bytes_req.log2=x", "x" },
		{ "hist:keys=bytes_req.log2=4x", "4x" },
		/* keys only, as .log2: a value or a variable is refused */
		{ "hist:keys=prio:vals=bytes_req.log2=4", "bytes_req" },
		{ "hist:keys=prio:b=bytes_req.log2=4", "bytes_req" },
	};
	static char buf[512], again[512];
	struct khist_hist_spec *sp, *sp2;
	struct khist_hist_err err;
	unsigned int i;
	int ret, n;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ret = khist_hist_compile(ok[i].cmd, strlen(ok[i].cmd), &l2_sc,
					 NULL, &sp, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		n = khist_hist_print(sp, false, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, ok[i].listing);
		n -= strlen(" [active]\n");
		ret = khist_hist_compile(buf, n, &l2_sc, NULL, &sp2, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		khist_hist_print(sp2, false, again, sizeof(again));
		KUNIT_EXPECT_STREQ(test, again, buf);
		khist_hist_spec_free(sp2);
		khist_hist_spec_free(sp);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *cmd = bad[i].cmd, *at = strstr(cmd + 10, bad[i].at);

		sp = NULL;
		memset(&err, 0, sizeof(err));
		ret = khist_hist_compile(cmd, strlen(cmd), &l2_sc, NULL, &sp,
					 &err);
		KUNIT_EXPECT_NE(test, ret, 0);
		if (!ret) {
			khist_hist_spec_free(sp);
			continue;
		}
		if (err.e[0].code != KHIST_HERR_BAD_FIELD_MODIFIER ||
		    err.e[0].pos != at - cmd)
			kunit_info(test, "%s: code %u pos %u\n", cmd,
				   err.e[0].code, err.e[0].pos);
		KUNIT_EXPECT_EQ(test, err.e[0].code,
				KHIST_HERR_BAD_FIELD_MODIFIER);
		KUNIT_EXPECT_EQ(test, err.e[0].pos, at - cmd);
	}
}

static struct kunit_case hist_log2_cases[] = {
	KUNIT_CASE(hist_log2_buckets),
	KUNIT_CASE(hist_log2_key),
	KUNIT_CASE(hist_log2_grammar),
	{},
};

static struct kunit_suite hist_log2_suite = {
	.name = "khist_hist_log2",
	.test_cases = hist_log2_cases,
};

kunit_test_suite(hist_log2_suite);
