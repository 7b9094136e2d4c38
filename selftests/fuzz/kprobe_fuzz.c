// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_fuzz.c - libFuzzer target: the kprobe parser (the p: and r:
 * lines of `kprobe_events` and `dynamic_events`, khist_kp_parse()).
 *
 * The input, up to its first NUL, is one line, copied into a buffer of
 * exactly its length plus the NUL so that ASan reports a read past the
 * end. Registers are x86_64's pt_regs names; symbols are the names of
 * fz_syms below (any offset inside their size), as the module's look-up
 * resolves them with a disabled kprobe. Checked:
 *   - the return value is one the API documents, never -ENOMEM; -ECANCELED
 *     (no kprobe line) leaves no result and no error;
 *   - a refusal logs one or two errors, each with a known code, a
 *     message, and a caret less than twice the command's length past its
 *     start (ftrace's own carets go past the command after dereferences,
 *     see eprobe_fuzz.c); more than 128 arguments may give -E2BIG alone;
 *   - a definition is consistent: names, argument slots in order after
 *     the header, inside the fixed size and its bound, distinct names,
 *     the dynamic flag; the fields (khist_ep_fields()) do not overlap;
 *   - the listing and the print fmt render with measured length = written
 *     length; the listing is one line that parses back to the same
 *     listing and layout;
 *   - nothing stays allocated.
 */
#include <ctype.h>
#include <kshim/kernel.h>
#include "eprobe_parse.h"
#include "lex.h"

#define LINE_MAX_FZ 4096
#define LISTING_MAX (2 * LINE_MAX_FZ)

static void check(bool ok, const char *what, const char *line)
{
	if (ok)
		return;
	fprintf(stderr, "kprobe_fuzz: %s\ninput: '%s'\n", what, line);
	abort();
}

static const char *const fz_regs[] = {
	"r15", "r14",	  "r13", "r12", "bp",	 "bx", "r11",
	"r10", "r9",	  "r8",	 "ax",	"cx",	 "dx", "si",
	"di",  "orig_ax", "ip",	 "cs",	"flags", "sp", "ss",
};

static int fz_reg(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fz_regs); i++)
		if (!strcmp(fz_regs[i], name))
			return i * 8;
	return -EINVAL;
}

static const struct {
	const char *name;
	u64 addr, size;
} fz_syms[] = {
	{ "vfs_read", 0xffffffff81400000ULL, 0x200 },
	{ "do_sys_openat2", 0xffffffff81401000ULL, 0x180 },
	{ "kmem_cache_alloc", 0xffffffff81402000ULL, 0x300 },
	{ "jiffies", 0xffffffff82000000ULL, 8 },
};

/* "sym[+-offs]" as the module's look-up takes it. */
static int fz_symbol(const char *text, u64 *addr)
{
	size_t len = strcspn(text, "+-");
	unsigned int i;
	long offs = 0;

	if (text[len] && khist_parse_long(text + len, &offs))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(fz_syms); i++) {
		if (strlen(fz_syms[i].name) != len ||
		    strncmp(fz_syms[i].name, text, len))
			continue;
		if (offs < 0 || (u64)offs >= fz_syms[i].size)
			return -ENOENT;
		*addr = fz_syms[i].addr + offs;
		return 0;
	}
	return -ENOENT;
}

static const struct khist_ep_finder fz_finder = {
	.reg = fz_reg,
	.symbol = fz_symbol,
};

static void check_def(const struct khist_ep_def *d, const char *line)
{
	static struct khist_field_desc all[KHIST_EP_ARGS_MAX + 2];
	const struct khist_field_desc *descs;
	unsigned int i, j, off = d->hdr_size, end, h;
	bool dyn = false;

	check(d->kind == KHIST_EPK_KPROBE || d->kind == KHIST_EPK_KRETPROBE,
	      "kind", line);
	check(d->group && *d->group && d->event && *d->event &&
		      strlen(d->group) < KHIST_EP_NAME_MAX &&
		      strlen(d->event) < KHIST_EP_NAME_MAX,
	      "probe name", line);
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

	/* __probe_ip, or __probe_func and __probe_ret_ip, then the args. */
	h = khist_ep_nr_fields(d) - d->nr_args;
	check(h == (d->kind == KHIST_EPK_KRETPROBE ? 2 : 1) &&
		      d->hdr_size == KHIST_EP_HDR_SIZE + 8 * h,
	      "probe fields", line);
	khist_ep_fields(d, all);
	for (i = 0; i < h; i++)
		check(all[i].offset == KHIST_EP_HDR_SIZE + 8 * i &&
			      all[i].size == 8,
		      "probe field", line);
	descs = all + h;
	end = d->hdr_size;
	for (i = 0; i < d->nr_args; i++) {
		const struct khist_field_desc *f = &descs[i];

		check(f->name == d->args[i].name, "field name", line);
		check(f->offset >= end && f->offset + f->size <= d->fixed_size,
		      "field outside the fixed part or overlapping", line);
		end = f->offset + f->size;
		check(f->elem_size && f->size % f->elem_size == 0,
		      "field element size", line);
	}
}

