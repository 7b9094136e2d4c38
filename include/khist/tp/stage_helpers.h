/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 0: read the header once as the kernel's CREATE_TRACE_POINTS unit
 * would, with every event form and the tracepoint definitions made
 * empty. What the header keeps for that unit alone (static helpers its
 * TP_fast_assign calls, e.g. sched.h's switch-state helper) is compiled
 * here, from the header itself. trace/define_trace.h, which the header
 * includes at its end, then reads it once more (all empty) and does not
 * reach the kernel's stages, as TRACEPOINTS_ENABLED is off meanwhile.
 */
#include <khist/tp/reset.h>

#undef DEFINE_TRACE
#undef DEFINE_TRACE_FN
#define DEFINE_TRACE(name, proto, args)
#define DEFINE_TRACE_FN(name, reg, unreg, proto, args)

#ifdef TRACEPOINTS_ENABLED
#undef TRACEPOINTS_ENABLED
#define KHIST_TP_HAD_TPE
#endif

#define CREATE_TRACE_POINTS
#define TRACE_HEADER_MULTI_READ
#include KHIST_TP_HEADER
#undef CREATE_TRACE_POINTS

#ifdef KHIST_TP_HAD_TPE
#define TRACEPOINTS_ENABLED
#undef KHIST_TP_HAD_TPE
#endif
