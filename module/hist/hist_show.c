// SPDX-License-Identifier: GPL-2.0
/*
 * hist_show.c - the `hist` file: one table per hist trigger of the event,
 * byte for byte as Linux 6.12 prints it (header, "# trigger info:" line,
 * one line per entry in ftrace's order, Totals).
 *
 * Entries are read once (key, comm, sums) into rows, sorted with
 * hist_sort.c, then printed with the kernel's formats for each key and
 * value kind.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "hist.h"
#include "buffer/buffer.h"
#include "core/hist_print.h"
#include "core/hist_sort.h"
#include "inter.h"

/**
 * struct khist_col_stat - column statistics for .percent and .graph
 * @max:   largest value
 * @total: sum over the entries
 */
struct khist_col_stat {
	u64 max;
	u64 total;
};

/**
 * khist_hist_rows_free() - free what khist_hist_rows_get() took
 * @r: the rows
 *
 * Context: process context.
 */
void khist_hist_rows_free(struct khist_hist_rows *r)
{
	kvfree(r->rows);
	kvfree(r->store);
	kvfree(r->sums);
}

/* Between comparisons of a big sort: let grace periods (root's writes) go. */
static void khist_hist_sort_relax(void)
{
	cond_resched();
}

/*
 * The figures the sort keys of @s read (sort=lat.p99), one merged copy of
 * the entry's sketch each, computed as hist prints them. @snap: scratch.
 */
static void khist_hist_row_figs(struct khist_hist_data *hd,
				const struct khist_hsorter *s,
				struct khist_hrow *row,
				struct khist_qs_snap *snap)
{
	u64 v[KHIST_QS_N_QUANTILES];
	const struct khist_hcmp *c;
	unsigned int k;

	for (k = 0; k < s->n_keys; k++) {
		c = &s->k[k];
		if (c->kind != KHIST_HCMP_FIG)
			continue;
		/* The binder allows figures of distribution values only. */
		if (WARN_ON_ONCE(!(hd->qs_mask & BIT(c->where)) || !c->fig ||
				 c->fig > KHIST_QS_N_QUANTILES))
			continue;
		khist_qs_snap_init(snap);
		khist_qs_snap_add(snap, khist_hist_qs(hd, row->priv, c->where));
		khist_qs_figures(snap,
				 hd->spec->vals[c->where]->flags &
					 KHIST_HF_QUANTILES,
				 v);
		row->figs[k] = v[c->fig - 1];
	}
}

/**
 * khist_hist_rows_get() - read every entry of a map, sorted as ftrace does
 * @hd: the data
 * @s:  the sorter, khist_hsorter_init() done with @hd's spec
 * @r:  filled; free with khist_hist_rows_free()
 *
 * A sort key on a figure of a .stats or .quantiles value (sort=lat.p99)
 * reads the figure each entry shows, computed once per entry from one
 * merged copy of its sketch before sorting; the copy is reused for every
 * entry, so the read takes one copy (struct khist_qs_snap) more.
 *
 * Context: process context, sleeps; khist_event_mutex or @hd->show_lock held.
 * Return: 0 or -ENOMEM.
 */
int khist_hist_rows_get(struct khist_hist_data *hd, struct khist_hsorter *s,
			struct khist_hist_rows *r)
{
	unsigned int n_sums = hd->spec->n_vals, cap, i;
	struct khist_qs_snap *snap = NULL;
	struct khist_map_stats st;
	struct khist_map_elt *elt;
	u32 pos = 0;

