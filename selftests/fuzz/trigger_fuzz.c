// SPDX-License-Identifier: GPL-2.0
/*
 * trigger_fuzz.c - libFuzzer target: the trigger command grammar
 * (core/trigger_parse.c) and the sys.event.name split of action
 * parameters.
 *
 * Input: one write to a `trigger` file, up to its first NUL. The parser
 * reads it from a buffer of exactly its length plus the NUL, so ASan sees
 * any read past it. Checked against a reference model written the way
 * the kernel glue of module/triggers/cmd.c parses today, with strsep() on
 * a copy (independently of the parser, which never writes to the text):
 * the same command, removal flag, target, count, filter text, hist
 * parameters, and the same errno and error code with the same caret;
 * every span lies inside the text; nothing stays allocated.
 */
#include <ctype.h>
#include <kshim/kernel.h>
#include "trigger_parse.h"

#define IN_MAX 4096

static const char *fz_text;

static void check(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "trigger_fuzz: %s: \"%s\"\n", what, fz_text);
	abort();
}

/* ---- the reference model ---- */

static bool m_space(char ch)
{
	unsigned char c = ch;

	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r' || c == 0xa0;
}

/* kstrtoul(s, 0, &v) on a 64-bit kernel. */
static int m_kstrtoul(const char *s, unsigned long *v)
{
	size_t len = strlen(s), i = 0, start;
	unsigned long n = 0;
	unsigned int base = 10;

	if (len && s[len - 1] == '\n')
		len--;
	if (i < len && s[i] == '+')
		i++;
	if (len - i >= 2 && s[i] == '0' && tolower(s[i + 1]) == 'x') {
		base = 16;
		i += 2;
	} else if (i < len && s[i] == '0') {
		base = 8;
	}
	for (start = i; i < len; i++) {
		int d = isdigit((unsigned char)s[i]) ?
				s[i] - '0' :
			isxdigit((unsigned char)s[i]) ?
				tolower(s[i]) - 'a' + 10 :
				99;

		if (d >= (int)base)
			return -EINVAL;
		if (__builtin_mul_overflow(n, base, &n) ||
		    __builtin_add_overflow(n, (unsigned long)d, &n))
			return -ERANGE;
	}
	if (i == start)
		return -EINVAL;
	*v = n;
	return 0;
}

static const char *const m_names[] = {
	"traceon",     "traceoff",     "snapshot",
	"stacktrace",  "enable_event", "disable_event",
	"enable_hist", "disable_hist", "hist",
};

struct m_res {
	int ret, err;
	size_t pos;
	int kind;
	bool remove;
	const char *sys, *event, *filter, *params;
	bool counted;
	unsigned long count;
};

/* cmd.c's khist_cmd_parse() path, on a copy; positions into @in. */
static void model(const char *in, char *cmd, struct m_res *r)
{
	const char *text = in;
	char *p, *word, *param = NULL, *count = NULL, *filter = NULL;
	bool target;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	r->kind = -1;
	while (m_space(*text))
		text++;
	strcpy(cmd, text);
#define POS(ptr) ((size_t)((ptr)-cmd) + (size_t)(text - in))
	/* khist_trigger_split() */
	word = cmd;
	for (p = cmd; *p && *p != ':' && *p != ' ' && *p != '\t'; p++)
		;
	if (*p) {
		*p++ = '\0';
		while (m_space(*p))
			p++;
		if (*p)
			param = p;
	}
	r->remove = word[0] == '!';
	for (k = 0; k < ARRAY_SIZE(m_names); k++)
		if (!strcmp(m_names[k], word + r->remove))
			r->kind = k;
	if (r->kind < 0) {
		r->ret = -EINVAL;
		r->err = KHIST_TRERR_UNKNOWN_CMD;
		r->pos = POS(word);
		return;
	}
	if (r->kind == KHIST_TRIG_HIST) {
		r->params = param;
		return;
	}
	target = r->kind >= KHIST_TRIG_ENABLE_EVENT &&
		 r->kind <= KHIST_TRIG_DISABLE_HIST;
	/* khist_cmd_split() */
	if (param && !target && !isdigit((unsigned char)*param)) {
		filter = param;
	} else if (param) {
		count = strsep(&param, " \t");
		if (param) {
			while (m_space(*param))
				param++;
			if (*param)
				filter = param;
		}
	}
	if (target) {
		char *sys = count;

		if (!sys || (strsep(&count, ":"), !count)) {
			r->ret = -EINVAL;
			r->err = KHIST_TRERR_MISSING_EVENT;
			r->pos = strlen(in);
			return;
		}
		r->sys = sys;
		r->event = strsep(&count, ":");
	}
	if (r->remove)
		return;
	if (count) {
		char *number = strsep(&count, ":");
		unsigned long n;
		int ret = *number ? m_kstrtoul(number, &n) : -EINVAL;

		r->counted = true;
		if (!ret && n > LONG_MAX && n != ULONG_MAX)
			ret = -EINVAL;
		if (ret) {
			r->ret = ret;
			r->err = KHIST_TRERR_INVALID_COUNT;
			r->pos = POS(number);
			return;
		}
		r->count = n;
	}
	if (filter) {
		char *w = strsep(&filter, " \t");

		if (strcmp(w, "if")) {
			r->ret = -EINVAL;
			r->err = KHIST_TRERR_EXPECTED_IF;
			r->pos = POS(w);
			return;
		}
		if (!filter) {
			r->ret = -EINVAL;
			r->err = KHIST_TRERR_MISSING_FILTER;
			r->pos = strlen(in);
			return;
		}
		r->filter = filter;
	}
#undef POS
}

