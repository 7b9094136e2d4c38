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
 *   - nothing stays allocated (the shim's live allocation count).
 */
#include <kshim/kernel.h>
#include "hist_bind.h"
#include "hist_print.h"
#include "schemas.h"

#define LISTING_MAX 16384

static bool fz_event_exists(void *ctx, const char *sys, const char *ev)
{
	unsigned int i;

	for (i = 0; i < FZ_NR_SCHEMAS; i++)
		if (!strcmp(sys, fz_schemas[i]->system) &&
		    !strcmp(ev, fz_schemas[i]->name))
			return true;
	return !strcmp(sys, "sched") || !strcmp(sys, "synthetic");
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
 * Like the kernel, a listing shows a nested expression operand with its
 * modifier ("common_timestamp.usecs-$a-$b" lists as "...-$a.usecs-$b"),
 * which then reads differently: no round trip for such trees.
 */
static bool lists_modifier_on_subexpr(const struct khist_bfield *f)
{
	const struct khist_bfield *o[2];
	unsigned int i;

	if (!f)
		return false;
	o[0] = f->l;
	o[1] = f->r;
	for (i = 0; f->kind == KHIST_BF_BINOP && i < 2; i++)
		if (o[i] &&
		    (o[i]->kind == KHIST_BF_BINOP ||
		     o[i]->kind == KHIST_BF_UMINUS) &&
		    khist_hist_flags_str(o[i]->flags))
			return true;
	return lists_modifier_on_subexpr(f->l) ||
	       lists_modifier_on_subexpr(f->r);
}

static bool reparses(const struct khist_hist_spec *sp)
{
	unsigned int i;

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
