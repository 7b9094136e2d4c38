// SPDX-License-Identifier: GPL-2.0
/*
 * filter_eval.c - run a compiled event filter against one record
 * (see filter_eval.h).
 *
 * Everything here is on the event fast path: no allocation, no lock, no
 * recursion, and every access to the record is bounds-checked.
 *
 * The string matchers reproduce the results of Linux 6.12 exactly, quirks
 * included (see Documentation/filters.rst, "Compatibility notes"): a string
 * is described by a pointer and the length the kernel would use for it
 * (the field size for char[N], the __data_loc length, strlen + 1 for
 * char * and 16 for comm), plus the number of bytes that may really be
 * read, which is never more than what lies inside the record.
 */
#include "core_env.h"
#include "filter_eval.h"

/*
 * A string operand: @len is the kernel's notion of its length, 0 meaning
 * "up to the NUL"; @avail bytes from @s may be read.
 */
struct fstr {
	const char *s;
	size_t len;
	size_t avail;
};

static size_t fstr_strlen(const struct fstr *x)
{
	return strnlen(x->s, x->avail);
}

/* Byte @i of the string, NUL past the readable end. */
static unsigned char fstr_at(const struct fstr *x, size_t i)
{
	return i < x->avail ? (unsigned char)x->s[i] : 0;
}

/* strncmp(s, pat, n) == 0, reading @s only where allowed. */
static bool fstr_prefix_eq(const struct fstr *x, const char *pat, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = fstr_at(x, i);

		if (c != (unsigned char)pat[i])
			return false;
		if (!c)
			return true;
	}
	return true;
}

static bool match_full(const struct fstr *x, const struct khist_fpred *p)
{
	if (!x->len)
		return fstr_strlen(x) == p->pat_len &&
		       !memcmp(x->s, p->pat, p->pat_len);
	if (x->len < p->pat_len)
		return false;
	/* The pattern's NUL stops the comparison at pat_len + 1 at most. */
	return fstr_prefix_eq(x, p->pat, min_t(size_t, x->len, p->pat_len + 1));
}

static bool match_front(const struct fstr *x, const struct khist_fpred *p)
{
	if (x->len && x->len < p->pat_len)
		return false;
	return fstr_prefix_eq(x, p->pat, p->pat_len);
}

/* Search @n bytes of @x for the pattern, without stopping at NULs. */
static bool mem_find(const char *s, size_t n, const char *pat, size_t plen)
{
	size_t i;

	if (!plen)
		return true;
	for (i = 0; i + plen <= n; i++)
		if (!memcmp(s + i, pat, plen))
			return true;
	return false;
}

static bool match_middle(const struct fstr *x, const struct khist_fpred *p)
{
	if (!x->len)
		return mem_find(x->s, fstr_strlen(x), p->pat, p->pat_len);
	return mem_find(x->s, min(x->len, x->avail), p->pat, p->pat_len);
}

static bool match_end(const struct fstr *x, const struct khist_fpred *p)
{
	size_t slen;

	/* The kernel takes len - 1 as the string length, whatever the NULs. */
	if (!x->len)
		return false;
	slen = x->len - 1;
	if (slen < p->pat_len || slen > x->avail)
		return false;
	return !memcmp(x->s + slen - p->pat_len, p->pat, p->pat_len);
}

/*
 * Character class at @cls (just after the '['), tested against @c.
 * Returns 1 or 0 and sets *@used to the bytes consumed up to and
 * including the closing ']', or -1 if the class is malformed (then the
 * '[' is an ordinary character).
 */
static int glob_class(const char *cls, unsigned char c, size_t *used)
{
	bool inverted = cls[0] == '!';
	bool hit = false;
	size_t k = inverted;
	unsigned char lo = cls[k++];

	do {
		unsigned char hi = lo;

		if (!lo)
			return -1;
		if (cls[k] == '-' && cls[k + 1] != ']') {
			hi = cls[k + 1];
			if (!hi)
				return -1;
			k += 2;
		}
		if (lo <= c && c <= hi)
			hit = true;
		lo = cls[k++];
	} while (lo != ']');
	*used = k;
	return hit != inverted;
}

