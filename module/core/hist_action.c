// SPDX-License-Identifier: GPL-2.0
/*
 * hist_action.c - parser of handler.action tokens: onmatch(sys.event),
 * onmax($var), onchange($var) followed by trace(...), <synth>(...),
 * save(...) or snapshot(), with the kernel's checks and carets.
 */
#include "core_env.h"
#include "hist_parse_int.h"

static int parse_params(struct pctx *p, struct khist_action *a,
			struct khist_span params)
{
	struct splitter sp = { .rest = params };
	struct khist_span par;
	bool first = true;

	a->params = khist_arena_alloc(&p->cmd->arena,
				      KHIST_PARAMS_MAX * sizeof(*a->params));
	if (!a->params)
		return -ENOMEM;
	while (!sp.done) {
		if (a->n_params >= KHIST_PARAMS_MAX)
			return fail(p, KHIST_HERR_TOO_MANY_PARAMS, 0);
		split_next(p->w, &sp, ',', &par);
		par = strip(p->w, par);
		if (par.len < 2)
			return fail(p, KHIST_HERR_INVALID_PARAM, epos(p, par));
		if (first && a->trace_kw) {
			a->synth = par;
			first = false;
			continue;
		}
		first = false;
		a->params[a->n_params++] = par;
	}
	return 0;
}

/* @s: what follows the handler's closing paren, e.g. ".save(a,b)". */
static int parse_action_part(struct pctx *p, struct khist_action *a,
			     struct khist_span s)
{
	const char *w = p->w;
	struct khist_span name, rest, params;
	int dot, lp, rp;

	dot = find_chr(w, s, '.');
	if (dot < 0)
		return fail(p, KHIST_HERR_ACTION_NOT_FOUND, 0);
	rest = mkspan(dot + 1, s.pos + s.len - dot - 1);
	lp = find_chr(w, rest, '(');
	if (lp < 0)
		return fail(p, KHIST_HERR_ACTION_NOT_FOUND, 0);
	name = mkspan(rest.pos, lp - rest.pos);
	a->name = name;
	rest = mkspan(lp + 1, rest.pos + rest.len - lp - 1);
	rp = find_chr(w, rest, ')');
	/* The parameters end at the first ')', or with the token. */
	params = rp < 0 ? rest : mkspan(rest.pos, rp - rest.pos);
	if (has_prefix(w, name, "save")) {
		int ret;

		ret = parse_params(p, a, params);
		if (ret)
			return ret;
		if (a->handler == KHIST_HANDLER_ONMATCH)
			return fail(p, KHIST_HERR_ACTION_MISMATCH,
				    epos(p, name));
		a->action = KHIST_ACTION_SAVE;
	} else if (has_prefix(w, name, "snapshot")) {
		if (rp < 0)
			return fail(p, KHIST_HERR_NO_CLOSING_PAREN,
				    epos(p, rest));
		if (a->handler == KHIST_HANDLER_ONMATCH)
			return fail(p, KHIST_HERR_ACTION_MISMATCH,
				    epos(p, name));
		a->action = KHIST_ACTION_SNAPSHOT;
	} else {
		int ret;

		a->trace_kw = has_prefix(w, name, "trace");
		if (!a->trace_kw)
			a->synth = name;
		ret = parse_params(p, a, params);
		if (ret)
			return ret;
		a->action = KHIST_ACTION_TRACE;
	}
	return 0;
}

/**
 * khist_hist_parse_handler() - parse one handler.action token
 * @p: the parse
 * @a: the action, its @text set to the token
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL with the error recorded, or -ENOMEM.
 */
int khist_hist_parse_handler(struct pctx *p, struct khist_action *a)
{
	const char *w = p->w;
	struct khist_span s = a->text, arg;
	int rp, dot;

	if (has_prefix(w, s, "onmatch(")) {
		a->handler = KHIST_HANDLER_ONMATCH;
		s = mkspan(s.pos + 8, s.len - 8);
	} else if (has_prefix(w, s, "onmax(")) {
		a->handler = KHIST_HANDLER_ONMAX;
		s = mkspan(s.pos + 6, s.len - 6);
	} else {
		a->handler = KHIST_HANDLER_ONCHANGE;
		s = mkspan(s.pos + 9, s.len - 9);
	}
	rp = find_chr(w, s, ')');
	if (rp < 0) {
		if (a->handler == KHIST_HANDLER_ONMATCH)
			return fail(p, KHIST_HERR_NO_CLOSING_PAREN, epos(p, s));
		return fail(p, KHIST_HERR_ONX_NO_PAREN, epos(p, a->text));
	}
	arg = mkspan(s.pos, rp - s.pos);
	a->arg = arg;
	if (a->handler == KHIST_HANDLER_ONMATCH) {
		dot = find_chr(w, arg, '.');
		if (dot < 0)
			return fail(p, KHIST_HERR_SUBSYS_NOT_FOUND,
				    epos(p, arg));
		a->sys = mkspan(arg.pos, dot - arg.pos);
		a->event = mkspan(dot + 1, arg.pos + arg.len - dot - 1);
	}
	return parse_action_part(p, a, mkspan(rp + 1, s.pos + s.len - rp - 1));
}
