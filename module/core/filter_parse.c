// SPDX-License-Identifier: GPL-2.0
/*
 * filter_parse.c - compile event filter text into the predicate program
 * of filter_eval.h, and render the `filter` file and error_log texts.
 *
 * Compilation is two passes over the text, as in Linux 6.12, because the
 * order in which errors are found (and so which one is reported, and at
 * which position) is part of the interface:
 *
 *  1. a scan that checks quotes and parentheses and counts an upper bound
 *     of the predicates and of the nesting depth;
 *  2. a left-to-right parse: '(' opens a level, '!' flips the negation of
 *     what follows, a predicate is compiled, then only "&&", "||", ")" or
 *     the end may follow. '&&' binds tighter than '||'. Each level keeps
 *     at most one pending '&&' and one pending '||'; they are reduced into
 *     an and/or tree as soon as the next operator or ')' shows their
 *     extent. Negation is pushed down to the leaves (De Morgan), so the
 *     tree has only AND and OR nodes and negated leaves.
 *
 * The tree is then flattened: walking it from the root down, each node
 * hands its children the places to continue at when they turn out true
 * or false; a leaf becomes a predicate with those two forward jumps.
 *
 * Caret positions follow the kernel, which records most errors inside a
 * predicate one byte to the right of the character at fault.
 */
#include "core_env.h"
#include "filter_parse.h"

#define NUM_MAX 24	/* a numeric operand must be shorter than this */

static const char *const ferr_text[] = {
#define KHIST_FERR(code, text) [KHIST_FERR_##code] = text,
	KHIST_FILTER_ERRORS
#undef KHIST_FERR
};

/* Tried in this order, so that "<=" wins over "<" and ">=" over ">". */
static const char *const fop_text[KHIST_FOP_NR] = {
	[KHIST_FOP_GLOB] = "~",	[KHIST_FOP_NE] = "!=",
	[KHIST_FOP_EQ] = "==",	[KHIST_FOP_LE] = "<=",
	[KHIST_FOP_LT] = "<",	[KHIST_FOP_GE] = ">=",
	[KHIST_FOP_GT] = ">",	[KHIST_FOP_BAND] = "&",
};

