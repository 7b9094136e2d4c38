// SPDX-License-Identifier: GPL-2.0
/*
 * files.c - the files of events/: per event enable, filter, format, id,
 * trigger and hist; per system enable; events/enable, header_page and
 * header_event; available_events and set_event at the instance root.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "events/events.h"
#include "events/evfilter.h"
#include "mem/mem.h"
#include "files/files.h"
#include "hist/hist.h"

/* Biggest write accepted by filter, trigger and set_event. */
#define KHIST_FILE_CMD_MAX PAGE_SIZE

static char *khist_copy_cmd(const char __user *ubuf, size_t count)
{
	if (count >= KHIST_FILE_CMD_MAX)
		return ERR_PTR(-EINVAL);
	return memdup_user_nul(ubuf, count);
}

/* Is the event still registered? Call with khist_event_mutex held. */
static bool khist_ev_live(struct khist_event *ev)
{
	return ev->def && !list_empty(&ev->list);
}

/* ---- format ---- */

/* The common header of every record, as the format files show it. */
static const char khist_common_fields_text[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/**
 * khist_format_show() - the text of an event's format file
 * @m:  where it goes
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0.
 */
static int khist_format_show(struct seq_file *m, struct khist_event *ev)
{
	const struct khist_field_desc *f;
	const char *br;
	unsigned int i;

	seq_printf(m, "name: %s\nID: %u\nformat:\n", ev->schema.name,
		   ev->schema.id);
	seq_puts(m, khist_common_fields_text);
	for (i = 0; i < ev->schema.nr_fields; i++) {
		f = &ev->schema.fields[i];
		br = strchr(f->type, '[');
		if (br && !strncmp(f->type, "__data_loc", 10))
			br = NULL;
		if (br && (ev->def->flags & KHIST_EVF_ARRAY_NOLEN))
			seq_printf(m, "\tfield:%.*s %s[];", (int)(br - f->type),
				   f->type, f->name);
		else if (br)
			seq_printf(m, "\tfield:%.*s %s%s;", (int)(br - f->type),
				   f->type, f->name, br);
		else
			seq_printf(m, "\tfield:%s %s;", f->type, f->name);
		seq_printf(m, "\toffset:%u;\tsize:%u;\tsigned:%u;\n", f->offset,
			   f->size, f->is_signed);
	}
	seq_printf(m, "\nprint fmt: %s\n", ev->def->print_fmt);
	return 0;
}

static int khist_format_file_show(struct seq_file *m, void *v)
{
	struct khist_event *ev = m->private;
	int ret = -ENODEV;

	mutex_lock(&khist_event_mutex);
	if (khist_ev_live(ev))
		ret = khist_format_show(m, ev);
	mutex_unlock(&khist_event_mutex);
	return ret;
}

DEFINE_SHOW_ATTRIBUTE(khist_format_file);

/* ---- id ---- */

static ssize_t khist_id_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	struct khist_event *ev = file->private_data;
	char buf[16];
	int len;

	mutex_lock(&khist_event_mutex);
	if (!khist_ev_live(ev)) {
		mutex_unlock(&khist_event_mutex);
		return -ENODEV;
	}
	len = scnprintf(buf, sizeof(buf), "%u\n", ev->schema.id);
	mutex_unlock(&khist_event_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations khist_id_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_id_read,
	.llseek = default_llseek,
};

/* ---- enable ---- */

static ssize_t khist_enable_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct khist_event *ev = file->private_data;
	char buf[4];

	mutex_lock(&khist_event_mutex);
	if (!khist_ev_live(ev)) {
		mutex_unlock(&khist_event_mutex);
		return -ENODEV;
	}
	khist_event_enable_state(ev, buf);
	mutex_unlock(&khist_event_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static ssize_t khist_enable_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct khist_event *ev = file->private_data;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	mutex_lock(&khist_event_mutex);
	ret = khist_ev_live(ev) ? khist_event_set_enabled(ev, val, false) :
				  -ENODEV;
	mutex_unlock(&khist_event_mutex);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static const struct file_operations khist_enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_enable_read,
	.write = khist_enable_write,
	.llseek = default_llseek,
};

/* ---- filter ---- */

static ssize_t khist_filter_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct khist_event *ev = file->private_data;
	ssize_t ret;
	char *text;

	mutex_lock(&khist_event_mutex);
	if (!khist_ev_live(ev)) {
		mutex_unlock(&khist_event_mutex);
		return -ENODEV;
	}
	if (ev->filter_text)
		text = kasprintf(GFP_KERNEL, "%s\n", ev->filter_text);
	else
		text = kstrdup("none\n", GFP_KERNEL);
	mutex_unlock(&khist_event_mutex);
	if (!text)
		return -ENOMEM;
	ret = simple_read_from_buffer(ubuf, count, ppos, text, strlen(text));
	kfree(text);
	return ret;
}

