// SPDX-License-Identifier: GPL-2.0
/*
 * map.c - khist's lock-free histogram map: creation, insert/lookup,
 * growth, clear and statistics. Sorted snapshots are in map_sort.c.
 *
 * Publication protocol (why a reader never sees a half-written key)
 *
 *   A slot word is 0 (empty), KH_SEALED (empty, closed by a migration) or
 *   {hash << 32 | (index + 1)}. An inserter first takes a private element
 *   from the pool, copies the key into it and runs elt_init, then
 *   publishes {hash, index} with one cmpxchg(slot, 0, word). cmpxchg is a
 *   full barrier, so all those writes are visible before the word. A
 *   reader loads the word with smp_load_acquire() and only then reads the
 *   element, so it sees the complete key. Non-empty words never change
 *   until khist_map_clear().
 *
 * Why one key never gets two entries
 *
 *   The probe sequence of a key is fixed and a slot changes at most once
 *   from empty to full. If key K sits in slot s, every slot before s in
 *   K's sequence was full with another key when K was placed and is still
 *   full. Any other inserter of K therefore walks to s: either it finds K
 *   there, or it reaches s while s is still empty and its cmpxchg races
 *   with the one that placed K; the loser re-reads the slot, sees K and
 *   returns that element. Its own prepared element goes to a spare list
 *   (map->spares) to be used by the next new key, so the pool does not
 *   leak. Unlike the kernel's tracing_map no slot is ever claimed before
 *   its element is ready, so nobody spins and no slot is ever given back.
 *
 * Growth (khist_map_grow(), process context, one at a time)
 *
 *   A table twice as big is linked from the old one (old->next) and every
 *   old slot is visited in order: an empty one is sealed with
 *   cmpxchg(0, KH_SEALED); a full one is copied into the new table (its
 *   element, hence its sums, is shared, not copied). An updater that
 *   meets a sealed slot continues in old->next. This keeps keys unique:
 *   an updater only inserts K in the new table after finding K's first
 *   empty old slot sealed, which proves K is not in the old table and
 *   never will be. Once every old slot is visited the new table becomes
 *   map->tab. Old tables stay allocated (and readable by late updaters)
 *   until khist_map_destroy(): freeing them would need a grace period,
 *   and their size is less than the current table's.
 *
 * Growth that does not wait (the standby)
 *
 *   The bigger table and its element chunk are allocated one growth
 *   ahead, in process context (kh_prepare(): at the first growth asked
 *   for, then after each growth), and kept as map->standby. The insert
 *   that finds the pool empty takes the standby (one xchg, so one CPU
 *   wins) and switches to it at once (kh_switch(): the doubled
 *   capacity, then old->next), in any context: a burst of new keys does
 *   not wait for the work that migrates. From the switch on, an inserter that
 *   reaches an empty slot of a table that has a next one seals that slot
 *   itself and goes on in the next table, so the old table gains no key
 *   (but for inserters that raced with the switch) and stays at most
 *   half full, as the new one does with twice the capacity in four
 *   times the slots. Keys stay unique by the same argument as above: the
 *   seal is what proves a key is not in the old table. The migration then
 *   only copies the old keys over; until it has run, walks that miss in
 *   the old table go on in the next one.
 */
#include "core_env.h"
#include "map.h"

#define KH_SEALED BIT_ULL(31)
#define KH_NONE U32_MAX
#define KH_M1 0x9e3779b97f4a7c15ULL
#define KH_M2 0x7a3c9d51e6b4f0c9ULL

