// SPDX-License-Identifier: GPL-2.0
/*
 * hist_expr.c - the expression parser of hist commands: operands, binary
 * + - * / and -(...), split at the operator the kernel picks (the
 * rightmost one of the lowest precedence), with the kernel's limits. Its
 * errors are kept in the tree (KHIST_EX_ERR) for the binder to report in
 * the kernel's order.
 */
#include "core_env.h"
#include "hist_parse_int.h"

static struct khist_ex *new_ex(struct pctx *p, u8 kind, struct khist_span t)
{
	struct khist_ex *e = khist_arena_alloc(&p->cmd->arena, sizeof(*e));

	if (!e) {
		p->nomem = 1;
		return NULL;
	}
	e->kind = kind;
	e->text = t;
	return e;
}

static struct khist_ex *err_ex(struct pctx *p, struct khist_span t,
			       unsigned int code, struct khist_span at)
{
	struct khist_ex *e = new_ex(p, KHIST_EX_ERR, t);

	if (e) {
		e->err = code;
		e->err_pos = khist_hist_errpos(p->cmd, at.pos, at.len);
	}
	return e;
}

static bool ex_failed(const struct khist_ex *e)
{
	if (!e)
		return true;
	if (e->kind == KHIST_EX_ERR)
		return true;
	if (e->l && ex_failed(e->l))
		return true;
	if (e->kind == KHIST_EX_BINOP && (!e->r || ex_failed(e->r)))
		return true;
	return false;
}

/* Root operator of @s, chosen exactly as the kernel does. */
static char root_operator(const char *w, struct khist_span s, int *sep)
{
	int minus = find_rchr(w, s, '-'), plus = find_rchr(w, s, '+');
	int div, mult;

	if (minus >= 0 && minus == s.pos) {
		*sep = minus;
		return 'u';
	}
	if (plus >= 0 || minus >= 0) {
		if (plus > minus) {
			*sep = plus;
			return '+';
		}
		*sep = minus;
		return '-';
	}
	div = find_rchr(w, s, '/');
	mult = find_rchr(w, s, '*');
	if (mult > div) {
		*sep = mult;
		return '*';
	}
	if (div >= 0) {
		*sep = div;
		return '/';
	}
	return 0;
}

static struct khist_ex *parse_atom(struct pctx *p, struct khist_span s)
{
	const char *w = p->w;
	struct khist_span rest = s;
	struct khist_ex *e;
	int d1, d2, dot;

	if (s.len && khist_isdigit(w[s.pos])) {
		u64 v;

		if (khist_parse_u64(w + s.pos, s.len, &v))
			return err_ex(p, s, KHIST_HERR_EXPECT_NUMBER, s);
		e = new_ex(p, KHIST_EX_CONST, s);
		if (e)
			e->constant = v;
		return e;
	}
	e = new_ex(p, KHIST_EX_ATOM, s);
	if (!e)
		return NULL;
	d1 = find_chr(w, s, '.');
	if (d1 >= 0) {
		d2 = find_chr(w, mkspan(d1 + 1, s.pos + s.len - d1 - 1), '.');
		if (d2 >= 0) {
			e->qualified = 1;
			e->sys = mkspan(s.pos, d1 - s.pos);
			e->event = mkspan(d1 + 1, d2 - d1 - 1);
			rest = mkspan(d2 + 1, s.pos + s.len - d2 - 1);
		}
	}
	e->name = rest;
	e->is_ref = rest.len && w[rest.pos] == '$';
	dot = find_chr(w, rest, '.');
	if (dot >= 0) {
		e->has_mod = 1;
		e->fname = mkspan(rest.pos, dot - rest.pos);
		e->mod = mkspan(dot + 1, rest.pos + rest.len - dot - 1);
	} else {
		e->fname = rest;
	}
	return e;
}

static struct khist_ex *parse_ex(struct pctx *p, struct khist_span s,
				 unsigned int *n);

static struct khist_ex *parse_unary(struct pctx *p, struct khist_span s,
				    unsigned int *n)
{
	const char *w = p->w;
	struct khist_span str;
	struct khist_ex *e;
	int rp;

	if (++*n > KHIST_SUBEXPR_MAX)
		return err_ex(p, s, KHIST_HERR_TOO_MANY_SUBEXPR, s);
	str = mkspan(s.pos + 1, s.len - 1);
	if (find_chr(w, str, '(') < 0 || !str.len)
		return err_ex(p, s, KHIST_HERR_BAD_EXPR, s);
	/* The kernel skips one character here, whatever it is. */
	str = mkspan(str.pos + 1, str.len - 1);
	rp = find_rchr(w, str, ')');
	if (rp < 0)
		return err_ex(p, s, KHIST_HERR_BAD_EXPR, s);
	if (rp != str.pos + str.len - 1)
		return err_ex(p, s, KHIST_HERR_UNARY_MINUS_SUBEXPR, str);
	e = new_ex(p, KHIST_EX_UMINUS, s);
	if (!e)
		return NULL;
	e->l = parse_ex(p, mkspan(str.pos, rp - str.pos), n);
	return e;
}

static struct khist_ex *parse_ex(struct pctx *p, struct khist_span s,
				 unsigned int *n)
{
	struct khist_span l, r;
	struct khist_ex *e;
	int sep = -1;
	char op;

	if (*n > KHIST_SUBEXPR_MAX)
		return err_ex(p, s, KHIST_HERR_TOO_MANY_SUBEXPR, s);
	op = root_operator(p->w, s, &sep);
	if (!op)
		return parse_atom(p, s);
	if (op == 'u')
		return parse_unary(p, s, n);
	++*n;
	l = mkspan(s.pos, sep - s.pos);
	r = mkspan(sep + 1, s.pos + s.len - sep - 1);
	if (!l.len || !r.len)
		return err_ex(p, s, KHIST_HERR_BAD_EXPR, s);
	e = new_ex(p, KHIST_EX_BINOP, s);
	if (!e)
		return NULL;
	e->op = op;
	e->l = parse_ex(p, l, n);
	if (ex_failed(e->l))
		return e;
	e->r = parse_ex(p, r, n);
	return e;
}

/**
 * khist_hist_parse_expr() - parse one key, value or variable expression
 * @p: the parse
 * @s: the expression's text
 *
 * Context: process context, may sleep (allocates from the command's arena).
 * Return: the tree (errors stored as KHIST_EX_ERR nodes), or NULL when out
 * of memory (@p->nomem set).
 */
struct khist_ex *khist_hist_parse_expr(struct pctx *p, struct khist_span s)
{
	unsigned int n = 0;

	return parse_ex(p, s, &n);
}
