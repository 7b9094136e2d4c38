// SPDX-License-Identifier: GPL-2.0
/*
 * qsketch.c - reading the per-entry distributions of qsketch.h: bucket
 * bounds, merged copies, quantiles, statistics and their `hist` text.
 */
#include "core_env.h"
#include "qsketch.h"

const u16 khist_qs_quantiles[KHIST_QS_N_QUANTILES] = { 5000, 9000, 9900, 9990,
						       10000 };
const char *const khist_qs_quantile_names[KHIST_QS_N_QUANTILES] = {
	"p50", "p90", "p99", "p99.9", "max"
};

/* What .stats prints, in khist_qs_figures() order. */
static const char *const kh_qs_stat_names[KHIST_QS_N_QUANTILES] = {
	"count", "min", "mean", "max", "stddev"
};

/**
 * khist_qs_bucket_bounds() - the values a bucket holds
 * @idx: bucket, below KHIST_QS_BUCKETS
 * @lo:  smallest value of the bucket
 * @hi:  largest value of the bucket
 *
 * Context: any.
 */
void khist_qs_bucket_bounds(unsigned int idx, u64 *lo, u64 *hi)
{
	unsigned int e;

	if (idx < KHIST_QS_SUB) {
		*lo = idx;
		*hi = idx;
		return;
	}
	e = idx / KHIST_QS_SUB - 1;
	*lo = (u64)(idx % KHIST_QS_SUB + KHIST_QS_SUB) << e;
	*hi = *lo + ((1ULL << e) - 1);
}

/**
 * khist_qs_snap_init() - make a copy empty
 * @s: copy
 *
 * Context: any.
 */
void khist_qs_snap_init(struct khist_qs_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->min = U64_MAX;
}

/**
 * khist_qs_snap_add() - merge a live sketch into a copy
 * @s:  copy, from khist_qs_snap_init()
 * @qs: sketch (may be updated meanwhile)
 *
 * The copy's count is the number of values in the buckets it read, so
 * ranks stay consistent with the buckets; the exact count of the sketch
 * may be a few values ahead while updates run.
 *
 * Context: any.
 */
void khist_qs_snap_add(struct khist_qs_snap *s, const struct khist_qsketch *qs)
{
	u64 mx = (u64)atomic64_read(&qs->max);
	u64 mn = ~(u64)atomic64_read(&qs->nmin);
	unsigned int i;
	u32 c;

	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		c = (u32)atomic_read(&qs->b[i]);
		s->b[i] += c;
		s->count += c;
	}
	s->sum += (u64)atomic64_read(&qs->sum);
	if (mn < s->min)
		s->min = mn;
	if (mx > s->max)
		s->max = mx;
}

/* The midpoint of a bucket, clamped into [min, max]. */
static u64 kh_qs_rep(const struct khist_qs_snap *s, unsigned int idx)
{
	u64 lo, hi, v;

	khist_qs_bucket_bounds(idx, &lo, &hi);
	v = lo + (hi - lo) / 2;
	if (s->max >= s->min)
		v = clamp(v, s->min, s->max);
	return v;
}

/**
 * khist_qs_quantile() - a quantile of a copy, nearest-rank definition
 * @s:      copy
 * @per10k: quantile in parts per 10000 (5000: median, 10000: max)
 *
 * The value of rank ceil(n * q) (1-based) among the n values: the
 * midpoint of its bucket clamped into [min, max], so within 1/128 of the
 * exact value; 10000 gives the exact maximum.
 *
 * Context: any.
 * Return: the quantile; 0 for an empty copy.
 */
u64 khist_qs_quantile(const struct khist_qs_snap *s, u32 per10k)
{
	u64 n = s->count, rank, acc = 0;
	unsigned int i;

	if (!n)
		return 0;
	if (per10k >= 10000)
		return s->max;
	if (n <= div64_u64(U64_MAX, 10000))
		rank = div64_u64(n * per10k + 9999, 10000);
	else
		rank = div64_u64(n, 10000) * per10k;
	if (!rank)
		rank = 1;
	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		acc += s->b[i];
		if (acc >= rank)
			return kh_qs_rep(s, i);
	}
	return s->max;
}

