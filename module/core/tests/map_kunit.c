// SPDX-License-Identifier: GPL-2.0
/*
 * map_kunit.c - tests of the histogram map: insert/find over every key
 * size, no duplicates (also when an insert is nested inside another, as
 * an NMI would), full map, drops and the overflow element, growth, clear,
 * variables, sorted snapshots, allocation failure at every point, and the
 * memory cap. Every table-driven case runs with per-CPU and shared sums.
 */
#include <kunit/test.h>
#include "map.h"

static const u32 sum_modes[] = { KHIST_MAP_F_PERCPU, KHIST_MAP_F_ATOMIC };

static struct khist_map_params mk_params(u32 entries, u32 key_size, u32 flags)
{
	struct khist_map_params p = {
		.max_entries = entries,
		.key_size = key_size,
		.n_sums = 3,
		.n_vars = 4,
		.extra_size = 16,
		.flags = flags,
	};

	return p;
}

/* Key number @i spread over @size bytes; distinct for distinct @i. */
static void mk_key(u8 *key, u32 size, u32 i)
{
	u32 j;

	for (j = 0; j < size; j++)
		key[j] = (u8)((i * 131u + j * 7u) ^ (j < 4 ? i >> (8 * j) : 0));
	memcpy(key, &i, 4);
}

static void map_insert_find_key_sizes(struct kunit *test)
{
	static const u32 sizes[] = { 4,	 5,   7,   8,	12,  16,  24,
				     33, 100, 255, 256, 383, 1024 };
	static u8 key[KHIST_MAP_KEY_MAX];
	struct khist_map_stats st;
	struct khist_map_params p;
	static struct khist_map_elt *elts[200];
	struct khist_map_elt *e;
	struct khist_map *map;
	unsigned int s, m;
	u32 i;

	for (m = 0; m < ARRAY_SIZE(sum_modes); m++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			p = mk_params(256, sizes[s], sum_modes[m]);
			map = khist_map_create(&p, NULL, NULL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
			for (i = 0; i < 200; i++) {
				mk_key(key, sizes[s], i);
				elts[i] = khist_map_insert(map, key);
				KUNIT_ASSERT_NOT_NULL(test, elts[i]);
				KUNIT_EXPECT_EQ(test, elts[i]->idx, i);
				khist_map_add(elts[i], 0, i + 1);
			}
			for (i = 0; i < 200; i++) {
				mk_key(key, sizes[s], i);
				e = khist_map_lookup(map, key);
				KUNIT_EXPECT_TRUE(test, e == elts[i]);
				KUNIT_EXPECT_MEMEQ(test, khist_map_elt_key(e),
						   key, sizes[s]);
				KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0),
						i + 1);
				KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 1),
						0);
			}
			mk_key(key, sizes[s], 1000);
			KUNIT_EXPECT_NULL(test, khist_map_lookup(map, key));
			khist_map_get_stats(map, &st);
			KUNIT_EXPECT_EQ(test, st.entries, 200);
			KUNIT_EXPECT_EQ(test, st.hits, 200);
			KUNIT_EXPECT_EQ(test, st.drops, 0);
			khist_map_destroy(map);
		}
	}
}

static void map_same_key_once(struct kunit *test)
{
	struct khist_map_params p = mk_params(128, 8, 0);
	struct khist_map_stats st;
	struct khist_map_elt *a, *b;
	struct khist_map *map;
	u64 key = 42;
	int i;

	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	a = khist_map_insert(map, &key);
	for (i = 0; i < 1000; i++) {
		b = khist_map_insert(map, &key);
		KUNIT_EXPECT_TRUE(test, a == b);
		khist_map_add(b, 2, 3);
	}
	KUNIT_EXPECT_EQ(test, khist_map_read_sum(a, 2), 3000);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 1);
	KUNIT_EXPECT_EQ(test, st.hits, 1001);
	khist_map_destroy(map);
}

/*
 * An insert nested inside another one (an NMI hitting between the outer
 * insert's preparation and its publication) for the same key, or for a
 * key competing for the same slot. The outer insert must lose the slot,
 * return the nested insert's element for the same key (no duplicate) and
 * keep its prepared element for the next new key (no leak from the pool).
 */
