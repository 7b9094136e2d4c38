/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit_kstm.h - the KUnit subset of tools/include/kunit/test.h for the
 * kernel, so that the _kunit.c files of module/core/tests/ also run,
 * unchanged, in khist_core_test.ko on kernels without CONFIG_KUNIT (Debian's).
 *
 * Forced (-include) ahead of every object of that module: it defines the
 * guard of the kernel's own <kunit/test.h>, whose later inclusion is then
 * empty. It also gives the module's copy of the core counted, failable
 * allocation, as the userspace shim does (kshim_fail_after(),
 * kshim_live_allocations()): the allocators the core uses are redefined
 * after the kernel's headers have declared them.
 *
 * Each case runs in a kthread; a failed KUNIT_ASSERT_*() ends that thread.
 * selftests/modules/kstm_run.c prints KTAP and fails the module's
 * init with -EINVAL when a case failed (the KSTM contract).
 */
#ifndef _KHIST_KUNIT_KSTM_H
#define _KHIST_KUNIT_KSTM_H

#define _KUNIT_TEST_H

#include "core_env.h"
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/printk.h>

/**
 * struct kunit - one running case
 * @name:   the case's name
 * @failed: a check failed
 * @priv:   for the suite's init and cases
 * @done:   completed when the case's thread ends (the runner's)
 */
struct kunit {
	const char *name;
	int failed;
	void *priv;
	struct completion *done;
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
};

/*
 * Suites are found through pointers in one section of the module, between
 * the runner's first pointer and kstm_end.c's kstm_last.
 */
extern struct kunit_suite *const kstm_last;

#define kunit_test_suite(s)                                               \
	static struct kunit_suite *const kstm_suite_##s __used __section( \
		"khist_kstm") = &(s)

__printf(4, 5) void kunit_fail_at(struct kunit *test, const char *file,
				  int line, const char *fmt, ...);
void kstm_abort(struct kunit *test);

#define kunit_info(test, fmt, ...) printk(KERN_INFO "    # " fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) printk(KERN_INFO "    # " fmt, ##__VA_ARGS__)

#define KUNIT_CHECK_ABORT(test) kstm_abort(test)
#include "kunit_checks.h"

/*
 * The module's copy of the core exports nothing: khist.ko exports the map
 * (to khist_map_selftest.ko), and both may be loaded at once.
 */
#undef EXPORT_SYMBOL_NS_GPL
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

/* Counted, failable allocation (selftests/modules/kstm_run.c). */
void *kstm_alloc(size_t size, gfp_t gfp);
void kstm_free(const void *p);
char *kstm_strndup(const char *s, size_t max, gfp_t gfp);
void *kstm_memdup(const void *s, size_t n, gfp_t gfp);
long kshim_live_allocations(void);
void kshim_fail_after(long n);

#undef kmalloc
#undef kzalloc
#undef kcalloc
#undef kmalloc_array
#undef kfree
#undef kvmalloc
#undef kvzalloc
#undef kvcalloc
#undef kvmalloc_array
#undef kvfree
#undef vmalloc
#undef vzalloc
#undef vfree
#undef kstrdup
#undef kstrndup
#undef kmemdup
#define kmalloc(s, f) kstm_alloc(s, f)
#define kzalloc(s, f) kstm_alloc(s, (f) | __GFP_ZERO)
#define kcalloc(n, s, f) kstm_alloc(size_mul(n, s), (f) | __GFP_ZERO)
#define kmalloc_array(n, s, f) kstm_alloc(size_mul(n, s), f)
#define kfree(p) kstm_free(p)
#define kvmalloc(s, f) kstm_alloc(s, f)
#define kvzalloc(s, f) kstm_alloc(s, (f) | __GFP_ZERO)
#define kvcalloc(n, s, f) kstm_alloc(size_mul(n, s), (f) | __GFP_ZERO)
#define kvmalloc_array(n, s, f) kstm_alloc(size_mul(n, s), f)
#define kvfree(p) kstm_free(p)
#define vmalloc(s) kstm_alloc(s, GFP_KERNEL)
#define vzalloc(s) kstm_alloc(s, GFP_KERNEL | __GFP_ZERO)
#define vfree(p) kstm_free(p)
#define kstrdup(s, f) kstm_strndup(s, SIZE_MAX, f)
#define kstrndup(s, m, f) kstm_strndup(s, m, f)
#define kmemdup(s, n, f) kstm_memdup(s, n, f)

#endif /* _KHIST_KUNIT_KSTM_H */
