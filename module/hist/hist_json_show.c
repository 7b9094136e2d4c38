// SPDX-License-Identifier: GPL-2.0
/*
 * hist_json_show.c - the `hist_json` file (a khist extension): what `hist`
 * shows, as one JSON document per read (Documentation/hist_json.rst).
 *
 * The document is written by core/hist_json.c straight into the seq_file,
 * entry by entry, from the same sorted rows `hist` prints; this file gives
 * the core what only the kernel knows: symbols, syscall names, and whether
 * the reader may see kernel addresses (the rules of buffer/kaddr.c: a file
 * opened without CAP_SYSLOG gets the hashed %p form instead of a raw
 * kernel address, and no address where a symbol is missing).
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "hist.h"
#include "buffer/buffer.h"
#include "core/hist_json.h"
#include "core/hist_print.h"
#include "core/hist_sort.h"
#include "inter.h"

/**
 * struct khist_hjson_reader - one read of `hist_json`
 * @m:     the seq_file
 * @kaddr: the opener may see kernel addresses
 * @saved: scratch for the handler records of one entry
 * @vars:  scratch for the variables of one entry
 * @set:   which of @vars are set
 * @qs:    per value, its distribution (.stats/.quantiles), else NULL
 */
struct khist_hjson_reader {
	struct seq_file *m;
	bool kaddr;
	struct khist_inter_saved saved;
	u64 vars[KHIST_MAP_VARS_MAX];
	bool set[KHIST_MAP_VARS_MAX];
	const struct khist_qs_snap *qs[KHIST_MAP_SUMS_MAX];
};

static void khist_hjson_write(void *ctx, const char *s, size_t n)
{
	struct khist_hjson_reader *r = ctx;

	seq_write(r->m, s, n);
}

static int khist_hjson_symbol(void *ctx, u64 addr, bool offset, char *buf,
			      size_t size)
{
	struct khist_hjson_reader *r = ctx;
	char sym[KSYM_SYMBOL_LEN];
	int n;

	if (offset)
		n = sprint_symbol(sym, (unsigned long)addr);
	else
		n = sprint_symbol_no_offset(sym, (unsigned long)addr);
	/* Not a symbol: sprint_symbol() gives the raw address. */
	if (n <= 0 || !strncmp(sym, "0x", 2))
		return 0;
	(void)r;
	return strscpy(buf, sym, size) < 0 ? (int)size - 1 : n;
}

static const char *khist_hjson_syscall(void *ctx, u64 nr)
{
	return khist_syscall_name(nr);
}

static bool khist_hjson_hidden(void *ctx, u64 v, char *buf, size_t size)
{
	struct khist_hjson_reader *r = ctx;

	if (!khist_kaddr_hide(r->kaddr, v))
		return false;
	snprintf(buf, size, "%p", (void *)(uintptr_t)v);
	return true;
}

static void khist_hjson_hash(void *ctx, u64 v, char *buf, size_t size)
{
	snprintf(buf, size, "%p", (void *)(uintptr_t)v);
}

static void khist_hjson_one(struct khist_json *j, struct khist_hjson_reader *r,
			    struct khist_hist_trigger *ht)
{
	struct khist_hist_data *hd = ht->hd;
	const struct khist_hist_spec *sp = hd->spec;
	const struct khist_hjson_ops ops = {
		.ctx = r,
		.symbol = khist_hjson_symbol,
		.syscall_name = khist_hjson_syscall,
		.addr_hidden = khist_hjson_hidden,
		.hash = khist_hjson_hash,
	};
	struct khist_hjson_totals tot = {};
	bool paused = READ_ONCE(ht->base.paused);
	struct khist_map_stats st;
	struct khist_hist_rows rows;
	struct khist_qs_snap *snaps = NULL;
	struct khist_hsorter s;
	unsigned int i, v, n;
	char *text;
	int len;

