/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_parse_int.h - what the files of the hist command parser share
 * (hist_util.c, hist_expr.c, hist_action.c, hist_parse.c): the parse
 * context and small span helpers. Not for users of the parser, who include
 * hist_parse.h.
 *
 * Spans index the command's working copy (struct khist_hist_cmd.work);
 * helpers that split or search take that text as @w.
 */
#ifndef _KHIST_CORE_HIST_PARSE_INT_H
#define _KHIST_CORE_HIST_PARSE_INT_H

#include "core_env.h"
#include "hist_parse.h"

/**
 * struct pctx - state of one parse
 * @cmd:   the command being built
 * @err:   where errors go (may be NULL)
 * @w:     the working copy of the command text
 * @nomem: an allocation failed (the parse then fails with -ENOMEM)
 */
struct pctx {
	struct khist_hist_cmd *cmd;
	struct khist_hist_err *err;
	const char *w;
	int nomem;
};

/*
 * Space and tab only, not the isspace() set of lex.h: ftrace separates a
 * trigger's parameter from its filter with strsep(" \t"), so any other
 * blank inside a hist command belongs to a word.
 */
static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline struct khist_span mkspan(unsigned int pos, unsigned int len)
{
	struct khist_span s = { .pos = pos, .len = len };

	return s;
}

/* First @c in [s, s+len) of @w, or -1. */
static inline int find_chr(const char *w, struct khist_span s, char c)
{
	unsigned int i;

	for (i = 0; i < s.len; i++)
		if (w[s.pos + i] == c)
			return s.pos + i;
	return -1;
}

static inline int find_rchr(const char *w, struct khist_span s, char c)
{
	unsigned int i;

	for (i = s.len; i > 0; i--)
		if (w[s.pos + i - 1] == c)
			return s.pos + i - 1;
	return -1;
}

static inline bool has_prefix(const char *w, struct khist_span s, const char *p)
{
	size_t n = strlen(p);

	return s.len >= n && !memcmp(w + s.pos, p, n);
}

static inline int fail(struct pctx *p, unsigned int code, u16 pos)
{
	khist_hist_err_add(p->err, code, pos);
	return -EINVAL;
}

static inline u16 epos(struct pctx *p, struct khist_span s)
{
	return khist_hist_errpos(p->cmd, s.pos, s.len);
}

static inline struct khist_span strip(const char *w, struct khist_span s)
{
	while (s.len && (is_blank(w[s.pos]) || w[s.pos] == '\n')) {
		s.pos++;
		s.len--;
	}
	while (s.len &&
	       (is_blank(w[s.pos + s.len - 1]) || w[s.pos + s.len - 1] == '\n'))
		s.len--;
	return s;
}

/**
 * struct splitter - strsep() over a span: split_next() returns the pieces
 * @rest: what is left
 * @done: the last piece was returned (strsep()'s NULL state)
 */
struct splitter {
	struct khist_span rest;
	bool done;
};

static inline bool split_next(const char *w, struct splitter *sp, char sep,
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

struct khist_ex *khist_hist_parse_expr(struct pctx *p, struct khist_span s);
int khist_hist_parse_handler(struct pctx *p, struct khist_action *a);

#endif /* _KHIST_CORE_HIST_PARSE_INT_H */
