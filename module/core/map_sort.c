// SPDX-License-Identifier: GPL-2.0
/*
 * map_sort.c - sorted snapshots of a khist map, for printing.
 *
 * A snapshot copies, for every element present when the table is walked,
 * a pointer to the element and its sums (read once, so a printed line and
 * the totals agree), then sorts pointers to those copies with a bottom-up
 * merge sort: stable, O(n log n) comparisons, one scratch array. Ties
 * after the sort keys are broken by element index (first-inserted first),
 * so the order is total and does not depend on hash placement. No lock is
 * taken against updaters: the walk and the copies only load.
 */
#include "core_env.h"
#include "map.h"

struct kh_sort_ctx {
	const struct khist_map_sort_key *keys;
	unsigned int n_keys;
	u32 off_key;
};

static u64 kh_field_u(const u8 *p, u16 size)
{
	u8 b1;
	u16 b2;
	u32 b4;
	u64 b8;

	switch (size) {
	case 1:
		memcpy(&b1, p, 1);
		return b1;
	case 2:
		memcpy(&b2, p, 2);
		return b2;
	case 4:
		memcpy(&b4, p, 4);
		return b4;
	default:
		memcpy(&b8, p, 8);
		return b8;
	}
}

static s64 kh_field_s(const u8 *p, u16 size)
{
	u64 v = kh_field_u(p, size);

	switch (size) {
	case 1:
		return (s8)v;
	case 2:
		return (s16)v;
	case 4:
		return (s32)v;
	default:
		return (s64)v;
	}
}

static int kh_cmp_one(const struct khist_map_sort_key *k, const u8 *ka,
		      const u8 *kb, const struct khist_map_snap_entry *a,
		      const struct khist_map_snap_entry *b)
{
	u64 ua, ub;
	s64 sa, sb;

	switch (k->kind) {
	case KHIST_MAP_SORT_SUM:
		ua = a->sums[k->field];
		ub = b->sums[k->field];
		return ua < ub ? -1 : ua > ub;
	case KHIST_MAP_SORT_KEY_U:
		ua = kh_field_u(ka + k->field, k->size);
		ub = kh_field_u(kb + k->field, k->size);
		return ua < ub ? -1 : ua > ub;
	case KHIST_MAP_SORT_KEY_S:
		sa = kh_field_s(ka + k->field, k->size);
		sb = kh_field_s(kb + k->field, k->size);
		return sa < sb ? -1 : sa > sb;
	case KHIST_MAP_SORT_KEY_STR:
		return strncmp((const char *)ka + k->field,
			       (const char *)kb + k->field, k->size);
	default:
		return memcmp(ka + k->field, kb + k->field, k->size);
	}
}

/* Total order: the keys in turn, then the element index. */
static int kh_cmp(const struct kh_sort_ctx *ctx,
		  const struct khist_map_snap_entry *a,
		  const struct khist_map_snap_entry *b)
{
	const u8 *ka = (const u8 *)a->elt->data + ctx->off_key;
	const u8 *kb = (const u8 *)b->elt->data + ctx->off_key;
	unsigned int i;
	int r;

	for (i = 0; i < ctx->n_keys; i++) {
		r = kh_cmp_one(&ctx->keys[i], ka, kb, a, b);
		if (r)
			return ctx->keys[i].descending ? -r : r;
	}
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Bottom-up merge sort of @n pointers; @tmp holds @n more. */
static void kh_merge_sort(const struct kh_sort_ctx *ctx,
			  struct khist_map_snap_entry **v,
			  struct khist_map_snap_entry **tmp, u32 n)
{
	struct khist_map_snap_entry **src = v, **dst = tmp, **sw;
	u32 w, lo, mid, hi, i, j, k;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = min_t(u32, lo + w, n);
			hi = min_t(u32, lo + 2 * w, n);
			i = lo;
			j = mid;
			k = lo;
			/* Taking from the left run on ties keeps it stable. */
			while (i < mid && j < hi)
				dst[k++] = kh_cmp(ctx, src[j], src[i]) < 0 ?
						   src[j++] :
						   src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != v)
		memcpy(v, src, (size_t)n * sizeof(*v));
}

