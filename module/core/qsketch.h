/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qsketch.h - per-entry value distributions of hist values (.stats and
 * .quantiles, a khist extension): a log-linear bucket sketch in the HDR
 * style plus exact count, sum, min and max.
 *
 * Buckets
 *
 *   Values below 2^6 have one bucket each (exact). A value v >= 2^6 with
 *   its highest set bit at position m (6..63) goes to octave e = m - 6,
 *   sub-bucket (v >> e) - 64: every power of two is cut into 64 equal
 *   buckets of width 2^e whose lower bound is at least 2^(e+6). The
 *   representative of a bucket is its midpoint, so a value read back from
 *   the sketch is off by at most half a width: relative error
 *   <= 2^(e-1) / 2^(e+6) = 1/128 (0.79 %), whatever the magnitude.
 *   Quantiles are also clamped into [min, max], which are exact.
 *
 *   (64 - 6 + 1) * 64 = 3776 buckets of 32 bits cover all of u64: one
 *   sketch is 15128 bytes (struct khist_qsketch). The count is the sum
 *   of the buckets; a bucket counter wraps after 2^32 values in the same
 *   bucket of one entry (the sum is 64-bit).
 *
 * Updates (khist_qs_record()) are two relaxed atomic adds (bucket and
 * sum) and, for a new minimum or maximum, a cmpxchg loop: lock-free, NMI-safe, no
 * allocation. An all-zero sketch is empty, so zeroed memory is ready.
 * Readers copy the counters into a struct khist_qs_snap (merging any
 * number of sketches) and compute everything from the copy: quantile
 * ranks are taken against the number of values in the copied buckets, so
 * a copy made during updates is still self-consistent.
 */
#ifndef _KHIST_CORE_QSKETCH_H
#define _KHIST_CORE_QSKETCH_H

#include "core_env.h"

#define KHIST_QS_SUB_BITS 6
#define KHIST_QS_SUB BIT(KHIST_QS_SUB_BITS)
#define KHIST_QS_BUCKETS ((64 - KHIST_QS_SUB_BITS + 1) * KHIST_QS_SUB)

/* Quantiles printed by .quantiles, in parts per 10000. */
#define KHIST_QS_N_QUANTILES 5
extern const u16 khist_qs_quantiles[KHIST_QS_N_QUANTILES];
extern const char *const khist_qs_quantile_names[KHIST_QS_N_QUANTILES];

/**
 * struct khist_qsketch - one distribution, updated concurrently
 * @sum:   sum of the values (wraps modulo 2^64); their number is the sum
 *         of the buckets
 * @nmin:  bitwise NOT of the smallest value (0: none yet)
 * @max:   the largest value
 * @b:     bucket counters, see the top of qsketch.h
 */
struct khist_qsketch {
	atomic64_t sum;
	atomic64_t nmin;
	atomic64_t max;
	atomic_t b[KHIST_QS_BUCKETS];
};

/**
 * struct khist_qs_snap - a private copy of one or more sketches
 * @count: values in the copied buckets
 * @sum:   sum of the values
 * @min:   smallest value (0 when @count is 0)
 * @max:   largest value
 * @b:     bucket counts
 */
struct khist_qs_snap {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 b[KHIST_QS_BUCKETS];
};

/**
 * struct khist_qs_stats - what .stats shows
 * @count:  values
 * @sum:    their sum
 * @min:    smallest
 * @max:    largest
 * @mean:   sum / count, rounded down
 * @stddev: population standard deviation from the bucket midpoints
 */
struct khist_qs_stats {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 mean;
	u64 stddev;
};

/**
 * khist_qs_index() - the bucket of a value
 * @v: value
 *
 * Context: any.
 * Return: 0..KHIST_QS_BUCKETS-1.
 */
static inline unsigned int khist_qs_index(u64 v)
{
	unsigned int e;

	if (v < KHIST_QS_SUB)
		return (unsigned int)v;
	e = fls64(v) - 1 - KHIST_QS_SUB_BITS;
	return (e + 1) * KHIST_QS_SUB + (unsigned int)(v >> e) - KHIST_QS_SUB;
}

/**
 * khist_qs_record() - add one value to a sketch
 * @qs: sketch
 * @v:  value
 *
 * Context: any, NMI included; lock-free (relaxed atomics, cmpxchg loops
 * only for a new minimum or maximum), never allocates.
 */
static inline void khist_qs_record(struct khist_qsketch *qs, u64 v)
{
	s64 cur, old;

	atomic_inc(&qs->b[khist_qs_index(v)]);
	atomic64_add((s64)v, &qs->sum);
	cur = atomic64_read(&qs->nmin);
	while ((u64)cur < ~v) {
		old = atomic64_cmpxchg(&qs->nmin, cur, (s64)~v);
		if (old == cur)
			break;
		cur = old;
	}
	cur = atomic64_read(&qs->max);
	while ((u64)cur < v) {
		old = atomic64_cmpxchg(&qs->max, cur, (s64)v);
		if (old == cur)
			break;
		cur = old;
	}
}

void khist_qs_bucket_bounds(unsigned int idx, u64 *lo, u64 *hi);
void khist_qs_snap_init(struct khist_qs_snap *s);
void khist_qs_snap_add(struct khist_qs_snap *s, const struct khist_qsketch *qs);
u64 khist_qs_quantile(const struct khist_qs_snap *s, u32 per10k);
void khist_qs_stats(const struct khist_qs_snap *s, struct khist_qs_stats *st);
const char *const *khist_qs_figures(const struct khist_qs_snap *s,
				    bool quantiles, u64 *v);
int khist_qs_figure_find(bool quantiles, const char *name, size_t len);
const char *khist_qs_figure_name(bool quantiles, unsigned int idx);
int khist_qs_format(char *buf, size_t size, const char *name, bool quantiles,
		    const struct khist_qs_snap *s);

#endif /* _KHIST_CORE_QSKETCH_H */
