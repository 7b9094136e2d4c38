// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - khist's tree of files and directories (see fs.h).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/err.h>
#include "fs.h"
#include "fs_internal.h"
#include "mem/fault.h"
#include "mem/mem.h"

/* Guards the tree's shape: children lists, ->parent and ->removed. */
DEFINE_MUTEX(khist_fs_lock);
static struct khist_node *khist_root;

/* What a node below the root is charged against mem_limit_kb. */
static u64 khist_node_charge(const char *name)
{
	return sizeof(struct khist_node) + strlen(name) + 1;
}

static void khist_node_free(struct kref *ref)
{
	struct khist_node *node = container_of(ref, struct khist_node, ref);

	if (node->release)
		node->release(node->data);
	if (node->parent) {
		khist_node_put(node->parent);
		khist_mem_uncharge(khist_node_charge(node->name));
	}
	kfree(node->name);
	/* khist_d_revalidate() may still read ->removed under RCU walk. */
	kfree_rcu(node, rcu);
}

/**
 * khist_node_get() - take a reference on a node
 * @node: the node
 *
 * Context: any; the caller must already hold a reference or khist_fs_lock.
 */
void khist_node_get(struct khist_node *node)
{
	kref_get(&node->ref);
}

/**
 * khist_node_put() - drop a reference; the last one frees the node
 * @node: the node, or NULL
 *
 * Context: process context (the release callback may sleep).
 */
void khist_node_put(struct khist_node *node)
{
	if (node)
		kref_put(&node->ref, khist_node_free);
}

static struct khist_node *khist_node_alloc(const char *name, umode_t mode,
					   void *data)
{
	struct khist_node *node;

	node = khist_kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return NULL;
	node->name = khist_kstrdup(name, GFP_KERNEL);
	if (!node->name) {
		kfree(node);
		return NULL;
	}
	kref_init(&node->ref);
	node->uid = INVALID_UID;
	node->gid = INVALID_GID;
	node->mode = mode;
	node->ino = get_next_ino();
	node->data = data;
	INIT_LIST_HEAD(&node->children);
	INIT_LIST_HEAD(&node->sibling);
	return node;
}

/**
 * khist_node_find_child() - look a child up by name
 * @dir:  directory node
 * @name: entry name
 * @len:  length of @name
 *
 * Context: process context, khist_fs_lock held.
 * Return: the child (no reference taken), or NULL.
 */
struct khist_node *khist_node_find_child(struct khist_node *dir,
					 const char *name, size_t len)
{
	struct khist_node *child;

	lockdep_assert_held(&khist_fs_lock);
	list_for_each_entry(child, &dir->children, sibling) {
		if (strlen(child->name) == len &&
		    !memcmp(child->name, name, len))
			return child;
	}
	return NULL;
}

static struct khist_node *khist_node_add(struct khist_node *parent,
					 const char *name, umode_t mode,
					 const struct file_operations *fops,
					 void *data)
{
	struct khist_node *node;
	int ret = 0;

	if (!parent || !S_ISDIR(parent->mode) || !name || !*name ||
	    strchr(name, '/'))
		return ERR_PTR(-EINVAL);
	ret = khist_mem_charge(khist_node_charge(name));
	if (ret)
		return ERR_PTR(ret);
	node = khist_node_alloc(name, mode, data);
	if (!node) {
		ret = -ENOMEM;
		goto out_uncharge;
	}
	/*
	 * Complete before the node is linked: a lookup that finds it under
	 * khist_fs_lock makes an inode from ->fops at once, and an open of an
	 * inode with no file operations is a WARN in do_dentry_open().
	 */
	node->fops = fops;
	mutex_lock(&khist_fs_lock);
	if (parent->removed)
		ret = -ENOENT;
	else if (khist_node_find_child(parent, name, strlen(name)))
		ret = -EEXIST;
	if (ret) {
		mutex_unlock(&khist_fs_lock);
		kfree(node->name);
		kfree(node);
		goto out_uncharge;
	}
	khist_node_get(parent);
	node->parent = parent;
	list_add_tail(&node->sibling, &parent->children);
	mutex_unlock(&khist_fs_lock);
	return node;

out_uncharge:
	khist_mem_uncharge(khist_node_charge(name));
	return ERR_PTR(ret);
}

