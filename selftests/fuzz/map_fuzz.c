// SPDX-License-Identifier: GPL-2.0
/*
 * map_fuzz.c - libFuzzer target: sequences of histogram map operations,
 * checked step by step against a trivial reference (an array searched
 * linearly, keyed by the key bytes).
 *
 * The first three bytes choose the map: capacity, growth limit, sum mode
 * (auto, per-CPU, atomic), overflow element, key size (4..384), number of
 * sums and variables, extra area, a memory cap, and an allocation to fail
 * during creation. Each following byte is an operation, with its operands
 * in the next bytes: insert (and add to a sum, wrapping), lookup, set a
 * variable, clear, grow, sorted snapshot (up to two sort keys of any
 * kind), iteration, statistics, and grow/snapshot with an allocation made
 * to fail. Checked after every operation: the element returned, element
 * indexes (first-inserted first), sums, variables and their "set" flags,
 * the extra area written by elt_init, hits, drops, entries, capacity,
 * should_grow, the snapshot's order, sums and totals, that a failed grow
 * or snapshot changes nothing, and that destroy frees everything.
 */
#include <kshim/kernel.h>
#include "map.h"

#define NSUMS KHIST_MAP_SUMS_MAX
#define NVARS KHIST_MAP_VARS_MAX
#define REF_MAX 4096

struct ref_ent {
	u8 key[KHIST_MAP_KEY_MAX];
	u32 idx;
	u64 sums[NSUMS];
	u64 vars[NVARS];
	bool set[NVARS];
	struct khist_map_elt *elt;
};

struct ref {
	struct ref_ent *ent;
	u32 n, cap;
	u64 hits, drops;
	bool want;
	bool standby; /* the next level is ready (the map's stats say) */
	bool switched; /* an insert switched; the growth migrates */
	u64 ovf[NSUMS];
	u32 head[4096]; /* FNV-1a of the key -> first entry + 1 */
	u32 chain[REF_MAX]; /* entry -> next entry + 1 in its bucket */
};

static struct khist_map_params P;
static const u8 *in;
static size_t in_len, in_pos;

static void check(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr,
		"map_fuzz: %s (op at byte %zu; max %u limit %u key %u sums %u vars %u extra %u flags %#x cap %llu)\n",
		what, in_pos, P.max_entries, P.grow_limit, P.key_size, P.n_sums,
		P.n_vars, P.extra_size, P.flags, (unsigned long long)P.mem_cap);
	abort();
}

static u8 next(void)
{
	return in_pos < in_len ? in[in_pos++] : 0;
}

static u64 next64(void)
{
	u64 v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | next();
	return v;
}

/*
 * Key number @id (12 bits): zero bytes but a few, so that keys share
 * prefixes, and different numbers may well give the same key.
 */
static void make_key(u8 *key, u16 id)
{
	u32 ks = P.key_size;
	u8 kb = (u8)id;

	memset(key, 0, ks);
	key[0] = kb & 0x0f;
	key[(kb * 7u + (id >> 8)) % ks] ^= kb;
	key[ks - 1] ^= (u8)(kb >> 4);
}

/* elt_init: the extra area is a function of the key. */
static void fill_extra(u8 *dst, const u8 *key)
{
	u32 i;

	for (i = 0; i < P.extra_size; i++)
		dst[i] = key[i % P.key_size] ^ (u8)i;
}

static void elt_init(struct khist_map_elt *elt, void *priv)
{
	fill_extra(khist_map_elt_extra(elt), khist_map_elt_key(elt));
}

/*
 * The owner's growth budget (ops->charge), on when the first byte has
 * 0x80: room for one doubling, so the next growth is refused by it.
 */
static bool budget_on;
static s64 budget_limit, budget_used;

static int charge(void *priv, s64 bytes)
{
	if (!budget_on)
		return 0;
	if (bytes > 0 && budget_used + bytes > budget_limit)
		return -ENOSPC;
	budget_used += bytes;
	check(budget_used >= 0, "budget given back twice");
	return 0;
}

static const struct khist_map_ops ops = { .elt_init = elt_init,
					  .charge = charge };

static u32 ref_hash(const u8 *key)
{
	u32 h = 2166136261u, i;

	for (i = 0; i < P.key_size; i++)
		h = (h ^ key[i]) * 16777619u;
	return h % 4096;
}

