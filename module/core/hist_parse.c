// SPDX-License-Identifier: GPL-2.0
/*
 * hist_parse.c - parser of hist trigger commands (see hist_parse.h).
 *
 * The parser follows the order in which Linux 6.12 examines a command, so
 * that the first error it reports is the one the kernel would log:
 * filter split, ':' tokens (attributes, keywords, handlers), mandatory
 * keys=, handler/action syntax, variable definitions. Expressions and sort
 * items are split here too; their problems are stored in the tree.
 * Expressions are parsed by hist_expr.c, handlers and actions by
 * hist_action.c; hist_util.c holds the shared helpers.
 */
#include "core_env.h"
#include "hist_parse_int.h"

/* ---- attributes ---------------------------------------------------------- */

struct raw_attrs {
	struct khist_span keys, vals, sort;
	u8 has_vals;
	struct khist_span assign[KHIST_VARS_MAX];
	unsigned int n_assign;
};

static int parse_size(struct pctx *p, struct khist_span tok,
		      struct khist_span v)
{
	u64 size;
	int bits;

	if (khist_parse_u64(p->w + v.pos, v.len, &size) || !size ||
	    size > (1ULL << KHIST_HIST_BITS_MAX))
		return fail(p, KHIST_HERR_BAD_SIZE, epos(p, tok));
	bits = ilog2(roundup_pow_of_two(size));
	if (bits < KHIST_HIST_BITS_MIN || bits > KHIST_HIST_BITS_MAX)
		return fail(p, KHIST_HERR_BAD_SIZE, epos(p, tok));
	p->cmd->map_bits = bits;
	p->cmd->size_given = 1;
	return 0;
}

static int parse_eq_token(struct pctx *p, struct raw_attrs *ra,
			  struct khist_span tok)
{
	static const char *const keyp[] = { "key=", "keys=" };
	static const char *const valp[] = { "val=", "vals=", "values=" };
	struct khist_hist_cmd *cmd = p->cmd;
	const char *w = p->w;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keyp); i++) {
		if (has_prefix(w, tok, keyp[i])) {
			ra->keys = mkspan(tok.pos + strlen(keyp[i]),
					  tok.len - strlen(keyp[i]));
			cmd->has_keys = 1;
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(valp); i++) {
		if (has_prefix(w, tok, valp[i])) {
			ra->vals = mkspan(tok.pos + strlen(valp[i]),
					  tok.len - strlen(valp[i]));
			ra->has_vals = 1;
			return 0;
		}
	}
	if (has_prefix(w, tok, "sort=")) {
		ra->sort = mkspan(tok.pos + 5, tok.len - 5);
		cmd->has_sort = 1;
		return 0;
	}
	if (has_prefix(w, tok, "name=")) {
		cmd->name = mkspan(tok.pos + 5, tok.len - 5);
		cmd->has_name = 1;
		return 0;
	}
	if (has_prefix(w, tok, "clock=")) {
		struct khist_span c =
			strip(w, mkspan(tok.pos + 6, tok.len - 6));

		cmd->clock = khist_arena_strndup(&cmd->arena, w + c.pos, c.len);
		if (!cmd->clock)
			return -ENOMEM;
		return 0;
	}
	if (has_prefix(w, tok, "size="))
		return parse_size(p, tok, mkspan(tok.pos + 5, tok.len - 5));
	if (ra->n_assign == KHIST_VARS_MAX)
		return fail(p, KHIST_HERR_TOO_MANY_VARS, epos(p, tok));
	ra->assign[ra->n_assign++] = tok;
	return 0;
}

/* ---- items -------------------------------------------------------------- */

static int parse_var_defs(struct pctx *p, struct raw_attrs *ra)
{
	struct khist_hist_cmd *cmd = p->cmd;
	unsigned int i;

	for (i = 0; i < ra->n_assign; i++) {
		struct splitter sp = { .rest = ra->assign[i] };
		struct khist_span def, name;

		while (split_next(p->w, &sp, ',', &def)) {
			int eq = find_chr(p->w, def, '=');
			struct khist_item *it;

			if (eq < 0)
				return fail(p, KHIST_HERR_MALFORMED_ASSIGNMENT,
					    epos(p, def));
			name = mkspan(def.pos, eq - def.pos);
			if (cmd->n_vars == KHIST_VARS_MAX)
				return fail(p, KHIST_HERR_TOO_MANY_VARS,
					    epos(p, name));
			it = &cmd->vars[cmd->n_vars++];
			it->var = name;
			it->text = mkspan(eq + 1, def.pos + def.len - eq - 1);
		}
	}
	return 0;
}