static ssize_t khist_filter_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct khist_event *ev = file->private_data;
	char *cmd;
	int ret;

	cmd = khist_copy_cmd(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&khist_event_mutex);
	if (khist_ev_live(ev))
		ret = khist_evfilter_set(ev, cmd, strlen(cmd));
	else
		ret = -ENODEV;
	mutex_unlock(&khist_event_mutex);
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static const struct file_operations khist_filter_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_filter_read,
	.write = khist_filter_write,
	.llseek = default_llseek,
};

/* ---- trigger, hist ---- */

static void khist_triggers_avail(struct seq_file *m)
{
	seq_puts(m, "# Available triggers:\n");
	seq_puts(m, "# traceon traceoff snapshot stacktrace enable_event ");
	seq_puts(m, "disable_event enable_hist disable_hist hist\n");
}

static int khist_trigger_seq(struct seq_file *m, void *v)
{
	struct khist_event *ev = m->private;
	const struct khist_trigger_ops *ops;
	int ret = 0;

	mutex_lock(&khist_event_mutex);
	ops = khist_trigger_ops;
	if (!khist_ev_live(ev))
		ret = -ENODEV;
	else if (ops && ops->show)
		ret = ops->show(m, ev);
	else
		khist_triggers_avail(m);
	mutex_unlock(&khist_event_mutex);
	return ret;
}

static int khist_trigger_open(struct inode *inode, struct file *file)
{
	const struct khist_trigger_ops *ops = READ_ONCE(khist_trigger_ops);
	int ret;

	if (khist_fs_open_truncates(file) && ops && ops->write) {
		ret = ops->write(inode->i_private, NULL);
		if (ret)
			return ret;
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_trigger_seq, inode->i_private);
}

static int khist_trigger_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

static ssize_t khist_trigger_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct khist_event *ev = file_inode(file)->i_private;
	const struct khist_trigger_ops *ops = READ_ONCE(khist_trigger_ops);
	char *cmd;
	int ret;

	if (!count)
		return 0;
	cmd = khist_copy_cmd(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	/* A blank command is refused, as ftrace does (after any O_TRUNC). */
	if (ops && ops->write)
		ret = ops->write(ev, strim(cmd));
	else
		ret = -EINVAL;
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static loff_t khist_trigger_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations khist_trigger_fops = {
	.owner = THIS_MODULE,
	.open = khist_trigger_open,
	.read = seq_read,
	.write = khist_trigger_write,
	.llseek = khist_trigger_llseek,
	.release = khist_trigger_release,
};

/*
 * An open `hist` file and the bytes its seq_file buffer pins, charged
 * with khist_mem_pin(): a reader of a gid= mount could otherwise keep
 * up to KHIST_SHOW_SIZE_MAX per fd for as long as it likes.
 */
struct khist_hist_reader {
	struct khist_event *ev;
	u64 pinned;
	bool json;
};

/* Charge the buffer seq_read() gave us, if it grew since the last show. */
static int khist_hist_reader_pin(struct seq_file *m)
{
	struct khist_hist_reader *r = m->private;
	int ret;

	if (m->size <= r->pinned)
		return 0;
	ret = khist_mem_pin(m->size - r->pinned);
	if (!ret)
		r->pinned = m->size;
	return ret;
}

/*
 * The `hist` text, one table at a time: khist_event_mutex is taken again
 * for each (the tables print without it), so a trigger added or removed
 * meanwhile may show or not, as if read a moment earlier or later.
 */
static int khist_hist_text_show(struct seq_file *m, struct khist_event *ev)
{
	unsigned int n;

	for (n = 0;; n++) {
		mutex_lock(&khist_event_mutex);
		if (!khist_ev_live(ev)) {
			mutex_unlock(&khist_event_mutex);
			return n ? 0 : -ENODEV;
		}
		/* Drops the mutex. */
		if (!khist_hist_show_nth(m, ev, n))
			return 0;
		if (seq_has_overflowed(m))
			return 0;
	}
}

static int khist_hist_file_show(struct seq_file *m, void *v)
{
	struct khist_hist_reader *r = m->private;
	int ret;

	ret = khist_hist_reader_pin(m);
	if (ret)
		return ret;
	if (!r->json)
		return khist_hist_text_show(m, r->ev);
	mutex_lock(&khist_event_mutex);
	if (!khist_ev_live(r->ev))
		ret = -ENODEV;
	else
		ret = khist_hist_json_show(m, r->ev);
	mutex_unlock(&khist_event_mutex);
	return ret;
}

/*
 * The hist text comes from one show that seq_read() repeats with a
 * doubled buffer until it fits: start with room for it, if the memory
 * limit's share for open files has it (else grow as it goes, each step
 * charged by the show).
 */
static int khist_hist_reader_open(struct inode *inode, struct file *file,
				  bool json)
{
	struct khist_event *ev = inode->i_private;
	struct khist_hist_reader *r;
	size_t size = 0;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->ev = ev;
	r->json = json;
	mutex_lock(&khist_event_mutex);
	if (khist_ev_live(ev))
		size = khist_hist_show_size(ev);
	mutex_unlock(&khist_event_mutex);
	/* JSON names every member: about twice the text's bytes. */
	if (json && size > PAGE_SIZE)
		size *= 2;
	if (size > PAGE_SIZE && !khist_mem_pin(size)) {
		ret = single_open_size(file, khist_hist_file_show, r, size);
		if (!ret) {
			r->pinned = size;
			return 0;
		}
		khist_mem_unpin(size);
		/* Short of memory for all of it: grow as it goes. */
		if (ret != -ENOMEM)
			goto out_free;
	}
	ret = single_open(file, khist_hist_file_show, r);
	if (!ret)
		return 0;
out_free:
	kfree(r);
	return ret;
}

static int khist_hist_file_open(struct inode *inode, struct file *file)
{
	return khist_hist_reader_open(inode, file, false);
}

/* `hist_json` (a khist extension): the same tables as one JSON document. */
static int khist_hist_json_file_open(struct inode *inode, struct file *file)
{
	return khist_hist_reader_open(inode, file, true);
}

static int khist_hist_file_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct khist_hist_reader *r = m->private;

	if (r->pinned)
		khist_mem_unpin(r->pinned);
	kfree(r);
	return single_release(inode, file);
}

