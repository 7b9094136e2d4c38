// SPDX-License-Identifier: GPL-2.0
/*
 * user_events.c - events registered and written by programs, with the
 * kernel's user_events interface (events/user_events.h): registration,
 * deletion and lifetime, the enable bits in the registering processes'
 * memory, and the write path.
 *
 * Lifetime: an event counts its users - entries in open files' tables and
 * registered bits - and is removed when the last one goes, unless it is
 * persistent (USER_EVENT_REG_PERSIST, u: lines) or still attached (enabled
 * or triggered: then when it is detached). Its memory is reference
 * counted apart (the open files' tables hold it).
 *
 * Enable bits: each registration is a (process memory, address, bit) kept
 * on that memory's list (struct khist_ue_mm, holding the mm_struct with
 * mmgrab()). When an event gains its first consumer or loses its last, the
 * registry calls khist_ue_reg() and the bit is set or cleared in every
 * registered memory, from process context: the page is pinned with
 * pin_user_pages_remote() (faulted in and unshared for writing, as after a
 * fork) and the word changed with an atomic or/and-not, so that the
 * program's own updates of other bits are not lost. A fork copies the
 * parent's registrations to the child (as the kernel does since 6.4): a
 * probe on sched_process_fork takes a slot for the (parent, child) pair
 * without allocating and queues a task work on each side; the first to
 * run copies them, so the copy is there before the child's first
 * instruction and before fork() returns to the parent. Memory whose last
 * user is gone (exit, exec) is dropped by a work item, queued from probes
 * on sched_process_exit and sched_process_exec, or found when it is next
 * written to.
 *
 * Writes: the 4-byte index, then the payload, copied with page faults
 * disabled into a per-CPU buffer behind the common header, checked
 * (size, every locator inside the record, strings ending in a NUL) and
 * only then handed to the record path, so nothing a program sends is read
 * outside what it sent.
 */
#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <khist/event.h>
#include "buffer/buffer.h"
#include "core/lex.h"
#include "core/ue_parse.h"
#include "events/events.h"
#include "events/user_events.h"
#include "mem/fault.h"
#include "mem/mem.h"

/* Most payload bytes one write may carry: the record must fit a page. */
#define KHIST_UE_PAYLOAD_MAX (KHIST_REC_MAX - sizeof(struct khist_common_hdr))
/* Forks whose registrations are being copied, at most. */
#define KHIST_UE_FORKS 256

/**
 * struct khist_ue_event - one user-space event
 * @kdef:    its khist definition (system user_events, or user_events_multi)
 * @dyn:     its entry in the dynamic events list
 * @def:     the parsed command (@def->name: the name it was registered as)
 * @tp_name: the name of a multi-format event in khist, "name.<id>"
 * @descs:   the field table of @kdef
 * @kref:    references to the memory
 * @users:   registered bits and open files' entries (mutex)
 * @persist: stays without users until deleted
 * @dead:    taken out of khist
 * @multi:   registered with USER_EVENT_REG_MULTI_FORMAT
 * @charged: bytes charged to mem_limit_kb for it
 */
struct khist_ue_event {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_ue_def *def;
	char *tp_name;
	struct khist_field_desc *descs;
	struct kref kref;
	int users;
	bool persist;
	bool dead;
	bool multi;
	size_t charged;
};

/**
 * struct khist_ue_mm - the registrations of one process memory
 * @mm:       the memory (mmgrab())
 * @node:     entry in khist_ue_mms
 * @enablers: its struct khist_ue_enabler
 */
struct khist_ue_mm {
	struct mm_struct *mm;
	struct list_head node;
	struct list_head enablers;
};

/**
 * struct khist_ue_enabler - one registered bit
 * @node: entry in its memory's list
 * @ue:   the event (counted in its @users)
 * @addr: the word's address
 * @bit:  the bit
 * @size: the word's size, 4 or 8
 */
struct khist_ue_enabler {
	struct list_head node;
	struct khist_ue_event *ue;
	unsigned long addr;
	u8 bit;
	u8 size;
};

/**
 * struct khist_ue_refs - the events of an open user_events_data
 * @count: entries in @ev; a write index is an entry's position
 * @rcu:   frees a replaced table
 * @ev:    the events (each counted in its @users and @kref)
 */
struct khist_ue_refs {
	unsigned int count;
	struct rcu_head rcu;
	struct khist_ue_event *ev[];
};

/**
 * struct khist_ue_file - an open user_events_data
 * @refs: its table, read by writes under RCU, replaced under the mutex
 */
struct khist_ue_file {
	struct khist_ue_refs __rcu *refs;
};

/**
 * struct khist_ue_fork - a fork whose registrations are to be copied
 * @parent:   the parent's memory (mmgrab())
 * @child:    the child's (mmgrab())
 * @to_child: task work of the child, run before its first instruction
 * @to_parent: task work of the parent, run before fork() returns to it
 * @refs:     task works still to run (khist_ue_lock); 0: the slot is free
 * @done:     the copy is made (mutex)
 */
struct khist_ue_fork {
	struct mm_struct *parent;
	struct mm_struct *child;
	struct callback_head to_child;
	struct callback_head to_parent;
	unsigned int refs;
	bool done;
};

/*
 * Memories with registrations. Changed under khist_event_mutex and
 * khist_ue_lock; the fork probe reads it under khist_ue_lock only.
 */
static LIST_HEAD(khist_ue_mms);
static DEFINE_RAW_SPINLOCK(khist_ue_lock);
static struct khist_ue_fork khist_ue_forks[KHIST_UE_FORKS];
/* Slots in use (khist_ue_lock); module exit waits for 0. */
static unsigned int khist_ue_nr_forks;
static unsigned long khist_ue_forks_lost;
static void khist_ue_work_fn(struct work_struct *work);
static void khist_ue_reap(void);
static DECLARE_WORK(khist_ue_work, khist_ue_work_fn);
static bool khist_ue_probes_on;
/* Module exit has begun: the probes are never registered again. */
static bool khist_ue_exiting;
static char __percpu *khist_ue_scratch;
/* The id of the next multi-format event's name (mutex). */
static u64 khist_ue_multi_id;

