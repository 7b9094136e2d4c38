// SPDX-License-Identifier: GPL-2.0
/*
 * synth_parse.c - the synthetic event command language.
 *
 * The order of the checks, the token each error points at and the quirks
 * (a caret placed at the first occurrence of the token in the command,
 * "char[0]" taken as a dynamic string, '/' looked for past the name of an
 * s: line) follow the 6.12 kernel, because users and ftrace's selftests
 * see them through error_log. See Documentation/synthetic-events.rst.
 */
#include "synth_parse.h"
#include "lex.h"

static const char *const synth_err_text[KHIST_SERR_COUNT] = {
	[KHIST_SERR_BAD_NAME] = "Illegal name",
	[KHIST_SERR_INVALID_CMD] =
		"Command must be of the form: <name> field[;field] ...",
	[KHIST_SERR_INVALID_DYN_CMD] =
		"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
	[KHIST_SERR_EVENT_EXISTS] = "Event already exists",
	[KHIST_SERR_TOO_MANY_FIELDS] = "Too many fields",
	[KHIST_SERR_INCOMPLETE_TYPE] = "Incomplete type",
	[KHIST_SERR_INVALID_TYPE] = "Invalid type",
	[KHIST_SERR_INVALID_FIELD] = "Invalid field",
	[KHIST_SERR_INVALID_ARRAY_SPEC] = "Invalid array specification",
};

/* The next blank-separated word of *@p, NUL-terminated in place. */
static char *synth_next_word(char **p)
{
	size_t len;
	char *w = (char *)khist_word(*p, &len);

	if (!len) {
		*p = w;
		return NULL;
	}
	*p = w + len;
	if (**p)
		*(*p)++ = '\0';
	return w;
}

/**
 * khist_synth_good_name() - may this be an event or field name?
 * @name: the name
 *
 * Context: any.
 * Return: true for a letter or '_' followed by letters, digits and '_'.
 */
bool khist_synth_good_name(const char *name)
{
	return khist_good_name(name);
}

/**
 * khist_synth_err_text() - the error_log text of an error code
 * @err: enum khist_synth_errcode
 *
 * Context: any.
 * Return: the text, or "" for KHIST_SERR_NONE and unknown codes.
 */
const char *khist_synth_err_text(int err)
{
	if (err <= KHIST_SERR_NONE || err >= KHIST_SERR_COUNT)
		return "";
	return synth_err_text[err];
}

/* N of a "...char[N]" type, 0 for "char[]", -EINVAL when malformed. */
static int synth_string_size(const char *type)
{
	const char *start = strstr(type, "char["), *end;
	size_t len;
	u64 n;

	if (!start)
		return -EINVAL;
	start += sizeof("char[") - 1;
	end = strchr(type, ']');
	if (!end || end < start || end[1])
		return -EINVAL;
	len = end - start;
	if (len > 3)
		return -EINVAL;
	if (!len)
		return 0;
	if (khist_parse_u64(start, len, &n) || n > KHIST_SYNTH_STR_MAX)
		return -EINVAL;
	return n;
}

static const struct {
	const char *type;
	unsigned char size;
	const char *fmt;
} synth_types[] = {
	{ "s64", 8, "%lld" },
	{ "u64", 8, "%llu" },
	{ "s32", 4, "%d" },
	{ "u32", 4, "%u" },
	{ "s16", 2, "%d" },
	{ "u16", 2, "%u" },
	{ "s8", 1, "%d" },
	{ "u8", 1, "%u" },
	{ "char", 1, "%d" },
	{ "unsigned char", 1, "%u" },
	{ "int", 4, "%d" },
	{ "unsigned int", 4, "%u" },
	{ "long", sizeof(long), "%ld" },
	{ "unsigned long", sizeof(long), "%lu" },
	{ "bool", 1, "%d" },
	{ "pid_t", 4, "%d" },
	{ "gfp_t", 4, "%x" },
};

/* Size of a type: > 0 scalar or char[N], 0 dynamic or unknown, < 0 bad. */
static int synth_type_size(const char *type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(synth_types); i++)
		if (!strcmp(type, synth_types[i].type))
			return synth_types[i].size;
	if (strstr(type, "char["))
		return synth_string_size(type);
	return 0;
}