static const struct file_operations khist_hist_file_fops = {
	.owner = THIS_MODULE,
	.open = khist_hist_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = khist_hist_file_release,
};

static const struct file_operations khist_hist_json_file_fops = {
	.owner = THIS_MODULE,
	.open = khist_hist_json_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = khist_hist_file_release,
};

static int khist_hist_debug_file_show(struct seq_file *m, void *v)
{
	struct khist_event *ev = m->private;
	int ret;

	mutex_lock(&khist_event_mutex);
	if (!khist_ev_live(ev))
		ret = -ENODEV;
	else
		ret = khist_hist_debug_show(m, ev);
	mutex_unlock(&khist_event_mutex);
	return ret;
}

DEFINE_SHOW_ATTRIBUTE(khist_hist_debug_file);

static void khist_event_node_release(void *data)
{
	khist_event_put(data);
}

/**
 * khist_event_files_create() - fill events/<system>/<name>/
 * @ev: the event, its directory made
 *
 * Each file holds a reference on @ev for as long as it exists.
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0 or -errno (the caller removes the directory).
 */
static int khist_event_files_create(struct khist_event *ev)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "enable", KHIST_MODE_WRITE, &khist_enable_fops },
		{ "filter", KHIST_MODE_WRITE, &khist_filter_fops },
		{ "format", KHIST_MODE_READ, &khist_format_file_fops },
		{ "hist", KHIST_MODE_READ, &khist_hist_file_fops },
		{ "hist_debug", KHIST_MODE_READ, &khist_hist_debug_file_fops },
		{ "hist_json", KHIST_MODE_READ, &khist_hist_json_file_fops },
		{ "id", KHIST_MODE_READ, &khist_id_fops },
		{ "trigger", KHIST_MODE_WRITE, &khist_trigger_fops },
	};
	struct khist_node *node;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (files[i].fops == &khist_enable_fops &&
		    (ev->def->flags & KHIST_EVF_IGNORE_ENABLE))
			continue;
		if ((files[i].fops == &khist_filter_fops ||
		     files[i].fops == &khist_trigger_fops ||
		     files[i].fops == &khist_id_fops) &&
		    (ev->def->flags & KHIST_EVF_NO_TRIGGERS))
			continue;
		node = khist_fs_create_file(ev->dir, files[i].name,
					    files[i].mode, files[i].fops, ev);
		if (IS_ERR(node))
			return PTR_ERR(node);
		khist_event_get(ev);
		khist_fs_set_release(node, khist_event_node_release);
	}
	return 0;
}

