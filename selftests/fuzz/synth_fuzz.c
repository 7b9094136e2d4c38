// SPDX-License-Identifier: GPL-2.0
/*
 * synth_fuzz.c - libFuzzer target: the synthetic event parser.
 *
 * The input, up to its first NUL, is one line written to
 * `synthetic_events`; it is also parsed as a `dynamic_events` line and
 * as a dynamic event removal. The line is copied into a buffer of exactly
 * its length plus the NUL, so ASan reports any read past the end. Checked:
 *   - the return value is one the API documents, never -ENOMEM; a refusal
 *     has a known error code and a caret inside the logged command;
 *   - a definition is consistent: 1..64 fields, slots laid out in order
 *     (8 bytes, 256 for char[N]), the dynamic field count, a valid name,
 *     a format for every field, and every field accepts its own type;
 *   - its listing and print fmt render, and the listing line parses back
 *     to a definition with the same listing and layout;
 *   - nothing stays allocated.
 * The line harness and the listing's line are probe_checks.h's.
 */
#define FZ_TARGET "synth_fuzz"
#include "probe_checks.h"
#include "synth_parse.h"

static bool exists(const char *name, void *arg)
{
	return !strcmp(name, "wakeup_latency") || !strcmp(name, "taken");
}

static void check_def(const struct khist_synth_def *d, const char *line)
{
	unsigned int i, off = KHIST_SYNTH_HDR_SIZE, dyn = 0;

	check(d->name && khist_synth_good_name(d->name), "event name", line);
	check(d->nr_fields >= 1 && d->nr_fields <= KHIST_SYNTH_FIELDS_MAX,
	      "field count", line);
	for (i = 0; i < d->nr_fields; i++) {
		const struct khist_synth_field *f = &d->fields[i];

		check(f->name && f->type && *f->name && *f->type,
		      "field without name or type", line);
		check(f->offset == off, "field offset", line);
		off += f->is_string && !f->is_dynamic ? KHIST_SYNTH_STR_MAX : 8;
		dyn += f->is_dynamic;
		check(!f->is_string || f->is_dynamic ||
			      (f->size >= 1 && f->size <= KHIST_SYNTH_STR_MAX),
		      "char[N] size", line);
		check(khist_synth_field_fmt(f->type) != NULL, "field format",
		      line);
		check(khist_synth_list_type(f) != NULL, "listed type", line);
		check(khist_synth_param_ok(f, f->type, f->size, f->is_signed,
					   f->is_stack),
		      "a field refuses its own type", line);
	}
	check(d->fixed_size == off, "fixed size", line);
	check(d->nr_dynamic == dyn, "dynamic field count", line);
}

static void round_trip(const struct khist_synth_def *d, const char *listing,
		       const char *line)
{
	struct khist_synth_cmd again;
	char buf[FZ_LISTING_MAX];
	unsigned int i;
	int ret;

	fz_listing_line(buf, listing, line);
	ret = khist_synth_parse(buf, 0, NULL, NULL, &again);
	if (ret || again.op != KHIST_SYNTH_CREATE) {
		fprintf(stderr, "listing: %s\nerror: %s @%u\n", buf,
			khist_synth_err_text(again.err), again.pos);
		check(false, "the listing does not parse", line);
	}
	check(again.def->nr_fields == d->nr_fields &&
		      again.def->fixed_size == d->fixed_size,
	      "the listing parses to another layout", line);
	for (i = 0; i < d->nr_fields; i++)
		check(again.def->fields[i].size == d->fields[i].size &&
			      again.def->fields[i].is_signed ==
				      d->fields[i].is_signed &&
			      !strcmp(again.def->fields[i].type,
				      d->fields[i].type),
		      "the listing parses to other fields", line);
	khist_synth_show(again.def, buf, sizeof(buf));
	check(!strcmp(buf, listing), "the listing lists differently", line);
	khist_synth_cmd_release(&again);
}

static void one(const char *line, unsigned int flags)
{
	static char listing[FZ_LISTING_MAX], fmt[FZ_LISTING_MAX * 4];
	struct khist_synth_cmd c;
	int ret, n;

	ret = khist_synth_parse(line, flags, exists, NULL, &c);
	check(ret == 0 || ret == -EINVAL || ret == -EEXIST ||
		      (ret == -ECANCELED && (flags & KHIST_SYNTH_PARSE_DYN)),
	      "unexpected return value", line);
	if (ret == -EINVAL || ret == -EEXIST) {
		check(c.err > KHIST_SERR_NONE && c.err < KHIST_SERR_COUNT,
		      "error code", line);
		check(c.cmd && c.cmd >= line && c.cmd <= line + strlen(line),
		      "logged command", line);
		check(c.pos <= strlen(c.cmd), "caret past the command", line);
		check(!c.def, "a definition with an error", line);
	}
	if (!ret && c.op == KHIST_SYNTH_DELETE)
		check(c.name != NULL, "removal without a name", line);
	if (!ret && c.op == KHIST_SYNTH_CREATE) {
		check(c.def != NULL, "creation without a definition", line);
		check_def(c.def, line);
		n = khist_synth_show(c.def, listing, sizeof(listing));
		check(n > 0 && n < (int)sizeof(listing) &&
			      n == (int)strlen(listing),
		      "listing length", line);
		n = khist_synth_print_fmt(c.def, fmt, sizeof(fmt));
		check(n > 0 && n < (int)sizeof(fmt) && n == (int)strlen(fmt),
		      "print fmt length", line);
		round_trip(c.def, listing, line);
	}
	khist_synth_cmd_release(&c);
}

/* One input: a synthetic_events line, a dynamic_events line, a removal. */
static void one_line(char *line)
{
	size_t len = strlen(line);
	const char *sys, *ev;

	one(line, 0);
	one(line, KHIST_SYNTH_PARSE_DYN);
	/* The removal parser writes into the line: it is the last to see it. */
	if (!khist_dynevent_parse_remove(line, &sys, &ev)) {
		check(ev && ev >= line && ev <= line + len, "removed event",
		      line);
		check(!sys || (sys >= line && sys <= line + len),
		      "removed group", line);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	return fz_run_line(data, size, one_line);
}
