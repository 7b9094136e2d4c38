// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe.c - kprobes and kretprobes as khist events: a p: or r: line of
 * `dynamic_events` or `kprobe_events` (parsed by core/eprobe_parse.c, the
 * fetch-argument compiler event probes use too) makes one, "-:" removes
 * it, both files list it and `kprobe_profile` counts its hits.
 *
 * The kernel's kprobe is registered when the line is accepted, disarmed
 * (so that the kernel's refusals - its blacklist, a bad address - are
 * reported at once, with ftrace's error_log text), and armed while the
 * event is attached in any instance. Each hit builds one record from the
 * registers (fetch.c), which khist hands to every instance where the
 * event is attached. A probe in khist itself is refused: its handler
 * would run khist's record path from inside khist.
 *
 * The handlers run in the probed context (any, NMI included, preemption
 * disabled); they neither allocate nor lock. The kprobe is unregistered,
 * which waits for running handlers, before its memory goes.
 *
 * Locking: everything but the handlers runs under khist_event_mutex.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "base/instance.h"
#include "events/events.h"
#include "mem/mem.h"
#include "eprobe.h"

/**
 * struct khist_kprobe - one kprobe or kretprobe event
 * @kdef:   its khist event definition (registered while it exists)
 * @dyn:    its entry in the dynamic events list
 * @def:    the parsed line: place, names, arguments, layout
 * @descs:  the fields of its records (for format, filters, hists)
 * @rp:     the kernel's probe (@rp.kp alone for a kprobe)
 * @nhit:   hits, per CPU
 * @ret:    a kretprobe
 * @live:   @rp is registered
 */
struct khist_kprobe {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_ep_def *def;
	struct khist_field_desc *descs;
	struct kretprobe rp;
	unsigned long __percpu *nhit;
	bool ret;
	bool live;
};

static struct khist_dynevent_ops khist_kp_dyn_ops;

static struct khist_kprobe *to_kp(struct khist_dynevent *d)
{
	return container_of(d, struct khist_kprobe, dyn);
}

/* ---- the handlers ------------------------------------------------------ */

static int khist_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct khist_kprobe *kp = container_of(p, struct khist_kprobe, rp.kp);
	struct khist_ep_from s = { .regs = regs };
	unsigned long ip = (unsigned long)p->addr;

	this_cpu_inc(*kp->nhit);
	if (khist_rec_counted(&kp->kdef))
		return 0;
	khist_ep_build(kp->def, &kp->kdef, NULL, &s, &ip);
	return 0;
}

/* Entry of a kretprobe whose arguments use $argN: save them. */
static int khist_kp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct khist_kprobe *kp =
		container_of(get_kretprobe(ri), struct khist_kprobe, rp);
	unsigned long *save = (unsigned long *)ri->data;
	unsigned int i;

	for (i = 0; i < kp->def->nr_entry; i++)
		save[i] = regs_get_kernel_argument(regs, kp->def->entry[i]);
	return 0;
}

static int khist_kp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct khist_kprobe *kp;
	struct khist_ep_from s = { .regs = regs };
	unsigned long hdr[2];

	if (unlikely(!rp))
		return 0;
	kp = container_of(rp, struct khist_kprobe, rp);
	this_cpu_inc(*kp->nhit);
	if (khist_rec_counted(&kp->kdef))
		return 0;
	if (kp->def->nr_entry)
		s.edata = (const unsigned long *)ri->data;
	hdr[0] = (unsigned long)rp->kp.addr;
	hdr[1] = get_kretprobe_retaddr(ri);
	khist_ep_build(kp->def, &kp->kdef, NULL, &s, hdr);
	return 0;
}

/* ---- `trace` ----------------------------------------------------------- */

/**
 * khist_kprobe_print() - the text of a kprobe's record, as ftrace shows
 * it: "(sym+off/size) args" or "(ret+off/size <- func) args"
 * @p: the record and where the text goes
 *
 * Context: process context, reading `trace` (RCU read section or
 * khist_event_mutex: the probe cannot be freed meanwhile).
 */