struct nest_ctx {
	struct khist_map *map;
	u64 nested_key;
	int depth;
	struct khist_map_elt *nested;
};

static void nest_init(struct khist_map_elt *elt, void *priv)
{
	struct nest_ctx *c = priv;

	memcpy(khist_map_elt_extra(elt), "init", 5);
	if (c->depth++)
		return;
	c->nested = khist_map_insert(c->map, &c->nested_key);
}

static void map_nested_insert(struct kunit *test)
{
	static const struct khist_map_ops ops = { .elt_init = nest_init };
	struct khist_map_params p = mk_params(128, 8, 0);
	struct khist_map_elt *outer, *other;
	struct khist_map_stats st;
	struct nest_ctx c = { 0 };
	u64 key = 7, k2;
	u32 slot;

	/* 1: same key nested. */
	c.nested_key = key;
	c.map = khist_map_create(&p, &ops, &c);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c.map);
	outer = khist_map_insert(c.map, &key);
	KUNIT_EXPECT_TRUE(test, outer == c.nested);
	KUNIT_EXPECT_EQ(test, outer->idx, 1);
	khist_map_get_stats(c.map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 1);
	/* The outer's prepared element 0 is the spare the next key gets. */
	key = 8;
	other = khist_map_insert(c.map, &key);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_EQ(test, other->idx, 0);
	KUNIT_EXPECT_MEMEQ(test, khist_map_elt_key(other), &key, 8);
	KUNIT_EXPECT_STREQ(test, (char *)khist_map_elt_extra(other), "init");
	khist_map_destroy(c.map);

	/* 2: a different key wanting the same first slot. */
	key = 7;
	slot = khist_map_hash(&key, 8) & 255;
	for (k2 = 1000; (khist_map_hash(&k2, 8) & 255) != slot; k2++)
		;
	memset(&c, 0, sizeof(c));
	c.nested_key = k2;
	c.map = khist_map_create(&p, &ops, &c);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c.map);
	outer = khist_map_insert(c.map, &key);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	KUNIT_ASSERT_NOT_NULL(test, c.nested);
	KUNIT_EXPECT_TRUE(test, outer != c.nested);
	KUNIT_EXPECT_EQ(test, outer->idx, 0);
	KUNIT_EXPECT_TRUE(test, khist_map_lookup(c.map, &key) == outer);
	KUNIT_EXPECT_TRUE(test, khist_map_lookup(c.map, &k2) == c.nested);
	khist_map_get_stats(c.map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 2);
	khist_map_destroy(c.map);
}

