// SPDX-License-Identifier: GPL-2.0
/*
 * map_grow_kunit.c - tables that do not drop keys (issue 23): a map
 * created with the size= capacity grows to 10^5 distinct keys with no
 * drop while its owner grows it when asked, its growth charged to a
 * caller's budget (ops->charge); once the budget refuses, new keys are
 * dropped and counted, refusals are counted, and every byte is given back
 * at destroy.
 */
#include <kunit/test.h>
#include "map.h"

#define GROW_KEYS 100000u

/* The owner's memory budget: what ops->charge takes from. */
struct budget {
	s64 limit; /* bytes growth may take; < 0: no limit */
	s64 used;
	int calls;
	int refused;
};

static int budget_charge(void *priv, s64 bytes)
{
	struct budget *b = priv;

	b->calls++;
	if (bytes > 0 && b->limit >= 0 && b->used + bytes > b->limit) {
		b->refused++;
		return -ENOSPC;
	}
	b->used += bytes;
	return 0;
}

static const struct khist_map_ops budget_ops = { .charge = budget_charge };

/* Distinct 8-byte keys that do not come in order. */
static u64 key_of(u32 i)
{
	return (u64)i * 0x9e3779b97f4a7c15ULL ^ 0x5555;
}

/*
 * Inserts key i (i % 5 + 1 times, adding i each time), growing the map
 * as its owner would, checking every @every inserts.
 */
static void fill(struct kunit *test, struct khist_map *map, u32 n, u32 every,
		 int *grows)
{
	struct khist_map_elt *e;
	u32 i, r;
	u64 k;

	for (i = 0; i < n; i++) {
		if (!(i % every) && khist_map_should_grow(map) &&
		    !khist_map_grow(map))
			(*grows)++;
		k = key_of(i);
		for (r = 0; r <= i % 5; r++) {
			e = khist_map_insert(map, &k);
			if (e)
				khist_map_add(e, 0, i);
		}
	}
}

static void map_grow_100k_into_128(struct kunit *test)
{
	static const u32 modes[] = { KHIST_MAP_F_PERCPU, KHIST_MAP_F_ATOMIC };
	struct khist_map_params p = {
		.max_entries = 128,
		.grow_limit = 1u << 17,
		.key_size = 8,
		.n_sums = 1,
	};
	struct khist_map_stats st;
	struct khist_map_mem mem;
	struct khist_map_elt *e;
	struct khist_map *map;
	struct budget b;
	u64 hits = 0, k;
	unsigned int m;
	int grows;
	u32 i;

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		p.flags = modes[m];
		b = (struct budget){ .limit = -1 };
		grows = 0;
		KUNIT_ASSERT_EQ(test, khist_map_mem_size(&p, &mem), 0);
		map = khist_map_create(&p, &budget_ops, &b);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
		/* A lagging grower: the 1/4 headroom covers 16 inserts. */
		fill(test, map, GROW_KEYS, 16, &grows);
		khist_map_get_stats(map, &st);
		for (i = 0; i < GROW_KEYS; i++)
			hits += i % 5 + 1;
		KUNIT_EXPECT_EQ(test, st.drops, 0);
		KUNIT_EXPECT_EQ(test, st.entries, GROW_KEYS);
		KUNIT_EXPECT_EQ(test, st.hits, hits);
		KUNIT_EXPECT_EQ(test, st.max, 1u << 17);
		KUNIT_EXPECT_EQ(test, st.grow_refused, 0);
		KUNIT_EXPECT_EQ(test, grows, 10);
		/* Growth took from the budget exactly what it added. */
		KUNIT_EXPECT_EQ(test, (u64)b.used, st.mem - mem.total);
		KUNIT_EXPECT_EQ(test, b.calls, 10);
		for (i = 0; i < GROW_KEYS; i++) {
			k = key_of(i);
			e = khist_map_lookup(map, &k);
			KUNIT_ASSERT_NOT_NULL(test, e);
			KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0),
					(u64)i * (i % 5 + 1));
		}
		khist_map_destroy(map);
		KUNIT_EXPECT_EQ(test, b.used, 0);
		hits = 0;
	}
}

