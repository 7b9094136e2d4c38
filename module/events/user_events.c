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
 * counted apart (a fork waiting to be copied holds it).
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
 * probe on sched_process_fork queues the (parent, child) pair without
 * allocating, and a work item copies them. Memory whose last user is gone
 * (exit, exec) is dropped by the same work item, queued from probes on
 * sched_process_exit and sched_process_exec, or found when it is next
 * written to.
 *
 * Writes: the 4-byte index, then the payload, copied with page faults
 * disabled into a per-CPU buffer behind the common header, checked
 * (size, every locator inside the record, strings ending in a NUL) and
 * only then handed to the record path, so nothing a program sends is read
 * outside what it sent.
 */
#include <linux/capability.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
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

/* Most payload bytes one write may carry: the record must fit a page. */
#define KHIST_UE_PAYLOAD_MAX (KHIST_REC_MAX - sizeof(struct khist_common_hdr))
/* Forks waiting for their registrations to be copied. */
#define KHIST_UE_FORKS 256

/**
 * struct khist_ue_event - one user-space event
 * @kdef:    its khist definition (system user_events)
 * @dyn:     its entry in the dynamic events list
 * @def:     the parsed command
 * @descs:   the field table of @kdef
 * @kref:    references to the memory
 * @users:   registered bits and open files' entries (mutex)
 * @persist: stays without users until deleted
 * @dead:    taken out of khist
 */
struct khist_ue_event {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_ue_def *def;
	struct khist_field_desc *descs;
	struct kref kref;
	int users;
	bool persist;
	bool dead;
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

/* A fork to copy registrations for: both memories mmgrab()ed. */
struct khist_ue_fork {
	struct mm_struct *parent;
	struct mm_struct *child;
};

/*
 * Memories with registrations. Changed under khist_event_mutex and
 * khist_ue_lock; the fork probe reads it under khist_ue_lock only.
 */
static LIST_HEAD(khist_ue_mms);
static DEFINE_RAW_SPINLOCK(khist_ue_lock);
static struct khist_ue_fork khist_ue_forks[KHIST_UE_FORKS];
static unsigned int khist_ue_nr_forks;
static unsigned long khist_ue_forks_lost;
static void khist_ue_work_fn(struct work_struct *work);
static void khist_ue_reap(void);
static DECLARE_WORK(khist_ue_work, khist_ue_work_fn);
static bool khist_ue_probes_on;
/* Module exit has begun: the probes are never registered again. */
static bool khist_ue_exiting;
static char __percpu *khist_ue_scratch;

static struct khist_ue_event *khist_ue_of(struct khist_dynevent *dyn)
{
	return container_of(dyn, struct khist_ue_event, dyn);
}

/* The event called @name, or NULL. Mutex held. */
static struct khist_ue_event *khist_ue_find(const char *name)
{
	struct khist_dynevent *d;

