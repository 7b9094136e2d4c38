// SPDX-License-Identifier: GPL-2.0
/*
 * synth_trace.c - firing a synthetic event (khist_synth_trace(), any
 * context) and the text of its records in `trace`.
 *
 * Firing sizes the record first (dynamic strings and stacks are copied
 * after the fixed part), reserves it through the common fast path - which
 * writes to the ring buffer when the event is enabled, or to a per-CPU
 * scratch slot when only its triggers want it - fills it and commits it,
 * which runs the event's triggers and filter. Strings and stacks are read
 * with the fault-tolerant accessors; nothing is allocated or locked.
 */
#include <linux/preempt.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
/* gfp flag names; needs tracepoint.h first for TRACE_DEFINE_ENUM() */
#include <trace/events/mmflags.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "events/events.h"
#include "synth_internal.h"

/* What a string that cannot be read is recorded as (ftrace's text). */
static const char synth_fault[] = "(fault)";

/*
 * Read the string at @src, at most @max bytes, into @dst (or nowhere when
 * @dst is NULL, to measure it): a word at a time, a byte at a time once a
 * word faults (the string may end just before an unmapped page).
 * Returns its length, @max when no NUL came first, or -EFAULT.
 */
static long synth_str_read(char *dst, const char *src, unsigned int max)
{
	unsigned int i = 0, n, j;
	bool bytes = false;
	char tmp[8], *d;

	while (i < max) {
		n = bytes ? 1 : min_t(unsigned int, sizeof(tmp), max - i);
		d = dst ? dst + i : tmp;
		if (copy_from_kernel_nofault(d, src + i, n)) {
			if (bytes || n == 1)
				return -EFAULT;
			bytes = true;
			continue;
		}
		for (j = 0; j < n; j++)
			if (!d[j])
				return i + j;
		i += n;
	}
	return max;
}

/* Bytes (NUL included) a dynamic string takes: at most the bound. */
static unsigned int synth_str_size(const char *s)
{
	long n = synth_str_read(NULL, s, KHIST_SYNTH_STR_MAX - 1);

	return n < 0 ? sizeof(synth_fault) : n + 1;
}

/* Copy a string into @size bytes at @dst (NUL included), NUL-padded. */
static void synth_str_copy(char *dst, const char *src, unsigned int size)
{
	long n = synth_str_read(dst, src, size - 1);

	if (n < 0)
		n = strscpy(dst, synth_fault, size);
	if (n < 0)
		n = size - 1;
	memset(dst + n, 0, size - n);
}

/* Bytes a stack takes in the record: its count word, then the frames. */
static unsigned int synth_stack_size(const unsigned long *st)
{
	unsigned long n, frame;
	unsigned int i;

	if (copy_from_kernel_nofault(&n, st, sizeof(n)))
		return sizeof(long);
	n = min_t(unsigned long, n, KHIST_SYNTH_STACK_DEPTH);
	for (i = 0; i < n; i++)
		if (copy_from_kernel_nofault(&frame, st + 1 + i,
					     sizeof(frame)) ||
		    !frame)
			break;
	return (i + 1) * sizeof(long);
}

/* @dst may be unaligned: it follows the strings before it. */
static void synth_stack_copy(void *dst, const unsigned long *st,
			     unsigned int size)
{
	unsigned long n;

	if (copy_from_kernel_nofault(dst, st, size)) {
		memset(dst, 0, size);
		size = sizeof(long);
	}
	/* The count says what was kept. */
	n = size / sizeof(long) - 1;
	memcpy(dst, &n, sizeof(n));
}

static void synth_store_num(void *slot, unsigned int size, u64 v)
{
	memset(slot, 0, sizeof(u64));
	switch (size) {
	case 1:
		*(u8 *)slot = v;
		break;
	case 2:
		*(u16 *)slot = v;
		break;
	case 4:
		*(u32 *)slot = v;
		break;
	default:
		*(u64 *)slot = v;
		break;
	}
}

/* Field @i's value: @vals[i], or @vals[@idx[i]] with an index map. */
static u64 synth_val(const u64 *vals, const unsigned int *idx, unsigned int i)
{
	return vals[idx ? idx[i] : i];
}

