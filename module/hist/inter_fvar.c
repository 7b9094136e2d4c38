// SPDX-License-Identifier: GPL-2.0
/*
 * inter_fvar.c - field variables: a field passed to an action (or saved
 * by save()) is kept in a hidden variable of the trigger's map, updated
 * on every hit (save(): when the handler fires). A field of another event
 * is kept by a hidden hist trigger on that event, which the kernel names
 * synthetic_<field> and keys like a hist already there (see inter.h).
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "hist.h"
#include "inter.h"
#include "core/hist_print.h"

/* Only a field name with at most one modifier can be a field variable. */
static bool khist_fvar_text_ok(const char *s)
{
	if (!*s || *s == '$')
		return false;
	for (; *s; s++)
		if (!isalnum(*s) && *s != '_' && *s != '.' && *s != '-' &&
		    *s != '=')
			return false;
	return true;
}

/*
 * Bind @field against @ev the way a variable definition is bound: a
 * one-variable command compiled on its own. Returns its spec, or NULL
 * with @err set.
 */
static struct khist_hist_spec *khist_fvar_bind(struct khist_event *ev,
					       const char *field,
					       struct khist_hist_err *err)
{
	struct khist_hist_spec *sp = NULL;
	char *text;
	int ret;

	memset(err, 0, sizeof(*err));
	if (!khist_fvar_text_ok(field)) {
		khist_hist_err_add(err, KHIST_HERR_FIELD_NOT_FOUND, 0);
		return NULL;
	}
	text = kasprintf(GFP_KERNEL, "hist:keys=common_pid:__khist_fv=%s",
			 field);
	if (!text)
		return NULL;
	ret = khist_hist_compile(text, strlen(text), &ev->schema, NULL, &sp,
				 err);
	kfree(text);
	if (ret || !sp->n_vars) {
		khist_hist_spec_free(sp);
		return NULL;
	}
	return sp;
}

/* Is @name a variable of the trigger being created or of @ev's hists? */
static bool khist_fvar_taken(struct khist_inter_ctx *ic, const char *name)
{
	struct khist_ivar v;

	return khist_inter_own_var(ic->sp, name, &v) ||
	       khist_inter_ev_defines(ic->ev, name);
}

/**
 * khist_inter_field_var() - a hidden variable for a field of the trigger's
 * own event (the kernel's create_field_var())
 * @ic:    the trigger being created
 * @field: the field, as written (may carry a modifier)
 * @save:  for save(): kept in the save variables
 * @out:   the field variable made
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, or -EINVAL or -ENOSPC (logged), -ENOMEM.
 */
int khist_inter_field_var(struct khist_inter_ctx *ic, const char *field,
			  bool save, struct khist_ifvar **out)
{
	struct khist_inter *in = ic->in;
	unsigned int *n = save ? &in->n_save : &in->n_fvars;
	struct khist_ifvar *fv;
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	const struct khist_bfield *val;

	if (*n >= KHIST_INTER_FVARS_MAX) {
		khist_inter_log(ic, KHIST_HERR_TOO_MANY_FIELD_VARS, field);
		return -EINVAL;
	}
	sp = khist_fvar_bind(ic->ev, field, &err);
	if (!sp) {
		if (!err.n)
			return -ENOMEM;
		/* The parser's own complaint, then the kernel's second line. */
		khist_inter_log(ic, err.e[0].code, field);
		khist_inter_log(ic, KHIST_HERR_FIELD_VAR_PARSE_FAIL, field);
		return -EINVAL;
	}
	if (khist_hist_spec_charge(sp)) {
		khist_hist_spec_free(sp);
		khist_inter_log(ic, KHIST_HERR_MEM_LIMIT, field);
		return -ENOSPC;
	}
	val = sp->vars[0].f;
	if (khist_fvar_taken(ic, field) || in->n_vars >= KHIST_MAP_VARS_MAX) {
		khist_hist_spec_put(sp);
		khist_inter_log(ic, KHIST_HERR_VAR_CREATE_FIND_FAIL, field);
		return -EINVAL;
	}
	fv = (save ? in->save : in->fvars) + *n;
	memset(fv, 0, sizeof(*fv));
	fv->spec = sp;
	fv->val = val;
	fv->var.name =
		khist_arena_strndup(&ic->sp->arena, field, strlen(field));
	if (!fv->var.name) {
		khist_hist_spec_put(sp);
		return -ENOMEM;
	}
	fv->var.idx = in->n_vars++;
	fv->var.str_idx = -1;
	if (val->flags & (KHIST_HF_STRING | KHIST_HF_STACKTRACE))
		fv->var.str_idx = in->n_str++;
	/* The kernel's variable keeps the value's type and size only. */
	fv->var.type = khist_inter_type(NULL, val);
	fv->var.size = val->size;
	fv->var.is_signed = 0;
	fv->var.flags = val->flags & KHIST_HF_STACKTRACE;
	(*n)++;
	*out = fv;
	return 0;
}

