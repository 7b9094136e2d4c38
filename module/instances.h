/* SPDX-License-Identifier: GPL-2.0 */
/*
 * instances.h - the instance orchestrator (instances.c), as main.c calls
 * it: the top level and instances/ come up last and go down first.
 */
#ifndef _KHIST_INSTANCES_H
#define _KHIST_INSTANCES_H

int khist_instance_init(void);
void khist_instance_exit(void);

#endif /* _KHIST_INSTANCES_H */