/**
 * khist_synth_field_fmt() - the printf conversion of a field type
 * @type: the type, as in struct khist_synth_field
 *
 * Context: any.
 * Return: "%llu", "%d", "%s", ... as the print fmt and `trace` use it.
 */
const char *khist_synth_field_fmt(const char *type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(synth_types); i++)
		if (!strcmp(type, synth_types[i].type))
			return synth_types[i].fmt;
	if (strstr(type, "char[") || strstr(type, "long["))
		return "%s";
	return "%llu";
}

/**
 * khist_synth_list_type() - a field's type as the listings show it
 * @f: the field
 *
 * Only a dynamic field loses its "__data_loc " prefix (the one khist
 * added): a type written with "__data_loc" in it lists as written, so
 * that the listing reads back.
 *
 * Context: any.
 * Return: the type without the prefix.
 */
const char *khist_synth_list_type(const struct khist_synth_field *f)
{
	static const char pfx[] = "__data_loc ";

	if (f->is_dynamic && !strncmp(f->type, pfx, sizeof(pfx) - 1))
		return f->type + sizeof(pfx) - 1;
	return f->type;
}

/* Parsing state of one command. */
struct synth_parser {
	const char *cmd;
	struct khist_synth_cmd *out;
	struct khist_synth_field *fields;
	unsigned int nr;
};

static int synth_fail(struct synth_parser *p, int err, const char *tok)
{
	const char *at = tok ? strstr(p->cmd, tok) : NULL;

	p->out->err = err;
	p->out->pos = at ? at - p->cmd : 0;
	return -EINVAL;
}

static char *synth_concat(const char *a, const char *b, const char *c,
			  const char *d)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c), ld = strlen(d);
	char *s = kmalloc(la + lb + lc + ld + 1, GFP_KERNEL);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc);
	memcpy(s + la + lb + lc, d, ld);
	s[la + lb + lc + ld] = '\0';
	return s;
}

/* Classify @f->type (set) and fill size and flags; -EINVAL logged. */
static int synth_field_classify(struct synth_parser *p,
				struct khist_synth_field *f, const char *ftype,
				const char *fname, bool array)
{
	int size = synth_type_size(f->type);
	char *dyn;

	if (size < 0)
		return array ? synth_fail(p, KHIST_SERR_INVALID_ARRAY_SPEC,
					  fname) :
			       synth_fail(p, KHIST_SERR_INVALID_TYPE, ftype);
	if (!size) {
		if (!strstr(f->type, "char[") && !strstr(f->type, "long["))
			return synth_fail(p, KHIST_SERR_INVALID_TYPE, ftype);
		dyn = synth_concat("__data_loc ", f->type, "", "");
		if (!dyn)
			return -ENOMEM;
		kfree(f->type);
		f->type = dyn;
		f->is_dynamic = true;
		size = sizeof(u64);
	}
	f->size = size;
	if (strstr(f->type, "char["))
		f->is_string = true;
	else if (strstr(f->type, "long["))
		f->is_stack = true;
	f->is_signed = f->type[0] != 'u' && strcmp(f->type, "gfp_t");
	return 0;
}

/* One field from the words at *@words; @first is the word already taken. */
static int synth_parse_field(struct synth_parser *p, char *first, char **words,
			     struct khist_synth_field *f)
{
	const char *prefix = "", *ftype = first, *array;
	char *fname;
	int ret;

	if (!strcmp(first, "unsigned")) {
		ftype = synth_next_word(words);
		fname = ftype ? synth_next_word(words) : NULL;
		if (!fname)
			return synth_fail(p, KHIST_SERR_INCOMPLETE_TYPE, first);
		prefix = "unsigned ";
	} else {
		fname = synth_next_word(words);
		if (!fname)
			return synth_fail(p, KHIST_SERR_INVALID_FIELD, ftype);
	}
	array = strchr(fname, '[');
	f->name = kstrndup(fname, array ? array - fname : strlen(fname),
			   GFP_KERNEL);
	if (!f->name)
		return -ENOMEM;
	if (!khist_synth_good_name(f->name))
		return synth_fail(p, KHIST_SERR_BAD_NAME, fname);
	f->type = synth_concat(prefix, ftype, array ? array : "", "");
	if (!f->type)
		return -ENOMEM;
	ret = synth_field_classify(p, f, ftype, fname, array);
	return ret;
}

