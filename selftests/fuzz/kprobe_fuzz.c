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
 *     see fz_ep_caret_max()); -E2BIG may come alone (too many arguments,
 *     or too many entry arguments of a kretprobe);
 *   - a definition is consistent: names, argument slots in order after
 *     the header, inside the fixed size and its bound, distinct names,
 *     known fetch sources and stores, the dynamic flag; the fields
 *     (khist_ep_fields()) do not overlap and have the kind and element
 *     size of their type;
 *   - the listing and the print fmt render with measured length = written
 *     length; the listing is one line that parses back to the same
 *     names, probe point (symbol and offset or address, maxactive),
 *     listing and layout;
 *   - nothing stays allocated.
 * The checks eprobe_fuzz.c makes too are in probe_checks.h.
 */
#define FZ_TARGET "kprobe_fuzz"
#include "probe_checks.h"
#include "lex.h"

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
	unsigned int i, h;

	check(d->kind == KHIST_EPK_KPROBE || d->kind == KHIST_EPK_KRETPROBE,
	      "kind", line);
	check(d->group && *d->group && d->event && *d->event &&
		      strlen(d->group) < KHIST_EP_NAME_MAX &&
		      strlen(d->event) < KHIST_EP_NAME_MAX,
	      "probe name", line);
	fz_ep_check_args(d, KHIST_EPS_STACKP, line);

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
	fz_ep_check_fields(d, all + h, line);
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

static void one(char *line)
{
	static char listing[FZ_LISTING_MAX], buf[FZ_LISTING_MAX];
	struct khist_ep_cmd c;
	int ret;

	ret = khist_kp_parse(line, &fz_finder, &c);
	fz_ep_check_result(&c, ret, -ENOENT, 0, line);
	if (!ret) {
		check_def(c.def, line);
		fz_ep_check_render(c.def, listing, line);
		/*
		 * The module registers the probe before listing it: a symbol
		 * the look-up does not know ("300000-0" is the symbol
		 * "300000", as in ftrace) is refused there, never listed.
		 */
		if (!c.def->symbol || known(c.def))
			fz_ep_round_trip(c.def, listing, buf, khist_kp_parse,
					 &fz_finder, line);
	}
	khist_ep_cmd_release(&c);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	return fz_run_line(data, size, one);
}
