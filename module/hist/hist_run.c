// SPDX-License-Identifier: GPL-2.0
/*
 * hist_run.c - what a hist trigger does on each hit, and the variable
 * lookups other triggers use.
 *
 * A hit takes a per-CPU scratch pad (one per nesting level: task,
 * softirq, irq, NMI) for the compound key and the captured stack, builds
 * the key, inserts it into the map, adds the sums and stores the
 * variables. No lock, no allocation; the map handles concurrent inserts.
 */
#include <linux/kallsyms.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "hist.h"
#include "core/hist_eval.h"
#include "events/hooks.h"
#include "inter.h"

#define KHIST_PAD_LEVELS 4
/* Frames captured beyond the kept ones, to drop khist's own. */
#define KHIST_STACK_EXTRA 8

/**
 * struct khist_hist_pad - scratch space of one nesting level
 * @key:   the compound key being built
 * @raw:   a captured stack, khist's own frames included
 * @stack: the frames kept (zero-padded)
 * @inter: the inter-event layer's scratch (reference values, ...)
 */
struct khist_hist_pad {
	u8 key[KHIST_KEY_SIZE_MAX] __aligned(8);
	unsigned long raw[KHIST_STACK_DEPTH + KHIST_STACK_EXTRA];
	unsigned long stack[KHIST_STACK_DEPTH];
	struct khist_inter_pad inter;
};

/**
 * struct khist_hist_pads - the pads of one CPU
 * @pad: the pads
 */
struct khist_hist_pads {
	struct khist_hist_pad pad[KHIST_PAD_LEVELS];
};

static struct khist_hist_pads __percpu *khist_pads;
/* Pads in use on this CPU (static per-CPU: one %gs access). */
static DEFINE_PER_CPU(int, khist_pad_level);

/*
 * Tracepoint iterators (__traceiter_<name>) seen in captured stacks: the
 * tracepoint calls them when it has several probes; ftrace's fixed skip
 * drops that frame, so khist drops it too. Append-only, filled in process
 * context, read locklessly on the fast path.
 */
#define KHIST_ITERS_MAX 16
static unsigned long khist_iter_lo[KHIST_ITERS_MAX];
static unsigned long khist_iter_hi[KHIST_ITERS_MAX];
static int khist_n_iters;

struct khist_tp_iter {
	const char *name;
	unsigned long lo, hi;
};

static void khist_tp_iter_match(struct tracepoint *tp, void *priv)
{
	struct khist_tp_iter *it = priv;
	char sym[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *slash;

	if (it->lo || strcmp(tp->name, it->name) || !tp->iterator)
		return;
	/* "__traceiter_x+0x0/0x50": the function's size follows the '/'. */
	sprint_symbol(sym, (unsigned long)tp->iterator);
	slash = strrchr(sym, '/');
	if (!slash || kstrtoul(slash + 1, 0, &size) || !size)
		return;
	it->lo = (unsigned long)tp->iterator;
	it->hi = it->lo + size;
}

/**
 * khist_hist_learn_tracepoint() - skip a tracepoint's iterator in stacks
 * @name: the tracepoint's name ("sched_switch")
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_hist_learn_tracepoint(const char *name)
{
	struct khist_tp_iter it = { .name = name };
	int i, n = khist_n_iters;

	for_each_kernel_tracepoint(khist_tp_iter_match, &it);
	if (!it.lo || n == KHIST_ITERS_MAX)
		return;
	for (i = 0; i < n; i++)
		if (khist_iter_lo[i] == it.lo)
			return;
	khist_iter_lo[n] = it.lo;
	khist_iter_hi[n] = it.hi;
	/* The range is complete before readers see the new count. */
	smp_store_release(&khist_n_iters, n + 1);
}

static bool khist_in_iterator(unsigned long addr)
{
	/* Pairs with the release in khist_hist_learn_tracepoint(). */
	int i, n = smp_load_acquire(&khist_n_iters);

	for (i = 0; i < n; i++)
		if (addr >= khist_iter_lo[i] && addr < khist_iter_hi[i])
			return true;
	return false;
}

/**
 * khist_hist_pads_init() - allocate the per-CPU scratch pads
 *
 * Context: process context, module init.
 * Return: 0 or -ENOMEM.
 */