/**
 * khist_fs_create_dir() - add a directory
 * @parent: parent directory
 * @name:   entry name
 * @data:   owner data (inode->i_private of the directory)
 *
 * Context: process context; takes khist_fs_lock.
 * Return: the node, or ERR_PTR(-EEXIST / -ENOMEM / -EINVAL / -ENOENT).
 */
struct khist_node *khist_fs_create_dir(struct khist_node *parent,
				       const char *name, void *data)
{
	return khist_node_add(parent, name, S_IFDIR | KHIST_MODE_DIR, NULL,
			      data);
}

/**
 * khist_fs_create_file() - add a regular file
 * @parent: parent directory
 * @name:   entry name
 * @mode:   permission bits (KHIST_MODE_READ, KHIST_MODE_WRITE, ...)
 * @fops:   its file operations; inode->i_private is @data
 * @data:   owner data
 *
 * Context: process context; takes khist_fs_lock.
 * Return: the node, or ERR_PTR(-EEXIST / -ENOMEM / -EINVAL / -ENOENT).
 */
struct khist_node *khist_fs_create_file(struct khist_node *parent,
					const char *name, umode_t mode,
					const struct file_operations *fops,
					void *data)
{
	return khist_node_add(parent, name, S_IFREG | (mode & 0777), fops,
			      data);
}

/**
 * khist_fs_set_release() - give a node a destructor for its data
 * @node:    the node
 * @release: called with node->data when the node is freed
 *
 * Context: process context, right after creation.
 */
void khist_fs_set_release(struct khist_node *node, void (*release)(void *))
{
	node->release = release;
}

/**
 * khist_fs_set_dir_ops() - let users mkdir/rmdir in a directory
 * @node: the directory
 * @ops:  callbacks
 *
 * Context: process context, right after creation.
 */
void khist_fs_set_dir_ops(struct khist_node *node,
			  const struct khist_dir_ops *ops)
{
	node->dir_ops = ops;
}

static void khist_node_unlink_locked(struct khist_node *node)
{
	struct khist_node *child, *tmp;

	list_for_each_entry_safe(child, tmp, &node->children, sibling)
		khist_node_unlink_locked(child);
	WRITE_ONCE(node->removed, true);
	list_del_init(&node->sibling);
	/* The parent's list held one reference; live inodes hold the rest. */
	khist_node_put(node);
}

/**
 * khist_fs_remove() - remove a node and everything below it
 * @node: the node; NULL or an ERR_PTR is ignored
 *
 * The nodes vanish from every mount at once; they are freed when the
 * last open file or cached inode on them goes away.
 *
 * Context: process context; takes khist_fs_lock.
 */
void khist_fs_remove(struct khist_node *node)
{
	if (IS_ERR_OR_NULL(node))
		return;
	mutex_lock(&khist_fs_lock);
	if (!node->removed)
		khist_node_unlink_locked(node);
	mutex_unlock(&khist_fs_lock);
}

/*
 * Ownership, as tracefs and eventfs in 6.12 have it:
 *
 * - The root's owner is the mount's (uid=, gid=) until chown'd/chgrp'd.
 * - Outside events trees, a node with no owner of its own follows the
 *   directory instances were made in (KHIST_NODE_INSTANCES) if it is
 *   below it and that directory has one, else the root.
 * - An events tree top's entries follow its base owner, which is its
 *   parent's owner when it was made and the mount's after a remount that
 *   names uid= or gid=; a chown of the top itself changes only the top.
 * - A remount naming uid= (gid=) forgets every chown (chgrp).
 *
 * Every field is one word, so this may run anywhere, also in RCU path
 * walk: a node keeps its parent alive, and the caller holds the node.
 */

