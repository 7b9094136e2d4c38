// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_files.c - per_cpu/cpuN/ of an instance: trace_pipe_raw, trace,
 * trace_pipe, stats and buffer_size_kb of one CPU's buffer, and
 * snapshot_raw, the same pages of the CPU's part of the snapshot.
 *
 * khist's buffer is the kernel's ring buffer, so trace_pipe_raw hands out
 * its sub-buffer pages as they are, in the layout events/header_page
 * describes: a read() consumes one page and copies as much of it as asked,
 * the rest going to the next read(); splice() moves whole, full pages.
 * An empty CPU blocks the reader, or fails with -EAGAIN under O_NONBLOCK,
 * as ftrace's trace_pipe_raw does; once the file is being closed (->flush)
 * an empty read returns 0.
 *
 * snapshot_raw holds snapshots off while it is open, as the `snapshot`
 * file does (snapshots asked for meanwhile are skipped), so the buffer it
 * consumes stays the one it opened. It has no poll(), as in ftrace: an
 * empty one gives -EAGAIN under O_NONBLOCK and otherwise blocks until it
 * is closed or a signal comes.
 *
 * Pages spliced into a pipe are copies in ordinary pages with the core
 * kernel's own pipe buffer operations: a pipe that outlives the instance,
 * or the module, holds nothing of khist.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "files/files.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"

/*
 * One open trace_pipe_raw or snapshot_raw (@snap: the snapshot buffer,
 * held for as long as the file is open). @lock serialises its readers and
 * guards the rest: @spare is the page read() copies from (@read bytes of
 * it already given), @sspare the page splice() fills, @closed is set by
 * ->flush.
 */
struct khist_raw {
	struct khist_buffer *buf;
	struct trace_buffer *snap;
	int cpu;
	struct mutex lock; /* see above */
	struct buffer_data_read_page *spare;
	struct buffer_data_read_page *sspare;
	unsigned int read;
	bool closed;
};

/* The buffer the file reads: the instance's, or the held snapshot. */
static struct trace_buffer *khist_raw_rb(struct khist_raw *r)
{
	return r->snap ?: READ_ONCE(r->buf->rb);
}

static bool khist_raw_empty(struct khist_raw *r)
{
	return ring_buffer_empty_cpu(khist_raw_rb(r), r->cpu);
}

static int khist_raw_open_common(struct inode *inode, struct file *file,
				 bool snap)
{
	struct khist_cpu_file *cf = inode->i_private;
	struct khist_raw *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->buf = cf->buf;
	r->cpu = cf->cpu;
	if (snap)
		r->snap = khist_snapshot_hold_spare(r->buf);
	/* No page read yet. */
	r->read = UINT_MAX;
	mutex_init(&r->lock);
	file->private_data = r;
	atomic_inc(&r->buf->waiters);
	return nonseekable_open(inode, file);
}

static int khist_raw_open(struct inode *inode, struct file *file)
{
	return khist_raw_open_common(inode, file, false);
}

static int khist_snap_raw_open(struct inode *inode, struct file *file)
{
	return khist_raw_open_common(inode, file, true);
}

static int khist_raw_flush(struct file *file, fl_owner_t id)
{
	struct khist_raw *r = file->private_data;

	WRITE_ONCE(r->closed, true);
	wake_up_all(&r->buf->wait);
	return 0;
}

static int khist_raw_release(struct inode *inode, struct file *file)
{
	struct khist_raw *r = file->private_data;
	struct khist_buffer *buf = r->buf;

	atomic_dec(&buf->waiters);
	mutex_lock(&buf->read_lock);
	if (r->spare)
		khist_rb_free_read_page(khist_raw_rb(r), r->cpu, r->spare);
	if (r->sspare)
		khist_rb_free_read_page(khist_raw_rb(r), r->cpu, r->sspare);
	mutex_unlock(&buf->read_lock);
	if (r->snap)
		khist_snapshot_unhold(buf);
	mutex_destroy(&r->lock);
	kfree(r);
	return 0;
}

/*
 * Read a sub-buffer of the CPU into *@rpp: up to @len bytes of records,
 * or only a full page when @full. buf->read_lock keeps buf->rb from being
 * resized under the read (a snapshot swap may still move it: the spare
 * pages are not tied to one buffer).
 */
