// SPDX-License-Identifier: GPL-2.0
/*
 * filter_kunit.c - tests of the event filter compiler and evaluator:
 * every operator on every field kind, the pseudo-fields, precedence and
 * negation (against a C reference), globs, CPUS{} masks, every error with
 * its caret and errno, what the `filter` file reads back, and bounds
 * checks on corrupt records.
 */
#include <kunit/test.h>
#include "filter_parse.h"
#include "errlog.h"

/* Record layout of the test event. */
#define O_S8 8
#define O_U8 9
#define O_S16 10
#define O_U16 12
#define O_S32 16
#define O_U32 20
#define O_S64 24
#define O_U64 32
#define O_NAME 40
#define O_DSTR 56
#define O_RSTR 60
#define O_PSTR 64
#define O_IP 72
#define O_ARR 80
#define O_MASK 96
#define O_TCPU 100
#define REC_FIXED 104
#define O_DDATA 104 /* "hello world\0", 12 bytes */
#define O_RDATA 116 /* "relative\0", 9 bytes */
#define O_MDATA 128 /* cpumask, one unsigned long */
#define REC_LEN (O_MDATA + 8)

static const struct khist_field_desc tfields[] = {
	{ "f_s8", "s8", O_S8, 1, 1, KHIST_FK_INT, 1 },
	{ "f_u8", "u8", O_U8, 1, 0, KHIST_FK_INT, 1 },
	{ "f_s16", "s16", O_S16, 2, 1, KHIST_FK_INT, 2 },
	{ "f_u16", "u16", O_U16, 2, 0, KHIST_FK_INT, 2 },
	{ "f_s32", "s32", O_S32, 4, 1, KHIST_FK_INT, 4 },
	{ "f_u32", "u32", O_U32, 4, 0, KHIST_FK_INT, 4 },
	{ "f_s64", "s64", O_S64, 8, 1, KHIST_FK_INT, 8 },
	{ "f_u64", "u64", O_U64, 8, 0, KHIST_FK_INT, 8 },
	{ "name", "char[16]", O_NAME, 16, 1, KHIST_FK_STRING, 1 },
	{ "dstr", "__data_loc char[]", O_DSTR, 4, 1, KHIST_FK_DYNSTRING, 1 },
	{ "rstr", "__rel_loc char[]", O_RSTR, 4, 1, KHIST_FK_RELSTRING, 1 },
	{ "pstr", "const char *", O_PSTR, 8, 0, KHIST_FK_PTRSTRING, 8 },
	{ "ip", "unsigned long", O_IP, 8, 0, KHIST_FK_INT, 8 },
	{ "arr", "int[4]", O_ARR, 16, 1, KHIST_FK_ARRAY, 4 },
	{ "mask", "__data_loc cpumask_t", O_MASK, 4, 0, KHIST_FK_CPUMASK, 1 },
	{ "target_cpu", "unsigned int", O_TCPU, 4, 0, KHIST_FK_INT, 4 },
};

static const struct khist_event_schema tschema = {
	.system = "test",
	.name = "ev",
	.id = 7,
	.fields = tfields,
	.nr_fields = ARRAY_SIZE(tfields),
	.rec_size = REC_FIXED,
};

/* An event with its own "cpu" field, which hides the generic one. */
static const struct khist_field_desc cpu_fields[] = {
	{ "cpu", "int", 8, 4, 1, KHIST_FK_INT, 4 },
};

static const struct khist_event_schema cpu_schema = {
	.system = "test",
	.name = "cpuev",
	.id = 8,
	.fields = cpu_fields,
	.nr_fields = 1,
	.rec_size = 12,
};

/* ftrace/print: "char buf[]" of size 0 runs to the NUL (or record end). */
static const struct khist_field_desc print_fields[] = {
	{ "ip", "unsigned long", 8, 8, 0, KHIST_FK_INT, 8 },
	{ "buf", "char[]", 16, 0, 1, KHIST_FK_STRING, 1 },
};

static const struct khist_event_schema print_schema = {
	.system = "ftrace",
	.name = "print",
	.id = 5,
	.fields = print_fields,
	.nr_fields = 2,
	.rec_size = 16,
};

static const char pointed[] = "pointed string";

struct fetch_log {
	int calls;
	bool user;
};

static long test_fetch(void *priv, char *dst, unsigned long src, size_t size,
		       bool user)
{
	struct fetch_log *log = priv;
	const char *s = (const char *)src;

	if (log) {
		log->calls++;
		log->user = user;
	}
	if (!s)
		return -EFAULT;
	memcpy(dst, s, min(strlen(s) + 1, size));
	return strnlen(dst, size);
}

/* my_func is [0x1000, 0x1100), other_func [0x2000, 0x2100). */
static int test_func_range(void *priv, const char *name, unsigned long addr,
			   unsigned long *start, unsigned long *end)
{
	if (name)
		addr = !strcmp(name, "my_func")	   ? 0x1000 :
		       !strcmp(name, "other_func") ? 0x2000 :
						     0;
	if (addr >= 0x1000 && addr < 0x1100)
		*start = 0x1000;
	else if (addr >= 0x2000 && addr < 0x2100)
		*start = 0x2000;
	else
		return -ENOENT;
	*end = *start + 0x100;
	return 0;
}

static const struct khist_filter_opts topts = {
	.nr_cpus = 64,
	.func_range = test_func_range,
};

static void put(u8 *rec, unsigned int off, const void *v, size_t n)
{
	memcpy(rec + off, v, n);
}

/* The reference record; returns a kmalloc'ed copy of exactly REC_LEN. */
static u8 *make_rec(void)
{
	u8 *rec = kzalloc(REC_LEN, GFP_KERNEL);
	struct khist_common_hdr h = {
		.type = 7,
		.flags = 5,
		.preempt_count = 2,
		.pid = 1234,
	};
	s8 s8v = -5;
	u8 u8v = 200;
	s16 s16v = -300;
	u16 u16v = 60000;
	s32 s32v = -70000;
	u32 u32v = 4000000000u, loc, tcpu = 17;
	s64 s64v = -5000000000LL;
	u64 u64v = 0xdeadbeefcafeULL, ip = 0x1020;
	s32 arr[4] = { 1, 2, 3, 4 };
	unsigned long m = (1UL << 1) | (1UL << 3);
	const char *ps = pointed;

	if (!rec)
		return NULL;
	put(rec, 0, &h, sizeof(h));
	put(rec, O_S8, &s8v, 1);
	put(rec, O_U8, &u8v, 1);
	put(rec, O_S16, &s16v, 2);
	put(rec, O_U16, &u16v, 2);
	put(rec, O_S32, &s32v, 4);
	put(rec, O_U32, &u32v, 4);
	put(rec, O_S64, &s64v, 8);
	put(rec, O_U64, &u64v, 8);
	put(rec, O_NAME, "kworker/0:1", 11);
	loc = 12 << 16 | O_DDATA;
	put(rec, O_DSTR, &loc, 4);
	put(rec, O_DDATA, "hello world", 12);
	loc = 9 << 16 | (O_RDATA - (O_RSTR + 4));
	put(rec, O_RSTR, &loc, 4);
	put(rec, O_RDATA, "relative", 9);
	put(rec, O_PSTR, &ps, 8);
	put(rec, O_IP, &ip, 8);
	put(rec, O_ARR, arr, sizeof(arr));
	loc = 8 << 16 | O_MDATA;
	put(rec, O_MASK, &loc, 4);
	put(rec, O_MDATA, &m, sizeof(m));
	put(rec, O_TCPU, &tcpu, 4);
	return rec;
}

