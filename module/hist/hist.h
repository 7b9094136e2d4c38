/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - khist's hist triggers, as the rest of hist/ (the inter-event
 * layer, actions) and the files that show them see them. The trigger
 * engine they run in is trigger/engine.h.
 *
 * Hist triggers
 *
 *   A struct khist_hist_trigger is one "hist:..." command on one event: its
 *   bound spec (fields resolved against that event), its filter and its
 *   paused state. Its data (the map, and the spec the table is printed
 *   with) is a struct khist_hist_data, shared by every trigger of the same
 *   name= across events. Per hit: build the key, insert it, add the sums,
 *   store the variables; all lock-free and allocation-free.
 *
 * Variables
 *
 *   spec->vars[i] is stored in map variable slot i of the entry that was
 *   hit; string and stack variables keep their bytes in the entry's extra
 *   area (khist_hist_var_str()). khist_hist_var_read() reads a variable
 *   of the entry with a given key, for references from other triggers.
 *
 * Lifetime and locking
 *
 *   khist_event_mutex serialises every change. Triggers and hist data are
 *   freed only after a grace period that covers every probe (the fast path
 *   runs with preemption disabled), so unlinking under the mutex followed
 *   by khist_trigger_sync() is enough.
 */
#ifndef _KHIST_HIST_HIST_H
#define _KHIST_HIST_HIST_H

#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/seq_file.h>
#include "events/events.h"
#include "trigger/engine.h"
#include "core/hist_bind.h"
#include "core/map.h"
#include "core/hist_fetch.h"
#include "core/qsketch.h"

struct khist_inter;

typedef u64 (*khist_clock_fn)(void);

/**
 * struct khist_hist_data - a map and how its table is printed; shared by
 * the triggers of one name=
 * @spec:      the spec the table is printed with: the one of a trigger
 *             using the data (the first one's; when that one goes, the
 *             next user's, so that it never points into the fields of an
 *             event that is gone)
 * @map:       the map
 * @name:      name= value (in @spec), or NULL
 * @refs:      triggers using it
 * @users:     those triggers (khist_hist_trigger.hd_node)
 * @named:     entry in the list of named hist data
 * @clearing:  set while `clear` empties the map: hits are skipped
 * @clock:     the timestamp clock (clock=)
 * @clock_ns:  @clock counts nanoseconds (.usecs converts)
 * @needs_stack: a key or variable is common_stacktrace
 * @comm_off:  offset of the saved comm in the extra area, or -1
 * @str_off:   offset of the first string/stack variable slot
 * @extra_size: bytes of the extra area
 * @qs_mask:   bit i set when vals[i] keeps a distribution (.stats or
 *             .quantiles)
 * @qs_off:    for those, the offset of its struct khist_qsketch in the
 *             extra area (8-byte aligned)
 * @inter:     inter-event state (references, field variables, actions)
 *             of the trigger that created the data, or NULL (inter.h);
 *             cleared when that trigger goes (read with READ_ONCE() on
 *             hits)
 * @show_lock: held by a `hist` reader while it reads, sorts and prints
 *             the map (without khist_event_mutex), and by what changes
 *             or frees what it reads: unlink, clear
 * @walk_lock: held while the map's slot table is walked (the first part
 *             of a read: khist_hist_rows_get()) and while it grows; the
 *             sort and print of a read go on beside a growth (elements
 *             never move)
 * @charged:   bytes charged against mem_limit_kb for it and its map
 * @cache:     per-CPU last hit (keys of one or two words), or NULL
 * @key_words: key size in u64 words
 * @gen:       bumped by every clear: older cache entries are stale
 * @grows:     the map grows from size= up to 2^KHIST_MAP_BITS_MAX while
 *             mem_limit_kb allows (module parameter hist_grow)
 * @grow_stop: a growth failed: no more tries until the next clear
 * @grow_logged: that failure is in error_log
 * @grow_iw:   queued by a hit that finds the map wants to grow (any
 *             context); queues @grow_work
 * @grow_err:  why it failed (-E2BIG: the memory limit, -ENOMEM)
 * @grow_work: grows the map under @walk_lock
 */