/* Character classes of the kernel's ctype (Latin-1), independent of libc. */
static bool kh_isspace(char ch)
{
	unsigned char c = ch;

	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static bool kh_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool kh_isxdigit(char c)
{
	char l = c | 0x20;

	return kh_isdigit(c) || (l >= 'a' && l <= 'f');
}

static bool kh_isalnum(char ch)
{
	unsigned char c = ch;
	unsigned char l = c | 0x20;

	return kh_isdigit(ch) || (l >= 'a' && l <= 'z') ||
	       (c >= 0xc0 && c != 0xd7 && c != 0xf7);
}

/* How the filter sees a field (the kernel's filter types). */
enum ftype {
	FT_OTHER, FT_STATIC, FT_DYN, FT_RDYN, FT_PTR, FT_CPUMASK,
	FT_CPU, FT_COMM, FT_STACK,
};

struct fref {
	u8 type;
	u8 is_signed;
	u16 size;
	u32 offset;
};

struct fparse {
	const char *s;
	size_t len;
	const struct khist_event_schema *schema;
	const struct khist_filter_opts *opts;
	unsigned int nr_cpus;
	struct khist_filter_error *err;
};

static char at(const struct fparse *p, size_t i)
{
	return i < p->len ? p->s[i] : '\0';
}

static bool has_prefix(const struct fparse *p, size_t i, const char *w)
{
	for (; *w; w++, i++)
		if (at(p, i) != *w)
			return false;
	return true;
}

/* Record an error; returns the errno the kernel gives for such errors. */
static int fail(struct fparse *p, int code, size_t pos)
{
	p->err->code = code;
	p->err->pos = pos;
	return -EINVAL;
}

static bool name_is(const char *name, const char *s, size_t n)
{
	return !strncmp(name, s, n) && !name[n];
}

static bool is_string(const struct fref *f)
{
	return (f->type >= FT_STATIC && f->type <= FT_PTR) ||
	       f->type == FT_COMM;
}

static u8 schema_ftype(const struct khist_field_desc *d)
{
	switch (d->kind) {
	case KHIST_FK_STRING:
		return FT_STATIC;
	case KHIST_FK_DYNSTRING:
		return FT_DYN;
	case KHIST_FK_RELSTRING:
		return FT_RDYN;
	case KHIST_FK_PTRSTRING:
		return FT_PTR;
	case KHIST_FK_CPUMASK:
		return FT_CPUMASK;
	case KHIST_FK_ARRAY:
		/* The kernel calls any "...char...[...]" a string. */
		if (d->type && strstr(d->type, "char"))
			return FT_STATIC;
		return FT_OTHER;
	}
	return FT_OTHER;
}

/* Event fields first, then the generic pseudo-fields, then common_*. */
static bool find_field(const struct fparse *p, const char *s, size_t n,
		       struct fref *out)
{
	static const struct { const char *name; u8 type; } generic[] = {
		{ "CPU", FT_CPU }, { "cpu", FT_CPU }, { "common_cpu", FT_CPU },
		{ "COMM", FT_COMM }, { "comm", FT_COMM },
		{ "stacktrace", FT_STACK }, { "STACKTRACE", FT_STACK },
	};
	static const struct fref common[] = {
		{ FT_OTHER, 0, 2, offsetof(struct khist_common_hdr, type) },
		{ FT_OTHER, 0, 1, offsetof(struct khist_common_hdr, flags) },
		{ FT_OTHER, 0, 1,
		  offsetof(struct khist_common_hdr, preempt_count) },
		{ FT_OTHER, 1, 4, offsetof(struct khist_common_hdr, pid) },
	};
	static const char *const common_name[] = {
		"common_type", "common_flags", "common_preempt_count",
		"common_pid",
	};
	unsigned int k;

	for (k = 0; p->schema && k < p->schema->nr_fields; k++) {
		const struct khist_field_desc *d = &p->schema->fields[k];

		if (d->name && name_is(d->name, s, n)) {
			out->type = schema_ftype(d);
			out->is_signed = d->is_signed;
			out->size = d->size;
			out->offset = d->offset;
			return true;
		}
	}
	for (k = 0; k < ARRAY_SIZE(generic); k++) {
		if (name_is(generic[k].name, s, n)) {
			out->type = generic[k].type;
			out->is_signed = generic[k].type == FT_CPU;
			out->size = 0;
			out->offset = 0;
			return true;
		}
	}
	for (k = 0; k < ARRAY_SIZE(common); k++) {
		if (name_is(common_name[k], s, n)) {
			*out = common[k];
			return true;
		}
	}
	return false;
}

/* Unsigned magnitude in base 0 (0x.. hex, 0.. octal), whole string. */
static int num_mag(const char *s, u64 *out)
{
	u64 base = 10, v = 0;
	unsigned int digits = 0;
	bool ovf = false;

	if (s[0] == '0') {
		if ((s[1] | 0x20) == 'x' && kh_isxdigit(s[2])) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (;; s++, digits++) {
		char l = *s | 0x20;
		u64 d;

		if (kh_isdigit(*s))
			d = *s - '0';
		else if (l >= 'a' && l <= 'f')
			d = l - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (check_mul_overflow(v, base, &v) ||
		    check_add_overflow(v, d, &v))
			ovf = true;
	}
	if (ovf)
		return -ERANGE;
	if (!digits || *s)
		return -EINVAL;
	*out = v;
	return 0;
}

/* kstrtoll() / kstrtoull() with base 0. */
static int num_parse(const char *s, bool is_signed, u64 *out)
{
	u64 v;
	int r;

	if (is_signed && s[0] == '-') {
		r = num_mag(s + 1, &v);
		if (r)
			return r;
		if (v > (u64)S64_MAX + 1)
			return -ERANGE;
		*out = -v;
		return 0;
	}
	if (s[0] == '+')
		s++;
	r = num_mag(s, &v);
	if (r)
		return r;
	if (is_signed && v > (u64)S64_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

/* A cpulist (bitmap_parselist() syntax) in [@s, @s + @n). */
struct clist {
	const char *s;
	size_t n;
	size_t i;
	unsigned int nbits;
};

static char cl_at(const struct clist *c)
{
	return c->i < c->n ? c->s[c->i] : '\0';
}

static bool cl_end(char c)
{
	return !c || c == '\n';
}

static bool cl_sep(char c)
{
	return kh_isspace(c) || c == ',';
}

static int cl_num(struct clist *c, unsigned int *num)
{
	unsigned int digits = 0;
	bool ovf = false;
	u64 v = 0;

	if (cl_at(c) == 'N') {
		*num = c->nbits - 1;
		c->i++;
		return 0;
	}
	for (; kh_isdigit(cl_at(c)); c->i++, digits++)
		if (check_mul_overflow(v, (u64)10, &v) ||
		    check_add_overflow(v, (u64)(cl_at(c) - '0'), &v))
			ovf = true;
	if (!digits)
		return -EINVAL;
	if (ovf || v > UINT_MAX)
		return -EOVERFLOW;
	*num = v;
	return 0;
}

/* One region "a", "a-b", "a-b:used/group" or "all[:used/group]". */
static int cl_region(struct clist *c, unsigned long *mask, bool *stop)
{
	unsigned int start, end, used, group;
	u64 at_bit, b;
	int r;

	*stop = false;
	if ((cl_at(c) | 0x20) == 'a' && c->i + 3 <= c->n &&
	    (c->s[c->i + 1] | 0x20) == 'l' && (c->s[c->i + 2] | 0x20) == 'l') {
		start = 0;
		end = c->nbits - 1;
		c->i += 3;
	} else {
		r = cl_num(c, &start);
		if (r)
			return r;
		end = start;
		if (!cl_sep(cl_at(c)) && !cl_end(cl_at(c))) {
			if (cl_at(c) != '-')
				return -EINVAL;
			c->i++;
			r = cl_num(c, &end);
			if (r)
				return r;
		}
	}
	used = end + 1;
	group = end + 1;
	if (cl_sep(cl_at(c)) || cl_end(cl_at(c))) {
		*stop = cl_end(cl_at(c));
	} else {
		if (cl_at(c) != ':')
			return -EINVAL;
		c->i++;
		r = cl_num(c, &used);
		if (r)
			return r;
		if (cl_at(c) != '/')
			return -EINVAL;
		c->i++;
		r = cl_num(c, &group);
		if (r)
			return r;
	}
	if (start > end || !group || used > group)
		return -EINVAL;
	if (end >= c->nbits)
		return -ERANGE;
	for (at_bit = start; at_bit <= end; at_bit += group)
		for (b = at_bit; b <= end && b < at_bit + used; b++)
			mask[b / BITS_PER_LONG] |= 1UL << (b % BITS_PER_LONG);
	return 0;
}

static int cl_parse(const char *s, size_t n, unsigned int nbits,
		    unsigned long *mask)
{
	struct clist c = { .s = s, .n = n, .nbits = nbits };
	bool stop;
	int r;

	for (;;) {
		while (cl_sep(cl_at(&c)))
			c.i++;
		if (cl_end(cl_at(&c)))
			return 0;
		r = cl_region(&c, mask, &stop);
		if (r || stop)
			return r;
	}
}

static unsigned int mask_weight(const unsigned long *mask, unsigned int nbits,
				unsigned int *first)
{
	unsigned int b, w = 0;

	for (b = 0; b < nbits; b++) {
		if (!((mask[b / BITS_PER_LONG] >> (b % BITS_PER_LONG)) & 1))
			continue;
		if (!w++)
			*first = b;
	}
	return w;
}

/* An equality test on @size bytes, or nothing if the size is odd. */
static void set_eq(struct khist_fpred *pr, unsigned int size)
{
	pr->size = size;
	pr->kind = (size == 1 || size == 2 || size == 4 || size == 8) ?
		   KHIST_FP_EQ : KHIST_FP_FALSE;
	pr->negate = pr->op == KHIST_FOP_NE;
}

static int parse_function(struct fparse *p, const struct fref *fr, size_t i,
			  struct khist_fpred *pr, size_t *end)
{
	unsigned long addr = 0, start, stop;
	char num[NUM_MAX];
	size_t s = i;
	char *name = NULL;
	int r;

	if (fr->size != sizeof(long))
		return fail(p, KHIST_FERR_ILLEGAL_FIELD_OP, i + 1);
	if (pr->op != KHIST_FOP_EQ && pr->op != KHIST_FOP_NE)
		return fail(p, KHIST_FERR_INVALID_OP, i + 1);
	if (kh_isdigit(at(p, i))) {
		u64 v;

		while (kh_isalnum(at(p, i)))
			i++;
		if (i - s >= NUM_MAX)
			return fail(p, KHIST_FERR_OPERAND_TOO_LONG, i + 1);
		memcpy(num, p->s + s, i - s);
		num[i - s] = '\0';
		if (num_parse(num, false, &v))
			return fail(p, KHIST_FERR_INVALID_VALUE, i + 1);
		addr = v;
	} else {
		while (at(p, i) && !kh_isspace(at(p, i)))
			i++;
		name = kmalloc(i - s + 1, GFP_KERNEL);
		if (!name)
			return -ENOMEM;
		memcpy(name, p->s + s, i - s);
		name[i - s] = '\0';
	}
	r = p->opts && p->opts->func_range ?
	    p->opts->func_range(p->opts->priv, name, addr, &start, &stop) : -1;
	kfree(name);
	if (r)
		return fail(p, KHIST_FERR_NO_FUNCTION, i + 1);
	pr->kind = KHIST_FP_FUNC;
	pr->size = fr->size;
	pr->val = start;
	pr->val2 = stop;
	*end = i;
	return 0;
}

static int parse_cpus(struct fparse *p, const struct fref *fr, size_t i,
		      struct khist_fpred *pr, size_t *end)
{
	unsigned int first = 0, weight;
	size_t ms;

	if (fr->type != FT_CPUMASK && fr->type != FT_CPU &&
	    fr->type != FT_OTHER)
		return fail(p, KHIST_FERR_ILLEGAL_FIELD_OP, i + 1);
	if (pr->op != KHIST_FOP_EQ && pr->op != KHIST_FOP_NE &&
	    pr->op != KHIST_FOP_BAND)
		return fail(p, KHIST_FERR_ILLEGAL_FIELD_OP, i + 1);
	i += 4;
	if (at(p, i++) != '{')
		return fail(p, KHIST_FERR_MISSING_BRACE_OPEN, i + 1);
	ms = i;
	while (at(p, i) && at(p, i) != '}')
		i++;
	if (at(p, i) != '}')
		return fail(p, KHIST_FERR_MISSING_BRACE_CLOSE, i + 1);
	if (ms == i)
		return fail(p, KHIST_FERR_INVALID_CPULIST, i + 1);
	pr->mask = kcalloc(DIV_ROUND_UP(p->nr_cpus, BITS_PER_LONG),
			   sizeof(unsigned long), GFP_KERNEL);
	if (!pr->mask)
		return -ENOMEM;
	if (cl_parse(p->s + ms, i - ms, p->nr_cpus, pr->mask))
		return fail(p, KHIST_FERR_INVALID_CPULIST, i + 1);
	*end = i + 1;

	/* A single CPU is a plain number; '&' with one CPU means '=='. */
	weight = mask_weight(pr->mask, p->nr_cpus, &first);
	if (weight == 1) {
		kfree(pr->mask);
		pr->mask = NULL;
		pr->val = first;
		if (fr->type != FT_CPUMASK && pr->op == KHIST_FOP_BAND)
			pr->op = KHIST_FOP_EQ;
	}
	pr->size = fr->size;
	switch (fr->type) {
	case FT_CPUMASK:
		pr->kind = weight == 1 ? KHIST_FP_CPUMASK_CPU : KHIST_FP_CPUMASK;
		break;
	case FT_CPU:
		pr->kind = weight == 1 ? KHIST_FP_CPU : KHIST_FP_CPU_MASK;
		break;
	default:
		if (weight == 1)
			set_eq(pr, fr->size);
		else
			pr->kind = fr->size == 1 || fr->size == 2 ||
				   fr->size == 4 || fr->size == 8 ?
				   KHIST_FP_SCALAR_MASK : KHIST_FP_FALSE;
		break;
	}
	return 0;
}

/* Classify a ~ pattern; [*@t, *@t + *@n) is narrowed to what is compared. */
static u8 glob_kind(const char **t, size_t *n, u8 *negate)
{
	u8 kind = KHIST_FMATCH_FULL;
	size_t k;

	if (*n && **t == '!') {
		*negate = 1;
		(*t)++;
		(*n)--;
	}
	if (*n && kh_isdigit(**t))
		return KHIST_FMATCH_FULL;
	for (k = 0; k < *n; k++) {
		char c = (*t)[k];

		if (c == '[' || c == '?' || c == '\\')
			return KHIST_FMATCH_GLOB;
		if (c != '*')
			continue;
		if (!k) {
			kind = KHIST_FMATCH_END;
		} else if (k == *n - 1) {
			kind = kind == KHIST_FMATCH_END ? KHIST_FMATCH_MIDDLE :
							  KHIST_FMATCH_FRONT;
			(*n)--;
			break;
		} else {
			return KHIST_FMATCH_GLOB;
		}
	}
	if (*n && **t == '*') {
		(*t)++;
		(*n)--;
	}
	return kind;
}

static int parse_string(struct fparse *p, const struct fref *fr, bool ustr,
			size_t i, struct khist_fpred *pr, size_t *end)
{
	char q = at(p, i);
	const char *t;
	size_t s = i, n;

	switch (pr->op) {
	case KHIST_FOP_NE:
		pr->negate = 1;
		break;
	case KHIST_FOP_GLOB:
	case KHIST_FOP_EQ:
		break;
	default:
		return fail(p, KHIST_FERR_ILLEGAL_FIELD_OP, i + 1);
	}
	if (!is_string(fr))
		return fail(p, KHIST_FERR_EXPECT_DIGIT, i + 1);
	for (i++; at(p, i) && at(p, i) != q; i++)
		;
	if (!at(p, i))
		return fail(p, KHIST_FERR_MISSING_QUOTE, i + 1);
	t = p->s + s + 1;
	n = i - s - 1;
	if (n >= KHIST_FILTER_STR_MAX)
		return fail(p, KHIST_FERR_OPERAND_TOO_LONG, i + 1);
	pr->match = KHIST_FMATCH_FULL;
	if (pr->op == KHIST_FOP_GLOB)
		pr->match = glob_kind(&t, &n, &pr->negate);
	pr->pat = kmalloc(n + 1, GFP_KERNEL);
	if (!pr->pat)
		return -ENOMEM;
	memcpy(pr->pat, t, n);
	pr->pat[n] = '\0';
	pr->pat_len = n;

	pr->kind = KHIST_FP_STR;
	pr->size = fr->size;
	pr->field_len = fr->size;
	switch (fr->type) {
	case FT_COMM:
		pr->src = KHIST_FSTR_COMM;
		break;
	case FT_STATIC:
		pr->src = KHIST_FSTR_STATIC;
		break;
	case FT_DYN:
		pr->src = KHIST_FSTR_DYN;
		break;
	case FT_RDYN:
		pr->src = KHIST_FSTR_REL;
		break;
	default:
		pr->src = ustr ? KHIST_FSTR_UPTR : KHIST_FSTR_PTR;
		break;
	}
	*end = i + 1;
	return 0;
}

static int parse_number(struct fparse *p, const struct fref *fr, size_t i,
			struct khist_fpred *pr, size_t *end)
{
	char num[NUM_MAX];
	size_t s = i;

	if (is_string(fr))
		return fail(p, KHIST_FERR_EXPECT_STRING, i + 1);
	if (pr->op == KHIST_FOP_GLOB)
		return fail(p, KHIST_FERR_ILLEGAL_FIELD_OP, i + 1);
	if (at(p, i) == '-')
		i++;
	while (kh_isalnum(at(p, i)))
		i++;
	if (i - s >= NUM_MAX)
		return fail(p, KHIST_FERR_OPERAND_TOO_LONG, i + 1);
	memcpy(num, p->s + s, i - s);
	num[i - s] = '\0';
	if (num_parse(num, fr->is_signed, &pr->val))
		return fail(p, KHIST_FERR_ILLEGAL_INTVAL, s + 1);
	*end = i;

	pr->size = fr->size;
	pr->is_signed = fr->is_signed;
	if (fr->type == FT_CPU)
		pr->kind = KHIST_FP_CPU;
	else if (pr->op == KHIST_FOP_EQ || pr->op == KHIST_FOP_NE)
		set_eq(pr, fr->size);
	else
		pr->kind = fr->size == 1 || fr->size == 2 || fr->size == 4 ||
			   fr->size == 8 ? KHIST_FP_CMP : KHIST_FP_FALSE;
	return 0;
}

/*
 * One predicate starting at @start; on success *@end is the index just
 * past it. Returns 0, -EINVAL with an error recorded, -ENOMEM, or -1 (the
 * kernel's bare failure when there is no field name at all).
 */
static int parse_pred(struct fparse *p, size_t start, struct khist_fpred *pr,
		      size_t *end)
{
	bool ustr = false, function = false;
	size_t i = start, s;
	struct fref fr;
	int op;

	while (kh_isspace(at(p, i)))
		i++;
	s = i;
	while (kh_isalnum(at(p, i)) || at(p, i) == '_')
		i++;
	if (i == s)
		return -1;
	if (!find_field(p, p->s + s, i - s, &fr))
		return fail(p, KHIST_FERR_FIELD_NOT_FOUND, i + 1);
	if (has_prefix(p, i, ".ustring")) {
		ustr = true;
		i += strlen(".ustring");
	}
	if (has_prefix(p, i, ".function")) {
		function = true;
		i += strlen(".function");
	}
	while (kh_isspace(at(p, i)))
		i++;
	for (op = 0; op < KHIST_FOP_NR; op++)
		if (has_prefix(p, i, fop_text[op]))
			break;
	if (op == KHIST_FOP_NR)
		return fail(p, KHIST_FERR_INVALID_OP, i + 1);
	i += strlen(fop_text[op]);
	while (kh_isspace(at(p, i)))
		i++;

	pr->op = op;
	pr->offset = fr.offset;
	if (function)
		return parse_function(p, &fr, i, pr, end);
	if (has_prefix(p, i, "CPUS"))
		return parse_cpus(p, &fr, i, pr, end);
	if (at(p, i) == '\'' || at(p, i) == '"')
		return parse_string(p, &fr, ustr, i, pr, end);
	if (kh_isdigit(at(p, i)) || at(p, i) == '-')
		return parse_number(p, &fr, i, pr, end);
	return fail(p, KHIST_FERR_INVALID_VALUE, i + 1);
}

/*
 * First pass: quotes and parentheses must pair up. Counts an upper bound
 * of the predicates and the deepest nesting (the whole text is level 1).
 * Returns 0 or the kernel's (odd) errno for each failure.
 */
static int prescan(struct fparse *p, unsigned int *depth,
		   unsigned int *npreds)
{
	unsigned int open = 1, deepest = 1, level, n = 0;
	size_t i, last_quote = 0;
	bool in_pred = false;
	char quote = 0;

	for (i = 0; i < p->len; i++) {
		char c = p->s[i];

		if (kh_isspace(c))
			continue;
		if (quote) {
			if (c == quote)
				quote = 0;
			continue;
		}
		switch (c) {
		case '\'':
		case '"':
			quote = c;
			last_quote = i;
			break;
		case '&':
		case '|':
			if (at(p, i + 1) != c)
				break;
			in_pred = false;
			continue;
		case '(':
			in_pred = false;
			open++;
			deepest = max(deepest, open);
			continue;
		case ')':
			in_pred = false;
			if (open == 1) {
				fail(p, KHIST_FERR_TOO_MANY_CLOSE, i);
				return -EPERM;
			}
			open--;
			continue;
		}
		if (!in_pred) {
			n++;
			in_pred = true;
		}
	}
	if (quote) {
		fail(p, KHIST_FERR_MISSING_QUOTE, last_quote);
		return -ESRCH;
	}
	if (open != 1) {
		/* Walk back to the '(' left open (never looks at byte 0). */
		p->err->pos = 0;
		level = open;
		for (i = p->len; i-- > 1;) {
			char c = p->s[i];

			if (quote) {
				if (c == quote)
					quote = 0;
			} else if (c == '(') {
				if (level == open) {
					p->err->pos = i;
					break;
				}
				level--;
			} else if (c == ')') {
				level++;
			} else if (c == '\'' || c == '"') {
				quote = c;
			}
		}
		p->err->code = KHIST_FERR_TOO_MANY_OPEN;
		return -ENOENT;
	}
	*depth = deepest;
	*npreds = n;
	return 0;
}

enum { FN_LEAF, FN_AND, FN_OR };

struct fnode {
	u8 type;
	u8 neg;
	u32 left, right;
	u32 first;	/* first leaf (predicate index) of the subtree */
	u32 on_true, on_false;
};

struct fframe {
	u8 invert;
	u8 want_and;
	u8 want_or;
};

struct fbuild {
	struct fnode *nodes;
	u32 *stack;
	unsigned int nr_nodes, sp;
};

static int reduce(struct fbuild *b, u8 type)
{
	u32 l, r;

	if (WARN_ON_ONCE(b->sp < 2))
		return -EINVAL;
	r = b->stack[--b->sp];
	l = b->stack[--b->sp];
	b->nodes[b->nr_nodes] = (struct fnode){
		.type = type, .left = l, .right = r,
		.first = b->nodes[l].first,
	};
	b->stack[b->sp++] = b->nr_nodes++;
	return 0;
}

/* Give every leaf its two forward jumps, from the root down. */
static int flatten(struct fbuild *b, struct khist_filter *f)
{
	unsigned int k, n = f->nr_preds;

	if (WARN_ON_ONCE(b->sp != 1 || b->stack[0] != b->nr_nodes - 1))
		return -EINVAL;
	b->nodes[b->nr_nodes - 1].on_true = n;
	b->nodes[b->nr_nodes - 1].on_false = n + 1;
	for (k = b->nr_nodes; k-- > 0;) {
		struct fnode *nd = &b->nodes[k], *l, *r;
		struct khist_fpred *pr;

		if (nd->type == FN_LEAF) {
			pr = &f->preds[nd->first];
			pr->on_true = nd->neg ? nd->on_false : nd->on_true;
			pr->on_false = nd->neg ? nd->on_true : nd->on_false;
			if (WARN_ON_ONCE(pr->on_true <= nd->first ||
					 pr->on_false <= nd->first))
				return -EINVAL;
			continue;
		}
		l = &b->nodes[nd->left];
		r = &b->nodes[nd->right];
		r->on_true = nd->on_true;
		r->on_false = nd->on_false;
		l->on_true = nd->type == FN_AND ? r->first : nd->on_true;
		l->on_false = nd->type == FN_AND ? nd->on_false : r->first;
	}
	return 0;
}

/* Second pass: parse, build the and/or tree, flatten it into @f. */
static int build(struct fparse *p, struct khist_filter *f,
		 unsigned int depth, unsigned int npreds)
{
	struct fbuild b = { };
	struct fframe *frames;
	unsigned int top = 0, n = 0;
	size_t i = 0, j = 0, pos;
	u8 invert = 0;
	int ret = -ENOMEM;	/* the kernel's running return value */
	char c;

	frames = kcalloc(depth, sizeof(*frames), GFP_KERNEL);
	b.nodes = kcalloc(2 * npreds, sizeof(*b.nodes), GFP_KERNEL);
	b.stack = kcalloc(npreds, sizeof(*b.stack), GFP_KERNEL);
	if (!frames || !b.nodes || !b.stack)
		goto out;

	while (i < p->len) {
		c = p->s[i];
		if (kh_isspace(c)) {
			i++;
			continue;
		}
		if (c == '(') {
			if (top + 1 >= depth) {
				ret = -EINVAL;
				goto out;
			}
			frames[++top] = (struct fframe){ .invert = invert };
			i++;
			continue;
		}
		if (c == '!' && at(p, i + 1) != '=' && at(p, i + 1) != '~') {
			invert = !invert;
			i++;
			continue;
		}
		if (n >= npreds) {
			fail(p, KHIST_FERR_TOO_MANY_PREDS, i);
			goto out;
		}
		f->nr_preds = n + 1;	/* so that a failure frees its parts */
		ret = parse_pred(p, i, &f->preds[n], &j);
		if (ret)
			goto out;
		b.nodes[b.nr_nodes] = (struct fnode){
			.type = FN_LEAF, .neg = invert, .first = n,
		};
		b.stack[b.sp++] = b.nr_nodes++;
		n++;

		ret = -1;
		for (;;) {
			struct fframe *fr = &frames[top];

			c = at(p, j++);
			if (kh_isspace(c))
				continue;
			if ((c == '&' || c == '|') && at(p, j) == c)
				j++;
			else if (c != ')' && c)
				goto too_many;
			invert = fr->invert;
			if (fr->want_and) {
				if (reduce(&b, invert ? FN_OR : FN_AND))
					goto out;
				fr->want_and = 0;
			}
			if (c == '&') {
				fr->want_and = 1;
				break;
			}
			if (fr->want_or) {
				if (reduce(&b, invert ? FN_AND : FN_OR))
					goto out;
				fr->want_or = 0;
			}
			if (c == '|') {
				fr->want_or = 1;
				break;
			}
			if (!c) {
				pos = j;
				goto done;
			}
			if (!top) {
				fail(p, KHIST_FERR_TOO_MANY_CLOSE, j);
				goto out;
			}
			top--;
		}
		i = j;
	}
	/* Text ended right after an operator (or a '!'). */
	if (n) {
		ret = fail(p, KHIST_FERR_INVALID_FILTER, i);
		goto out;
	}
	pos = i;
done:
	if (top) {
		fail(p, KHIST_FERR_TOO_MANY_OPEN, pos);
		goto out;
	}
	if (!n) {
		ret = fail(p, KHIST_FERR_NO_FILTER, pos);
		goto out;
	}
	ret = flatten(&b, f);
	goto out;
too_many:
	fail(p, KHIST_FERR_TOO_MANY_PREDS, j - 1);
out:
	kfree(frames);
	kfree(b.nodes);
	kfree(b.stack);
	return ret;
}

/**
 * khist_filter_compile() - compile the text of an event filter
 * @schema: layout of the event the filter applies to
 * @text:   the filter; read up to @len bytes or the first NUL, never
 *          written. Leading blanks count for caret positions, as in the
 *          kernel; strip trailing ones first (khist_filter_trim()).
 * @len:    bytes of @text
 * @opts:   CPU mask width and symbol lookup; may be NULL
 * @out:    the compiled filter on success, NULL on failure
 * @err:    why it failed (message code, caret position, errno)
 *
 * Context: process context; allocates with GFP_KERNEL.
 * Return: 0, or the negative errno the kernel returns for this text
 * (also in @err->ret).
 */
int khist_filter_compile(const struct khist_event_schema *schema,
			 const char *text, size_t len,
			 const struct khist_filter_opts *opts,
			 struct khist_filter **out,
			 struct khist_filter_error *err)
{
	struct fparse p = {
		.s = text, .len = strnlen(text, len), .schema = schema,
		.opts = opts, .err = err,
	};
	unsigned int depth = 0, npreds = 0;
	struct khist_filter *f;
	int ret;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	p.nr_cpus = opts && opts->nr_cpus ? opts->nr_cpus : nr_cpu_ids;

	ret = prescan(&p, &depth, &npreds);
	if (!ret && !npreds)
		ret = -EINVAL;	/* nothing but blanks and parentheses */
	if (ret) {
		err->ret = ret;
		return ret;
	}

	ret = -ENOMEM;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto fail;
	f->nr_cpus = p.nr_cpus;
	f->text = kmalloc(p.len + 1, GFP_KERNEL);
	f->preds = kcalloc(npreds, sizeof(*f->preds), GFP_KERNEL);
	if (!f->text || !f->preds)
		goto fail;
	memcpy(f->text, text, p.len);
	f->text[p.len] = '\0';
	f->text_len = p.len;

	ret = build(&p, f, depth, npreds);
	if (ret)
		goto fail;
	*out = f;
	return 0;
fail:
	khist_filter_free(f);
	err->ret = ret;
	return ret;
}

/**
 * khist_filter_free() - free a compiled filter
 * @f: the filter, or NULL
 *
 * The caller makes sure no evaluation can still be using @f (in the
 * kernel: after an RCU / tracepoint grace period).
 *
 * Context: any context that may call kfree().
 */
void khist_filter_free(struct khist_filter *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; f->preds && i < f->nr_preds; i++) {
		kfree(f->preds[i].pat);
		kfree(f->preds[i].mask);
	}
	kfree(f->preds);
	kfree(f->text);
	kfree(f);
}

/**
 * khist_filter_err_text() - the message of an error code
 * @code: enum khist_filter_errcode
 *
 * Context: any.
 * Return: the kernel's text for @code ("Error" if out of range).
 */
const char *khist_filter_err_text(int code)
{
	if (code < 0 || code >= KHIST_FERR_MAX)
		return ferr_text[KHIST_FERR_ERRNO];
	return ferr_text[code];
}

/**
 * khist_filter_errlog_msg() - the error_log message of a failed compile
 * @err: the failure
 *
 * Context: any.
 * Return: the message; "Error" when the kernel has no specific text.
 */
const char *khist_filter_errlog_msg(const struct khist_filter_error *err)
{
	return khist_filter_err_text(err->code > 0 ? err->code :
				     KHIST_FERR_ERRNO);
}

/**
 * khist_filter_errlog_pos() - the error_log caret position of a failure
 * @err: the failure
 *
 * Context: any.
 * Return: the recorded position, or 0 when there is no specific message.
 */
unsigned int khist_filter_errlog_pos(const struct khist_filter_error *err)
{
	return err->code > 0 ? err->pos : 0;
}

/**
 * khist_filter_format_failed() - what the `filter` file keeps after a
 * failed write
 * @text: the filter text that failed (as given to khist_filter_compile())
 * @len:  its length
 * @err:  the failure
 * @buf:  output
 * @size: size of @buf
 *
 * Produces "<text>\n<caret line>\nparse_error: <message>\n", the caret at
 * the error position clamped to the text length, or "<text>\nError: (n)\n"
 * when there is no specific message. Reading the file then shows this
 * string followed by one more "\n" (khist_filter_show()).
 *
 * Context: any.
 * Return: bytes written, without the terminating NUL.
 */
int khist_filter_format_failed(const char *text, size_t len,
			       const struct khist_filter_error *err,
			       char *buf, size_t size)
{
	size_t n = strnlen(text, len);

	if (err->code > 0)
		return scnprintf(buf, size, "%.*s\n%*s\nparse_error: %s\n",
				 (int)n, text, (int)min_t(size_t, err->pos, n) + 1,
				 "^", khist_filter_err_text(err->code));
	return scnprintf(buf, size, "%.*s\nError: (%d)\n", (int)n, text,
			 err->ret == -ENOMEM ? -ENOMEM : 0);
}

/**
 * khist_filter_show() - contents of a `filter` file
 * @stored: the filter text, the failure text from
 *          khist_filter_format_failed(), or NULL when there is no filter
 * @buf:    output
 * @size:   size of @buf
 *
 * Context: any.
 * Return: bytes written ("<stored>\n" or "none\n"), without the NUL.
 */
int khist_filter_show(const char *stored, char *buf, size_t size)
{
	if (!stored)
		return scnprintf(buf, size, "none\n");
	return scnprintf(buf, size, "%s\n", stored);
}

/**
 * khist_filter_trim() - length of a filter text without trailing blanks
 * @text: the text written to a `filter` file
 * @len:  its length
 *
 * The kernel strips trailing white space (the newline of echo) but keeps
 * leading white space, which then counts in caret positions.
 *
 * Context: any.
 * Return: the length to compile and store.
 */
size_t khist_filter_trim(const char *text, size_t len)
{
	len = strnlen(text, len);
	while (len && kh_isspace(text[len - 1]))
		len--;
	return len;
}

/**
 * khist_filter_is_clear() - is this write a request to remove the filter?
 * @text: the text written to a `filter` file
 * @len:  its length
 *
 * Context: any.
 * Return: true if @text is "0", blanks around it allowed.
 */
bool khist_filter_is_clear(const char *text, size_t len)
{
	size_t i = 0;

	len = khist_filter_trim(text, len);
	while (i < len && kh_isspace(text[i]))
		i++;
	return len - i == 1 && text[i] == '0';
}