/* Same types, sizes and signs for every key (the kernel's compatible_keys). */
static bool khist_keys_compatible(const struct khist_hist_spec *a,
				  const struct khist_hist_spec *b)
{
	unsigned int i;

	if (a->n_keys != b->n_keys)
		return false;
	for (i = 0; i < a->n_keys; i++) {
		const struct khist_hkey *ka = &a->keys[i], *kb = &b->keys[i];

		if (strcmp(khist_inter_type(NULL, ka->f),
			   khist_inter_type(NULL, kb->f)) ||
		    ka->size != kb->size ||
		    ka->f->is_signed != kb->f->is_signed)
			return false;
	}
	return true;
}

/* The first hist trigger on @ev keyed like @sp, or NULL. */
static struct khist_hist_trigger *
khist_compatible_hist(struct khist_event *ev, struct khist_hist_spec *sp)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t;

	if (!et)
		return NULL;
	list_for_each_entry(t, &et->list, list)
		if (khist_is_hist(t) &&
		    khist_keys_compatible(sp, khist_to_hist(t)->spec))
			return khist_to_hist(t);
	return NULL;
}

/* "hist:keys=<keys of @ht>:synthetic_<field>=<field>[ if <filter>]" */
static char *khist_hidden_cmd(struct khist_hist_trigger *ht, const char *field)
{
	struct khist_hist_spec *sp = ht->spec;
	struct khist_out s = { NULL, 0, 0 };
	unsigned int i, pass;
	char *buf = NULL;

	for (pass = 0; pass < 2; pass++) {
		khist_out_puts(&s, "hist:keys=");
		for (i = 0; i < sp->n_keys; i++) {
			if (i)
				khist_out_puts(&s, ",");
			khist_bfield_print(&s, sp->keys[i].f);
		}
		khist_out_puts(&s, ":synthetic_");
		khist_out_puts(&s, field);
		khist_out_puts(&s, "=");
		khist_out_puts(&s, field);
		if (ht->base.filter_str) {
			khist_out_puts(&s, " if ");
			khist_out_puts(&s, ht->base.filter_str);
		}
		if (pass)
			break;
		buf = kmalloc(s.len + 1, GFP_KERNEL);
		if (!buf)
			return NULL;
		s.buf = buf;
		s.size = s.len + 1;
		s.len = 0;
	}
	return buf;
}

/**
 * khist_inter_other_field_var() - a field of another event, kept by a
 * hidden hist trigger there (the kernel's create_field_var_hist())
 * @ic:    the trigger being created
 * @sys:   the other event's system
 * @event: the other event
 * @field: the field
 * @out:   the variable holding it (synthetic_<field> of the hidden hist)
 *
 * An existing synthetic_<field> variable on that event is reused.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, or -EINVAL (logged), -E2BIG, -ENOMEM.
 */
int khist_inter_other_field_var(struct khist_inter_ctx *ic, const char *sys,
				const char *event, const char *field,
				struct khist_ivar *out)
{
	struct khist_hist_relog rl = { ic->ev, ic->ecmd };
	struct khist_inter *in = ic->in;
	struct khist_hist_trigger *cht;
	struct khist_ihidden *hid;
	struct khist_event *tev;
	char *name, *cmd;
	int ret;

