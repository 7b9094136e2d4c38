// SPDX-License-Identifier: GPL-2.0
/*
 * khist_map_selftest.c - what only the kernel can test of the histogram
 * map, run against the map code of khist.ko (exported next to each
 * function in module/core/map*.c, namespace KHIST_INTERNAL, for this
 * module only). The map's single-threaded cases (key sizes, a full map,
 * the overflow element, growth, clear, variables, sorted snapshots) are
 * map_kunit.c's, which run in userspace (make unit) and in the kernel
 * (khist_core_test.ko).
 *
 * Everything runs at load time. Each case prints one TAP-like line,
 * "khist_map_selftest: ok N - <case>" or "khist_map_selftest: not ok N -
 * <case>: <why>", then a "N passed, M failed" line; the read-only module
 * parameters passed and failed give the same counts, for the test
 * selftests/fs/test.d/map/map-kernel-selftest.tc:
 *
 *   - concurrency, with per-CPU and with shared (atomic) sums: one kthread
 *     bound to each online CPU, a hard-irq hrtimer on each CPU and (x86)
 *     NMIs the timers send to the next CPU insert overlapping keys and add
 *     to their sums for stress_ms milliseconds while this thread grows the
 *     map; then every key is present once and the sums, hits and drops add
 *     up to the updates made.
 */
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define MST_HAVE_NMI 1
#else
#define MST_HAVE_NMI 0
#endif

#include "core/map.h"

MODULE_IMPORT_NS(KHIST_INTERNAL);

static unsigned int stress_ms = 1500;
module_param(stress_ms, uint, 0444);
MODULE_PARM_DESC(stress_ms, "duration of the concurrent stress case (ms)");

static int passed;
module_param(passed, int, 0444);
MODULE_PARM_DESC(passed, "cases that passed (read after loading)");

static int failed;
module_param(failed, int, 0444);
MODULE_PARM_DESC(failed, "cases that failed (read after loading)");

static int case_nr;

/* Reports one case; @why is NULL when it passed. */
static void mst_report(const char *name, const char *why)
{
	case_nr++;
	if (!why) {
		passed++;
		pr_info("ok %d - %s\n", case_nr, name);
	} else {
		failed++;
		pr_err("not ok %d - %s: %s\n", case_nr, name, why);
	}
}

/* Key @id for a map with @size-byte keys: the id in front and at the end. */
static void mst_key(u8 *key, u32 size, u32 id)
{
	memset(key, 0, size);
	memcpy(key, &id, min_t(u32, size, sizeof(id)));
	if (size > 8)
		key[size - 1] = (u8)(id * 31 + 7);
}

static struct khist_map *mst_create(u32 max, u32 limit, u32 key_size,
				    u32 n_sums, u32 n_vars, u32 flags)
{
	struct khist_map_params p = {
		.max_entries = max,
		.grow_limit = limit,
		.key_size = key_size,
		.n_sums = n_sums,
		.n_vars = n_vars,
		.flags = flags,
	};

	return khist_map_create(&p, NULL, NULL);
}

/* ---- insert/find, duplicates, key sizes ---------------------------------- */

/* ---- concurrency ---------------------------------------------------------- */

#define MST_KEYS 3000

struct mst_stress {
	struct khist_map *map;
	atomic64_t updates;
	atomic64_t irq_updates;
	atomic64_t nmi_updates;
	atomic64_t nmi_sent;
	bool stop;
};

struct mst_worker {
	struct mst_stress *s;
	struct task_struct *task;
	struct hrtimer timer;
	u64 rng;
	u64 irq_rng;
	int cpu;
};

static u32 mst_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (u32)(*x >> 11);
}

/* One update: a key of the shared set, +1 on sum 0, its id on sum 1. */
static void mst_update(struct mst_stress *s, u64 *rng, atomic64_t *count)
{
	struct khist_map_elt *e;
	u32 id = mst_next(rng) % MST_KEYS;
	u8 key[12];

	mst_key(key, sizeof(key), id);
	e = khist_map_insert(s->map, key);
	if (!e)
		return;
	khist_map_add(e, 0, 1);
	khist_map_add(e, 1, id);
	atomic64_inc(count);
}

