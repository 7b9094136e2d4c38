// SPDX-License-Identifier: GPL-2.0
/*
 * cmdline.c - the pid -> comm cache behind the TASK column of `trace`
 * (ftrace's saved_cmdlines): the commit path saves the writer's name,
 * readers look it up.
 */
#include <linux/hardirq.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "mem/fault.h"
#include "mem/mem.h"

/*
 * pid -> comm, for the TASK column (ftrace's saved_cmdlines): sets of
 * four names (1024 at load, saved_cmdlines_size / 4 after a write to it),
 * a pid's set chosen by pid modulo their number. A new pid takes its
 * set's names in turn, so up to four pids that share a set keep their
 * names (a busy kernel thread's pid no longer hides a short-lived task's).
 */
#define KHIST_COMM_SETS 1024
#define KHIST_COMM_WAYS 4
/* ftrace's bound on saved_cmdlines_size (PID_MAX_DEFAULT). */
#define KHIST_COMM_MAX 0x8000

/*
 * @tgid is 0 until a record of an instance with options/record-tgid saves
 * it; @comm is "" until one with options/record-cmd (the default) does.
 */
struct khist_comm {
	int pid;
	int tgid;
	char comm[TASK_COMM_LEN];
};

struct khist_comm_set {
	struct khist_comm way[KHIST_COMM_WAYS];
	unsigned int next;
};

/*
 * The table: replaced whole by khist_comm_resize() under khist_comm_lock,
 * and freed after a grace period, as savers look into it unlocked with
 * preemption disabled. @gen tells each CPU's last save that it is old.
 */
struct khist_comm_table {
	unsigned int nr_sets;
	unsigned int gen;
	struct khist_comm_set *sets;
};

static struct khist_comm_set khist_comm_boot_sets[KHIST_COMM_SETS];
static struct khist_comm_table khist_comm_boot = {
	.nr_sets = KHIST_COMM_SETS,
	.sets = khist_comm_boot_sets,
};

static struct khist_comm_table __rcu *khist_comm_tab =
	RCU_INITIALIZER(&khist_comm_boot);
static arch_spinlock_t khist_comm_lock = __ARCH_SPIN_LOCK_UNLOCKED;
/* Serialises khist_comm_resize() calls. */
static DEFINE_MUTEX(khist_comm_resize_mutex);

static struct khist_comm_set *khist_comm_set_of(struct khist_comm_table *t,
						int pid)
{
	return &t->sets[(unsigned int)pid % t->nr_sets];
}

/* The table, for one who holds khist_comm_lock. */
static struct khist_comm_table *khist_comm_locked(void)
{
	return rcu_dereference_protected(khist_comm_tab, 1);
}

/* The way that holds @pid in @set, or NULL. */
static struct khist_comm *khist_comm_find(struct khist_comm_set *set, int pid)
{
	int w;

	for (w = 0; w < KHIST_COMM_WAYS; w++)
		if (READ_ONCE(set->way[w].pid) == pid)
			return &set->way[w];
	return NULL;
}

/*
 * The pid and name this CPU saved last: a task recording again and again
 * costs a compare of its pid and of the two words of its name. Comparing
 * the name, not the task_struct, also catches a task renamed since (exec,
 * prctl(PR_SET_NAME), a write to /proc/PID/comm), which ftrace shows under
 * its new name once it is switched out.
 */
struct khist_comm_last {
	int pid;
	unsigned int what;
	unsigned int gen;
	u64 comm[TASK_COMM_LEN / sizeof(u64)];
};

/* Whether @comm (TASK_COMM_LEN bytes) is the name in @last. */
static __always_inline bool khist_comm_same(const struct khist_comm_last *last,
					    const char *comm)
{
	u64 w0, w1;

	/* Two scalars, not an array: no stack canary on the fast path. */
	BUILD_BUG_ON(TASK_COMM_LEN != 2 * sizeof(u64));
	memcpy(&w0, comm, sizeof(w0));
	memcpy(&w1, comm + sizeof(w0), sizeof(w1));
	return w0 == last->comm[0] && w1 == last->comm[1];
}

static DEFINE_PER_CPU(struct khist_comm_last, khist_comm_last);

/* Whether @c holds what @what asks of @tsk. */
static bool khist_comm_holds(struct khist_comm *c, struct task_struct *tsk,
			     unsigned int what)
{
	/* Unlocked: a tgid written meanwhile at worst costs a locked save. */
	if ((what & KHIST_SAVE_TGID) && data_race(c->tgid) != tsk->tgid)
		return false;
	if (!(what & KHIST_SAVE_COMM))
		return true;
	/* Unlocked: so is a name. */
	return data_race(!strncmp(c->comm, tsk->comm, TASK_COMM_LEN));
}

