/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - an instance's snapshot buffer, as the ring buffer code, the
 * `snapshot` file, the snapshot trigger and hist's snapshot() action see
 * it.
 *
 * Each instance has a second ring buffer. Taking a snapshot swaps it with
 * the one the instance records into (struct khist_buffer.rb), the way
 * ftrace swaps its main and max buffers: instant, from any context, and
 * what was recorded so far becomes the `snapshot` file's contents. While
 * the snapshot is not allocated (`echo 0 > snapshot`, the initial state)
 * the spare buffer is kept at the ring buffer's minimum size.
 */
#ifndef _KHIST_BUFFER_SNAPSHOT_H
#define _KHIST_BUFFER_SNAPSHOT_H

#include <linux/types.h>

struct khist_buffer;
struct khist_instance;

/* Ring buffer glue (buffer.c). */
int khist_snapshot_alloc(struct khist_buffer *buf);
void khist_snapshot_free(struct khist_buffer *buf);
int khist_buffers_resize(struct khist_buffer *buf, unsigned long size, int cpu,
			 u64 want);
int khist_buffers_set_order(struct khist_buffer *buf, unsigned int order,
			    u64 want);

/* Users: the snapshot trigger, hist's snapshot() action. */
int khist_snapshot_arm(struct khist_instance *inst);
int khist_snapshot_cond_claim(struct khist_instance *inst);
void khist_snapshot_cond_release(struct khist_instance *inst);

/*
 * What khist_snapshot_swap() did: swapped; not allocated (the snapshot
 * trigger then stops tracing with a note, events/print.c); skipped (held,
 * or a busy lock in NMI).
 */
enum khist_swap_result {
	KHIST_SWAP_DONE,
	KHIST_SWAP_UNALLOCATED,
	KHIST_SWAP_SKIPPED,
};

enum khist_swap_result khist_snapshot_swap(struct khist_buffer *buf);
struct trace_buffer *khist_snapshot_hold_spare(struct khist_buffer *buf);
int khist_snapshot_command(struct khist_buffer *buf, unsigned long val);
bool khist_snapshot_allocated(struct khist_buffer *buf);
/* The `snapshot` file (files/snapshot_file.c). */
void khist_snapshot_hold(struct khist_buffer *buf);
void khist_snapshot_unhold(struct khist_buffer *buf);

#endif /* _KHIST_BUFFER_SNAPSHOT_H */