void khist_kprobe_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	const struct khist_ep_def *def;
	struct khist_event *ev;
	unsigned long a[2];

	ev = khist_event_by_id(hdr->type);
	if (!ev || !ev->def || ev->def->print != khist_kprobe_print)
		return;
	def = container_of(ev->def, struct khist_kprobe, kdef)->def;
	if (p->size < def->hdr_size)
		return;
	memcpy(a, p->rec + KHIST_EP_HDR_SIZE,
	       def->hdr_size - KHIST_EP_HDR_SIZE);
	if (def->kind == KHIST_EPK_KRETPROBE)
		khist_out_printf(p->out, "(%pS <- %ps)", (void *)a[1],
				 (void *)a[0]);
	else
		khist_out_printf(p->out, "(%pS)", (void *)a[0]);
	khist_ep_print_args(p, def);
}

/* ---- arming ------------------------------------------------------------ */

/* The ->reg of the event: arm the probe while it is attached anywhere. */
static int khist_kp_reg(struct khist_event_def *kdef, bool on)
{
	struct khist_kprobe *kp = container_of(kdef, struct khist_kprobe, kdef);

	if (!kp->live)
		return on ? -ENODEV : 0;
	if (on)
		return enable_kprobe(&kp->rp.kp);
	return disable_kprobe(&kp->rp.kp);
}

/* ---- the parser's look-ups --------------------------------------------- */

struct khist_kp_regname {
	const char *name;
	unsigned int offset;
};

#define KP_REG(r)                               \
	{                                       \
#r, offsetof(struct pt_regs, r) \
	}

/* x86_64's names, as the kernel's probes take them. */
static const struct khist_kp_regname khist_kp_regs[] = {
#ifdef CONFIG_X86_64
	KP_REG(r15),	 KP_REG(r14), KP_REG(r13), KP_REG(r12),	  KP_REG(r11),
	KP_REG(r10),	 KP_REG(r9),  KP_REG(r8),  KP_REG(bx),	  KP_REG(cx),
	KP_REG(dx),	 KP_REG(si),  KP_REG(di),  KP_REG(bp),	  KP_REG(ax),
	KP_REG(orig_ax), KP_REG(ip),  KP_REG(cs),  KP_REG(flags), KP_REG(sp),
	KP_REG(ss),
#endif
};

/**
 * khist_kp_reg_offset() - where a register is in the saved registers
 * @name: its name as probes write it after '%' ("di", "ax", ...)
 *
 * Kprobes and uprobes take the same names.
 *
 * Context: any.
 * Return: its byte offset in struct pt_regs, or -ENOENT.
 */
int khist_kp_reg_offset(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_kp_regs); i++)
		if (!strcmp(khist_kp_regs[i].name, name))
			return khist_kp_regs[i].offset;
	return -ENOENT;
}

/*
 * The address of a kernel symbol, without kallsyms_lookup_name() (not
 * exported): the kprobe core resolves a symbol when a probe is registered
 * and leaves the address in the probe, even when it then refuses the
 * place (data). The probe is registered disarmed and taken off at once.
 */
/* The look-up's probe and buffers, off the stack. */
struct khist_kp_lookup {
	struct kprobe p;
	char name[KSYM_NAME_LEN];
	char buf[KSYM_SYMBOL_LEN];
};

static int khist_kp_symbol(const char *text, u64 *addr)
{
	struct khist_kp_lookup *w;
	size_t len = strcspn(text, "+-");
	unsigned long start, in;
	long offs = 0;
	char *plus;
	int ret;

	if (!len || len >= sizeof(w->name))
		return -ENOENT;
	if (text[len] && kstrtol(text + len, 0, &offs))
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	memcpy(w->name, text, len);
	w->p.symbol_name = w->name;
	w->p.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&w->p);
	if (!ret)
		unregister_kprobe(&w->p);
	start = (unsigned long)w->p.addr;
	ret = -ENOENT;
	if (start) {
		/*
		 * With IBT, the kprobe core moves a probe past the function's
		 * endbr: step back to the symbol's start.
		 */
		sprint_symbol(w->buf, start);
		plus = strstr(w->buf, "+0x");
		if (plus) {
			plus[strcspn(plus, "/")] = '\0';
			if (!kstrtoul(plus + 3, 16, &in))
				start -= in;
		}
		*addr = start + offs;
		ret = 0;
	}
	kfree(w);
	return ret;
}

