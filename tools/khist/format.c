// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - an event's `format` file read into the portable core's
 * schema (struct khist_event_schema), the layout the hist binder and the
 * filter compiler check field names against.
 *
 * A field line is "\tfield:<decl>;\toffset:N;\tsize:N;\tsigned:N;" with
 * <decl> a C declaration: "char prev_comm[16]", "__data_loc char[] name",
 * "const char * name". The common_* fields are the record header, which
 * the core knows already.
 */
#include <kshim/kernel.h>
#include <ctype.h>
#include "schema.h"
#include "format.h"
#include "khist.h"

static char *kh_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Split a declaration into a name and a type as the format file prints. */
static int kh_decl(const char *decl, char **name, char **type)
{
	char *d = kh_xstrdup(decl), *s = kh_trim(d), *br, *e, *n;

	br = strrchr(s, '[');
	e = s + strlen(s);
	if (br && e[-1] == ']' && br > s &&
	    (isalnum((unsigned char)br[-1]) || br[-1] == '_')) {
		/* "char comm[16]": the name sits before the brackets. */
		n = br;
		while (n > s && (isalnum((unsigned char)n[-1]) || n[-1] == '_'))
			n--;
		*name = strndup(n, br - n);
		*n = '\0';
		if (asprintf(type, "%s%s", kh_trim(s), br) < 0)
			*type = NULL;
	} else {
		n = e;
		while (n > s && (isalnum((unsigned char)n[-1]) || n[-1] == '_'))
			n--;
		*name = kh_xstrdup(n);
		*n = '\0';
		*type = kh_xstrdup(kh_trim(s));
	}
	free(d);
	if (!*name || !*type || !**name || !**type) {
		free(*name);
		free(*type);
		return -1;
	}
	return 0;
}

static u8 kh_kind(const char *type, unsigned int size, u16 *elem)
{
	const char *br = strchr(type, '[');

	*elem = size;
	if (!strncmp(type, "__data_loc ", 11)) {
		*elem = 1;
		if (strstr(type, "char[]"))
			return KHIST_FK_DYNSTRING;
		if (strstr(type, "cpumask"))
			return KHIST_FK_CPUMASK;
		*elem = strstr(type, "long")  ? 8 :
			strstr(type, "short") ? 2 :
			strstr(type, "int")   ? 4 :
						1;
		return KHIST_FK_DYNARRAY;
	}
	if (!strncmp(type, "__rel_loc ", 10)) {
		*elem = 1;
		return KHIST_FK_RELSTRING;
	}
	if (br) {
		unsigned long n = strtoul(br + 1, NULL, 10);

		if (!strncmp(type, "char[", 5) ||
		    !strncmp(type, "unsigned char[", 14) ||
		    !strncmp(type, "const char[", 11)) {
			*elem = 1;
			return KHIST_FK_STRING;
		}
		*elem = n ? size / n : size;
		return KHIST_FK_ARRAY;
	}
	if (strstr(type, "char *") || strstr(type, "char*"))
		return KHIST_FK_PTRSTRING;
	return KHIST_FK_INT;
}

/**
 * kh_format_parse() - a `format` file into a schema
 * @text:   the file's text
 * @system: the event's system (copied)
 * @event:  the event's name, or NULL for the file's "name:" line
 * @common: keep the common_* fields too (a schema has none)
 * @out:    filled; free with kh_format_free()
 *
 * Return: 0, or -1 when the text holds no field list.
 */
int kh_format_parse(const char *text, const char *system, const char *event,
		    bool common, struct kh_format *out)
{
	const char *p = text;
	char evname[256] = "";
	unsigned int id = 0;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = strndup(p, len), *f, *semi;
		unsigned int off, size, sgn;

		p += len + (eol ? 1 : 0);
		if (!line)
			return -1;
		sscanf(line, "name: %255s", evname);
		sscanf(line, "ID: %u", &id);
		f = strstr(line, "field:");
		semi = f ? strchr(f, ';') : NULL;
		if (semi && sscanf(semi + 1, " offset:%u; size:%u; signed:%u",
				   &off, &size, &sgn) == 3) {
			struct khist_field_desc *d;
			char *name, *type;

			*semi = '\0';
			if (!kh_decl(f + 6, &name, &type)) {
				if (!common && !strncmp(name, "common_", 7)) {
					free(name);
					free(type);
				} else {
					out->fields = realloc(
						out->fields,
						(out->n + 1) *
							sizeof(*out->fields));
					if (!out->fields)
						return -1;
					d = &out->fields[out->n++];
					memset(d, 0, sizeof(*d));
					d->name = name;
					d->type = type;
					d->offset = off;
					d->size = size;
					d->is_signed = !!sgn;
					d->kind = kh_kind(type, size,
							  &d->elem_size);
					if (off + size > out->schema.rec_size)
						out->schema.rec_size =
							off + size;
				}
			}
			out->any = true;
		}
		free(line);
	}
	if (!out->any)
		return -1;
	out->system = strdup(system ? system : "");
	out->event = strdup(event ? event : evname);
	out->schema.system = out->system;
	out->schema.name = out->event;
	out->schema.id = id;
	out->schema.fields = out->fields;
	out->schema.nr_fields = out->n;
	if (out->schema.rec_size < sizeof(struct khist_common_hdr))
		out->schema.rec_size = sizeof(struct khist_common_hdr);
	return 0;
}

void kh_format_free(struct kh_format *f)
{
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		free((char *)f->fields[i].name);
		free((char *)f->fields[i].type);
	}
	free(f->fields);
	free(f->system);
	free(f->event);
	memset(f, 0, sizeof(*f));
}

/**
 * kh_format_fields() - `khist fields`: name, type, offset, size
 * @text: the format file
 * @out:  where to print
 *
 * Return: 0, or -1 when @text is not a format file.
 */
int kh_format_fields(const char *text, FILE *out)
{
	struct kh_format f;
	unsigned int i;

	if (kh_format_parse(text, "", NULL, true, &f)) {
		kh_err("not a format file (no field: lines)");
		return -1;
	}
	fprintf(out, "%-24s %-28s %6s %5s\n", "NAME", "TYPE", "OFFSET", "SIZE");
	for (i = 0; i < f.n; i++)
		fprintf(out, "%-24s %-28s %6u %5u\n", f.fields[i].name,
			f.fields[i].type, f.fields[i].offset, f.fields[i].size);
	kh_format_free(&f);
	return 0;
}
