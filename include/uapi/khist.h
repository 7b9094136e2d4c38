/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * khist.h - what userspace tools may rely on: the filesystem's magic number,
 * where it is mounted by default, and the version of its interface.
 */
#ifndef _UAPI_KHIST_H
#define _UAPI_KHIST_H

#define KHIST_FS_MAGIC 0x6b686973 /* "khis" */
#define KHIST_DEFAULT_MOUNT "/sys/kernel/khist"
#define KHIST_ABI_VERSION 1

#endif /* _UAPI_KHIST_H */
