// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - khist_tpgen.ko, the standalone test module of the events
 * compiled from the kernel's trace headers (include/khist/tp/). It is not
 * part of khist.ko: it loads every unit tools/tpgen/tpgen.sh generated
 * and compiled for the target kernel and shows, in debugfs
 * khist_tpgen/formats, each event it serves with the `format` text khist
 * would print for it (the ID line shows 0), so that a VM test can compare
 * them with the kernel's own tracefs format files.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/ctype.h>
#include <khist/tp/tp.h>
#include "units.h"

/* One event the module serves, with its format text resolved. */
struct khist_tpg_event {
	const struct khist_tp_event *ev;
	const char *pfmt;
	const char **types;
};

static struct khist_tpg_event *khist_tpg_events;
static unsigned int khist_tpg_nr;
static struct dentry *khist_tpg_dir;

/* ---- the record buffer the generated probes write into ---- */

#define KHIST_TPG_NEST 4
#define KHIST_TPG_REC 1024

struct khist_tpg_cpu {
	unsigned int depth;
	unsigned long hits;
	char buf[KHIST_TPG_NEST][KHIST_TPG_REC] __aligned(8);
};

static struct khist_tpg_cpu __percpu *khist_tpg_cpu;

/**
 * khist_tp_reserve() - a record for a generated probe
 * @ctx:  the record's context, on the probe's stack
 * @ev:   the event
 * @size: bytes the record needs
 *
 * Context: any, NMI included, preemption disabled (a tracepoint probe).
 * Return: the record, or NULL when it is too large or nested too deep.
 */
void *khist_tp_reserve(struct khist_tp_ctx *ctx,
		       const struct khist_tp_event *ev, unsigned long size)
{
	struct khist_tpg_cpu *c = this_cpu_ptr(khist_tpg_cpu);
	unsigned int d = c->depth;

	if (size > KHIST_TPG_REC || d >= KHIST_TPG_NEST)
		return NULL;
	c->depth = d + 1;
	barrier();
	ctx->rec = c->buf[d];
	ctx->size = size;
	ctx->ev = ev;
	memset(ctx->rec, 0, sizeof(struct khist_tp_hdr));
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
	struct khist_tpg_cpu *c = this_cpu_ptr(khist_tpg_cpu);

	c->hits++;
	barrier();
	c->depth--;
}

/* ---- the format text ---- */

/*
 * Replace @e's text by its value where it stands as a whole name outside
 * quotes, after no '.' or '->': the rules of the kernel's own eval update,
 * so that the text matches the native format byte for byte.
 */
static void khist_tpg_eval_fmt(char *fmt, const struct khist_tp_eval *e)
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

/* A field type as the kernel shows it: no __attribute__(), evals in []. */
static const char *khist_tpg_type(const char *type,
				  const struct khist_tp_eval *evals,
				  unsigned int nr_evals, const char *system)
{
	char *t, *a, *e, *br;
	unsigned int i;
	int depth;

	if (!strstr(type, "__attribute__(") && !strchr(type, '['))
		return type;
	t = kstrdup(type, GFP_KERNEL);
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
	return t;
}

static int khist_tpg_add_unit(const struct khist_tp_unit *u)
{
	struct khist_tp_event **evs = NULL;
	struct khist_tp_eval *evals = NULL;
	unsigned int n, ne, i, j, k;
	int ret = -ENOMEM;

	n = u->list_events(NULL, 0);
	ne = u->list_evals(NULL, 0);
	evs = kcalloc(n, sizeof(*evs), GFP_KERNEL);
	evals = kcalloc(ne, sizeof(*evals), GFP_KERNEL);
	if ((n && !evs) || (ne && !evals))
		goto out;
	u->list_events(evs, n);
	u->list_evals(evals, ne);
	for (i = 0; i < n; i++) {
		struct khist_tpg_event *te = &khist_tpg_events[khist_tpg_nr];
		char *fmt;

		if (evs[i]->off)
			continue;
		te->ev = evs[i];
		fmt = kstrdup(evs[i]->print_fmt, GFP_KERNEL);
		te->types = kcalloc(evs[i]->nr_fields, sizeof(*te->types),
				    GFP_KERNEL);
		if (!fmt || !te->types) {
			kfree(fmt);
			kfree(te->types);
			goto out;
		}
		for (j = 0; j < ne; j++)
			if (!strcmp(evals[j].system, evs[i]->system))
				khist_tpg_eval_fmt(fmt, &evals[j]);
		te->pfmt = fmt;
		for (k = 0; k < evs[i]->nr_fields; k++)
			te->types[k] = khist_tpg_type(evs[i]->fields[k].type,
						      evals, ne,
						      evs[i]->system);
		khist_tpg_nr++;
	}
	ret = 0;
out:
	kfree(evs);
	kfree(evals);
	return ret;
}