static struct khist_ue_event *khist_ue_of(struct khist_dynevent *dyn)
{
	return container_of(dyn, struct khist_ue_event, dyn);
}

/*
 * The event registered as @def's name, of the same kind: one format per
 * name, the event of that name (-EADDRINUSE when its fields differ); with
 * USER_EVENT_REG_MULTI_FORMAT (@multi), the one with @def's fields. NULL
 * when there is none. Mutex held.
 */
static struct khist_ue_event *khist_ue_find(const struct khist_ue_def *def,
					    bool multi)
{
	struct khist_ue_event *ue;
	struct khist_dynevent *d;

	list_for_each_entry(d, &khist_dynevent_list, list) {
		if (d->ops != &khist_ue_dyn_ops)
			continue;
		ue = khist_ue_of(d);
		if (ue->multi != multi || strcmp(ue->def->name, def->name))
			continue;
		if (khist_ue_same(ue->def, def))
			return ue;
		if (!multi)
			return ERR_PTR(-EADDRINUSE);
	}
	return NULL;
}

static void khist_ue_release(struct kref *kref)
{
	struct khist_ue_event *ue =
		container_of(kref, struct khist_ue_event, kref);

	khist_mem_uncharge(ue->charged);
	khist_ue_def_free(ue->def);
	kfree(ue->tp_name);
	kfree(ue->descs);
	kfree(ue->kdef.print_fmt);
	kfree(ue);
}

/* Enabled, or used by a trigger, in any instance. Mutex held. */
static bool khist_ue_attached(struct khist_ue_event *ue)
{
	struct khist_event *top = ue->kdef.ev;

	return top && top->probe_users;
}

static bool khist_ue_busy(struct khist_ue_event *ue)
{
	return ue->users || khist_ue_attached(ue);
}

/* Take @ue out of khist; references keep its memory. Mutex held. */
static void khist_ue_destroy(struct khist_ue_event *ue)
{
	khist_event_unregister_locked(&ue->kdef);
	khist_dynevent_del(&ue->dyn);
	ue->dead = true;
	kref_put(&ue->kref, khist_ue_release);
}

/*
 * Drop one user. The last one of a passing event has the work item
 * remove it (it may be dropped inside the registry's own calls, where the
 * event cannot be unregistered). Mutex held.
 */
static void khist_ue_put_user(struct khist_ue_event *ue)
{
	if (WARN_ON_ONCE(ue->users <= 0))
		return;
	if (!--ue->users && !ue->persist && !ue->dead)
		queue_work(system_wq, &khist_ue_work);
}

/* ---- enable bits ---- */

/*
 * Set or clear the bit of @en in @mm. Process context, mutex held.
 * Returns 0, -ENOENT when the memory has no user left, or -EFAULT.
 */
static int khist_ue_bit_write(struct mm_struct *mm,
			      const struct khist_ue_enabler *en, bool on)
{
	unsigned long off = en->addr & ~PAGE_MASK;
	struct page *page;
	void *kaddr;
	long got;

	if (!mmget_not_zero(mm))
		return -ENOENT;
	mmap_read_lock(mm);
	got = khist_pin_user_pages_remote(mm, en->addr & PAGE_MASK, 1,
					  FOLL_WRITE, &page, NULL);
	mmap_read_unlock(mm);
	if (got != 1) {
		mmput(mm);
		return -EFAULT;
	}
	kaddr = kmap_local_page(page);
	/* Atomic: the program may change the word's other bits meanwhile. */
	if (en->size == 8 && on)
		atomic64_or(BIT_ULL(en->bit), kaddr + off);
	else if (en->size == 8)
		atomic64_andnot(BIT_ULL(en->bit), kaddr + off);
	else if (on)
		atomic_or(BIT(en->bit), kaddr + off);
	else
		atomic_andnot(BIT(en->bit), kaddr + off);
	kunmap_local(kaddr);
	set_page_dirty_lock(page);
	unpin_user_page(page);
	mmput(mm);
	return 0;
}

/*
 * The bit of @en in @mm (0 or 1), read without unsharing the page, or
 * -errno. Process context.
 */
static int khist_ue_bit_read(struct mm_struct *mm,
			     const struct khist_ue_enabler *en)
{
	unsigned long off = en->addr & ~PAGE_MASK;
	struct page *page;
	void *kaddr;
	u64 word;
	long got;

	if (!mmget_not_zero(mm))
		return -ENOENT;
	mmap_read_lock(mm);
	got = khist_pin_user_pages_remote(mm, en->addr & PAGE_MASK, 1, 0, &page,
					  NULL);
	mmap_read_unlock(mm);
	if (got != 1) {
		mmput(mm);
		return -EFAULT;
	}
	kaddr = kmap_local_page(page);
	if (en->size == 8)
		word = READ_ONCE(*(u64 *)(kaddr + off));
	else
		word = READ_ONCE(*(u32 *)(kaddr + off));
	kunmap_local(kaddr);
	unpin_user_page(page);
	mmput(mm);
	return !!(word & BIT_ULL(en->bit));
}

static void khist_ue_enabler_free(struct khist_ue_enabler *en)
{
	raw_spin_lock(&khist_ue_lock);
	list_del(&en->node);
	raw_spin_unlock(&khist_ue_lock);
	khist_ue_put_user(en->ue);
	kfree(en);
	khist_mem_uncharge(sizeof(*en));
}

static void khist_ue_probes(bool on);

/* Forget a memory and its registrations. Mutex held. */
static void khist_ue_mm_free(struct khist_ue_mm *umm)
{
	struct khist_ue_enabler *en, *tmp;

	list_for_each_entry_safe(en, tmp, &umm->enablers, node)
		khist_ue_enabler_free(en);
	raw_spin_lock(&khist_ue_lock);
	list_del(&umm->node);
	raw_spin_unlock(&khist_ue_lock);
	mmdrop(umm->mm);
	kfree(umm);
	khist_mem_uncharge(sizeof(*umm));
	/* No registration left: forks, exits and execs cost nothing again. */
	if (list_empty(&khist_ue_mms))
		khist_ue_probes(false);
}

/* The registrations of @mm, or NULL. Mutex held. */
static struct khist_ue_mm *khist_ue_mm_find(struct mm_struct *mm)
{
	struct khist_ue_mm *umm;

