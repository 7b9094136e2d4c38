/* SPDX-License-Identifier: GPL-2.0 */
/*
 * user_events.h - events that programs register and write themselves,
 * compatible with the kernel's user_events (6.4+): what the
 * user_events_data and user_events_status files (files/) call.
 *
 * An event is registered through an open user_events_data file
 * (DIAG_IOCSREG) or a u: line of `dynamic_events`; it lives in
 * events/user_events/<name>/ like any event. A registration also names a
 * bit in the caller's memory that khist keeps set while the event has a
 * consumer (enabled in an instance, or a trigger on it) and clear while it
 * has none, in every process that registered it and in their forks.
 *
 * Locking: khist_event_mutex protects the events, the open files' tables
 * and the registered bits; writes take no lock.
 */
#ifndef _KHIST_EVENTS_USER_EVENTS_H
#define _KHIST_EVENTS_USER_EVENTS_H

#include <linux/seq_file.h>
#include <linux/uio.h>
#include <uapi/khist_user_events.h>
#include "events/dynevent.h"

struct khist_ue_file;

struct khist_ue_file *khist_ue_file_alloc(void);
void khist_ue_file_free(struct khist_ue_file *uf);
long khist_ue_ioctl_reg(struct khist_ue_file *uf, struct user_reg __user *ureg);
long khist_ue_ioctl_del(const char __user *uname);
long khist_ue_ioctl_unreg(struct user_unreg __user *ureg);
ssize_t khist_ue_write(struct khist_ue_file *uf, struct iov_iter *from);
int khist_ue_status_show(struct seq_file *m);
int khist_ue_init(void);
void khist_ue_exit(void);

extern struct khist_dynevent_ops khist_ue_dyn_ops;

#endif /* _KHIST_EVENTS_USER_EVENTS_H */