static char comm_bash[KHIST_FILTER_COMM_LEN] = "bash";

/* Compile @text for @schema and run it on @rec; -1 if it did not compile. */
static int run(const struct khist_event_schema *schema, const char *text,
	       const u8 *rec, unsigned int rec_len,
	       const struct khist_filter_ctx *ctx)
{
	struct khist_filter_error err;
	struct khist_filter *f;
	int hit;

	if (khist_filter_compile(schema, text, strlen(text), &topts, &f, &err))
		return -1;
	hit = khist_filter_match(f, rec, rec_len, ctx);
	/* The direct form must agree wherever the probe would use it. */
	if (f->fast && rec_len >= f->fast_need &&
	    khist_filter_fast_match(f, rec) != hit)
		hit = 2;
	khist_filter_free(f);
	return hit;
}

/* run() on the test event. */
static int hit(const char *text, const u8 *rec, unsigned int rec_len,
	       const struct khist_filter_ctx *ctx)
{
	return run(&tschema, text, rec, rec_len, ctx);
}

struct match_case {
	const char *text;
	int want;
};

static const struct match_case match_cases[] = {
	/* signed and unsigned integers of every size */
	{ "f_s8 == -5", 1 },
	{ "f_s8 != -5", 0 },
	{ "f_s8 < 0", 1 },
	{ "f_s8 > -6", 1 },
	{ "f_s8 >= -5", 1 },
	{ "f_s8 <= -6", 0 },
	{ "f_s8 & 0x80", 1 },
	{ "f_u8 == 200", 1 },
	{ "f_u8 > 100", 1 },
	{ "f_u8 == 0xc8", 1 },
	{ "f_u8 == 0310", 1 },
	{ "f_u8 != 200", 0 },
	{ "f_u8 <= 199", 0 },
	{ "f_u8 < 300", 0 }, /* the literal is cut to u8: 300 -> 44 */
	{ "f_s16 == -300", 1 },
	{ "f_s16 < -299", 1 },
	{ "f_s16 > 0", 0 },
	{ "f_u16 >= 60000", 1 },
	{ "f_u16 & 0x8000", 1 },
	{ "f_u16 & 1", 0 },
	{ "f_s32 == -70000", 1 },
	{ "f_s32 < 0", 1 },
	{ "f_s32 >= -69999", 0 },
	{ "f_u32 > 3000000000", 1 },
	{ "f_u32 == 4000000000", 1 },
	{ "f_u32 < 0x10", 0 },
	{ "f_s64 == -5000000000", 1 },
	{ "f_s64 < -4999999999", 1 },
	{ "f_s64 > -9223372036854775808", 1 },
	{ "f_u64 == 0xdeadbeefcafe", 1 },
	{ "f_u64 == 0XDEADBEEFCAFE", 1 },
	{ "f_u64 & 0xf0", 1 },
	{ "f_u64 & 0x100000000000000", 0 },
	{ "f_u64 != 0xdeadbeefcafe", 0 },
	{ "f_u64>1", 1 },
	/* common fields */
	{ "common_pid == 1234", 1 },
	{ "common_pid != 1234", 0 },
	{ "common_pid > -1", 1 },
	{ "common_type == 7", 1 },
	{ "common_flags & 4", 1 },
	{ "common_flags & 2", 0 },
	{ "common_preempt_count == 2", 1 },
	/* the CPU pseudo-fields (ctx cpu 3); '&' on a CPU is never true */
	{ "cpu == 3", 1 },
	{ "CPU != 3", 0 },
	{ "common_cpu < 4", 1 },
	{ "cpu >= 4", 0 },
	{ "cpu > -1", 1 },
	{ "cpu & 1", 0 },
	/* comm (ctx comm "bash", 16 bytes); "*x" looks at byte 15 */
	{ "comm == \"bash\"", 1 },
	{ "COMM == 'bash'", 1 },
	{ "comm != 'bash'", 0 },
	{ "comm == 'bas'", 0 },
	{ "comm ~ 'ba*'", 1 },
	{ "comm ~ '*as*'", 1 },
	{ "comm ~ '*sh'", 0 },
	{ "comm ~ 'b?sh'", 1 },
	{ "comm ~ '[abc]ash'", 1 },
	{ "comm ~ '[!b]ash'", 0 },
	{ "comm ~ '!ba*'", 0 },
	{ "comm ~ '!zz*'", 1 },
	{ "comm == 'ba*'", 0 },
	/* char[16] "kworker/0:1" */
	{ "name == 'kworker/0:1'", 1 },
	{ "name == 'kworker'", 0 },
	{ "name != 'kworker'", 1 },
	{ "name ~ 'kwork*'", 1 },
	{ "name ~ '*ker/*'", 1 },
	{ "name ~ 'k*1'", 1 },
	{ "name ~ '*:1'", 0 },
	{ "name ~ 'kworker/[0-9]:?'", 1 },
	{ "name ~ '!kworker*'", 0 },
	{ "name ~ '*'", 1 },
	{ "name ~ 'kworker/0:1*'", 1 },
	{ "name ~ 'kworker/0:12*'", 0 },
	{ "name ~ 'kworker\\/0:1'", 1 },
	/* __data_loc "hello world" */
	{ "dstr == 'hello world'", 1 },
	{ "dstr == 'hello'", 0 },
	{ "dstr ~ '*world'", 1 },
	{ "dstr ~ '*worl'", 0 },
	{ "dstr ~ 'hell*'", 1 },
	{ "dstr ~ '*lo w*'", 1 },
	{ "dstr ~ 'h*d'", 1 },
	{ "dstr ~ 'h*x'", 0 },
	{ "dstr != 'x'", 1 },
	{ "dstr ~ '1*'", 0 }, /* a leading digit means a literal compare */
	{ "dstr ~ '**'", 1 },
	{ "dstr ~ ''", 0 },
	{ "dstr ~ '!'", 1 },
	{ "dstr ~ '?ello world'", 1 },
	{ "dstr ~ '*[w]orld'", 1 },
	/* __rel_loc "relative" */
	{ "rstr == 'relative'", 1 },
	{ "rstr ~ '*tive'", 1 },
	{ "rstr ~ 'rel*'", 1 },
	{ "rstr != 'relative'", 0 },
	/* char * */
	{ "pstr == 'pointed string'", 1 },
	{ "pstr ~ '*string'", 1 },
	{ "pstr ~ '*ted*'", 1 },
	{ "pstr != 'pointed string'", 0 },
	{ "pstr.ustring == 'pointed string'", 1 },
	/* .function on a long field (ip = 0x1020) */
	{ "ip.function == my_func", 1 },
	{ "ip.function != my_func", 0 },
	{ "ip.function == other_func", 0 },
	{ "ip.function != other_func", 1 },
	{ "ip.function == 0x1010", 1 },
	{ "ip.function == 0x2000", 0 },
	{ "ip == 0x1020", 1 },
	/* CPUS{} on a cpumask field {1,3} */
	{ "mask & CPUS{3}", 1 },
	{ "mask & CPUS{2}", 0 },
	{ "mask == CPUS{1,3}", 1 },
	{ "mask == CPUS{1-3}", 0 },
	{ "mask != CPUS{1,3}", 0 },
	{ "mask != CPUS{1-3}", 1 },
	{ "mask & CPUS{2,4-5}", 0 },
	{ "mask == CPUS{3}", 0 },
	{ "mask != CPUS{3}", 1 },
	{ "mask & CPUS{0-7:2/4}", 1 },
	{ "mask & CPUS{ 3 }", 1 },
	{ "mask & CPUS{all}", 1 },
	{ "mask & CPUS{N}", 0 },
	{ "mask == CPUS{0-7:1/2}", 0 },
	/* CPUS{} on a scalar field (17) and on the CPU (3) */
	{ "target_cpu & CPUS{17-42}", 1 },
	{ "target_cpu == CPUS{17}", 1 },
	{ "target_cpu & CPUS{17}", 1 },
	{ "target_cpu == CPUS{16-18}", 0 },
	{ "target_cpu != CPUS{16-18}", 1 },
	{ "target_cpu & CPUS{0-16}", 0 },
	{ "target_cpu != CPUS{17}", 0 },
	{ "cpu & CPUS{2-4}", 1 },
	{ "CPU & CPUS{0,1}", 0 },
	{ "cpu == CPUS{3}", 1 },
	{ "cpu & CPUS{3}", 1 },
	{ "cpu != CPUS{2-4}", 1 },
	{ "cpu == CPUS{2-4}", 0 },
	/* fields with nothing to compare: always false, even for != */
	{ "arr == 1", 0 },
	{ "arr != 1", 0 },
	{ "stacktrace == 0", 0 },
	{ "stacktrace != 0", 0 },
	/* combinations */
	{ "common_pid == 1234 && cpu == 3", 1 },
	{ "common_pid == 1 || cpu == 3", 1 },
	{ "common_pid == 1 && cpu == 3", 0 },
	{ "common_pid == 1 || cpu == 3 && f_u8 == 200", 1 },
	{ "(common_pid == 1 || cpu == 3) && f_u8 == 1", 0 },
	{ "common_pid == 1 || cpu == 3 && f_u8 == 1", 0 },
	{ "!common_pid == 1", 1 },
	{ "!(common_pid == 1234)", 0 },
	{ "!(common_pid == 1 || cpu == 4)", 1 },
	{ "!(common_pid == 1234 && cpu == 4)", 1 },
	{ "!!(cpu == 3)", 1 },
	{ "!(cpu == 3 && !(f_u8 == 1))", 0 },
	{ "((((cpu == 3))))", 1 },
	{ "  cpu==3&&comm=='bash'  ", 1 },
	{ "(cpu == 3)&&(comm == 'bash'||comm == 'sh')", 1 },
	{ "cpu == 3 && name ~ \"kw*\" && dstr ~ 'hello*'", 1 },
	{ "(comm == '(x)' || cpu == 3)", 1 },
};

