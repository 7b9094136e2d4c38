// SPDX-License-Identifier: GPL-2.0
/*
 * hist_fuzz.c - libFuzzer target: the hist trigger parser and binder.
 *
 * The input is one trigger command, any bytes (libFuzzer hands over an
 * exactly sized, not NUL-terminated buffer, so ASan sees any read past the
 * end). It is compiled against every schema of schemas.h, with a resolver
 * for other triggers' variables and without one. Checked, besides "no
 * sanitizer report":
 *   - a failure is a known error code with one or two error_log entries
 *     whose carets lie inside the error_log command text, never -ENOMEM;
 *   - an accepted spec is consistent (key slots inside the compound key,
 *     sort keys naming existing keys or values, map size in range);
 *   - its listing fits, and compiling the listing again gives a spec with
 *     the same listing (the trigger file can be written back);
 *   - an accepted spec evaluates on generated records (valid, corrupt,
 *     cut short; each in a buffer of exactly its size): the compound key
 *     is built twice the same, within key_size bytes, string slots end in
 *     NUL; every value, variable and string/stack operand evaluates with
 *     reads inside the record (and inside the bound the API reports);
 *   - the keys of those records sort (the hist file's order) into a
 *     permutation, the same twice, ordered on a sum sort key;
 *   - nothing stays allocated (the shim's live allocation count).
 */
#include <kshim/kernel.h>
#include "hist_bind.h"
#include "hist_print.h"
#include "hist_eval.h"
#include "hist_sort.h"
#include "records.h"

#define LISTING_MAX 16384

static bool fz_event_exists(void *ctx, const char *sys, const char *ev)
{
	return fz_schema_in(fz_schemas, FZ_NR_SCHEMAS, sys, ev) ||
	       !strcmp(sys, "sched") || !strcmp(sys, "synthetic");
}

/* A fixed world of other triggers' variables. */
static int fz_find_var(void *ctx, const char *sys, const char *ev,
		       const char *var, struct khist_var_info *info)
{
	if (!strcmp(var, "ts0") || !strcmp(var, "ts1")) {
		info->usecs = 1;
		info->size = 8;
		return 0;
	}
	if (!strcmp(var, "tsns") || !strcmp(var, "pid")) {
		info->size = 8;
		return 0;
	}
	if (!strcmp(var, "dup"))
		return *sys ? (info->size = 8, 0) : -ENOTUNIQ;
	if (!strcmp(var, "zero") || !strcmp(var, "five")) {
		info->is_const = 1;
		info->size = 8;
		info->constant = var[0] == 'z' ? 0 : 5;
		return 0;
	}
	if (!strcmp(var, "comm") || !strcmp(var, "stk")) {
		info->is_string = 1;
		info->size = var[0] == 'c' ? 16 : KHIST_STACK_SIZE;
		return 0;
	}
	return -ENOENT;
}

static const struct khist_bind_ops fz_ops = {
	.event_exists = fz_event_exists,
	.find_var = fz_find_var,
};

static void check(bool ok, const char *what, const char *text, size_t len)
{
	if (ok)
		return;
	fprintf(stderr, "hist_fuzz: %s\ninput: '%.*s'\n", what, (int)len, text);
	abort();
}

/* Length of the error_log command text ("hist:" + the parameters). */
static size_t errlog_cmd_len(const char *t, size_t len)
{
	size_t i = 0;

	if (len && t[0] == '!')
		i = 1;
	if (len - i < 4)
		return 0;
	i += 4;
	if (i < len)
		i++;
	while (i < len && (t[i] == ' ' || t[i] == '\t'))
		i++;
	return len - i + 5;
}

static unsigned int tree_depth(const struct khist_bfield *f)
{
	unsigned int l, r;

	if (!f)
		return 0;
	l = tree_depth(f->l);
	r = tree_depth(f->r);
	if (f->kind == KHIST_BF_BINOP && (!f->l || !f->r))
		return 1000;
	if (f->kind == KHIST_BF_UMINUS && !f->l)
		return 1000;
	return 1 + (l > r ? l : r);
}

/*
 * Like the kernel, a listing shows an expression operand with its
 * modifier, which for some operands does not read back the same:
 * "common_timestamp.usecs-$a-$b" lists as "...-$a.usecs-$b", and
 * "common_stacktrace/3" as "common_stacktrace.stacktrace/3", and
 * "1/id.buckets=10" as "1/id.buckets" (no "=10"), which both kernels
 * refuse. No round trip for such trees.
 */
