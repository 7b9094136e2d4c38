// SPDX-License-Identifier: GPL-2.0
/*
 * super.c - the "khist" filesystem type: superblock, mount options and the
 * inode/dentry glue that shows the node tree (node.c) to the VFS.
 *
 * All mounts share one superblock. Inodes and dentries are made on lookup
 * and dropped as soon as they are unused (always_delete_dentry,
 * generic_delete_inode), so the node tree stays the only state. While a
 * superblock exists it holds a reference on this module through the
 * filesystem type, so khist cannot be unloaded while mounted.
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include "fs.h"
#include "fs_internal.h"

#include <uapi/khist.h>

struct khist_inode {
	struct inode vfs;
	struct khist_node *node;
};

static struct kmem_cache *khist_inode_cache;

static struct khist_node *khist_inode_node(const struct inode *inode)
{
	return container_of(inode, struct khist_inode, vfs)->node;
}

/**
 * khist_fs_file_node() - the node behind an open khist file
 * @file: an open file of the khist filesystem
 *
 * Context: any.
 * Return: the node; valid while @file is open.
 */
struct khist_node *khist_fs_file_node(const struct file *file)
{
	return khist_inode_node(file_inode(file));
}

static void khist_inode_ctor(void *obj)
{
	struct khist_inode *ki = obj;

	inode_init_once(&ki->vfs);
}

static struct inode *khist_alloc_inode(struct super_block *sb)
{
	struct khist_inode *ki;

	ki = alloc_inode_sb(sb, khist_inode_cache, GFP_KERNEL);
	if (!ki)
		return NULL;
	ki->node = NULL;
	return &ki->vfs;
}

static void khist_free_inode(struct inode *inode)
{
	kmem_cache_free(khist_inode_cache,
			container_of(inode, struct khist_inode, vfs));
}

static void khist_evict_inode(struct inode *inode)
{
	struct khist_node *node = khist_inode_node(inode);

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	khist_node_put(node);
}

static int khist_show_options(struct seq_file *m, struct dentry *root);

static const struct super_operations khist_super_ops = {
	.alloc_inode = khist_alloc_inode,
	.free_inode = khist_free_inode,
	.evict_inode = khist_evict_inode,
	.drop_inode = generic_delete_inode,
	.statfs = simple_statfs,
	.show_options = khist_show_options,
};

/*
 * A dentry stays valid while its node is linked; negatives never do.
 *
 * Under LOOKUP_RCU the dentry may be dying on another CPU: its inode can be
 * evicted and the node's last reference dropped while this runs. The inode
 * is freed after a grace period (.free_inode) and so is the node
 * (kfree_rcu() in node.c), so both reads below stay on live memory; only
 * ->removed is read, never the node's data. Nothing here sleeps, so there
 * is no reason to ask for ref-walk (-ECHILD).
 */
static int khist_d_revalidate(struct dentry *dentry, unsigned int flags)
{
	struct inode *inode = d_inode_rcu(dentry);
	struct khist_node *node;

	if (!inode)
		return 0;
	node = khist_inode_node(inode);
	return node && !khist_fs_node_removed(node);
}

static const struct dentry_operations khist_dentry_ops = {
	.d_revalidate = khist_d_revalidate,
	.d_delete = always_delete_dentry,
};

/*
 * Ownership is the node's (node.c, khist_node_owner()), worked out again at
 * each access: what a node follows can change while its inode is cached.
 */
static void khist_refresh_owner(struct inode *inode)
{
	khist_node_owner(khist_inode_node(inode), &inode->i_uid, &inode->i_gid);
}

static int khist_permission(khist_idmap_t *idmap, struct inode *inode, int mask)
{
	khist_refresh_owner(inode);
	return generic_permission(idmap, inode, mask);
}

static int khist_getattr(khist_idmap_t *idmap, const struct path *path,
			 struct kstat *stat, u32 request_mask,
			 unsigned int query_flags)
{
	struct inode *inode = d_inode(path->dentry);

	khist_refresh_owner(inode);
	khist_fillattr(idmap, request_mask, inode, stat);
	return 0;
}

/*
 * chown/chgrp stick to the node (inodes do not last); anything else
 * (chmod, times) only changes the inode, as before.
 */