	list_for_each_entry(umm, &khist_ue_mms, node)
		if (umm->mm == mm)
			return umm;
	return NULL;
}

/*
 * ... created when missing (the reference to @mm is taken): an ERR_PTR()
 * of -ENOSPC (mem_limit_kb) or -ENOMEM when it cannot be. Mutex held.
 */
static struct khist_ue_mm *khist_ue_mm_get(struct mm_struct *mm)
{
	struct khist_ue_mm *umm = khist_ue_mm_find(mm);

	if (umm)
		return umm;
	if (khist_mem_charge(sizeof(*umm)))
		return ERR_PTR(-ENOSPC);
	umm = khist_kzalloc(sizeof(*umm), GFP_KERNEL);
	if (!umm) {
		khist_mem_uncharge(sizeof(*umm));
		return ERR_PTR(-ENOMEM);
	}
	mmgrab(mm);
	umm->mm = mm;
	INIT_LIST_HEAD(&umm->enablers);
	raw_spin_lock(&khist_ue_lock);
	list_add_tail(&umm->node, &khist_ue_mms);
	raw_spin_unlock(&khist_ue_lock);
	/* The fork, exit and exec probes run only while a memory is known. */
	khist_ue_probes(true);
	return umm;
}

/* Add a registration of @ue at (@addr, @bit) to @umm. Mutex held. */
static int khist_ue_enabler_add(struct khist_ue_mm *umm,
				struct khist_ue_event *ue, unsigned long addr,
				u8 bit, u8 size)
{
	struct khist_ue_enabler *en;

	if (khist_mem_charge(sizeof(*en)))
		return -ENOSPC;
	en = khist_kzalloc(sizeof(*en), GFP_KERNEL);
	if (!en) {
		khist_mem_uncharge(sizeof(*en));
		return -ENOMEM;
	}
	en->ue = ue;
	en->addr = addr;
	en->bit = bit;
	en->size = size;
	ue->users++;
	raw_spin_lock(&khist_ue_lock);
	list_add_tail(&en->node, &umm->enablers);
	raw_spin_unlock(&khist_ue_lock);
	return 0;
}

static struct khist_ue_enabler *
khist_ue_enabler_find(struct khist_ue_mm *umm, unsigned long addr, u8 bit)
{
	struct khist_ue_enabler *en;

	list_for_each_entry(en, &umm->enablers, node)
		if (en->addr == addr && en->bit == bit)
			return en;
	return NULL;
}

/* Bring every bit of @ue (NULL: of every event) up to date. Mutex held. */
static void khist_ue_update(struct khist_ue_event *ue)
{
	struct khist_ue_mm *umm, *tmp;
	struct khist_ue_enabler *en;
	bool on;
	int ret;

	list_for_each_entry_safe(umm, tmp, &khist_ue_mms, node) {
		ret = 0;
		list_for_each_entry(en, &umm->enablers, node) {
			if (ue && en->ue != ue)
				continue;
			on = READ_ONCE(en->ue->kdef.active);
			ret = khist_ue_bit_write(umm->mm, en, on);
			if (ret == -ENOENT)
				break;
		}
		/* The memory is gone (exit, exec): so are its bits. */
		if (ret == -ENOENT)
			khist_ue_mm_free(umm);
	}
}

/* Drop the memories nobody uses any more. Mutex held. */
static void khist_ue_sweep(void)
{
	struct khist_ue_mm *umm, *tmp;

	list_for_each_entry_safe(umm, tmp, &khist_ue_mms, node)
		if (!atomic_read(&umm->mm->mm_users))
			khist_ue_mm_free(umm);
}

/* Copy the registrations of @f->parent to @f->child. Mutex held. */
static void khist_ue_fork_copy(const struct khist_ue_fork *f)
{
	struct khist_ue_mm *from = khist_ue_mm_find(f->parent), *to;
	struct khist_ue_enabler *en;
	int on;

	if (!from || !atomic_read(&f->child->mm_users))
		return;
	/* Past mem_limit_kb, the child misses what is not copied. */
	to = khist_ue_mm_get(f->child);
	if (IS_ERR(to))
		return;
	list_for_each_entry(en, &from->enablers, node) {
		if (khist_ue_enabler_find(to, en->addr, en->bit))
			continue;
		if (khist_ue_enabler_add(to, en->ue, en->addr, en->bit,
					 en->size))
			break;
		/*
		 * The child's word is a copy of the parent's: written only
		 * when the event changed since (the page stays shared).
		 */
		on = READ_ONCE(en->ue->kdef.active);
		if (khist_ue_bit_read(f->child, en) != on)
			khist_ue_bit_write(f->child, en, on);
	}
	if (list_empty(&to->enablers))
		khist_ue_mm_free(to);
}

static const char khist_ue_lost_text[] =
	"forks came too fast, some children miss their enable bits";

/*
 * The task work of either side of a fork: the first to run copies the
 * registrations, under the mutex, so the copy is made before the child
 * runs its first instruction and before fork() returns to the parent
 * (which could otherwise change its registrations first). Process
 * context of the parent or the child (or of the child's exit, when it is
 * killed before it ran: its memory is gone then, and nothing is copied).
 */
/*
 * A task work of @f is done (run, or not queued): the last one frees the
 * slot. Any context: the memories are still used by their tasks when the
 * probe drops its references, so mmdrop() does not free them there.
 */
static void khist_ue_fork_unref(struct khist_ue_fork *f)
{
	struct mm_struct *parent = NULL, *child = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&khist_ue_lock, flags);
	if (!--f->refs) {
		parent = f->parent;
		child = f->child;
	}
	raw_spin_unlock_irqrestore(&khist_ue_lock, flags);
	if (!parent)
		return;
	mmdrop(parent);
	mmdrop(child);
	/* Only now: module exit waits for the count before it goes. */
	raw_spin_lock_irqsave(&khist_ue_lock, flags);
	khist_ue_nr_forks--;
	raw_spin_unlock_irqrestore(&khist_ue_lock, flags);
}

static void khist_ue_fork_run(struct khist_ue_fork *f)
{
	mutex_lock(&khist_event_mutex);
	if (!f->done) {
		f->done = true;
		khist_ue_fork_copy(f);
	}
	mutex_unlock(&khist_event_mutex);
	khist_ue_fork_unref(f);
}