/**
 * khist_filter_glob() - shell-style match of a whole bounded string
 * @pat: NUL-terminated pattern: '*', '?', '[...]' (with '!' to complement
 *       and a-b ranges) and '\' to quote the next character
 * @str: the string; it ends at its first NUL or after @len bytes
 * @len: bytes of @str that may be read
 *
 * The same language and results as the kernel's glob_match(): a '*' is
 * retried one byte further on mismatch (one level of backtracking is
 * enough), so the time is at most strlen(@pat) * @len steps.
 *
 * Context: any, NMI included; no allocation.
 * Return: true if @pat matches all of @str.
 */
bool khist_filter_glob(const char *pat, const char *str, size_t len)
{
	size_t pi = 0, si = 0, star_pi = 0, star_si = 0;
	bool star = false;

	for (;;) {
		unsigned char c = si < len ? (unsigned char)str[si] : 0;
		unsigned char d = pat[pi++];
		size_t used;
		int r;

		switch (d) {
		case '*':
			if (!pat[pi])
				return true;
			star = true;
			star_pi = pi;
			star_si = si;
			continue;
		case '?':
			if (!c)
				return false;
			si++;
			continue;
		case '[':
			if (!c)
				return false;
			r = glob_class(pat + pi, c, &used);
			if (r > 0) {
				pi += used;
				si++;
				continue;
			}
			if (r == 0)
				goto retry;
			break; /* malformed: a literal '[' */
		case '\\':
			d = pat[pi];
			if (d)
				pi++;
			break;
		}
		if (c == d) {
			if (!d)
				return true;
			si++;
			continue;
		}
retry:
		if (!c || !star)
			return false;
		pi = star_pi;
		si = ++star_si;
	}
}

static bool match_str(const struct fstr *x, const struct khist_fpred *p)
{
	/* a glob stops at the string's end, or at the array's */
	size_t glob_len = x->len ? min(x->len, x->avail) : x->avail;
	bool hit;

	switch (p->match) {
	case KHIST_FMATCH_FULL:
		hit = match_full(x, p);
		break;
	case KHIST_FMATCH_FRONT:
		hit = match_front(x, p);
		break;
	case KHIST_FMATCH_MIDDLE:
		hit = match_middle(x, p);
		break;
	case KHIST_FMATCH_END:
		hit = match_end(x, p);
		break;
	default:
		hit = khist_filter_glob(p->pat, x->s, glob_len);
		break;
	}
	return hit ^ p->negate;
}

/* Read an unsigned integer of @size bytes at @off, if inside the record. */
static bool rec_uint(const u8 *rec, unsigned int rec_len, u32 off,
		     unsigned int size, u64 *out)
{
	u8 b1;
	u16 b2;
	u32 b4;
	u64 b8;

	if (off > rec_len || size > rec_len - off)
		return false;
	switch (size) {
	case 1:
		b1 = rec[off];
		*out = b1;
		return true;
	case 2:
		memcpy(&b2, rec + off, 2);
		*out = b2;
		return true;
	case 4:
		memcpy(&b4, rec + off, 4);
		*out = b4;
		return true;
	case 8:
		memcpy(&b8, rec + off, 8);
		*out = b8;
		return true;
	}
	return false;
}

/* Keep the low @size bytes of @v, sign-extended when @is_signed. */
static u64 fit(u64 v, unsigned int size, bool is_signed)
{
	unsigned int sh = 64 - 8 * size;

	if (!size || size >= 8)
		return v;
	if (is_signed)
		return (u64)((s64)(v << sh) >> sh);
	return (v << sh) >> sh;
}

static bool cmp_int(const struct khist_fpred *p, u64 raw)
{
	u64 a = fit(raw, p->size, p->is_signed);
	u64 b = fit(p->val, p->size, p->is_signed);

	switch (p->op) {
	case KHIST_FOP_LT:
		return p->is_signed ? (s64)a < (s64)b : a < b;
	case KHIST_FOP_LE:
		return p->is_signed ? (s64)a <= (s64)b : a <= b;
	case KHIST_FOP_GT:
		return p->is_signed ? (s64)a > (s64)b : a > b;
	case KHIST_FOP_GE:
		return p->is_signed ? (s64)a >= (s64)b : a >= b;
	case KHIST_FOP_BAND:
		return a & b;
	}
	return false;
}

