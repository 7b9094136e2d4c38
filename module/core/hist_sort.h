/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_sort.h - the order in which `hist` prints entries, reproduced from
 * Linux's tracing_map so that khist's output matches ftrace's line for
 * line, ties included.
 *
 * The kernel collects its entries, sorts them by the raw bytes of their
 * keys (memcmp; its duplicate check), then sorts that array with the
 * kernel's sort() on the first sort key, and finally re-sorts each run of
 * entries equal on the first key by the second key. sort() is a heapsort,
 * not stable, but deterministic for a given input order; since the memcmp
 * pass fixes the input order, calling the same sort() with the same
 * comparisons gives the same result. In the kernel build khist calls the
 * running kernel's sort(), so 6.1 and 6.12 each match their own ftrace.
 *
 * Comparisons follow the kernel's per-field choices: sums as u64; keys of
 * event fields by the field's own size and signedness (low bytes of the
 * 8-byte slot), keys without an event field (expressions, timestamps,
 * common_cpu) by the slot as u64/s64, strings with strcmp (bounded to the
 * slot), stacks always equal. A figure of a .stats or .quantiles value
 * (a khist extension, "sort=lat.p99") compares as u64, as it prints; the
 * caller computes it once per entry before sorting.
 */
#ifndef _KHIST_CORE_HIST_SORT_H
#define _KHIST_CORE_HIST_SORT_H

#include "core_env.h"
#include "hist_bind.h"

enum khist_hcmp_kind {
	KHIST_HCMP_SUM,
	KHIST_HCMP_INT,
	KHIST_HCMP_STR,
	KHIST_HCMP_NONE,
	KHIST_HCMP_FIG,
};

/**
 * struct khist_hcmp - how one sort key compares two entries
 * @kind:       enum khist_hcmp_kind
 * @descending: negate the result
 * @is_signed:  KHIST_HCMP_INT: signed comparison
 * @size:       KHIST_HCMP_INT: 1, 2, 4 or 8 bytes; KHIST_HCMP_STR: slot
 * @fig:        KHIST_HCMP_FIG: 1 + index of the figure (struct khist_hsort)
 * @where:      KHIST_HCMP_SUM and KHIST_HCMP_FIG: value index; else byte
 *              offset in the key
 */
struct khist_hcmp {
	u8 kind;
	u8 descending;
	u8 is_signed;
	u8 fig;
	u16 size;
	u16 where;
};

/**
 * struct khist_hsorter - sort state of one `hist` read
 * @key_size: bytes of a key (for the memcmp pass)
 * @n_keys:   sort keys in @k (1 or 2)
 * @k:        the sort keys
 * @cur:      the key in use by the comparator (kernel: map->sort_key)
 * @relax:    called every KHIST_HSORT_YIELD comparisons when set (the
 *            kernel's caller gives cond_resched(): a big map's sort then
 *            holds off no grace period); NULL after khist_hsorter_init()
 * @n_cmp:    comparisons since the last @relax
 */
struct khist_hsorter {
	unsigned int key_size;
	unsigned int n_keys;
	struct khist_hcmp k[KHIST_SORT_KEYS_MAX];
	unsigned int cur;
	void (*relax)(void);
	unsigned int n_cmp;
};

/* Comparisons between two calls of khist_hsorter.relax. */
#define KHIST_HSORT_YIELD 4096

/**
 * struct khist_hrow - one entry to sort
 * @s:    the sorter (read by the comparator)
 * @key:  the entry's key bytes
 * @sums: the entry's sums, read once before sorting
 * @priv: the caller's (the map element)
 * @figs: per sort key of kind KHIST_HCMP_FIG, the entry's figure, set by
 *        the caller before sorting (khist_hsorter_needs_figs())
 */
struct khist_hrow {
	struct khist_hsorter *s;
	const u8 *key;
	const u64 *sums;
	void *priv;
	u64 figs[KHIST_SORT_KEYS_MAX];
};

void khist_hsorter_init(struct khist_hsorter *s,
			const struct khist_hist_spec *sp);
bool khist_hsorter_needs_figs(const struct khist_hsorter *s);
void khist_hist_sort(struct khist_hsorter *s, struct khist_hrow **rows,
		     unsigned int n);

#endif /* _KHIST_CORE_HIST_SORT_H */
