// SPDX-License-Identifier: GPL-2.0
/*
 * hist_fetch_kunit.c - the fetch plan (hist_fetch.c) gives the keys and
 * values of the evaluator (hist_eval.c) byte for byte, on every kind of
 * field, on random records and on records too short for the plan; and it
 * is direct where it should be.
 */
#include <kunit/test.h>
#include "hist_bind.h"
#include "hist_eval.h"
#include "hist_fetch.h"

static const struct khist_field_desc fr_f[] = {
	{ "s8v", "s8", 8, 1, 1, KHIST_FK_INT, 1 },
	{ "u8v", "u8", 9, 1, 0, KHIST_FK_INT, 1 },
	{ "s16v", "s16", 10, 2, 1, KHIST_FK_INT, 2 },
	{ "u16v", "u16", 12, 2, 0, KHIST_FK_INT, 2 },
	{ "s32v", "s32", 16, 4, 1, KHIST_FK_INT, 4 },
	{ "u32v", "u32", 20, 4, 0, KHIST_FK_INT, 4 },
	{ "s64v", "s64", 24, 8, 1, KHIST_FK_INT, 8 },
	{ "u64v", "u64", 32, 8, 0, KHIST_FK_INT, 8 },
	{ "name", "char[12]", 40, 12, 0, KHIST_FK_STRING, 1 },
	{ "dyn", "__data_loc char[]", 52, 4, 0, KHIST_FK_DYNSTRING, 1 },
	{ "ptr", "const char *", 56, 8, 0, KHIST_FK_PTRSTRING, 8 },
};

#define FR_SIZE 64

static const struct khist_event_schema fr_sc = {
	"test", "fetch", 9, fr_f, ARRAY_SIZE(fr_f), FR_SIZE
};

static const struct {
	const char *cmd;
	bool direct; /* khist_fetch_key() builds the key */
	int n_direct_vals; /* values (besides hitcount) read directly */
} fetch_cases[] = {
	{ "hist:keys=common_pid", true, 0 },
	{ "hist:keys=s8v", true, 0 },
	{ "hist:keys=u8v", true, 0 },
	{ "hist:keys=s16v", true, 0 },
	{ "hist:keys=u16v", true, 0 },
	{ "hist:keys=s32v", true, 0 },
	{ "hist:keys=u32v", true, 0 },
	{ "hist:keys=s64v", true, 0 },
	{ "hist:keys=u64v", true, 0 },
	{ "hist:keys=common_cpu", true, 0 },
	{ "hist:keys=cpu", true, 0 },
	{ "hist:keys=common_preempt_count,common_flags", true, 0 },
	{ "hist:keys=u32v.log2", true, 0 },
	{ "hist:keys=s32v.log2", true, 0 },
	{ "hist:keys=u64v.log2=4", true, 0 },
	{ "hist:keys=s32v.log2=1", true, 0 },
	{ "hist:keys=u32v.log2=16,u64v.log2=7", true, 0 },
	{ "hist:keys=u64v.buckets=1000", true, 0 },
	{ "hist:keys=s16v.buckets=7", true, 0 },
	{ "hist:keys=u64v.hex,common_pid.execname", true, 0 },
	{ "hist:keys=u32v.syscall", true, 0 },
	{ "hist:keys=common_pid,s8v:vals=hitcount,u8v,s16v,s64v", true, 3 },
	{ "hist:keys=u8v:vals=s32v.hex,u16v.percent,u32v.graph", true, 3 },
	{ "hist:keys=u8v:vals=common_cpu,common_preempt_count", true, 2 },
	{ "hist:keys=u8v:vals=u64v*u32v,common_timestamp", true, 0 },
	{ "hist:keys=u8v:vals=s8v,u64v-u32v", true, 1 },
	{ "hist:keys=name", false, 0 },
	{ "hist:keys=dyn", false, 0 },
	{ "hist:keys=ptr", false, 0 },
	{ "hist:keys=u8v,name:vals=u32v", false, 1 },
	{ "hist:keys=common_stacktrace", false, 0 },
	{ "hist:keys=u8v:vals=ptr", true, 0 },
};

/* xorshift64: the same records on every run. */
static u64 fetch_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fetch_record(u8 *rec, unsigned int round, u64 *seed)
{
	unsigned int i;

	for (i = 0; i < FR_SIZE; i++)
		rec[i] = (u8)fetch_rand(seed);
	/* Extremes of every width on some rounds. */
	if (round % 4 == 1)
		memset(rec + 8, 0xff, 48);
	if (round % 4 == 2)
		memset(rec + 8, 0, 48);
	if (round % 4 == 3)
		for (i = 8; i < 56; i++)
			rec[i] = i & 1 ? 0x80 : 0x7f;
	/* Small powers of two (the edges of .log2 and .buckets). */
	if (round % 8 == 4) {
		memset(rec + 8, 0, 48);
		for (i = 0; i < ARRAY_SIZE(fr_f) - 3; i++)
			rec[fr_f[i].offset] = 1 << (round / 8 % 8);
	}
	/* Keep dyn inside the record half of the time. */
	if (round & 1)
		memcpy(rec + 52, &(u32){ 4 << 16 | 40 }, 4);
}

