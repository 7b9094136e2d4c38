// SPDX-License-Identifier: GPL-2.0
/*
 * synth_event.c - synthetic events as khist events: creation from a
 * command line or from a module, removal, lookup with references, and
 * their place in the dynamic events list (s: lines of `dynamic_events`).
 *
 * Everything here runs under khist_event_mutex, the registry's lock, so a
 * name check, the registration and the dynamic list stay consistent, and
 * "busy" (referenced, enabled, triggers attached) is decided under the
 * same lock that enabling takes.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "events/events.h"
#include "synth_internal.h"
#include "mem/mem.h"

static struct khist_synth_event *to_synth(struct khist_dynevent *ev)
{
	return container_of(ev, struct khist_synth_event, dyn);
}

/* The synthetic event called @name, or NULL. Mutex held. */
static struct khist_synth_event *synth_find(const char *name)
{
	struct khist_dynevent *ev;

	lockdep_assert_held(&khist_event_mutex);
	list_for_each_entry(ev, &khist_dynevent_list, list)
		if (ev->ops == &khist_synth_dyn_ops &&
		    !strcmp(to_synth(ev)->def->name, name))
			return to_synth(ev);
	return NULL;
}

static bool synth_exists(const char *name, void *arg)
{
	return !!synth_find(name);
}

/*
 * Referenced by a user, or enabled or used by a trigger in any instance
 * (the top event counts the attached events of every instance). Mutex
 * held.
 */
static bool synth_is_busy(struct khist_synth_event *se)
{
	struct khist_event *top = se->kdef.ev;

	return atomic_read(&se->users) || (top && top->probe_users);
}

/* What an event of @def is charged against mem_limit_kb. */
static u64 synth_charge(const struct khist_synth_def *def)
{
	return sizeof(struct khist_synth_event) +
	       def->nr_fields * sizeof(struct khist_field_desc);
}

static void synth_release(struct kref *kref)
{
	struct khist_synth_event *se =
		container_of(kref, struct khist_synth_event, kref);

	khist_mem_uncharge(synth_charge(se->def));
	khist_synth_def_free(se->def);
	kfree(se->descs);
	kfree(se->kdef.print_fmt);
	kfree(se);
}

/* Attaching the event pins the module that created it, as in ftrace. */
static int synth_reg(struct khist_event_def *kdef, bool on)
{
	struct khist_synth_event *se =
		container_of(kdef, struct khist_synth_event, kdef);

	if (!on) {
		module_put(se->owner);
		return 0;
	}
	return try_module_get(se->owner) ? 0 : -EBUSY;
}

static void synth_fill_desc(struct khist_field_desc *d,
			    const struct khist_synth_field *f)
{
	d->name = f->name;
	d->type = f->type;
	d->offset = f->offset;
	d->size = f->size;
	d->is_signed = f->is_signed;
	d->elem_size = f->size;
	if (f->is_stack) {
		d->kind = KHIST_FK_STACKTRACE;
		d->elem_size = sizeof(unsigned long);
	} else if (f->is_string) {
		d->kind = f->is_dynamic ? KHIST_FK_DYNSTRING : KHIST_FK_STRING;
		d->elem_size = 1;
	} else {
		d->kind = KHIST_FK_INT;
	}
}

/* Make @def (always consumed) an event of khist. Mutex held. */
static int synth_register(struct khist_synth_def *def, struct module *owner)
{
	struct khist_synth_event *se;
	unsigned int i;
	char *fmt;
	int ret, len;

	ret = khist_mem_charge(synth_charge(def));
	if (ret)
		goto out_def;
	ret = -ENOMEM;
	se = khist_kzalloc(sizeof(*se), GFP_KERNEL);
	if (!se) {
		khist_mem_uncharge(synth_charge(def));
		goto out_def;
	}
	se->def = def;
	kref_init(&se->kref);
	se->descs =
		khist_kcalloc(def->nr_fields, sizeof(*se->descs), GFP_KERNEL);
	len = khist_synth_print_fmt(def, NULL, 0);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	se->kdef.print_fmt = fmt;
	if (!se->descs || !fmt)
		goto out_se;
	khist_synth_print_fmt(def, fmt, len + 1);
	for (i = 0; i < def->nr_fields; i++)
		synth_fill_desc(&se->descs[i], &def->fields[i]);
	se->owner = owner;
	se->kdef.system = KHIST_SYNTH_SYSTEM;
	se->kdef.name = def->name;
	se->kdef.fields = se->descs;
	se->kdef.nr_fields = def->nr_fields;
	se->kdef.rec_size = def->fixed_size;
	se->kdef.print = khist_synth_print;
	se->kdef.reg = synth_reg;
	/* char[N] fields show as name[] in format, on 6.1.192 as on 6.12. */
	se->kdef.flags = KHIST_EVF_ARRAY_NOLEN;
	ret = khist_event_register_locked(&se->kdef);
	if (ret)
		goto out_se;
	khist_dynevent_add(&se->dyn, &khist_synth_dyn_ops);
	return 0;

out_se:
	kref_put(&se->kref, synth_release);
	return ret;
out_def:
	khist_synth_def_free(def);
	return ret;
}

