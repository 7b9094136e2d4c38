// SPDX-License-Identifier: GPL-2.0
/*
 * hist_json.c - the JSON writer and the `hist_json` rendering of hist
 * tables (see hist_json.h for the two layers, Documentation/hist_json.rst
 * for the document).
 */
#include "core_env.h"
#include "hist_eval.h"
#include "hist_json.h"
#include "hist_print.h"
#include "lex.h"

/* Room for "symbol+0xoff/0xsize [module]". */
#define KH_SYM_LEN 256
/* A comm: TASK_COMM_LEN. */
#define KH_COMM_LEN 16

/**
 * khist_json_init() - start a document
 * @j:     writer
 * @write: output callback
 * @ctx:   its argument
 *
 * Context: any.
 */
void khist_json_init(struct khist_json *j,
		     void (*write)(void *ctx, const char *s, size_t n),
		     void *ctx)
{
	memset(j, 0, sizeof(*j));
	j->write = write;
	j->ctx = ctx;
	j->first = 1;
}

static void kj_put(struct khist_json *j, const char *s, size_t n)
{
	if (!j->err && n)
		j->write(j->ctx, s, n);
}

static void kj_puts(struct khist_json *j, const char *s)
{
	kj_put(j, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t kj_utf8_len(const u8 *s, size_t n)
{
	u32 cp;
	size_t len, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Whether @n bytes of @s (up to a NUL) are valid UTF-8. */
static bool kj_utf8_valid(const char *str, size_t n)
{
	const u8 *s = (const u8 *)str;
	size_t i = 0, u;

	while (i < n && s[i]) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		u = kj_utf8_len(s + i, n - i);
		if (!u)
			return false;
		i += u;
	}
	return true;
}

/* A JSON string: @n bytes of @s, stopping at a NUL. */
static void kj_string(struct khist_json *j, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const u8 *s = (const u8 *)str;
	size_t i = 0, run = 0, u;
	char esc[6];

	kj_put(j, "\"", 1);
	while (i + run < n && s[i + run]) {
		u8 c = s[i + run];

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			run++;
			continue;
		}
		if (c >= 0x80) {
			u = kj_utf8_len(s + i + run, n - i - run);
			if (u) {
				run += u;
				continue;
			}
		}
		kj_put(j, (const char *)s + i, run);
		i += run;
		run = 0;
		esc[0] = '\\';
		if (c == '"' || c == '\\') {
			esc[1] = c;
			kj_put(j, esc, 2);
		} else if (c == '\n') {
			kj_put(j, "\\n", 2);
		} else if (c == '\t') {
			kj_put(j, "\\t", 2);
		} else {
			/* Controls, and bytes outside valid UTF-8 (Latin-1). */
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			kj_put(j, esc, 6);
		}
		i++;
	}
	kj_put(j, (const char *)s + i, run);
	kj_put(j, "\"", 1);
}

/* Comma and member name before a value; checks @name against the kind. */
static void kj_member(struct khist_json *j, const char *name)
{
	u32 bit = 1U << j->depth;
	bool in_obj = j->obj & bit;

	if (j->err)
		return;
	/* At top level one value only; names exactly inside objects. */
	if ((!j->depth && !(j->first & 1)) || in_obj != !!name) {
		j->err = -EINVAL;
		return;
	}
	if (!(j->first & bit))
		kj_put(j, ",", 1);
	j->first &= ~bit;
	if (name) {
		kj_string(j, name, SIZE_MAX);
		kj_put(j, ":", 1);
	}
}

static void kj_open(struct khist_json *j, const char *name, bool obj)
{
	kj_member(j, name);
	if (j->err)
		return;
	if (j->depth + 1 >= KHIST_JSON_DEPTH) {
		j->err = -EINVAL;
		return;
	}
	kj_put(j, obj ? "{" : "[", 1);
	j->depth++;
	j->first |= 1U << j->depth;
	if (obj)
		j->obj |= 1U << j->depth;
	else
		j->obj &= ~(1U << j->depth);
}

static void kj_close(struct khist_json *j, bool obj)
{
	if (j->err)
		return;
	if (!j->depth || !!(j->obj & (1U << j->depth)) != obj) {
		j->err = -EINVAL;
		return;
	}
	kj_put(j, obj ? "}" : "]", 1);
	j->depth--;
}

/**
 * khist_json_obj_begin() - open an object
 * @j:    writer
 * @name: member name inside an object, NULL inside an array or at top
 *
 * Context: any.
 */
void khist_json_obj_begin(struct khist_json *j, const char *name)
{
	kj_open(j, name, true);
}

/**
 * khist_json_obj_end() - close the innermost object
 * @j: writer
 *
 * Context: any.
 */
void khist_json_obj_end(struct khist_json *j)
{
	kj_close(j, true);
}

/**
 * khist_json_arr_begin() - open an array
 * @j:    writer
 * @name: member name inside an object, NULL inside an array or at top
 *
 * Context: any.
 */
void khist_json_arr_begin(struct khist_json *j, const char *name)
{
	kj_open(j, name, false);
}

/**
 * khist_json_arr_end() - close the innermost array
 * @j: writer
 *
 * Context: any.
 */
void khist_json_arr_end(struct khist_json *j)
{
	kj_close(j, false);
}

/**
 * khist_json_strn() - a string of at most @n bytes (stops at a NUL)
 * @j:    writer
 * @name: member name or NULL (see khist_json_obj_begin())
 * @s:    bytes, any content (escaped as needed)
 * @n:    most bytes to read
 *
 * Context: any.
 */
void khist_json_strn(struct khist_json *j, const char *name, const char *s,
		     size_t n)
{
	kj_member(j, name);
	kj_string(j, s, n);
}

/**
 * khist_json_str() - a NUL-terminated string
 * @j:    writer
 * @name: member name or NULL
 * @s:    the string
 *
 * Context: any.
 */
void khist_json_str(struct khist_json *j, const char *name, const char *s)
{
	khist_json_strn(j, name, s, SIZE_MAX);
}

/**
 * khist_json_u64() - an unsigned number
 * @j:    writer
 * @name: member name or NULL
 * @v:    value (written exactly; readers with doubles keep 53 bits)
 *
 * Context: any.
 */
void khist_json_u64(struct khist_json *j, const char *name, u64 v)
{
	char buf[24];
	int i = sizeof(buf);

	kj_member(j, name);
	do {
		buf[--i] = '0' + (char)(v % 10);
		v /= 10;
	} while (v);
	kj_put(j, buf + i, sizeof(buf) - i);
}

/**
 * khist_json_s64() - a signed number
 * @j:    writer
 * @name: member name or NULL
 * @v:    value
 *
 * Context: any.
 */
void khist_json_s64(struct khist_json *j, const char *name, s64 v)
{
	char buf[24];
	int i = sizeof(buf);
	u64 m = v < 0 ? -(u64)v : (u64)v;

	kj_member(j, name);
	do {
		buf[--i] = '0' + (char)(m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		buf[--i] = '-';
	kj_put(j, buf + i, sizeof(buf) - i);
}

/**
 * khist_json_bool() - true or false
 * @j:    writer
 * @name: member name or NULL
 * @v:    value
 *
 * Context: any.
 */
void khist_json_bool(struct khist_json *j, const char *name, bool v)
{
	kj_member(j, name);
	kj_puts(j, v ? "true" : "false");
}

/**
 * khist_json_null() - null
 * @j:    writer
 * @name: member name or NULL
 *
 * Context: any.
 */
void khist_json_null(struct khist_json *j, const char *name)
{
	kj_member(j, name);
	kj_puts(j, "null");
}

/**
 * khist_json_end() - finish a document
 * @j: writer
 *
 * Context: any.
 * Return: 0 when exactly one complete value was written; -EINVAL after a
 * misuse or with containers left open.
 */
int khist_json_end(struct khist_json *j)
{
	if (!j->err && (j->depth || (j->first & 1)))
		j->err = -EINVAL;
	if (!j->err)
		j->write(j->ctx, "\n", 1);
	return j->err;
}

/* The hist layer. */

/**
 * khist_hjson_doc_begin() - open a `hist_json` document
 * @j:      writer, just initialised
 * @system: the event's subsystem
 * @event:  the event's name
 *
 * Writes {"version": 1, "system": ..., "event": ..., "triggers": [ and
 * leaves the trigger array open for khist_hjson_table_begin().
 *
 * Context: any.
 */
void khist_hjson_doc_begin(struct khist_json *j, const char *system,
			   const char *event)
{
	khist_json_obj_begin(j, NULL);
	khist_json_u64(j, "version", KHIST_JSON_VERSION);
	khist_json_str(j, "system", system);
	khist_json_str(j, "event", event);
	khist_json_arr_begin(j, "triggers");
}

/**
 * khist_hjson_doc_end() - close what khist_hjson_doc_begin() opened
 * @j: writer
 *
 * Call khist_json_end() afterwards.
 *
 * Context: any.
 */
void khist_hjson_doc_end(struct khist_json *j)
{
	khist_json_arr_end(j);
	khist_json_obj_end(j);
}

/* The modifier a field shows with, as the trigger text writes it. */
static void kh_modifier(struct khist_json *j, const struct khist_bfield *f)
{
	const char *m = khist_hist_flags_str(f->flags);

	if (m)
		khist_json_str(j, "modifier", m);
	else
		khist_json_null(j, "modifier");
	if (f->flags & KHIST_HF_BUCKET)
		khist_json_u64(j, "bucket_size", f->buckets);
	else if ((f->flags & KHIST_HF_LOG2) && f->buckets)
		khist_json_u64(j, "log2_sub_bits", f->buckets);
}

static bool kh_val_shown(const struct khist_bfield *f)
{
	/* khist: "$lat.quantiles" of an expression variable is shown */
	return !(f->flags & (KHIST_HF_VAR | KHIST_HF_EXPR)) ||
	       (f->flags & KHIST_HF_VARVAL);
}

/*
 * The member name of value @i: its name, or "name#i" when an earlier
 * value has the same name (a document never repeats a member name).
 */
static const char *kh_val_name(const struct khist_hist_spec *sp, unsigned int i,
			       char *buf, size_t size)
{
	const char *name = i ? sp->vals[i]->name : "hitcount";
	unsigned int k;

	for (k = 1; k < i; k++) {
		if (kh_val_shown(sp->vals[k]) &&
		    !strcmp(sp->vals[k]->name, name)) {
			scnprintf(buf, size, "%s#%u", name, i);
			return buf;
		}
	}
	if (i && !strcmp(name, "hitcount") && !sp->nohitcount) {
		scnprintf(buf, size, "%s#%u", name, i);
		return buf;
	}
	return name;
}

/**
 * khist_hjson_table_begin() - describe one hist trigger, open its entries
 * @j:            writer, inside the "triggers" array
 * @sp:           the trigger's spec
 * @trigger_text: its text as the `trigger` file lists it (a final newline
 *                is left out)
 * @paused:       the trigger is paused
 *
 * Writes the trigger object's description members and opens "entries".
 *
 * Context: any.
 */
void khist_hjson_table_begin(struct khist_json *j,
			     const struct khist_hist_spec *sp,
			     const char *trigger_text, bool paused)
{
	const struct khist_bfield *f;
	char nb[80];
	unsigned int i;
	bool q;
	size_t n;

	n = strlen(trigger_text);
	/* The listing line without its newline. */
	if (n && trigger_text[n - 1] == '\n')
		n--;
	khist_json_obj_begin(j, NULL);
	khist_json_strn(j, "trigger", trigger_text, n);
	if (sp->name)
		khist_json_str(j, "name", sp->name);
	else
		khist_json_null(j, "name");
	khist_json_bool(j, "paused", paused);
	khist_json_u64(j, "size", 1ULL << sp->map_bits);
	khist_json_arr_begin(j, "keys");
	for (i = 0; i < sp->n_keys; i++) {
		f = sp->keys[i].f;
		khist_json_obj_begin(j, NULL);
		khist_json_str(j, "name", f->name);
		kh_modifier(j, f);
		khist_json_obj_end(j);
	}
	khist_json_arr_end(j);
	khist_json_arr_begin(j, "values");
	for (i = sp->nohitcount ? 1 : 0; i < sp->n_vals; i++) {
		f = sp->vals[i];
		if (i && !kh_val_shown(f))
			continue;
		khist_json_obj_begin(j, NULL);
		khist_json_str(j, "name", kh_val_name(sp, i, nb, sizeof(nb)));
		if (i)
			kh_modifier(j, f);
		else
			khist_json_null(j, "modifier");
		khist_json_obj_end(j);
	}
	khist_json_arr_end(j);
	khist_json_arr_begin(j, "sort");
	for (i = 0; i < sp->n_sort; i++) {
		const struct khist_hsort *s = &sp->sort[i];

		khist_json_obj_begin(j, NULL);
		if (s->src == KHIST_SORT_KEY)
			khist_json_str(j, "field", sp->keys[s->idx].f->name);
		else if (s->src == KHIST_SORT_VAL)
			khist_json_str(j, "field", sp->vals[s->idx]->name);
		else
			khist_json_str(j, "field", "hitcount");
		q = s->src == KHIST_SORT_VAL &&
		    (sp->vals[s->idx]->flags & KHIST_HF_QUANTILES);
		if (s->src == KHIST_SORT_VAL && s->fig)
			khist_json_str(j, "figure",
				       khist_qs_figure_name(q, s->fig - 1));
		khist_json_bool(j, "descending", s->descending);
		khist_json_obj_end(j);
	}
	khist_json_arr_end(j);
	khist_json_arr_begin(j, "variables");
	for (i = 0; i < sp->n_vars; i++)
		khist_json_str(j, NULL, sp->vars[i].name);
	khist_json_arr_end(j);
	khist_json_arr_begin(j, "entries");
}

/* A number that may be a kernel address the reader may not see. */
static void kh_num(struct khist_json *j, const char *name,
		   const struct khist_hjson_ops *ops, u64 v, bool is_signed,
		   bool maybe_addr)
{
	char buf[40];

	if (maybe_addr && ops && ops->addr_hidden &&
	    ops->addr_hidden(ops->ctx, v, buf, sizeof(buf))) {
		buf[sizeof(buf) - 1] = '\0';
		khist_json_str(j, name, buf);
	} else if (is_signed) {
		khist_json_s64(j, name, (s64)v);
	} else {
		khist_json_u64(j, name, v);
	}
}

/*
 * A number that gives an address back whatever its value (the sum of
 * address values): the hashed form when this reader may not see
 * addresses (@hide), else the number.
 */
static void kh_num_hide(struct khist_json *j, const char *name,
			const struct khist_hjson_ops *ops, u64 v, bool hide)
{
	char buf[40];

	/* 0 is no address (and %p would print "(null)"). */
	if (hide && v && ops && ops->hash) {
		ops->hash(ops->ctx, v, buf, sizeof(buf));
		buf[sizeof(buf) - 1] = '\0';
		khist_json_str(j, name, buf);
	} else {
		kh_num(j, name, ops, v, false, true);
	}
}

/*
 * Are the values of a .stats/.quantiles value addresses this reader may
 * not see: unsigned, and the smallest in the kernel's half of the address
 * space. Then its sum, mean and deviation are hidden too.
 */
static bool kh_dist_hidden(const struct khist_bfield *f,
			   const struct khist_hjson_ops *ops,
			   const struct khist_qs_snap *s)
{
	char buf[40];

	return s && !f->is_signed && s->count && ops && ops->addr_hidden &&
	       ops->addr_hidden(ops->ctx, s->min, buf, sizeof(buf));
}

/* A value or variable of field @f may hold an address (signed: never). */
static bool kh_maybe_addr(const struct khist_bfield *f)
{
	return !f->is_signed;
}

static void kh_symbol(struct khist_json *j, const char *name,
		      const struct khist_hjson_ops *ops, u64 addr, bool offset)
{
	char buf[KH_SYM_LEN];
	int n = 0;

	if (ops && ops->symbol)
		n = ops->symbol(ops->ctx, addr, offset, buf, sizeof(buf));
	if (n > 0)
		khist_json_strn(j, name, buf, min_t(size_t, n, sizeof(buf)));
	else
		khist_json_null(j, name);
}

/*
 * A string member; when the bytes are not valid UTF-8 (the string then
 * shows them as U+0080..U+00FF), also @hex_name with the exact bytes in
 * hex, so that a reader can always get them back.
 */
static void kh_text(struct khist_json *j, const char *name,
		    const char *hex_name, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char buf[2];
	size_t i;

	khist_json_strn(j, name, s, n);
	if (kj_utf8_valid(s, n))
		return;
	kj_member(j, hex_name);
	kj_put(j, "\"", 1);
	for (i = 0; i < n && s[i]; i++) {
		buf[0] = hex[(u8)s[i] >> 4];
		buf[1] = hex[(u8)s[i] & 15];
		kj_put(j, buf, 2);
	}
	kj_put(j, "\"", 1);
}

/* Is the text at @s (@n bytes at most) "0x" and hex digits; its value. */
static bool kh_hex_text(const u8 *s, size_t n, u64 *v)
{
	size_t len = strnlen((const char *)s, n);

	return len > 2 && s[0] == '0' && s[1] == 'x' &&
	       !khist_parse_u64((const char *)s, len, v);
}

static void kh_key(struct khist_json *j, const struct khist_hist_spec *sp,
		   const struct khist_hjson_ops *ops, unsigned int i,
		   const struct khist_hjson_entry *e)
{
	const struct khist_hkey *k = &sp->keys[i];
	const struct khist_bfield *f = k->f;
	const u8 *slot = e->key + k->offset;
	const char *sc = NULL;
	unsigned long st[KHIST_STACK_DEPTH];
	unsigned int d;
	u32 fl = f->flags;
	char hb[40];
	u64 v;

	khist_json_obj_begin(j, NULL);
	khist_json_str(j, "name", f->name);
	if (fl & KHIST_HF_STACKTRACE) {
		memcpy(st, slot, sizeof(st));
		khist_json_arr_begin(j, "value");
		for (d = 0; d < KHIST_STACK_DEPTH && st[d]; d++)
			kh_num(j, NULL, ops, st[d], false, true);
		khist_json_arr_end(j);
		khist_json_arr_begin(j, "symbols");
		for (d = 0; d < KHIST_STACK_DEPTH && st[d]; d++)
			kh_symbol(j, NULL, ops, st[d], true);
		khist_json_arr_end(j);
		khist_json_obj_end(j);
		return;
	}
	if ((fl & KHIST_HF_STRING) && kh_hex_text(slot, k->size, &v) && ops &&
	    ops->addr_hidden && ops->addr_hidden(ops->ctx, v, hb, sizeof(hb))) {
		/* "0x<address>" (a symstr that found no symbol), hidden. */
		hb[sizeof(hb) - 1] = '\0';
		khist_json_str(j, "value", hb);
		khist_json_obj_end(j);
		return;
	}
	if (fl & KHIST_HF_STRING) {
		kh_text(j, "value", "value_hex", (const char *)slot, k->size);
		khist_json_obj_end(j);
		return;
	}
	memcpy(&v, slot, sizeof(v));
	kh_num(j, "value", ops, v, f->is_signed,
	       !(fl & (KHIST_HF_LOG2 | KHIST_HF_BUCKET | KHIST_HF_EXECNAME |
		       KHIST_HF_SYSCALL)));
	if (fl & (KHIST_HF_SYM | KHIST_HF_SYM_OFFSET)) {
		kh_symbol(j, "symbol", ops, v, fl & KHIST_HF_SYM_OFFSET);
	} else if (fl & KHIST_HF_EXECNAME) {
		kh_text(j, "execname", "execname_hex", e->comm ? e->comm : "",
			KH_COMM_LEN);
	} else if (fl & KHIST_HF_SYSCALL) {
		if (ops && ops->syscall_name)
			sc = ops->syscall_name(ops->ctx, v);
		khist_json_str(j, "syscall", sc ? sc : "unknown_syscall");
	} else if ((fl & KHIST_HF_LOG2) && f->buckets) {
		/* .log2=k: v is the bucket's low bound */
		u64 last = v + (khist_hist_log2_sub_width(v, f->buckets) - 1);

		khist_json_u64(j, "low", v);
		khist_json_u64(j, "high", last);
	} else if (fl & KHIST_HF_LOG2) {
		/* order_base_2(x) == v for x in (2^(v-1), 2^v]; 0 and 1: 0 */
		v = min_t(u64, v, 64);
		khist_json_u64(j, "low", v ? (1ULL << (v - 1)) + 1 : 0);
		khist_json_u64(j, "high", v == 64 ? U64_MAX : 1ULL << v);
	} else if (fl & KHIST_HF_BUCKET) {
		khist_json_u64(j, "low", v);
		khist_json_u64(j, "high", v + (f->buckets - 1));
	}
	khist_json_obj_end(j);
}

/*
 * The figures of a .stats or .quantiles value: those of a pointer-valued
 * value (min, max, quantiles, bucket bounds of call_site or ptr) are
 * addresses, hidden when @a as the value is. Counts are not.
 */
static void kh_stats(struct khist_json *j, const char *name,
		     const struct khist_hjson_ops *ops, bool a, bool hide,
		     const struct khist_qs_snap *s)
{
	struct khist_qs_stats st;

	khist_qs_stats(s, &st);
	khist_json_obj_begin(j, name);
	khist_json_u64(j, "count", st.count);
	kh_num_hide(j, "sum", ops, st.sum, hide);
	kh_num(j, "min", ops, st.min, false, a);
	kh_num(j, "max", ops, st.max, false, a);
	kh_num_hide(j, "mean", ops, st.mean, hide);
	kh_num_hide(j, "stddev", ops, st.stddev, hide);
	khist_json_obj_end(j);
}

static void kh_quantiles(struct khist_json *j, const char *name,
			 const struct khist_hjson_ops *ops, bool a,
			 const struct khist_qs_snap *s)
{
	unsigned int i;
	u64 lo, hi;

	khist_json_obj_begin(j, name);
	for (i = 0; i < KHIST_QS_N_QUANTILES; i++)
		kh_num(j, khist_qs_quantile_names[i], ops,
		       khist_qs_quantile(s, khist_qs_quantiles[i]), false, a);
	khist_json_u64(j, "count", s->count);
	/* The full distribution: [low, high, count] of each used bucket. */
	khist_json_arr_begin(j, "buckets");
	for (i = 0; i < KHIST_QS_BUCKETS; i++) {
		if (!s->b[i])
			continue;
		khist_qs_bucket_bounds(i, &lo, &hi);
		khist_json_arr_begin(j, NULL);
		kh_num(j, NULL, ops, lo, false, a);
		kh_num(j, NULL, ops, hi, false, a);
		khist_json_u64(j, NULL, s->b[i]);
		khist_json_arr_end(j);
	}
	khist_json_arr_end(j);
	khist_json_obj_end(j);
}

/**
 * khist_hjson_entry() - one entry of the table
 * @j:   writer, inside "entries"
 * @sp:  the trigger's spec
 * @ops: renderings the core cannot make (may be NULL)
 * @e:   the entry
 *
 * Context: any.
 */
void khist_hjson_entry(struct khist_json *j, const struct khist_hist_spec *sp,
		       const struct khist_hjson_ops *ops,
		       const struct khist_hjson_entry *e)
{
	bool any_qs = false, any_st = false;
	const struct khist_bfield *f;
	unsigned int i, n;
	char nb[80];

	khist_json_obj_begin(j, NULL);
	khist_json_arr_begin(j, "key");
	for (i = 0; i < sp->n_keys; i++)
		kh_key(j, sp, ops, i, e);
	khist_json_arr_end(j);
	khist_json_obj_begin(j, "values");
	for (i = sp->nohitcount ? 1 : 0; i < sp->n_vals; i++) {
		f = sp->vals[i];
		if (i && !kh_val_shown(f))
			continue;
		/*
		 * A sum of addresses is hidden as an address key is; that of
		 * a distribution of addresses whatever its value.
		 */
		if (i && e->qs && kh_dist_hidden(f, ops, e->qs[i]))
			kh_num_hide(j, kh_val_name(sp, i, nb, sizeof(nb)), ops,
				    e->sums[i], true);
		else
			kh_num(j, kh_val_name(sp, i, nb, sizeof(nb)), ops,
			       e->sums[i], false, i && kh_maybe_addr(f));
		if (e->qs && e->qs[i]) {
			any_qs |= !!(f->flags & KHIST_HF_QUANTILES);
			any_st |= !!(f->flags & KHIST_HF_STATS);
		}
	}
	khist_json_obj_end(j);
	for (n = 0; n < 2; n++) {
		u32 want = n ? KHIST_HF_QUANTILES : KHIST_HF_STATS;

		if (!(n ? any_qs : any_st))
			continue;
		khist_json_obj_begin(j, n ? "quantiles" : "stats");
		for (i = 1; i < sp->n_vals; i++) {
			f = sp->vals[i];
			if (!(f->flags & want) || !e->qs[i])
				continue;
			if (n)
				kh_quantiles(j,
					     kh_val_name(sp, i, nb, sizeof(nb)),
					     ops, kh_maybe_addr(f), e->qs[i]);
			else
				kh_stats(j, kh_val_name(sp, i, nb, sizeof(nb)),
					 ops, kh_maybe_addr(f),
					 kh_dist_hidden(f, ops, e->qs[i]),
					 e->qs[i]);
		}
		khist_json_obj_end(j);
	}
	if (e->vars && sp->n_vars) {
		khist_json_obj_begin(j, "variables");
		for (i = 0; i < sp->n_vars; i++) {
			if (sp->vars[i].str_idx >= 0 ||
			    (e->var_set && !e->var_set[i]))
				continue;
			kh_num(j, sp->vars[i].name, ops, e->vars[i], false,
			       kh_maybe_addr(sp->vars[i].f));
		}
		khist_json_obj_end(j);
	}
	if (e->n_saved) {
		khist_json_arr_begin(j, "saved");
		for (n = 0; n < e->n_saved; n++) {
			const struct khist_hjson_saved *s = &e->saved[n];

			khist_json_obj_begin(j, NULL);
			khist_json_str(j, "handler", s->handler);
			kh_num(j, "track", ops, s->track, false, true);
			khist_json_obj_begin(j, "fields");
			for (i = 0; i < s->n; i++)
				kh_num(j, s->names[i], ops, s->vals[i], false,
				       true);
			khist_json_obj_end(j);
			khist_json_obj_end(j);
		}
		khist_json_arr_end(j);
	}
	khist_json_obj_end(j);
}

/**
 * khist_hjson_table_end() - close the entries and write the totals
 * @j: writer
 * @t: the totals
 *
 * Context: any.
 */
void khist_hjson_table_end(struct khist_json *j,
			   const struct khist_hjson_totals *t)
{
	khist_json_arr_end(j);
	khist_json_obj_begin(j, "totals");
	khist_json_u64(j, "hits", t->hits);
	khist_json_u64(j, "entries", t->entries);
	khist_json_u64(j, "dropped", t->dropped);
	khist_json_u64(j, "lost", t->lost);
	khist_json_u64(j, "grow_refused", t->grow_refused);
	khist_json_obj_end(j);
	khist_json_obj_end(j);
}
