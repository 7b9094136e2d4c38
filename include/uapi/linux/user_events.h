/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * linux/user_events.h - for programs written against the kernel's
 * user_events header: build them with -I<khist>/include/uapi and they get
 * khist's definitions (<khist_user_events.h>), which carry the same names,
 * layouts and numbers.
 */
#ifndef _UAPI_LINUX_USER_EVENTS_H
#define _UAPI_LINUX_USER_EVENTS_H

#include <khist_user_events.h>

#endif /* _UAPI_LINUX_USER_EVENTS_H */