int khist_hist_pads_init(void)
{
	khist_pads = alloc_percpu(struct khist_hist_pads);
	return khist_pads ? 0 : -ENOMEM;
}

/**
 * khist_hist_pads_exit() - free the scratch pads
 *
 * Context: process context, module exit, no hist trigger left.
 */
void khist_hist_pads_exit(void)
{
	free_percpu(khist_pads);
	khist_pads = NULL;
}

/*
 * Capture the stack of the traced code: drop the frames of khist itself
 * (this function, the trigger walk, the record commit, the probe), so the
 * first kept frame is the code that hit the tracepoint (the kernel skips
 * a fixed 5 frames of its own for the same effect).
 */
static void khist_capture_stack(unsigned long *buf, unsigned long *out)
{
	unsigned int n, i;

	n = stack_trace_save(buf, KHIST_STACK_DEPTH + KHIST_STACK_EXTRA, 0);
	for (i = 0; i < n && within_module(buf[i], THIS_MODULE); i++)
		;
	if (i < n && khist_in_iterator(buf[i]))
		i++;
	memset(out, 0, KHIST_STACK_SIZE);
	if (i < n)
		memcpy(out, buf + i,
		       min_t(unsigned int, n - i, KHIST_STACK_DEPTH) *
			       sizeof(long));
}

static void khist_hist_store_vars(struct khist_hist_data *hd,
				  const struct khist_hist_spec *sp,
				  struct khist_map_elt *elt,
				  struct khist_eval_ctx *c)
{
	unsigned int i, max, n;
	const char *s;
	char *slot;

	if (hd->comm_off >= 0)
		c->comm = (const char *)khist_map_elt_extra(elt) + hd->comm_off;
	for (i = 0; i < sp->n_vars; i++) {
		const struct khist_hvar *v = &sp->vars[i];
		u64 val = 0;

		if (v->str_idx >= 0) {
			slot = khist_hist_var_str(hd, elt, v->str_idx);
			if (v->f->flags & KHIST_HF_STACKTRACE) {
				khist_hist_eval_stack(v->f, c,
						      (unsigned long *)slot);
			} else {
				s = khist_hist_eval_str(v->f, c, &max);
				max = min_t(unsigned int, max,
					    KHIST_STR_SLOT - 1);
				for (n = 0; n < max && s[n]; n++)
					slot[n] = s[n];
				slot[n] = '\0';
			}
			val = v->str_idx;
		} else {
			val = khist_hist_eval(v->f, c);
		}
		khist_map_set_var(elt, i, val);
	}
}

/* The key as the cache keeps it: one or two words, the rest zero. */
static __always_inline void khist_cache_key(const struct khist_hist_data *hd,
					    const u8 *key, u64 *k)
{
	memcpy(&k[0], key, sizeof(u64));
	k[1] = 0;
	if (hd->key_words > 1)
		memcpy(&k[1], key + sizeof(u64), sizeof(u64));
}

/* This CPU's cached element for @k, or NULL. */
static __always_inline struct khist_map_elt *
khist_cache_find(struct khist_hit_cache *hc, const u64 *k, unsigned long gen)
{
	const struct khist_hit_way *w;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hc->way); i++) {
		w = &hc->way[i];
		if (w->elt && w->gen == gen && w->key[0] == k[0] &&
		    w->key[1] == k[1])
			return w->elt;
	}
	return NULL;
}

/* Remember @elt in the older way. */
static __always_inline void khist_cache_set(struct khist_hit_cache *hc,
					    const u64 *k,
					    struct khist_map_elt *elt,
					    unsigned long gen)
{
	struct khist_hit_way *w = &hc->way[hc->next];

	if (!elt || khist_map_elt_is_overflow(elt))
		return;
	w->key[0] = k[0];
	w->key[1] = k[1];
	w->elt = elt;
	w->gen = gen;
	w->sum = khist_map_local_sum(elt, 0);
	hc->hits = khist_map_local_hits(elt->map);
	hc->next ^= 1;
}

/*
 * khist_map_insert() behind this CPU's last hits: a task that hits the
 * same key again (its pid, its CPU, a syscall in a loop) skips the hash
 * and the table walk. Only at pad level 0, see struct khist_hit_cache.
 */