static void khist_tpg_free(void)
{
	unsigned int i, k;

	for (i = 0; i < khist_tpg_nr; i++) {
		struct khist_tpg_event *te = &khist_tpg_events[i];

		for (k = 0; k < te->ev->nr_fields; k++)
			if (te->types[k] != te->ev->fields[k].type)
				kfree(te->types[k]);
		kfree(te->types);
		kfree(te->pfmt);
	}
	kfree(khist_tpg_events);
}

static void khist_tpg_show_field(struct seq_file *m,
				 const struct khist_tp_field *f,
				 const char *type)
{
	const char *br;

	if (!type)
		type = f->type;
	br = strchr(type, '[');
	if (br && !strncmp(type, "__data_loc", 10))
		br = NULL;
	if (!br)
		seq_printf(m, "\tfield:%s %s;", type, f->name);
	else if (f->len)
		seq_printf(m, "\tfield:%.*s %s[%d];", (int)(br - type), type,
			   f->name, f->len);
	else
		seq_printf(m, "\tfield:%.*s %s[];", (int)(br - type), type,
			   f->name);
	seq_printf(m, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset,
		   f->size, !!f->is_signed);
}

static int khist_tpg_formats_show(struct seq_file *m, void *v)
{
	static const char khist_tpg_common[] =
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
	unsigned int i, k;

	for (i = 0; i < khist_tpg_nr; i++) {
		const struct khist_tpg_event *te = &khist_tpg_events[i];
		const struct khist_tp_event *ev = te->ev;

		seq_printf(m, "==> %s/%s <==\n", ev->system, ev->name);
		seq_printf(m, "name: %s\nID: 0\nformat:\n", ev->name);
		seq_puts(m, khist_tpg_common);
		for (k = 0; k < ev->nr_fields; k++)
			khist_tpg_show_field(m, &ev->fields[k], te->types[k]);
		seq_printf(m, "\nprint fmt: %s\n", te->pfmt);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(khist_tpg_formats);

static int __init khist_tpg_init(void)
{
	unsigned int i, total = 0;
	int ret;

	khist_tpg_cpu = alloc_percpu(struct khist_tpg_cpu);
	if (!khist_tpg_cpu)
		return -ENOMEM;
	for (i = 0; i < khist_tp_nr_units; i++)
		total += khist_tp_units[i]->list_events(NULL, 0);
	khist_tpg_events =
		kcalloc(total ?: 1, sizeof(*khist_tpg_events), GFP_KERNEL);
	if (!khist_tpg_events) {
		free_percpu(khist_tpg_cpu);
		return -ENOMEM;
	}
	for (i = 0; i < khist_tp_nr_units; i++) {
		ret = khist_tpg_add_unit(khist_tp_units[i]);
		if (ret) {
			khist_tpg_free();
			free_percpu(khist_tpg_cpu);
			return ret;
		}
	}
	khist_tpg_dir = debugfs_create_dir("khist_tpgen", NULL);
	debugfs_create_file("formats", 0400, khist_tpg_dir, NULL,
			    &khist_tpg_formats_fops);
	pr_info("%u events from %u trace headers\n", khist_tpg_nr,
		khist_tp_nr_units);
	return 0;
}

static void __exit khist_tpg_exit(void)
{
	debugfs_remove(khist_tpg_dir);
	khist_tpg_free();
	free_percpu(khist_tpg_cpu);
}

module_init(khist_tpg_init);
module_exit(khist_tpg_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("khist: trace header events (test)");
