// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - an event probe's records in `trace`, as ftrace shows them:
 *
 *     <name>: (<system>.<event>) arg=value arg=value ...
 *
 * Each value in its type's conversion (decimal, signed, 0x hex, 'c',
 * symbol+offset/size, "string" or (fault)), arrays as {v,v,...}.
 */
#include "events/events.h"
#include "eprobe.h"
#include "buffer/buffer.h"

/*
 * A symstr of an address that is no symbol holds "0x<address>": a reader
 * without CAP_SYSLOG gets the hashed %p form of it.
 */
static void ep_print_str(struct khist_print_ctx *p,
			 const struct khist_ep_arg *a, const char *s)
{
	unsigned long long addr;

	if (!p->out->kaddr && !strcmp(a->type->name, "symstr") && s[0] == '0' &&
	    s[1] == 'x' && !kstrtoull(s + 2, 16, &addr)) {
		khist_out_printf(p->out, "\"%p\"", (void *)(uintptr_t)addr);
		return;
	}
	khist_out_printf(p->out, "\"%s\"", s);
}

static void ep_print_elem(struct khist_print_ctx *p,
			  const struct khist_ep_arg *a, const void *v)
{
	unsigned int size = a->type->size;
	u64 u = 0;
	s64 s;
	u32 loc;

	memcpy(&u, v, size);
	switch (a->type->print) {
	case KHIST_EPP_UNSIGNED:
		khist_out_printf(p->out, "%llu", u);
		break;
	case KHIST_EPP_SIGNED:
		s = size < 8 ? (s64)(u << (64 - size * 8)) >> (64 - size * 8) :
			       (s64)u;
		khist_out_printf(p->out, "%lld", s);
		break;
	case KHIST_EPP_HEX:
		if (khist_kaddr_hide(p->out->kaddr, u))
			khist_out_printf(p->out, "%p", (void *)(uintptr_t)u);
		else
			khist_out_printf(p->out, "0x%llx", u);
		break;
	case KHIST_EPP_CHAR:
		khist_out_printf(p->out, "'%c'", (char)u);
		break;
	case KHIST_EPP_SYMBOL:
		khist_out_printf(p->out, "%pS", (void *)(unsigned long)u);
		break;
	default:
		loc = u;
		if (!(loc >> 16))
			khist_out_printf(p->out, "(fault)");
		else
			ep_print_str(p, a, khist_rec_dynstr(p, loc));
		break;
	}
}

/**
 * khist_ep_print_args() - the " name=value" list of a probe's record
 * @p:   the record and where the text goes
 * @def: the probe's definition
 *
 * Context: process context, reading `trace`.
 */
void khist_ep_print_args(struct khist_print_ctx *p,
			 const struct khist_ep_def *def)
{
	const struct khist_ep_arg *a;
	unsigned int i, k, n;

	for (i = 0; i < def->nr_args; i++) {
		a = &def->args[i];
		n = a->count ? a->count : 1;
		if (a->offset + n * a->type->size > p->size)
			return;
		khist_out_printf(p->out, " %s=%s", a->name,
				 a->count ? "{" : "");
		for (k = 0; k < n; k++) {
			ep_print_elem(p, a,
				      p->rec + a->offset + k * a->type->size);
			if (a->count)
				khist_out_printf(p->out, "%s",
						 k + 1 < n ? "," : "}");
		}
	}
}

/**
 * khist_ep_print() - the text of an event probe's record (the @print of
 * its definition)
 * @p: the record and where the text goes
 *
 * Context: process context, reading `trace` (RCU read section or
 * khist_event_mutex: the probe cannot be freed meanwhile).
 */
void khist_ep_print(struct khist_print_ctx *p)
{
	const struct khist_common_hdr *hdr = p->rec;
	const struct khist_ep_def *def;
	struct khist_event *ev;

	ev = khist_event_by_id(hdr->type);
	if (!ev || !ev->def || ev->def->print != khist_ep_print)
		return;
	def = container_of(ev->def, struct khist_eprobe, kdef)->def;
	khist_out_printf(p->out, "(%s.%s)", def->system, def->target);
	khist_ep_print_args(p, def);
}
