// SPDX-License-Identifier: GPL-2.0
/*
 * stack.c - the records of the stacktrace trigger: the ftrace/kernel_stack
 * event (ftrace's layout and id), written into the instance's buffer and
 * shown in `trace` as ftrace's "<stack trace>" block, one " => symbol"
 * line per frame.
 *
 * The stack is captured in a per-CPU scratch area (one slot per nesting
 * level, nothing allocated, any context) and starts at the code that hit
 * the event: khist's own frames are dropped, and so is the tracepoint's
 * iterator when the tracepoint has several probes. ftrace drops a fixed
 * number of its own frames instead, so its first line is its probe,
 * trace_event_raw_event_<event>.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include "khist.h"
#include "events/events.h"
#include "ringbuf/ringbuf.h"
#include "triggers.h"

/* Frames kept, and khist's own frames captured on top of them. */
#define KHIST_KSTACK_FRAMES 64
#define KHIST_KSTACK_OWN 16
#define KHIST_KSTACK_LEVELS 4
/* The format's caller[8]: shorter stacks are padded to it. */
#define KHIST_KSTACK_MIN 8

/**
 * struct khist_kstack_rec - a kernel_stack record
 * @hdr:    the common header
 * @size:   frames in @caller
 * @caller: return addresses, innermost first
 */
struct khist_kstack_rec {
	struct khist_common_hdr hdr;
	int size;
	unsigned long caller[];
};

/**
 * struct khist_kstack_scratch - one CPU's capture area
 * @level: slots in use
 * @calls: one slot per nesting level (task, softirq, irq, NMI)
 */
struct khist_kstack_scratch {
	int level;
	unsigned long calls[KHIST_KSTACK_LEVELS]
			   [KHIST_KSTACK_FRAMES + KHIST_KSTACK_OWN];
};

static struct khist_kstack_scratch __percpu *khist_kstack_scratch;

static const struct khist_field_desc khist_kstack_fields[] = {
	{ "size", "int", 8, 4, 1, KHIST_FK_INT, 4 },
	{ "caller", "unsigned long[8]", 16, 64, 0, KHIST_FK_ARRAY, 8 },
};

/* A frame as ftrace names it: the bare symbol, "0" for a null address. */
static void khist_kstack_sym(char *sym, unsigned long ip)
{
	char *sp;

	if (!ip) {
		strscpy(sym, "0", KSYM_SYMBOL_LEN);
		return;
	}
	sprint_symbol_no_offset(sym, ip);
	/* ftrace shows no " [module]" suffix. */
	sp = strchr(sym, ' ');
	if (sp)
		*sp = '\0';
}

static void khist_kstack_print(struct khist_print_ctx *p)
{
	const struct khist_kstack_rec *r = p->rec;
	char sym[KSYM_SYMBOL_LEN];
	unsigned int n, i;
	bool first = true;

	n = (p->size - offsetof(struct khist_kstack_rec, caller)) /
	    sizeof(long);
	if (r->size >= 0 && r->size < n)
		n = r->size;
	khist_out_printf(p->out, "<stack trace>");
	for (i = 0; i < n && r->caller[i] != ULONG_MAX; i++) {
		khist_kstack_sym(sym, r->caller[i]);
		/* The iterator that called khist's probe, if any. */
		if (first && str_has_prefix(sym, "__traceiter_"))
			continue;
		first = false;
		khist_out_printf(p->out, "\n => %s", sym);
	}
}

static int khist_kstack_reg(struct khist_event_def *def, bool on)
{
	return 0;
}

/*
 * ftrace's print fmt: eight "\t=> %ps\n" in three strings (3, 3 and 2 of
 * them), then caller[0] to caller[7]. Built once at init.
 */
static char khist_kstack_fmt[384];