static void fetch_compare(struct kunit *test, const char *cmd,
			  const struct khist_hist_spec *sp,
			  const struct khist_fetch_plan *p, const u8 *rec,
			  unsigned int size)
{
	unsigned long stack[KHIST_STACK_DEPTH] = { 0x10, 0x20 };
	struct khist_eval_ctx c = {
		.rec = rec,
		.size = size,
		.ts = 12345,
		.cpu = 3,
		.stack = stack,
	};
	static u8 want[2 * KHIST_STR_MAX] __aligned(8),
		got[2 * KHIST_STR_MAX] __aligned(8);
	unsigned int i;

	KUNIT_ASSERT_LE(test, sp->key_size, sizeof(want));
	khist_hist_key_build(sp, &c, want);
	/* Every byte must be written: 0xa5 would show through. */
	memset(got, 0xa5, sizeof(got));
	if (khist_fetch_key(p, &c, got)) {
		if (memcmp(want, got, sp->key_size))
			KUNIT_FAIL(test, "%s, size %u: key differs", cmd, size);
	}
	for (i = 1; i < sp->n_vals; i++)
		if (khist_fetch_val(p, sp, i, &c) !=
		    khist_hist_eval(sp->vals[i], &c))
			KUNIT_FAIL(test, "%s, size %u: value %u differs", cmd,
				   size, i);
}

static void hist_fetch_matches_eval(struct kunit *test)
{
	struct khist_fetch_plan p;
	struct khist_hist_spec *sp;
	unsigned int i, round, n;
	u64 seed = 0x9e3779b97f4a7c15ULL;
	u8 rec[FR_SIZE];
	int ret;

	for (i = 0; i < ARRAY_SIZE(fetch_cases); i++) {
		const char *cmd = fetch_cases[i].cmd;

		sp = NULL;
		ret = khist_hist_compile(cmd, strlen(cmd), &fr_sc, NULL, &sp,
					 NULL);
		if (ret) {
			KUNIT_FAIL(test, "%s: does not compile (%d)", cmd, ret);
			continue;
		}
		khist_fetch_plan_init(&p, sp);
		if (p.keys_direct != fetch_cases[i].direct)
			KUNIT_FAIL(test, "%s: keys_direct %d", cmd,
				   p.keys_direct);
		for (n = 0, ret = 1; ret < (int)sp->n_vals; ret++)
			n += p.vals[ret].op != KHIST_FETCH_EVAL;
		if (n != fetch_cases[i].n_direct_vals)
			KUNIT_FAIL(test, "%s: %u direct values", cmd, n);
		for (round = 0; round < 64; round++) {
			fetch_record(rec, round, &seed);
			fetch_compare(test, cmd, sp, &p, rec, FR_SIZE);
			/* Too short for the plan: both read 0 past the end. */
			fetch_compare(test, cmd, sp, &p, rec, round % FR_SIZE);
		}
		khist_hist_spec_free(sp);
	}
}

/* A short record never takes the direct path. */
static void hist_fetch_short_record(struct kunit *test)
{
	static const char cmd[] = "hist:keys=u64v";
	struct khist_eval_ctx c = { .size = 39 };
	struct khist_fetch_plan p;
	struct khist_hist_spec *sp = NULL;
	u8 rec[FR_SIZE] = {}, key[8] __aligned(8);

	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd, strlen(cmd), &fr_sc, NULL, &sp,
					   NULL),
			0);
	khist_fetch_plan_init(&p, sp);
	KUNIT_EXPECT_EQ(test, p.min_size, 40);
	c.rec = rec;
	KUNIT_EXPECT_FALSE(test, khist_fetch_key(&p, &c, key));
	c.size = 40;
	KUNIT_EXPECT_TRUE(test, khist_fetch_key(&p, &c, key));
	khist_hist_spec_free(sp);
}

/* What of the record a trigger's hits read (KHIST_READS_*). */
static void hist_fetch_reads(struct kunit *test)
{
	static const struct {
		const char *cmd;
		unsigned int reads;
	} cases[] = {
		{ "hist:keys=common_pid", 0 },
		{ "hist:keys=common_pid.execname:vals=hitcount", 0 },
		{ "hist:keys=cpu:vals=common_timestamp", 0 },
		{ "hist:keys=common_stacktrace", 0 },
		{ "hist:keys=common_pid:ts0=common_timestamp.usecs", 0 },
		{ "hist:keys=common_preempt_count", KHIST_READS_PC },
		{ "hist:keys=common_pid:vals=common_flags", KHIST_READS_FLAGS },
		{ "hist:keys=common_pid:x=common_preempt_count",
		  KHIST_READS_PC },
		{ "hist:keys=u8v", KHIST_READS_FIELDS },
		{ "hist:keys=common_pid:vals=u64v", KHIST_READS_FIELDS },
		{ "hist:keys=common_pid:v=s32v*2", KHIST_READS_FIELDS },
		{ "hist:keys=name", KHIST_READS_FIELDS },
		{ "hist:keys=dyn", KHIST_READS_FIELDS },
		{ "hist:keys=common_pid,u8v:vals=common_preempt_count",
		  KHIST_READS_FIELDS | KHIST_READS_PC },
		{ "hist:keys=common_flags,u8v:vals=common_preempt_count",
		  KHIST_READS_ALL },
	};
	struct khist_hist_spec *sp;
	unsigned int i, r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *cmd = cases[i].cmd;

		sp = NULL;
		if (khist_hist_compile(cmd, strlen(cmd), &fr_sc, NULL, &sp,
				       NULL)) {
			KUNIT_FAIL(test, "%s: does not compile", cmd);
			continue;
		}
		r = khist_hist_spec_reads(sp);
		if (r != cases[i].reads)
			KUNIT_FAIL(test, "%s: reads %u, want %u", cmd, r,
				   cases[i].reads);
		khist_hist_spec_free(sp);
	}
}

static struct kunit_case hist_fetch_cases[] = {
	KUNIT_CASE(hist_fetch_matches_eval),
	KUNIT_CASE(hist_fetch_short_record),
	KUNIT_CASE(hist_fetch_reads),
	{}
};

static struct kunit_suite hist_fetch_suite = {
	.name = "khist_hist_fetch",
	.test_cases = hist_fetch_cases,
};

kunit_test_suite(hist_fetch_suite);
