// SPDX-License-Identifier: GPL-2.0
/*
 * hist_eval.c - per-record evaluation of bound hist fields and the
 * compound key (see hist_eval.h). Runs on the trace event path: no
 * allocation, no locks, bounded recursion (expression depth is at most
 * KHIST_SUBEXPR_MAX + 1), every record access bounds-checked.
 */
#include "core_env.h"
#include "hist_eval.h"

/**
 * khist_hist_order_base_2() - the .log2 bucket of a value
 * @v: value
 *
 * ceil(log2(v)); 0 and 1 both give 0, as the kernel's order_base_2().
 *
 * Context: any.
 * Return: the exponent.
 */
u64 khist_hist_order_base_2(u64 v)
{
	return v > 1 ? fls64(v - 1) : 0;
}

/**
 * khist_hist_log2_sub() - the .log2=k bucket of a value (khist extension)
 * @v: value
 * @k: sub-bucket bits, 1 to KHIST_LOG2_SUB_MAX
 *
 * The power of two [2^e, 2^(e+1)) that holds @v is cut into 2^@k equal
 * buckets of 2^(e-@k) values each; where that width would be below one
 * (e <= @k, so also 0 and 1) every value is a bucket of its own.
 *
 * Context: any.
 * Return: the lowest value of the bucket (the key khist stores).
 */
u64 khist_hist_log2_sub(u64 v, unsigned int k)
{
	unsigned int e = v ? fls64(v) - 1 : 0;

	if (e <= k)
		return v;
	return v & ~((1ULL << (e - k)) - 1);
}

/**
 * khist_hist_log2_sub_width() - how many values a .log2=k bucket holds
 * @low: the bucket's lowest value (khist_hist_log2_sub() of any of them)
 * @k:   sub-bucket bits
 *
 * Context: any.
 * Return: the width (the bucket is [@low, @low + width)).
 */
u64 khist_hist_log2_sub_width(u64 low, unsigned int k)
{
	unsigned int e = low ? fls64(low) - 1 : 0;

	return e <= k ? 1 : 1ULL << (e - k);
}

/**
 * khist_ns_to_us() - nanoseconds to microseconds, rounded to nearest
 * @ns: nanoseconds
 *
 * As ftrace's ns2usecs(), which common_timestamp.usecs uses.
 *
 * Context: any.
 * Return: microseconds.
 */
u64 khist_ns_to_us(u64 ns)
{
	return div64_u64(ns + 500, 1000);
}

static bool rec_has(const struct khist_eval_ctx *c, unsigned int off,
		    unsigned int len)
{
	return off <= c->size && len <= c->size - off;
}

/* Integer field of 1, 2, 4 or 8 bytes, widened (sign-extended if signed). */
static u64 read_int(const struct khist_eval_ctx *c,
		    const struct khist_field_desc *fd)
{
	const u8 *p = (const u8 *)c->rec + fd->offset;
	u8 b1;
	u16 b2;
	u32 b4;
	u64 b8;
	bool sgn = fd->kind == KHIST_FK_INT && fd->is_signed;

	if (!rec_has(c, fd->offset, fd->size))
		return 0;
	switch (fd->size) {
	case 1:
		memcpy(&b1, p, 1);
		return sgn ? (u64)(s64)(s8)b1 : b1;
	case 2:
		memcpy(&b2, p, 2);
		return sgn ? (u64)(s64)(s16)b2 : b2;
	case 4:
		memcpy(&b4, p, 4);
		return sgn ? (u64)(s64)(s32)b4 : b4;
	case 8:
		memcpy(&b8, p, 8);
		return b8;
	default:
		return 0;
	}
}

/* Start and length of a __data_loc / __rel_loc payload, or NULL. */
static const u8 *dyn_payload(const struct khist_eval_ctx *c,
			     const struct khist_field_desc *fd,
			     unsigned int *len)
{
	unsigned int base = 0, off;
	u32 item;

	if (!rec_has(c, fd->offset, 4))
		return NULL;
	memcpy(&item, (const u8 *)c->rec + fd->offset, 4);
	if (fd->kind == KHIST_FK_RELSTRING)
		base = fd->offset + 4;
	off = base + (item & 0xffff);
	*len = item >> 16;
	if (!rec_has(c, off, *len))
		return NULL;
	return (const u8 *)c->rec + off;
}

