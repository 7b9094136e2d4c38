// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the text form of a record: khist_out, the print helpers of
 * event print formats (flags, symbolic values, dynamic strings) and the
 * line and header layout of `trace`.
 */
#include <linux/hardirq.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include "buffer/buffer.h"

/**
 * khist_out_printf() - append formatted text to a khist_out
 * @out: the buffer
 * @fmt: printf format
 *
 * Unless @out->kaddr, a pointer conversion that would print a kernel
 * address prints the hashed %p form (khist_vsnprintf_kaddr()).
 *
 * Context: process context (printing for a reader).
 */
void khist_out_printf(struct khist_out *out, const char *fmt, ...)
{
	size_t room = out->len < out->size ? out->size - out->len : 0;
	char *dst = room ? out->buf + out->len : NULL;
	va_list ap;

	va_start(ap, fmt);
	if (out->kaddr)
		out->len += vsnprintf(dst, room, fmt, ap);
	else
		out->len += khist_vsnprintf_kaddr(dst, room, fmt, ap);
	va_end(ap);
}
EXPORT_SYMBOL_GPL(khist_out_printf);

static char *khist_scratch_take(struct khist_print_ctx *p, size_t *room)
{
	*room = KHIST_PRINT_SCRATCH - p->used;
	return p->scratch + p->used;
}

/**
 * khist_print_flags() - __print_flags(): names of the bits set in @val
 * @p:     the print context (its scratch holds the text)
 * @val:   the value
 * @delim: put between names
 * @tbl:   masks and names, ended by a NULL name
 *
 * Bits no entry names are printed in hex at the end.
 *
 * Context: process context (printing a record).
 * Return: the text.
 */
const char *khist_print_flags(struct khist_print_ctx *p, unsigned long val,
			      const char *delim,
			      const struct khist_flag_name *tbl)
{
	size_t room, len = 0;
	char *s = khist_scratch_take(p, &room);
	bool first = true;

	if (!room)
		return "";
	s[0] = '\0';
	for (; tbl->name && val; tbl++) {
		if (!tbl->mask || (val & tbl->mask) != tbl->mask)
			continue;
		val &= ~tbl->mask;
		len += scnprintf(s + len, room - len, "%s%s",
				 first ? "" : delim, tbl->name);
		first = false;
	}
	if (val)
		len += scnprintf(s + len, room - len, "%s0x%lx",
				 first ? "" : delim, val);
	p->used += len + 1 < room ? len + 1 : room;
	return s;
}
EXPORT_SYMBOL_GPL(khist_print_flags);

/**
 * khist_print_symbolic() - __print_symbolic(): the name of a value
 * @p:   the print context
 * @val: the value
 * @tbl: values and names, ended by a NULL name
 *
 * Context: process context (printing a record).
 * Return: the name, or the value in hex.
 */
const char *khist_print_symbolic(struct khist_print_ctx *p, unsigned long val,
				 const struct khist_flag_name *tbl)
{
	size_t room, len;
	char *s;

	for (; tbl->name; tbl++)
		if (tbl->mask == val)
			return tbl->name;
	s = khist_scratch_take(p, &room);
	if (!room)
		return "";
	len = scnprintf(s, room, "0x%lx", val);
	p->used += len + 1 < room ? len + 1 : room;
	return s;
}
EXPORT_SYMBOL_GPL(khist_print_symbolic);

/**
 * khist_rec_dynstr() - __get_str(): the string a __data_loc field points at
 * @p:   the print context (its record and size)
 * @loc: the field's value (length << 16 | offset)
 *
 * Context: process context (printing a record).
 * Return: the string, or "" when @loc points outside the record.
 */
const char *khist_rec_dynstr(struct khist_print_ctx *p, unsigned int loc)
{
	unsigned int off = loc & 0xffff, len = loc >> 16;
	const char *s = (const char *)p->rec + off;

	if (!len || off + len > p->size || s[len - 1] != '\0')
		return "";
	return s;
}
EXPORT_SYMBOL_GPL(khist_rec_dynstr);

#define KHIST_ENTRIES_FMT \
	"# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n#\n"

static const char khist_trace_columns[] =
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

/**
 * khist_ringbuf_header() - the comment block at the top of `trace`
 * @out: where it goes
 * @rb:  the ring buffer described (the instance's, or its snapshot)
 *
 * Context: process context.
 */
void khist_ringbuf_header(struct khist_out *out, struct trace_buffer *rb)
{
	unsigned long entries = 0, total = 0, n;
	int cpu;

	for_each_online_cpu(cpu) {
		n = ring_buffer_entries_cpu(rb, cpu);
		entries += n;
		total += n + ring_buffer_overrun_cpu(rb, cpu);
	}
	khist_out_printf(out, "# tracer: nop\n#\n");
	khist_out_printf(out, KHIST_ENTRIES_FMT, entries, total,
			 num_online_cpus());
	khist_out_printf(out, "%s", khist_trace_columns);
}
