// SPDX-License-Identifier: GPL-2.0
/*
 * fetch.c - one hit of an event probe's target: the probe's record is
 * sized, reserved in the instance's buffer (or scratch, when only the
 * probe's own triggers want it), filled from the target's record and
 * committed, which runs the probe's triggers and filter.
 *
 * Each argument starts from a value (a field of the target's record - a
 * string field gives the string's address -, the task name's address, a
 * constant), follows its dereferences and stores the result: the value
 * itself, memory at it, or a string copied after the fixed part. Memory
 * is read with the fault-tolerant accessors: a fault stores zeroes, or a
 * string of length 0 that `trace` shows as (fault). Nothing is allocated
 * or locked; strings are bounded so that the record fits KHIST_REC_MAX.
 */
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include "events/events.h"
#include "buffer/buffer.h"
#include "eprobe.h"

/*
 * Where kernel and user addresses do not overlap (x86), a "kernel" read
 * of a user address reads user memory, as ftrace's probes do. Where the
 * caller may sleep (a uprobe's handler before it builds the record), a
 * user page that is not resident is faulted in, as the kernel's uprobes
 * do; everywhere else a fault is a fault.
 */
static int ep_read(void *dst, unsigned long addr, size_t n, bool user)
{
	if (IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
	    addr < TASK_SIZE)
		user = true;
	if (user && preemptible())
		return copy_from_user(dst, (const void __user *)addr, n) ?
			       -EFAULT :
			       0;
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)addr,
					      n) ?
			       -EFAULT :
			       0;
	return copy_from_kernel_nofault(dst, (const void *)addr, n) ? -EFAULT :
								      0;
}

/*
 * Copy the string at @addr into @dst (nowhere when NULL: measure it), at
 * most @max bytes with its NUL, a word at a time and a byte at a time
 * once a word faults (the string may end right before an unmapped page).
 * Returns its size with the NUL (@max when cut), or -EFAULT.
 */
static long ep_str(char *dst, unsigned long addr, unsigned int max, bool user)
{
	unsigned int i = 0, n, k;
	bool bytes = false;
	char tmp[8], *d;

	while (i < max) {
		n = bytes ? 1 : min_t(unsigned int, sizeof(tmp), max - i);
		d = dst ? dst + i : tmp;
		if (ep_read(d, addr + i, n, user)) {
			if (bytes || n == 1)
				return -EFAULT;
			bytes = true;
			continue;
		}
		for (k = 0; k < n; k++)
			if (!d[k])
				return i + k + 1;
		i += n;
	}
	if (!max)
		return -EFAULT;
	if (dst)
		dst[max - 1] = '\0';
	return max;
}

/*
 * Probes nest (task, softirq, hardirq, NMI, and a synthetic event fired
 * from a trigger): one symbol buffer per level and CPU keeps the ~660
 * bytes of KSYM_SYMBOL_LEN off the probe's stack.
 */
#define EP_SYM_LEVELS 8

struct ep_sym_bufs {
	int level;
	char buf[EP_SYM_LEVELS][KSYM_SYMBOL_LEN];
};

static DEFINE_PER_CPU(struct ep_sym_bufs, ep_sym_bufs);

/* The name of the symbol at @addr, like ftrace's symstr. */
static long ep_sym(char *dst, unsigned long addr, unsigned int max)
{
	struct ep_sym_bufs *b;
	unsigned int len;
	long ret = -EFAULT;
	int level;

	if (!max)
		return -EFAULT;
	preempt_disable_notrace();
	b = this_cpu_ptr(&ep_sym_bufs);
	/* An interrupt or NMI that nests here takes the next level. */
	level = this_cpu_inc_return(ep_sym_bufs.level) - 1;
	barrier();
	if (level < EP_SYM_LEVELS) {
		len = sprint_symbol(b->buf[level], addr) + 1;
		if (len > max)
			len = max;
		if (dst) {
			memcpy(dst, b->buf[level], len - 1);
			dst[len - 1] = '\0';
		}
		ret = len;
	}
	barrier();
	this_cpu_dec(ep_sym_bufs.level);
	preempt_enable_notrace();
	return ret;
}