static __always_inline struct khist_map_elt *
khist_hist_map_insert(struct khist_hist_data *hd, const u8 *key)
{
	struct khist_map_elt *elt = khist_map_insert(hd->map, key);

	/*
	 * A growing map asks for more room at 3/4 full or after a drop: the
	 * worker grows it (irq_work_queue() is NMI-safe and does nothing
	 * while the work is pending).
	 */
	if (hd->grows && unlikely(khist_map_should_grow(hd->map)) &&
	    !READ_ONCE(hd->grow_stop))
		irq_work_queue(&hd->grow_iw);
	return elt;
}

static __always_inline struct khist_map_elt *
khist_hist_insert(struct khist_hist_data *hd, const u8 *key, int level)
{
	struct khist_hit_cache *hc;
	struct khist_map_elt *elt;
	unsigned long gen;
	u64 k[2];

	if (!hd->cache || level)
		return khist_hist_map_insert(hd, key);
	hc = this_cpu_ptr(hd->cache);
	if (hc->rest) {
		hc->rest--;
		return khist_hist_map_insert(hd, key);
	}
	khist_cache_key(hd, key, k);
	/* Ordered after the acquire of hd->clearing by the caller. */
	gen = READ_ONCE(hd->gen);
	elt = khist_cache_find(hc, k, gen);
	if (elt) {
		hc->misses = 0;
		khist_map_count_hit(hd->map);
		return elt;
	}
	elt = khist_hist_map_insert(hd, key);
	khist_cache_set(hc, k, elt, gen);
	if (++hc->misses >= KHIST_CACHE_MISSES) {
		hc->misses = 0;
		hc->rest = KHIST_CACHE_REST;
	}
	return elt;
}

/**
 * khist_hist_lookup() - khist_map_lookup() in a hist's map, from a hit
 * @hd:  the data whose map is searched (any hist's, e.g. a variable's)
 * @key: a key of that map's size, 8-byte aligned
 *
 * Goes through this CPU's last-hit cache of @hd when the calling hit is
 * the outermost on the CPU: the latency pairs look up the entry the
 * start event of the same task has just updated.
 *
 * Context: inside khist_hist_call() (any context, NMI included).
 * Return: the element, or NULL when the key is not in the map.
 */
struct khist_map_elt *khist_hist_lookup(struct khist_hist_data *hd,
					const u8 *key)
{
	struct khist_hit_cache *hc;
	struct khist_map_elt *elt;
	unsigned long gen;
	u64 k[2], e[2];

	/* The calling hit holds level 1 when it is the outermost. */
	if (!hd->cache || this_cpu_read(khist_pad_level) != 1)
		return khist_map_lookup(hd->map, key);
	khist_cache_key(hd, key, k);
	hc = this_cpu_ptr(hd->cache);
	/*
	 * Unlike an insert, nothing stops this lookup from racing with a
	 * clear of @hd, after which the element may hold another key: the
	 * key is checked too (pairs with the release in
	 * khist_hist_data_clear()).
	 */
	gen = smp_load_acquire(&hd->gen);
	elt = khist_cache_find(hc, k, gen);
	if (elt) {
		khist_cache_key(hd, khist_map_elt_key(elt), e);
		if (e[0] == k[0] && e[1] == k[1])
			return elt;
	}
	elt = khist_map_lookup(hd->map, key);
	khist_cache_set(hc, k, elt, gen);
	return elt;
}

/*
 * A hit of a trigger whose keys and values are all loaded straight from
 * the record (ht->plain): no evaluator, no context to build.
 */
static __always_inline void
khist_hist_hit_plain(struct khist_hist_trigger *ht, struct khist_hist_data *hd,
		     const void *rec, unsigned int size, u8 *key, int level)
{
	const struct khist_fetch_plan *p = &ht->plan;
	const struct khist_eval_ctx c = {
		.rec = rec,
		.size = size,
		.cpu = smp_processor_id(),
	};
	struct khist_map_elt *elt;
	unsigned int i;

	khist_fetch_key(p, &c, key);
	elt = khist_hist_insert(hd, key, level);
	if (!elt)
		return;
	khist_map_add(elt, 0, 1);
	if (likely(!hd->qs_mask)) {
		for (i = 1; i < p->n_vals; i++)
			khist_map_add(elt, i, khist_fetch_one(&p->vals[i], &c));
		return;
	}
	for (i = 1; i < p->n_vals; i++) {
		u64 v = khist_fetch_one(&p->vals[i], &c);

		khist_map_add(elt, i, v);
		if (hd->qs_mask & BIT(i))
			khist_qs_record(khist_hist_qs(hd, elt, i), v);
	}
}

