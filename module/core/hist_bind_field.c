// SPDX-License-Identifier: GPL-2.0
/*
 * hist_bind_field.c - binding of one operand or expression of a hist
 * command to the event: field lookup (event fields, the common header,
 * common_timestamp, common_cpu/cpu/CPU, stacks, hitcount), modifiers,
 * variable references, constant folding and the unit check, with the
 * kernel's errors and carets. The result is a tree of struct
 * khist_bfield (hist_bind.h).
 */
#include "core_env.h"
#include "hist_bind_int.h"
#include "hist_print.h"

/* The common header, as ftrace describes it. */
static const struct khist_field_desc khist_common_fields[] = {
	{ "common_type", "unsigned short", 0, 2, 0, KHIST_FK_INT, 2 },
	{ "common_flags", "unsigned char", 2, 1, 0, KHIST_FK_INT, 1 },
	{ "common_preempt_count", "unsigned char", 3, 1, 0, KHIST_FK_INT, 1 },
	{ "common_pid", "int", 4, 4, 1, KHIST_FK_INT, 4 },
};

/* Name and rendered text, computed once the node is complete. */
static int finish_bf(struct bctx *b, struct khist_bfield *f)
{
	struct khist_out s = { NULL, 0, 0 };
	char *t;

	if (f->kind == KHIST_BF_BINOP || f->kind == KHIST_BF_UMINUS ||
	    (f->flags & KHIST_HF_CONST && f->kind == KHIST_BF_CONST && f->l)) {
		khist_bfield_render(&s, f);
		t = khist_arena_alloc(&b->spec->arena, s.len + 1);
		if (!t)
			return b->ret = -ENOMEM;
		s.buf = t;
		s.size = s.len + 1;
		s.len = 0;
		khist_bfield_render(&s, f);
		f->text = t;
		if (f->kind != KHIST_BF_CONST)
			f->name = t;
	}
	if (!f->name)
		f->name = "";
	if (!f->text)
		f->text = f->name;
	return 0;
}

static const struct khist_field_desc *
find_field(const struct khist_event_schema *sc, const char *n, size_t len)
{
	unsigned int i;

	for (i = 0; i < sc->nr_fields; i++)
		if (eqn(n, len, sc->fields[i].name))
			return &sc->fields[i];
	for (i = 0; i < ARRAY_SIZE(khist_common_fields); i++)
		if (eqn(n, len, khist_common_fields[i].name))
			return &khist_common_fields[i];
	return NULL;
}

/* Modifiers that are a whole word, in the kernel's order of checks. */
static const struct {
	const char *name;
	u32 flag;
} khist_word_mods[] = {
	{ "hex", KHIST_HF_HEX },
	{ "sym", KHIST_HF_SYM },
	{ "symXoffset", KHIST_HF_SYM_OFFSET },
	{ "execname", KHIST_HF_EXECNAME },
	{ "syscall", KHIST_HF_SYSCALL },
	{ "stacktrace", KHIST_HF_STACKTRACE },
	{ "log2", KHIST_HF_LOG2 },
	{ "usecs", KHIST_HF_USECS },
};

/* ".bucket=N" / ".buckets=N": @at is the modifier; moves to the error. */
static int parse_buckets(struct bctx *b, struct khist_span *at, u64 *buckets)
{
	const char *w = b->cmd->work;

	at->pos += 6;
	at->len -= 6;
	if (at->len && w[at->pos] == 's') {
		at->pos++;
		at->len--;
	}
	if (!at->len || w[at->pos] != '=')
		return -EINVAL;
	at->pos++;
	at->len--;
	if (khist_parse_u64(w + at->pos, at->len, buckets) || !*buckets)
		return -EINVAL;
	return 0;
}

