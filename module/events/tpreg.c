// SPDX-License-Identifier: GPL-2.0
/*
 * tpreg.c - the events generated, when khist.ko is built, from the target
 * kernel's own trace headers (include/khist/tp/, tools/tpgen/tpgen.sh),
 * served as registry events.
 *
 * Each generated event (struct khist_tp_event) gets a struct khist_gen:
 * a copy of the generated entry, which is the data its probe is
 * registered with, and a struct khist_event_def built from the generated
 * field table and print fmt (TRACE_DEFINE_ENUM/SIZEOF values substituted
 * as the kernel's eval maps do). The probe writes its record through
 * khist_tp_reserve()/khist_tp_commit(), that is khist_rec_reserve() and
 * khist_rec_commit(): the path, ring buffer, filter and triggers of the
 * hand-written events.
 *
 * An event is registered once its tracepoint is found: the core kernel's
 * at load, a module's when the module comes (a tracepoint module
 * notifier, which also reports the modules already loaded); it is
 * unregistered when that module goes. An event whose name a hand-written
 * event (builtin.c, registered first) already has is not registered:
 * the hand-written one stays (-EEXIST).
 */
#include <linux/bsearch.h>
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracepoint.h>
#include <khist/tp/tp.h>
#include "events.h"
#include "tpreg.h"

/**
 * struct khist_gen - one generated event as khist serves it
 * @tp:         copy of the generated entry (the probe's data)
 * @def:        its registry definition
 * @tpp:        its tracepoint, NULL while not found
 * @mod:        the module the tracepoint is in, NULL for the core kernel
 * @registered: @def is registered
 * @fields:     the field table of @def (types rewritten)
 * @pfmt:       the print fmt with the eval values substituted
 */
struct khist_gen {
	struct khist_tp_event tp;
	struct khist_event_def def;
	struct tracepoint *tpp;
	struct module *mod;
	bool registered;
	struct khist_field_desc *fields;
	char *pfmt;
};

/* Every generated event, sorted by name (the tracepoint's name). */
static struct khist_gen **khist_gens;
static unsigned int khist_nr_gens;
/* Room for every definition, to unregister many in one call. */
static struct khist_event_def **khist_gen_defs;
/*
 * Serialises the module notifier with khist's exit: once closing is set
 * (every event dropped), a module that comes or goes is left alone, so
 * that no probe stays on the tracepoint of a module that goes between
 * the drop and the notifier's removal.
 */
static DEFINE_MUTEX(khist_gen_lock);
static bool khist_gen_closing;
/*
 * While khist loads, the first -ENOMEM of an event (of the core kernel or
 * of a module loaded before khist): the load fails rather than leave the
 * event out. Afterwards, a module's events are added when it loads, which
 * khist cannot fail: such an event is logged and left out.
 */
static bool khist_gen_loading;
static int khist_gen_load_err;
static bool khist_gen_notifier;

/**
 * khist_tp_reserve() - a record for a generated probe
 * @ctx:  the record's context, on the probe's stack
 * @ev:   the event (the probe's data: a struct khist_gen's @tp)
 * @size: bytes the record needs, common header included
 *
 * Context: any, NMI included, preemption disabled (a tracepoint probe).
 * Return: the record with its common header filled, or NULL when nobody
 * wants it (then khist_tp_commit() is not called).
 */
void *khist_tp_reserve(struct khist_tp_ctx *ctx,
		       const struct khist_tp_event *ev, unsigned long size)
{
	struct khist_gen *g = container_of(ev, struct khist_gen, tp);

	if (khist_rec_counted(&g->def))
		return NULL;
	ctx->rec = khist_rec_reserve(&ctx->rc, &g->def, size);
	ctx->size = size;
	ctx->ev = ev;
	return ctx->rec;
}

/**
 * khist_tp_commit() - a generated probe's record is complete
 * @ctx: what khist_tp_reserve() filled
 *
 * Context: the probe that reserved it.
 */
void khist_tp_commit(struct khist_tp_ctx *ctx)
{
	khist_rec_commit(&ctx->rc);
}

