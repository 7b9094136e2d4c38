// SPDX-License-Identifier: GPL-2.0
/*
 * qsketch_kunit.c - tests of the per-entry distributions (.stats and
 * .quantiles): bucket bounds, quantiles against an offline computation
 * (sorted inputs) on deterministic input sets with the 1/128 error bound,
 * exact count/sum/min/max/mean, stddev against a floating-point
 * computation, merging, concurrent updates and the `hist` text.
 */
#include <kunit/test.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include "qsketch.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* A 64-bit LCG: deterministic inputs. */
static u64 lcg(u64 *st)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return *st;
}

static void qs_bucket_bounds(struct kunit *test)
{
	u64 lo, hi, prev_hi = 0;
	unsigned int i;

	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		khist_qs_bucket_bounds(i, &lo, &hi);
		KUNIT_ASSERT_EQ(test, khist_qs_index(lo), i);
		KUNIT_ASSERT_EQ(test, khist_qs_index(hi), i);
		KUNIT_ASSERT_TRUE(test, lo <= hi);
		/* Buckets tile u64 with no gap and no overlap. */
		if (i)
			KUNIT_ASSERT_EQ(test, lo, prev_hi + 1);
		/* Width at most 1/64 of the lower bound: midpoint 1/128. */
		KUNIT_ASSERT_TRUE(test, (hi - lo) * 64 <= lo || hi == lo);
		prev_hi = hi;
	}
	KUNIT_EXPECT_EQ(test, prev_hi, U64_MAX);
	KUNIT_EXPECT_EQ(test, khist_qs_index(U64_MAX), KHIST_QS_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, sizeof(struct khist_qsketch), 15128);
}

/* Offline: nearest-rank quantile of sorted @v. */
static u64 exact_q(const u64 *v, u64 n, u32 per10k)
{
	u64 rank = (n * per10k + 9999) / 10000;

	if (!rank)
		rank = 1;
	return v[rank - 1];
}

/* Records @v[0..n) and checks every figure against the sorted copy. */
static void check_set(struct kunit *test, const char *what, u64 *v, u64 n)
{
	long double mean = 0, var = 0;
	struct khist_qsketch *qs = calloc(1, sizeof(*qs));
	struct khist_qs_snap *s = malloc(sizeof(*s));
	static const u32 qs_extra[] = { 1, 100, 2500, 7500, 9500, 9999 };
	struct khist_qs_stats st;
	u64 i, sum = 0, got, want, err;
	unsigned int j;

	KUNIT_ASSERT_TRUE(test, qs && s);
	for (i = 0; i < n; i++) {
		khist_qs_record(qs, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	khist_qs_snap_init(s);
	khist_qs_snap_add(s, qs);
	for (j = 0; j < KHIST_QS_N_QUANTILES + ARRAY_SIZE(qs_extra); j++) {
		u32 q = j < KHIST_QS_N_QUANTILES ?
				khist_qs_quantiles[j] :
				qs_extra[j - KHIST_QS_N_QUANTILES];

		got = khist_qs_quantile(s, q);
		want = exact_q(v, n, q);
		err = got > want ? got - want : want - got;
		if (err > want / 128) {
			kunit_info(test, "%s: q=%u got %llu want %llu", what, q,
				   (unsigned long long)got,
				   (unsigned long long)want);
			KUNIT_FAIL(test, "quantile off by more than 1/128");
		}
		/* Below 128 every bucket is one value wide: exact. */
		if (want < 128)
			KUNIT_EXPECT_EQ(test, got, want);
	}
	KUNIT_EXPECT_EQ(test, khist_qs_quantile(s, 10000), v[n - 1]);
	khist_qs_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.count, n);
	KUNIT_EXPECT_EQ(test, st.sum, sum);
	KUNIT_EXPECT_EQ(test, st.min, v[0]);
	KUNIT_EXPECT_EQ(test, st.max, v[n - 1]);
	KUNIT_EXPECT_EQ(test, st.mean, sum / n);
	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	var = sqrtl(var / n);
	/*
	 * Midpoints are within 1/128 of each value, and the scaling of
	 * values above 2^31 costs at most max >> 30 more.
	 */
	err = fabsl((long double)st.stddev - var);
	if (err > var / 100 + (v[n - 1] >> 30) + 1) {
		kunit_info(test, "%s: stddev %llu want %.1Lf", what,
			   (unsigned long long)st.stddev, var);
		KUNIT_FAIL(test, "stddev off");
	}
	free(qs);
	free(s);
}

static void qs_quantiles_offline(struct kunit *test)
{
	u64 n = 20000, i, st = 42;
	u64 *v = calloc(n, sizeof(*v));

	KUNIT_ASSERT_NOT_NULL(test, v);
	for (i = 0; i < n; i++) /* 1..n in a scrambled order */
		v[i] = (i * 7919) % n + 1;
	check_set(test, "linear", v, n);
	for (i = 0; i < n; i++) /* log-uniform over the whole u64 range */
		v[i] = lcg(&st) >> (lcg(&st) >> 58);
	check_set(test, "log-uniform", v, n);
	for (i = 0; i < n; i++) /* latencies: 1us..100ms in ns, heavy tail */
		v[i] = 1000 + (lcg(&st) >> 40) % 50000 +
		       (i % 100 == 0 ? (lcg(&st) >> 30) % 100000000 : 0);
	check_set(test, "latency", v, n);
	for (i = 0; i < n; i++) /* small values, all exact */
		v[i] = lcg(&st) >> 58;
	check_set(test, "small", v, n);
	for (i = 0; i < 7; i++) /* few values */
		v[i] = 1ULL << (9 * i);
	check_set(test, "seven", v, 7);
	v[0] = 0;
	check_set(test, "one zero", v, 1);
	v[0] = U64_MAX;
	v[1] = U64_MAX - 1;
	check_set(test, "top", v, 2);
	free(v);
}

static void qs_empty_and_merge(struct kunit *test)
{
	struct khist_qsketch *a = calloc(1, sizeof(*a));
	struct khist_qsketch *b = calloc(1, sizeof(*b));
	struct khist_qsketch *all = calloc(1, sizeof(*all));
	struct khist_qs_snap *s = malloc(sizeof(*s));
	struct khist_qs_snap *t = malloc(sizeof(*t));
	struct khist_qs_stats st, su;
	u64 x = 7, v;
	int i;

	KUNIT_ASSERT_TRUE(test, a && b && all && s && t);
	khist_qs_snap_init(s);
	khist_qs_snap_add(s, a);
	khist_qs_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.count, 0);
	KUNIT_EXPECT_EQ(test, khist_qs_quantile(s, 5000), 0);
	for (i = 0; i < 5000; i++) {
		v = lcg(&x) >> 40;
		khist_qs_record(i & 1 ? a : b, v);
		khist_qs_record(all, v);
	}
	khist_qs_snap_init(s);
	khist_qs_snap_add(s, a);
	khist_qs_snap_add(s, b);
	khist_qs_snap_init(t);
	khist_qs_snap_add(t, all);
	KUNIT_EXPECT_EQ(test, memcmp(s, t, sizeof(*s)), 0);
	khist_qs_stats(s, &st);
	khist_qs_stats(t, &su);
	KUNIT_EXPECT_EQ(test, memcmp(&st, &su, sizeof(st)), 0);
	free(a);
	free(b);
	free(all);
	free(s);
	free(t);
}