/* Modifier text -> flag; mirrors the kernel's if/else chain. */
static int parse_mod(struct bctx *b, struct khist_span fname,
		     struct khist_span mod, u32 ctx, u32 *flags, u64 *buckets)
{
	const char *m = b->cmd->work + mod.pos;
	const u32 not_here = KHIST_HF_VAR | KHIST_HF_KEY;
	struct khist_span at = mod;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_word_mods); i++) {
		if (!eqn(m, mod.len, khist_word_mods[i].name))
			continue;
		/* .execname exists only on common_pid */
		if (khist_word_mods[i].flag == KHIST_HF_EXECNAME &&
		    !khist_span_eq(b->cmd, fname, "common_pid"))
			goto bad;
		*flags |= khist_word_mods[i].flag;
		return 0;
	}
	if (mod.len > 5 && !memcmp(m, "log2=", 5)) {
		/* khist extension: 2^k linear sub-buckets per power of two */
		at.pos += 5;
		at.len -= 5;
		if (khist_parse_u64(m + 5, at.len, buckets) || !*buckets ||
		    *buckets > KHIST_LOG2_SUB_MAX)
			goto bad;
		*flags |= KHIST_HF_LOG2;
	} else if (mod.len >= 6 && !memcmp(m, "bucket", 6)) {
		if (parse_buckets(b, &at, buckets))
			goto bad;
		*flags |= KHIST_HF_BUCKET;
	} else if (mod.len >= 7 && !memcmp(m, "percent", 7)) {
		if (ctx & not_here)
			goto bad;
		*flags |= KHIST_HF_PERCENT;
	} else if (mod.len >= 5 && !memcmp(m, "graph", 5)) {
		if (ctx & not_here)
			goto bad;
		*flags |= KHIST_HF_GRAPH;
	} else if (eqn(m, mod.len, "stats") || eqn(m, mod.len, "quantiles")) {
		/*
		 * khist extensions: a whole value only (not a key, a variable
		 * or an operand of an expression), one distribution each.
		 */
		if (!b->ops || !b->ops->dists || (ctx & not_here) ||
		    !b->dist_ok ||
		    (*flags & (KHIST_HF_STATS | KHIST_HF_QUANTILES)))
			goto bad;
		*flags |= m[0] == 's' ? KHIST_HF_STATS : KHIST_HF_QUANTILES;
	} else {
		goto bad;
	}
	return 0;
bad:
	return berr(b, KHIST_HERR_BAD_FIELD_MODIFIER, epos(b, at));
}