static int khist_raw_fill(struct khist_raw *r,
			  struct buffer_data_read_page **rpp, size_t len,
			  int full)
{
	struct khist_buffer *buf = r->buf;
	struct trace_buffer *rb;
	int ret;

	mutex_lock(&buf->read_lock);
	rb = khist_raw_rb(r);
	ret = khist_rb_alloc_read_page(rb, r->cpu, rpp);
	if (!ret)
		ret = khist_rb_read_page(rb, rpp, len, r->cpu, full) < 0 ?
			      -ENODATA :
			      0;
	mutex_unlock(&buf->read_lock);
	return ret;
}

/*
 * splice() waits, as ftrace's does by default (buffer_percent 50), until
 * half the CPU's buffer is filled, tracing stops or the file is closed,
 * then takes what full pages there are.
 */
static bool khist_raw_half_full(struct khist_raw *r)
{
	struct trace_buffer *rb = khist_raw_rb(r);

	/* A snapshot's reader waits for any data, as in ftrace. */
	if (r->snap)
		return !khist_raw_empty(r);
	return !READ_ONCE(r->buf->on) ||
	       ring_buffer_bytes_cpu(rb, r->cpu) * 2 >=
		       ring_buffer_size(rb, r->cpu);
}

/*
 * What a blocked reader waits for: data (read()), or (@half, splice())
 * half the buffer filled or tracing off; or its file being closed.
 */
static bool khist_raw_ready(struct khist_raw *r, bool half)
{
	if (READ_ONCE(r->closed))
		return true;
	return half ? khist_raw_half_full(r) : !khist_raw_empty(r);
}

/*
 * Sleep until khist_raw_ready() or a signal (-EINTR, as ftrace); the
 * timeout covers a wakeup raced past by a writer.
 */
static int khist_raw_wait(struct khist_raw *r, bool half)
{
	while (!khist_raw_ready(r, half))
		if (wait_event_interruptible_timeout(r->buf->wait,
						     khist_raw_ready(r, half),
						     HZ / 10) < 0)
			return -EINTR;
	return 0;
}

static ssize_t khist_raw_read(struct file *file, char __user *ubuf, size_t cnt,
			      loff_t *ppos)
{
	struct khist_raw *r = file->private_data;
	unsigned int size;
	ssize_t ret;
	size_t n;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	for (;;) {
		size = khist_rb_read_page_size(r->spare);
		/* What an earlier short read left of the page comes first. */
		if (r->read < size)
			break;
		ret = khist_raw_fill(r, &r->spare, cnt, 0);
		if (ret != -ENODATA && ret)
			goto out;
		if (!ret) {
			r->read = 0;
			continue;
		}
		/* Records too big for @cnt, or a reader closing: EOF. */
		ret = 0;
		if (!khist_raw_empty(r) || READ_ONCE(r->closed))
			goto out;
		ret = -EAGAIN;
		if (file->f_flags & O_NONBLOCK)
			goto out;
		mutex_unlock(&r->lock);
		ret = khist_raw_wait(r, false);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
	}
	n = min_t(size_t, size - r->read, cnt);
	ret = n - copy_to_user(ubuf,
			       khist_rb_read_page_data(r->spare) + r->read, n);
	if (!ret) {
		ret = -EFAULT;
		goto out;
	}
	r->read += ret;
	*ppos += ret;
out:
	mutex_unlock(&r->lock);
	return ret;
}

static void khist_raw_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

