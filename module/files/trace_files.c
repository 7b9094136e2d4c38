// SPDX-License-Identifier: GPL-2.0
/*
 * trace_files.c - trace, trace_pipe, trace_marker, trace_marker_raw,
 * tracing_on and buffer_size_kb at the root of the instance.
 *
 * `trace` reads the buffer without consuming it, merging the CPUs by
 * timestamp; with options/pause-on-trace set (the default, as in ftrace)
 * recording stops while a reader has it open. Opening it for writing with
 * O_TRUNC empties the buffer. `trace_pipe` consumes, and blocks while the
 * buffer is empty unless opened with O_NONBLOCK.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "events/events.h"
#include "files/files.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"
#include "mem/mem.h"

/*
 * The most text one trace_marker write() records: ftrace's cap
 * (KHIST_MARKER_CAP, compat.h), then what the biggest event of a 4 KiB
 * sub-buffer (ring_buffer_max_event_size(): the page less its 16-byte
 * header, two 4-byte words of event header and length) leaves after the
 * print record's fields and the "\n\0". A longer write records that much
 * and returns the short count, so the writer's next write() records the
 * rest as a new line, as ftrace does.
 */
#define KHIST_MARKER_EVENT_MAX (PAGE_SIZE - 16 - 2 * 4)

/* ---- trace ---- */

struct khist_trace_iter {
	struct trace_buffer *rb;
	khist_trace_header_fn header;
	void *data;
	struct ring_buffer_iter **it;
	loff_t idx;
	int cpu;
	int only;
	u64 ts;
	void *rec;
	unsigned int size;
	struct khist_buffer *paused;
	struct khist_out out;
};

/*
 * A line longer than @out holds (a big record whose fields print long)
 * is cut, and still ends with its newline.
 */
static void khist_out_cut_line(struct khist_out *out)
{
	if (out->len < out->size)
		return;
	out->buf[out->size - 1] = '\n';
	out->len = out->size;
}

static bool khist_trace_peek(struct khist_trace_iter *ti)
{
	struct ring_buffer_event *e, *best = NULL;
	u64 ts, best_ts = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!ti->it[cpu])
			continue;
		e = ring_buffer_iter_peek(ti->it[cpu], &ts);
		if (e && (!best || ts < best_ts)) {
			best = e;
			best_ts = ts;
			ti->cpu = cpu;
		}
	}
	if (!best)
		return false;
	ti->ts = best_ts;
	ti->rec = ring_buffer_event_data(best);
	ti->size = ring_buffer_event_length(best);
	return true;
}

static void *khist_trace_start(struct seq_file *m, loff_t *pos)
{
	struct khist_trace_iter *ti = m->private;
	int cpu;

	if (!*pos)
		return SEQ_START_TOKEN;
	/*
	 * A seek walks from the start again. The iterators are this file's
	 * own (seq_file serialises its reads), so no global lock is held
	 * while walking: however far the seek, root's writes never wait.
	 */
	if (*pos != ti->idx) {
		for_each_possible_cpu(cpu)
			if (ti->it[cpu])
				ring_buffer_iter_reset(ti->it[cpu]);
		ti->idx = 1;
		while (ti->idx < *pos && khist_trace_peek(ti)) {
			ring_buffer_iter_advance(ti->it[ti->cpu]);
			ti->idx++;
			if (fatal_signal_pending(current))
				return ERR_PTR(-EINTR);
			cond_resched();
		}
		if (ti->idx != *pos)
			return NULL;
	}
	return khist_trace_peek(ti) ? ti : NULL;
}

static void *khist_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct khist_trace_iter *ti = m->private;

	(*pos)++;
	if (v != SEQ_START_TOKEN)
		ring_buffer_iter_advance(ti->it[ti->cpu]);
	ti->idx = *pos;
	return khist_trace_peek(ti) ? ti : NULL;
}

static void khist_trace_stop(struct seq_file *m, void *v)
{
}

/* khist_event_mutex is held for one line at a time (events, options). */
static int khist_trace_show(struct seq_file *m, void *v)
{
	struct khist_trace_iter *ti = m->private;

	ti->out.len = 0;
	mutex_lock(&khist_event_mutex);
	if (v == SEQ_START_TOKEN)
		ti->header(&ti->out, ti->rb, !khist_trace_peek(ti), ti->data);
	else
		khist_ringbuf_format(&ti->out, ti->cpu, ti->ts, ti->rec,
				     ti->size);
	khist_out_cut_line(&ti->out);
	mutex_unlock(&khist_event_mutex);
	seq_write(m, ti->out.buf, ti->out.len);
	return 0;
}

