/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_bind_int.h - what the two files of the hist binder share
 * (hist_bind_field.c: operands, modifiers and expressions; hist_bind.c:
 * values, variables, keys, sort keys, actions and the entry points). Not
 * for users of the binder, who include hist_bind.h.
 */
#ifndef _KHIST_CORE_HIST_BIND_INT_H
#define _KHIST_CORE_HIST_BIND_INT_H

#include "core_env.h"
#include "hist_bind.h"

/**
 * struct bctx - state of one bind
 * @cmd:  the parsed command
 * @spec: the spec being built
 * @ops:  the caller's lookups (may be NULL)
 * @err:  where errors go (may be NULL)
 * @ret:  the first failure (-EINVAL, -EDOM, -EEXIST, -ENOMEM), or 0
 * @dist_ok: the operand being bound is a whole value of vals= (not an
 *        operand of an expression), so .stats and .quantiles may apply
 */
struct bctx {
	struct khist_hist_cmd *cmd;
	struct khist_hist_spec *spec;
	const struct khist_bind_ops *ops;
	struct khist_hist_err *err;
	int ret;
	u8 dist_ok;
};

static inline int berr(struct bctx *b, unsigned int code, u16 pos)
{
	khist_hist_err_add(b->err, code, pos);
	if (code == KHIST_HERR_DIVISION_BY_ZERO)
		b->ret = -EDOM;
	else if (code == KHIST_HERR_TOO_MANY_SAVE_ACTIONS)
		b->ret = -EEXIST;
	else
		b->ret = -EINVAL;
	return b->ret;
}

static inline u16 epos(struct bctx *b, struct khist_span s)
{
	return khist_hist_errpos(b->cmd, s.pos, s.len);
}

static inline bool eqn(const char *a, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(a, s, n);
}

static inline struct khist_bfield *new_bf(struct bctx *b, u8 kind)
{
	struct khist_bfield *f = khist_arena_alloc(&b->spec->arena, sizeof(*f));

	if (!f)
		b->ret = -ENOMEM;
	else
		f->kind = kind;
	return f;
}

static inline const char *sdup(struct bctx *b, struct khist_span s)
{
	char *d = khist_arena_strndup(&b->spec->arena, b->cmd->work + s.pos,
				      s.len);

	if (!d)
		b->ret = -ENOMEM;
	return d;
}

struct khist_bfield *khist_hist_bind_ex(struct bctx *b,
					const struct khist_ex *e, u32 ctx,
					const char *var_name);

#endif /* _KHIST_CORE_HIST_BIND_INT_H */
