// SPDX-License-Identifier: GPL-2.0
/*
 * action_create.c - turning the handler.action tokens of a new hist
 * trigger into runnable actions (see inter.h): the synthetic event and
 * the reference slot of each trace() parameter, with the kernel's type
 * check and error texts; the tracked variable and the hidden
 * __max/__change variable of onmax()/onchange(); save() variables.
 *
 * Order and errors follow the kernel's create_actions(): handlers in the
 * order written, parameters left to right, the first failure stops.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "core/trigger_parse.h"
#include "inter.h"
#include "synth/synth.h"

/* A span of the command as a string in the spec's arena. */
static char *khist_span_dup(struct khist_inter_ctx *ic, struct khist_span s)
{
	return khist_arena_strndup(&ic->sp->arena, ic->sp->cmd->work + s.pos,
				   s.len);
}

/* Is sys.event the trigger's own event? */
static bool khist_is_own(struct khist_inter_ctx *ic, const char *sys,
			 const char *event)
{
	return !strcmp(sys, ic->ev->schema.system) &&
	       !strcmp(event, ic->ev->schema.name);
}

/* A $var parameter of trace(): this trigger's variables come first. */
static int khist_param_var(struct khist_inter_ctx *ic,
			   const struct khist_iaction *ia, const char *sys,
			   const char *event, const char *var,
			   struct khist_ivar *v)
{
	if ((!sys || khist_is_own(ic, sys, event)) &&
	    khist_inter_own_var(ic->sp, var, v)) {
		khist_inter_var_from_bf(v, ic->in, ic->sp->vars[v->idx].f);
		return 0;
	}
	if (!sys && ia->match_sys) {
		sys = ia->match_sys;
		event = ia->match_ev;
	}
	if (!khist_inter_lookup(&ic->scope, sys, event, var, v))
		return 0;
	khist_inter_log(ic, KHIST_HERR_PARAM_NOT_FOUND, var);
	return -EINVAL;
}

/* A field parameter of trace(): a field variable here or elsewhere. */
static int khist_param_field(struct khist_inter_ctx *ic,
			     const struct khist_iaction *ia, const char *sys,
			     const char *event, const char *field,
			     struct khist_ivar *v)
{
	struct khist_ifvar *fv;
	int ret;

	if (!sys || khist_is_own(ic, sys, event)) {
		ret = khist_inter_field_var(ic, field, false, &fv);
		if (!ret) {
			*v = fv->var;
			return 0;
		}
		if (ret == -ENOMEM || ret == -ENOSPC)
			return ret;
	}
	if (!sys && ia->match_sys) {
		sys = ia->match_sys;
		event = ia->match_ev;
	}
	if (!event)
		return -EINVAL;
	return khist_inter_other_field_var(ic, sys, event, field, v);
}

/* trace(synth, ...) / synth(...): the kernel's trace_action_create(). */
static int khist_trace_create(struct khist_inter_ctx *ic,
			      struct khist_iaction *ia)
{
	const struct khist_action *a = ia->a;
	const struct khist_synth_field *sf;
	unsigned int i, pos = 0, n_fields;
	struct khist_trig_span s_sys, s_event, s_name;
	char *name, *p, *sys, *event;
	struct khist_ivar v;
	int ret;

	name = khist_span_dup(ic, a->trace_kw ? a->synth : a->name);
	if (!name)
		return -ENOMEM;
	ia->se = khist_synth_get_locked(name);
	if (!ia->se) {
		khist_inter_log(ic, KHIST_HERR_SYNTH_EVENT_NOT_FOUND, name);
		return -EINVAL;
	}
	n_fields = khist_synth_nr_fields(ia->se);
	for (i = 0; i < a->n_params; i++) {
		p = khist_span_dup(ic, a->params[i]);
		if (!p)
			return -ENOMEM;
		sys = NULL;
		event = NULL;
		ret = khist_trigger_split_dotted(p, strlen(p), &s_sys, &s_event,
						 &s_name);
		/* "a.b": the kernel gives up without a word. */
		if (ret < 0)
			return ret;
		if (ret) {
			/* Cut the copy in place: "sys\0event\0name". */
			sys = p + s_sys.pos;
			sys[s_sys.len] = '\0';
			event = p + s_event.pos;
			event[s_event.len] = '\0';
			p += s_name.pos;
		}
		if (p[0] == '$')
			ret = khist_param_var(ic, ia, sys, event, p + 1, &v);
		else
			ret = khist_param_field(ic, ia, sys, event, p, &v);
		if (ret)
			return ret;
		sf = pos < n_fields ? khist_synth_field(ia->se, pos) : NULL;
		if (sf && sf->is_string &&
		    !khist_synth_type_is_string(v.type)) {
			khist_inter_log(ic, KHIST_HERR_SYNTH_NOT_STRING, p);
			return -EINVAL;
		}
		if (!sf ||
		    !khist_synth_param_ok(sf, v.type, v.size, v.is_signed,
					  v.flags & KHIST_HF_STACKTRACE)) {
			khist_inter_log(ic, KHIST_HERR_SYNTH_TYPE_MISMATCH, p);
			return -EINVAL;
		}
		ret = khist_inter_ref_add(ic, &v, sys, event);
		if (ret < 0)
			return ret == -E2BIG ? -ENOMEM : ret;
		ia->param_ref[pos++] = ret;
		if (sf->is_stack)
			ia->has_stack = true;
	}
	if (pos != n_fields) {
		khist_inter_log(ic, KHIST_HERR_SYNTH_COUNT_MISMATCH, name);
		return -EINVAL;
	}
	ia->n_params = pos;
	return 0;
}