/* The budget refuses the fourth growth: 1024 keys kept, the rest drop. */
static void map_grow_budget_limit(struct kunit *test)
{
	struct khist_map_params p = {
		.max_entries = 128,
		.grow_limit = 1u << 17,
		.key_size = 8,
		.n_sums = 1,
		.flags = KHIST_MAP_F_ATOMIC,
	};
	struct khist_map_params q = p;
	struct khist_map_stats st;
	struct khist_map_mem mem;
	struct khist_map_elt *e;
	struct khist_map *map;
	struct budget b = { .limit = -1 };
	u64 drops = 0, k;
	int grows = 0;
	u32 i;

	/* Allow exactly the three growths from 128 to 1024. */
	q.grow_limit = 1024;
	KUNIT_ASSERT_EQ(test, khist_map_mem_size(&q, &mem), 0);
	b.limit = (s64)(mem.total_max - mem.total);
	map = khist_map_create(&p, &budget_ops, &b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	fill(test, map, GROW_KEYS, 16, &grows);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, grows, 3);
	KUNIT_EXPECT_EQ(test, st.max, 1024);
	KUNIT_EXPECT_EQ(test, st.entries, 1024);
	/* Every insert of a key that found no room is a drop. */
	for (i = 1024; i < GROW_KEYS; i++)
		drops += i % 5 + 1;
	KUNIT_EXPECT_EQ(test, st.drops, drops);
	KUNIT_EXPECT_GT(test, st.grow_refused, 0);
	KUNIT_EXPECT_EQ(test, st.grow_refused, (u64)b.refused);
	KUNIT_EXPECT_EQ(test, b.used, b.limit);
	/* The keys that got in are exact. */
	for (i = 0; i < 1024; i++) {
		k = key_of(i);
		e = khist_map_lookup(map, &k);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0),
				(u64)i * (i % 5 + 1));
	}
	/* grow_limit and mem_cap refusals are counted too. */
	khist_map_destroy(map);
	KUNIT_EXPECT_EQ(test, b.used, 0);
	p.grow_limit = 256;
	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_EXPECT_EQ(test, khist_map_grow(map), 0);
	KUNIT_EXPECT_EQ(test, khist_map_grow(map), -E2BIG);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.grow_refused, 1);
	khist_map_destroy(map);
}