static void synth_fill(const struct khist_synth_def *def, void *rec,
		       const u64 *vals, const unsigned int *idx,
		       const u16 *lens)
{
	unsigned int i, off = def->fixed_size;
	const struct khist_synth_field *f;
	void *slot, *src;
	u64 v;

	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		slot = rec + f->offset;
		v = synth_val(vals, idx, i);
		src = (void *)(unsigned long)v;
		if (!f->is_dynamic && !f->is_string) {
			synth_store_num(slot, f->size, v);
			continue;
		}
		if (!f->is_dynamic) {
			synth_str_copy(slot, src, KHIST_SYNTH_STR_MAX);
			continue;
		}
		if (f->is_stack)
			synth_stack_copy(rec + off, src, lens[i]);
		else
			synth_str_copy(rec + off, src, lens[i]);
		/* The __data_loc word: length << 16 | offset. */
		synth_store_num(slot, sizeof(u64), (u32)lens[i] << 16 | off);
		off += lens[i];
	}
}

static int synth_trace(struct khist_synth_event *se, const u64 *vals,
		       const unsigned int *idx, unsigned int n)
{
	const struct khist_synth_def *def = se->def;
	u16 lens[KHIST_SYNTH_FIELDS_MAX];
	struct khist_rec_ctx ctx;
	unsigned int i, size;
	void *rec, *src;

	if (unlikely(n != def->nr_fields))
		return -EINVAL;
	if (!READ_ONCE(se->kdef.active))
		return 0;
	size = def->fixed_size;
	for (i = 0; i < n && def->nr_dynamic; i++) {
		if (!def->fields[i].is_dynamic)
			continue;
		src = (void *)(unsigned long)synth_val(vals, idx, i);
		lens[i] = def->fields[i].is_stack ? synth_stack_size(src) :
						    synth_str_size(src);
		size += lens[i];
	}
	/* The level a tracepoint's caller would hold; the header skips it. */
	preempt_disable_notrace();
	rec = khist_rec_reserve(&ctx, &se->kdef, size);
	if (rec) {
		synth_fill(def, rec, vals, idx, lens);
		khist_rec_commit(&ctx);
	}
	preempt_enable_notrace();
	return 0;
}

/**
 * khist_synth_trace() - fire a synthetic event
 * @se:   the event, referenced with khist_synth_get()
 * @vals: one value per field, in field order (see synth.h for strings and
 *        stacks)
 * @n:    entries in @vals; must equal the event's field count
 *
 * When the event is enabled (in any instance), a record is written to the
 * ring buffer; when it has triggers (hists on the synthetic event), they
 * run on the record whether or not it is enabled. An event nobody listens
 * to costs a load and a test.
 *
 * Context: any, including NMI; does not sleep, allocate or lock.
 * Return: 0 (also when nothing listens or the buffer is full), -EINVAL
 * when @n is not the field count.
 */
int khist_synth_trace(struct khist_synth_event *se, const u64 *vals,
		      unsigned int n)
{
	return synth_trace(se, vals, NULL, n);
}
EXPORT_SYMBOL_GPL(khist_synth_trace);

/**
 * khist_synth_trace_idx() - fire a synthetic event with values picked
 * from an array
 * @se:   the event, referenced with khist_synth_get()
 * @vals: the values the indexes point into (a hist action's variable
 *        values, say)
 * @idx:  for each field, in field order, the index of its value in @vals
 * @n:    entries in @idx; must equal the event's field count
 *
 * The same as khist_synth_trace() on { @vals[@idx[0]], @vals[@idx[1]],
 * ... }, without building that array.
 *
 * Context: any, including NMI; does not sleep, allocate or lock.
 * Return: 0, or -EINVAL when @n is not the field count.
 */
int khist_synth_trace_idx(struct khist_synth_event *se, const u64 *vals,
			  const unsigned int *idx, unsigned int n)
{
	return synth_trace(se, vals, idx, n);
}
EXPORT_SYMBOL_GPL(khist_synth_trace_idx);

/* ---- the `trace` text of a record ---- */

static const struct khist_flag_name synth_gfp_names[] = {
	__def_gfpflag_names,
	{ 0, NULL },
};

/* ftrace's flag printer, whose zero masks match whatever is left. */
static void synth_print_gfp(struct khist_out *out, unsigned long flags)
{
	const struct khist_flag_name *t;
	bool first = true;

	for (t = synth_gfp_names; t->name && flags; t++) {
		if ((flags & t->mask) != t->mask)
			continue;
		flags &= ~t->mask;
		khist_out_printf(out, "%s%s", first ? "" : "|", t->name);
		first = false;
	}
	if (flags)
		khist_out_printf(out, "%s0x%lx", first ? "" : "|", flags);
}