	list_for_each_entry(d, &khist_dynevent_list, list)
		if (d->ops == &khist_ue_dyn_ops &&
		    !strcmp(khist_ue_of(d)->def->name, name))
			return khist_ue_of(d);
	return NULL;
}

static void khist_ue_release(struct kref *kref)
{
	struct khist_ue_event *ue =
		container_of(kref, struct khist_ue_event, kref);

	khist_ue_def_free(ue->def);
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

static void khist_ue_enabler_free(struct khist_ue_enabler *en)
{
	raw_spin_lock(&khist_ue_lock);
	list_del(&en->node);
	raw_spin_unlock(&khist_ue_lock);
	khist_ue_put_user(en->ue);
	kfree(en);
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

/* ... created when missing (the reference to @mm is taken). Mutex held. */
static struct khist_ue_mm *khist_ue_mm_get(struct mm_struct *mm)
{
	struct khist_ue_mm *umm = khist_ue_mm_find(mm);

	if (umm)
		return umm;
	umm = khist_kzalloc(sizeof(*umm), GFP_KERNEL);
	if (!umm)
		return NULL;
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
	struct khist_ue_enabler *en = khist_kzalloc(sizeof(*en), GFP_KERNEL);

	if (!en)
		return -ENOMEM;
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

	if (!from || !atomic_read(&f->child->mm_users))
		return;
	to = khist_ue_mm_get(f->child);
	if (!to)
		return;
	list_for_each_entry(en, &from->enablers, node) {
		if (khist_ue_enabler_find(to, en->addr, en->bit))
			continue;
		if (khist_ue_enabler_add(to, en->ue, en->addr, en->bit,
					 en->size))
			break;
		/* The child's copy of the word is as the parent's was. */
		khist_ue_bit_write(f->child, en,
				   READ_ONCE(en->ue->kdef.active));
	}
	if (list_empty(&to->enablers))
		khist_ue_mm_free(to);
}

static const char khist_ue_lost_text[] =
	"forks came too fast, some children miss their enable bits";

static void khist_ue_work_fn(struct work_struct *work)
{
	struct khist_ue_fork f;

	mutex_lock(&khist_event_mutex);
	for (;;) {
		raw_spin_lock(&khist_ue_lock);
		if (!khist_ue_nr_forks) {
			raw_spin_unlock(&khist_ue_lock);
			break;
		}
		f = khist_ue_forks[--khist_ue_nr_forks];
		raw_spin_unlock(&khist_ue_lock);
		khist_ue_fork_copy(&f);
		mmdrop(f.parent);
		mmdrop(f.child);
	}
	khist_ue_sweep();
	khist_ue_reap();
	mutex_unlock(&khist_event_mutex);
	if (READ_ONCE(khist_ue_forks_lost))
		pr_warn_once("user_events: %s\n", khist_ue_lost_text);
}

/* sched_process_fork: a child with its own memory copies the parent's. */
static void khist_ue_fork_probe(void *data, struct task_struct *parent,
				struct task_struct *child)
{
	struct mm_struct *pmm = parent->mm, *cmm = child->mm;
	struct khist_ue_mm *umm;
	bool found = false;
	unsigned long flags;

	if (!pmm || !cmm || pmm == cmm || list_empty(&khist_ue_mms))
		return;
	raw_spin_lock_irqsave(&khist_ue_lock, flags);
	list_for_each_entry(umm, &khist_ue_mms, node)
		if (umm->mm == pmm && !list_empty(&umm->enablers))
			found = true;
	if (found && khist_ue_nr_forks < KHIST_UE_FORKS) {
		mmgrab(pmm);
		mmgrab(cmm);
		khist_ue_forks[khist_ue_nr_forks].parent = pmm;
		khist_ue_forks[khist_ue_nr_forks++].child = cmm;
	} else if (found) {
		khist_ue_forks_lost++;
	}
	raw_spin_unlock_irqrestore(&khist_ue_lock, flags);
	if (found)
		queue_work(system_wq, &khist_ue_work);
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

/* Make @def (consumed) a khist event. Mutex held. */
static struct khist_ue_event *khist_ue_create(struct khist_ue_def *def)
{
	struct khist_ue_event *ue;
	unsigned int i;
	char *fmt;
	int ret, len;

	ue = khist_kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue) {
		khist_ue_def_free(def);
		return ERR_PTR(-ENOMEM);
	}
	ue->def = def;
	kref_init(&ue->kref);
	ret = -ENOMEM;
	ue->descs = khist_kcalloc(max(def->nr_fields, 1U), sizeof(*ue->descs),
				  GFP_KERNEL);
	len = khist_ue_print_fmt(def, NULL, 0);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	ue->kdef.print_fmt = fmt;
	if (!ue->descs || !fmt)
		goto err;
	khist_ue_print_fmt(def, fmt, len + 1);
	for (i = 0; i < def->nr_fields; i++)
		khist_ue_fill_desc(&ue->descs[i], &def->fields[i]);
	ue->kdef.system = USER_EVENTS_SYSTEM;
	ue->kdef.name = def->name;
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
 * The event of command @cmd: the existing one of that name when its
 * fields are the same (-EADDRINUSE when not), else a new one. Mutex held.
 */
static struct khist_ue_event *khist_ue_lookup_or_create(const char *cmd)
{
	struct khist_ue_event *ue;
	struct khist_ue_def *def;
	int ret;

	ret = khist_ue_parse(cmd, KHIST_REC_MAX, &def);
	if (ret)
		return ERR_PTR(ret);
	ue = khist_ue_find(def->name);
	if (ue) {
		ret = khist_ue_same(ue->def, def) ? 0 : -EADDRINUSE;
		khist_ue_def_free(def);
		return ret ? ERR_PTR(ret) : ue;
	}
	/* Another kind of event may hold the name. */
	if (khist_event_find(USER_EVENTS_SYSTEM, def->name)) {
		khist_ue_def_free(def);
		return ERR_PTR(-EADDRINUSE);
	}
	return khist_ue_create(def);
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
	new = khist_kmalloc(struct_size(new, ev, n + 1), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->count = n + 1;
	if (n)
		memcpy(new->ev, old->ev, n * sizeof(new->ev[0]));
	new->ev[n] = ue;
	ue->users++;
	kref_get(&ue->kref);
	rcu_assign_pointer(uf->refs, new);
	if (old)
		kfree_rcu(old, rcu);
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
	if (!umm)
		return -ENOMEM;
	ret = khist_ue_enabler_add(umm, ue, reg->enable_addr, reg->enable_bit,
				   reg->enable_size);
	if (!ret) {
		en = list_last_entry(&umm->enablers, struct khist_ue_enabler,
				     node);
		ret = khist_ue_bit_write(umm->mm, en,
					 READ_ONCE(ue->kdef.active));
		/* Not a writable word of the caller's: refused. */
		if (ret)
			khist_ue_enabler_free(en);
	}
	if (list_empty(&umm->enablers))
		khist_ue_mm_free(umm);
	return ret ? -EFAULT : 0;
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
	/* One format per name: there is no user_events_multi/ system. */
	if (reg->flags & USER_EVENT_REG_MULTI_FORMAT)
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
 * Return: 0, -EINVAL, -E2BIG, -EFAULT, -EPERM, -EADDRINUSE (the name has
 * other fields, or the bit is registered already), -ENOMEM.
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
	ue = khist_ue_lookup_or_create(cmd);
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
 * khist_ue_ioctl_del() - DIAG_IOCSDEL: delete an event by name
 * @uname: the user's NUL-terminated name
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -ENOENT, -EBUSY (registered, open, enabled or triggered),
 * -EFAULT, -EINVAL.
 */
long khist_ue_ioctl_del(const char __user *uname)
{
	struct khist_ue_event *ue;
	char *name;
	int ret = -ENOENT;

	name = strndup_user(uname, KHIST_UE_CMD_MAX);
	if (IS_ERR(name))
		return PTR_ERR(name);
	mutex_lock(&khist_event_mutex);
	ue = khist_ue_find(name);
	if (ue)
		ret = khist_dynevent_remove(&ue->dyn);
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
		seq_puts(m, ue->def->name);
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
	ue = khist_ue_lookup_or_create(line + 2);
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

static bool khist_ue_dyn_match(const char *system, const char *event, int argc,
			       const char **argv, struct khist_dynevent *d)
{
	return !strcmp(khist_ue_of(d)->def->name, event) &&
	       (!system || !strcmp(system, USER_EVENTS_SYSTEM));
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
