// SPDX-License-Identifier: GPL-2.0
/*
 * t2map.c - from Git Trace2 lines to typed user-event records.
 *
 * The events and their fields are written below as user_events
 * registration text; the layout (packed, in declaration order, as the
 * user_events ABI lays out a payload) comes from parsing that text, so
 * the registration, the encoder and the decoder cannot disagree. The
 * mapper keeps per-process state keyed by the last component of the
 * session id: the command name for exit/atexit/signal, the child table
 * for child_exit/child_ready, and the sums for the trace2_cmd summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t2json.h"
#include "t2map.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define COMMON                                                                 \
	"u64 time_us;s32 pid;s32 parent_pid;u16 depth;u16 thread_id;u32 repo;" \
	"char[32] thread"
#define TIMER                                             \
	";u64 intervals;u64 t_total;u64 t_min;u64 t_max;" \
	"char[32] category;char[32] name"
#define COUNTER ";u64 count;char[32] category;char[32] name"
#define EXIT ";u64 t_abs;s32 code;char[32] name"

static const struct {
	const char *name;
	const char *fields;
} events[T2E_NR] = {
	[T2E_VERSION] = { "version",
			  ";u32 evt;char[32] exe;__rel_loc char[] sid" },
	[T2E_START] = { "start",
			";u64 t_abs;u32 argc;__rel_loc char[] argv;__rel_loc char[] sid" },
	[T2E_EXIT] = { "exit", EXIT },
	[T2E_ATEXIT] = { "atexit", EXIT },
	[T2E_SIGNAL] = { "signal", ";u64 t_abs;s32 signo;char[32] name" },
	[T2E_ERROR] = { "error", ";u32 line;char[48] file;__rel_loc char[] msg"
				 ";__rel_loc char[] fmt" },
	[T2E_CMD_PATH] = { "cmd_path", ";__rel_loc char[] path" },
	[T2E_CMD_ANCESTRY] = { "cmd_ancestry",
			       ";u32 count;char[32] parent;__rel_loc char[] ancestry" },
	[T2E_CMD_NAME] = { "cmd_name", ";char[32] name;char[64] hierarchy" },
	[T2E_CMD_MODE] = { "cmd_mode", ";char[32] name" },
	[T2E_ALIAS] = { "alias", ";char[32] alias;__rel_loc char[] argv" },
	[T2E_CHILD_START] = { "child_start",
			      ";s32 child_id;char[32] child_class;char[48] child_name"
			      ";char[32] hook_name;__rel_loc char[] cd;__rel_loc char[] argv"
			      ";u8 use_shell" },
	[T2E_CHILD_EXIT] = { "child_exit",
			     ";u64 t_rel;s32 child_id;s32 child_pid;s32 code"
			     ";char[32] child_class;char[48] child_name" },
	[T2E_CHILD_READY] = { "child_ready",
			      ";u64 t_rel;s32 child_id;s32 child_pid;char[16] ready"
			      ";char[32] child_class;char[48] child_name" },
	[T2E_EXEC] = { "exec",
		       ";s32 exec_id;char[48] exe;__rel_loc char[] argv" },
	[T2E_EXEC_RESULT] = { "exec_result", ";s32 exec_id;s32 code" },
	[T2E_THREAD_START] = { "thread_start", "" },
	[T2E_THREAD_EXIT] = { "thread_exit", ";u64 t_rel" },
	[T2E_DEF_PARAM] = { "def_param",
			    ";char[16] scope;char[64] param;__rel_loc char[] value" },
	[T2E_DEF_REPO] = { "def_repo", ";__rel_loc char[] worktree" },
	[T2E_REGION_ENTER] = { "region_enter",
			       ";u32 nesting;char[32] category;char[64] label"
			       ";__rel_loc char[] msg" },
	[T2E_REGION_LEAVE] = { "region_leave",
			       ";u64 t_rel;u32 nesting;char[32] category;char[64] label"
			       ";__rel_loc char[] msg" },
	[T2E_DATA] = { "data",
		       ";u64 t_abs;u64 t_rel;s64 value_int;u32 nesting"
		       ";char[32] category;char[48] key;__rel_loc char[] value"
		       ";u8 value_is_int" },
	[T2E_DATA_JSON] = { "data_json",
			    ";u64 t_abs;u64 t_rel;u32 nesting;char[32] category"
			    ";char[48] key;__rel_loc char[] value" },
	[T2E_TIMER] = { "timer", TIMER },
	[T2E_TH_TIMER] = { "th_timer", TIMER },
	[T2E_COUNTER] = { "counter", COUNTER },
	[T2E_TH_COUNTER] = { "th_counter", COUNTER },
	[T2E_PRINTF] = { "printf", ";u64 t_abs;__rel_loc char[] msg" },
	[T2E_TOO_MANY_FILES] = { "too_many_files", "" },
	[T2E_CMD] = { "cmd",
		      ";u64 t_abs;u64 t_children;s32 code;u32 n_regions"
		      ";u32 n_children;char[32] name;char[64] hierarchy;char[32] mode"
		      ";u8 signalled" },
	[T2E_UNKNOWN] = { "unknown", ";char[32] event;__rel_loc char[] json" },
};

/**
 * t2_event_name() - the Trace2 name of an event ("region_leave"; "cmd" and
 * "unknown" are the bridge's own).
 * @ev: T2E_*
 *
 * Context: any.
 * Return: the name.
 */
