// SPDX-License-Identifier: GPL-2.0
/*
 * tep_formats.c - libtraceevent reads every format file khist serves.
 *
 *   khist-tep-formats KHIST_DIR [NATIVE_DIR]
 *
 * For each events/<system>/<event>/format under KHIST_DIR: the parser
 * accepts it with no warning and no failed print format; name, system and
 * ID match the directory and its id file; the four common fields have
 * ftrace's layout; the event's fields lie inside the record without
 * overlapping. When NATIVE_DIR (the kernel's tracefs) has the same event,
 * libtraceevent's view of both (each field's name, type, offset, size,
 * sign, array length; the print format) must be equal. events/header_page
 * is parsed too. Prints TAP lines; exits 1 when a check failed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>

static int nr_warnings;
static int failed;
/*
 * While an event is parsed, the library's messages are held here: they
 * reach stderr only when the problem is khist's, not when the kernel's
 * own format file (byte for byte the same) gives the library the same
 * trouble.
 */
static FILE *held;

/*
 * libtraceevent reports parse problems through tep_vprint(); this
 * definition takes the place of the library's (it is documented as
 * overridable), counts them and still shows them.
 */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	FILE *out = held ? held : stderr;

	if (level <= TEP_LOG_WARNING)
		nr_warnings++;
	fprintf(out, "libtraceevent %s: ", name ? name : "");
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	(void)print_err;
	return 0;
}

/* Start holding the library's messages (see held). */
static void hold(void)
{
	held = tmpfile();
}

/* Stop holding them: to stderr when @show, else dropped. */
static void release(int show)
{
	char buf[4096];
	size_t n;

	if (!held)
		return;
	if (show) {
		rewind(held);
		while ((n = fread(buf, 1, sizeof(buf), held)) > 0)
			fwrite(buf, 1, n, stderr);
	}
	fclose(held);
	held = NULL;
}

static char *read_file(const char *path, size_t *len)
{
	size_t size = 0, cap = 4096;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + size, 1, cap - size - 1, f)) > 0) {
		size += n;
		if (size + 1 == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	buf[size] = '\0';
	*len = size;
	return buf;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed++;
}

#define FIELD_FLAGS                                                        \
	(TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_POINTER | TEP_FIELD_IS_SIGNED | \
	 TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)

/* The fields of two parses of the same event must agree. */
static void compare_fields(const char *what, struct tep_format_field *a,
			   struct tep_format_field *b)
{
	for (; a && b; a = a->next, b = b->next) {
		if (strcmp(a->name, b->name) || strcmp(a->type, b->type) ||
		    a->offset != b->offset || a->size != b->size ||
		    a->arraylen != b->arraylen ||
		    (a->flags & FIELD_FLAGS) != (b->flags & FIELD_FLAGS))
			fail("%s: field '%s %s' (offset %d size %d flags %#lx) "
			     "natively '%s %s' (offset %d size %d flags %#lx)",
			     what, a->type, a->name, a->offset, a->size,
			     a->flags & FIELD_FLAGS, b->type, b->name,
			     b->offset, b->size, b->flags & FIELD_FLAGS);
	}
	if (a || b)
		fail("%s: %s has more fields", what, a ? "khist" : "native");
}

static void check_common(const char *what, struct tep_event *ev)
{
	static const struct {
		const char *name;
		int offset, size;
	} common[] = {
		{ "common_type", 0, 2 },
		{ "common_flags", 2, 1 },
		{ "common_preempt_count", 3, 1 },
		{ "common_pid", 4, 4 },
	};
	struct tep_format_field *f = ev->format.common_fields;
	unsigned int i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++, f = f->next) {
		if (!f || strcmp(f->name, common[i].name) ||
		    f->offset != common[i].offset ||
		    f->size != common[i].size) {
			fail("%s: common field %u is not %s", what, i,
			     common[i].name);
			return;
		}
	}
	if (f)
		fail("%s: extra common field %s", what, f->name);
}

/*
 * Fields inside the record, in order, not overlapping. A __data_loc is 4
 * bytes, except in synthetic events, which keep every field in a u64
 * slot (the kernel's format says size:8 there too).
 */
static void check_layout(const char *what, struct tep_event *ev)
{
	int loc = strcmp(ev->system, "synthetic") ? 4 : 8;
	struct tep_format_field *f;
	int end = 8;

	for (f = ev->format.fields; f; f = f->next) {
		if (f->offset < end)
			fail("%s: field %s at %d overlaps the previous one",
			     what, f->name, f->offset);
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) && f->size != loc)
			fail("%s: dynamic field %s has size %d", what, f->name,
			     f->size);
		/* Only a flexible array at the end may have size 0. */
		if (f->size < 0 ||
		    (!f->size && (f->next || !(f->flags & TEP_FIELD_IS_ARRAY))))
			fail("%s: field %s has size %d", what, f->name,
			     f->size);
		end = f->offset + f->size;
	}
}