	memset(r, 0, sizeof(*r));
	/* One scratch copy for the whole read, not one per entry. */
	if (khist_hsorter_needs_figs(s)) {
		snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
		if (!snap)
			return -ENOMEM;
	}
	khist_map_get_stats(hd->map, &st);
	cap = min(st.max, st.entries + 64);
	r->rows = kvcalloc(cap, sizeof(*r->rows), GFP_KERNEL);
	r->store = kvcalloc(cap, sizeof(*r->store), GFP_KERNEL);
	r->sums = kvcalloc(cap, n_sums * sizeof(u64), GFP_KERNEL);
	if (!r->rows || !r->store || !r->sums) {
		khist_hist_rows_free(r);
		kvfree(snap);
		return -ENOMEM;
	}
	/* The walk, not the sort: a growth waits for this part only. */
	mutex_lock(&hd->walk_lock);
	while (r->n < cap && (elt = khist_map_next(hd->map, &pos))) {
		struct khist_hrow *row = &r->store[r->n];
		u64 *sums = r->sums + (size_t)r->n * n_sums;

		for (i = 0; i < n_sums; i++)
			sums[i] = khist_map_read_sum(elt, i);
		row->s = s;
		row->key = khist_map_elt_key(elt);
		row->sums = sums;
		row->priv = elt;
		if (snap)
			khist_hist_row_figs(hd, s, row, snap);
		r->rows[r->n] = row;
		r->n++;
		/* A big map: let grace periods (root's writes) go on. */
		if (!(r->n % (snap ? 64 : 1024)))
			cond_resched();
	}
	mutex_unlock(&hd->walk_lock);
	kvfree(snap);
	s->relax = khist_hist_sort_relax;
	khist_hist_sort(s, r->rows, r->n);
	s->relax = NULL;
	return 0;
}

/* Keys that print as something other than the number they hold. */
#define KHIST_KEY_NOT_NUMBER                                      \
	(KHIST_HF_SYM | KHIST_HF_SYM_OFFSET | KHIST_HF_EXECNAME | \
	 KHIST_HF_SYSCALL | KHIST_HF_LOG2 | KHIST_HF_STACKTRACE | \
	 KHIST_HF_STRING)

static void khist_print_stack(struct seq_file *m, const unsigned long *st,
			      bool kaddr)
{
	unsigned int i;

	for (i = 0; i < KHIST_STACK_DEPTH && st[i]; i++) {
		seq_printf(m, "%*c", 9, ' ');
		khist_seq_printf_kaddr(m, kaddr, "%pS\n", (void *)st[i]);
	}
}

/*
 * A .log2=k key (khist extension): its bucket [low, high), high past the
 * last value; the top bucket of u64 ends at 2^64, which has no u64.
 */
static void khist_print_log2_sub(struct seq_file *m, const char *name, u64 low,
				 u64 k)
{
	u64 high = low + khist_hist_log2_sub_width(low, k);

	if (high)
		seq_printf(m, "%s: [%llu, %llu)", name, low, high);
	else
		seq_printf(m, "%s: [%llu, 18446744073709551616)", name, low);
}

/**
 * khist_hist_print_key() - an entry's key as the `hist` file prints it
 * @m:    where it goes
 * @hd:   the data
 * @key:  the key bytes
 * @comm: the comm saved with the entry (.execname keys), or NULL
 *
 * Context: process context.
 */
