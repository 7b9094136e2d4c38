/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_eval.h - the compiled form of an event filter and its evaluator.
 *
 * filter_parse.c turns the text of a filter (the `filter` file, or the
 * `if ...` of a trigger) into a struct khist_filter: a flat array of
 * predicates in the order they appear in the text. Each predicate carries
 * two forward jumps, one taken when it is true and one when it is false;
 * a jump to index nr_preds means "the record matches", to nr_preds + 1
 * "it does not". '&&', '||', '!' and parentheses are all folded into
 * these jumps at compile time, so evaluation is a single forward walk:
 * at most nr_preds predicate tests, no recursion, no allocation, no lock.
 *
 * khist_filter_match() may run in any context, NMI included. Every read
 * from the record is checked against the record length the caller gives;
 * a predicate whose bytes are not inside the record is false. Strings
 * behind a char * field are copied by a caller-supplied, fault-safe
 * callback into a caller-supplied scratch buffer.
 */
#ifndef _KHIST_CORE_FILTER_EVAL_H
#define _KHIST_CORE_FILTER_EVAL_H

#include "core_env.h"

/* Bytes copied from behind a char * field (the kernel's ustring buffer). */
#define KHIST_FILTER_STRBUF 1024
/* Bytes of the task name that the comm/COMM pseudo-field looks at. */
#define KHIST_FILTER_COMM_LEN 16

/**
 * struct khist_filter_ctx - what a predicate may need besides the record
 * @cpu:       CPU the event happened on (cpu, CPU, common_cpu)
 * @comm:      name of the current task, KHIST_FILTER_COMM_LEN bytes
 *             (comm, COMM); NULL reads as the empty string
 * @fetch_str: copy the NUL-terminated string at address @src (a user
 *             address when @user) into @dst without faulting; at most
 *             @size bytes. Return a negative value when the memory cannot
 *             be read, anything else on success. NULL: char * fields never
 *             match.
 * @priv:      passed to @fetch_str
 * @strbuf:    scratch of KHIST_FILTER_STRBUF bytes for @fetch_str, private
 *             to this evaluation (per CPU and per context level in the
 *             kernel); NULL: char * fields never match.
 */
struct khist_filter_ctx {
	int cpu;
	const char *comm;
	long (*fetch_str)(void *priv, char *dst, unsigned long src, size_t size,
			  bool user);
	void *priv;
	char *strbuf;
};

/* Comparison operators, in the order the parser tries them. */
enum khist_fop {
	KHIST_FOP_GLOB, /* ~  */
	KHIST_FOP_NE, /* != */
	KHIST_FOP_EQ, /* == */
	KHIST_FOP_LE, /* <= */
	KHIST_FOP_LT, /* <  */
	KHIST_FOP_GE, /* >= */
	KHIST_FOP_GT, /* >  */
	KHIST_FOP_BAND, /* &  */
	KHIST_FOP_NR,
};

/* What a predicate tests. */
enum khist_fpred_kind {
	KHIST_FP_FALSE, /* nothing to compare: always false */
	KHIST_FP_EQ, /* (field == val) ^ negate, @size bytes */
	KHIST_FP_CMP, /* field <op> val, @size bytes, @is_signed */
	KHIST_FP_SCALAR_MASK, /* integer field taken as a CPU vs @mask */
	KHIST_FP_CPU, /* ctx->cpu <op> (int)val */
	KHIST_FP_CPU_MASK, /* ctx->cpu vs @mask */
	KHIST_FP_CPUMASK, /* cpumask field vs @mask */
	KHIST_FP_CPUMASK_CPU, /* cpumask field vs the one CPU in val */
	KHIST_FP_STR, /* string field vs @pat */
	KHIST_FP_FUNC, /* long field inside [val, val2) */
};

/* Where the string of a KHIST_FP_STR predicate lives. */
enum khist_fstr_src {
	KHIST_FSTR_STATIC, /* char[N] in the record */
	KHIST_FSTR_DYN, /* __data_loc: offset from the record start */
	KHIST_FSTR_REL, /* __rel_loc: offset from the end of the u32 */
	KHIST_FSTR_PTR, /* char * to kernel memory */
	KHIST_FSTR_UPTR, /* char * read as a user address (.ustring) */
	KHIST_FSTR_COMM, /* ctx->comm */
};

/* How a KHIST_FP_STR pattern is matched. */
enum khist_fmatch {
	KHIST_FMATCH_FULL, /* the whole string */
	KHIST_FMATCH_FRONT, /* "x*" */
	KHIST_FMATCH_MIDDLE, /* "*x*" */
	KHIST_FMATCH_END, /* "*x" */
	KHIST_FMATCH_GLOB, /* anything else with * ? [ or \ */
};