static struct tep_event *parse(struct tep_handle *tep, const char *dir,
			       const char *sys, const char *name, int *warn)
{
	struct tep_event *ev = NULL;
	char path[4096];
	size_t len;
	char *buf;
	int before = nr_warnings;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, name);
	buf = read_file(path, &len);
	if (!buf)
		return NULL;
	if (tep_parse_format(tep, &ev, buf, len, sys))
		ev = NULL;
	free(buf);
	*warn = nr_warnings - before;
	return ev;
}

static int is_ident(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * The format file without its "ID:" line (khist numbers its own) and
 * without the numbers of __UNIQUE_ID_<name>_<N> identifiers (min() and
 * max() in a print fmt expand to them; N is __COUNTER__ of the
 * compilation unit, which differs between the kernel and khist).
 */
static char *format_sans_id(const char *path)
{
	static const char uid[] = "__UNIQUE_ID_";
	size_t len;
	char *buf = read_file(path, &len), *id, *eol, *p, *e, *d;

	if (!buf)
		return NULL;
	id = strstr(buf, "\nID: ");
	if (id) {
		eol = strchr(id + 1, '\n');
		memmove(id, eol ? eol : id + strlen(id),
			strlen(eol ? eol : id + strlen(id)) + 1);
	}
	for (p = strstr(buf, uid); p; p = strstr(p, uid)) {
		p += sizeof(uid) - 1;
		for (e = p; is_ident(*e); e++)
			;
		for (d = e; d > p && d[-1] >= '0' && d[-1] <= '9'; d--)
			;
		memmove(d, e, strlen(e) + 1);
		p = d;
	}
	return buf;
}

/* Whether two format files are the same but for their IDs. */
static int same_format(const char *a, const char *b)
{
	char *ba = format_sans_id(a), *bb = format_sans_id(b);
	int same = ba && bb && !strcmp(ba, bb);

	free(ba);
	free(bb);
	return same;
}

/*
 * A format libtraceevent has trouble with is not khist's fault when the
 * kernel serves the same text (but for the ID) and the library has the same trouble with
 * them (Debian 12's libtraceevent 1.7 predates some of 6.12's print fmts:
 * dma's __print_array of a struct, maple_tree's). Such an event is
 * listed, not counted; its fields and print fmt are still compared.
 */
/*
 * Whether the native kernel's directory of the event exists and has no id
 * file (an internal event that cannot be registered, ftrace/raw_data).
 */
static int no_id_file(const char *ndir, const char *sys, const char *name)
{
	char p[4096];
	DIR *d;

	if (!ndir)
		return 0;
	snprintf(p, sizeof(p), "%s/events/%s/%s", ndir, sys, name);
	d = opendir(p);
	if (!d)
		return 0;
	closedir(d);
	snprintf(p, sizeof(p), "%s/events/%s/%s/id", ndir, sys, name);
	return access(p, F_OK) && errno == ENOENT;
}

static int kernel_same(const char *what, const char *dir, const char *ndir,
		       const char *sys, const char *name, struct tep_event *ev,
		       int warn, struct tep_event *nev, int nwarn)
{
	char a[4096], b[4096];
	int failed_k = !ev || (ev->flags & TEP_EVENT_FL_FAILED);
	int failed_n = !nev || (nev->flags & TEP_EVENT_FL_FAILED);

	if (!ndir || (ev && !warn && !failed_k))
		return 0;
	snprintf(a, sizeof(a), "%s/events/%s/%s/format", dir, sys, name);
	snprintf(b, sizeof(b), "%s/events/%s/%s/format", ndir, sys, name);
	/*
	 * The counts may differ: the library reports some troubles once per
	 * handle, and the two handles have parsed different events before.
	 */
	if (!(nwarn || failed_n) || !same_format(a, b))
		return 0;
	printf("# %s: libtraceevent has trouble with the kernel's own, same "
	       "format too (%d warning(s)%s here): not counted\n",
	       what, warn, failed_k ? ", print fmt failed" : "");
	return 1;
}

/*
 * Check one event; *differs is set when it differs from the native one.
 * Return: 1 when a check of khist's own format failed.
 */
static int check_event(struct tep_handle *tep, struct tep_handle *native,
		       const char *dir, const char *ndir, const char *sys,
		       const char *name, int *compared, int *differs)
{
	struct tep_event *ev, *nev;
	char what[512], path[4096];
	int warn, nwarn, bad, lib, start = failed;
	size_t len;
	char *id;

	*differs = 0;
	snprintf(what, sizeof(what), "%s/%s", sys, name);
	hold();
	ev = parse(tep, dir, sys, name, &warn);
	nev = NULL;
	nwarn = 0;
	if (native && (!ev || warn || (ev->flags & TEP_EVENT_FL_FAILED)))
		nev = parse(native, ndir, sys, name, &nwarn);
	lib = kernel_same(what, dir, ndir, sys, name, ev, warn, nev, nwarn);
	release(!lib);
	if (!ev) {
		if (lib)
			return 0;
		fail("%s: libtraceevent rejects the format file", what);
		return 1;
	}
	if (warn && !lib)
		fail("%s: %d warning(s) while parsing", what, warn);
	if ((ev->flags & TEP_EVENT_FL_FAILED) && !lib)
		fail("%s: print fmt failed to parse", what);
	if (strcmp(ev->name, name) || strcmp(ev->system, sys))
		fail("%s: parsed as %s/%s", what, ev->system, ev->name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	id = read_file(path, &len);
	if (!id && no_id_file(ndir, sys, name)) {
		/* As the kernel's: ftrace/raw_data has no id file. */
	} else if (!id || atoi(id) != ev->id) {
		fail("%s: ID %d, id file says %s", what, ev->id,
		     id ? id : "nothing");
	}
	free(id);
	check_common(what, ev);
	check_layout(what, ev);
	bad = failed != start;
	start = failed;
	if (native) {
		if (!nev)
			nev = parse(native, ndir, sys, name, &nwarn);
		if (nev) {
			(*compared)++;
			compare_fields(what, ev->format.fields,
				       nev->format.fields);
			if (strcmp(ev->print_fmt.format ? ev->print_fmt.format :
							  "",
				   nev->print_fmt.format ?
					   nev->print_fmt.format :
					   ""))
				fail("%s: print format differs from native",
				     what);
		}
	}
	*differs = failed != start;
	return bad;
}

static int is_dir_entry(const struct dirent *d)
{
	return d->d_name[0] != '.' && d->d_type == DT_DIR;
}

/*
 * __get_stacktrace(field), the helper in the print fmt of a synthetic
 * event with a long[] stack (Linux 6.4 and later), is newer than Debian's
 * libtraceevent 1.7, which would warn on the kernel's own format. It is
 * registered the way a trace-cmd plugin adds a helper; its value does
 * not matter here, only that the print fmt parses.
 */
static unsigned long long get_stacktrace(struct trace_seq *s,
					 unsigned long long *args)
{
	(void)s;
	return args[0];
}

static int add_helpers(struct tep_handle *tep)
{
	return tep_register_print_function(tep, get_stacktrace,
					   TEP_FUNC_ARG_STRING,
					   "__get_stacktrace", TEP_FUNC_ARG_PTR,
					   TEP_FUNC_ARG_VOID);
}

int main(int argc, char **argv)
{
	struct tep_handle *tep, *native = NULL;
	const char *dir, *ndir = NULL;
	int nr = 0, bad = 0, compared = 0, differ = 0, d;
	struct dirent **sys, **ev;
	char path[4096];
	int nsys, nev, i, j;
	size_t len;
	char *hp;

	if (argc < 2) {
		fprintf(stderr, "usage: %s KHIST_DIR [NATIVE_DIR]\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	tep_set_loglevel(TEP_LOG_WARNING);
	tep = tep_alloc();
	if (argc > 2) {
		ndir = argv[2];
		native = tep_alloc();
	}
	if (!tep || (ndir && !native) || add_helpers(tep) ||
	    (native && add_helpers(native)))
		return 2;

	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	hp = read_file(path, &len);
	if (hp && !tep_parse_header_page(tep, hp, len, sizeof(long)) &&
	    tep_get_header_page_size(tep) == (int)sizeof(long))
		printf("ok - tep: events/header_page parses (commit is a long)\n");
	else
		printf("not ok - tep: events/header_page does not parse\n");
	free(hp);

	snprintf(path, sizeof(path), "%s/events", dir);
	nsys = scandir(path, &sys, is_dir_entry, alphasort);
	if (nsys < 0) {
		printf("not ok - tep: cannot list %s: %s\n", path,
		       strerror(errno));
		return 1;
	}
	for (i = 0; i < nsys; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", dir,
			 sys[i]->d_name);
		nev = scandir(path, &ev, is_dir_entry, alphasort);
		for (j = 0; j < nev; j++) {
			nr++;
			bad += check_event(tep, native, dir, ndir,
					   sys[i]->d_name, ev[j]->d_name,
					   &compared, &d);
			differ += d;
			free(ev[j]);
		}
		if (nev >= 0)
			free(ev);
		free(sys[i]);
	}
	free(sys);
	printf("%s - tep: %d format files parse without warnings, IDs, common "
	       "fields and layout right (%d bad)\n",
	       bad || !nr ? "not ok" : "ok", nr, bad);
	if (ndir)
		printf("%s - tep: fields and print fmt equal the native kernel's "
		       "(%d events compared, %d differ)\n",
		       differ || !compared ? "not ok" : "ok", compared, differ);
	tep_free(tep);
	if (native)
		tep_free(native);
	return bad || differ ? 1 : 0;
}