const char *t2_event_name(unsigned int ev)
{
	return ev < T2E_NR ? events[ev].name : "?";
}

/**
 * t2_event_lookup() - the event of a Trace2 name.
 * @name: a Trace2 event name
 *
 * Context: any.
 * Return: T2E_*, or -1 if the name is not one of them.
 */
int t2_event_lookup(const char *name)
{
	int i;

	for (i = 0; i < T2E_CMD; i++)
		if (!strcmp(events[i].name, name))
			return i;
	return -1;
}

/**
 * t2_event_cmd() - the user_events registration text of an event.
 * @ev: T2E_*
 * @prefix: put before the Trace2 name ("trace2_")
 * @buf: where the text goes
 * @size: size of @buf
 *
 * Context: any.
 * Return: @buf, or NULL if it is too small.
 */
const char *t2_event_cmd(unsigned int ev, const char *prefix, char *buf,
			 size_t size)
{
	int n;

	if (ev >= T2E_NR)
		return NULL;
	n = snprintf(buf, size, "%s%s " COMMON "%s", prefix, events[ev].name,
		     events[ev].fields);
	return n < 0 || (size_t)n >= size ? NULL : buf;
}

static const struct {
	const char *text;
	enum t2f_type type;
	unsigned int size;
} types[] = {
	{ "u8", T2F_U8, 1 },   { "s8", T2F_S8, 1 },   { "u16", T2F_U16, 2 },
	{ "s16", T2F_S16, 2 }, { "u32", T2F_U32, 4 }, { "s32", T2F_S32, 4 },
	{ "u64", T2F_U64, 8 }, { "s64", T2F_S64, 8 },
};