static struct ref_ent *ref_find(struct ref *r, const u8 *key)
{
	u32 i;

	for (i = r->head[ref_hash(key)]; i; i = r->chain[i - 1])
		if (!memcmp(r->ent[i - 1].key, key, P.key_size))
			return &r->ent[i - 1];
	return NULL;
}

static struct ref_ent *ref_add(struct ref *r, const u8 *key)
{
	struct ref_ent *re = &r->ent[r->n];
	u32 h = ref_hash(key);

	memset(re, 0, sizeof(*re));
	memcpy(re->key, key, P.key_size);
	re->idx = r->n++;
	r->chain[re->idx] = r->head[h];
	r->head[h] = r->n;
	return re;
}

static void check_elt(const struct ref_ent *re, bool full)
{
	u8 extra[KHIST_MAP_EXTRA_MAX];
	u32 i;

	check(re->elt->idx == re->idx, "element index");
	if (!full)
		return;
	check(!memcmp(khist_map_elt_key(re->elt), re->key, P.key_size),
	      "element key");
	fill_extra(extra, re->key);
	check(!memcmp(khist_map_elt_extra(re->elt), extra, P.extra_size),
	      "extra area");
	for (i = 0; i < P.n_sums; i++)
		check(khist_map_read_sum(re->elt, i) == re->sums[i], "sum");
	for (i = 0; i < P.n_vars; i++) {
		check(khist_map_var_is_set(re->elt, i) == re->set[i],
		      "variable flag");
		check(khist_map_get_var(re->elt, i) == re->vars[i],
		      "variable value");
	}
}

static void check_stats(struct khist_map *map, struct ref *r)
{
	struct khist_map_stats st;

	khist_map_get_stats(map, &st);
	check(st.hits == r->hits, "hits");
	check(st.drops == r->drops, "drops");
	check(st.entries == r->n, "entries");
	check(st.max == r->cap, "capacity");
	check(st.overflow == !!(P.flags & KHIST_MAP_F_OVERFLOW), "overflow");
	check(st.switched == r->switched, "switch pending");
	check(st.standby == r->standby, "standby");
	check(!st.standby || !r->switched, "standby while switched");
	check(khist_map_should_grow(map) ==
		      ((P.grow_limit > r->cap || r->switched) && r->want),
	      "should_grow");
}

static void op_insert(struct khist_map *map, struct ref *r, u16 id, bool add)
{
	u8 key[KHIST_MAP_KEY_MAX];
	struct khist_map_elt *e;
	struct ref_ent *re;
	u32 i;
	u64 v;

	make_key(key, id);
	re = ref_find(r, key);
	e = khist_map_insert(map, key);
	/* A full pool with the next level ready: the insert switches. */
	if (!re && r->n == r->cap && r->standby) {
		r->cap *= 2;
		r->standby = false;
		r->switched = true;
		r->want = true;
	}
	if (!re && r->n < r->cap) {
		re = ref_add(r, key);
		re->elt = e;
		/* The map asks for growth once a new key fills 3/4. */
		if (r->n >= r->cap / 4 * 3)
			r->want = true;
		check(e && !khist_map_elt_is_overflow(e), "new key");
	}
	if (re) {
		r->hits++;
		check(e == re->elt, "insert of a known key");
		check_elt(re, add);
	} else {
		r->drops++;
		r->want = true;
		check(e == khist_map_overflow(map), "insert into a full map");
	}
	if (!e || !P.n_sums || !add)
		return;
	i = next() % P.n_sums;
	v = next() & 1 ? next64() : next();
	khist_map_add(e, i, v);
	if (re)
		re->sums[i] += v;
	else
		r->ovf[i] += v;
}

static void op_lookup(struct khist_map *map, struct ref *r, u16 id)
{
	u8 key[KHIST_MAP_KEY_MAX];
	struct ref_ent *re;

	make_key(key, id);
	re = ref_find(r, key);
	check(khist_map_lookup(map, key) == (re ? re->elt : NULL), "lookup");
	if (re)
		check_elt(re, true);
}

static void op_set_var(struct ref *r)
{
	struct ref_ent *re;
	u32 i;
	u64 v;

	if (!r->n || !P.n_vars)
		return;
	re = &r->ent[next() % r->n];
	i = next() % P.n_vars;
	v = next64();
	khist_map_set_var(re->elt, i, v);
	re->vars[i] = v;
	re->set[i] = true;
	check_elt(re, true);
}