static void filter_match_table(struct kunit *test)
{
	struct fetch_log log = {};
	struct khist_filter_ctx ctx = {
		.cpu = 3,
		.comm = comm_bash,
		.fetch_str = test_fetch,
		.priv = &log,
	};
	u8 *rec = make_rec();
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	ctx.strbuf = kmalloc(KHIST_FILTER_STRBUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx.strbuf);
	for (i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];
		int got = hit(c->text, rec, REC_LEN, &ctx);

		if (got != c->want)
			KUNIT_FAIL(test, "\"%s\": got %d, want %d", c->text,
				   got, c->want);
	}
	KUNIT_EXPECT_GT(test, log.calls, 0);
	kfree(ctx.strbuf);
	kfree(rec);
}

/*
 * A filter marked no_ctx gives every case's answer without a context (the
 * kernel then skips building one); the CPU, comm and char * cases are not
 * marked (without a context they would read CPU 0, "" and no string).
 */
static void filter_no_ctx(struct kunit *test)
{
	struct khist_filter_error err;
	unsigned int i, plain = 0, other = 0;
	struct khist_filter *f;
	u8 *rec = make_rec();

	KUNIT_ASSERT_NOT_NULL(test, rec);
	for (i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];

		if (khist_filter_compile(&tschema, c->text, strlen(c->text),
					 &topts, &f, &err))
			continue;
		if (f->no_ctx) {
			plain++;
			if (khist_filter_match(f, rec, REC_LEN, NULL) !=
			    c->want)
				KUNIT_FAIL(test, "\"%s\" without ctx: want %d",
					   c->text, c->want);
		} else {
			other++;
		}
		khist_filter_free(f);
	}
	KUNIT_EXPECT_GT(test, plain, 0);
	KUNIT_EXPECT_GT(test, other, 0);
	kfree(rec);
}

/*
 * What of the record a filter reads: a trigger whose filter reads only
 * common_pid runs on a record with nothing else filled in.
 */
static void filter_reads(struct kunit *test)
{
	static const struct {
		const char *text;
		unsigned int reads;
	} cases[] = {
		{ "common_pid == 1", 0 },
		{ "common_type != 7", 0 },
		{ "cpu == 3 || comm == 'bash'", 0 },
		{ "common_preempt_count == 0", KHIST_READS_PC },
		{ "common_flags & 1", KHIST_READS_FLAGS },
		{ "common_pid == 1 && common_preempt_count < 2",
		  KHIST_READS_PC },
		{ "f_u8 == 200", KHIST_READS_FIELDS },
		{ "common_pid == 1 || f_s64 > 0", KHIST_READS_FIELDS },
		{ "name == 'kworker'", KHIST_READS_FIELDS },
		{ "pstr ~ 'point*'", KHIST_READS_FIELDS },
		{ "dstr ~ 'hello*'", KHIST_READS_ALL },
		{ "f_u8 == 1 && common_flags & 2",
		  KHIST_READS_FIELDS | KHIST_READS_FLAGS },
		{ "common_flags & 1 || common_preempt_count > 1 || f_u8 == 1",
		  KHIST_READS_ALL },
	};
	struct khist_filter_error err;
	struct khist_filter *f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *t = cases[i].text;

		if (khist_filter_compile(&tschema, t, strlen(t), &topts, &f,
					 &err)) {
			KUNIT_FAIL(test, "\"%s\" does not compile", t);
			continue;
		}
		if (f->reads != cases[i].reads)
			KUNIT_FAIL(test, "\"%s\": reads %u, want %u", t,
				   f->reads, cases[i].reads);
		khist_filter_free(f);
	}
}