/* The slow part of khist_comm_save(): the table. */
static noinline void khist_comm_save_slow(struct task_struct *tsk,
					  struct khist_comm_last *last,
					  unsigned int what)
{
	struct khist_comm_table *t;
	struct khist_comm_set *set;
	struct khist_comm *c;
	unsigned long flags = 0;

	/* Preemption is disabled: the table stays while it is looked at. */
	t = rcu_dereference_sched(khist_comm_tab);
	set = khist_comm_set_of(t, tsk->pid);
	c = khist_comm_find(set, tsk->pid);
	/* Unlocked: a name written meanwhile at worst costs a locked save. */
	if (c && khist_comm_holds(c, tsk, what))
		goto saved;
	/*
	 * An NMI never waits: it may have interrupted the holder on this CPU.
	 * Anyone else waits for the few instructions the holder needs (with
	 * interrupts off, so that only an NMI can come in between): a task
	 * that records once would otherwise show as <...>.
	 */
	if (in_nmi()) {
		if (!arch_spin_trylock(&khist_comm_lock))
			return;
	} else {
		local_irq_save(flags);
		arch_spin_lock(&khist_comm_lock);
	}
	/* A resize may have replaced it meanwhile. */
	t = khist_comm_locked();
	set = khist_comm_set_of(t, tsk->pid);
	c = khist_comm_find(set, tsk->pid);
	if (!c) {
		c = &set->way[set->next % KHIST_COMM_WAYS];
		set->next++;
		/* A new pid: what is not asked for is not known. */
		c->tgid = 0;
		c->comm[0] = '\0';
	}
	WRITE_ONCE(c->pid, tsk->pid);
	if (what & KHIST_SAVE_TGID)
		c->tgid = tsk->tgid;
	if (what & KHIST_SAVE_COMM)
		strscpy(c->comm, tsk->comm, TASK_COMM_LEN);
	arch_spin_unlock(&khist_comm_lock);
	if (!in_nmi())
		local_irq_restore(flags);
saved:
	last->pid = tsk->pid;
	last->what = what;
	last->gen = READ_ONCE(t->gen);
	/* Unlocked: a torn name only makes the next record save again. */
	data_race(memcpy(last->comm, tsk->comm, sizeof(last->comm)));
}

/**
 * khist_comm_save() - remember a task's name for the TASK column and its
 * thread group for saved_tgids
 * @tsk:  the task that wrote a record
 * @what: KHIST_SAVE_COMM and/or KHIST_SAVE_TGID (the options record-cmd
 *        and record-tgid of the record's instance)
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_comm_save(struct task_struct *tsk, unsigned int what)
{
	struct khist_comm_last *last = this_cpu_ptr(&khist_comm_last);
	bool same;

	if (!tsk->pid || !what)
		return;
	/* Unlocked: a rename under way at worst costs a save. */
	same = data_race(khist_comm_same(last, tsk->comm));
	if (last->pid != tsk->pid || !same || (what & ~last->what) ||
	    last->gen != READ_ONCE(rcu_dereference_sched(khist_comm_tab)->gen))
		khist_comm_save_slow(tsk, last, what);
}

/**
 * khist_comm_lookup() - the name of a pid, as the TASK column shows it
 * @pid:  the pid
 * @comm: TASK_COMM_LEN bytes: the name, "<idle>" or "<...>"
 *
 * Context: process context.
 */
