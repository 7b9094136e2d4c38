// SPDX-License-Identifier: GPL-2.0
/*
 * hist_cmd.c - the "hist" trigger command: compile a write to a `trigger`
 * file into a hist trigger and add it, or remove, pause, continue or clear
 * an existing one, with ftrace's identity rules and error_log entries.
 *
 * The steps and their order are the kernel's: parse and bind (errors
 * with carets), compile the filter, then for "!hist" remove the matching
 * trigger (silently nothing if none), for pause/cont/clear update a
 * matching trigger, otherwise check name= compatibility, duplicates and
 * the clock, and add the trigger (sharing the map of its name=, if any).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "hist.h"
#include "trigger/triggers.h"
#include "core/hist_print.h"
#include "inter.h"
#include "mem/mem.h"

/**
 * khist_is_hist() - whether a trigger is a hist trigger
 * @t: the trigger
 *
 * Context: any.
 * Return: true for hist triggers.
 */
bool khist_is_hist(const struct khist_trigger *t)
{
	return t->type == &khist_hist_type;
}

/* "hist:" + what followed the command word: ftrace's error_log command. */
static char *khist_hist_errcmd(const char *param)
{
	return kasprintf(GFP_KERNEL, "hist:%s", param ? param : "");
}

/**
 * khist_hist_log() - log a hist command error to the event's error_log
 * @ev:   the event the command was written to
 * @cmd:  the error_log command ("hist:..."), or NULL to log nothing (the
 *        commands khist issues itself)
 * @code: enum khist_hist_errcode
 * @pos:  caret position in @cmd
 *
 * Context: process context, khist_event_mutex held.
 */
void khist_hist_log(struct khist_event *ev, const char *cmd, unsigned int code,
		    unsigned int pos)
{
	char loc[128];

	if (!cmd)
		return;
	snprintf(loc, sizeof(loc), "hist:%s:%s", ev->schema.system,
		 ev->schema.name);
	khist_error_report(ev->inst, loc, khist_hist_err_text(code), cmd, pos);
}

/* Caret: first occurrence of @s in the command, else 0 (ftrace's rule). */
static unsigned int khist_hist_caret(const char *cmd, const char *s);

/* ftrace looks for the whole "name=<name>" token. */
static void khist_hist_log_named(struct khist_event *ev, const char *cmd,
				 const char *name)
{
	char *tok = kasprintf(GFP_KERNEL, "name=%s", name);

	khist_hist_log(ev, cmd, KHIST_HERR_NAMED_MISMATCH,
		       tok ? khist_hist_caret(cmd, tok) : 0);
	kfree(tok);
}

static unsigned int khist_hist_caret(const char *cmd, const char *s)
{
	const char *p = s && *s ? strstr(cmd, s) : NULL;

	return p ? p - cmd : 0;
}

/* @ctx: the struct khist_inter_scope of the trigger being written. */
static bool khist_event_exists(void *ctx, const char *sys, const char *ev)
{
	const struct khist_inter_scope *sc = ctx;

	return !!khist_event_find_in(sc->inst, sys, ev);
}

/*
 * ftrace's find_var(): another hist trigger on the event being written
 * already defines @var.
 */
static bool khist_var_taken(void *ctx, const char *var)
{
	const struct khist_inter_scope *sc = ctx;

	return khist_inter_ev_defines(sc->ev, var);
}

static const struct khist_bind_ops khist_hist_bind_ops = {
	.event_exists = khist_event_exists,
	.var_taken = khist_var_taken,
	.find_var = khist_inter_bind_find_var,
	.dists = true,
};

static bool khist_same_field_desc(const struct khist_field_desc *a,
				  const struct khist_field_desc *b)
{
	if (a == b)
		return true;
	if (!a || !b)
		return false;
	return !strcmp(a->name, b->name) && !strcmp(a->type, b->type) &&
	       a->size == b->size && a->is_signed == b->is_signed;
}