static void op_clear(struct khist_map *map, struct ref *r)
{
	khist_map_clear(map);
	r->n = 0;
	r->hits = 0;
	r->drops = 0;
	/* A pending switch still wants its migration. */
	r->want = r->switched;
	memset(r->ovf, 0, sizeof(r->ovf));
	memset(r->head, 0, sizeof(r->head));
}

static void op_grow(struct khist_map *map, struct ref *r, long fail)
{
	struct khist_map_stats before, after;
	int ret;

	khist_map_get_stats(map, &before);
	check(before.standby == r->standby && before.switched == r->switched,
	      "standby and switch before a growth");
	kshim_fail_after(fail);
	ret = khist_map_grow(map);
	kshim_fail_after(-1);
	khist_map_get_stats(map, &after);
	/* Only a growth makes the next level; the reference follows. */
	r->standby = after.standby;
	if (!ret) {
		/* An insert's switch already doubled the capacity. */
		if (!r->switched)
			r->cap *= 2;
		r->switched = false;
		r->want = false;
		check(r->cap <= P.grow_limit, "grew past grow_limit");
		check(!after.switched, "migrated");
		/*
		 * Memory rises when the growth allocated: the level it
		 * switched to (none was ready) or the one after (ready now).
		 */
		check((after.mem > before.mem) ==
			      ((!before.standby && !before.switched) ||
			       after.standby),
		      "memory after growth");
		check(after.mem >= before.mem, "memory after growth");
		check(!P.mem_cap || after.mem <= P.mem_cap, "memory cap");
		check(!budget_on || budget_used <= budget_limit, "budget");
		/* Only the level after it may be refused, ahead of need. */
		check(after.grow_refused == before.grow_refused ||
			      (after.grow_refused == before.grow_refused + 1 &&
			       !after.standby && r->cap < P.grow_limit),
		      "refusal counted on success");
		check(!after.standby || r->cap < P.grow_limit,
		      "standby past grow_limit");
		return;
	}
	check(!before.switched, "a pending switch's growth failed");
	check(ret == -E2BIG || (ret == -ENOMEM && fail >= 0), "grow error");
	check(ret != -E2BIG || r->cap >= P.grow_limit || P.mem_cap || budget_on,
	      "-E2BIG below the limits");
	check(after.mem == before.mem, "memory after a failed growth");
	check(after.grow_refused == before.grow_refused + (ret == -E2BIG),
	      "refusals counted");
}

/* Reference order, written independently of map_sort.c. */
static const struct khist_map_sort_key *skeys;
static unsigned int n_skeys;