static bool ident(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= 32 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* One "type name" of a registration text into @f. */
static int parse_field(struct t2_field *f, const char *s, size_t n)
{
	const char *sp = NULL, *name;
	size_t i, tl, nl;
	unsigned long len;
	char *end;

	while (n && *s == ' ')
		s++, n--;
	while (n && s[n - 1] == ' ')
		n--;
	for (i = n; i > 0; i--)
		if (s[i - 1] == ' ') {
			sp = s + i - 1;
			break;
		}
	if (!sp)
		return -EINVAL;
	name = sp + 1;
	nl = (size_t)(s + n - name);
	tl = (size_t)(sp - s);
	if (!ident(name, nl))
		return -EINVAL;
	memcpy(f->name, name, nl);
	f->name[nl] = 0;
	if (tl == 16 && !memcmp(s, "__rel_loc char[]", 16)) {
		f->type = T2F_REL;
		f->size = 4;
		return 0;
	}
	if (tl == 17 && !memcmp(s, "__data_loc char[]", 17)) {
		f->type = T2F_DATA;
		f->size = 4;
		return 0;
	}
	if (tl > 6 && !memcmp(s, "char[", 5) && s[tl - 1] == ']') {
		len = strtoul(s + 5, &end, 10);
		if (end != s + tl - 1 || !len || len > 1024)
			return -EINVAL;
		f->type = T2F_CHAR;
		f->size = (unsigned int)len;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (strlen(types[i].text) == tl &&
		    !memcmp(s, types[i].text, tl)) {
			f->type = types[i].type;
			f->size = types[i].size;
			return 0;
		}
	return -EINVAL;
}

/**
 * t2_fmt_parse() - an event layout from its registration text.
 * @fmt: the layout to fill
 * @cmd: "name type field;type field;..." (the subset of the user_events
 *	command grammar the bridge uses, plus __data_loc)
 *
 * Fields are packed in order from payload offset 0, as user_events does.
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int t2_fmt_parse(struct t2_fmt *fmt, const char *cmd)
{
	const char *sp = strchr(cmd, ' '), *p, *semi;
	unsigned int off = 0;
	size_t n;

	memset(fmt, 0, sizeof(*fmt));
	n = sp ? (size_t)(sp - cmd) : strlen(cmd);
	if (!n || n >= sizeof(fmt->name))
		return -EINVAL;
	memcpy(fmt->name, cmd, n);
	for (p = sp ? sp + 1 : cmd + n; *p; p = *semi ? semi + 1 : semi) {
		semi = strchr(p, ';');
		if (!semi)
			semi = p + strlen(p);
		if (semi == p)
			continue;
		if (fmt->nf == T2_MAX_FIELDS ||
		    parse_field(&fmt->f[fmt->nf], p, (size_t)(semi - p)))
			return -EINVAL;
		if (t2_fmt_field(fmt, fmt->f[fmt->nf].name) >= 0)
			return -EINVAL;
		fmt->f[fmt->nf].off = off;
		off += fmt->f[fmt->nf].size;
		fmt->nf++;
	}
	fmt->fixed = off;
	return 0;
}

/**
 * t2_fmt_field() - a field by name.
 * @fmt: a layout
 * @name: the field name
 *
 * Context: any.
 * Return: its index, or -1.
 */
int t2_fmt_field(const struct t2_fmt *fmt, const char *name)
{
	unsigned int i;

	for (i = 0; i < fmt->nf; i++)
		if (!strcmp(fmt->f[i].name, name))
			return (int)i;
	return -1;
}

static void put_le(unsigned char *p, uint64_t v, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/**
 * t2_encode() - the payload of a record, as written after the 4-byte write
 * index: the fixed part in field order, then the text of the __rel_loc
 * (and __data_loc) fields, each NUL-terminated. Text is clipped to
 * T2_TEXT_MAX bytes per field and to the room left in @buf; a char[N]
 * field keeps N - 1 bytes and is NUL-padded.
 * @r: the record
 * @buf: where the payload goes
 * @size: size of @buf (at least the fixed part + one byte per text field)
 * @len: out: payload length
 * @clipped: out: number of strings clipped
 *
 * Context: any.
 * Return: 0, or -ENOSPC if @buf cannot hold the fixed part.
 */
int t2_encode(const struct t2_rec *r, unsigned char *buf, size_t size,
	      size_t *len, unsigned int *clipped)
{
	const struct t2_fmt *fmt = r->fmt;
	size_t at = fmt->fixed, n, room, nloc = 0;
	unsigned int i;

	*clipped = 0;
	for (i = 0; i < fmt->nf; i++)
		if (fmt->f[i].type == T2F_REL || fmt->f[i].type == T2F_DATA)
			nloc++;
	if (size < fmt->fixed + nloc)
		return -ENOSPC;
	memset(buf, 0, fmt->fixed);
	for (i = 0; i < fmt->nf; i++) {
		const struct t2_field *f = &fmt->f[i];
		const struct t2_fv *v = &r->v[i];

		switch (f->type) {
		case T2F_CHAR:
			n = v->len;
			if (n > f->size - 1) {
				n = f->size - 1;
				(*clipped)++;
			}
			if (n)
				memcpy(buf + f->off, v->s, n);
			break;
		case T2F_REL:
		case T2F_DATA:
			nloc--;
			n = v->len;
			/* Keep one byte for each later text field's NUL. */
			room = size - at - nloc - 1;
			if (n > T2_TEXT_MAX || n > room) {
				n = n > T2_TEXT_MAX ? T2_TEXT_MAX : n;
				n = n > room ? room : n;
				(*clipped)++;
			}
			if (n)
				memcpy(buf + at, v->s, n);
			buf[at + n] = 0;
			put_le(buf + f->off,
			       f->type == T2F_REL ?
				       ((n + 1) << 16 | (at - f->off - 4)) :
				       ((n + 1) << 16 | (at + 8)),
			       4);
			at += n + 1;
			break;
		default:
			put_le(buf + f->off, v->n, f->size);
			break;
		}
	}
	*len = at;
	return 0;
}

static uint64_t sign_extend(uint64_t v, unsigned int size)
{
	unsigned int sh = 64 - 8 * size;

	return size == 8 ? v : (uint64_t)((int64_t)(v << sh) >> sh);
}

/**
 * t2_decode() - a record from a payload, checked as user_events checks
 * it: the fixed part present, every locator inside the payload and its
 * text ending in NUL.
 * @r: the record to fill (strings point into @p)
 * @fmt: the layout of its event
 * @p: the payload
 * @len: its length
 *
 * Context: any.
 * Return: 0, or -EINVAL (short) or -EFAULT (bad locator).
 */
int t2_decode(struct t2_rec *r, const struct t2_fmt *fmt,
	      const unsigned char *p, size_t len)
{
	unsigned int i;
	uint64_t loc;
	size_t off, n;

	memset(r, 0, sizeof(*r));
	r->ev = t2_event_lookup(fmt->name);
	r->fmt = fmt;
	if (len < fmt->fixed)
		return -EINVAL;
	for (i = 0; i < fmt->nf; i++) {
		const struct t2_field *f = &fmt->f[i];
		struct t2_fv *v = &r->v[i];

		v->set = true;
		switch (f->type) {
		case T2F_CHAR:
			v->s = (const char *)p + f->off;
			v->len = strnlen(v->s, f->size);
			break;
		case T2F_REL:
		case T2F_DATA:
			loc = get_le(p + f->off, 4);
			n = (size_t)(loc >> 16);
			off = (size_t)(loc & 0xffff);
			if (f->type == T2F_REL)
				off += f->off + 4;
			else if (off >= 8)
				off -= 8;
			else
				return -EFAULT;
			if (!n || off > len || n > len - off || p[off + n - 1])
				return -EFAULT;
			v->s = (const char *)p + off;
			v->len = strnlen(v->s, n);
			break;
		case T2F_S8:
		case T2F_S16:
		case T2F_S32:
		case T2F_S64:
			v->n = sign_extend(get_le(p + f->off, f->size),
					   f->size);
			break;
		default:
			v->n = get_le(p + f->off, f->size);
			break;
		}
	}
	return 0;
}

/**
 * t2_num() - a number field of a record.
 * @r: the record
 * @name: the field
 *
 * Context: any.
 * Return: its value (signed fields sign-extended), 0 if there is none.
 */
uint64_t t2_num(const struct t2_rec *r, const char *name)
{
	int i = t2_fmt_field(r->fmt, name);

	return i < 0 ? 0 : r->v[i].n;
}

/**
 * t2_str() - a text field of a record.
 * @r: the record
 * @name: the field
 * @len: out: its length (may be NULL)
 *
 * Context: any.
 * Return: the bytes (not NUL-terminated for a full char[N]), "" if none.
 */
const char *t2_str(const struct t2_rec *r, const char *name, size_t *len)
{
	int i = t2_fmt_field(r->fmt, name);

	if (i < 0 || !r->v[i].s) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = r->v[i].len;
	return r->v[i].s;
}

/* ---- the mapper ---- */

struct child {
	int32_t id;
	char class[32];
	char name[48];
	struct child *next;
};

struct proc {
	char key[48];
	int32_t pid;
	int32_t ppid;
	uint16_t depth;
	char name[32];
	char hierarchy[64];
	char mode[32];
	bool exited;
	int32_t code;
	uint64_t t_abs;
	uint64_t t_children;
	uint32_t n_regions;
	uint32_t n_children;
	uint64_t last_time;
	uint64_t seq;
	struct child *children;
	struct proc *next;
};

#define NR_BUCKETS 256

struct t2_mapper {
	struct t2_out out;
	struct t2_stats st;
	struct proc *procs[NR_BUCKETS];
	uint64_t nproc;
	unsigned int live;
	char *scratch;
	size_t scratch_size;
	unsigned char payload[T2_PAYLOAD_MAX];
};

static struct t2_fmt fmts[T2E_NR];
static bool fmts_ready;

static int init_fmts(void)
{
	char cmd[512];
	unsigned int i;

	if (fmts_ready)
		return 0;
	for (i = 0; i < T2E_NR; i++)
		if (!t2_event_cmd(i, "trace2_", cmd, sizeof(cmd)) ||
		    t2_fmt_parse(&fmts[i], cmd))
			return -EINVAL;
	fmts_ready = true;
	return 0;
}

/**
 * t2_map_fmt() - the layout of an event (names with the "trace2_" prefix).
 * @ev: T2E_*
 *
 * Context: any, after t2_map_new().
 * Return: the layout.
 */
const struct t2_fmt *t2_map_fmt(unsigned int ev)
{
	return &fmts[ev];
}

/**
 * t2_map_new() - a mapper.
 * @out: where its records go (copied)
 *
 * Context: process.
 * Return: the mapper, or NULL when out of memory.
 */
struct t2_mapper *t2_map_new(const struct t2_out *out)
{
	struct t2_mapper *m;

	if (init_fmts())
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->out = *out;
	return m;
}

static void free_proc(struct proc *p)
{
	struct child *c;

	while ((c = p->children)) {
		p->children = c->next;
		free(c);
	}
	free(p);
}

/**
 * t2_map_free() - free a mapper (without summaries; see t2_map_end_all()).
 * @m: the mapper, or NULL
 *
 * Context: process.
 */
void t2_map_free(struct t2_mapper *m)
{
	struct proc *p;
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < NR_BUCKETS; i++)
		while ((p = m->procs[i])) {
			m->procs[i] = p->next;
			free_proc(p);
		}
	free(m->scratch);
	free(m);
}

/**
 * t2_map_stats() - what a mapper has seen.
 * @m: the mapper
 *
 * Context: any.
 * Return: its counters.
 */
const struct t2_stats *t2_map_stats(const struct t2_mapper *m)
{
	return &m->st;
}

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % NR_BUCKETS;
}

static struct proc **find_proc(struct t2_mapper *m, const char *key)
{
	struct proc **pp = &m->procs[hash(key)];

	for (; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->key, key))
			return pp;
	return pp;
}