static int khist_gen_reg(struct khist_event_def *def, bool on)
{
	struct khist_gen *g = container_of(def, struct khist_gen, def);

	if (!g->tpp)
		return -ENOENT;
	if (on)
		return tracepoint_probe_register(g->tpp, g->tp.probe, &g->tp);
	WARN_ON_ONCE(tracepoint_probe_unregister(g->tpp, g->tp.probe, &g->tp));
	return 0;
}

/* ---- the `trace` text: name=value per field (TP_printk not evaluated) */

static void khist_gen_print_field(struct khist_print_ctx *p,
				  const struct khist_field_desc *f)
{
	const void *at = p->rec + f->offset;
	unsigned int off, len;
	u64 v = 0;

	if (f->offset + f->size > p->size)
		return;
	switch (f->kind) {
	case KHIST_FK_INT:
		memcpy(&v, at, min_t(unsigned int, f->size, sizeof(v)));
		if (f->is_signed && f->size < sizeof(v) &&
		    (v >> (f->size * 8 - 1)) & 1)
			v |= ~0ULL << (f->size * 8);
		if (f->is_signed)
			khist_out_printf(p->out, "%s=%lld", f->name, (s64)v);
		else
			khist_out_printf(p->out, "%s=%llu", f->name, v);
		return;
	case KHIST_FK_STRING:
		khist_out_printf(p->out, "%s=%.*s", f->name,
				 (int)strnlen(at, f->size), (const char *)at);
		return;
	case KHIST_FK_DYNSTRING:
	case KHIST_FK_RELSTRING: {
		u32 loc;

		memcpy(&loc, at, sizeof(loc));
		off = loc & 0xffff;
		if (f->kind == KHIST_FK_RELSTRING)
			off += f->offset + sizeof(loc);
		len = loc >> 16;
		if (off > p->size || len > p->size - off)
			len = 0;
		khist_out_printf(p->out, "%s=%.*s", f->name,
				 (int)strnlen(p->rec + off, len),
				 (const char *)p->rec + off);
		return;
	}
	default:
		khist_out_printf(p->out, "%s=(%s)", f->name, f->type);
	}
}

static void khist_gen_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	struct khist_event *ev = khist_event_by_id(hdr->type);
	const struct khist_event_def *def = ev ? ev->def : NULL;
	unsigned int i;

	if (!def || def->print != khist_gen_print)
		return;
	for (i = 0; i < def->nr_fields; i++) {
		if (i)
			khist_out_printf(p->out, " ");
		khist_gen_print_field(p, &def->fields[i]);
	}
}

/* ---- the format text ---- */

/*
 * Replace @e's text by its value where it stands as a whole name outside
 * quotes, after no '.' or '->' (the kernel's eval rules), in place: a
 * value is never written longer than the name it replaces.
 */
static void khist_gen_eval_fmt(char *fmt, const struct khist_tp_eval *e)
{
	size_t len = strlen(e->str);
	bool quote = false;
	char num[24];
	int nlen;
	char *p;

	nlen = snprintf(num, sizeof(num), "%ld", e->val);
	for (p = fmt; *p; p++) {
		if (*p == '\\') {
			if (!*++p)
				return;
			continue;
		}
		if (*p == '"') {
			quote = !quote;
			continue;
		}
		if (quote)
			continue;
		if (isdigit(*p)) {
			do {
				p++;
			} while (isalnum(*p));
			if (!*p)
				return;
			continue;
		}
		if (!isalpha(*p) && *p != '_')
			continue;
		if (!strncmp(p, e->str, len) && !isalnum(p[len]) &&
		    p[len] != '_') {
			if ((size_t)nlen > len)
				return;
			memcpy(p, num, nlen);
			memmove(p + nlen, p + len, strlen(p + len) + 1);
			p += nlen;
			if (!*p)
				return;
			continue;
		}
		for (;;) {
			do {
				p++;
			} while (isalnum(*p) || *p == '_');
			if (!*p)
				return;
			if (*p != '.' && !(p[0] == '-' && p[1] == '>'))
				break;
			p += *p == '.' ? 1 : 2;
			if (!*p)
				return;
		}
	}
}

/*
 * The type text of a field as the format file shows it: no
 * __attribute__(), an eval name between brackets by its value, and a
 * fixed array as elem[len]. Returns @f->type itself when it needs no
 * change, a new string (to free) otherwise, NULL without memory.
 */