#define QS_THREADS 4
#define QS_PER_THREAD 200000

static void *qs_writer(void *arg)
{
	struct khist_qsketch *qs = arg;
	u64 i;

	for (i = 1; i <= QS_PER_THREAD; i++)
		khist_qs_record(qs, i);
	return NULL;
}

/* Concurrent writers lose nothing; min and max races resolve right. */
static void qs_concurrent(struct kunit *test)
{
	struct khist_qsketch *qs = calloc(1, sizeof(*qs));
	struct khist_qs_snap *s = malloc(sizeof(*s));
	pthread_t th[QS_THREADS];
	struct khist_qs_stats st;
	int i;

	KUNIT_ASSERT_TRUE(test, qs && s);
	for (i = 0; i < QS_THREADS; i++)
		KUNIT_ASSERT_EQ(test,
				pthread_create(&th[i], NULL, qs_writer, qs), 0);
	for (i = 0; i < QS_THREADS; i++)
		pthread_join(th[i], NULL);
	khist_qs_snap_init(s);
	khist_qs_snap_add(s, qs);
	khist_qs_stats(s, &st);
	KUNIT_EXPECT_EQ(test, st.count, (u64)QS_THREADS * QS_PER_THREAD);
	KUNIT_EXPECT_EQ(test, st.sum,
			(u64)QS_THREADS * QS_PER_THREAD * (QS_PER_THREAD + 1) /
				2);
	KUNIT_EXPECT_EQ(test, st.min, 1);
	KUNIT_EXPECT_EQ(test, st.max, QS_PER_THREAD);
	free(qs);
	free(s);
}

static void qs_text(struct kunit *test)
{
	struct khist_qsketch *qs = calloc(1, sizeof(*qs));
	struct khist_qs_snap *s = malloc(sizeof(*s));
	char buf[512], small[12];
	int i, len;

	KUNIT_ASSERT_TRUE(test, qs && s);
	/* 1..100: every value below 128 has its own bucket. */
	for (i = 100; i >= 1; i--)
		khist_qs_record(qs, i);
	khist_qs_snap_init(s);
	khist_qs_snap_add(s, qs);
	len = khist_qs_format(buf, sizeof(buf), "lat", true, s);
	/* clang-format off */
	KUNIT_EXPECT_STREQ(test, buf,
			   "lat.p50:         50  lat.p90:         90  lat.p99:         99  lat.p99.9:        100  lat.max:        100");
	/* clang-format on */
	KUNIT_EXPECT_EQ(test, len, (int)strlen(buf));
	/* mean 50 (5050 / 100), stddev sqrt(833.25) = 28. */
	khist_qs_format(buf, sizeof(buf), "lat", false, s);
	/* clang-format off */
	KUNIT_EXPECT_STREQ(test, buf,
			   "lat.count:        100  lat.min:          1  lat.mean:         50  lat.max:        100  lat.stddev:         28");
	/* clang-format on */
	len = khist_qs_format(small, sizeof(small), "lat", false, s);
	KUNIT_EXPECT_EQ(test, len, (int)sizeof(small) - 1);
	KUNIT_EXPECT_EQ(test, strlen(small), sizeof(small) - 1);
	free(qs);
	free(s);
}

static struct kunit_case qsketch_cases[] = {
	KUNIT_CASE(qs_bucket_bounds),
	KUNIT_CASE(qs_quantiles_offline),
	KUNIT_CASE(qs_empty_and_merge),
	KUNIT_CASE(qs_concurrent),
	KUNIT_CASE(qs_text),
	{},
};

static struct kunit_suite qsketch_suite = {
	.name = "khist_qsketch",
	.test_cases = qsketch_cases,
};

kunit_test_suite(qsketch_suite);