/* The pid in "...-P%08x" at the end of one sid component. */
static int32_t comp_pid(const char *s, size_t n)
{
	uint32_t v = 0;
	size_t i;
	int d;

	for (i = n; i >= 2; i--)
		if (s[i - 2] == '-' && s[i - 1] == 'P')
			break;
	if (i < 2 || i == n || n - i > 8)
		return 0;
	for (; i < n; i++) {
		d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' :
		    s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 :
						 -1;
		if (d < 0)
			return 0;
		v = v << 4 | (uint32_t)d;
	}
	return (int32_t)v;
}

static void set_num(struct t2_rec *r, const char *f, uint64_t n)
{
	int i = t2_fmt_field(r->fmt, f);

	if (i < 0)
		abort();
	r->v[i].n = n;
	r->v[i].set = true;
}

static void set_str(struct t2_rec *r, const char *f, const char *s, size_t n)
{
	int i = t2_fmt_field(r->fmt, f);

	if (i < 0)
		abort();
	r->v[i].s = s;
	r->v[i].len = n;
	r->v[i].set = true;
}

static void set_cstr(struct t2_rec *r, const char *f, const char *s)
{
	set_str(r, f, s, strlen(s));
}

/* Line members into fields. Absent members stay 0 or "". */
struct line {
	struct t2_mapper *m;
	const struct t2j_obj *o;
	struct t2_rec *r;
};

static void take_str(struct line *l, const char *key, const char *f)
{
	const struct t2j_val *v = t2j_get(l->o, key);

	if (!v)
		return;
	if (v->type != T2J_STRING) {
		l->m->st.bad_fields++;
		return;
	}
	set_str(l->r, f, v->str, v->len);
}