static bool khist_same_bfield(const struct khist_bfield *a,
			      const struct khist_bfield *b)
{
	char ta[KHIST_STR_MAX], tb[KHIST_STR_MAX];
	struct khist_out sa = { ta, sizeof(ta), 0 };
	struct khist_out sb = { tb, sizeof(tb), 0 };

	if (a->flags != b->flags || a->size != b->size ||
	    a->is_signed != b->is_signed ||
	    !khist_same_field_desc(a->field, b->field))
		return false;
	if (!!a->var_name != !!b->var_name ||
	    (a->var_name && strcmp(a->var_name, b->var_name)))
		return false;
	/* khist: expressions and bucket sizes must be the same too. */
	khist_bfield_print(&sa, a);
	khist_bfield_print(&sb, b);
	return sa.len == sb.len && !strcmp(ta, tb);
}

static bool khist_same_actions(const struct khist_hist_spec *a,
			       const struct khist_hist_spec *b)
{
	const struct khist_hist_cmd *ca = a->cmd, *cb = b->cmd;
	unsigned int i;

	if (ca->n_actions != cb->n_actions)
		return false;
	for (i = 0; i < ca->n_actions; i++) {
		struct khist_span sa = ca->actions[i].text;
		struct khist_span sb = cb->actions[i].text;

		if (sa.len != sb.len ||
		    memcmp(ca->work + sa.pos, cb->work + sb.pos, sa.len))
			return false;
	}
	return true;
}

/*
 * ftrace's hist_trigger_match(): is the trigger being written (@sp with
 * filter @filter) the same as the one with spec @tp, filter @tfilter and
 * data @thd? @named is the data of the new trigger's name=, or NULL.
 */
static bool khist_hist_match(const struct khist_hist_spec *sp,
			     const char *filter,
			     const struct khist_hist_spec *tp,
			     const char *tfilter, struct khist_hist_data *thd,
			     struct khist_hist_data *named, bool ignore_filter)
{
	unsigned int i;

	if (named && thd != named)
		return false;
	if (!named && thd->name)
		return false;
	if (sp->n_vals != tp->n_vals || sp->n_keys != tp->n_keys ||
	    sp->n_vars != tp->n_vars || sp->n_sort != tp->n_sort)
		return false;
	if (!ignore_filter) {
		if (!!filter != !!tfilter)
			return false;
		if (filter && strcmp(filter, tfilter))
			return false;
	}
	for (i = 0; i < sp->n_vals; i++)
		if (!khist_same_bfield(sp->vals[i], tp->vals[i]))
			return false;
	for (i = 0; i < sp->n_vars; i++)
		if (!khist_same_bfield(sp->vars[i].f, tp->vars[i].f))
			return false;
	for (i = 0; i < sp->n_keys; i++)
		if (!khist_same_bfield(sp->keys[i].f, tp->keys[i].f))
			return false;
	for (i = 0; i < sp->n_sort; i++)
		if (sp->sort[i].src != tp->sort[i].src ||
		    sp->sort[i].idx != tp->sort[i].idx ||
		    sp->sort[i].descending != tp->sort[i].descending)
			return false;
	return khist_same_actions(sp, tp);
}

/* Does @sp fit the named data @hd (filters aside)? */
static bool khist_hist_fits_named(const struct khist_hist_spec *sp,
				  struct khist_hist_data *hd)
{
	return khist_hist_match(sp, NULL, hd->spec, NULL, hd, hd, true);
}

/* The first hist trigger of @ev that matches, or NULL. */
static struct khist_hist_trigger *
khist_hist_find(struct khist_event *ev, const struct khist_hist_spec *sp,
		const char *filter, struct khist_hist_data *named)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_hist_trigger *ht;
	struct khist_trigger *t;

	if (!et)
		return NULL;
	list_for_each_entry(t, &et->list, list) {
		if (!khist_is_hist(t))
			continue;
		ht = khist_to_hist(t);
		if (khist_hist_match(sp, filter, ht->spec, t->filter_str,
				     ht->hd, named, false))
			return ht;
	}
	return NULL;
}

/**
 * khist_hist_is_referenced() - may this trigger not be removed?
 * @ht: a hist trigger
 *
 * A trigger whose variables other triggers reference stays (EBUSY on
 * removal, kept on truncation). The inter-event layer answers this.
 *
 * Context: process context, khist_event_mutex held.
 * Return: true when referenced.
 */
bool khist_hist_is_referenced(struct khist_hist_trigger *ht)
{
	return khist_inter_is_referenced(ht->hd);
}

