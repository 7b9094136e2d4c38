// SPDX-License-Identifier: GPL-2.0
/*
 * hist_print.c - the trigger listing line, expression texts and the
 * syntax tree dump (see hist_print.h). The listing follows Linux 6.12
 * byte for byte: the attribute order, "vals=hitcount" first, only
 * ".descending" printed, clock only with common_timestamp, and so on.
 */
#include "core_env.h"
#include "hist_print.h"
#include "qsketch.h"

/**
 * khist_hist_flags_str() - the modifier the listing shows for @flags
 * @flags: KHIST_HF_* flags
 *
 * Only one modifier is shown, the first in the kernel's order.
 *
 * Context: any.
 * Return: modifier text without the dot, or NULL.
 */
const char *khist_hist_flags_str(u32 flags)
{
	static const struct {
		u32 flag;
		const char *text;
	} order[] = {
		{ KHIST_HF_HEX, "hex" },
		{ KHIST_HF_SYM, "sym" },
		{ KHIST_HF_SYM_OFFSET, "sym-offset" },
		{ KHIST_HF_EXECNAME, "execname" },
		{ KHIST_HF_SYSCALL, "syscall" },
		{ KHIST_HF_LOG2, "log2" },
		{ KHIST_HF_BUCKET, "buckets" },
		{ KHIST_HF_USECS, "usecs" },
		{ KHIST_HF_PERCENT, "percent" },
		{ KHIST_HF_GRAPH, "graph" },
		{ KHIST_HF_STACKTRACE, "stacktrace" },
		/* khist extensions */
		{ KHIST_HF_STATS, "stats" },
		{ KHIST_HF_QUANTILES, "quantiles" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (flags & order[i].flag)
			return order[i].text;
	return NULL;
}

/* An operand inside an expression text. */
static void operand_str(struct khist_out *s, const struct khist_bfield *f)
{
	const char *fl;

	if (f->flags & KHIST_HF_VARREF) {
		if (!f->ref_qualified)
			khist_out_puts(s, "$");
	} else if (f->flags & KHIST_HF_CONST) {
		khist_out_u64(s, f->constant);
	}
	if (f->kind != KHIST_BF_CONST)
		khist_out_puts(s, f->name ? f->name : "");
	if (f->flags && !(f->flags & KHIST_HF_VARREF)) {
		fl = khist_hist_flags_str(f->flags);
		if (fl) {
			khist_out_puts(s, ".");
			khist_out_puts(s, fl);
		}
	}
}

/**
 * khist_bfield_render() - the text of an expression (also its name)
 * @s: builder
 * @f: bound node
 *
 * Context: any.
 */
void khist_bfield_render(struct khist_out *s, const struct khist_bfield *f)
{
	if (f->kind == KHIST_BF_UMINUS) {
		khist_out_puts(s, "-(");
		if (f->l->kind == KHIST_BF_BINOP)
			khist_out_puts(s, f->l->text);
		else
			operand_str(s, f->l);
		khist_out_puts(s, ")");
		return;
	}
	if (f->kind != KHIST_BF_BINOP) {
		operand_str(s, f);
		return;
	}
	operand_str(s, f->l);
	khist_out_putn(s, &f->op, 1);
	operand_str(s, f->r);
}

/**
 * khist_bfield_print() - a key, value, variable or sort key as listed
 * @s: builder
 * @f: bound node
 *
 * Context: any.
 */
void khist_bfield_print(struct khist_out *s, const struct khist_bfield *f)
{
	const char *fl;

	if (f->var_name) {
		khist_out_puts(s, f->var_name);
		khist_out_puts(s, "=");
	}
	if (f->flags & KHIST_HF_VARVAL) {
		/* khist: "$lat.quantiles", as written */
		khist_out_puts(s, "$");
		khist_out_puts(s, f->name);
		khist_out_puts(s, ".");
		khist_out_puts(s, khist_hist_flags_str(f->flags &
						       (KHIST_HF_STATS |
							KHIST_HF_QUANTILES)));
		return;
	}
	if (f->kind == KHIST_BF_CPU) {
		khist_out_puts(s, "common_cpu");
	} else if (f->flags & KHIST_HF_CONST) {
		khist_out_u64(s, f->constant);
	} else {
		if ((f->flags & (KHIST_HF_VARREF | KHIST_HF_ALIAS)) &&
		    !f->ref_qualified)
			khist_out_puts(s, "$");
		khist_out_puts(s, f->name);
	}
	if (!(f->flags &
	      (KHIST_HF_VARREF | KHIST_HF_EXPR | KHIST_HF_STACKTRACE)) ||
	    (f->flags & (KHIST_HF_STATS | KHIST_HF_QUANTILES))) {
		fl = khist_hist_flags_str(f->flags);
		if (fl) {
			khist_out_puts(s, ".");
			khist_out_puts(s, fl);
		}
	}
	if (f->buckets) {
		khist_out_puts(s, "=");
		khist_out_u64(s, f->buckets);
	}
}

static void print_action(struct khist_out *s, const struct khist_hist_cmd *c,
			 const struct khist_action *a)
{
	const char *w = c->work;
	unsigned int i;

	if (a->handler == KHIST_HANDLER_ONMATCH) {
		khist_out_puts(s, ":onmatch(");
		khist_out_putn(s, w + a->sys.pos, a->sys.len);
		khist_out_puts(s, ".");
		khist_out_putn(s, w + a->event.pos, a->event.len);
		khist_out_puts(s, ").");
	} else {
		khist_out_puts(s, a->handler == KHIST_HANDLER_ONMAX ?
					  ":onmax(" :
					  ":onchange(");
		khist_out_putn(s, w + a->arg.pos, a->arg.len);
		khist_out_puts(s, ").");
	}
	khist_out_putn(s, w + a->name.pos, a->name.len);
	khist_out_puts(s, "(");
	if (a->action != KHIST_ACTION_SNAPSHOT) {
		if (a->trace_kw)
			khist_out_putn(s, w + a->synth.pos, a->synth.len);
		for (i = 0; i < a->n_params; i++) {
			if (i || a->trace_kw)
				khist_out_puts(s, ",");
			khist_out_putn(s, w + a->params[i].pos,
				       a->params[i].len);
		}
	}
	khist_out_puts(s, ")");
}

static void print_sort_key(struct khist_out *s,
			   const struct khist_hist_spec *sp,
			   const struct khist_hsort *hs)
{
	const struct khist_bfield *f;
	bool q;

	if (hs->src == KHIST_SORT_HITCOUNT) {
		khist_out_puts(s, "hitcount");
	} else if (hs->src == KHIST_SORT_VAL && hs->fig) {
		/* A figure of a .stats/.quantiles value: "lat.p99". */
		f = sp->vals[hs->idx];
		khist_out_puts(s, f->name);
		khist_out_puts(s, ".");
		q = f->flags & KHIST_HF_QUANTILES;
		khist_out_puts(s, khist_qs_figure_name(q, hs->fig - 1));
	} else if (hs->src == KHIST_SORT_VAL) {
		khist_bfield_print(s, sp->vals[hs->idx]);
	} else {
		khist_bfield_print(s, sp->keys[hs->idx].f);
	}
	if (hs->descending)
		khist_out_puts(s, ".descending");
}

/**
 * khist_hist_print() - the trigger listing line, with its '\n'
 * @spec:   bound trigger
 * @paused: print " [paused]" rather than " [active]"
 * @buf:    destination (NUL-terminated, truncated if too small)
 * @size:   size of @buf
 *
 * The `trigger` file prints this line; `hist` prints it after
 * "# trigger info: ".
 *
 * Context: any.
 * Return: length of the full line (may be >= @size: then truncated).
 */
int khist_hist_print(const struct khist_hist_spec *spec, bool paused, char *buf,
		     size_t size)
{
	struct khist_out s = { buf, size, 0 };
	bool have_var = false, shown = false;
	unsigned int i;

	if (size)
		buf[0] = '\0';
	khist_out_puts(&s, "hist:");
	if (spec->name) {
		khist_out_puts(&s, "name=");
		khist_out_puts(&s, spec->name);
		khist_out_puts(&s, ":");
	}
	khist_out_puts(&s, "keys=");
	for (i = 0; i < spec->n_keys; i++) {
		const struct khist_bfield *f = spec->keys[i].f;

		if (i)
			khist_out_puts(&s, ",");
		if (f->flags & KHIST_HF_STACKTRACE) {
			if (f->field) {
				khist_out_puts(&s, f->field->name);
				khist_out_puts(&s, ".stacktrace");
			} else {
				khist_out_puts(&s, "common_stacktrace");
			}
		} else {
			khist_bfield_print(&s, f);
		}
	}
	khist_out_puts(&s, ":vals=");
	for (i = 0; i < spec->n_vals; i++) {
		if (i == 0) {
			if (spec->nohitcount)
				continue;
			khist_out_puts(&s, "hitcount");
		} else {
			if (shown)
				khist_out_puts(&s, ",");
			khist_bfield_print(&s, spec->vals[i]);
		}
		shown = true;
	}
	have_var = spec->n_vars > 0;
	if (have_var) {
		khist_out_puts(&s, ":");
		for (i = 0; i < spec->n_vars; i++) {
			if (i)
				khist_out_puts(&s, ",");
			khist_bfield_print(&s, spec->vars[i].f);
		}
	}
	khist_out_puts(&s, ":sort=");
	if (!spec->cmd->has_sort) {
		khist_out_puts(&s, "hitcount");
	} else {
		for (i = 0; i < spec->n_sort; i++) {
			if (i)
				khist_out_puts(&s, ",");
			print_sort_key(&s, spec, &spec->sort[i]);
		}
	}
	khist_out_puts(&s, ":size=");
	khist_out_u64(&s, 1ULL << spec->map_bits);
	if (spec->timestamps) {
		khist_out_puts(&s, ":clock=");
		khist_out_puts(&s, spec->clock);
	}
	if (spec->nohitcount)
		khist_out_puts(&s, ":nohitcount");
	for (i = 0; i < spec->cmd->n_actions; i++)
		print_action(&s, spec->cmd, &spec->cmd->actions[i]);
	if (spec->filter) {
		khist_out_puts(&s, " if ");
		khist_out_puts(&s, spec->filter);
	}
	khist_out_puts(&s, paused ? " [paused]\n" : " [active]\n");
	return s.len;
}

static void dump_span(struct khist_out *s, const struct khist_hist_cmd *c,
		      struct khist_span sp)
{
	khist_out_putn(s, c->work + sp.pos, sp.len);
}

static void dump_ex(struct khist_out *s, const struct khist_hist_cmd *c,
		    const struct khist_ex *e)
{
	if (!e) {
		khist_out_puts(s, "_");
		return;
	}
	switch (e->kind) {
	case KHIST_EX_CONST:
		khist_out_puts(s, "#");
		khist_out_u64(s, e->constant);
		break;
	case KHIST_EX_ATOM:
		khist_out_puts(s, e->is_ref ? "R(" : "F(");
		if (e->qualified) {
			dump_span(s, c, e->sys);
			khist_out_puts(s, "|");
			dump_span(s, c, e->event);
			khist_out_puts(s, "|");
		}
		dump_span(s, c, e->fname);
		if (e->has_mod) {
			khist_out_puts(s, " mod=");
			dump_span(s, c, e->mod);
		}
		khist_out_puts(s, ")");
		break;
	case KHIST_EX_UMINUS:
		khist_out_puts(s, "neg(");
		dump_ex(s, c, e->l);
		khist_out_puts(s, ")");
		break;
	case KHIST_EX_BINOP:
		khist_out_puts(s, "(");
		dump_ex(s, c, e->l);
		khist_out_putn(s, &e->op, 1);
		dump_ex(s, c, e->r);
		khist_out_puts(s, ")");
		break;
	default:
		khist_out_puts(s, "ERR(");
		khist_out_puts(s, khist_hist_err_text(e->err));
		khist_out_puts(s, "@");
		khist_out_u64(s, e->err_pos);
		khist_out_puts(s, ")");
		break;
	}
}

/**
 * khist_hist_dump() - one-line debug rendering of a syntax tree
 * @cmd:  parsed command
 * @buf:  destination
 * @size: its size
 *
 * Format: "keys=<ex>,..;vals=..;vars=n:<ex>,..;sort=..;size=bits;..."
 * with F(field mod=m), R($var), #const, (l op r), neg(x), ERR(text@pos).
 *
 * Context: any.
 * Return: length of the full text.
 */
int khist_hist_dump(const struct khist_hist_cmd *cmd, char *buf, size_t size)
{
	struct khist_out s = { buf, size, 0 };
	unsigned int i;

	if (size)
		buf[0] = '\0';
	khist_out_puts(&s, cmd->remove ? "!keys=" : "keys=");
	for (i = 0; i < cmd->n_keys; i++) {
		if (i)
			khist_out_puts(&s, ",");
		if (cmd->keys[i].legacy_stack)
			khist_out_puts(&s, "STACK");
		else
			dump_ex(&s, cmd, cmd->keys[i].ex);
	}
	khist_out_puts(&s, ";vals=");
	for (i = 0; i < cmd->n_vals; i++) {
		if (i)
			khist_out_puts(&s, ",");
		if (cmd->vals[i].hitcount)
			khist_out_puts(&s, "HC");
		else
			dump_ex(&s, cmd, cmd->vals[i].ex);
	}
	khist_out_puts(&s, ";vars=");
	for (i = 0; i < cmd->n_vars; i++) {
		if (i)
			khist_out_puts(&s, ",");
		dump_span(&s, cmd, cmd->vars[i].var);
		khist_out_puts(&s, ":");
		dump_ex(&s, cmd, cmd->vars[i].ex);
	}
	khist_out_puts(&s, ";sort=");
	for (i = 0; i < cmd->n_sort; i++) {
		if (i)
			khist_out_puts(&s, ",");
		dump_span(&s, cmd, cmd->sort[i].text);
	}
	khist_out_puts(&s, ";bits=");
	khist_out_u64(&s, cmd->map_bits);
	if (cmd->has_name) {
		khist_out_puts(&s, ";name=");
		dump_span(&s, cmd, cmd->name);
	}
	khist_out_puts(&s, ";clock=");
	khist_out_puts(&s, cmd->clock);
	if (cmd->pause)
		khist_out_puts(&s, ";pause");
	if (cmd->cont)
		khist_out_puts(&s, ";cont");
	if (cmd->clear)
		khist_out_puts(&s, ";clear");
	if (cmd->nohitcount)
		khist_out_puts(&s, ";nohitcount");
	for (i = 0; i < cmd->n_actions; i++) {
		const struct khist_action *a = &cmd->actions[i];
		unsigned int j;

		khist_out_puts(&s, ";action=");
		khist_out_u64(&s, a->handler);
		khist_out_puts(&s, "/");
		khist_out_u64(&s, a->action);
		khist_out_puts(&s, "[");
		dump_span(&s, cmd, a->arg);
		khist_out_puts(&s, "]");
		dump_span(&s, cmd, a->synth);
		for (j = 0; j < a->n_params; j++) {
			khist_out_puts(&s, j ? "," : ":");
			dump_span(&s, cmd, a->params[j]);
		}
	}
	if (cmd->has_filter) {
		khist_out_puts(&s, ";if=");
		dump_span(&s, cmd, cmd->filter);
	}
	return s.len;
}