static ssize_t khist_raw_splice_read(struct file *file, loff_t *ppos,
				     struct pipe_inode_info *pipe, size_t len,
				     unsigned int flags)
{
	struct khist_raw *r = file->private_data;
	struct partial_page partial[PIPE_DEF_BUFFERS];
	struct page *pages[PIPE_DEF_BUFFERS];
	struct splice_pipe_desc spd = {
		.pages = pages,
		.partial = partial,
		.nr_pages_max = PIPE_DEF_BUFFERS,
		.ops = &nosteal_pipe_buf_ops,
		.spd_release = khist_raw_spd_release,
	};
	bool woken = false;
	unsigned int order;
	struct page *page;
	ssize_t ret = 0;
	size_t sub;

again:
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	while (spd.nr_pages < PIPE_DEF_BUFFERS && !khist_raw_empty(r)) {
		/*
		 * Whole sub-buffers only, at sub-buffer offsets: an error
		 * unless some were spliced already. A change of their size
		 * meanwhile is caught below.
		 */
		order = khist_rb_subbuf_order(khist_raw_rb(r));
		sub = PAGE_SIZE << order;
		if (!IS_ALIGNED(*ppos, sub) || len < sub) {
			if (!spd.nr_pages)
				ret = -EINVAL;
			break;
		}
		page = alloc_pages(GFP_KERNEL | __GFP_COMP, order);
		if (!page) {
			ret = -ENOMEM;
			break;
		}
		ret = khist_raw_fill(r, &r->sspare, sub, 1);
		if (!ret && khist_rb_read_page_size(r->sspare) != sub)
			ret = -EINVAL;
		if (ret) {
			__free_pages(page, order);
			if (ret == -ENODATA)
				ret = 0;
			break;
		}
		memcpy(page_address(page), khist_rb_read_page_data(r->sspare),
		       sub);
		pages[spd.nr_pages] = page;
		partial[spd.nr_pages].offset = 0;
		partial[spd.nr_pages].len = sub;
		partial[spd.nr_pages].private = 0;
		spd.nr_pages++;
		*ppos += sub;
		len -= sub;
	}
	mutex_unlock(&r->lock);
	if (spd.nr_pages)
		return splice_to_pipe(pipe, &spd);
	if (ret || woken)
		return ret;
	if ((file->f_flags & O_NONBLOCK) || (flags & SPLICE_F_NONBLOCK))
		return -EAGAIN;
	ret = khist_raw_wait(r, true);
	if (ret)
		return ret;
	/* Tracing off: nothing more will come. */
	if (!r->snap && !READ_ONCE(r->buf->on))
		return 0;
	woken = true;
	goto again;
}

static __poll_t khist_raw_poll(struct file *file, poll_table *pt)
{
	struct khist_raw *r = file->private_data;

	poll_wait(file, &r->buf->wait, pt);
	if (!khist_raw_empty(r))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations khist_raw_fops = {
	.owner = THIS_MODULE,
	.open = khist_raw_open,
	.read = khist_raw_read,
	.splice_read = khist_raw_splice_read,
	.poll = khist_raw_poll,
	.flush = khist_raw_flush,
	.release = khist_raw_release,
};

static const struct file_operations khist_snap_raw_fops = {
	.owner = THIS_MODULE,
	.open = khist_snap_raw_open,
	.read = khist_raw_read,
	.splice_read = khist_raw_splice_read,
	.flush = khist_raw_flush,
	.release = khist_raw_release,
};

/* ---- stats ---- */

/* A ring buffer timestamp (ns of the local clock) as ftrace shows it. */
static int khist_ts_print(char *s, size_t size, const char *what, u64 ns)
{
	u64 us = DIV_ROUND_CLOSEST_ULL(ns, NSEC_PER_USEC);
	u32 rem;

	us = div_u64_rem(us, USEC_PER_SEC, &rem);
	return scnprintf(s, size, "%s: %5llu.%06u\n", what, us, rem);
}

/*
 * The counters of the kernel's ring buffer for this CPU, exactly; the
 * records khist itself could not deliver are in the top-level `stats`.
 */
static ssize_t khist_cpu_stats_read(struct file *file, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct khist_cpu_file *cf = file->private_data;
	struct khist_buffer *buf = cf->buf;
	struct trace_buffer *rb;
	int cpu = cf->cpu;
	size_t len = 0;
	char str[320];

	mutex_lock(&buf->read_lock);
	rb = buf->rb;
	len += scnprintf(str + len, sizeof(str) - len,
			 "entries: %lu\noverrun: %lu\ncommit overrun: %lu\n"
			 "bytes: %lu\n",
			 ring_buffer_entries_cpu(rb, cpu),
			 ring_buffer_overrun_cpu(rb, cpu),
			 ring_buffer_commit_overrun_cpu(rb, cpu),
			 ring_buffer_bytes_cpu(rb, cpu));
	len += khist_ts_print(str + len, sizeof(str) - len, "oldest event ts",
			      ring_buffer_oldest_event_ts(rb, cpu));
	len += khist_ts_print(str + len, sizeof(str) - len, "now ts",
			      ring_buffer_time_stamp(rb));
	len += scnprintf(str + len, sizeof(str) - len,
			 "dropped events: %lu\nread events: %lu\n",
			 ring_buffer_dropped_events_cpu(rb, cpu),
			 ring_buffer_read_events_cpu(rb, cpu));
	mutex_unlock(&buf->read_lock);
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

static const struct file_operations khist_cpu_stats_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_cpu_stats_read,
	.llseek = default_llseek,
};

/* ---- buffer_size_kb ---- */

static ssize_t khist_cpu_size_read(struct file *file, char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct khist_cpu_file *cf = file->private_data;
	unsigned long size;
	char str[24];
	int len;

	/* As the last resize left it, as ftrace shows it. */
	size = READ_ONCE(cf->buf->entries[cf->cpu]);
	len = scnprintf(str, sizeof(str), "%lu\n", size >> 10);
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

/*
 * As ftrace: KiB, not 0; this CPU's buffer (and its snapshot's, when
 * allocated) alone gets the size, the others keep theirs.
 */
static ssize_t khist_cpu_size_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct khist_cpu_file *cf = file->private_data;
	unsigned long kb;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &kb);
	if (ret)
		return ret;
	if (!kb || kb > (ULONG_MAX >> 10))
		return -EINVAL;
	mutex_lock(&cf->buf->read_lock);
	ret = khist_ringbuf_resize(cf->buf, kb << 10, cf->cpu);
	mutex_unlock(&cf->buf->read_lock);
	if (ret < 0)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_cpu_size_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_cpu_size_read,
	.write = khist_cpu_size_write,
	.llseek = default_llseek,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} khist_percpu_files[] = {
	{ "trace_pipe_raw", KHIST_MODE_READ, &khist_raw_fops },
	{ "trace", KHIST_MODE_WRITE, &khist_trace_percpu_fops },
	{ "trace_pipe", KHIST_MODE_READ, &khist_pipe_percpu_fops },
	{ "stats", KHIST_MODE_READ, &khist_cpu_stats_fops },
	{ "buffer_size_kb", KHIST_MODE_WRITE, &khist_cpu_size_fops },
	{ "snapshot_raw", KHIST_MODE_READ, &khist_snap_raw_fops },
};