	if (in->n_hidden >= KHIST_INTER_HIDDEN_MAX) {
		khist_inter_log(ic, KHIST_HERR_TOO_MANY_FIELD_VARS, field);
		return -EINVAL;
	}
	tev = khist_event_find_in(ic->scope.inst, sys, event);
	if (!tev) {
		khist_inter_log(ic, KHIST_HERR_EVENT_FILE_NOT_FOUND, field);
		return -EINVAL;
	}
	cht = khist_compatible_hist(tev, ic->sp);
	if (!cht) {
		khist_inter_log(ic, KHIST_HERR_HIST_NOT_FOUND, field);
		return -EINVAL;
	}
	name = kasprintf(GFP_KERNEL, "synthetic_%s", field);
	if (!name)
		return -ENOMEM;
	if (strlen(name) >= KHIST_STR_MAX) {
		kfree(name);
		return -E2BIG;
	}
	if (!khist_inter_lookup(&ic->scope, sys, event, name, out)) {
		kfree(name);
		return 0;
	}
	cmd = khist_hidden_cmd(cht, field);
	if (!cmd) {
		kfree(name);
		return -ENOMEM;
	}
	ret = khist_hist_cmd_internal(tev, cmd, &rl);
	if (ret) {
		kfree(cmd);
		kfree(name);
		khist_inter_log(ic, KHIST_HERR_HIST_CREATE_FAIL, field);
		return ret;
	}
	ret = khist_inter_lookup(&ic->scope, sys, event, name, out);
	kfree(name);
	hid = &in->hidden[in->n_hidden++];
	hid->ev = tev;
	hid->cmd = cmd;
	hid->hd = ret ? NULL : out->hd;
	if (ret) {
		khist_inter_log(ic, KHIST_HERR_SYNTH_VAR_NOT_FOUND, field);
		return -EINVAL;
	}
	return 0;
}

/**
 * khist_inter_hidden_remove() - remove the hidden hist triggers made for
 * this trigger (it must no longer be listed as a referrer)
 * @in: the state
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_hidden_remove(struct khist_inter *in)
{
	unsigned int i;
	char *text;

	for (i = 0; i < in->n_hidden; i++) {
		struct khist_ihidden *hid = &in->hidden[i];

		if (!hid->hd)
			continue;
		hid->hd = NULL;
		text = kasprintf(GFP_KERNEL, "!%s", hid->cmd);
		if (text)
			khist_hist_cmd_internal(hid->ev, text, NULL);
		kfree(text);
	}
}

/**
 * khist_inter_fvars_free() - free field variables
 * @fv: the array (may be NULL)
 * @n:  entries in use
 *
 * Context: process context.
 */
void khist_inter_fvars_free(struct khist_ifvar *fv, unsigned int n)
{
	unsigned int i;

	if (!fv)
		return;
	for (i = 0; i < n; i++)
		khist_hist_spec_put(fv[i].spec);
	kfree(fv);
}

/* Copy a string value into a string slot, NUL-terminated. */
static void khist_fvar_store_str(char *slot, const char *s, unsigned int max)
{
	unsigned int n;

	max = min_t(unsigned int, max, KHIST_STR_SLOT - 1);
	for (n = 0; n < max && s[n]; n++)
		slot[n] = s[n];
	slot[n] = '\0';
}

/**
 * khist_inter_fvars_update() - store field variables from a record
 * @in:  the state
 * @fv:  the variables (field or save variables)
 * @n:   how many
 * @hd:  the trigger's data
 * @elt: the entry
 * @c:   the record
 *
 * Context: any, NMI included.
 */
void khist_inter_fvars_update(struct khist_inter *in, struct khist_ifvar *fv,
			      unsigned int n, struct khist_hist_data *hd,
			      struct khist_map_elt *elt,
			      const struct khist_eval_ctx *c)
{
	struct khist_eval_ctx cc = *c;
	unsigned int i, max;
	const char *s;
	char *slot;

	if (!cc.comm)
		cc.comm = current->pid ? current->comm : "<idle>";
	for (i = 0; i < n; i++) {
		const struct khist_ifvar *f = &fv[i];

		if (f->var.str_idx < 0) {
			khist_map_set_var(elt, f->var.idx,
					  khist_hist_eval(f->val, &cc));
			continue;
		}
		slot = khist_hist_var_str(hd, elt, f->var.str_idx);
		if (f->val->flags & KHIST_HF_STACKTRACE) {
			khist_hist_eval_stack(f->val, &cc,
					      (unsigned long *)slot);
		} else {
			s = khist_hist_eval_str(f->val, &cc, &max);
			khist_fvar_store_str(slot, s, max);
		}
		khist_map_set_var(elt, f->var.idx, f->var.str_idx);
	}
}