static void synth_field_clear(struct khist_synth_field *f)
{
	kfree(f->name);
	kfree(f->type);
	memset(f, 0, sizeof(*f));
}

/* Parse the ';'-separated field list @text into p->fields. */
static int synth_parse_fields(struct synth_parser *p, const char *text)
{
	struct khist_synth_field f;
	char *copy, *rest, *seg, *words, *w;
	int ret = 0;

	copy = kstrdup(text, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	rest = copy;
	while (rest) {
		seg = rest;
		rest = strchr(rest, ';');
		if (rest)
			*rest++ = '\0';
		words = seg;
		while ((w = synth_next_word(&words))) {
			memset(&f, 0, sizeof(f));
			ret = synth_parse_field(p, w, &words, &f);
			if (!ret && p->nr == KHIST_SYNTH_FIELDS_MAX)
				ret = synth_fail(p, KHIST_SERR_TOO_MANY_FIELDS,
						 NULL);
			if (ret) {
				synth_field_clear(&f);
				goto out;
			}
			p->fields[p->nr++] = f;
		}
	}
	if (!p->nr)
		ret = synth_fail(p, KHIST_SERR_INVALID_CMD, NULL);
out:
	kfree(copy);
	return ret;
}

static void synth_layout(struct khist_synth_def *def)
{
	unsigned int i, off = KHIST_SYNTH_HDR_SIZE;
	struct khist_synth_field *f;

	def->nr_dynamic = 0;
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		f->offset = off;
		if (f->is_string && !f->is_dynamic)
			off += KHIST_SYNTH_STR_MAX;
		else
			off += sizeof(u64);
		if (f->is_dynamic)
			def->nr_dynamic++;
	}
	def->fixed_size = off;
}

/* Define the event @name (length @len) with the fields in @text. */
static int synth_create(struct synth_parser *p, const char *name, size_t len,
			const char *text, khist_synth_exists_fn exists,
			void *arg)
{
	struct khist_synth_def *def;
	char *ename;
	unsigned int i;
	int ret;

	if (!len)
		return synth_fail(p, KHIST_SERR_INVALID_CMD, NULL);
	ename = kstrndup(name, len, GFP_KERNEL);
	if (!ename)
		return -ENOMEM;
	if (!khist_synth_good_name(ename)) {
		ret = synth_fail(p, KHIST_SERR_BAD_NAME, ename);
		goto out_name;
	}
	if (exists && exists(ename, arg)) {
		synth_fail(p, KHIST_SERR_EVENT_EXISTS, ename);
		ret = -EEXIST;
		goto out_name;
	}
	p->fields =
		kcalloc(KHIST_SYNTH_FIELDS_MAX, sizeof(*p->fields), GFP_KERNEL);
	ret = -ENOMEM;
	if (!p->fields)
		goto out_name;
	ret = synth_parse_fields(p, text);
	if (ret)
		goto out_fields;
	def = kzalloc(sizeof(*def) + p->nr * sizeof(*def->fields), GFP_KERNEL);
	ret = -ENOMEM;
	if (!def)
		goto out_fields;
	def->fields = (struct khist_synth_field *)(def + 1);
	def->nr_fields = p->nr;
	def->name = ename;
	memcpy(def->fields, p->fields, p->nr * sizeof(*def->fields));
	synth_layout(def);
	kfree(p->fields);
	p->out->def = def;
	p->out->op = KHIST_SYNTH_CREATE;
	return 0;

out_fields:
	for (i = 0; i < p->nr; i++)
		synth_field_clear(&p->fields[i]);
	kfree(p->fields);
out_name:
	kfree(ename);
	return ret;
}

/* The first ';'-separated part must hold a name, a type and a field. */
static bool synth_check_command(const char *s)
{
	return *s == '!' || khist_count_words(s, ';') >= 3;
}