/* Any other hit: the evaluator, timestamps, stacks, variables, inter. */
static noinline void khist_hist_hit(struct khist_hist_trigger *ht,
				    struct khist_hist_data *hd, void *rec,
				    unsigned int size,
				    struct khist_hist_pad *pad, int level)
{
	const struct khist_hist_spec *sp = ht->spec;
	struct khist_eval_ctx c = {
		.rec = rec,
		.size = size,
	};
	struct khist_map_elt *elt;
	struct khist_inter *in;
	unsigned int i;

	if (sp->timestamps) {
		c.ts = hd->clock();
		if (sp->ts_usecs && hd->clock_ns)
			c.ts = khist_ns_to_us(c.ts);
	}
	c.cpu = smp_processor_id();
	if (hd->needs_stack) {
		khist_capture_stack(pad->raw, pad->stack);
		c.stack = pad->stack;
	}
	if (!khist_fetch_key(&ht->plan, &c, pad->key))
		khist_hist_key_build(sp, &c, pad->key);
	/* Only the trigger that created the data runs its inter-event part. */
	in = ht->creator ? READ_ONCE(hd->inter) : NULL;
	if (in) {
		c.ref = khist_inter_ref_value;
		c.ref_arg = pad->inter.refs;
		if (in->n_ext &&
		    !khist_inter_resolve(in, pad->key, sp->key_size,
					 pad->inter.refs))
			return;
	}
	elt = khist_hist_insert(hd, pad->key, level);
	if (!elt)
		return;
	khist_map_add(elt, 0, 1);
	for (i = 1; i < sp->n_vals; i++) {
		u64 v = khist_fetch_val(&ht->plan, sp, i, &c);

		khist_map_add(elt, i, v);
		if (hd->qs_mask & BIT(i))
			khist_qs_record(khist_hist_qs(hd, elt, i), v);
	}
	if (sp->n_vars)
		khist_hist_store_vars(hd, sp, elt, &c);
	if (in)
		khist_inter_hit(in, hd, elt, &c, &pad->inter);
}

/*
 * A counting hist: plain, one key of one word loaded straight from the
 * record, common_pid or common_cpu (.log2 and .buckets applied;
 * .execname only prints), hitcount its only value, no filter, a map with
 * per-CPU sums and a last-hit cache. A hit on a key this CPU hit last is
 * counted by khist_triggers_fast() (common_pid, common_cpu: no record
 * at all) or khist_triggers_fast_rec() (a field of the record).
 */
static void khist_hist_counting_set(struct khist_hist_trigger *ht)
{
	const struct khist_fetch_plan *p = &ht->plan;
	const struct khist_fetch *k = &p->keys[0];
	const struct khist_hist_data *hd = ht->hd;

	if (k->op == KHIST_FETCH_CPU)
		ht->count_from = KHIST_COUNT_CPU;
	else if (k->op == KHIST_FETCH_S32 && k->mod == KHIST_FMOD_NONE &&
		 k->src == offsetof(struct khist_common_hdr, pid))
		ht->count_from = KHIST_COUNT_PID;
	else
		ht->count_from = KHIST_COUNT_FIELD;
	ht->counting = ht->plain && p->n_keys == 1 && p->n_vals == 1 &&
		       k->op != KHIST_FETCH_EVAL && !k->dst &&
		       !ht->base.filter && hd->cache && hd->key_words == 1 &&
		       khist_map_sums_percpu(hd->map);
}

/**
 * khist_hist_counting() - whether a trigger is a counting hist
 * @t: a linked trigger of any type
 *
 * Context: process context, khist_event_mutex held.
 * Return: true for a hist trigger whose hits khist_triggers_fast() can
 * count.
 */
bool khist_hist_counting(const struct khist_trigger *t)
{
	return khist_is_hist(t) &&
	       container_of(t, struct khist_hist_trigger, base)->counting;
}