/* parse_field + create_hist_field: @str is "name[.modifier]". */
static struct khist_bfield *bind_field(struct bctx *b, struct khist_span str,
				       u32 ctx)
{
	const struct khist_event_schema *sc = b->spec->schema;
	const struct khist_field_desc *fd = NULL;
	struct khist_span fname = str, mod = { 0, 0 };
	const char *w = b->cmd->work;
	struct khist_bfield *f;
	u32 flags = ctx;
	u64 buckets = 0;
	u8 kind = KHIST_BF_FIELD;
	const char *cpu_alias = NULL;
	bool stack_mod = false;
	int i;

	for (i = 0; i < str.len; i++) {
		if (w[str.pos + i] == '.') {
			fname.len = i;
			mod.pos = str.pos + i + 1;
			mod.len = str.len - i - 1;
			if (parse_mod(b, fname, mod, ctx, &flags, &buckets))
				return NULL;
			stack_mod = !!(flags & KHIST_HF_STACKTRACE);
			break;
		}
	}
	if (khist_span_eq(b->cmd, fname, "common_timestamp")) {
		kind = KHIST_BF_TIMESTAMP;
		flags |= KHIST_HF_TIMESTAMP;
		b->spec->timestamps = 1;
		if (flags & KHIST_HF_USECS)
			b->spec->ts_usecs = 1;
	} else if (khist_span_eq(b->cmd, fname, "common_stacktrace")) {
		kind = KHIST_BF_STACK;
		flags |= KHIST_HF_STACKTRACE;
	} else if (khist_span_eq(b->cmd, fname, "common_cpu")) {
		kind = KHIST_BF_CPU;
		flags |= KHIST_HF_CPU;
	} else if (khist_span_eq(b->cmd, fname, "hitcount")) {
		kind = KHIST_BF_HITCOUNT;
		flags |= KHIST_HF_HITCOUNT;
	} else {
		fd = find_field(sc, w + fname.pos, fname.len);
		if (!fd) {
			if (khist_span_eq(b->cmd, fname, "cpu") ||
			    khist_span_eq(b->cmd, fname, "CPU")) {
				kind = KHIST_BF_CPU;
				flags |= KHIST_HF_CPU;
				/* ftrace names it after the generic field */
				cpu_alias = w[fname.pos] == 'c' ? "cpu" : "CPU";
			} else if (khist_span_eq(b->cmd, fname, "stacktrace") ||
				   khist_span_eq(b->cmd, fname, "STACKTRACE")) {
				kind = KHIST_BF_STACK;
				flags |= KHIST_HF_STACKTRACE;
			} else {
				berr(b, KHIST_HERR_FIELD_NOT_FOUND,
				     epos(b, fname));
				return NULL;
			}
		}
	}
	if (stack_mod && (!fd || fd->kind != KHIST_FK_STACKTRACE)) {
		berr(b, KHIST_HERR_BAD_FIELD_MODIFIER, epos(b, str));
		return NULL;
	}
	f = new_bf(b, kind);
	if (!f)
		return NULL;
	f->field = fd;
	f->buckets = buckets;
	switch (kind) {
	case KHIST_BF_TIMESTAMP:
	case KHIST_BF_HITCOUNT:
		f->size = 8;
		break;
	case KHIST_BF_CPU:
		f->size = 4;
		break;
	case KHIST_BF_STACK:
		f->size = KHIST_STACK_SIZE;
		break;
	default:
		switch (fd->kind) {
		case KHIST_FK_STRING:
			flags |= KHIST_HF_STRING;
			f->size = fd->size;
			break;
		case KHIST_FK_DYNSTRING:
		case KHIST_FK_RELSTRING:
			flags |= KHIST_HF_STRING;
			f->size = KHIST_STR_MAX;
			break;
		case KHIST_FK_STACKTRACE:
			/* khist: 128 bytes with or without .stacktrace */
			f->kind = KHIST_BF_STACK;
			flags |= KHIST_HF_STACKTRACE;
			f->size = KHIST_STACK_SIZE;
			break;
		case KHIST_FK_INT:
		case KHIST_FK_PTRSTRING:
			if (fd->size != 1 && fd->size != 2 && fd->size != 4 &&
			    fd->size != 8)
				goto unsupported;
			f->size = fd->size;
			f->is_signed = fd->kind == KHIST_FK_INT &&
				       fd->is_signed;
			break;
		default:
			goto unsupported;
		}
	}
	if (flags & KHIST_HF_EXECNAME && ctx & KHIST_HF_VAR) {
		flags |= KHIST_HF_STRING;
		f->size = KHIST_STR_MAX;
		f->is_signed = 0;
	}
	f->flags = flags;
	if (fd)
		f->name = fd->name;
	else if (kind == KHIST_BF_CPU)
		f->name = cpu_alias ? cpu_alias : "common_cpu";
	else if (kind == KHIST_BF_TIMESTAMP)
		f->name = "common_timestamp";
	else if (kind == KHIST_BF_STACK)
		f->name = "common_stacktrace";
	else
		f->name = "hitcount";
	finish_bf(b, f);
	return f;
unsupported:
	berr(b, KHIST_HERR_UNSUPPORTED_FIELD, epos(b, fname));
	return NULL;
}

/* A same-trigger variable defined as a plain field: its text, or NULL. */
static const struct khist_item *
local_plain_var(struct bctx *b, const struct khist_ex *e, struct khist_span v)
{
	struct khist_hist_cmd *cmd = b->cmd;
	const struct khist_event_schema *sc = b->spec->schema;
	unsigned int i;

	if (e->qualified && (!khist_span_eq(cmd, e->sys, sc->system) ||
			     !khist_span_eq(cmd, e->event, sc->name)))
		return NULL;
	if (!e->is_ref)
		return NULL;
	v.pos++;
	v.len--;
	for (i = 0; i < cmd->n_vars; i++) {
		const struct khist_item *it = &cmd->vars[i];
		const struct khist_ex *d = it->ex;

		if (it->var.len != v.len ||
		    memcmp(cmd->work + it->var.pos, cmd->work + v.pos, v.len))
			continue;
		if (!d || d->kind == KHIST_EX_BINOP ||
		    d->kind == KHIST_EX_UMINUS || d->kind == KHIST_EX_ERR ||
		    (d->kind == KHIST_EX_ATOM && d->is_ref))
			continue;
		return it;
	}
	return NULL;
}

