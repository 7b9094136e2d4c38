// SPDX-License-Identifier: GPL-2.0
/*
 * eprobe_parse.c - the language of event probe definitions (e: lines of
 * `dynamic_events`): names, the event attached to, fetch arguments and
 * their types. The tables and the texts derived from a definition are in
 * eprobe_text.c.
 *
 * The order of the checks, the word and offset each error points at and
 * the quirks (an unnamed argument is called argN, a dereference's caret
 * counts the 'u' of "+u" as nothing, the text after a dereference's last
 * ')' is ignored) follow the 6.12 kernel, since users and ftrace's
 * selftests see them through error_log. See Documentation/eprobes.rst.
 */
#include "eprobe_parse.h"
#include "lex.h"

/* Field names an argument may not take. */
static const char *const ep_reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip",   "__probe_ret_ip",       "__probe_func",
};

/* ---- names and numbers ------------------------------------------------ */

/* A group name may also start with a digit. */
static bool ep_good_group(const char *s)
{
	do {
		if (!khist_isalnum(*s) && *s != '_')
			return false;
	} while (*++s);
	return true;
}

static int ep_strtou64(const char *s, u64 *v)
{
	return khist_parse_u64(s, strlen(s), v);
}

/* ---- the line and its error positions --------------------------------- */

/**
 * struct ep_ctx - one line being parsed
 * @cmd:    the result
 * @argv:   the line's words (in place in @buf)
 * @argc:   number of words
 * @index:  the word errors point into now
 * @offset: where the argument text being parsed starts in that word
 *          (moved into a dereference's braces as the kernel does)
 * @schema: the attached event
 * @def:    the definition being built
 * @finder: the caller's look-ups
 * @fentry: kprobes: the probe is on a function's entry ($argN allowed)
 */
struct ep_ctx {
	struct khist_ep_cmd *cmd;
	char **argv;
	int argc;
	int index;
	int offset;
	const struct khist_event_schema *schema;
	struct khist_ep_def *def;
	const struct khist_ep_finder *finder;
	bool fentry;
};

/* Log @err at @offs bytes into the current word (past the end: the end). */
static void ep_err(struct ep_ctx *c, int offs, int err)
{
	unsigned int pos = 0;
	int i;

	for (i = 0; i < c->argc && i < c->index; i++)
		pos += strlen(c->argv[i]) + 1;
	if (c->index >= c->argc)
		offs = 0;
	khist_ep_set_error(c->cmd, err, pos + offs);
}

/* Split @buf into words in place; NULL when out of memory. */
static char **ep_split(char *buf, int *argc)
{
	char **argv, *p = buf;
	int n = 0, max = 1;

	for (; *p; p++)
		if (khist_isspace(*p))
			max++;
	argv = kcalloc(max + 1, sizeof(*argv), GFP_KERNEL);
	if (!argv)
		return NULL;
	p = buf;
	for (;;) {
		size_t len;

		p = (char *)khist_word(p, &len);
		if (!len)
			break;
		argv[n++] = p;
		p += len;
		if (*p)
			*p++ = '\0';
	}
	*argc = n;
	return argv;
}

/* Words @from..@to-1 joined by one blank. */
static char *ep_join(char **argv, int from, int to)
{
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = from; i < to; i++)
		len += strlen(argv[i]) + 1;
	s = kmalloc(len, GFP_KERNEL);
	if (!s)
		return NULL;
	p = s;
	*p = '\0';
	for (i = from; i < to; i++) {
		if (i > from)
			*p++ = ' ';
		len = strlen(argv[i]);
		memcpy(p, argv[i], len + 1);
		p += len;
	}
	return s;
}

/*
 * "[group/]event" (or group.event) at *@name, @offs bytes into the current
 * word: a group found goes to *@group (allocated), the event stays in
 * *@name, NULL when only "group/" was written.
 */
static int ep_parse_name(struct ep_ctx *c, const char **name, char **group,
			 int offs)
{
	const char *s = *name, *sep;
	size_t len;

	sep = strchr(s, '/');
	if (!sep)
		sep = strchr(s, '.');
	if (sep) {
		if (sep == s) {
			ep_err(c, offs, KHIST_EPERR_NO_GROUP_NAME);
			return -EINVAL;
		}
		if (sep - s + 1 > KHIST_EP_NAME_MAX) {
			ep_err(c, offs, KHIST_EPERR_GROUP_TOO_LONG);
			return -EINVAL;
		}
		kfree(*group);
		*group = kstrndup(s, sep - s, GFP_KERNEL);
		if (!*group)
			return -ENOMEM;
		if (!ep_good_group(*group)) {
			ep_err(c, offs, KHIST_EPERR_BAD_GROUP_NAME);
			return -EINVAL;
		}
		offs += sep - s + 1;
		s = sep + 1;
		*name = s;
	}
	len = strlen(s);
	if (!len) {
		if (sep) {
			*name = NULL;
			return 0;
		}
		ep_err(c, offs, KHIST_EPERR_NO_EVENT_NAME);
		return -EINVAL;
	}
	if (len >= KHIST_EP_NAME_MAX) {
		ep_err(c, offs, KHIST_EPERR_EVENT_TOO_LONG);
		return -EINVAL;
	}
	if (!khist_good_name(s)) {
		ep_err(c, offs, KHIST_EPERR_BAD_EVENT_NAME);
		return -EINVAL;
	}
	return 0;
}

/* ---- fetch arguments --------------------------------------------------- */

/*
 * A fetch being built: its source, then @n dereferences. Counted in the
 * kernel's steps: the source is step 0, dereference k is step k, and a
 * probe argument has KHIST_EP_INSN_MAX - 1 usable steps.
 */