static void khist_ue_fork_child_fn(struct callback_head *cb)
{
	khist_ue_fork_run(container_of(cb, struct khist_ue_fork, to_child));
}

static void khist_ue_fork_parent_fn(struct callback_head *cb)
{
	khist_ue_fork_run(container_of(cb, struct khist_ue_fork, to_parent));
}

static void khist_ue_work_fn(struct work_struct *work)
{
	mutex_lock(&khist_event_mutex);
	khist_ue_sweep();
	khist_ue_reap();
	mutex_unlock(&khist_event_mutex);
	if (READ_ONCE(khist_ue_forks_lost))
		pr_warn_once("user_events: %s\n", khist_ue_lost_text);
}

/* A free slot for a fork, or NULL. khist_ue_lock held. */
static struct khist_ue_fork *khist_ue_fork_slot(void)
{
	unsigned int i;

	if (khist_ue_nr_forks == KHIST_UE_FORKS)
		return NULL;
	for (i = 0; i < KHIST_UE_FORKS; i++)
		if (!khist_ue_forks[i].refs)
			return &khist_ue_forks[i];
	return NULL;
}

/*
 * sched_process_fork, in the parent, before the child can run: a child
 * with its own memory gets the parent's registrations. Nothing may sleep
 * or allocate here (not even atomically on PREEMPT_RT): a free slot gets
 * a task work on each side, and the first of them to run makes the copy.
 */
static void khist_ue_fork_probe(void *data, struct task_struct *parent,
				struct task_struct *child)
{
	struct mm_struct *pmm = parent->mm, *cmm = child->mm;
	struct khist_ue_fork *f = NULL;
	struct khist_ue_mm *umm;
	bool found = false;
	unsigned long flags;

	if (!pmm || !cmm || pmm == cmm || list_empty(&khist_ue_mms))
		return;
	raw_spin_lock_irqsave(&khist_ue_lock, flags);
	list_for_each_entry(umm, &khist_ue_mms, node)
		if (umm->mm == pmm && !list_empty(&umm->enablers))
			found = true;
	if (found)
		f = khist_ue_fork_slot();
	if (f) {
		mmgrab(pmm);
		mmgrab(cmm);
		f->parent = pmm;
		f->child = cmm;
		f->done = false;
		f->refs = 2;
		khist_ue_nr_forks++;
		init_task_work(&f->to_child, khist_ue_fork_child_fn);
		init_task_work(&f->to_parent, khist_ue_fork_parent_fn);
	} else if (found) {
		khist_ue_forks_lost++;
	}
	raw_spin_unlock_irqrestore(&khist_ue_lock, flags);
	if (!f) {
		if (found)
			queue_work(system_wq, &khist_ue_work);
		return;
	}
	/*
	 * Neither task is exiting, so both works are queued; should one
	 * not be, the other still copies (each holds a reference).
	 */
	if (task_work_add(child, &f->to_child, TWA_RESUME))
		khist_ue_fork_unref(f);
	if (task_work_add(parent, &f->to_parent, TWA_RESUME))
		khist_ue_fork_unref(f);
}

/* sched_process_exit, sched_process_exec: a memory may have gone. */
static void khist_ue_exit_probe(void *data, struct task_struct *p)
{
	if (!list_empty(&khist_ue_mms))
		queue_work(system_wq, &khist_ue_work);
}

static void khist_ue_exec_probe(void *data, struct task_struct *p,
				pid_t old_pid, struct linux_binprm *bprm)
{
	khist_ue_exit_probe(data, p);
}

static const struct {
	const char *name;
	void *probe;
} khist_ue_tps[] = {
	{ "sched_process_fork", khist_ue_fork_probe },
	{ "sched_process_exit", khist_ue_exit_probe },
	{ "sched_process_exec", khist_ue_exec_probe },
};

struct khist_ue_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void khist_ue_tp_match(struct tracepoint *tp, void *priv)
{
	struct khist_ue_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

static struct tracepoint *khist_ue_tp(const char *name)
{
	struct khist_ue_tp_find f = { .name = name };

	for_each_kernel_tracepoint(khist_ue_tp_match, &f);
	return f.tp;
}

static void khist_ue_probes(bool on)
{
	struct tracepoint *tp;
	unsigned int i;

	if (on == khist_ue_probes_on || (on && khist_ue_exiting))
		return;
	for (i = 0; i < ARRAY_SIZE(khist_ue_tps); i++) {
		tp = khist_ue_tp(khist_ue_tps[i].name);
		if (!tp)
			continue;
		if (on &&
		    tracepoint_probe_register(tp, khist_ue_tps[i].probe, NULL))
			pr_warn("user_events: no probe on %s: forks lose their enable bits\n",
				khist_ue_tps[i].name);
		else if (!on)
			tracepoint_probe_unregister(tp, khist_ue_tps[i].probe,
						    NULL);
	}
	khist_ue_probes_on = on;
}

/* ---- events ---- */

/*
 * The registry attaches the event (first consumer) or detaches it (last
 * one gone): set or clear its bits. Process context, mutex held; ->active
 * already reads 0 when detaching and is set to 1 right after attaching.
 */
static int khist_ue_reg(struct khist_event_def *kdef, bool on)
{
	struct khist_ue_event *ue =
		container_of(kdef, struct khist_ue_event, kdef);

	WRITE_ONCE(kdef->active, on);
	khist_ue_update(ue);
	/* A passing event without users goes once detached. */
	if (!on && !ue->users && !ue->persist && !ue->dead)
		queue_work(system_wq, &khist_ue_work);
	return 0;
}

/* Remove passing events without users nor consumers. Mutex held. */
static void khist_ue_reap(void)
{
	struct khist_dynevent *d, *tmp;
	struct khist_ue_event *ue;

	list_for_each_entry_safe(d, tmp, &khist_dynevent_list, list) {
		if (d->ops != &khist_ue_dyn_ops)
			continue;
		ue = khist_ue_of(d);
		if (!ue->persist && !khist_ue_busy(ue))
			khist_ue_destroy(ue);
	}
}

/* Print one number field of @size bytes at @src, as print fmt says. */
static void khist_ue_print_num(struct khist_out *out,
			       const struct khist_ue_field *f, const void *src)
{
	const char *fmt = khist_ue_num_fmt(f);
	u16 v16;
	u32 v32;
	u64 v = 0;

	/* Packed fields: copied out of the record, never loaded in place. */
	switch (f->size) {
	case 1:
		v = *(const u8 *)src;
		v = f->is_signed ? (s64)(s8)v : v;
		break;
	case 2:
		memcpy(&v16, src, sizeof(v16));
		v = f->is_signed ? (s64)(s16)v16 : v16;
		break;
	case 4:
		memcpy(&v32, src, sizeof(v32));
		v = f->is_signed ? (s64)(s32)v32 : v32;
		break;
	default:
		memcpy(&v, src, min_t(unsigned int, f->size, sizeof(v)));
		break;
	}
	if (fmt[1] == 'd' || !strcmp(fmt, "%lld"))
		khist_out_printf(out, "%lld", (s64)v);
	else
		khist_out_printf(out, "%llu", v);
}

/* The string a locator @loc of field @f points at, "" when invalid. */
static const char *khist_ue_str(struct khist_print_ctx *p,
				const struct khist_ue_field *f, u32 loc)
{
	unsigned int off = loc & 0xffff;

	if (f->loc == KHIST_UE_LOC_REL)
		off += f->offset + sizeof(loc);
	if (off > 0xffff)
		return "";
	return khist_rec_dynstr(p, (loc & 0xffff0000) | off);
}

/* The `trace` text of a record: "f1=v1 f2=v2 ...". */
static void khist_ue_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	const struct khist_ue_field *f;
	const struct khist_ue_def *def;
	struct khist_ue_event *ue;
	struct khist_event *ev;
	unsigned int i, loc;
	const char *s;