/* An allocation failure after the charge gives the bytes back. */
static void map_grow_charge_enomem(struct kunit *test)
{
	struct khist_map_params p = {
		.max_entries = 128,
		.grow_limit = 1024,
		.key_size = 8,
		.n_sums = 2,
		.flags = KHIST_MAP_F_PERCPU,
	};
	struct budget b = { .limit = -1 };
	struct khist_map *map;
	long n;
	int ret;

	map = khist_map_create(&p, &budget_ops, &b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	for (n = 0;; n++) {
		kshim_fail_after(n);
		ret = khist_map_grow(map);
		kshim_fail_after(-1);
		if (!ret)
			break;
		KUNIT_ASSERT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_EQ(test, b.used, 0);
	}
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_GT(test, b.used, 0);
	khist_map_destroy(map);
	KUNIT_EXPECT_EQ(test, b.used, 0);
}

/*
 * A burst with nobody growing the map: after one growth (128 -> 256) the
 * standby holds the next level, so the insert that finds the pool empty
 * switches to 512 by itself and 512 keys fit with no drop. Until the
 * owner's next growth migrates, lookups, iteration and clear see the
 * keys of both tables; the key after the standby's is dropped.
 */
static void map_grow_burst(struct kunit *test)
{
	struct khist_map_params p = {
		.max_entries = 128,
		.grow_limit = 1024,
		.key_size = 8,
		.n_sums = 1,
		.flags = KHIST_MAP_F_ATOMIC,
	};
	struct khist_map_stats st;
	struct khist_map_elt *e;
	struct khist_map *map;
	u64 seen[512 / 64];
	u32 i, n, pos;
	u64 k;

	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_EXPECT_FALSE(test, khist_map_should_grow(map));
	KUNIT_ASSERT_EQ(test, khist_map_grow(map), 0);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.max, 256);
	for (i = 0; i < 512; i++) {
		k = key_of(i);
		e = khist_map_insert(map, &k);
		KUNIT_ASSERT_NOT_NULL(test, e);
		khist_map_add(e, 0, i + 1);
	}
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.drops, 0);
	KUNIT_EXPECT_EQ(test, st.entries, 512);
	KUNIT_EXPECT_EQ(test, st.max, 512);
	/* The switch asks for its migration, even at grow_limit. */
	KUNIT_EXPECT_TRUE(test, khist_map_should_grow(map));
	/* No standby left: the next new key is dropped. */
	k = key_of(512);
	KUNIT_EXPECT_NULL(test, khist_map_insert(map, &k));
	for (i = 0; i < 512; i++) {
		k = key_of(i);
		e = khist_map_insert(map, &k);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, khist_map_read_sum(e, 0), (u64)i + 1);
	}
	/* Every key once, from the old table and the next one. */
	memset(seen, 0, sizeof(seen));
	n = 0;
	pos = 0;
	while ((e = khist_map_next(map, &pos))) {
		i = (u32)khist_map_read_sum(e, 0) - 1;
		KUNIT_ASSERT_LT(test, i, 512u);
		KUNIT_EXPECT_FALSE(test, seen[i / 64] & BIT_ULL(i % 64));
		seen[i / 64] |= BIT_ULL(i % 64);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 512u);
	/* The owner's growth migrates, then 1024 keys fit. */
	KUNIT_EXPECT_EQ(test, khist_map_grow(map), 0);
	for (i = 0; i < 1024; i++) {
		k = key_of(i);
		KUNIT_ASSERT_NOT_NULL(test, khist_map_insert(map, &k));
	}
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 1024);
	KUNIT_EXPECT_EQ(test, st.drops, 1);
	khist_map_destroy(map);
}

/* Clear while a switch waits for its migration; destroy in that state. */
static void map_grow_burst_clear(struct kunit *test)
{
	struct khist_map_params p = {
		.max_entries = 128,
		.grow_limit = 1024,
		.key_size = 8,
		.n_sums = 1,
	};
	struct khist_map_stats st;
	struct khist_map *map;
	u32 i, n, pos;
	u64 k;

	map = khist_map_create(&p, NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_ASSERT_EQ(test, khist_map_grow(map), 0);
	for (i = 0; i < 300; i++) {
		k = key_of(i);
		KUNIT_ASSERT_NOT_NULL(test, khist_map_insert(map, &k));
	}
	khist_map_clear(map);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 0);
	KUNIT_EXPECT_TRUE(test, khist_map_should_grow(map));
	pos = 0;
	KUNIT_EXPECT_NULL(test, khist_map_next(map, &pos));
	/* Keys of before the clear are new again, each once. */
	for (i = 0; i < 300; i++) {
		k = key_of(i);
		KUNIT_ASSERT_NOT_NULL(test, khist_map_insert(map, &k));
		KUNIT_ASSERT_NOT_NULL(test, khist_map_insert(map, &k));
	}
	for (n = 0, pos = 0; khist_map_next(map, &pos); n++)
		;
	KUNIT_EXPECT_EQ(test, n, 300u);
	khist_map_get_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 300);
	KUNIT_EXPECT_EQ(test, st.drops, 0);
	/* Freed with the switch pending: the leak check covers the table. */
	khist_map_destroy(map);
}

static struct kunit_case map_grow_cases[] = {
	KUNIT_CASE(map_grow_100k_into_128),
	KUNIT_CASE(map_grow_budget_limit),
	KUNIT_CASE(map_grow_charge_enomem),
	/* A burst that does not wait for the owner. */
	KUNIT_CASE(map_grow_burst),
	KUNIT_CASE(map_grow_burst_clear),
	{},
};

static struct kunit_suite map_grow_suite = {
	.name = "khist_map_grow",
	.test_cases = map_grow_cases,
};

kunit_test_suite(map_grow_suite);
