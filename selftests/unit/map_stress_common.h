/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_stress_common.h - concurrent stress of the histogram map, shared by
 * map_stress_test.c (ASan/UBSan) and map_stress_tsan.c (ThreadSanitizer).
 *
 * Threads insert overlapping key sets and add to the sums while a control
 * thread grows the map, takes sorted snapshots and iterates, as the hist
 * code would under its mutex. Afterwards every key must be present exactly
 * once and its sums must equal the updates made. Prints TAP.
 *
 * MAP_STRESS_SCALE divides the number of operations (TSan is slow).
 */
#ifndef MAP_STRESS_COMMON_H
#define MAP_STRESS_COMMON_H

#include <kshim/kernel.h>
#include <pthread.h>
#include <sched.h>
#include "map.h"

#ifndef MAP_STRESS_SCALE
#define MAP_STRESS_SCALE 1
#endif

struct stress_cfg {
	const char *name;
	int threads;
	u32 keys; /* distinct keys in play */
	u32 entries; /* initial capacity */
	u32 grow_limit; /* 0: fixed size */
	u32 flags;
	u32 ops; /* updates per thread, before scaling */
};

struct stress_run {
	const struct stress_cfg *cfg;
	struct khist_map *map;
	int done;
	u32 *counts; /* [threads][keys] updates made */
	u64 ovf_expect;
	int lookups_bad;
	int snap_bad;
	int grows;
};

struct stress_thread {
	struct stress_run *run;
	int id;
	pthread_t th;
};

struct stress_key {
	u32 k;
	u32 pad[3];
};

