/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map.h - khist's lock-free histogram map (the "tracing_map").
 *
 * Overview
 *
 * A map turns a fixed-size key (4..1024 bytes) into an element that holds
 * u64 sums, u64 variables with a "set" flag, a copy of the key and an
 * opaque extra area. It is written for the trace event path: insert,
 * lookup, add and the variable accessors take no lock, never allocate and
 * may run in any context, NMI included (they only need preemption to be
 * disabled, which is true in every tracepoint probe).
 *
 * Layout:
 *   - an element pool, preallocated in chunks; an element is named by its
 *     index, and the index never changes while the map lives;
 *   - an open-addressing slot table of 2 x capacity u64 words; a word is 0
 *     (empty) or {32-bit hash, element index + 1}, written once by a single
 *     cmpxchg after the element's key is complete (see map.c for the
 *     ordering protocol). Linear probing from the hash.
 *
 * Sums live either in the element (atomic64_t, one cache line shared by
 * all CPUs) or in per-CPU arrays (local64_t, summed when read); the choice
 * is made per map, see Documentation/tracing-map.rst for the figures.
 *
 * When the pool is exhausted a new key is dropped (counted in "drops").
 * Two options go further:
 *   - KHIST_MAP_F_OVERFLOW: such keys are all accounted to one extra
 *     "overflow" element, so that totals stay exact;
 *   - grow_limit > max_entries: the owner calls khist_map_grow() from
 *     process context (khist_map_should_grow() says when) to double the
 *     capacity while updates continue.
 *
 * Control operations (create, grow, clear, snapshot, iteration, destroy)
 * must be serialised by the caller, e.g. with the mutex that protects the
 * trigger. They may run concurrently with updates, except destroy.
 */
#ifndef _KHIST_CORE_MAP_H
#define _KHIST_CORE_MAP_H

#include "core_env.h"

#ifdef __KERNEL__
#include <asm/local64.h>
#endif

#define KHIST_MAP_BITS_MIN 7
#define KHIST_MAP_BITS_MAX 20
#define KHIST_MAP_KEY_MIN 4
#define KHIST_MAP_KEY_MAX 1024
#define KHIST_MAP_SUMS_MAX 8
#define KHIST_MAP_VARS_MAX 32
/*
 * KHIST_MAP_EXTRA_MAX bounds the owner's own area (hist's comm and string
 * slots: its "max 15" string variables derive from it); the map accepts
 * up to KHIST_MAP_EXTRA_LIMIT, room for that area plus the per-entry
 * distributions of qsketch.h (15128 bytes each).
 */
#define KHIST_MAP_EXTRA_MAX 4096
#define KHIST_MAP_EXTRA_LIMIT (128 << 10)
#define KHIST_MAP_SORT_KEYS_MAX 2
/* One chunk at creation plus one per doubling. */
#define KHIST_MAP_CHUNKS_MAX (KHIST_MAP_BITS_MAX - KHIST_MAP_BITS_MIN + 1)
#define KHIST_MAP_SPARES 8
/* Auto mode uses per-CPU sums while they cost at most this much memory. */
#define KHIST_MAP_PCPU_AUTO_MAX (8ULL << 20)

/* Sum storage: per-CPU, shared atomic, or (neither flag) chosen by size. */
#define KHIST_MAP_F_PERCPU 0x1
#define KHIST_MAP_F_ATOMIC 0x2
/* Account keys that do not fit to the overflow element. */
#define KHIST_MAP_F_OVERFLOW 0x4

struct khist_map;
struct khist_map_elt;

/**
 * struct khist_map_ops - callbacks of the map's owner
 * @elt_init: called by the CPU that creates an element for a new key,
 *            after the key is copied and before the element is visible to
 *            anybody else; fills the extra area (e.g. saves the comm).
 *            Runs in the inserter's context (possibly NMI): no sleeping,
 *            no allocation. It must fully initialise the extra area, as
 *            an element may be reused after a lost race.
 * @charge:   asked by khist_map_grow() before it allocates: @bytes > 0
 *            is what the growth would add, to be taken from the owner's
 *            budget (return 0) or refused (return non-zero: the growth
 *            fails with -E2BIG and counts in grow_refused); @bytes < 0
 *            gives back what an allocation failure did not use, and
 *            khist_map_destroy() gives back every byte growth took.
 *            Process context (called where grow and destroy run); may
 *            be NULL (no budget but @mem_cap).
 */
