// SPDX-License-Identifier: GPL-2.0
/*
 * map_ref_test.c - the histogram map against a trivial reference (an
 * array searched linearly), on the same random sequence of inserts,
 * lookups, adds, variable sets, clears, growths and sorted snapshots.
 * Several seeds and shapes; prints TAP, exits 1 on any difference.
 */
#include <kshim/kernel.h>
#include "map.h"

struct rkey {
	u32 a;
	s32 b;
	char s[4];
};

struct ref_ent {
	struct rkey key;
	u32 idx;
	u64 sums[3];
	u64 vars[2];
	bool set[2];
	struct khist_map_elt *elt;
};

struct ref {
	struct ref_ent *ent;
	u32 n, cap, limit;
	u64 hits, drops;
	bool overflow;
	u64 ovf[3];
};

static u64 rng_state;

static u32 rnd(u32 n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rng_state >> 33) % n;
}

static struct ref_ent *ref_find(struct ref *r, const struct rkey *k)
{
	u32 i;

	for (i = 0; i < r->n; i++)
		if (!memcmp(&r->ent[i].key, k, sizeof(*k)))
			return &r->ent[i];
	return NULL;
}

static const struct khist_map_sort_key *ref_keys;
static unsigned int ref_nkeys;

static int ref_cmp(const struct ref_ent *x, const struct ref_ent *y)
{
	const struct khist_map_sort_key *k;
	unsigned int i;
	s64 d = 0;
	int r = 0;

	for (i = 0; i < ref_nkeys; i++) {
		k = &ref_keys[i];
		if (k->kind == KHIST_MAP_SORT_SUM)
			r = x->sums[k->field] < y->sums[k->field] ?
				    -1 :
				    x->sums[k->field] > y->sums[k->field];
		else if (k->kind == KHIST_MAP_SORT_KEY_U)
			r = x->key.a < y->key.a ? -1 : x->key.a > y->key.a;
		else if (k->kind == KHIST_MAP_SORT_KEY_S)
			r = (d = (s64)x->key.b - y->key.b) < 0 ? -1 : d > 0;
		else
			r = strncmp(x->key.s, y->key.s, 4);
		if (r)
			return k->descending ? -r : r;
	}
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static const struct khist_map_sort_key sort_choices[] = {
	{ KHIST_MAP_SORT_SUM, false, 0 },
	{ KHIST_MAP_SORT_SUM, true, 1 },
	{ KHIST_MAP_SORT_SUM, true, 2 },
	{ KHIST_MAP_SORT_KEY_U, false, 0, 4 },
	{ KHIST_MAP_SORT_KEY_S, true, 4, 4 },
	{ KHIST_MAP_SORT_KEY_STR, false, 8, 4 },
	{ KHIST_MAP_SORT_KEY_STR, true, 8, 4 },
};

static int check_snapshot(struct khist_map *map, struct ref *r)
{
	struct khist_map_sort_key keys[2];
	struct khist_map_snapshot *snap;
	struct ref_ent **order, *t;
	u32 i, j;
	int bad = 0;

	ref_nkeys = rnd(3);
	for (i = 0; i < ref_nkeys; i++)
		keys[i] = sort_choices[rnd(ARRAY_SIZE(sort_choices))];
	ref_keys = keys;
	if (khist_map_snapshot(map, keys, ref_nkeys, &snap))
		return 1;
	order = calloc(r->n + 1, sizeof(*order));
	for (i = 0; i < r->n; i++) {
		/* Insertion sort: obviously right, obviously stable. */
		t = &r->ent[i];
		for (j = i; j > 0 && ref_cmp(order[j - 1], t) > 0; j--)
			order[j] = order[j - 1];
		order[j] = t;
	}
	if (snap->n != r->n)
		bad++;
	for (i = 0; !bad && i < r->n; i++) {
		if (snap->sorted[i]->elt != order[i]->elt ||
		    memcmp(snap->sorted[i]->sums, order[i]->sums,
			   sizeof(order[i]->sums)))
			bad++;
	}
	if (r->overflow && memcmp(snap->ovf_sums, r->ovf, sizeof(r->ovf)))
		bad++;
	if (snap->stats.hits != r->hits || snap->stats.drops != r->drops ||
	    snap->stats.entries != r->n || snap->stats.max != r->cap)
		bad++;
	free(order);
	khist_map_snapshot_free(snap);
	return bad;
}

static int run_seed(u64 seed, u32 entries, u32 limit, u32 flags, u32 dom)
{
	struct khist_map_params p = {
		.max_entries = entries,
		.grow_limit = limit,
		.key_size = sizeof(struct rkey),
		.n_sums = 3,
		.n_vars = 2,
		.flags = flags,
	};
	static const char *const strs[] = { "ab", "abc", "b", "", "zz" };
	struct ref r = { .cap = entries, .limit = limit };
	struct khist_map_elt *e;
	struct khist_map *map;
	struct ref_ent *re;
	struct rkey k;
	u32 op, i, v;
	int bad = 0;

	rng_state = seed;
	map = khist_map_create(&p, NULL, NULL);
	if (IS_ERR(map))
		return 1;
	r.overflow = flags & KHIST_MAP_F_OVERFLOW;
	r.ent = calloc(limit ? limit : entries, sizeof(*r.ent));
	for (op = 0; op < 20000 && !bad; op++) {
		memset(&k, 0, sizeof(k));
		k.a = rnd(dom);
		k.b = (s32)rnd(7) - 3;
		strcpy(k.s, strs[k.a % 5]);
		re = ref_find(&r, &k);
		switch (rnd(100)) {
		case 0:
			khist_map_clear(map);
			r.n = 0;
			r.hits = 0;
			r.drops = 0;
			memset(r.ovf, 0, sizeof(r.ovf));
			break;
		case 1 ... 2:
			if (khist_map_grow(map) == 0)
				r.cap *= 2;
			else if (limit > r.cap)
				bad++;
			break;
		case 3 ... 5:
			bad += check_snapshot(map, &r);
			break;
		case 6 ... 20:
			e = khist_map_lookup(map, &k);
			if (e != (re ? re->elt : NULL))
				bad++;
			if (re && e &&
			    (khist_map_var_is_set(e, 1) != re->set[1] ||
			     khist_map_get_var(e, 1) != re->vars[1]))
				bad++;
			break;
		default:
			e = khist_map_insert(map, &k);
			if (!re && r.n < r.cap) {
				re = &r.ent[r.n];
				memset(re, 0, sizeof(*re));
				re->key = k;
				re->idx = r.n++;
				re->elt = e;
				if (!e || e->idx != re->idx)
					bad++;
			}
			if (re) {
				r.hits++;
				if (e != re->elt)
					bad++;
			} else {
				r.drops++;
				if (e != khist_map_overflow(map))
					bad++;
			}
			if (!e)
				break;
			i = rnd(3);
			v = rnd(1000);
			khist_map_add(e, i, v);
			if (re)
				re->sums[i] += v;
			else
				r.ovf[i] += v;
			if (re && rnd(4) == 0) {
				i = rnd(2);
				khist_map_set_var(e, i, v);
				re->vars[i] = v;
				re->set[i] = true;
			}
		}
	}
	if (!bad)
		bad += check_snapshot(map, &r);
	if (bad)
		printf("# seed %llu: differs at op %u\n",
		       (unsigned long long)seed, op);
	free(r.ent);
	khist_map_destroy(map);
	return bad;
}

int main(void)
{
	static const struct {
		u32 entries, limit, flags, dom;
	} shapes[] = {
		{ 128, 0, KHIST_MAP_F_PERCPU, 100 },
		{ 128, 0, KHIST_MAP_F_ATOMIC | KHIST_MAP_F_OVERFLOW, 300 },
		{ 128, 1024, 0, 1500 },
		{ 256, 2048, KHIST_MAP_F_OVERFLOW, 600 },
	};
	static const u64 seeds[] = { 1, 42, 20240601, 0xdeadbeef };
	unsigned int s, i;
	int tap = 0, failed = 0, bad;

	printf("TAP version 13\n");
	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		for (i = 0; i < ARRAY_SIZE(seeds); i++) {
			bad = run_seed(seeds[i], shapes[s].entries,
				       shapes[s].limit, shapes[s].flags,
				       shapes[s].dom);
			failed += bad != 0;
			printf("%sok %d - shape %u (%u..%u entries, flags %#x, %u keys) seed %llu\n",
			       bad ? "not " : "", ++tap, s, shapes[s].entries,
			       shapes[s].limit, shapes[s].flags, shapes[s].dom,
			       (unsigned long long)seeds[i]);
		}
	}
	printf("1..%d\n", tap);
	return failed ? 1 : 0;
}