static const struct seq_operations khist_trace_sops = {
	.start = khist_trace_start,
	.next = khist_trace_next,
	.stop = khist_trace_stop,
	.show = khist_trace_show,
};

static void khist_trace_iter_free(struct khist_trace_iter *ti)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (ti->it[cpu])
			ring_buffer_read_finish(ti->it[cpu]);
	if (ti->paused) {
		ring_buffer_record_enable(ti->rb);
		khist_snapshot_unhold(ti->paused);
	}
	kfree(ti->it);
	kfree(ti->out.buf);
}

/**
 * khist_trace_view_open() - open a file that shows a ring buffer like `trace`
 * @inode:  the file's inode
 * @file:   the file, opened for reading
 * @rb:     the buffer shown
 * @header: prints the comment block above the records
 * @data:   passed to @header
 *
 * The caller keeps @rb alive until khist_trace_view_release().
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int khist_trace_view_open(struct inode *inode, struct file *file,
			  struct trace_buffer *rb, khist_trace_header_fn header,
			  void *data)
{
	return khist_trace_view_open_cpu(inode, file, rb, RING_BUFFER_ALL_CPUS,
					 header, data);
}

/**
 * khist_trace_view_open_cpu() - khist_trace_view_open() of one CPU's records
 * @inode:  the file's inode
 * @file:   the file, opened for reading
 * @rb:     the buffer shown
 * @only:   the CPU shown, or RING_BUFFER_ALL_CPUS
 * @header: prints the comment block above the records
 * @data:   passed to @header
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int khist_trace_view_open_cpu(struct inode *inode, struct file *file,
			      struct trace_buffer *rb, int only,
			      khist_trace_header_fn header, void *data)
{
	struct khist_trace_iter *ti;
	int cpu;

	ti = __seq_open_private(file, &khist_trace_sops, sizeof(*ti));
	if (!ti)
		return -ENOMEM;
	ti->rb = rb;
	ti->header = header;
	ti->data = data;
	ti->idx = 1;
	ti->only = only;
	ti->out.size = KHIST_LINE_MAX;
	ti->out.kaddr = khist_kaddr_ok(file);
	ti->out.buf = kmalloc(KHIST_LINE_MAX, GFP_KERNEL);
	ti->it = kcalloc(nr_cpu_ids, sizeof(*ti->it), GFP_KERNEL);
	if (!ti->out.buf || !ti->it)
		goto fail;
	for_each_possible_cpu(cpu)
		if (only == RING_BUFFER_ALL_CPUS || cpu == only)
			ti->it[cpu] =
				ring_buffer_read_start(rb, cpu, GFP_KERNEL);
	return 0;
fail:
	kfree(ti->it);
	ti->it = NULL;
	kfree(ti->out.buf);
	seq_release_private(inode, file);
	return -ENOMEM;
}

/**
 * khist_trace_view_release() - close what khist_trace_view_open() opened
 * @inode: the file's inode
 * @file:  the file
 *
 * Context: process context.
 * Return: 0.
 */
int khist_trace_view_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	khist_trace_iter_free(m->private);
	return seq_release_private(inode, file);
}

static void khist_trace_header(struct khist_out *out, struct trace_buffer *rb,
			       bool empty, void *data)
{
	khist_ringbuf_header(out, rb);
}

static int khist_trace_open_cpu(struct inode *inode, struct file *file,
				struct khist_buffer *buf, int only)
{
	struct trace_buffer *rb;
	struct seq_file *m;
	bool pause;
	int ret;

	if (khist_fs_open_truncates(file)) {
		if (only == RING_BUFFER_ALL_CPUS)
			ring_buffer_reset(READ_ONCE(buf->rb));
		else
			ring_buffer_reset_cpu(READ_ONCE(buf->rb), only);
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	/*
	 * Stop recording first, as ftrace does, so the view is stable; no
	 * snapshot is taken meanwhile either (ftrace's stopped tracing).
	 */
	pause = khist_option_get(buf->inst, KHIST_OPT_PAUSE_ON_TRACE);
	if (pause)
		khist_snapshot_hold(buf);
	rb = READ_ONCE(buf->rb);
	if (pause)
		ring_buffer_record_disable(rb);
	ret = khist_trace_view_open_cpu(inode, file, rb, only,
					khist_trace_header, NULL);
	if (ret) {
		if (pause) {
			ring_buffer_record_enable(rb);
			khist_snapshot_unhold(buf);
		}
		return ret;
	}
	m = file->private_data;
	if (pause)
		((struct khist_trace_iter *)m->private)->paused = buf;
	return 0;
}

static int khist_trace_open(struct inode *inode, struct file *file)
{
	return khist_trace_open_cpu(inode, file, inode->i_private,
				    RING_BUFFER_ALL_CPUS);
}

static int khist_trace_percpu_open(struct inode *inode, struct file *file)
{
	struct khist_cpu_file *cf = inode->i_private;

	return khist_trace_open_cpu(inode, file, cf->buf, cf->cpu);
}

static int khist_trace_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return khist_trace_view_release(inode, file);
}