void khist_comm_lookup(int pid, char *comm)
{
	struct khist_comm *c;
	unsigned long flags;

	if (!pid) {
		strscpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	local_irq_save(flags);
	arch_spin_lock(&khist_comm_lock);
	c = khist_comm_find(khist_comm_set_of(khist_comm_locked(), pid), pid);
	if (c && c->comm[0])
		memcpy(comm, c->comm, TASK_COMM_LEN);
	else
		strscpy(comm, "<...>", TASK_COMM_LEN);
	arch_spin_unlock(&khist_comm_lock);
	local_irq_restore(flags);
	comm[TASK_COMM_LEN - 1] = '\0';
}

/**
 * khist_comm_show() - list the pid -> comm cache, as saved_cmdlines or
 * saved_tgids
 * @m:    where the lines go
 * @tgid: "<pid> <tgid>" lines (saved_tgids), else "<pid> <comm>"
 *
 * One set is copied at a time under the lock, and printed after it.
 *
 * Context: process context.
 */
void khist_comm_show(struct seq_file *m, bool tgid)
{
	struct khist_comm copy[KHIST_COMM_WAYS];
	struct khist_comm_table *t;
	unsigned int set, more;
	unsigned long flags;
	int w, saved;

	for (set = 0, more = 1; more; set++) {
		local_irq_save(flags);
		arch_spin_lock(&khist_comm_lock);
		/* A resize meanwhile ends the list at the new table's size. */
		t = khist_comm_locked();
		more = set + 1 < t->nr_sets;
		if (set < t->nr_sets)
			memcpy(copy, t->sets[set].way, sizeof(copy));
		else
			memset(copy, 0, sizeof(copy));
		arch_spin_unlock(&khist_comm_lock);
		local_irq_restore(flags);
		for (w = 0; w < KHIST_COMM_WAYS; w++) {
			/* Only what a record saved: see struct khist_comm. */
			saved = tgid ? copy[w].tgid : copy[w].comm[0];
			if (!copy[w].pid || !saved)
				continue;
			copy[w].comm[TASK_COMM_LEN - 1] = '\0';
			if (tgid)
				seq_printf(m, "%d %d\n", copy[w].pid,
					   copy[w].tgid);
			else
				seq_printf(m, "%d %s\n", copy[w].pid,
					   copy[w].comm);
		}
		cond_resched();
	}
}

/**
 * khist_comm_capacity() - how many tasks the pid -> comm cache holds
 *
 * Context: any.
 * Return: the number of names (saved_cmdlines_size).
 */
unsigned int khist_comm_capacity(void)
{
	unsigned int n;

	rcu_read_lock_sched();
	n = rcu_dereference_sched(khist_comm_tab)->nr_sets * KHIST_COMM_WAYS;
	rcu_read_unlock_sched();
	return n;
}

static size_t khist_comm_table_size(unsigned int nr_sets)
{
	return sizeof(struct khist_comm_table) +
	       nr_sets * sizeof(struct khist_comm_set);
}

/* Free a table that khist_comm_resize() allocated. */
static void khist_comm_table_free(struct khist_comm_table *t)
{
	if (t == &khist_comm_boot)
		return;
	khist_mem_uncharge(khist_comm_table_size(t->nr_sets));
	kvfree(t);
}

/**
 * khist_comm_resize() - replace the pid -> comm cache by an empty one
 * holding @n names, as a write to ftrace's saved_cmdlines_size does
 * @n: the names wanted, 1 to 32768 (rounded up to a set of four)
 *
 * The names saved so far are dropped, as ftrace drops them. Savers keep
 * running meanwhile: they see the old table or the new one.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for @n out of range, or -ENOMEM (charged against
 * mem_limit_kb) with the old table kept.
 */
int khist_comm_resize(unsigned int n)
{
	unsigned int nr_sets = DIV_ROUND_UP(n, KHIST_COMM_WAYS);
	struct khist_comm_table *t, *old;
	size_t size;
	int ret;

	if (!n || n > KHIST_COMM_MAX)
		return -EINVAL;
	size = khist_comm_table_size(nr_sets);
	ret = khist_mem_charge(size);
	if (ret)
		return ret;
	t = khist_should_fail(GFP_KERNEL_ACCOUNT) ?
		    NULL :
		    kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!t) {
		khist_mem_uncharge(size);
		return -ENOMEM;
	}
	t->nr_sets = nr_sets;
	t->sets = (struct khist_comm_set *)(t + 1);
	mutex_lock(&khist_comm_resize_mutex);
	local_irq_disable();
	arch_spin_lock(&khist_comm_lock);
	old = khist_comm_locked();
	/* Every CPU's last save was into the old table: save again. */
	t->gen = old->gen + 1;
	rcu_assign_pointer(khist_comm_tab, t);
	arch_spin_unlock(&khist_comm_lock);
	local_irq_enable();
	/* Savers look into the table with preemption disabled. */
	synchronize_rcu();
	khist_comm_table_free(old);
	mutex_unlock(&khist_comm_resize_mutex);
	return 0;
}

/**
 * khist_comm_exit() - free the table a resize allocated
 *
 * Context: process context, module exit (no saver runs any more).
 */
void khist_comm_exit(void)
{
	struct khist_comm_table *t;

	t = rcu_dereference_protected(khist_comm_tab, 1);
	RCU_INIT_POINTER(khist_comm_tab, &khist_comm_boot);
	khist_comm_table_free(t);
}