struct ep_chain {
	u8 src;
	unsigned int field;
	u64 imm;
	char *data;
	unsigned int n;
	struct khist_ep_load d[KHIST_EP_INSN_MAX];
};

#define EP_LAST_STEP (KHIST_EP_INSN_MAX - 1)

static int ep_find_field(const struct khist_event_schema *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nr_fields; i++)
		if (!strcmp(s->fields[i].name, name))
			return i;
	return -ENOENT;
}

static int ep_parse_fetch(struct ep_ctx *c, char *arg, struct ep_chain *ch);

/* "+|-[u]<offs>(<fetch>)". */
static int ep_parse_deref(struct ep_ctx *c, char *arg, struct ep_chain *ch)
{
	bool user = false;
	char *open, *close;
	long offs;
	int ret, here;

	/* Uprobes read user memory only: the 'u' changes nothing there. */
	if (khist_ep_is_user(c->def))
		user = true;
	if (arg[1] == 'u') {
		user = true;
		arg[1] = arg[0];
		arg++;
	}
	if (arg[0] == '+')
		arg++;
	open = strchr(arg, '(');
	if (!open) {
		ep_err(c, c->offset, KHIST_EPERR_DEREF_NEED_BRACE);
		return -EINVAL;
	}
	*open = '\0';
	ret = khist_parse_long(arg, &offs);
	if (ret) {
		ep_err(c, c->offset, KHIST_EPERR_BAD_DEREF_OFFS);
		return ret;
	}
	c->offset += (open + 1 - arg) + (arg[0] != '-');
	arg = open + 1;
	close = strrchr(arg, ')');
	if (!close) {
		ep_err(c, c->offset + strlen(arg),
		       KHIST_EPERR_DEREF_OPEN_BRACE);
		return -EINVAL;
	}
	*close = '\0';
	here = c->offset;
	ret = ep_parse_fetch(c, arg, ch);
	if (ret)
		return ret;
	c->offset = here;
	if (!ch->n &&
	    (ch->src == KHIST_EPS_COMM || ch->src == KHIST_EPS_DATA)) {
		ep_err(c, c->offset, KHIST_EPERR_COMM_CANT_DEREF);
		return -EINVAL;
	}
	if (ch->n + 1 >= EP_LAST_STEP) {
		ep_err(c, c->offset, KHIST_EPERR_TOO_MANY_OPS);
		return -EINVAL;
	}
	ch->d[ch->n].offset = offs;
	ch->d[ch->n].user = user;
	ch->n++;
	return 0;
}

/* "\<number>" or "\"<text>"". */
static int ep_parse_imm(struct ep_ctx *c, char *arg, struct ep_chain *ch)
{
	size_t len;
	long v;
	u64 u;
	int ret;

	if (arg[1] == '"') {
		len = strlen(arg + 2);
		if (!len || arg[2 + len - 1] != '"') {
			ep_err(c, c->offset + 2 + len,
			       KHIST_EPERR_IMMSTR_NO_CLOSE);
			return -EINVAL;
		}
		ch->data = kstrndup(arg + 2, len - 1, GFP_KERNEL);
		if (!ch->data)
			return -ENOMEM;
		ch->src = KHIST_EPS_DATA;
		return 0;
	}
	if (khist_isdigit(arg[1])) {
		ret = ep_strtou64(arg + 1, &u);
		v = (long)u;
	} else if (arg[1] == '-') {
		ret = khist_parse_long(arg + 1, &v);
	} else if (arg[1] == '+') {
		ret = khist_parse_long(arg + 2, &v);
	} else {
		ret = -EINVAL;
	}
	if (ret) {
		ep_err(c, c->offset + 1, KHIST_EPERR_BAD_IMM);
		return ret;
	}
	ch->src = KHIST_EPS_IMM;
	ch->imm = (unsigned long)v;
	return 0;
}

/* "@<address>": the long at that address. */
static int ep_parse_mem(struct ep_ctx *c, char *arg, struct ep_chain *ch)
{
	long foffs;
	u64 addr;
	int ret;

	if (arg[1] == '+' && khist_ep_is_user(c->def)) {
		/* A file offset: where it is mapped in the probed process. */
		ret = khist_parse_long(arg + 2, &foffs);
		if (ret) {
			ep_err(c, c->offset, KHIST_EPERR_BAD_FILE_OFFS);
			return ret;
		}
		addr = (unsigned long)foffs;
		ch->src = KHIST_EPS_FOFFS;
	} else if (!khist_isdigit(arg[1]) && khist_ep_is_user(c->def)) {
		ep_err(c, c->offset, KHIST_EPERR_SYM_ON_UPROBE);
		return -EINVAL;
	} else if (!khist_isdigit(arg[1])) {
		if (arg[1] == '+' || !c->finder->symbol) {
			ep_err(c, c->offset,
			       arg[1] == '+' ? KHIST_EPERR_FILE_ON_KPROBE :
					       KHIST_EPERR_NO_SYMBOLS);
			return -EINVAL;
		}
		/* The symbol's step counts too, as in the kernel. */
		if (ch->n + 2 >= EP_LAST_STEP) {
			ep_err(c, c->offset, KHIST_EPERR_TOO_MANY_OPS);
			return -EINVAL;
		}
		ret = c->finder->symbol(arg + 1, &addr);
		if (ret) {
			/* The kernel finds out when it registers the probe. */
			c->index = 1;
			ep_err(c, 0, KHIST_EPERR_BAD_PROBE_ADDR);
			return ret;
		}
	} else {
		ret = ep_strtou64(arg + 1, &addr);
		if (ret) {
			ep_err(c, c->offset, KHIST_EPERR_BAD_MEM_ADDR);
			return ret;
		}
	}
	if (ch->src != KHIST_EPS_FOFFS)
		ch->src = KHIST_EPS_IMM;
	ch->imm = addr;
	if (ch->n + 1 >= EP_LAST_STEP) {
		ep_err(c, c->offset, KHIST_EPERR_TOO_MANY_OPS);
		return -EINVAL;
	}
	ch->d[ch->n].offset = 0;
	ch->d[ch->n].user = khist_ep_is_user(c->def);
	ch->n++;
	return 0;
}