static void round_trip(const struct khist_ep_def *d, const char *listing,
		       const char *line)
{
	static char buf[LISTING_MAX], again_listing[LISTING_MAX];
	struct khist_ep_cmd again;
	unsigned int i;
	char *nl;
	int ret;

	strcpy(buf, listing);
	nl = strchr(buf, '\n');
	check(nl && !nl[1], "listing is not one line", line);
	*nl = '\0';
	ret = khist_kp_parse(buf, &fz_finder, &again);
	if (ret) {
		fprintf(stderr, "listing: %s\nret %d, error: %s @%u\n", buf,
			ret,
			again.nr_err ? khist_ep_err_text(again.err[0]) : "",
			again.nr_err ? again.pos[0] : 0);
		check(false, "the listing does not parse", line);
	}
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

/* Whether the module's look-up finds the probed symbol. */
static bool known(const struct khist_ep_def *d)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fz_syms); i++)
		if (!strcmp(fz_syms[i].name, d->symbol))
			return d->offset < fz_syms[i].size;
	return false;
}

static void one(const char *line)
{
	static char listing[LISTING_MAX], fmt[LISTING_MAX * 4];
	struct khist_ep_cmd c;
	unsigned int i;
	int ret, n;

	ret = khist_kp_parse(line, &fz_finder, &c);
	check(ret == 0 || ret == -ECANCELED || ret == -EINVAL ||
		      ret == -ERANGE || ret == -ENOENT || ret == -E2BIG,
	      "unexpected return value", line);
	if (ret == -ECANCELED)
		check(!c.def && !c.nr_err, "not a kprobe line, yet a result",
		      line);
	if (ret && ret != -ECANCELED) {
		check(!c.def, "a definition with an error", line);
		check(c.nr_err <= KHIST_EP_ERRS, "error count", line);
		check(c.nr_err || ret == -E2BIG, "an error without a log entry",
		      line);
		check(!c.nr_err || c.cmd, "no logged command", line);
		for (i = 0; i < c.nr_err; i++) {
			const char *msg = khist_ep_err_text(c.err[i]);

			check(c.err[i] > KHIST_EPERR_NONE &&
				      c.err[i] < KHIST_EPERR_COUNT,
			      "error code", line);
			check(msg && *msg, "error without a message", line);
			check(c.pos[i] <= 2 * strlen(c.cmd) + 1,
			      "caret past the command", line);
		}
	}
	if (!ret) {
		check(c.def != NULL, "success without a definition", line);
		check_def(c.def, line);
		n = khist_ep_show(c.def, NULL, 0);
		check(n > 0 && n < (int)sizeof(listing), "listing length",
		      line);
		check(khist_ep_show(c.def, listing, sizeof(listing)) == n &&
			      (int)strlen(listing) == n,
		      "listing measured and written differ", line);
		n = khist_ep_print_fmt(c.def, NULL, 0);
		check(n > 0 && n < (int)sizeof(fmt), "print fmt length", line);
		check(khist_ep_print_fmt(c.def, fmt, sizeof(fmt)) == n &&
			      (int)strlen(fmt) == n,
		      "print fmt measured and written differ", line);
		khist_ep_show(c.def, listing, 7);
		check(strlen(listing) <= 6, "cut listing", line);
		khist_ep_show(c.def, listing, sizeof(listing));
		/*
		 * The module registers the probe before listing it: a symbol
		 * the look-up does not know ("300000-0" is the symbol
		 * "300000", as in ftrace) is refused there, never listed.
		 */
		if (!c.def->symbol || known(c.def))
			round_trip(c.def, listing, line);
	}
	khist_ep_cmd_release(&c);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const u8 *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	long live = kshim_live_allocations();
	char *line;

	if (len > LINE_MAX_FZ)
		return -1;
	line = malloc(len + 1);
	memcpy(line, data, len);
	line[len] = '\0';
	one(line);
	check(kshim_live_allocations() == live, "memory left allocated", line);
	free(line);
	return 0;
}