/* Take @se out of khist; references keep its memory. Mutex held. */
static void synth_destroy(struct khist_synth_event *se)
{
	khist_event_unregister_locked(&se->kdef);
	khist_dynevent_del(&se->dyn);
	se->dead = true;
	kref_put(&se->kref, synth_release);
}

static int synth_delete_locked(const char *name)
{
	struct khist_synth_event *se = synth_find(name);

	if (!se)
		return -ENOENT;
	return khist_dynevent_remove(&se->dyn);
}

/* One command line; errors go to the top instance's error_log. */
static int synth_run(const char *line, unsigned int flags, struct module *owner)
{
	struct khist_synth_def *def;
	struct khist_synth_cmd cmd;
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = khist_synth_parse(line, flags, synth_exists, NULL, &cmd);
	if (!ret && cmd.op == KHIST_SYNTH_CREATE) {
		def = cmd.def;
		cmd.def = NULL;
		ret = synth_register(def, owner);
	} else if (!ret && cmd.op == KHIST_SYNTH_DELETE) {
		ret = synth_delete_locked(cmd.name);
	}
	mutex_unlock(&khist_event_mutex);
	if (cmd.err)
		khist_error_report(NULL, "synthetic_events",
				   khist_synth_err_text(cmd.err), cmd.cmd,
				   cmd.pos);
	khist_synth_cmd_release(&cmd);
	return ret;
}

/**
 * khist_synth_command() - run one line written to `synthetic_events`
 * @line: the line, without newline and comment
 *
 * Context: process context.
 * Return: 0 or -errno (-EINVAL and -EEXIST are logged in error_log).
 */
int khist_synth_command(const char *line)
{
	return synth_run(line, 0, NULL);
}

/**
 * khist_synth_dyn_create() - the ->create() of synthetic events in
 * `dynamic_events`
 * @line: the line
 *
 * Context: process context.
 * Return: 0, -ECANCELED when @line is not an s: line, or -errno.
 */
int khist_synth_dyn_create(const char *line)
{
	return synth_run(line, KHIST_SYNTH_PARSE_DYN, NULL);
}

static int synth_dyn_print(const struct khist_dynevent *ev, char *buf,
			   size_t size)
{
	const struct khist_synth_event *se =
		container_of(ev, struct khist_synth_event, dyn);

	return khist_synth_show(se->def, buf, size);
}

static bool synth_dyn_is_busy(struct khist_dynevent *ev)
{
	return synth_is_busy(to_synth(ev));
}

static void synth_dyn_free(struct khist_dynevent *ev)
{
	synth_destroy(to_synth(ev));
}

static bool synth_dyn_match(const char *system, const char *event, int argc,
			    const char **argv, struct khist_dynevent *ev)
{
	return !strcmp(to_synth(ev)->def->name, event) &&
	       (!system || !strcmp(system, KHIST_SYNTH_SYSTEM));
}

struct khist_dynevent_ops khist_synth_dyn_ops = {
	.create = khist_synth_dyn_create,
	.print = synth_dyn_print,
	.prefix = "s:" KHIST_SYNTH_SYSTEM "/",
	.is_busy = synth_dyn_is_busy,
	.free = synth_dyn_free,
	.match = synth_dyn_match,
};

/**
 * khist_synth_create_cmd() - define a synthetic event from a command
 * @cmd:   "name type field[; type field]..." as written to synthetic_events
 * @owner: the calling module (THIS_MODULE), pinned while the event is
 *         enabled or referenced; NULL for none
 *
 * Errors are logged in the top instance's error_log, as for a write to
 * `synthetic_events`.
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -EINVAL (bad command, or a removal), -EEXIST, -ENOMEM.
 */
int khist_synth_create_cmd(const char *cmd, struct module *owner)
{
	const char *p = cmd;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '!' || !*p)
		return -EINVAL;
	return synth_run(cmd, 0, owner);
}
EXPORT_SYMBOL_GPL(khist_synth_create_cmd);

/**
 * khist_synth_create() - define a synthetic event from a field list
 * @name:      the event name
 * @fields:    its fields, in record order
 * @nr_fields: entries in @fields (1..KHIST_SYNTH_FIELDS_MAX)
 * @owner:     the calling module (THIS_MODULE), or NULL
 *
 * The same as khist_synth_create_cmd() on "name type name; ...".
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0 or -errno.
 */