static int synth_parse_dyn(struct synth_parser *p, khist_synth_exists_fn exists,
			   void *arg)
{
	const char *cmd = p->cmd, *name = cmd + 2, *sp;
	size_t pre = sizeof(KHIST_SYNTH_SYSTEM "/") - 1;

	if (cmd[0] != 's' || cmd[1] != ':')
		return -ECANCELED;
	sp = strpbrk(cmd, " \t");
	if (!sp)
		return synth_fail(p, KHIST_SERR_INVALID_CMD, NULL);
	/* ftrace looks for the group separator in the whole line. */
	if (strchr(name, '/')) {
		if (strncmp(name, KHIST_SYNTH_SYSTEM "/", pre))
			return synth_fail(p, KHIST_SERR_INVALID_DYN_CMD, NULL);
		name += pre;
	}
	if (!synth_check_command(name))
		return synth_fail(p, KHIST_SERR_INVALID_CMD, NULL);
	return synth_create(p, name, sp - name, khist_skip_spaces(sp), exists,
			    arg);
}

/**
 * khist_synth_parse() - parse one synthetic event command
 * @line:   the line, without its newline and comment
 * @flags:  KHIST_SYNTH_PARSE_DYN for a `dynamic_events` line
 * @exists: tells whether a name is taken (may be NULL)
 * @arg:    passed to @exists
 * @out:    the outcome; release it with khist_synth_cmd_release()
 *
 * `synthetic_events` lines are "name type field[; type field]..." (create)
 * or "!name [anything]" (remove); `dynamic_events` lines handled here are
 * "s:[synthetic/]name type field[; ...]".
 *
 * Context: process context (allocates with GFP_KERNEL).
 * Return: 0 with @out->op set; -EINVAL or -EEXIST with @out->err and
 * @out->pos set; -ECANCELED for a `dynamic_events` line that is not an
 * s: line (nothing logged); -ENOMEM.
 */
int khist_synth_parse(const char *line, unsigned int flags,
		      khist_synth_exists_fn exists, void *arg,
		      struct khist_synth_cmd *out)
{
	struct synth_parser p = { .out = out };
	const char *cmd, *sp;
	size_t len;

	memset(out, 0, sizeof(*out));
	cmd = khist_skip_spaces(line);
	if (!*cmd)
		return 0;
	p.cmd = cmd;
	out->cmd = cmd;
	if (flags & KHIST_SYNTH_PARSE_DYN)
		return synth_parse_dyn(&p, exists, arg);
	if (!synth_check_command(cmd))
		return synth_fail(&p, KHIST_SERR_INVALID_CMD, NULL);
	sp = strpbrk(cmd, " \t");
	len = sp ? sp - cmd : strlen(cmd);
	if (cmd[0] == '!') {
		out->name = kstrndup(cmd + 1, len - 1, GFP_KERNEL);
		if (!out->name)
			return -ENOMEM;
		out->op = KHIST_SYNTH_DELETE;
		return 0;
	}
	if (!sp)
		return synth_fail(&p, KHIST_SERR_INVALID_CMD, NULL);
	return synth_create(&p, cmd, len, khist_skip_spaces(sp), exists, arg);
}

/**
 * khist_synth_def_free() - free a definition made by khist_synth_parse()
 * @def: the definition (may be NULL)
 *
 * Context: any context that may free memory.
 */
void khist_synth_def_free(struct khist_synth_def *def)
{
	unsigned int i;

	if (!def)
		return;
	for (i = 0; i < def->nr_fields; i++) {
		kfree(def->fields[i].name);
		kfree(def->fields[i].type);
	}
	kfree(def->name);
	kfree(def);
}

/**
 * khist_synth_cmd_release() - free what a parsed command still owns
 * @cmd: the command (its definition, if not taken, and its name)
 *
 * Context: any context that may free memory.
 */
void khist_synth_cmd_release(struct khist_synth_cmd *cmd)
{
	khist_synth_def_free(cmd->def);
	kfree(cmd->name);
	cmd->def = NULL;
	cmd->name = NULL;
}

/**
 * khist_synth_show() - the listing line of an event
 * @def:  the event
 * @buf:  output (may be NULL when @size is 0)
 * @size: bytes in @buf
 *
 * "name\ttype field; type field\n", dynamic types without "__data_loc".
 *
 * Context: any.
 * Return: the length of the full line, as snprintf().
 */
int khist_synth_show(const struct khist_synth_def *def, char *buf, size_t size)
{
	const struct khist_synth_field *f;
	unsigned int i;
	int pos;

	pos = khist_puts(buf, size, 0, def->name);
	pos = khist_puts(buf, size, pos, "\t");
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		if (i)
			pos = khist_puts(buf, size, pos, "; ");
		pos = khist_puts(buf, size, pos, khist_synth_list_type(f));
		pos = khist_puts(buf, size, pos, " ");
		pos = khist_puts(buf, size, pos, f->name);
	}
	return khist_puts(buf, size, pos, "\n");
}

