// SPDX-License-Identifier: GPL-2.0
/*
 * khist_bench_null.c - the floor of khist's per-event benchmark.
 *
 * While loaded, attaches a probe that does nothing to one kernel
 * tracepoint, the way khist attaches its own probes (looked up with
 * for_each_kernel_tracepoint(), registered with tracepoint_probe_register()
 * and a data pointer). What the benchmark measures with it is the cost of
 * having any probe on that tracepoint: the call itself and, for
 * sys_enter / sys_exit, the syscall tracing work it turns on in every task.
 *
 *   insmod khist_bench_null.ko tp=sys_enter|sched_switch|kmalloc
 *
 * With kp=FUNCTION it puts a kprobe with an empty handler on FUNCTION
 * instead (the floor of the kprobe rows: what a kprobe event costs before
 * its handler does anything).
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

static char *tp = "sys_enter";
module_param(tp, charp, 0444);
MODULE_PARM_DESC(tp, "tracepoint: sys_enter (default), sched_switch, kmalloc");

static char *kp;
module_param(kp, charp, 0444);
MODULE_PARM_DESC(kp, "a function: an empty kprobe there, not a tracepoint");

static struct kprobe khbn_kprobe;

static int khbn_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void khbn_sys_enter(void *data, struct pt_regs *regs, long id)
{
}

static void khbn_sched_switch(void *data, bool preempt,
			      struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
}

static void khbn_kmalloc(void *data, unsigned long call_site, const void *ptr,
			 size_t bytes_req, size_t bytes_alloc, gfp_t gfp_flags,
			 int node)
{
}

/*
 * The register_trace_<tp>() helpers are never called (the tracepoints are
 * not exported to modules); sizeof() only makes the compiler check each
 * probe against its tracepoint's prototype.
 */
static_assert(sizeof(register_trace_sys_enter(khbn_sys_enter, NULL)));
static_assert(sizeof(register_trace_sched_switch(khbn_sched_switch, NULL)));
static_assert(sizeof(register_trace_kmalloc(khbn_kmalloc, NULL)));

static const struct {
	const char *name;
	void *probe;
} khbn_probes[] = {
	{ "sys_enter", khbn_sys_enter },
	{ "sched_switch", khbn_sched_switch },
	{ "kmalloc", khbn_kmalloc },
};

static struct tracepoint *khbn_tp;
static void *khbn_probe;

static void khbn_match(struct tracepoint *t, void *priv)
{
	if (!khbn_tp && !strcmp(t->name, priv))
		khbn_tp = t;
}

static int __init khbn_init(void)
{
	unsigned int i;
	int ret;

	if (kp && *kp) {
		khbn_kprobe.symbol_name = kp;
		khbn_kprobe.pre_handler = khbn_kp_pre;
		ret = register_kprobe(&khbn_kprobe);
		if (ret)
			pr_err("khist_bench_null: cannot probe %s: %d\n", kp,
			       ret);
		return ret;
	}
	for (i = 0; i < ARRAY_SIZE(khbn_probes); i++)
		if (!strcmp(tp, khbn_probes[i].name))
			khbn_probe = khbn_probes[i].probe;
	if (!khbn_probe) {
		pr_err("khist_bench_null: unknown tracepoint '%s'\n", tp);
		return -EINVAL;
	}
	for_each_kernel_tracepoint(khbn_match, tp);
	if (!khbn_tp) {
		pr_err("khist_bench_null: no tracepoint '%s'\n", tp);
		return -ENOENT;
	}
	/* The data pointer is unused; pass one anyway, as khist does. */
	ret = tracepoint_probe_register(khbn_tp, khbn_probe, &khbn_tp);
	if (ret)
		pr_err("khist_bench_null: cannot attach to %s: %d\n", tp, ret);
	return ret;
}

static void __exit khbn_exit(void)
{
	if (kp && *kp) {
		unregister_kprobe(&khbn_kprobe);
		return;
	}
	tracepoint_probe_unregister(khbn_tp, khbn_probe, &khbn_tp);
	tracepoint_synchronize_unregister();
}

module_init(khbn_init);
module_exit(khbn_exit);
MODULE_DESCRIPTION("khist benchmark: an empty tracepoint probe or kprobe");
MODULE_LICENSE("GPL");