struct khist_hist_data {
	struct khist_hist_spec *spec;
	struct khist_map *map;
	const char *name;
	int refs;
	struct list_head users;
	struct list_head named;
	int clearing;
	khist_clock_fn clock;
	bool clock_ns;
	bool needs_stack;
	int comm_off;
	u32 str_off;
	u32 extra_size;
	u32 qs_mask;
	u32 qs_off[KHIST_MAP_SUMS_MAX];
	struct khist_inter *inter;
	struct mutex show_lock; /* a `hist` reader vs. unlink, clear */
	struct mutex walk_lock; /* a walk of the slot table vs. growth */
	u64 charged;
	struct khist_hit_cache __percpu *cache;
	unsigned int key_words;
	unsigned long gen;
	bool grows;
	int grow_stop;
	int grow_err;
	bool grow_logged;
	struct irq_work grow_iw;
	struct delayed_work grow_work;
};

/**
 * struct khist_hit_way - one remembered hit
 * @key: its key (key_words words, the rest zero)
 * @elt: its element, NULL when empty
 * @gen: khist_hist_data.gen when it was found (never 0: an empty way
 *       matches no generation)
 * @sum: this CPU's hitcount of @elt when the map's sums are per-CPU, else
 *       NULL (the counting hit, khist_triggers_fast(), adds to it alone)
 */
struct khist_hit_way {
	u64 key[2];
	struct khist_map_elt *elt;
	unsigned long gen;
	local64_t *sum;
};

/* Misses in a row after which the cache rests, and for how many hits. */
#define KHIST_CACHE_MISSES 16
#define KHIST_CACHE_REST 256

/**
 * struct khist_hit_cache - the entries one CPU hit last in one hist
 * @way:    the last two (a task hits its pid again; two tasks that take
 *          turns on a CPU hit theirs in turn)
 * @next:   the way replaced by the next miss
 * @misses: misses in a row
 * @rest:   hits left that go straight to the map: keys that never repeat
 *          (10^4 syscall numbers in turn) cost a counter, not a miss
 * @hits:   this CPU's hit counter of the map (set with a way)
 *
 * Only the outermost hist hit on a CPU reads or writes it (the pads'
 * nesting level is 0), so an interrupt or NMI never sees it half written.
 * Elements never move (growth shares them) and are only reused by clear,
 * which bumps the generation.
 */
struct khist_hit_cache {
	struct khist_hit_way way[2];
	u8 next;
	u8 misses;
	u16 rest;
	local64_t *hits;
};

/**
 * struct khist_hist_trigger - a hist trigger on one event
 * @base:     the generic trigger
 * @spec:     bound to @base.ev (for the creator of @hd, @hd->spec)
 * @hd:       its data
 * @lost:     hits it never counted: every pad level was in use, or the
 *            fast path could not build the record (khist_triggers_lost());
 *            shown as Totals' "Lost:" line when not 0
 * @inter:    while being created: its inter-event state, until the data
 *            takes it over; after its unlink: that state, freed with it
 * @hd_node:  entry in @hd's users
 * @creator:  it created @hd: its hits run @hd's inter-event state
 * @last:     its unlink let go of @hd last: its free frees @hd
 * @plan:     how its hits read keys and values from the record
 * @plain:    every key and value is a direct load, and nothing else is
 *            needed (khist_hist_plain_set())
 * @counting: a counting hist (khist_hist_counting()): one key of one word,
 *            a direct load, the value hitcount, no filter
 * @count_from: where a counting hist's key is: KHIST_COUNT_*
 */
struct khist_hist_trigger {
	struct khist_trigger base;
	struct khist_hist_spec *spec;
	struct khist_hist_data *hd;
	atomic64_t lost;
	struct khist_inter *inter;
	struct list_head hd_node;
	bool creator;
	bool last;
	struct khist_fetch_plan plan;
	bool plain;
	bool counting;
	u8 count_from;
};

/* Where a counting hist's key comes from (khist_hist_trigger.count_from). */
enum khist_count_from {
	KHIST_COUNT_FIELD,
	KHIST_COUNT_PID,
	KHIST_COUNT_CPU,
};

#define KHIST_STR_SLOT KHIST_STR_MAX

/**
 * khist_hist_comm() - the comm saved in an entry (.execname)
 * @hd:  the data (hd->comm_off >= 0)
 * @elt: the entry
 *
 * Context: any.
 * Return: the NUL-terminated comm.
 */
static inline const char *khist_hist_comm(struct khist_hist_data *hd,
					  struct khist_map_elt *elt)
{
	return (const char *)khist_map_elt_extra(elt) + hd->comm_off;
}