static u64 apply_mods(const struct khist_bfield *f, u64 v)
{
	if ((f->flags & KHIST_HF_LOG2) && f->buckets)
		return khist_hist_log2_sub(v, f->buckets);
	if (f->flags & KHIST_HF_LOG2)
		return khist_hist_order_base_2(v);
	if ((f->flags & KHIST_HF_BUCKET) && f->buckets)
		return div64_u64(v, f->buckets) * f->buckets;
	return v;
}

static u64 eval_binop(const struct khist_bfield *f,
		      const struct khist_eval_ctx *c)
{
	u64 a = khist_hist_eval(f->l, c);
	u64 b = khist_hist_eval(f->r, c);

	switch (f->op) {
	case '+':
		return a + b;
	case '-':
		return a - b;
	case '*':
		return a * b;
	default:
		/* As the kernel: a run-time division by zero gives -1. */
		return b ? div64_u64(a, b) : U64_MAX;
	}
}

/**
 * khist_hist_eval() - the numeric value of a bound field or expression
 * @f: the node
 * @c: the record and its context
 *
 * Integers are widened to u64 (signed ones sign-extended) and arithmetic
 * wraps modulo 2^64, as in the kernel. .log2 and .buckets=N are applied.
 * String fields have no numeric value here (0): khist does not sum string
 * addresses (a documented deviation).
 *
 * Context: any, NMI included.
 * Return: the value.
 */
u64 khist_hist_eval(const struct khist_bfield *f,
		    const struct khist_eval_ctx *c)
{
	const struct khist_field_desc *fd = f->field;
	u64 v = 0;

	switch (f->kind) {
	case KHIST_BF_FIELD:
		if (f->flags & KHIST_HF_STRING)
			return 0;
		if (fd->kind == KHIST_FK_INT || fd->kind == KHIST_FK_PTRSTRING)
			v = read_int(c, fd);
		break;
	case KHIST_BF_TIMESTAMP:
		v = c->ts;
		break;
	case KHIST_BF_CPU:
		v = c->cpu;
		break;
	case KHIST_BF_HITCOUNT:
		v = 1;
		break;
	case KHIST_BF_CONST:
		return f->constant;
	case KHIST_BF_VARREF:
		if (f->ref_const)
			return f->constant;
		if (f->l && (f->flags & KHIST_HF_ALIAS))
			return khist_hist_eval(f->l, c);
		return c->ref ? c->ref(c, f) : 0;
	case KHIST_BF_UMINUS:
		return -khist_hist_eval(f->l, c);
	case KHIST_BF_BINOP:
		return eval_binop(f, c);
	default:
		return 0;
	}
	return apply_mods(f, v);
}

/**
 * khist_hist_eval_str() - the text of a string field
 * @f:   a node with KHIST_HF_STRING
 * @c:   the record and its context
 * @max: set to the most bytes that may be read from the result (the text
 *       may end earlier at a NUL)
 *
 * Static char[N] fields give their N bytes, __data_loc and __rel_loc
 * strings their payload (bounds-checked), common_pid.execname the comm.
 *
 * Context: any, NMI included.
 * Return: pointer into the record (or the comm), or "" with @max 0.
 */
const char *khist_hist_eval_str(const struct khist_bfield *f,
				const struct khist_eval_ctx *c,
				unsigned int *max)
{
	const struct khist_field_desc *fd = f->field;
	const u8 *p;

	*max = 0;
	if ((f->flags & KHIST_HF_EXECNAME) && c->comm) {
		*max = 16;
		return c->comm;
	}
	if (!fd || f->kind != KHIST_BF_FIELD)
		return "";
	switch (fd->kind) {
	case KHIST_FK_STRING:
		if (!rec_has(c, fd->offset, fd->size))
			return "";
		*max = fd->size;
		return (const char *)c->rec + fd->offset;
	case KHIST_FK_DYNSTRING:
	case KHIST_FK_RELSTRING:
		p = dyn_payload(c, fd, max);
		if (!p) {
			*max = 0;
			return "";
		}
		return (const char *)p;
	default:
		return "";
	}
}