static struct khist_bfield *bind_ref(struct bctx *b, const struct khist_ex *e,
				     struct khist_span v,
				     struct khist_var_info *info)
{
	struct khist_bfield *f;
	int ret = 0;

	v.pos++;
	v.len--;
	f = new_bf(b, KHIST_BF_VARREF);
	if (!f)
		return NULL;
	f->flags = KHIST_HF_VARREF;
	f->ref_qualified = e->qualified;
	f->ref_sys = e->qualified ? sdup(b, e->sys) : "";
	f->ref_event = e->qualified ? sdup(b, e->event) : "";
	f->ref_var = sdup(b, v);
	f->size = 8;
	if (b->ret)
		return NULL;
	if (b->ops && b->ops->find_var) {
		ret = b->ops->find_var(b->ops->ctx, f->ref_sys, f->ref_event,
				       f->ref_var, info);
		if (ret == -ENOTUNIQ) {
			/* The kernel goes on as for a missing variable. */
			berr(b, KHIST_HERR_VAR_NOT_UNIQUE, epos(b, v));
			berr(b, KHIST_HERR_VAR_NOT_FOUND, epos(b, v));
			return NULL;
		}
		if (ret) {
			berr(b, KHIST_HERR_VAR_NOT_FOUND, epos(b, v));
			return NULL;
		}
		f->ref_resolved = 1;
		if (info->usecs)
			f->flags |= KHIST_HF_USECS;
		if (info->is_string)
			f->flags |= KHIST_HF_STRING;
		f->size = info->size;
	}
	if (e->qualified) {
		struct khist_out s = { NULL, 0, 0 };
		char *t;

		khist_out_puts(&s, f->ref_sys);
		khist_out_puts(&s, ".");
		khist_out_puts(&s, f->ref_event);
		khist_out_puts(&s, ".$");
		khist_out_puts(&s, f->ref_var);
		t = khist_arena_alloc(&b->spec->arena, s.len + 1);
		if (!t) {
			b->ret = -ENOMEM;
			return NULL;
		}
		s.buf = t;
		s.size = s.len + 1;
		s.len = 0;
		khist_out_puts(&s, f->ref_sys);
		khist_out_puts(&s, ".");
		khist_out_puts(&s, f->ref_event);
		khist_out_puts(&s, ".$");
		khist_out_puts(&s, f->ref_var);
		f->name = t;
	} else {
		f->name = f->ref_var;
	}
	f->text = f->name;
	return f;
}

/* "$var.stats" or "$var.quantiles" (khist extension)? */
static bool is_dist_ref(struct bctx *b, const struct khist_ex *e)
{
	const char *m = b->cmd->work + e->mod.pos;

	return e->is_ref && e->has_mod && b->ops && b->ops->dists &&
	       (eqn(m, e->mod.len, "stats") || eqn(m, e->mod.len, "quantiles"));
}

/* A variable of this trigger named @v ("$name"), whatever it holds. */
static const struct khist_item *
local_var(struct bctx *b, const struct khist_ex *e, struct khist_span v)
{
	struct khist_hist_cmd *cmd = b->cmd;
	const struct khist_event_schema *sc = b->spec->schema;
	unsigned int i;

	if (e->qualified && (!khist_span_eq(cmd, e->sys, sc->system) ||
			     !khist_span_eq(cmd, e->event, sc->name)))
		return NULL;
	v.pos++;
	v.len--;
	for (i = 0; i < cmd->n_vars; i++) {
		const struct khist_item *it = &cmd->vars[i];

		if (it->var.len == v.len &&
		    !memcmp(cmd->work + it->var.pos, cmd->work + v.pos, v.len))
			return it;
	}
	return NULL;
}

