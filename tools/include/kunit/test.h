/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit/test.h (userspace) - the subset of the KUnit API that khist's core
 * tests use, so the same test files run natively under `make unit` and,
 * unchanged, as KUnit suites in the kernel. Results are printed as TAP by
 * selftests/lib/kunit_main.c.
 */
#ifndef _KSHIM_KUNIT_TEST_H
#define _KSHIM_KUNIT_TEST_H

#include <kshim/kernel.h>
#include <setjmp.h>
#include <inttypes.h>

struct kunit {
	const char *name;
	int failed;
	jmp_buf abort;
	void *priv;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
	struct kunit_suite *next;
};

#define KUNIT_CASE(fn)                      \
	{                                   \
		.run_case = fn, .name = #fn \
	}

void kunit_register_suite(struct kunit_suite *suite);
void kunit_fail_at(struct kunit *test, const char *file, int line,
		   const char *fmt, ...) __printf(4, 5);

#define kunit_test_suite(s)                                          \
	static void __attribute__((constructor)) kunit_reg_##s(void) \
	{                                                            \
		kunit_register_suite(&(s));                          \
	}

#define kunit_info(test, ...) (printf("    # " __VA_ARGS__))
#define kunit_err(test, ...) (printf("    # " __VA_ARGS__))

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
				longjmp((test)->abort, 1);                   \
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
				longjmp((test)->abort, 1);                \
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

#endif /* _KSHIM_KUNIT_TEST_H */
