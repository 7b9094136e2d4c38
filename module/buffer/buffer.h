/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringbuf.h - the instance's per-CPU ring buffer (the kernel's ring_buffer
 * API) and the text form of its records, as `trace` and `trace_pipe`
 * print them.
 */
#ifndef _KHIST_RINGBUF_RINGBUF_H
#define _KHIST_RINGBUF_RINGBUF_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/ring_buffer.h>
#include <linux/wait.h>
#include <asm/page.h>
#include <khist/event.h>

struct khist_instance;
struct khist_snapshot;
struct inode;
struct task_struct;
struct file;
struct seq_file;

/* ftrace's default per-CPU size. */
#define KHIST_RB_DEFAULT_SIZE 1441792UL
/*
 * Largest record khist builds: what the kernel's ring buffer takes for one
 * event on 6.1 and 6.12 (ring_buffer_max_event_size() of a buffer of
 * 4 KiB pages without absolute timestamps): a page less its 16-byte
 * header, less the 8 bytes of the event's own header. A bigger record is
 * counted as dropped.
 */
#define KHIST_REC_MAX (PAGE_SIZE - 16 - 8)
/*
 * Bytes of one formatted `trace` line, at most: ftrace's trace_seq (8 KiB
 * since 6.7), so that a 4 KiB trace_marker line prints whole.
 */
#define KHIST_LINE_MAX 8192

/**
 * struct khist_buffer - a ring buffer and its readers
 * @rb:        the kernel ring buffer, one per CPU
 * @on:        tracing_on
 * @wait:      trace_pipe readers
 * @waiters:   readers sleeping on @wait (the fast path checks it)
 * @wake_work: wakes @wait from any context
 * @read_lock: serialises consuming readers, tracing_on and resizes
 * @inst:      the instance it belongs to
 * @snap:      its snapshot buffer (module/buffer/snapshot.c), which a
 *             snapshot swaps with @rb: read @rb once per use
 * @charged:   bytes charged against mem_limit_kb (the struct, and each
 *             possible CPU's buffer at its size and sub-buffer order,
 *             khist_ringbuf_want()); changed under @read_lock
 * @dropped:   records of this instance's events that its buffer or its
 *             triggers should have had and did not get (too big, nested
 *             too deep, the buffer refused them); `stats` shows it
 * @cpus:      tracing_cpumask: the CPUs whose events the buffer records
 *             (the triggers see every CPU's, as ftrace's do)
 * @entries:   each possible CPU's size in bytes as the last resize left
 *             it, which the buffer_size_kb files show (ftrace's per-CPU
 *             "entries": a change of sub-buffer size leaves it); changed
 *             under @read_lock
 */
struct khist_buffer {
	struct trace_buffer *rb;
	int on;
	wait_queue_head_t wait;
	atomic_t waiters;
	struct irq_work wake_work;
	struct mutex read_lock; /* see @read_lock above */
	struct khist_instance *inst;
	struct khist_snapshot *snap;
	u64 charged;
	atomic_long_t dropped;
	cpumask_var_t cpus;
	unsigned long entries[];
};

/*
 * Whether @buf records what the current CPU writes now: tracing_on, and
 * the CPU in tracing_cpumask. Context: any, preemption disabled.
 */
static __always_inline bool khist_buffer_records(struct khist_buffer *buf)
{
	return READ_ONCE(buf->on) &&
	       cpumask_test_cpu(raw_smp_processor_id(), buf->cpus);
}

/**
 * typedef khist_trace_header_fn - prints the comment block of a `trace` view
 * @out:   where it goes
 * @rb:    the buffer shown
 * @empty: it has no record to show
 * @data:  what the opener passed
 */
typedef void (*khist_trace_header_fn)(struct khist_out *out,
				      struct trace_buffer *rb, bool empty,
				      void *data);

/* Pages a CPU's buffer has at least (ring_buffer_alloc()'s minimum). */
#define KHIST_RB_MIN_PAGES 2
/* Largest sub-buffer order buffer_subbuf_size_kb takes (128 pages). */
#define KHIST_RB_MAX_ORDER 7

/*
 * Bytes one CPU's buffer of @size bytes takes with sub-buffers of
 * 2^@order pages: whole sub-buffers of data (each less its header, a
 * timestamp and the commit count), at least KHIST_RB_MIN_PAGES of them,
 * plus the reader's. -EINVAL when that does not fit in a u64.
 */
static inline int khist_ringbuf_cpu_bytes(unsigned long size,
					  unsigned int order, u64 *bytes)
{
	u64 sub = (u64)PAGE_SIZE << order;
	u64 subs = max_t(u64, DIV_ROUND_UP_ULL(size, sub - 2 * sizeof(u64)),
			 KHIST_RB_MIN_PAGES);

	/* The reader's sub-buffer: subs < 2^52, so this cannot overflow. */
	subs++;
	return check_mul_overflow(subs, sub, bytes) ? -EINVAL : 0;
}

int khist_ringbuf_init(struct khist_instance *inst);
int khist_ringbuf_want(struct trace_buffer *rb, int cpu, unsigned long size,
		       unsigned int order, u64 *charge);
int khist_ringbuf_resize(struct khist_buffer *buf, unsigned long size, int cpu);
int khist_ringbuf_set_order(struct khist_buffer *buf, unsigned int order);
void khist_ringbuf_free(struct khist_instance *inst);
void khist_ringbuf_header(struct khist_out *out, struct trace_buffer *rb);
void khist_comm_lookup(int pid, char *comm);
void khist_comm_save(struct task_struct *tsk, unsigned int what);
void khist_comm_show(struct seq_file *m, bool tgid);
unsigned int khist_comm_capacity(void);
int khist_comm_resize(unsigned int n);
void khist_comm_exit(void);
void *khist_rec_reserve_ev(struct khist_rec_ctx *ctx, struct khist_event *ev,
			   unsigned int size);
void khist_rec_commit_marker(struct khist_rec_ctx *ctx, char *s, size_t len);
void khist_rec_commit_quiet(struct khist_rec_ctx *ctx);
bool khist_kaddr_ok(const struct file *file);
bool khist_kaddr_hide(bool kaddr, u64 v);
bool khist_kaddr_hex_str(const char *s, size_t n, u64 *v);
__printf(3, 0) int khist_vsnprintf_kaddr(char *buf, size_t size,
					 const char *fmt, va_list ap);
__printf(3, 4) void khist_seq_printf_kaddr(struct seq_file *m, bool kaddr,
					   const char *fmt, ...);

#endif /* _KHIST_RINGBUF_RINGBUF_H */