void khist_hist_print_key(struct seq_file *m, struct khist_hist_data *hd,
			  const u8 *key, const char *comm)
{
	const struct khist_hist_spec *sp = hd->spec;
	bool multiline = false, kaddr;
	unsigned int i;

	/*
	 * .sym/.sym-offset keys and stacks print as ftrace prints them to
	 * readers that opened the file with CAP_SYSLOG; others (gid= mounts)
	 * get the hashed %p form wherever an address would show.
	 */
	kaddr = khist_kaddr_ok(m->file);
	seq_puts(m, "{ ");
	for (i = 0; i < sp->n_keys; i++) {
		const struct khist_hkey *k = &sp->keys[i];
		const struct khist_bfield *f = k->f;
		const u8 *slot = key + k->offset;
		const char *name = f->name, *sc;
		u32 fl = f->flags;
		u64 v;

		memcpy(&v, slot, sizeof(v));
		if (i)
			seq_puts(m, ", ");
		if (!(fl & KHIST_KEY_NOT_NUMBER) &&
		    khist_kaddr_hide(kaddr, v)) {
			/* A number in the kernel's address range. */
			seq_printf(m, "%s: %p", name, (void *)(uintptr_t)v);
		} else if (fl & KHIST_HF_HEX) {
			seq_printf(m, "%s: %llx", name, v);
		} else if ((fl & (KHIST_HF_SYM | KHIST_HF_SYM_OFFSET)) &&
			   !kaddr) {
			if (fl & KHIST_HF_SYM)
				khist_seq_printf_kaddr(m, false,
						       "%s: [%p] %-45ps", name,
						       (void *)(uintptr_t)v,
						       (void *)(uintptr_t)v);
			else
				khist_seq_printf_kaddr(m, false,
						       "%s: [%p] %-55pS", name,
						       (void *)(uintptr_t)v,
						       (void *)(uintptr_t)v);
		} else if (fl & KHIST_HF_SYM) {
			seq_printf(m, "%s: [%llx] %-45ps", name, v,
				   (void *)(uintptr_t)v);
		} else if (fl & KHIST_HF_SYM_OFFSET) {
			seq_printf(m, "%s: [%llx] %-55pS", name, v,
				   (void *)(uintptr_t)v);
		} else if (fl & KHIST_HF_EXECNAME) {
			seq_printf(m, "%s: %-16s[%10llu]", name,
				   comm ? comm : "", v);
		} else if (fl & KHIST_HF_SYSCALL) {
			sc = khist_syscall_name(v);
			seq_printf(m, "%s: %-30s[%3llu]", name,
				   sc ? sc : "unknown_syscall", v);
		} else if (fl & KHIST_HF_STACKTRACE) {
			if (f->field)
				seq_printf(m, "%s.stacktrace", f->field->name);
			else
				seq_puts(m, "common_stacktrace:\n");
			khist_print_stack(m, (const unsigned long *)slot,
					  kaddr);
			multiline = true;
		} else if ((fl & KHIST_HF_LOG2) && f->buckets) {
			khist_print_log2_sub(m, name, v, f->buckets);
		} else if (fl & KHIST_HF_LOG2) {
			seq_printf(m, "%s: ~ 2^%-2llu", name, v);
		} else if (fl & KHIST_HF_BUCKET) {
			seq_printf(m, "%s: ~ %llu-%llu", name, v,
				   v + f->buckets - 1);
		} else if ((fl & KHIST_HF_STRING) && !kaddr &&
			   khist_kaddr_hex_str(slot, k->size, &v) &&
			   khist_kaddr_hide(kaddr, v)) {
			/* "0x<address>": a symstr that found no symbol. */
			seq_printf(m, "%s: ", name);
			khist_seq_printf_kaddr(m, false, "%-50px",
					       (void *)(uintptr_t)v);
		} else if (fl & KHIST_HF_STRING) {
			seq_printf(m, "%s: %-50.*s", name, k->size,
				   (const char *)slot);
		} else {
			seq_printf(m, "%s: %10llu", name, v);
		}
	}
	if (!multiline)
		seq_puts(m, " ");
	seq_puts(m, "}");
}

/* ftrace's percentage scaled by 100: 12.34% is 1234; U32_MAX: error. */
static unsigned int khist_pct(u64 val, u64 total)
{
	if (!total)
		return val ? U32_MAX : 0;
	if (val < div64_u64(U64_MAX, 10000))
		return (unsigned int)div64_u64(val * 10000, total);
	total = div64_u64(total, 10000);
	if (!total)
		return val ? U32_MAX : 0;
	return (unsigned int)div64_u64(val, total);
}

/**
 * khist_hist_print_num() - a number of a `hist` file, hidden if an address
 * @m:         where it goes
 * @fmt:       its format with one %llu or %llx, as ftrace prints it
 * @v:         the number
 * @is_signed: it is a signed quantity (a negative sum is no address)
 *
 * A reader without CAP_SYSLOG (khist_kaddr_ok()) gets the hashed %p form
 * (16 digits, wider than the number's 10) of an unsigned number in the
 * kernel's half of the address space: a value or variable summed from or
 * saved of a pointer, call_site or ip field.
 *
 * Context: process context (a seq_file show).
 */