struct khist_map_ops {
	void (*elt_init)(struct khist_map_elt *elt, void *priv);
	int (*charge)(void *priv, s64 bytes);
};

/**
 * struct khist_map_params - what a map is made of
 * @max_entries: initial capacity, a power of 2 in 2^7..2^20
 * @grow_limit:  capacity khist_map_grow() may reach (power of 2,
 *               >= @max_entries, <= 2^20); 0 means the map never grows
 * @key_size:    bytes per key, 4..1024
 * @n_sums:      u64 sums per element, 0..8
 * @n_vars:      u64 variables per element, 0..32
 * @extra_size:  bytes of the extra area, 0..KHIST_MAP_EXTRA_LIMIT
 * @flags:       KHIST_MAP_F_*
 * @mem_cap:     most bytes the map may ever take (checked at creation and
 *               at every growth); 0 means no limit
 */
struct khist_map_params {
	u32 max_entries;
	u32 grow_limit;
	u32 key_size;
	u32 n_sums;
	u32 n_vars;
	u32 extra_size;
	u32 flags;
	u64 mem_cap;
};

/**
 * struct khist_map_mem - what a map costs, computed before allocation
 * @elt_size:  bytes of one element, 8-byte aligned
 * @per_entry: bytes per entry of capacity: element, 2 slots, per-CPU sums
 * @percpu:    whether sums are per-CPU for these parameters
 * @total:     bytes at creation (@max_entries)
 * @total_max: bytes once grown to @grow_limit, retired tables included
 * @cap:       the cap that was applied (0: none)
 */
struct khist_map_mem {
	u64 elt_size;
	u64 per_entry;
	bool percpu;
	u64 total;
	u64 total_max;
	u64 cap;
};

/**
 * struct khist_map_stats - counters, read without stopping writers
 * @hits:     successful khist_map_insert() calls
 * @drops:    khist_map_insert() calls that found no room for a new key
 * @entries:  keys in the map
 * @max:      current capacity
 * @mem:      bytes allocated for the map
 * @overflow: whether dropped keys are accounted to the overflow element
 * @grow_refused: growths refused by grow_limit, mem_cap or the charge
 *                callback since creation (clear keeps it), a level
 *                refused ahead of need included
 * @standby:  the next level is allocated, ready for an insert that finds
 *            the pool empty
 * @switched: an insert switched to the next level, whose migration
 *            khist_map_grow() has not done yet
 */
struct khist_map_stats {
	u64 hits;
	u64 drops;
	u32 entries;
	u32 max;
	u64 mem;
	bool overflow;
	bool standby;
	bool switched;
	u64 grow_refused;
};

/*
 * Per-CPU (or shared) hit and drop counters, one cache line each so that
 * CPUs never write the same line on the fast path.
 */
struct khist_map_pcpu_stats {
	local64_t hits;
	local64_t drops;
} ____cacheline_aligned;

/**
 * struct khist_map_elt - one entry of the map
 * @map:     the map it belongs to
 * @pcpu:    per-CPU sum arrays of its chunk (NULL: sums are in @data)
 * @idx:     index in the pool (U32_MAX for the overflow element)
 * @sum_off: index of its first sum in each per-CPU array
 * @data:    sums (atomic mode), variables, variable flags, key, extra
 *
 * Use the accessors below, never the layout.
 */
struct khist_map_elt {
	struct khist_map *map;
	local64_t **pcpu;
	u32 idx;
	u32 sum_off;
	u64 data[];
};

/* Element memory of one chunk; @pcpu is NULL for shared sums. */
struct khist_map_chunk {
	u8 *elts;
	local64_t **pcpu;
	u32 n;
};

/* A slot table; @next is set from the switch to a bigger one on. */
struct khist_map_table {
	u32 mask;
	struct khist_map_table *next;
	struct khist_map_table *retired;
	u64 slots[];
};

