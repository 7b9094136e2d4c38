// SPDX-License-Identifier: GPL-2.0
/*
 * hist_data.c - a hist trigger's data: its map (with the layout of each
 * entry's extra area), its clock, and the registry of named (name=) data
 * shared across events.
 *
 * Extra area of an entry: the comm of the task that created the entry
 * (16 bytes, when a key or variable uses .execname), then one
 * KHIST_STR_SLOT-byte slot per string or stack variable, then one
 * struct khist_qsketch (8-byte aligned) per .stats or .quantiles value.
 * The comm and string part stays within KHIST_MAP_EXTRA_MAX (what the
 * limit of string variables derives from), the whole within
 * KHIST_MAP_EXTRA_LIMIT.
 */
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#include "base/instance.h"
#include "hist.h"
#include "core/hist_eval.h"
#include "core/hist_print.h"
#include "inter.h"
#include "mem/mem.h"

/*
 * hist_grow=1 (the default): size= is the initial size of a hist's map,
 * which grows while mem_limit_kb allows; hist_grow=0: ftrace's fixed
 * size, new keys dropped once it is full. Read when a hist is created.
 */
static bool khist_hist_grow = true;
module_param_named(hist_grow, khist_hist_grow, bool, 0644);
MODULE_PARM_DESC(hist_grow, "hist maps grow to mem_limit_kb (0: fixed)");

/* Named hist data, across every event (kernel: named_triggers). */
static LIST_HEAD(khist_named_list);

static atomic64_t khist_clock_counter;

static u64 khist_clock_counter_read(void)
{
	return atomic64_inc_return(&khist_clock_counter);
}

static u64 khist_clock_x86_tsc(void)
{
#ifdef CONFIG_X86_TSC
	return rdtsc_ordered();
#else
	return trace_clock_local();
#endif
}

static u64 khist_clock_perf(void)
{
	return trace_clock();
}

/* ftrace's clocks, by the names trace_clock (and clock=) accepts. */
static const struct {
	const char *name;
	u64 (*fn)(void);
	bool ns;
} khist_clocks[] = {
	{ "local", trace_clock_local, true },
	{ "global", trace_clock_global, true },
	{ "counter", khist_clock_counter_read, false },
	{ "uptime", trace_clock_jiffies, false },
	{ "perf", khist_clock_perf, true },
	{ "mono", ktime_get_mono_fast_ns, true },
	{ "mono_raw", ktime_get_raw_fast_ns, true },
	{ "boot", ktime_get_boot_fast_ns, true },
	{ "tai", ktime_get_tai_fast_ns, true },
	{ "x86-tsc", khist_clock_x86_tsc, false },
};

/**
 * khist_hist_clock_lookup() - a trace clock by name
 * @name: "global", "local", "mono", ...
 * @fn:   set to the clock
 * @ns:   set to whether it counts nanoseconds
 *
 * Context: any.
 * Return: 0, or -EINVAL for an unknown name.
 */
