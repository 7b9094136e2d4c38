/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_fetch.h - the keys and values of a bound hist trigger read straight
 * from the record, when they are plain integer fields (or common_cpu),
 * with .log2 / .buckets applied.
 *
 * khist_hist_eval() walks a bound tree for every key and value of every
 * hit: a call, a switch on the node kind, a bounds check per field, the
 * modifiers, and for the key a memset of the whole key first. Most
 * triggers key on one or two integer fields and sum a few more. A fetch
 * plan, made once when the trigger is created, lists for each of them the
 * offset, the width and signedness, and where the key slot is; on a hit the
 * record's size is checked once against the plan, each field is one
 * load, and the key slots are written whole (8 bytes each), so no memset
 * is needed when the keys cover the key.
 *
 * The results are those of khist_hist_key_build() and khist_hist_eval()
 * byte for byte (the unit tests compare both on every kind of field);
 * anything else (strings, stacks, expressions, references, timestamps) is
 * left to them.
 */
#ifndef _KHIST_CORE_HIST_FETCH_H
#define _KHIST_CORE_HIST_FETCH_H

#include "core_env.h"
#include "hist_bind.h"
#include "hist_eval.h"

/**
 * enum khist_fetch_op - how one key or value is read
 * @KHIST_FETCH_EVAL: not directly: khist_hist_eval() / key building
 * @KHIST_FETCH_U8:   unsigned byte at @src
 * @KHIST_FETCH_S8:   signed byte, sign-extended
 * @KHIST_FETCH_U16:  unsigned 16 bits
 * @KHIST_FETCH_S16:  signed 16 bits
 * @KHIST_FETCH_U32:  unsigned 32 bits
 * @KHIST_FETCH_S32:  signed 32 bits
 * @KHIST_FETCH_U64:  64 bits
 * @KHIST_FETCH_CPU:  common_cpu (the context's CPU)
 */
enum khist_fetch_op {
	KHIST_FETCH_EVAL,
	KHIST_FETCH_U8,
	KHIST_FETCH_S8,
	KHIST_FETCH_U16,
	KHIST_FETCH_S16,
	KHIST_FETCH_U32,
	KHIST_FETCH_S32,
	KHIST_FETCH_U64,
	KHIST_FETCH_CPU,
};

/* Modifier applied after the load. */
enum khist_fetch_mod {
	KHIST_FMOD_NONE,
	KHIST_FMOD_LOG2,
	KHIST_FMOD_BUCKET,
	KHIST_FMOD_LOG2_SUB,
};

/**
 * struct khist_fetch - one key or value
 * @op:      enum khist_fetch_op
 * @mod:     enum khist_fetch_mod
 * @size:    bytes loaded (0 for KHIST_FETCH_CPU)
 * @shift:   64 - 8 * @size for signed fields narrower than 8 bytes, else 0
 * @src:     offset of the field in the record
 * @dst:     offset of the key slot (keys)
 * @buckets: bucket size (KHIST_FMOD_BUCKET), sub-bucket bits k
 *           (KHIST_FMOD_LOG2_SUB)
 */
struct khist_fetch {
	u8 op;
	u8 mod;
	u8 size;
	u8 shift;
	u16 src;
	u16 dst;
	u64 buckets;
};

/**
 * struct khist_fetch_plan - how a hit reads a trigger's keys and values
 * @keys_direct: every key is direct and the keys fill the whole key, so
 *               khist_fetch_key() builds it alone
 * @n_keys:      keys
 * @n_vals:      values, hitcount (vals[0]) included
 * @min_size:    record bytes the direct loads read: a shorter record
 *               takes the evaluator (which reads 0 outside the record)
 * @keys:        the keys
 * @vals:        the values; vals[0] is the hitcount
 */
struct khist_fetch_plan {
	bool keys_direct;
	u8 n_keys;
	u8 n_vals;
	u32 min_size;
	struct khist_fetch keys[KHIST_KEYS_MAX];
	struct khist_fetch vals[KHIST_VALS_MAX + 1];
};

void khist_fetch_plan_init(struct khist_fetch_plan *p,
			   const struct khist_hist_spec *sp);
unsigned int khist_hist_spec_reads(const struct khist_hist_spec *sp);

static __always_inline u64 khist_fetch_load(const struct khist_fetch *f,
					    const struct khist_eval_ctx *c)
{
	const u8 *q = (const u8 *)c->rec + f->src;
	u16 b2;
	u32 b4;
	u64 v;

	/* Widest first: the fewest compares for u64 and 32-bit fields. */
	if (f->size == 8) {
		memcpy(&v, q, 8);
		return v;
	}
	if (f->size == 4) {
		memcpy(&b4, q, 4);
		v = b4;
	} else if (f->size == 2) {
		memcpy(&b2, q, 2);
		v = b2;
	} else if (f->size == 1) {
		v = *q;
	} else {
		return c->cpu;
	}
	/* Signed fields: sign-extended by the shift pair (0 for unsigned). */
	return (u64)((s64)(v << f->shift) >> f->shift);
}

/* The value of a direct fetch (op != KHIST_FETCH_EVAL), modifier applied. */
static __always_inline u64 khist_fetch_one(const struct khist_fetch *f,
					   const struct khist_eval_ctx *c)
{
	u64 v = khist_fetch_load(f, c);

	if (likely(f->mod == KHIST_FMOD_NONE))
		return v;
	if (f->mod == KHIST_FMOD_LOG2)
		return v > 1 ? fls64(v - 1) : 0; /* khist_hist_order_base_2() */
	if (f->mod == KHIST_FMOD_LOG2_SUB) {
		/* khist_hist_log2_sub() */
		unsigned int e = v ? fls64(v) - 1 : 0;

		return e <= f->buckets ? v :
					 v & ~((1ULL << (e - f->buckets)) - 1);
	}
	return div64_u64(v, f->buckets) * f->buckets;
}

/**
 * khist_fetch_key() - build the key straight from the record
 * @p:   the trigger's plan
 * @c:   the record and its context
 * @key: the key buffer (spec->key_size bytes, 8-byte aligned)
 *
 * Context: any, NMI included.
 * Return: true when the key is built; false when the plan cannot
 * (khist_hist_key_build() must do it).
 */
static __always_inline bool khist_fetch_key(const struct khist_fetch_plan *p,
					    const struct khist_eval_ctx *c,
					    u8 *key)
{
	unsigned int i;
	u64 v;

	if (!p->keys_direct || c->size < p->min_size)
		return false;
	/* Slots are 8 bytes at multiples of 8 in an aligned key. */
	for (i = 0; i < p->n_keys; i++) {
		v = khist_fetch_one(&p->keys[i], c);
		*(u64 *)(key + p->keys[i].dst) = v;
	}
	return true;
}

/**
 * khist_fetch_val() - the value of spec->vals[@i] for one record
 * @p:  the trigger's plan
 * @sp: the bound trigger the plan was made for
 * @i:  the value, 1 .. n_vals - 1
 * @c:  the record and its context
 *
 * Context: any, NMI included.
 * Return: what khist_hist_eval(sp->vals[@i], @c) returns.
 */
static __always_inline u64 khist_fetch_val(const struct khist_fetch_plan *p,
					   const struct khist_hist_spec *sp,
					   unsigned int i,
					   const struct khist_eval_ctx *c)
{
	const struct khist_fetch *f = &p->vals[i];

	if (f->op != KHIST_FETCH_EVAL && c->size >= p->min_size)
		return khist_fetch_one(f, c);
	return khist_hist_eval(sp->vals[i], c);
}

#endif /* _KHIST_CORE_HIST_FETCH_H */