/* $argN of a return probe: the slot of the argument saved at entry. */
static int kp_entry_slot(struct ep_ctx *c, unsigned int n)
{
	struct khist_ep_def *def = c->def;
	unsigned int i;

	for (i = 0; i < def->nr_entry; i++)
		if (def->entry[i] == n)
			return i;
	if (def->nr_entry == KHIST_KP_ENTRY_MAX)
		return -E2BIG;
	def->entry[def->nr_entry] = n;
	return def->nr_entry++;
}

/* A $-variable of a kprobe or kretprobe. */
static int kp_parse_var(struct ep_ctx *c, char *arg, struct ep_chain *ch)
{
	int err = KHIST_EPERR_BAD_VAR, slot;
	char *v = arg + 1;
	u64 n;

	if (!strncmp(v, "retval", 6)) {
		if (!khist_ep_is_ret(c->def)) {
			err = KHIST_EPERR_RETVAL_ON_PROBE;
			goto inval;
		}
		ch->src = KHIST_EPS_RETVAL;
		return 0;
	}
	if (!strncmp(v, "stack", 5)) {
		if (!v[5]) {
			ch->src = KHIST_EPS_STACKP;
			return 0;
		}
		if (!khist_isdigit(v[5]) || ep_strtou64(v + 5, &n))
			goto inval;
		/* A user stack has no bound the kernel knows. */
		if (khist_ep_is_user(c->def)) {
			if (n > UINT_MAX)
				goto inval;
			ch->src = KHIST_EPS_USTACK;
			ch->field = n;
			return 0;
		}
		if (n > KHIST_KP_PARAM_MAX) {
			err = KHIST_EPERR_BAD_STACK_NUM;
			goto inval;
		}
		ch->src = KHIST_EPS_STACK;
		ch->field = n;
		return 0;
	}
	if (!strcmp(v, "comm") || !strcmp(v, "COMM")) {
		ch->src = KHIST_EPS_COMM;
		return 0;
	}
	if (!strncmp(v, "arg", 3)) {
		if (ep_strtou64(v + 3, &n))
			goto inval;
		if (!n || n > KHIST_KP_PARAM_MAX) {
			err = KHIST_EPERR_BAD_ARG_NUM;
			goto inval;
		}
		if (c->def->kind == KHIST_EPK_KRETPROBE) {
			slot = kp_entry_slot(c, n - 1);
			if (slot < 0)
				return slot;
			ch->src = KHIST_EPS_EDATA;
			ch->field = slot;
			return 0;
		}
		if (!c->fentry) {
			err = KHIST_EPERR_NOFENTRY_ARGS;
			goto inval;
		}
		ch->src = KHIST_EPS_ARG;
		ch->field = n - 1;
		return 0;
	}
inval:
	ep_err(c, c->offset, err);
	return -EINVAL;
}

/* One fetch, recursively; errors are logged here. */
static int ep_parse_fetch(struct ep_ctx *c, char *arg, struct ep_chain *ch)
{
	int i;

	if (c->def->kind != KHIST_EPK_EVENT && arg[0] == '$')
		return kp_parse_var(c, arg, ch);
	if (c->def->kind != KHIST_EPK_EVENT && arg[0] == '%') {
		i = c->finder->reg(arg + 1);
		if (i < 0) {
			ep_err(c, c->offset, KHIST_EPERR_BAD_REG_NAME);
			return -EINVAL;
		}
		ch->src = KHIST_EPS_REG;
		ch->field = i;
		return 0;
	}
	switch (arg[0]) {
	case '$':
		i = ep_find_field(c->schema, arg + 1);
		if (i >= 0) {
			ch->src = KHIST_EPS_FIELD;
			ch->field = i;
			return 0;
		}
		if (!strcmp(arg + 1, "comm") || !strcmp(arg + 1, "COMM")) {
			ch->src = KHIST_EPS_COMM;
			return 0;
		}
		ep_err(c, c->offset, KHIST_EPERR_BAD_VAR);
		return -EINVAL;
	case '%':
		/* No registers here: both of the kernel's complaints. */
		ep_err(c, c->offset, KHIST_EPERR_BAD_VAR);
		ep_err(c, c->offset, KHIST_EPERR_BAD_FETCH_ARG);
		return -EINVAL;
	case '@':
		return ep_parse_mem(c, arg, ch);
	case '+':
	case '-':
		return ep_parse_deref(c, arg, ch);
	case '\\':
		return ep_parse_imm(c, arg, ch);
	default:
		if (khist_isalpha(arg[0]) || arg[0] == '_') {
			ep_err(c, c->offset, KHIST_EPERR_NOSUP_BTFARG);
			return -EINVAL;
		}
		ep_err(c, c->offset, KHIST_EPERR_BAD_FETCH_ARG);
		return -EINVAL;
	}
}

/*
 * ":type" and ":type[N]" at the end of @arg (cut off in place). Returns
 * the type text (NULL when none was written) or an ERR_PTR().
 */