static void khist_percpu_file_release(void *data)
{
	struct khist_cpu_file *cf = data;

	khist_instance_put(cf->buf->inst);
}

/* cpuN/ outlives its files (each holds its parent): it frees @cf. */
static void khist_percpu_dir_release(void *data)
{
	kfree(data);
}

static int khist_percpu_dir_create(struct khist_instance *inst,
				   struct khist_node *per_cpu, int cpu)
{
	struct khist_node *dir, *node;
	struct khist_cpu_file *cf;
	char name[16];
	unsigned int i;

	cf = kzalloc(sizeof(*cf), GFP_KERNEL);
	if (!cf)
		return -ENOMEM;
	cf->buf = inst->buf;
	cf->cpu = cpu;
	snprintf(name, sizeof(name), "cpu%d", cpu);
	dir = khist_fs_create_dir(per_cpu, name, cf);
	if (IS_ERR(dir)) {
		kfree(cf);
		return PTR_ERR(dir);
	}
	khist_fs_set_release(dir, khist_percpu_dir_release);
	for (i = 0; i < ARRAY_SIZE(khist_percpu_files); i++) {
		node = khist_fs_create_file(dir, khist_percpu_files[i].name,
					    khist_percpu_files[i].mode,
					    khist_percpu_files[i].fops, cf);
		if (IS_ERR(node))
			return PTR_ERR(node);
		/* The buffer lives as long as the instance. */
		khist_instance_get(inst);
		khist_fs_set_release(node, khist_percpu_file_release);
	}
	return 0;
}

/**
 * khist_percpu_files_create() - add per_cpu/cpuN/ for every possible CPU
 * @inst: the instance, its buffer allocated
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_percpu_files_create(struct khist_instance *inst)
{
	struct khist_node *per_cpu;
	int cpu, ret;

	per_cpu = khist_fs_create_dir(inst->dir, "per_cpu", NULL);
	if (IS_ERR(per_cpu))
		return PTR_ERR(per_cpu);
	for_each_possible_cpu(cpu) {
		ret = khist_percpu_dir_create(inst, per_cpu, cpu);
		if (ret) {
			khist_fs_remove(per_cpu);
			return ret;
		}
	}
	return 0;
}

/**
 * khist_percpu_files_remove() - remove what khist_percpu_files_create() made
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_percpu_files_remove(struct khist_instance *inst)
{
	khist_fs_remove(khist_fs_lookup(inst->dir, "per_cpu"));
}
