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

#define KUNIT_CHECK_ABORT(test) longjmp((test)->abort, 1)
#include "../../../selftests/lib/kunit_checks.h"

#endif /* _KSHIM_KUNIT_TEST_H */
