// SPDX-License-Identifier: GPL-2.0
/*
 * filter_pred.c - compile one predicate of an event filter:
 * "<field>[.ustring][.function] <op> <value>" (see filter_pred.h).
 *
 * The checks run in the kernel's order, so that the same text gives the
 * same message at the same position: field name, modifiers, operator,
 * then the value by its first character. Positions inside a predicate are
 * recorded one byte to the right of the character at fault, as in
 * Linux 6.12.
 */
#include "core_env.h"
#include "filter_pred.h"

#define NUM_MAX 24 /* a numeric operand must be shorter than this */

/* Tried in this order, so that "<=" wins over "<" and ">=" over ">". */
static const char *const fop_text[KHIST_FOP_NR] = {
	[KHIST_FOP_GLOB] = "~", [KHIST_FOP_NE] = "!=",	[KHIST_FOP_EQ] = "==",
	[KHIST_FOP_LE] = "<=",	[KHIST_FOP_LT] = "<",	[KHIST_FOP_GE] = ">=",
	[KHIST_FOP_GT] = ">",	[KHIST_FOP_BAND] = "&",
};

/* How the filter sees a field (the kernel's filter types). */
enum ftype {
	FT_OTHER,
	FT_STATIC,
	FT_DYN,
	FT_RDYN,
	FT_PTR,
	FT_CPUMASK,
	FT_CPU,
	FT_COMM,
	FT_STACK,
};

struct fref {
	u8 type;
	u8 is_signed;
	u16 size;
	u32 offset;
};

