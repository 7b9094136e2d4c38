// SPDX-License-Identifier: GPL-2.0
/*
 * cmdline.c - the pid -> comm cache behind the TASK column of `trace`
 * (ftrace's saved_cmdlines): the commit path saves the writer's name,
 * readers look it up.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "base/instance.h"
#include "buffer/buffer.h"

/*
 * pid -> comm, for the TASK column (ftrace's saved_cmdlines): 1024 sets of
 * four names, a pid's set chosen by pid modulo 1024. A new pid takes its
 * set's names in turn, so up to four pids that share a set keep their
 * names (a busy kernel thread's pid no longer hides a short-lived task's).
 */
#define KHIST_COMM_SETS 1024
#define KHIST_COMM_WAYS 4
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

static struct khist_comm_set khist_comms[KHIST_COMM_SETS];
static arch_spinlock_t khist_comm_lock = __ARCH_SPIN_LOCK_UNLOCKED;

static struct khist_comm_set *khist_comm_set_of(int pid)
{
	return &khist_comms[(unsigned int)pid % KHIST_COMM_SETS];
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
	struct khist_comm_set *set;
	struct khist_comm *c;
	unsigned long flags = 0;

	set = khist_comm_set_of(tsk->pid);
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
	if (last->pid != tsk->pid || !same || (what & ~last->what))
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
	c = khist_comm_find(khist_comm_set_of(pid), pid);
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
	unsigned long flags;
	int set, w, saved;

	for (set = 0; set < KHIST_COMM_SETS; set++) {
		local_irq_save(flags);
		arch_spin_lock(&khist_comm_lock);
		memcpy(copy, khist_comms[set].way, sizeof(copy));
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
	return KHIST_COMM_SETS * KHIST_COMM_WAYS;
}
