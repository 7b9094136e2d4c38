// SPDX-License-Identifier: GPL-2.0
/*
 * action_run.c - what the handlers of a hist trigger do on a hit whose
 * references all resolved (onmatch: always; onmax/onchange: when the
 * tracked variable passes its hidden __max/__change), and what they add
 * to each entry of the `hist` file ("max:"/"changed:" and saved fields).
 * The per-hit part takes no lock and allocates nothing.
 */
#include <linux/seq_file.h>
#include "inter.h"
#include "synth/synth.h"

/* A stack as a synthetic event takes it: a count word, then the frames. */
static u64 khist_stack_param(unsigned long *dst, u64 v)
{
	const unsigned long *src = (const unsigned long *)(uintptr_t)v;
	unsigned int n = 0;

	if (src)
		for (; n < KHIST_STACK_DEPTH && src[n]; n++)
			dst[n + 1] = src[n];
	dst[0] = n;
	return (uintptr_t)dst;
}

/* Fire the action's synthetic event with its parameters' values. */
static void khist_action_trace(const struct khist_iaction *ia,
			       struct khist_inter_pad *pad)
{
	const struct khist_synth_field *sf;
	unsigned int i, n_stack = 0;
	u64 v;

	if (!ia->has_stack) {
		khist_synth_trace_idx(ia->se, pad->refs, ia->param_ref,
				      ia->n_params);
		return;
	}
	for (i = 0; i < ia->n_params; i++) {
		v = pad->refs[ia->param_ref[i]];
		sf = khist_synth_field(ia->se, i);
		if (sf && sf->is_stack && n_stack < KHIST_INTER_STACKS)
			v = khist_stack_param(pad->stack[n_stack++], v);
		else if (sf && sf->is_stack)
			v = 0;
		pad->vals[i] = v;
	}
	khist_synth_trace(ia->se, pad->vals, ia->n_params);
}

/* Does @v pass the entry's tracked value? If so it becomes the new one. */
static bool khist_action_track(const struct khist_iaction *ia,
			       struct khist_map_elt *elt, u64 v)
{
	u64 cur = khist_map_get_var(elt, ia->track.idx);

	if (ia->a->handler == KHIST_HANDLER_ONMAX ? v <= cur : v == cur)
		return false;
	khist_map_set_var(elt, ia->track.idx, v);
	return true;
}

/**
 * khist_inter_actions_run() - run the handlers on a hit
 * @in:  the state
 * @hd:  the trigger's data
 * @elt: the entry just updated
 * @c:   the record
 * @pad: the slots' values (all filled)
 *
 * Context: any, NMI included.
 */
void khist_inter_actions_run(struct khist_inter *in, struct khist_hist_data *hd,
			     struct khist_map_elt *elt,
			     const struct khist_eval_ctx *c,
			     struct khist_inter_pad *pad)
{
	unsigned int i;

	for (i = 0; i < in->n_actions; i++) {
		const struct khist_iaction *ia = &in->actions[i];

		if (ia->a->handler == KHIST_HANDLER_ONMATCH) {
			khist_action_trace(ia, pad);
			continue;
		}
		if (!khist_action_track(ia, elt, pad->refs[ia->track_ref]))
			continue;
		switch (ia->a->action) {
		case KHIST_ACTION_SAVE:
			khist_inter_fvars_update(in, in->save, in->n_save, hd,
						 elt, c);
			break;
		case KHIST_ACTION_TRACE:
			khist_action_trace(ia, pad);
			break;
		case KHIST_ACTION_SNAPSHOT:
			khist_inter_snap_take(in, hd, elt,
					      pad->refs[ia->track_ref]);
			break;
		default:
			break;
		}
	}
}

/**
 * khist_inter_print_entry() - what the handlers add to an entry's line
 * @m:   the `hist` file
 * @hd:  the data (hd->inter set)
 * @elt: the entry
 *
 * For each onmax()/onchange() other than snapshot(): the tracked value,
 * then every save() variable (an unset string prints "(null)", as the
 * kernel's NULL pointer does).
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_print_entry(struct seq_file *m, struct khist_hist_data *hd,
			     struct khist_map_elt *elt)
{
	struct khist_inter *in = hd->inter;
	unsigned int i, j;

	for (i = 0; i < in->n_actions; i++) {
		const struct khist_iaction *ia = &in->actions[i];
		u64 track, v;

		if (ia->a->handler == KHIST_HANDLER_ONMATCH ||
		    ia->a->action == KHIST_ACTION_SNAPSHOT)
			continue;
		track = khist_map_get_var(elt, ia->track.idx);
		if (ia->a->handler == KHIST_HANDLER_ONMAX)
			seq_puts(m, "\n\tmax: ");
		else
			seq_puts(m, "\n\tchanged: ");
		khist_hist_print_num(m, "%10llu", track, false);
		for (j = 0; j < in->n_save; j++) {
			const struct khist_ifvar *fv = &in->save[j];
			const char *s = "(null)";

			if (fv->val->flags & KHIST_HF_STRING) {
				if (khist_map_var_is_set(elt, fv->var.idx))
					s = khist_hist_var_str(hd, elt,
							       fv->var.str_idx);
				seq_printf(m, "  %s: %-32s", fv->var.name, s);
			} else {
				v = khist_map_get_var(elt, fv->var.idx);
				seq_printf(m, "  %s: ", fv->var.name);
				khist_hist_print_num(m, "%10llu", v,
						     fv->val->is_signed);
			}
		}
	}
}

/**
 * khist_inter_json_saved() - an entry's handler records, as `hist_json`
 * writes them
 * @hd:  the data (hd->inter set)
 * @elt: the entry
 * @s:   filled: @s->rec[0..return-1]
 *
 * The records of khist_inter_print_entry(): per onmax()/onchange() other
 * than snapshot(), its tracked value and the numeric save() variables
 * (string ones have no number to give).
 *
 * Context: process context, khist_event_mutex held.
 * Return: the number of records.
 */
unsigned int khist_inter_json_saved(struct khist_hist_data *hd,
				    struct khist_map_elt *elt,
				    struct khist_inter_saved *s)
{
	struct khist_inter *in = hd->inter;
	const char *w = in->spec->cmd->work;
	unsigned int i, j, n = 0, nv;

	for (i = 0; i < in->n_actions; i++) {
		const struct khist_iaction *ia = &in->actions[i];
		struct khist_hjson_saved *r = &s->rec[n];
		const struct khist_action *a = ia->a;

		if (a->handler == KHIST_HANDLER_ONMATCH ||
		    a->action == KHIST_ACTION_SNAPSHOT)
			continue;
		snprintf(s->text[n], sizeof(s->text[n]), "%s(%.*s)",
			 a->handler == KHIST_HANDLER_ONMAX ? "onmax" :
							     "onchange",
			 a->arg.len, w + a->arg.pos);
		nv = 0;
		for (j = 0; j < in->n_save && nv < KHIST_INTER_FVARS_MAX; j++) {
			const struct khist_ifvar *fv = &in->save[j];

			if (fv->val->flags & KHIST_HF_STRING)
				continue;
			s->names[nv] = fv->var.name;
			s->vals[n][nv++] = khist_map_get_var(elt, fv->var.idx);
		}
		r->handler = s->text[n];
		r->track = khist_map_get_var(elt, ia->track.idx);
		r->n = nv;
		r->names = s->names;
		r->vals = s->vals[n];
		n++;
	}
	return n;
}