/**
 * khist_node_owner() - the owner and group a node shows
 * @node: the node; the caller holds a reference (or khist_fs_lock)
 * @uid:  set to its owner
 * @gid:  set to its group
 *
 * Context: any.
 */
void khist_node_owner(const struct khist_node *node, kuid_t *uid, kgid_t *gid)
{
	const struct khist_node *n;
	kuid_t u = READ_ONCE(node->uid);
	kgid_t g = READ_ONCE(node->gid);
	u8 flags;

	for (n = node; n->parent; n = n->parent) {
		/* Pairs with the release in khist_fs_set_events_top(). */
		flags = smp_load_acquire(&n->flags);
		if (flags & KHIST_NODE_EVENTS) {
			if (!uid_valid(u))
				u = READ_ONCE(n->base_uid);
			if (!gid_valid(g))
				g = READ_ONCE(n->base_gid);
			goto out;
		}
		if (n != node && (flags & KHIST_NODE_INSTANCES)) {
			if (!uid_valid(u))
				u = READ_ONCE(n->uid);
			if (!gid_valid(g))
				g = READ_ONCE(n->gid);
			while (n->parent)
				n = n->parent;
			break;
		}
	}
	/* n is the root now. */
	if (!uid_valid(u))
		u = READ_ONCE(n->uid);
	if (!gid_valid(g))
		g = READ_ONCE(n->gid);
out:
	*uid = u;
	*gid = g;
}

/**
 * khist_node_set_owner() - remember a chown/chgrp of a node
 * @node: the node
 * @uid:  the new owner, or INVALID_UID to leave it
 * @gid:  the new group, or INVALID_GID to leave it
 *
 * The node keeps it until a remount names uid= (gid=); nodes that follow
 * this one (see khist_node_owner()) follow the change.
 *
 * Context: process context; takes khist_fs_lock.
 */
void khist_node_set_owner(struct khist_node *node, kuid_t uid, kgid_t gid)
{
	mutex_lock(&khist_fs_lock);
	if (uid_valid(uid))
		WRITE_ONCE(node->uid, uid);
	if (gid_valid(gid))
		WRITE_ONCE(node->gid, gid);
	mutex_unlock(&khist_fs_lock);
}

/**
 * khist_node_mark_instances() - note that instances are made in @dir
 * @dir: the directory
 *
 * Context: process context; takes khist_fs_lock.
 */
void khist_node_mark_instances(struct khist_node *dir)
{
	mutex_lock(&khist_fs_lock);
	WRITE_ONCE(dir->flags, dir->flags | KHIST_NODE_INSTANCES);
	mutex_unlock(&khist_fs_lock);
}

/**
 * khist_fs_set_events_top() - make @node the top of an events tree
 * @node: a directory just made (events/ of an instance)
 *
 * Its entries take its parent's current owner as their default, not the
 * owner @node itself may be given later.
 *
 * Context: process context, right after creation; takes khist_fs_lock.
 */
void khist_fs_set_events_top(struct khist_node *node)
{
	kuid_t uid;
	kgid_t gid;

	if (IS_ERR_OR_NULL(node) || !node->parent)
		return;
	mutex_lock(&khist_fs_lock);
	khist_node_owner(node->parent, &uid, &gid);
	WRITE_ONCE(node->base_uid, uid);
	WRITE_ONCE(node->base_gid, gid);
	/* The base first: a lockless khist_node_owner() acquires the flag. */
	smp_store_release(&node->flags, node->flags | KHIST_NODE_EVENTS);
	mutex_unlock(&khist_fs_lock);
}

static void khist_node_forget_owners(struct khist_node *node, kuid_t uid,
				     kgid_t gid)
{
	struct khist_node *child;

	if (uid_valid(uid)) {
		WRITE_ONCE(node->uid, INVALID_UID);
		WRITE_ONCE(node->base_uid, uid);
	}
	if (gid_valid(gid)) {
		WRITE_ONCE(node->gid, INVALID_GID);
		WRITE_ONCE(node->base_gid, gid);
	}
	list_for_each_entry(child, &node->children, sibling)
		khist_node_forget_owners(child, uid, gid);
}