int khist_synth_create(const char *name,
		       const struct khist_synth_field_spec *fields,
		       unsigned int nr_fields, struct module *owner)
{
	size_t len;
	unsigned int i;
	char *cmd, *p;
	int ret;

	if (!name || !khist_synth_good_name(name) ||
	    nr_fields > KHIST_SYNTH_FIELDS_MAX)
		return -EINVAL;
	len = strlen(name) + 1;
	for (i = 0; i < nr_fields; i++)
		len += strlen(fields[i].type) + strlen(fields[i].name) + 3;
	cmd = kmalloc(len, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	p = cmd + sprintf(cmd, "%s", name);
	for (i = 0; i < nr_fields; i++)
		p += sprintf(p, " %s %s;", fields[i].type, fields[i].name);
	ret = synth_run(cmd, 0, owner);
	kfree(cmd);
	return ret;
}
EXPORT_SYMBOL_GPL(khist_synth_create);

/**
 * khist_synth_delete() - remove a synthetic event
 * @name: its name
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0, -ENOENT, or -EBUSY when it is referenced, enabled or has
 * triggers.
 */
int khist_synth_delete(const char *name)
{
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = synth_delete_locked(name);
	mutex_unlock(&khist_event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(khist_synth_delete);

/**
 * khist_synth_get_locked() - find a synthetic event and reference it
 * @name: its name
 *
 * The reference keeps the event from being removed (-EBUSY) and its
 * memory valid; drop it with khist_synth_put().
 *
 * Context: process context, khist_event_mutex held.
 * Return: the event, or NULL when there is none (or its module is going).
 */
struct khist_synth_event *khist_synth_get_locked(const char *name)
{
	struct khist_synth_event *se = synth_find(name);

	if (!se || !try_module_get(se->owner))
		return NULL;
	atomic_inc(&se->users);
	kref_get(&se->kref);
	return se;
}

/**
 * khist_synth_get() - find a synthetic event and reference it
 * @name: its name
 *
 * Context: process context; takes khist_event_mutex.
 * Return: the event, or NULL.
 */
struct khist_synth_event *khist_synth_get(const char *name)
{
	struct khist_synth_event *se;

	mutex_lock(&khist_event_mutex);
	se = khist_synth_get_locked(name);
	mutex_unlock(&khist_event_mutex);
	return se;
}
EXPORT_SYMBOL_GPL(khist_synth_get);

/**
 * khist_synth_put() - drop a reference taken by khist_synth_get()
 * @se: the event (may be NULL)
 *
 * Context: process context (may free); does not take khist_event_mutex.
 */
void khist_synth_put(struct khist_synth_event *se)
{
	struct module *owner;

	if (!se)
		return;
	owner = se->owner;
	atomic_dec(&se->users);
	kref_put(&se->kref, synth_release);
	module_put(owner);
}
EXPORT_SYMBOL_GPL(khist_synth_put);

/**
 * khist_synth_name() - the name of a synthetic event
 * @se: the event
 *
 * Context: any.
 * Return: its name.
 */
const char *khist_synth_name(const struct khist_synth_event *se)
{
	return se->def->name;
}
EXPORT_SYMBOL_GPL(khist_synth_name);

/**
 * khist_synth_nr_fields() - how many fields (values) an event takes
 * @se: the event
 *
 * Context: any.
 * Return: the number of fields.
 */
unsigned int khist_synth_nr_fields(const struct khist_synth_event *se)
{
	return se->def->nr_fields;
}
EXPORT_SYMBOL_GPL(khist_synth_nr_fields);

/**
 * khist_synth_field() - one field of an event: name, type, size,
 * signedness, and whether it is a string, a dynamic string or a stack
 * @se: the event
 * @i:  field index
 *
 * Context: any.
 * Return: the field, or NULL when @i is out of range.
 */
const struct khist_synth_field *
khist_synth_field(const struct khist_synth_event *se, unsigned int i)
{
	return i < se->def->nr_fields ? &se->def->fields[i] : NULL;
}
EXPORT_SYMBOL_GPL(khist_synth_field);

/**
 * khist_synth_from_event() - the synthetic event behind a khist event
 * @ev: a registered event
 *
 * Context: process context, khist_event_mutex held.
 * Return: the synthetic event, or NULL when @ev is not one.
 */
struct khist_synth_event *khist_synth_from_event(struct khist_event *ev)
{
	if (!ev->def || ev->def->reg != synth_reg)
		return NULL;
	return container_of(ev->def, struct khist_synth_event, kdef);
}

/**
 * khist_synth_event() - the khist event of a synthetic event (its schema,
 * files, triggers)
 * @se: the synthetic event
 *
 * Context: process context, khist_event_mutex held.
 * Return: the event, or NULL once the synthetic event is removed.
 */
struct khist_event *khist_synth_event(struct khist_synth_event *se)
{
	return se->dead ? NULL : se->kdef.ev;
}

/**
 * khist_synth_busy() - may the event not be removed now?
 * @se: the event
 *
 * Context: process context, khist_event_mutex held.
 * Return: true when it is referenced, enabled or has triggers.
 */
bool khist_synth_busy(struct khist_synth_event *se)
{
	return synth_is_busy(se);
}

/**
 * khist_synth_remove_all() - remove every synthetic event, busy or not
 *
 * For module exit, once the hist engine dropped its triggers: events still
 * referenced are taken out of khist and freed at their last put.
 *
 * Context: process context, module exit.
 */
void khist_synth_remove_all(void)
{
	struct khist_dynevent *ev, *tmp;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(ev, tmp, &khist_dynevent_list, list)
		if (ev->ops == &khist_synth_dyn_ops)
			synth_destroy(to_synth(ev));
	mutex_unlock(&khist_event_mutex);
}
