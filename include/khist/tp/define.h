/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist/tp/define.h - compile one kernel trace header into khist events.
 *
 * The including unit defines KHIST_TP_HEADER (the header as an #include
 * argument, <trace/events/sched.h>) and KHIST_TP_UNIT (an identifier
 * naming the unit), includes <khist/tp/tp.h> and the header itself once
 * normally (which declares the kernel's tracepoints), then this file.
 * Optionally it defines KHIST_TP_OFF_<class> to 1 for each class to
 * leave out (see stage_probe.h), and KHIST_TP_OFFEV_<event> to 1 for each
 * event to leave out whose class stays (stage_table.h).
 */
#ifndef KHIST_TP_HEADER
#error "define KHIST_TP_HEADER to the trace header before including define.h"
#endif
#ifndef KHIST_TP_UNIT
#error "define KHIST_TP_UNIT to the unit's name before including define.h"
#endif

#define ___KHIST_TP_UNIT_NAME(u) khist_tp_unit_##u
#define __KHIST_TP_UNIT_NAME(u) ___KHIST_TP_UNIT_NAME(u)

#include <khist/tp/stage_helpers.h>

#define TRACE_HEADER_MULTI_READ
#include <khist/tp/stage_struct.h>
#include <khist/tp/stage_fields.h>
#include <khist/tp/stage_probe.h>
#include <khist/tp/stage_fmt.h>
#include <khist/tp/stage_table.h>
#include <khist/tp/reset.h>
#undef TRACE_HEADER_MULTI_READ