static void map_full_drops(struct kunit *test)
{
	struct khist_map_stats st;
	struct khist_map_params p;
	struct khist_map_elt *e;
	struct khist_map *map;
	unsigned int m;
	u32 key;

	for (m = 0; m < ARRAY_SIZE(sum_modes); m++) {
		p = mk_params(128, 4, sum_modes[m]);
		map = khist_map_create(&p, NULL, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
		for (key = 0; key < 200; key++) {
			e = khist_map_insert(map, &key);
			if (key < 128)
				KUNIT_EXPECT_NOT_NULL(test, e);
			else
				KUNIT_EXPECT_NULL(test, e);
		}
		KUNIT_EXPECT_NULL(test, khist_map_overflow(map));
		/* Keys that made it keep working. */
		for (key = 0; key < 128; key++)
			KUNIT_EXPECT_NOT_NULL(test,
					      khist_map_insert(map, &key));
		khist_map_get_stats(map, &st);
		KUNIT_EXPECT_EQ(test, st.entries, 128);
		KUNIT_EXPECT_EQ(test, st.max, 128);
		KUNIT_EXPECT_EQ(test, st.drops, 72);
		KUNIT_EXPECT_EQ(test, st.hits, 256);
		/* Not growable: no request. */
		KUNIT_EXPECT_FALSE(test, khist_map_should_grow(map));
		khist_map_destroy(map);
	}
}

static void map_overflow_keeps_totals(struct kunit *test)
{
	struct khist_map_snapshot *snap;
	struct khist_map_params p;
	struct khist_map_elt *e;
	struct khist_map *map;
	unsigned int m;
	u32 key, i;

	for (m = 0; m < ARRAY_SIZE(sum_modes); m++) {
		p = mk_params(128, 4, sum_modes[m] | KHIST_MAP_F_OVERFLOW);
		map = khist_map_create(&p, NULL, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
		for (i = 0; i < 3; i++) {
			for (key = 0; key < 300; key++) {
				e = khist_map_insert(map, &key);
				KUNIT_ASSERT_NOT_NULL(test, e);
				KUNIT_EXPECT_EQ(test,
						khist_map_elt_is_overflow(e),
						key >= 128);
				khist_map_add(e, 0, 1);
				khist_map_add(e, 1, key);
			}
		}
		e = khist_map_overflow(map);
		KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0), 3 * 172);
		KUNIT_ASSERT_EQ(test, khist_map_snapshot(map, NULL, 0, &snap),
				0);
		KUNIT_EXPECT_EQ(test, snap->n, 128);
		KUNIT_EXPECT_EQ(test, snap->totals[0], 900);
		KUNIT_EXPECT_EQ(test, snap->totals[1], 3 * (299 * 300 / 2));
		KUNIT_EXPECT_EQ(test, snap->ovf_sums[0], 3 * 172);
		KUNIT_EXPECT_EQ(test, snap->stats.drops, 3 * 172);
		KUNIT_EXPECT_TRUE(test, snap->stats.overflow);
		khist_map_snapshot_free(snap);
		khist_map_clear(map);
		KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0), 0);
		khist_map_destroy(map);
	}
}

static void map_grow(struct kunit *test)
{
	struct khist_map_stats st;
	struct khist_map_params p;
	struct khist_map_elt *e;
	struct khist_map *map;
	unsigned int m;
	u32 key, round;

	for (m = 0; m < ARRAY_SIZE(sum_modes); m++) {
		p = mk_params(128, 4, sum_modes[m]);
		p.grow_limit = 1024;
		map = khist_map_create(&p, NULL, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
		key = 0;
		for (round = 0; round < 3; round++) {
			for (; key < (128u << round); key++) {
				e = khist_map_insert(map, &key);
				KUNIT_ASSERT_NOT_NULL(test, e);
				khist_map_add(e, 0, key);
			}
			/*
			 * Full. Before the first growth one more key is
			 * dropped; after it the standby takes the next key
			 * at once (the switch) and the growth migrates.
			 */
			if (!round) {
				KUNIT_EXPECT_NULL(test,
						  khist_map_insert(map, &key));
			} else {
				e = khist_map_insert(map, &key);
				KUNIT_ASSERT_NOT_NULL(test, e);
				khist_map_add(e, 0, key);
				key++;
			}
			KUNIT_EXPECT_TRUE(test, khist_map_should_grow(map));
			KUNIT_ASSERT_EQ(test, khist_map_grow(map), 0);
			KUNIT_EXPECT_FALSE(test, khist_map_should_grow(map));
		}
		for (; key < 1024; key++) {
			e = khist_map_insert(map, &key);
			KUNIT_ASSERT_NOT_NULL(test, e);
			khist_map_add(e, 0, key);
		}
		KUNIT_EXPECT_NULL(test, khist_map_insert(map, &key));
		KUNIT_EXPECT_FALSE(test, khist_map_should_grow(map));
		KUNIT_EXPECT_EQ(test, khist_map_grow(map), -E2BIG);
		khist_map_get_stats(map, &st);
		KUNIT_EXPECT_EQ(test, st.max, 1024);
		KUNIT_EXPECT_EQ(test, st.entries, 1024);
		KUNIT_EXPECT_EQ(test, st.drops, 2);
		/* Every key once, with its sum, found in the new tables. */
		for (key = 0; key < 1024; key++) {
			e = khist_map_lookup(map, &key);
			KUNIT_ASSERT_NOT_NULL(test, e);
			KUNIT_EXPECT_EQ(test, e->idx, key);
			KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0), key);
		}
		khist_map_clear(map);
		key = 5000;
		e = khist_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, e->idx, 0);
		khist_map_destroy(map);
	}
}