void khist_hist_print_num(struct seq_file *m, const char *fmt, u64 v,
			  bool is_signed)
{
	if (!is_signed && khist_kaddr_hide(khist_kaddr_ok(m->file), v))
		seq_printf(m, "%p", (void *)(uintptr_t)v);
	else
		seq_printf(m, fmt, v);
}

static void khist_print_val(struct seq_file *m, const struct khist_bfield *f,
			    const char *name, u32 fl, u64 val,
			    const struct khist_col_stat *st, bool hide)
{
	bool is_signed = f && f->is_signed;
	unsigned int pc, len, i;
	char bar[21];

	if (fl & KHIST_HF_PERCENT) {
		pc = khist_pct(val, st->total);
		if (pc == U32_MAX)
			seq_printf(m, " %s (%%):[ERROR]", name);
		else
			seq_printf(m, " %s (%%): %3u.%02u", name, pc / 100,
				   pc % 100);
	} else if (fl & KHIST_HF_GRAPH) {
		pc = khist_pct(val, st->max);
		if (pc == U32_MAX) {
			strscpy(bar, "[ERROR]", sizeof(bar));
		} else {
			len = pc * 20 / 10000;
			for (i = 0; i < 20; i++)
				bar[i] = i < len ? '#' : ' ';
			bar[20] = '\0';
		}
		seq_printf(m, " %s: %20s", name, bar);
	} else if (hide && val) {
		seq_printf(m, " %s: %p", name, (void *)(uintptr_t)val);
	} else {
		seq_printf(m, " %s: ", name);
		khist_hist_print_num(m, fl & KHIST_HF_HEX ? "%10llx" : "%10llu",
				     val, is_signed);
	}
}

/*
 * The figures of a .stats or .quantiles value after its column (a khist
 * extension: never printed for a trigger without those modifiers), from
 * @snap. @hide: the values are addresses this reader may not see.
 */
static void khist_print_dist(struct seq_file *m, const struct khist_bfield *f,
			     const struct khist_qs_snap *snap, bool hide)
{
	bool quantiles = f->flags & KHIST_HF_QUANTILES;
	u64 v[KHIST_QS_N_QUANTILES];
	const char *const *names;
	unsigned int k;

	names = khist_qs_figures(snap, quantiles, v);
	for (k = 0; k < KHIST_QS_N_QUANTILES; k++) {
		seq_printf(m, "  %s.%s: ", f->name, names[k]);
		/* .stats' count (its first figure) and 0 are no address. */
		if (hide && (quantiles || k) && v[k])
			seq_printf(m, "%p", (void *)(uintptr_t)v[k]);
		else
			khist_hist_print_num(m, "%10llu", v[k], f->is_signed);
	}
}

/*
 * Are the values of a .stats/.quantiles value addresses for this reader:
 * unsigned, and the smallest of them in the kernel's half of the address
 * space (as the value of a call_site or ptr field is). Then its sum, mean
 * and deviation hide too, whatever their value: a wrapped sum of
 * addresses, or the sum over the count, gives the address back.
 */
static bool khist_dist_hidden(struct seq_file *m, const struct khist_bfield *f,
			      const struct khist_qs_snap *snap)
{
	return !f->is_signed && snap->count &&
	       khist_kaddr_hide(khist_kaddr_ok(m->file), snap->min);
}

static void khist_print_entry(struct seq_file *m, struct khist_hist_data *hd,
			      const struct khist_hrow *row,
			      const struct khist_col_stat *stats,
			      struct khist_qs_snap *snap)
{
	const struct khist_hist_spec *sp = hd->spec;
	const char *comm = NULL;
	unsigned int i;