/**
 * khist_hist_eval_stack() - a stack for a stack key or variable
 * @f:   a node with KHIST_HF_STACKTRACE
 * @c:   the record and its context
 * @out: KHIST_STACK_DEPTH entries, zero-padded
 *
 * common_stacktrace / stacktrace read @c->stack (captured by the caller);
 * a long[] field of the record holds a count word followed by the
 * entries, copied up to KHIST_STACK_DEPTH and within the record.
 *
 * Context: any, NMI included.
 * Return: the number of entries copied.
 */
unsigned int khist_hist_eval_stack(const struct khist_bfield *f,
				   const struct khist_eval_ctx *c,
				   unsigned long *out)
{
	const struct khist_field_desc *fd = f->field;
	unsigned long n = 0;
	unsigned int len, i;
	const u8 *p;

	memset(out, 0, KHIST_STACK_SIZE);
	if (!fd) {
		if (!c->stack)
			return 0;
		memcpy(out, c->stack, KHIST_STACK_SIZE);
		for (i = 0; i < KHIST_STACK_DEPTH && out[i]; i++)
			;
		return i;
	}
	p = dyn_payload(c, fd, &len);
	if (!p || len < sizeof(n))
		return 0;
	memcpy(&n, p, sizeof(n));
	n = min_t(unsigned long, n, KHIST_STACK_DEPTH);
	n = min_t(unsigned long, n, (len - sizeof(n)) / sizeof(long));
	memcpy(out, p + sizeof(long), n * sizeof(long));
	return n;
}

static void key_string(const struct khist_hkey *k,
		       const struct khist_eval_ctx *c, u8 *key)
{
	unsigned int max, i;
	const char *s = khist_hist_eval_str(k->f, c, &max);
	char *d = (char *)key + k->offset;

	max = min(max, (unsigned int)k->size - 1);
	for (i = 0; i < max && s[i]; i++)
		d[i] = s[i];
}

/**
 * khist_hist_key_build() - the compound key of one record
 * @sp:  bound trigger
 * @c:   the record and its context
 * @key: sp->key_size bytes, filled (zeroed first)
 *
 * Context: any, NMI included.
 */
void khist_hist_key_build(const struct khist_hist_spec *sp,
			  const struct khist_eval_ctx *c, u8 *key)
{
	unsigned long stack[KHIST_STACK_DEPTH];
	unsigned int i;
	u64 v;

	memset(key, 0, sp->key_size);
	for (i = 0; i < sp->n_keys; i++) {
		const struct khist_hkey *k = &sp->keys[i];

		if (k->f->flags & KHIST_HF_STACKTRACE) {
			khist_hist_eval_stack(k->f, c, stack);
			memcpy(key + k->offset, stack,
			       min_t(unsigned int, k->size, KHIST_STACK_SIZE));
		} else if (k->f->flags & KHIST_HF_STRING) {
			key_string(k, c, key);
		} else {
			v = khist_hist_eval(k->f, c);
			memcpy(key + k->offset, &v, sizeof(v));
		}
	}
}

static bool bf_has_stack(const struct khist_bfield *f)
{
	if (!f)
		return false;
	if (f->kind == KHIST_BF_STACK && !f->field)
		return true;
	return bf_has_stack(f->l) || bf_has_stack(f->r);
}

/**
 * khist_hist_spec_has_stack() - whether a hit needs a captured stack
 * @sp: bound trigger
 *
 * Context: any.
 * Return: true if a key or variable is common_stacktrace / stacktrace.
 */
bool khist_hist_spec_has_stack(const struct khist_hist_spec *sp)
{
	unsigned int i;

	for (i = 0; i < sp->n_keys; i++)
		if (bf_has_stack(sp->keys[i].f))
			return true;
	for (i = 0; i < sp->n_vars; i++)
		if (bf_has_stack(sp->vars[i].f))
			return true;
	return false;
}