static void filter_ustring_flag(struct kunit *test)
{
	struct fetch_log log = {};
	struct khist_filter_ctx ctx = {
		.fetch_str = test_fetch,
		.priv = &log,
	};
	u8 *rec = make_rec();

	KUNIT_ASSERT_NOT_NULL(test, rec);
	ctx.strbuf = kmalloc(KHIST_FILTER_STRBUF, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test,
			hit("pstr.ustring ~ 'point*'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_TRUE(test, log.user);
	KUNIT_EXPECT_EQ(test, hit("pstr ~ 'point*'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_FALSE(test, log.user);

	/* A pointer that cannot be read matches nothing, not even != */
	memset(rec + O_PSTR, 0, 8);
	KUNIT_EXPECT_EQ(test, hit("pstr != 'x'", rec, REC_LEN, &ctx), 0);
	/* No scratch buffer or no callback: no match either. */
	put(rec, O_PSTR, &(const char *){ pointed }, 8);
	kfree(ctx.strbuf);
	ctx.strbuf = NULL;
	KUNIT_EXPECT_EQ(test, hit("pstr ~ '*'", rec, REC_LEN, &ctx), 0);
	kfree(rec);
}

static void filter_cpu_field_shadows_generic(struct kunit *test)
{
	struct khist_filter_ctx ctx = { .cpu = 3 };
	u8 rec[12] = {};
	s32 v = 42;

	memcpy(rec + 8, &v, 4);
	KUNIT_EXPECT_EQ(test, run(&cpu_schema, "cpu == 42", rec, 12, &ctx), 1);
	KUNIT_EXPECT_EQ(test, run(&cpu_schema, "CPU == 3", rec, 12, &ctx), 1);
	KUNIT_EXPECT_EQ(test,
			run(&cpu_schema, "common_cpu == 42", rec, 12, &ctx), 0);
	/* "cpu & 2" is a real bit test on the record's field */
	KUNIT_EXPECT_EQ(test, run(&cpu_schema, "cpu & 2", rec, 12, &ctx), 1);
}

/* Precedence and negation against C, over all 16 truth assignments. */
/* Templates: A..D stand for predicates; logic_ref() is the C meaning. */
static const char *const logic_tmpl[] = {
	"A && B || C && D",
	"A || B && C || D",
	"(A || B) && (C || D)",
	"!(A || B) && !(!C || D)",
	"A && !(!B || (C && D)) || D || C && !A",
	"!(A && (B || !(C && !D)))",
	"A && B && C && D",
	"A || B || C || D",
	"((A || B) && C) || (!D && A)",
	"!!A && !(B) || !(!(C || D))",
};

static bool logic_ref(unsigned int i, bool a, bool b, bool c, bool d)
{
	switch (i) {
	case 0:
		return (a && b) || (c && d);
	case 1:
		return a || (b && c) || d;
	case 2:
		return (a || b) && (c || d);
	case 3:
		return !(a || b) && !(!c || d);
	case 4:
		return (a && !(!b || (c && d))) || d || (c && !a);
	case 5:
		return !(a && (b || !(c && !d)));
	case 6:
		return a && b && c && d;
	case 7:
		return a || b || c || d;
	case 8:
		return ((a || b) && c) || (!d && a);
	default:
		return (a && !b) || c || d;
	}
}

static void filter_logic_reference(struct kunit *test)
{
	static const char *const pred[2][4] = {
		{ "f_u8 == 1", "f_s8 == 1", "cpu == 1", "common_pid == 1" },
		{ "f_u8 == 200", "f_s8 == -5", "cpu == 3",
		  "common_pid == 1234" },
	};
	struct khist_filter_ctx ctx = { .cpu = 3, .comm = comm_bash };
	u8 *rec = make_rec();
	char text[512];
	unsigned int i, m;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	for (i = 0; i < ARRAY_SIZE(logic_tmpl); i++) {
		for (m = 0; m < 16; m++) {
			bool v[4] = { m & 1, m & 2, m & 4, m & 8 };
			const char *t = logic_tmpl[i];
			size_t o = 0;
			int got;
			bool want;

			for (; *t && o < sizeof(text) - 32; t++) {
				unsigned int k = *t - 'A';

				if (k < 4)
					o += scnprintf(text + o,
						       sizeof(text) - o, "%s",
						       pred[v[k]][k]);
				else
					text[o++] = *t;
			}
			text[o] = '\0';
			want = logic_ref(i, v[0], v[1], v[2], v[3]);
			got = hit(text, rec, REC_LEN, &ctx);
			if (got != want)
				KUNIT_FAIL(test, "\"%s\": got %d, want %d",
					   text, got, want);
		}
	}
	kfree(rec);
}

/* The program only jumps forwards, and ends on match / no match. */
static void filter_program_shape(struct kunit *test)
{
	static const char text[] =
		"cpu == 1 && !(cpu == 2 || (cpu == 3 && cpu == 4)) || cpu == 5";
	struct khist_filter_error err;
	struct khist_filter *f;
	unsigned int i;

	KUNIT_ASSERT_EQ(test,
			khist_filter_compile(&tschema, text, sizeof(text) - 1,
					     &topts, &f, &err),
			0);
	KUNIT_EXPECT_EQ(test, f->nr_preds, 5);
	for (i = 0; i < f->nr_preds; i++) {
		KUNIT_EXPECT_GT(test, f->preds[i].on_true, i);
		KUNIT_EXPECT_GT(test, f->preds[i].on_false, i);
		KUNIT_EXPECT_LE(test, f->preds[i].on_true, f->nr_preds + 1);
		KUNIT_EXPECT_LE(test, f->preds[i].on_false, f->nr_preds + 1);
	}
	KUNIT_EXPECT_STREQ(test, f->text, text);
	khist_filter_free(f);
	KUNIT_EXPECT_TRUE(test, khist_filter_match(NULL, NULL, 0, NULL));

	/* No context: CPU 0, empty comm. */
	KUNIT_EXPECT_EQ(test, hit("cpu == 0 && comm == ''", NULL, 0, NULL), 1);
}

struct err_case {
	const char *text;
	int code;
	unsigned int pos;
	int ret;
};

static const struct err_case err_cases[] = {
	{ "foo == 1", KHIST_FERR_FIELD_NOT_FOUND, 4, -EINVAL },
	{ "  foo == 1", KHIST_FERR_FIELD_NOT_FOUND, 6, -EINVAL },
	{ "a==1", KHIST_FERR_FIELD_NOT_FOUND, 2, -EINVAL },
	{ "common_pid == 1 && foo == 2", KHIST_FERR_FIELD_NOT_FOUND, 23,
	  -EINVAL },
	{ "common_pid = 1", KHIST_FERR_INVALID_OP, 12, -EINVAL },
	{ "common_pid =~ 1", KHIST_FERR_INVALID_OP, 12, -EINVAL },
	{ "common_pid.foo == 1", KHIST_FERR_INVALID_OP, 11, -EINVAL },
	{ "common_pid == 'x'", KHIST_FERR_EXPECT_DIGIT, 15, -EINVAL },
	{ "arr == \"x\"", KHIST_FERR_EXPECT_DIGIT, 8, -EINVAL },
	{ "comm == 1", KHIST_FERR_EXPECT_STRING, 9, -EINVAL },
	{ "name == -1", KHIST_FERR_EXPECT_STRING, 9, -EINVAL },
	{ "comm < 'x'", KHIST_FERR_ILLEGAL_FIELD_OP, 8, -EINVAL },
	{ "dstr & 'x'", KHIST_FERR_ILLEGAL_FIELD_OP, 8, -EINVAL },
	{ "common_pid ~ 1", KHIST_FERR_ILLEGAL_FIELD_OP, 14, -EINVAL },
	{ "common_pid == abc", KHIST_FERR_INVALID_VALUE, 15, -EINVAL },
	{ "common_pid == +1", KHIST_FERR_INVALID_VALUE, 15, -EINVAL },
	{ "comm == bash", KHIST_FERR_INVALID_VALUE, 9, -EINVAL },
	{ "comm ~", KHIST_FERR_INVALID_VALUE, 7, -EINVAL },
	{ "common_pid == 12abc", KHIST_FERR_ILLEGAL_INTVAL, 15, -EINVAL },
	{ "common_type == -1", KHIST_FERR_ILLEGAL_INTVAL, 16, -EINVAL },
	{ "f_u8 == 08", KHIST_FERR_ILLEGAL_INTVAL, 9, -EINVAL },
	{ "f_u8 == 0x", KHIST_FERR_ILLEGAL_INTVAL, 9, -EINVAL },
	{ "f_s8 == -", KHIST_FERR_ILLEGAL_INTVAL, 9, -EINVAL },
	{ "f_s64 == 9223372036854775808", KHIST_FERR_ILLEGAL_INTVAL, 10,
	  -EINVAL },
	{ "f_u64 == 18446744073709551616", KHIST_FERR_ILLEGAL_INTVAL, 10,
	  -EINVAL },
	{ "common_pid == 123456789012345678901234", KHIST_FERR_OPERAND_TOO_LONG,
	  39, -EINVAL },
	/* a quoted operand of 256 characters, one too many */
	{ "comm == '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'",
	  KHIST_FERR_OPERAND_TOO_LONG, 266, -EINVAL },
	{ "comm == 'abc", KHIST_FERR_MISSING_QUOTE, 8, -ESRCH },
	{ "comm == \"a' && cpu == 1", KHIST_FERR_MISSING_QUOTE, 8, -ESRCH },
	{ "(common_pid == 1", KHIST_FERR_TOO_MANY_OPEN, 0, -ENOENT },
	{ "common_pid == 1 && (cpu == 1", KHIST_FERR_TOO_MANY_OPEN, 19,
	  -ENOENT },
	{ "((cpu == 1)", KHIST_FERR_TOO_MANY_OPEN, 0, -ENOENT },
	{ "cpu == 1 && ((cpu == 1)", KHIST_FERR_TOO_MANY_OPEN, 12, -ENOENT },
	{ "common_pid == 1)", KHIST_FERR_TOO_MANY_CLOSE, 15, -EPERM },
	{ "(cpu == 1)) || (cpu == 2)", KHIST_FERR_TOO_MANY_CLOSE, 10, -EPERM },
	{ "common_pid == 1 cpu == 1", KHIST_FERR_TOO_MANY_PREDS, 16, -EPERM },
	{ "common_pid == 1 & cpu == 1", KHIST_FERR_TOO_MANY_PREDS, 16, -EPERM },
	{ "cpu == 1.5", KHIST_FERR_TOO_MANY_PREDS, 8, -EPERM },
	{ "(cpu == 1) (cpu == 2)", KHIST_FERR_TOO_MANY_PREDS, 11, -EPERM },
	{ "common_pid == 1 &&", KHIST_FERR_INVALID_FILTER, 18, -EINVAL },
	{ "cpu == 1 || ", KHIST_FERR_INVALID_FILTER, 12, -EINVAL },
	{ "cpu == 1 && !", KHIST_FERR_INVALID_FILTER, 13, -EINVAL },
	{ "!", KHIST_FERR_NO_FILTER, 1, -EINVAL },
	{ "cpu.function == my_func", KHIST_FERR_ILLEGAL_FIELD_OP, 17, -EINVAL },
	{ "f_u32.function == my_func", KHIST_FERR_ILLEGAL_FIELD_OP, 19,
	  -EINVAL },
	{ "ip.function < my_func", KHIST_FERR_INVALID_OP, 15, -EINVAL },
	{ "ip.function == nosuch", KHIST_FERR_NO_FUNCTION, 22, -EINVAL },
	{ "ip.function == 0x10", KHIST_FERR_NO_FUNCTION, 20, -EINVAL },
	{ "ip.function == 0xzz", KHIST_FERR_INVALID_VALUE, 20, -EINVAL },
	{ "mask == CPUS{", KHIST_FERR_MISSING_BRACE_CLOSE, 14, -EINVAL },
	{ "mask == CPUS1}", KHIST_FERR_MISSING_BRACE_OPEN, 14, -EINVAL },
	{ "mask == CPUS", KHIST_FERR_MISSING_BRACE_OPEN, 14, -EINVAL },
	{ "mask == CPUS{}", KHIST_FERR_INVALID_CPULIST, 14, -EINVAL },
	{ "mask == CPUS{x}", KHIST_FERR_INVALID_CPULIST, 15, -EINVAL },
	{ "mask == CPUS{200}", KHIST_FERR_INVALID_CPULIST, 17, -EINVAL },
	{ "mask == CPUS{3-1}", KHIST_FERR_INVALID_CPULIST, 17, -EINVAL },
	{ "mask == CPUS{0-7:3/2}", KHIST_FERR_INVALID_CPULIST, 21, -EINVAL },
	{ "mask == CPUS{1 -3}", KHIST_FERR_INVALID_CPULIST, 18, -EINVAL },
	{ "mask < CPUS{1}", KHIST_FERR_ILLEGAL_FIELD_OP, 8, -EINVAL },
	{ "name == CPUS{1}", KHIST_FERR_ILLEGAL_FIELD_OP, 9, -EINVAL },
	{ "comm & CPUS{1}", KHIST_FERR_ILLEGAL_FIELD_OP, 8, -EINVAL },
	{ "stacktrace == CPUS{1}", KHIST_FERR_ILLEGAL_FIELD_OP, 15, -EINVAL },
	{ "common_pid == child_pid", KHIST_FERR_INVALID_VALUE, 15, -EINVAL },
};

static void filter_errors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(err_cases); i++) {
		const struct err_case *c = &err_cases[i];
		struct khist_filter_error err;
		struct khist_filter *f;
		int ret;

		ret = khist_filter_compile(&tschema, c->text, strlen(c->text),
					   &topts, &f, &err);
		if (ret != c->ret || err.ret != c->ret || err.code != c->code ||
		    err.pos != c->pos || f)
			KUNIT_FAIL(test, "\"%s\": got %d/%s/%u, want %d/%s/%u",
				   c->text, ret,
				   khist_filter_err_text(err.code), err.pos,
				   c->ret, khist_filter_err_text(c->code),
				   c->pos);
		khist_filter_free(f);
	}
}

/* Failures for which the kernel has no message: "Error", caret 0. */
static void filter_errors_without_text(struct kunit *test)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "", -EINVAL },    { "   ", -EINVAL },
		{ "()", -EINVAL },  { "(( ))", -EINVAL },
		{ "== 1", -EPERM }, { "cpu == 1 && == 1", -EPERM },
		{ "(!)", -EPERM },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct khist_filter_error err;
		struct khist_filter *f;
		int ret;

		ret = khist_filter_compile(&tschema, cases[i].text,
					   strlen(cases[i].text), &topts, &f,
					   &err);
		if (ret != cases[i].ret || err.code != KHIST_FERR_NONE || f)
			KUNIT_FAIL(test, "\"%s\": ret %d code %d",
				   cases[i].text, ret, err.code);
		KUNIT_EXPECT_STREQ(test, khist_filter_errlog_msg(&err),
				   "Error");
		KUNIT_EXPECT_EQ(test, khist_filter_errlog_pos(&err), 0);
	}
}