static ssize_t khist_trace_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	return cnt;
}

static loff_t khist_trace_llseek(struct file *file, loff_t off, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, off, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations khist_trace_fops = {
	.owner = THIS_MODULE,
	.open = khist_trace_open,
	.read = seq_read,
	.write = khist_trace_write,
	.llseek = khist_trace_llseek,
	.release = khist_trace_release,
};

/* per_cpu/cpuN/trace: inode->i_private is a struct khist_cpu_file. */
const struct file_operations khist_trace_percpu_fops = {
	.owner = THIS_MODULE,
	.open = khist_trace_percpu_open,
	.read = seq_read,
	.write = khist_trace_write,
	.llseek = khist_trace_llseek,
	.release = khist_trace_release,
};

/* ---- trace_pipe ---- */

/*
 * One open trace_pipe: @lock serialises the readers of this file and
 * guards @out and @pos, the formatted record not yet copied out. @only is
 * the CPU it reads (per_cpu/cpuN/trace_pipe) or RING_BUFFER_ALL_CPUS.
 */
struct khist_pipe {
	struct khist_buffer *buf;
	int only;
	struct mutex lock; /* see above */
	struct khist_out out;
	size_t pos;
};

static bool khist_rb_empty(struct khist_buffer *buf, int only)
{
	struct trace_buffer *rb = READ_ONCE(buf->rb);

	if (only == RING_BUFFER_ALL_CPUS)
		return ring_buffer_empty(rb);
	return ring_buffer_empty_cpu(rb, only);
}

/* Consume the oldest record of any CPU and format it into p->out. */
static bool khist_pipe_fill(struct khist_pipe *p)
{
	struct trace_buffer *rb = READ_ONCE(p->buf->rb);
	struct ring_buffer_event *e;
	unsigned long lost = 0;
	int cpu, best_cpu = -1;
	u64 ts, best_ts = 0;

	for_each_possible_cpu(cpu) {
		if (p->only != RING_BUFFER_ALL_CPUS && cpu != p->only)
			continue;
		e = ring_buffer_peek(rb, cpu, &ts, NULL);
		if (e && (best_cpu < 0 || ts < best_ts)) {
			best_cpu = cpu;
			best_ts = ts;
		}
	}
	if (best_cpu < 0)
		return false;
	p->out.len = 0;
	p->pos = 0;
	mutex_lock(&khist_event_mutex);
	e = ring_buffer_consume(rb, best_cpu, &ts, &lost);
	if (lost)
		khist_out_printf(&p->out, "CPU:%d [LOST %lu EVENTS]\n",
				 best_cpu, lost);
	if (e)
		khist_ringbuf_format(&p->out, best_cpu, ts,
				     ring_buffer_event_data(e),
				     ring_buffer_event_length(e));
	mutex_unlock(&khist_event_mutex);
	khist_out_cut_line(&p->out);
	return true;
}

static bool khist_pipe_ready(struct khist_pipe *p)
{
	return !khist_rb_empty(p->buf, p->only);
}

static long khist_pipe_wait(struct khist_pipe *p)
{
	return wait_event_interruptible_timeout(p->buf->wait,
						khist_pipe_ready(p), HZ / 10);
}

static int khist_pipe_open_cpu(struct inode *inode, struct file *file,
			       struct khist_buffer *buf, int only)
{
	struct khist_pipe *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->out.buf = kmalloc(KHIST_LINE_MAX, GFP_KERNEL);
	if (!p->out.buf) {
		kfree(p);
		return -ENOMEM;
	}
	p->out.size = KHIST_LINE_MAX;
	p->out.kaddr = khist_kaddr_ok(file);
	p->buf = buf;
	p->only = only;
	mutex_init(&p->lock);
	file->private_data = p;
	atomic_inc(&buf->waiters);
	return nonseekable_open(inode, file);
}

static int khist_pipe_open(struct inode *inode, struct file *file)
{
	return khist_pipe_open_cpu(inode, file, inode->i_private,
				   RING_BUFFER_ALL_CPUS);
}

static int khist_pipe_percpu_open(struct inode *inode, struct file *file)
{
	struct khist_cpu_file *cf = inode->i_private;

	return khist_pipe_open_cpu(inode, file, cf->buf, cf->cpu);
}

static int khist_pipe_release(struct inode *inode, struct file *file)
{
	struct khist_pipe *p = file->private_data;

	atomic_dec(&p->buf->waiters);
	mutex_destroy(&p->lock);
	kfree(p->out.buf);
	kfree(p);
	return 0;
}

/*
 * Copy what p->out holds to the user, under p->lock only: a reader whose
 * buffer faults slowly (userfaultfd, FUSE) then stalls its own file, never
 * buf->read_lock, which tracing_on and buffer_size_kb writes take.
 */
static ssize_t khist_pipe_read(struct file *file, char __user *ubuf, size_t cnt,
			       loff_t *ppos)
{
	struct khist_pipe *p = file->private_data;
	size_t done = 0, n;
	bool filled;
	long ret;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&p->lock))
		return -ERESTARTSYS;
	for (;;) {
		if (p->pos < p->out.len) {
			n = p->out.len - p->pos;
			/* Whole lines only, unless one line is all we have. */
			if (n > cnt - done && done)
				break;
			n = min(n, cnt - done);
			if (copy_to_user(ubuf + done, p->out.buf + p->pos, n)) {
				ret = -EFAULT;
				goto out;
			}
			p->pos += n;
			done += n;
			if (done == cnt)
				break;
			continue;
		}
		mutex_lock(&p->buf->read_lock);
		filled = khist_pipe_fill(p);
		mutex_unlock(&p->buf->read_lock);
		if (filled)
			continue;
		if (done)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
		mutex_unlock(&p->lock);
		/* The timeout covers a wakeup raced past by a writer. */
		ret = khist_pipe_wait(p);
		if (ret < 0)
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&p->lock))
			return -ERESTARTSYS;
	}
	ret = done;