static void split_vals(struct pctx *p, struct khist_span vals)
{
	struct khist_hist_cmd *cmd = p->cmd;
	struct splitter sp = { .rest = vals };
	unsigned int i, j, n_hit = 0;
	struct khist_span v;

	for (i = 0, j = 1; i < KHIST_VALS_MAX + 1 && j < KHIST_VALS_MAX + 1;
	     i++) {
		struct khist_item *it;

		if (!split_next(p->w, &sp, ',', &v))
			break;
		it = &cmd->vals[cmd->n_vals++];
		it->text = v;
		if (khist_span_eq(cmd, v, "hitcount") && !n_hit++) {
			it->hitcount = 1;
			continue;
		}
		j++;
	}
	if (!sp.done) {
		if (khist_span_eq(cmd, sp.rest, "hitcount")) {
			cmd->vals_rest = 1;
		} else {
			cmd->vals_over = 1;
			cmd->vals_over_pos = sp.rest.pos;
		}
	}
}

static void split_keys(struct pctx *p, struct khist_span keys)
{
	struct khist_hist_cmd *cmd = p->cmd;
	struct splitter sp = { .rest = keys };
	struct khist_span k;

	while (cmd->n_keys < KHIST_KEYS_MAX && split_next(p->w, &sp, ',', &k)) {
		struct khist_item *it = &cmd->keys[cmd->n_keys++];

		it->text = k;
		it->legacy_stack = khist_span_eq(cmd, k, "stacktrace");
	}
	if (!sp.done) {
		cmd->keys_over = 1;
		cmd->keys_over_pos = sp.rest.pos;
	}
}

static void split_sort(struct pctx *p, struct khist_span sort)
{
	struct khist_hist_cmd *cmd = p->cmd;
	struct splitter sp = { .rest = sort };
	u16 at = khist_hist_errpos_str(cmd, "sort=");
	struct khist_span f;
	unsigned int i;

	for (i = 0; i < KHIST_SORT_KEYS_MAX; i++) {
		struct khist_sort_item *si;
		int dot;

		if (!split_next(p->w, &sp, ',', &f))
			break;
		si = &cmd->sort[cmd->n_sort++];
		si->text = f;
		if (!f.len) {
			si->err = KHIST_HERR_EMPTY_SORT_FIELD;
			si->err_pos = at;
			return;
		}
		if (i == KHIST_SORT_KEYS_MAX - 1 && !sp.done) {
			si->err = KHIST_HERR_TOO_MANY_SORT_FIELDS;
			si->err_pos = at;
			return;
		}
		dot = find_chr(p->w, f, '.');
		if (dot >= 0) {
			si->has_mod = 1;
			si->name = mkspan(f.pos, dot - f.pos);
			si->mod = mkspan(dot + 1, f.pos + f.len - dot - 1);
		} else {
			si->name = f;
		}
		if (!si->name.len) {
			si->err = KHIST_HERR_EMPTY_SORT_FIELD;
			si->err_pos = at;
			return;
		}
	}
}

/* ---- top level ------------------------------------------------------------ */

/*
 * Find where the filter starts: the first "if" with a blank on both sides.
 * Returns 0 and sets *@at (or -1 for no filter), or an error.
 */
static int find_filter(struct pctx *p, unsigned int start, int *at)
{
	const char *w = p->w;
	unsigned int len = p->cmd->len, i = start;

	*at = -1;
	for (;;) {
		while (i + 1 < len && !(w[i] == 'i' && w[i + 1] == 'f'))
			i++;
		if (i + 1 >= len)
			return 0;
		if (i == start)
			return fail(p, KHIST_HERR_BAD_IF, i);
		if (!is_blank(w[i - 1])) {
			i++;
			continue;
		}
		if (i + 3 >= len)
			return fail(p, KHIST_HERR_BAD_IF, i);
		if (!is_blank(w[i + 2])) {
			i++;
			continue;
		}
		*at = i;
		return 0;
	}
}

static int parse_tokens(struct pctx *p, struct raw_attrs *ra,
			struct khist_span param)
{
	struct khist_hist_cmd *cmd = p->cmd;
	struct splitter sp = { .rest = param };
	struct khist_span tok;
	int ret;

