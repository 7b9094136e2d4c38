// SPDX-License-Identifier: GPL-2.0
/*
 * hist_parse.c - parser of hist trigger commands (see hist_parse.h).
 *
 * The parser follows the order in which Linux 6.12 examines a command, so
 * that the first error it reports is the one the kernel would log:
 * filter split, ':' tokens (attributes, keywords, handlers), mandatory
 * keys=, handler/action syntax, variable definitions. Expressions and sort
 * items are split here too; their problems are stored in the tree.
 */
#include "core_env.h"
#include "hist_parse.h"

#define KHIST_HERR(code, text) [KHIST_HERR_##code] = text,
static const char *const khist_hist_err_texts[] = {
	KHIST_HIST_KERNEL_ERRORS
	KHIST_HIST_KHIST_ERRORS
};
#undef KHIST_HERR

/**
 * khist_hist_err_text() - text of a hist error code
 * @code: enum khist_hist_errcode
 *
 * Context: any.
 * Return: static string; "Error" for an unknown code.
 */
const char *khist_hist_err_text(unsigned int code)
{
	if (code >= ARRAY_SIZE(khist_hist_err_texts) ||
	    !khist_hist_err_texts[code])
		return "Error";
	return khist_hist_err_texts[code];
}

/* ---- arena ------------------------------------------------------------ */

struct khist_arena_chunk {
	struct khist_arena_chunk *next;
	size_t cap;
	u64 data[];
};

#define KHIST_ARENA_CHUNK 2048

/**
 * khist_arena_alloc() - zeroed, 8-byte aligned memory from an arena
 * @a:    the arena
 * @size: bytes wanted
 *
 * Context: process context, may sleep (GFP_KERNEL).
 * Return: the memory, or NULL when out of memory.
 */
