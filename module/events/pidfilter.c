// SPDX-License-Identifier: GPL-2.0
/*
 * pidfilter.c - set_event_pid and set_event_notrace_pid: the tasks whose
 * events an instance records.
 *
 * Each list is a sorted array of pids, replaced as a whole under RCU on
 * every change and charged to mem_limit_kb. The record path does not
 * search it: while a list is set, probes on the sched tracepoints keep a
 * per-CPU flag saying whether the task running there is filtered out,
 * and khist_pidf_ignored() reads it. A switch from or to a traced task
 * is recorded, and so is a wakeup of a traced task by another: the flag
 * is set for the switch from the two tasks (before khist's own probe of
 * sched_switch runs) and for a wakeup from the wakee, then set back.
 * With options/event-fork, the children of a listed task join its list
 * when they are forked, and listed tasks leave it when they are freed; a
 * list that loses its last task stays set, empty: set_event_pid then
 * filters every task out, as in ftrace.
 */
#include <linux/ctype.h>
#include <linux/kstrtox.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "mem/mem.h"
#include "mem/fault.h"
#include "events/pidfilter.h"

/* The biggest pid a list takes; a bigger one fails with -EPERM. */
#define KHIST_PID_LIMIT BIT(30)
/* The longest pid token taken, as ftrace's parser. */
#define KHIST_PID_TOKEN_MAX 127

/* A list: @nr pids, sorted, each once. */
struct khist_pids {
	struct rcu_head rcu;
	unsigned int nr;
	pid_t pid[];
};

DEFINE_STATIC_KEY_FALSE(khist_pidf_key);

static size_t khist_pids_size(unsigned int nr)
{
	return struct_size_t(struct khist_pids, pid, nr);
}

static struct khist_pids *khist_pids_alloc(unsigned int nr, gfp_t gfp)
{
	struct khist_pids *l;

	if (khist_mem_charge(khist_pids_size(nr)))
		return NULL;
	l = khist_kmalloc(khist_pids_size(nr), gfp);
	if (!l) {
		khist_mem_uncharge(khist_pids_size(nr));
		return NULL;
	}
	l->nr = nr;
	return l;
}

static void khist_pids_free(struct khist_pids *l)
{
	if (!l)
		return;
	khist_mem_uncharge(khist_pids_size(l->nr));
	kfree(l);
}

static void khist_pids_free_rcu(struct rcu_head *rcu)
{
	khist_pids_free(container_of(rcu, struct khist_pids, rcu));
}

