/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schemas.h - the fixed event layouts the fuzz targets (and the fault
 * injection test) compile hist triggers and filters against: one like
 * sched_switch, one like kmalloc, one like raw_syscalls:sys_enter, and one
 * made up to hold a field of every kind the core knows (integers of each
 * size and sign, char[N], __data_loc and __rel_loc strings, char *, a
 * fixed array, a __data_loc array, a stack trace and a cpumask).
 *
 * Also a fake address space for char * fields and a fake symbol table for
 * .function filters, so that those paths run without kernel memory.
 */
#ifndef _KHIST_FUZZ_SCHEMAS_H
#define _KHIST_FUZZ_SCHEMAS_H

#include <kshim/kernel.h>
#include "schema.h"

#define FZ_F(n, t, o, s, sg, k, e)   \
	{                            \
		n, t, o, s, sg, k, e \
	}

static const struct khist_field_desc fz_sched_switch_f[] = {
	FZ_F("prev_comm", "char[16]", 8, 16, 0, KHIST_FK_STRING, 1),
	FZ_F("prev_pid", "pid_t", 24, 4, 1, KHIST_FK_INT, 4),
	FZ_F("prev_prio", "int", 28, 4, 1, KHIST_FK_INT, 4),
	FZ_F("prev_state", "long", 32, 8, 1, KHIST_FK_INT, 8),
	FZ_F("next_comm", "char[16]", 40, 16, 0, KHIST_FK_STRING, 1),
	FZ_F("next_pid", "pid_t", 56, 4, 1, KHIST_FK_INT, 4),
	FZ_F("next_prio", "int", 60, 4, 1, KHIST_FK_INT, 4),
};

static const struct khist_field_desc fz_kmalloc_f[] = {
	FZ_F("call_site", "unsigned long", 8, 8, 0, KHIST_FK_INT, 8),
	FZ_F("ptr", "const void *", 16, 8, 0, KHIST_FK_INT, 8),
	FZ_F("bytes_req", "size_t", 24, 8, 0, KHIST_FK_INT, 8),
	FZ_F("bytes_alloc", "size_t", 32, 8, 0, KHIST_FK_INT, 8),
	FZ_F("gfp_flags", "unsigned long", 40, 8, 0, KHIST_FK_INT, 8),
	FZ_F("node", "int", 48, 4, 1, KHIST_FK_INT, 4),
	FZ_F("accounted", "bool", 52, 1, 0, KHIST_FK_INT, 1),
};

static const struct khist_field_desc fz_sys_enter_f[] = {
	FZ_F("id", "long", 8, 8, 1, KHIST_FK_INT, 8),
	FZ_F("args", "unsigned long[6]", 16, 48, 0, KHIST_FK_ARRAY, 8),
};

static const struct khist_field_desc fz_allkinds_f[] = {
	FZ_F("f_s8", "s8", 8, 1, 1, KHIST_FK_INT, 1),
	FZ_F("f_u8", "u8", 9, 1, 0, KHIST_FK_INT, 1),
	FZ_F("f_s16", "s16", 10, 2, 1, KHIST_FK_INT, 2),
	FZ_F("f_u16", "u16", 12, 2, 0, KHIST_FK_INT, 2),
	FZ_F("f_s32", "s32", 16, 4, 1, KHIST_FK_INT, 4),
	FZ_F("f_u32", "u32", 20, 4, 0, KHIST_FK_INT, 4),
	FZ_F("f_s64", "s64", 24, 8, 1, KHIST_FK_INT, 8),
	FZ_F("f_u64", "u64", 32, 8, 0, KHIST_FK_INT, 8),
	FZ_F("name", "char[16]", 40, 16, 1, KHIST_FK_STRING, 1),
	FZ_F("dstr", "__data_loc char[]", 56, 4, 1, KHIST_FK_DYNSTRING, 1),
	FZ_F("rstr", "__rel_loc char[]", 60, 4, 1, KHIST_FK_RELSTRING, 1),
	FZ_F("pstr", "const char *", 64, 8, 0, KHIST_FK_PTRSTRING, 8),
	FZ_F("ip", "unsigned long", 72, 8, 0, KHIST_FK_INT, 8),
	FZ_F("arr", "int[4]", 80, 16, 1, KHIST_FK_ARRAY, 4),
	FZ_F("mask", "__data_loc cpumask_t", 96, 4, 0, KHIST_FK_CPUMASK, 1),
	FZ_F("target_cpu", "unsigned int", 100, 4, 0, KHIST_FK_INT, 4),
	FZ_F("carr", "char[8]", 104, 8, 1, KHIST_FK_ARRAY, 1),
	FZ_F("darr", "__data_loc int[]", 112, 4, 1, KHIST_FK_DYNARRAY, 4),
	FZ_F("stack", "__data_loc unsigned long[]", 116, 4, 0,
	     KHIST_FK_STACKTRACE, 8),
	FZ_F("pid", "pid_t", 120, 4, 1, KHIST_FK_INT, 4),
};

