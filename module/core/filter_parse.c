// SPDX-License-Identifier: GPL-2.0
/*
 * filter_parse.c - compile event filter text into the predicate program
 * of filter_eval.h, and render the `filter` file and error_log texts.
 *
 * One predicate is compiled by filter_pred.c; this file handles the
 * expression around the predicates. Compilation is two passes over the
 * text, as in Linux 6.12, because the
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
#include "filter_pred.h"

static const char *const ferr_text[KHIST_FERR_MAX] = {
	[KHIST_FERR_NONE] = "No error",
	[KHIST_FERR_INVALID_OP] = "Invalid operator",
	[KHIST_FERR_TOO_MANY_OPEN] = "Too many '('",
	[KHIST_FERR_TOO_MANY_CLOSE] = "Too few '('",
	[KHIST_FERR_MISSING_QUOTE] = "Missing matching quote",
	[KHIST_FERR_MISSING_BRACE_OPEN] = "Missing '{'",
	[KHIST_FERR_MISSING_BRACE_CLOSE] = "Missing '}'",
	[KHIST_FERR_OPERAND_TOO_LONG] = "Operand too long",
	[KHIST_FERR_EXPECT_STRING] = "Expecting string field",
	[KHIST_FERR_EXPECT_DIGIT] = "Expecting numeric field",
	[KHIST_FERR_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
	[KHIST_FERR_FIELD_NOT_FOUND] = "Field not found",
	[KHIST_FERR_ILLEGAL_INTVAL] = "Illegal integer value",
	[KHIST_FERR_BAD_SUBSYS_FILTER] =
		"Couldn't find or set field in one of a subsystem's events",
	[KHIST_FERR_TOO_MANY_PREDS] = "Too many terms in predicate expression",
	[KHIST_FERR_INVALID_FILTER] = "Meaningless filter expression",
	[KHIST_FERR_INVALID_CPULIST] = "Invalid cpulist",
	[KHIST_FERR_IP_FIELD_ONLY] =
		"Only 'ip' field is supported for function trace",
	[KHIST_FERR_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
	[KHIST_FERR_NO_FUNCTION] = "Function not found",
	[KHIST_FERR_ERRNO] = "Error",
	[KHIST_FERR_NO_FILTER] = "No filter found",
};

/*
 * First pass: quotes and parentheses must pair up. Counts an upper bound
 * of the predicates and the deepest nesting (the whole text is level 1).
 * Returns 0 or the kernel's (odd) errno for each failure.
 */
