// SPDX-License-Identifier: GPL-2.0
/*
 * action_snap.c - the snapshot() action of onmax()/onchange(): a
 * conditional snapshot of the instance's trace buffer, and the block it
 * adds to `hist`.
 *
 * As in the kernel, an instance has at most one snapshot() action (a
 * second is refused with -EBUSY) and it keeps its own tracked value,
 * across all entries: when an entry's __max/__change moves, the value is
 * compared with the one of the last snapshot (greater for onmax(),
 * different for onchange()); if it passes, the value, the entry's key and
 * comm are recorded and the buffer is swapped with the snapshot buffer
 * (module/buffer/snapshot.c). The check, the record and the swap happen
 * under one lock, so that concurrent hits on other CPUs keep the last
 * snapshot and its details together.
 */
#include <linux/hardirq.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "base/instance.h"
#include "hist.h"
#include "inter.h"
#include "buffer/snapshot.h"

/**
 * struct khist_isnap - the conditional snapshot of a snapshot() action
 * @node:      entry in khist_snaps (the instance's claim), or empty
 * @inst:      the instance whose buffer is swapped (a reference is held)
 * @ia:        the action
 * @var_str:   the tracked variable as written ("$lat")
 * @lock:      serialises the check, the record and the swap
 * @updated:   a snapshot was taken
 * @track_val: the value that took the last snapshot
 * @comm:      the comm of that entry (.execname keys)
 * @key_size:  bytes of @key
 * @key:       the key of that entry
 */
struct khist_isnap {
	struct list_head node;
	struct khist_instance *inst;
	const struct khist_iaction *ia;
	const char *var_str;
	arch_spinlock_t lock;
	bool updated;
	u64 track_val;
	char comm[TASK_COMM_LEN];
	unsigned int key_size;
	u8 key[];
};

/* Instances with a snapshot() action; khist_event_mutex. */
static LIST_HEAD(khist_snaps);

/**
 * khist_inter_snap_create() - the snapshot() action of a new trigger
 * @ic:      the trigger being created
 * @ia:      the action (its handler's tracked variable set up)
 * @var_str: the tracked variable as written
 *
 * Claims the instance's conditional snapshot and allocates the snapshot
 * buffer, as the kernel's tracing_snapshot_cond_enable() does.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, -EBUSY (another snapshot() action in the instance; logged
 * by khist, the kernel says nothing), -ENOMEM.
 */
int khist_inter_snap_create(struct khist_inter_ctx *ic,
			    struct khist_iaction *ia, const char *var_str)
{
	struct khist_instance *inst = ic->ev->inst;
	unsigned int key_size = ic->sp->key_size;
	struct khist_isnap *sn;
	int ret;

	lockdep_assert_held(&khist_event_mutex);
	list_for_each_entry(sn, &khist_snaps, node) {
		if (sn->inst == inst) {
			khist_inter_log(ic, KHIST_HERR_SNAPSHOT_BUSY,
					"snapshot(");
			return -EBUSY;
		}
	}
	sn = kzalloc(struct_size(sn, key, key_size), GFP_KERNEL);
	if (!sn)
		return -ENOMEM;
	ret = khist_snapshot_cond_claim(inst);
	if (ret) {
		kfree(sn);
		return ret;
	}
	khist_instance_get(inst);
	sn->inst = inst;
	sn->ia = ia;
	sn->var_str = var_str;
	sn->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	sn->key_size = key_size;
	list_add_tail(&sn->node, &khist_snaps);
	ic->in->snap = sn;
	return 0;
}

/**
 * khist_inter_snap_unclaim() - the trigger goes away: another trigger of
 * the instance may have a snapshot() action from now on
 * @in: the state
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_snap_unclaim(struct khist_inter *in)
{
	if (in->snap && !list_empty(&in->snap->node)) {
		list_del_init(&in->snap->node);
		khist_snapshot_cond_release(in->snap->inst);
	}
}

/**
 * khist_inter_snap_free() - free the action's state
 * @in: the state, no longer reachable from any probe
 *
 * Context: process context (khist_event_mutex held unless the claim was
 * dropped by khist_inter_snap_unclaim()).
 */
void khist_inter_snap_free(struct khist_inter *in)
{
	if (!in->snap)
		return;
	khist_inter_snap_unclaim(in);
	khist_instance_put(in->snap->inst);
	kfree(in->snap);
	in->snap = NULL;
}

/**
 * khist_inter_snap_take() - the entry's tracked value just moved: take a
 * snapshot if it also passes the last snapshot's value
 * @in:  the state (in->snap set)
 * @hd:  the trigger's data
 * @elt: the entry
 * @val: its new tracked value
 *
 * Context: any, NMI included (where a snapshot racing with another is
 * skipped).
 */
void khist_inter_snap_take(struct khist_inter *in, struct khist_hist_data *hd,
			   struct khist_map_elt *elt, u64 val)
{
	struct khist_isnap *sn = in->snap;
	unsigned long flags;
	bool pass;

	local_irq_save(flags);
	if (in_nmi()) {
		if (!arch_spin_trylock(&sn->lock))
			goto out;
	} else {
		arch_spin_lock(&sn->lock);
	}
	if (sn->ia->a->handler == KHIST_HANDLER_ONMAX)
		pass = val > sn->track_val;
	else
		pass = val != sn->track_val;
	if (pass) {
		sn->track_val = val;
		memcpy(sn->key, khist_map_elt_key(elt), sn->key_size);
		if (hd->comm_off >= 0)
			strscpy(sn->comm, khist_hist_comm(hd, elt),
				sizeof(sn->comm));
		sn->updated = true;
		khist_snapshot_trigger(sn->inst);
	}
	arch_spin_unlock(&sn->lock);
out:
	local_irq_restore(flags);
}

static const char khist_snap_head[] =
	"\nSnapshot taken (see tracing/snapshot).  Details:\n";

static const char *khist_snap_handler(const struct khist_isnap *sn)
{
	return sn->ia->a->handler == KHIST_HANDLER_ONMAX ? "onmax" : "onchange";
}

/**
 * khist_inter_print_snapshot() - the snapshot block of `hist`, between
 * the entries and the totals, once a snapshot was taken
 * @m:  the `hist` file
 * @hd: the data (hd->inter set)
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_print_snapshot(struct seq_file *m, struct khist_hist_data *hd)
{
	struct khist_isnap *sn = hd->inter->snap;
	char comm[TASK_COMM_LEN];
	unsigned long flags;
	bool updated;
	u64 val;
	u8 *key;

	if (!sn || !READ_ONCE(sn->updated))
		return;
	key = kmalloc(sn->key_size, GFP_KERNEL);
	if (!key)
		return;
	local_irq_save(flags);
	arch_spin_lock(&sn->lock);
	updated = sn->updated;
	val = sn->track_val;
	memcpy(key, sn->key, sn->key_size);
	memcpy(comm, sn->comm, sizeof(comm));
	arch_spin_unlock(&sn->lock);
	local_irq_restore(flags);
	if (updated) {
		seq_puts(m, khist_snap_head);
		seq_printf(m, "\ttriggering value { %s(%s) }: ",
			   khist_snap_handler(sn), sn->var_str);
		khist_hist_print_num(m, "%10llu", val, false);
		seq_puts(m, "\ttriggered by event with key: ");
		khist_hist_print_key(m, hd, key, comm);
		seq_putc(m, '\n');
	}
	kfree(key);
}
