/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.h - khist's module-wide memory limit and allocation accounting.
 *
 * Everything khist allocates on behalf of a user's configuration and that
 * can be large or numerous is charged here before it is allocated and
 * uncharged when it is freed: hist maps (their entries hold the keys,
 * sums, variables and strings), hist triggers, ring buffers, instances and
 * synthetic events; and the buffers open `hist` files keep for their
 * readers (khist_mem_pin()). A charge that would pass the limit (module parameter
 * mem_limit_kb) fails with -ENOSPC, and the caller reports it (error_log
 * for a hist trigger, the kernel log for buffers and instances). The
 * charged bytes and objects must be back to zero when the module goes: a
 * leak is reported at unload ("khist: leak: ...").
 */
#ifndef _KHIST_LIMITS_MEM_H
#define _KHIST_LIMITS_MEM_H

#include <linux/types.h>

/* Open files may pin at most mem_limit_kb / KHIST_MEM_PIN_SHARE. */
#define KHIST_MEM_PIN_SHARE 4

int khist_mem_charge(u64 bytes);
void khist_mem_uncharge(u64 bytes);
int khist_mem_recharge(u64 old, u64 new);
int khist_mem_pin(u64 bytes);
void khist_mem_unpin(u64 bytes);
u64 khist_mem_limit(void);
u64 khist_mem_used(void);
void khist_mem_init(void);
void khist_mem_exit(void);

#endif /* _KHIST_LIMITS_MEM_H */
