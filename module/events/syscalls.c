// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls.c - syscalls:sys_enter_<name> / sys_exit_<name> for every
 * system call of the target kernel's table (generated at build time, see
 * tools/tpgen/syscalls.sh), built on the raw sys_enter / sys_exit
 * tracepoints: one shared probe per direction, attached while any of
 * these events is, finds the events of the syscall number it sees by
 * index. Records, format files and output follow ftrace's syscall events:
 * every argument is an unsigned long slot whatever its C type.
 */
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "base/instance.h"
#include "events.h"

#define KHIST_SC_MAXARGS 6

struct khist_sc_enter_rec {
	struct khist_common_hdr ent;
	int nr;
	unsigned long args[];
};

struct khist_sc_exit_rec {
	struct khist_common_hdr ent;
	int nr;
	long ret;
};

/**
 * struct khist_syscall - one traced system call
 * @nr:     its number
 * @name:   "sys_<name>", as the output shows it
 * @nargs:  number of arguments
 * @argn:   argument names
 * @fields: fields of the enter event
 * @nr_fields: entries in @fields
 * @print_fmt: print fmt of the enter event
 * @enter_name: "sys_enter_<name>"
 * @exit_name: "sys_exit_<name>"
 * @enter:  syscalls:sys_enter_<name>
 * @exit:   syscalls:sys_exit_<name>
 */
struct khist_syscall {
	int nr;
	const char *name;
	unsigned int nargs;
	const char *const *argn;
	const struct khist_field_desc *fields;
	unsigned int nr_fields;
	const char *print_fmt;
	const char *enter_name;
	const char *exit_name;
	struct khist_event_def enter;
	struct khist_event_def exit;
};

#define KHIST_SC_NR_FIELD                                       \
	{                                                       \
		"__syscall_nr", "int", 8, 4, 1, KHIST_FK_INT, 4 \
	}
#define KHIST_SC_ARG(name, type, i)                             \
	{                                                       \
		name, type, 16 + 8 * (i), 8, 0, KHIST_FK_INT, 8 \
	}

static const struct khist_field_desc khist_sc_exit_fields[] = {
	KHIST_SC_NR_FIELD,
	{ "ret", "long", 16, 8, 1, KHIST_FK_INT, 8 },
};

static const struct khist_field_desc khist_sc_f_none[] __maybe_unused = {
	KHIST_SC_NR_FIELD,
};

/*
 * The table tools/tpgen/syscalls.sh generates for the target kernel at
 * build time (its syscall numbers, and each one's SYSCALL_DEFINE()
 * argument types and names); without it there are no syscall events.
 */
#ifdef KHIST_HAVE_SC_TABLE
#include "khist_syscalls.h"
#else
#define KHIST_SC_TABLE
#define KHIST_SC_MAX_NR 0
#endif

#define KHIST_SC_ENT(nr_, name_, nargs_, nfields_, fields_, argn_, fmt_) \
	{                                                                \
		.nr = (nr_),                                             \
		.name = "sys_" #name_,                                   \
		.enter_name = "sys_enter_" #name_,                       \
		.exit_name = "sys_exit_" #name_,                         \
		.nargs = (nargs_),                                       \
		.argn = (argn_),                                         \
		.fields = (fields_),                                     \
		.nr_fields = (nfields_),                                 \
		.print_fmt = (fmt_),                                     \
	},
#define KHIST_SC_ENT0(nr_, name_, fmt_)            \
	{                                          \
		.nr = (nr_),                       \
		.name = "sys_" #name_,             \
		.enter_name = "sys_enter_" #name_, \
		.exit_name = "sys_exit_" #name_,   \
		.fields = khist_sc_f_none,         \
		.nr_fields = 1,                    \
		.print_fmt = (fmt_),               \
	},

static void khist_sc_print_exit(struct khist_print_ctx *p);
static int khist_sc_reg(struct khist_event_def *def, bool on);

static struct khist_syscall khist_syscalls[] = { KHIST_SC_TABLE };

/* Each number's entry, for the probes (filled at init). */
static struct khist_syscall *khist_sc_by_nr[KHIST_SC_MAX_NR + 1];

static void khist_sc_print_enter(struct khist_print_ctx *p);

static struct khist_syscall *khist_sc_of(const struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	struct khist_event *ev = khist_event_by_id(hdr->type);

	if (!ev)
		return NULL;
	if (ev->def->print == khist_sc_print_enter)
		return container_of(ev->def, struct khist_syscall, enter);
	return container_of(ev->def, struct khist_syscall, exit);
}

static void khist_sc_print_enter(struct khist_print_ctx *p)
{
	const struct khist_sc_enter_rec *r = p->rec;
	struct khist_syscall *sc = khist_sc_of(p);
	unsigned int i;

	if (!sc)
		return;
	khist_out_printf(p->out, "%s(", sc->name);
	for (i = 0; i < sc->nargs; i++)
		khist_out_printf(p->out, "%s: %lx%s", sc->argn[i], r->args[i],
				 i == sc->nargs - 1 ? "" : ", ");
	khist_out_printf(p->out, ")");
}

