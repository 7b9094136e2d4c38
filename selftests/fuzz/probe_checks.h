/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_checks.h - the checks the line parsers' fuzz targets share.
 *
 * Every target here feeds one line to a parser: fz_run_line() copies the
 * input, up to its first NUL, into a buffer of exactly its length plus
 * the NUL (so ASan reports any read past the end), runs the target's
 * check of one line and then checks that nothing stays allocated.
 *
 * The fz_ep_*() helpers hold what eprobe_fuzz.c and kprobe_fuzz.c check
 * of a struct khist_ep_cmd: the return value and the error log of a
 * refusal, the layout of the arguments and of their fields, the rendered
 * listing and print fmt, and the listing's round trip through the parser.
 * What only one parser has (the attached event, the probe header fields,
 * the removal matcher) stays in its target.
 *
 * A target defines FZ_TARGET, its name as check() prints it, before it
 * includes this file.
 */
#ifndef _KHIST_FUZZ_PROBE_CHECKS_H
#define _KHIST_FUZZ_PROBE_CHECKS_H

#include <kshim/kernel.h>
#include "eprobe_parse.h"

#ifndef FZ_TARGET
#error "define FZ_TARGET (the target's name) before including probe_checks.h"
#endif

/* The longest input line, and a listing or fmt buffer with room to spare. */
#define FZ_LINE_MAX 4096
#define FZ_LISTING_MAX (2 * FZ_LINE_MAX)

static inline void check(bool ok, const char *what, const char *line)
{
	if (ok)
		return;
	fprintf(stderr, FZ_TARGET ": %s\ninput: '%s'\n", what, line);
	abort();
}

/*
 * One libFuzzer input as one line: @one runs on a NUL-ended copy of
 * @data up to its first NUL (it may write into it). Inputs longer than
 * FZ_LINE_MAX are refused (-1: libFuzzer keeps them out of the corpus).
 */
static inline int fz_run_line(const u8 *data, size_t size,
			      void (*one)(char *line))
{
	const u8 *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	long live = kshim_live_allocations();
	char *line;

	if (len > FZ_LINE_MAX)
		return -1;
	line = malloc(len + 1);
	memcpy(line, data, len);
	line[len] = '\0';
	one(line);
	check(kshim_live_allocations() == live, "memory left allocated", line);
	free(line);
	return 0;
}

/*
 * @listing, which ends with its only newline, into @buf without it (@buf
 * holds at least strlen(@listing) + 1 bytes), ready to parse again.
 */
static inline void fz_listing_line(char *buf, const char *listing,
				   const char *line)
{
	char *nl;

	strcpy(buf, listing);
	nl = strchr(buf, '\n');
	check(nl && !nl[1], "listing is not one line", line);
	*nl = '\0';
}

