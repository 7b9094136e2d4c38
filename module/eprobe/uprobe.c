// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe.c - uprobes and uretprobes as khist events: a p: or r: line with
 * PATH:OFFSET in `dynamic_events` or `uprobe_events` (parsed by
 * core/eprobe_parse.c, the fetch-argument compiler of every probe kind)
 * makes one, "-:" removes it, both files list it and `uprobe_profile`
 * counts its hits.
 *
 * The probed file is looked up (and held) when the line is accepted; the
 * kernel's uprobe consumer is registered while the event is attached in
 * any instance, which puts the breakpoint into every process that maps
 * the file, and unregistered when the last attachment goes (which waits
 * for the handlers that are running). The registration differs between
 * 6.1 and 6.12: compat/uprobes.h.
 *
 * The handlers run in the probed task, in process context: they first
 * read the user memory the arguments reach (which faults pages in, as the
 * kernel's uprobes do), then build the record with preemption disabled,
 * reading it again with the fault-tolerant accessors.
 *
 * Locking: everything but the handlers runs under khist_event_mutex.
 */
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "compat/uprobes.h"
#include "base/instance.h"
#include "events/events.h"
#include "mem/mem.h"
#include "eprobe.h"

/**
 * struct khist_uprobe - one uprobe or uretprobe event
 * @kdef:  its khist event definition (registered while it exists)
 * @dyn:   its entry in the dynamic events list
 * @def:   the parsed line: file, offset, names, arguments, layout
 * @descs: the fields of its records (for format, filters, hists)
 * @path:  the probed file (referenced)
 * @uc:    the consumer registered with the kernel while armed
 * @reg:   what unregistering @uc needs
 * @nhit:  hits, per CPU
 * @armed: @uc is registered
 */
struct khist_uprobe {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_ep_def *def;
	struct khist_field_desc *descs;
	struct path path;
	struct uprobe_consumer uc;
	struct khist_uprobe_reg reg;
	unsigned long __percpu *nhit;
	bool armed;
};

static struct khist_dynevent_ops khist_up_dyn_ops;

static struct khist_uprobe *to_up(struct khist_dynevent *d)
{
	return container_of(d, struct khist_uprobe, dyn);
}

/* ---- the handlers ------------------------------------------------------ */

/* One hit: @hdr is __probe_ip, or __probe_func and __probe_ret_ip. */
static void khist_up_hit(struct khist_uprobe *up, struct pt_regs *regs,
			 unsigned long func, const unsigned long *hdr)
{
	struct khist_ep_from s = {
		.regs = regs,
		/* Where offset 0 of the file is mapped, for @+OFFSET. */
		.ubase = func - up->def->offset,
	};

	/* The dereferences may fault pages in here, not below. */
	khist_ep_prefault(up->def, &s);
	preempt_disable_notrace();
	this_cpu_inc(*up->nhit);
	if (!khist_rec_counted(&up->kdef))
		khist_ep_build(up->def, &up->kdef, NULL, &s, hdr);
	preempt_enable_notrace();
}

static int khist_up_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct khist_uprobe *up = container_of(uc, struct khist_uprobe, uc);
	unsigned long ip = instruction_pointer(regs);

	khist_up_hit(up, regs, ip, &ip);
	return 0;
}

static int khist_up_ret_handler(struct uprobe_consumer *uc, unsigned long func,
				struct pt_regs *regs)
{
	struct khist_uprobe *up = container_of(uc, struct khist_uprobe, uc);
	unsigned long hdr[2] = { func, instruction_pointer(regs) };

	khist_up_hit(up, regs, func, hdr);
	return 0;
}

/* ---- `trace` ----------------------------------------------------------- */

/**
 * khist_uprobe_print() - the text of a uprobe's record, as ftrace shows
 * it: "(0xaddr) args" or "(0xret <- 0xfunc) args"
 * @p: the record and where the text goes
 *
 * Context: process context, reading `trace` (RCU read section or
 * khist_event_mutex: the probe cannot be freed meanwhile).
 */
void khist_uprobe_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	const struct khist_ep_def *def;
	struct khist_event *ev;
	unsigned long a[2];

	ev = khist_event_by_id(hdr->type);
	if (!ev || !ev->def || ev->def->print != khist_uprobe_print)
		return;
	def = container_of(ev->def, struct khist_uprobe, kdef)->def;
	if (p->size < def->hdr_size)
		return;
	memcpy(a, p->rec + KHIST_EP_HDR_SIZE,
	       def->hdr_size - KHIST_EP_HDR_SIZE);
	if (khist_ep_is_ret(def))
		khist_out_printf(p->out, "(0x%lx <- 0x%lx)", a[1], a[0]);
	else
		khist_out_printf(p->out, "(0x%lx)", a[0]);
	khist_ep_print_args(p, def);
}

/* ---- arming ------------------------------------------------------------ */

