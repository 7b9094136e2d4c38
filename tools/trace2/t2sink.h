/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t2sink.h - where khist-trace2's records go: khist's user_events_data
 * (the user_events ABI), a record log (the host-side fake: registration
 * text and payloads as lines, for tests), or decoded text on stdout.
 */
#ifndef KHIST_TRACE2_SINK_H
#define KHIST_TRACE2_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "t2map.h"

enum t2_sink_mode { T2S_UE, T2S_FAKE, T2S_TEXT };

/*
 * struct t2_sink - one output.
 * @mode: what it is
 * @path: user_events_data (T2S_UE; NULL: look it up) or the log (T2S_FAKE)
 * @prefix: put before the event names ("trace2_")
 * @persist: register with the persist flag
 * @fake_enable: T2S_FAKE: which events have a consumer (bit per T2E_*)
 * @fd: the open file, -1 while waiting for it
 * @next_try: monotonic ms of the next open attempt
 * @backoff: ms to the attempt after that
 * @enable: the enable words (bit 0), one per event, written by the kernel
 * @idx: write index per event, -1 if the event is not registered
 * @fmt: layouts as registered (T2S_TEXT decodes with them)
 * @out: T2S_TEXT: where decoded records go
 * @written: records written
 * @disabled: records not encoded as nobody consumed them
 * @no_sink: records dropped while the file could not be opened
 * @err: write failures per errno (EBADF, ENOENT, E2BIG, EFAULT, other)
 * @reregistered: events registered again after ENOENT
 * @opened: times the file was opened
 */
struct t2_sink {
	enum t2_sink_mode mode;
	const char *path;
	const char *prefix;
	bool persist;
	uint64_t fake_enable;
	int fd;
	uint64_t next_try;
	unsigned int backoff;
	uint32_t enable[T2E_NR] __attribute__((aligned(8)));
	int idx[T2E_NR];
	struct t2_fmt fmt[T2E_NR];
	FILE *out;
	uint64_t written;
	uint64_t disabled;
	uint64_t no_sink;
	uint64_t err[5];
	uint64_t reregistered;
	uint64_t opened;
};

void t2_sink_init(struct t2_sink *s, enum t2_sink_mode mode, const char *path);
bool t2_sink_enabled(void *ctx, unsigned int ev);
void t2_sink_emit(void *ctx, const struct t2_rec *r,
		  const unsigned char *payload, size_t len);
void t2_sink_close(struct t2_sink *s);
void t2_sink_stats(const struct t2_sink *s, FILE *f);
const char *t2_ue_default_path(char *buf, size_t size);
void t2_print_rec(FILE *f, const struct t2_rec *r);
uint64_t t2_now_ms(void);

#endif