/* ---- creation and removal ---------------------------------------------- */

static bool khist_kp_busy(struct khist_kprobe *kp)
{
	struct khist_event *top = kp->kdef.ev;

	return top && top->probe_users;
}

static u64 khist_kp_charge(const struct khist_ep_def *def)
{
	return sizeof(struct khist_kprobe) +
	       def->nr_args * (sizeof(struct khist_ep_arg) +
			       sizeof(struct khist_field_desc));
}

static void khist_kp_free(struct khist_kprobe *kp)
{
	khist_ep_def_free(kp->def);
	free_percpu(kp->nhit);
	kfree(kp->descs);
	kfree(kp->kdef.print_fmt);
	kfree(kp);
}

/* Waits for the handlers that are running. */
static void khist_kp_unregister(struct khist_kprobe *kp)
{
	if (!kp->live)
		return;
	kp->live = false;
	if (kp->ret)
		unregister_kretprobe(&kp->rp);
	else
		unregister_kprobe(&kp->rp.kp);
}

/* Take a probe out of khist and free it. Mutex held, not busy. */
static void khist_kp_destroy(struct khist_kprobe *kp)
{
	/* No handler runs (nor touches the event) after this. */
	khist_kp_unregister(kp);
	khist_event_unregister_locked(&kp->kdef);
	khist_dynevent_del(&kp->dyn);
	khist_mem_uncharge(khist_kp_charge(kp->def));
	khist_kp_free(kp);
}

/* The kernel's probe, disarmed; the errors the kernel's parser logs. */
static int khist_kp_arm_setup(struct khist_kprobe *kp, struct khist_ep_cmd *cmd)
{
	const struct khist_ep_def *def = cmd->def;
	struct kprobe *p = &kp->rp.kp;
	unsigned int pos = strcspn(cmd->cmd, " ") + 1;
	int ret;

	if (def->symbol) {
		p->symbol_name = def->symbol;
		p->offset = def->offset;
	} else {
		p->addr = (kprobe_opcode_t *)(unsigned long)def->addr;
	}
	p->flags = KPROBE_FLAG_DISABLED;
	kp->ret = def->kind == KHIST_EPK_KRETPROBE;
	if (kp->ret) {
		kp->rp.handler = khist_kp_ret;
		kp->rp.maxactive = def->maxactive;
		if (def->nr_entry) {
			kp->rp.entry_handler = khist_kp_entry;
			kp->rp.data_size = def->nr_entry * sizeof(long);
		}
		ret = register_kretprobe(&kp->rp);
	} else {
		p->pre_handler = khist_kp_pre;
		ret = register_kprobe(p);
	}
	kp->live = !ret;
	if (!ret && within_module((unsigned long)p->addr, THIS_MODULE)) {
		/* khist's own code: its handler would recurse. */
		khist_kp_unregister(kp);
		ret = -EINVAL;
	}
	if (ret == -EILSEQ)
		khist_ep_set_error(cmd, KHIST_EPERR_BAD_INSN_BNDRY, pos);
	else if (ret == -ENOENT)
		khist_ep_set_error(cmd, KHIST_EPERR_BAD_PROBE_ADDR, pos);
	/* The kernel's parser refuses an unknown symbol (-EINVAL) first. */
	if (ret == -ENOENT && def->symbol)
		ret = -EINVAL;
	else if (ret && ret != -ENOMEM && ret != -EEXIST)
		khist_ep_set_error(cmd, KHIST_EPERR_FAIL_REG_PROBE, pos);
	return ret;
}