/*
 * save(f1, ...): one hidden variable per field of this event. The binder
 * refused a second save() already (Can't have more than one ...).
 */
static int khist_save_create(struct khist_inter_ctx *ic,
			     struct khist_iaction *ia)
{
	const struct khist_action *a = ia->a;
	struct khist_ifvar *fv;
	unsigned int i;
	char *p;
	int ret;

	for (i = 0; i < a->n_params; i++) {
		p = khist_span_dup(ic, a->params[i]);
		if (!p)
			return -ENOMEM;
		ret = khist_inter_field_var(ic, p, true, &fv);
		if (ret == -ENOMEM || ret == -ENOSPC)
			return ret;
		if (ret) {
			khist_inter_log(ic, KHIST_HERR_FIELD_VAR_CREATE_FAIL,
					p);
			return ret;
		}
	}
	return 0;
}

/* onmax($v) / onchange($v): the tracked variable and its hidden twin. */
static int khist_track_create(struct khist_inter_ctx *ic,
			      struct khist_iaction *ia)
{
	const struct khist_action *a = ia->a;
	struct khist_inter *in = ic->in;
	const char *tname;
	struct khist_ivar v;
	char *var;
	int ret;

	var = khist_span_dup(ic, a->arg);
	if (!var)
		return -ENOMEM;
	if (var[0] != '$') {
		khist_inter_log(ic, KHIST_HERR_ONX_NOT_VAR, var);
		return -EINVAL;
	}
	if (!khist_inter_own_var(ic->sp, var + 1, &v)) {
		khist_inter_log(ic, KHIST_HERR_ONX_VAR_NOT_FOUND, var + 1);
		return -EINVAL;
	}
	khist_inter_var_from_bf(&v, in, ic->sp->vars[v.idx].f);
	ret = khist_inter_ref_add(ic, &v, NULL, NULL);
	if (ret < 0)
		return ret == -E2BIG ? -ENOMEM : ret;
	ia->track_ref = ret;
	tname = a->handler == KHIST_HANDLER_ONMAX ? "__max" : "__change";
	if (khist_inter_ev_defines(ic->ev, tname) ||
	    in->n_vars >= KHIST_MAP_VARS_MAX) {
		khist_inter_log(ic, KHIST_HERR_ONX_VAR_CREATE_FAIL, NULL);
		return -EINVAL;
	}
	ia->track.idx = in->n_vars++;
	ia->track.str_idx = -1;
	ia->track.name = tname;
	ia->track.type = "u64";
	ia->track.size = sizeof(u64);
	switch (a->action) {
	case KHIST_ACTION_SAVE:
		return khist_save_create(ic, ia);
	case KHIST_ACTION_SNAPSHOT:
		return khist_inter_snap_create(ic, ia, var);
	default:
		return khist_trace_create(ic, ia);
	}
}

/**
 * khist_inter_actions_create() - build every handler of a new trigger
 * @ic: the trigger being created
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, or -errno (logged where the kernel logs).
 */
int khist_inter_actions_create(struct khist_inter_ctx *ic)
{
	const struct khist_hist_cmd *cmd = ic->sp->cmd;
	struct khist_inter *in = ic->in;
	unsigned int i;
	int ret;

	for (i = 0; i < cmd->n_actions; i++) {
		const struct khist_action *a = &cmd->actions[i];
		struct khist_iaction *ia = &in->actions[i];

		ia->a = a;
		in->n_actions = i + 1;
		if (a->handler != KHIST_HANDLER_ONMATCH) {
			ret = khist_track_create(ic, ia);
		} else {
			ia->match_sys = khist_span_dup(ic, a->sys);
			ia->match_ev = khist_span_dup(ic, a->event);
			if (!ia->match_sys || !ia->match_ev)
				return -ENOMEM;
			ret = khist_trace_create(ic, ia);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * khist_inter_actions_release() - drop what the actions hold: synthetic
 * event references, the conditional snapshot
 * @in: the state, no longer reachable from any probe
 *
 * Context: process context.
 */
void khist_inter_actions_release(struct khist_inter *in)
{
	unsigned int i;

	for (i = 0; i < in->n_actions; i++) {
		khist_synth_put(in->actions[i].se);
		in->actions[i].se = NULL;
	}
}