static const char *khist_gen_type(const struct khist_tp_field *f,
				  const struct khist_tp_eval *evals,
				  unsigned int nr_evals, const char *system)
{
	char *t, *a, *e, *br, *out;
	unsigned int i;
	int depth;

	if (!strstr(f->type, "__attribute__(") && !strchr(f->type, '['))
		return f->type;
	t = kstrdup(f->type, GFP_KERNEL);
	if (!t)
		return NULL;
	while ((a = strstr(t, "__attribute__("))) {
		if (a != t && !isspace(a[-1]))
			break;
		e = a + strlen("__attribute__(");
		for (depth = 1; *e && depth; e++)
			depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
		while (isspace(*e))
			e++;
		memmove(a, e, strlen(e) + 1);
	}
	br = strchr(t, '[');
	for (i = 0; br && i < nr_evals; i++) {
		size_t len = strlen(evals[i].str);
		char num[24];
		int nlen;

		if (strcmp(evals[i].system, system) ||
		    strncmp(br + 1, evals[i].str, len) ||
		    (!isalpha(br[1]) && br[1] != '_'))
			continue;
		nlen = snprintf(num, sizeof(num), "%ld", evals[i].val);
		if ((size_t)nlen > len)
			continue;
		memcpy(br + 1, num, nlen);
		memmove(br + 1 + nlen, br + 1 + len, strlen(br + 1 + len) + 1);
	}
	if (!br || !strncmp(t, "__data_loc", 10))
		return t;
	if (f->len)
		out = kasprintf(GFP_KERNEL, "%.*s[%d]", (int)(br - t), t,
				f->len);
	else
		out = kasprintf(GFP_KERNEL, "%.*s[]", (int)(br - t), t);
	kfree(t);
	return out;
}

/* How khist reads a generated field (enum khist_field_kind). */
static u8 khist_gen_kind(const struct khist_tp_field *f)
{
	bool word = f->size == 1 || f->size == 2 || f->size == 4 ||
		    f->size == 8;

	switch (f->kind) {
	case KHIST_TP_SCALAR:
	case KHIST_TP_STRUCT:
		return word ? KHIST_FK_INT : KHIST_FK_ARRAY;
	case KHIST_TP_ARRAY:
		return f->is_char ? KHIST_FK_STRING : KHIST_FK_ARRAY;
	case KHIST_TP_DYN:
		return f->is_char ? KHIST_FK_DYNSTRING : KHIST_FK_DYNARRAY;
	case KHIST_TP_REL:
		return f->is_char ? KHIST_FK_RELSTRING : KHIST_FK_ARRAY;
	case KHIST_TP_CPUMASK:
		return KHIST_FK_CPUMASK;
	default:
		return KHIST_FK_ARRAY;
	}
}

static void khist_gen_free(struct khist_gen *g)
{
	unsigned int i;

	if (!g)
		return;
	for (i = 0; g->fields && i < g->tp.nr_fields; i++)
		if (g->fields[i].type != g->tp.fields[i].type)
			kfree(g->fields[i].type);
	kfree(g->fields);
	kfree(g->pfmt);
	kfree(g);
}

static struct khist_gen *khist_gen_new(const struct khist_tp_event *tev,
				       const struct khist_tp_eval *evals,
				       unsigned int nr_evals)
{
	struct khist_gen *g;
	unsigned int i;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->tp = *tev;
	g->pfmt = kstrdup(tev->print_fmt, GFP_KERNEL);
	g->fields =
		kcalloc(tev->nr_fields ?: 1, sizeof(*g->fields), GFP_KERNEL);
	if (!g->pfmt || !g->fields)
		goto fail;
	for (i = 0; i < nr_evals; i++)
		if (!strcmp(evals[i].system, tev->system))
			khist_gen_eval_fmt(g->pfmt, &evals[i]);
	for (i = 0; i < tev->nr_fields; i++) {
		const struct khist_tp_field *tf = &tev->fields[i];
		struct khist_field_desc *f = &g->fields[i];

		f->type = khist_gen_type(tf, evals, nr_evals, tev->system);
		if (!f->type)
			goto fail;
		f->name = tf->name;
		f->offset = tf->offset;
		f->size = tf->size;
		f->is_signed = tf->is_signed;
		f->kind = khist_gen_kind(tf);
		/* a struct or odd-sized scalar read as bytes */
		f->elem_size = tf->elem_size;
		if (f->kind == KHIST_FK_ARRAY && tf->kind != KHIST_TP_ARRAY)
			f->elem_size = 1;
	}
	g->def.system = g->tp.system;
	g->def.name = g->tp.name;
	g->def.fields = g->fields;
	g->def.nr_fields = g->tp.nr_fields;
	g->def.rec_size = g->tp.rec_size;
	g->def.print_fmt = g->pfmt;
	g->def.print = khist_gen_print;
	g->def.reg = khist_gen_reg;
	/* for the hist stacktrace key (its iterator frames); @reg attaches */
	g->def.tp_name = g->tp.name;
	return g;
fail:
	khist_gen_free(g);
	return NULL;
}