/* floor(sqrt(x)), bit by bit. */
static u64 kh_isqrt(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * Adds a * b / n to the fraction *q + *rem / n, for b <= n < 2^62,
 * without a 128-bit product: long division, one bit of @a at a time
 * (read side only). Keeping the remainder makes a sum of many small
 * terms exact.
 */
static void kh_muldiv_add(u64 a, u64 b, u64 n, u64 *q, u64 *rem)
{
	u64 qq = 0, r = 0;
	int bit;

	for (bit = 63; bit >= 0; bit--) {
		qq <<= 1;
		r <<= 1;
		if (a & (1ULL << bit))
			r += b;
		while (r >= n) {
			r -= n;
			qq++;
		}
	}
	*q += qq;
	*rem += r;
	if (*rem >= n) {
		*rem -= n;
		(*q)++;
	}
}

/**
 * khist_qs_stats() - count, sum, min, max, mean and stddev of a copy
 * @s:  copy
 * @st: filled in
 *
 * @st->mean is the exact sum divided by the count (the sum wraps modulo
 * 2^64 like every hist value). The standard deviation is computed from
 * the bucket midpoints, each within 1/128 of its values, around their own
 * mean (so a wrapped sum does not spoil it), after scaling the values
 * down to 31 bits: above 2^31 it is rounded to that scale.
 *
 * Context: any.
 */
void khist_qs_stats(const struct khist_qs_snap *s, struct khist_qs_stats *st)
{
	u64 n = s->count, var = 0, mean_s = 0, rem = 0, d, r, c;
	unsigned int i, shift = 0, cshift = 0;

	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	st->count = n;
	st->sum = s->sum;
	st->min = s->min;
	st->max = s->max;
	st->mean = div64_u64(s->sum, n);
	if (fls64(s->max) > 31)
		shift = fls64(s->max) - 31;
	/* Counts are only weights: keep them below 2^62 for kh_muldiv_add(). */
	if (fls64(n) > 61)
		cshift = fls64(n) - 61;
	n >>= cshift;
	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		c = s->b[i] >> cshift;
		if (c)
			kh_muldiv_add(kh_qs_rep(s, i) >> shift, c, n, &mean_s,
				      &rem);
	}
	rem = 0;
	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		c = s->b[i] >> cshift;
		if (!c)
			continue;
		r = kh_qs_rep(s, i) >> shift;
		d = r > mean_s ? r - mean_s : mean_s - r;
		/* d < 2^31: d * d fits, the weighted sum stays below 2^62. */
		kh_muldiv_add(d * d, c, n, &var, &rem);
	}
	st->stddev = kh_isqrt(var) << shift;
}

/**
 * khist_qs_figures() - the figures a .stats or .quantiles value shows
 * @s:         the entry's copy
 * @quantiles: .quantiles (else .stats)
 * @v:         filled with KHIST_QS_N_QUANTILES figures
 *
 * .stats: count, min, mean, max, stddev; .quantiles: p50, p90, p99,
 * p99.9, max.
 *
 * Context: any.
 * Return: the names of the figures, in the order of @v.
 */
const char *const *khist_qs_figures(const struct khist_qs_snap *s,
				    bool quantiles, u64 *v)
{
	struct khist_qs_stats st;
	unsigned int i;

	if (quantiles) {
		for (i = 0; i < KHIST_QS_N_QUANTILES; i++)
			v[i] = khist_qs_quantile(s, khist_qs_quantiles[i]);
		return khist_qs_quantile_names;
	}
	khist_qs_stats(s, &st);
	v[0] = st.count;
	v[1] = st.min;
	v[2] = st.mean;
	v[3] = st.max;
	v[4] = st.stddev;
	return kh_qs_stat_names;
}

/**
 * khist_qs_figure_find() - which figure of a value a name is
 * @quantiles: .quantiles (else .stats)
 * @name:      the figure's name as hist prints it ("p99.9", "stddev")
 * @len:       bytes of @name (not NUL-terminated)
 *
 * Context: any.
 * Return: its index in khist_qs_figures()'s @v, or -1.
 */
int khist_qs_figure_find(bool quantiles, const char *name, size_t len)
{
	const char *const *names = quantiles ? khist_qs_quantile_names :
					       kh_qs_stat_names;
	unsigned int i;

	for (i = 0; i < KHIST_QS_N_QUANTILES; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return i;
	return -1;
}

/**
 * khist_qs_figure_name() - the name hist prints for a figure
 * @quantiles: .quantiles (else .stats)
 * @idx:       index in khist_qs_figures()'s @v, below KHIST_QS_N_QUANTILES
 *
 * Context: any.
 * Return: the name, e.g. "p99.9" or "stddev".
 */
const char *khist_qs_figure_name(bool quantiles, unsigned int idx)
{
	if (idx >= KHIST_QS_N_QUANTILES)
		return "";
	return quantiles ? khist_qs_quantile_names[idx] : kh_qs_stat_names[idx];
}

/**
 * khist_qs_format() - the `hist` text of a .stats or .quantiles value
 * @buf:       destination, NUL-terminated when @size > 0
 * @size:      bytes of @buf
 * @name:      the value's name (e.g. "lat")
 * @quantiles: .quantiles (else .stats)
 * @s:         the entry's copy
 *
 * The fields follow the value's own " lat: N" column, each in the same
 * "name: %10llu" form and separated like ftrace's values:
 *   lat.count: N  lat.min: N  lat.mean: N  lat.max: N  lat.stddev: N
 *   lat.p50: N  lat.p90: N  lat.p99: N  lat.p99.9: N  lat.max: N
 *
 * Context: any.
 * Return: bytes written, without the NUL (output is truncated to fit).
 */
int khist_qs_format(char *buf, size_t size, const char *name, bool quantiles,
		    const struct khist_qs_snap *s)
{
	u64 v[KHIST_QS_N_QUANTILES];
	const char *const *names;
	unsigned int i;
	int len = 0;

	if (size)
		buf[0] = '\0';
	names = khist_qs_figures(s, quantiles, v);
	for (i = 0; i < KHIST_QS_N_QUANTILES; i++)
		len += scnprintf(buf + len, size - len, "%s%s.%s: %10llu",
				 i ? "  " : "", name, names[i],
				 (unsigned long long)v[i]);
	return len;
}