/* An unsigned number of @size bytes at @p (records need no alignment). */
static u64 ep_load(const void *p, unsigned int size)
{
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/* The same, sign-extended when @is_signed. */
static long ep_load_long(const void *p, unsigned int size, bool is_signed)
{
	u64 v = ep_load(p, size);
	unsigned int shift = size < 8 ? 64 - size * 8 : 0;

	if (is_signed && shift)
		return (long)((s64)(v << shift) >> shift);
	return (long)v;
}

/* A field's value as the kernel's event probes read it. */
static unsigned long ep_field(const struct khist_field_desc *f, const void *rec,
			      unsigned int size)
{
	const void *p = rec + f->offset;
	u32 loc;

	if (f->offset + min_t(unsigned int, f->size, sizeof(long)) > size)
		return 0;
	switch (f->kind) {
	case KHIST_FK_DYNSTRING:
		loc = ep_load(p, 4);
		return (unsigned long)rec + (loc & 0xffff);
	case KHIST_FK_RELSTRING:
		loc = ep_load(p, 4);
		return (unsigned long)p + (loc & 0xffff);
	case KHIST_FK_STRING:
		return (unsigned long)p;
	case KHIST_FK_PTRSTRING:
		return ep_load(p, sizeof(long));
	}
	if (f->size == 1 || f->size == 2 || f->size == 4)
		return ep_load_long(p, f->size, f->is_signed);
	return ep_load(p, sizeof(long));
}

/* A value of the probed context (kprobes, uprobes). */
static unsigned long ep_regs_value(const struct khist_ep_arg *a,
				   const struct khist_ep_from *s)
{
	struct pt_regs *regs = s->regs;
	unsigned long addr, v;

	switch (a->src) {
	case KHIST_EPS_REG:
		return regs_get_register(regs, a->field);
	case KHIST_EPS_ARG:
		return regs_get_kernel_argument(regs, a->field);
	case KHIST_EPS_EDATA:
		return s->edata ? s->edata[a->field] : 0;
	case KHIST_EPS_RETVAL:
		return regs_return_value(regs);
	case KHIST_EPS_STACK:
		return regs_get_kernel_stack_nth(regs, a->field);
	case KHIST_EPS_USTACK:
		addr = user_stack_pointer(regs) + a->field * sizeof(long);
		return ep_read(&v, addr, sizeof(v), true) ? 0 : v;
	case KHIST_EPS_FOFFS:
		return s->ubase + a->imm;
	default:
		return kernel_stack_pointer(regs);
	}
}

/*
 * The value an argument's dereferences end with, and in *@base the
 * address the last one read from (an array of strings steps from it).
 * False when a dereference faulted.
 */
static bool ep_value(const struct khist_ep_arg *a,
		     const struct khist_ep_from *s, unsigned long *val,
		     unsigned long *base)
{
	unsigned long v;
	unsigned int i;

	switch (a->src) {
	case KHIST_EPS_FIELD:
		v = ep_field(&s->tf[a->field], s->rec, s->size);
		break;
	case KHIST_EPS_REG:
	case KHIST_EPS_ARG:
	case KHIST_EPS_EDATA:
	case KHIST_EPS_RETVAL:
	case KHIST_EPS_STACK:
	case KHIST_EPS_STACKP:
	case KHIST_EPS_USTACK:
	case KHIST_EPS_FOFFS:
		v = ep_regs_value(a, s);
		break;
	case KHIST_EPS_COMM:
		v = (unsigned long)current->comm;
		break;
	case KHIST_EPS_DATA:
		v = (unsigned long)a->data;
		break;
	default:
		v = a->imm;
		break;
	}
	*base = v;
	for (i = 0; i < a->nr_loads; i++) {
		*base = v;
		if (ep_read(&v, v + a->loads[i].offset, sizeof(v),
			    a->loads[i].user))
			return false;
	}
	*val = v;
	return true;
}

/* Where element @k of a string argument is. */
static bool ep_str_addr(const struct khist_ep_arg *a, unsigned long val,
			unsigned long base, unsigned int k, unsigned long *addr)
{
	const struct khist_ep_load *last;

	if (!k) {
		*addr = val + a->store_offset;
		return true;
	}
	if (!a->nr_loads) {
		*addr = val + k * sizeof(long);
		return true;
	}
	/* An array of string pointers: the next pointer, then its string. */
	last = &a->loads[a->nr_loads - 1];
	return !ep_read(addr, base + k * sizeof(long) + last->offset,
			sizeof(*addr), last->user);
}

/* One string element into @dst (NULL: measure); its size or -EFAULT. */
static long ep_str_elem(const struct khist_ep_arg *a, unsigned long val,
			unsigned long base, unsigned int k, char *dst,
			unsigned int room)
{
	unsigned long addr;

	if (a->store == KHIST_EPST_SYMSTR)
		return ep_sym(dst, val, room);
	if (!ep_str_addr(a, val, base, k, &addr))
		return -EFAULT;
	return ep_str(dst, addr, room, a->store_user);
}

/* Bytes the strings of a hit take after the fixed part. */
static unsigned int ep_dyn_size(const struct khist_ep_def *def,
				const struct khist_ep_from *s,
				unsigned int budget)
{
	const struct khist_ep_arg *a;
	unsigned long val, base;
	unsigned int i, k, total = 0;
	long n;

	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		if (a->type->print != KHIST_EPP_STRING)
			continue;
		if (!ep_value(a, s, &val, &base))
			continue;
		for (k = 0; k < (a->count ? a->count : 1); k++) {
			n = ep_str_elem(a, val, base, k, NULL, budget - total);
			if (n > 0)
				total += n;
		}
	}
	return total;
}

static void ep_store_num(void *dst, unsigned int size, u64 v)
{
	u8 v8 = v;
	u16 v16 = v;
	u32 v32 = v;

	switch (size) {
	case 1:
		memcpy(dst, &v8, 1);
		break;
	case 2:
		memcpy(dst, &v16, 2);
		break;
	case 4:
		memcpy(dst, &v32, 4);
		break;
	default:
		memcpy(dst, &v, 8);
		break;
	}
}

