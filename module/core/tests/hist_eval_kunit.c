// SPDX-License-Identifier: GPL-2.0
/*
 * hist_eval_kunit.c - per-record evaluation and key building (hist_eval.c)
 * and the entry order of `hist` (hist_sort.c), on hand-made records.
 */
#include <kunit/test.h>
#include "hist_bind.h"
#include "hist_eval.h"
#include "hist_sort.h"

#define F(n, t, o, s, sg, k, e)      \
	{                            \
		n, t, o, s, sg, k, e \
	}

/* A record: header, then the fields below at their offsets. */
static const struct khist_field_desc rec_f[] = {
	F("s8v", "s8", 8, 1, 1, KHIST_FK_INT, 1),
	F("u8v", "u8", 9, 1, 0, KHIST_FK_INT, 1),
	F("s16v", "s16", 10, 2, 1, KHIST_FK_INT, 2),
	F("s32v", "s32", 12, 4, 1, KHIST_FK_INT, 4),
	F("u32v", "u32", 16, 4, 0, KHIST_FK_INT, 4),
	F("u64v", "u64", 24, 8, 0, KHIST_FK_INT, 8),
	F("name", "char[12]", 32, 12, 0, KHIST_FK_STRING, 1),
	F("dyn", "__data_loc char[]", 44, 4, 0, KHIST_FK_DYNSTRING, 1),
	F("rel", "__rel_loc char[]", 48, 4, 0, KHIST_FK_RELSTRING, 1),
	F("stk", "unsigned long[]", 52, 4, 0, KHIST_FK_STACKTRACE, 8),
};

static const struct khist_event_schema rec_sc = {
	"test", "rec", 7, rec_f, ARRAY_SIZE(rec_f), 56
};

struct rec {
	u8 hdr[8];
	s8 s8v;
	u8 u8v;
	s16 s16v;
	s32 s32v;
	u32 u32v;
	u32 pad;
	u64 u64v;
	char name[12];
	u32 dyn;
	u32 rel;
	u32 stk;
	char data[200];
};

static void fill(struct rec *r)
{
	unsigned long stack[3] = { 2, 0x1234, 0x5678 };
	static const char d[] = "dynamic-text";
	static const char rl[] = "relative";

	memset(r, 0, sizeof(*r));
	r->s8v = -3;
	r->u8v = 250;
	r->s16v = -300;
	r->s32v = -70000;
	r->u32v = 4000000000u;
	r->u64v = 1000;
	memcpy(r->name, "abcdefghijk", 12);
	/* data[] starts at offset 56 */
	memcpy(r->data, d, sizeof(d));
	r->dyn = (u32)(sizeof(d) << 16) | 56;
	memcpy(r->data + 20, rl, sizeof(rl));
	/* relative to the end of the rel word (offset 52) */
	r->rel = (u32)(sizeof(rl) << 16) | (56 + 20 - 52);
	memcpy(r->data + 40, stack, sizeof(stack));
	r->stk = (u32)(sizeof(stack) << 16) | (56 + 40);
}

static struct khist_hist_spec *compile(struct kunit *test, const char *cmd)
{
	struct khist_hist_spec *sp = NULL;
	int ret;

	ret = khist_hist_compile(cmd, strlen(cmd), &rec_sc, NULL, &sp, NULL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return sp;
}

static u64 eval_val(struct kunit *test, const char *cmd, struct rec *r)
{
	struct khist_eval_ctx c = { .rec = r, .size = sizeof(*r), .ts = 5 };
	struct khist_hist_spec *sp = compile(test, cmd);
	u64 v = khist_hist_eval(sp->vals[1], &c);

	khist_hist_spec_free(sp);
	return v;
}

static void hist_eval_widening(struct kunit *test)
{
	struct rec r;
	u64 v;

	fill(&r);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=s8v", &r),
			(u64)-3);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=u8v", &r),
			250);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=s16v", &r),
			(u64)-300);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=s32v", &r),
			(u64)-70000);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=u32v", &r),
			4000000000ULL);
	/* u64 arithmetic wraps; the result takes the left operand's sign */
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=s8v-u8v", &r),
			(u64)-253);
	KUNIT_EXPECT_EQ(test,
			eval_val(test, "hist:keys=u8v:vals=u64v*u32v", &r),
			4000000000000ULL);
	v = eval_val(test, "hist:keys=u8v:vals=common_timestamp", &r);
	KUNIT_EXPECT_EQ(test, v, 5);
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=-(u64v)", &r),
			(u64)-1000);
}