static char *ep_parse_type(struct ep_ctx *c, char *arg, struct khist_ep_arg *a)
{
	char *t, *open, *close;
	u64 n;

	t = strchr(arg, ':');
	if (t) {
		*t++ = '\0';
		open = strchr(t, '[');
		if (open) {
			*open++ = '\0';
			close = strchr(open, ']');
			if (!close) {
				ep_err(c,
				       c->offset + (open + strlen(open) - arg),
				       KHIST_EPERR_ARRAY_NO_CLOSE);
				return ERR_PTR(-EINVAL);
			}
			if (close[1]) {
				ep_err(c, c->offset + (close + 1 - arg),
				       KHIST_EPERR_BAD_ARRAY_SUFFIX);
				return ERR_PTR(-EINVAL);
			}
			*close = '\0';
			if (ep_strtou64(open, &n) || !n || n > UINT_MAX) {
				ep_err(c, c->offset + (open - arg),
				       KHIST_EPERR_BAD_ARRAY_NUM);
				return ERR_PTR(-EINVAL);
			}
			if (n > KHIST_EP_ARRAY_MAX) {
				ep_err(c, c->offset + (open - arg),
				       KHIST_EPERR_ARRAY_TOO_BIG);
				return ERR_PTR(-EINVAL);
			}
			a->count = n;
		}
	}
	/* On kprobes, $comm and \"text" are strings, of no other type. */
	if (c->def->kind != KHIST_EPK_EVENT &&
	    (!strcmp(arg, "$comm") || !strcmp(arg, "$COMM") ||
	     !strncmp(arg, "\\\"", 2))) {
		if (a->count || (t && strcmp(t, "string"))) {
			ep_err(c, c->offset + (t ? t - arg : 0),
			       KHIST_EPERR_NEED_STRING_TYPE);
			return ERR_PTR(-EINVAL);
		}
		a->type = khist_ep_find_type("string");
		return t;
	}
	a->type = khist_ep_find_type(t);
	/* Uprobes have no kernel symbols to show. */
	if (a->type && khist_ep_is_user(c->def) &&
	    (!strcmp(a->type->name, "symbol") ||
	     !strcmp(a->type->name, "symstr")))
		a->type = NULL;
	if (!a->type) {
		ep_err(c, c->offset + (t ? t - arg : 0), KHIST_EPERR_BAD_TYPE);
		return ERR_PTR(-EINVAL);
	}
	return t;
}

/* b<width>@<offset>/<bits>: the shifts that extract it. */
static int ep_parse_bitfield(const char *t, struct khist_ep_arg *a)
{
	unsigned int bits = a->type->size * 8;
	unsigned long width, offs;
	const char *end, *p;

	width = khist_prefix_ulong(t + 1, &end);
	if (!width || *end != '@')
		return -EINVAL;
	p = end + 1;
	offs = khist_prefix_ulong(p, &end);
	if (end == p || *end != '/')
		return -EINVAL;
	if (width + offs > bits)
		return -EINVAL;
	a->bf_lshift = bits - (width + offs);
	a->bf_rshift = bits - width;
	a->bitfield = true;
	return 0;
}

/*
 * A kprobe's string is read from memory or a constant's address; the
 * name of a symbol from a register, the stack, an argument or kernel
 * memory.
 */
static bool kp_bad_string(const struct ep_chain *ch, bool symstr)
{
	if (ch->n)
		return symstr && ch->d[ch->n - 1].user;
	switch (ch->src) {
	case KHIST_EPS_IMM:
	case KHIST_EPS_COMM:
	case KHIST_EPS_DATA:
		return symstr;
	case KHIST_EPS_REG:
	case KHIST_EPS_STACK:
	case KHIST_EPS_USTACK:
	case KHIST_EPS_RETVAL:
	case KHIST_EPS_ARG:
		return !symstr;
	default:
		return true;
	}
}

/*
 * Turn the fetch into what is stored: the last dereference becomes the
 * read of the stored bytes, or a store step is added after it. @t is the
 * type text (NULL: none), @toff its offset in the argument text.
 */
static int ep_finish(struct ep_ctx *c, struct ep_chain *ch,
		     struct khist_ep_arg *a, const char *t, int toff)
{
	bool string = a->type->print == KHIST_EPP_STRING;
	bool symstr = !strcmp(a->type->name, "symstr");
	bool append;
	unsigned int step;

	a->src = ch->src;
	a->field = ch->field;
	a->imm = ch->imm;
	a->data = ch->data;
	ch->data = NULL;
	if (string && c->def->kind != KHIST_EPK_EVENT &&
	    kp_bad_string(ch, symstr)) {
		ep_err(c, c->offset + toff,
		       symstr ? KHIST_EPERR_BAD_SYMSTRING :
				KHIST_EPERR_BAD_STRING);
		return -EINVAL;
	}
	if (string) {
		/* symstr: of a field or of kernel memory only */
		if (symstr && c->def->kind == KHIST_EPK_EVENT &&
		    (ch->n ? ch->d[ch->n - 1].user :
			     ch->src != KHIST_EPS_FIELD)) {
			ep_err(c, c->offset + toff, KHIST_EPERR_BAD_SYMSTRING);
			return -EINVAL;
		}
		append = symstr || !ch->n || a->count;
		a->store = symstr ? KHIST_EPST_SYMSTR : KHIST_EPST_STRING;
		a->store_user = !strcmp(a->type->name, "ustring");
	} else {
		append = !ch->n;
		a->store = append ? KHIST_EPST_RAW : KHIST_EPST_MEM;
	}
	if (append) {
		step = ch->n + 1;
		if (step >= EP_LAST_STEP) {
			ep_err(c, c->offset, KHIST_EPERR_TOO_MANY_OPS);
			return string ? -EINVAL : -E2BIG;
		}
		a->nr_loads = ch->n;
	} else {
		step = ch->n;
		a->nr_loads = ch->n - 1;
		a->store_offset = ch->d[ch->n - 1].offset;
		a->store_user |= ch->d[ch->n - 1].user;
	}
	memcpy(a->loads, ch->d, a->nr_loads * sizeof(a->loads[0]));
	if (t && t[0] == 'b') {
		if (step + 1 >= EP_LAST_STEP || ep_parse_bitfield(t, a)) {
			ep_err(c, c->offset + toff, KHIST_EPERR_BAD_BITFIELD);
			return -EINVAL;
		}
		step++;
	}
	if (a->count) {
		if (a->store != KHIST_EPST_MEM &&
		    a->store != KHIST_EPST_STRING) {
			ep_err(c, c->offset + toff, KHIST_EPERR_BAD_STRING);
			return -EINVAL;
		}
		if (step + 1 >= EP_LAST_STEP) {
			ep_err(c, c->offset, KHIST_EPERR_TOO_MANY_OPS);
			return -E2BIG;
		}
	}
	return 0;
}