/**
 * struct khist_fpred - one compiled predicate
 * @kind:      enum khist_fpred_kind
 * @op:        enum khist_fop
 * @size:      bytes of the integer field (1, 2, 4 or 8)
 * @is_signed: compare as signed
 * @negate:    invert the result (!= on equality, leading '!' of a ~ glob)
 * @src:       enum khist_fstr_src
 * @match:     enum khist_fmatch
 * @offset:    offset of the field in the record
 * @field_len: size of a char[N] field
 * @on_true:   index of the next predicate when this one is true
 * @on_false:  index of the next predicate when this one is false
 * @val:       literal, CPU number, or function start
 * @val2:      function end (exclusive)
 * @pat:       NUL-terminated pattern (KHIST_FP_STR)
 * @pat_len:   strlen(@pat)
 * @mask:      CPU mask of struct khist_filter.nr_cpus bits
 */
struct khist_fpred {
	u8 kind;
	u8 op;
	u8 size;
	u8 is_signed;
	u8 negate;
	u8 src;
	u8 match;
	u32 offset;
	u32 field_len;
	u32 on_true;
	u32 on_false;
	u64 val;
	u64 val2;
	char *pat;
	u32 pat_len;
	unsigned long *mask;
};

/**
 * struct khist_ffast - one predicate of a filter's direct form
 * @offset:   offset of the integer field in the record
 * @size:     its bytes (1, 2, 4 or 8), read zero-extended
 * @shift:    64 - 8 * @size to sign-extend a signed field, else 0
 * @invert:   the predicate is the opposite of the range test
 * @on_true:  as in struct khist_fpred
 * @on_false: as in struct khist_fpred
 * @mask:     bits of the field tested (~0, or the constant of '&')
 * @lo:       first value of the range, minus 2^63 for a signed order
 * @span:     last value of the range minus @lo
 *
 * Every integer predicate is one test, ((x & @mask) - @lo <= @span) ^
 * @invert, on the field x read and sign-extended as above: == is the
 * range [c, c], < is [0, c - 1], >= [c, max], and so on (a signed order
 * is the unsigned order of the values with their top bit flipped, i.e.
 * 2^63 added, which @lo absorbs); & is "(x & c) is not in [0, 0]"; an
 * empty range is the full range inverted.
 */
struct khist_ffast {
	u32 offset;
	u8 size;
	u8 shift;
	u8 invert;
	u32 on_true;
	u32 on_false;
	u64 mask;
	u64 lo;
	u64 span;
};

/**
 * struct khist_filter - a compiled event filter
 * @nr_preds: number of predicates; jump targets nr_preds and nr_preds + 1
 *            mean match and no match
 * @fast:     the direct form, one entry per predicate, when every
 *            predicate compares an integer field of the record with a
 *            constant; NULL otherwise (see khist_filter_fast_match())
 * @fast_need: bytes of the record the direct form reads (the end of the
 *            furthest field)
 * @nr_cpus:  width of the CPU masks of CPUS{} predicates
 * @preds:    the predicates, in text order
 * @text:     the filter text as written (NUL-terminated copy)
 * @text_len: strlen(@text)
 * @no_ctx:   no predicate reads the CPU, the task name or a char * string:
 *            the record alone decides (khist_filter_match() needs no ctx)
 * @reads:    what of the record the predicates read (KHIST_READS_*)
 */
struct khist_filter {
	unsigned int nr_preds;
	unsigned int nr_cpus;
	bool no_ctx;
	u8 reads;
	struct khist_fpred *preds;
	struct khist_ffast *fast;
	unsigned int fast_need;
	char *text;
	size_t text_len;
};

bool khist_filter_match(const struct khist_filter *f, const void *rec,
			unsigned int rec_len,
			const struct khist_filter_ctx *ctx);
bool khist_filter_glob(const char *pat, const char *str, size_t len);

/**
 * khist_filter_fast_match() - khist_filter_match() by the direct form
 * @f:   compiled filter with @f->fast set
 * @rec: the record; at least @f->fast_need bytes of it may be read
 *
 * The same answer as khist_filter_match() on every record of
 * @f->fast_need bytes or more (the unit tests and the filter fuzzer check
 * it), without its per-kind dispatch, its bounds check per predicate and
 * its context; per predicate it does a read, a sign extension and one
 * unsigned compare, then the same forward jumps.
 *
 * Context: any, NMI included; no allocation, no lock.
 * Return: true if the record matches.
 */
static inline bool khist_filter_fast_match(const struct khist_filter *f,
					   const void *rec)
{
	const struct khist_ffast *fast = f->fast;
	unsigned int i = 0, n = f->nr_preds;
	const u8 *r = rec;

	while (i < n) {
		const struct khist_ffast *p = &fast[i];
		u64 x;

		switch (p->size) {
		case 1:
			x = r[p->offset];
			break;
		case 2: {
			u16 v;

			memcpy(&v, r + p->offset, 2);
			x = v;
			break;
		}
		case 4: {
			u32 v;

			memcpy(&v, r + p->offset, 4);
			x = v;
			break;
		}
		default:
			memcpy(&x, r + p->offset, 8);
			break;
		}
		x = (u64)((s64)(x << p->shift) >> p->shift);
		i = ((x & p->mask) - p->lo <= p->span) ^ p->invert ?
			    p->on_true :
			    p->on_false;
	}
	return i == n;
}

#endif /* _KHIST_CORE_FILTER_EVAL_H */