out:
	mutex_unlock(&p->lock);
	return ret;
}

static __poll_t khist_pipe_poll(struct file *file, poll_table *pt)
{
	struct khist_pipe *p = file->private_data;

	poll_wait(file, &p->buf->wait, pt);
	if (p->pos < p->out.len || !khist_rb_empty(p->buf, p->only))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations khist_pipe_fops = {
	.owner = THIS_MODULE,
	.open = khist_pipe_open,
	.read = khist_pipe_read,
	.poll = khist_pipe_poll,
	.release = khist_pipe_release,
};

/* per_cpu/cpuN/trace_pipe: inode->i_private is a struct khist_cpu_file. */
const struct file_operations khist_pipe_percpu_fops = {
	.owner = THIS_MODULE,
	.open = khist_pipe_percpu_open,
	.read = khist_pipe_read,
	.poll = khist_pipe_poll,
	.release = khist_pipe_release,
};

/* ---- trace_marker ---- */

static ssize_t khist_marker_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	size_t len = min_t(size_t, cnt, KHIST_MARKER_CAP);
	struct khist_event *ev;
	struct khist_rec_ctx ctx = { .rbe = NULL };
	unsigned int size;
	char *text, *rec;
	bool recorded;

	/* options/markers off: refused, as in ftrace. */
	if (!khist_option_get(buf->inst, KHIST_OPT_MARKERS))
		return -EINVAL;
	if ((ssize_t)cnt < 0)
		return -EINVAL;
	if (!cnt)
		return 0;
	len = min_t(size_t, len,
		    KHIST_MARKER_EVENT_MAX - khist_print_def.rec_size - 2);
	text = memdup_user(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	/* header, ip, text, a newline if missing, NUL */
	size = khist_print_def.rec_size + len + 2;
	preempt_disable_notrace();
	/* The instance's own print event; freed only after a grace period. */
	ev = READ_ONCE(buf->inst->print_ev);
	rec = ev ? khist_rec_reserve_ev(&ctx, ev, size) : NULL;
	recorded = rec && ctx.rbe;
	if (rec) {
		char *s = rec + khist_print_def.rec_size;

		*(unsigned long *)(rec + sizeof(struct khist_common_hdr)) =
			(unsigned long)khist_marker_write;
		memcpy(s, text, len);
		s[len] = '\0';
		khist_rec_commit_marker(&ctx, s, len);
	}
	preempt_enable_notrace();
	kfree(text);
	/*
	 * Not in the buffer (tracing_on is 0, the CPU is not in
	 * tracing_cpumask, the buffer refused it): -EBADF, as ftrace answers
	 * when its buffer refuses a marker. The triggers of the print event
	 * have still seen it, as they see the events of a stopped buffer.
	 */
	return recorded ? len : -EBADF;
}

static const struct file_operations khist_marker_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = khist_marker_write,
};

