/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schema.h - what the portable core knows about an event: its name and the
 * layout of its record. Produced by the event definitions (the TRACE_EVENT-
 * style macros in include/khist/ and the probes on kernel tracepoints) and
 * consumed by the `format` file, the filter compiler and the hist binder.
 *
 * A record starts with the common header (struct khist_common_hdr below,
 * the same layout as ftrace's struct trace_entry), followed by the event's
 * own fields at the offsets given here.
 */
#ifndef _KHIST_SCHEMA_H
#define _KHIST_SCHEMA_H

#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <kshim/kernel.h> /* the core's userspace builds (tools/include) */
#endif

/**
 * enum khist_field_kind - how a field's bytes are to be read
 * @KHIST_FK_INT:       signed or unsigned integer of 1, 2, 4 or 8 bytes
 * @KHIST_FK_STRING:    fixed char[N], NUL-padded
 * @KHIST_FK_DYNSTRING: __data_loc char[]: a u32 (len << 16 | offset from
 *                      the record start) pointing at a NUL-terminated string
 * @KHIST_FK_RELSTRING: __rel_loc char[]: like DYNSTRING but the offset is
 *                      relative to the end of the u32 itself
 * @KHIST_FK_PTRSTRING: char * pointing outside the record (kernel or user
 *                      memory); keyed by the pointer value
 * @KHIST_FK_ARRAY:     fixed array of integers (not a string)
 * @KHIST_FK_DYNARRAY:  __data_loc array of integers (not a string)
 * @KHIST_FK_STACKTRACE: __data_loc unsigned long[] of return addresses
 * @KHIST_FK_CPUMASK:   __data_loc cpumask_t
 */
enum khist_field_kind {
	KHIST_FK_INT,
	KHIST_FK_STRING,
	KHIST_FK_DYNSTRING,
	KHIST_FK_RELSTRING,
	KHIST_FK_PTRSTRING,
	KHIST_FK_ARRAY,
	KHIST_FK_DYNARRAY,
	KHIST_FK_STACKTRACE,
	KHIST_FK_CPUMASK,
};

/**
 * struct khist_field_desc - one field of an event record
 * @name:      field name as users write it (e.g. "prev_pid")
 * @type:      C type exactly as the `format` file prints it
 *             (e.g. "pid_t", "char[16]", "__data_loc char[]")
 * @offset:    byte offset from the start of the record
 * @size:      size in bytes (of the u32 locator for __data_loc fields)
 * @is_signed: 1 if the (element) type is signed
 * @kind:      enum khist_field_kind
 * @elem_size: element size for arrays, 1 for strings, else @size
 */
struct khist_field_desc {
	const char *name;
	const char *type;
	u16 offset;
	u16 size;
	u8 is_signed;
	u8 kind;
	u16 elem_size;
};

/**
 * struct khist_common_hdr - the common part of every record (ftrace layout)
 * @type:          event id (common_type)
 * @flags:         irq/softirq/need-resched flags (common_flags)
 * @preempt_count: preemption depth (common_preempt_count)
 * @pid:           pid of the current task (common_pid)
 */
struct khist_common_hdr {
	u16 type;
	u8 flags;
	u8 preempt_count;
	s32 pid;
};

/*
 * What of a record a reader (a trigger, its filter) looks at, besides
 * common_type and common_pid: the fast path fills only that much of a
 * record that nobody records.
 */
#define KHIST_READS_FLAGS 0x1 /* common_flags */
#define KHIST_READS_FIELDS 0x2 /* anything after the common header */
#define KHIST_READS_PC 0x4 /* common_preempt_count */
#define KHIST_READS_ALL \
	(KHIST_READS_FLAGS | KHIST_READS_PC | KHIST_READS_FIELDS)

/**
 * khist_reads_range() - what reading @len bytes at @off of a record needs
 * @off: byte offset
 * @len: bytes
 *
 * Context: any.
 * Return: KHIST_READS_* bits.
 */
static inline unsigned int khist_reads_range(unsigned int off, unsigned int len)
{
	unsigned int r = 0;

	if (off + len > sizeof(struct khist_common_hdr))
		r |= KHIST_READS_FIELDS;
	if (off <= offsetof(struct khist_common_hdr, flags) &&
	    off + len > offsetof(struct khist_common_hdr, flags))
		r |= KHIST_READS_FLAGS;
	if (off <= offsetof(struct khist_common_hdr, preempt_count) &&
	    off + len > offsetof(struct khist_common_hdr, preempt_count))
		r |= KHIST_READS_PC;
	return r;
}

/**
 * struct khist_event_schema - name and record layout of one event
 * @system:    subsystem directory ("sched")
 * @name:      event name ("sched_switch")
 * @id:        numeric id, unique while the event exists (common_type)
 * @fields:    the event's own fields, in record order
 * @nr_fields: number of entries in @fields
 * @rec_size:  size of the fixed part of the record, header included
 */
struct khist_event_schema {
	const char *system;
	const char *name;
	u16 id;
	const struct khist_field_desc *fields;
	unsigned int nr_fields;
	unsigned int rec_size;
};

#endif /* _KHIST_SCHEMA_H */