#define FZ_SCHEMA(var, sys, ev, id, f, size)           \
	static const struct khist_event_schema var = { \
		sys, ev, id, f, ARRAY_SIZE(f), size    \
	}

FZ_SCHEMA(fz_sched_switch, "sched", "sched_switch", 316, fz_sched_switch_f, 64);
FZ_SCHEMA(fz_kmalloc, "kmem", "kmalloc", 440, fz_kmalloc_f, 56);
FZ_SCHEMA(fz_sys_enter, "raw_syscalls", "sys_enter", 21, fz_sys_enter_f, 64);
FZ_SCHEMA(fz_allkinds, "khist_fuzz", "allkinds", 1000, fz_allkinds_f, 128);

static const struct khist_event_schema *const fz_schemas[] = {
	&fz_sched_switch,
	&fz_kmalloc,
	&fz_sys_enter,
	&fz_allkinds,
};

#define FZ_NR_SCHEMAS ARRAY_SIZE(fz_schemas)

/* The layout named @system:@event among @n in @tab, or NULL. */
static inline const struct khist_event_schema *
fz_schema_in(const struct khist_event_schema *const *tab, unsigned int n,
	     const char *system, const char *event)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(system, tab[i]->system) &&
		    !strcmp(event, tab[i]->name))
			return tab[i];
	return NULL;
}

/*
 * char * fields: a record holds an "address" below FZ_NR_STRS that names
 * one of these strings; any other address cannot be read.
 */
static const char *const fz_strs[] = {
	"",
	"bash",
	"ping",
	"cyclictest",
	"kworker/0:1",
	"a*b?",
	"[ab]c",
	"\\*",
	"sshd",
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
};

#define FZ_NR_STRS ARRAY_SIZE(fz_strs)

static inline long fz_fetch_str(void *priv, char *dst, unsigned long src,
				size_t size, bool user)
{
	size_t n;

	if (src >= FZ_NR_STRS || !size)
		return -EFAULT;
	n = strlen(fz_strs[src]);
	if (n >= size)
		n = size - 1;
	memcpy(dst, fz_strs[src], n);
	dst[n] = '\0';
	return (long)n + 1;
}

/* .function: symbols at 0x1000 * (i + 1), each 0x100 bytes long. */
static const char *const fz_syms[] = {
	"schedule", "do_sys_open", "kmalloc", "vfs_read", "tick_sched_timer",
};

static inline int fz_func_range(void *priv, const char *name,
				unsigned long addr, unsigned long *start,
				unsigned long *end)
{
	unsigned long i;

	for (i = 0; i < ARRAY_SIZE(fz_syms); i++) {
		unsigned long s = 0x1000 * (i + 1);

		if (name ? !strcmp(name, fz_syms[i]) :
			   (addr >= s && addr < s + 0x100)) {
			*start = s;
			*end = s + 0x100;
			return 0;
		}
	}
	return -ENOENT;
}

#endif /* _KHIST_FUZZ_SCHEMAS_H */