int khist_hist_clock_lookup(const char *name, khist_clock_fn *fn, bool *ns)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_clocks); i++) {
		if (!strcmp(khist_clocks[i].name, name)) {
			*fn = khist_clocks[i].fn;
			*ns = khist_clocks[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* A new entry: save the comm (as ftrace: "<idle>" for pid 0), clear vars. */
static void khist_hist_elt_init(struct khist_map_elt *elt, void *priv)
{
	struct khist_hist_data *hd = priv;
	u8 *extra = khist_map_elt_extra(elt);

	memset(extra, 0, hd->extra_size);
	if (hd->comm_off < 0)
		return;
	if (!current->pid)
		memcpy(extra + hd->comm_off, "<idle>", 7);
	else
		memcpy(extra + hd->comm_off, current->comm, TASK_COMM_LEN - 1);
}

/*
 * Growth of the map is charged to mem_limit_kb as a change in size of the
 * data's one charge (hd->charged), so that it is given back with it.
 */
static int khist_hist_map_charge(void *priv, s64 bytes)
{
	struct khist_hist_data *hd = priv;
	u64 now = hd->charged;
	int ret;

	if (bytes < 0) {
		hd->charged -= (u64)-bytes;
		khist_mem_recharge(now, hd->charged);
		return 0;
	}
	ret = khist_mem_recharge(now, now + bytes);
	if (!ret)
		hd->charged += bytes;
	return ret;
}

static const struct khist_map_ops khist_hist_map_ops = {
	.elt_init = khist_hist_elt_init,
	.charge = khist_hist_map_charge,
};

static const char khist_grow_limit_msg[] =
	"khist memory limit reached (module parameter mem_limit_kb): table full, new keys dropped";
static const char khist_grow_nomem_msg[] =
	"Out of memory: table full, new keys dropped";

/* The first failed growth of @hd, in its first user's instance error_log. */
static void khist_hist_grow_report(struct khist_hist_data *hd, int err)
{
	struct khist_hist_trigger *ht;
	char loc[128];
	struct khist_event *ev;
	char *text;
	int len;

	ht = list_first_entry_or_null(&hd->users, struct khist_hist_trigger,
				      hd_node);
	if (!ht)
		return;
	ev = ht->base.ev;
	snprintf(loc, sizeof(loc), "hist:%s:%s", ev->schema.system,
		 ev->schema.name);
	len = khist_hist_print(ht->spec, false, NULL, 0);
	text = kmalloc(len + 1, GFP_KERNEL);
	if (text) {
		khist_hist_print(ht->spec, false, text, len + 1);
		/* The listing's line without its " [active]" and newline. */
		strreplace(text, '\n', '\0');
		if (strchr(text, ' '))
			*strchr(text, ' ') = '\0';
	}
	khist_error_report(ev->inst, loc,
			   err == -E2BIG ? khist_grow_limit_msg :
					   khist_grow_nomem_msg,
			   text ? text : "", 0);
	kfree(text);
}

/* Grow @hd's map while it asks for it and nothing refused; walk_lock held. */
static void khist_hist_grow_locked(struct khist_hist_data *hd)
{
	int ret;

	lockdep_assert_held(&hd->walk_lock);
	while (hd->grows && !READ_ONCE(hd->grow_stop) &&
	       khist_map_should_grow(hd->map)) {
		ret = khist_map_grow(hd->map);
		if (!ret)
			continue;
		WRITE_ONCE(hd->grow_err, ret);
		WRITE_ONCE(hd->grow_stop, 1);
	}
}

/*
 * The first refused growth since the last clear, once in error_log; under
 * khist_event_mutex (the users' list, the instance's log).
 */
static void khist_hist_grow_note(struct khist_hist_data *hd)
{
	lockdep_assert_held(&khist_event_mutex);
	if (!READ_ONCE(hd->grow_stop) || READ_ONCE(hd->grow_logged))
		return;
	WRITE_ONCE(hd->grow_logged, true);
	khist_hist_grow_report(hd, READ_ONCE(hd->grow_err));
}

/**
 * khist_hist_grow_now() - grow a hist's map as far as it asks, before a read
 * @hd: the hist data
 *
 * The work below grows the map when a hit asks for it; a reader of `hist`
 * or `hist_json` does it too before it reads, so that a growth never waits
 * for a whole read. Either way a growth waits only for a walk of the slot
 * table (walk_lock), not for a sort or a print. A refused growth stops the
 * tries until the next clear and is reported once in error_log.
 *
 * Context: process context, sleeps; khist_event_mutex held, @hd->walk_lock
 * not.
 */
void khist_hist_grow_now(struct khist_hist_data *hd)
{
	lockdep_assert_held(&khist_event_mutex);
	mutex_lock(&hd->walk_lock);
	khist_hist_grow_locked(hd);
	mutex_unlock(&hd->walk_lock);
	khist_hist_grow_note(hd);
}

/*
 * Grow @hd's map while it asks for it. No khist_event_mutex: readers of
 * hist files hold it for as long as they read, back to back. Clear and
 * the walks of readers take walk_lock, whose holders never wait for this
 * work (khist_hist_data_put() does, with cancel_delayed_work_sync()).
 */
static void khist_hist_grow_work(struct work_struct *w)
{
	struct delayed_work *dw = to_delayed_work(w);
	struct khist_hist_data *hd;

	hd = container_of(dw, struct khist_hist_data, grow_work);
	mutex_lock(&hd->walk_lock);
	khist_hist_grow_locked(hd);
	mutex_unlock(&hd->walk_lock);
	if (!READ_ONCE(hd->grow_stop) || READ_ONCE(hd->grow_logged))
		return;
	/*
	 * The report needs the mutex, whose holder may be freeing @hd and
	 * waiting for this work: never wait for it, try again later.
	 */
	if (!mutex_trylock(&khist_event_mutex)) {
		queue_delayed_work(system_unbound_wq, &hd->grow_work, 1);
		return;
	}
	khist_hist_grow_note(hd);
	mutex_unlock(&khist_event_mutex);
}

/*
 * From a hit, in any context: the work may sleep. On this CPU's
 * high-priority pool: a task that brings new keys in a tight loop is
 * preempted by it soon, so the next level is ready before the one just
 * switched to fills up (the unbound pool's worker came late enough for
 * bursts to drop keys).
 */
static void khist_hist_grow_iw(struct irq_work *iw)
{
	struct khist_hist_data *hd =
		container_of(iw, struct khist_hist_data, grow_iw);

	queue_delayed_work(system_highpri_wq, &hd->grow_work, 0);
}

static bool khist_bf_has_flag(const struct khist_bfield *f, u32 flag)
{
	if (!f)
		return false;
	return (f->flags & flag) || khist_bf_has_flag(f->l, flag) ||
	       khist_bf_has_flag(f->r, flag);
}

static bool khist_spec_uses_comm(const struct khist_hist_spec *sp)
{
	unsigned int i;

	for (i = 0; i < sp->n_keys; i++)
		if (khist_bf_has_flag(sp->keys[i].f, KHIST_HF_EXECNAME))
			return true;
	for (i = 0; i < sp->n_vars; i++)
		if (khist_bf_has_flag(sp->vars[i].f, KHIST_HF_EXECNAME))
			return true;
	return false;
}

/**
 * khist_hist_data_create() - the map and layout for a new hist trigger
 * @spec:  the bound trigger; on success the data owns it
 * @inter: its inter-event state (hidden variables and string slots are
 *         added to the map), or NULL; on success the data owns it
 *
 * Context: process context, khist_event_mutex held.
 * Return: the data (refs 1), or an ERR_PTR: -E2BIG when the entry layout
 * does not fit the map, -EINVAL for an unknown clock, -ENOSPC when it
 * would pass mem_limit_kb, -ENOMEM.
 */
struct khist_hist_data *khist_hist_data_create(struct khist_hist_spec *spec,
					       struct khist_inter *inter)
{
	unsigned int n_vars = inter ? inter->n_vars : spec->n_vars;
	unsigned int n_str = inter ? inter->n_str : spec->n_var_str;
	struct khist_map_params p = {};
	struct khist_hist_data *hd;
	struct khist_map_mem mem;
	unsigned int i;
	size_t cache;
	u32 extra;
	int ret;

	hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&hd->named);
	INIT_LIST_HEAD(&hd->users);
	init_irq_work(&hd->grow_iw, khist_hist_grow_iw);
	INIT_DELAYED_WORK(&hd->grow_work, khist_hist_grow_work);
	hd->comm_off = -1;
	extra = 0;
	if (khist_spec_uses_comm(spec)) {
		hd->comm_off = 0;
		extra = TASK_COMM_LEN;
	}
	hd->str_off = extra;
	extra += n_str * KHIST_STR_SLOT;
	ret = -E2BIG;
	if (extra > KHIST_MAP_EXTRA_MAX || spec->n_vals > KHIST_MAP_SUMS_MAX ||
	    n_vars > KHIST_MAP_VARS_MAX)
		goto fail;
	for (i = 1; i < spec->n_vals; i++) {
		if (!(spec->vals[i]->flags &
		      (KHIST_HF_STATS | KHIST_HF_QUANTILES)))
			continue;
		extra = ALIGN(extra, 8);
		hd->qs_off[i] = extra;
		hd->qs_mask |= BIT(i);
		extra += sizeof(struct khist_qsketch);
	}
	if (extra > KHIST_MAP_EXTRA_LIMIT)
		goto fail;
	hd->extra_size = extra;
	ret = khist_hist_clock_lookup(spec->clock, &hd->clock, &hd->clock_ns);
	if (ret)
		goto fail;
	hd->needs_stack = khist_hist_spec_has_stack(spec);
	p.max_entries = 1U << spec->map_bits;
	hd->grows = READ_ONCE(khist_hist_grow) &&
		    spec->map_bits < KHIST_MAP_BITS_MAX;
	if (hd->grows)
		p.grow_limit = 1U << KHIST_MAP_BITS_MAX;
	p.key_size = spec->key_size;
	p.n_sums = spec->n_vals;
	p.n_vars = n_vars;
	p.extra_size = extra;
	ret = khist_map_mem_size(&p, &mem);
	if (ret)
		goto fail;
	/* The per-CPU last-hit cache, for keys of one or two words. */
	cache = spec->key_size <= sizeof(((struct khist_hit_way *)0)->key) ?
			nr_cpu_ids * sizeof(struct khist_hit_cache) :
			0;
	ret = khist_mem_charge(sizeof(*hd) + mem.total + cache);
	if (ret)
		goto fail;
	hd->charged = sizeof(*hd) + mem.total + cache;
	hd->key_words = spec->key_size / sizeof(u64);
	/* An empty cache way (generation 0) then matches no key. */
	hd->gen = 1;
	if (cache) {
		hd->cache = alloc_percpu(struct khist_hit_cache);
		if (!hd->cache) {
			ret = -ENOMEM;
			khist_mem_uncharge(hd->charged);
			goto fail;
		}
	}
	hd->map = khist_map_create(&p, &khist_hist_map_ops, hd);
	if (IS_ERR(hd->map)) {
		ret = PTR_ERR(hd->map);
		free_percpu(hd->cache);
		khist_mem_uncharge(hd->charged);
		goto fail;
	}
	mutex_init(&hd->show_lock);
	mutex_init(&hd->walk_lock);
	hd->spec = spec;
	hd->name = spec->name;
	hd->refs = 1;
	if (hd->name)
		list_add_tail(&hd->named, &khist_named_list);
	hd->inter = inter;
	khist_inter_register(inter, hd);
	return hd;
fail:
	kfree(hd);
	return ERR_PTR(ret);
}

/**
 * khist_hist_named_find() - the data of a name=, if any trigger has it
 * @name: the name
 *
 * Context: process context, khist_event_mutex held.
 * Return: the data or NULL.
 */
struct khist_hist_data *khist_hist_named_find(const char *name)
{
	struct khist_hist_data *hd;

	lockdep_assert_held(&khist_event_mutex);
	list_for_each_entry(hd, &khist_named_list, named)
		if (!strcmp(hd->name, name))
			return hd;
	return NULL;
}

/**
 * khist_hist_data_use() - a trigger uses the data
 * @hd: the data
 * @ht: the trigger; the data's creator is counted by
 *      khist_hist_data_create() already
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_hist_data_use(struct khist_hist_data *hd,
			 struct khist_hist_trigger *ht)
{
	lockdep_assert_held(&khist_event_mutex);
	if (!ht->creator)
		hd->refs++;
	list_add_tail(&ht->hd_node, &hd->users);
}

/**
 * khist_hist_data_unuse() - a trigger stops using its data
 * @hd: the data
 * @ht: the trigger
 *
 * When the last trigger lets go, the name becomes free at once; the memory
 * is freed by khist_hist_data_put() after a grace period. When others
 * remain and @hd was printed with @ht's spec, it is printed with the next
 * user's from now on: @ht's spec (bound to @ht's event, which may go) is
 * freed with @ht.
 *
 * Context: process context, khist_event_mutex held.
 * Return: true when that was the last user.
 */
bool khist_hist_data_unuse(struct khist_hist_data *hd,
			   struct khist_hist_trigger *ht)
{
	struct khist_hist_trigger *next;

	lockdep_assert_held(&khist_event_mutex);
	list_del_init(&ht->hd_node);
	if (--hd->refs) {
		if (hd->spec != ht->spec || list_empty(&hd->users))
			return false;
		next = list_first_entry(&hd->users, typeof(*next), hd_node);
		hd->spec = next->spec;
		hd->name = next->spec->name;
		return false;
	}
	list_del_init(&hd->named);
	return true;
}

/**
 * khist_hist_data_put() - free data nobody uses any more
 * @hd: the data, khist_hist_data_unuse() returned true and no probe can
 *      see it (after a grace period)
 *
 * Context: process context.
 */
void khist_hist_data_put(struct khist_hist_data *hd)
{
	/* No hit queues it any more; the work never waits for the mutex. */
	irq_work_sync(&hd->grow_iw);
	cancel_delayed_work_sync(&hd->grow_work);
	khist_inter_free(hd->inter);
	free_percpu(hd->cache);
	khist_map_destroy(hd->map);
	khist_hist_spec_put(hd->spec);
	khist_mem_uncharge(hd->charged);
	kfree(hd);
}

/**
 * khist_hist_data_clear() - empty the map (the `clear` attribute)
 * @hd: the data
 *
 * Hits are skipped while the map is cleared, for every trigger sharing it
 * (the kernel only does so for named triggers; khist never lets an update
 * race with the clear).
 *
 * Context: process context, khist_event_mutex held; sleeps.
 */
void khist_hist_data_clear(struct khist_hist_data *hd)
{
	WRITE_ONCE(hd->clearing, 1);
	khist_trigger_sync();
	/* A reader of `hist` reads the map without khist_event_mutex. */
	mutex_lock(&hd->show_lock);
	/* Nor may the map grow meanwhile (the work takes walk_lock alone). */
	mutex_lock(&hd->walk_lock);
	khist_map_clear(hd->map);
	mutex_unlock(&hd->walk_lock);
	mutex_unlock(&hd->show_lock);
	/*
	 * Every cached element may now hold another key; lookups from other
	 * hists' hits see the new generation with the cleared map.
	 */
	smp_store_release(&hd->gen, hd->gen + 1);
	/* An empty map may grow again (and say so if it cannot). */
	WRITE_ONCE(hd->grow_stop, 0);
	WRITE_ONCE(hd->grow_logged, false);
	/* Orders the cleared map and the generation before updates resume. */
	smp_store_release(&hd->clearing, 0);
}

/**
 * khist_hist_spec_charge() - charge a spec to the memory limit
 * @sp: a spec of khist_hist_compile()
 *
 * Charges what @sp holds beyond what was charged for it already (its
 * arena grows while the inter-event state of its trigger is made), and
 * records it in @sp->charged for khist_hist_spec_put().
 *
 * Context: process context.
 * Return: 0, or -ENOSPC when over the limit (nothing more charged).
 */
int khist_hist_spec_charge(struct khist_hist_spec *sp)
{
	size_t now = khist_hist_spec_bytes(sp);
	int ret;

	if (!sp->charged)
		ret = khist_mem_charge(now);
	else if (now > sp->charged)
		ret = khist_mem_recharge(sp->charged, now);
	else
		return 0;
	if (ret)
		return ret;
	sp->charged = now;
	return 0;
}

/**
 * khist_hist_spec_put() - free a spec and give back what it was charged
 * @sp: the spec, or NULL
 *
 * Context: process context.
 */
void khist_hist_spec_put(struct khist_hist_spec *sp)
{
	if (!sp)
		return;
	if (sp->charged)
		khist_mem_uncharge(sp->charged);
	khist_hist_spec_free(sp);
}