/**
 * khist_hist_qs() - an entry's distribution of a .stats/.quantiles value
 * @hd:  the data
 * @elt: the entry
 * @i:   the value (bit @i of hd->qs_mask set)
 *
 * Context: any.
 * Return: the sketch in the entry's extra area.
 */
static inline struct khist_qsketch *khist_hist_qs(struct khist_hist_data *hd,
						  struct khist_map_elt *elt,
						  unsigned int i)
{
	return (struct khist_qsketch *)((u8 *)khist_map_elt_extra(elt) +
					hd->qs_off[i]);
}

/* hist_cmd.c */
extern struct khist_trigger_type khist_hist_type;
bool khist_is_hist(const struct khist_trigger *t);
int khist_hist_init(void);
void khist_hist_exit(void);
bool khist_hist_is_referenced(struct khist_hist_trigger *ht);
static inline struct khist_hist_trigger *khist_to_hist(struct khist_trigger *t)
{
	return container_of(t, struct khist_hist_trigger, base);
}

/* hist_data.c */
struct khist_hist_data *khist_hist_data_create(struct khist_hist_spec *spec,
					       struct khist_inter *inter);
void khist_hist_data_use(struct khist_hist_data *hd,
			 struct khist_hist_trigger *ht);
bool khist_hist_data_unuse(struct khist_hist_data *hd,
			   struct khist_hist_trigger *ht);
void khist_hist_data_put(struct khist_hist_data *hd);
int khist_hist_spec_charge(struct khist_hist_spec *sp);
void khist_hist_spec_put(struct khist_hist_spec *sp);
struct khist_hist_data *khist_hist_named_find(const char *name);
void khist_hist_data_clear(struct khist_hist_data *hd);
void khist_hist_grow_now(struct khist_hist_data *hd);
int khist_hist_clock_lookup(const char *name, khist_clock_fn *fn, bool *ns);

/* hist_run.c */
void khist_hist_call(struct khist_trigger *t, void *rec, unsigned int size,
		     u64 ts);
void khist_hist_plain_set(struct khist_hist_trigger *ht);
bool khist_hist_counting(const struct khist_trigger *t);
bool khist_hist_counting_norec(const struct khist_trigger *t);
void khist_hist_learn_tracepoint(const char *name);
int khist_hist_pads_init(void);
void khist_hist_pads_exit(void);
struct khist_map_elt *khist_hist_lookup(struct khist_hist_data *hd,
					const u8 *key);
bool khist_hist_var_read(struct khist_hist_trigger *ht, unsigned int idx,
			 const void *key, u64 *val);
char *khist_hist_var_str(struct khist_hist_data *hd, struct khist_map_elt *elt,
			 unsigned int str_idx);

/**
 * struct khist_hist_rows - one table's entries, read and sorted
 * @n:     entries
 * @rows:  pointers, in print order (->priv: the map element)
 * @store: the rows
 * @sums:  the sums, n_vals per row
 */
struct khist_hist_rows {
	unsigned int n;
	struct khist_hrow **rows;
	struct khist_hrow *store;
	u64 *sums;
};

struct khist_hsorter;

/* hist_show.c */
int khist_hist_rows_get(struct khist_hist_data *hd, struct khist_hsorter *s,
			struct khist_hist_rows *r);
void khist_hist_rows_free(struct khist_hist_rows *r);
int khist_hist_show_nth(struct seq_file *m, struct khist_event *ev,
			unsigned int n);
size_t khist_hist_show_size(struct khist_event *ev);
void khist_hist_print_num(struct seq_file *m, const char *fmt, u64 v,
			  bool is_signed);
void khist_hist_print_key(struct seq_file *m, struct khist_hist_data *hd,
			  const u8 *key, const char *comm);
int khist_hist_debug_show(struct seq_file *m, struct khist_event *ev);

/* hist_json_show.c */
int khist_hist_json_show(struct seq_file *m, struct khist_event *ev);

/* hist_onoff.c: the enable_hist and disable_hist commands */
struct khist_cmd_type;
extern struct khist_cmd_type khist_enable_hist_cmd, khist_disable_hist_cmd;

/* syscall_names.c */
const char *khist_syscall_name(u64 nr);

#endif /* _KHIST_HIST_HIST_H */