/*
 * khist: the distribution of a variable's value, "$var.quantiles". The
 * modifier is checked where it stands (a whole value of vals= only). A
 * variable of this trigger is computed from its definition as the value
 * (so "lat=common_timestamp.usecs-$ts0:vals=$lat.quantiles" works, where
 * ftrace finds no "$lat" among the values); the value is then named after
 * the variable and listed as written. Any other "$var" is bound as a
 * reference is, and carries the flag.
 */
static struct khist_bfield *bind_dist_ref(struct bctx *b,
					  const struct khist_ex *e, u32 ctx)
{
	const struct khist_item *lv = local_var(b, e, e->fname);
	struct khist_var_info info = { 0 };
	struct khist_bfield *f;
	u32 fl = 0;
	u64 buckets = 0;

	if (parse_mod(b, e->fname, e->mod, ctx, &fl, &buckets))
		return NULL;
	if (lv) {
		b->dist_ok = 0;
		f = khist_hist_bind_ex(b, lv->ex, ctx, NULL);
		if (!f)
			return NULL;
		/* a number, without a modifier that changes or shows it */
		if (f->flags &
		    (KHIST_HF_STRING | KHIST_HF_STACKTRACE | KHIST_HF_HEX |
		     KHIST_HF_SYM | KHIST_HF_SYM_OFFSET | KHIST_HF_EXECNAME |
		     KHIST_HF_SYSCALL | KHIST_HF_LOG2 | KHIST_HF_BUCKET)) {
			berr(b, KHIST_HERR_BAD_FIELD_MODIFIER, epos(b, e->mod));
			return NULL;
		}
		f->flags |= KHIST_HF_VARVAL;
		f->name = sdup(b, lv->var);
		if (!f->name)
			return NULL;
	} else {
		f = bind_ref(b, e, e->fname, &info);
		if (f && info.is_string) {
			berr(b, KHIST_HERR_BAD_FIELD_MODIFIER, epos(b, e->mod));
			return NULL;
		}
		if (f && info.is_const) {
			f->constant = info.constant;
			f->ref_const = 1;
		}
	}
	if (f)
		f->flags |= fl;
	return f;
}

static struct khist_bfield *bind_atom(struct bctx *b, const struct khist_ex *e,
				      u32 ctx, const char *var_name)
{
	const struct khist_item *lv;
	struct khist_var_info info = { 0 };
	struct khist_bfield *f, *a;

	if (is_dist_ref(b, e))
		return bind_dist_ref(b, e, ctx);
	lv = local_plain_var(b, e, e->name);
	if (lv)
		return bind_field(b, lv->text, ctx);
	if (e->is_ref) {
		f = bind_ref(b, e, e->name, &info);
		if (f) {
			if (info.is_const) {
				f->constant = info.constant;
				f->ref_const = 1;
			}
			f->is_signed = 0;
			if (!var_name)
				return f;
			a = new_bf(b, KHIST_BF_VARREF);
			if (!a)
				return NULL;
			*a = *f;
			a->flags = KHIST_HF_ALIAS | KHIST_HF_VAR;
			a->l = f;
			return a;
		}
		if (b->ret != -EINVAL)
			return NULL;
		/* The kernel retries the text as a field: second entry. */
	}
	return bind_field(b, e->name, ctx);
}

/*
 * A string operand is refused, but a reference to a string variable is
 * not: the kernel's reference fields do not carry the string flag.
 */
static bool is_str_operand(const struct khist_bfield *f)
{
	return (f->flags & KHIST_HF_STRING) && f->kind != KHIST_BF_VARREF;
}

static bool is_const(const struct khist_bfield *f, u64 *v)
{
	if ((f->flags & KHIST_HF_CONST) || f->ref_const) {
		*v = f->constant;
		return true;
	}
	return false;
}

/**
 * khist_hist_bind_ex() - bind an expression tree
 * @b:        the bind
 * @e:        the parsed expression
 * @ctx:      KHIST_HF_KEY or KHIST_HF_VAR for a key or variable, else 0
 * @var_name: the variable being defined, or NULL
 *
 * Context: process context, may sleep.
 * Return: the bound tree, or NULL with @b->ret set (and the error logged).
 */