static void khist_sc_print_exit(struct khist_print_ctx *p)
{
	const struct khist_sc_exit_rec *r = p->rec;
	struct khist_syscall *sc = khist_sc_of(p);

	if (sc)
		khist_out_printf(p->out, "%s -> 0x%lx", sc->name, r->ret);
}

/* The entry of syscall @nr, or NULL: one load, whatever the table holds. */
static __always_inline struct khist_syscall *khist_sc_nr(long nr)
{
	if ((unsigned long)nr >= ARRAY_SIZE(khist_sc_by_nr))
		return NULL;
	return khist_sc_by_nr[nr];
}

static void khist_sc_enter_probe(void *data, struct pt_regs *regs, long id)
{
	struct khist_sc_enter_rec *r;
	unsigned long args[KHIST_SC_MAXARGS];
	struct khist_rec_ctx ctx;
	struct khist_syscall *sc;

	if (in_compat_syscall())
		return;
	sc = khist_sc_nr(id);
	if (!sc || !READ_ONCE(sc->enter.active))
		return;
	if (khist_rec_counted(&sc->enter))
		return;
	r = khist_rec_reserve(&ctx, &sc->enter, sc->enter.rec_size);
	if (!r)
		return;
	syscall_get_arguments(current, regs, args);
	r->nr = id;
	memcpy(r->args, args, sizeof(args[0]) * sc->nargs);
	khist_rec_commit(&ctx);
}

static void khist_sc_exit_probe(void *data, struct pt_regs *regs, long ret)
{
	struct khist_sc_exit_rec *r;
	struct khist_rec_ctx ctx;
	struct khist_syscall *sc;
	int nr;

	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	sc = khist_sc_nr(nr);
	if (!sc || !READ_ONCE(sc->exit.active))
		return;
	if (khist_rec_counted(&sc->exit))
		return;
	r = khist_rec_reserve(&ctx, &sc->exit, sizeof(*r));
	if (!r)
		return;
	r->nr = nr;
	r->ret = ret;
	khist_rec_commit(&ctx);
}

struct khist_tp_by_name {
	const char *name;
	struct tracepoint *tp;
};

static void khist_sc_tp_match(struct tracepoint *tp, void *priv)
{
	struct khist_tp_by_name *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

/* Users of each shared probe; khist_event_mutex serialises them. */
static unsigned int khist_sc_users[2];

static int khist_sc_reg(struct khist_event_def *def, bool on)
{
	static const char *const tps[2] = { "sys_enter", "sys_exit" };
	void *const probes[2] = { khist_sc_enter_probe, khist_sc_exit_probe };
	struct khist_tp_by_name f = {};
	int dir = !strncmp(def->name, "sys_exit", 8);
	int ret = 0, err;

	lockdep_assert_held(&khist_event_mutex);
	f.name = tps[dir];
	if (on ? khist_sc_users[dir]++ : --khist_sc_users[dir])
		return 0;
	for_each_kernel_tracepoint(khist_sc_tp_match, &f);
	if (!f.tp) {
		ret = -ENOENT;
	} else if (on) {
		ret = tracepoint_probe_register(f.tp, probes[dir], NULL);
	} else {
		err = tracepoint_probe_unregister(f.tp, probes[dir], NULL);
		WARN_ON_ONCE(err);
	}
	if (ret)
		khist_sc_users[dir]--;
	return ret;
}

/**
 * khist_syscall_defs() - the syscall event definitions
 * @defs: filled with up to @max definitions
 * @max:  room in @defs
 *
 * Context: process context, module init (it fills the definitions).
 * Return: how many definitions there are.
 */
unsigned int khist_syscall_defs(struct khist_event_def **defs, unsigned int max)
{
	struct khist_syscall *sc;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(khist_syscalls); i++) {
		sc = &khist_syscalls[i];
		sc->enter = (struct khist_event_def){
			.system = "syscalls",
			.name = sc->enter_name,
			.fields = sc->fields,
			.nr_fields = sc->nr_fields,
			.rec_size = 16 + 8 * sc->nargs,
			.print_fmt = sc->print_fmt,
			.print = khist_sc_print_enter,
			.reg = khist_sc_reg,
			.flags = KHIST_EVF_NO_NAME,
		};
		sc->exit = (struct khist_event_def){
			.system = "syscalls",
			.name = sc->exit_name,
			.fields = khist_sc_exit_fields,
			.nr_fields = ARRAY_SIZE(khist_sc_exit_fields),
			.rec_size = sizeof(struct khist_sc_exit_rec),
			.print_fmt = "\"0x%lx\", REC->ret",
			.print = khist_sc_print_exit,
			.reg = khist_sc_reg,
			.flags = KHIST_EVF_NO_NAME,
		};
		if (sc->nr >= 0 && sc->nr < ARRAY_SIZE(khist_sc_by_nr))
			khist_sc_by_nr[sc->nr] = sc;
		if (n < max)
			defs[n] = &khist_syscalls[i].enter;
		n++;
		if (n < max)
			defs[n] = &khist_syscalls[i].exit;
		n++;
	}
	return n;
}
