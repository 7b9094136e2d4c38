/* SPDX-License-Identifier: GPL-2.0 */
/* ev_timer.h - khist's timer events, fed by the kernel's timer tracepoints. */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM timer
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "events/ev_timer.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_timer_defs

#if !defined(_KHIST_EV_TIMER_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_EV_TIMER_H

#include <linux/hrtimer.h>
#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

KHIST_TRACE_EVENT(hrtimer_expire_entry,
	TP_PROTO(struct hrtimer *hrtimer, ktime_t *now),
	TP_ARGS(hrtimer, now),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
		__field(s64, now)
		__field(void *, function)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
		__entry->now = *now;
		__entry->function = ACCESS_PRIVATE(hrtimer, function);
	),
	TP_printk("hrtimer=%p function=%ps now=%llu", __entry->hrtimer, __entry->function, (unsigned long long) __entry->now)
);
/* clang-format on */

#endif /* _KHIST_EV_TIMER_H */

#include <khist/define_event.h>