static void hist_eval_division(struct kunit *test)
{
	struct rec r;

	fill(&r);
	/* exact: the kernel's multiply-and-shift would give 334 */
	KUNIT_EXPECT_EQ(test, eval_val(test, "hist:keys=u8v:vals=u64v/3", &r),
			333);
	r.pad = 0;
	r.u32v = 0;
	KUNIT_EXPECT_EQ(test,
			eval_val(test, "hist:keys=u8v:vals=u64v/u32v", &r),
			U64_MAX);
}

static void hist_eval_modifiers(struct kunit *test)
{
	static const struct {
		u64 in, log2;
	} l2[] = { { 0, 0 },	 { 1, 0 },     { 2, 1 },
		   { 3, 2 },	 { 4, 2 },     { 5, 3 },
		   { 1024, 10 }, { 1025, 11 }, { U64_MAX, 64 } };
	struct khist_eval_ctx c;
	struct khist_hist_spec *sp;
	unsigned int i;
	struct rec r;
	u8 key[8];

	for (i = 0; i < ARRAY_SIZE(l2); i++)
		KUNIT_EXPECT_EQ(test, khist_hist_order_base_2(l2[i].in),
				l2[i].log2);
	fill(&r);
	c = (struct khist_eval_ctx){ .rec = &r, .size = sizeof(r) };
	sp = compile(test, "hist:keys=u64v.buckets=300");
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_EQ(test, *(u64 *)key, 900);
	khist_hist_spec_free(sp);
	sp = compile(test, "hist:keys=u64v.log2");
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_EQ(test, *(u64 *)key, 10);
	khist_hist_spec_free(sp);
	KUNIT_EXPECT_EQ(test, khist_ns_to_us(1499), 1);
	KUNIT_EXPECT_EQ(test, khist_ns_to_us(1500), 2);
}

static void hist_eval_key_layout(struct kunit *test)
{
	struct khist_eval_ctx c;
	struct khist_hist_spec *sp;
	u8 key[600];
	struct rec r;

	fill(&r);
	c = (struct khist_eval_ctx){ .rec = &r, .size = sizeof(r) };
	sp = compile(test, "hist:keys=s32v,name,dyn,rel");
	KUNIT_ASSERT_EQ(test, sp->key_size, 8 + 16 + 256 + 256);
	memset(key, 0xaa, sizeof(key));
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_EQ(test, *(u64 *)key, (u64)-70000);
	/* char[12] in a 16-byte slot: all 11 characters, NUL-padded */
	KUNIT_EXPECT_STREQ(test, (char *)key + 8, "abcdefghijk");
	KUNIT_EXPECT_EQ(test, key[8 + 15], 0);
	KUNIT_EXPECT_STREQ(test, (char *)key + 24, "dynamic-text");
	KUNIT_EXPECT_EQ(test, key[24 + 255], 0);
	KUNIT_EXPECT_STREQ(test, (char *)key + 280, "relative");
	KUNIT_EXPECT_EQ(test, key[280 + 200], 0);

	/* a __data_loc pointing outside the record reads as empty */
	r.dyn = (u32)(100 << 16) | 250;
	r.rel = 0xffffffff;
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_STREQ(test, (char *)key + 24, "");
	KUNIT_EXPECT_STREQ(test, (char *)key + 280, "");
	/* a record shorter than a field: nothing is read past its end */
	fill(&r);
	c.size = 14;
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_EQ(test, *(u64 *)key, 0);
	KUNIT_EXPECT_STREQ(test, (char *)key + 8, "");
	khist_hist_spec_free(sp);
}

