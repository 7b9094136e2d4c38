/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs.h - khist's filesystem: a tree of nodes that the VFS sees through
 * lookups.
 *
 * khist keeps the authoritative tree itself (struct khist_node: a name, a
 * mode, file operations or directory operations, a data pointer). The
 * filesystem type "khist" shows that tree under every mount. Dentries and
 * inodes are made on lookup and are not kept once unused, so adding or
 * removing a node never needs to know what is mounted where: a removed node
 * fails revalidation and disappears from every mount at once.
 *
 * Lifetime: a node is referenced by its parent's child list and by every
 * inode made from it. khist_fs_remove() unlinks a subtree; the node's
 * @release callback runs when the last inode referencing it is evicted,
 * i.e. after every open file on it is closed. Whoever gives a node @data
 * must make @data live as long as the node: take a reference when creating
 * it and drop it in @release (or pass static data, or NULL). A file
 * operation can then always use inode->i_private (= node data) safely; it
 * may call khist_fs_node_removed() to refuse work on a node that is gone.
 * The node's own memory is freed one RCU grace period after that, because
 * an RCU path walk may still read ->removed through a dying inode.
 *
 * Locking: one mutex (khist_fs_lock) serialises tree changes and lookups;
 * readdir copies names under it and hands them to the caller after
 * dropping it. Nothing here may be called from atomic context.
 */
#ifndef _KHIST_FS_FS_H
#define _KHIST_FS_FS_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

struct khist_node;

/**
 * struct khist_dir_ops - callbacks of a directory users may mkdir/rmdir in
 * @mkdir: create child @name under @dir; return 0 or -errno
 * @rmdir: remove child @child of @dir; return 0 or -errno
 *
 * Both are called without khist_fs_lock held and may create or remove
 * nodes themselves.
 */
struct khist_dir_ops {
	int (*mkdir)(struct khist_node *dir, const char *name);
	int (*rmdir)(struct khist_node *dir, struct khist_node *child);
};

/**
 * struct khist_node - one file or directory of the khist tree
 * @ref:      references: parent link + live inodes
 * @name:     entry name
 * @mode:     S_IFDIR or S_IFREG plus permission bits
 * @ino:      inode number shown to users
 * @parent:   parent directory, NULL for the root
 * @children: child nodes (directories only)
 * @sibling:  entry in the parent's @children
 * @fops:     file operations (regular files)
 * @dir_ops:  mkdir/rmdir support (directories, optional)
 * @data:     owner's data, seen as inode->i_private
 * @release:  frees @data when the node dies (optional)
 * @removed:  set once khist_fs_remove() unlinked the node
 * @flags:    KHIST_NODE_* below; written under khist_fs_lock
 * @uid:      owner given by chown, INVALID_UID while it follows others
 * @gid:      group given by chgrp, INVALID_GID while it follows others
 * @base_uid: events directory tops only: the owner of the entries below
 *            that have none of their own
 * @base_gid: the same for the group
 * @rcu:      frees the node after a grace period
 *
 * The ownership fields are read without a lock (permission checks run in
 * RCU path walk): each is one word, written with WRITE_ONCE() under
 * khist_fs_lock. They live in what was padding, so the node stays 128
 * bytes on 64-bit.
 */
struct khist_node {
	struct kref ref;
	kuid_t uid;
	const char *name;
	umode_t mode;
	bool removed;
	u8 flags;
	kgid_t gid;
	unsigned long ino;
	struct khist_node *parent;
	struct list_head children;
	struct list_head sibling;
	const struct file_operations *fops;
	const struct khist_dir_ops *dir_ops;
	void *data;
	void (*release)(void *data);
	struct rcu_head rcu;
	kuid_t base_uid;
	kgid_t base_gid;
};

/*
 * KHIST_NODE_INSTANCES: a directory users made an instance in; the nodes
 * below it follow its chown/chgrp. KHIST_NODE_EVENTS: the top of an events
 * tree; the nodes below it follow @base_uid/@base_gid.
 */
#define KHIST_NODE_INSTANCES 0x1
#define KHIST_NODE_EVENTS 0x2

#define KHIST_MODE_READ 0440
#define KHIST_MODE_WRITE 0640
#define KHIST_MODE_WONLY 0220
#define KHIST_MODE_DIR 0750

int khist_fs_init(void);
void khist_fs_exit(void);
struct khist_node *khist_fs_root(void);
struct khist_node *khist_fs_create_dir(struct khist_node *parent,
				       const char *name, void *data);
struct khist_node *khist_fs_create_file(struct khist_node *parent,
					const char *name, umode_t mode,
					const struct file_operations *fops,
					void *data);
void khist_fs_set_release(struct khist_node *node, void (*release)(void *));
void khist_fs_set_dir_ops(struct khist_node *node,
			  const struct khist_dir_ops *ops);
void khist_fs_set_events_top(struct khist_node *node);
void khist_fs_remove(struct khist_node *node);
struct khist_node *khist_fs_lookup(struct khist_node *dir, const char *name);
bool khist_fs_node_removed(const struct khist_node *node);
struct khist_node *khist_fs_file_node(const struct file *file);

/**
 * khist_fs_open_truncates() - is this open a shell's `>` on a control file?
 * @file: the file being opened
 *
 * ftrace's control files (trace, error_log, set_event, trigger, ...) treat
 * an open for writing with O_TRUNC as "start from empty".
 *
 * Context: any.
 * Return: true when @file is opened writable and with O_TRUNC.
 */
static inline bool khist_fs_open_truncates(const struct file *file)
{
	return (file->f_flags & O_TRUNC) && (file->f_mode & FMODE_WRITE);
}

#endif /* _KHIST_FS_FS_H */