/* The text after "name=": its type, its fetch, its slot. */
static int ep_parse_body(struct ep_ctx *c, struct khist_ep_def *def,
			 struct khist_ep_arg *a, const char *body)
{
	struct ep_chain ch = { 0 };
	size_t len = strlen(body);
	char *arg, *t;
	int ret;

	if (len > KHIST_EP_ARGSTR_MAX) {
		ep_err(c, c->offset, KHIST_EPERR_ARG_TOO_LONG);
		return -E2BIG;
	}
	if (!len) {
		ep_err(c, c->offset, KHIST_EPERR_NO_ARG_BODY);
		return -EINVAL;
	}
	a->text = kstrdup(body, GFP_KERNEL);
	arg = kstrdup(body, GFP_KERNEL);
	if (!a->text || !arg) {
		ret = -ENOMEM;
		goto out;
	}
	t = ep_parse_type(c, arg, a);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	ret = ep_parse_fetch(c, arg, &ch);
	if (ret)
		goto out;
	a->offset = def->fixed_size;
	def->fixed_size += a->type->size * (a->count ? a->count : 1);
	if (def->fixed_size - def->hdr_size > KHIST_EP_FIXED_MAX) {
		ep_err(c, c->offset, KHIST_EPERR_EVENT_TOO_BIG);
		ret = -E2BIG;
		goto out;
	}
	if (a->count) {
		len = strlen(a->type->fmttype) + 16;
		a->ftype = kmalloc(len, GFP_KERNEL);
		if (a->ftype)
			snprintf(a->ftype, len, "%s[%u]", a->type->fmttype,
				 a->count);
	} else {
		a->ftype = kstrdup(a->type->fmttype, GFP_KERNEL);
	}
	if (!a->ftype) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ep_finish(c, &ch, a, t, t ? t - arg : 0);
	if (!ret && a->type->print == KHIST_EPP_STRING)
		def->dynamic = true;
out:
	kfree(ch.data);
	kfree(arg);
	return ret;
}

static bool ep_name_taken(const struct khist_ep_def *def, unsigned int i,
			  const char *name)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(ep_reserved); k++)
		if (!strcmp(ep_reserved[k], name))
			return true;
	for (k = 0; k < i; k++)
		if (!strcmp(def->args[k].name, name))
			return true;
	return false;
}

/* Argument @i: "[name=]fetch[:type]". */
static int ep_parse_arg(struct ep_ctx *c, struct khist_ep_def *def,
			unsigned int i, const char *text)
{
	struct khist_ep_arg *a = &def->args[i];
	const char *body = strchr(text, '='), *end;
	char tmp[16];

	if (body) {
		if (body - text > KHIST_EP_ARGNAME_MAX) {
			ep_err(c, 0, KHIST_EPERR_ARG_NAME_TOO_LONG);
			return -EINVAL;
		}
		if (body == text) {
			ep_err(c, 0, KHIST_EPERR_NO_ARG_NAME);
			return -EINVAL;
		}
		a->name = kstrndup(text, body - text, GFP_KERNEL);
		body++;
	} else {
		/* A name as the kernel with BTF arguments guesses one. */
		end = strchr(text, ':');
		if (!end)
			end = text + strlen(text);
		a->name = kstrndup(text, end - text, GFP_KERNEL);
		if (a->name && !khist_good_name(a->name)) {
			kfree(a->name);
			snprintf(tmp, sizeof(tmp), "arg%u", i + 1);
			a->name = kstrdup(tmp, GFP_KERNEL);
		}
		body = text;
	}
	if (!a->name)
		return -ENOMEM;
	if (!khist_good_name(a->name)) {
		ep_err(c, 0, KHIST_EPERR_BAD_ARG_NAME);
		return -EINVAL;
	}
	if (ep_name_taken(def, i, a->name)) {
		ep_err(c, 0, KHIST_EPERR_USED_ARG_NAME);
		return -EINVAL;
	}
	c->offset = body - text;
	return ep_parse_body(c, def, a, body);
}

/**
 * khist_ep_def_free() - free a definition
 * @def: the definition (may be NULL)
 *
 * Context: any.
 */
void khist_ep_def_free(struct khist_ep_def *def)
{
	unsigned int i;

	if (!def)
		return;
	for (i = 0; i < def->nr_args; i++) {
		kfree(def->args[i].name);
		kfree(def->args[i].text);
		kfree(def->args[i].ftype);
		kfree(def->args[i].data);
	}
	kfree(def->args);
	kfree(def->group);
	kfree(def->event);
	kfree(def->system);
	kfree(def->target);
	kfree(def->filter);
	kfree(def->symbol);
	kfree(def->path);
	kfree(def);
}