/* ---- trace_marker_raw ---- */

/* What ftrace records when the writer's bytes fault: id -1, this text. */
#define KHIST_RAW_FAULTED "<faulted>"
#define KHIST_RAW_FAULTED_LEN (sizeof(KHIST_RAW_FAULTED) - 1)

/*
 * One write() is one ftrace/raw_data record: a 4-byte id, then the bytes.
 * As ftrace: fewer than 4 bytes or a record bigger than the buffer's
 * biggest event is -EINVAL (before 6.7: more than 3 KiB is -EINVAL and
 * more than 1 KiB is cut to 1 KiB), a refused record -EBADF; the record
 * has room for "<faulted>", 4 bytes more than the write (ftrace's size),
 * and those bytes and the padding of the event are zeroed here, so what
 * `trace` shows of them is known. No trigger sees it, as in ftrace.
 */
static ssize_t khist_marker_raw_write(struct file *file,
				      const char __user *ubuf, size_t cnt,
				      loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned int min = KHIST_RAW_FAULTED_LEN + sizeof(u32);
	struct khist_rec_ctx ctx = { .rbe = NULL };
	unsigned int size, len;
	struct khist_event *ev;
	bool recorded, faulted;
	char *data, *rec;

	if (!khist_option_get(buf->inst, KHIST_OPT_MARKERS))
		return -EINVAL;
	if ((ssize_t)cnt < 0 || cnt < sizeof(u32) || cnt > KHIST_RAW_MAX)
		return -EINVAL;
	if (cnt > KHIST_MARKER_CAP)
		cnt = KHIST_MARKER_CAP;
	size = khist_raw_data_def.rec_size + max_t(unsigned int, cnt, min);
	if (size > KHIST_MARKER_EVENT_MAX)
		return -EINVAL;
	data = kmalloc(cnt, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	faulted = copy_from_user(data, ubuf, cnt);
	preempt_disable_notrace();
	/* The instance's own raw_data event; freed after a grace period. */
	ev = READ_ONCE(buf->inst->raw_ev);
	rec = ev ? khist_rec_reserve_ev(&ctx, ev, size) : NULL;
	recorded = rec && ctx.rbe;
	if (rec) {
		len = ctx.rbe ? ring_buffer_event_length(ctx.rbe) : size;
		memset(rec + sizeof(struct khist_common_hdr), 0,
		       len - sizeof(struct khist_common_hdr));
		if (faulted) {
			*(u32 *)(rec + sizeof(struct khist_common_hdr)) = -1;
			memcpy(rec + khist_raw_data_def.rec_size,
			       KHIST_RAW_FAULTED, KHIST_RAW_FAULTED_LEN);
		} else {
			memcpy(rec + sizeof(struct khist_common_hdr), data,
			       cnt);
		}
		khist_rec_commit_quiet(&ctx);
	}
	preempt_enable_notrace();
	kfree(data);
	if (!recorded)
		return -EBADF;
	return faulted ? -EFAULT : cnt;
}

static const struct file_operations khist_marker_raw_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = khist_marker_raw_write,
};

/* ---- tracing_on, buffer_size_kb ---- */

static ssize_t khist_on_read(struct file *file, char __user *ubuf, size_t cnt,
			     loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	char s[4];
	int len;

	len = scnprintf(s, sizeof(s), "%d\n", READ_ONCE(buf->on));
	return simple_read_from_buffer(ubuf, cnt, ppos, s, len);
}

static ssize_t khist_on_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&buf->read_lock);
	if (val)
		ring_buffer_record_on(buf->rb);
	else
		ring_buffer_record_off(buf->rb);
	WRITE_ONCE(buf->on, !!val);
	mutex_unlock(&buf->read_lock);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_on_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_on_read,
	.write = khist_on_write,
	.llseek = default_llseek,
};

