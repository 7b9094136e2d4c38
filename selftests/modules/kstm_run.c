// SPDX-License-Identifier: GPL-2.0
/*
 * kstm_run.c - khist_core_test.ko: runs the portable core's KUnit suites
 * (the _kunit.c files of module/core/tests/, with kunit_kstm.h) in the
 * kernel, against a copy of the core built into this module, and prints
 * the results as KTAP. The module's init fails with -EINVAL when a case
 * failed, so `insmod` reports it (the KSTM contract); on success the
 * module stays loaded until removed.
 *
 * A case fails, as in userspace, when it leaves an allocation made
 * through the counted allocator.
 */
/* KTAP lines start at the line's start: no "khist_core_test: " prefix. */
#undef pr_fmt
#define pr_fmt(fmt) fmt

#include <linux/atomic.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

/* The kernel's allocators, before kunit_kstm.h redefines their names. */
static void *kstm_real_alloc(size_t size, gfp_t gfp)
{
	return kvmalloc(size, gfp);
}

static void kstm_real_free(const void *p)
{
	kvfree(p);
}

#include "kunit_kstm.h"

/* The first pointer of the suite section: the end is kstm_end.c's. */
static struct kunit_suite *const
	kstm_first __used __section("khist_kstm") = NULL;

static atomic_long_t kstm_live = ATOMIC_LONG_INIT(0);
static atomic_long_t kstm_countdown = ATOMIC_LONG_INIT(-1);

/**
 * kshim_fail_after() - make an allocation fail
 * @n: the number of allocations that still succeed; -1: none fails
 *
 * Context: process context.
 */
void kshim_fail_after(long n)
{
	atomic_long_set(&kstm_countdown, n);
}

/**
 * kshim_live_allocations() - allocations of the core not yet freed
 *
 * Context: any.
 * Return: the count.
 */
long kshim_live_allocations(void)
{
	return atomic_long_read(&kstm_live);
}

static bool kstm_should_fail(void)
{
	long n = atomic_long_read(&kstm_countdown);

	while (n >= 0)
		if (atomic_long_try_cmpxchg(&kstm_countdown, &n, n - 1))
			return n == 0;
	return false;
}

/**
 * kstm_alloc() - the core's kmalloc() and friends in this module
 * @size: bytes
 * @gfp:  flags (__GFP_ZERO honoured)
 *
 * Context: as kvmalloc() with @gfp.
 * Return: the memory, or NULL when it failed or was made to fail.
 */
void *kstm_alloc(size_t size, gfp_t gfp)
{
	void *p;

	if (size == SIZE_MAX || kstm_should_fail())
		return NULL;
	p = kstm_real_alloc(size ? size : 1, gfp);
	if (p)
		atomic_long_inc(&kstm_live);
	return p;
}

/**
 * kstm_free() - free what kstm_alloc() gave
 * @p: the memory, or NULL
 *
 * Context: as kvfree().
 */
void kstm_free(const void *p)
{
	if (!p)
		return;
	atomic_long_dec(&kstm_live);
	kstm_real_free(p);
}

/**
 * kstm_strndup() - kstrndup() through kstm_alloc()
 * @s:   the string, or NULL
 * @max: at most this many bytes of it
 * @gfp: flags
 *
 * Context: as kvmalloc() with @gfp.
 * Return: the copy, NUL-terminated, or NULL.
 */
char *kstm_strndup(const char *s, size_t max, gfp_t gfp)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strnlen(s, max);
	d = kstm_alloc(n + 1, gfp);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/**
 * kstm_memdup() - kmemdup() through kstm_alloc()
 * @s:   the bytes
 * @n:   how many
 * @gfp: flags
 *
 * Context: as kvmalloc() with @gfp.
 * Return: the copy, or NULL.
 */
void *kstm_memdup(const void *s, size_t n, gfp_t gfp)
{
	void *d = kstm_alloc(n, gfp);

	if (d)
		memcpy(d, s, n);
	return d;
}