static void ep_bitfield(const struct khist_ep_arg *a, void *dst)
{
	unsigned int unused = 64 - a->type->size * 8;
	u64 v = ep_load(dst, a->type->size);

	/* Shift within the container's width, as ftrace does. */
	v <<= unused + a->bf_lshift;
	v >>= unused + a->bf_rshift;
	ep_store_num(dst, a->type->size, v);
}

/*
 * Store one argument at @r (@len bytes reserved); strings go at *@dyn,
 * which moves past them.
 */
static void ep_store(const struct khist_ep_arg *a,
		     const struct khist_ep_from *s, void *r, unsigned int len,
		     unsigned int *dyn)
{
	unsigned int n = a->count ? a->count : 1, es = a->type->size, k;
	unsigned long val, base;
	void *slot = r + a->offset;
	bool ok;
	long got;

	ok = ep_value(a, s, &val, &base);
	for (k = 0; k < n; k++, slot += es) {
		switch (a->store) {
		case KHIST_EPST_RAW:
			if (ok)
				ep_store_num(slot, es, val);
			break;
		case KHIST_EPST_MEM:
			if (!ok || ep_read(slot, val + a->store_offset + k * es,
					   es, a->store_user))
				memset(slot, 0, es);
			break;
		default:
			got = ok ? ep_str_elem(a, val, base, k, r + *dyn,
					       len - *dyn) :
				   -EFAULT;
			if (got < 0)
				got = 0;
			ep_store_num(slot, 4, (u32)(got << 16 | *dyn));
			*dyn += got;
			continue;
		}
		if (a->bitfield)
			ep_bitfield(a, slot);
	}
}

/**
 * khist_ep_build() - one probe record: sized, reserved, filled, committed
 * @def:  the probe's definition
 * @kdef: its event
 * @kev:  the instance's event to record in, or NULL: every instance
 *        where @kdef is attached
 * @s:    where the values come from
 * @hdr:  the probe's own fields after the common header (@def->hdr_size
 *        - KHIST_EP_HDR_SIZE bytes; NULL when none)
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_ep_build(const struct khist_ep_def *def,
		    struct khist_event_def *kdef, struct khist_event *kev,
		    const struct khist_ep_from *s, const void *hdr)
{
	unsigned int i, len, dyn = 0;
	struct khist_rec_ctx ctx;
	void *r;

	if (def->dynamic && def->fixed_size < KHIST_REC_MAX)
		dyn = ep_dyn_size(def, s, KHIST_REC_MAX - def->fixed_size);
	len = def->fixed_size + dyn;
	r = kev ? khist_rec_reserve_ev(&ctx, kev, len) :
		  khist_rec_reserve(&ctx, kdef, len);
	if (!r)
		return;
	memset(r + KHIST_EP_HDR_SIZE, 0, len - KHIST_EP_HDR_SIZE);
	if (hdr)
		memcpy(r + KHIST_EP_HDR_SIZE, hdr,
		       def->hdr_size - KHIST_EP_HDR_SIZE);
	dyn = def->fixed_size;
	for (i = 0; i < def->nr_args; i++)
		ep_store(&def->args[i], s, r, len, &dyn);
	khist_rec_commit(&ctx);
}

/**
 * khist_ep_prefault() - touch the user memory a hit will read, so that
 * the record, built where nothing may sleep, finds it resident
 * @def: the probe's definition
 * @s:   where the values come from
 *
 * Context: process context, may sleep (a uprobe's handler).
 */
void khist_ep_prefault(const struct khist_ep_def *def,
		       const struct khist_ep_from *s)
{
	const struct khist_ep_arg *a;
	unsigned long val, base;
	unsigned int i;
	u8 b;

	might_fault();
	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		if (!ep_value(a, s, &val, &base))
			continue;
		if (a->store == KHIST_EPST_MEM)
			ep_read(&b, val + a->store_offset, 1, a->store_user);
		else if (a->store == KHIST_EPST_STRING)
			ep_str_elem(a, val, base, 0, NULL, KHIST_REC_MAX);
	}
}

/**
 * khist_ep_hit() - the hidden trigger's @call: one hit of the target
 * @t:    the probe's link in this instance
 * @rec:  the target's record, common header first
 * @size: its size
 * @ts:   the hit's timestamp (unused: the buffer stamps the record)
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_ep_hit(struct khist_trigger *t, void *rec, unsigned int size, u64 ts)
{
	struct khist_ep_link *l = container_of(t, struct khist_ep_link, base);
	const struct khist_eprobe *ep = l->ep;
	struct khist_ep_from s = {
		.tf = ep->target->schema.fields,
		.rec = rec,
		.size = size,
	};

	if (!READ_ONCE(l->ev->attached))
		return;
	khist_ep_build(ep->def, NULL, l->ev, &s, NULL);
}