/* Growth asked for at 3/4, done while keys are inserted afterwards. */
static void map_grow_threshold_and_mem(struct kunit *test)
{
	struct khist_map_params p = mk_params(128, 16, 0);
	struct khist_map_stats st;
	struct khist_map_mem mem;
	struct khist_map *map;
	u8 key[16];
	u32 i;

	p.grow_limit = 512;
	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	for (i = 0; i < 95; i++) {
		mk_key(key, 16, i);
		khist_map_insert(map, key);
	}
	KUNIT_EXPECT_FALSE(test, khist_map_should_grow(map));
	mk_key(key, 16, 95);
	khist_map_insert(map, key);
	KUNIT_EXPECT_TRUE(test, khist_map_should_grow(map));
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.mem, mem.total);
	KUNIT_ASSERT_EQ(test, khist_map_grow(map), 0);
	KUNIT_ASSERT_EQ(test, khist_map_grow(map), 0);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.mem, mem.total_max);
	for (i = 0; i < 96; i++) {
		mk_key(key, 16, i);
		KUNIT_EXPECT_EQ(test, khist_map_lookup(map, key)->idx, i);
	}
	khist_map_destroy(map);
}

static void map_clear(struct kunit *test)
{
	struct khist_map_stats st;
	struct khist_map_params p;
	struct khist_map_elt *e;
	struct khist_map *map;
	unsigned int m;
	u32 key;

	for (m = 0; m < ARRAY_SIZE(sum_modes); m++) {
		p = mk_params(128, 4, sum_modes[m]);
		map = khist_map_create(&p, NULL, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
		for (key = 0; key < 150; key++) {
			e = khist_map_insert(map, &key);
			if (!e)
				continue;
			khist_map_add(e, 0, 5);
			khist_map_set_var(e, 1, 9);
		}
		khist_map_clear(map);
		khist_map_get_stats(map, &st);
		KUNIT_EXPECT_EQ(test, st.entries, 0);
		KUNIT_EXPECT_EQ(test, st.hits, 0);
		KUNIT_EXPECT_EQ(test, st.drops, 0);
		key = 3;
		KUNIT_EXPECT_NULL(test, khist_map_lookup(map, &key));
		key = 1000;
		e = khist_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, e->idx, 0);
		KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0), 0);
		KUNIT_EXPECT_FALSE(test, khist_map_var_is_set(e, 1));
		KUNIT_EXPECT_EQ(test, khist_map_get_var(e, 1), 0);
		/* The whole capacity is usable again. */
		for (key = 2000; key < 2127; key++)
			KUNIT_EXPECT_NOT_NULL(test,
					      khist_map_insert(map, &key));
		KUNIT_EXPECT_NULL(test, khist_map_insert(map, &key));
		khist_map_destroy(map);
	}
}

static void map_vars(struct kunit *test)
{
	struct khist_map_params p = mk_params(128, 4, 0);
	struct khist_map_elt *e;
	struct khist_map *map;
	u32 key = 1, i;

	p.n_vars = KHIST_MAP_VARS_MAX;
	p.n_sums = 0;
	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	e = khist_map_insert(map, &key);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < KHIST_MAP_VARS_MAX; i++)
		KUNIT_EXPECT_FALSE(test, khist_map_var_is_set(e, i));
	for (i = 0; i < KHIST_MAP_VARS_MAX; i += 3)
		khist_map_set_var(e, i, ~0ULL - i);
	for (i = 0; i < KHIST_MAP_VARS_MAX; i++) {
		KUNIT_EXPECT_EQ(test, khist_map_var_is_set(e, i), i % 3 == 0);
		KUNIT_EXPECT_EQ(test, khist_map_get_var(e, i),
				i % 3 ? 0 : ~0ULL - i);
	}
	/* Setting 0 still marks the variable set. */
	khist_map_set_var(e, 1, 0);
	KUNIT_EXPECT_TRUE(test, khist_map_var_is_set(e, 1));
	/* The key is untouched by the variables next to it. */
	KUNIT_EXPECT_MEMEQ(test, khist_map_elt_key(e), &key, 4);
	khist_map_destroy(map);
}