static int khist_setattr(khist_idmap_t *idmap, struct dentry *dentry,
			 struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	kuid_t uid = INVALID_UID;
	kgid_t gid = INVALID_GID;
	int ret;

	khist_refresh_owner(inode);
	ret = simple_setattr(idmap, dentry, attr);
	if (ret)
		return ret;
	if (attr->ia_valid & ATTR_UID)
		uid = inode->i_uid;
	if (attr->ia_valid & ATTR_GID)
		gid = inode->i_gid;
	khist_node_set_owner(khist_inode_node(inode), uid, gid);
	return 0;
}

static const struct inode_operations khist_dir_inode_ops;
static const struct inode_operations khist_file_inode_ops = {
	.permission = khist_permission,
	.getattr = khist_getattr,
	.setattr = khist_setattr,
};

static const struct file_operations khist_dir_fops;

static struct inode *khist_make_inode(struct super_block *sb,
				      struct khist_node *node)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	khist_node_get(node);
	container_of(inode, struct khist_inode, vfs)->node = node;
	inode->i_ino = node->ino;
	inode->i_mode = node->mode;
	khist_refresh_owner(inode);
	khist_inode_init_ts(inode);
	inode->i_private = node->data;
	if (S_ISDIR(node->mode)) {
		inode->i_op = &khist_dir_inode_ops;
		inode->i_fop = &khist_dir_fops;
		set_nlink(inode, 2);
	} else {
		inode->i_op = &khist_file_inode_ops;
		inode->i_fop = node->fops;
	}
	return inode;
}

static struct dentry *khist_lookup(struct inode *dir, struct dentry *dentry,
				   unsigned int flags)
{
	struct khist_node *parent = khist_inode_node(dir), *node;
	struct inode *inode = NULL;

	mutex_lock(&khist_fs_lock);
	node = khist_node_find_child(parent, dentry->d_name.name,
				     dentry->d_name.len);
	if (node) {
		inode = khist_make_inode(dir->i_sb, node);
		if (!inode) {
			mutex_unlock(&khist_fs_lock);
			return ERR_PTR(-ENOMEM);
		}
	}
	mutex_unlock(&khist_fs_lock);
	return d_splice_alias(inode, dentry);
}

static int khist_mkdir(khist_idmap_t *idmap, struct inode *dir,
		       struct dentry *dentry, umode_t mode)
{
	struct khist_node *parent = khist_inode_node(dir);
	int ret;

	if (!parent->dir_ops || !parent->dir_ops->mkdir)
		return -EPERM;
	/* From now on, what is below follows this directory's chown. */
	khist_node_mark_instances(parent);
	/* The callback creates nodes; drop the VFS lock to avoid inversion. */
	inode_unlock(dir);
	ret = parent->dir_ops->mkdir(parent, dentry->d_name.name);
	/* Taken back as the VFS took it: the parent's subclass. */
	inode_lock_nested(dir, I_MUTEX_PARENT);
	return ret;
}

static int khist_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct khist_node *parent = khist_inode_node(dir);
	struct khist_node *child = khist_inode_node(d_inode(dentry));
	int ret;

	if (!parent->dir_ops || !parent->dir_ops->rmdir)
		return -EPERM;
	inode_unlock(dir);
	inode_unlock(d_inode(dentry));
	ret = parent->dir_ops->rmdir(parent, child);
	/*
	 * Parent, then child, each in the lockdep subclass the VFS used (two
	 * plain inode_lock()s of one class look like recursion to lockdep).
	 */
	inode_lock_nested(dir, I_MUTEX_PARENT);
	inode_lock(d_inode(dentry));
	if (!ret)
		d_invalidate(dentry);
	return ret;
}

static const struct inode_operations khist_dir_inode_ops = {
	.lookup = khist_lookup,
	.permission = khist_permission,
	.getattr = khist_getattr,
	.setattr = khist_setattr,
	.mkdir = khist_mkdir,
	.rmdir = khist_rmdir,
};

/* One entry of a readdir batch; len 0 marks a name too long to show. */
struct khist_dirent {
	unsigned long ino;
	unsigned short len;
	unsigned char type;
	char name[];
};

#define KHIST_READDIR_BATCH PAGE_SIZE

static size_t khist_dirent_size(size_t len)
{
	return ALIGN(struct_size_t(struct khist_dirent, name, len),
		     sizeof(unsigned long));
}

/*
 * Copy the children from position @pos on into @batch, as many as fit.
 * Return the bytes used; *@more says whether children were left over.
 */
