// SPDX-License-Identifier: GPL-2.0
/*
 * trigger_parse.c - the grammar of a trigger command (see
 * trigger_parse.h). The text is only read: every part of the result is a
 * byte range of it, so the caller may parse a const string and keep its
 * own copy for the parts it must NUL-terminate.
 */
#include "trigger_parse.h"
#include "lex.h"

static const char *const trig_names[KHIST_TRIG_NR] = {
	[KHIST_TRIG_TRACEON] = "traceon",
	[KHIST_TRIG_TRACEOFF] = "traceoff",
	[KHIST_TRIG_SNAPSHOT] = "snapshot",
	[KHIST_TRIG_STACKTRACE] = "stacktrace",
	[KHIST_TRIG_ENABLE_EVENT] = "enable_event",
	[KHIST_TRIG_DISABLE_EVENT] = "disable_event",
	[KHIST_TRIG_ENABLE_HIST] = "enable_hist",
	[KHIST_TRIG_DISABLE_HIST] = "disable_hist",
	[KHIST_TRIG_HIST] = "hist",
};

static const char *const trig_err_text[KHIST_TRERR_COUNT] = {
	[KHIST_TRERR_MISSING_EVENT] = "Missing event",
	[KHIST_TRERR_EVENT_NOT_FOUND] = "Event not found",
	[KHIST_TRERR_INVALID_COUNT] = "Invalid count",
	[KHIST_TRERR_EXPECTED_IF] = "Expected 'if' before the filter",
	[KHIST_TRERR_MISSING_FILTER] = "Missing filter after 'if'",
};

/**
 * khist_trigger_kind_name() - the command word of a kind
 * @kind: enum khist_trig_kind
 *
 * Context: any.
 * Return: the name, or "" for an unknown kind.
 */
const char *khist_trigger_kind_name(int kind)
{
	if (kind < 0 || kind >= KHIST_TRIG_NR)
		return "";
	return trig_names[kind];
}

/**
 * khist_trigger_kind_has_target() - does a command take <system>:<event>?
 * @kind: enum khist_trig_kind
 *
 * Context: any.
 * Return: true for enable_event, disable_event, enable_hist, disable_hist.
 */
bool khist_trigger_kind_has_target(int kind)
{
	return kind >= KHIST_TRIG_ENABLE_EVENT &&
	       kind <= KHIST_TRIG_DISABLE_HIST;
}

/**
 * khist_trigger_err_text() - the error_log text of an error code
 * @err: enum khist_trig_errcode
 *
 * Context: any.
 * Return: the text; "" for KHIST_TRERR_NONE, KHIST_TRERR_UNKNOWN_CMD (which
 * ftrace does not log) and unknown codes.
 */
const char *khist_trigger_err_text(int err)
{
	if (err <= KHIST_TRERR_NONE || err >= KHIST_TRERR_COUNT ||
	    !trig_err_text[err])
		return "";
	return trig_err_text[err];
}

static struct khist_trig_span trig_span(size_t from, size_t to)
{
	struct khist_trig_span s = { .pos = from, .len = to - from };

	return s;
}

/* The first @c in [@from, @to) of @t, or @to. */
static size_t trig_find(const char *t, size_t from, size_t to, char c)
{
	while (from < to && t[from] != c)
		from++;
	return from;
}

/* The end of the space- or tab-separated word at @from. */
static size_t trig_word_end(const char *t, size_t from, size_t to)
{
	while (from < to && t[from] != ' ' && t[from] != '\t')
		from++;
	return from;
}

static int trig_fail(struct khist_trig_cmd *tc, int err, size_t pos)
{
	tc->err = err;
	tc->pos = pos;
	return -EINVAL;
}

/* "if <filter>" in [@from, @to). */
static int trig_filter(const char *t, size_t from, size_t to,
		       struct khist_trig_cmd *tc)
{
	size_t e = trig_word_end(t, from, to);

	if (e - from != 2 || memcmp(t + from, "if", 2))
		return trig_fail(tc, KHIST_TRERR_EXPECTED_IF, from);
	if (e == to)
		return trig_fail(tc, KHIST_TRERR_MISSING_FILTER, to);
	tc->has_filter = true;
	tc->filter = trig_span(e + 1, to);
	return 0;
}

/* N[:anything] in [@from, @to): the number before the first ':'. */
static int trig_count(const char *t, size_t from, size_t to,
		      struct khist_trig_cmd *tc)
{
	size_t e = trig_find(t, from, to, ':');
	int ret;
	u64 n;

	tc->counted = true;
	tc->number = trig_span(from, e);
	/*
	 * A count is an unsigned long that the listing prints as a long:
	 * beyond LONG_MAX only ULONG_MAX, ftrace's "unlimited", is taken.
	 */
	ret = e == from ? -EINVAL : khist_parse_u64(t + from, e - from, &n);
	if (!ret && n > ULONG_MAX)
		ret = -ERANGE;
	if (!ret && n > LONG_MAX && n != ULONG_MAX)
		ret = -EINVAL;
	if (ret) {
		trig_fail(tc, KHIST_TRERR_INVALID_COUNT, from);
		return ret;
	}
	tc->count = n == ULONG_MAX ? U64_MAX : n;
	return 0;
}

