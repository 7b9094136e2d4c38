// SPDX-License-Identifier: GPL-2.0
/*
 * hist_debug.c - the `hist_debug` file of every event: how each hist
 * trigger of the event is built, in the layout of the kernel's
 * CONFIG_HIST_TRIGGERS_DEBUG output (Documentation/trace/
 * histogram-design.rst), which Debian's kernels cannot show.
 *
 * Fields are numbered as the kernel numbers hist_data->fields[]: the raw
 * hitcount, the values, the variables (all "val fields"), then the keys.
 * The hist data's address is printed with %p, which the kernel hashes;
 * no raw pointer is ever shown.
 */
#include <linux/seq_file.h>
#include "hist.h"

/* The C type the kernel reports for a field. */
static const char *khist_bf_type(const struct khist_bfield *f)
{
	switch (f->kind) {
	case KHIST_BF_CPU:
		return "unsigned int";
	case KHIST_BF_STACK:
		return f->field ? f->field->type : "unsigned long[]";
	case KHIST_BF_FIELD:
		if ((f->flags & (KHIST_HF_EXECNAME | KHIST_HF_VAR)) ==
		    (KHIST_HF_EXECNAME | KHIST_HF_VAR))
			return "char[]";
		return f->field->type;
	case KHIST_BF_UMINUS:
	case KHIST_BF_BINOP:
		return khist_bf_type(f->l);
	case KHIST_BF_VARREF:
		if (f->l && (f->flags & KHIST_HF_ALIAS))
			return khist_bf_type(f->l);
		return f->flags & KHIST_HF_STRING ? "char[]" : "u64";
	default:
		return "u64";
	}
}

static void khist_debug_flags(struct seq_file *m, u32 flags)
{
	seq_puts(m, "      flags:\n");
	if (flags & KHIST_HF_KEY)
		seq_puts(m, "        HIST_FIELD_FL_KEY\n");
	else if (flags & KHIST_HF_HITCOUNT)
		seq_puts(m, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	else if (flags & KHIST_HF_VAR)
		seq_puts(m, "        HIST_FIELD_FL_VAR\n");
	else if (flags & KHIST_HF_VARREF)
		seq_puts(m, "        HIST_FIELD_FL_VAR_REF\n");
	else
		seq_puts(m, "        VAL: normal u64 value\n");
	if (flags & KHIST_HF_ALIAS)
		seq_puts(m, "        HIST_FIELD_FL_ALIAS\n");
	else if (flags & KHIST_HF_CONST)
		seq_puts(m, "        HIST_FIELD_FL_CONST\n");
}

/**
 * struct khist_debug_ctx - numbering while one trigger is shown
 * @refs:   variable references found so far (their var_ref_idx)
 * @n_refs: entries in @refs
 */
struct khist_debug_ctx {
	const struct khist_bfield *refs[KHIST_MAP_VARS_MAX];
	unsigned int n_refs;
};

static int khist_ref_idx(const struct khist_debug_ctx *dc,
			 const struct khist_bfield *ref)
{
	unsigned int i;

	for (i = 0; i < dc->n_refs; i++)
		if (dc->refs[i] == ref)
			return i;
	return 0;
}

static void khist_debug_field(struct seq_file *m,
			      const struct khist_debug_ctx *dc,
			      const struct khist_bfield *f, int var_idx,
			      unsigned int size)
{
	khist_debug_flags(m, f->flags);
	if (f->field && f->kind != KHIST_BF_CPU)
		seq_printf(m, "      ftrace_event_field name: %s\n",
			   f->field->name);
	if (f->flags & KHIST_HF_VAR) {
		seq_printf(m, "      var.name: %s\n", f->var_name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			   var_idx);
	}
	if (f->flags & KHIST_HF_CONST)
		seq_printf(m, "      constant: %llu\n", f->constant);
	if (f->flags & KHIST_HF_ALIAS)
		seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			   khist_ref_idx(dc, f->l));
	if (f->flags & KHIST_HF_VARREF) {
		seq_printf(m, "      name: %s\n", f->ref_var);
		seq_puts(m, "      var.idx (into tracing_map_elt.vars[]): 0\n");
		seq_printf(m, "      var.hist_data: %p\n", NULL);
		seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			   khist_ref_idx(dc, f));
		if (f->ref_qualified) {
			seq_printf(m, "      system: %s\n", f->ref_sys);
			seq_printf(m, "      event_name: %s\n", f->ref_event);
		}
	}
	seq_printf(m, "      type: %s\n", khist_bf_type(f));
	seq_printf(m, "      size: %u\n", size);
	seq_printf(m, "      is_signed: %u\n", f->is_signed);
}