static inline u64 kh_rotl(u64 x, unsigned int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline u64 kh_load64(const u8 *p)
{
	u64 w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline u32 kh_load32(const u8 *p)
{
	u32 w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* The final mix of khist_map_hash(): every input bit reaches the low 32. */
static __always_inline u32 kh_fmix(u64 h)
{
	h ^= h >> 33;
	h *= KH_M2;
	h ^= h >> 29;
	h *= KH_M1;
	h ^= h >> 32;
	return (u32)h;
}

/**
 * khist_map_hash() - the map's 32-bit key hash
 * @key: key bytes (any alignment)
 * @len: bytes
 *
 * Eight bytes per step: each word is multiplied by one odd constant and
 * folded into the state, which is rotated and multiplied by a second odd
 * constant; a final avalanche spreads every input bit over the low 32
 * bits, which pick the first slot.
 *
 * Context: any.
 * Return: the hash.
 */
u32 khist_map_hash(const void *key, u32 len)
{
	const u8 *p = key;
	u64 h = (u64)len * KH_M1;
	u64 w;

	for (; len >= 8; len -= 8, p += 8)
		h = kh_rotl(h ^ (kh_load64(p) * KH_M2), 27) * KH_M1;
	if (len >= 4) {
		h = kh_rotl(h ^ ((u64)kh_load32(p) * KH_M2), 27) * KH_M1;
		len -= 4;
		p += 4;
	}
	if (len) {
		w = 0;
		while (len--)
			w = (w << 8) | p[len];
		h = kh_rotl(h ^ (w * KH_M2), 27) * KH_M1;
	}
	return kh_fmix(h);
}

/*
 * khist_map_hash() of a key of one or two words, inline: the same steps,
 * without the loop and the tail.
 */
static __always_inline u32 kh_hash_words(const u8 *key, u32 words)
{
	u64 h = (u64)words * sizeof(u64) * KH_M1;

	h = kh_rotl(h ^ (kh_load64(key) * KH_M2), 27) * KH_M1;
	if (words > 1)
		h = kh_rotl(h ^ (kh_load64(key + 8) * KH_M2), 27) * KH_M1;
	return kh_fmix(h);
}

/* Offsets inside an element and the size of one, from the parameters. */
struct kh_layout {
	u32 off_sums, off_vars, off_vset, off_key, off_extra, elt_size;
	bool percpu;
};

static u64 kh_pcpu_bytes(const struct khist_map_params *p, u64 n)
{
	return (u64)num_possible_cpus() * n * p->n_sums * sizeof(u64);
}

static void kh_layout(const struct khist_map_params *p, struct kh_layout *l)
{
	u64 top = p->grow_limit ? p->grow_limit : p->max_entries;
	u32 off = 0;

	if (!p->n_sums || (p->flags & KHIST_MAP_F_ATOMIC))
		l->percpu = false;
	else if (p->flags & KHIST_MAP_F_PERCPU)
		l->percpu = true;
	else
		l->percpu = kh_pcpu_bytes(p, top) <= KHIST_MAP_PCPU_AUTO_MAX;
	l->off_sums = off;
	if (!l->percpu)
		off += p->n_sums * sizeof(u64);
	l->off_vars = off;
	off += p->n_vars * sizeof(u64);
	l->off_vset = off;
	off += ALIGN(p->n_vars, 8);
	l->off_key = off;
	off += ALIGN(p->key_size, 8);
	l->off_extra = off;
	off += ALIGN(p->extra_size, 8);
	l->elt_size = sizeof(struct khist_map_elt) + off;
}

static u64 kh_chunk_bytes(const struct khist_map_params *p,
			  const struct kh_layout *l, u64 n)
{
	u64 b = n * l->elt_size;

	if (l->percpu)
		b += kh_pcpu_bytes(p, n) +
		     (u64)nr_cpu_ids * sizeof(local64_t *);
	return b;
}

static u64 kh_table_bytes(u64 slots)
{
	return sizeof(struct khist_map_table) + slots * sizeof(u64);
}

static u64 kh_base_bytes(const struct khist_map_params *p,
			 const struct kh_layout *l)
{
	u64 b = sizeof(struct khist_map) +
		(u64)nr_cpu_ids * sizeof(struct khist_map_pcpu_stats);

	if (p->flags & KHIST_MAP_F_OVERFLOW)
		b += kh_chunk_bytes(p, l, 1);
	return b;
}

static bool kh_valid(const struct khist_map_params *p)
{
	u32 lo = 1U << KHIST_MAP_BITS_MIN, hi = 1U << KHIST_MAP_BITS_MAX;

	if (!is_power_of_2(p->max_entries) || p->max_entries < lo ||
	    p->max_entries > hi)
		return false;
	if (p->grow_limit &&
	    (!is_power_of_2(p->grow_limit) || p->grow_limit < p->max_entries ||
	     p->grow_limit > hi))
		return false;
	if (p->key_size < KHIST_MAP_KEY_MIN || p->key_size > KHIST_MAP_KEY_MAX)
		return false;
	if (p->n_sums > KHIST_MAP_SUMS_MAX || p->n_vars > KHIST_MAP_VARS_MAX ||
	    p->extra_size > KHIST_MAP_EXTRA_LIMIT)
		return false;
	if (p->flags &
	    ~(KHIST_MAP_F_PERCPU | KHIST_MAP_F_ATOMIC | KHIST_MAP_F_OVERFLOW))
		return false;
	return (p->flags & (KHIST_MAP_F_PERCPU | KHIST_MAP_F_ATOMIC)) !=
	       (KHIST_MAP_F_PERCPU | KHIST_MAP_F_ATOMIC);
}

/**
 * khist_map_mem_size() - memory a map would take, before allocating it
 * @p:   parameters
 * @mem: filled with the figures, also on -E2BIG (the reason data)
 *
 * total = sizeof(map) + nr_cpu_ids * 64 (hit/drop counters)
 *       + cap * elt_size + (2 * cap + 2) * 8 (slot table)
 *       + per-CPU sums: possible CPUs * cap * n_sums * 8 + pointers
 *       + the overflow element when asked for.
 *
 * Context: any (no allocation).
 * Return: 0; -EINVAL for invalid parameters; -E2BIG when @p->mem_cap is
 * set and @mem->total exceeds it.
 */
int khist_map_mem_size(const struct khist_map_params *p,
		       struct khist_map_mem *mem)
{
	struct kh_layout l;
	u64 base, cap;

	memset(mem, 0, sizeof(*mem));
	if (!kh_valid(p))
		return -EINVAL;
	kh_layout(p, &l);
	base = kh_base_bytes(p, &l);
	mem->elt_size = l.elt_size;
	mem->percpu = l.percpu;
	mem->per_entry = l.elt_size + 2 * sizeof(u64) +
			 (l.percpu ? kh_pcpu_bytes(p, 1) : 0);
	mem->total = base + kh_chunk_bytes(p, &l, p->max_entries) +
		     kh_table_bytes(2ULL * p->max_entries);
	/* One chunk per doubling; every table ever used stays until destroy. */
	mem->total_max = mem->total;
	for (cap = p->max_entries; p->grow_limit && cap < p->grow_limit;
	     cap *= 2)
		mem->total_max +=
			kh_chunk_bytes(p, &l, cap) + kh_table_bytes(4 * cap);
	mem->cap = p->mem_cap;
	if (p->mem_cap && mem->total > p->mem_cap)
		return -E2BIG;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(khist_map_mem_size, KHIST_INTERNAL);

static void kh_chunk_free(struct khist_map_chunk *c)
{
	int cpu;

	if (c->pcpu) {
		for_each_possible_cpu(cpu)
			kvfree(c->pcpu[cpu]);
		kfree(c->pcpu);
	}
	kvfree(c->elts);
	c->pcpu = NULL;
	c->elts = NULL;
}

/* Allocates @n elements whose indexes start at @first (U32_MAX: overflow). */
static int kh_chunk_alloc(struct khist_map *map, struct khist_map_chunk *c,
			  u32 n, u32 first)
{
	struct khist_map_elt *elt;
	int cpu;
	u32 i;

	c->n = n;
	c->pcpu = NULL;
	c->elts = kvzalloc(size_mul(n, map->elt_size), GFP_KERNEL);
	if (!c->elts)
		return -ENOMEM;
	if (map->percpu) {
		c->pcpu = kcalloc(nr_cpu_ids, sizeof(*c->pcpu), GFP_KERNEL);
		if (!c->pcpu)
			goto fail;
		for_each_possible_cpu(cpu) {
			c->pcpu[cpu] = kvcalloc(size_mul(n, map->p.n_sums),
						sizeof(local64_t), GFP_KERNEL);
			if (!c->pcpu[cpu])
				goto fail;
		}
	}
	for (i = 0; i < n; i++) {
		elt = (struct khist_map_elt *)(c->elts +
					       (size_t)i * map->elt_size);
		elt->map = map;
		elt->pcpu = c->pcpu;
		elt->idx = first == U32_MAX ? U32_MAX : first + i;
		elt->sum_off = i * map->p.n_sums;
	}
	return 0;
fail:
	kh_chunk_free(c);
	return -ENOMEM;
}

static struct khist_map_table *kh_table_alloc(u32 slots)
{
	struct khist_map_table *t;

	t = kvzalloc(kh_table_bytes(slots), GFP_KERNEL);
	if (t)
		t->mask = slots - 1;
	return t;
}

/**
 * khist_map_create() - allocate a map and all its elements
 * @p:    parameters (see struct khist_map_params)
 * @ops:  owner callbacks, or NULL
 * @priv: argument passed to the callbacks
 *
 * Context: process context, may sleep (GFP_KERNEL allocations).
 * Return: the map, ERR_PTR(-EINVAL) for bad parameters, ERR_PTR(-E2BIG)
 * when over @p->mem_cap (khist_map_mem_size() tells by how much),
 * ERR_PTR(-ENOMEM).
 */
struct khist_map *khist_map_create(const struct khist_map_params *p,
				   const struct khist_map_ops *ops, void *priv)
{
	struct khist_map_mem mem;
	struct khist_map *map;
	struct kh_layout l;
	int ret;

	ret = khist_map_mem_size(p, &mem);
	if (ret)
		return ERR_PTR(ret);
	kh_layout(p, &l);
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);
	map->p = *p;
	map->ops = ops;
	map->priv = priv;
	map->percpu = l.percpu;
	map->off_sums = l.off_sums;
	map->off_vars = l.off_vars;
	map->off_vset = l.off_vset;
	map->off_key = l.off_key;
	map->off_extra = l.off_extra;
	map->elt_size = l.elt_size;
	map->base_bits = ilog2(p->max_entries);
	map->cap = p->max_entries;
	map->mem = mem.total;
	map->stats = kcalloc(nr_cpu_ids, sizeof(*map->stats), GFP_KERNEL);
	if (!map->stats)
		goto fail;
	if (kh_chunk_alloc(map, &map->chunks[0], p->max_entries, 0))
		goto fail;
	map->n_chunks = 1;
	if ((p->flags & KHIST_MAP_F_OVERFLOW) &&
	    kh_chunk_alloc(map, &map->ovf_chunk, 1, U32_MAX))
		goto fail;
	map->tab = kh_table_alloc(2 * p->max_entries);
	if (!map->tab)
		goto fail;
	return map;
fail:
	khist_map_destroy(map);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_NS_GPL(khist_map_create, KHIST_INTERNAL);

/**
 * khist_map_destroy() - free a map
 * @map: map from khist_map_create(), or NULL
 *
 * The caller must make sure no updater can still use the map (in the
 * kernel: unregister the probe and wait for a grace period first).
 *
 * Context: process context.
 */
void khist_map_destroy(struct khist_map *map)
{
	struct khist_map_table *t;
	u32 c;

	if (!map)
		return;
	if (map->charged && map->ops && map->ops->charge)
		map->ops->charge(map->priv, -(s64)map->charged);
	while (map->old) {
		t = map->old;
		map->old = t->retired;
		kvfree(t);
	}
	kvfree(map->standby);
	if (map->tab)
		kvfree(map->tab->next);
	kvfree(map->tab);
	for (c = 0; c < map->n_chunks; c++)
		kh_chunk_free(&map->chunks[c]);
	kh_chunk_free(&map->ovf_chunk);
	kfree(map->stats);
	kfree(map);
}
EXPORT_SYMBOL_NS_GPL(khist_map_destroy, KHIST_INTERNAL);

static inline struct khist_map_elt *kh_elt(const struct khist_map *map, u32 idx)
{
	u32 q = idx >> map->base_bits;
	u32 c = q ? fls64(q) : 0;
	u32 off = c ? idx - (1U << (map->base_bits + c - 1)) : idx;

	/*
	 * No barrier: @idx came from an acquired slot or from the pool
	 * after an acquire of map->cap, both ordered after the chunk was
	 * set up (release of map->cap in kh_switch()).
	 */
	return (struct khist_map_elt *)(map->chunks[c].elts +
					(size_t)off * map->elt_size);
}

/* Takes an unused element: a spare first, else the next in the pool. */
static u32 kh_pool_get(struct khist_map *map, int cpu)
{
	atomic_t *sp = &map->spares[cpu % KHIST_MAP_SPARES];
	int n, v;

	if (atomic_read(sp)) {
		v = atomic_xchg(sp, 0);
		if (v)
			return v - 1;
	}
	n = atomic_read(&map->next_elt);
	do {
		/* Pairs with the release in khist_map_grow(): chunk first. */
		if ((u32)n >= smp_load_acquire(&map->cap))
			return KH_NONE;
	} while (!atomic_try_cmpxchg(&map->next_elt, &n, n + 1));
	return n;
}

/* Keeps a prepared element that lost its race for the next new key. */
static void kh_pool_put(struct khist_map *map, u32 idx, int cpu)
{
	unsigned int s = cpu, i;

	for (i = 0; i < KHIST_MAP_SPARES; i++)
		if (!atomic_cmpxchg(&map->spares[(s + i) % KHIST_MAP_SPARES], 0,
				    (int)idx + 1))
			return;
	/* All spare slots taken: the element stays unused until clear. */
}

static inline bool kh_key_eq(const struct khist_map *map,
			     const struct khist_map_elt *elt, const void *key)
{
	const u8 *k = (const u8 *)elt->data + map->off_key;

	/* The common one-word key (pid, cpu, pointer) without a call. */
	if (map->p.key_size == 8)
		return kh_load64(k) == kh_load64(key);
	return !memcmp(k, key, map->p.key_size);
}

/* Probe steps the quick walk takes before it leaves the key to kh_find(). */
#define KH_QUICK_STEPS 4

/*
 * The common case of insert and lookup, for keys of one or two words (a
 * pid, a syscall, a pointer, two of them): the key is already in the
 * table, a few slots from its hash. The hash is inline and nothing is
 * written. NULL sends the caller to kh_find(), which also handles new
 * keys, growth and full tables, with the key's hash in *@hp (computed
 * once: a new key is not hashed again).
 */
static __always_inline struct khist_map_elt *
kh_find_quick(struct khist_map *map, const void *key, u32 *hp)
{
	u32 words = map->p.key_size / sizeof(u64), h, i, n;
	const u8 *k = key, *ek;
	struct khist_map_table *tab;
	struct khist_map_elt *cand;
	u64 v;

	if (map->p.key_size != 8 && map->p.key_size != 16) {
		*hp = khist_map_hash(key, map->p.key_size);
		return NULL;
	}
	h = kh_hash_words(k, words);
	*hp = h;
	/* Pairs with the release in khist_map_grow(). */
	tab = smp_load_acquire(&map->tab);
	i = h & tab->mask;
	for (n = 0; n < KH_QUICK_STEPS; n++, i = (i + 1) & tab->mask) {
		/* Pairs with the cmpxchg of kh_find(): key before word. */
		v = smp_load_acquire(&tab->slots[i]);
		if (!v || v == KH_SEALED)
			return NULL;
		if ((u32)(v >> 32) != h)
			continue;
		cand = kh_elt(map, (u32)v - 1);
		ek = (const u8 *)cand->data + map->off_key;
		if (kh_load64(ek) == kh_load64(k) &&
		    (words == 1 || kh_load64(ek + 8) == kh_load64(k + 8)))
			return cand;
	}
	return NULL;
}

/* Copies a key into a new element: one or two words without a call. */
static inline void kh_key_copy(const struct khist_map *map, u8 *dst,
			       const void *key)
{
	if (map->p.key_size == 8)
		memcpy(dst, key, 8);
	else if (map->p.key_size == 16)
		memcpy(dst, key, 16);
	else
		memcpy(dst, key, map->p.key_size);
}

/*
 * Takes the standby table and its chunk: from now on new keys go to the
 * standby table and the pool's capacity is doubled, without waiting for
 * the migration (khist_map_grow()). Any context. True when this call
 * made room.
 */
static bool kh_switch(struct khist_map *map)
{
	struct khist_map_table *nt, *tab;

	/* Pairs with the release in kh_prepare(). */
	if (!smp_load_acquire(&map->standby))
		return false;
	/* Full barrier; one caller gets the table. */
	nt = xchg(&map->standby, NULL);
	if (!nt)
		return false;
	/*
	 * A standby exists only while no switch is pending, and only a
	 * switch changes the capacity or (through the migration it asks
	 * for) the current table: both are stable here.
	 */
	tab = smp_load_acquire(&map->tab);
	/*
	 * The capacity first (a table has twice its level's capacity in
	 * slots, so the new capacity is the current table's slot count);
	 * the chunk was ready before the standby was published. Elements
	 * handed out before old->next is seen go to the old table, which
	 * the migration copies. Whoever sees old->next sees this capacity.
	 */
	smp_store_release(&map->cap, tab->mask + 1);
	atomic_set(&map->grow_want, 1);
	/* Updaters that meet a sealed slot must find the new table. */
	smp_store_release(&tab->next, nt);
	return true;
}

/*
 * The walk of insert (@cpu >= 0) and lookup (@cpu < 0) of a key whose
 * khist_map_hash() is @h; *full: no room.
 */
static struct khist_map_elt *kh_find(struct khist_map *map, const void *key,
				     u32 h, int cpu, bool *full)
{
	bool create = cpu >= 0;
	struct khist_map_elt *elt = NULL, *cand;
	struct khist_map_table *tab;
	u32 e = KH_NONE, i, n;
	u64 v, old, word;

	/* Pairs with the release in khist_map_grow(). */
	tab = smp_load_acquire(&map->tab);
next_table:
	i = h & tab->mask;
	for (n = 0; n <= tab->mask; n++, i = (i + 1) & tab->mask) {
		/* Pairs with the cmpxchg below: key before word. */
		v = smp_load_acquire(&tab->slots[i]);
again:
		if (v == KH_SEALED) {
			/* Set (release) before the first seal. */
			tab = smp_load_acquire(&tab->next);
			goto next_table;
		}
		if (!v) {
			if (!create)
				return NULL;
			if (e == KH_NONE) {
				e = kh_pool_get(map, cpu);
				/* Pool empty: the standby makes room now. */
				if (e == KH_NONE && kh_switch(map))
					e = kh_pool_get(map, cpu);
				if (e == KH_NONE)
					break;
				elt = kh_elt(map, e);
				kh_key_copy(map, (u8 *)elt->data + map->off_key,
					    key);
				if (map->ops && map->ops->elt_init)
					map->ops->elt_init(elt, map->priv);
			}
			/*
			 * A table with a next one takes no new key: seal
			 * the slot (or see what won it) and go on there.
			 */
			if (smp_load_acquire(&tab->next)) {
				if (!cmpxchg(&tab->slots[i], 0, KH_SEALED))
					v = KH_SEALED;
				else /* Lost: acquire the winner's word. */
					v = smp_load_acquire(&tab->slots[i]);
				goto again;
			}
			word = ((u64)h << 32) | (e + 1);
			/*
			 * Full barrier: the key and elt_init's writes are
			 * visible before the word that publishes them.
			 */
			old = cmpxchg(&tab->slots[i], 0, word);
			if (!old) {
				n = atomic_inc_return(&map->entries);
				/* Capacity only grows; any value will do. */
				if (n >= smp_load_acquire(&map->cap) / 4 * 3)
					atomic_set(&map->grow_want, 1);
				return elt;
			}
			/* A failed cmpxchg does not order: load again. */
			v = smp_load_acquire(&tab->slots[i]);
			goto again;
		}
		if ((u32)(v >> 32) != h)
			continue;
		cand = kh_elt(map, (u32)v - 1);
		if (kh_key_eq(map, cand, key)) {
			if (e != KH_NONE)
				kh_pool_put(map, e, cpu);
			return cand;
		}
	}
	/* Pool empty (or, never expected, a table with no empty slot). */
	if (e != KH_NONE)
		kh_pool_put(map, e, cpu);
	*full = true;
	return NULL;
}

/* Insert's slow half: new keys, long walks, growth, drops (out of line). */
static noinline struct khist_map_elt *
kh_insert_slow(struct khist_map *map, const void *key, u32 h, int cpu)
{
	struct khist_map_pcpu_stats *st = &map->stats[cpu];
	struct khist_map_elt *elt;
	bool full = false;

	elt = kh_find(map, key, h, cpu, &full);
	if (likely(elt)) {
		local64_inc(&st->hits);
		return elt;
	}
	local64_inc(&st->drops);
	if (!atomic_read(&map->grow_want))
		atomic_set(&map->grow_want, 1);
	if (map->ovf_chunk.elts)
		return (struct khist_map_elt *)map->ovf_chunk.elts;
	return NULL;
}

/**
 * khist_map_insert() - find the element of a key, creating it if new
 * @map: map
 * @key: map->p.key_size bytes
 *
 * Counts a hit when an element is returned. When the key is new and the
 * pool is empty, counts a drop, asks for growth (khist_map_should_grow())
 * and returns the overflow element if the map has one, else NULL.
 *
 * Context: any, NMI included, with preemption disabled; lock-free, never
 * allocates, never spins on another CPU.
 * Return: the element, the overflow element, or NULL.
 */
struct khist_map_elt *khist_map_insert(struct khist_map *map, const void *key)
{
	int cpu = raw_smp_processor_id();
	struct khist_map_elt *elt;
	u32 h;

	elt = kh_find_quick(map, key, &h);
	if (likely(elt)) {
		local64_inc(&map->stats[cpu].hits);
		return elt;
	}
	return kh_insert_slow(map, key, h, cpu);
}
EXPORT_SYMBOL_NS_GPL(khist_map_insert, KHIST_INTERNAL);

static noinline struct khist_map_elt *kh_lookup_slow(struct khist_map *map,
						     const void *key, u32 h)
{
	bool full = false;

	return kh_find(map, key, h, -1, &full);
}

/**
 * khist_map_lookup() - find the element of a key without creating it
 * @map: map
 * @key: map->p.key_size bytes
 *
 * Counts nothing.
 *
 * Context: any, NMI included.
 * Return: the element or NULL.
 */
struct khist_map_elt *khist_map_lookup(struct khist_map *map, const void *key)
{
	struct khist_map_elt *elt;
	u32 h;

	elt = kh_find_quick(map, key, &h);
	return elt ? elt : kh_lookup_slow(map, key, h);
}
EXPORT_SYMBOL_NS_GPL(khist_map_lookup, KHIST_INTERNAL);

/* Puts a migrated word into the new table; keys there are all distinct. */
static void kh_migrate_word(struct khist_map_table *t, u64 word)
{
	u32 i = (u32)(word >> 32) & t->mask;

	/* Full barrier: the element is complete before the word. */
	while (cmpxchg(&t->slots[i], 0, word))
		i = (i + 1) & t->mask;
}

/*
 * Allocates the next level ahead (an element chunk as big as the pool and
 * a slot table for twice the capacity) and publishes it as map->standby;
 * nothing when one is ready. Process context, serialised with grow,
 * clear and destroy, and only while no switch is pending. Returns 0;
 * -E2BIG at grow_limit, past mem_cap or when ops->charge refuses (each
 * counted in grow_refused); -ENOMEM.
 */
static int kh_prepare(struct khist_map *map)
{
	struct khist_map_table *nt;
	struct khist_map_chunk *c;
	struct kh_layout l;
	u64 add;
	u32 cap;

	/*
	 * A standby was made for this level: it is ready or an insert has
	 * taken it (its switch may still be under way).
	 */
	if (map->prepared)
		return 0;
	/* The current table's level (its slots are twice its capacity). */
	cap = (map->tab->mask + 1) / 2;
	if (!map->p.grow_limit || cap >= map->p.grow_limit)
		goto refused;
	kh_layout(&map->p, &l);
	add = kh_chunk_bytes(&map->p, &l, cap) + kh_table_bytes(4ULL * cap);
	if (map->p.mem_cap && map->mem + add > map->p.mem_cap)
		goto refused;
	if (map->ops && map->ops->charge && map->ops->charge(map->priv, add))
		goto refused;
	c = &map->chunks[map->n_chunks];
	if (kh_chunk_alloc(map, c, cap, cap))
		goto nomem;
	nt = kh_table_alloc(4 * cap);
	if (!nt) {
		kh_chunk_free(c);
		goto nomem;
	}
	map->n_chunks++;
	map->mem += add;
	if (map->ops && map->ops->charge)
		map->charged += add;
	map->prepared = true;
	/* The chunk is set up before an inserter can take the table. */
	smp_store_release(&map->standby, nt);
	return 0;
nomem:
	if (map->ops && map->ops->charge)
		map->ops->charge(map->priv, -(s64)add);
	return -ENOMEM;
refused:
	WRITE_ONCE(map->grow_refused, map->grow_refused + 1);
	return -E2BIG;
}

/**
 * khist_map_grow() - double the capacity while updaters keep running
 * @map: map
 *
 * Switches to the next level unless an insert already did (allocating it
 * first when no standby is ready), moves the old table's keys over (see
 * the comment at the top of map.c) and allocates the level after it as
 * the new standby; a refusal of that last step is counted in
 * grow_refused but is not an error of this growth: the growth that needs
 * the level returns it. Calls must be serialised
 * with each other and with clear, snapshot, iteration and destroy.
 *
 * Context: process context, may sleep.
 * Return: 0; -E2BIG at grow_limit, when mem_cap would be passed or when
 * ops->charge refuses (all three counted in grow_refused); -ENOMEM.
 */
int khist_map_grow(struct khist_map *map)
{
	struct khist_map_table *old = map->tab, *nt;
	int ret;
	u32 i;
	u64 v;

	/* Pairs with the release in kh_switch(). */
	nt = smp_load_acquire(&old->next);
	if (!nt) {
		ret = kh_prepare(map);
		if (ret)
			return ret;
		/*
		 * Lost to an insert: it publishes old->next right after its
		 * xchg, with preemption off, so this wait is short.
		 */
		kh_switch(map);
		/* Pairs with the release in kh_switch(). */
		while (!(nt = smp_load_acquire(&old->next)))
			cpu_relax();
	}
	for (i = 0; i <= old->mask; i++) {
		/* Pairs with the publishing cmpxchg: element before word. */
		v = smp_load_acquire(&old->slots[i]);
		while (!v) {
			v = cmpxchg(&old->slots[i], 0, KH_SEALED);
			if (!v)
				v = KH_SEALED;
			else /* Lost to an inserter: acquire its word. */
				v = smp_load_acquire(&old->slots[i]);
		}
		if (v != KH_SEALED)
			kh_migrate_word(nt, v);
	}
	/* Every old key is in @nt: new walks may start there. */
	smp_store_release(&map->tab, nt);
	old->retired = map->old;
	map->old = old;
	map->prepared = false;
	atomic_set(&map->grow_want, 0);
	/* The next level, ready before a burst needs it. */
	if (smp_load_acquire(&map->cap) < map->p.grow_limit)
		kh_prepare(map);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(khist_map_grow, KHIST_INTERNAL);

/**
 * khist_map_clear() - make the map empty again
 * @map: map
 *
 * Empties the slot table and zeroes every sum, variable and flag, the
 * counters and the overflow element; capacity and memory stay. Like the
 * kernel's clear it does not stop updaters: for an exact result the owner
 * pauses them first. An update racing with clear may be lost or land in
 * an element that gets reused for another key; memory safety is not
 * affected (all indexes stay in bounds, every walk ends).
 *
 * Context: process context.
 */
void khist_map_clear(struct khist_map *map)
{
	struct khist_map_table *t = map->tab, *nt;
	u32 n, i, c;
	int cpu;

	/* Pairs with the release of old->next in kh_switch(). */
	nt = smp_load_acquire(&t->next);
	/* Pairs with the release of the capacity in kh_switch(). */
	n = smp_load_acquire(&map->cap);
	n = min_t(u32, atomic_read(&map->next_elt), n);

	for (i = 0; i <= t->mask; i++)
		WRITE_ONCE(t->slots[i], 0);
	/* A switch not yet migrated: its keys are in the next table. */
	for (i = 0; nt && i <= nt->mask; i++)
		WRITE_ONCE(nt->slots[i], 0);
	for (i = 0; i < KHIST_MAP_SPARES; i++)
		atomic_set(&map->spares[i], 0);
	for (i = 0; i < n; i++)
		memset(kh_elt(map, i)->data, 0, map->off_key);
	if (map->ovf_chunk.elts)
		memset(((struct khist_map_elt *)map->ovf_chunk.elts)->data, 0,
		       map->off_key);
	for (c = 0; c <= map->n_chunks; c++) {
		struct khist_map_chunk *ch =
			c < map->n_chunks ? &map->chunks[c] : &map->ovf_chunk;

		if (!ch->pcpu)
			continue;
		for_each_possible_cpu(cpu)
			memset(ch->pcpu[cpu], 0,
			       (size_t)ch->n * map->p.n_sums *
				       sizeof(local64_t));
	}
	for_each_possible_cpu(cpu) {
		local64_set(&map->stats[cpu].hits, 0);
		local64_set(&map->stats[cpu].drops, 0);
	}
	atomic_set(&map->entries, 0);
	/* A pending switch still wants its migration. */
	atomic_set(&map->grow_want, nt ? 1 : 0);
	/* The pool is reopened last, after everything above is zero. */
	smp_mb();
	atomic_set(&map->next_elt, 0);
}
EXPORT_SYMBOL_NS_GPL(khist_map_clear, KHIST_INTERNAL);

/**
 * khist_map_read_sum() - current value of one sum of an element
 * @elt: element
 * @i:   sum number
 *
 * Per-CPU mode adds up every CPU's copy; each copy is read atomically,
 * the total is not a snapshot of all CPUs at one instant.
 *
 * Context: any.
 * Return: the sum.
 */
u64 khist_map_read_sum(const struct khist_map_elt *elt, unsigned int i)
{
	const atomic64_t *sums;
	u64 s = 0;
	int cpu;

	if (!elt->pcpu) {
		sums = (const atomic64_t *)((const u8 *)elt->data +
					    elt->map->off_sums);
		return (u64)atomic64_read(&sums[i]);
	}
	for_each_possible_cpu(cpu)
		s += (u64)local64_read(&elt->pcpu[cpu][elt->sum_off + i]);
	return s;
}
EXPORT_SYMBOL_NS_GPL(khist_map_read_sum, KHIST_INTERNAL);

/**
 * khist_map_get_stats() - the map's counters
 * @map: map
 * @st:  filled in
 *
 * Context: any.
 */
void khist_map_get_stats(const struct khist_map *map,
			 struct khist_map_stats *st)
{
	const struct khist_map_table *tab;
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		st->hits += (u64)local64_read(&map->stats[cpu].hits);
		st->drops += (u64)local64_read(&map->stats[cpu].drops);
	}
	st->entries = atomic_read(&map->entries);
	/* Pairs with the release in khist_map_grow(). */
	st->max = smp_load_acquire(&map->cap);
	st->mem = map->mem;
	st->overflow = map->ovf_chunk.elts;
	/* Pairs with the releases in kh_prepare() and kh_switch(). */
	st->standby = smp_load_acquire(&map->standby);
	/* Pairs with the release of the table in khist_map_grow(). */
	tab = smp_load_acquire(&map->tab);
	/* Pairs with the release of old->next in kh_switch(). */
	st->switched = smp_load_acquire(&tab->next);
	st->grow_refused = READ_ONCE(map->grow_refused);
}
EXPORT_SYMBOL_NS_GPL(khist_map_get_stats, KHIST_INTERNAL);

/**
 * khist_map_overflow() - the element that collects keys that did not fit
 * @map: map
 *
 * Context: any.
 * Return: the overflow element, NULL unless KHIST_MAP_F_OVERFLOW.
 */
struct khist_map_elt *khist_map_overflow(const struct khist_map *map)
{
	return (struct khist_map_elt *)map->ovf_chunk.elts;
}
EXPORT_SYMBOL_NS_GPL(khist_map_overflow, KHIST_INTERNAL);

/**
 * khist_map_next() - iterate over the map's elements
 * @map: map
 * @pos: cursor, 0 to start
 *
 * Walks the slot table; elements inserted during the walk may or may not
 * be returned, none is returned twice. Serialise with grow and clear.
 *
 * Context: any.
 * Return: the next element, or NULL at the end.
 */
struct khist_map_elt *khist_map_next(const struct khist_map *map, u32 *pos)
{
	const struct khist_map_table *t = map->tab, *nt;
	u32 n = t->mask + 1;
	u64 v;

	while (*pos < n) {
		/* Pairs with the publishing cmpxchg in kh_find(). */
		v = smp_load_acquire(&t->slots[(*pos)++]);
		if (v && v != KH_SEALED)
			return kh_elt(map, (u32)v - 1);
	}
	/*
	 * A switch not yet migrated: the keys inserted since are in the next
	 * table, none of them in this one (pairs with kh_switch()).
	 */
	nt = smp_load_acquire(&t->next);
	while (nt && *pos - n <= nt->mask) {
		/* Pairs with the publishing cmpxchg in kh_find(). */
		v = smp_load_acquire(&nt->slots[*pos - n]);
		(*pos)++;
		if (v && v != KH_SEALED)
			return kh_elt(map, (u32)v - 1);
	}
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(khist_map_next, KHIST_INTERNAL);
