// SPDX-License-Identifier: GPL-2.0
/*
 * inter_ref.c - variable references between hist triggers (see inter.h):
 * finding the variable a $name means, the reference slots of a trigger,
 * and filling them on a hit.
 *
 * Lookup rules (the kernel's): a qualified sys.event.$v is looked up on
 * that event only; an unqualified $v first on the events the trigger's
 * onmatch() handlers name, then on every event of the instance, where it
 * must be defined on one event only. On an event the first hist trigger,
 * in list order, that defines the variable wins.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "inter.h"

/**
 * khist_inter_type() - the type text of a bound field, as the kernel's
 * hist fields carry it (hist_debug, synthetic event type checks)
 * @in: the inter-event state of its trigger (for references), or NULL
 * @f:  the field
 *
 * Context: any.
 * Return: a static or schema string.
 */
const char *khist_inter_type(const struct khist_inter *in,
			     const struct khist_bfield *f)
{
	if ((f->flags & (KHIST_HF_EXECNAME | KHIST_HF_STRING)) ==
	    (KHIST_HF_EXECNAME | KHIST_HF_STRING))
		return "char[]";
	switch (f->kind) {
	case KHIST_BF_FIELD:
		return f->field ? f->field->type : "u64";
	case KHIST_BF_CPU:
		return "unsigned int";
	case KHIST_BF_STACK:
		return f->field ? f->field->type : "unsigned long[]";
	case KHIST_BF_VARREF:
		if (in && f->ref_idx < in->n_refs)
			return in->refs[f->ref_idx].var.type;
		return "u64";
	case KHIST_BF_UMINUS:
	case KHIST_BF_BINOP:
		return khist_inter_type(in, f->l);
	default:
		return "u64";
	}
}

/*
 * The sign the kernel's hist field has: a reference carries its
 * variable's, an expression its left operand's.
 */
static u8 khist_inter_signed(const struct khist_inter *in,
			     const struct khist_bfield *f)
{
	switch (f->kind) {
	case KHIST_BF_VARREF:
		if (in && f->ref_idx < in->n_refs)
			return in->refs[f->ref_idx].var.is_signed;
		return f->is_signed;
	case KHIST_BF_UMINUS:
	case KHIST_BF_BINOP:
		return khist_inter_signed(in, f->l);
	default:
		return f->is_signed;
	}
}

/**
 * khist_inter_var_from_bf() - describe a variable from its definition
 * @v:  filled: name, type, size, sign and flags (@v->hd, @v->idx and
 *      @v->str_idx are left to the caller)
 * @in: the inter-event state of the defining trigger (for aliases), or
 *      NULL
 * @f:  the variable's tree (KHIST_HF_VAR set)
 *
 * An alias takes what its reference carries (the kernel copies it).
 *
 * Context: any.
 */
void khist_inter_var_from_bf(struct khist_ivar *v, const struct khist_inter *in,
			     const struct khist_bfield *f)
{
	const struct khist_iref *r = NULL;

	v->name = f->var_name;
	v->type = khist_inter_type(in, f);
	v->size = f->size;
	v->is_signed = khist_inter_signed(in, f);
	v->flags = f->flags &
		   (KHIST_HF_USECS | KHIST_HF_TIMESTAMP | KHIST_HF_STRING |
		    KHIST_HF_STACKTRACE | KHIST_HF_CONST);
	v->constant = f->constant;
	if (f->kind == KHIST_BF_VARREF && in && f->ref_idx < in->n_refs)
		r = &in->refs[f->ref_idx];
	if (r) {
		v->type = r->var.type;
		v->size = r->var.size;
		v->is_signed = r->var.is_signed;
		v->flags = r->var.flags &
			   (KHIST_HF_USECS | KHIST_HF_TIMESTAMP |
			    KHIST_HF_STACKTRACE | KHIST_HF_STRING);
	}
}