static size_t khist_readdir_fill(struct khist_node *dir, loff_t pos,
				 char *batch, bool *more)
{
	struct khist_node *child;
	struct khist_dirent *d;
	size_t used = 0, len;
	loff_t i = 2;

	*more = false;
	mutex_lock(&khist_fs_lock);
	list_for_each_entry(child, &dir->children, sibling) {
		if (i++ < pos)
			continue;
		len = strlen(child->name);
		if (len > NAME_MAX)
			len = 0;
		if (used + khist_dirent_size(len) > KHIST_READDIR_BATCH) {
			*more = true;
			break;
		}
		d = (struct khist_dirent *)(batch + used);
		d->ino = child->ino;
		d->len = len;
		d->type = S_ISDIR(child->mode) ? DT_DIR : DT_REG;
		memcpy(d->name, child->name, len);
		used += khist_dirent_size(len);
	}
	mutex_unlock(&khist_fs_lock);
	return used;
}

/*
 * readdir: ctx->pos 0 and 1 are "." and ".."; child k is at pos k + 2.
 * Names are copied in batches under khist_fs_lock and emitted after it is
 * dropped: dir_emit() writes to user memory, which may fault and sleep for
 * as long as the user likes (userfaultfd, FUSE), and must not hold up the
 * lookups of every mount meanwhile.
 */
static int khist_readdir(struct file *file, struct dir_context *ctx)
{
	struct khist_node *dir = khist_fs_file_node(file);
	struct khist_dirent *d;
	size_t used, off;
	char *batch;
	bool more;

	if (!dir_emit_dots(file, ctx))
		return 0;
	batch = kmalloc(KHIST_READDIR_BATCH, GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	do {
		used = khist_readdir_fill(dir, ctx->pos, batch, &more);
		for (off = 0; off < used; off += khist_dirent_size(d->len)) {
			d = (struct khist_dirent *)(batch + off);
			if (d->len &&
			    !dir_emit(ctx, d->name, d->len, d->ino, d->type))
				goto out;
			ctx->pos++;
		}
	} while (more);
out:
	kfree(batch);
	return 0;
}

static const struct file_operations khist_dir_fops = {
	.owner = THIS_MODULE,
	.iterate_shared = khist_readdir,
	.read = generic_read_dir,
	.llseek = generic_file_llseek,
};

static int khist_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;

	sb->s_magic = KHIST_FS_MAGIC;
	sb->s_op = &khist_super_ops;
	sb->s_d_op = &khist_dentry_ops;
	sb->s_time_gran = 1;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	root = khist_make_inode(sb, khist_fs_root());
	if (!root)
		return -ENOMEM;
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

enum { KHIST_OPT_UID, KHIST_OPT_GID, KHIST_OPT_MODE };

static const struct fs_parameter_spec khist_fs_params[] = {
	fsparam_u32("uid", KHIST_OPT_UID),
	fsparam_u32("gid", KHIST_OPT_GID),
	fsparam_u32oct("mode", KHIST_OPT_MODE),
	{}
};

struct khist_fs_opts {
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	bool set_uid, set_gid, set_mode;
};

static int khist_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct khist_fs_opts *opts = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, khist_fs_params, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case KHIST_OPT_UID:
		opts->uid = make_kuid(current_user_ns(), result.uint_32);
		if (!uid_valid(opts->uid))
			return invalf(fc, "khist: invalid uid %u",
				      result.uint_32);
		opts->set_uid = true;
		break;
	case KHIST_OPT_GID:
		opts->gid = make_kgid(current_user_ns(), result.uint_32);
		if (!gid_valid(opts->gid))
			return invalf(fc, "khist: invalid gid %u",
				      result.uint_32);
		opts->set_gid = true;
		break;
	case KHIST_OPT_MODE:
		/* Higher bits are dropped, as tracefs drops them. */
		opts->mode = result.uint_32 & S_IALLUGO;
		opts->set_mode = true;
		break;
	}
	return 0;
}

/*
 * The options the last mount or remount gave, for /proc/mounts: as on
 * tracefs, one that names neither shows neither, though the owners stay.
 */
static kuid_t khist_shown_uid = GLOBAL_ROOT_UID;
static kgid_t khist_shown_gid = GLOBAL_ROOT_GID;
static umode_t khist_shown_mode = KHIST_MODE_DIR;

/*
 * Every mount shares the superblock, so a new mount with uid=/gid=/mode=
 * acts as a remount with them, as on tracefs (whose superblock the kernel
 * keeps). mode= gives the root directory's permission bits: to the root
 * inode of this superblock and to the root node, which the next one's root
 * inode is made from.
 */
