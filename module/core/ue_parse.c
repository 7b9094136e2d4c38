// SPDX-License-Identifier: GPL-2.0
/*
 * ue_parse.c - parsing the command of a user-space event into a packed
 * record layout, comparing two of them (a second registration must give
 * the same fields), the `format` print fmt and the `dynamic_events` line
 * they imply, and the check every record written by a program passes
 * before khist looks at it (its locators stay inside the record).
 */
#include "ue_parse.h"

/* The fixed-size types a program may use, with their sizes. */
static const struct {
	const char *name;
	u8 size;
	const char *fmt;
} khist_ue_types[] = {
	{ "s64", 8, "%lld" }, { "u64", 8, "%llu" },
	{ "s32", 4, "%d" },   { "u32", 4, "%u" },
	{ "int", 4, "%d" },   { "unsigned int", 4, "%u" },
	{ "s16", 2, "%d" },   { "u16", 2, "%u" },
	{ "short", 2, "%d" }, { "unsigned short", 2, "%u" },
	{ "s8", 1, "%d" },    { "u8", 1, "%u" },
	{ "char", 1, "%d" },  { "unsigned char", 1, "%u" },
};

/* Words of one field: type words, name, size; one more means too many. */
#define KHIST_UE_WORDS 6

static bool khist_ue_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static bool khist_ue_ident(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_')
			return false;
	return true;
}

/*
 * An unsigned number of @len characters at @s: decimal, or with @any_base
 * also 0x hex and 0 octal. Returns it, or -1.
 */
static long khist_ue_number(const char *s, unsigned int len, bool any_base)
{
	unsigned int base = 10, i = 0, d;
	long v = 0;

	if (any_base && len > 1 && s[0] == '0') {
		base = 8;
		i = 1;
		if (s[1] == 'x' || s[1] == 'X') {
			base = 16;
			i = 2;
		}
	}
	if (i >= len && base != 8)
		return -1;
	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -1;
		if (d >= base || v > 0xffffff)
			return -1;
		v = v * base + d;
	}
	return v;
}

/* Size of char[N] / unsigned char[N] (@br at the '['), or -EINVAL. */
static int khist_ue_array_size(const char *br)
{
	const char *end = strchr(br, ']');
	long n;

	/* At most 6 characters between the brackets, nothing after. */
	if (!end || end[1] || end - br - 1 > 6)
		return -EINVAL;
	n = khist_ue_number(br + 1, end - br - 1, true);
	if (n <= 0 || n > KHIST_UE_ARRAY_MAX)
		return -EINVAL;
	return n;
}

/* Fill @f's size and kind from its type; 0 or -EINVAL. */
static int khist_ue_type(struct khist_ue_field *f)
{
	const char *t = f->type, *rest;
	unsigned int i;
	int n;

	f->is_signed = t[0] != 'u';
	if (!strncmp(t, "__data_loc ", 11) || !strncmp(t, "__rel_loc ", 10)) {
		f->loc = t[2] == 'd' ? KHIST_UE_LOC_DATA : KHIST_UE_LOC_REL;
		rest = strchr(t, ' ') + 1;
		f->is_char = !!strstr(rest, "char");
		f->size = 4;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(khist_ue_types); i++) {
		if (!strcmp(t, khist_ue_types[i].name)) {
			f->size = khist_ue_types[i].size;
			return 0;
		}
	}
	if (!strncmp(t, "char[", 5) || !strncmp(t, "unsigned char[", 14)) {
		n = khist_ue_array_size(strchr(t, '['));
		if (n < 0)
			return n;
		f->size = n;
		f->is_char = 1;
		return 0;
	}
	return -EINVAL;
}

/*
 * Split @s (modified) into at most KHIST_UE_WORDS words; returns their
 * number, KHIST_UE_WORDS meaning too many.
 */
static unsigned int khist_ue_words(char *s, char **w)
{
	unsigned int n = 0;

	while (n < KHIST_UE_WORDS) {
		while (khist_ue_space(*s))
			*s++ = '\0';
		if (!*s)
			break;
		w[n++] = s;
		while (*s && !khist_ue_space(*s))
			s++;
	}
	return n;
}

/*
 * Parse one field from @s (modified); the type is joined with single
 * spaces at *@strs, which advances. Returns 1 for a field, 0 for an empty
 * piece, -EINVAL.
 */
