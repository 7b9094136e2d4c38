// SPDX-License-Identifier: GPL-2.0
/*
 * hist_bind.c - resolves a parsed hist command against an event schema
 * (see hist_bind.h). Fields are bound in the order Linux 6.12 creates
 * them - values, variables, keys, then sort keys, then handler checks -
 * so that the first error reported is the kernel's, with its caret.
 * Operands and expressions are bound by hist_bind_field.c.
 */
#include "core_env.h"
#include "hist_bind_int.h"
#include "hist_print.h"
#include "qsketch.h"

static bool has_refs(const struct khist_bfield *f)
{
	if (!f)
		return false;
	if (f->flags & (KHIST_HF_VARREF | KHIST_HF_ALIAS))
		return true;
	return has_refs(f->l) || has_refs(f->r);
}

static int bind_vals(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	struct khist_hist_spec *sp = b->spec;
	const u32 bad = KHIST_HF_BUCKET | KHIST_HF_LOG2 | KHIST_HF_SYM |
			KHIST_HF_SYM_OFFSET | KHIST_HF_SYSCALL |
			KHIST_HF_STACKTRACE;
	struct khist_bfield *f;
	unsigned int i;

	f = new_bf(b, KHIST_BF_HITCOUNT);
	if (!f)
		return b->ret;
	f->flags = KHIST_HF_HITCOUNT;
	f->size = 8;
	f->name = "hitcount";
	f->text = f->name;
	sp->vals[sp->n_vals++] = f;
	for (i = 0; i < cmd->n_vals; i++) {
		const struct khist_item *it = &cmd->vals[i];

		if (it->hitcount)
			continue;
		b->dist_ok = 1;
		f = khist_hist_bind_ex(b, it->ex, 0, NULL);
		b->dist_ok = 0;
		if (!f)
			return b->ret;
		if (f->flags & bad)
			return berr(b, KHIST_HERR_BAD_FIELD_MODIFIER,
				    epos(b, it->text));
		sp->vals[sp->n_vals++] = f;
	}
	if (cmd->vals_over)
		return berr(b, KHIST_HERR_TOO_MANY_VALS, cmd->vals_over_pos);
	if (sp->n_vals == 1 && cmd->nohitcount) {
		berr(b, KHIST_HERR_NEED_NOHC_VAL, 0);
		return b->ret = -ENOENT;
	}
	return 0;
}

static int bind_vars(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	struct khist_hist_spec *sp = b->spec;
	const u32 bad = KHIST_HF_GRAPH | KHIST_HF_PERCENT | KHIST_HF_BUCKET |
			KHIST_HF_LOG2;
	unsigned int i, j;

	for (i = 0; i < cmd->n_vars; i++) {
		const struct khist_item *it = &cmd->vars[i];
		struct khist_hvar *v = &sp->vars[sp->n_vars];
		struct khist_bfield *f;
		const char *name;

		for (j = 0; j < i; j++)
			if (cmd->vars[j].var.len == it->var.len &&
			    !memcmp(cmd->work + cmd->vars[j].var.pos,
				    cmd->work + it->var.pos, it->var.len))
				return berr(b, KHIST_HERR_DUPLICATE_VAR,
					    epos(b, it->var));
		name = sdup(b, it->var);
		if (!name)
			return b->ret;
		if (!cmd->remove && b->ops && b->ops->var_taken &&
		    b->ops->var_taken(b->ops->ctx, name))
			return berr(b, KHIST_HERR_DUPLICATE_VAR,
				    epos(b, it->var));
		f = khist_hist_bind_ex(b, it->ex, KHIST_HF_VAR, name);
		if (!f)
			return b->ret;
		if (f->flags & bad)
			return berr(b, KHIST_HERR_BAD_FIELD_MODIFIER,
				    epos(b, it->text));
		f->flags |= KHIST_HF_VAR;
		f->var_name = name;
		v->name = name;
		v->f = f;
		v->str_idx = -1;
		if (!(f->flags & KHIST_HF_ALIAS) &&
		    (f->flags & (KHIST_HF_STRING | KHIST_HF_STACKTRACE)))
			v->str_idx = sp->n_var_str++;
		sp->n_vars++;
	}
	return 0;
}