static u64 rd_u(const u8 *p, u16 size)
{
	u64 v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static s64 rd_s(const u8 *p, u16 size)
{
	u64 v = rd_u(p, size);
	unsigned int sh = 64 - 8 * size;

	return (s64)(v << sh) >> sh;
}

static int ref_cmp(const struct ref_ent *x, const struct ref_ent *y)
{
	unsigned int i;
	int c = 0;

	for (i = 0; i < n_skeys; i++) {
		const struct khist_map_sort_key *k = &skeys[i];
		const u8 *a = x->key + k->field, *b = y->key + k->field;

		switch (k->kind) {
		case KHIST_MAP_SORT_SUM:
			c = x->sums[k->field] < y->sums[k->field] ?
				    -1 :
				    x->sums[k->field] > y->sums[k->field];
			break;
		case KHIST_MAP_SORT_KEY_U:
			c = rd_u(a, k->size) < rd_u(b, k->size) ?
				    -1 :
				    rd_u(a, k->size) > rd_u(b, k->size);
			break;
		case KHIST_MAP_SORT_KEY_S:
			c = rd_s(a, k->size) < rd_s(b, k->size) ?
				    -1 :
				    rd_s(a, k->size) > rd_s(b, k->size);
			break;
		case KHIST_MAP_SORT_KEY_STR:
			c = strncmp((const char *)a, (const char *)b, k->size);
			c = c < 0 ? -1 : c > 0;
			break;
		default:
			c = memcmp(a, b, k->size);
			c = c < 0 ? -1 : c > 0;
		}
		if (c)
			return k->descending ? -c : c;
	}
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int ref_qcmp(const void *a, const void *b)
{
	return ref_cmp(*(struct ref_ent *const *)a,
		       *(struct ref_ent *const *)b);
}

static bool decode_sort_key(struct khist_map_sort_key *k)
{
	static const u16 sizes[] = { 1, 2, 4, 8 };
	u8 a = next(), b = next();

	k->kind = a % 5;
	k->descending = a & 0x80;
	if (k->kind == KHIST_MAP_SORT_SUM) {
		k->field = b % (P.n_sums + 1);
		k->size = 0;
	} else {
		k->size = k->kind <= KHIST_MAP_SORT_KEY_S ?
				  sizes[(a >> 3) & 3] :
				  1 + b % 16;
		k->field = b % (P.key_size + 1);
	}
	/* Whether khist_map_snapshot() must accept it. */
	if (k->kind == KHIST_MAP_SORT_SUM)
		return k->field < P.n_sums;
	return (u32)k->field + k->size <= P.key_size;
}

static void op_snapshot(struct khist_map *map, struct ref *r, long fail)
{
	struct khist_map_sort_key keys[KHIST_MAP_SORT_KEYS_MAX];
	struct khist_map_snapshot *snap;
	static struct ref_ent *order[REF_MAX];
	u64 totals[NSUMS] = { 0 };
	bool valid = true;
	u32 i, j;
	int ret;

	n_skeys = next() % (KHIST_MAP_SORT_KEYS_MAX + 1);
	for (i = 0; i < n_skeys; i++)
		valid &= decode_sort_key(&keys[i]);
	skeys = keys;
	kshim_fail_after(fail);
	ret = khist_map_snapshot(map, keys, n_skeys, &snap);
	kshim_fail_after(-1);
	if (!valid) {
		check(ret == -EINVAL && !snap, "invalid sort key accepted");
		return;
	}
	if (ret) {
		check(ret == -ENOMEM && fail >= 0 && !snap, "snapshot error");
		return;
	}
	/*
	 * ref_cmp() ends with the element index, so the order is total and
	 * any correct sort gives it: libc's qsort(), not the map's merge sort.
	 */
	for (i = 0; i < r->n; i++)
		order[i] = &r->ent[i];
	qsort(order, r->n, sizeof(*order), ref_qcmp);
	check(snap->n == r->n, "snapshot size");
	check(snap->n_sums == P.n_sums, "snapshot n_sums");
	for (i = 0; i < r->n; i++) {
		check(snap->sorted[i]->elt == order[i]->elt, "snapshot order");
		check(snap->sorted[i]->idx == order[i]->idx, "snapshot index");
		for (j = 0; j < P.n_sums; j++) {
			check(snap->sorted[i]->sums[j] == order[i]->sums[j],
			      "snapshot sum");
			totals[j] += order[i]->sums[j];
		}
	}
	if (P.flags & KHIST_MAP_F_OVERFLOW) {
		check(snap->ovf_sums != NULL, "snapshot overflow sums");
		for (j = 0; j < P.n_sums; j++) {
			check(snap->ovf_sums[j] == r->ovf[j],
			      "snapshot overflow sum");
			totals[j] += r->ovf[j];
		}
	} else {
		check(!snap->ovf_sums, "overflow sums without overflow");
	}
	for (j = 0; j < P.n_sums; j++)
		check(snap->totals[j] == totals[j], "snapshot total");
	check(snap->stats.hits == r->hits && snap->stats.drops == r->drops &&
		      snap->stats.entries == r->n && snap->stats.max == r->cap,
	      "snapshot stats");
	khist_map_snapshot_free(snap);
}

static void op_iterate(struct khist_map *map, struct ref *r)
{
	static u8 seen[REF_MAX];
	struct khist_map_elt *e;
	u32 pos = 0, n = 0;

	memset(seen, 0, r->n);
	while ((e = khist_map_next(map, &pos))) {
		check(e->idx < r->n, "iteration: unknown element");
		check(r->ent[e->idx].elt == e, "iteration: wrong element");
		check(!seen[e->idx]++, "iteration: element twice");
		n++;
	}
	check(n == r->n, "iteration: missing element");
}

static void decode_params(void)
{
	static const u32 key_sizes[] = { 4,  5,	 8,   12,  16,	24,
					 40, 64, 200, 384, 1024 };
	u8 a = next(), b = next(), c = next();

	memset(&P, 0, sizeof(P));
	P.max_entries = 128u << (a & 1);
	P.grow_limit = (a >> 1) & 3 ? P.max_entries << ((a >> 1) & 3) : 0;
	P.flags = ((a >> 3) & 3) == 1 ? KHIST_MAP_F_PERCPU :
		  ((a >> 3) & 3) == 2 ? KHIST_MAP_F_ATOMIC :
					0;
	if (a & 0x20)
		P.flags |= KHIST_MAP_F_OVERFLOW;
	P.key_size = key_sizes[b % ARRAY_SIZE(key_sizes)];
	P.n_sums = (b >> 4) % (NSUMS + 1);
	P.n_vars = c % (NVARS + 1);
	P.extra_size = (c >> 6) * 24;
	/* Room for the map and about one doubling. */
	if (a & 0x40) {
		struct khist_map_mem mem;

		khist_map_mem_size(&P, &mem);
		P.mem_cap = mem.total + mem.total / 2;
	}
	budget_on = a & 0x80;
	budget_used = 0;
	if (budget_on && P.grow_limit) {
		struct khist_map_params q = P;
		struct khist_map_mem mem;

		q.grow_limit = 2 * P.max_entries;
		q.mem_cap = 0;
		khist_map_mem_size(&q, &mem);
		budget_limit = (s64)(mem.total_max - mem.total);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Two "CPUs": per-CPU sums are still summed, creation stays cheap. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	kshim_nr_cpus = 2;
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	long live = kshim_live_allocations(), k;
	static struct ref_ent ents[REF_MAX];
	static struct ref r;
	struct khist_map *map;
	u8 op, fail_create;
	u16 id;

	if (size > 8192)
		return -1;
	in = data;
	in_len = size;
	in_pos = 0;
	memset(&r, 0, sizeof(r));
	r.ent = ents;
	decode_params();
	fail_create = next();
	r.cap = P.max_entries;
	/* Creation with one allocation failing: a clean -ENOMEM. */
	if (fail_create & 0x80) {
		kshim_fail_after(fail_create & 0x7f);
		map = khist_map_create(&P, &ops, NULL);
		kshim_fail_after(-1);
		if (IS_ERR(map)) {
			check(PTR_ERR(map) == -ENOMEM, "create error");
			check(kshim_live_allocations() == live,
			      "memory left by a failed create");
		} else {
			khist_map_destroy(map);
		}
	}
	map = khist_map_create(&P, &ops, NULL);
	check(!IS_ERR(map), "create");
	while (in_pos < in_len) {
		op = next();
		switch (op % 16) {
		case 0 ... 5:
			op_insert(map, &r, next() | (op >> 4) << 8, true);
			break;
		case 6:
			/* A run of new keys, to fill the map in a few bytes. */
			id = next() | (op >> 4) << 8;
			for (k = (next() % 16 + 1) * 8; k > 0; k--)
				op_insert(map, &r, id++ % 4096, false);
			break;
		case 7 ... 8:
			op_lookup(map, &r, next() | (op >> 4) << 8);
			break;
		case 9:
			op_set_var(&r);
			break;
		case 10:
			if (op >> 4 == 0)
				op_clear(map, &r);
			break;
		case 11:
			op_grow(map, &r, -1);
			break;
		case 12:
			op_snapshot(map, &r, -1);
			break;
		case 13:
			op_iterate(map, &r);
			break;
		case 14:
			check_stats(map, &r);
			break;
		default:
			k = next() % 8;
			if (op & 0x10)
				op_grow(map, &r, k);
			else
				op_snapshot(map, &r, k);
			/* A failed call changes nothing. */
			check_stats(map, &r);
		}
	}
	check_stats(map, &r);
	op_iterate(map, &r);
	if (budget_on) {
		struct khist_map_stats st;
		struct khist_map_mem mem;

		khist_map_mem_size(&P, &mem);
		khist_map_get_stats(map, &st);
		check(budget_used == (s64)(st.mem - mem.total),
		      "budget != growth");
	}
	khist_map_destroy(map);
	check(!budget_on || !budget_used, "budget not given back");
	check(kshim_live_allocations() == live, "memory left allocated");
	return 0;
}