	ev = khist_event_by_id(hdr->type);
	if (!ev || !ev->def || ev->def->reg != khist_ue_reg)
		return;
	ue = container_of(ev->def, struct khist_ue_event, kdef);
	def = ue->def;
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		if (f->offset + f->size > p->size)
			return;
		khist_out_printf(p->out, "%s%s=", i ? " " : "", f->name);
		if (f->loc && f->is_char) {
			memcpy(&loc, p->rec + f->offset, sizeof(loc));
			s = khist_ue_str(p, f, loc);
			khist_out_printf(p->out, "%s", s);
		} else if (f->is_char) {
			s = p->rec + f->offset;
			khist_out_printf(p->out, "%.*s",
					 (int)strnlen(s, f->size), s);
		} else {
			khist_ue_print_num(p->out, f, p->rec + f->offset);
		}
	}
}

static void khist_ue_fill_desc(struct khist_field_desc *d,
			       const struct khist_ue_field *f)
{
	d->name = f->name;
	d->type = f->type;
	d->offset = f->offset;
	d->size = f->size;
	d->is_signed = f->is_signed;
	d->elem_size = f->size;
	if (f->loc == KHIST_UE_LOC_DATA)
		d->kind = f->is_char ? KHIST_FK_DYNSTRING : KHIST_FK_DYNARRAY;
	else if (f->loc == KHIST_UE_LOC_REL)
		d->kind = f->is_char ? KHIST_FK_RELSTRING : KHIST_FK_DYNARRAY;
	else if (f->is_char)
		d->kind = KHIST_FK_STRING;
	else if (f->is_struct || f->size > 8)
		d->kind = KHIST_FK_ARRAY;
	else
		d->kind = KHIST_FK_INT;
	if (d->kind != KHIST_FK_INT)
		d->elem_size = 1;
}

/*
 * Make @def (consumed) a khist event: user_events/<name>, or with
 * @multi user_events_multi/<name>.<id>, the id counting up from 0 in
 * hexadecimal over the module's life. Mutex held.
 */
static struct khist_ue_event *khist_ue_create(struct khist_ue_def *def,
					      bool multi)
{
	struct khist_ue_event *ue;
	unsigned int i;
	size_t charge;
	char *fmt;
	int ret, len;

	/* Everything below, charged first: the multi-format name at most. */
	len = khist_ue_print_fmt(def, NULL, 0);
	charge = sizeof(*ue) + def->size + len + 1 +
		 max(def->nr_fields, 1U) * sizeof(*ue->descs) +
		 (multi ? strlen(def->name) + 18 : 0);
	if (khist_mem_charge(charge)) {
		khist_ue_def_free(def);
		return ERR_PTR(-ENOSPC);
	}
	ue = khist_kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue) {
		khist_mem_uncharge(charge);
		khist_ue_def_free(def);
		return ERR_PTR(-ENOMEM);
	}
	ue->charged = charge;
	ue->def = def;
	ue->multi = multi;
	kref_init(&ue->kref);
	ret = -ENOMEM;
	if (multi) {
		ue->tp_name = khist_should_fail(GFP_KERNEL) ?
				      NULL :
				      kasprintf(GFP_KERNEL, "%s.%llx",
						def->name, khist_ue_multi_id);
		if (!ue->tp_name)
			goto err;
		/* Each name is used once, whether it registers or not. */
		khist_ue_multi_id++;
	}
	ue->descs = khist_kcalloc(max(def->nr_fields, 1U), sizeof(*ue->descs),
				  GFP_KERNEL);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	ue->kdef.print_fmt = fmt;
	if (!ue->descs || !fmt)
		goto err;
	khist_ue_print_fmt(def, fmt, len + 1);
	for (i = 0; i < def->nr_fields; i++)
		khist_ue_fill_desc(&ue->descs[i], &def->fields[i]);
	ue->kdef.system = multi ? USER_EVENTS_MULTI_SYSTEM : USER_EVENTS_SYSTEM;
	ue->kdef.name = multi ? ue->tp_name : def->name;
	/* Another kind of event may hold the name. */
	ret = -EADDRINUSE;
	if (khist_event_find(ue->kdef.system, ue->kdef.name))
		goto err;
	ue->kdef.fields = ue->descs;
	ue->kdef.nr_fields = def->nr_fields;
	ue->kdef.rec_size = def->fixed_size;
	ue->kdef.print = khist_ue_print;
	ue->kdef.reg = khist_ue_reg;
	ret = khist_event_register_locked(&ue->kdef);
	if (ret)
		goto err;
	khist_dynevent_add(&ue->dyn, &khist_ue_dyn_ops);
	return ue;
