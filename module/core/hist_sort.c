// SPDX-License-Identifier: GPL-2.0
/*
 * hist_sort.c - entry order of `hist` output (see hist_sort.h).
 */
#include "core_env.h"
#include "hist_sort.h"

static bool is_str_field(const struct khist_field_desc *fd)
{
	return fd->kind == KHIST_FK_STRING || fd->kind == KHIST_FK_DYNSTRING ||
	       fd->kind == KHIST_FK_RELSTRING || fd->kind == KHIST_FK_PTRSTRING;
}

static void key_cmp(struct khist_hcmp *c, const struct khist_hkey *k)
{
	const struct khist_bfield *f = k->f;
	const struct khist_field_desc *fd = f->field;

	c->where = k->offset;
	if (f->flags & KHIST_HF_STACKTRACE) {
		c->kind = KHIST_HCMP_NONE;
	} else if (!fd || f->kind == KHIST_BF_CPU) {
		c->kind = KHIST_HCMP_INT;
		c->size = k->size;
		c->is_signed = f->is_signed;
	} else if (is_str_field(fd)) {
		c->kind = KHIST_HCMP_STR;
		c->size = k->size;
	} else {
		c->kind = KHIST_HCMP_INT;
		c->size = fd->size;
		c->is_signed = fd->is_signed;
	}
}

/**
 * khist_hsorter_init() - the comparisons `hist` sorts a trigger's entries by
 * @s:  filled in
 * @sp: the bound trigger
 *
 * Context: any.
 */
void khist_hsorter_init(struct khist_hsorter *s,
			const struct khist_hist_spec *sp)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->key_size = sp->key_size;
	s->n_keys = sp->n_sort ? sp->n_sort : 1;
	for (i = 0; i < s->n_keys && i < sp->n_sort; i++) {
		const struct khist_hsort *hs = &sp->sort[i];
		struct khist_hcmp *c = &s->k[i];

		if (hs->src == KHIST_SORT_KEY) {
			key_cmp(c, &sp->keys[hs->idx]);
		} else if (hs->src == KHIST_SORT_VAL && hs->fig) {
			c->kind = KHIST_HCMP_FIG;
			c->fig = hs->fig;
			c->where = hs->idx;
		} else {
			c->kind = KHIST_HCMP_SUM;
			c->where = hs->src == KHIST_SORT_VAL ? hs->idx : 0;
		}
		c->descending = hs->descending;
	}
}

/**
 * khist_hsorter_needs_figs() - does a sort key read khist_hrow.figs?
 * @s: from khist_hsorter_init()
 *
 * Context: any.
 * Return: true when the caller must fill each row's @figs before sorting.
 */
bool khist_hsorter_needs_figs(const struct khist_hsorter *s)
{
	unsigned int i;

	for (i = 0; i < s->n_keys; i++)
		if (s->k[i].kind == KHIST_HCMP_FIG)
			return true;
	return false;
}

static u64 low_bytes(const u8 *p, unsigned int size, bool sgn)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	switch (size) {
	case 1:
		return sgn ? (u64)(s64)(s8)v : (u8)v;
	case 2:
		return sgn ? (u64)(s64)(s16)v : (u16)v;
	case 4:
		return sgn ? (u64)(s64)(s32)v : (u32)v;
	default:
		return v;
	}
}

static int cmp3_u(u64 a, u64 b)
{
	return a > b ? 1 : (a < b ? -1 : 0);
}

static int cmp3_s(s64 a, s64 b)
{
	return a > b ? 1 : (a < b ? -1 : 0);
}

static int cmp_one(const struct khist_hsorter *s, unsigned int n,
		   const struct khist_hrow *a, const struct khist_hrow *b)
{
	const struct khist_hcmp *c = &s->k[n];
	const u8 *ka = a->key + c->where, *kb = b->key + c->where;
	u64 va, vb;
	int ret;

	switch (c->kind) {
	case KHIST_HCMP_SUM:
		ret = cmp3_u(a->sums[c->where], b->sums[c->where]);
		break;
	case KHIST_HCMP_FIG:
		ret = cmp3_u(a->figs[n], b->figs[n]);
		break;
	case KHIST_HCMP_INT:
		if (c->size != 1 && c->size != 2 && c->size != 4 &&
		    c->size != 8) {
			ret = 0;
			break;
		}
		va = low_bytes(ka, c->size, c->is_signed);
		vb = low_bytes(kb, c->size, c->is_signed);
		ret = c->is_signed ? cmp3_s((s64)va, (s64)vb) : cmp3_u(va, vb);
		break;
	case KHIST_HCMP_STR:
		ret = strncmp((const char *)ka, (const char *)kb, c->size);
		break;
	default:
		ret = 0;
		break;
	}
	return c->descending ? -ret : ret;
}

/* Count a comparison; let the caller's relax run every so many. */
static void cmp_tick(struct khist_hsorter *s)
{
	if (s->relax && ++s->n_cmp >= KHIST_HSORT_YIELD) {
		s->n_cmp = 0;
		s->relax();
	}
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct khist_hrow *a = *(const struct khist_hrow *const *)pa;
	const struct khist_hrow *b = *(const struct khist_hrow *const *)pb;

	cmp_tick(a->s);
	return cmp_one(a->s, a->s->cur, a, b);
}

static int cmp_bytes(const void *pa, const void *pb)
{
	const struct khist_hrow *a = *(const struct khist_hrow *const *)pa;
	const struct khist_hrow *b = *(const struct khist_hrow *const *)pb;

	cmp_tick(a->s);
	return memcmp(a->key, b->key, a->s->key_size);
}

/* Re-sort every run of rows equal on the first key, by the second. */
static void sort_runs(struct khist_hsorter *s, struct khist_hrow **rows,
		      unsigned int n)
{
	unsigned int i, start = 0, run = 1;

	for (i = 0; i + 1 < n; i++) {
		s->cur = 0;
		if (!cmp_rows(&rows[i], &rows[i + 1])) {
			run++;
			/* The last pair closes its run below. */
			if (i + 2 < n)
				continue;
		}
		if (run > 1) {
			s->cur = 1;
			sort(&rows[start], run, sizeof(*rows), cmp_rows, NULL);
		}
		start = i + 1;
		run = 1;
	}
	s->cur = 0;
}

/**
 * khist_hist_sort() - put rows in the order ftrace prints them
 * @s:    from khist_hsorter_init()
 * @rows: the rows; each row's @s must point at @s
 * @n:    number of rows
 *
 * Context: process context (sort() may take a while for big maps).
 */
void khist_hist_sort(struct khist_hsorter *s, struct khist_hrow **rows,
		     unsigned int n)
{
	if (n < 2)
		return;
	sort(rows, n, sizeof(*rows), cmp_bytes, NULL);
	s->cur = 0;
	sort(rows, n, sizeof(*rows), cmp_rows, NULL);
	if (s->n_keys > 1)
		sort_runs(s, rows, n);
}