static int64_t get_int(struct line *l, const char *key)
{
	const struct t2j_val *v = t2j_get(l->o, key);
	int64_t n = 0;

	if (v && t2j_int(v, &n)) {
		l->m->st.bad_fields++;
		n = 0;
	}
	return n;
}

static void take_int(struct line *l, const char *key, const char *f)
{
	set_num(l->r, f, (uint64_t)get_int(l, key));
}

static uint64_t get_us(struct line *l, const char *key)
{
	const struct t2j_val *v = t2j_get(l->o, key);
	uint64_t us = 0;

	if (v && (v->type != T2J_NUMBER || t2j_usec(v->raw, v->raw_len, &us))) {
		l->m->st.bad_fields++;
		us = 0;
	}
	return us;
}

static void take_us(struct line *l, const char *key, const char *f)
{
	set_num(l->r, f, get_us(l, key));
}

static void copy_str(char *dst, size_t size, const char *s, size_t n)
{
	if (n > size - 1)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* A text field of @r into the process state (up to a NUL in it). */
static void keep(char *dst, size_t size, const struct t2_rec *r, const char *f)
{
	size_t n;
	const char *s = t2_str(r, f, &n);

	copy_str(dst, size, s, strnlen(s, n));
}

/* Joined text of a string array member; its count, or -1 if absent. */
static int take_array(struct line *l, const char *key, const char *sep,
		      char *buf, size_t size)
{
	const struct t2j_val *v = t2j_get(l->o, key);
	bool clipped = false;
	unsigned int n;

	buf[0] = 0;
	if (!v)
		return -1;
	if (t2j_str_array(v, sep, buf, size, &n, &clipped)) {
		l->m->st.bad_fields++;
		return -1;
	}
	if (clipped)
		l->m->st.clipped++;
	return (int)n;
}

/*
 * The short name of a child: "git <subcommand>" for git, the argv[0] of
 * a shell command line as it is, else the base name of argv[0].
 */
static void child_name(struct line *l, char *out, size_t size)
{
	const struct t2j_val *v = t2j_get(l->o, "argv");
	char a0[256], a1[64];
	const char *b;

	out[0] = 0;
	if (!v || t2j_str_elem(v, 0, a0, sizeof(a0)))
		return;
	if (!strcmp(a0, "git")) {
		if (t2j_str_elem(v, 1, a1, sizeof(a1)))
			a1[0] = 0;
		snprintf(out, size, "git%s%s", a1[0] ? " " : "", a1);
		return;
	}
	b = strchr(a0, ' ') ? NULL : strrchr(a0, '/');
	copy_str(out, size, b ? b + 1 : a0, strlen(b ? b + 1 : a0));
}

static struct child *find_child(struct proc *p, int32_t id)
{
	struct child *c;

	for (c = p->children; c; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

static void emit(struct t2_mapper *m, struct t2_rec *r, unsigned int ev)
{
	unsigned int clipped;
	size_t len;

	if (m->out.enabled && !m->out.enabled(m->out.ctx, ev))
		return;
	if (t2_encode(r, m->payload, sizeof(m->payload), &len, &clipped))
		return;
	m->st.clipped += clipped;
	m->out.emit(m->out.ctx, r, m->payload, len);
}

static void init_rec(struct t2_rec *r, unsigned int ev)
{
	memset(r, 0, sizeof(*r));
	r->ev = (int)ev;
	r->fmt = &fmts[ev];
}

/* The bridge's summary of a process, then its state goes. */
static void end_proc(struct t2_mapper *m, struct proc **pp, uint64_t time_us,
		     bool signalled)
{
	struct proc *p = *pp;
	struct t2_rec r;

	init_rec(&r, T2E_CMD);
	set_num(&r, "time_us", time_us ? time_us : p->last_time);
	set_num(&r, "pid", (uint64_t)(int64_t)p->pid);
	set_num(&r, "parent_pid", (uint64_t)(int64_t)p->ppid);
	set_num(&r, "depth", p->depth);
	set_cstr(&r, "thread", "main");
	set_num(&r, "t_abs", p->t_abs);
	set_num(&r, "t_children", p->t_children);
	set_num(&r, "code",
		(uint64_t)(int64_t)(p->exited || signalled ? p->code : -1));
	set_num(&r, "n_regions", p->n_regions);
	set_num(&r, "n_children", p->n_children);
	set_cstr(&r, "name", p->name[0] ? p->name : "_unknown_");
	set_cstr(&r, "hierarchy", p->hierarchy);
	set_cstr(&r, "mode", p->mode);
	set_num(&r, "signalled", signalled);
	m->st.made++;
	emit(m, &r, T2E_CMD);
	*pp = p->next;
	free_proc(p);
	m->live--;
}

/**
 * t2_map_end() - the process of @key is gone (its connection closed): if
 * it did not end with atexit or signal, its summary is made now, with
 * code -1 unless an exit event gave one.
 * @m: the mapper
 * @key: the key t2_map_line() returned for its lines
 *
 * Context: process.
 */
void t2_map_end(struct t2_mapper *m, const char *key)
{
	struct proc **pp;

	if (!key[0])
		return;
	pp = find_proc(m, key);
	if (*pp)
		end_proc(m, pp, 0, false);
}

static bool end_oldest(struct t2_mapper *m)
{
	struct proc **pp, **first = NULL;
	unsigned int i;

	for (i = 0; i < NR_BUCKETS; i++)
		for (pp = &m->procs[i]; *pp; pp = &(*pp)->next)
			if (!first || (*pp)->seq < (*first)->seq)
				first = pp;
	if (!first)
		return false;
	end_proc(m, first, 0, false);
	return true;
}

/**
 * t2_map_end_all() - end every process still known (end of a replay).
 * @m: the mapper
 *
 * Context: process.
 */
void t2_map_end_all(struct t2_mapper *m)
{
	/* Oldest first, so the order does not depend on the hash. */
	while (end_oldest(m))
		;
}

static int64_t days_from_civil(int64_t y, unsigned int mo, unsigned int d)
{
	int64_t era;
	unsigned int yoe, doy, doe;

	y -= mo <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char *s, unsigned int n, unsigned int *out)
{
	unsigned int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/**
 * t2_parse_time() - Trace2's "YYYY-MM-DDTHH:MM:SS.uuuuuuZ" (UTC) as
 * microseconds since the epoch, exactly.
 * @s: the text
 * @len: its length
 * @us: the result
 *
 * Context: any.
 * Return: 0, or -1 if @s is not such a time.
 */
int t2_parse_time(const char *s, size_t len, uint64_t *us)
{
	unsigned int y, mo, d, h, mi, sec;
	uint64_t frac = 0;
	size_t i, nd = 0;
	int64_t days;

	if (len < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':' || s[len - 1] != 'Z' ||
	    digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d) ||
	    digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) ||
	    digits(s + 17, 2, &sec))
		return -1;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 60)
		return -1;
	if (len > 20) {
		if (s[19] != '.' || len == 21)
			return -1;
		for (i = 20; i < len - 1; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			if (nd < 6) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				nd++;
			}
		}
	}
	for (; nd < 6; nd++)
		frac *= 10;
	days = days_from_civil(y, mo, d);
	*us = ((uint64_t)days * 86400 + h * 3600 + mi * 60 + sec) * 1000000 +
	      frac;
	return 0;
}

