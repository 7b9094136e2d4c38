/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ev_sched.h - khist's sched events, fed by the kernel's sched
 * tracepoints. Records and print formats follow ftrace's sched events.
 */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM sched
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "events/ev_sched.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_sched_defs

#if !defined(_KHIST_EV_SCHED_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_EV_SCHED_H

#include <linux/binfmts.h>
#include <linux/sched.h>
#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

#ifndef _KHIST_EV_SCHED_HELPERS
#define _KHIST_EV_SCHED_HELPERS
/* The prev_state ftrace records: a TASK_REPORT bit, or MAX if preempted. */
static inline long khist_switch_state(bool preempt, unsigned int state,
				      struct task_struct *p)
{
	unsigned int idx;

	if (preempt)
		return TASK_REPORT_MAX;
	/* An exiting task's parent may be reaping it (wait4) meanwhile. */
	idx = __task_state_index(state, READ_ONCE(p->exit_state));
	return idx ? (1 << (idx - 1)) : idx;
}
#endif

KHIST_TRACE_EVENT(sched_switch,
	TP_PROTO(bool preempt, struct task_struct *prev,
		 struct task_struct *next, unsigned int prev_state),
	TP_ARGS(preempt, prev, next, prev_state),
	TP_STRUCT__entry(
		__array(char, prev_comm, 16)
		__field(pid_t, prev_pid)
		__field(int, prev_prio)
		__field(long, prev_state)
		__array(char, next_comm, 16)
		__field(pid_t, next_pid)
		__field(int, next_prio)
	),
	TP_fast_assign(
		memcpy(__entry->prev_comm, prev->comm, 16);
		__entry->prev_pid = prev->pid;
		__entry->prev_prio = prev->prio;
		__entry->prev_state = khist_switch_state(preempt, prev_state,
							 prev);
		memcpy(__entry->next_comm, next->comm, 16);
		__entry->next_pid = next->pid;
		__entry->next_prio = next->prio;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d",
		__entry->prev_comm,
		__entry->prev_pid,
		__entry->prev_prio,
		(__entry->prev_state & (TASK_REPORT_MAX - 1)) ? __print_flags(__entry->prev_state & (TASK_REPORT_MAX - 1), "|", { TASK_INTERRUPTIBLE, "S" }, { TASK_UNINTERRUPTIBLE, "D" }, { __TASK_STOPPED, "T" }, { __TASK_TRACED, "t" }, { EXIT_DEAD, "X" }, { EXIT_ZOMBIE, "Z" }, { TASK_PARKED, "P" }, { TASK_DEAD, "I" }) : "R",
		__entry->prev_state & TASK_REPORT_MAX ? "+" : "",
		__entry->next_comm,
		__entry->next_pid,
		__entry->next_prio)
);

KHIST_DECLARE_EVENT_CLASS(sched_wakeup_template,
	TP_PROTO(struct task_struct *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, 16)
		__field(pid_t, pid)
		__field(int, prio)
		__field(int, target_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, 16);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
		__entry->target_cpu = task_cpu(p);
	),
	TP_printk("comm=%s pid=%d prio=%d target_cpu=%03d", __entry->comm, __entry->pid, __entry->prio, __entry->target_cpu)
);

KHIST_DEFINE_EVENT(sched_wakeup_template, sched_waking,
	TP_PROTO(struct task_struct *p), TP_ARGS(p));
KHIST_DEFINE_EVENT(sched_wakeup_template, sched_wakeup,
	TP_PROTO(struct task_struct *p), TP_ARGS(p));
KHIST_DEFINE_EVENT(sched_wakeup_template, sched_wakeup_new,
	TP_PROTO(struct task_struct *p), TP_ARGS(p));

KHIST_TRACE_EVENT(sched_process_fork,
	TP_PROTO(struct task_struct *forker, struct task_struct *forked),
	TP_ARGS(forker, forked),
	TP_STRUCT__entry(
		__array(char, parent_comm, 16)
		__field(pid_t, parent_pid)
		__array(char, child_comm, 16)
		__field(pid_t, child_pid)
	),
	TP_fast_assign(
		memcpy(__entry->parent_comm, forker->comm, 16);
		__entry->parent_pid = forker->pid;
		memcpy(__entry->child_comm, forked->comm, 16);
		__entry->child_pid = forked->pid;
	),
	TP_printk("comm=%s pid=%d child_comm=%s child_pid=%d", __entry->parent_comm, __entry->parent_pid, __entry->child_comm, __entry->child_pid)
);

KHIST_TRACE_EVENT(sched_process_exec,
	TP_PROTO(struct task_struct *p, pid_t old_pid,
		 struct linux_binprm *bprm),
	TP_ARGS(p, old_pid, bprm),
	TP_STRUCT__entry(
		__string(filename, bprm->filename)
		__field(pid_t, pid)
		__field(pid_t, old_pid)
	),
	TP_fast_assign(
		__assign_str(filename);
		__entry->pid = p->pid;
		__entry->old_pid = old_pid;
	),
	TP_printk("filename=%s pid=%d old_pid=%d", __get_str(filename), __entry->pid, __entry->old_pid)
);

KHIST_DECLARE_EVENT_CLASS(sched_process_template,
	TP_PROTO(struct task_struct *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, 16)
		__field(pid_t, pid)
		__field(int, prio)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, 16);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
	),
	TP_printk("comm=%s pid=%d prio=%d", __entry->comm, __entry->pid, __entry->prio)
);

KHIST_DEFINE_EVENT(sched_process_template, sched_process_exit,
	TP_PROTO(struct task_struct *p), TP_ARGS(p));
KHIST_DEFINE_EVENT(sched_process_template, sched_process_free,
	TP_PROTO(struct task_struct *p), TP_ARGS(p));
/* clang-format on */

#endif /* _KHIST_EV_SCHED_H */

#include <khist/define_event.h>