/**
 * kunit_fail_at() - record a failed check and say where
 * @test: the case
 * @file: source file of the check
 * @line: its line
 * @fmt:  what was expected, printf-style
 *
 * Context: the case's thread.
 */
void kunit_fail_at(struct kunit *test, const char *file, int line,
		   const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	test->failed = 1;
	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	pr_info("        # %s:%d: %pV\n", kbasename(file), line, &vaf);
	va_end(ap);
}

typedef void (*kstm_exit_fn)(struct completion *done, long ret);

/**
 * kstm_abort() - end a case after a failed assertion
 * @test: the case
 *
 * Context: the case's thread; does not return, though not __noreturn.
 */
void kstm_abort(struct kunit *test)
{
	kstm_exit_fn exit_fn;

	/*
	 * Through a pointer the compiler cannot follow: kstm_abort() is not
	 * __noreturn, so the callers' objects agree with objtool on 6.1 (which
	 * sees only the call) and on 6.12 (which sees this body too).
	 */
	exit_fn = kthread_complete_and_exit;
	OPTIMIZER_HIDE_VAR(exit_fn);
	exit_fn(test->done, 0);
}

struct kstm_job {
	struct kunit *test;
	void (*run)(struct kunit *test);
};

static int kstm_thread(void *arg)
{
	struct kstm_job *job = arg;

	job->run(job->test);
	kthread_complete_and_exit(job->test->done, 0);
}

/* Run one case; true when it passed. */
static bool kstm_case(struct kunit_suite *s, struct kunit_case *c)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct kunit test = { .name = c->name, .done = &done };
	struct kstm_job job = { .test = &test, .run = c->run_case };
	long before = kshim_live_allocations();
	struct task_struct *t;

	if (s->init && s->init(&test)) {
		pr_info("        # %s: suite init failed\n", c->name);
		return false;
	}
	t = kthread_run(kstm_thread, &job, "khist_kstm");
	if (IS_ERR(t)) {
		pr_info("        # %s: no thread (%ld)\n", c->name, PTR_ERR(t));
		test.failed = 1;
	} else {
		/* Wake now and then: a long case is no hung task. */
		while (!wait_for_completion_timeout(&done, 10 * HZ))
			;
	}
	if (s->exit)
		s->exit(&test);
	kshim_fail_after(-1);
	if (kshim_live_allocations() != before) {
		pr_info("        # %s: leaked %ld allocation(s)\n", c->name,
			kshim_live_allocations() - before);
		test.failed = 1;
	}
	return !test.failed;
}

static int __init khist_core_test_init(void)
{
	struct kunit_suite *const *first = &kstm_first + 1;
	struct kunit_suite *const *end;
	unsigned int i = 0, pass = 0, fail = 0;
	struct kunit_suite *const *sp;
	struct kunit_case *c;
	bool ok;
	int n;

	/* Two objects of one section: hide that from the optimiser. */
	end = &kstm_last;
	OPTIMIZER_HIDE_VAR(first);
	OPTIMIZER_HIDE_VAR(end);
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", (unsigned int)(end - first));
	for (sp = first; sp < end; sp++) {
		struct kunit_suite *s = *sp;

		for (n = 0; s->test_cases[n].run_case; n++)
			;
		pr_info("    KTAP version 1\n");
		pr_info("    # Subtest: %s\n", s->name);
		pr_info("    1..%d\n", n);
		ok = true;
		for (c = s->test_cases, n = 1; c->run_case; c++, n++) {
			bool passed = kstm_case(s, c);

			pr_info("    %sok %d %s\n", passed ? "" : "not ", n,
				c->name);
			pass += passed;
			fail += !passed;
			ok &= passed;
		}
		pr_info("%sok %u %s\n", ok ? "" : "not ", ++i, s->name);
	}
	pr_info("# khist_core_test: pass:%u fail:%u\n", pass, fail);
	return fail ? -EINVAL : 0;
}

static void __exit khist_core_test_exit(void)
{
}

module_init(khist_core_test_init);
module_exit(khist_core_test_exit);
MODULE_DESCRIPTION("khist: the portable core's KUnit suites, in the kernel");
MODULE_LICENSE("GPL");