	while (split_next(p->w, &sp, ':', &tok)) {
		int eq = find_chr(p->w, tok, '=');

		if (eq >= 0) {
			if (eq == tok.pos + tok.len - 1)
				return fail(p, KHIST_HERR_EMPTY_ASSIGNMENT,
					    epos(p, tok));
			ret = parse_eq_token(p, ra, tok);
			if (ret)
				return ret;
		} else if (khist_span_eq(cmd, tok, "nohitcount") ||
			   khist_span_eq(cmd, tok, "NOHC")) {
			cmd->nohitcount = 1;
		} else if (khist_span_eq(cmd, tok, "pause")) {
			cmd->pause = 1;
		} else if (khist_span_eq(cmd, tok, "cont") ||
			   khist_span_eq(cmd, tok, "continue")) {
			cmd->cont = 1;
		} else if (khist_span_eq(cmd, tok, "clear")) {
			cmd->clear = 1;
		} else {
			if (cmd->n_actions >= KHIST_ACTIONS_MAX)
				return fail(p, KHIST_HERR_TOO_MANY_ACTIONS,
					    epos(p, tok));
			if (!has_prefix(p->w, tok, "onmatch(") &&
			    !has_prefix(p->w, tok, "onmax(") &&
			    !has_prefix(p->w, tok, "onchange("))
				return fail(p, KHIST_HERR_UNKNOWN_TOKEN,
					    epos(p, tok));
			cmd->actions[cmd->n_actions++].text = tok;
		}
	}
	return 0;
}

static int parse_items(struct pctx *p, struct raw_attrs *ra)
{
	struct khist_hist_cmd *cmd = p->cmd;
	unsigned int i;

	if (ra->has_vals)
		split_vals(p, ra->vals);
	split_keys(p, ra->keys);
	if (cmd->has_sort)
		split_sort(p, ra->sort);
	for (i = 0; i < cmd->n_vals; i++)
		if (!cmd->vals[i].hitcount)
			cmd->vals[i].ex =
				khist_hist_parse_expr(p, cmd->vals[i].text);
	for (i = 0; i < cmd->n_vars; i++)
		cmd->vars[i].ex = khist_hist_parse_expr(p, cmd->vars[i].text);
	for (i = 0; i < cmd->n_keys; i++)
		if (!cmd->keys[i].legacy_stack)
			cmd->keys[i].ex =
				khist_hist_parse_expr(p, cmd->keys[i].text);
	return p->nomem ? -ENOMEM : 0;
}

static int parse_cmd(struct pctx *p, unsigned int pstart)
{
	struct khist_hist_cmd *cmd = p->cmd;
	struct raw_attrs *ra;
	struct khist_span param;
	unsigned int i;
	int at, ret;

	ret = find_filter(p, pstart, &at);
	if (ret)
		return ret;
	if (at >= 0) {
		param = strip(p->w, mkspan(pstart, at - 1 - pstart));
		cmd->has_filter = 1;
		cmd->filter = mkspan(at + 3, cmd->len - at - 3);
	} else {
		param = mkspan(pstart, cmd->len - pstart);
	}
	/* ".sym-offset" -> ".symXoffset", in the trigger part only. */
	for (i = param.pos; i + 11 <= param.pos + param.len; i++)
		if (!memcmp(cmd->work + i, ".sym-offset", 11))
			cmd->work[i + 4] = 'X';

	ra = kzalloc(sizeof(*ra), GFP_KERNEL);
	if (!ra)
		return -ENOMEM;
	ret = parse_tokens(p, ra, param);
	if (ret)
		goto out;
	if (!cmd->has_keys) {
		ret = fail(p, KHIST_HERR_NO_KEYS, 0);
		goto out;
	}
	if (!cmd->clock) {
		cmd->clock = khist_arena_strndup(&cmd->arena, "global", 6);
		if (!cmd->clock) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < cmd->n_actions; i++) {
		ret = khist_hist_parse_handler(p, &cmd->actions[i]);
		if (ret)
			goto out;
	}
	ret = parse_var_defs(p, ra);
	if (ret)
		goto out;
	ret = parse_items(p, ra);
out:
	kfree(ra);
	return ret;
}

/**
 * khist_hist_parse() - parse one hist trigger command
 * @text: the command as written, e.g. "hist:keys=pid if prio < 100" or
 *        "!hist:keys=pid"; surrounding whitespace already removed
 * @len:  length of @text (it need not be NUL-terminated)
 * @out:  on success, the new command tree (free with khist_hist_cmd_free())
 * @err:  on -EINVAL, what to log (may be NULL); cleared first
 *
 * Context: process context, may sleep (allocates with GFP_KERNEL).
 * Return: 0, -EINVAL with @err filled in, or -ENOMEM.
 */