static bool lists_modifier_on_subexpr(const struct khist_bfield *f)
{
	const struct khist_bfield *o[2];
	unsigned int i;

	if (!f)
		return false;
	o[0] = f->l;
	o[1] = f->r;
	for (i = 0; i < 2; i++) {
		if (!o[i] ||
		    (f->kind != KHIST_BF_BINOP && f->kind != KHIST_BF_UMINUS))
			continue;
		if (o[i]->flags & (KHIST_HF_STACKTRACE | KHIST_HF_BUCKET))
			return true;
		if ((o[i]->kind == KHIST_BF_BINOP ||
		     o[i]->kind == KHIST_BF_UMINUS) &&
		    f->kind == KHIST_BF_BINOP &&
		    khist_hist_flags_str(o[i]->flags))
			return true;
	}
	return lists_modifier_on_subexpr(f->l) ||
	       lists_modifier_on_subexpr(f->r);
}

static bool has_ref(const struct khist_bfield *f)
{
	if (!f)
		return false;
	if (f->flags & (KHIST_HF_VARREF | KHIST_HF_ALIAS))
		return true;
	return has_ref(f->l) || has_ref(f->r);
}

/*
 * Like the kernel, "$c" names a variable of the same trigger by pasting
 * its text when that text is neither an expression nor a reference, and a
 * constant expression is listed folded: "c=1-2,x=$c" lists as
 * "c=18446744073709551615,x=$c", where "$c" now reads as the field
 * "18446744073709551615" ("Couldn't find field", in both kernels too).
 */
static bool refs_folded_const(const struct khist_hist_spec *sp)
{
	bool folded = false, refs = false;
	unsigned int i;

	for (i = 0; i < sp->n_vars; i++) {
		folded |= sp->vars[i].f->kind == KHIST_BF_CONST;
		refs |= has_ref(sp->vars[i].f);
	}
	for (i = 0; i < sp->n_keys; i++)
		refs |= has_ref(sp->keys[i].f);
	for (i = 1; i < sp->n_vals; i++)
		refs |= has_ref(sp->vals[i]);
	return folded && refs;
}

static bool reparses(const struct khist_hist_spec *sp)
{
	unsigned int i;

	if (refs_folded_const(sp))
		return false;

	for (i = 0; i < sp->n_keys; i++)
		if (lists_modifier_on_subexpr(sp->keys[i].f))
			return false;
	for (i = 1; i < sp->n_vals; i++)
		if (lists_modifier_on_subexpr(sp->vals[i]))
			return false;
	for (i = 0; i < sp->n_vars; i++)
		if (lists_modifier_on_subexpr(sp->vars[i].f))
			return false;
	return true;
}

static void check_spec(const struct khist_hist_spec *sp, const char *t,
		       size_t len)
{
	unsigned int i, end = 0;

	check(sp->n_keys >= 1 && sp->n_keys <= KHIST_KEYS_MAX, "n_keys", t,
	      len);
	check(sp->key_size <= KHIST_KEY_SIZE_MAX, "key_size", t, len);
	for (i = 0; i < sp->n_keys; i++) {
		const struct khist_hkey *k = &sp->keys[i];

		check(k->f && k->size && !(k->size % 8), "key slot", t, len);
		check(k->offset >= end, "key slots overlap", t, len);
		end = k->offset + k->size;
		check(end <= sp->key_size, "key slot outside the key", t, len);
		check(tree_depth(k->f) <= 2 * KHIST_SUBEXPR_MAX + 2, "key tree",
		      t, len);
	}
	check(sp->n_vals >= 1 && sp->n_vals <= KHIST_VALS_MAX + 1, "n_vals", t,
	      len);
	for (i = 1; i < sp->n_vals; i++)
		check(sp->vals[i] && tree_depth(sp->vals[i]) <=
					     2 * KHIST_SUBEXPR_MAX + 2,
		      "value tree", t, len);
	check(sp->n_vars <= KHIST_VARS_MAX, "n_vars", t, len);
	for (i = 0; i < sp->n_vars; i++)
		check(sp->vars[i].name && sp->vars[i].f &&
			      tree_depth(sp->vars[i].f) <=
				      2 * KHIST_SUBEXPR_MAX + 2,
		      "variable", t, len);
	check(sp->n_sort >= 1 && sp->n_sort <= KHIST_SORT_KEYS_MAX, "n_sort", t,
	      len);
	for (i = 0; i < sp->n_sort; i++) {
		const struct khist_hsort *s = &sp->sort[i];

		check(s->src != KHIST_SORT_VAL || s->idx < sp->n_vals,
		      "sort value", t, len);
		check(s->src != KHIST_SORT_KEY || s->idx < sp->n_keys,
		      "sort key", t, len);
	}
	check(sp->map_bits >= KHIST_HIST_BITS_MIN &&
		      sp->map_bits <= KHIST_HIST_BITS_MAX,
	      "map_bits", t, len);
}