err:
	kref_put(&ue->kref, khist_ue_release);
	return ERR_PTR(ret);
}

/*
 * The event of command @cmd: the existing one of that name and kind when
 * its fields are the same, else a new one (one format per name without
 * @multi: -EADDRINUSE when the fields differ). Mutex held.
 */
static struct khist_ue_event *khist_ue_lookup_or_create(const char *cmd,
							bool multi)
{
	struct khist_ue_event *ue;
	struct khist_ue_def *def;
	int ret;

	ret = khist_ue_parse(cmd, KHIST_REC_MAX, &def);
	if (ret)
		return ERR_PTR(ret);
	ue = khist_ue_find(def, multi);
	if (ue) {
		khist_ue_def_free(def);
		return ue;
	}
	return khist_ue_create(def, multi);
}

/* ---- user_events_data ---- */

/**
 * khist_ue_file_alloc() - the state of a new open user_events_data
 *
 * Context: process context.
 * Return: it, or NULL.
 */
struct khist_ue_file *khist_ue_file_alloc(void)
{
	return khist_kzalloc(sizeof(struct khist_ue_file), GFP_KERNEL);
}

/**
 * khist_ue_file_free() - the file is closed: drop its events
 * @uf: its state
 *
 * Events left without users are removed (unless persistent or attached);
 * registered bits stay, as they belong to the process memory.
 *
 * Context: process context; takes khist_event_mutex.
 */
void khist_ue_file_free(struct khist_ue_file *uf)
{
	struct khist_ue_refs *refs;
	unsigned int i;

	mutex_lock(&khist_event_mutex);
	refs = rcu_dereference_protected(uf->refs,
					 lockdep_is_held(&khist_event_mutex));
	for (i = 0; refs && i < refs->count; i++) {
		khist_ue_put_user(refs->ev[i]);
		kref_put(&refs->ev[i]->kref, khist_ue_release);
	}
	mutex_unlock(&khist_event_mutex);
	/* No write is running: the file is being released. */
	if (refs)
		khist_mem_uncharge(struct_size(refs, ev, refs->count));
	kfree(refs);
	kfree(uf);
}

/* The index of @ue in @uf's table, added when missing. Mutex held. */
static int khist_ue_file_index(struct khist_ue_file *uf,
			       struct khist_ue_event *ue)
{
	struct khist_ue_refs *old, *new;
	unsigned int i, n;

	old = rcu_dereference_protected(uf->refs,
					lockdep_is_held(&khist_event_mutex));
	n = old ? old->count : 0;
	for (i = 0; i < n; i++)
		if (old->ev[i] == ue)
			return i;
	/* The table is charged: n + 1 entries instead of n. */
	if (khist_mem_charge(struct_size(new, ev, n + 1)))
		return -ENOSPC;
	new = khist_kmalloc(struct_size(new, ev, n + 1), GFP_KERNEL);
	if (!new) {
		khist_mem_uncharge(struct_size(new, ev, n + 1));
		return -ENOMEM;
	}
	new->count = n + 1;
	if (n)
		memcpy(new->ev, old->ev, n * sizeof(new->ev[0]));
	new->ev[n] = ue;
	ue->users++;
	kref_get(&ue->kref);
	rcu_assign_pointer(uf->refs, new);
	if (old) {
		kfree_rcu(old, rcu);
		khist_mem_uncharge(struct_size(old, ev, n));
	}
	return n;
}

/*
 * Register the bit of @reg for @ue in the caller's memory and write it:
 * set when the event has a consumer, clear when not. Mutex held.
 */
static int khist_ue_bit_add(struct khist_ue_event *ue,
			    const struct user_reg *reg)
{
	struct khist_ue_enabler *en;
	struct khist_ue_mm *umm;
	int ret;

	umm = khist_ue_mm_get(current->mm);
	if (IS_ERR(umm))
		return PTR_ERR(umm);
	ret = khist_ue_enabler_add(umm, ue, reg->enable_addr, reg->enable_bit,
				   reg->enable_size);
	if (!ret) {
		en = list_last_entry(&umm->enablers, struct khist_ue_enabler,
				     node);
		/* Not a writable word of the caller's: refused. */
		if (khist_ue_bit_write(umm->mm, en,
				       READ_ONCE(ue->kdef.active))) {
			khist_ue_enabler_free(en);
			ret = -EFAULT;
		}
	}
	if (list_empty(&umm->enablers))
		khist_ue_mm_free(umm);
	return ret;
}

/* Read and check a struct user_reg, the kernel's way. */
static int khist_ue_reg_get(struct user_reg __user *ureg, struct user_reg *reg)
{
	u32 size;
	int ret;

	if (get_user(size, &ureg->size))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < offsetofend(struct user_reg, write_index))
		return -EINVAL;
	ret = copy_struct_from_user(reg, sizeof(*reg), ureg, size);
	if (ret)
		return ret;
	if (reg->flags & ~(USER_EVENT_REG_MAX - 1))
		return -EINVAL;
	if (reg->enable_size != 4 && reg->enable_size != 8)
		return -EINVAL;
	if (reg->enable_addr % reg->enable_size ||
	    reg->enable_bit >= reg->enable_size * BITS_PER_BYTE)
		return -EINVAL;
	if (!access_ok((void __user *)(uintptr_t)reg->enable_addr,
		       reg->enable_size))
		return -EFAULT;
	if ((reg->flags & USER_EVENT_REG_PERSIST) && !perfmon_capable())
		return -EPERM;
	return 0;
}

/**
 * khist_ue_ioctl_reg() - DIAG_IOCSREG: register an event, or one more bit
 * of an existing one with the same fields
 * @uf:   the open file (the write index is an entry of its table)
 * @ureg: the user's struct user_reg
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -EINVAL, -E2BIG, -EFAULT, -EPERM, -ENOSPC (mem_limit_kb),
 * -EADDRINUSE (the name has other fields, or the bit is registered
 * already), -ENOMEM.
 */