static void khist_hist_free(struct khist_trigger *t)
{
	struct khist_hist_trigger *ht = khist_to_hist(t);

	khist_trigger_free_filter(t);
	khist_inter_free(ht->inter);
	ht->inter = NULL;
	/* The last user's spec is the data's (khist_hist_data_unuse()). */
	if (ht->last)
		khist_hist_data_put(ht->hd);
	else
		khist_hist_spec_put(ht->spec);
	kfree(ht);
	khist_mem_uncharge(sizeof(*ht));
}

/*
 * @ht, which created its data, goes: the data's inter-event state stops
 * now (snapshot claim, its place among the referrers), even if other
 * triggers of its name= keep the data; it is freed with @ht. Its hidden
 * hists are the caller's to remove (khist_inter_hidden_remove()).
 */
static struct khist_inter *
khist_hist_inter_detach(struct khist_hist_trigger *ht)
{
	struct khist_inter *in;

	if (!ht->creator)
		return NULL;
	in = ht->hd->inter;
	/* Hits that still see it run it until the grace period is over. */
	WRITE_ONCE(ht->hd->inter, NULL);
	khist_inter_unlist(in);
	return in;
}

static void khist_hist_unlink(struct khist_trigger *t)
{
	struct khist_hist_trigger *ht = khist_to_hist(t);
	struct khist_hist_data *hd = ht->hd;

	/*
	 * A reader of `hist` prints @hd's map, spec and inter-event state
	 * under show_lock alone (khist_hist_show_nth()): wait for it. It
	 * found @ht under khist_event_mutex, which is held here, so no
	 * reader comes after.
	 */
	mutex_lock(&hd->show_lock);
	ht->inter = khist_hist_inter_detach(ht);
	if (khist_hist_data_unuse(hd, ht)) {
		/* Readers of its variables stop before the grace period. */
		khist_inter_data_gone(hd);
		ht->last = true;
	}
	mutex_unlock(&hd->show_lock);
	/*
	 * The hidden hists sit on other events, and removing one takes its
	 * own data's show_lock: never nest it inside @hd's.
	 */
	if (ht->inter)
		khist_inter_hidden_remove(ht->inter);
}

static void khist_hist_remove(struct khist_hist_trigger *ht)
{
	LIST_HEAD(gone);

	khist_trigger_queue_free(&ht->base, &gone);
	khist_trigger_free_list(&gone);
}

/* pause/cont/clear on a matching trigger; true if one was updated. */
static bool khist_hist_update_only(struct khist_event *ev,
				   struct khist_hist_spec *sp,
				   const char *filter)
{
	struct khist_hist_data *named = NULL;
	struct khist_hist_trigger *ht;

	if (!sp->pause && !sp->cont && !sp->clear)
		return false;
	if (sp->name) {
		named = khist_hist_named_find(sp->name);
		if (!named || !khist_hist_fits_named(sp, named))
			return false;
	}
	ht = khist_hist_find(ev, sp, filter, named);
	if (!ht)
		return false;
	if (sp->pause)
		WRITE_ONCE(ht->base.paused, 1);
	else if (sp->cont)
		WRITE_ONCE(ht->base.paused, 0);
	else
		khist_hist_data_clear(ht->hd);
	return true;
}

/* Add @ht (spec and filter set) to @ev: ftrace's hist_register_trigger(). */
static int khist_hist_register(struct khist_event *ev,
			       struct khist_hist_trigger *ht, const char *ecmd)
{
	struct khist_hist_spec *sp = ht->spec;
	struct khist_hist_data *named = NULL, *hd;
	khist_clock_fn clock;
	bool ns;
	int ret;