static void hist_eval_stack(struct kunit *test)
{
	unsigned long cap[KHIST_STACK_DEPTH] = { 0xa, 0xb, 0xc };
	unsigned long out[KHIST_STACK_DEPTH];
	struct khist_eval_ctx c;
	struct khist_hist_spec *sp;
	u8 key[KHIST_STACK_SIZE];
	struct rec r;

	fill(&r);
	c = (struct khist_eval_ctx){ .rec = &r,
				     .size = sizeof(r),
				     .stack = cap };
	sp = compile(test, "hist:keys=common_stacktrace");
	KUNIT_EXPECT_TRUE(test, khist_hist_spec_has_stack(sp));
	khist_hist_key_build(sp, &c, key);
	KUNIT_EXPECT_EQ(test, ((unsigned long *)key)[2], 0xc);
	KUNIT_EXPECT_EQ(test, ((unsigned long *)key)[3], 0);
	khist_hist_spec_free(sp);
	sp = compile(test, "hist:keys=stk.stacktrace");
	KUNIT_EXPECT_FALSE(test, khist_hist_spec_has_stack(sp));
	KUNIT_EXPECT_EQ(test, khist_hist_eval_stack(sp->keys[0].f, &c, out), 2);
	KUNIT_EXPECT_EQ(test, out[0], 0x1234);
	KUNIT_EXPECT_EQ(test, out[1], 0x5678);
	KUNIT_EXPECT_EQ(test, out[2], 0);
	/* a count beyond the payload is cut to what the record holds */
	*(unsigned long *)(r.data + 40) = 1000;
	KUNIT_EXPECT_EQ(test, khist_hist_eval_stack(sp->keys[0].f, &c, out), 2);
	khist_hist_spec_free(sp);
}

/* Rows with keys k[] (u64) and sums s[], sorted by @cmd's sort keys. */
static void sort_rows(struct kunit *test, const char *cmd, const u64 *k,
		      const u64 (*s)[2], unsigned int n, unsigned int *order)
{
	/* Off the stack (W=1: 1 KiB frames); tests run one at a time. */
	static struct khist_hrow store[16];
	static u64 keys[16][2];
	struct khist_hrow *rows[16];
	struct khist_hsorter so;
	struct khist_hist_spec *sp = compile(test, cmd);
	unsigned int i;

	khist_hsorter_init(&so, sp);
	for (i = 0; i < n; i++) {
		keys[i][0] = k[i];
		keys[i][1] = 0;
		store[i] = (struct khist_hrow){ &so, (u8 *)keys[i], s[i],
						(void *)(uintptr_t)i };
		rows[i] = &store[i];
	}
	khist_hist_sort(&so, rows, n);
	for (i = 0; i < n; i++)
		order[i] = (uintptr_t)rows[i]->priv;
	khist_hist_spec_free(sp);
}

static void hist_sort_keys(struct kunit *test)
{
	static const u64 k[] = { 5, (u64)-2, 9, 0, 7 };
	static const char two_keys[] =
		"hist:keys=u64v:vals=u32v:sort=hitcount.descending,u32v.descending";
	static const u64 s[][2] = {
		{ 3, 10 }, { 1, 20 }, { 3, 5 }, { 2, 5 }, { 3, 30 }
	};
	unsigned int o[5];

	/* signed key field: -2 sorts first */
	sort_rows(test, "hist:keys=s32v:sort=s32v", k, s, 5, o);
	KUNIT_EXPECT_EQ(test, o[0], 1);
	KUNIT_EXPECT_EQ(test, o[1], 3);
	KUNIT_EXPECT_EQ(test, o[4], 2);
	/* unsigned: -2 is the largest */
	sort_rows(test, "hist:keys=u64v:sort=u64v.descending", k, s, 5, o);
	KUNIT_EXPECT_EQ(test, o[0], 1);
	KUNIT_EXPECT_EQ(test, o[1], 2);
	KUNIT_EXPECT_EQ(test, o[4], 3);
	/* hitcount then the value, descending: runs of equal hitcounts */
	sort_rows(test, two_keys, k, s, 5, o);
	KUNIT_EXPECT_EQ(test, o[0], 4);
	KUNIT_EXPECT_EQ(test, o[1], 0);
	KUNIT_EXPECT_EQ(test, o[2], 2);
	KUNIT_EXPECT_EQ(test, o[3], 3);
	KUNIT_EXPECT_EQ(test, o[4], 1);
}

static struct kunit_case hist_eval_cases[] = {
	KUNIT_CASE(hist_eval_widening),
	KUNIT_CASE(hist_eval_division),
	KUNIT_CASE(hist_eval_modifiers),
	KUNIT_CASE(hist_eval_key_layout),
	KUNIT_CASE(hist_eval_stack),
	KUNIT_CASE(hist_sort_keys),
	{},
};

static struct kunit_suite hist_eval_suite = {
	.name = "khist_hist_eval",
	.test_cases = hist_eval_cases,
};

kunit_test_suite(hist_eval_suite);