static void khist_up_disarm(struct khist_uprobe *up)
{
	if (!up->armed)
		return;
	up->armed = false;
	khist_uprobe_unregister(&up->reg, &up->uc);
}

/* The ->reg of the event: the consumer is in while attached anywhere. */
static int khist_up_reg(struct khist_event_def *kdef, bool on)
{
	struct khist_uprobe *up = container_of(kdef, struct khist_uprobe, kdef);
	int ret;

	if (!on) {
		khist_up_disarm(up);
		return 0;
	}
	if (up->armed)
		return 0;
	ret = khist_uprobe_register(&up->reg, d_real_inode(up->path.dentry),
				    up->def->offset, up->def->ref_ctr, &up->uc);
	up->armed = !ret;
	return ret;
}

/* ---- the parser's look-ups --------------------------------------------- */

/* 0 for a regular file, -ENOENT when there is none, -EINVAL otherwise. */
static int khist_up_file(const char *name)
{
	struct path path;
	int ret;

	ret = kern_path(name, LOOKUP_FOLLOW, &path);
	if (ret)
		return -ENOENT;
	ret = d_is_reg(path.dentry) ? 0 : -EINVAL;
	path_put(&path);
	return ret;
}

/* ---- creation and removal ---------------------------------------------- */

static bool khist_up_busy(struct khist_uprobe *up)
{
	struct khist_event *top = up->kdef.ev;

	return top && top->probe_users;
}

static u64 khist_up_charge(const struct khist_ep_def *def)
{
	return sizeof(struct khist_uprobe) +
	       def->nr_args * (sizeof(struct khist_ep_arg) +
			       sizeof(struct khist_field_desc));
}

static void khist_up_free(struct khist_uprobe *up)
{
	if (up->path.dentry)
		path_put(&up->path);
	khist_ep_def_free(up->def);
	free_percpu(up->nhit);
	kfree(up->descs);
	kfree(up->kdef.print_fmt);
	kfree(up);
}

/* Take a probe out of khist and free it. Mutex held, not busy. */
static void khist_up_destroy(struct khist_uprobe *up)
{
	/* Attached only at module exit; no handler runs after this. */
	khist_up_disarm(up);
	khist_event_unregister_locked(&up->kdef);
	khist_dynevent_del(&up->dyn);
	khist_mem_uncharge(khist_up_charge(up->def));
	khist_up_free(up);
}

/* Make the parsed probe an event of khist. Mutex held. */
static int khist_up_register(struct khist_ep_cmd *cmd)
{
	struct khist_ep_def *def = cmd->def;
	unsigned int nf = khist_ep_nr_fields(def);
	struct khist_uprobe *up;
	char *fmt;
	int ret, len;

	ret = khist_mem_charge(khist_up_charge(def));
	if (ret)
		return ret;
	up = khist_kzalloc(sizeof(*up), GFP_KERNEL);
	if (!up) {
		khist_mem_uncharge(khist_up_charge(def));
		return -ENOMEM;
	}
	up->nhit = alloc_percpu(unsigned long);
	up->descs = khist_kcalloc(nf, sizeof(*up->descs), GFP_KERNEL);
	len = khist_ep_print_fmt(def, NULL, 0);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	up->kdef.print_fmt = fmt;
	if (!up->nhit || !up->descs || !fmt) {
		ret = -ENOMEM;
		goto out;
	}
	khist_ep_print_fmt(def, fmt, len + 1);
	khist_ep_fields(def, up->descs);
	/* The file may have gone since the parser looked. */
	ret = kern_path(def->path, LOOKUP_FOLLOW, &up->path);
	if (ret) {
		up->path.dentry = NULL;
		khist_ep_set_error(cmd, KHIST_EPERR_FILE_NOT_FOUND,
				   strcspn(cmd->cmd, " ") + 1);
		goto out;
	}
	if (khist_event_find(def->group, def->event)) {
		khist_ep_set_error(cmd, KHIST_EPERR_EVENT_EXIST, 0);
		ret = -EEXIST;
		goto out;
	}
	if (khist_ep_is_ret(def))
		up->uc.ret_handler = khist_up_ret_handler;
	else
		up->uc.handler = khist_up_handler;
	up->kdef.system = def->group;
	up->kdef.name = def->event;
	up->kdef.fields = up->descs;
	up->kdef.nr_fields = nf;
	up->kdef.rec_size = def->fixed_size;
	up->kdef.print = khist_uprobe_print;
	up->kdef.reg = khist_up_reg;
	up->kdef.flags = KHIST_EVF_ARRAY_NOLEN;
	up->def = def;
	ret = khist_event_register_locked(&up->kdef);
	if (ret) {
		up->def = NULL;
		if (ret == -EEXIST)
			khist_ep_set_error(cmd, KHIST_EPERR_EVENT_EXIST, 0);
		goto out;
	}
	cmd->def = NULL;
	khist_dynevent_add(&up->dyn, &khist_up_dyn_ops);
	return 0;

out:
	khist_mem_uncharge(khist_up_charge(def));
	khist_up_free(up);
	return ret;
}