/* Make the parsed probe an event of khist. Mutex held. */
static int khist_kp_register(struct khist_ep_cmd *cmd)
{
	struct khist_ep_def *def = cmd->def;
	unsigned int nf = khist_ep_nr_fields(def);
	struct khist_kprobe *kp;
	char *fmt;
	int ret, len;

	ret = khist_mem_charge(khist_kp_charge(def));
	if (ret)
		return ret;
	kp = khist_kzalloc(sizeof(*kp), GFP_KERNEL);
	if (!kp) {
		khist_mem_uncharge(khist_kp_charge(def));
		return -ENOMEM;
	}
	kp->nhit = alloc_percpu(unsigned long);
	kp->descs = khist_kcalloc(nf, sizeof(*kp->descs), GFP_KERNEL);
	len = khist_ep_print_fmt(def, NULL, 0);
	fmt = khist_kmalloc(len + 1, GFP_KERNEL);
	kp->kdef.print_fmt = fmt;
	if (!kp->nhit || !kp->descs || !fmt) {
		ret = -ENOMEM;
		goto out;
	}
	khist_ep_print_fmt(def, fmt, len + 1);
	khist_ep_fields(def, kp->descs);
	/* The kernel checks the place first. */
	ret = khist_kp_arm_setup(kp, cmd);
	if (ret)
		goto out;
	if (khist_event_find(def->group, def->event)) {
		khist_kp_unregister(kp);
		khist_ep_set_error(cmd, KHIST_EPERR_EVENT_EXIST, 0);
		ret = -EEXIST;
		goto out;
	}
	/* Listed with the kernel's default when none was given. */
	if (kp->ret)
		def->maxactive = kp->rp.maxactive;
	kp->kdef.system = def->group;
	kp->kdef.name = def->event;
	kp->kdef.fields = kp->descs;
	kp->kdef.nr_fields = nf;
	kp->kdef.rec_size = def->fixed_size;
	kp->kdef.print = khist_kprobe_print;
	kp->kdef.reg = khist_kp_reg;
	kp->kdef.flags = KHIST_EVF_ARRAY_NOLEN;
	kp->def = def;
	ret = khist_event_register_locked(&kp->kdef);
	if (ret) {
		kp->def = NULL;
		khist_kp_unregister(kp);
		if (ret == -EEXIST)
			khist_ep_set_error(cmd, KHIST_EPERR_EVENT_EXIST, 0);
		goto out;
	}
	cmd->def = NULL;
	khist_dynevent_add(&kp->dyn, &khist_kp_dyn_ops);
	return 0;

out:
	khist_mem_uncharge(khist_kp_charge(def));
	khist_kp_free(kp);
	return ret;
}

/* The ->create() of kprobes: one p: or r: line. */
static int khist_kp_create(const char *line)
{
	struct khist_ep_finder finder = {
		.reg = khist_kp_reg_offset,
		.symbol = khist_kp_symbol,
	};
	struct khist_ep_cmd cmd;
	unsigned int i;
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = khist_kp_parse(line, &finder, &cmd);
	if (!ret)
		ret = khist_kp_register(&cmd);
	mutex_unlock(&khist_event_mutex);
	for (i = 0; i < cmd.nr_err; i++)
		khist_error_report(NULL, "trace_kprobe",
				   khist_ep_err_text(cmd.err[i]), cmd.cmd,
				   cmd.pos[i]);
	khist_ep_cmd_release(&cmd);
	return ret;
}

static int khist_kp_dyn_print(const struct khist_dynevent *d, char *buf,
			      size_t size)
{
	return khist_ep_show(container_of(d, struct khist_kprobe, dyn)->def,
			     buf, size);
}

static bool khist_kp_dyn_is_busy(struct khist_dynevent *d)
{
	return khist_kp_busy(to_kp(d));
}

static void khist_kp_dyn_free(struct khist_dynevent *d)
{
	khist_kp_destroy(to_kp(d));
}

