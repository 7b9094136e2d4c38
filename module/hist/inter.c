// SPDX-License-Identifier: GPL-2.0
/*
 * inter.c - life cycle of a trigger's inter-event state (see inter.h):
 * creation with the new trigger, registration once its data exists, the
 * "is referenced" rule for removal, teardown, and the per-hit entry point
 * called after the entry is updated.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "inter.h"
#include "mem/mem.h"

/* Registered states, every instance; khist_event_mutex. */
static LIST_HEAD(khist_inter_list);

static bool khist_bf_has_ref(const struct khist_bfield *f)
{
	if (!f)
		return false;
	return f->kind == KHIST_BF_VARREF || khist_bf_has_ref(f->l) ||
	       khist_bf_has_ref(f->r);
}

static bool khist_spec_needs_inter(const struct khist_hist_spec *sp)
{
	unsigned int i;

	if (sp->cmd->n_actions)
		return true;
	for (i = 1; i < sp->n_vals; i++)
		if (khist_bf_has_ref(sp->vals[i]))
			return true;
	for (i = 0; i < sp->n_vars; i++)
		if (khist_bf_has_ref(sp->vars[i].f))
			return true;
	return false;
}

/* What a state is charged: itself and its three fixed-size arrays. */
static u64 khist_inter_charge(void)
{
	struct khist_inter *in;

	return sizeof(*in) +
	       KHIST_INTER_FVARS_MAX *
		       (sizeof(*in->fvars) + sizeof(*in->save)) +
	       KHIST_INTER_HIDDEN_MAX * sizeof(*in->hidden);
}

static void khist_inter_release(struct khist_inter *in)
{
	unsigned int i;

	khist_inter_actions_release(in);
	khist_inter_snap_free(in);
	khist_inter_fvars_free(in->fvars, in->n_fvars);
	khist_inter_fvars_free(in->save, in->n_save);
	if (in->hidden)
		for (i = 0; i < in->n_hidden; i++)
			kfree(in->hidden[i].cmd);
	kfree(in->hidden);
	kfree(in);
	khist_mem_uncharge(khist_inter_charge());
}

/**
 * khist_inter_create() - the inter-event state of a new trigger
 * @ev:   its event
 * @ht:   the trigger (its spec bound, not linked, no data yet)
 * @ecmd: the error_log command, or NULL to log nothing
 * @out:  the state, or NULL when the trigger needs none
 *
 * Gives each reference a slot, then builds the handlers in order (which
 * may create field variables and hidden hist triggers on other events).
 * On failure nothing is left behind.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno (logged where the kernel logs).
 */
int khist_inter_create(struct khist_event *ev, struct khist_hist_trigger *ht,
		       const char *ecmd, struct khist_inter **out)
{
	struct khist_inter_ctx ic = {
		.ev = ev,
		.ht = ht,
		.sp = ht->spec,
		.ecmd = ecmd,
		.scope = { ev->inst, ev, ht->spec->cmd },
	};
	struct khist_inter *in;
	int ret;

	*out = NULL;
	if (!khist_spec_needs_inter(ht->spec))
		return 0;
	ret = khist_mem_charge(khist_inter_charge());
	if (ret) {
		khist_hist_log(ev, ecmd, KHIST_HERR_MEM_LIMIT, 0);
		return ret;
	}
	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in) {
		khist_mem_uncharge(khist_inter_charge());
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&in->list);
	in->ev = ev;
	in->spec = ht->spec;
	in->n_vars = ht->spec->n_vars;
	in->n_str = ht->spec->n_var_str;
	ic.in = in;
	ret = -ENOMEM;
	in->fvars =
		kcalloc(KHIST_INTER_FVARS_MAX, sizeof(*in->fvars), GFP_KERNEL);
	in->save =
		kcalloc(KHIST_INTER_FVARS_MAX, sizeof(*in->save), GFP_KERNEL);
	in->hidden = kcalloc(KHIST_INTER_HIDDEN_MAX, sizeof(*in->hidden),
			     GFP_KERNEL);
	if (!in->fvars || !in->save || !in->hidden)
		goto fail;
	ret = khist_inter_refs_from_spec(&ic);
	if (ret)
		goto fail;
	ret = khist_inter_actions_create(&ic);
	if (ret)
		goto fail;
	*out = in;
	return 0;
fail:
	khist_inter_hidden_remove(in);
	khist_inter_release(in);
	return ret;
}

