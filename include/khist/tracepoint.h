/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist/tracepoint.h - include this at the top of an event header.
 *
 * An event header describes events with KHIST_TRACE_EVENT(),
 * KHIST_DECLARE_EVENT_CLASS() and KHIST_DEFINE_EVENT(), and ends with
 * #include <khist/define_event.h>. Read normally it declares, for each
 * event, its definition khist_event_<name> and khist_trace_<name>(proto),
 * which fires the event from the module's code. Read by define_event.h
 * (in the one .c file that defines KHIST_CREATE_EVENTS first) it yields
 * the record struct, the field table, the probe, the print function, the
 * "print fmt" text and the definitions. Documentation/events.rst has a
 * complete example.
 */
#ifndef _KHIST_TRACEPOINT_H
#define _KHIST_TRACEPOINT_H

#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <khist/event.h>

#ifndef TP_PROTO
#define TP_PROTO(args...) args
#endif
#ifndef TP_ARGS
#define TP_ARGS(args...) args
#endif
#define KHIST_PARAMS(args...) args

/* One event with its own class. */
#define KHIST_TRACE_EVENT(name, proto, args, tstruct, assign, print)         \
	KHIST_DECLARE_EVENT_CLASS(name, KHIST_PARAMS(proto),                 \
				  KHIST_PARAMS(args), KHIST_PARAMS(tstruct), \
				  KHIST_PARAMS(assign), KHIST_PARAMS(print)) \
	KHIST_DEFINE_EVENT(name, name, KHIST_PARAMS(proto), KHIST_PARAMS(args))

/* Helpers the generated probes use. */
static inline const char *khist_str_or_null(const char *s)
{
	return s ? s : "(null)";
}

static inline u32 khist_dyn_take(unsigned int *dsize, unsigned int len)
{
	u32 loc = *dsize | (len << 16);

	*dsize += len;
	return loc;
}

#include <khist/stages/stage0_decl.h>

#endif /* _KHIST_TRACEPOINT_H */