static bool khist_kp_dyn_match(const char *system, const char *event, int argc,
			       const char **argv, struct khist_dynevent *d)
{
	return khist_ep_match(to_kp(d)->def, system, event, argc, argv);
}

static struct khist_dynevent_ops khist_kp_dyn_ops = {
	.create = khist_kp_create,
	.print = khist_kp_dyn_print,
	.prefix = "",
	.is_busy = khist_kp_dyn_is_busy,
	.free = khist_kp_dyn_free,
	.match = khist_kp_dyn_match,
};

/* ---- `kprobe_events` and `kprobe_profile` ------------------------------ */

/**
 * khist_kprobe_command() - one line written to `kprobe_events`
 * @line: the line, newline and comment removed
 *
 * "-:[group/]event" removes kprobes only; anything else must be a p: or
 * r: line.
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_kprobe_command(const char *line)
{
	int ret;

	line = skip_spaces(line);
	if (!line[0])
		return 0;
	if (line[0] == '-')
		return khist_dynevent_remove_kind(line, &khist_kp_dyn_ops);
	ret = khist_kp_create(line);
	return ret == -ECANCELED ? -EINVAL : ret;
}

/**
 * khist_kprobe_show() - the lines of every kprobe, as `kprobe_events`
 * lists them
 * @m: the seq_file
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0 or -ENOMEM.
 */
int khist_kprobe_show(struct seq_file *m)
{
	return khist_dynevent_show_kind(m, &khist_kp_dyn_ops);
}

/**
 * khist_kprobe_clear() - remove every kprobe (`kprobe_events` opened with
 * O_TRUNC); none when one is in use
 *
 * Context: process context.
 * Return: 0 or -EBUSY.
 */
int khist_kprobe_clear(void)
{
	return khist_dynevent_release_all(&khist_kp_dyn_ops);
}

/**
 * khist_kprobe_profile_show() - `kprobe_profile`: each probe's name, hits
 * and misses (the kernel's nmissed), in ftrace's columns
 * @m: the seq_file
 *
 * Context: process context; takes khist_event_mutex.
 * Return: 0.
 */
int khist_kprobe_profile_show(struct seq_file *m)
{
	struct khist_dynevent *d;
	struct khist_kprobe *kp;
	unsigned long hits, missed;
	int cpu;

	mutex_lock(&khist_event_mutex);
	list_for_each_entry(d, &khist_dynevent_list, list) {
		if (d->ops != &khist_kp_dyn_ops)
			continue;
		kp = to_kp(d);
		hits = 0;
		for_each_possible_cpu(cpu)
			hits += *per_cpu_ptr(kp->nhit, cpu);
		missed = kp->rp.kp.nmissed;
		if (kp->ret)
			missed += kp->rp.nmissed;
		seq_printf(m, "  %-44s %15lu %15lu\n", kp->def->event, hits,
			   missed);
	}
	mutex_unlock(&khist_event_mutex);
	return 0;
}

/**
 * khist_kprobe_init() - let `dynamic_events` take p: and r: lines
 *
 * Context: process context, module init, after the synthetic events (which
 * own `dynamic_events`).
 * Return: 0.
 */
int khist_kprobe_init(void)
{
	khist_dynevent_ops_register(&khist_kp_dyn_ops);
	return 0;
}

/**
 * khist_kprobe_exit() - remove every kprobe, attached or not
 *
 * Each is disarmed and unregistered (which waits for the handlers that
 * are running) before its event and memory go.
 *
 * Context: process context, module exit, before the instances go and
 * after the event probes (which may sit on a kprobe's event).
 */
void khist_kprobe_exit(void)
{
	struct khist_dynevent *d, *tmp;

	khist_dynevent_ops_unregister(&khist_kp_dyn_ops);
	mutex_lock(&khist_event_mutex);
	list_for_each_entry_safe(d, tmp, &khist_dynevent_list, list)
		if (d->ops == &khist_kp_dyn_ops)
			khist_kp_destroy(to_kp(d));
	mutex_unlock(&khist_event_mutex);
}