long khist_ue_ioctl_reg(struct khist_ue_file *uf, struct user_reg __user *ureg)
{
	struct khist_ue_event *ue;
	struct khist_ue_mm *umm;
	struct user_reg reg;
	int ret, idx = 0;
	char *cmd;

	ret = khist_ue_reg_get(ureg, &reg);
	if (ret)
		return ret;
	cmd = strndup_user((const char __user *)(uintptr_t)reg.name_args,
			   KHIST_UE_CMD_MAX);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&khist_event_mutex);
	umm = khist_ue_mm_find(current->mm);
	ret = -EADDRINUSE;
	if (umm && khist_ue_enabler_find(umm, reg.enable_addr, reg.enable_bit))
		goto out;
	ue = khist_ue_lookup_or_create(cmd,
				       reg.flags & USER_EVENT_REG_MULTI_FORMAT);
	ret = PTR_ERR_OR_ZERO(ue);
	if (ret)
		goto out;
	/* Hold it while the bit is added: a failure then removes it. */
	ue->users++;
	idx = khist_ue_file_index(uf, ue);
	ret = idx < 0 ? idx : khist_ue_bit_add(ue, &reg);
	if (!ret && (reg.flags & USER_EVENT_REG_PERSIST))
		ue->persist = true;
	khist_ue_put_user(ue);
out:
	mutex_unlock(&khist_event_mutex);
	kfree(cmd);
	if (!ret && put_user((u32)idx, &ureg->write_index))
		return -EFAULT;
	return ret;
}

/**
 * khist_ue_ioctl_del() - DIAG_IOCSDEL: delete the events registered under
 * a name (the one of one format, and every format of a multi-format name)
 * @uname: the user's NUL-terminated name
 *
 * The events are taken in the order they were made; the first busy one
 * stops the deletion (those before it are gone), as in the kernel.
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -ENOENT, -EBUSY (registered, open, enabled or triggered),
 * -EFAULT, -EINVAL.
 */
long khist_ue_ioctl_del(const char __user *uname)
{
	struct khist_dynevent *d, *tmp;
	struct khist_ue_event *ue;
	char *name;
	int ret = -ENOENT;

	name = strndup_user(uname, KHIST_UE_CMD_MAX);
	if (IS_ERR(name))
		return PTR_ERR(name);
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(d, tmp, &khist_dynevent_list, list) {
		if (d->ops != &khist_ue_dyn_ops)
			continue;
		ue = khist_ue_of(d);
		if (strcmp(ue->def->name, name))
			continue;
		ret = khist_dynevent_remove(&ue->dyn);
		if (ret)
			break;
	}
	mutex_unlock(&khist_event_mutex);
	kfree(name);
	return ret;
}

/**
 * khist_ue_ioctl_unreg() - DIAG_IOCSUNREG: drop this process's
 * registration of a bit, clearing it
 * @ureg: the user's struct user_unreg
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -ENOENT (not registered), -EINVAL, -E2BIG, -EFAULT.
 */
long khist_ue_ioctl_unreg(struct user_unreg __user *ureg)
{
	struct khist_ue_enabler *en = NULL;
	struct khist_ue_mm *umm;
	struct user_unreg reg;
	u32 size;
	int ret;

	if (get_user(size, &ureg->size))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < offsetofend(struct user_unreg, disable_addr))
		return -EINVAL;
	ret = copy_struct_from_user(&reg, sizeof(reg), ureg, size);
	if (ret)
		return ret;
	if (reg.__reserved || reg.__reserved2)
		return -EINVAL;
	mutex_lock(&khist_event_mutex);
	umm = khist_ue_mm_find(current->mm);
	if (umm)
		en = khist_ue_enabler_find(umm, reg.disable_addr,
					   reg.disable_bit);
	ret = -ENOENT;
	if (en) {
		khist_ue_bit_write(umm->mm, en, false);
		khist_ue_enabler_free(en);
		if (list_empty(&umm->enablers))
			khist_ue_mm_free(umm);
		ret = 0;
	}
	mutex_unlock(&khist_event_mutex);
	return ret;
}

/* The event of write index @idx in @uf, or NULL. */
static struct khist_ue_event *khist_ue_by_index(struct khist_ue_file *uf,
						int idx)
{
	struct khist_ue_event *ue = NULL;
	struct khist_ue_refs *refs;

	rcu_read_lock();
	refs = rcu_dereference(uf->refs);
	if (refs && idx < refs->count)
		ue = refs->ev[idx];
	rcu_read_unlock();
	/* The file's reference keeps it while the write runs. */
	return ue;
}

/**
 * khist_ue_write() - write(): a record of an event registered on @uf
 * @uf:   the open file
 * @from: the 4-byte write index, then the payload
 *
 * Context: process context; takes no lock.
 * Return: the bytes written (index included), -EFAULT (unreadable, or a
 * locator outside the record), -EINVAL (negative index, payload shorter
 * than the fixed fields), -ENOENT (no such index), -E2BIG (the record
 * would not fit a ring buffer page), -EBADF (the event has no consumer).
 */
ssize_t khist_ue_write(struct khist_ue_file *uf, struct iov_iter *from)
{
	size_t count = iov_iter_count(from), len;
	const unsigned int hdr = sizeof(struct khist_common_hdr);
	struct khist_ue_event *ue;
	struct khist_rec_ctx ctx;
	ssize_t ret = count;
	char *buf;
	void *rec;
	int idx;

	if (copy_from_iter(&idx, sizeof(idx), from) != sizeof(idx))
		return -EFAULT;
	if (idx < 0)
		return -EINVAL;
	ue = khist_ue_by_index(uf, idx);
	if (!ue)
		return -ENOENT;
	len = iov_iter_count(from);
	if (len + hdr < ue->def->fixed_size)
		return -EINVAL;
	if (len > KHIST_UE_PAYLOAD_MAX)
		return -E2BIG;
	if (!READ_ONCE(ue->kdef.active))
		return -EBADF;
	if (fault_in_iov_iter_readable(from, len))
		return -EFAULT;
	preempt_disable_notrace();
	buf = this_cpu_ptr(khist_ue_scratch);
	pagefault_disable();
	if (copy_from_iter(buf + hdr, len, from) != len)
		ret = -EFAULT;
	pagefault_enable();
	if (ret >= 0 && khist_ue_validate(ue->def, buf, hdr + len))
		ret = -EFAULT;
	if (ret >= 0) {
		rec = khist_rec_reserve(&ctx, &ue->kdef, hdr + len);
		if (rec) {
			memcpy(rec + hdr, buf + hdr, len);
			khist_rec_commit(&ctx);
		}
	}
	preempt_enable_notrace();
	return ret;
}

