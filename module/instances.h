/* SPDX-License-Identifier: GPL-2.0 */
/*
 * instances.h - the instance orchestrator (instances.c), as main.c calls
 * it: the top level comes up before the module-wide parts that register
 * events in it, instances/ after them (and they go down in reverse).
 */
#ifndef _KHIST_INSTANCES_H
#define _KHIST_INSTANCES_H

int khist_instance_init(void);
void khist_instance_exit(void);
int khist_instances_init(void);
void khist_instances_exit(void);

#endif /* _KHIST_INSTANCES_H */