static int khist_ue_field(char *s, struct khist_ue_field *f, char **strs)
{
	char *w[KHIST_UE_WORDS];
	unsigned int n, nt = 1, i;
	long size;
	int ret;

	n = khist_ue_words(s, w);
	if (!n)
		return 0;
	if (n == KHIST_UE_WORDS)
		return -EINVAL;
	if (!strcmp(w[0], "unsigned") || !strcmp(w[0], "struct"))
		nt = 2;
	else if (!strcmp(w[0], "__data_loc") || !strcmp(w[0], "__rel_loc"))
		nt = n > 1 && !strcmp(w[1], "unsigned") ? 3 : 2;
	f->is_struct = !strcmp(w[0], "struct");
	if (n != nt + 1 + f->is_struct)
		return -EINVAL;
	f->type = *strs;
	for (i = 0; i < nt; i++)
		*strs += sprintf(*strs, "%s%s", i ? " " : "", w[i]);
	(*strs)++;
	f->name = w[nt];
	if (!khist_ue_ident(f->name))
		return -EINVAL;
	if (!f->is_struct) {
		ret = khist_ue_type(f);
		return ret ? ret : 1;
	}
	size = khist_ue_number(w[nt + 1], strlen(w[nt + 1]), false);
	if (size <= 0 || size > 0xffff)
		return -EINVAL;
	f->size = size;
	f->is_signed = 1;
	return 1;
}

/**
 * khist_ue_parse() - parse the command of a user-space event
 * @cmd:      "name[:flags] [type field[;type field]...]"
 * @max_size: the largest fixed part (header included) a record may have
 * @out:      the definition, on success
 *
 * Text flags after the name are refused, as the kernel refuses them.
 *
 * Context: process context (allocates with GFP_KERNEL).
 * Return: 0, -EINVAL (bad command), -E2BIG (longer than
 * KHIST_UE_CMD_MAX, or a fixed part above @max_size), -ENOMEM.
 */
int khist_ue_parse(const char *cmd, unsigned int max_size,
		   struct khist_ue_def **out)
{
	unsigned int len, nr = 1, off = 8, i;
	struct khist_ue_def *def;
	size_t size;
	char *buf, *strs, *p, *piece, *name;
	int ret;

	len = strnlen(cmd, KHIST_UE_CMD_MAX);
	if (len >= KHIST_UE_CMD_MAX)
		return -E2BIG;
	for (i = 0; i < len; i++)
		nr += cmd[i] == ';';
	size = sizeof(*def) + nr * sizeof(*def->fields) + 2 * len + 16;
	def = kzalloc(size, GFP_KERNEL);
	if (!def)
		return -ENOMEM;
	def->size = size;
	def->fields = (struct khist_ue_field *)(def + 1);
	buf = (char *)(def->fields + nr);
	strs = buf + len + 1;
	memcpy(buf, cmd, len);
	p = buf;
	while (khist_ue_space(*p))
		p++;
	name = p;
	while (*p && !khist_ue_space(*p))
		p++;
	if (*p)
		*p++ = '\0';
	ret = -EINVAL;
	/* No text flag is supported, and the name names a directory. */
	if (!khist_ue_ident(name))
		goto err;
	def->name = name;
	while ((piece = strsep(&p, ";"))) {
		struct khist_ue_field *f = &def->fields[def->nr_fields];

		ret = khist_ue_field(piece, f, &strs);
		if (ret < 0)
			goto err;
		if (!ret)
			continue;
		f->offset = off;
		off += f->size;
		ret = -E2BIG;
		if (off > max_size)
			goto err;
		def->nr_locs += !!f->loc;
		def->nr_fields++;
	}
	def->fixed_size = off;
	*out = def;
	return 0;
err:
	kfree(def);
	return ret;
}

/**
 * khist_ue_def_free() - free a definition of khist_ue_parse()
 * @def: the definition, or NULL
 *
 * Context: any context that may call kfree().
 */
void khist_ue_def_free(struct khist_ue_def *def)
{
	kfree(def);
}

/**
 * khist_ue_same() - do two definitions have the same fields?
 * @a: one
 * @b: the other
 *
 * Same number, and in order the same types, names and sizes: spaces and
 * empty pieces between fields do not matter. Names are not compared.
 *
 * Context: any.
 * Return: true when they match.
 */
bool khist_ue_same(const struct khist_ue_def *a, const struct khist_ue_def *b)
{
	unsigned int i;

	if (a->nr_fields != b->nr_fields)
		return false;
	for (i = 0; i < a->nr_fields; i++)
		if (strcmp(a->fields[i].type, b->fields[i].type) ||
		    strcmp(a->fields[i].name, b->fields[i].name) ||
		    a->fields[i].size != b->fields[i].size)
			return false;
	return true;
}