/**
 * khist_hist_counting_norec() - whether a counting hist reads no record
 * @t: a trigger for which khist_hist_counting() is true
 *
 * Context: process context, khist_event_mutex held.
 * Return: true when its key is common_pid or common_cpu.
 */
bool khist_hist_counting_norec(const struct khist_trigger *t)
{
	return container_of(t, struct khist_hist_trigger, base)->count_from !=
	       KHIST_COUNT_FIELD;
}

/**
 * khist_hist_plain_set() - whether a trigger's hits are all direct loads
 * @ht: the trigger, its data set
 *
 * Plain: every key and value is a direct load (hist_fetch.h), and there
 * are no variables, timestamps, stacks or inter-event parts.
 *
 * Context: process context, khist_event_mutex held, before it is linked.
 */
void khist_hist_plain_set(struct khist_hist_trigger *ht)
{
	const struct khist_hist_spec *sp = ht->spec;
	const struct khist_hist_data *hd = ht->hd;
	bool plain = ht->plan.keys_direct && !sp->n_vars && !sp->timestamps &&
		     !hd->needs_stack && !(ht->creator && hd->inter);
	unsigned int i;

	for (i = 1; i < sp->n_vals; i++)
		if (ht->plan.vals[i].op == KHIST_FETCH_EVAL)
			plain = false;
	ht->plain = plain;
	khist_hist_counting_set(ht);
}

/**
 * khist_hist_call() - one hit of a hist trigger
 * @t:    the trigger (not paused, its filter matched)
 * @rec:  the record
 * @size: its size
 * @ts:   the record's timestamp (unused: the hist's own clock is read)
 *
 * Context: any, NMI included, preemption disabled.
 */
void khist_hist_call(struct khist_trigger *t, void *rec, unsigned int size,
		     u64 ts)
{
	struct khist_hist_trigger *ht = khist_to_hist(t);
	struct khist_hist_data *hd = ht->hd;
	struct khist_hist_pads *pads;
	struct khist_hist_pad *pad;
	int level;

	/* Pairs with the release in khist_hist_data_clear(). */
	if (smp_load_acquire(&hd->clearing))
		return;
	pads = this_cpu_ptr(khist_pads);
	level = this_cpu_read(khist_pad_level);
	if (level >= KHIST_PAD_LEVELS) {
		atomic64_inc(&ht->lost);
		return;
	}
	this_cpu_write(khist_pad_level, level + 1);
	barrier();
	pad = &pads->pad[level];
	/* Shorter than the plan: the evaluator reads 0 past the end. */
	if (ht->plain && size >= ht->plan.min_size)
		khist_hist_hit_plain(ht, hd, rec, size, pad->key, level);
	else
		khist_hist_hit(ht, hd, rec, size, pad, level);
	barrier();
	this_cpu_write(khist_pad_level, level);
}

/*
 * Count a hit of @ht on @k when this CPU hit that key last. False: the
 * full hit must run (another key, or a nested hit, which may not touch
 * the cache). True also when the map is being cleared (nothing to do).
 */
static __always_inline bool khist_count_hit(struct khist_hist_trigger *ht,
					    struct khist_hit_cache *hc, u64 k)
{
	struct khist_hist_data *hd = ht->hd;
	struct khist_hit_way *w;
	unsigned long gen;
	bool done = false;

	/* Pairs with the release in khist_hist_data_clear(). */
	if (smp_load_acquire(&hd->clearing))
		return true;
	/* The cache is the outermost hit's only (struct khist_hit_cache). */
	if (this_cpu_read(khist_pad_level))
		return false;
	this_cpu_write(khist_pad_level, 1);
	barrier();
	/* Ordered after the acquire of hd->clearing. */
	gen = READ_ONCE(hd->gen);
	w = &hc->way[0];
	if (w->key[0] != k || w->gen != gen) {
		w = &hc->way[1];
		if (w->key[0] != k || w->gen != gen)
			goto out;
	}
	/* A way of this generation has its sum: the map's sums are per-CPU. */
	local64_inc(w->sum);
	local64_inc(hc->hits);
	hc->misses = 0;
	done = true;
out:
	barrier();
	this_cpu_write(khist_pad_level, 0);
	return done;
}

