// SPDX-License-Identifier: GPL-2.0
/*
 * eprobe.c - event probes as khist events: an e: line of `dynamic_events`
 * makes one (parsed by core/eprobe_parse.c), "-:" removes it, the list
 * shows it; attaching its event in an instance puts the hidden trigger on
 * the target's event of that instance, detaching takes it off.
 *
 * Errors of the line go to the top instance's error_log as "event_probe"
 * errors; a bad `if` filter is logged by the filter compiler.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "events/events.h"
#include "events/evfilter.h"
#include "mem/mem.h"
#include "synth/synth.h"
#include "eprobe.h"

static struct khist_dynevent_ops khist_ep_dyn_ops;
static int khist_ep_attach(struct khist_event *kev, bool on);

static struct khist_eprobe *to_ep(struct khist_dynevent *d)
{
	return container_of(d, struct khist_eprobe, dyn);
}

/* ---- the hidden trigger on the target ---------------------------------- */

static void khist_ep_trig_unlink(struct khist_trigger *t)
{
	list_del_init(&container_of(t, struct khist_ep_link, base)->node);
}

static void khist_ep_trig_free(struct khist_trigger *t)
{
	khist_trigger_free_filter(t);
	kfree(container_of(t, struct khist_ep_link, base));
	khist_mem_uncharge(sizeof(struct khist_ep_link));
}

/*
 * Not registered: no command word reaches it through a `trigger` file and
 * no '>' on one removes it.
 */
static struct khist_trigger_type khist_ep_trigger_type = {
	.name = "eprobe",
	.tail = true,
	.hidden = true,
	.cond = true,
	.call = khist_ep_hit,
	.unlink = khist_ep_trig_unlink,
	.free = khist_ep_trig_free,
};

static struct khist_ep_link *khist_ep_link_of(struct khist_eprobe *ep,
					      struct khist_event *kev)
{
	struct khist_ep_link *l;

	list_for_each_entry(l, &ep->links, node)
		if (l->ev == kev)
			return l;
	return NULL;
}

/* The probe's event @kev is attached in its instance, or detached. */
static int khist_ep_attach(struct khist_event *kev, bool on)
{
	struct khist_eprobe *ep =
		container_of(kev->def, struct khist_eprobe, kdef);
	struct khist_ep_link *l = khist_ep_link_of(ep, kev);
	struct khist_event *tev;
	LIST_HEAD(gone);
	int ret;

	lockdep_assert_held(&khist_event_mutex);
	if (!on) {
		/* Gone already when the target went first (rmdir). */
		if (l) {
			khist_trigger_queue_free(&l->base, &gone);
			khist_trigger_free_list(&gone);
		}
		return 0;
	}
	if (WARN_ON_ONCE(l))
		return -EBUSY;
	if (ep->target->def != ep->tdef)
		return -ENODEV;
	tev = khist_event_find_in(kev->inst, ep->def->system, ep->def->target);
	if (!tev || tev->def != ep->tdef)
		return -ENODEV;
	/* The link is charged from here to khist_ep_trig_free(). */
	ret = khist_mem_charge(sizeof(*l));
	if (ret)
		return ret;
	l = khist_kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l) {
		khist_mem_uncharge(sizeof(*l));
		return -ENOMEM;
	}
	l->base.type = &khist_ep_trigger_type;
	l->base.ev = tev;
	l->ep = ep;
	l->ev = kev;
	INIT_LIST_HEAD(&l->node);
	if (ep->def->filter) {
		ret = khist_trigger_set_filter(&l->base, ep->def->filter);
		if (ret)
			goto out_free;
	}
	ret = khist_trigger_add(tev, &l->base);
	if (ret)
		goto out_free;
	list_add_tail(&l->node, &ep->links);
	return 0;

out_free:
	khist_ep_trig_free(&l->base);
	return ret;
}

/* ---- creation and removal ---------------------------------------------- */

/* The event a probe may attach to: not ftrace's own, not a probe. */
static const struct khist_event_schema *
khist_ep_lookup(const char *system, const char *name, void *arg)
{
	struct khist_event *ev = khist_event_find(system, name);

	/* Nor a kprobe's or uprobe's: the kernel refuses those too. */
	if (!ev || !ev->def || (ev->def->flags & KHIST_EVF_IGNORE_ENABLE) ||
	    ev->def->attach == khist_ep_attach ||
	    ev->def->print == khist_kprobe_print ||
	    ev->def->print == khist_uprobe_print)
		return NULL;
	*(struct khist_event **)arg = ev;
	return &ev->schema;
}

/* Attached anywhere: enabled, or used by a trigger or hist. */
static bool khist_ep_busy(struct khist_eprobe *ep)
{
	struct khist_event *top = ep->kdef.ev;

	return top && top->probe_users;
}

/* What a probe of @def is charged against mem_limit_kb. */
static u64 khist_ep_charge(const struct khist_ep_def *def)
{
	return sizeof(struct khist_eprobe) +
	       def->nr_args * (sizeof(struct khist_ep_arg) +
			       sizeof(struct khist_field_desc));
}

static void khist_ep_free(struct khist_eprobe *ep)
{
	if (ep->synth)
		khist_synth_put(ep->synth);

	khist_event_put(ep->target);
	khist_ep_def_free(ep->def);
	kfree(ep->descs);
	kfree(ep->kdef.print_fmt);
	kfree(ep);
}