static void filter_error_texts(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test,
			   khist_filter_err_text(KHIST_FERR_TOO_MANY_CLOSE),
			   "Too few '('");
	KUNIT_EXPECT_STREQ(test,
			   khist_filter_err_text(KHIST_FERR_INVALID_VALUE),
			   "Invalid value (did you forget quotes)?");
	KUNIT_EXPECT_STREQ(test, khist_filter_err_text(KHIST_FERR_NO_FILTER),
			   "No filter found");
	KUNIT_EXPECT_STREQ(test, khist_filter_err_text(KHIST_FERR_MAX),
			   "Error");
	KUNIT_EXPECT_STREQ(test, khist_filter_err_text(-3), "Error");
}

static void filter_readback(struct kunit *test)
{
	static const char text[] = "foo == 1";
	struct khist_filter_error err;
	struct khist_filter *f;
	char stored[256], buf[300];
	int ret;

	KUNIT_ASSERT_EQ(test,
			khist_filter_compile(&tschema, "common_pid == 1", 15,
					     &topts, &f, &err),
			0);
	khist_filter_show(f->text, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "common_pid == 1\n");
	khist_filter_free(f);
	khist_filter_show(NULL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "none\n");

	ret = khist_filter_compile(&tschema, text, 8, &topts, &f, &err);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	khist_filter_format_failed(text, 8, &err, stored, sizeof(stored));
	KUNIT_EXPECT_STREQ(test, stored,
			   "foo == 1\n    ^\nparse_error: Field not found\n");
	khist_filter_show(stored, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "foo == 1\n    ^\nparse_error: Field not found\n\n");

	/* Caret past the end is clamped to the length in the file. */
	khist_filter_compile(&tschema, "comm ~", 6, &topts, &f, &err);
	khist_filter_format_failed("comm ~", 6, &err, stored, sizeof(stored));
	snprintf(buf, sizeof(buf), "comm ~\n%7s\nparse_error: %s\n", "^",
		 "Invalid value (did you forget quotes)?");
	KUNIT_EXPECT_STREQ(test, stored, buf);

	/* Position 0: the caret is in the first column. */
	khist_filter_compile(&tschema, "(cpu == 1", 9, &topts, &f, &err);
	khist_filter_format_failed("(cpu == 1", 9, &err, stored,
				   sizeof(stored));
	KUNIT_EXPECT_STREQ(test, stored,
			   "(cpu == 1\n^\nparse_error: Too many '('\n");

	khist_filter_compile(&tschema, "== 1", 4, &topts, &f, &err);
	khist_filter_format_failed("== 1", 4, &err, stored, sizeof(stored));
	KUNIT_EXPECT_STREQ(test, stored, "== 1\nError: (0)\n");

	/* A filter the memory limit refused shows the write's errno. */
	err = (struct khist_filter_error){ .ret = -ENOSPC };
	khist_filter_format_failed("cpu == 1", 8, &err, stored, sizeof(stored));
	KUNIT_EXPECT_STREQ(test, stored, "cpu == 1\nError: (-28)\n");
}

