/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t2map.h - Git Trace2 events as typed user events: the event table,
 * the record layout (from the registration text, packed as user_events
 * lays it out), the encoder and decoder of payloads, and the mapper that
 * turns Trace2 lines into records with per-process state.
 */
#ifndef KHIST_TRACE2_MAP_H
#define KHIST_TRACE2_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define T2_MAX_FIELDS 24
#define T2_NAME_MAX 64
/* Largest payload the bridge writes (a record must fit a ring page). */
#define T2_PAYLOAD_MAX 3072
/* Longest joined argv or other free text kept in one __rel_loc field. */
#define T2_TEXT_MAX 1024
/* Processes followed at once; beyond, the oldest is summed up early. */
#define T2_MAX_PROCS 16384

enum t2_ev {
	T2E_VERSION,
	T2E_START,
	T2E_EXIT,
	T2E_ATEXIT,
	T2E_SIGNAL,
	T2E_ERROR,
	T2E_CMD_PATH,
	T2E_CMD_ANCESTRY,
	T2E_CMD_NAME,
	T2E_CMD_MODE,
	T2E_ALIAS,
	T2E_CHILD_START,
	T2E_CHILD_EXIT,
	T2E_CHILD_READY,
	T2E_EXEC,
	T2E_EXEC_RESULT,
	T2E_THREAD_START,
	T2E_THREAD_EXIT,
	T2E_DEF_PARAM,
	T2E_DEF_REPO,
	T2E_REGION_ENTER,
	T2E_REGION_LEAVE,
	T2E_DATA,
	T2E_DATA_JSON,
	T2E_TIMER,
	T2E_TH_TIMER,
	T2E_COUNTER,
	T2E_TH_COUNTER,
	T2E_PRINTF,
	T2E_TOO_MANY_FILES,
	T2E_CMD,
	T2E_UNKNOWN,
	T2E_NR
};

enum t2f_type {
	T2F_U8,
	T2F_S8,
	T2F_U16,
	T2F_S16,
	T2F_U32,
	T2F_S32,
	T2F_U64,
	T2F_S64,
	T2F_CHAR,
	T2F_REL,
	T2F_DATA
};

struct t2_field {
	char name[32];
	enum t2f_type type;
	unsigned int off;
	unsigned int size;
};

/*
 * struct t2_fmt - one event's layout, from its registration text.
 * @name: the event name
 * @nf: number of fields
 * @f: the fields; offsets count from the payload start (record offset - 8)
 * @fixed: size of the fixed part of the payload
 */
struct t2_fmt {
	char name[T2_NAME_MAX];
	unsigned int nf;
	struct t2_field f[T2_MAX_FIELDS];
	unsigned int fixed;
};

int t2_fmt_parse(struct t2_fmt *fmt, const char *cmd);
int t2_fmt_field(const struct t2_fmt *fmt, const char *name);

/* A field value: a number, or bytes (strings, NUL excluded). */
struct t2_fv {
	uint64_t n;
	const char *s;
	size_t len;
	bool set;
};

/*
 * struct t2_rec - one record: values for every field of an event.
 * @ev: T2E_* (or -1 for a record decoded from another event)
 * @fmt: the layout
 * @v: the values, by field index
 */
struct t2_rec {
	int ev;
	const struct t2_fmt *fmt;
	struct t2_fv v[T2_MAX_FIELDS];
};

const char *t2_event_name(unsigned int ev);
int t2_event_lookup(const char *name);
const char *t2_event_cmd(unsigned int ev, const char *prefix, char *buf,
			 size_t size);

int t2_encode(const struct t2_rec *r, unsigned char *buf, size_t size,
	      size_t *len, unsigned int *clipped);
int t2_decode(struct t2_rec *r, const struct t2_fmt *fmt,
	      const unsigned char *p, size_t len);
uint64_t t2_num(const struct t2_rec *r, const char *name);
const char *t2_str(const struct t2_rec *r, const char *name, size_t *len);

/*
 * struct t2_stats - what the mapper saw.
 * @lines: lines handed to t2_map_line()
 * @malformed: lines that are not a JSON object with "event" and "sid"
 * @per_event: well-formed lines per event (T2E_UNKNOWN: unknown names)
 * @made: records made by the bridge itself (trace2_cmd)
 * @bad_fields: members of the wrong type or out of range (taken as 0)
 * @clipped: strings clipped to their field
 * @max_nesting: deepest region or data nesting seen (Git sends nothing
 *	deeper than its trace2.eventNesting, 2 by default)
 * @evicted: process states dropped (summary made early) at T2_MAX_PROCS
 */
struct t2_stats {
	uint64_t lines;
	uint64_t malformed;
	uint64_t per_event[T2E_NR];
	uint64_t made;
	uint64_t bad_fields;
	uint64_t clipped;
	uint64_t max_nesting;
	uint64_t evicted;
};

/*
 * struct t2_out - where the mapper sends records.
 * @enabled: whether anybody consumes event @ev (NULL: always)
 * @emit: one record and its encoded payload, valid during the call only
 * @ctx: for both
 */
struct t2_out {
	bool (*enabled)(void *ctx, unsigned int ev);
	void (*emit)(void *ctx, const struct t2_rec *r,
		     const unsigned char *payload, size_t len);
	void *ctx;
};

struct t2_mapper;

struct t2_mapper *t2_map_new(const struct t2_out *out);
void t2_map_free(struct t2_mapper *m);
int t2_map_line(struct t2_mapper *m, const char *line, size_t len, int peer_pid,
		char *key, size_t key_size);
void t2_map_end(struct t2_mapper *m, const char *key);
void t2_map_end_all(struct t2_mapper *m);
const struct t2_stats *t2_map_stats(const struct t2_mapper *m);
const struct t2_fmt *t2_map_fmt(unsigned int ev);

int t2_parse_time(const char *s, size_t len, uint64_t *us);

#endif