static void *stress_updater(void *arg)
{
	struct stress_thread *t = arg;
	struct stress_run *r = t->run;
	const struct stress_cfg *c = r->cfg;
	u32 *cnt = &r->counts[(size_t)t->id * c->keys];
	u32 ops = c->ops / MAP_STRESS_SCALE, i, x = 2463534242u + t->id;
	struct khist_map_elt *e;
	struct stress_key key;

	memset(&key, 0, sizeof(key));
	for (i = 0; i < ops; i++) {
		/* xorshift: every thread walks all keys in its own order. */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* Half the time the same few hot keys, else any key. */
		key.k = (i & 1) ? x % c->keys : x % 4;
		e = khist_map_insert(r->map, &key);
		if (!e)
			continue;
		khist_map_add(e, 0, 1);
		khist_map_add(e, 1, key.k);
		if (!khist_map_elt_is_overflow(e)) {
			khist_map_set_var(e, 0, key.k);
			cnt[key.k]++;
			if (khist_map_lookup(r->map, &key) != e)
				__atomic_add_fetch(&r->lookups_bad, 1,
						   __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

/* The hist code's side: grow when asked, read snapshots meanwhile. */
static void *stress_control(void *arg)
{
	struct stress_run *r = arg;
	struct khist_map_sort_key sk = { KHIST_MAP_SORT_SUM, true, 0 };
	struct khist_map_snapshot *snap;
	u32 i;

	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (khist_map_should_grow(r->map) && !khist_map_grow(r->map))
			r->grows++;
		if (khist_map_snapshot(r->map, &sk, 1, &snap))
			continue;
		for (i = 1; i < snap->n; i++)
			if (snap->sorted[i - 1]->sums[0] <
			    snap->sorted[i]->sums[0])
				r->snap_bad++;
		khist_map_snapshot_free(snap);
		sched_yield();
	}
	return NULL;
}

static int stress_one(const struct stress_cfg *c, int *tap)
{
	struct khist_map_params p = {
		.max_entries = c->entries,
		.grow_limit = c->grow_limit,
		.key_size = sizeof(struct stress_key),
		.n_sums = 2,
		.n_vars = 1,
		.flags = c->flags,
	};
	struct stress_thread th[64];
	struct stress_run r = { .cfg = c };
	struct khist_map_stats st;
	struct khist_map_elt *e;
	pthread_t ctl;
	u64 *want, total = 0, got_total = 0;
	u8 *seen;
	u32 pos = 0, k, present = 0;
	int i, bad = 0;

	r.map = khist_map_create(&p, NULL, NULL);
	if (IS_ERR(r.map)) {
		printf("not ok %d - %s # create %ld\n", ++*tap, c->name,
		       PTR_ERR(r.map));
		return 1;
	}
	r.counts = calloc((size_t)c->threads * c->keys, sizeof(u32));
	want = calloc(c->keys, sizeof(u64));
	seen = calloc(c->keys, 1);
	pthread_create(&ctl, NULL, stress_control, &r);
	for (i = 0; i < c->threads; i++) {
		th[i].run = &r;
		th[i].id = i;
		pthread_create(&th[i].th, NULL, stress_updater, &th[i]);
	}
	for (i = 0; i < c->threads; i++)
		pthread_join(th[i].th, NULL);
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	pthread_join(ctl, NULL);

	for (i = 0; i < c->threads; i++)
		for (k = 0; k < c->keys; k++)
			want[k] += r.counts[(size_t)i * c->keys + k];
	while ((e = khist_map_next(r.map, &pos))) {
		const struct stress_key *key = khist_map_elt_key(e);

		k = key->k;
		if (k >= c->keys || seen[k]++) {
			printf("# %s: key %u twice or unknown\n", c->name, k);
			bad++;
			continue;
		}
		present++;
		got_total += khist_map_read_sum(e, 0);
		if (khist_map_read_sum(e, 0) != want[k] ||
		    khist_map_read_sum(e, 1) != want[k] * k ||
		    khist_map_get_var(e, 0) != k) {
			printf("# %s: key %u: %llu updates, want %llu\n",
			       c->name, k,
			       (unsigned long long)khist_map_read_sum(e, 0),
			       (unsigned long long)want[k]);
			bad++;
		}
	}
	for (k = 0; k < c->keys; k++) {
		total += want[k];
		if (want[k] && !seen[k]) {
			printf("# %s: key %u updated, missing\n", c->name, k);
			bad++;
		}
	}
	khist_map_get_stats(r.map, &st);
	if (st.entries != present) {
		printf("# %s: entries %u, found %u\n", c->name, st.entries,
		       present);
		bad++;
	}
	/*
	 * Every call is a hit (counted in its key) or a drop (counted in the
	 * overflow element when there is one).
	 */
	e = khist_map_overflow(r.map);
	if (st.hits + st.drops !=
		    (u64)c->threads * (c->ops / MAP_STRESS_SCALE) ||
	    got_total != total || st.hits != total ||
	    (e && khist_map_read_sum(e, 0) != st.drops)) {
		printf("# %s: hits %llu drops %llu total %llu/%llu\n", c->name,
		       (unsigned long long)st.hits,
		       (unsigned long long)st.drops,
		       (unsigned long long)got_total,
		       (unsigned long long)total);
		bad++;
	}
	if (r.lookups_bad || r.snap_bad) {
		printf("# %s: %d lookups and %d snapshots wrong\n", c->name,
		       r.lookups_bad, r.snap_bad);
		bad++;
	}
	printf("%sok %d - %s (%u keys, %d grows, %llu drops)\n",
	       bad ? "not " : "", ++*tap, c->name, present, r.grows,
	       (unsigned long long)st.drops);
	free(r.counts);
	free(want);
	free(seen);
	khist_map_destroy(r.map);
	return bad != 0;
}

static const struct stress_cfg stress_cfgs[] = {
	{ "2 threads, 100 keys, per-CPU", 2, 100, 128, 0, KHIST_MAP_F_PERCPU,
	  400000 },
	{ "4 threads, 100 keys, atomic", 4, 100, 128, 0, KHIST_MAP_F_ATOMIC,
	  200000 },
	{ "8 threads, 5000 keys, per-CPU", 8, 5000, 8192, 0, KHIST_MAP_F_PERCPU,
	  100000 },
	{ "16 threads, 3000 keys, atomic", 16, 3000, 4096, 0,
	  KHIST_MAP_F_ATOMIC, 50000 },
	{ "4 threads, full map with overflow", 4, 1000, 128, 0,
	  KHIST_MAP_F_PERCPU | KHIST_MAP_F_OVERFLOW, 200000 },
	{ "8 threads, full map, drops", 8, 1000, 256, 0, KHIST_MAP_F_ATOMIC,
	  100000 },
	{ "4 threads, growing 128 -> 16384", 4, 12000, 128, 16384,
	  KHIST_MAP_F_PERCPU, 200000 },
	{ "8 threads, growing with overflow", 8, 20000, 128, 8192,
	  KHIST_MAP_F_ATOMIC | KHIST_MAP_F_OVERFLOW, 100000 },
};

int main(void)
{
	int tap = 0, failed = 0;
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	for (i = 0; i < ARRAY_SIZE(stress_cfgs); i++)
		failed += stress_one(&stress_cfgs[i], &tap);
	printf("1..%d\n", tap);
	return failed ? 1 : 0;
}

#endif /* MAP_STRESS_COMMON_H */