static void check_err(int ret, const struct khist_hist_err *err, const char *t,
		      size_t len)
{
	size_t elen = errlog_cmd_len(t, len);
	unsigned int i;

	check(ret != -ENOMEM, "-ENOMEM without a failed allocation", t, len);
	check(err->n >= 1 && err->n <= KHIST_HIST_ERRS_MAX,
	      "failure without an error_log entry", t, len);
	for (i = 0; i < err->n; i++) {
		check(err->e[i].code > KHIST_HERR_NONE &&
			      err->e[i].code < KHIST_HERR_COUNT,
		      "unknown error code", t, len);
		check(err->e[i].pos <= elen, "caret past the command", t, len);
	}
}

static void round_trip(const struct khist_event_schema *sc,
		       const struct khist_bind_ops *ops, const char *listing,
		       size_t n, const char *t, size_t len)
{
	static char again[LISTING_MAX];
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	int ret;

	ret = khist_hist_compile(listing, n, sc, ops, &sp, &err);
	if (ret) {
		fprintf(stderr, "listing: %.*s\nerror: %s @%u\n", (int)n,
			listing, khist_hist_err_text(err.e[0].code),
			err.e[0].pos);
		check(false, "the listing does not compile", t, len);
	}
	khist_hist_print(sp, false, again, sizeof(again));
	if (strncmp(again, listing, n) || strcmp(again + n, " [active]\n")) {
		fprintf(stderr, "listing: %.*s\nagain:   %s", (int)n, listing,
			again);
		check(false, "the listing lists differently", t, len);
	}
	khist_hist_spec_free(sp);
}

#define NR_RECS 8

static u64 fz_ref(const struct khist_eval_ctx *c, const struct khist_bfield *f)
{
	return f->ref_var ? strlen(f->ref_var) * 1000003ULL : 7;
}

/* Reads @max bytes of a string operand: ASan checks the bound. */
static unsigned int touch(const char *s, unsigned int max)
{
	unsigned int i, h = 0;

	for (i = 0; i < max; i++)
		h += (u8)s[i];
	return h;
}

static void eval_tree(const struct khist_bfield *f,
		      const struct khist_eval_ctx *c)
{
	unsigned long stack[KHIST_STACK_DEPTH];
	unsigned int max, n;
	const char *s;

	if (!f)
		return;
	if (f->flags & KHIST_HF_STACKTRACE) {
		n = khist_hist_eval_stack(f, c, stack);
		if (n > KHIST_STACK_DEPTH)
			abort();
	} else if (f->flags & KHIST_HF_STRING) {
		s = khist_hist_eval_str(f, c, &max);
		touch(s, max);
	} else {
		khist_hist_eval(f, c);
	}
	eval_tree(f->l, c);
	eval_tree(f->r, c);
}

static struct khist_hsorter sorter;

static void sort_rows(const struct khist_hist_spec *sp, u8 **keys,
		      u64 (*sums)[KHIST_VALS_MAX + 1], unsigned int n,
		      const char *t, size_t len)
{
	struct khist_hrow rows[NR_RECS], *order[NR_RECS], *again[NR_RECS];
	unsigned int i, j, seen = 0;

	khist_hsorter_init(&sorter, sp);
	for (i = 0; i < n; i++) {
		rows[i] = (struct khist_hrow){ &sorter, keys[i], sums[i],
					       (void *)(uintptr_t)i };
		order[i] = &rows[i];
		again[i] = &rows[i];
	}
	khist_hist_sort(&sorter, order, n);
	khist_hist_sort(&sorter, again, n);
	for (i = 0; i < n; i++) {
		j = (unsigned int)(uintptr_t)order[i]->priv;
		check(j < n && !(seen & (1u << j)), "sort: not a permutation",
		      t, len);
		seen |= 1u << j;
		check(order[i] == again[i], "sort: not deterministic", t, len);
	}
	if (sorter.k[0].kind != KHIST_HCMP_SUM)
		return;
	for (i = 1; i < n; i++) {
		u64 a = order[i - 1]->sums[sorter.k[0].where];
		u64 b = order[i]->sums[sorter.k[0].where];

		check(sorter.k[0].descending ? a >= b : a <= b,
		      "sort: first sort key out of order", t, len);
	}
}