/* Add the served events of one generated unit to khist_gens. */
static int khist_gen_add_unit(const struct khist_tp_unit *u)
{
	struct khist_tp_event **evs = NULL;
	struct khist_tp_eval *evals = NULL;
	unsigned int n, ne, i;
	int ret = -ENOMEM;

	n = u->list_events(NULL, 0);
	ne = u->list_evals(NULL, 0);
	evs = kcalloc(n ?: 1, sizeof(*evs), GFP_KERNEL);
	evals = kcalloc(ne ?: 1, sizeof(*evals), GFP_KERNEL);
	if (!evs || !evals)
		goto out;
	u->list_events(evs, n);
	u->list_evals(evals, ne);
	for (i = 0; i < n; i++) {
		struct khist_gen *g;

		if (evs[i]->off)
			continue;
		g = khist_gen_new(evs[i], evals, ne);
		if (!g)
			goto out;
		khist_gens[khist_nr_gens++] = g;
	}
	ret = 0;
out:
	kfree(evs);
	kfree(evals);
	return ret;
}

static int khist_gen_cmp(const void *a, const void *b)
{
	const struct khist_gen *const *x = a, *const *y = b;

	return strcmp((*x)->tp.name, (*y)->tp.name);
}

static int khist_gen_key(const void *key, const void *elt)
{
	const struct khist_gen *const *g = elt;

	return strcmp(key, (*g)->tp.name);
}

/* The first of the generated events named @name, or -1. */
static int khist_gen_first(const char *name)
{
	struct khist_gen **g;
	int i;

	g = bsearch(name, khist_gens, khist_nr_gens, sizeof(*khist_gens),
		    khist_gen_key);
	if (!g)
		return -1;
	for (i = g - khist_gens; i > 0; i--)
		if (strcmp(khist_gens[i - 1]->tp.name, name))
			break;
	return i;
}

/* Register the events of tracepoint @tp (of module @mod, or NULL). */
static void khist_gen_found(struct tracepoint *tp, struct module *mod)
{
	struct khist_event_def *def;
	struct khist_event *taken;
	unsigned int i;
	int first, ret;

	first = khist_gen_first(tp->name);
	if (first < 0)
		return;
	for (i = first; i < khist_nr_gens; i++) {
		struct khist_gen *g = khist_gens[i];

		if (strcmp(g->tp.name, tp->name))
			break;
		if (g->tpp)
			continue;
		g->tpp = tp;
		g->mod = mod;
		/* A hand-written event of that name stays. */
		mutex_lock(&khist_event_mutex);
		taken = khist_event_find(g->tp.system, g->tp.name);
		mutex_unlock(&khist_event_mutex);
		if (taken)
			continue;
		def = &g->def;
		ret = khist_events_register(&def, 1);
		g->registered = !ret;
		if (ret == -ENOMEM && khist_gen_loading && !khist_gen_load_err)
			khist_gen_load_err = ret;
	}
}

static void khist_gen_kernel_tp(struct tracepoint *tp, void *priv)
{
	khist_gen_found(tp, NULL);
}

/*
 * Unregister what was registered, for @mod only unless @all: in one call,
 * so that the registry waits for running probes once.
 */