/**
 * khist_ep_cmd_release() - free what khist_ep_parse() left in a result
 * @cmd: the result (its definition too, unless the caller took it)
 *
 * Context: any.
 */
void khist_ep_cmd_release(struct khist_ep_cmd *cmd)
{
	khist_ep_def_free(cmd->def);
	cmd->def = NULL;
	kfree(cmd->cmd);
	cmd->cmd = NULL;
}

/* The words after "e[:name] system.event", each checked and stored. */
static int ep_parse_words(struct ep_ctx *c, struct khist_ep_def *def,
			  const struct khist_ep_finder *finder)
{
	const char *name = NULL, *target, *colon;
	char *tsys = NULL;
	int i, argc = c->argc, filter = 0, ret;

	c->index = 0;
	colon = strchr(c->argv[0] + 1, ':');
	if (colon) {
		name = colon + 1;
		ret = ep_parse_name(c, &name, &def->group, name - c->argv[0]);
		if (ret)
			return ret;
	}
	c->index = 1;
	target = c->argv[1];
	ret = ep_parse_name(c, &target, &tsys, 0);
	if (ret == -ENOMEM) {
		kfree(tsys);
		return ret;
	}
	if (ret || !target || !tsys) {
		kfree(tsys);
		ep_err(c, 0, KHIST_EPERR_NO_EVENT_INFO);
		return -EINVAL;
	}
	def->system = tsys;
	def->target = kstrdup(target, GFP_KERNEL);
	def->event = kstrdup(name ? name : target, GFP_KERNEL);
	if (!def->group)
		def->group = kstrdup(KHIST_EP_SYSTEM, GFP_KERNEL);
	if (!def->target || !def->event || !def->group)
		return -ENOMEM;
	for (i = 2; i < argc; i++) {
		if (!strcmp(c->argv[i], "if")) {
			filter = i + 1;
			argc = i;
			break;
		}
	}
	if (argc - 2 > KHIST_EP_ARGS_MAX)
		return -E2BIG;
	c->schema = finder->find(def->system, def->target, finder->arg);
	if (!c->schema) {
		ep_err(c, 0, KHIST_EPERR_BAD_ATTACH_EVENT);
		return -ENODEV;
	}
	if (filter) {
		c->index = filter;
		if (filter == c->argc) {
			ep_err(c, 0, KHIST_EPERR_NO_EP_FILTER);
			return -EINVAL;
		}
		def->filter = ep_join(c->argv, filter, c->argc);
		if (!def->filter)
			return -ENOMEM;
	}
	def->args = kcalloc(argc - 2 ? argc - 2 : 1, sizeof(*def->args),
			    GFP_KERNEL);
	if (!def->args)
		return -ENOMEM;
	def->hdr_size = KHIST_EP_HDR_SIZE;
	def->fixed_size = KHIST_EP_HDR_SIZE;
	for (i = 2; i < argc; i++) {
		c->index = i;
		def->nr_args = i - 1;
		ret = ep_parse_arg(c, def, i - 2, c->argv[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * khist_ep_parse() - parse an e: line
 * @line:   the line (no newline or comment)
 * @finder: finds the event to attach to
 * @cmd:    the result, to release with khist_ep_cmd_release(); on errors,
 *          @cmd->err and @cmd->pos say what to log (location
 *          "event_probe", command @cmd->cmd)
 *
 * Context: any; allocates.
 * Return: 0 with @cmd->def set, -ECANCELED when @line is no e: line,
 * -EINVAL (syntax), -ERANGE (a number out of range, as ftrace returns it
 * from kstrtol()), -ENODEV (no such event), -E2BIG, -ENOMEM.
 */
int khist_ep_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd)
{
	struct ep_ctx c = { .cmd = cmd };
	struct khist_ep_def *def;
	char *buf;
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	buf = kstrdup(line, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	c.argv = ep_split(buf, &c.argc);
	if (!c.argv) {
		kfree(buf);
		return -ENOMEM;
	}
	if (c.argc < 2 || c.argv[0][0] != 'e') {
		ret = -ECANCELED;
		goto out;
	}
	cmd->cmd = ep_join(c.argv, 0, c.argc);
	def = kzalloc(sizeof(*def), GFP_KERNEL);
	if (!cmd->cmd || !def) {
		kfree(def);
		ret = -ENOMEM;
		goto out;
	}
	c.def = def;
	c.finder = finder;
	ret = ep_parse_words(&c, def, finder);
	if (ret)
		khist_ep_def_free(def);
	else
		cmd->def = def;
out:
	kfree(c.argv);
	kfree(buf);
	return ret;
}

/* ---- kprobes and kretprobes -------------------------------------------- */

/* "r<N>": the maxactive of a return probe, in word 0 before any ':'. */
static int kp_parse_maxactive(struct ep_ctx *c, struct khist_ep_def *def)
{
	const char *w = c->argv[0] + 1, *colon = strchr(w, ':');
	size_t len = colon ? (size_t)(colon - w) : strlen(w);
	u64 n;

	if (!khist_isdigit(*w))
		return 0;
	if (def->kind != KHIST_EPK_KRETPROBE) {
		ep_err(c, 1, KHIST_EPERR_BAD_MAXACT_TYPE);
		return -EINVAL;
	}
	if (len > KHIST_EP_NAME_MAX - 1 || khist_parse_u64(w, len, &n) || !n ||
	    n > UINT_MAX) {
		ep_err(c, 1, KHIST_EPERR_BAD_MAXACT);
		return -EINVAL;
	}
	if (n > KHIST_KP_MAXACTIVE_MAX) {
		ep_err(c, 1, KHIST_EPERR_MAXACT_TOO_BIG);
		return -EINVAL;
	}
	def->maxactive = n;
	return 0;
}

/*
 * Word 1: an address, or "[mod:]sym[+-offs][%return]". -ECANCELED for a
 * uprobe's "path:offset".
 */
static int kp_parse_place(struct ep_ctx *c, struct khist_ep_def *def)
{
	const char *w = c->argv[1];
	char *sym, *p;
	long offs = 0;
	int ret;

	c->index = 1;
	if (!khist_parse_u64(w, strlen(w), &def->addr))
		return 0;
	if (strchr(w, '/') && strchr(w, ':'))
		return -ECANCELED;
	sym = kstrdup(w, GFP_KERNEL);
	if (!sym)
		return -ENOMEM;
	def->symbol = sym;
	p = strchr(sym, '%');
	if (p) {
		if (strcmp(p, "%return")) {
			ep_err(c, p - sym, KHIST_EPERR_BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		*p = '\0';
		def->kind = KHIST_EPK_KRETPROBE;
	}
	p = strpbrk(sym, "+-");
	if (p) {
		ret = *p == '+' ? khist_parse_long(p + 1, &offs) :
				  khist_parse_long(p, &offs);
		if (ret || offs < 0 || (unsigned long)offs > UINT_MAX) {
			ep_err(c, 0, KHIST_EPERR_BAD_PROBE_ADDR);
			return -EINVAL;
		}
		*p = '\0';
	}
	def->offset = offs;
	/* Only a symbol's first byte is surely a function entry. */
	if (def->kind == KHIST_EPK_KRETPROBE && offs) {
		ep_err(c, 0, KHIST_EPERR_BAD_RETPROBE);
		return -EINVAL;
	}
	c->fentry = !offs;
	return 0;
}

/* The kernel's default name: p_<symbol>_<offset>, non-alnum as '_'. */
static char *kp_default_name(const struct khist_ep_def *def)
{
	char buf[KHIST_EP_NAME_MAX], *p;
	char k = def->kind == KHIST_EPK_KRETPROBE ? 'r' : 'p';

	if (def->symbol)
		snprintf(buf, sizeof(buf), "%c_%s_%lu", k, def->symbol,
			 def->offset);
	else
		snprintf(buf, sizeof(buf), "%c_0x%llx", k,
			 (unsigned long long)def->addr);
	for (p = buf; *p; p++)
		if (!khist_isalnum(*p))
			*p = '_';
	if (khist_isdigit(buf[0]))
		buf[0] = '_';
	return kstrdup(buf, GFP_KERNEL);
}

static int kp_parse_args(struct ep_ctx *c, struct khist_ep_def *def);

static int kp_parse_words(struct ep_ctx *c, struct khist_ep_def *def)
{
	const char *name = NULL, *colon;
	int ret;

	c->index = 0;
	ret = kp_parse_maxactive(c, def);
	if (ret)
		return ret;
	ret = kp_parse_place(c, def);
	if (ret)
		return ret;
	c->index = 0;
	colon = strchr(c->argv[0] + 1, ':');
	if (colon) {
		name = colon + 1;
		ret = ep_parse_name(c, &name, &def->group, name - c->argv[0]);
		if (ret)
			return ret;
	}
	def->event = name ? kstrdup(name, GFP_KERNEL) : kp_default_name(def);
	if (!def->group)
		def->group = kstrdup(KHIST_KP_SYSTEM, GFP_KERNEL);
	if (!def->event || !def->group)
		return -ENOMEM;
	return kp_parse_args(c, def);
}

/* Words 2 on: the arguments of a kprobe or uprobe, and the layout. */
static int kp_parse_args(struct ep_ctx *c, struct khist_ep_def *def)
{
	int i, argc = c->argc, ret;

	if (argc - 2 > KHIST_EP_ARGS_MAX)
		return -E2BIG;
	def->args = kcalloc(argc - 2 ? argc - 2 : 1, sizeof(*def->args),
			    GFP_KERNEL);
	if (!def->args)
		return -ENOMEM;
	def->hdr_size = KHIST_EP_HDR_SIZE + (khist_ep_is_ret(def) ? 16 : 8);
	def->fixed_size = def->hdr_size;
	for (i = 2; i < argc; i++) {
		c->index = i;
		c->offset = 0;
		def->nr_args = i - 1;
		ret = ep_parse_arg(c, def, i - 2, c->argv[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int up_parse_words(struct ep_ctx *c, struct khist_ep_def *def);

/*
 * A p: or r: line of kprobe_events (@user false) or uprobe_events (@user
 * true): split, logged and parsed by the kind's words.
 */
static int kp_parse_line(const char *line, const struct khist_ep_finder *finder,
			 struct khist_ep_cmd *cmd, bool user)
{
	struct ep_ctx c = { .cmd = cmd, .finder = finder };
	struct khist_ep_def *def;
	char *buf;
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	buf = kstrdup(line, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	c.argv = ep_split(buf, &c.argc);
	if (!c.argv) {
		kfree(buf);
		return -ENOMEM;
	}
	if (c.argc < 2 || (c.argv[0][0] != 'p' && c.argv[0][0] != 'r')) {
		ret = -ECANCELED;
		goto out;
	}
	cmd->cmd = ep_join(c.argv, 0, c.argc);
	def = kzalloc(sizeof(*def), GFP_KERNEL);
	if (!cmd->cmd || !def) {
		kfree(def);
		ret = -ENOMEM;
		goto out;
	}
	if (user)
		def->kind = c.argv[0][0] == 'r' ? KHIST_EPK_URETPROBE :
						  KHIST_EPK_UPROBE;
	else
		def->kind = c.argv[0][0] == 'r' ? KHIST_EPK_KRETPROBE :
						  KHIST_EPK_KPROBE;
	c.def = def;
	ret = user ? up_parse_words(&c, def) : kp_parse_words(&c, def);
	if (ret) {
		khist_ep_def_free(def);
		if (ret == -ECANCELED)
			cmd->nr_err = 0;
	} else {
		cmd->def = def;
	}
out:
	kfree(c.argv);
	kfree(buf);
	return ret;
}

/**
 * khist_kp_parse() - parse a p: (kprobe) or r: (kretprobe) line
 * @line:   the line (no newline or comment)
 * @finder: the register and symbol look-ups (@finder->find unused)
 * @cmd:    the result, as for khist_ep_parse() (location "trace_kprobe")
 *
 * Context: any; allocates.
 * Return: 0 with @cmd->def set, -ECANCELED when @line is no kprobe line
 * (or a uprobe's), -EINVAL, -ERANGE, -ENOENT (@symbol unknown), -E2BIG,
 * -ENOMEM.
 */
int khist_kp_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd)
{
	return kp_parse_line(line, finder, cmd, false);
}

/* ---- uprobes and uretprobes -------------------------------------------- */

/*
 * Word 1, "PATH:OFFSET[%return][(REF_CTR)]" (in @w, a copy: carets count
 * from its start). -ECANCELED when it is no uprobe place.
 */
static int up_parse_place(struct ep_ctx *c, struct khist_ep_def *def, char *w)
{
	char *off = strrchr(w, ':'), *rctr, *end, *p;
	u64 n;
	int ret;

	if (!strchr(w, '/') || !off || !khist_isdigit(off[1]))
		return -ECANCELED;
	c->index = 1;
	*off++ = '\0';
	ret = c->finder->file ? c->finder->file(w) : -ENOENT;
	if (ret) {
		ep_err(c, 0,
		       ret == -ENOENT ? KHIST_EPERR_FILE_NOT_FOUND :
					KHIST_EPERR_NO_REGULAR_FILE);
		return ret == -ENOENT ? ret : -EINVAL;
	}
	rctr = strchr(off, '(');
	if (rctr) {
		end = strchr(rctr, ')');
		if (!end) {
			ep_err(c, rctr + strlen(rctr) - w,
			       KHIST_EPERR_REFCNT_OPEN_BRACE);
			return -EINVAL;
		}
		if (end[1]) {
			ep_err(c, end + 1 - w, KHIST_EPERR_BAD_REFCNT_SUFFIX);
			return -EINVAL;
		}
		*rctr++ = '\0';
		*end = '\0';
		if (khist_parse_u64(rctr, strlen(rctr), &n) || n > ULONG_MAX) {
			ep_err(c, rctr - w, KHIST_EPERR_BAD_REFCNT);
			return -EINVAL;
		}
		def->ref_ctr = n;
	}
	p = strchr(off, '%');
	if (p) {
		if (strcmp(p, "%return")) {
			ep_err(c, p - w, KHIST_EPERR_BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		*p = '\0';
		def->kind = KHIST_EPK_URETPROBE;
	}
	if (khist_parse_u64(off, strlen(off), &n) || n > ULONG_MAX) {
		ep_err(c, off - w, KHIST_EPERR_BAD_UPROBE_OFFS);
		return -EINVAL;
	}
	def->offset = n;
	def->path = kstrdup(w, GFP_KERNEL);
	return def->path ? 0 : -ENOMEM;
}

/*
 * The kernel's default name: p_<file name up to its first '.', '-' or
 * '_'>_0x<offset>, 'p' for return probes too.
 */
static char *up_default_name(const struct khist_ep_def *def)
{
	const char *base = strrchr(def->path, '/');
	char buf[KHIST_EP_NAME_MAX];
	size_t len;

	base = base ? base + 1 : def->path;
	len = strcspn(base, ".-_");
	snprintf(buf, sizeof(buf), "p_%.*s_0x%lx", (int)len, base, def->offset);
	return kstrdup(buf, GFP_KERNEL);
}

static int up_parse_words(struct ep_ctx *c, struct khist_ep_def *def)
{
	const char *name = NULL;
	char *w;
	int ret;

	w = kstrdup(c->argv[1], GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	ret = up_parse_place(c, def, w);
	kfree(w);
	if (ret)
		return ret;
	c->index = 0;
	if (c->argv[0][1] == ':') {
		name = c->argv[0] + 2;
		ret = ep_parse_name(c, &name, &def->group, 2);
		if (ret)
			return ret;
	}
	def->event = name ? kstrdup(name, GFP_KERNEL) : up_default_name(def);
	if (!def->group)
		def->group = kstrdup(KHIST_UP_SYSTEM, GFP_KERNEL);
	if (!def->event || !def->group)
		return -ENOMEM;
	return kp_parse_args(c, def);
}

/**
 * khist_up_parse() - parse a p: (uprobe) or r: (uretprobe) line
 * @line:   the line (no newline or comment)
 * @finder: the register and file look-ups (@finder->find and
 *          @finder->symbol unused)
 * @cmd:    the result, as for khist_ep_parse() (location "trace_uprobe")
 *
 *   p[:[GRP/][EVENT]] PATH:OFFSET[%return][(REF_CTR)] [ARGS]
 *   r[:[GRP/][EVENT]] PATH:OFFSET[(REF_CTR)] [ARGS]
 *
 * Context: any; allocates.
 * Return: 0 with @cmd->def set, -ECANCELED when @line is no uprobe line,
 * -EINVAL, -ENOENT (no such file), -E2BIG, -ENOMEM.
 */
int khist_up_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd)
{
	return kp_parse_line(line, finder, cmd, true);
}
