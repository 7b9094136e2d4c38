/* SPDX-License-Identifier: GPL-2.0 */
/* ev_irq.h - khist's irq events, fed by the kernel's irq tracepoints. */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM irq
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "events/ev_irq.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_irq_defs

#if !defined(_KHIST_EV_IRQ_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_EV_IRQ_H

#include <linux/interrupt.h>
#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

KHIST_TRACE_EVENT(irq_handler_entry,
	TP_PROTO(int irq, struct irqaction *action),
	TP_ARGS(irq, action),
	TP_STRUCT__entry(
		__field(int, irq)
		__string(name, action->name)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__assign_str(name);
	),
	TP_printk("irq=%d name=%s", __entry->irq, __get_str(name))
);

KHIST_TRACE_EVENT(irq_handler_exit,
	TP_PROTO(int irq, struct irqaction *action, int ret),
	TP_ARGS(irq, action, ret),
	TP_STRUCT__entry(
		__field(int, irq)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__entry->ret = ret;
	),
	TP_printk("irq=%d ret=%s", __entry->irq, __entry->ret ? "handled" : "unhandled")
);
/* clang-format on */

#endif /* _KHIST_EV_IRQ_H */

#include <khist/define_event.h>