/* Keys: u32 id at 0, s32 at 4, 8-byte string at 8. */
struct sort_key {
	u32 id;
	s32 sv;
	char str[8];
};

struct sort_case {
	const char *name;
	unsigned int n_keys;
	struct khist_map_sort_key keys[2];
	u32 want[6]; /* ids in expected order */
};

/* id: sums[0], sums[1], sv, str */
static const struct {
	u32 s0, s1;
	s32 sv;
	const char *str;
} sort_data[6] = {
	{ 5, 1, -3, "pear" }, /* id 0 */
	{ 2, 9, 10, "apple" }, /* id 1 */
	{ 5, 0, 0, "fig" }, /* id 2 */
	{ 1, 9, -100, "kiwi" }, /* id 3 */
	{ 5, 1, 7, "apple" }, /* id 4 */
	{ 9, 4, 2, "date" }, /* id 5 */
};

static const struct sort_case sort_cases[] = {
	{ "none: insertion order", 0, {}, { 0, 1, 2, 3, 4, 5 } },
	{ "sum0 asc, stable",
	  1,
	  { { KHIST_MAP_SORT_SUM, false, 0 } },
	  { 3, 1, 0, 2, 4, 5 } },
	{ "sum0 desc, stable",
	  1,
	  { { KHIST_MAP_SORT_SUM, true, 0 } },
	  { 5, 0, 2, 4, 1, 3 } },
	{ "sum0 desc, sum1 asc",
	  2,
	  { { KHIST_MAP_SORT_SUM, true, 0 }, { KHIST_MAP_SORT_SUM, false, 1 } },
	  { 5, 2, 0, 4, 1, 3 } },
	{ "sum1 desc, sum0 desc",
	  2,
	  { { KHIST_MAP_SORT_SUM, true, 1 }, { KHIST_MAP_SORT_SUM, true, 0 } },
	  { 1, 3, 5, 0, 4, 2 } },
	{ "key u32 desc",
	  1,
	  { { KHIST_MAP_SORT_KEY_U, true, 0, 4 } },
	  { 5, 4, 3, 2, 1, 0 } },
	{ "key s32 asc",
	  1,
	  { { KHIST_MAP_SORT_KEY_S, false, 4, 4 } },
	  { 3, 0, 2, 5, 4, 1 } },
	{ "key s32 as unsigned",
	  1,
	  { { KHIST_MAP_SORT_KEY_U, false, 4, 4 } },
	  { 2, 5, 4, 1, 3, 0 } },
	{ "key str asc, stable",
	  1,
	  { { KHIST_MAP_SORT_KEY_STR, false, 8, 8 } },
	  { 1, 4, 5, 2, 3, 0 } },
	{ "key str asc, sum1 desc",
	  2,
	  { { KHIST_MAP_SORT_KEY_STR, false, 8, 8 },
	    { KHIST_MAP_SORT_SUM, true, 1 } },
	  { 1, 4, 5, 2, 3, 0 } },
	{ "key mem desc",
	  1,
	  { { KHIST_MAP_SORT_KEY_MEM, true, 8, 8 } },
	  { 0, 3, 2, 5, 1, 4 } },
};

