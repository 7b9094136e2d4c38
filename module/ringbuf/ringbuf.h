/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringbuf.h - the instance's per-CPU ring buffer (the kernel's ring_buffer
 * API) and the text form of its records, as `trace` and `trace_pipe`
 * print them.
 */
#ifndef _KHIST_RINGBUF_RINGBUF_H
#define _KHIST_RINGBUF_RINGBUF_H

#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/ring_buffer.h>
#include <linux/wait.h>
#include <khist/event.h>

struct khist_instance;
struct khist_snapshot;
struct inode;
struct task_struct;
struct file;
struct seq_file;

/* ftrace's default per-CPU size. */
#define KHIST_RB_DEFAULT_SIZE 1441792UL
/* Largest record khist writes (trace_marker text is cut to fit). */
#define KHIST_REC_MAX 1024
/* Bytes of one formatted `trace` line, at most. */
#define KHIST_LINE_MAX 4096

/**
 * struct khist_buffer - a ring buffer and its readers
 * @rb:        the kernel ring buffer, one per CPU
 * @on:        tracing_on
 * @wait:      trace_pipe readers
 * @waiters:   readers sleeping on @wait (the fast path checks it)
 * @wake_work: wakes @wait from any context
 * @read_lock: serialises consuming readers, tracing_on and resizes
 * @inst:      the instance it belongs to
 * @snap:      its snapshot buffer (module/triggers/snapshot.c), which a
 *             snapshot swaps with @rb: read @rb once per use
 * @charged:   bytes charged against mem_limit_kb (the struct, and each
 *             possible CPU's buffer size); changed under @read_lock
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
};

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

/* What a buffer of @size bytes per CPU is charged. */
static inline u64 khist_ringbuf_charge_size(unsigned long size)
{
	return sizeof(struct khist_buffer) + (u64)size * num_possible_cpus();
}

int khist_ringbuf_init(struct khist_instance *inst);
void khist_ringbuf_exit(struct khist_instance *inst);
void khist_ringbuf_format(struct khist_out *out, int cpu, u64 ts,
			  const void *rec, unsigned int size);
void khist_ringbuf_header(struct khist_out *out, struct trace_buffer *rb);
void khist_comm_lookup(int pid, char *comm);
void khist_comm_save(struct task_struct *tsk);
void *khist_rec_reserve_ev(struct khist_rec_ctx *ctx, struct khist_event *ev,
			   unsigned int size);
void khist_rec_commit_marker(struct khist_rec_ctx *ctx, char *s, size_t len);
void khist_rec_commit_quiet(struct khist_rec_ctx *ctx);
int khist_trace_files_create(struct khist_instance *inst);
int khist_trace_view_open(struct inode *inode, struct file *file,
			  struct trace_buffer *rb, khist_trace_header_fn header,
			  void *data);
int khist_trace_view_release(struct inode *inode, struct file *file);
void khist_trace_files_remove(struct khist_instance *inst);
bool khist_kaddr_ok(const struct file *file);
bool khist_kaddr_hide(bool kaddr, u64 v);
__printf(3, 0) int khist_vsnprintf_kaddr(char *buf, size_t size,
					 const char *fmt, va_list ap);
__printf(3, 4) void khist_seq_printf_kaddr(struct seq_file *m, bool kaddr,
					   const char *fmt, ...);

#endif /* _KHIST_RINGBUF_RINGBUF_H */