static bool mask_test(const unsigned long *mask, unsigned int nbits,
		      unsigned int cpu)
{
	if (cpu >= nbits)
		return false;
	return (mask[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

/* A CPU number compared with a mask of two CPUs or more (or none). */
static bool cpu_vs_mask(const struct khist_fpred *p, unsigned int nbits,
			unsigned int cpu)
{
	switch (p->op) {
	case KHIST_FOP_NE:
		return true;
	case KHIST_FOP_BAND:
		return mask_test(p->mask, nbits, cpu);
	}
	return false;
}

static bool cpu_cmp(const struct khist_fpred *p, int cpu)
{
	int v = (int)p->val;

	switch (p->op) {
	case KHIST_FOP_EQ:
		return cpu == v;
	case KHIST_FOP_NE:
		return cpu != v;
	case KHIST_FOP_LT:
		return cpu < v;
	case KHIST_FOP_LE:
		return cpu <= v;
	case KHIST_FOP_GT:
		return cpu > v;
	case KHIST_FOP_GE:
		return cpu >= v;
	}
	return false;
}

/* Word @w of the cpumask stored in @buf (@n readable bytes), 0 past it. */
static unsigned long rec_mask_word(const u8 *buf, size_t n, unsigned int w)
{
	size_t at = (size_t)w * sizeof(unsigned long);
	unsigned long v = 0;

	if (at < n)
		memcpy(&v, buf + at, min(n - at, sizeof(unsigned long)));
	return v;
}

static unsigned long last_word_bits(unsigned int nbits, unsigned int w)
{
	unsigned int rest = nbits - w * BITS_PER_LONG;

	return rest >= BITS_PER_LONG ? ~0UL : (1UL << rest) - 1;
}

static bool cpumask_field(const struct khist_fpred *p, unsigned int nbits,
			  const u8 *rec, unsigned int rec_len)
{
	unsigned int w, words = DIV_ROUND_UP(nbits, BITS_PER_LONG);
	bool equal = true, meet = false, has = false, other = false;
	u64 item;
	u32 loc, len;
	size_t n;

	if (!rec_uint(rec, rec_len, p->offset, 4, &item))
		return false;
	loc = item & 0xffff;
	len = item >> 16;
	if (loc > rec_len)
		return false;
	n = rec_len - loc;
	if (len)
		n = min_t(size_t, n, len);

	for (w = 0; w < words; w++) {
		unsigned long keep = last_word_bits(nbits, w);
		unsigned long v = rec_mask_word(rec + loc, n, w) & keep;

		if (p->kind == KHIST_FP_CPUMASK) {
			if (v != (p->mask[w] & keep))
				equal = false;
			if (v & p->mask[w])
				meet = true;
			continue;
		}
		if (w == p->val / BITS_PER_LONG) {
			unsigned long bit = 1UL << (p->val % BITS_PER_LONG);

			has = v & bit;
			v &= ~bit;
		}
		if (v)
			other = true;
	}

	if (p->kind == KHIST_FP_CPUMASK) {
		switch (p->op) {
		case KHIST_FOP_EQ:
			return equal;
		case KHIST_FOP_NE:
			return !equal;
		case KHIST_FOP_BAND:
			return meet;
		}
		return false;
	}
	switch (p->op) {
	case KHIST_FOP_EQ:
		return has && !other;
	case KHIST_FOP_NE:
		return !has || other;
	case KHIST_FOP_BAND:
		return has;
	}
	return false;
}

/* Locate a __data_loc / __rel_loc string; false if it is not all inside. */
static bool rec_dynstr(const struct khist_fpred *p, const u8 *rec,
		       unsigned int rec_len, struct fstr *x)
{
	u64 item;
	size_t start;

	if (!rec_uint(rec, rec_len, p->offset, 4, &item))
		return false;
	start = item & 0xffff;
	if (p->src == KHIST_FSTR_REL)
		start += (size_t)p->offset + 4;
	if (start > rec_len)
		return false;
	x->s = (const char *)rec + start;
	x->len = item >> 16;
	x->avail = rec_len - start;
	if (x->len > x->avail)
		return false;
	if (x->len)
		x->avail = x->len;
	return true;
}

static bool eval_str(const struct khist_fpred *p, const u8 *rec,
		     unsigned int rec_len, const struct khist_filter_ctx *ctx)
{
	static const char empty[KHIST_FILTER_COMM_LEN];
	struct fstr x;
	u64 addr;

	switch (p->src) {
	case KHIST_FSTR_STATIC:
		if (p->offset > rec_len || p->field_len > rec_len - p->offset)
			return false;
		x.s = (const char *)rec + p->offset;
		x.len = p->field_len;
		x.avail = p->field_len;
		/* char buf[] (size 0, e.g. ftrace/print): up to the NUL */
		if (!p->field_len)
			x.avail = rec_len - p->offset;
		break;
	case KHIST_FSTR_DYN:
	case KHIST_FSTR_REL:
		if (!rec_dynstr(p, rec, rec_len, &x))
			return false;
		break;
	case KHIST_FSTR_COMM:
		x.s = ctx->comm ? ctx->comm : empty;
		x.len = KHIST_FILTER_COMM_LEN;
		x.avail = KHIST_FILTER_COMM_LEN;
		break;
	default:
		/* char *: a failed copy is "no match", even for != */
		if (!ctx->fetch_str || !ctx->strbuf ||
		    !rec_uint(rec, rec_len, p->offset, p->size, &addr))
			return false;
		if (ctx->fetch_str(ctx->priv, ctx->strbuf, (unsigned long)addr,
				   KHIST_FILTER_STRBUF,
				   p->src == KHIST_FSTR_UPTR) < 0)
			return false;
		ctx->strbuf[KHIST_FILTER_STRBUF - 1] = '\0';
		x.s = ctx->strbuf;
		x.len = strlen(ctx->strbuf) + 1;
		x.avail = x.len;
		break;
	}
	return match_str(&x, p);
}

static bool eval_pred(const struct khist_filter *f, const struct khist_fpred *p,
		      const u8 *rec, unsigned int rec_len,
		      const struct khist_filter_ctx *ctx)
{
	u64 raw;

	switch (p->kind) {
	case KHIST_FP_EQ:
		if (!rec_uint(rec, rec_len, p->offset, p->size, &raw))
			return false;
		return (raw == fit(p->val, p->size, false)) ^ p->negate;
	case KHIST_FP_CMP:
		if (!rec_uint(rec, rec_len, p->offset, p->size, &raw))
			return false;
		return cmp_int(p, raw);
	case KHIST_FP_SCALAR_MASK:
		if (!rec_uint(rec, rec_len, p->offset, p->size, &raw))
			return false;
		if ((unsigned int)raw >= f->nr_cpus)
			return false;
		return cpu_vs_mask(p, f->nr_cpus, (unsigned int)raw);
	case KHIST_FP_CPU:
		return cpu_cmp(p, ctx->cpu);
	case KHIST_FP_CPU_MASK:
		return cpu_vs_mask(p, f->nr_cpus, (unsigned int)ctx->cpu);
	case KHIST_FP_CPUMASK:
	case KHIST_FP_CPUMASK_CPU:
		return cpumask_field(p, f->nr_cpus, rec, rec_len);
	case KHIST_FP_STR:
		return eval_str(p, rec, rec_len, ctx);
	case KHIST_FP_FUNC:
		if (!rec_uint(rec, rec_len, p->offset, p->size, &raw))
			return false;
		return (raw >= p->val && raw < p->val2) ^
		       (p->op == KHIST_FOP_NE);
	}
	return false;
}

/**
 * khist_filter_match() - does a record pass a filter?
 * @f:       compiled filter; NULL passes every record
 * @rec:     the record (common header first)
 * @rec_len: bytes of @rec that may be read
 * @ctx:     CPU, task name and char * access for the pseudo-fields;
 *           NULL reads as CPU 0, an empty name and no char * access
 *
 * Walks the predicate program forwards: each predicate either jumps to a
 * later one or to the match / no-match end, so at most f->nr_preds
 * predicates run. Reads outside [@rec, @rec + @rec_len) never happen; a
 * predicate that would need them is false.
 *
 * Context: any, NMI included; no allocation, no lock, no recursion.
 * Return: true if the record matches.
 */
bool khist_filter_match(const struct khist_filter *f, const void *rec,
			unsigned int rec_len,
			const struct khist_filter_ctx *ctx)
{
	static const struct khist_filter_ctx no_ctx;
	unsigned int i = 0;

	if (!f || !f->nr_preds)
		return true;
	if (!ctx)
		ctx = &no_ctx;
	while (i < f->nr_preds) {
		const struct khist_fpred *p = &f->preds[i];
		unsigned int next;

		next = eval_pred(f, p, rec, rec_len, ctx) ? p->on_true :
							    p->on_false;
		/* The compiler only emits forward jumps; stay safe anyway. */
		if (unlikely(next <= i))
			return false;
		i = next;
	}
	return i == f->nr_preds;
}