	if (sp->name) {
		named = khist_hist_named_find(sp->name);
		if (named && !khist_hist_fits_named(sp, named)) {
			khist_hist_log_named(ev, ecmd, sp->name);
			return -EINVAL;
		}
	}
	if ((!sp->name || named) &&
	    khist_hist_find(ev, sp, ht->base.filter_str, named)) {
		khist_hist_log(ev, ecmd, KHIST_HERR_TRIGGER_EEXIST, 0);
		return -EEXIST;
	}
	if (sp->cont || sp->clear) {
		khist_hist_log(ev, ecmd, KHIST_HERR_TRIGGER_ENOENT_CLEAR, 0);
		return -ENOENT;
	}
	ht->base.paused = sp->pause;
	if (sp->timestamps && khist_hist_clock_lookup(sp->clock, &clock, &ns)) {
		khist_hist_log(ev, ecmd, KHIST_HERR_SET_CLOCK_FAIL,
			       khist_hist_caret(ecmd, sp->clock));
		return -EINVAL;
	}
	if (named) {
		ht->hd = named;
		khist_hist_data_use(named, ht);
	} else {
		hd = khist_hist_data_create(sp, ht->inter);
		if (!IS_ERR(hd) && hd->needs_stack) {
			/* Raw syscalls feed the syscalls:* events too. */
			if (ev->def->tp_name)
				khist_hist_learn_tracepoint(ev->def->tp_name);
			khist_hist_learn_tracepoint("sys_enter");
			khist_hist_learn_tracepoint("sys_exit");
		}
		if (IS_ERR(hd)) {
			if (PTR_ERR(hd) == -E2BIG)
				khist_hist_log(ev, ecmd,
					       KHIST_HERR_ENTRY_TOO_LARGE, 0);
			else if (PTR_ERR(hd) == -ENOSPC)
				khist_hist_log(ev, ecmd, KHIST_HERR_MEM_LIMIT,
					       0);
			return PTR_ERR(hd);
		}
		ht->hd = hd;
		ht->inter = NULL;
		ht->creator = true;
		khist_hist_data_use(hd, ht);
	}
	khist_hist_plain_set(ht);
	ret = khist_trigger_add(ev, &ht->base);
	/* The event's first trigger: its list did not fit. */
	if (ret == -ENOSPC)
		khist_hist_log(ev, ecmd, KHIST_HERR_MEM_LIMIT, 0);
	return ret;
}

/* Free a trigger that was never linked (no grace period needed). */
static void khist_hist_drop_new(struct khist_hist_trigger *ht)
{
	struct khist_hist_data *hd = ht->hd;

	if (ht->inter) {
		khist_inter_unlink(ht->inter);
		khist_inter_free(ht->inter);
		ht->inter = NULL;
	}
	if (hd) {
		struct khist_inter *in = khist_hist_inter_detach(ht);

		if (in)
			khist_inter_hidden_remove(in);
		khist_inter_free(in);
		if (khist_hist_data_unuse(hd, ht)) {
			khist_inter_data_gone(hd);
			if (hd->spec == ht->spec)
				ht->spec = NULL;
			khist_hist_data_put(hd);
		}
	}
	ht->hd = NULL;
	khist_trigger_free_filter(&ht->base);
	khist_hist_spec_put(ht->spec);
	kfree(ht);
	khist_mem_uncharge(sizeof(*ht));
}

/* Parse and bind @text, with references resolved in @ev's instance. */
static int khist_hist_cmd_compile(struct khist_event *ev, const char *text,
				  struct khist_hist_spec **sp,
				  struct khist_hist_err *err)
{
	struct khist_inter_scope scope = { ev->inst, ev, NULL };
	struct khist_bind_ops bops = khist_hist_bind_ops;
	struct khist_hist_cmd *cmd;
	int ret;

	*sp = NULL;
	ret = khist_hist_parse(text, strlen(text), &cmd, err);
	if (ret)
		return ret;
	/* Unqualified references look at the onmatch() events first. */
	scope.cmd = cmd;
	bops.ctx = &scope;
	ret = khist_hist_bind(cmd, &ev->schema, &bops, sp, err);
	if (ret)
		khist_hist_cmd_free(cmd);
	return ret;
}

/*
 * An error of a command khist issued itself for a user's command (a
 * hidden hist): logged as the kernel does, with the user's event and
 * command, the caret at the first occurrence there of the offending word.
 */
