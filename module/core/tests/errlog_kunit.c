// SPDX-License-Identifier: GPL-2.0
/*
 * errlog_kunit.c - tests of the error_log ring: format, caret placement,
 * the 8-entry limit and clearing.
 */
#include <kunit/test.h>
#include "errlog.h"

static void errlog_format_caret(struct kunit *test)
{
	static const char want[] =
		"[  117.415632] hist:kmem:kmalloc: error: Sort field must be a key or a val\n"
		"  Command: hist:keys=common_pid:sort=junk\n"
		"                                     ^\n";
	struct khist_errlog log;
	char buf[256];
	const char *last;
	int n;

	khist_errlog_init(&log);
	KUNIT_ASSERT_EQ(test,
			khist_errlog_add(&log, 117415632000ULL,
					 "hist:kmem:kmalloc",
					 "Sort field must be a key or a val",
					 "hist:keys=common_pid:sort=junk", 26),
			0);
	n = khist_errlog_format(khist_errlog_get(&log, 0), buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
	KUNIT_EXPECT_STREQ(test, buf, want);
	/* ftracetest's check: the caret line is 13 + pos bytes long. */
	last = strrchr(buf, '\n');
	while (last > buf && last[-1] != '\n')
		last--;
	KUNIT_EXPECT_EQ(test, strlen(last), 13 + 26);
	khist_errlog_clear(&log);
}

static void errlog_keeps_last_eight(struct kunit *test)
{
	struct khist_errlog log;
	char cmd[16];
	int i;

	khist_errlog_init(&log);
	for (i = 0; i < 11; i++) {
		snprintf(cmd, sizeof(cmd), "cmd%d", i);
		KUNIT_ASSERT_EQ(test,
				khist_errlog_add(&log, i, "loc", "msg", cmd, 0),
				0);
	}
	KUNIT_EXPECT_EQ(test, log.count, KHIST_ERRLOG_MAX);
	KUNIT_EXPECT_STREQ(test, khist_errlog_get(&log, 0)->cmd, "cmd3");
	KUNIT_EXPECT_STREQ(test, khist_errlog_get(&log, 7)->cmd, "cmd10");
	KUNIT_EXPECT_NULL(test, khist_errlog_get(&log, 8));
	khist_errlog_clear(&log);
	KUNIT_EXPECT_EQ(test, log.count, 0);
	KUNIT_EXPECT_NULL(test, khist_errlog_get(&log, 0));
}

/* Filter errors may point one past the text: ftrace keeps such carets. */
static void errlog_caret_past_end(struct kunit *test)
{
	struct khist_errlog log;

	khist_errlog_init(&log);
	KUNIT_ASSERT_EQ(test, khist_errlog_add(&log, 0, "l", "m", "abc", 4), 0);
	KUNIT_EXPECT_EQ(test, khist_errlog_get(&log, 0)->pos, 4);
	KUNIT_ASSERT_EQ(test,
			khist_errlog_add(&log, 0, "l", "m", "abc", 1 << 20), 0);
	KUNIT_EXPECT_EQ(test, khist_errlog_get(&log, 1)->pos, 0xffff);
	khist_errlog_clear(&log);
}

static void errlog_alloc_failure(struct kunit *test)
{
	struct khist_errlog log;

	khist_errlog_init(&log);
	kshim_fail_after(1);
	KUNIT_EXPECT_EQ(test, khist_errlog_add(&log, 0, "l", "m", "abc", 0),
			-ENOMEM);
	kshim_fail_after(-1);
	KUNIT_EXPECT_EQ(test, log.count, 0);
}

static struct kunit_case errlog_cases[] = {
	KUNIT_CASE(errlog_format_caret),
	KUNIT_CASE(errlog_keeps_last_eight),
	KUNIT_CASE(errlog_caret_past_end),
	KUNIT_CASE(errlog_alloc_failure),
	{},
};

static struct kunit_suite errlog_suite = {
	.name = "khist_errlog",
	.test_cases = errlog_cases,
};

kunit_test_suite(errlog_suite);