/* The variable @name of the hist triggers on @ev, first one wins. */
static bool khist_ev_find_var(struct khist_event *ev, const char *name,
			      struct khist_ivar *out)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t;
	unsigned int i;

	if (!et)
		return false;
	list_for_each_entry(t, &et->list, list) {
		struct khist_hist_trigger *ht;
		struct khist_hist_spec *sp;

		if (!khist_is_hist(t))
			continue;
		ht = khist_to_hist(t);
		sp = ht->spec;
		for (i = 0; i < sp->n_vars; i++) {
			const struct khist_hvar *hv = &sp->vars[i];

			if (strcmp(hv->name, name))
				continue;
			khist_inter_var_from_bf(out, ht->hd->inter, hv->f);
			out->hd = ht->hd;
			out->idx = i;
			out->str_idx = hv->str_idx;
			return true;
		}
	}
	return false;
}

/**
 * khist_inter_ev_defines() - does a hist trigger on @ev define @name?
 * @ev:   the event
 * @name: variable name
 *
 * Context: process context, khist_event_mutex held.
 * Return: true if one does.
 */
bool khist_inter_ev_defines(struct khist_event *ev, const char *name)
{
	struct khist_ivar v;

	return khist_ev_find_var(ev, name, &v);
}

/**
 * khist_inter_lookup() - the variable a reference names
 * @sc:    the scope of the trigger being created
 * @sys:   qualifying system, or "" / NULL
 * @event: qualifying event (with @sys)
 * @var:   variable name, without '$'
 * @out:   the variable found
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, -ENOENT, or -ENOTUNIQ when an unqualified name is defined on
 * several events.
 */
int khist_inter_lookup(const struct khist_inter_scope *sc, const char *sys,
		       const char *event, const char *var,
		       struct khist_ivar *out)
{
	struct khist_event *ev, *found = NULL;
	struct khist_ivar v;
	unsigned int i;
	bool hit = false;

	if (sys && *sys) {
		ev = khist_event_find_in(sc->inst, sys, event);
		return ev && khist_ev_find_var(ev, var, out) ? 0 : -ENOENT;
	}
	for (i = 0; sc->cmd && i < sc->cmd->n_actions; i++) {
		const struct khist_action *a = &sc->cmd->actions[i];
		char msys[64], mev[64];

		if (a->handler != KHIST_HANDLER_ONMATCH ||
		    a->sys.len >= sizeof(msys) || a->event.len >= sizeof(mev))
			continue;
		memcpy(msys, sc->cmd->work + a->sys.pos, a->sys.len);
		msys[a->sys.len] = '\0';
		memcpy(mev, sc->cmd->work + a->event.pos, a->event.len);
		mev[a->event.len] = '\0';
		ev = khist_event_find_in(sc->inst, msys, mev);
		if (!ev || !khist_ev_find_var(ev, var, &v))
			continue;
		if (hit)
			return -ENOTUNIQ;
		hit = true;
		*out = v;
	}
	if (hit)
		return 0;
	list_for_each_entry(ev, &sc->inst->events, list) {
		if (!ev->trigger_data || !khist_ev_find_var(ev, var, &v))
			continue;
		if (found)
			return -ENOTUNIQ;
		found = ev;
		*out = v;
	}
	return found ? 0 : -ENOENT;
}

/**
 * khist_inter_bind_find_var() - struct khist_bind_ops.find_var
 * @ctx:   a struct khist_inter_scope
 * @sys:   qualifying system or ""
 * @event: qualifying event or ""
 * @var:   variable name
 * @info:  what the binder needs to know about it
 *
 * Context: process context, khist_event_mutex held.
 * Return: as khist_inter_lookup().
 */
int khist_inter_bind_find_var(void *ctx, const char *sys, const char *event,
			      const char *var, struct khist_var_info *info)
{
	struct khist_ivar v;
	int ret;

	ret = khist_inter_lookup(ctx, sys, event, var, &v);
	if (ret)
		return ret;
	info->usecs = !!(v.flags & KHIST_HF_USECS);
	info->is_const = !!(v.flags & KHIST_HF_CONST);
	info->constant = v.constant;
	info->is_string = !!(v.flags & KHIST_HF_STRING);
	info->size = v.size;
	return 0;
}