static void khist_kstack_fmt_build(void)
{
	static const unsigned int per_string[] = { 3, 3, 2 };
	size_t n = sizeof(khist_kstack_fmt), len = 0;
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(per_string); i++) {
		len += scnprintf(khist_kstack_fmt + len, n - len, "%s\"",
				 i ? " " : "");
		for (k = 0; k < per_string[i]; k++)
			len += scnprintf(khist_kstack_fmt + len, n - len,
					 "\\t=> %%ps\\n");
		len += scnprintf(khist_kstack_fmt + len, n - len, "\"");
	}
	for (i = 0; i < KHIST_KSTACK_MIN; i++)
		len += scnprintf(khist_kstack_fmt + len, n - len,
				 ", (void *)REC->caller[%u]", i);
}

static struct khist_event_def khist_kstack_def = {
	.system = "ftrace",
	.name = "kernel_stack",
	.fields = khist_kstack_fields,
	.nr_fields = ARRAY_SIZE(khist_kstack_fields),
	.rec_size = 16 + KHIST_KSTACK_MIN * sizeof(long),
	.print_fmt = khist_kstack_fmt,
	.print = khist_kstack_print,
	.reg = khist_kstack_reg,
	.fixed_id = 4,
	.flags = KHIST_EVF_IGNORE_ENABLE | KHIST_EVF_NO_NAME,
};

static struct khist_event_def *const khist_kstack_defs[] = {
	&khist_kstack_def,
};

/**
 * khist_kstack_event() - an instance's ftrace/kernel_stack event
 * @inst: the instance
 *
 * Context: process context, khist_event_mutex held.
 * Return: the event (not referenced), or NULL.
 */
struct khist_event *khist_kstack_event(struct khist_instance *inst)
{
	return khist_event_find_in(inst, khist_kstack_def.system,
				   khist_kstack_def.name);
}

/**
 * khist_kstack_write() - record the current stack into an instance
 * @kev: the instance's kernel_stack event
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_kstack_write(struct khist_event *kev)
{
	struct khist_kstack_rec *r;
	struct khist_rec_ctx ctx;
	unsigned long *calls;
	unsigned int n, own, keep, slots;
	int level;

	level = this_cpu_inc_return(khist_kstack_scratch->level) - 1;
	if (level >= KHIST_KSTACK_LEVELS || !READ_ONCE(kev->def))
		goto out;
	calls = this_cpu_ptr(khist_kstack_scratch)->calls[level];
	n = stack_trace_save(calls, KHIST_KSTACK_FRAMES + KHIST_KSTACK_OWN, 0);
	for (own = 0; own < n && within_module(calls[own], THIS_MODULE); own++)
		;
	keep = min_t(unsigned int, n - own, KHIST_KSTACK_FRAMES);
	slots = max_t(unsigned int, keep, KHIST_KSTACK_MIN);
	r = khist_rec_reserve_ev(&ctx, kev, struct_size(r, caller, slots));
	if (!r)
		goto out;
	r->size = keep;
	memcpy(r->caller, calls + own, keep * sizeof(long));
	memset(r->caller + keep, 0, (slots - keep) * sizeof(long));
	khist_rec_commit_quiet(&ctx);
out:
	this_cpu_dec(khist_kstack_scratch->level);
}

/**
 * khist_kstack_init() - register ftrace/kernel_stack
 *
 * Context: process context, module init, after the top instance exists.
 * Return: 0 or -errno.
 */
int khist_kstack_init(void)
{
	int ret;

	khist_kstack_fmt_build();
	khist_kstack_scratch = alloc_percpu(struct khist_kstack_scratch);
	if (!khist_kstack_scratch)
		return -ENOMEM;
	ret = khist_events_register(khist_kstack_defs,
				    ARRAY_SIZE(khist_kstack_defs));
	if (ret) {
		free_percpu(khist_kstack_scratch);
		khist_kstack_scratch = NULL;
	}
	return ret;
}

/**
 * khist_kstack_exit() - unregister it; no stacktrace trigger is left
 *
 * Context: process context, module exit.
 */
void khist_kstack_exit(void)
{
	khist_events_unregister(khist_kstack_defs,
				ARRAY_SIZE(khist_kstack_defs));
	free_percpu(khist_kstack_scratch);
	khist_kstack_scratch = NULL;
}