/* ---- system and global enable ---- */

struct khist_enable_walk {
	unsigned int set;
	bool on;
	int ret;
};

static int khist_enable_collect(struct khist_event *ev, void *arg)
{
	struct khist_enable_walk *w = arg;

	if (!(ev->def->flags & KHIST_EVF_IGNORE_ENABLE))
		w->set |= 1 << ev->attached;
	return 0;
}

static int khist_enable_apply(struct khist_event *ev, void *arg)
{
	struct khist_enable_walk *w = arg;
	int ret;

	if (ev->def->flags & KHIST_EVF_IGNORE_ENABLE)
		return 0;
	ret = khist_event_set_enabled(ev, w->on, false);
	if (ret && !w->ret)
		w->ret = ret;
	return 0;
}

/*
 * Is an instance still listed? rmdir unlists it first, under
 * khist_event_mutex, so its files answer ENODEV from then on.
 */
static bool khist_inst_live(struct khist_instance *inst)
{
	lockdep_assert_held(&khist_event_mutex);
	return !list_empty(&inst->list);
}

/*
 * Walk one system (events/<system>/enable: @all false, the node's data is
 * the system) or every event of an instance (events/enable: @all true, the
 * data is the instance). Both are referenced by the file's node, so they
 * are there even when removed: a system file whose directory is removed
 * (under khist_event_mutex, by the system's last event going or by rmdir),
 * or a file of an unlisted instance, gets -ENODEV.
 */
static int khist_enable_walk(struct file *file, bool all,
			     int (*fn)(struct khist_event *, void *),
			     struct khist_enable_walk *w)
{
	struct khist_instance *inst = file->private_data;
	struct khist_event *ev;

	lockdep_assert_held(&khist_event_mutex);
	if (!all) {
		if (khist_fs_node_removed(khist_fs_file_node(file)))
			return -ENODEV;
		khist_event_system_for_each(file->private_data, fn, w);
		return 0;
	}
	if (!khist_inst_live(inst))
		return -ENODEV;
	list_for_each_entry(ev, &inst->events, list)
		fn(ev, w);
	return 0;
}

static ssize_t khist_walk_enable_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos, bool all)
{
	static const char state[] = "?01X";
	struct khist_enable_walk w = {};
	char buf[2];
	int ret;

	mutex_lock(&khist_event_mutex);
	ret = khist_enable_walk(file, all, khist_enable_collect, &w);
	mutex_unlock(&khist_event_mutex);
	if (ret)
		return ret;
	buf[0] = state[w.set & 3];
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t khist_walk_enable_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos, bool all)
{
	struct khist_enable_walk w = {};
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	w.on = val;
	mutex_lock(&khist_event_mutex);
	ret = khist_enable_walk(file, all, khist_enable_apply, &w);
	mutex_unlock(&khist_event_mutex);
	if (ret)
		return ret;
	if (w.ret)
		return w.ret;
	*ppos += count;
	return count;
}

static ssize_t khist_sys_enable_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	return khist_walk_enable_read(file, ubuf, count, ppos, false);
}

static ssize_t khist_sys_enable_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	return khist_walk_enable_write(file, ubuf, count, ppos, false);
}

static const struct file_operations khist_sys_enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_sys_enable_read,
	.write = khist_sys_enable_write,
	.llseek = default_llseek,
};

static ssize_t khist_all_enable_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	return khist_walk_enable_read(file, ubuf, count, ppos, true);
}

static ssize_t khist_all_enable_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	return khist_walk_enable_write(file, ubuf, count, ppos, true);
}

/* events/enable: every event of the instance. */
static const struct file_operations khist_all_enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_all_enable_read,
	.write = khist_all_enable_write,
	.llseek = default_llseek,
};

static void khist_system_node_release(void *data)
{
	khist_event_system_put(data);
}

/**
 * khist_system_dir_create() - make events/<system>/ and its enable file
 * @events_dir: the events/ directory
 * @sys:        the system
 *
 * Each node holds a reference on @sys, so an open file keeps it.
 *
 * Context: process context, khist_event_mutex held.
 * Return: the directory or an ERR_PTR.
 */