/**
 * struct khist_map - the map; fields are private to map.c
 * @p:          parameters it was created with
 * @ops:        owner callbacks (may be NULL)
 * @priv:       argument of the callbacks
 * @tab:        current slot table
 * @old:        tables retired by growth (freed by khist_map_destroy())
 * @standby:    the next level's slot table, allocated ahead with its
 *              element chunk (the last of @chunks) so that an insert that
 *              finds the pool empty switches to it at once; NULL when
 *              none is ready or a switch is pending
 * @prepared:   a standby was made for the current level (taken or not);
 *              cleared by the migration that ends its switch (grow's
 *              context only)
 * @cap:        current capacity (elements that may be handed out)
 * @next_elt:   next never-used element index
 * @entries:    keys published
 * @grow_want:  set when the fill passed the threshold or the pool emptied
 * @spares:     elements (index + 1) prepared for a key another CPU won
 * @n_chunks:   chunks allocated
 * @chunks:     element chunks; chunk c >= 1 holds indexes
 *              [base << (c - 1), base << c)
 * @ovf_chunk:  the overflow element's chunk (elts NULL without overflow)
 * @stats:      per-CPU hit/drop counters (array of nr_cpu_ids)
 * @base_bits:  log2(@p.max_entries)
 * @percpu:     sums are per-CPU
 * @off_sums:   offset of the atomic sums in an element's data
 * @off_vars:   offset of the variables
 * @off_vset:   offset of the variable flags
 * @off_key:    offset of the key
 * @off_extra:  offset of the extra area
 * @elt_size:   bytes per element
 * @mem:        bytes allocated
 * @charged:    bytes growth took through ops->charge (given back by
 *              destroy)
 * @grow_refused: see struct khist_map_stats
 */
struct khist_map {
	struct khist_map_params p;
	const struct khist_map_ops *ops;
	void *priv;
	struct khist_map_table *tab;
	struct khist_map_table *old;
	struct khist_map_table *standby;
	bool prepared;
	u32 cap;
	atomic_t next_elt;
	atomic_t entries;
	atomic_t grow_want;
	atomic_t spares[KHIST_MAP_SPARES];
	u32 n_chunks;
	struct khist_map_chunk chunks[KHIST_MAP_CHUNKS_MAX];
	struct khist_map_chunk ovf_chunk;
	struct khist_map_pcpu_stats *stats;
	u32 base_bits;
	bool percpu;
	u32 off_sums;
	u32 off_vars;
	u32 off_vset;
	u32 off_key;
	u32 off_extra;
	u32 elt_size;
	u64 mem;
	u64 charged;
	u64 grow_refused;
};

/* Sort key kinds, see struct khist_map_sort_key. */
enum khist_map_sort_kind {
	KHIST_MAP_SORT_SUM, /* sum number @field, unsigned */
	KHIST_MAP_SORT_KEY_U, /* unsigned integer of @size 1/2/4/8 bytes */
	KHIST_MAP_SORT_KEY_S, /* signed integer of @size 1/2/4/8 bytes */
	KHIST_MAP_SORT_KEY_STR, /* NUL-terminated string in @size bytes */
	KHIST_MAP_SORT_KEY_MEM, /* @size raw bytes, memcmp() */
};

/**
 * struct khist_map_sort_key - one criterion of khist_map_snapshot()
 * @kind:       enum khist_map_sort_kind
 * @descending: reverse the order
 * @field:      sum number (KHIST_MAP_SORT_SUM) or byte offset in the key
 * @size:       bytes of the key field (key kinds only)
 */
struct khist_map_sort_key {
	u8 kind;
	bool descending;
	u16 field;
	u16 size;
};

/**
 * struct khist_map_snap_entry - one entry of a snapshot
 * @elt:  the element (its key and extra area do not change)
 * @idx:  the element's index, the last tie-break of the sort
 * @sums: the element's sums, copied when the snapshot was taken
 */
struct khist_map_snap_entry {
	struct khist_map_elt *elt;
	u32 idx;
	u64 sums[];
};

/**
 * struct khist_map_snapshot - sorted copy of a map, for printing
 * @n:        entries
 * @n_sums:   sums per entry
 * @sorted:   the entries in order
 * @ovf_sums: sums of the overflow element (n_sums, NULL without one)
 * @totals:   sum of each sum over all entries and the overflow element
 * @stats:    the map's statistics when the snapshot was taken
 * @buf:      storage of the entries
 */
struct khist_map_snapshot {
	u32 n;
	u32 n_sums;
	struct khist_map_snap_entry **sorted;
	u64 *ovf_sums;
	u64 totals[KHIST_MAP_SUMS_MAX];
	struct khist_map_stats stats;
	void *buf;
};