static u64 synth_load_num(const void *slot, unsigned int size)
{
	switch (size) {
	case 1:
		return *(const u8 *)slot;
	case 2:
		return *(const u16 *)slot;
	case 4:
		return *(const u32 *)slot;
	default:
		return *(const u64 *)slot;
	}
}

/* A number printed with the conversion of its type, as ftrace does. */
static void synth_print_num(struct khist_out *out,
			    const struct khist_synth_field *f, u64 v,
			    const char *sp)
{
	const char *fmt = khist_synth_field_fmt(f->type);
	const char *name = f->name;

	/*
	 * An unsigned 64-bit field fed from an address (call_site, a pointer
	 * key): a reader without CAP_SYSLOG gets its hashed %p form.
	 */
	if ((!strcmp(fmt, "%llu") || !strcmp(fmt, "%lu")) &&
	    khist_kaddr_hide(out->kaddr, v))
		khist_out_printf(out, "%s=%p%s", name, (void *)(uintptr_t)v,
				 sp);
	else if (!strcmp(fmt, "%lld"))
		khist_out_printf(out, "%s=%lld%s", name, (s64)v, sp);
	else if (!strcmp(fmt, "%d"))
		khist_out_printf(out, "%s=%d%s", name, (int)(u32)v, sp);
	else if (!strcmp(fmt, "%u"))
		khist_out_printf(out, "%s=%u%s", name, (u32)v, sp);
	else if (!strcmp(fmt, "%ld"))
		khist_out_printf(out, "%s=%ld%s", name, (long)v, sp);
	else if (!strcmp(fmt, "%lu"))
		khist_out_printf(out, "%s=%lu%s", name, (unsigned long)v, sp);
	else if (!strcmp(fmt, "%x"))
		khist_out_printf(out, "%s=%x%s", name, (u32)v, sp);
	else
		khist_out_printf(out, "%s=%llu%s", name, v, sp);
}

static void synth_print_stack(struct khist_print_ctx *p,
			      const struct khist_synth_field *f, u32 loc)
{
	unsigned int off = loc & 0xffff, len = loc >> 16, j;
	const void *data = p->rec + off;
	unsigned long addr;

	khist_out_printf(p->out, "%s=STACK:\n", f->name);
	if (off + len > p->size)
		return;
	for (j = 1; j < len / sizeof(long); j++) {
		memcpy(&addr, data + j * sizeof(long), sizeof(addr));
		khist_out_printf(p->out, "=> %pS\n", (void *)addr);
	}
}

/**
 * khist_synth_print() - the `trace` text of a synthetic event's record,
 * after "name: ": "f1=v1 f2=v2 ...", as ftrace prints it
 * @p: the print context
 *
 * Context: process context, khist_event_mutex held (the event cannot go).
 */
void khist_synth_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	const struct khist_synth_field *f;
	const struct khist_synth_def *def;
	struct khist_synth_event *se;
	struct khist_event *ev;
	const char *sp, *s;
	unsigned int i;
	u64 v;

	ev = khist_event_by_id(hdr->type);
	se = ev ? khist_synth_from_event(ev) : NULL;
	if (!se)
		return;
	def = se->def;
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		sp = i + 1 < def->nr_fields ? " " : "";
		if (f->offset + (f->is_string && !f->is_dynamic ?
					 KHIST_SYNTH_STR_MAX :
					 sizeof(u64)) >
		    p->size)
			return;
		v = synth_load_num(p->rec + f->offset, f->size);
		if (f->is_stack) {
			synth_print_stack(p, f, (u32)v);
		} else if (f->is_string && f->is_dynamic) {
			s = khist_rec_dynstr(p, (u32)v);
			khist_out_printf(p->out, "%s=%s%s", f->name, s, sp);
		} else if (f->is_string) {
			s = p->rec + f->offset;
			khist_out_printf(p->out, "%s=%.*s%s", f->name,
					 (int)strnlen(s, KHIST_SYNTH_STR_MAX),
					 s, sp);
		} else {
			synth_print_num(p->out, f, v, sp);
			if (!strcmp(f->type, "gfp_t")) {
				khist_out_printf(p->out, " (");
				synth_print_gfp(p->out, v);
				khist_out_printf(p->out, ")");
			}
		}
	}
}