static void map_sort_orders(struct kunit *test)
{
	struct khist_map_params p = mk_params(128, sizeof(struct sort_key), 0);
	struct khist_map_snapshot *snap;
	struct khist_map_elt *e;
	struct khist_map *map;
	struct sort_key k;
	unsigned int c, i;

	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	for (i = 0; i < 6; i++) {
		memset(&k, 0, sizeof(k));
		k.id = i;
		k.sv = sort_data[i].sv;
		memcpy(k.str, sort_data[i].str, strlen(sort_data[i].str));
		e = khist_map_insert(map, &k);
		KUNIT_ASSERT_NOT_NULL(test, e);
		khist_map_add(e, 0, sort_data[i].s0);
		khist_map_add(e, 1, sort_data[i].s1);
	}
	for (c = 0; c < ARRAY_SIZE(sort_cases); c++) {
		KUNIT_ASSERT_EQ(test,
				khist_map_snapshot(map, sort_cases[c].keys,
						   sort_cases[c].n_keys, &snap),
				0);
		KUNIT_ASSERT_EQ(test, snap->n, 6);
		for (i = 0; i < 6; i++) {
			const struct sort_key *sk =
				khist_map_elt_key(snap->sorted[i]->elt);

			if (sk->id != sort_cases[c].want[i])
				KUNIT_FAIL(test,
					   "%s: position %u: id %u, want %u",
					   sort_cases[c].name, i, sk->id,
					   sort_cases[c].want[i]);
			KUNIT_EXPECT_EQ(test, snap->sorted[i]->sums[0],
					sort_data[sk->id].s0);
		}
		KUNIT_EXPECT_EQ(test, snap->totals[0], 27);
		KUNIT_EXPECT_EQ(test, snap->totals[1], 24);
		KUNIT_EXPECT_NULL(test, snap->ovf_sums);
		khist_map_snapshot_free(snap);
	}
	khist_map_destroy(map);
}

/* Many equal sort values in a big map: stable means index order in ties. */
static void map_sort_stable_large(struct kunit *test)
{
	struct khist_map_sort_key sk[2] = {
		{ KHIST_MAP_SORT_SUM, true, 0 },
		{ KHIST_MAP_SORT_SUM, false, 1 },
	};
	struct khist_map_params p = mk_params(4096, 4, 0);
	struct khist_map_snap_entry *a, *b;
	struct khist_map_snapshot *snap;
	struct khist_map_elt *e;
	struct khist_map *map;
	u32 key, i;

	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	for (key = 0; key < 3000; key++) {
		e = khist_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, e);
		khist_map_add(e, 0, (key * 7919) % 13);
		khist_map_add(e, 1, (key * 104729) % 5);
	}
	KUNIT_ASSERT_EQ(test, khist_map_snapshot(map, sk, 2, &snap), 0);
	KUNIT_ASSERT_EQ(test, snap->n, 3000);
	for (i = 1; i < snap->n; i++) {
		a = snap->sorted[i - 1];
		b = snap->sorted[i];
		if (a->sums[0] != b->sums[0])
			KUNIT_EXPECT_GT(test, a->sums[0], b->sums[0]);
		else if (a->sums[1] != b->sums[1])
			KUNIT_EXPECT_LT(test, a->sums[1], b->sums[1]);
		else
			KUNIT_EXPECT_LT(test, a->idx, b->idx);
	}
	khist_map_snapshot_free(snap);
	khist_map_destroy(map);
}

