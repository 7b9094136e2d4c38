// SPDX-License-Identifier: GPL-2.0
/*
 * hist_fetch.c - the fetch plan of a bound hist trigger (see hist_fetch.h).
 */
#include "core_env.h"
#include "hist_fetch.h"

static u8 khist_fetch_int_op(const struct khist_field_desc *fd)
{
	bool sgn = fd->is_signed;

	switch (fd->size) {
	case 1:
		return sgn ? KHIST_FETCH_S8 : KHIST_FETCH_U8;
	case 2:
		return sgn ? KHIST_FETCH_S16 : KHIST_FETCH_U16;
	case 4:
		return sgn ? KHIST_FETCH_S32 : KHIST_FETCH_U32;
	case 8:
		return KHIST_FETCH_U64;
	default:
		return KHIST_FETCH_EVAL;
	}
}

/* Fill @f for @bf; returns false when it must go through the evaluator. */
static bool khist_fetch_make(struct khist_fetch *f,
			     const struct khist_bfield *bf, u32 *min_size)
{
	const struct khist_field_desc *fd = bf->field;

	memset(f, 0, sizeof(*f));
	if (bf->kind == KHIST_BF_CPU) {
		f->op = KHIST_FETCH_CPU;
	} else if (bf->kind == KHIST_BF_FIELD && fd &&
		   fd->kind == KHIST_FK_INT &&
		   !(bf->flags & (KHIST_HF_STRING | KHIST_HF_STACKTRACE))) {
		f->op = khist_fetch_int_op(fd);
		f->src = fd->offset;
		f->size = fd->size;
		if (fd->is_signed && fd->size < sizeof(u64))
			f->shift = 64 - 8 * fd->size;
		if (f->op != KHIST_FETCH_EVAL)
			*min_size = max_t(u32, *min_size,
					  (u32)fd->offset + fd->size);
	}
	if (f->op == KHIST_FETCH_EVAL)
		return false;
	/* The order of the evaluator's modifiers. */
	if ((bf->flags & KHIST_HF_LOG2) && bf->buckets) {
		f->mod = KHIST_FMOD_LOG2_SUB;
		f->buckets = bf->buckets;
	} else if (bf->flags & KHIST_HF_LOG2) {
		f->mod = KHIST_FMOD_LOG2;
	} else if ((bf->flags & KHIST_HF_BUCKET) && bf->buckets) {
		f->mod = KHIST_FMOD_BUCKET;
		f->buckets = bf->buckets;
	}
	return true;
}

/**
 * khist_fetch_plan_init() - work out how a trigger's hits read the record
 * @p:  the plan, filled
 * @sp: the bound trigger
 *
 * Context: any (no allocation).
 */
void khist_fetch_plan_init(struct khist_fetch_plan *p,
			   const struct khist_hist_spec *sp)
{
	unsigned int i, covered = 0;
	bool direct = true;

	memset(p, 0, sizeof(*p));
	p->n_keys = sp->n_keys;
	p->n_vals = sp->n_vals;
	for (i = 0; i < sp->n_keys; i++) {
		const struct khist_hkey *k = &sp->keys[i];

		if (k->size != sizeof(u64) ||
		    !khist_fetch_make(&p->keys[i], k->f, &p->min_size))
			direct = false;
		p->keys[i].dst = k->offset;
		covered += k->size;
	}
	/* Every byte of the key is written: no memset before. */
	p->keys_direct = direct && sp->n_keys && covered == sp->key_size;
	/* vals[0] is the hitcount, counted as 1 by the caller. */
	for (i = 1; i < sp->n_vals; i++)
		khist_fetch_make(&p->vals[i], sp->vals[i], &p->min_size);
}

static unsigned int khist_bfield_reads(const struct khist_bfield *f)
{
	const struct khist_field_desc *fd;
	unsigned int r;

	if (!f)
		return 0;
	r = khist_bfield_reads(f->l) | khist_bfield_reads(f->r);
	fd = f->field;
	if (f->kind != KHIST_BF_FIELD && f->kind != KHIST_BF_STACK)
		return r;
	if (!fd)
		return r; /* common_stacktrace: captured, not read */
	r |= khist_reads_range(fd->offset, fd->size);
	/* A __data_loc payload may be anywhere after the header. */
	if (fd->kind != KHIST_FK_INT && fd->kind != KHIST_FK_STRING &&
	    fd->kind != KHIST_FK_PTRSTRING && fd->kind != KHIST_FK_ARRAY)
		r |= KHIST_READS_FIELDS;
	return r;
}

/**
 * khist_hist_spec_reads() - what of a record a trigger's hits read
 * @sp: the bound trigger
 *
 * Keys, values and variables of the trigger itself; references to other
 * triggers' variables and actions are the inter-event layer's to declare.
 *
 * Context: any.
 * Return: KHIST_READS_* bits.
 */
unsigned int khist_hist_spec_reads(const struct khist_hist_spec *sp)
{
	unsigned int i, r = 0;

	for (i = 0; i < sp->n_keys; i++)
		r |= khist_bfield_reads(sp->keys[i].f);
	for (i = 0; i < sp->n_vals; i++)
		r |= khist_bfield_reads(sp->vals[i]);
	for (i = 0; i < sp->n_vars; i++)
		r |= khist_bfield_reads(sp->vars[i].f);
	return r;
}