static void khist_gen_drop(struct module *mod, bool all)
{
	unsigned int i, n = 0;

	for (i = 0; i < khist_nr_gens; i++) {
		struct khist_gen *g = khist_gens[i];

		if (!g->tpp || (!all && g->mod != mod))
			continue;
		if (g->registered)
			khist_gen_defs[n++] = &g->def;
	}
	if (n)
		khist_events_unregister(khist_gen_defs, n);
	for (i = 0; i < khist_nr_gens; i++) {
		struct khist_gen *g = khist_gens[i];

		if (!g->tpp || (!all && g->mod != mod))
			continue;
		g->registered = false;
		g->tpp = NULL;
		g->mod = NULL;
	}
}

static int khist_gen_module(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	struct tracepoint *tp;
	unsigned int i;

	if (mod == THIS_MODULE)
		return NOTIFY_OK;
	mutex_lock(&khist_gen_lock);
	if (khist_gen_closing)
		goto out;
	switch (val) {
	case MODULE_STATE_COMING:
		for (i = 0; i < mod->num_tracepoints; i++) {
			tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
			khist_gen_found(tp, mod);
		}
		break;
	case MODULE_STATE_GOING:
		khist_gen_drop(mod, false);
		break;
	}
out:
	mutex_unlock(&khist_gen_lock);
	return NOTIFY_OK;
}

static struct notifier_block khist_gen_nb = {
	.notifier_call = khist_gen_module,
};

/**
 * khist_tpreg_register() - serve the generated events
 *
 * Registers every generated event whose tracepoint is in the core kernel
 * or in a loaded module, and follows module loads and unloads.
 *
 * Context: process context, module init, after the hand-written events.
 * Return: 0 or -errno with none registered.
 */
int khist_tpreg_register(void)
{
	unsigned int i, total = 0, nr = 0;
	int ret;

	khist_gen_closing = false;
	for (i = 0; i < khist_tp_nr_units; i++)
		total += khist_tp_units[i]->list_events(NULL, 0);
	if (!total)
		return 0;
	khist_gens = kcalloc(total, sizeof(*khist_gens), GFP_KERNEL);
	khist_gen_defs = kcalloc(total, sizeof(*khist_gen_defs), GFP_KERNEL);
	if (!khist_gens || !khist_gen_defs) {
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < khist_tp_nr_units; i++) {
		ret = khist_gen_add_unit(khist_tp_units[i]);
		if (ret)
			goto fail;
	}
	sort(khist_gens, khist_nr_gens, sizeof(*khist_gens), khist_gen_cmp,
	     NULL);
	khist_gen_load_err = 0;
	khist_gen_loading = true;
	for_each_kernel_tracepoint(khist_gen_kernel_tp, NULL);
	/* It calls the notifier for every module already loaded. */
	ret = register_tracepoint_module_notifier(&khist_gen_nb);
	if (!ret)
		khist_gen_notifier = true;
	mutex_lock(&khist_gen_lock);
	khist_gen_loading = false;
	if (!ret)
		ret = khist_gen_load_err;
	mutex_unlock(&khist_gen_lock);
	if (ret)
		goto fail;
	for (i = 0; i < khist_nr_gens; i++)
		nr += khist_gens[i]->registered;
	pr_info("%u of %u events generated from %u trace headers served\n", nr,
		khist_nr_gens, khist_tp_nr_units);
	return 0;
fail:
	khist_tpreg_unregister();
	return ret;
}

/**
 * khist_tpreg_unregister() - remove the generated events
 *
 * Context: process context, module init (failure) or exit.
 */
void khist_tpreg_unregister(void)
{
	unsigned int i;

	mutex_lock(&khist_gen_lock);
	khist_gen_closing = true;
	khist_gen_drop(NULL, true);
	mutex_unlock(&khist_gen_lock);
	if (khist_gen_notifier)
		unregister_tracepoint_module_notifier(&khist_gen_nb);
	khist_gen_notifier = false;
	for (i = 0; i < khist_nr_gens; i++)
		khist_gen_free(khist_gens[i]);
	kfree(khist_gens);
	khist_gens = NULL;
	kfree(khist_gen_defs);
	khist_gen_defs = NULL;
	khist_nr_gens = 0;
}
