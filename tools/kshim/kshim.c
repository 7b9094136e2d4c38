// SPDX-License-Identifier: GPL-2.0
/*
 * kshim.c - userspace implementation of the kernel services the portable
 * core relies on: counted, failable allocation; sort(); a per-thread
 * stand-in for the CPU number.
 */
#include <kshim/kernel.h>
#include <pthread.h>

static long live_allocs;
static long alloc_calls;
static long fail_countdown = -1;

void kshim_fail_after(long n)
{
	__atomic_store_n(&fail_countdown, n, __ATOMIC_SEQ_CST);
}

long kshim_live_allocations(void)
{
	return __atomic_load_n(&live_allocs, __ATOMIC_SEQ_CST);
}

/* Allocation attempts so far, failed ones included (fault injection). */
long kshim_alloc_calls(void)
{
	return __atomic_load_n(&alloc_calls, __ATOMIC_SEQ_CST);
}

static bool kshim_should_fail(void)
{
	long n = __atomic_load_n(&fail_countdown, __ATOMIC_SEQ_CST);

	__atomic_add_fetch(&alloc_calls, 1, __ATOMIC_SEQ_CST);
	while (n >= 0) {
		if (__atomic_compare_exchange_n(&fail_countdown, &n, n - 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return n == 0;
	}
	return false;
}

void *kshim_alloc(size_t size, gfp_t flags)
{
	void *p;

	if (size == SIZE_MAX || kshim_should_fail())
		return NULL;
	p = (flags & __GFP_ZERO) ? calloc(1, size ? size : 1) :
				   malloc(size ? size : 1);
	if (p)
		__atomic_add_fetch(&live_allocs, 1, __ATOMIC_SEQ_CST);
	return p;
}

void *kshim_realloc(void *p, size_t size, gfp_t flags)
{
	void *n;

	if (!p)
		return kshim_alloc(size, flags);
	if (size == SIZE_MAX || kshim_should_fail())
		return NULL;
	n = realloc(p, size ? size : 1);
	return n;
}

void kshim_free(const void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&live_allocs, 1, __ATOMIC_SEQ_CST);
	free((void *)p);
}

/* A plain heapsort, as the kernel's: O(n log n), no allocation. */
static void kshim_swap_bytes(void *a, void *b, int size)
{
	unsigned char *x = a, *y = b, t;

	while (size--) {
		t = *x;
		*x++ = *y;
		*y++ = t;
	}
}

void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int))
{
	unsigned char *b = base;
	size_t i, n, root, child;

	if (!swap)
		swap = kshim_swap_bytes;
	if (num < 2)
		return;
	/* Build the heap, then repeatedly move the maximum to the end. */
	for (i = num / 2; i-- > 0;) {
		for (root = i; (child = 2 * root + 1) < num; root = child) {
			if (child + 1 < num &&
			    cmp(b + child * size, b + (child + 1) * size) < 0)
				child++;
			if (cmp(b + root * size, b + child * size) >= 0)
				break;
			swap(b + root * size, b + child * size, (int)size);
		}
	}
	for (n = num - 1; n > 0; n--) {
		swap(b, b + n * size, (int)size);
		for (root = 0; (child = 2 * root + 1) < n; root = child) {
			if (child + 1 < n &&
			    cmp(b + child * size, b + (child + 1) * size) < 0)
				child++;
			if (cmp(b + root * size, b + child * size) >= 0)
				break;
			swap(b + root * size, b + child * size, (int)size);
		}
	}
}

int kshim_nr_cpus = 8;
static int next_cpu;
static __thread int this_cpu = -1;

int kshim_this_cpu(void)
{
	if (this_cpu < 0)
		this_cpu = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED) %
			   kshim_nr_cpus;
	return this_cpu;
}