	len = khist_hist_print(ht->spec, paused, NULL, 0);
	text = kmalloc(len + 1, GFP_KERNEL);
	if (!text) {
		j->err = -ENOMEM;
		return;
	}
	khist_hist_print(ht->spec, paused, text, len + 1);
	khist_hjson_table_begin(j, sp, text, paused);
	kfree(text);
	/* One copy per .stats/.quantiles value, made for each entry. */
	memset(r->qs, 0, sizeof(r->qs));
	if (hd->qs_mask) {
		snaps = kvmalloc_array(hweight32(hd->qs_mask), sizeof(*snaps),
				       GFP_KERNEL);
		if (!snaps) {
			j->err = -ENOMEM;
			return;
		}
	}
	khist_hsorter_init(&s, sp);
	/* A growth the work could not get the locks for, before the read. */
	khist_hist_grow_now(hd);
	if (khist_hist_rows_get(hd, &s, &rows)) {
		kvfree(snaps);
		j->err = -ENOMEM;
		return;
	}
	for (i = 0; i < rows.n && !j->err; i++) {
		struct khist_map_elt *elt = rows.rows[i]->priv;
		struct khist_hjson_entry e = {
			.key = rows.rows[i]->key,
			.sums = rows.rows[i]->sums,
		};

		if (hd->comm_off >= 0)
			e.comm = khist_hist_comm(hd, elt);
		/* The trigger's own variables are the map's first slots. */
		for (v = 0; v < sp->n_vars && v < KHIST_MAP_VARS_MAX; v++) {
			r->set[v] = khist_map_var_is_set(elt, v);
			r->vars[v] = khist_map_get_var(elt, v);
		}
		if (sp->n_vars) {
			e.vars = r->vars;
			e.var_set = r->set;
		}
		if (hd->inter) {
			e.n_saved = khist_inter_json_saved(hd, elt, &r->saved);
			e.saved = r->saved.rec;
		}
		for (v = 1, n = 0; v < sp->n_vals && snaps; v++) {
			if (!(hd->qs_mask & BIT(v)))
				continue;
			khist_qs_snap_init(&snaps[n]);
			khist_qs_snap_add(&snaps[n], khist_hist_qs(hd, elt, v));
			r->qs[v] = &snaps[n++];
		}
		if (snaps)
			e.qs = r->qs;
		khist_hjson_entry(j, sp, &ops, &e);
		/* Stop early once the page is full: seq_read() retries. */
		if (seq_has_overflowed(r->m))
			break;
	}
	khist_map_get_stats(hd->map, &st);
	tot.hits = st.hits;
	tot.entries = rows.n;
	tot.dropped = st.drops;
	tot.lost = atomic64_read(&ht->lost);
	tot.grow_refused = st.grow_refused;
	khist_hist_rows_free(&rows);
	kvfree(snaps);
	khist_hjson_table_end(j, &tot);
}

/**
 * khist_hist_json_show() - the `hist_json` file of an event
 * @m:  where it goes
 * @ev: the event
 *
 * One document: the event, then one object per hist trigger in the order
 * `hist` shows them. A document the writer finds malformed is an error
 * (-EIO), never half a document.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0, -ENOMEM, or -EIO.
 */
int khist_hist_json_show(struct seq_file *m, struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_hjson_reader *r;
	struct khist_trigger *t;
	struct khist_json j;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->m = m;
	r->kaddr = khist_kaddr_ok(m->file);
	khist_json_init(&j, khist_hjson_write, r);
	khist_hjson_doc_begin(&j, ev->schema.system, ev->schema.name);
	if (et) {
		list_for_each_entry(t, &et->list, list) {
			if (!khist_is_hist(t))
				continue;
			khist_hjson_one(&j, r, khist_to_hist(t));
			if (j.err == -ENOMEM || seq_has_overflowed(m))
				break;
		}
	}
	ret = j.err == -ENOMEM ? -ENOMEM : 0;
	if (!ret && !seq_has_overflowed(m)) {
		khist_hjson_doc_end(&j);
		if (khist_json_end(&j))
			ret = -EIO;
	}
	kfree(r);
	return ret;
}
