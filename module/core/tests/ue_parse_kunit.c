// SPDX-License-Identifier: GPL-2.0
/*
 * ue_parse_kunit.c - tests of the user_events command parser: layouts,
 * refused commands, matching of a second registration, print fmt, the
 * u: line, and the bounds check of records written by programs.
 */
#include <kunit/test.h>
#include "ue_parse.h"

static struct khist_ue_def *parse(struct kunit *test, const char *cmd)
{
	struct khist_ue_def *def = NULL;

	KUNIT_EXPECT_EQ(test, khist_ue_parse(cmd, 4072, &def), 0);
	return def;
}

static void ue_layout(struct kunit *test)
{
	struct khist_ue_def *def =
		parse(test, "  ev u8 a;unsigned short b; char[0x10] c;"
			    "__rel_loc char[] d; struct s e 12;;s64 f ;");

	if (!def)
		return;
	KUNIT_EXPECT_STREQ(test, def->name, "ev");
	KUNIT_EXPECT_EQ(test, def->nr_fields, 6);
	KUNIT_EXPECT_EQ(test, def->fields[1].offset, 9);
	KUNIT_EXPECT_STREQ(test, def->fields[1].type, "unsigned short");
	KUNIT_EXPECT_EQ(test, def->fields[1].is_signed, 0);
	KUNIT_EXPECT_EQ(test, def->fields[2].size, 16);
	KUNIT_EXPECT_EQ(test, def->fields[3].offset, 27);
	KUNIT_EXPECT_EQ(test, def->fields[3].loc, KHIST_UE_LOC_REL);
	KUNIT_EXPECT_EQ(test, def->fields[4].size, 12);
	KUNIT_EXPECT_EQ(test, def->fields[5].offset, 43);
	KUNIT_EXPECT_EQ(test, def->fixed_size, 51);
	khist_ue_def_free(def);
}

static void ue_refused(struct kunit *test)
{
	static const char *const bad[] = {
		"",
		"ev long a",
		"ev char[0] a",
		"ev char[1025] a",
		"ev char[aa] a",
		"ev char[0x0000000000001] a",
		"ev u32",
		"ev:f u32 a",
		"ev struct s a",
		"ev u8 a 3",
		"e/v u8 a",
		"ev u8 a b c",
		"ev u8 a.b",
	};
	struct khist_ue_def *def;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ(test, khist_ue_parse(bad[i], 4072, &def),
				-EINVAL);
	KUNIT_EXPECT_EQ(test,
			khist_ue_parse("ev char[1024] a; char[1024] b", 2048,
				       &def),
			-E2BIG);
}

static void ue_match(struct kunit *test)
{
	struct khist_ue_def *a = parse(test, "ev u32 a; u32 b");
	struct khist_ue_def *b = parse(test, "ev u32 a;u32 b;");
	struct khist_ue_def *c = parse(test, "ev u32 b; u32 a");

	if (a && b && c) {
		KUNIT_EXPECT_TRUE(test, khist_ue_same(a, b));
		KUNIT_EXPECT_FALSE(test, khist_ue_same(a, c));
	}
	khist_ue_def_free(a);
	khist_ue_def_free(b);
	khist_ue_def_free(c);
}

static void ue_texts(struct kunit *test)
{
	struct khist_ue_def *def =
		parse(test, "ev u32 a; __data_loc char[] b; struct s c 4");
	const char *want;
	char buf[256];
	int n;

	if (!def)
		return;
	n = khist_ue_print_fmt(def, NULL, 0);
	KUNIT_EXPECT_EQ(test, khist_ue_print_fmt(def, buf, sizeof(buf)), n);
	want = "\"a=%u b=%s c=%llu\", REC->a, __get_str(b), REC->c";
	KUNIT_EXPECT_STREQ(test, buf, want);
	khist_ue_show(def, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "ev u32 a; __data_loc char[] b; struct s c 4");
	/* Cut short but terminated, and the full length still told. */
	KUNIT_EXPECT_EQ(test, khist_ue_show(def, buf, 5), 43);
	KUNIT_EXPECT_STREQ(test, buf, "ev u");
	khist_ue_def_free(def);
}

/* A record of "ev u8 a; __rel_loc char[] s; __data_loc char[] d". */
static int check(struct kunit *test, u32 rel, u32 data, const char *tail,
		 unsigned int tail_len)
{
	struct khist_ue_def *def =
		parse(test, "ev u8 a; __rel_loc char[] s; __data_loc char[] d");
	char rec[64] = { 0 };
	int ret;

	if (!def)
		return -1;
	memcpy(rec + 9, &rel, 4);
	memcpy(rec + 13, &data, 4);
	memcpy(rec + 17, tail, tail_len);
	ret = khist_ue_validate(def, rec, 17 + tail_len);
	khist_ue_def_free(def);
	return ret;
}

static void ue_validate(struct kunit *test)
{
	/* s at 17 (rel offset 4 from 13), d at 20 (absolute). */
	KUNIT_EXPECT_EQ(test,
			check(test, 3 << 16 | 4, 3 << 16 | 20, "ab\0cd", 6), 0);
	/* One byte past the end. */
	KUNIT_EXPECT_EQ(test,
			check(test, 3 << 16 | 4, 4 << 16 | 20, "ab\0cd", 6),
			-EFAULT);
	/* Far out. */
	KUNIT_EXPECT_EQ(test,
			check(test, 3 << 16 | 1024, 3 << 16 | 20, "ab\0cd", 6),
			-EFAULT);
	/* No NUL at the end of a string. */
	KUNIT_EXPECT_EQ(test,
			check(test, 2 << 16 | 4, 3 << 16 | 20, "ab\0cd", 6),
			-EFAULT);
	/* An empty string locator covers no byte. */
	KUNIT_EXPECT_EQ(test,
			check(test, 0 << 16 | 4, 3 << 16 | 20, "ab\0cd", 6),
			-EFAULT);
	KUNIT_EXPECT_EQ(test,
			check(test, 3 << 16 | 4, 0xffffU << 16 | 0xffff,
			      "ab\0cd", 6),
			-EFAULT);
}

static struct kunit_case ue_parse_cases[] = {
	KUNIT_CASE(ue_layout), KUNIT_CASE(ue_refused),	KUNIT_CASE(ue_match),
	KUNIT_CASE(ue_texts),  KUNIT_CASE(ue_validate), {},
};

static struct kunit_suite ue_parse_suite = {
	.name = "khist_ue_parse",
	.test_cases = ue_parse_cases,
};

kunit_test_suite(ue_parse_suite);