	if (hd->comm_off >= 0)
		comm = khist_hist_comm(hd, row->priv);
	khist_hist_print_key(m, hd, row->key, comm);
	if (!sp->nohitcount)
		khist_print_val(m, NULL, "hitcount", 0, row->sums[0], &stats[0],
				false);
	for (i = 1; i < sp->n_vals; i++) {
		const struct khist_bfield *f = sp->vals[i];
		bool dist = snap && (hd->qs_mask & BIT(i)), hide = false;

		if ((f->flags & (KHIST_HF_VAR | KHIST_HF_EXPR)) &&
		    !(f->flags & KHIST_HF_VARVAL))
			continue;
		if (dist) {
			khist_qs_snap_init(snap);
			khist_qs_snap_add(snap,
					  khist_hist_qs(hd, row->priv, i));
			hide = khist_dist_hidden(m, f, snap);
		}
		seq_puts(m, " ");
		khist_print_val(m, f, f->name, f->flags, row->sums[i],
				&stats[i], hide);
		if (dist)
			khist_print_dist(m, f, snap, hide);
	}
	if (hd->inter)
		khist_inter_print_entry(m, hd, row->priv);
	seq_puts(m, "\n");
}

static int khist_print_entries(struct seq_file *m, struct khist_hist_data *hd)
{
	const struct khist_hist_spec *sp = hd->spec;
	struct khist_col_stat stats[KHIST_VALS_MAX + 1] = {};
	struct khist_qs_snap *snap = NULL;
	struct khist_hsorter s;
	struct khist_hist_rows r;
	unsigned int i, j;
	int ret;

	if (hd->qs_mask) {
		snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
		if (!snap)
			return -ENOMEM;
	}
	khist_hsorter_init(&s, sp);
	ret = khist_hist_rows_get(hd, &s, &r);
	if (ret) {
		kvfree(snap);
		return ret;
	}
	for (j = 0; j < sp->n_vals; j++) {
		if (!(sp->vals[j]->flags & (KHIST_HF_PERCENT | KHIST_HF_GRAPH)))
			continue;
		for (i = 0; i < r.n; i++) {
			u64 v = r.rows[i]->sums[j];

			stats[j].total += v;
			stats[j].max = max(stats[j].max, v);
		}
	}
	for (i = 0; i < r.n; i++) {
		khist_print_entry(m, hd, r.rows[i], stats, snap);
		if (!(i % 256))
			cond_resched();
	}
	ret = r.n;
	khist_hist_rows_free(&r);
	kvfree(snap);
	return ret;
}

/**
 * khist_hist_show_nth() - one table of the `hist` file of an event
 * @m:  where it goes
 * @ev: the event
 * @n:  which hist trigger of @ev, from 0
 *
 * The header (trigger info) prints under khist_event_mutex; the entries
 * are read, sorted and printed under the data's show_lock alone, so that
 * a reader of a big map (a gid= reader) does not hold off root's control
 * writes. Removing the trigger or clearing its map takes show_lock too,
 * and waits for the table to be printed; a growth waits only for the walk
 * of the slot table (walk_lock), and one the map asks for is done first,
 * by the reader (khist_hist_grow_now()).
 *
 * Context: process context, khist_event_mutex held on entry and released
 * on return (whatever is returned).
 * Return: 1 when the table was printed, 0 when @ev has no @n-th hist
 * trigger.
 */
int khist_hist_show_nth(struct seq_file *m, struct khist_event *ev,
			unsigned int n)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_hist_trigger *ht = NULL;
	struct khist_hist_data *hd;
	struct khist_map_stats st;
	struct khist_trigger *t;
	unsigned int i = 0;
	int n_entries;
	s64 lost;

	lockdep_assert_held(&khist_event_mutex);
	if (et) {
		list_for_each_entry(t, &et->list, list) {
			if (khist_is_hist(t) && i++ == n) {
				ht = khist_to_hist(t);
				break;
			}
		}
	}
	if (!ht) {
		mutex_unlock(&khist_event_mutex);
		return 0;
	}
	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	ht->base.type->print(m, &ht->base);
	seq_puts(m, "#\n\n");
	/* @ht and its data stay while show_lock is held (hist_cmd.c). */
	hd = ht->hd;
	mutex_lock(&hd->show_lock);
	/* A growth the work could not get the locks for: now, then read. */
	khist_hist_grow_now(hd);
	mutex_unlock(&khist_event_mutex);
	n_entries = khist_print_entries(m, hd);
	if (n_entries < 0)
		n_entries = 0;
	if (hd->inter)
		khist_inter_print_snapshot(m, hd);
	khist_map_get_stats(hd->map, &st);
	seq_puts(m, "\nTotals:\n");
	seq_printf(m, "    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   st.hits, n_entries, st.drops);
	/* khist's own line, only when a hit never reached the hist. */
	lost = atomic64_read(&ht->lost);
	if (lost)
		seq_printf(m, "    Lost: %lld\n", lost);
	mutex_unlock(&hd->show_lock);
	return 1;
}