/* Collect the references of a tree, in the order the kernel creates them. */
static void khist_collect_refs(struct khist_debug_ctx *dc,
			       const struct khist_bfield *f)
{
	if (!f)
		return;
	if (f->kind == KHIST_BF_VARREF && (f->flags & KHIST_HF_VARREF)) {
		if (dc->n_refs < ARRAY_SIZE(dc->refs))
			dc->refs[dc->n_refs++] = f;
		return;
	}
	khist_collect_refs(dc, f->l);
	khist_collect_refs(dc, f->r);
}

static void khist_hist_debug_one(struct seq_file *m,
				 struct khist_hist_trigger *ht, unsigned int n)
{
	const struct khist_hist_spec *sp = ht->hd->spec;
	struct khist_debug_ctx dc = {};
	unsigned int i, idx, n_vals;

	for (i = 1; i < sp->n_vals; i++)
		khist_collect_refs(&dc, sp->vals[i]);
	for (i = 0; i < sp->n_vars; i++)
		khist_collect_refs(&dc, sp->vars[i].f);

	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	ht->base.type->print(m, &ht->base);
	seq_puts(m, "#\n\n");
	n_vals = sp->n_vals + sp->n_vars;
	seq_printf(m, "hist_data: %p\n\n", ht->hd);
	seq_printf(m, "  n_vals: %u\n", n_vals);
	seq_printf(m, "  n_keys: %u\n", sp->n_keys);
	seq_printf(m, "  n_fields: %u\n", n_vals + sp->n_keys);

	seq_puts(m, "\n  val fields:\n\n");
	seq_puts(m, "    hist_data->fields[0]:\n");
	khist_debug_field(m, &dc, sp->vals[0], -1, 8);
	for (i = 1; i < sp->n_vals; i++) {
		seq_printf(m, "\n    hist_data->fields[%u]:\n", i);
		khist_debug_field(m, &dc, sp->vals[i], -1, sp->vals[i]->size);
	}
	for (i = 0; i < sp->n_vars; i++) {
		const struct khist_bfield *f = sp->vars[i].f;

		idx = sp->n_vals + i;
		seq_printf(m, "\n    hist_data->fields[%u]:\n", idx);
		khist_debug_field(m, &dc, f, i, f->size);
	}

	seq_puts(m, "\n  key fields:\n");
	for (i = 0; i < sp->n_keys; i++) {
		idx = n_vals + i;
		seq_printf(m, "\n    hist_data->fields[%u]:\n", idx);
		khist_debug_field(m, &dc, sp->keys[i].f, -1, sp->keys[i].size);
	}

	if (dc.n_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (i = 0; i < dc.n_refs; i++) {
		seq_printf(m, "\n    hist_data->var_refs[%u]:\n", i);
		khist_debug_field(m, &dc, dc.refs[i], -1, dc.refs[i]->size);
	}
	/*
	 * Field variables, action tracking variables and save() variables
	 * follow here once the inter-event layer creates them.
	 */
}

/**
 * khist_hist_debug_show() - the `hist_debug` file of an event
 * @m:  where it goes
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0.
 */
int khist_hist_debug_show(struct seq_file *m, struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t;
	unsigned int n = 0;

	if (!et)
		return 0;
	list_for_each_entry(t, &et->list, list) {
		if (khist_is_hist(t))
			khist_hist_debug_one(m, khist_to_hist(t), n++);
	}
	return 0;
}