static ssize_t khist_size_read(struct file *file, char __user *ubuf, size_t cnt,
			       loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long size = 0, s;
	bool same = true;
	char str[24];
	int cpu, len;

	/* The sizes the last resizes left, as ftrace shows them. */
	for_each_possible_cpu(cpu) {
		s = READ_ONCE(buf->entries[cpu]);
		if (size && s != size)
			same = false;
		size = s;
	}
	if (same)
		len = scnprintf(str, sizeof(str), "%lu\n", size >> 10);
	else
		len = scnprintf(str, sizeof(str), "X\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

static ssize_t khist_size_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long kb;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &kb);
	if (ret)
		return ret;
	if (!kb || kb > (ULONG_MAX >> 10))
		return -EINVAL;
	mutex_lock(&buf->read_lock);
	ret = khist_ringbuf_resize(buf, kb << 10, RING_BUFFER_ALL_CPUS);
	mutex_unlock(&buf->read_lock);
	if (ret < 0)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations khist_size_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_size_read,
	.write = khist_size_write,
	.llseek = default_llseek,
};

/*
 * stats: the fields of ftrace's per_cpu/cpuN/stats, summed over the online
 * CPUs; "dropped events" adds the records khist itself could not deliver
 * to this instance's buffer or triggers (struct khist_buffer's @dropped).
 */
static ssize_t khist_stats_read(struct file *file, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct khist_buffer *buf = file->private_data;
	unsigned long entries = 0, overrun = 0, commit = 0, bytes = 0;
	unsigned long dropped = 0, read = 0;
	struct trace_buffer *rb;
	char str[192];
	int cpu, len;

	mutex_lock(&buf->read_lock);
	rb = buf->rb;
	for_each_online_cpu(cpu) {
		entries += ring_buffer_entries_cpu(rb, cpu);
		overrun += ring_buffer_overrun_cpu(rb, cpu);
		commit += ring_buffer_commit_overrun_cpu(rb, cpu);
		bytes += ring_buffer_bytes_cpu(rb, cpu);
		dropped += ring_buffer_dropped_events_cpu(rb, cpu);
		read += ring_buffer_read_events_cpu(rb, cpu);
	}
	mutex_unlock(&buf->read_lock);
	dropped += atomic_long_read(&buf->dropped);
	len = scnprintf(str, sizeof(str),
			"entries: %lu\noverrun: %lu\ncommit overrun: %lu\n"
			"bytes: %lu\ndropped events: %lu\nread events: %lu\n",
			entries, overrun, commit, bytes, dropped, read);
	return simple_read_from_buffer(ubuf, cnt, ppos, str, len);
}

static const struct file_operations khist_stats_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_stats_read,
	.llseek = default_llseek,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} khist_trace_files[] = {
	{ "trace", KHIST_MODE_WRITE, &khist_trace_fops },
	{ "trace_pipe", KHIST_MODE_READ, &khist_pipe_fops },
	{ "trace_marker", KHIST_MODE_WONLY, &khist_marker_fops },
	{ "trace_marker_raw", KHIST_MODE_WONLY, &khist_marker_raw_fops },
	{ "tracing_on", KHIST_MODE_WRITE, &khist_on_fops },
	{ "buffer_size_kb", KHIST_MODE_WRITE, &khist_size_fops },
	{ "stats", KHIST_MODE_READ, &khist_stats_fops },
};

static void khist_buffer_node_release(void *data)
{
	struct khist_buffer *buf = data;

	khist_instance_put(buf->inst);
}

/**
 * khist_trace_files_create() - add the buffer's files to an instance
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno with nothing left behind.
 */
int khist_trace_files_create(struct khist_instance *inst)
{
	struct khist_node *node;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_trace_files); i++) {
		node = khist_fs_create_file(inst->dir,
					    khist_trace_files[i].name,
					    khist_trace_files[i].mode,
					    khist_trace_files[i].fops,
					    inst->buf);
		if (IS_ERR(node)) {
			khist_trace_files_remove(inst);
			return PTR_ERR(node);
		}
		/* The buffer lives as long as the instance. */
		khist_instance_get(inst);
		khist_fs_set_release(node, khist_buffer_node_release);
	}
	return 0;
}

/**
 * khist_trace_files_remove() - remove what khist_trace_files_create() made
 * @inst: the instance
 *
 * Context: process context.
 */
void khist_trace_files_remove(struct khist_instance *inst)
{
	const char *name;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(khist_trace_files); i++) {
		name = khist_trace_files[i].name;
		khist_fs_remove(khist_fs_lookup(inst->dir, name));
	}
}