/* The ->create() of uprobes: one p: or r: line with PATH:OFFSET. */
static int khist_up_create(const char *line)
{
	struct khist_ep_finder finder = {
		.reg = khist_kp_reg_offset,
		.file = khist_up_file,
	};
	struct khist_ep_cmd cmd;
	unsigned int i;
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = khist_up_parse(line, &finder, &cmd);
	if (!ret)
		ret = khist_up_register(&cmd);
	mutex_unlock(&khist_event_mutex);
	for (i = 0; i < cmd.nr_err; i++)
		khist_error_report(NULL, "trace_uprobe",
				   khist_ep_err_text(cmd.err[i]), cmd.cmd,
				   cmd.pos[i]);
	khist_ep_cmd_release(&cmd);
	return ret;
}

static int khist_up_dyn_print(const struct khist_dynevent *d, char *buf,
			      size_t size)
{
	return khist_ep_show(container_of(d, struct khist_uprobe, dyn)->def,
			     buf, size);
}

static bool khist_up_dyn_is_busy(struct khist_dynevent *d)
{
	return khist_up_busy(to_up(d));
}

static void khist_up_dyn_free(struct khist_dynevent *d)
{
	khist_up_destroy(to_up(d));
}

static bool khist_up_dyn_match(const char *system, const char *event, int argc,
			       const char **argv, struct khist_dynevent *d)
{
	return khist_ep_match(to_up(d)->def, system, event, argc, argv);
}

static struct khist_dynevent_ops khist_up_dyn_ops = {
	.create = khist_up_create,
	.print = khist_up_dyn_print,
	.prefix = "",
	.is_busy = khist_up_dyn_is_busy,
	.free = khist_up_dyn_free,
	.match = khist_up_dyn_match,
};

/* ---- `uprobe_events` and `uprobe_profile` ------------------------------ */

/**
 * khist_uprobe_command() - one line written to `uprobe_events`
 * @line: the line, newline and comment removed
 *
 * "-:[group/]event" removes uprobes only; anything else must be a p: or
 * r: line with PATH:OFFSET.
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_uprobe_command(const char *line)
{
	int ret;

	line = skip_spaces(line);
	if (!line[0])
		return 0;
	if (line[0] == '-')
		return khist_dynevent_remove_kind(line, &khist_up_dyn_ops);
	ret = khist_up_create(line);
	return ret == -ECANCELED ? -EINVAL : ret;
}

/**
 * khist_uprobe_show() - the lines of every uprobe, as `uprobe_events`
 * lists them
 * @m: the seq_file
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0 or -ENOMEM.
 */
int khist_uprobe_show(struct seq_file *m)
{
	return khist_dynevent_show_kind(m, &khist_up_dyn_ops);
}

/**
 * khist_uprobe_clear() - remove every uprobe (`uprobe_events` opened with
 * O_TRUNC); none when one is in use
 *
 * Context: process context.
 * Return: 0 or -EBUSY.
 */
int khist_uprobe_clear(void)
{
	return khist_dynevent_release_all(&khist_up_dyn_ops);
}

/**
 * khist_uprobe_profile_show() - `uprobe_profile`: each probe's file, name
 * and hits, in ftrace's columns
 * @m: the seq_file
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0.
 */
int khist_uprobe_profile_show(struct seq_file *m)
{
	struct khist_dynevent *d;
	struct khist_uprobe *up;
	unsigned long hits;
	int cpu;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(d, &khist_dynevent_list, list) {
		if (d->ops != &khist_up_dyn_ops)
			continue;
		up = to_up(d);
		hits = 0;
		for_each_possible_cpu(cpu)
			hits += *per_cpu_ptr(up->nhit, cpu);
		seq_printf(m, "  %s %-44s %15lu\n", up->def->path,
			   up->def->event, hits);
	}
	mutex_unlock(&khist_event_mutex);
	return 0;
}

/**
 * khist_uprobe_init() - let `dynamic_events` take p: and r: lines with
 * PATH:OFFSET
 *
 * Context: process context, module init, after the kprobes (whose parser
 * passes these lines on).
 */
void khist_uprobe_init(void)
{
	khist_dynevent_ops_register(&khist_up_dyn_ops);
}

/**
 * khist_uprobe_exit() - remove every uprobe, attached or not
 *
 * Each is disarmed (which waits for the handlers that are running) before
 * its event and memory go.
 *
 * Context: process context, module exit, before the instances go and
 * after the event probes.
 */
void khist_uprobe_exit(void)
{
	struct khist_dynevent *d, *tmp;

	khist_dynevent_ops_unregister(&khist_up_dyn_ops);
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(d, tmp, &khist_dynevent_list, list)
		if (d->ops == &khist_up_dyn_ops)
			khist_up_destroy(to_up(d));
	mutex_unlock(&khist_event_mutex);
}