/* The kernel's isspace(), Latin-1 no-break space included. */
static inline bool fz_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/* Words of @s (changed in place) split at blanks, @max at most. */
static inline int fz_words(char *s, const char **argv, int max)
{
	int n = 0;

	for (;;) {
		while (fz_blank(*s))
			s++;
		if (!*s || n == max)
			return n;
		argv[n++] = s;
		while (*s && !fz_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/*
 * The furthest caret a probe parser may log in @cmd. Like ftrace's, a
 * caret may stand one past the logged words, where a missing one would
 * start ("... if ^"). Type errors after dereferences go further, as
 * ftrace's do: the offset into the braces plus the type's offset in the
 * whole argument ("+123456789(+123456789($f)):b99@0/8"), less than twice
 * the command's length.
 */
static inline size_t fz_ep_caret_max(const char *cmd)
{
	return 2 * strlen(cmd) + 1;
}

/*
 * The result @c of a probe parser that returned @ret for @line: a value
 * the API documents (@missing: the parser's "no such event or symbol"),
 * never -ENOMEM; -ECANCELED (not the parser's kind of line) leaves no
 * result and no error; a refusal leaves no definition and logs one or
 * two errors, each with a known code, a message and a caret within
 * fz_ep_caret_max(). Only -E2BIG may come without a log entry: when
 * @e2big_words is not 0, only from a line of more than @e2big_words
 * words (too many arguments).
 */
static inline void fz_ep_check_result(const struct khist_ep_cmd *c, int ret,
				      int missing, int e2big_words,
				      const char *line)
{
	static char copy[FZ_LINE_MAX + 1];
	static const char *argv[FZ_LINE_MAX];
	unsigned int i;

	check(ret == 0 || ret == -ECANCELED || ret == -EINVAL ||
		      ret == -ERANGE || ret == missing || ret == -E2BIG,
	      "unexpected return value", line);
	if (ret == -ECANCELED) {
		check(!c->def && !c->nr_err, "not a probe line, yet a result",
		      line);
		return;
	}
	if (!ret) {
		check(c->def != NULL, "success without a definition", line);
		return;
	}
	check(!c->def, "a definition with an error", line);
	check(c->nr_err <= KHIST_EP_ERRS, "error count", line);
	check(c->nr_err || ret == -E2BIG, "an error without a log entry", line);
	if (!c->nr_err && e2big_words) {
		strcpy(copy, line);
		check(fz_words(copy, argv, ARRAY_SIZE(argv)) > e2big_words,
		      "an error without a log entry", line);
	}
	check(!c->nr_err || c->cmd, "no logged command", line);
	for (i = 0; i < c->nr_err; i++) {
		const char *msg = khist_ep_err_text(c->err[i]);

		check(c->err[i] > KHIST_EPERR_NONE &&
			      c->err[i] < KHIST_EPERR_COUNT,
		      "error code", line);
		check(msg && *msg, "error without a message", line);
		check(c->pos[i] <= fz_ep_caret_max(c->cmd),
		      "caret past the command", line);
	}
}

/*
 * The arguments of @d: each with a name, text and type within their
 * bounds, a known store and a fetch source up to @last_src (the
 * sources of the probe's kind end there), laid out in definition order from the header
 * on, inside the fixed size and its bound, under distinct names; the
 * dynamic flag says whether one is a string.
 */
static inline void fz_ep_check_args(const struct khist_ep_def *d,
				    enum khist_ep_src last_src,
				    const char *line)
{
	unsigned int i, j, off = d->hdr_size;
	bool dyn = false;

	check(d->nr_args <= KHIST_EP_ARGS_MAX, "argument count", line);
	for (i = 0; i < d->nr_args; i++) {
		const struct khist_ep_arg *a = &d->args[i];
		unsigned int n = a->count ? a->count : 1;

		check(a->name && *a->name && a->text && *a->text && a->ftype &&
			      a->type && a->type->name && a->type->size,
		      "argument without name, text or type", line);
		check(strlen(a->name) <= KHIST_EP_ARGNAME_MAX &&
			      strlen(a->text) <= KHIST_EP_ARGSTR_MAX,
		      "argument name or text too long", line);
		check(a->count <= KHIST_EP_ARRAY_MAX, "array length", line);
		check(a->nr_loads <= KHIST_EP_INSN_MAX, "fetch steps", line);
		check(a->src <= last_src && a->store <= KHIST_EPST_SYMSTR,
		      "fetch source or store", line);
		check(a->src != KHIST_EPS_DATA || a->data, "constant string",
		      line);
		check(a->offset == off, "argument offset", line);
		off += a->type->size * n;
		dyn |= a->type->print == KHIST_EPP_STRING;
		for (j = 0; j < i; j++)
			check(strcmp(a->name, d->args[j].name),
			      "two arguments with one name", line);
	}
	check(d->fixed_size == off, "fixed size", line);
	check(off <= d->hdr_size + KHIST_EP_FIXED_MAX, "record too big", line);
	check(d->dynamic == dyn, "dynamic flag", line);
}

/*
 * @descs, the fields khist_ep_fields() gives for the arguments of @d (the
 * probe's own header fields left out): in order inside the fixed part,
 * not overlapping, with the kind and element size of their type.
 */
static inline void fz_ep_check_fields(const struct khist_ep_def *d,
				      const struct khist_field_desc *descs,
				      const char *line)
{
	unsigned int i, end = d->hdr_size;

	for (i = 0; i < d->nr_args; i++) {
		const struct khist_field_desc *f = &descs[i];

		check(f->name == d->args[i].name, "field name", line);
		check(f->offset >= end && f->offset + f->size <= d->fixed_size,
		      "field outside the fixed part or overlapping", line);
		end = f->offset + f->size;
		check(f->elem_size && f->size % f->elem_size == 0,
		      "field element size", line);
		switch (f->kind) {
		case KHIST_FK_DYNSTRING:
			check(f->size == 4 && !d->args[i].count, "string field",
			      line);
			break;
		case KHIST_FK_ARRAY:
			check(d->args[i].count &&
				      f->size ==
					      f->elem_size * d->args[i].count,
			      "array field", line);
			break;
		case KHIST_FK_INT:
			check(f->size == 1 || f->size == 2 || f->size == 4 ||
				      f->size == 8,
			      "integer field size", line);
			break;
		default:
			check(false, "field kind", line);
		}
	}
}

/*
 * The listing of @d into @listing (FZ_LISTING_MAX bytes) and its print
 * fmt render with measured length = written length; a short buffer gets
 * a cut, NUL-ended listing.
 */
static inline void fz_ep_check_render(const struct khist_ep_def *d,
				      char *listing, const char *line)
{
	static char fmt[FZ_LISTING_MAX * 4];
	int n;

	n = khist_ep_show(d, NULL, 0);
	check(n > 0 && n < FZ_LISTING_MAX, "listing length", line);
	check(khist_ep_show(d, listing, FZ_LISTING_MAX) == n &&
		      (int)strlen(listing) == n,
	      "listing measured and written differ", line);
	n = khist_ep_print_fmt(d, NULL, 0);
	check(n > 0 && n < (int)sizeof(fmt), "print fmt length", line);
	check(khist_ep_print_fmt(d, fmt, sizeof(fmt)) == n &&
		      (int)strlen(fmt) == n,
	      "print fmt measured and written differ", line);
	khist_ep_show(d, listing, 7);
	check(strlen(listing) <= 6, "cut listing", line);
	khist_ep_show(d, listing, FZ_LISTING_MAX);
}

/* Two names that may be absent (NULL). */
static inline bool fz_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

typedef int (*fz_ep_parse_fn)(const char *line,
			      const struct khist_ep_finder *finder,
			      struct khist_ep_cmd *cmd);

/*
 * The listing of @d (one line) parsed again by @parse: the same names,
 * probe point (attached event, symbol and offset or address, maxactive,
 * file and reference counter), kind, layout and arguments, listed the
 * same. @buf (FZ_LISTING_MAX bytes) is left holding the listing without
 * its newline.
 */
static inline void fz_ep_round_trip(const struct khist_ep_def *d,
				    const char *listing, char *buf,
				    fz_ep_parse_fn parse,
				    const struct khist_ep_finder *finder,
				    const char *line)
{
	static char again_listing[FZ_LISTING_MAX];
	struct khist_ep_cmd again;
	unsigned int i;
	int ret;

	fz_listing_line(buf, listing, line);
	ret = parse(buf, finder, &again);
	if (ret) {
		fprintf(stderr, "listing: %s\nret %d, error: %s @%u\n", buf,
			ret,
			again.nr_err ? khist_ep_err_text(again.err[0]) : "",
			again.nr_err ? again.pos[0] : 0);
		check(false, "the listing does not parse", line);
	}
	check(fz_same(again.def->group, d->group) &&
		      fz_same(again.def->event, d->event),
	      "the listing parses to another name", line);
	check(fz_same(again.def->system, d->system) &&
		      fz_same(again.def->target, d->target) &&
		      fz_same(again.def->symbol, d->symbol) &&
		      again.def->offset == d->offset &&
		      again.def->addr == d->addr &&
		      again.def->maxactive == d->maxactive &&
		      fz_same(again.def->path, d->path) &&
		      again.def->ref_ctr == d->ref_ctr,
	      "the listing parses to another probe point", line);
	check(again.def->kind == d->kind && again.def->nr_args == d->nr_args &&
		      again.def->fixed_size == d->fixed_size &&
		      again.def->dynamic == d->dynamic,
	      "the listing parses to another layout", line);
	for (i = 0; i < d->nr_args; i++)
		check(again.def->args[i].type == d->args[i].type &&
			      again.def->args[i].count == d->args[i].count &&
			      again.def->args[i].offset == d->args[i].offset &&
			      again.def->args[i].src == d->args[i].src &&
			      again.def->args[i].store == d->args[i].store &&
			      again.def->args[i].nr_loads ==
				      d->args[i].nr_loads &&
			      !strcmp(again.def->args[i].ftype,
				      d->args[i].ftype),
		      "the listing parses to other arguments", line);
	khist_ep_show(again.def, again_listing, sizeof(again_listing));
	if (strcmp(again_listing, listing))
		fprintf(stderr, "listing: %sagain:   %s", listing,
			again_listing);
	check(!strcmp(again_listing, listing), "the listing lists differently",
	      line);
	khist_ep_cmd_release(&again);
}

#endif /* _KHIST_FUZZ_PROBE_CHECKS_H */