/* Where @pid is in @l, or where it would go (binary search). */
static unsigned int khist_pids_pos(const struct khist_pids *l, pid_t pid)
{
	unsigned int lo = 0, hi = l->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (l->pid[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool khist_pids_has(const struct khist_pids *l, pid_t pid)
{
	unsigned int i = khist_pids_pos(l, pid);

	return i < l->nr && l->pid[i] == pid;
}

/* Is @t filtered out: not in a set set_event_pid, or in the notrace list? */
static bool khist_pidf_skip(struct khist_pidf *pf, struct task_struct *t)
{
	struct khist_pids *in =
		rcu_dereference_sched(pf->list[KHIST_PIDS_TRACE]);
	struct khist_pids *out =
		rcu_dereference_sched(pf->list[KHIST_PIDS_NOTRACE]);

	return (in && !khist_pids_has(in, t->pid)) ||
	       (out && khist_pids_has(out, t->pid));
}

static void khist_pidf_switch_pre(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct khist_pidf *pf = data;
	struct khist_pids *in =
		rcu_dereference_sched(pf->list[KHIST_PIDS_TRACE]);
	struct khist_pids *out =
		rcu_dereference_sched(pf->list[KHIST_PIDS_NOTRACE]);
	bool skip;

	/*
	 * The switch is dropped when both tasks are in the notrace list,
	 * or when neither is in set_event_pid.
	 */
	skip = out && khist_pids_has(out, prev->pid) &&
	       khist_pids_has(out, next->pid);
	skip = skip || (in && !khist_pids_has(in, prev->pid) &&
			!khist_pids_has(in, next->pid));
	this_cpu_write(*pf->ignore, skip);
}

static void khist_pidf_switch_post(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	struct khist_pidf *pf = data;

	this_cpu_write(*pf->ignore, khist_pidf_skip(pf, next));
}

static void khist_pidf_wakeup_pre(void *data, struct task_struct *task)
{
	struct khist_pidf *pf = data;

	/* A traced waker's wakeups are recorded anyway. */
	if (!this_cpu_read(*pf->ignore))
		return;
	this_cpu_write(*pf->ignore, khist_pidf_skip(pf, task));
}

static void khist_pidf_wakeup_post(void *data, struct task_struct *task)
{
	struct khist_pidf *pf = data;

	this_cpu_write(*pf->ignore, khist_pidf_skip(pf, current));
}

/*
 * Replace list @kind by a copy with @pid added or removed, unless the
 * copy cannot be made (the task is then left as it was, as ftrace does
 * when its pid list cannot grow). Called by the fork and free probes.
 */
static void khist_pidf_update(struct khist_pidf *pf, enum khist_pids_kind kind,
			      pid_t pid, bool add)
{
	struct khist_pids *old, *l;
	unsigned long flags;
	unsigned int i, nr;

	old = rcu_dereference_sched(pf->list[kind]);
	if (!old || khist_pids_has(old, pid) == add)
		return;
	nr = old->nr;
	l = khist_pids_alloc(add ? nr + 1 : nr - 1, GFP_ATOMIC);
	if (!l)
		return;
	raw_spin_lock_irqsave(&pf->lock, flags);
	if (rcu_access_pointer(pf->list[kind]) != old) {
		/* Changed meanwhile: leave it, like a failed allocation. */
		raw_spin_unlock_irqrestore(&pf->lock, flags);
		khist_pids_free(l);
		return;
	}
	i = khist_pids_pos(old, pid);
	memcpy(l->pid, old->pid, i * sizeof(pid_t));
	if (add) {
		l->pid[i] = pid;
		memcpy(l->pid + i + 1, old->pid + i, (nr - i) * sizeof(pid_t));
	} else {
		memcpy(l->pid + i, old->pid + i + 1,
		       (nr - i - 1) * sizeof(pid_t));
	}
	rcu_assign_pointer(pf->list[kind], l);
	raw_spin_unlock_irqrestore(&pf->lock, flags);
	call_rcu(&old->rcu, khist_pids_free_rcu);
}

static void khist_pidf_fork(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	struct khist_pidf *pf = data;
	struct khist_pids *l;
	int k;

	if (!khist_option_get(pf->inst, KHIST_OPT_EVENT_FORK))
		return;
	for (k = 0; k < KHIST_PIDS_NR; k++) {
		l = rcu_dereference_sched(pf->list[k]);
		if (l && khist_pids_has(l, parent->pid))
			khist_pidf_update(pf, k, child->pid, true);
	}
}

static void khist_pidf_free_task(void *data, struct task_struct *task)
{
	struct khist_pidf *pf = data;
	int k;

	if (!khist_option_get(pf->inst, KHIST_OPT_EVENT_FORK))
		return;
	for (k = 0; k < KHIST_PIDS_NR; k++)
		khist_pidf_update(pf, k, task->pid, false);
}

/*
 * The probes: the filter's before and after khist's own event probes
 * (their priority is the default one).
 */
static const struct {
	const char *tp;
	void *probe;
	int prio;
	bool fork;
} khist_pidf_probes[] = {
	{ "sched_switch", khist_pidf_switch_pre, INT_MAX, false },
	{ "sched_switch", khist_pidf_switch_post, 0, false },
	{ "sched_waking", khist_pidf_wakeup_pre, INT_MAX, false },
	{ "sched_waking", khist_pidf_wakeup_post, 0, false },
	{ "sched_wakeup", khist_pidf_wakeup_pre, INT_MAX, false },
	{ "sched_wakeup", khist_pidf_wakeup_post, 0, false },
	{ "sched_wakeup_new", khist_pidf_wakeup_pre, INT_MAX, false },
	{ "sched_wakeup_new", khist_pidf_wakeup_post, 0, false },
	{ "sched_process_fork", khist_pidf_fork, INT_MIN, true },
	{ "sched_process_free", khist_pidf_free_task, INT_MAX, true },
};

/* The tracepoints of khist_pidf_probes, looked up once. */
static struct tracepoint *khist_pidf_tps[ARRAY_SIZE(khist_pidf_probes)];
static DEFINE_MUTEX(khist_pidf_tps_mutex);

static void khist_pidf_tp_match(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_pidf_probes); i++)
		if (!khist_pidf_tps[i] &&
		    !strcmp(tp->name, khist_pidf_probes[i].tp))
			khist_pidf_tps[i] = tp;
}

/*
 * The fork and free probes allocate with preemption disabled: not on
 * PREEMPT_RT, where options/event-fork has no effect.
 */
static bool khist_pidf_probe_used(unsigned int i)
{
	return !khist_pidf_probes[i].fork || !IS_ENABLED(CONFIG_PREEMPT_RT);
}

static void khist_pidf_unregister(struct khist_pidf *pf, unsigned int n)
{
	while (n--)
		if (khist_pidf_probe_used(n))
			tracepoint_probe_unregister(khist_pidf_tps[n],
						    khist_pidf_probes[n].probe,
						    pf);
}

static int khist_pidf_register(struct khist_pidf *pf)
{
	unsigned int i;
	int ret;

	mutex_lock(&khist_pidf_tps_mutex);
	if (!khist_pidf_tps[0])
		for_each_kernel_tracepoint(khist_pidf_tp_match, NULL);
	mutex_unlock(&khist_pidf_tps_mutex);
	for (i = 0; i < ARRAY_SIZE(khist_pidf_probes); i++) {
		struct tracepoint *tp = khist_pidf_tps[i];
		void *probe = khist_pidf_probes[i].probe;
		int prio = khist_pidf_probes[i].prio;

		if (!khist_pidf_probe_used(i))
			continue;
		ret = -ENOENT;
		if (tp)
			ret = tracepoint_probe_register_prio(tp, probe, pf,
							     prio);
		if (ret) {
			khist_pidf_unregister(pf, i);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	return 0;
}

static void khist_pidf_cpu_sync(void *data)
{
	struct khist_pidf *pf = data;

	this_cpu_write(*pf->ignore, khist_pidf_skip(pf, current));
}

/* Start or stop filtering after a change of the lists; pf->mutex held. */
static int khist_pidf_update_probes(struct khist_pidf *pf)
{
	bool want = rcu_access_pointer(pf->list[KHIST_PIDS_TRACE]) ||
		    rcu_access_pointer(pf->list[KHIST_PIDS_NOTRACE]);
	int ret;

	if (want && !pf->active) {
		ret = khist_pidf_register(pf);
		if (ret)
			return ret;
		on_each_cpu(khist_pidf_cpu_sync, pf, 1);
		WRITE_ONCE(pf->active, true);
		static_branch_inc(&khist_pidf_key);
	} else if (!want && pf->active) {
		static_branch_dec(&khist_pidf_key);
		WRITE_ONCE(pf->active, false);
		khist_pidf_unregister(pf, ARRAY_SIZE(khist_pidf_probes));
		tracepoint_synchronize_unregister();
	} else if (pf->active) {
		/* The tasks running now, until their next switch. */
		on_each_cpu(khist_pidf_cpu_sync, pf, 1);
	}
	return 0;
}

/* Put @l in place of list @kind and free the old one; pf->mutex held. */
static void khist_pidf_swap(struct khist_pidf *pf, enum khist_pids_kind kind,
			    struct khist_pids *l)
{
	struct khist_pids *old;
	unsigned long flags;

	raw_spin_lock_irqsave(&pf->lock, flags);
	old = rcu_dereference_protected(pf->list[kind],
					lockdep_is_held(&pf->lock));
	rcu_assign_pointer(pf->list[kind], l);
	raw_spin_unlock_irqrestore(&pf->lock, flags);
	if (old)
		call_rcu(&old->rcu, khist_pids_free_rcu);
}

/**
 * khist_pidf_clear() - empty one list (a write that truncates the file)
 * @inst: the instance
 * @kind: which list
 *
 * Context: process context.
 * Return: 0.
 */
int khist_pidf_clear(struct khist_instance *inst, enum khist_pids_kind kind)
{
	struct khist_pidf *pf = inst->pidf;

	mutex_lock(&pf->mutex);
	khist_pidf_swap(pf, kind, NULL);
	/* Stopping cannot fail. */
	khist_pidf_update_probes(pf);
	mutex_unlock(&pf->mutex);
	return 0;
}

/* Sort and drop the duplicates of @pid[0..@nr); the new count. */
static int khist_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned int khist_pids_uniq(pid_t *pid, unsigned int nr)
{
	unsigned int i, n = 0;

	sort(pid, nr, sizeof(*pid), khist_pid_cmp, NULL);
	for (i = 0; i < nr; i++)
		if (!n || pid[n - 1] != pid[i])
			pid[n++] = pid[i];
	return n;
}

/* Count the tokens of @text: the most pids it can add. */
static unsigned int khist_pid_tokens(const char *s)
{
	unsigned int n = 0;

	while (*s) {
		while (isspace(*s))
			s++;
		if (!*s)
			break;
		n++;
		while (*s && !isspace(*s))
			s++;
	}
	return n;
}

/**
 * khist_pidf_write() - add the pids of a write to one list
 * @inst: the instance
 * @kind: which list
 * @text: the write, NUL-terminated; modified
 *
 * All or nothing, as in ftrace: a token that is not a number fails with
 * -EINVAL, a pid of 2^30 or more with -EPERM, and the list is then left
 * as it was. A write of no pid to an empty list leaves it empty.
 *
 * Context: process context.
 * Return: 0 or -errno (-ENODEV once the instance is removed, -ENOMEM or
 * -ENOSPC when the new list cannot be allocated).
 */
int khist_pidf_write(struct khist_instance *inst, enum khist_pids_kind kind,
		     char *text)
{
	struct khist_pidf *pf = inst->pidf;
	unsigned int nr_old, nr_new, n = 0;
	struct khist_pids *old, *l;
	unsigned long val;
	char *s = text, *tok;
	int ret;

	mutex_lock(&pf->mutex);
	ret = -ENODEV;
	if (pf->dead)
		goto out;
	nr_new = khist_pid_tokens(text);
retry:
	/* Fork and exit may change the list: copy it under the lock. */
	rcu_read_lock_sched();
	old = rcu_dereference_sched(pf->list[kind]);
	nr_old = old ? old->nr : 0;
	rcu_read_unlock_sched();
	ret = -ENOMEM;
	l = khist_pids_alloc(nr_old + nr_new, GFP_KERNEL);
	if (!l)
		goto out;
	raw_spin_lock_irq(&pf->lock);
	old = rcu_dereference_protected(pf->list[kind],
					lockdep_is_held(&pf->lock));
	if ((old ? old->nr : 0) != nr_old) {
		raw_spin_unlock_irq(&pf->lock);
		khist_pids_free(l);
		goto retry;
	}
	if (old)
		memcpy(l->pid, old->pid, nr_old * sizeof(pid_t));
	raw_spin_unlock_irq(&pf->lock);
	n = nr_old;
	while ((tok = strsep(&s, " \t\n\v\f\r"))) {
		if (!*tok)
			continue;
		ret = -EINVAL;
		if (strlen(tok) > KHIST_PID_TOKEN_MAX || kstrtoul(tok, 0, &val))
			goto out_free;
		ret = -EPERM;
		if ((unsigned int)val >= KHIST_PID_LIMIT)
			goto out_free;
		l->pid[n++] = (pid_t)val;
	}
	n = khist_pids_uniq(l->pid, n);
	if (!n) {
		khist_pids_free(l);
		l = NULL;
	} else {
		/* Charged for what it holds: a shrink cannot fail. */
		khist_mem_recharge(khist_pids_size(l->nr), khist_pids_size(n));
		l->nr = n;
	}
	khist_pidf_swap(pf, kind, l);
	ret = khist_pidf_update_probes(pf);
	if (ret) {
		/* Nothing filters without the probes: no list either. */
		khist_pidf_swap(pf, kind, NULL);
	}
	goto out;
out_free:
	khist_pids_free(l);
out:
	mutex_unlock(&pf->mutex);
	return ret;
}

/**
 * khist_pidf_show() - print one list, a pid a line in ascending order
 * @m:    the seq_file of set_event_pid or set_event_notrace_pid
 * @inst: the instance
 * @kind: which list
 *
 * Context: process context.
 */
void khist_pidf_show(struct seq_file *m, struct khist_instance *inst,
		     enum khist_pids_kind kind)
{
	struct khist_pids *l;
	unsigned int i;

	rcu_read_lock_sched();
	l = rcu_dereference_sched(inst->pidf->list[kind]);
	for (i = 0; l && i < l->nr; i++)
		seq_printf(m, "%u\n", (unsigned int)l->pid[i]);
	rcu_read_unlock_sched();
}

/**
 * khist_pidf_create() - give an instance its (empty) task filter
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0, -ENOMEM or -ENOSPC.
 */
int khist_pidf_create(struct khist_instance *inst)
{
	struct khist_pidf *pf;
	int ret;

	ret = khist_mem_charge(sizeof(*pf));
	if (ret)
		return ret;
	pf = khist_kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		goto fail;
	pf->ignore = khist_should_fail(GFP_KERNEL) ? NULL : alloc_percpu(bool);
	if (!pf->ignore) {
		kfree(pf);
		goto fail;
	}
	raw_spin_lock_init(&pf->lock);
	mutex_init(&pf->mutex);
	pf->inst = inst;
	inst->pidf = pf;
	return 0;
fail:
	khist_mem_uncharge(sizeof(*pf));
	return -ENOMEM;
}

/**
 * khist_pidf_destroy() - the instance is going: drop its lists and probes
 * @inst: the instance
 *
 * Its set_event_pid files may stay open; their writes fail with -ENODEV
 * from now on. The structure itself is freed with the instance
 * (khist_pidf_free()).
 *
 * Context: process context.
 */
void khist_pidf_destroy(struct khist_instance *inst)
{
	struct khist_pidf *pf = inst->pidf;
	int k;

	if (!pf)
		return;
	mutex_lock(&pf->mutex);
	pf->dead = true;
	for (k = 0; k < KHIST_PIDS_NR; k++)
		khist_pidf_swap(pf, k, NULL);
	khist_pidf_update_probes(pf);
	mutex_unlock(&pf->mutex);
	/* The lists wait in call_rcu(): free them before the module goes. */
	rcu_barrier();
}

/**
 * khist_pidf_free() - free the task filter of an instance
 * @inst: the instance, after khist_pidf_destroy() (or never filled)
 *
 * Context: process context, last reference of the instance.
 */
void khist_pidf_free(struct khist_instance *inst)
{
	struct khist_pidf *pf = inst->pidf;

	if (!pf)
		return;
	inst->pidf = NULL;
	free_percpu(pf->ignore);
	mutex_destroy(&pf->mutex);
	kfree(pf);
	khist_mem_uncharge(sizeof(*pf));
}