/**
 * khist_fs_mount_owner() - apply a mount's uid=/gid= to the tree
 * @uid: the uid= given, or INVALID_UID
 * @gid: the gid= given, or INVALID_GID
 *
 * The root takes them, every chown (for @uid) or chgrp (for @gid) made
 * before is forgotten, and events trees default to them.
 *
 * Context: process context; takes khist_fs_lock.
 */
void khist_fs_mount_owner(kuid_t uid, kgid_t gid)
{
	struct khist_node *child;

	if (!uid_valid(uid) && !gid_valid(gid))
		return;
	mutex_lock(&khist_fs_lock);
	if (uid_valid(uid))
		WRITE_ONCE(khist_root->uid, uid);
	if (gid_valid(gid))
		WRITE_ONCE(khist_root->gid, gid);
	list_for_each_entry(child, &khist_root->children, sibling)
		khist_node_forget_owners(child, uid, gid);
	mutex_unlock(&khist_fs_lock);
}

/**
 * khist_fs_mount_mode() - apply a mount's mode= to the root node
 * @mode: the permission bits given
 *
 * The root inode of a later superblock is made with them (the caller sets
 * the current one's).
 *
 * Context: process context; takes khist_fs_lock.
 */
void khist_fs_mount_mode(umode_t mode)
{
	mutex_lock(&khist_fs_lock);
	WRITE_ONCE(khist_root->mode, S_IFDIR | (mode & S_IALLUGO));
	mutex_unlock(&khist_fs_lock);
}

/**
 * khist_fs_lookup() - find a child of a directory by name
 * @dir:  the directory
 * @name: entry name
 *
 * The result is only stable while the caller owns the child (it is the one
 * that creates and removes it).
 *
 * Context: process context; takes khist_fs_lock.
 * Return: the child, or NULL.
 */
struct khist_node *khist_fs_lookup(struct khist_node *dir, const char *name)
{
	struct khist_node *child;

	mutex_lock(&khist_fs_lock);
	child = khist_node_find_child(dir, name, strlen(name));
	mutex_unlock(&khist_fs_lock);
	return child;
}

/**
 * khist_fs_node_removed() - has this node been removed?
 * @node: the node
 *
 * Context: any.
 * Return: true once khist_fs_remove() unlinked it.
 */
bool khist_fs_node_removed(const struct khist_node *node)
{
	return READ_ONCE(node->removed);
}

/**
 * khist_fs_root() - the top-level directory of the tree
 *
 * Context: any, after khist_fs_init().
 * Return: the root node.
 */
struct khist_node *khist_fs_root(void)
{
	return khist_root;
}

/**
 * khist_fs_tree_init() - create the root node
 *
 * Context: process context, module init.
 * Return: 0 or -ENOMEM.
 */
int khist_fs_tree_init(void)
{
	khist_root = khist_node_alloc("", S_IFDIR | KHIST_MODE_DIR, NULL);
	if (!khist_root)
		return -ENOMEM;
	/* The root always has an owner: the mount's, or its chown. */
	khist_root->uid = GLOBAL_ROOT_UID;
	khist_root->gid = GLOBAL_ROOT_GID;
	return 0;
}

/**
 * khist_fs_tree_exit() - drop the whole tree
 *
 * Context: process context, module exit; nothing is mounted any more.
 */
void khist_fs_tree_exit(void)
{
	struct khist_node *child, *tmp;

	mutex_lock(&khist_fs_lock);
	list_for_each_entry_safe(child, tmp, &khist_root->children, sibling)
		khist_node_unlink_locked(child);
	mutex_unlock(&khist_fs_lock);
	khist_node_put(khist_root);
	khist_root = NULL;
}