int khist_hist_parse(const char *text, size_t len, struct khist_hist_cmd **out,
		     struct khist_hist_err *err)
{
	struct khist_hist_cmd *cmd;
	struct pctx p = { .err = err };
	size_t i = 0, plen;
	bool remove = false;
	int ret;

	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (len && text[0] == '!') {
		remove = true;
		i = 1;
	}
	if (len - i < 4 || memcmp(text + i, "hist", 4) ||
	    (len - i > 4 && text[i + 4] != ':' && !is_blank(text[i + 4]))) {
		khist_hist_err_add(err, KHIST_HERR_UNKNOWN_TOKEN, 0);
		return -EINVAL;
	}
	i += 4;
	if (i < len)
		i++;
	while (i < len && is_blank(text[i]))
		i++;
	plen = len - i;
	if (!plen) {
		khist_hist_err_add(err, KHIST_HERR_EMPTY_PARAM, 0);
		return -EINVAL;
	}
	if (plen + 5 > KHIST_CMD_MAX) {
		khist_hist_err_add(err, KHIST_HERR_CMD_TOO_LONG, 0);
		return -EINVAL;
	}
	cmd = kzalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	cmd->remove = remove;
	cmd->len = plen + 5;
	cmd->map_bits = KHIST_HIST_BITS_DEFAULT;
	cmd->cmd = khist_arena_alloc(&cmd->arena, cmd->len + 1);
	cmd->work = khist_arena_alloc(&cmd->arena, cmd->len + 1);
	if (!cmd->cmd || !cmd->work) {
		khist_hist_cmd_free(cmd);
		return -ENOMEM;
	}
	memcpy(cmd->cmd, "hist:", 5);
	memcpy(cmd->cmd + 5, text + i, plen);
	memcpy(cmd->work, cmd->cmd, cmd->len);
	p.cmd = cmd;
	p.w = cmd->work;
	ret = parse_cmd(&p, 5);
	if (!ret && p.nomem)
		ret = -ENOMEM;
	if (ret) {
		khist_hist_cmd_free(cmd);
		return ret;
	}
	*out = cmd;
	return 0;
}

/**
 * khist_hist_cmd_free() - free a command tree
 * @cmd: the command (NULL is fine)
 *
 * Context: any.
 */
void khist_hist_cmd_free(struct khist_hist_cmd *cmd)
{
	if (!cmd)
		return;
	khist_arena_free(&cmd->arena);
	kfree(cmd);
}

static const struct khist_ex *first_err(const struct khist_ex *e)
{
	const struct khist_ex *f;

	if (!e)
		return NULL;
	if (e->kind == KHIST_EX_ERR)
		return e;
	f = first_err(e->l);
	return f ? f : first_err(e->r);
}

/**
 * khist_hist_syntax_check() - first error stored in the tree
 * @cmd: a parsed command
 * @err: filled with the error (may be NULL)
 *
 * Walks values, variables, keys and sort items in the kernel's order and
 * reports the first deferred syntax error, ignoring anything that needs a
 * schema. The binder reports the same errors, interleaved correctly with
 * field resolution errors.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int khist_hist_syntax_check(const struct khist_hist_cmd *cmd,
			    struct khist_hist_err *err)
{
	const struct khist_ex *e;
	unsigned int i;

	if (err)
		memset(err, 0, sizeof(*err));
	for (i = 0; i < cmd->n_vals; i++) {
		e = first_err(cmd->vals[i].ex);
		if (e)
			goto bad;
	}
	if (cmd->vals_over) {
		khist_hist_err_add(err, KHIST_HERR_TOO_MANY_VALS,
				   cmd->vals_over_pos);
		return -EINVAL;
	}
	for (i = 0; i < cmd->n_vars; i++) {
		e = first_err(cmd->vars[i].ex);
		if (e)
			goto bad;
	}
	for (i = 0; i < cmd->n_keys; i++) {
		e = first_err(cmd->keys[i].ex);
		if (e)
			goto bad;
	}
	if (cmd->keys_over) {
		khist_hist_err_add(err, KHIST_HERR_TOO_MANY_KEYS,
				   cmd->keys_over_pos);
		return -EINVAL;
	}
	for (i = 0; i < cmd->n_sort; i++) {
		if (cmd->sort[i].err) {
			khist_hist_err_add(err, cmd->sort[i].err,
					   cmd->sort[i].err_pos);
			return -EINVAL;
		}
	}
	return 0;
bad:
	khist_hist_err_add(err, e->err, e->err_pos);
	return -EINVAL;
}