static void filter_errlog_entry(struct kunit *test)
{
	static const char text[] = "common_pid == 1 && foo == 2";
	struct khist_filter_error err;
	struct khist_filter *f;
	struct khist_errlog log;
	char buf[256], want[256];
	size_t n;

	khist_filter_compile(&tschema, text, strlen(text), &topts, &f, &err);
	khist_errlog_init(&log);
	KUNIT_ASSERT_EQ(test,
			khist_errlog_add(&log, 5000000, KHIST_FILTER_ERRLOG_LOC,
					 khist_filter_errlog_msg(&err), text,
					 khist_filter_errlog_pos(&err)),
			0);
	khist_errlog_format(khist_errlog_get(&log, 0), buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, khist_filter_errlog_pos(&err), 23);
	/* The caret line: 11 + 23 spaces, then '^'. */
	scnprintf(want, sizeof(want), "[    0.005000] %s: error: %s\n",
		  "event filter parse error", "Field not found");
	n = strlen(want);
	scnprintf(want + n, sizeof(want) - n, "  Command: %s\n%*s\n", text,
		  11 + 23 + 1, "^");
	KUNIT_EXPECT_STREQ(test, buf, want);
	khist_errlog_clear(&log);
}

static void filter_trim_and_clear(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, khist_filter_trim("cpu == 1\t\n", 10), 8);
	KUNIT_EXPECT_EQ(test, khist_filter_trim(" cpu == 1", 9), 9);
	KUNIT_EXPECT_EQ(test, khist_filter_trim("\n\t ", 3), 0);
	KUNIT_EXPECT_TRUE(test, khist_filter_is_clear("0\n", 2));
	KUNIT_EXPECT_TRUE(test, khist_filter_is_clear("  0 ", 4));
	KUNIT_EXPECT_FALSE(test, khist_filter_is_clear("00", 2));
	KUNIT_EXPECT_FALSE(test, khist_filter_is_clear("", 0));
	KUNIT_EXPECT_FALSE(test, khist_filter_is_clear("cpu == 0", 8));
}

/* The text is read through (pointer, length) only and never written. */
static void filter_input_untouched(struct kunit *test)
{
	static const char ro[] = "comm ~ 'ba*' && cpu == 3";
	struct khist_filter_ctx ctx = { .cpu = 3, .comm = comm_bash };
	struct khist_filter_error err;
	struct khist_filter *f;
	char *exact;
	int ret;

	/* No NUL within len: an exact-size heap copy lets ASan check. */
	exact = kmalloc(15, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, exact);
	memcpy(exact, "common_pid == 1", 15);
	ret = khist_filter_compile(&tschema, exact, 15, &topts, &f, &err);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_STREQ(test, f->text, "common_pid == 1");
	khist_filter_free(f);
	KUNIT_EXPECT_EQ(test,
			khist_filter_compile(&tschema, exact, 14, &topts, &f,
					     &err),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err.code, KHIST_FERR_INVALID_VALUE);
	kfree(exact);

	/*
	 * Read-only storage: any write would fault. Pseudo-fields only, so
	 * an empty record is enough.
	 */
	KUNIT_ASSERT_EQ(test,
			khist_filter_compile(&tschema, ro, sizeof(ro) - 1,
					     &topts, &f, &err),
			0);
	KUNIT_EXPECT_TRUE(test, khist_filter_match(f, NULL, 0, &ctx));
	khist_filter_free(f);

	/* A NUL inside the length ends the text, as in the kernel. */
	KUNIT_ASSERT_EQ(test,
			khist_filter_compile(&tschema, "cpu == 3\0junk", 13,
					     &topts, &f, &err),
			0);
	KUNIT_EXPECT_EQ(test, f->text_len, 8);
	khist_filter_free(f);
}