static struct khist_node *
khist_system_dir_create(struct khist_node *events_dir,
			struct khist_event_system *sys)
{
	struct khist_node *dir, *node;

	dir = khist_fs_create_dir(events_dir, khist_event_system_name(sys),
				  sys);
	if (IS_ERR(dir))
		return dir;
	khist_event_system_get(sys);
	khist_fs_set_release(dir, khist_system_node_release);
	node = khist_fs_create_file(dir, "enable", KHIST_MODE_WRITE,
				    &khist_sys_enable_fops, sys);
	if (IS_ERR(node)) {
		khist_fs_remove(dir);
		return node;
	}
	khist_event_system_get(sys);
	khist_fs_set_release(node, khist_system_node_release);
	return dir;
}

/* ---- header_page, header_event ---- */

#define KHIST_HEADER_PAGE_FMT                                         \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"    \
	"\tfield: local_t commit;\toffset:8;\tsize:%zu;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"    \
	"\tfield: char data;\toffset:%zu;\tsize:%lu;\tsigned:%d;\n"

/* The data of a sub-buffer of the instance's buffer, at its size now. */
static ssize_t khist_header_page_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct khist_instance *inst = file->private_data;
	unsigned long sub = PAGE_SIZE;
	char buf[256];
	int len;

	if (inst->buf) {
		mutex_lock(&inst->buf->read_lock);
		sub <<= khist_rb_subbuf_order(inst->buf->rb);
		mutex_unlock(&inst->buf->read_lock);
	}
	len = scnprintf(buf, sizeof(buf), KHIST_HEADER_PAGE_FMT,
			sizeof(local_t), 8 + sizeof(local_t),
			sub - 8 - sizeof(local_t), (int)is_signed_type(char));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const char khist_header_event_text[] = "# compressed entry header\n"
					      "\ttype_len    :    5 bits\n"
					      "\ttime_delta  :   27 bits\n"
					      "\tarray       :   32 bits\n"
					      "\n"
					      "\tpadding     : type == 29\n"
					      "\ttime_extend : type == 30\n"
					      "\ttime_stamp : type == 31\n"
					      "\tdata max type_len  == 28\n";

static ssize_t khist_header_event_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos,
				       khist_header_event_text,
				       sizeof(khist_header_event_text) - 1);
}

static const struct file_operations khist_header_page_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_header_page_read,
	.llseek = default_llseek,
};

static const struct file_operations khist_header_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_header_event_read,
	.llseek = default_llseek,
};

/* ---- available_events, set_event ---- */

static int khist_events_list_show(struct seq_file *m, bool enabled_only)
{
	struct khist_instance *inst = m->private;
	struct khist_event *ev;

	mutex_lock(&khist_event_mutex);
	if (!khist_inst_live(inst)) {
		mutex_unlock(&khist_event_mutex);
		return -ENODEV;
	}
	list_for_each_entry(ev, &inst->events, list) {
		if (ev->def->flags & KHIST_EVF_IGNORE_ENABLE)
			continue;
		if (enabled_only && !ev->attached)
			continue;
		seq_printf(m, "%s:%s\n", ev->schema.system, ev->schema.name);
	}
	mutex_unlock(&khist_event_mutex);
	return 0;
}

static int khist_avail_seq(struct seq_file *m, void *v)
{
	return khist_events_list_show(m, false);
}

static int khist_set_event_seq(struct seq_file *m, void *v)
{
	return khist_events_list_show(m, true);
}

static int khist_avail_open(struct inode *inode, struct file *file)
{
	return single_open(file, khist_avail_seq, inode->i_private);
}