/**
 * khist_triggers_fast() - count a hit of an event's counting hist
 * @fast: ev->fast of an event that is only soft-enabled: its only
 *        trigger, a counting hist on common_pid or common_cpu
 *
 * A hit on the key (the task's pid or the CPU) this CPU counted last in
 * that hist adds one to the entry's hitcount on this CPU and to the map's
 * hits: what khist_hist_call() does for it, with no record, no header and
 * no trigger call. Anything else (another key, a nested hit) is left to
 * the full path.
 *
 * Context: any, NMI included, preemption disabled.
 * Return: true when the hit is done with (counted, or skipped as the full
 * path would skip it: paused, or the map being cleared).
 */
bool khist_triggers_fast(struct khist_trigger *fast)
{
	struct khist_hist_trigger *ht = khist_to_hist(fast);
	struct khist_hit_cache *hc;
	u64 k;

	if (READ_ONCE(ht->base.paused))
		return true;
	/* The key as khist_fetch_key() builds it: common_pid sign-extended. */
	if (ht->count_from == KHIST_COUNT_CPU)
		k = raw_smp_processor_id();
	else
		k = (u64)(s64)current->pid;
	hc = this_cpu_ptr(ht->hd->cache);
	return khist_count_hit(ht, hc, k);
}

/**
 * khist_triggers_fast_rec() - a hit of an event whose only trigger is a
 * counting hist, on a record built for the triggers only
 * @fast: ev->fast
 * @rec:  the record
 * @size: its size
 *
 * What khist_triggers_call() does for that trigger (it has no filter),
 * without the call: a key this CPU hit last is counted as by
 * khist_triggers_fast(), read from @rec by the trigger's fetch plan; any
 * other hit is the trigger's full hit. While the last-hit cache rests
 * (keys that do not repeat), straight to the full hit.
 *
 * Context: any, NMI included, preemption disabled.
 */
void khist_triggers_fast_rec(struct khist_trigger *fast, void *rec,
			     unsigned int size)
{
	struct khist_hist_trigger *ht = khist_to_hist(fast);
	/* Only rec and cpu are read by a direct fetch: no need to zero it. */
	struct khist_eval_ctx c __uninitialized;
	struct khist_hit_cache *hc;

	if (READ_ONCE(ht->base.paused))
		return;
	hc = this_cpu_ptr(ht->hd->cache);
	/* Shorter than the plan: the evaluator's business (the full hit). */
	if (!hc->rest && likely(size >= ht->plan.min_size)) {
		c.rec = rec;
		c.size = size;
		c.cpu = raw_smp_processor_id();
		if (khist_count_hit(ht, hc,
				    khist_fetch_one(&ht->plan.keys[0], &c)))
			return;
	}
	khist_hist_call(&ht->base, rec, size, 0);
}

/**
 * khist_hist_var_str() - the string slot of a variable in an entry
 * @hd:      the trigger's data
 * @elt:     the entry
 * @str_idx: the variable's string slot (struct khist_hvar.str_idx)
 *
 * Context: any.
 * Return: KHIST_STR_SLOT bytes; a string (NUL-terminated) or a stack
 * (KHIST_STACK_DEPTH unsigned longs).
 */
char *khist_hist_var_str(struct khist_hist_data *hd, struct khist_map_elt *elt,
			 unsigned int str_idx)
{
	return (char *)khist_map_elt_extra(elt) + hd->str_off +
	       str_idx * KHIST_STR_SLOT;
}

/**
 * khist_hist_var_read() - a variable of the entry with a given key
 * @ht:  the trigger that defines the variable
 * @idx: the variable (index into ht->spec->vars)
 * @key: a key of ht's layout (ht->spec->key_size bytes)
 * @val: set to the value (string and stack variables: their slot index,
 *       see khist_hist_var_str())
 *
 * Context: any, NMI included.
 * Return: true when the entry exists and the variable has been set.
 */
bool khist_hist_var_read(struct khist_hist_trigger *ht, unsigned int idx,
			 const void *key, u64 *val)
{
	struct khist_map_elt *elt;

	if (idx >= ht->spec->n_vars)
		return false;
	elt = khist_map_lookup(ht->hd->map, key);
	if (!elt || !khist_map_var_is_set(elt, idx))
		return false;
	*val = khist_map_get_var(elt, idx);
	return true;
}
