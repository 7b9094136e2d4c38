/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs_internal.h - shared between the node tree (node.c) and the VFS glue
 * (super.c); not for the rest of khist.
 */
#ifndef _KHIST_FS_FS_INTERNAL_H
#define _KHIST_FS_FS_INTERNAL_H

#include "fs.h"

extern struct mutex khist_fs_lock;

void khist_node_get(struct khist_node *node);
void khist_node_put(struct khist_node *node);
struct khist_node *khist_node_find_child(struct khist_node *dir,
					 const char *name, size_t len);
void khist_node_owner(const struct khist_node *node, kuid_t *uid, kgid_t *gid);
void khist_node_set_owner(struct khist_node *node, kuid_t uid, kgid_t gid);
void khist_node_mark_instances(struct khist_node *dir);
void khist_fs_mount_owner(kuid_t uid, kgid_t gid);
void khist_fs_mount_mode(umode_t mode);
int khist_fs_tree_init(void);
void khist_fs_tree_exit(void);

#endif /* _KHIST_FS_FS_INTERNAL_H */