static void map_bad_params(struct kunit *test)
{
	static const struct {
		u32 entries, grow, key, sums, vars, extra, flags;
	} bad[] = {
		{ 64, 0, 4, 1, 0, 0, 0 },
		{ 200, 0, 4, 1, 0, 0, 0 },
		{ 1u << 21, 0, 4, 1, 0, 0, 0 },
		{ 128, 64, 4, 1, 0, 0, 0 },
		{ 128, 1u << 21, 4, 1, 0, 0, 0 },
		{ 128, 300, 4, 1, 0, 0, 0 },
		{ 128, 0, 3, 1, 0, 0, 0 },
		{ 128, 0, KHIST_MAP_KEY_MAX + 1, 1, 0, 0, 0 },
		{ 128, 0, 4, 9, 0, 0, 0 },
		{ 128, 0, 4, 1, 33, 0, 0 },
		{ 128, 0, 4, 1, 0, KHIST_MAP_EXTRA_LIMIT + 1, 0 },
		{ 128, 0, 4, 1, 0, 0, KHIST_MAP_F_PERCPU | KHIST_MAP_F_ATOMIC },
		{ 128, 0, 4, 1, 0, 0, 0x80 },
	};
	struct khist_map_sort_key sk = { KHIST_MAP_SORT_SUM, false, 3 };
	struct khist_map_snapshot *snap;
	struct khist_map_params p;
	struct khist_map_mem mem;
	struct khist_map *map;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = (struct khist_map_params){ bad[i].entries, bad[i].grow,
					       bad[i].key,     bad[i].sums,
					       bad[i].vars,    bad[i].extra,
					       bad[i].flags,   0 };
		KUNIT_EXPECT_EQ(test, khist_map_mem_size(&p, &mem), -EINVAL);
		KUNIT_EXPECT_EQ(test, PTR_ERR(khist_map_create(&p, NULL, NULL)),
				-EINVAL);
	}
	p = mk_params(128, 8, 0);
	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_EXPECT_EQ(test, khist_map_snapshot(map, &sk, 1, &snap), -EINVAL);
	sk = (struct khist_map_sort_key){ KHIST_MAP_SORT_KEY_U, false, 4, 8 };
	KUNIT_EXPECT_EQ(test, khist_map_snapshot(map, &sk, 1, &snap), -EINVAL);
	sk = (struct khist_map_sort_key){ KHIST_MAP_SORT_KEY_U, false, 0, 3 };
	KUNIT_EXPECT_EQ(test, khist_map_snapshot(map, &sk, 1, &snap), -EINVAL);
	KUNIT_EXPECT_EQ(test, khist_map_snapshot(map, &sk, 3, &snap), -EINVAL);
	KUNIT_EXPECT_EQ(test, khist_map_grow(map), -E2BIG);
	khist_map_destroy(map);
}

static void map_mem_cap(struct kunit *test)
{
	struct khist_map_params p = mk_params(1024, 64, KHIST_MAP_F_ATOMIC);
	struct khist_map_stats st;
	struct khist_map_mem mem;
	struct khist_map *map;
	long live = kshim_live_allocations();

	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
	/* 64-byte key + 3 sums + 4 vars + flags + extra + header. */
	KUNIT_EXPECT_EQ(test, mem.elt_size, 24 + 64 + 24 + 32 + 8 + 16);
	KUNIT_EXPECT_EQ(test, mem.per_entry, mem.elt_size + 16);
	KUNIT_EXPECT_GE(test, mem.total, 1024 * mem.per_entry);
	KUNIT_EXPECT_EQ(test, mem.total, mem.total_max);
	p.mem_cap = mem.total - 1;
	KUNIT_EXPECT_EQ(test, khist_map_mem_size(&p, &mem), -E2BIG);
	KUNIT_EXPECT_EQ(test, mem.cap, p.mem_cap);
	KUNIT_EXPECT_GT(test, mem.total, mem.cap);
	KUNIT_EXPECT_EQ(test, PTR_ERR(khist_map_create(&p, NULL, NULL)),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, kshim_live_allocations(), live);
	/* Exactly at the cap is fine; growing past it is refused. */
	p.mem_cap = mem.total;
	p.grow_limit = 2048;
	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_EXPECT_EQ(test, khist_map_grow(map), -E2BIG);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.mem, mem.total);
	KUNIT_EXPECT_EQ(test, st.max, 1024);
	khist_map_destroy(map);
	/* Per-CPU sums are in the formula. */
	p = mk_params(1024, 64, KHIST_MAP_F_PERCPU);
	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
	KUNIT_EXPECT_TRUE(test, mem.percpu);
	KUNIT_EXPECT_EQ(test, mem.per_entry,
			mem.elt_size + 16 + 3 * 8 * num_possible_cpus());
	/* Auto mode falls back to shared sums when per-CPU would be big. */
	p = mk_params(1u << 20, 4, 0);
	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
	KUNIT_EXPECT_FALSE(test, mem.percpu);
	p = mk_params(2048, 4, 0);
	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
	KUNIT_EXPECT_TRUE(test, mem.percpu);
}