static bool kh_keys_valid(const struct khist_map *map,
			  const struct khist_map_sort_key *keys,
			  unsigned int n_keys)
{
	const struct khist_map_sort_key *k;
	unsigned int i;

	if (n_keys > KHIST_MAP_SORT_KEYS_MAX || (n_keys && !keys))
		return false;
	for (i = 0; i < n_keys; i++) {
		k = &keys[i];
		switch (k->kind) {
		case KHIST_MAP_SORT_SUM:
			if (k->field >= map->p.n_sums)
				return false;
			continue;
		case KHIST_MAP_SORT_KEY_U:
		case KHIST_MAP_SORT_KEY_S:
			if (k->size != 1 && k->size != 2 && k->size != 4 &&
			    k->size != 8)
				return false;
			break;
		case KHIST_MAP_SORT_KEY_STR:
		case KHIST_MAP_SORT_KEY_MEM:
			if (!k->size)
				return false;
			break;
		default:
			return false;
		}
		if ((u32)k->field + k->size > map->p.key_size)
			return false;
	}
	return true;
}

/**
 * khist_map_snapshot() - copy and sort the map's entries
 * @map:    map
 * @keys:   up to KHIST_MAP_SORT_KEYS_MAX criteria, applied in turn
 * @n_keys: number of @keys (0: by element index, i.e. insertion order)
 * @out:    the snapshot, to be freed with khist_map_snapshot_free()
 *
 * Entries inserted while the table is walked may be missing; all sums of
 * one entry and the totals come from a single read of each sum. Calls
 * must be serialised with grow, clear and destroy.
 *
 * Context: process context, may sleep (allocates).
 * Return: 0, -EINVAL for bad keys, -ENOMEM.
 */
int khist_map_snapshot(struct khist_map *map,
		       const struct khist_map_sort_key *keys,
		       unsigned int n_keys, struct khist_map_snapshot **out)
{
	struct kh_sort_ctx ctx = { keys, n_keys, map->off_key };
	u32 n_sums = map->p.n_sums, room, pos = 0, i;
	struct khist_map_snapshot *snap;
	struct khist_map_snap_entry *ent, **tmp;
	struct khist_map_elt *elt;
	size_t esz;

	*out = NULL;
	if (!kh_keys_valid(map, keys, n_keys))
		return -EINVAL;
	/* Pairs with the release of the capacity in kh_switch(). */
	room = smp_load_acquire(&map->cap);
	/* Keys keep coming in while we walk: leave some room, then stop. */
	room = min_t(u32, atomic_read(&map->entries) + 64, room);
	esz = sizeof(*ent) + n_sums * sizeof(u64);
	snap = kzalloc(sizeof(*snap) + n_sums * sizeof(u64), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	snap->n_sums = n_sums;
	snap->buf = kvmalloc_array(room, esz, GFP_KERNEL);
	snap->sorted = kvmalloc_array(room, sizeof(*snap->sorted), GFP_KERNEL);
	tmp = kvmalloc_array(room, sizeof(*tmp), GFP_KERNEL);
	if (!snap->buf || !snap->sorted || !tmp) {
		kvfree(tmp);
		khist_map_snapshot_free(snap);
		return -ENOMEM;
	}
	khist_map_get_stats(map, &snap->stats);
	while (snap->n < room && (elt = khist_map_next(map, &pos))) {
		ent = (struct khist_map_snap_entry *)((u8 *)snap->buf +
						      snap->n * esz);
		ent->elt = elt;
		ent->idx = elt->idx;
		for (i = 0; i < n_sums; i++) {
			ent->sums[i] = khist_map_read_sum(elt, i);
			snap->totals[i] += ent->sums[i];
		}
		snap->sorted[snap->n++] = ent;
	}
	elt = khist_map_overflow(map);
	if (elt) {
		snap->ovf_sums = (u64 *)(snap + 1);
		for (i = 0; i < n_sums; i++) {
			snap->ovf_sums[i] = khist_map_read_sum(elt, i);
			snap->totals[i] += snap->ovf_sums[i];
		}
	}
	kh_merge_sort(&ctx, snap->sorted, tmp, snap->n);
	kvfree(tmp);
	*out = snap;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(khist_map_snapshot, KHIST_INTERNAL);

/**
 * khist_map_snapshot_free() - free a snapshot
 * @snap: snapshot, or NULL
 *
 * Context: process context.
 */
void khist_map_snapshot_free(struct khist_map_snapshot *snap)
{
	if (!snap)
		return;
	kvfree(snap->sorted);
	kvfree(snap->buf);
	kfree(snap);
}
EXPORT_SYMBOL_NS_GPL(khist_map_snapshot_free, KHIST_INTERNAL);