static const struct file_operations khist_avail_fops = {
	.owner = THIS_MODULE,
	.open = khist_avail_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* Apply one set_event token ("sys:event", "sys:*", "event", "!..."). */
static int khist_set_event_token(struct khist_instance *inst, char *tok)
{
	const char *sys = NULL, *name = tok;
	struct khist_event *ev;
	bool on = true, any = false;
	char *colon;
	int ret = 0, r;

	if (*tok == '!') {
		on = false;
		name = ++tok;
	}
	colon = strchr(tok, ':');
	if (colon) {
		*colon = '\0';
		sys = tok;
		name = colon + 1;
		if (!*sys || !strcmp(sys, "*"))
			sys = NULL;
		if (!*name || !strcmp(name, "*"))
			name = NULL;
	} else if (!strcmp(name, "*")) {
		name = NULL;
	}
	list_for_each_entry(ev, &inst->events, list) {
		if (ev->def->flags & KHIST_EVF_IGNORE_ENABLE)
			continue;
		if (sys && strcmp(sys, ev->schema.system))
			continue;
		if (name && strcmp(name, ev->schema.name) &&
		    (colon || strcmp(name, ev->schema.system)))
			continue;
		any = true;
		r = khist_event_set_enabled(ev, on, false);
		if (r && !ret)
			ret = r;
	}
	return any ? ret : -EINVAL;
}

static ssize_t khist_set_event_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct khist_instance *inst = file_inode(file)->i_private;
	char *cmd, *p, *tok;
	int ret = 0;

	cmd = khist_copy_cmd(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	p = cmd;
	mutex_lock(&khist_event_mutex);
	if (!khist_inst_live(inst))
		ret = -ENODEV;
	while (!ret && (tok = strsep(&p, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		ret = khist_set_event_token(inst, tok);
	}
	mutex_unlock(&khist_event_mutex);
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static int khist_set_event_open(struct inode *inode, struct file *file)
{
	struct khist_instance *inst = inode->i_private;
	struct khist_event *ev;

	if (khist_fs_open_truncates(file)) {
		mutex_lock(&khist_event_mutex);
		list_for_each_entry(ev, &inst->events, list)
			if (!(ev->def->flags & KHIST_EVF_IGNORE_ENABLE))
				khist_event_set_enabled(ev, false, false);
		mutex_unlock(&khist_event_mutex);
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, khist_set_event_seq, inst);
}

static int khist_set_event_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

static const struct file_operations khist_set_event_fops = {
	.owner = THIS_MODULE,
	.open = khist_set_event_open,
	.read = seq_read,
	.write = khist_set_event_write,
	.llseek = khist_trigger_llseek,
	.release = khist_set_event_release,
};

/**
 * khist_events_top_files_remove() - undo khist_events_top_files_create()
 * @inst: the instance
 *
 * Context: process context.
 */
static void khist_events_top_files_remove(struct khist_instance *inst)
{
	static const char *const ev_files[] = {
		"enable",
		"header_page",
		"header_event",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ev_files); i++)
		khist_fs_remove(khist_fs_lookup(inst->events_dir, ev_files[i]));
	khist_fs_remove(khist_fs_lookup(inst->dir, "available_events"));
	khist_fs_remove(khist_fs_lookup(inst->dir, "set_event"));
	khist_pid_files_remove(inst);
}

/**
 * khist_events_top_files_create() - events/enable, events/header_page,
 * events/header_event, available_events, set_event, set_event_pid and
 * set_event_notrace_pid
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
static int khist_events_top_files_create(struct khist_instance *inst)
{
	static const struct {
		bool events_dir;
		bool top_only;
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ true, false, "enable", KHIST_MODE_WRITE,
		  &khist_all_enable_fops },
		{ true, false, "header_page", KHIST_MODE_READ,
		  &khist_header_page_fops },
		{ true, false, "header_event", KHIST_MODE_READ,
		  &khist_header_event_fops },
		{ false, true, "available_events", KHIST_MODE_READ,
		  &khist_avail_fops },
		{ false, false, "set_event", KHIST_MODE_WRITE,
		  &khist_set_event_fops },
	};
	struct khist_node *n, *dir;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (files[i].top_only && *inst->name)
			continue;
		dir = files[i].events_dir ? inst->events_dir : inst->dir;
		n = khist_fs_create_file(dir, files[i].name, files[i].mode,
					 files[i].fops, inst);
		if (IS_ERR(n)) {
			khist_events_top_files_remove(inst);
			return PTR_ERR(n);
		}
		khist_instance_get(inst);
		khist_fs_set_release(n, khist_instance_node_release);
	}
	ret = khist_pid_files_create(inst);
	if (ret)
		khist_events_top_files_remove(inst);
	return ret;
}

static const struct khist_events_listener khist_event_files_listener = {
	.system_added = khist_system_dir_create,
	.event_added = khist_event_files_create,
	.instance_added = khist_events_top_files_create,
	.instance_removed = khist_events_top_files_remove,
};

/**
 * khist_files_init() - let the event registry make its files through files/
 *
 * Context: process context, module init, before the first instance.
 */
void khist_files_init(void)
{
	khist_events_listener_set(&khist_event_files_listener);
}

/**
 * khist_files_exit() - undo khist_files_init()
 *
 * Context: process context, module exit, after the last instance.
 */
void khist_files_exit(void)
{
	khist_events_listener_set(NULL);
}
