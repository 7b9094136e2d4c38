// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_split_kunit.c - tests of the command file splitter: lines, comments,
 * blank lines, lines across the 4 KiB chunks, the longest line, NUL bytes,
 * a refused line, a failed copy; and the trigger command split.
 */
#include <kunit/test.h>
#include "cmd_split.h"

/* What a fake write saw: its source, and the lines run, '|'-joined. */
struct split_rec {
	const char *src;
	char lines[16384];
	unsigned int nr;
	int fail_at; /* refuse the line of this index (-1: none) */
	int copy_err; /* returned by copy when not 0 */
};

static int rec_copy(char *dst, size_t off, size_t len, void *arg)
{
	struct split_rec *r = arg;

	if (r->copy_err)
		return r->copy_err;
	memcpy(dst, r->src + off, len);
	return 0;
}

static int rec_line(char *line, void *arg)
{
	struct split_rec *r = arg;

	if ((int)r->nr == r->fail_at)
		return -EEXIST;
	if (r->nr)
		strcat(r->lines, "|");
	strcat(r->lines, line);
	r->nr++;
	return 0;
}

static ssize_t split(struct kunit *test, struct split_rec *r, const char *src,
		     size_t count)
{
	static char buf[KHIST_CMD_BUF];
	struct khist_cmd_split s = {
		.buf = buf,
		.count = count,
		.copy = rec_copy,
		.line = rec_line,
		.arg = r,
	};
	ssize_t ret;

	r->src = src;
	ret = khist_cmd_split_run(&s);
	if (ret == -EINVAL)
		KUNIT_EXPECT_TRUE(test, s.too_long);
	else
		KUNIT_EXPECT_FALSE(test, s.too_long);
	return ret;
}

static void rec_init(struct split_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->fail_at = -1;
}

static void split_lines_and_comments(struct kunit *test)
{
	static const char in[] = "a b\n# only a comment\n\nc d # e\n-:x\n!y";
	static struct split_rec r;

	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, strlen(in)),
			(ssize_t)strlen(in));
	/* Blank and comment lines are run too, as empty lines. */
	KUNIT_EXPECT_STREQ(test, r.lines, "a b|||c d |-:x|!y");
	KUNIT_EXPECT_EQ(test, r.nr, 6);
}

static void split_refused_line_stops(struct kunit *test)
{
	static const char in[] = "one\ntwo\nthree\n";
	static struct split_rec r;

	rec_init(&r);
	r.fail_at = 1;
	KUNIT_EXPECT_EQ(test, split(test, &r, in, strlen(in)), -EEXIST);
	KUNIT_EXPECT_STREQ(test, r.lines, "one");
	rec_init(&r);
	r.copy_err = -EFAULT;
	KUNIT_EXPECT_EQ(test, split(test, &r, in, strlen(in)), -EFAULT);
	KUNIT_EXPECT_EQ(test, r.nr, 0);
}

/* Lines that cross the end of a chunk are carried whole to the next. */
static void split_across_chunks(struct kunit *test)
{
	static char in[3 * KHIST_CMD_BUF], want[3 * KHIST_CMD_BUF];
	static struct split_rec r;
	size_t n = 0;
	int i;

	want[0] = '\0';
	for (i = 0; n < 2 * KHIST_CMD_BUF + 100; i++) {
		char line[64];
		int len = snprintf(line, sizeof(line), "line%d %.*s", i, i % 40,
				   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");

		memcpy(in + n, line, len);
		n += len;
		in[n++] = '\n';
		if (i)
			strcat(want, "|");
		strcat(want, line);
	}
	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, n), (ssize_t)n);
	KUNIT_EXPECT_EQ(test, r.nr, i);
	KUNIT_EXPECT_STREQ(test, r.lines, want);
}

static void split_longest_line(struct kunit *test)
{
	static char in[2 * KHIST_CMD_BUF];
	static struct split_rec r;

	/* 4094 bytes and a newline fit, then a short line. */
	memset(in, 'a', KHIST_CMD_BUF - 2);
	memcpy(in + KHIST_CMD_BUF - 2, "\nb\n", 3);
	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, KHIST_CMD_BUF + 1),
			KHIST_CMD_BUF + 1);
	KUNIT_EXPECT_EQ(test, r.nr, 2);
	KUNIT_EXPECT_EQ(test, strlen(r.lines), KHIST_CMD_BUF);
	/* One more byte: too long, nothing run. */
	memset(in, 'a', KHIST_CMD_BUF - 1);
	memcpy(in + KHIST_CMD_BUF - 1, "\nb\n", 3);
	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, KHIST_CMD_BUF + 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, r.nr, 0);
	/* Without a newline, the last line may fill the chunk. */
	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, KHIST_CMD_BUF - 1),
			KHIST_CMD_BUF - 1);
	KUNIT_EXPECT_EQ(test, r.nr, 1);
}

/* A NUL ends the chunk's text: its line is refused as too long. */
static void split_nul_byte(struct kunit *test)
{
	static const char in[] = "ok\nb\0ad\nnever\n";
	static struct split_rec r;

	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, in, sizeof(in) - 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, r.lines, "ok");
	rec_init(&r);
	KUNIT_EXPECT_EQ(test, split(test, &r, "x\n\0", 3), -EINVAL);
	KUNIT_EXPECT_STREQ(test, r.lines, "x");
}

static void trigger_split_words(struct kunit *test)
{
	static const struct {
		const char *in, *name, *params;
	} cases[] = {
		{ "hist:keys=pid", "hist", "keys=pid" },
		{ "!hist:keys=pid if x", "!hist", "keys=pid if x" },
		{ "  traceon:5", "traceon", "5" },
		{ "traceon", "traceon", NULL },
		{ "traceon: \t ", "traceon", NULL },
		{ "snapshot \t 3", "snapshot", "3" },
		{ "stacktrace\t\2402", "stacktrace", "2" }, /* 0xa0 */
		{ "", "", NULL },
		{ ":x", "", "x" },
	};
	char buf[64], *params;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		KUNIT_EXPECT_STREQ(test, khist_trigger_split(buf, &params),
				   cases[i].name);
		if (cases[i].params)
			KUNIT_EXPECT_STREQ(test, params, cases[i].params);
		else
			KUNIT_EXPECT_NULL(test, params);
	}
}

static struct kunit_case cmd_split_cases[] = {
	KUNIT_CASE(split_lines_and_comments),
	KUNIT_CASE(split_refused_line_stops),
	KUNIT_CASE(split_across_chunks),
	KUNIT_CASE(split_longest_line),
	KUNIT_CASE(split_nul_byte),
	KUNIT_CASE(trigger_split_words),
	{},
};

static struct kunit_suite cmd_split_suite = {
	.name = "khist_cmd_split",
	.test_cases = cmd_split_cases,
};

kunit_test_suite(cmd_split_suite);