/**
 * khist_inter_own_var() - a variable defined by the trigger being created
 * @sp:   its spec
 * @name: variable name
 * @out:  the variable (@out->hd NULL: this trigger)
 *
 * Context: process context.
 * Return: true if it defines @name.
 */
bool khist_inter_own_var(const struct khist_hist_spec *sp, const char *name,
			 struct khist_ivar *out)
{
	unsigned int i;

	for (i = 0; i < sp->n_vars; i++) {
		if (strcmp(sp->vars[i].name, name))
			continue;
		out->hd = NULL;
		out->idx = i;
		out->str_idx = sp->vars[i].str_idx;
		return true;
	}
	return false;
}

/**
 * khist_inter_ref_add() - the reference slot of a variable, made on
 * first use (the kernel's create_var_ref())
 * @ic:    the trigger being created
 * @v:     the variable
 * @sys:   qualifier as written, or NULL
 * @event: qualifier as written, or NULL
 *
 * Context: process context.
 * Return: the slot, or -E2BIG when every slot is taken, -ENOMEM.
 */
int khist_inter_ref_add(struct khist_inter_ctx *ic, const struct khist_ivar *v,
			const char *sys, const char *event)
{
	struct khist_inter *in = ic->in;
	struct khist_iref *r;
	unsigned int i;

	for (i = 0; i < in->n_refs; i++)
		if (in->refs[i].var.hd == v->hd &&
		    in->refs[i].var.idx == v->idx)
			return i;
	if (in->n_refs >= KHIST_INTER_REFS_MAX)
		return -E2BIG;
	r = &in->refs[in->n_refs];
	r->var = *v;
	if (sys) {
		r->sys = khist_arena_strndup(&ic->sp->arena, sys, strlen(sys));
		r->event = khist_arena_strndup(&ic->sp->arena, event,
					       strlen(event));
		if (!r->sys || !r->event)
			return -ENOMEM;
	}
	if (v->hd) {
		/*
		 * The name and type live in the other trigger's spec or its
		 * event's fields, which may go before this trigger does.
		 */
		r->var.name = khist_arena_strndup(&ic->sp->arena, v->name,
						  strlen(v->name));
		r->var.type = khist_arena_strndup(&ic->sp->arena, v->type,
						  strlen(v->type));
		if (!r->var.name || !r->var.type)
			return -ENOMEM;
		in->n_ext++;
		in->ext_key = max(in->ext_key, v->hd->spec->key_size);
	}
	return in->n_refs++;
}

/* Give every reference node of @f its slot; @operand: under an operator. */
static int khist_refs_walk(struct khist_inter_ctx *ic, struct khist_bfield *f,
			   bool operand)
{
	struct khist_ivar v;
	int ret;

	if (!f)
		return 0;
	if (f->kind == KHIST_BF_BINOP) {
		ret = khist_refs_walk(ic, f->l, true);
		return ret ? ret : khist_refs_walk(ic, f->r, true);
	}
	if (f->kind == KHIST_BF_UMINUS)
		return khist_refs_walk(ic, f->l, false);
	if (f->kind != KHIST_BF_VARREF)
		return 0;
	if (f->flags & KHIST_HF_ALIAS) {
		ret = khist_refs_walk(ic, f->l, false);
		f->ref_idx = f->l->ref_idx;
		return ret;
	}
	ret = khist_inter_lookup(&ic->scope, f->ref_sys, f->ref_event,
				 f->ref_var, &v);
	if (ret)
		return -EINVAL;
	ret = khist_inter_ref_add(ic, &v, f->ref_qualified ? f->ref_sys : NULL,
				  f->ref_qualified ? f->ref_event : NULL);
	if (ret < 0)
		return ret;
	f->ref_idx = ret;
	if (operand)
		ic->in->refs[ret].read_once = 1;
	return 0;
}

/**
 * khist_inter_refs_from_spec() - reference slots for the $names of the
 * values and variables, in the kernel's order (values, then variables;
 * left operand first)
 * @ic: the trigger being created
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno.
 */