static void evaluate(const struct khist_hist_spec *sp,
		     const struct khist_event_schema *sc, const char *t,
		     size_t len)
{
	static u64 sums[NR_RECS][KHIST_VALS_MAX + 1];
	unsigned long stack[KHIST_STACK_DEPTH];
	char comm[16] = "fuzz-comm";
	struct khist_eval_ctx c = { 0 };
	u8 *keys[NR_RECS], *again;
	struct fz_rec r;
	unsigned int k, i;

	fz_rng = fz_fnv((const u8 *)t, len);
	for (i = 0; i < KHIST_STACK_DEPTH; i++)
		stack[i] = i < 9 ? 0xffffffff81000000UL + i * 64 : 0;
	again = malloc(sp->key_size);
	for (k = 0; k < NR_RECS; k++) {
		fz_gen_record(sc, &r, k);
		c.rec = r.p;
		c.size = r.len;
		c.ts = fz_rng;
		c.cpu = k % 3;
		c.comm = k % 4 ? comm : NULL;
		c.stack = k % 3 ? stack : NULL;
		c.ref = k % 2 ? fz_ref : NULL;
		keys[k] = malloc(sp->key_size);
		khist_hist_key_build(sp, &c, keys[k]);
		khist_hist_key_build(sp, &c, again);
		check(!memcmp(keys[k], again, sp->key_size),
		      "key build not deterministic", t, len);
		for (i = 0; i < sp->n_keys; i++) {
			const struct khist_hkey *hk = &sp->keys[i];

			check(!(hk->f->flags & KHIST_HF_STRING) ||
				      !keys[k][hk->offset + hk->size - 1],
			      "string key slot without NUL", t, len);
			eval_tree(hk->f, &c);
		}
		sums[k][0] = 1;
		for (i = 1; i < sp->n_vals; i++) {
			sums[k][i] = khist_hist_eval(sp->vals[i], &c);
			eval_tree(sp->vals[i], &c);
		}
		for (i = 0; i < sp->n_vars; i++)
			eval_tree(sp->vars[i].f, &c);
		free(r.p);
	}
	khist_hist_spec_has_stack(sp);
	sort_rows(sp, keys, sums, NR_RECS, t, len);
	for (k = 0; k < NR_RECS; k++)
		free(keys[k]);
	free(again);
}

static void one(const struct khist_event_schema *sc,
		const struct khist_bind_ops *ops, const char *t, size_t len,
		bool clean)
{
	static char listing[LISTING_MAX];
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	size_t n;
	int ret;

	ret = khist_hist_compile(t, len, sc, ops, &sp, &err);
	if (ret) {
		check(ret < 0, "positive return", t, len);
		check_err(ret, &err, t, len);
		return;
	}
	check_spec(sp, t, len);
	n = khist_hist_print(sp, false, listing, sizeof(listing));
	/* A NUL in the command is copied into the listing. */
	if (n >= sizeof(listing) || (clean && n != strlen(listing)))
		fprintf(stderr, "listing (%zu bytes): %s\n", n, listing);
	check(n < sizeof(listing) && (!clean || n == strlen(listing)),
	      "listing length", t, len);
	check(n > 10 && !strcmp(listing + n - 10, " [active]\n"), "listing end",
	      t, len);
	if (clean && reparses(sp))
		round_trip(sc, ops, listing, n - 10, t, len);
	if (ops)
		evaluate(sp, sc, t, len);
	khist_hist_spec_free(sp);
}

/* Parse only: the syntax check and the debug dump of the tree. */
static void parse_only(const char *t, size_t len)
{
	static char dump[LISTING_MAX];
	struct khist_hist_cmd *cmd;
	struct khist_hist_err err;
	int ret;

	ret = khist_hist_parse(t, len, &cmd, &err);
	if (ret) {
		check_err(ret, &err, t, len);
		return;
	}
	ret = khist_hist_syntax_check(cmd, &err);
	if (ret)
		check_err(ret, &err, t, len);
	khist_hist_dump(cmd, dump, sizeof(dump));
	khist_hist_cmd_free(cmd);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const char *t = (const char *)data;
	long live = kshim_live_allocations();
	bool clean = !memchr(data, '\0', size);
	unsigned int i;

	/* One write to a trigger file is less than a page. */
	if (size > KHIST_CMD_MAX + 64)
		return -1;
	parse_only(t, size);
	for (i = 0; i < FZ_NR_SCHEMAS; i++)
		one(fz_schemas[i], &fz_ops, t, size, clean);
	one(&fz_allkinds, NULL, t, size, clean);
	check(kshim_live_allocations() == live, "memory left allocated", t,
	      size);
	return 0;
}