static void khist_hist_relog(const struct khist_hist_relog *rl,
			     const char *text, unsigned int code,
			     unsigned int pos)
{
	char word[KHIST_STR_MAX];
	unsigned int n = 0;
	const char *p;

	if (!rl || !rl->cmd)
		return;
	if (pos < strlen(text))
		while (n < sizeof(word) - 1 && text[pos + n] &&
		       !strchr(":,= .", text[pos + n])) {
			word[n] = text[pos + n];
			n++;
		}
	word[n] = '\0';
	p = n ? strstr(rl->cmd, word) : NULL;
	khist_hist_log(rl->ev, rl->cmd, code, p ? p - rl->cmd : 0);
}

/*
 * One hist command on @ev: @text is the whole command, @ecmd the
 * error_log command ("hist:..."), NULL for khist's own commands, whose
 * parse errors go to @rl if given.
 */
static int khist_hist_cmd_run(struct khist_event *ev, const char *text,
			      const char *ecmd,
			      const struct khist_hist_relog *rl)
{
	struct khist_hist_trigger *ht, *old;
	struct khist_hist_data *named;
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	unsigned int i;
	int ret;

	ret = khist_hist_cmd_compile(ev, text, &sp, &err);
	if (ret) {
		for (i = 0; i < err.n; i++) {
			if (ecmd)
				khist_hist_log(ev, ecmd, err.e[i].code,
					       err.e[i].pos);
			else
				khist_hist_relog(rl, text, err.e[i].code,
						 err.e[i].pos);
		}
		return ret;
	}
	/*
	 * The spec (its arenas) and the trigger, both charged; a removal's
	 * spec lives for this call only (removing must work at the limit).
	 */
	ret = sp->remove ? 0 : khist_hist_spec_charge(sp);
	if (!ret) {
		ret = khist_mem_charge(sizeof(*ht));
		if (ret)
			khist_hist_spec_put(sp);
	} else {
		khist_hist_spec_free(sp);
	}
	if (ret) {
		khist_hist_log(ev, ecmd, KHIST_HERR_MEM_LIMIT, 0);
		return ret;
	}
	ht = kzalloc(sizeof(*ht), GFP_KERNEL);
	if (!ht) {
		khist_mem_uncharge(sizeof(*ht));
		khist_hist_spec_put(sp);
		return -ENOMEM;
	}
	ht->base.type = &khist_hist_type;
	ht->base.ev = ev;
	INIT_LIST_HEAD(&ht->hd_node);
	ht->spec = sp;
	khist_fetch_plan_init(&ht->plan, sp);
	atomic64_set(&ht->lost, 0);
	if (sp->filter) {
		ret = khist_trigger_set_filter(&ht->base, sp->filter);
		if (ret)
			goto drop;
	}
	named = sp->name ? khist_hist_named_find(sp->name) : NULL;
	if (sp->remove) {
		old = khist_hist_find(ev, sp, ht->base.filter_str, named);
		if (old && khist_hist_is_referenced(old))
			ret = -EBUSY;
		else if (old)
			khist_hist_remove(old);
		goto drop;
	}
	if (khist_hist_update_only(ev, sp, ht->base.filter_str))
		goto drop;
	/* A trigger joining a name= shares the first one's actions. */
	if (!named) {
		ret = khist_inter_create(ev, ht, ecmd, &ht->inter);
		if (ret)
			goto drop;
	}
	/* What the inter-event state added to the spec's arena. */
	ret = khist_hist_spec_charge(sp);
	if (ret) {
		khist_hist_log(ev, ecmd, KHIST_HERR_MEM_LIMIT, 0);
		goto drop;
	}
	ret = khist_hist_register(ev, ht, ecmd);
	if (ret)
		goto drop;
	return 0;
drop:
	khist_hist_drop_new(ht);
	return ret;
}

static int khist_hist_cmd_parse(struct khist_event *ev, const char *glob,
				char *param, const char *text)
{
	char *ecmd;
	int ret;

	ecmd = khist_hist_errcmd(param);
	if (!ecmd)
		return -ENOMEM;
	ret = khist_hist_cmd_run(ev, text, ecmd, NULL);
	kfree(ecmd);
	return ret;
}

/**
 * khist_hist_cmd_internal() - a hist command khist issues itself (the
 * hidden hists that hold field variables of other events)
 * @ev:   the event
 * @text: "[!]hist:..."
 * @rl:   where its parse errors go (the user command that needs it, as
 *        the kernel logs them), or NULL
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno.
 */