/**
 * khist_inter_register() - the trigger's data exists: the state is live
 * @in: the state (may be NULL)
 * @hd: the data, with hd->inter == @in
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_register(struct khist_inter *in, struct khist_hist_data *hd)
{
	if (!in)
		return;
	in->hd = hd;
	list_add_tail(&in->list, &khist_inter_list);
}

/**
 * khist_inter_is_referenced() - does another trigger read @hd's variables?
 * @hd: a trigger's data
 *
 * A trigger whose references went away with their event (dead) does not
 * count.
 *
 * Context: process context, khist_event_mutex held.
 * Return: true if one does.
 */
bool khist_inter_is_referenced(struct khist_hist_data *hd)
{
	struct khist_inter *in;
	unsigned int i;

	lockdep_assert_held(&khist_event_mutex);
	list_for_each_entry(in, &khist_inter_list, list) {
		if (in->hd == hd || READ_ONCE(in->dead))
			continue;
		for (i = 0; i < in->n_refs; i++)
			if (in->refs[i].var.hd == hd)
				return true;
	}
	return false;
}

/**
 * khist_inter_unlist() - the trigger that created the state goes; its
 * hidden hists stay for now
 * @in: the state (may be NULL)
 *
 * Takes the state off the list (it no longer counts as a referrer and
 * is never marked dead again) and gives up the instance's snapshot.
 * Takes no hist data's show_lock, so it may run under one; the caller
 * removes the hidden hists later (khist_inter_hidden_remove()).
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_unlist(struct khist_inter *in)
{
	if (!in)
		return;
	khist_inter_snap_unclaim(in);
	list_del_init(&in->list);
}

/**
 * khist_inter_unlink() - the trigger that created the state goes
 * @in: the state (may be NULL)
 *
 * khist_inter_unlist(), then removes this trigger's hidden hists. Probes
 * may still run the state until a grace period has passed;
 * khist_inter_free() comes after that.
 *
 * Context: process context, khist_event_mutex held, no hist data's
 * show_lock held (removing a hidden hist takes its own).
 */
void khist_inter_unlink(struct khist_inter *in)
{
	if (!in)
		return;
	khist_inter_unlist(in);
	khist_inter_hidden_remove(in);
}

/**
 * khist_inter_data_gone() - a trigger's data lost its last trigger
 * @hd: the data (freed after the next grace period)
 *
 * Every state that reads @hd's variables stops resolving, whatever took
 * @hd's last trigger away (its removal, or by force: the removal of its
 * event, its instance, or khist itself), and forgets @hd where it is one
 * of its hidden hists. Called before the grace period that precedes the
 * free: a probe that still sees a reader live is waited for, later ones
 * see it dead and never look @hd up. A dead state keeps no pointer into
 * @hd that anything dereferences (khist_inter_ref_add() copies the
 * variable's name and type).
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_data_gone(struct khist_hist_data *hd)
{
	struct khist_inter *o;
	unsigned int i;

	lockdep_assert_held(&khist_event_mutex);
	list_for_each_entry(o, &khist_inter_list, list) {
		for (i = 0; i < o->n_refs; i++)
			if (o->refs[i].var.hd == hd)
				WRITE_ONCE(o->dead, 1);
		for (i = 0; i < o->n_hidden; i++)
			if (o->hidden[i].hd == hd)
				o->hidden[i].hd = NULL;
	}
}

/**
 * khist_inter_free() - free a state no probe can see any more
 * @in: the state (may be NULL), unlinked
 *
 * Context: process context.
 */
void khist_inter_free(struct khist_inter *in)
{
	if (in)
		khist_inter_release(in);
}

/**
 * khist_inter_hit() - after the entry of a hit was updated: field
 * variables, then the trigger's own references, then the handlers
 * @in:  the state
 * @hd:  the trigger's data
 * @elt: the entry
 * @c:   the record
 * @pad: this hit's scratch
 *
 * Context: any, NMI included.
 */
void khist_inter_hit(struct khist_inter *in, struct khist_hist_data *hd,
		     struct khist_map_elt *elt, struct khist_eval_ctx *c,
		     struct khist_inter_pad *pad)
{
	if (in->n_fvars)
		khist_inter_fvars_update(in, in->fvars, in->n_fvars, hd, elt,
					 c);
	if (!in->n_actions || !khist_inter_resolve_self(in, elt, pad->refs))
		return;
	khist_inter_actions_run(in, hd, elt, c, pad);
}