static void filter_glob_direct(struct kunit *test)
{
	static const struct {
		const char *pat, *str;
		size_t len;
		bool want;
	} g[] = {
		{ "a*b", "axxb", 4, true },
		{ "*", "", 0, true },
		{ "", "", 5, true },
		{ "", "a", 1, false },
		{ "[]]", "]", 1, true },
		{ "[!a]", "b", 1, true },
		{ "[!a]", "a", 1, false },
		{ "\\*", "*", 1, true },
		{ "\\*", "a", 1, false },
		{ "[a-", "[a-", 3, true },
		{ "a?c", "abc", 3, true },
		{ "a?c", "ac", 2, false },
		{ "*aaaaa", "aaaaaaaaaa", 10, true },
		{ "abc", "abcdef", 3, true },
		{ "abc", "abcdef", 6, false },
		{ "*c", "abcdef", 3, true },
		{ "[a-c]*[x-z]", "bqqy", 4, true },
		{ "a\\", "a", 1, true },
		{ "*?", "", 0, false },
		{ "[a]", "", 0, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(g); i++)
		if (khist_filter_glob(g[i].pat, g[i].str, g[i].len) !=
		    g[i].want)
			KUNIT_FAIL(test, "glob(\"%s\", \"%s\", %zu) != %d",
				   g[i].pat, g[i].str, g[i].len, g[i].want);
}

/* Corrupt locators and short records never read outside the record. */
static void filter_bounds(struct kunit *test)
{
	static const char *const dyn_filters[] = {
		"dstr == 'x'",	     "dstr != 'x'",  "dstr ~ '*x'",
		"dstr ~ 'x*'",	     "dstr ~ '*x*'", "dstr ~ 'h?llo*'",
		"rstr != 'x'",	     "rstr ~ '*e*'", "mask & CPUS{1}",
		"mask == CPUS{1,3}",
	};
	struct khist_filter_ctx ctx = { .cpu = 0 };
	u8 *rec = make_rec();
	unsigned int i, k;
	u32 loc;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	/* Offsets and lengths that point past the end of the record. */
	for (k = 0; k < 4; k++) {
		static const u32 bad[] = {
			12 << 16 | 250,
			50 << 16 | 120,
			0xffffffff,
			1 << 16 | REC_LEN,
		};

		loc = bad[k];
		put(rec, O_DSTR, &loc, 4);
		put(rec, O_RSTR, &loc, 4);
		put(rec, O_MASK, &loc, 4);
		for (i = 0; i < ARRAY_SIZE(dyn_filters); i++)
			KUNIT_EXPECT_EQ(test,
					hit(dyn_filters[i], rec, REC_LEN, &ctx),
					0);
	}

	/* Length 0: the string runs to a NUL, or to the end of the record. */
	kfree(rec);
	rec = make_rec();
	memset(rec + O_DDATA, 'z', REC_LEN - O_DDATA);
	loc = 0 << 16 | O_DDATA;
	put(rec, O_DSTR, &loc, 4);
	KUNIT_EXPECT_EQ(test, hit("dstr ~ 'zz*'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_EQ(test, hit("dstr ~ '*zz*'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_EQ(test, hit("dstr == 'zz'", rec, REC_LEN, &ctx), 0);
	KUNIT_EXPECT_EQ(test, hit("dstr ~ '*zz'", rec, REC_LEN, &ctx), 0);
	/* A __data_loc length without NUL inside it. */
	loc = 3 << 16 | (REC_LEN - 3);
	put(rec, O_DSTR, &loc, 4);
	KUNIT_EXPECT_EQ(test, hit("dstr == 'zzz'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_EQ(test, hit("dstr ~ 'z*z'", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_EQ(test, hit("dstr ~ '*zz'", rec, REC_LEN, &ctx), 1);
	/* A cpumask shorter than a word reads as zero-extended. */
	loc = 1 << 16 | (REC_LEN - 1);
	put(rec, O_MASK, &loc, 4);
	rec[REC_LEN - 1] = 0x0a; /* CPUs 1 and 3 */
	KUNIT_EXPECT_EQ(test, hit("mask == CPUS{1,3}", rec, REC_LEN, &ctx), 1);
	KUNIT_EXPECT_EQ(test, hit("mask & CPUS{3}", rec, REC_LEN, &ctx), 1);

	/* A record too short for the field: false, even for != */
	KUNIT_EXPECT_EQ(test, hit("f_u64 != 1", rec, O_U64 + 7, &ctx), 0);
	KUNIT_EXPECT_EQ(test, hit("name != 'x'", rec, O_NAME + 15, &ctx), 0);
	KUNIT_EXPECT_EQ(test, hit("common_pid != 1", rec, 7, &ctx), 0);
	kfree(rec);
}

/* Allocation failures at every step: clean -ENOMEM, nothing leaked. */
static void filter_alloc_failures(struct kunit *test)
{
	static const char text[] =
		"comm ~ 'a*' && mask & CPUS{1-3} || ip.function == my_func";
	struct khist_filter_error err;
	struct khist_filter *f;
	long n;
	int ret;

	for (n = 0; n < 20; n++) {
		kshim_fail_after(n);
		ret = khist_filter_compile(&tschema, text, sizeof(text) - 1,
					   &topts, &f, &err);
		kshim_fail_after(-1);
		if (!ret) {
			khist_filter_free(f);
			break;
		}
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_NULL(test, f);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
}

static void filter_flexible_char_array(struct kunit *test)
{
	/* @rec_len: the record ends there, inside or after the text */
	static const struct {
		const char *rec_text, *filter;
		unsigned int rec_len;
		int want;
	} cases[] = {
		{ "start", "buf == \"start\"", 22, 1 },
		{ "start", "buf == \"star\"", 22, 0 },
		{ "start", "buf ~ \"st*\"", 22, 1 },
		{ "start", "buf ~ \"s?a[q-s]t\"", 22, 1 },
		{ "start", "buf ~ \"*tar*\"", 22, 1 },
		/* No NUL before the record end: the end bounds it. */
		{ "startXYZ", "buf == \"start\"", 21, 1 },
		{ "startXYZ", "buf == \"start\"", 22, 0 },
		{ "startXYZ", "buf ~ \"start\"", 21, 1 },
	};
	struct khist_filter_ctx ctx = {};
	unsigned int i;
	u8 rec[32];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(rec, 0, sizeof(rec));
		memcpy(rec + 16, cases[i].rec_text, strlen(cases[i].rec_text));
		if (run(&print_schema, cases[i].filter, rec, cases[i].rec_len,
			&ctx) != cases[i].want)
			KUNIT_FAIL(test, "%s on \"%s\" (%u bytes): want %d",
				   cases[i].filter, cases[i].rec_text,
				   cases[i].rec_len, cases[i].want);
	}
}

/* xorshift64: a repeatable sequence for the differential test. */
static u64 fast_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Values at the edges of every integer size, signed and unsigned. */
static const s64 fast_edges[] = {
	0,
	1,
	-1,
	2,
	-2,
	5,
	-5,
	126,
	127,
	128,
	129,
	255,
	256,
	-127,
	-128,
	-129,
	32767,
	32768,
	65535,
	65536,
	-32768,
	-32769,
	INT_MAX,
	INT_MIN,
	0xffffffffLL,
	0x100000000LL,
	LLONG_MAX,
	LLONG_MIN,
};

static s64 fast_value(u64 *state)
{
	u64 r = fast_rand(state);

	if (r % 4)
		return fast_edges[(r >> 8) % ARRAY_SIZE(fast_edges)];
	return (s64)fast_rand(state);
}

/* Append one "<field> <op> <constant>" to @buf. */
static size_t fast_pred_text(char *buf, size_t at, size_t size, u64 *state)
{
	static const char *const fields[] = {
		"f_s8",	 "f_u8",  "f_s16", "f_u16",	 "f_s32",
		"f_u32", "f_s64", "f_u64", "target_cpu", "ip",
	};
	static const char *const ops[] = {
		"==", "!=", "<", "<=", ">", ">=", "&"
	};
	u64 r = fast_rand(state);
	const char *field = fields[r % ARRAY_SIZE(fields)];
	s64 v = fast_value(state);

	/* an unsigned field takes no minus sign */
	if (field[2] == 's')
		return at + scnprintf(buf + at, size - at, "%s %s %lld", field,
				      ops[(r >> 8) % ARRAY_SIZE(ops)],
				      (long long)v);
	return at + scnprintf(buf + at, size - at, "%s %s %llu", field,
			      ops[(r >> 8) % ARRAY_SIZE(ops)],
			      (unsigned long long)v);
}

/*
 * Differential test of the direct form: random chains of one to four
 * integer compares (every field size and signedness, every operator,
 * constants and record values at the edges of each size) joined by &&,
 * || and !, on random records. Every filter must get a direct form, and
 * it must give the general evaluator's answer on every record.
 */
static void filter_fast_differential(struct kunit *test)
{
	static const char *const joins[] = { " && ", " || ", " && !", " || !" };
	unsigned int i, k, n, fast = 0, diff = 0, hits = 0;
	u64 state = 0x9e3779b97f4a7c15ULL;
	struct khist_filter_error err;
	struct khist_filter *f;
	u8 *rec = make_rec();
	char text[256];
	size_t at;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	for (i = 0; i < 4000; i++) {
		n = 1 + fast_rand(&state) % 4;
		at = 0;
		if (fast_rand(&state) % 3 == 0)
			at = scnprintf(text, sizeof(text), "!(");
		at = fast_pred_text(text, at, sizeof(text), &state);
		for (k = 1; k < n; k++) {
			at += scnprintf(text + at, sizeof(text) - at, "%s",
					joins[fast_rand(&state) % 4]);
			at = fast_pred_text(text, at, sizeof(text), &state);
		}
		if (text[0] == '!')
			scnprintf(text + at, sizeof(text) - at, ")");
		if (khist_filter_compile(&tschema, text, strlen(text), &topts,
					 &f, &err)) {
			KUNIT_FAIL(test, "\"%s\" did not compile", text);
			continue;
		}
		if (!f->fast) {
			KUNIT_FAIL(test, "\"%s\": no direct form", text);
			khist_filter_free(f);
			continue;
		}
		fast++;
		for (k = 0; k < 16; k++) {
			s64 v = fast_value(&state);
			bool want, got;

			/* one value at every integer offset, or noise */
			if (k % 2) {
				put(rec, O_S8, &v, 1);
				put(rec, O_U8, &v, 1);
				put(rec, O_S16, &v, 2);
				put(rec, O_U16, &v, 2);
				put(rec, O_S32, &v, 4);
				put(rec, O_U32, &v, 4);
				put(rec, O_S64, &v, 8);
				put(rec, O_U64, &v, 8);
				put(rec, O_IP, &v, 8);
				put(rec, O_TCPU, &v, 4);
			} else {
				unsigned int b;

				for (b = 8; b < REC_FIXED; b++)
					if (b < O_NAME || b >= O_ARR)
						rec[b] = fast_rand(&state);
			}
			want = khist_filter_match(f, rec, REC_LEN, NULL);
			got = khist_filter_fast_match(f, rec);
			hits += want;
			if (got != want && diff++ < 10)
				KUNIT_FAIL(test,
					   "\"%s\": direct %d, general %d",
					   text, got, want);
		}
		khist_filter_free(f);
	}
	KUNIT_EXPECT_EQ(test, diff, 0);
	KUNIT_EXPECT_EQ(test, fast, 4000);
	/* both answers must have come up many times */
	KUNIT_EXPECT_GT(test, hits, 4000 * 16 / 8);
	KUNIT_EXPECT_LT(test, hits, 4000 * 16 * 7 / 8);
	kfree(rec);
}

/* Which filters get a direct form, and what it needs of the record. */
static void filter_fast_shape(struct kunit *test)
{
	static const struct {
		const char *text;
		bool fast;
		unsigned int need;
	} cases[] = {
		{ "f_u8 == 1", true, O_U8 + 1 },
		{ "f_s32 < 0 && f_u64 != 3", true, O_U64 + 8 },
		{ "(f_s8 > 1 || ip & 4) && target_cpu >= 2", true, O_TCPU + 4 },
		{ "name == 'x'", false, 0 },
		{ "f_u8 == 1 && name ~ 'k*'", false, 0 },
		{ "cpu == 1", false, 0 },
		{ "comm == 'bash'", false, 0 },
		{ "target_cpu & CPUS{1,2}", false, 0 },
		{ "mask & CPUS{1}", false, 0 },
	};
	struct khist_filter_error err;
	struct khist_filter *f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (khist_filter_compile(&tschema, cases[i].text,
					 strlen(cases[i].text), &topts, &f,
					 &err)) {
			KUNIT_FAIL(test, "\"%s\" did not compile",
				   cases[i].text);
			continue;
		}
		if (!!f->fast != cases[i].fast)
			KUNIT_FAIL(test, "\"%s\": direct form %d, want %d",
				   cases[i].text, !!f->fast, cases[i].fast);
		else if (f->fast && f->fast_need != cases[i].need)
			KUNIT_FAIL(test, "\"%s\": needs %u bytes, want %u",
				   cases[i].text, f->fast_need, cases[i].need);
		khist_filter_free(f);
	}
}

static struct kunit_case filter_cases[] = {
	KUNIT_CASE(filter_fast_differential),
	KUNIT_CASE(filter_fast_shape),
	KUNIT_CASE(filter_flexible_char_array),
	KUNIT_CASE(filter_match_table),
	KUNIT_CASE(filter_no_ctx),
	KUNIT_CASE(filter_reads),
	KUNIT_CASE(filter_ustring_flag),
	KUNIT_CASE(filter_cpu_field_shadows_generic),
	KUNIT_CASE(filter_logic_reference),
	KUNIT_CASE(filter_program_shape),
	KUNIT_CASE(filter_errors),
	KUNIT_CASE(filter_errors_without_text),
	KUNIT_CASE(filter_error_texts),
	KUNIT_CASE(filter_readback),
	KUNIT_CASE(filter_errlog_entry),
	KUNIT_CASE(filter_trim_and_clear),
	KUNIT_CASE(filter_input_untouched),
	KUNIT_CASE(filter_glob_direct),
	KUNIT_CASE(filter_bounds),
	KUNIT_CASE(filter_alloc_failures),
	{}
};

static struct kunit_suite filter_suite = {
	.name = "khist_filter",
	.test_cases = filter_cases,
};

kunit_test_suite(filter_suite);