int khist_hist_cmd_internal(struct khist_event *ev, const char *text,
			    const struct khist_hist_relog *rl)
{
	lockdep_assert_held(&khist_event_mutex);
	return khist_hist_cmd_run(ev, text, NULL, rl);
}

static void khist_hist_print_trigger(struct seq_file *m,
				     struct khist_trigger *t)
{
	struct khist_hist_trigger *ht = khist_to_hist(t);
	bool paused = READ_ONCE(t->paused);
	char *buf;
	int len;

	len = khist_hist_print(ht->spec, paused, NULL, 0);
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return;
	khist_hist_print(ht->spec, paused, buf, len + 1);
	seq_puts(m, buf);
	kfree(buf);
}

/* O_TRUNC: ftrace keeps every hist trigger if any of them is referenced. */
static void khist_hist_unreg_all(struct khist_event *ev)
{
	struct khist_ev_triggers *et = ev->trigger_data;
	struct khist_trigger *t, *n;
	LIST_HEAD(gone);

	if (!et)
		return;
	list_for_each_entry(t, &et->list, list) {
		if (khist_is_hist(t) &&
		    khist_hist_is_referenced(khist_to_hist(t)))
			return;
	}
	list_for_each_entry_safe(t, n, &et->list, list)
		if (khist_is_hist(t))
			khist_trigger_queue_free(t, &gone);
	khist_trigger_free_list(&gone);
}

/*
 * What a hist trigger's hits read: its own keys, values and variables; with
 * inter-event parts (references, field variables, actions) all of it.
 */
static unsigned int khist_hist_reads(struct khist_trigger *t)
{
	struct khist_hist_trigger *ht = khist_to_hist(t);

	if (ht->inter || (ht->hd && ht->hd->inter))
		return KHIST_READS_ALL;
	return khist_hist_spec_reads(ht->spec);
}

/* A hit no record could be built for: counted in the Totals' Lost. */
static void khist_hist_lost(struct khist_trigger *t)
{
	atomic64_inc(&khist_to_hist(t)->lost);
}

struct khist_trigger_type khist_hist_type = {
	.name = "hist",
	.tail = true,
	.cond = true,
	.parse = khist_hist_cmd_parse,
	.call = khist_hist_call,
	.reads = khist_hist_reads,
	.print = khist_hist_print_trigger,
	.unreg_all = khist_hist_unreg_all,
	.unlink = khist_hist_unlink,
	.free = khist_hist_free,
	.counting = khist_hist_counting,
	.counting_norec = khist_hist_counting_norec,
	.lost = khist_hist_lost,
};

/**
 * khist_hist_init() - register enable_hist, disable_hist and hist with the
 * trigger engine (after the other commands: the `trigger` file lists them
 * in ftrace's order)
 *
 * Context: process context, module init, before any event exists.
 * Return: 0 or -errno with nothing registered.
 */
int khist_hist_init(void)
{
	int ret;

	ret = khist_hist_pads_init();
	if (ret)
		return ret;
	INIT_LIST_HEAD(&khist_enable_hist_cmd.type.list);
	ret = khist_trigger_type_register(&khist_enable_hist_cmd.type);
	if (ret)
		goto out_pads;
	INIT_LIST_HEAD(&khist_disable_hist_cmd.type.list);
	ret = khist_trigger_type_register(&khist_disable_hist_cmd.type);
	if (ret)
		goto out_enable;
	ret = khist_trigger_type_register(&khist_hist_type);
	if (ret)
		goto out_disable;
	return 0;

out_disable:
	khist_trigger_type_unregister(&khist_disable_hist_cmd.type);
out_enable:
	khist_trigger_type_unregister(&khist_enable_hist_cmd.type);
out_pads:
	khist_hist_pads_exit();
	return ret;
}

/**
 * khist_hist_exit() - unregister them, dropping their triggers
 *
 * Context: process context, module exit.
 */
void khist_hist_exit(void)
{
	khist_trigger_type_unregister(&khist_hist_type);
	khist_trigger_type_unregister(&khist_disable_hist_cmd.type);
	khist_trigger_type_unregister(&khist_enable_hist_cmd.type);
	khist_hist_pads_exit();
}