static void khist_apply_opts(struct fs_context *fc)
{
	struct khist_fs_opts *opts = fc->fs_private;
	struct inode *root = d_inode(fc->root->d_sb->s_root);

	WRITE_ONCE(khist_shown_uid,
		   opts->set_uid ? opts->uid : GLOBAL_ROOT_UID);
	WRITE_ONCE(khist_shown_gid,
		   opts->set_gid ? opts->gid : GLOBAL_ROOT_GID);
	WRITE_ONCE(khist_shown_mode,
		   opts->set_mode ? opts->mode : KHIST_MODE_DIR);
	if (opts->set_mode) {
		khist_fs_mount_mode(opts->mode);
		WRITE_ONCE(root->i_mode,
			   (READ_ONCE(root->i_mode) & S_IFMT) | opts->mode);
	}
	khist_fs_mount_owner(opts->set_uid ? opts->uid : INVALID_UID,
			     opts->set_gid ? opts->gid : INVALID_GID);
}

static int khist_show_options(struct seq_file *m, struct dentry *root)
{
	kuid_t uid = READ_ONCE(khist_shown_uid);
	kgid_t gid = READ_ONCE(khist_shown_gid);
	umode_t mode = READ_ONCE(khist_shown_mode);

	if (!uid_eq(uid, GLOBAL_ROOT_UID))
		seq_printf(m, ",uid=%u", from_kuid_munged(&init_user_ns, uid));
	if (!gid_eq(gid, GLOBAL_ROOT_GID))
		seq_printf(m, ",gid=%u", from_kgid_munged(&init_user_ns, gid));
	if (mode != KHIST_MODE_DIR)
		seq_printf(m, ",mode=%o", mode);
	return 0;
}

static int khist_get_tree(struct fs_context *fc)
{
	int ret = get_tree_single(fc, khist_fill_super);

	if (!ret)
		khist_apply_opts(fc);
	return ret;
}

static int khist_reconfigure(struct fs_context *fc)
{
	sync_filesystem(fc->root->d_sb);
	khist_apply_opts(fc);
	return 0;
}

static void khist_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations khist_context_ops = {
	.free = khist_free_fc,
	.parse_param = khist_parse_param,
	.get_tree = khist_get_tree,
	.reconfigure = khist_reconfigure,
};

static int khist_init_fs_context(struct fs_context *fc)
{
	struct khist_fs_opts *opts = kzalloc(sizeof(*opts), GFP_KERNEL);

	if (!opts)
		return -ENOMEM;
	fc->fs_private = opts;
	fc->ops = &khist_context_ops;
	return 0;
}

static struct file_system_type khist_fs_type = {
	.owner = THIS_MODULE,
	.name = "khist",
	.init_fs_context = khist_init_fs_context,
	.parameters = khist_fs_params,
	.kill_sb = kill_anon_super,
};
MODULE_ALIAS_FS("khist");

/**
 * khist_fs_init() - create the node tree, register the filesystem type and
 * the /sys/kernel/khist mount point
 *
 * Context: process context, module init.
 * Return: 0 or -errno, with everything undone.
 */
int khist_fs_init(void)
{
	int ret;

	khist_inode_cache =
		kmem_cache_create("khist_inode", sizeof(struct khist_inode), 0,
				  SLAB_RECLAIM_ACCOUNT, khist_inode_ctor);
	if (!khist_inode_cache)
		return -ENOMEM;
	ret = khist_fs_tree_init();
	if (ret)
		goto out_cache;
	ret = sysfs_create_mount_point(kernel_kobj, "khist");
	if (ret)
		goto out_tree;
	ret = register_filesystem(&khist_fs_type);
	if (ret)
		goto out_mountpoint;
	return 0;

out_mountpoint:
	sysfs_remove_mount_point(kernel_kobj, "khist");
out_tree:
	khist_fs_tree_exit();
out_cache:
	kmem_cache_destroy(khist_inode_cache);
	return ret;
}

/**
 * khist_fs_exit() - undo khist_fs_init()
 *
 * Context: process context, module exit; the filesystem is not mounted
 * (a mount pins the module).
 */
void khist_fs_exit(void)
{
	unregister_filesystem(&khist_fs_type);
	sysfs_remove_mount_point(kernel_kobj, "khist");
	khist_fs_tree_exit();
	/* Inodes are freed via RCU; wait for them before the cache goes. */
	rcu_barrier();
	kmem_cache_destroy(khist_inode_cache);
}
