/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit_checks.h - the KUnit check macros khist's core tests use, shared by
 * the userspace runner (tools/include/kunit/test.h, `make unit`) and the
 * kernel one (selftests/lib/kunit_kstm.h, khist_core_test.ko).
 *
 * The includer declares struct kunit and kunit_fail_at(), and defines
 * KUNIT_CHECK_ABORT(test): how a failed KUNIT_ASSERT_*() ends its case
 * (a longjmp in userspace, the end of the case's kthread in the kernel).
 */
#ifndef _KHIST_KUNIT_CHECKS_H
#define _KHIST_KUNIT_CHECKS_H

#ifndef KUNIT_CHECK_ABORT
#error "define KUNIT_CHECK_ABORT(test) before including kunit_checks.h"
#endif

#define KUNIT_CASE(fn)                      \
	{                                   \
		.run_case = fn, .name = #fn \
	}

#define KUNIT_FAIL(test, ...) \
	kunit_fail_at(test, __FILE__, __LINE__, __VA_ARGS__)

#define KUNIT_BIN_CHECK(test, a, op, b, fatal)                               \
	do {                                                                 \
		long long __a = (long long)(a), __b = (long long)(b);        \
		if (!(__a op __b)) {                                         \
			kunit_fail_at(test, __FILE__, __LINE__,              \
				      "expected %s %s %s, got %lld vs %lld", \
				      #a, #op, #b, __a, __b);                \
			if (fatal)                                           \
				KUNIT_CHECK_ABORT(test);                     \
		}                                                            \
	} while (0)

#define KUNIT_EXPECT_EQ(t, a, b) KUNIT_BIN_CHECK(t, a, ==, b, 0)
#define KUNIT_EXPECT_NE(t, a, b) KUNIT_BIN_CHECK(t, a, !=, b, 0)
#define KUNIT_EXPECT_LT(t, a, b) KUNIT_BIN_CHECK(t, a, <, b, 0)
#define KUNIT_EXPECT_LE(t, a, b) KUNIT_BIN_CHECK(t, a, <=, b, 0)
#define KUNIT_EXPECT_GT(t, a, b) KUNIT_BIN_CHECK(t, a, >, b, 0)
#define KUNIT_EXPECT_GE(t, a, b) KUNIT_BIN_CHECK(t, a, >=, b, 0)
#define KUNIT_EXPECT_TRUE(t, c) KUNIT_BIN_CHECK(t, !!(c), ==, 1, 0)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_BIN_CHECK(t, !!(c), ==, 0, 0)
#define KUNIT_ASSERT_EQ(t, a, b) KUNIT_BIN_CHECK(t, a, ==, b, 1)
#define KUNIT_ASSERT_NE(t, a, b) KUNIT_BIN_CHECK(t, a, !=, b, 1)
#define KUNIT_ASSERT_LT(t, a, b) KUNIT_BIN_CHECK(t, a, <, b, 1)
#define KUNIT_ASSERT_LE(t, a, b) KUNIT_BIN_CHECK(t, a, <=, b, 1)
#define KUNIT_ASSERT_GT(t, a, b) KUNIT_BIN_CHECK(t, a, >, b, 1)
#define KUNIT_ASSERT_GE(t, a, b) KUNIT_BIN_CHECK(t, a, >=, b, 1)
#define KUNIT_ASSERT_TRUE(t, c) KUNIT_BIN_CHECK(t, !!(c), ==, 1, 1)
#define KUNIT_ASSERT_FALSE(t, c) KUNIT_BIN_CHECK(t, !!(c), ==, 0, 1)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) \
	KUNIT_BIN_CHECK(t, IS_ERR_OR_NULL(p), ==, 0, 1)
#define KUNIT_EXPECT_NULL(t, p) KUNIT_BIN_CHECK(t, (p) == NULL, ==, 1, 0)
#define KUNIT_EXPECT_NOT_NULL(t, p) KUNIT_BIN_CHECK(t, (p) != NULL, ==, 1, 0)
#define KUNIT_ASSERT_NOT_NULL(t, p) KUNIT_BIN_CHECK(t, (p) != NULL, ==, 1, 1)

#define KUNIT_STR_CHECK(test, a, b, fatal)                                \
	do {                                                              \
		const char *__a = (a), *__b = (b);                        \
		if (!__a || !__b || strcmp(__a, __b)) {                   \
			kunit_fail_at(                                    \
				test, __FILE__, __LINE__,                 \
				"expected %s == %s\n    #   got \"%s\"\n" \
				"    #  want \"%s\"",                     \
				#a, #b, __a ? __a : "(null)",             \
				__b ? __b : "(null)");                    \
			if (fatal)                                        \
				KUNIT_CHECK_ABORT(test);                  \
		}                                                         \
	} while (0)

#define KUNIT_EXPECT_STREQ(t, a, b) KUNIT_STR_CHECK(t, a, b, 0)
#define KUNIT_ASSERT_STREQ(t, a, b) KUNIT_STR_CHECK(t, a, b, 1)

#define KUNIT_EXPECT_MEMEQ(test, a, b, n)                                      \
	do {                                                                   \
		if (memcmp(a, b, n))                                           \
			kunit_fail_at(test, __FILE__, __LINE__,                \
				      "expected %s == %s (%zu bytes)", #a, #b, \
				      (size_t)(n));                            \
	} while (0)

#endif /* _KHIST_KUNIT_CHECKS_H */