/**
 * khist_ue_status_show() - the text of user_events_status
 * @m: where it goes
 *
 * One line per event, "name # Used by ftrace" while it has a consumer,
 * then "Active: <events>" and "Busy: <events with a consumer>".
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0.
 */
int khist_ue_status_show(struct seq_file *m)
{
	unsigned int active = 0, busy = 0;
	struct khist_ue_event *ue;
	struct khist_dynevent *d;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(d, &khist_dynevent_list, list) {
		if (d->ops != &khist_ue_dyn_ops)
			continue;
		ue = khist_ue_of(d);
		active++;
		/* The name in events/: "name.<id>" for a multi-format one. */
		seq_puts(m, ue->kdef.name);
		if (khist_ue_attached(ue)) {
			seq_puts(m, " # Used by ftrace");
			busy++;
		}
		seq_putc(m, '\n');
	}
	mutex_unlock(&khist_event_mutex);
	seq_printf(m, "\nActive: %u\nBusy: %u\n", active, busy);
	return 0;
}

/* ---- u: lines of dynamic_events ---- */

static int khist_ue_dyn_create(const char *line)
{
	struct khist_ue_event *ue;
	int ret;

	if (strncmp(line, USER_EVENTS_PREFIX, 2))
		return -ECANCELED;
	if (!perfmon_capable())
		return -EPERM;
	mutex_lock(&khist_event_mutex);
	ue = khist_ue_lookup_or_create(line + 2, false);
	ret = PTR_ERR_OR_ZERO(ue);
	if (!ret)
		ue->persist = true;
	mutex_unlock(&khist_event_mutex);
	return ret;
}

static int khist_ue_dyn_print(const struct khist_dynevent *d, char *buf,
			      size_t size)
{
	const struct khist_ue_def *def =
		container_of(d, struct khist_ue_event, dyn)->def;

	return khist_puts(buf, size, khist_ue_show(def, buf, size), "\n");
}

static bool khist_ue_dyn_is_busy(struct khist_dynevent *d)
{
	return khist_ue_busy(khist_ue_of(d));
}

static void khist_ue_dyn_free(struct khist_dynevent *d)
{
	khist_ue_destroy(khist_ue_of(d));
}

/*
 * "-:[system/]name [fields]": the name it was registered as, in either
 * system (as the kernel does); with fields, only the event that has them.
 */
static bool khist_ue_dyn_match(const char *system, const char *event, int argc,
			       const char **argv, struct khist_dynevent *d)
{
	const struct khist_ue_def *def = khist_ue_of(d)->def;
	struct khist_ue_def *want = NULL;
	size_t len;
	char *cmd;
	bool same;
	int i;

	if (strcmp(def->name, event))
		return false;
	if (system && strcmp(system, USER_EVENTS_SYSTEM) &&
	    strcmp(system, USER_EVENTS_MULTI_SYSTEM))
		return false;
	if (!argc)
		return true;
	len = strlen(event) + 1;
	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cmd = khist_kmalloc(len, GFP_KERNEL);
	if (!cmd)
		return false;
	strscpy(cmd, event, len);
	for (i = 0; i < argc; i++) {
		strlcat(cmd, " ", len);
		strlcat(cmd, argv[i], len);
	}
	same = !khist_ue_parse(cmd, KHIST_REC_MAX, &want) &&
	       khist_ue_same(def, want);
	khist_ue_def_free(want);
	kfree(cmd);
	return same;
}

struct khist_dynevent_ops khist_ue_dyn_ops = {
	.create = khist_ue_dyn_create,
	.print = khist_ue_dyn_print,
	.prefix = USER_EVENTS_PREFIX,
	.is_busy = khist_ue_dyn_is_busy,
	.free = khist_ue_dyn_free,
	.match = khist_ue_dyn_match,
};

/**
 * khist_ue_init() - set up user-space events: the write buffers (the
 * probes that follow forks, exits and execs are registered with the first
 * registration of an enable bit and go with the last)
 *
 * Context: process context, module init.
 * Return: 0 or -ENOMEM.
 */
int khist_ue_init(void)
{
	khist_ue_scratch = __alloc_percpu(KHIST_REC_MAX, 8);
	if (!khist_ue_scratch)
		return -ENOMEM;
	return 0;
}

/**
 * khist_ue_exit() - remove every user-space event and registration
 *
 * No user_events_data is open (each pins the module).
 *
 * Context: process context, module exit.
 */
void khist_ue_exit(void)
{
	struct khist_ue_mm *umm, *tmp;
	struct khist_dynevent *d, *dt;

	mutex_lock(&khist_event_mutex);
	khist_ue_exiting = true;
	khist_ue_probes(false);
	mutex_unlock(&khist_event_mutex);
	tracepoint_synchronize_unregister();
	/* Task works not run yet: they run when their tasks leave the kernel. */
	while (READ_ONCE(khist_ue_nr_forks))
		msleep(20);
	/*
	 * The last task work has dropped the count but may still be on its
	 * way out of khist_ue_fork_unref() (preempted there, even): every
	 * task passes a voluntary switch or user mode before this returns.
	 */
	synchronize_rcu_tasks();
	flush_work(&khist_ue_work);
	/* What the probes queued after the last run of the work. */
	khist_ue_work_fn(NULL);
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(umm, tmp, &khist_ue_mms, node)
		khist_ue_mm_free(umm);
	list_for_each_entry_safe(d, dt, &khist_dynevent_list, list)
		if (d->ops == &khist_ue_dyn_ops)
			khist_ue_destroy(khist_ue_of(d));
	mutex_unlock(&khist_event_mutex);
	/* Detaching the last events may have queued the work again. */
	cancel_work_sync(&khist_ue_work);
	free_percpu(khist_ue_scratch);
}
