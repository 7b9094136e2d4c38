/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the only calls from a lower layer of module/ to a higher one.
 *
 * Every other call goes down (Documentation/design.rst, checked by
 * selftests/layers.sh, which reads the function names of this file). A
 * lower layer reaches a higher one through an ops table or a listener
 * registered at init (struct khist_trigger_type, struct
 * khist_events_listener, struct khist_instance_ops); the calls below are
 * the exceptions, all on the per-hit path of an event:
 *
 *   khist_triggers_call(), khist_triggers_lost()
 *       called by events/record.c, implemented by trigger/engine.c
 *   khist_triggers_fast(), khist_triggers_fast_rec()
 *       called by events/record.c, implemented by hist/hist_run.c (the
 *       counting hist, which the engine reports through its ->counting
 *       type op and the event's @fast pointer)
 *   khist_hist_call()
 *       named by trigger/engine.c as the INDIRECT_CALL_1() target of a
 *       trigger's ->call, implemented by hist/hist_run.c
 *
 * Why direct calls and not ops pointers: each runs on every hit of an
 * event with triggers, in any context (NMI included). An indirect call
 * costs a retpoline on the kernels khist supports, and the per-event
 * figures of Documentation/performance.rst were measured with these
 * direct calls; the kernel's own record path does the same
 * (event_triggers_call() is declared next to the trace event code and
 * implemented in the trigger code).
 */
#ifndef _KHIST_EVENTS_HOOKS_H
#define _KHIST_EVENTS_HOOKS_H

#include <linux/types.h>

struct khist_event;
struct khist_trigger;
struct khist_hist_trigger;

/*
 * One hit of @ev, which has triggers: @rec (common header first) of @size
 * bytes, valid during the call only (no timestamp: reading the clock
 * costs about 40 instructions, and a hist reads its own clock=). Called
 * by the fast path before the filter and before the record is committed:
 * any context (NMI included), preemption disabled; never sleeps,
 * allocates or blocks.
 */
void khist_triggers_call(struct khist_event *ev, void *rec, unsigned int size);
/*
 * The counting hit of an event (@fast is ev->fast, read with acquire):
 * true when it counted the hit and nothing else needs the event's record.
 * Any context (NMI included), preemption disabled.
 */
bool khist_triggers_fast(struct khist_trigger *fast);
/*
 * khist_triggers_call() for an event whose only trigger is @fast (a
 * counting hist): @rec was built for the triggers only.
 */
void khist_triggers_fast_rec(struct khist_trigger *fast, void *rec,
			     unsigned int size);
/*
 * A hit of @ev, which has triggers, by a task that set_event_pid filters
 * out: its unconditional triggers fire if it has only such ones (@rec is
 * a header). Any context (NMI included), preemption disabled.
 */
void khist_triggers_call_uncond(struct khist_event *ev, void *rec,
				unsigned int size);
/*
 * A hit of @ev, which has triggers, that no record could be built for:
 * each of its hists counts it as lost (shown in its Totals). Any context
 * (NMI included), preemption disabled.
 */
void khist_triggers_lost(struct khist_event *ev);
/*
 * The hist type's ->call, named in the engine so that the one-trigger
 * case is a direct call (INDIRECT_CALL_1()).
 */
void khist_hist_call(struct khist_trigger *t, void *rec, unsigned int size,
		     u64 ts);

#endif /* _KHIST_EVENTS_HOOKS_H */