int khist_map_mem_size(const struct khist_map_params *p,
		       struct khist_map_mem *mem);
struct khist_map *khist_map_create(const struct khist_map_params *p,
				   const struct khist_map_ops *ops, void *priv);
void khist_map_destroy(struct khist_map *map);

struct khist_map_elt *khist_map_insert(struct khist_map *map, const void *key);
struct khist_map_elt *khist_map_lookup(struct khist_map *map, const void *key);

/**
 * khist_map_should_grow() - whether the owner should call khist_map_grow()
 * @map: map
 *
 * True once 3/4 of the capacity is used, a key was dropped or an insert
 * switched to the standby table, while the capacity is below grow_limit
 * or a switch waits for its migration. Inline for the insert path of
 * owners that ask after every insert: one load while no growth is wanted.
 *
 * Context: any, NMI included.
 * Return: true when growing would help.
 */
static inline bool khist_map_should_grow(const struct khist_map *map)
{
	const struct khist_map_table *t;

	if (likely(!atomic_read(&map->grow_want)))
		return false;
	/* Pairs with the releases of the table and capacity in map.c. */
	t = smp_load_acquire(&map->tab);
	/* A switch waits for its migration; pairs with kh_switch(). */
	if (smp_load_acquire(&t->next))
		return true;
	/* Pairs with the release of the capacity in kh_switch(). */
	return map->p.grow_limit > smp_load_acquire(&map->cap);
}

int khist_map_grow(struct khist_map *map);
void khist_map_clear(struct khist_map *map);

u64 khist_map_read_sum(const struct khist_map_elt *elt, unsigned int i);
void khist_map_get_stats(const struct khist_map *map,
			 struct khist_map_stats *st);
struct khist_map_elt *khist_map_overflow(const struct khist_map *map);
struct khist_map_elt *khist_map_next(const struct khist_map *map, u32 *pos);

int khist_map_snapshot(struct khist_map *map,
		       const struct khist_map_sort_key *keys,
		       unsigned int n_keys, struct khist_map_snapshot **out);
void khist_map_snapshot_free(struct khist_map_snapshot *snap);

u32 khist_map_hash(const void *key, u32 len);

/**
 * khist_map_elt_key() - the key bytes of an element
 * @elt: element
 *
 * Context: any; the key does not change once the element is visible.
 * Return: pointer to map->p.key_size bytes.
 */
static inline const void *khist_map_elt_key(const struct khist_map_elt *elt)
{
	return (const u8 *)elt->data + elt->map->off_key;
}

/**
 * khist_map_elt_extra() - the extra area of an element
 * @elt: element
 *
 * Context: any.
 * Return: pointer to map->p.extra_size bytes, 8-byte aligned.
 */
static inline void *khist_map_elt_extra(struct khist_map_elt *elt)
{
	return (u8 *)elt->data + elt->map->off_extra;
}

/**
 * khist_map_elt_is_overflow() - whether @elt is the overflow element
 * @elt: element returned by khist_map_insert()
 *
 * Context: any.
 * Return: true for the element that collects keys that did not fit.
 */
static inline bool khist_map_elt_is_overflow(const struct khist_map_elt *elt)
{
	return elt->idx == U32_MAX;
}

/**
 * khist_map_add() - add to one sum of an element
 * @elt:   element from khist_map_insert() or khist_map_lookup()
 * @i:     sum number, below n_sums
 * @delta: value added (wraps modulo 2^64)
 *
 * Per-CPU mode does a local64_add() on this CPU's copy (no lock prefix on
 * x86, atomic against interrupts and NMIs on the same CPU); shared mode
 * does an atomic64_add(). Neither orders other memory accesses.
 *
 * Context: any, NMI included, with preemption disabled.
 */
static inline void khist_map_add(struct khist_map_elt *elt, unsigned int i,
				 u64 delta)
{
	if (elt->pcpu) {
		local64_t *base = elt->pcpu[raw_smp_processor_id()];

		local64_add(delta, &base[elt->sum_off + i]);
	} else {
		atomic64_t *s =
			(atomic64_t *)((u8 *)elt->data + elt->map->off_sums);

		atomic64_add(delta, &s[i]);
	}
}

