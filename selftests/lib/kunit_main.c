// SPDX-License-Identifier: GPL-2.0
/*
 * kunit_main.c - runs every KUnit suite linked into a userspace test binary
 * and prints TAP: one "ok N - suite.case" / "not ok N - suite.case" line per
 * case. A case also fails when it leaks an allocation made through the
 * kshim allocator. Exit status is 1 when any case failed.
 */
#include <kunit/test.h>
#include <stdarg.h>

static struct kunit_suite *suites;

void kunit_register_suite(struct kunit_suite *suite)
{
	struct kunit_suite **p = &suites;

	/* Keep link order so that output is stable. */
	while (*p)
		p = &(*p)->next;
	suite->next = NULL;
	*p = suite;
}

void kunit_fail_at(struct kunit *test, const char *file, int line,
		   const char *fmt, ...)
{
	va_list ap;

	test->failed = 1;
	printf("    # %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int run_case(struct kunit_suite *s, struct kunit_case *c)
{
	struct kunit test = { .name = c->name };
	long before = kshim_live_allocations();

	if (s->init && s->init(&test)) {
		printf("    # %s: suite init failed\n", c->name);
		return 1;
	}
	if (!setjmp(test.abort))
		c->run_case(&test);
	if (s->exit)
		s->exit(&test);
	kshim_fail_after(-1);
	if (kshim_live_allocations() != before) {
		printf("    # %s: leaked %ld allocation(s)\n", c->name,
		       kshim_live_allocations() - before);
		test.failed = 1;
	}
	return test.failed;
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	struct kunit_suite *s;
	struct kunit_case *c;
	int n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	for (s = suites; s; s = s->next) {
		if (only && strcmp(only, s->name))
			continue;
		for (c = s->test_cases; c->run_case; c++) {
			int bad = run_case(s, c);

			n++;
			failed += bad;
			printf("%sok %d - %s.%s\n", bad ? "not " : "", n,
			       s->name, c->name);
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