/* Take a probe out of khist and free it. Mutex held. */
static void khist_ep_destroy(struct khist_eprobe *ep)
{
	khist_event_unregister_locked(&ep->kdef);
	khist_dynevent_del(&ep->dyn);
	khist_mem_uncharge(khist_ep_charge(ep->def));
	khist_ep_free(ep);
}

/* Make the parsed probe an event of khist. Mutex held. */
static int khist_ep_register(struct khist_ep_cmd *cmd, struct khist_event *tev)
{
	struct khist_ep_def *def = cmd->def;
	struct khist_synth_event *se;
	struct khist_eprobe *ep;
	char *fmt;
	int ret, len;

	ret = khist_mem_charge(khist_ep_charge(def));
	if (ret)
		return ret;
	ep = khist_kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep) {
		khist_mem_uncharge(khist_ep_charge(def));
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&ep->links);
	khist_event_get(tev);
	ep->target = tev;
	ep->tdef = tev->def;
	ep->descs = khist_kcalloc(khist_ep_nr_fields(def) ?: 1,
				  sizeof(*ep->descs), GFP_KERNEL);
	len = khist_ep_print_fmt(def, NULL, 0);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	ep->kdef.print_fmt = fmt;
	if (!ep->descs || !fmt) {
		ret = -ENOMEM;
		goto out;
	}
	khist_ep_print_fmt(def, fmt, len + 1);
	khist_ep_fields(def, ep->descs);
	/* A synthetic target may not go while the probe is on it. */
	se = khist_synth_from_event(tev);
	if (se) {
		ep->synth = khist_synth_get_locked(khist_synth_name(se));
		if (!ep->synth) {
			ret = -ENODEV;
			goto out;
		}
	}
	ep->kdef.system = def->group;
	ep->kdef.name = def->event;
	ep->kdef.fields = ep->descs;
	ep->kdef.nr_fields = khist_ep_nr_fields(def);
	ep->kdef.rec_size = def->fixed_size;
	ep->kdef.print = khist_ep_print;
	ep->kdef.attach = khist_ep_attach;
	/* Arrays show as name[] in format, as for ftrace's probes. */
	ep->kdef.flags = KHIST_EVF_ARRAY_NOLEN;
	ret = khist_event_register_locked(&ep->kdef);
	if (ret) {
		if (ret == -EEXIST)
			khist_ep_set_error(cmd, KHIST_EPERR_EVENT_EXIST, 0);
		goto out;
	}
	ep->def = def;
	cmd->def = NULL;
	khist_dynevent_add(&ep->dyn, &khist_ep_dyn_ops);
	return 0;

out:
	khist_mem_uncharge(khist_ep_charge(def));
	khist_ep_free(ep);
	return ret;
}

/* The ->create() of event probes: one e: line. */
static int khist_ep_create(const char *line)
{
	struct khist_event *tev = NULL;
	struct khist_ep_finder finder = { khist_ep_lookup, &tev };
	struct khist_filter *f;
	struct khist_ep_cmd cmd;
	unsigned int i;
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = khist_ep_parse(line, &finder, &cmd);
	if (!ret && cmd.def->filter) {
		/* The filter is the target's, checked (and logged) now. */
		ret = khist_evfilter_compile(NULL, tev, cmd.def->filter,
					     strlen(cmd.def->filter), &f, NULL);
		if (!ret)
			khist_evfilter_free(f);
	}
	if (!ret)
		ret = khist_ep_register(&cmd, tev);
	mutex_unlock(&khist_event_mutex);
	for (i = 0; i < cmd.nr_err; i++)
		khist_error_report(NULL, "event_probe",
				   khist_ep_err_text(cmd.err[i]), cmd.cmd,
				   cmd.pos[i]);
	khist_ep_cmd_release(&cmd);
	return ret;
}

static int khist_ep_dyn_print(const struct khist_dynevent *d, char *buf,
			      size_t size)
{
	return khist_ep_show(container_of(d, struct khist_eprobe, dyn)->def,
			     buf, size);
}

static bool khist_ep_dyn_is_busy(struct khist_dynevent *d)
{
	return khist_ep_busy(to_ep(d));
}

static void khist_ep_dyn_free(struct khist_dynevent *d)
{
	khist_ep_destroy(to_ep(d));
}

static bool khist_ep_dyn_match(const char *system, const char *event, int argc,
			       const char **argv, struct khist_dynevent *d)
{
	return khist_ep_match(to_ep(d)->def, system, event, argc, argv);
}

static struct khist_dynevent_ops khist_ep_dyn_ops = {
	.create = khist_ep_create,
	.print = khist_ep_dyn_print,
	.prefix = "",
	.is_busy = khist_ep_dyn_is_busy,
	.free = khist_ep_dyn_free,
	.match = khist_ep_dyn_match,
};

/**
 * khist_eprobe_init() - let `dynamic_events` take e: lines
 *
 * Context: process context, module init, after the synthetic events (which
 * own `dynamic_events`).
 * Return: 0.
 */
int khist_eprobe_init(void)
{
	khist_dynevent_ops_register(&khist_ep_dyn_ops);
	return 0;
}

/**
 * khist_eprobe_exit() - remove every event probe, attached or not
 *
 * Context: process context, module exit, before the instances and the
 * synthetic events go.
 */
void khist_eprobe_exit(void)
{
	struct khist_dynevent *d, *tmp;

	khist_dynevent_ops_unregister(&khist_ep_dyn_ops);
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(d, tmp, &khist_dynevent_list, list)
		if (d->ops == &khist_ep_dyn_ops)
			khist_ep_destroy(to_ep(d));
	mutex_unlock(&khist_event_mutex);
}
