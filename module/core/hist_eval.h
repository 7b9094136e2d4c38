/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_eval.h - evaluating a bound hist trigger (hist_bind.h) on one
 * record: the value of a field or expression, the text of a string field,
 * and the compound key, built the way Linux 6.12 lays it out.
 *
 * Everything here reads only the record and the context the caller fills
 * in (timestamp, CPU, comm, captured stack, variable references), never
 * allocates, never locks and never writes outside the caller's buffers, so
 * it may run on the trace event path in any context, NMI included. Every
 * read of the record is bounds-checked against the record size: a corrupt
 * __data_loc / __rel_loc word yields an empty string, never a wild read.
 *
 * Key layout (as the kernel): one slot per key at spec->keys[i].offset,
 * spec->keys[i].size bytes (a multiple of 8), the whole buffer zeroed
 * first. Numbers are stored as u64 (signed fields sign-extended), strings
 * are copied up to the slot size - 1 bytes and NUL-terminated, stacks are
 * KHIST_STACK_DEPTH unsigned longs.
 */
#ifndef _KHIST_CORE_HIST_EVAL_H
#define _KHIST_CORE_HIST_EVAL_H

#include "core_env.h"
#include "hist_bind.h"

struct khist_eval_ctx;

/**
 * typedef khist_eval_ref_fn - value of a variable reference
 * @c: the evaluation context
 * @f: the KHIST_BF_VARREF node
 *
 * Return: the referenced value (the inter-event layer resolves it before
 * the key is inserted; 0 when nothing resolved it).
 */
typedef u64 (*khist_eval_ref_fn)(const struct khist_eval_ctx *c,
				 const struct khist_bfield *f);

/**
 * struct khist_eval_ctx - one record and what surrounds it
 * @rec:     the record, common header first
 * @size:    bytes of @rec that may be read
 * @ts:      common_timestamp, already in the hist's unit (ns or us)
 * @cpu:     common_cpu
 * @comm:    current task's comm (for common_pid.execname variables), or
 *           NULL
 * @stack:   KHIST_STACK_DEPTH return addresses captured for a
 *           common_stacktrace key or variable, zero-padded; NULL if none
 * @ref:     resolver of variable references, or NULL (they read 0)
 * @ref_arg: for @ref
 */
struct khist_eval_ctx {
	const void *rec;
	unsigned int size;
	u64 ts;
	unsigned int cpu;
	const char *comm;
	const unsigned long *stack;
	khist_eval_ref_fn ref;
	void *ref_arg;
};

u64 khist_hist_eval(const struct khist_bfield *f,
		    const struct khist_eval_ctx *c);
const char *khist_hist_eval_str(const struct khist_bfield *f,
				const struct khist_eval_ctx *c,
				unsigned int *max);
unsigned int khist_hist_eval_stack(const struct khist_bfield *f,
				   const struct khist_eval_ctx *c,
				   unsigned long *out);
void khist_hist_key_build(const struct khist_hist_spec *sp,
			  const struct khist_eval_ctx *c, u8 *key);
bool khist_hist_spec_has_stack(const struct khist_hist_spec *sp);
u64 khist_hist_order_base_2(u64 v);
u64 khist_hist_log2_sub(u64 v, unsigned int k);
u64 khist_hist_log2_sub_width(u64 low, unsigned int k);
u64 khist_ns_to_us(u64 ns);

#endif /* _KHIST_CORE_HIST_EVAL_H */