int khist_inter_refs_from_spec(struct khist_inter_ctx *ic)
{
	struct khist_hist_spec *sp = ic->sp;
	unsigned int i;
	int ret;

	for (i = 1; i < sp->n_vals; i++) {
		ret = khist_refs_walk(ic, sp->vals[i], false);
		if (ret)
			return ret;
	}
	for (i = 0; i < sp->n_vars; i++) {
		ret = khist_refs_walk(ic, sp->vars[i].f, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* A variable's value as references pass it: strings as a pointer. */
static u64 khist_ref_read(const struct khist_ivar *v,
			  struct khist_hist_data *hd, struct khist_map_elt *elt)
{
	if (v->str_idx >= 0)
		return (u64)(uintptr_t)khist_hist_var_str(hd, elt, v->str_idx);
	return khist_map_get_var(elt, v->idx);
}

/**
 * khist_inter_resolve() - fill the slots of other triggers' variables
 * @in:       the state
 * @key:      this hit's key, in a buffer of KHIST_KEY_SIZE_MAX bytes
 * @key_size: bytes of it in use (the rest is zeroed up to the largest
 *            key size looked up)
 * @vals:     the slots' values
 *
 * Each variable is read from the entry of its trigger's map that has this
 * hit's key. A reference used as an operand unsets the variable it reads.
 *
 * Context: any, NMI included.
 * Return: false when an entry or a variable is missing (the hit is then
 * dropped for this trigger).
 */
bool khist_inter_resolve(struct khist_inter *in, u8 *key, unsigned int key_size,
			 u64 *vals)
{
	struct khist_map_elt *elt;
	unsigned int i;

	if (READ_ONCE(in->dead))
		return false;
	if (in->ext_key > key_size)
		memset(key + key_size, 0, in->ext_key - key_size);
	for (i = 0; i < in->n_refs; i++) {
		const struct khist_iref *r = &in->refs[i];
		struct khist_hist_data *hd = r->var.hd;

		if (!hd)
			continue;
		elt = khist_hist_lookup(hd, key);
		if (!elt || !khist_map_var_is_set(elt, r->var.idx))
			return false;
		vals[i] = khist_ref_read(&r->var, hd, elt);
		if (r->read_once)
			khist_map_unset_var(elt, r->var.idx);
	}
	return true;
}

/**
 * khist_inter_resolve_self() - fill the slots of the trigger's own
 * variables from the entry just updated
 * @in:   the state
 * @elt:  the entry
 * @vals: the slots' values
 *
 * Context: any, NMI included.
 * Return: false when one of them is not set.
 */
bool khist_inter_resolve_self(struct khist_inter *in, struct khist_map_elt *elt,
			      u64 *vals)
{
	unsigned int i;

	for (i = 0; i < in->n_refs; i++) {
		const struct khist_iref *r = &in->refs[i];

		if (r->var.hd)
			continue;
		if (!khist_map_var_is_set(elt, r->var.idx))
			return false;
		vals[i] = khist_ref_read(&r->var, in->hd, elt);
	}
	return true;
}

/**
 * khist_inter_ref_value() - struct khist_eval_ctx.ref: a reference's value
 * @c: the context; @c->ref_arg is the slots' values
 * @f: a reference node
 *
 * Context: any, NMI included.
 * Return: the value in the node's slot.
 */
u64 khist_inter_ref_value(const struct khist_eval_ctx *c,
			  const struct khist_bfield *f)
{
	return ((const u64 *)c->ref_arg)[f->ref_idx];
}

/**
 * khist_inter_log() - log an error of the trigger being created
 * @ic:   the trigger
 * @code: enum khist_hist_errcode
 * @what: the text the caret points at (its first occurrence in the
 *        command, as the kernel places it), or NULL for position 0
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_inter_log(struct khist_inter_ctx *ic, unsigned int code,
		     const char *what)
{
	const char *p;

	if (!ic->ecmd)
		return;
	p = what && *what ? strstr(ic->ecmd, what) : NULL;
	khist_hist_log(ic->ev, ic->ecmd, code, p ? p - ic->ecmd : 0);
}