/* Every allocation of create, grow and snapshot fails once, no leak. */
static void map_alloc_failures(struct kunit *test)
{
	struct khist_map_snapshot *snap;
	struct khist_map_params p;
	struct khist_map *map;
	long live, n, points;
	unsigned int m;
	u32 key;
	int ret;

	for (m = 0; m < 2; m++) {
		p = mk_params(128, 4, sum_modes[m] | KHIST_MAP_F_OVERFLOW);
		p.grow_limit = 256;
		for (n = 0, points = 0;; n++) {
			live = kshim_live_allocations();
			kshim_fail_after(n);
			map = khist_map_create(&p, NULL, NULL);
			kshim_fail_after(-1);
			if (!IS_ERR(map))
				break;
			points++;
			KUNIT_EXPECT_EQ(test, PTR_ERR(map), -ENOMEM);
			KUNIT_EXPECT_EQ(test, kshim_live_allocations(), live);
		}
		/* map, stats, chunk (+ per-CPU), overflow (+ per-CPU), table */
		KUNIT_EXPECT_EQ(test, points,
				m ? 5 : 7 + 2 * num_possible_cpus());
		for (key = 0; key < 10; key++)
			khist_map_insert(map, &key);
		for (n = 0;; n++) {
			live = kshim_live_allocations();
			kshim_fail_after(n);
			ret = khist_map_grow(map);
			kshim_fail_after(-1);
			if (!ret)
				break;
			KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
			KUNIT_EXPECT_EQ(test, kshim_live_allocations(), live);
		}
		for (n = 0;; n++) {
			kshim_fail_after(n);
			ret = khist_map_snapshot(map, NULL, 0, &snap);
			kshim_fail_after(-1);
			if (!ret)
				break;
			KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
			KUNIT_EXPECT_NULL(test, snap);
		}
		KUNIT_EXPECT_EQ(test, snap->n, 10);
		khist_map_snapshot_free(snap);
		for (key = 0; key < 10; key++)
			KUNIT_EXPECT_NOT_NULL(test,
					      khist_map_lookup(map, &key));
		khist_map_destroy(map);
	}
}

static void map_hash_spread(struct kunit *test)
{
	static u32 buckets[1024];
	u64 chi2 = 0;
	u8 key[24] = { 0 };
	u32 i, h;
	s64 d;

	/*
	 * Sequential small integers, the typical pid/cpu key, into 1024
	 * buckets of 256 expected each: chi-square per degree of freedom
	 * is about 1 for a random function; allow 1.25 (5 sigma).
	 */
	memset(buckets, 0, sizeof(buckets));
	for (i = 0; i < 1024 * 256; i++) {
		memcpy(key, &i, 4);
		buckets[khist_map_hash(key, 24) & 1023]++;
	}
	for (i = 0; i < 1024; i++) {
		d = (s64)buckets[i] - 256;
		chi2 += d * d;
	}
	KUNIT_EXPECT_LT(test, chi2 / 256, 1023 * 5 / 4);
	/* Every byte position and the length matter. */
	KUNIT_EXPECT_NE(test, khist_map_hash(key, 23), khist_map_hash(key, 24));
	h = khist_map_hash(key, 24);
	key[22] = 1;
	KUNIT_EXPECT_NE(test, khist_map_hash(key, 24), h);
}

static struct kunit_case map_cases[] = {
	KUNIT_CASE(map_insert_find_key_sizes),
	KUNIT_CASE(map_same_key_once),
	KUNIT_CASE(map_nested_insert),
	KUNIT_CASE(map_full_drops),
	KUNIT_CASE(map_overflow_keeps_totals),
	KUNIT_CASE(map_grow),
	KUNIT_CASE(map_grow_threshold_and_mem),
	KUNIT_CASE(map_clear),
	KUNIT_CASE(map_vars),
	KUNIT_CASE(map_sort_orders),
	KUNIT_CASE(map_sort_stable_large),
	KUNIT_CASE(map_bad_params),
	KUNIT_CASE(map_mem_cap),
	KUNIT_CASE(map_alloc_failures),
	KUNIT_CASE(map_hash_spread),
	{},
};

static struct kunit_suite map_suite = {
	.name = "khist_map",
	.test_cases = map_cases,
};

kunit_test_suite(map_suite);