void *khist_arena_alloc(struct khist_arena *a, size_t size)
{
	struct khist_arena_chunk *c;
	void *p;

	size = ALIGN(size, 8);
	if (!a->head || a->cap - a->used < size) {
		size_t cap = max_t(size_t, size, KHIST_ARENA_CHUNK);

		c = kmalloc(sizeof(*c) + cap, GFP_KERNEL);
		if (!c)
			return NULL;
		c->next = a->head;
		c->cap = cap;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	p = (char *)a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

/**
 * khist_arena_strndup() - copy @n bytes of @s into the arena, NUL-ended
 * @a: the arena
 * @s: source (need not be NUL-terminated)
 * @n: bytes to copy
 *
 * Context: process context, may sleep.
 * Return: the copy, or NULL when out of memory.
 */
char *khist_arena_strndup(struct khist_arena *a, const char *s, size_t n)
{
	char *d = khist_arena_alloc(a, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

/**
 * khist_arena_free() - release everything allocated from @a
 * @a: the arena; left empty and reusable
 *
 * Context: any.
 */
void khist_arena_free(struct khist_arena *a)
{
	struct khist_arena_chunk *c = a->head, *n;

	while (c) {
		n = c->next;
		kfree(c);
		c = n;
	}
	a->head = NULL;
	a->used = 0;
	a->cap = 0;
}

/* ---- small helpers ---------------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static struct khist_span mkspan(unsigned int pos, unsigned int len)
{
	struct khist_span s = { .pos = pos, .len = len };

	return s;
}

/* First @c in [s, s+len) of @w, or -1. */
static int find_chr(const char *w, struct khist_span s, char c)
{
	unsigned int i;

	for (i = 0; i < s.len; i++)
		if (w[s.pos + i] == c)
			return s.pos + i;
	return -1;
}

static int find_rchr(const char *w, struct khist_span s, char c)
{
	unsigned int i;

	for (i = s.len; i > 0; i--)
		if (w[s.pos + i - 1] == c)
			return s.pos + i - 1;
	return -1;
}

static bool has_prefix(const char *w, struct khist_span s, const char *p)
{
	size_t n = strlen(p);

	return s.len >= n && !memcmp(w + s.pos, p, n);
}

/**
 * khist_span_eq() - does a span of the working text equal @str?
 * @cmd: the command
 * @s:   the span
 * @str: NUL-terminated string
 *
 * Context: any.
 * Return: true if equal.
 */
bool khist_span_eq(const struct khist_hist_cmd *cmd, struct khist_span s,
		   const char *str)
{
	return strlen(str) == s.len && !memcmp(cmd->work + s.pos, str, s.len);
}

static u16 find_mem(const char *hay, size_t hlen, const char *needle,
		    size_t nlen)
{
	size_t i;

	if (!nlen || nlen > hlen)
		return 0;
	for (i = 0; i + nlen <= hlen; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, nlen))
			return i;
	return 0;
}

/**
 * khist_hist_errpos() - caret position for an offending piece of text
 * @cmd: the command
 * @pos: start of the text in the working copy
 * @len: its length
 *
 * Like the kernel: the first occurrence of that text in the error_log
 * command, or 0 when it does not occur there (or is empty).
 *
 * Context: any.
 * Return: the caret position.
 */
u16 khist_hist_errpos(const struct khist_hist_cmd *cmd, u16 pos, u16 len)
{
	return find_mem(cmd->cmd, cmd->len, cmd->work + pos, len);
}

/**
 * khist_hist_errpos_str() - caret position of a literal string
 * @cmd: the command
 * @s:   text to look for, such as "sort="
 *
 * Context: any.
 * Return: position of its first occurrence in the command, or 0.
 */
u16 khist_hist_errpos_str(const struct khist_hist_cmd *cmd, const char *s)
{
	return find_mem(cmd->cmd, cmd->len, s, strlen(s));
}

/**
 * khist_hist_err_add() - append one error_log entry to @err
 * @err:  error record (may be NULL)
 * @code: enum khist_hist_errcode
 * @pos:  caret position
 *
 * Context: any.
 */
void khist_hist_err_add(struct khist_hist_err *err, unsigned int code,
			u16 pos)
{
	if (!err || err->n >= KHIST_HIST_ERRS_MAX)
		return;
	err->e[err->n].code = code;
	err->e[err->n].pos = pos;
	err->n++;
}

/**
 * khist_parse_u64() - parse an unsigned number like kstrtoull(s, 0, ...)
 * @s:   text (need not be NUL-terminated)
 * @len: its length
 * @val: result
 *
 * Accepts an optional '+', then "0x"/"0X" hex, leading-0 octal or
 * decimal, and one optional trailing newline; nothing else.
 *
 * Context: any.
 * Return: 0, -EINVAL for bad syntax, -ERANGE on overflow.
 */
int khist_parse_u64(const char *s, size_t len, u64 *val)
{
	unsigned int base = 10, d;
	size_t i = 0, start;
	u64 v = 0;

	if (len && s[len - 1] == '\n')
		len--;
	if (i < len && s[i] == '+')
		i++;
	if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (i < len && s[i] == '0') {
		base = 8;
	}
	start = i;
	for (; i < len; i++) {
		char c = s[i];

		if (is_digit(c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (i == start)
		return -EINVAL;
	*val = v;
	return 0;
}

/* ---- expressions -------------------------------------------------------- */

struct pctx {
	struct khist_hist_cmd *cmd;
	struct khist_hist_err *err;
	const char *w;
	int nomem;
};

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

	if (s.len && is_digit(w[s.pos])) {
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

static struct khist_ex *parse_expr_top(struct pctx *p, struct khist_span s)
{
	unsigned int n = 0;

	return parse_ex(p, s, &n);
}

/* ---- attributes ---------------------------------------------------------- */

struct raw_attrs {
	struct khist_span keys, vals, sort;
	u8 has_vals;
	struct khist_span assign[KHIST_VARS_MAX];
	unsigned int n_assign;
};

static int fail(struct pctx *p, unsigned int code, u16 pos)
{
	khist_hist_err_add(p->err, code, pos);
	return -EINVAL;
}

static u16 epos(struct pctx *p, struct khist_span s)
{
	return khist_hist_errpos(p->cmd, s.pos, s.len);
}

static struct khist_span strip(const char *w, struct khist_span s)
{
	while (s.len && (is_blank(w[s.pos]) || w[s.pos] == '\n')) {
		s.pos++;
		s.len--;
	}
	while (s.len && (is_blank(w[s.pos + s.len - 1]) ||
			 w[s.pos + s.len - 1] == '\n'))
		s.len--;
	return s;
}

/*
 * Next piece of @rest up to @sep, like strsep(): returns false when @rest
 * is exhausted (the "NULL" state is @rest->len == U16_MAX-style flag).
 */
struct splitter {
	struct khist_span rest;
	bool done;
};

static bool split_next(const char *w, struct splitter *sp, char sep,
		       struct khist_span *out)
{
	int i;

	if (sp->done)
		return false;
	i = find_chr(w, sp->rest, sep);
	if (i < 0) {
		*out = sp->rest;
		sp->done = true;
		return true;
	}
	*out = mkspan(sp->rest.pos, i - sp->rest.pos);
	sp->rest = mkspan(i + 1, sp->rest.pos + sp->rest.len - i - 1);
	return true;
}

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
		struct khist_span c = strip(w, mkspan(tok.pos + 6,
						      tok.len - 6));

		cmd->clock = khist_arena_strndup(&cmd->arena, w + c.pos,
						 c.len);
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

/* ---- handlers and actions ------------------------------------------------ */

static int parse_params(struct pctx *p, struct khist_action *a,
			struct khist_span params)
{
	struct splitter sp = { .rest = params };
	struct khist_span par;
	bool first = true;

	a->params = khist_arena_alloc(&p->cmd->arena, KHIST_PARAMS_MAX *
				      sizeof(*a->params));
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
	struct khist_span name, rest;
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
	if (has_prefix(w, name, "save")) {
		int ret;

		ret = parse_params(p, a, rp < 0 ? rest :
				   mkspan(rest.pos, rp - rest.pos));
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
		ret = parse_params(p, a, rp < 0 ? rest :
				   mkspan(rest.pos, rp - rest.pos));
		if (ret)
			return ret;
		a->action = KHIST_ACTION_TRACE;
	}
	return 0;
}

static int parse_handler(struct pctx *p, struct khist_action *a)
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
	return parse_action_part(p, a, mkspan(rp + 1,
					      s.pos + s.len - rp - 1));
}

/* ---- items -------------------------------------------------------------- */

static int parse_var_defs(struct pctx *p, struct raw_attrs *ra)
{
	struct khist_hist_cmd *cmd = p->cmd;
	unsigned int i;

	for (i = 0; i < ra->n_assign; i++) {
		struct splitter sp = { .rest = ra->assign[i] };
		struct khist_span def;

		while (split_next(p->w, &sp, ',', &def)) {
			int eq = find_chr(p->w, def, '=');
			struct khist_item *it;

			if (eq < 0)
				return fail(p, KHIST_HERR_MALFORMED_ASSIGNMENT,
					    epos(p, def));
			if (cmd->n_vars == KHIST_VARS_MAX)
				return fail(p, KHIST_HERR_TOO_MANY_VARS,
					    epos(p, mkspan(def.pos,
							   eq - def.pos)));
			it = &cmd->vars[cmd->n_vars++];
			it->var = mkspan(def.pos, eq - def.pos);
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
			cmd->vals[i].ex = parse_expr_top(p, cmd->vals[i].text);
	for (i = 0; i < cmd->n_vars; i++)
		cmd->vars[i].ex = parse_expr_top(p, cmd->vars[i].text);
	for (i = 0; i < cmd->n_keys; i++)
		if (!cmd->keys[i].legacy_stack)
			cmd->keys[i].ex = parse_expr_top(p, cmd->keys[i].text);
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
		ret = parse_handler(p, &cmd->actions[i]);
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
int khist_hist_parse(const char *text, size_t len,
		     struct khist_hist_cmd **out, struct khist_hist_err *err)
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
