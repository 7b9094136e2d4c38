// SPDX-License-Identifier: GPL-2.0
/*
 * inter_debug.c - the inter-event sections of `hist_debug`, laid out as
 * Linux 6.12 prints them (Documentation/trace/histogram-design.rst):
 * variable reference fields, field variables, action tracking variables
 * and save() variables.
 */
#include <linux/seq_file.h>
#include "inter.h"

/*
 * A field or save() variable: the hidden variable, then the field read.
 * As the kernel, a value that is not an event field ends the output.
 */
static bool khist_debug_fvar(struct seq_file *m, const struct khist_ifvar *fv,
			     unsigned int i, const char *what)
{
	const struct khist_bfield *val = fv->val;

	khist_dbg(m, 0, "\n%*shist_data->%s[%u]:\n", 4, "", what, i);
	khist_dbg(m, 0, "\n%*s%s[%u].var:\n", 6, "", what, i);
	khist_dbg(m, 6, "flags:\n");
	khist_dbg(m, 8, "HIST_FIELD_FL_VAR\n");
	khist_dbg(m, 6, "var.name: %s\n", fv->var.name);
	khist_dbg(m, 6, "var.idx (into tracing_map_elt.vars[]): %u\n",
		  fv->var.idx);
	khist_dbg(m, 0, "\n%*s%s[%u].val:\n", 6, "", what, i);
	if (!val->field)
		return false;
	khist_dbg(m, 6, "ftrace_event_field name: %s\n", val->field->name);
	khist_dbg(m, 6, "type: %s\n", fv->var.type);
	khist_dbg(m, 6, "size: %u\n", val->size);
	khist_dbg(m, 6, "is_signed: %u\n", val->is_signed);
	return true;
}

static bool khist_debug_actions(struct seq_file *m, struct khist_hist_data *hd)
{
	const struct khist_inter *in = hd->inter;
	struct khist_dbg_field d;
	unsigned int i;

	if (in->n_actions)
		khist_dbg(m, 0, "\n%*saction tracking variables (%s):\n", 2, "",
			  "for onmax()/onchange()/onmatch()");
	for (i = 0; i < in->n_actions; i++) {
		const struct khist_iaction *ia = &in->actions[i];

		if (ia->a->handler == KHIST_HANDLER_ONMATCH) {
			khist_dbg(m, 0, "\n%*shist_data->actions[%u].%s: %s\n",
				  4, "", i, "match_data.event_system",
				  ia->match_sys);
			khist_dbg(m, 4, "hist_data->actions[%u].%s: %s\n", i,
				  "match_data.event", ia->match_ev);
			continue;
		}
		khist_dbg(m, 0, "\n%*shist_data->actions[%u].%s:\n", 4, "", i,
			  "track_data.var_ref");
		khist_debug_ref(&d, hd, ia->track_ref);
		khist_debug_field(m, &d);
		khist_dbg(m, 0, "\n%*shist_data->actions[%u].%s:\n", 4, "", i,
			  "track_data.track_var");
		memset(&d, 0, sizeof(d));
		d.flags = KHIST_HF_VAR;
		d.var_name = ia->track.name;
		d.var_idx = ia->track.idx;
		d.type = ia->track.type;
		d.size = ia->track.size;
		khist_debug_field(m, &d);
	}
	if (in->n_save)
		khist_dbg(m, 0, "\n%*ssave action variables (%s):\n", 2, "",
			  "save() params");
	for (i = 0; i < in->n_save; i++)
		if (!khist_debug_fvar(m, &in->save[i], i, "save_vars"))
			return false;
	return true;
}

/**
 * khist_inter_debug_show() - the inter-event sections of one trigger's
 * `hist_debug` block
 * @m:  where it goes
 * @hd: the trigger's data (hd->inter set)
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_debug_show(struct seq_file *m, struct khist_hist_data *hd)
{
	const struct khist_inter *in = hd->inter;
	struct khist_dbg_field d;
	unsigned int i;

	if (in->n_refs)
		khist_dbg(m, 0, "\n%*svariable reference fields:\n", 2, "");
	for (i = 0; i < in->n_refs; i++) {
		khist_dbg(m, 0, "\n%*shist_data->var_refs[%u]:\n", 4, "", i);
		khist_debug_ref(&d, hd, i);
		khist_debug_field(m, &d);
	}
	if (in->n_fvars)
		khist_dbg(m, 0, "\n%*sfield variables:\n", 2, "");
	for (i = 0; i < in->n_fvars; i++)
		if (!khist_debug_fvar(m, &in->fvars[i], i, "field_vars"))
			return;
	khist_debug_actions(m, hd);
}