static int bind_keys(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	struct khist_hist_spec *sp = b->spec;
	unsigned int i;

	for (i = 0; i < cmd->n_keys; i++) {
		const struct khist_item *it = &cmd->keys[i];
		struct khist_hkey *k = &sp->keys[sp->n_keys];
		struct khist_bfield *f;

		if (it->legacy_stack) {
			f = new_bf(b, KHIST_BF_STACK);
			if (!f)
				return b->ret;
			f->flags = KHIST_HF_STACKTRACE | KHIST_HF_KEY;
			f->size = KHIST_STACK_SIZE;
			f->name = "common_stacktrace";
			f->text = f->name;
		} else {
			f = khist_hist_bind_ex(b, it->ex, KHIST_HF_KEY, NULL);
			if (!f)
				return b->ret;
			if (has_refs(f))
				return berr(b, KHIST_HERR_INVALID_REF_KEY,
					    epos(b, it->text));
		}
		f->flags |= KHIST_HF_KEY;
		k->f = f;
		k->offset = sp->key_size;
		k->size = ALIGN(f->size, 8);
		sp->key_size += k->size;
		if (sp->key_size > KHIST_KEY_SIZE_MAX)
			return berr(b, KHIST_HERR_KEY_TOO_LARGE,
				    epos(b, it->text));
		sp->n_keys++;
	}
	if (cmd->keys_over)
		return berr(b, KHIST_HERR_TOO_MANY_KEYS, cmd->keys_over_pos);
	return 0;
}

static int sort_dir(struct bctx *b, const struct khist_sort_item *si, u8 *desc)
{
	if (!si->has_mod) {
		*desc = 0;
		return 0;
	}
	if (khist_span_eq(b->cmd, si->mod, "descending")) {
		*desc = 1;
		return 0;
	}
	if (khist_span_eq(b->cmd, si->mod, "ascending")) {
		*desc = 0;
		return 0;
	}
	return -EINVAL;
}

/* Does @t equal the listing form of @f? (khist: sort= round trip) */
static bool printed_as(const struct khist_bfield *f, const char *t, size_t n)
{
	char buf[KHIST_STR_MAX];
	struct khist_out s = { buf, sizeof(buf), 0 };

	khist_bfield_print(&s, f);
	return s.len < sizeof(buf) && eqn(t, n, buf);
}

static bool sort_by_listing(struct bctx *b, const struct khist_sort_item *si,
			    struct khist_hsort *hs)
{
	struct khist_hist_spec *sp = b->spec;
	const char *t = b->cmd->work + si->text.pos;
	size_t n = si->text.len;
	unsigned int i;

	hs->descending = 0;
	if (n > 11 && eqn(t + n - 11, 11, ".descending")) {
		hs->descending = 1;
		n -= 11;
	} else if (n > 10 && eqn(t + n - 10, 10, ".ascending")) {
		n -= 10;
	}
	for (i = 1; i < sp->n_vals; i++) {
		if (printed_as(sp->vals[i], t, n)) {
			hs->src = KHIST_SORT_VAL;
			hs->idx = i;
			return true;
		}
	}
	for (i = 0; i < sp->n_keys; i++) {
		if (printed_as(sp->keys[i].f, t, n)) {
			hs->src = KHIST_SORT_KEY;
			hs->idx = i;
			return true;
		}
	}
	return false;
}

/*
 * khist: "lat.p99[.descending]" sorts on a figure hist prints after a
 * .stats or .quantiles value. 1: @hs set; 0: the modifier names no
 * figure at all (left to the kernel's errors); -EINVAL: it names one the
 * value does not print (error reported).
 */
static int sort_by_figure(struct bctx *b, const struct khist_sort_item *si,
			  struct khist_hsort *hs)
{
	const struct khist_bfield *f = b->spec->vals[hs->idx];
	const char *m = b->cmd->work + si->mod.pos;
	size_t n = si->mod.len;
	bool desc = false;
	int k;

	if (n > 11 && eqn(m + n - 11, 11, ".descending")) {
		desc = true;
		n -= 11;
	} else if (n > 10 && eqn(m + n - 10, 10, ".ascending")) {
		n -= 10;
	}
	if (f->flags & (KHIST_HF_STATS | KHIST_HF_QUANTILES)) {
		k = khist_qs_figure_find(f->flags & KHIST_HF_QUANTILES, m, n);
		if (k >= 0) {
			hs->fig = k + 1;
			hs->descending = desc;
			return 1;
		}
	} else if (khist_qs_figure_find(true, m, n) < 0 &&
		   khist_qs_figure_find(false, m, n) < 0) {
		return 0;
	}
	berr(b, KHIST_HERR_INVALID_SORT_FIGURE, epos(b, si->text));
	return -EINVAL;
}