static bool has_prefix(const struct khist_fparse *p, size_t i, const char *w)
{
	for (; *w; w++, i++)
		if (at(p, i) != *w)
			return false;
	return true;
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
static bool find_field(const struct khist_fparse *p, const char *s, size_t n,
		       struct fref *out)
{
	static const struct {
		const char *name;
		u8 type;
	} generic[] = {
		{ "CPU", FT_CPU },	    { "cpu", FT_CPU },
		{ "common_cpu", FT_CPU },   { "COMM", FT_COMM },
		{ "comm", FT_COMM },	    { "stacktrace", FT_STACK },
		{ "STACKTRACE", FT_STACK },
	};
	static const struct fref common[] = {
		{ FT_OTHER, 0, 2, offsetof(struct khist_common_hdr, type) },
		{ FT_OTHER, 0, 1, offsetof(struct khist_common_hdr, flags) },
		{ FT_OTHER, 0, 1,
		  offsetof(struct khist_common_hdr, preempt_count) },
		{ FT_OTHER, 1, 4, offsetof(struct khist_common_hdr, pid) },
	};
	static const char *const common_name[] = {
		"common_type",
		"common_flags",
		"common_preempt_count",
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
		if ((s[1] | 0x20) == 'x' && khist_isxdigit(s[2])) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (;; s++, digits++) {
		char l = *s | 0x20;
		u64 d;

		if (khist_isdigit(*s))
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
	return khist_isspace(c) || c == ',';
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
	for (; khist_isdigit(cl_at(c)); c->i++, digits++)
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
			   KHIST_FP_EQ :
			   KHIST_FP_FALSE;
	pr->negate = pr->op == KHIST_FOP_NE;
}

static int parse_function(struct khist_fparse *p, const struct fref *fr,
			  size_t i, struct khist_fpred *pr, size_t *end)
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
	if (khist_isdigit(at(p, i))) {
		u64 v;

		while (khist_isalnum(at(p, i)))
			i++;
		if (i - s >= NUM_MAX)
			return fail(p, KHIST_FERR_OPERAND_TOO_LONG, i + 1);
		memcpy(num, p->s + s, i - s);
		num[i - s] = '\0';
		if (num_parse(num, false, &v))
			return fail(p, KHIST_FERR_INVALID_VALUE, i + 1);
		addr = v;
	} else {
		while (at(p, i) && !khist_isspace(at(p, i)))
			i++;
		name = kmalloc(i - s + 1, GFP_KERNEL);
		if (!name)
			return -ENOMEM;
		memcpy(name, p->s + s, i - s);
		name[i - s] = '\0';
	}
	r = p->opts && p->opts->func_range ?
		    p->opts->func_range(p->opts->priv, name, addr, &start,
					&stop) :
		    -1;
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

static int parse_cpus(struct khist_fparse *p, const struct fref *fr, size_t i,
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
		pr->kind = weight == 1 ? KHIST_FP_CPUMASK_CPU :
					 KHIST_FP_CPUMASK;
		break;
	case FT_CPU:
		pr->kind = weight == 1 ? KHIST_FP_CPU : KHIST_FP_CPU_MASK;
		break;
	default:
		if (weight == 1)
			set_eq(pr, fr->size);
		else
			pr->kind = fr->size == 1 || fr->size == 2 ||
						   fr->size == 4 ||
						   fr->size == 8 ?
					   KHIST_FP_SCALAR_MASK :
					   KHIST_FP_FALSE;
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
	if (*n && khist_isdigit(**t))
		return KHIST_FMATCH_FULL;
	for (k = 0; k < *n; k++) {
		char c = (*t)[k];

		if (c == '[' || c == '?' || c == '\\')
			return KHIST_FMATCH_GLOB;
		if (c != '*')
			continue;
		if (!k) {
			kind = KHIST_FMATCH_END;
			continue;
		}
		if (k != *n - 1)
			return KHIST_FMATCH_GLOB;
		kind = kind == KHIST_FMATCH_END ? KHIST_FMATCH_MIDDLE :
						  KHIST_FMATCH_FRONT;
		(*n)--;
		break;
	}
	if (*n && **t == '*') {
		(*t)++;
		(*n)--;
	}
	return kind;
}

static int parse_string(struct khist_fparse *p, const struct fref *fr,
			bool ustr, size_t i, struct khist_fpred *pr,
			size_t *end)
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

static int parse_number(struct khist_fparse *p, const struct fref *fr, size_t i,
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
	while (khist_isalnum(at(p, i)))
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
					   fr->size == 8 ?
				   KHIST_FP_CMP :
				   KHIST_FP_FALSE;
	return 0;
}

/**
 * khist_filter_parse_pred() - compile the predicate that starts at @start
 * @p:     the compilation (text, schema, options, error record)
 * @start: index of the first byte of the predicate in the text
 * @pr:    the predicate to fill in (zeroed by the caller); anything it
 *         allocates is freed with the filter, also on failure
 * @end:   on success, the index just past the predicate
 *
 * Context: process context; may allocate with GFP_KERNEL.
 * Return: 0; -EINVAL with the error recorded in @p->err; -ENOMEM; or -1,
 * the kernel's bare failure when there is no field name at all.
 */
int khist_filter_parse_pred(struct khist_fparse *p, size_t start,
			    struct khist_fpred *pr, size_t *end)
{
	bool ustr = false, function = false;
	size_t i = start, s;
	struct fref fr;
	int op;

	while (khist_isspace(at(p, i)))
		i++;
	s = i;
	while (khist_isalnum(at(p, i)) || at(p, i) == '_')
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
	while (khist_isspace(at(p, i)))
		i++;
	for (op = 0; op < KHIST_FOP_NR; op++)
		if (has_prefix(p, i, fop_text[op]))
			break;
	if (op == KHIST_FOP_NR)
		return fail(p, KHIST_FERR_INVALID_OP, i + 1);
	i += strlen(fop_text[op]);
	while (khist_isspace(at(p, i)))
		i++;

	pr->op = op;
	pr->offset = fr.offset;
	if (function)
		return parse_function(p, &fr, i, pr, end);
	if (has_prefix(p, i, "CPUS"))
		return parse_cpus(p, &fr, i, pr, end);
	if (at(p, i) == '\'' || at(p, i) == '"')
		return parse_string(p, &fr, ustr, i, pr, end);
	if (khist_isdigit(at(p, i)) || at(p, i) == '-')
		return parse_number(p, &fr, i, pr, end);
	return fail(p, KHIST_FERR_INVALID_VALUE, i + 1);
}