static int prescan(struct khist_fparse *p, unsigned int *depth,
		   unsigned int *npreds)
{
	unsigned int open = 1, deepest = 1, level, n = 0;
	size_t i, last_quote = 0;
	bool in_pred = false;
	char quote = 0;

	for (i = 0; i < p->len; i++) {
		char c = p->s[i];

		if (khist_isspace(c))
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
	u32 first; /* first leaf (predicate index) of the subtree */
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
		.type = type,
		.left = l,
		.right = r,
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
static int build(struct khist_fparse *p, struct khist_filter *f,
		 unsigned int depth, unsigned int npreds)
{
	struct fbuild b = {};
	struct fframe *frames;
	unsigned int top = 0, n = 0;
	size_t i = 0, j = 0, pos;
	u8 invert = 0;
	int ret = -ENOMEM; /* the kernel's running return value */
	char c;

	frames = kcalloc(depth, sizeof(*frames), GFP_KERNEL);
	b.nodes = kcalloc(2 * npreds, sizeof(*b.nodes), GFP_KERNEL);
	b.stack = kcalloc(npreds, sizeof(*b.stack), GFP_KERNEL);
	if (!frames || !b.nodes || !b.stack)
		goto out;

	while (i < p->len) {
		c = p->s[i];
		if (khist_isspace(c)) {
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
		f->nr_preds = n + 1; /* so that a failure frees its parts */
		ret = khist_filter_parse_pred(p, i, &f->preds[n], &j);
		if (ret)
			goto out;
		b.nodes[b.nr_nodes] = (struct fnode){
			.type = FN_LEAF,
			.neg = invert,
			.first = n,
		};
		b.stack[b.sp++] = b.nr_nodes++;
		n++;

		ret = -1;
		for (;;) {
			struct fframe *fr = &frames[top];

			c = at(p, j++);
			if (khist_isspace(c))
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

/* Does a predicate read what only the caller's context has? */
static bool needs_ctx(const struct khist_filter *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_preds; i++) {
		const struct khist_fpred *p = &f->preds[i];

		if (p->kind == KHIST_FP_CPU || p->kind == KHIST_FP_CPU_MASK)
			return true;
		if (p->kind == KHIST_FP_STR &&
		    (p->src == KHIST_FSTR_PTR || p->src == KHIST_FSTR_UPTR ||
		     p->src == KHIST_FSTR_COMM))
			return true;
	}
	return false;
}

/* What of the record the predicates read (KHIST_READS_*). */
static unsigned int filter_reads(const struct khist_filter *f)
{
	unsigned int i, r = 0;

	for (i = 0; i < f->nr_preds; i++) {
		const struct khist_fpred *p = &f->preds[i];

		switch (p->kind) {
		case KHIST_FP_FALSE:
		case KHIST_FP_CPU:
		case KHIST_FP_CPU_MASK:
			break;
		case KHIST_FP_EQ:
		case KHIST_FP_CMP:
		case KHIST_FP_SCALAR_MASK:
		case KHIST_FP_FUNC:
			r |= khist_reads_range(p->offset, p->size);
			break;
		case KHIST_FP_STR:
			if (p->src == KHIST_FSTR_COMM)
				break;
			if (p->src == KHIST_FSTR_STATIC && p->field_len)
				r |= khist_reads_range(p->offset, p->field_len);
			else if (p->src == KHIST_FSTR_PTR ||
				 p->src == KHIST_FSTR_UPTR)
				r |= khist_reads_range(p->offset, p->size);
			else
				r |= KHIST_READS_ALL;
			break;
		default:
			/* cpumask payloads, anything new: all of it */
			r |= KHIST_READS_ALL;
		}
	}
	return r;
}

/* Keep the low @size bytes of @v, sign-extended when @is_signed. */
static u64 fast_fit(u64 v, unsigned int size, bool is_signed)
{
	unsigned int sh = 64 - 8 * size;

	if (size >= 8)
		return v;
	if (is_signed)
		return (u64)((s64)(v << sh) >> sh);
	return (v << sh) >> sh;
}

/* The test of @q: the range [@lo, @hi] (of values after the bias). */
static void fast_range(struct khist_ffast *q, u64 lo, u64 hi, bool invert)
{
	q->lo = lo;
	q->span = hi - lo;
	q->invert = invert;
}

/* A test that is always false. */
static void fast_never(struct khist_ffast *q)
{
	fast_range(q, 0, U64_MAX, true);
}

/*
 * One predicate in the direct form; false if it is not an integer field
 * against a constant. The answers are those of filter_eval.c's
 * eval_pred() on a record that holds the field.
 */
static bool fast_pred(const struct khist_fpred *p, struct khist_ffast *q)
{
	u64 bias, b;

	q->offset = p->offset;
	q->size = p->size;
	q->shift = 0;
	q->mask = U64_MAX;
	switch (p->kind) {
	case KHIST_FP_FALSE:
		/* reads nothing; one byte at 0 keeps the loop uniform */
		q->offset = 0;
		q->size = 1;
		fast_never(q);
		return true;
	case KHIST_FP_EQ:
	case KHIST_FP_CMP:
	case KHIST_FP_FUNC:
		break;
	default:
		return false;
	}
	if (p->size != 1 && p->size != 2 && p->size != 4 && p->size != 8)
		return false;
	if (p->kind == KHIST_FP_EQ) {
		b = fast_fit(p->val, p->size, false);
		fast_range(q, b, b, p->negate);
		return true;
	}
	if (p->kind == KHIST_FP_FUNC) {
		/* [val, val2), or nothing; != is the complement */
		if (p->val2 > p->val)
			fast_range(q, p->val, p->val2 - 1,
				   p->op == KHIST_FOP_NE);
		else
			fast_range(q, 0, U64_MAX, p->op != KHIST_FOP_NE);
		return true;
	}
	if (p->is_signed)
		q->shift = 64 - 8 * p->size;
	b = fast_fit(p->val, p->size, p->is_signed);
	bias = p->is_signed ? BIT_ULL(63) : 0;
	switch (p->op) {
	case KHIST_FOP_BAND:
		q->mask = b;
		fast_range(q, 0, 0, true);
		return true;
	case KHIST_FOP_LT:
		if ((b ^ bias) == 0)
			fast_never(q);
		else
			fast_range(q, 0, (b ^ bias) - 1, false);
		break;
	case KHIST_FOP_LE:
		fast_range(q, 0, b ^ bias, false);
		break;
	case KHIST_FOP_GT:
		if ((b ^ bias) == U64_MAX)
			fast_never(q);
		else
			fast_range(q, (b ^ bias) + 1, U64_MAX, false);
		break;
	case KHIST_FOP_GE:
		fast_range(q, b ^ bias, U64_MAX, false);
		break;
	default:
		/* eval_pred() has no answer but false for these */
		fast_never(q);
		return true;
	}
	/* (x ^ bias) - lo == x - (lo - bias): 2^63 added or taken is a flip */
	q->lo -= bias;
	return true;
}

/*
 * Build @f's direct form when every predicate has one (see struct
 * khist_ffast). Without memory the general evaluator serves alone.
 */
static void fast_build(struct khist_filter *f)
{
	struct khist_ffast *fast;
	u64 need = 0;
	unsigned int i;

	fast = kcalloc(f->nr_preds, sizeof(*fast), GFP_KERNEL);
	if (!fast)
		return;
	for (i = 0; i < f->nr_preds; i++) {
		const struct khist_fpred *p = &f->preds[i];
		struct khist_ffast *q = &fast[i];

		/* the direct form's loop relies on forward jumps */
		if (!fast_pred(p, q) || p->on_true <= i || p->on_false <= i ||
		    p->on_true > f->nr_preds + 1 ||
		    p->on_false > f->nr_preds + 1) {
			kfree(fast);
			return;
		}
		q->on_true = p->on_true;
		q->on_false = p->on_false;
		need = max_t(u64, need, (u64)q->offset + q->size);
	}
	if (need > UINT_MAX) {
		kfree(fast);
		return;
	}
	f->fast = fast;
	f->fast_need = need;
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
	struct khist_fparse p = {
		.s = text,
		.len = strnlen(text, len),
		.schema = schema,
		.opts = opts,
		.err = err,
	};
	unsigned int depth = 0, npreds = 0;
	struct khist_filter *f;
	int ret;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	p.nr_cpus = opts && opts->nr_cpus ? opts->nr_cpus : nr_cpu_ids;

	ret = prescan(&p, &depth, &npreds);
	if (!ret && !npreds)
		ret = -EINVAL; /* nothing but blanks and parentheses */
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
	f->no_ctx = !needs_ctx(f);
	f->reads = filter_reads(f);
	fast_build(f);
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
	kfree(f->fast);
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
 * when there is no specific message (n is -ENOMEM, or -ENOSPC when the
 * module's memory limit refused the filter, else 0). Reading the file then
 * shows this string followed by one more "\n" (khist_filter_show()).
 *
 * Context: any.
 * Return: bytes written, without the terminating NUL.
 */
int khist_filter_format_failed(const char *text, size_t len,
			       const struct khist_filter_error *err, char *buf,
			       size_t size)
{
	size_t n = strnlen(text, len);

	if (err->code > 0)
		return scnprintf(buf, size, "%.*s\n%*s\nparse_error: %s\n",
				 (int)n, text,
				 (int)min_t(size_t, err->pos, n) + 1, "^",
				 khist_filter_err_text(err->code));
	return scnprintf(buf, size, "%.*s\nError: (%d)\n", (int)n, text,
			 err->ret == -ENOMEM || err->ret == -ENOSPC ? err->ret :
								      0);
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
	while (len && khist_isspace(text[len - 1]))
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
	while (i < len && khist_isspace(text[i]))
		i++;
	return len - i == 1 && text[i] == '0';
}
