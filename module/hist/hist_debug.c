// SPDX-License-Identifier: GPL-2.0
/*
 * hist_debug.c - the `hist_debug` file: for each hist trigger of the event
 * the layout of its fields as Linux 6.12's CONFIG_HIST_TRIGGERS_DEBUG
 * prints it (Documentation/trace/histogram-design.rst): the values with
 * hitcount first, then the variables, then the keys, each with its flags,
 * field, variable index, type, size and sign; then the inter-event
 * sections (inter_debug.c). The data pointer is printed with %p, hashed.
 */
#include <linux/seq_file.h>
#include "hist.h"
#include "inter.h"

/**
 * khist_dbg() - one `hist_debug` line, indented
 * @m:      where it goes
 * @indent: spaces before it
 * @fmt:    printf format of the rest
 *
 * Context: process context.
 */
void khist_dbg(struct seq_file *m, unsigned int indent, const char *fmt, ...)
{
	va_list ap;

	seq_printf(m, "%*s", indent, "");
	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

/**
 * khist_debug_field() - one field block of `hist_debug`
 * @m: where it goes
 * @d: what to print
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_debug_field(struct seq_file *m, const struct khist_dbg_field *d)
{
	static const struct {
		u32 flag;
		const char *text;
	} first[] = {
		{ KHIST_HF_KEY, "HIST_FIELD_FL_KEY" },
		{ KHIST_HF_HITCOUNT, "VAL: HIST_FIELD_FL_HITCOUNT" },
		{ KHIST_HF_VAR, "HIST_FIELD_FL_VAR" },
		{ KHIST_HF_VARREF, "HIST_FIELD_FL_VAR_REF" },
	};
	const char *fl1 = "VAL: normal u64 value";
	u32 fl = d->flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(first); i++) {
		if (fl & first[i].flag) {
			fl1 = first[i].text;
			break;
		}
	}
	khist_dbg(m, 6, "flags:\n");
	khist_dbg(m, 8, "%s\n", fl1);
	if (fl & KHIST_HF_ALIAS)
		khist_dbg(m, 8, "HIST_FIELD_FL_ALIAS\n");
	else if (fl & KHIST_HF_CONST)
		khist_dbg(m, 8, "HIST_FIELD_FL_CONST\n");
	if (d->field)
		khist_dbg(m, 6, "ftrace_event_field name: %s\n", d->field);
	if (fl & KHIST_HF_VAR) {
		khist_dbg(m, 6, "var.name: %s\n", d->var_name);
		khist_dbg(m, 6, "var.idx (into tracing_map_elt.vars[]): %u\n",
			  d->var_idx);
	}
	if (fl & KHIST_HF_CONST)
		khist_dbg(m, 6, "constant: %llu\n", d->constant);
	if (fl & KHIST_HF_ALIAS)
		khist_dbg(m, 6,
			  "var_ref_idx (into hist_data->var_refs[]): %u\n",
			  d->ref_idx);
	if ((fl & KHIST_HF_VARREF) && d->ref) {
		khist_dbg(m, 6, "name: %s\n", d->ref->var.name);
		khist_dbg(m, 6, "var.idx (into tracing_map_elt.vars[]): %u\n",
			  d->ref->var.idx);
		khist_dbg(m, 6, "var.hist_data: %p\n", d->ref_hd);
		khist_dbg(m, 6,
			  "var_ref_idx (into hist_data->var_refs[]): %u\n",
			  d->ref_idx);
		if (d->ref->sys) {
			khist_dbg(m, 6, "system: %s\n", d->ref->sys);
			khist_dbg(m, 6, "event_name: %s\n", d->ref->event);
		}
	}
	khist_dbg(m, 6, "type: %s\n", d->type);
	khist_dbg(m, 6, "size: %u\n", d->size);
	khist_dbg(m, 6, "is_signed: %u\n", d->is_signed);
	/* khist extension: a .log2=k key (no such line for ftrace's .log2) */
	if (d->log2_sub)
		khist_dbg(m, 6, "log2 sub-bucket bits: %u\n", d->log2_sub);
}