#if MST_HAVE_NMI
/*
 * NMIs: each timer tick sends one to the next online CPU, which may be in
 * the middle of an insert from its kthread or its own timer. The handler
 * claims only NMIs this module asked for (mst_nmi_pending).
 */
static struct mst_stress *mst_nmi_stress;
static DEFINE_PER_CPU(atomic_t, mst_nmi_pending);
static DEFINE_PER_CPU(u64, mst_nmi_rng);

static int mst_nmi(unsigned int type, struct pt_regs *regs)
{
	struct mst_stress *s = READ_ONCE(mst_nmi_stress);
	u64 *rng = this_cpu_ptr(&mst_nmi_rng);
	unsigned int i;

	if (!atomic_xchg(this_cpu_ptr(&mst_nmi_pending), 0))
		return NMI_DONE;
	if (!*rng)
		*rng = 0x9e3779b97f4a7c15ULL ^ (smp_processor_id() + 1);
	for (i = 0; s && i < 4; i++)
		mst_update(s, rng, &s->nmi_updates);
	return NMI_HANDLED;
}

static void mst_nmi_send(struct mst_stress *s)
{
	int cpu = cpumask_next(smp_processor_id(), cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	atomic_set(per_cpu_ptr(&mst_nmi_pending, cpu), 1);
	atomic64_inc(&s->nmi_sent);
	apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
}

static int mst_nmi_start(struct mst_stress *s)
{
	int ret = register_nmi_handler(NMI_LOCAL, mst_nmi, 0, "khist_mapst");

	if (!ret)
		WRITE_ONCE(mst_nmi_stress, s);
	return ret;
}

static void mst_nmi_stop(void)
{
	/* The last NMIs, sent before the timers stopped, have landed. */
	msleep(20);
	WRITE_ONCE(mst_nmi_stress, NULL);
	unregister_nmi_handler(NMI_LOCAL, "khist_mapst");
}
#else
static void mst_nmi_send(struct mst_stress *s)
{
}

static int mst_nmi_start(struct mst_stress *s)
{
	return 0;
}

static void mst_nmi_stop(void)
{
}
#endif

static int mst_thread(void *arg)
{
	struct mst_worker *w = arg;
	unsigned int i;

	while (!kthread_should_stop()) {
		for (i = 0; i < 64; i++) {
			preempt_disable();
			mst_update(w->s, &w->rng, &w->s->updates);
			preempt_enable();
		}
		cond_resched();
	}
	return 0;
}

static enum hrtimer_restart mst_timer(struct hrtimer *t)
{
	struct mst_worker *w = container_of(t, struct mst_worker, timer);
	unsigned int i;

	/* Hard interrupt context: updates that cut into the kthread's. */
	for (i = 0; i < 8; i++)
		mst_update(w->s, &w->irq_rng, &w->s->irq_updates);
	if (READ_ONCE(w->s->stop))
		return HRTIMER_NORESTART;
	mst_nmi_send(w->s);
	hrtimer_forward_now(t, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void mst_timer_start(void *arg)
{
	struct mst_worker *w = arg;

	hrtimer_start(&w->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static const char *mst_check_stress(struct mst_stress *s, char *buf,
				    size_t size)
{
	struct khist_map_stats st;
	struct khist_map_elt *e;
	unsigned long *seen;
	u64 total, sum0 = 0, sum1 = 0, ids = 0;
	u32 pos = 0, id, n = 0;
	const char *why = NULL;

	seen = bitmap_zalloc(MST_KEYS, GFP_KERNEL);
	if (!seen)
		return "no memory for the check";
	total = atomic64_read(&s->updates) + atomic64_read(&s->irq_updates) +
		atomic64_read(&s->nmi_updates);
	while ((e = khist_map_next(s->map, &pos))) {
		memcpy(&id, khist_map_elt_key(e), sizeof(id));
		if (id >= MST_KEYS || test_and_set_bit(id, seen)) {
			why = "a key is present twice (or unknown)";
			break;
		}
		n++;
		sum0 += khist_map_read_sum(e, 0);
		sum1 += khist_map_read_sum(e, 1);
		ids += id * khist_map_read_sum(e, 0);
	}
	e = khist_map_overflow(s->map);
	if (e) {
		sum0 += khist_map_read_sum(e, 0);
		sum1 += khist_map_read_sum(e, 1);
		ids += khist_map_read_sum(e, 1);
	}
	khist_map_get_stats(s->map, &st);
	if (!why && n != st.entries)
		why = "iteration and entry count differ";
	if (!why && sum0 != total)
		why = "sum of hits is not the number of updates";
	if (!why && sum1 != ids)
		why = "a sum landed in another key's element";
	if (!why && st.hits + st.drops != total)
		why = "hits + drops is not the number of updates";
	if (!why && !atomic64_read(&s->irq_updates))
		why = "the timer never ran";
	if (!why && MST_HAVE_NMI && !atomic64_read(&s->nmi_updates))
		why = "no NMI arrived";
	snprintf(buf, size, "%u keys, %llu updates, %llu in irq, %llu in NMI",
		 n, total, (u64)atomic64_read(&s->irq_updates),
		 (u64)atomic64_read(&s->nmi_updates));
	snprintf(buf + strlen(buf), size - strlen(buf),
		 " (%llu NMIs sent), %llu drops, max %u",
		 (u64)atomic64_read(&s->nmi_sent), st.drops, st.max);
	bitmap_free(seen);
	return why;
}

static const char *mst_stress(u32 flags, char *buf, size_t size)
{
	struct mst_stress s = {};
	struct mst_worker *w;
	unsigned long end;
	unsigned int nw = 0, i;
	const char *why = NULL;
	int cpu;

	s.map = mst_create(128, 4096, 12, 2, 0, flags | KHIST_MAP_F_OVERFLOW);
	if (IS_ERR(s.map))
		return "create failed";
	w = kcalloc(nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	if (!w || mst_nmi_start(&s)) {
		kfree(w);
		khist_map_destroy(s.map);
		return "no memory or no NMI handler";
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct mst_worker *x = &w[nw];

		x->s = &s;
		x->cpu = cpu;
		x->rng = 0x9e3779b97f4a7c15ULL * (cpu + 1);
		x->irq_rng = 0x2545f4914f6cdd1dULL * (cpu + 1);
		x->task = kthread_create(mst_thread, x, "khist_mapst/%d", cpu);
		if (IS_ERR(x->task)) {
			why = "kthread_create failed";
			break;
		}
		kthread_bind(x->task, cpu);
		hrtimer_init(&x->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		x->timer.function = mst_timer;
		nw++;
	}
	for (i = 0; i < nw; i++) {
		wake_up_process(w[i].task);
		smp_call_function_single(w[i].cpu, mst_timer_start, &w[i], 1);
	}
	cpus_read_unlock();

	/* This thread grows the map, as the trigger's worker would. */
	end = jiffies + msecs_to_jiffies(stress_ms);
	while (time_before(jiffies, end) && !why) {
		if (khist_map_should_grow(s.map) && khist_map_grow(s.map))
			why = "grow failed";
		usleep_range(1000, 2000);
	}
	WRITE_ONCE(s.stop, true);
	for (i = 0; i < nw; i++) {
		kthread_stop(w[i].task);
		hrtimer_cancel(&w[i].timer);
	}
	mst_nmi_stop();
	if (!why)
		why = mst_check_stress(&s, buf, size);
	kfree(w);
	khist_map_destroy(s.map);
	return why;
}

static void mst_concurrency(void)
{
	static char info[200];
	const char *why;

	why = mst_stress(KHIST_MAP_F_PERCPU, info, sizeof(info));
	pr_info("per-CPU sums: %s\n", info);
	mst_report("kthreads + hard irq + NMI, growing, per-CPU sums", why);
	why = mst_stress(KHIST_MAP_F_ATOMIC, info, sizeof(info));
	pr_info("atomic sums: %s\n", info);
	mst_report("kthreads + hard irq + NMI, growing, atomic sums", why);
}

static int __init khist_map_selftest_init(void)
{
	mst_concurrency();
	pr_info("%d passed, %d failed\n", passed, failed);
	return 0;
}

static void __exit khist_map_selftest_exit(void)
{
}

module_init(khist_map_selftest_init);
module_exit(khist_map_selftest_exit);
MODULE_DESCRIPTION("khist: in-kernel tests of the histogram map");
MODULE_LICENSE("GPL");