static uint16_t thread_id(const char *s, size_t n)
{
	unsigned int v = 0;
	size_t i;

	if (n == 4 && !memcmp(s, "main", 4))
		return 0;
	if (n < 4 || s[0] != 't' || s[1] != 'h')
		return 0xffff;
	for (i = 2; i < n && s[i] != ':'; i++) {
		if (s[i] < '0' || s[i] > '9' || v > 0xfff)
			return 0xffff;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (i == 2 || i == n || v >= 0xffff)
		return 0xffff;
	return (uint16_t)v;
}

static int grow_scratch(struct t2_mapper *m, size_t need)
{
	char *p;

	if (need <= m->scratch_size)
		return 0;
	p = realloc(m->scratch, need);
	if (!p)
		return -ENOMEM;
	m->scratch = p;
	m->scratch_size = need;
	return 0;
}

/* A plain decimal integer ("-12", "3552") that fits 64 signed bits. */
static int t2_parse_int(const char *s, size_t len, int64_t *out)
{
	struct t2j_val v = { .type = T2J_NUMBER, .raw = s, .raw_len = len };

	if (!len || (s[0] == '-' ? len == 1 || s[1] < '0' || s[1] > '9' :
				   s[0] < '0' || s[0] > '9'))
		return -1;
	return t2j_int(&v, out);
}

static int t2_parse_uint(const char *s, size_t len, int64_t *out)
{
	if (!len || s[0] == '-' || t2_parse_int(s, len, out) ||
	    *out > UINT32_MAX)
		return -1;
	return 0;
}

/* Event-specific members. */
static void fill(struct line *l, struct proc *p, unsigned int ev,
		 const char *ev_name, const char *line, size_t len)
{
	struct t2_rec *r = l->r;
	static char text[T2_TEXT_MAX + 1], name[64], parent[64];
	const struct t2j_val *v;
	struct child *c;
	int64_t n, id;
	int cnt;

	switch (ev) {
	case T2E_VERSION:
		v = t2j_get(l->o, "evt");
		n = 0;
		if (v && (v->type != T2J_STRING ||
			  t2_parse_uint(v->str, v->len, &n)))
			l->m->st.bad_fields++;
		set_num(r, "evt", (uint64_t)n);
		take_str(l, "exe", "exe");
		take_str(l, "sid", "sid");
		break;
	case T2E_START:
		take_us(l, "t_abs", "t_abs");
		cnt = take_array(l, "argv", " ", text, sizeof(text));
		set_num(r, "argc", cnt < 0 ? 0 : (uint64_t)cnt);
		set_cstr(r, "argv", text);
		take_str(l, "sid", "sid");
		break;
	case T2E_EXIT:
	case T2E_ATEXIT:
	case T2E_SIGNAL:
		p->t_abs = get_us(l, "t_abs");
		set_num(r, "t_abs", p->t_abs);
		if (ev == T2E_SIGNAL) {
			p->code = (int32_t)get_int(l, "signo");
			set_num(r, "signo", (uint64_t)(int64_t)p->code);
		} else {
			p->code = (int32_t)get_int(l, "code");
			p->exited = true;
			set_num(r, "code", (uint64_t)(int64_t)p->code);
		}
		set_cstr(r, "name", p->name[0] ? p->name : "_unknown_");
		break;
	case T2E_ERROR:
		take_int(l, "line", "line");
		take_str(l, "file", "file");
		take_str(l, "msg", "msg");
		take_str(l, "fmt", "fmt");
		break;
	case T2E_CMD_PATH:
		take_str(l, "path", "path");
		break;
	case T2E_CMD_ANCESTRY:
		cnt = take_array(l, "ancestry", " <- ", text, sizeof(text));
		set_num(r, "count", cnt < 0 ? 0 : (uint64_t)cnt);
		set_cstr(r, "ancestry", text);
		v = t2j_get(l->o, "ancestry");
		if (v && cnt > 0 && !t2j_str_elem(v, 0, parent, sizeof(parent)))
			set_cstr(r, "parent", parent);
		break;
	case T2E_CMD_NAME:
		take_str(l, "name", "name");
		take_str(l, "hierarchy", "hierarchy");
		keep(p->name, sizeof(p->name), r, "name");
		keep(p->hierarchy, sizeof(p->hierarchy), r, "hierarchy");
		break;
	case T2E_CMD_MODE:
		take_str(l, "name", "name");
		keep(p->mode, sizeof(p->mode), r, "name");
		break;
	case T2E_ALIAS:
		take_str(l, "alias", "alias");
		take_array(l, "argv", " ", text, sizeof(text));
		set_cstr(r, "argv", text);
		break;
	case T2E_CHILD_START:
		id = get_int(l, "child_id");
		set_num(r, "child_id", (uint64_t)id);
		take_str(l, "child_class", "child_class");
		child_name(l, name, 48);
		set_cstr(r, "child_name", name);
		take_str(l, "hook_name", "hook_name");
		take_str(l, "cd", "cd");
		take_array(l, "argv", " ", text, sizeof(text));
		set_cstr(r, "argv", text);
		v = t2j_get(l->o, "use_shell");
		set_num(r, "use_shell", v && v->type == T2J_TRUE);
		p->n_children++;
		c = find_child(p, (int32_t)id);
		if (!c) {
			c = calloc(1, sizeof(*c));
			if (!c)
				break;
			c->id = (int32_t)id;
			c->next = p->children;
			p->children = c;
		}
		keep(c->class, sizeof(c->class), r, "child_class");
		copy_str(c->name, sizeof(c->name), name, strlen(name));
		break;
	case T2E_CHILD_EXIT:
	case T2E_CHILD_READY:
		take_us(l, "t_rel", "t_rel");
		id = get_int(l, "child_id");
		set_num(r, "child_id", (uint64_t)id);
		take_int(l, "pid", "child_pid");
		if (ev == T2E_CHILD_EXIT) {
			take_int(l, "code", "code");
			p->t_children += t2_num(r, "t_rel");
		} else {
			take_str(l, "ready", "ready");
		}
		c = find_child(p, (int32_t)id);
		if (c) {
			set_cstr(r, "child_class", c->class);
			set_cstr(r, "child_name", c->name);
		}
		break;
	case T2E_EXEC:
		take_int(l, "exec_id", "exec_id");
		take_str(l, "exe", "exe");
		take_array(l, "argv", " ", text, sizeof(text));
		set_cstr(r, "argv", text);
		break;
	case T2E_EXEC_RESULT:
		take_int(l, "exec_id", "exec_id");
		take_int(l, "code", "code");
		break;
	case T2E_THREAD_EXIT:
		take_us(l, "t_rel", "t_rel");
		break;
	case T2E_DEF_PARAM:
		take_str(l, "scope", "scope");
		take_str(l, "param", "param");
		take_str(l, "value", "value");
		break;
	case T2E_DEF_REPO:
		take_str(l, "worktree", "worktree");
		break;
	case T2E_REGION_LEAVE:
		take_us(l, "t_rel", "t_rel");
		p->n_regions++;
		/* fall through */
	case T2E_REGION_ENTER:
		take_int(l, "nesting", "nesting");
		if (t2_num(r, "nesting") > l->m->st.max_nesting)
			l->m->st.max_nesting = t2_num(r, "nesting");
		take_str(l, "category", "category");
		take_str(l, "label", "label");
		take_str(l, "msg", "msg");
		break;
	case T2E_DATA:
	case T2E_DATA_JSON:
		take_us(l, "t_abs", "t_abs");
		take_us(l, "t_rel", "t_rel");
		take_int(l, "nesting", "nesting");
		if (t2_num(r, "nesting") > l->m->st.max_nesting)
			l->m->st.max_nesting = t2_num(r, "nesting");
		take_str(l, "category", "category");
		take_str(l, "key", "key");
		v = t2j_get(l->o, "value");
		if (ev == T2E_DATA_JSON) {
			if (v)
				set_str(r, "value", v->raw, v->raw_len);
			break;
		}
		if (!v)
			break;
		if (v->type != T2J_STRING) {
			l->m->st.bad_fields++;
			break;
		}
		set_str(r, "value", v->str, v->len);
		if (!t2_parse_int(v->str, v->len, &n)) {
			set_num(r, "value_int", (uint64_t)n);
			set_num(r, "value_is_int", 1);
		}
		break;
	case T2E_TIMER:
	case T2E_TH_TIMER:
		take_int(l, "intervals", "intervals");
		take_us(l, "t_total", "t_total");
		take_us(l, "t_min", "t_min");
		take_us(l, "t_max", "t_max");
		take_str(l, "category", "category");
		take_str(l, "name", "name");
		break;
	case T2E_COUNTER:
	case T2E_TH_COUNTER:
		take_int(l, "count", "count");
		take_str(l, "category", "category");
		take_str(l, "name", "name");
		break;
	case T2E_PRINTF:
		take_us(l, "t_abs", "t_abs");
		take_str(l, "msg", "msg");
		break;
	case T2E_UNKNOWN:
		set_cstr(r, "event", ev_name);
		set_str(r, "json", line, len);
		break;
	default:
		break;
	}
}

/**
 * t2_map_line() - one line of the Trace2 event stream: the record of its
 * event goes to the mapper's output (if enabled), the process state is
 * updated, and after atexit or signal the process's trace2_cmd summary
 * follows.
 * @m: the mapper
 * @line: the line without its newline
 * @len: its length
 * @peer_pid: the writer's pid if known (socket credentials), else 0
 * @key: out: the process key (last sid component), for t2_map_end()
 * @key_size: size of @key
 *
 * Context: process.
 * Return: the event (T2E_*), or -1 for a malformed line (counted).
 */
int t2_map_line(struct t2_mapper *m, const char *line, size_t len, int peer_pid,
		char *key, size_t key_size)
{
	const struct t2j_val *ev_v, *sid_v, *v;
	struct t2j_obj o;
	struct t2_rec r;
	struct line l = { .m = m, .o = &o, .r = &r };
	struct proc **pp, *p;
	const char *sid, *last;
	size_t sid_len, i, klen;
	uint64_t time_us = 0;
	int ev, slashes = 0;

	m->st.lines++;
	if (grow_scratch(m, T2J_SCRATCH(len)) ||
	    t2j_parse(line, len, &o, m->scratch, m->scratch_size))
		goto bad;
	ev_v = t2j_get(&o, "event");
	sid_v = t2j_get(&o, "sid");
	if (!ev_v || ev_v->type != T2J_STRING || !ev_v->len || !sid_v ||
	    sid_v->type != T2J_STRING || !sid_v->len)
		goto bad;
	ev = t2_event_lookup(ev_v->str);
	if (ev < 0 || strlen(ev_v->str) != ev_v->len)
		ev = T2E_UNKNOWN;

	sid = sid_v->str;
	sid_len = sid_v->len;
	last = sid;
	for (i = 0; i < sid_len; i++)
		if (sid[i] == '/') {
			slashes++;
			last = sid + i + 1;
		}
	klen = (size_t)(sid + sid_len - last);
	if (!klen || klen >= sizeof(p->key) || memchr(last, 0, klen))
		goto bad;
	if (key && key_size)
		copy_str(key, key_size, last, klen);

	pp = find_proc(m, last);
	p = *pp;
	if (!p && m->live >= T2_MAX_PROCS) {
		end_oldest(m);
		m->st.evicted++;
		pp = find_proc(m, last);
	}
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			goto bad;
		memcpy(p->key, last, klen);
		p->pid = peer_pid > 0 ? peer_pid : comp_pid(last, klen);
		if (slashes) {
			const char *prev = last - 1;

			while (prev > sid && prev[-1] != '/')
				prev--;
			p->ppid = comp_pid(prev, (size_t)(last - 1 - prev));
		}
		p->depth = (uint16_t)slashes;
		p->seq = m->nproc++;
		m->live++;
		*pp = p;
	}
	m->st.per_event[ev]++;

	init_rec(&r, (unsigned int)ev);
	v = t2j_get(&o, "time");
	if (v && (v->type != T2J_STRING ||
		  t2_parse_time(v->str, v->len, &time_us))) {
		m->st.bad_fields++;
		time_us = 0;
	}
	set_num(&r, "time_us", time_us);
	if (time_us)
		p->last_time = time_us;
	set_num(&r, "pid", (uint64_t)(int64_t)p->pid);
	set_num(&r, "parent_pid", (uint64_t)(int64_t)p->ppid);
	set_num(&r, "depth", p->depth);
	v = t2j_get(&o, "thread");
	if (v && v->type == T2J_STRING) {
		set_str(&r, "thread", v->str, v->len);
		set_num(&r, "thread_id", thread_id(v->str, v->len));
	} else {
		if (v)
			m->st.bad_fields++;
		set_num(&r, "thread_id", 0xffff);
	}
	take_int(&l, "repo", "repo");
	fill(&l, p, (unsigned int)ev, ev_v->str, line, len);
	emit(m, &r, (unsigned int)ev);
	if (ev == T2E_ATEXIT || ev == T2E_SIGNAL)
		end_proc(m, pp, time_us, ev == T2E_SIGNAL);
	return ev;
bad:
	m->st.malformed++;
	if (key && key_size)
		key[0] = 0;
	return -1;
}