/* ---- the check ---- */

static void span_is(const char *in, size_t len, struct khist_trig_span s,
		    const char *want, const char *what)
{
	check(s.pos <= len && s.len <= len - s.pos, what);
	check(want && strlen(want) == s.len && !memcmp(in + s.pos, want, s.len),
	      what);
}

static void dotted(const char *in, size_t len)
{
	struct khist_trig_span sys, event, rest;
	const char *d1 = memchr(in, '.', len), *d2;
	int ret = khist_trigger_split_dotted(in, len, &sys, &event, &rest);

	if (!d1) {
		check(ret == 0 && rest.pos == 0 && rest.len == len, "dotted");
		return;
	}
	d2 = memchr(d1 + 1, '.', len - (d1 + 1 - in));
	if (!d2) {
		check(ret == -EINVAL, "dotted a.b");
		return;
	}
	check(ret == 1 && sys.pos == 0 && sys.len == d1 - in &&
		      event.pos == d1 + 1 - in && event.len == d2 - d1 - 1 &&
		      rest.pos == d2 + 1 - in && rest.len == len - rest.pos,
	      "dotted split");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const u8 *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	long live = kshim_live_allocations();
	struct khist_trig_cmd tc;
	struct m_res m;
	char *in, *copy;
	int ret;

	if (len >= IN_MAX)
		return -1;
	in = malloc(len + 1);
	copy = malloc(len + 1);
	memcpy(in, data, len);
	in[len] = '\0';
	fz_text = in;
	ret = khist_trigger_parse(in, &tc);
	model(in, copy, &m);
	check(ret == m.ret, "return value");
	check(tc.err == m.err, "error code");
	if (ret) {
		check(tc.pos == m.pos, "caret");
		goto out;
	}
	check(!tc.err, "error without -EINVAL");
	check(tc.kind == m.kind && tc.remove == m.remove, "command");
	check(tc.has_target == !!m.sys, "target");
	if (m.sys) {
		span_is(in, len, tc.sys, m.sys, "target system");
		span_is(in, len, tc.event, m.event, "target event");
	}
	check(tc.counted == m.counted, "count given");
	if (m.counted)
		check(tc.count == (m.count == ULONG_MAX ? U64_MAX : m.count),
		      "count");
	check(tc.has_filter == !!m.filter, "filter given");
	if (m.filter)
		span_is(in, len, tc.filter, m.filter, "filter");
	if (tc.kind == KHIST_TRIG_HIST) {
		check(tc.has_params == !!m.params, "hist parameters given");
		if (m.params)
			span_is(in, len, tc.params, m.params,
				"hist parameters");
	}
out:
	dotted(in, len);
	check(kshim_live_allocations() == live, "memory left allocated");
	free(copy);
	free(in);
	return 0;
}