static int bind_sort(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	struct khist_hist_spec *sp = b->spec;
	unsigned int i, j;
	int ret;

	sp->n_sort = 1;
	if (!cmd->has_sort)
		return 0;
	for (i = 0; i < cmd->n_sort; i++) {
		const struct khist_sort_item *si = &cmd->sort[i];
		struct khist_hsort *hs = &sp->sort[i];
		bool found = false;

		if (si->err)
			return berr(b, si->err, si->err_pos);
		if (khist_span_eq(cmd, si->name, "hitcount")) {
			hs->src = KHIST_SORT_HITCOUNT;
			if (sort_dir(b, si, &hs->descending))
				return berr(b, KHIST_HERR_INVALID_SORT_MODIFIER,
					    epos(b, si->mod));
			continue;
		}
		for (j = 1; j < sp->n_vals && !found; j++) {
			if (khist_span_eq(cmd, si->name, sp->vals[j]->name)) {
				hs->src = KHIST_SORT_VAL;
				hs->idx = j;
				found = true;
			}
		}
		for (j = 0; j < sp->n_keys && !found; j++) {
			if (khist_span_eq(cmd, si->name, sp->keys[j].f->name)) {
				hs->src = KHIST_SORT_KEY;
				hs->idx = j;
				found = true;
			}
		}
		if (found && !sort_dir(b, si, &hs->descending))
			continue;
		if (sort_by_listing(b, si, hs))
			continue;
		if (found && hs->src == KHIST_SORT_VAL && si->has_mod) {
			ret = sort_by_figure(b, si, hs);
			if (ret < 0)
				return b->ret;
			if (ret)
				continue;
		}
		if (found)
			return berr(b, KHIST_HERR_INVALID_SORT_MODIFIER,
				    epos(b, si->mod));
		return berr(b, KHIST_HERR_INVALID_SORT_FIELD,
			    epos(b, si->name));
	}
	sp->n_sort = cmd->n_sort;
	return 0;
}

static int check_onmatch_events(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	unsigned int i;

	if (!b->ops || !b->ops->event_exists)
		return 0;
	for (i = 0; i < cmd->n_actions; i++) {
		const struct khist_action *a = &cmd->actions[i];
		const char *sys, *ev;

		if (a->handler != KHIST_HANDLER_ONMATCH)
			continue;
		sys = sdup(b, a->sys);
		ev = sdup(b, a->event);
		if (!sys || !ev)
			return b->ret;
		if (!b->ops->event_exists(b->ops->ctx, sys, ev))
			return berr(b, KHIST_HERR_INVALID_SUBSYS_EVENT,
				    epos(b, a->event));
	}
	return 0;
}

/* khist: does @s end with @sfx? */
static bool khist_span_suffix(const struct khist_hist_cmd *cmd,
			      struct khist_span s, const char *sfx)
{
	size_t n = strlen(sfx);

	return s.len > n && !memcmp(cmd->work + s.pos + s.len - n, sfx, n);
}

/* What follows the last '.' of @s (all of @s if it has none). */
static struct khist_span khist_span_after_dot(const struct khist_hist_cmd *cmd,
					      struct khist_span s)
{
	unsigned int i;

	for (i = s.len; i; i--) {
		if (cmd->work[s.pos + i - 1] == '.') {
			s.len -= i;
			s.pos += i;
			break;
		}
	}
	return s;
}

static int check_actions(struct bctx *b)
{
	struct khist_hist_cmd *cmd = b->cmd;
	struct khist_hist_spec *sp = b->spec;
	bool have_save = false;
	unsigned int i, j;

	for (i = 0; i < cmd->n_actions; i++) {
		const struct khist_action *a = &cmd->actions[i];
		struct khist_span v = a->arg;
		bool found = false;

		if (a->handler != KHIST_HANDLER_ONMATCH) {
			if (!v.len || cmd->work[v.pos] != '$')
				return berr(b, KHIST_HERR_ONX_NOT_VAR,
					    epos(b, v));
			v.pos++;
			v.len--;
			if (b->ops && b->ops->dists &&
			    (khist_span_suffix(cmd, v, ".stats") ||
			     khist_span_suffix(cmd, v, ".quantiles")))
				return berr(b, KHIST_HERR_ONX_DIST,
					    epos(b,
						 khist_span_after_dot(cmd, v)));
			for (j = 0; j < sp->n_vars && !found; j++)
				found = khist_span_eq(cmd, v, sp->vars[j].name);
			if (!found)
				return berr(b, KHIST_HERR_ONX_VAR_NOT_FOUND,
					    epos(b, v));
		}
		if (a->action == KHIST_ACTION_SAVE) {
			if (have_save)
				return berr(b, KHIST_HERR_TOO_MANY_SAVE_ACTIONS,
					    0);
			have_save = true;
		}
	}
	return 0;
}