/**
 * khist_debug_ref() - describe reference slot @i for khist_debug_field()
 * @d:  filled
 * @hd: the data whose state holds the slot (hd->inter set)
 * @i:  the slot
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_debug_ref(struct khist_dbg_field *d, struct khist_hist_data *hd,
		     unsigned int i)
{
	const struct khist_iref *r = &hd->inter->refs[i];

	memset(d, 0, sizeof(*d));
	d->flags = KHIST_HF_VARREF;
	d->ref = r;
	d->ref_idx = i;
	d->ref_hd = r->var.hd ? r->var.hd : hd;
	d->type = r->var.type;
	d->size = r->var.size;
	d->is_signed = r->var.is_signed;
}

/* A value, variable or key of the trigger's spec. */
static void khist_debug_bf(struct khist_dbg_field *d,
			   struct khist_hist_data *hd,
			   const struct khist_bfield *f)
{
	const struct khist_inter *in = hd->inter;
	struct khist_ivar v;

	if ((f->flags & KHIST_HF_VARREF) && !(f->flags & KHIST_HF_ALIAS) &&
	    in && f->ref_idx < in->n_refs) {
		khist_debug_ref(d, hd, f->ref_idx);
		d->flags |= f->flags;
		return;
	}
	memset(d, 0, sizeof(*d));
	d->flags = f->flags;
	if ((f->kind == KHIST_BF_FIELD || f->kind == KHIST_BF_STACK) &&
	    f->field)
		d->field = f->field->name;
	d->var_name = f->var_name;
	d->constant = f->constant;
	d->ref_idx = f->ref_idx;
	khist_inter_var_from_bf(&v, in, f);
	d->type = v.type;
	d->size = v.size;
	d->is_signed = v.is_signed;
	if ((f->flags & KHIST_HF_LOG2) && f->buckets)
		d->log2_sub = f->buckets;
}

static void khist_debug_one(struct seq_file *m, struct khist_hist_trigger *ht,
			    unsigned int n)
{
	struct khist_hist_data *hd = ht->hd;
	const struct khist_hist_spec *sp = hd->spec;
	unsigned int n_vals = sp->n_vals + sp->n_vars, i, fi;
	struct khist_dbg_field d;

	if (n)
		seq_puts(m, "\n\n");
	/* The header of the `hist` file's tables. */
	seq_puts(m, "# event histogram\n#\n");
	seq_puts(m, "# trigger info: ");
	ht->base.type->print(m, &ht->base);
	seq_puts(m, "#\n\n");
	seq_printf(m, "hist_data: %p\n\n", hd);
	khist_dbg(m, 2, "n_vals: %u\n", n_vals);
	khist_dbg(m, 2, "n_keys: %u\n", sp->n_keys);
	khist_dbg(m, 2, "n_fields: %u\n", n_vals + sp->n_keys);
	khist_dbg(m, 0, "\n%*sval fields:\n\n", 2, "");
	khist_dbg(m, 4, "hist_data->fields[0]:\n");
	khist_debug_bf(&d, hd, sp->vals[0]);
	khist_debug_field(m, &d);
	fi = 1;
	for (i = 1; i < sp->n_vals; i++, fi++) {
		khist_dbg(m, 0, "\n%*shist_data->fields[%u]:\n", 4, "", fi);
		khist_debug_bf(&d, hd, sp->vals[i]);
		khist_debug_field(m, &d);
	}
	for (i = 0; i < sp->n_vars; i++, fi++) {
		khist_dbg(m, 0, "\n%*shist_data->fields[%u]:\n", 4, "", fi);
		khist_debug_bf(&d, hd, sp->vars[i].f);
		d.var_idx = i;
		khist_debug_field(m, &d);
	}
	khist_dbg(m, 0, "\n%*skey fields:\n", 2, "");
	for (i = 0; i < sp->n_keys; i++, fi++) {
		khist_dbg(m, 0, "\n%*shist_data->fields[%u]:\n", 4, "", fi);
		khist_debug_bf(&d, hd, sp->keys[i].f);
		/* Key sizes are the 8-byte aligned slots. */
		d.size = sp->keys[i].size;
		khist_debug_field(m, &d);
	}
	if (hd->inter)
		khist_inter_debug_show(m, hd);
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
	list_for_each_entry(t, &et->list, list)
		if (khist_is_hist(t))
			khist_debug_one(m, khist_to_hist(t), n++);
	return 0;
}