/*
 * A symbol with its offset and module as %pS prints it, a generous guess
 * (a longer one only costs a second show).
 */
#define KHIST_SYM_WIDTH 96
/* Above this, seq_read()'s doubling takes over. */
#define KHIST_SHOW_SIZE_MAX (64UL << 20)

/* Bytes a key prints at most, in khist_print_key()'s formats. */
static size_t khist_key_width(const struct khist_hkey *k)
{
	u32 fl = k->f->flags;

	if (fl & KHIST_HF_STACKTRACE)
		return KHIST_STACK_DEPTH * (9 + KHIST_SYM_WIDTH + 1);
	if (fl & KHIST_HF_STRING)
		return max_t(size_t, 50, k->size);
	if (fl & (KHIST_HF_SYM | KHIST_HF_SYM_OFFSET))
		return 20 + KHIST_SYM_WIDTH;
	if (fl & KHIST_HF_BUCKET)
		return 2 * 20 + 3;
	if (fl & (KHIST_HF_EXECNAME | KHIST_HF_SYSCALL))
		return 30 + 2 + 20;
	return 20;
}

/* Bytes of one entry's line (or lines, for stacks) at most. */
static size_t khist_entry_width(const struct khist_hist_spec *sp)
{
	size_t w = sizeof("{  }\n") + sizeof(" hitcount: ") + 20;
	unsigned int i;

	for (i = 0; i < sp->n_keys; i++)
		w += 4 + strlen(sp->keys[i].f->name) +
		     khist_key_width(&sp->keys[i]);
	for (i = 1; i < sp->n_vals; i++) {
		w += 6 + strlen(sp->vals[i]->name) + 20;
		/* .stats/.quantiles: five "  name.field: %10llu" more. */
		if (sp->vals[i]->flags & (KHIST_HF_STATS | KHIST_HF_QUANTILES))
			w += KHIST_QS_N_QUANTILES *
			     (strlen(sp->vals[i]->name) + 32);
	}
	return w;
}

/**
 * khist_hist_show_size() - a buffer size for the `hist` file of an event
 * @ev: the event
 *
 * The `hist` file is printed by one seq_file show, which seq_read()
 * repeats with a buffer twice as big each time the text does not fit
 * (reading and sorting every entry again). Opening it with room for the
 * entries it has now makes one show enough (a second one when the hist
 * grew in between or holds long symbols). Lines are counted at their
 * widest, with 1/8 slack, up to KHIST_SHOW_SIZE_MAX.
 *
 * Context: process context, khist_event_mutex held.
 * Return: bytes, at least PAGE_SIZE.
 */
size_t khist_hist_show_size(struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_hist_trigger *ht;
	struct khist_map_stats st;
	struct khist_trigger *t;
	size_t size = PAGE_SIZE;
	u64 n;

	if (!et)
		return size;
	list_for_each_entry(t, &et->list, list) {
		if (!khist_is_hist(t))
			continue;
		ht = khist_to_hist(t);
		khist_map_get_stats(ht->hd->map, &st);
		n = (u64)st.entries + st.entries / 8 + 16;
		/* Header, trigger info and totals. */
		size += PAGE_SIZE + n * khist_entry_width(ht->hd->spec);
		if (size >= KHIST_SHOW_SIZE_MAX)
			return KHIST_SHOW_SIZE_MAX;
	}
	return size;
}
