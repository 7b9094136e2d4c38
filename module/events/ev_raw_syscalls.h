/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ev_raw_syscalls.h - khist's raw_syscalls events, fed by the kernel's
 * sys_enter / sys_exit tracepoints (registering a probe on them turns on
 * the syscall tracing work in every task, as ftrace does).
 */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM raw_syscalls
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "events/ev_raw_syscalls.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_raw_syscalls_defs

#if !defined(_KHIST_EV_RAW_SYSCALLS_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_EV_RAW_SYSCALLS_H

#include <linux/ptrace.h>
#include <asm/syscall.h>
#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

KHIST_TRACE_EVENT(sys_enter,
	TP_PROTO(struct pt_regs *regs, long id),
	TP_ARGS(regs, id),
	TP_STRUCT__entry(
		__field(long, id)
		__array(unsigned long, args, 6)
	),
	TP_fast_assign(
		__entry->id = id;
		syscall_get_arguments(current, regs, __entry->args);
	),
	TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", __entry->id, __entry->args[0], __entry->args[1], __entry->args[2], __entry->args[3], __entry->args[4], __entry->args[5])
);

KHIST_TRACE_EVENT(sys_exit,
	TP_PROTO(struct pt_regs *regs, long ret),
	TP_ARGS(regs, ret),
	TP_STRUCT__entry(
		__field(long, id)
		__field(long, ret)
	),
	TP_fast_assign(
		__entry->id = syscall_get_nr(current, regs);
		__entry->ret = ret;
	),
	TP_printk("NR %ld = %ld", __entry->id, __entry->ret)
);
/* clang-format on */

#endif /* _KHIST_EV_RAW_SYSCALLS_H */

#include <khist/define_event.h>
