/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <khist/synth.h> - synthetic events for other modules: create one from a
 * field list or a `synthetic_events` line, look it up, read its fields and
 * fire it. The functions are exported (EXPORT_SYMBOL_GPL) by khist.ko and
 * documented where they are defined (module/synth/synth_event.c);
 * Documentation/synthetic-events.rst shows them at work.
 */
#ifndef _KHIST_SYNTH_H
#define _KHIST_SYNTH_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <kshim/kernel.h> /* the core's userspace builds (tools/include) */
#endif

struct module;
struct khist_synth_event;

#define KHIST_SYNTH_SYSTEM "synthetic"
/* Most fields an event may have. */
#define KHIST_SYNTH_FIELDS_MAX 64
/* Slot of a fixed string, biggest N in char[N], and the bound of a
 * dynamic string (both including the NUL).
 */
#define KHIST_SYNTH_STR_MAX 256
/* Most return addresses a stack field keeps. */
#define KHIST_SYNTH_STACK_DEPTH 16
/* Size of the common record header. */
#define KHIST_SYNTH_HDR_SIZE 8

/**
 * struct khist_synth_field - one field of a synthetic event
 * @name:       field name
 * @type:       type as the `format` file shows it ("u64", "unsigned int",
 *              "char[16]", "__data_loc char[]", "__data_loc unsigned long[]")
 * @size:       size: the C size for numbers, N for char[N], 8 for dynamic
 * @offset:     byte offset of its slot from the record start
 * @is_signed:  signed (ftrace's rule: not if the type starts with 'u' or
 *              is gfp_t, so strings and stacks count as signed)
 * @is_string:  char[N] or char[] (the type contains "char[")
 * @is_dynamic: stored after the fixed part (char[] and stacks)
 * @is_stack:   array of return addresses (the type contains "long[")
 */
struct khist_synth_field {
	const char *name;
	const char *type;
	unsigned int size;
	unsigned int offset;
	bool is_signed;
	bool is_string;
	bool is_dynamic;
	bool is_stack;
};

/**
 * struct khist_synth_field_spec - one field for khist_synth_create()
 * @type: its type, as written in `synthetic_events` ("u64", "pid_t",
 *        "char[16]", "char[]", "unsigned long[]", ...)
 * @name: its name
 */
struct khist_synth_field_spec {
	const char *type;
	const char *name;
};

/* Module-facing API (exported). */
int khist_synth_create(const char *name,
		       const struct khist_synth_field_spec *fields,
		       unsigned int nr_fields, struct module *owner);
int khist_synth_create_cmd(const char *cmd, struct module *owner);
int khist_synth_delete(const char *name);
struct khist_synth_event *khist_synth_get(const char *name);
void khist_synth_put(struct khist_synth_event *se);
const char *khist_synth_name(const struct khist_synth_event *se);
unsigned int khist_synth_nr_fields(const struct khist_synth_event *se);
const struct khist_synth_field *
khist_synth_field(const struct khist_synth_event *se, unsigned int i);
int khist_synth_trace(struct khist_synth_event *se, const u64 *vals,
		      unsigned int n);
int khist_synth_trace_idx(struct khist_synth_event *se, const u64 *vals,
			  const unsigned int *idx, unsigned int n);

#endif /* _KHIST_SYNTH_H */