/**
 * khist_hist_bind() - bind a parsed command to an event
 * @cmd:    parsed command; on success the spec owns it, on failure the
 *          caller still does
 * @schema: the event the trigger is written to
 * @ops:    optional lookups (may be NULL)
 * @out:    the bound spec (free with khist_hist_spec_free())
 * @err:    on error, what to log (may be NULL); cleared first
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL (or -EDOM, -ENOENT as the kernel) with @err set;
 * -ENOMEM.
 */
int khist_hist_bind(struct khist_hist_cmd *cmd,
		    const struct khist_event_schema *schema,
		    const struct khist_bind_ops *ops,
		    struct khist_hist_spec **out, struct khist_hist_err *err)
{
	struct khist_hist_spec *sp;
	struct bctx b = { .cmd = cmd, .ops = ops, .err = err };

	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	sp = kzalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	sp->schema = schema;
	b.spec = sp;
	if (check_onmatch_events(&b) || bind_vals(&b) || bind_vars(&b) ||
	    bind_keys(&b) || bind_sort(&b) || check_actions(&b) || b.ret) {
		int ret = b.ret ? b.ret : -EINVAL;

		khist_arena_free(&sp->arena);
		kfree(sp);
		return ret;
	}
	sp->map_bits = cmd->map_bits;
	sp->clock = cmd->clock;
	if (cmd->has_name)
		sp->name = sdup(&b, cmd->name);
	if (cmd->has_filter)
		sp->filter = sdup(&b, cmd->filter);
	if (b.ret) {
		khist_arena_free(&sp->arena);
		kfree(sp);
		return b.ret;
	}
	sp->pause = cmd->pause;
	sp->cont = cmd->cont;
	sp->clear = cmd->clear;
	sp->nohitcount = cmd->nohitcount;
	sp->remove = cmd->remove;
	sp->cmd = cmd;
	*out = sp;
	return 0;
}

/**
 * khist_hist_spec_free() - free a bound spec and the command it owns
 * @spec: the spec (NULL is fine)
 *
 * Context: any.
 */
void khist_hist_spec_free(struct khist_hist_spec *spec)
{
	if (!spec)
		return;
	khist_hist_cmd_free(spec->cmd);
	khist_arena_free(&spec->arena);
	kfree(spec);
}

/**
 * khist_hist_spec_bytes() - the memory a spec holds
 * @spec: a bound spec
 *
 * The spec, its parsed command and both arenas, as allocated (slab
 * rounding aside): what an owner charges to a memory limit.
 *
 * Context: any.
 * Return: bytes.
 */
size_t khist_hist_spec_bytes(const struct khist_hist_spec *spec)
{
	size_t n = sizeof(*spec) + spec->arena.bytes;

	if (spec->cmd)
		n += sizeof(*spec->cmd) + spec->cmd->arena.bytes;
	return n;
}

/**
 * khist_hist_compile() - parse and bind in one step
 * @text:   command text, as for khist_hist_parse()
 * @len:    its length
 * @schema: the event
 * @ops:    optional lookups (may be NULL)
 * @out:    the bound spec; NULL on any failure
 * @err:    what to log on error (may be NULL)
 *
 * Context: process context, may sleep.
 * Return: as khist_hist_bind().
 */
int khist_hist_compile(const char *text, size_t len,
		       const struct khist_event_schema *schema,
		       const struct khist_bind_ops *ops,
		       struct khist_hist_spec **out, struct khist_hist_err *err)
{
	struct khist_hist_cmd *cmd;
	int ret;

	*out = NULL;
	ret = khist_hist_parse(text, len, &cmd, err);
	if (ret)
		return ret;
	ret = khist_hist_bind(cmd, schema, ops, out, err);
	if (ret)
		khist_hist_cmd_free(cmd);
	return ret;
}