/**
 * khist_ue_num_fmt() - the printf conversion of a field in print fmt
 * @f: the field
 *
 * Context: any.
 * Return: "%d", "%u", "%lld", "%llu" or "%s".
 */
const char *khist_ue_num_fmt(const struct khist_ue_field *f)
{
	unsigned int i;

	if (f->is_char)
		return "%s";
	for (i = 0; i < ARRAY_SIZE(khist_ue_types); i++)
		if (!strcmp(f->type, khist_ue_types[i].name))
			return khist_ue_types[i].fmt;
	return "%llu";
}

/*
 * Append the strings of @s (NULL-terminated list) to a @len-byte @buf
 * (NULL: only measure) at @pos; returns the new position, as if nothing
 * were cut. @buf stays NUL-terminated.
 */
static int khist_ue_put(char *buf, int len, int pos, const char *const *s)
{
	const char *p;

	for (; *s; s++) {
		for (p = *s; *p; p++, pos++)
			if (buf && pos + 1 < len)
				buf[pos] = *p;
		if (buf && len)
			buf[min(pos, len - 1)] = '\0';
	}
	return pos;
}

/* Append strings to the caller's buf, len, pos. */
#define KHIST_UE_PUT(...)                  \
	(pos = khist_ue_put(buf, len, pos, \
			    (const char *const[]){ __VA_ARGS__, NULL }))

/**
 * khist_ue_print_fmt() - the print fmt of an event's `format` file
 * @def: the definition
 * @buf: where it goes, or NULL to measure
 * @len: bytes at @buf
 *
 * "name=%u other=%s", REC->name, __get_rel_str(other): locators of
 * strings through __get_str() / __get_rel_str(), the rest through REC->.
 *
 * Context: any.
 * Return: its length, without the NUL.
 */
int khist_ue_print_fmt(const struct khist_ue_def *def, char *buf, int len)
{
	const struct khist_ue_field *f;
	unsigned int i;
	int pos = 0;

	KHIST_UE_PUT("\"");
	for (i = 0; i < def->nr_fields; i++)
		KHIST_UE_PUT(i ? " " : "", def->fields[i].name, "=",
			     khist_ue_num_fmt(&def->fields[i]));
	KHIST_UE_PUT("\"");
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		if (f->loc && f->is_char)
			KHIST_UE_PUT(", ",
				     f->loc == KHIST_UE_LOC_REL ?
					     "__get_rel_str(" :
					     "__get_str(",
				     f->name, ")");
		else
			KHIST_UE_PUT(", REC->", f->name);
	}
	return pos;
}

/**
 * khist_ue_show() - the event as a u: line shows it, after "u:"
 * @def: the definition
 * @buf: where it goes, or NULL to measure
 * @len: bytes at @buf
 *
 * "name type field; type field", a struct's size after its name.
 *
 * Context: any.
 * Return: its length, without the NUL.
 */
int khist_ue_show(const struct khist_ue_def *def, char *buf, int len)
{
	const struct khist_ue_field *f;
	char num[8];
	unsigned int i;
	int pos = 0;

	KHIST_UE_PUT(def->name);
	for (i = 0; i < def->nr_fields; i++) {
		f = &def->fields[i];
		KHIST_UE_PUT(i ? "; " : " ", f->type, " ", f->name);
		if (f->is_struct) {
			snprintf(num, sizeof(num), " %u", f->size);
			KHIST_UE_PUT(num);
		}
	}
	return pos;
}

/**
 * khist_ue_validate() - may khist read this record?
 * @def:  its event's definition
 * @rec:  the record, header included
 * @size: its bytes, at least @def->fixed_size
 *
 * Every locator must point inside the record, and one of a string must
 * point to one byte or more, the last one a NUL.
 *
 * Context: any.
 * Return: 0, or -EFAULT (the kernel's answer to such a write).
 */
int khist_ue_validate(const struct khist_ue_def *def, const void *rec,
		      unsigned int size)
{
	const struct khist_ue_field *f;
	unsigned int i, start, n;
	u32 loc;

	for (i = 0; i < def->nr_fields && def->nr_locs; i++) {
		f = &def->fields[i];
		if (!f->loc)
			continue;
		memcpy(&loc, rec + f->offset, sizeof(loc));
		start = loc & 0xffff;
		n = loc >> 16;
		if (f->loc == KHIST_UE_LOC_REL)
			start += f->offset + sizeof(loc);
		if (start + n > size)
			return -EFAULT;
		if (f->is_char && (!n || ((const char *)rec)[start + n - 1]))
			return -EFAULT;
	}
	return 0;
}