/**
 * khist_map_sums_percpu() - whether the map keeps its sums per CPU
 * @map: map
 *
 * Context: any.
 * Return: true when khist_map_local_sum() gives a sum's local counter.
 */
static inline bool khist_map_sums_percpu(const struct khist_map *map)
{
	return map->percpu;
}

/**
 * khist_map_local_sum() - this CPU's counter of one sum of an element
 * @elt: element from khist_map_insert() or khist_map_lookup()
 * @i:   sum number, below n_sums
 *
 * For an owner that adds to the same element many times on one CPU: a
 * local64_add() on the counter is what khist_map_add() does there.
 *
 * Context: any, NMI included, with preemption disabled; the counter is
 * this CPU's only.
 * Return: the counter, or NULL when the map's sums are shared.
 */
static inline local64_t *khist_map_local_sum(struct khist_map_elt *elt,
					     unsigned int i)
{
	if (!elt->pcpu)
		return NULL;
	return &elt->pcpu[raw_smp_processor_id()][elt->sum_off + i];
}

/**
 * khist_map_local_hits() - this CPU's hit counter of a map
 * @map: map
 *
 * For an owner that counts hits found without khist_map_insert() many
 * times on one CPU: a local64_inc() on it is khist_map_count_hit().
 *
 * Context: any, with preemption disabled; the counter is this CPU's only.
 * Return: the counter.
 */
static inline local64_t *khist_map_local_hits(struct khist_map *map)
{
	return &map->stats[raw_smp_processor_id()].hits;
}

/**
 * khist_map_count_hit() - count a hit found without khist_map_insert()
 * @map: map
 *
 * For an owner that remembers the element of a key it inserted before
 * (a per-CPU last-hit cache): the hit shows in the statistics as if
 * khist_map_insert() had returned the element.
 *
 * Context: any, NMI included, with preemption disabled.
 */
static inline void khist_map_count_hit(struct khist_map *map)
{
	local64_inc(&map->stats[raw_smp_processor_id()].hits);
}

/**
 * khist_map_set_var() - set a variable of an element
 * @elt: element
 * @i:   variable number, below n_vars
 * @val: value
 *
 * The value is stored before the flag (release), so a reader that sees
 * the flag set (acquire, khist_map_var_is_set()) reads this value or a
 * later one.
 *
 * Context: any, NMI included.
 */
static inline void khist_map_set_var(struct khist_map_elt *elt, unsigned int i,
				     u64 val)
{
	u8 *data = (u8 *)elt->data;
	atomic64_t *v = (atomic64_t *)(data + elt->map->off_vars);
	u8 *flag = data + elt->map->off_vset + i;

	atomic64_set(&v[i], val);
	/* Orders the value before the flag; pairs with var_is_set(). */
	smp_store_release(flag, 1);
}

/**
 * khist_map_var_is_set() - whether a variable has been set since clear
 * @elt: element
 * @i:   variable number
 *
 * Context: any, NMI included.
 * Return: true once khist_map_set_var() has run for @i.
 */
static inline bool khist_map_var_is_set(const struct khist_map_elt *elt,
					unsigned int i)
{
	const u8 *flag = (const u8 *)elt->data + elt->map->off_vset + i;

	/* Pairs with the release in khist_map_set_var(). */
	return smp_load_acquire(flag);
}

/**
 * khist_map_unset_var() - mark a variable as not set (read-once refs)
 * @elt: element
 * @i:   variable number
 *
 * Context: any, NMI included.
 */
static inline void khist_map_unset_var(struct khist_map_elt *elt,
				       unsigned int i)
{
	u8 *flag = (u8 *)elt->data + elt->map->off_vset + i;

	WRITE_ONCE(*flag, 0);
}

/**
 * khist_map_get_var() - read a variable
 * @elt: element
 * @i:   variable number
 *
 * Call khist_map_var_is_set() first when an unset variable must be told
 * apart from 0; that call orders this read after the flag.
 *
 * Context: any, NMI included.
 * Return: the value (0 when never set).
 */
static inline u64 khist_map_get_var(const struct khist_map_elt *elt,
				    unsigned int i)
{
	const u8 *data = (const u8 *)elt->data;
	const atomic64_t *v = (const atomic64_t *)(data + elt->map->off_vars);

	return (u64)atomic64_read(&v[i]);
}

#endif /* _KHIST_CORE_MAP_H */