/* <system>:<event>[:rest] in [@from, @to); the start of rest, or @to. */
static int trig_target(const char *t, size_t from, size_t to,
		       struct khist_trig_cmd *tc, size_t *rest)
{
	size_t c1 = trig_find(t, from, to, ':'), c2;

	if (c1 == to)
		return trig_fail(tc, KHIST_TRERR_MISSING_EVENT, strlen(t));
	c2 = trig_find(t, c1 + 1, to, ':');
	tc->has_target = true;
	tc->sys = trig_span(from, c1);
	tc->event = trig_span(c1 + 1, c2);
	*rest = c2 == to ? to : c2 + 1;
	return c2 == to ? 1 : 0;
}

static int trig_params(const char *t, size_t n, struct khist_trig_cmd *tc)
{
	bool target = khist_trigger_kind_has_target(tc->kind);
	size_t p = tc->params.pos, e, f;
	int ret;

	if (!tc->has_params)
		return target ? trig_fail(tc, KHIST_TRERR_MISSING_EVENT, n) : 0;
	if (!target && !khist_isdigit(t[p]))
		return tc->remove ? 0 : trig_filter(t, p, n, tc);
	/* The first word is the count (or target); the rest, the filter. */
	e = trig_word_end(t, p, n);
	f = e;
	if (f < n)
		for (f++; f < n && khist_isspace(t[f]); f++)
			;
	if (target) {
		ret = trig_target(t, p, e, tc, &p);
		if (ret < 0 || tc->remove)
			return ret < 0 ? ret : 0;
		if (!ret) {
			ret = trig_count(t, p, e, tc);
			if (ret)
				return ret;
		}
	} else {
		if (tc->remove)
			return 0;
		ret = trig_count(t, p, e, tc);
		if (ret)
			return ret;
	}
	return f < n ? trig_filter(t, f, n, tc) : 0;
}

/**
 * khist_trigger_parse() - parse one write to a `trigger` file
 * @text: the command, NUL ended (positions in @tc are offsets into it)
 * @tc:   the result
 *
 * For "hist" only the command word and the parameters are set; the hist
 * parser reads the parameters.
 *
 * Context: any; no allocation.
 * Return: 0, or with @tc->err and @tc->pos set the errno ftrace gives:
 * -ERANGE for a count that overflows, -EINVAL for anything else.
 */
int khist_trigger_parse(const char *text, struct khist_trig_cmd *tc)
{
	size_t n = strlen(text), i = 0, w, name;
	int k;

	memset(tc, 0, sizeof(*tc));
	tc->kind = -1;
	while (khist_isspace(text[i]))
		i++;
	w = i;
	while (text[i] && text[i] != ':' && text[i] != ' ' && text[i] != '\t')
		i++;
	tc->word = trig_span(w, i);
	if (text[i]) {
		for (i++; khist_isspace(text[i]); i++)
			;
		if (text[i]) {
			tc->has_params = true;
			tc->params = trig_span(i, n);
		}
	}
	tc->remove = text[w] == '!';
	name = w + tc->remove;
	for (k = 0; k < KHIST_TRIG_NR; k++)
		if (strlen(trig_names[k]) ==
			    tc->word.pos + tc->word.len - name &&
		    !memcmp(text + name, trig_names[k], strlen(trig_names[k])))
			tc->kind = k;
	if (tc->kind < 0)
		return trig_fail(tc, KHIST_TRERR_UNKNOWN_CMD, w);
	if (tc->kind == KHIST_TRIG_HIST)
		return 0;
	return trig_params(text, n, tc);
}

/**
 * khist_trigger_split_dotted() - split "<system>.<event>.<name>"
 * @s:     the text (need not be NUL-terminated)
 * @len:   its length
 * @sys:   set to the system, when split
 * @event: set to the event, when split
 * @rest:  set to the name: all of @s when there is no '.'
 *
 * An action parameter names a field of another event this way. Spans are
 * offsets into @s.
 *
 * Context: any.
 * Return: 0 when @s holds no '.', 1 when split, -EINVAL for
 * "<system>.<event>" without a name (ftrace refuses it without a word).
 */
int khist_trigger_split_dotted(const char *s, size_t len,
			       struct khist_trig_span *sys,
			       struct khist_trig_span *event,
			       struct khist_trig_span *rest)
{
	size_t d1 = trig_find(s, 0, len, '.'), d2;

	if (d1 == len) {
		*rest = trig_span(0, len);
		return 0;
	}
	d2 = trig_find(s, d1 + 1, len, '.');
	if (d2 == len)
		return -EINVAL;
	*sys = trig_span(0, d1);
	*event = trig_span(d1 + 1, d2);
	*rest = trig_span(d2 + 1, len);
	return 1;
}
