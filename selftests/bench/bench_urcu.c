// SPDX-License-Identifier: GPL-2.0
/*
 * bench_urcu.c - the liburcu side of bench_map: an insert-or-increment
 * table on cds_lfht (QSBR flavour, whose read side costs nothing), kept in
 * its own file so that liburcu's headers and khist's kernel shims never
 * meet. Nodes come from a preallocated pool, as khist's elements do.
 */
#include <urcu-qsbr.h>
#include <urcu/rculfhash.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define UB_KEY 8

struct ub_node {
	struct cds_lfht_node node;
	uint64_t count;
	unsigned char key[UB_KEY];
};

struct ub_tab {
	struct cds_lfht *ht;
	struct ub_node *pool;
	unsigned long next, cap;
	uint64_t drops;
};

size_t ub_node_size(void)
{
	return sizeof(struct ub_node);
}

void *ub_new(unsigned long size, unsigned long cap)
{
	struct ub_tab *t = calloc(1, sizeof(*t));

	t->ht = cds_lfht_new(size, size, 1UL << 24, CDS_LFHT_AUTO_RESIZE, NULL);
	t->pool = calloc(cap, sizeof(*t->pool));
	t->cap = cap;
	return t;
}

void ub_free(void *p)
{
	struct ub_tab *t = p;

	cds_lfht_destroy(t->ht, NULL);
	free(t->pool);
	free(t);
}

void ub_thread_online(void)
{
	rcu_register_thread();
}

void ub_thread_offline(void)
{
	rcu_unregister_thread();
}

static int ub_match(struct cds_lfht_node *n, const void *key)
{
	return !memcmp(caa_container_of(n, struct ub_node, node)->key, key,
		       UB_KEY);
}

/* Lookup; if absent take a pool node and add_unique; add 1. */
void ub_update(void *p, const void *key, unsigned long hash)
{
	struct ub_tab *t = p;
	struct cds_lfht_iter it;
	struct cds_lfht_node *n;
	struct ub_node *nn;
	unsigned long i;

	rcu_read_lock();
	cds_lfht_lookup(t->ht, hash, ub_match, key, &it);
	n = cds_lfht_iter_get_node(&it);
	if (!n) {
		if (uatomic_read(&t->next) >= t->cap) {
			uatomic_inc(&t->drops);
			rcu_read_unlock();
			return;
		}
		i = uatomic_add_return(&t->next, 1) - 1;
		if (i >= t->cap) {
			uatomic_inc(&t->drops);
			rcu_read_unlock();
			return;
		}
		nn = &t->pool[i];
		memcpy(nn->key, key, UB_KEY);
		cds_lfht_node_init(&nn->node);
		n = cds_lfht_add_unique(t->ht, hash, ub_match, key, &nn->node);
	}
	uatomic_inc(&caa_container_of(n, struct ub_node, node)->count);
	rcu_read_unlock();
}

uint64_t ub_count(void *p, const void *key, unsigned long hash)
{
	struct ub_tab *t = p;
	struct cds_lfht_iter it;
	struct cds_lfht_node *n;
	uint64_t c = 0;

	rcu_read_lock();
	cds_lfht_lookup(t->ht, hash, ub_match, key, &it);
	n = cds_lfht_iter_get_node(&it);
	if (n)
		c = uatomic_read(
			&caa_container_of(n, struct ub_node, node)->count);
	rcu_read_unlock();
	return c;
}