struct khist_bfield *khist_hist_bind_ex(struct bctx *b,
					const struct khist_ex *e, u32 ctx,
					const char *var_name)
{
	struct khist_bfield *f, *l, *r;
	u64 lv = 0, rv = 0;
	bool lc, rc;

	if (!e)
		return NULL;
	switch (e->kind) {
	case KHIST_EX_ERR:
		berr(b, e->err, e->err_pos);
		return NULL;
	case KHIST_EX_CONST:
		f = new_bf(b, KHIST_BF_CONST);
		if (!f)
			return NULL;
		f->flags = KHIST_HF_CONST | (ctx & ~KHIST_HF_KEY);
		f->constant = e->constant;
		f->size = 8;
		finish_bf(b, f);
		return f;
	case KHIST_EX_ATOM:
		return bind_atom(b, e, ctx, var_name);
	case KHIST_EX_UMINUS:
		b->dist_ok = 0;
		l = khist_hist_bind_ex(b, e->l, 0, NULL);
		if (!l)
			return NULL;
		if (is_str_operand(l)) {
			berr(b, KHIST_HERR_INVALID_STR_OPERAND,
			     epos(b, e->l->text));
			return NULL;
		}
		f = new_bf(b, KHIST_BF_UMINUS);
		if (!f)
			return NULL;
		f->flags = KHIST_HF_EXPR | ctx |
			   (l->flags & (KHIST_HF_TIMESTAMP | KHIST_HF_USECS));
		f->l = l;
		f->size = l->size;
		f->is_signed = l->is_signed;
		finish_bf(b, f);
		return f;
	default:
		break;
	}
	/* Operands are no whole value: no .stats/.quantiles on them. */
	b->dist_ok = 0;
	l = khist_hist_bind_ex(b, e->l, 0, NULL);
	if (!l)
		return NULL;
	if (is_str_operand(l)) {
		berr(b, KHIST_HERR_INVALID_STR_OPERAND, epos(b, e->l->text));
		return NULL;
	}
	r = khist_hist_bind_ex(b, e->r, 0, NULL);
	if (!r)
		return NULL;
	if (is_str_operand(r)) {
		berr(b, KHIST_HERR_INVALID_STR_OPERAND, epos(b, e->r->text));
		return NULL;
	}
	/* Units: unresolved references are checked by the inter-event layer. */
	if (!(l->kind == KHIST_BF_VARREF && !l->ref_resolved) &&
	    !(r->kind == KHIST_BF_VARREF && !r->ref_resolved) &&
	    (l->flags & KHIST_HF_USECS) != (r->flags & KHIST_HF_USECS)) {
		berr(b, KHIST_HERR_TIMESTAMP_MISMATCH, 0);
		return NULL;
	}
	lc = is_const(l, &lv);
	rc = is_const(r, &rv);
	if (e->op == '/' && rc && !rv) {
		berr(b, KHIST_HERR_DIVISION_BY_ZERO, epos(b, e->r->text));
		return NULL;
	}
	f = new_bf(b, KHIST_BF_BINOP);
	if (!f)
		return NULL;
	f->op = e->op;
	f->l = l;
	f->r = r;
	f->flags = ctx | (l->flags & (KHIST_HF_TIMESTAMP | KHIST_HF_USECS));
	if (lc && rc) {
		u64 v;

		switch (e->op) {
		case '+':
			v = lv + rv;
			break;
		case '-':
			v = lv - rv;
			break;
		case '*':
			v = lv * rv;
			break;
		default:
			v = div64_u64(lv, rv); /* exact: khist deviation */
			break;
		}
		f->kind = KHIST_BF_CONST;
		f->flags |= KHIST_HF_CONST;
		f->flags &= ~KHIST_HF_KEY;
		f->constant = v;
		f->size = 8;
		f->l = NULL;
		f->r = NULL;
	} else {
		f->flags |= KHIST_HF_EXPR;
		f->size = l->size;
		f->is_signed = l->is_signed;
	}
	finish_bf(b, f);
	return f;
}