/**
 * khist_synth_print_fmt() - the "print fmt" text of the event's format
 * @def:  the event
 * @buf:  output (may be NULL when @size is 0)
 * @size: bytes in @buf
 *
 * Context: any.
 * Return: the length of the full text, as snprintf().
 */
int khist_synth_print_fmt(const struct khist_synth_def *def, char *buf,
			  size_t size)
{
	const struct khist_synth_field *f;
	unsigned int i;
	int pos;

	pos = khist_puts(buf, size, 0, "\"");
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		if (i)
			pos = khist_puts(buf, size, pos, ", ");
		pos = khist_puts(buf, size, pos, f->name);
		pos = khist_puts(buf, size, pos, "=");
		pos = khist_puts(buf, size, pos,
				 khist_synth_field_fmt(f->type));
	}
	pos = khist_puts(buf, size, pos, "\"");
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		if (f->is_string && f->is_dynamic)
			pos = khist_puts(buf, size, pos, ", __get_str(");
		else if (f->is_stack)
			pos = khist_puts(buf, size, pos, ", __get_stacktrace(");
		else
			pos = khist_puts(buf, size, pos, ", REC->");
		pos = khist_puts(buf, size, pos, f->name);
		if (f->is_dynamic)
			pos = khist_puts(buf, size, pos, ")");
	}
	return pos;
}

/**
 * khist_synth_type_is_string() - is a value of this type a string?
 * @type: the value's type string ("char[16]", "__data_loc char[]", "u64")
 *
 * A string field copies the string its value points at: a number there
 * would make the event read kernel memory at an address chosen by
 * whatever the number holds.
 *
 * Context: any.
 * Return: true for the char arrays that hist values of strings carry.
 */
bool khist_synth_type_is_string(const char *type)
{
	return strstr(type, "char[");
}

/**
 * khist_synth_param_ok() - may a value of this type go into a field?
 * @f:         the synthetic event field
 * @type:      the value's type string ("u64", "char[16]", "char[]", ...)
 * @size:      the value's size
 * @is_signed: the value is signed
 * @is_stack:  the value is a stack trace
 *
 * ftrace's rule: any string goes into a dynamic string; otherwise a stack
 * only into a stack; equal type strings match; else the sizes must be
 * equal, and for non-strings the signedness too. Unlike ftrace, a string
 * field (char[N] or char[]) takes only a string: ftrace lets a number of
 * the field's size in, and the event then reads the string at whatever
 * address that number holds (khist_synth_type_is_string()).
 *
 * Context: any.
 * Return: true when it fits.
 */
bool khist_synth_param_ok(const struct khist_synth_field *f, const char *type,
			  unsigned int size, bool is_signed, bool is_stack)
{
	if (f->is_string && !khist_synth_type_is_string(type))
		return false;
	if (strstr(type, "char[") && f->is_string && f->is_dynamic)
		return true;
	if (is_stack != f->is_stack)
		return false;
	if (f->is_stack || !strcmp(f->type, type))
		return true;
	return f->size == size && (f->is_string || f->is_signed == is_signed);
}

/**
 * khist_dynevent_parse_remove() - split a `dynamic_events` removal line
 * @line:   "-:[group/]event [args]" (or "!...:[group/]event"), modified
 * @system: the group, or NULL when none was given
 * @event:  the event name
 *
 * Context: any.
 * Return: 0, or -EINVAL when the line is not a removal ftrace accepts.
 */
int khist_dynevent_parse_remove(char *line, const char **system,
				const char **event)
{
	char *words = line, *w = synth_next_word(&words), *ev, *slash;

	*system = NULL;
	if (!w)
		return -EINVAL;
	if (w[0] == '-') {
		if (w[1] != ':')
			return -EINVAL;
		ev = w + 2;
	} else {
		ev = strchr(w, ':');
		if (!ev)
			return -EINVAL;
		ev++;
	}
	slash = strchr(ev, '/');
	if (slash) {
		*slash = '\0';
		*system = ev;
		ev = slash + 1;
	}
	if (!*system && !*ev)
		return -EINVAL;
	*event = ev;
	return 0;
}
