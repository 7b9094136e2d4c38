/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/kernel.h - userspace stand-ins for the kernel vocabulary used by
 * khist's portable core (module/core/). Built with the compiler's __atomic
 * builtins and libc. Allocation goes through kshim_alloc(), which counts
 * live allocations and can be told to fail (see kshim_fail_after()).
 */
#ifndef _KSHIM_KERNEL_H
#define _KSHIM_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 __u64;
typedef u32 __u32;
typedef u16 __u16;
typedef u8 __u8;
typedef s64 __s64;
typedef s32 __s32;
typedef unsigned int gfp_t;

#define GFP_KERNEL 0u
#define GFP_ATOMIC 1u
#define GFP_NOWAIT 2u
#define __GFP_ZERO 0x100u
#define __GFP_NOWARN 0x200u
#define __GFP_ACCOUNT 0x400u

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))
#define __maybe_unused __attribute__((unused))
#define __must_check __attribute__((warn_unused_result))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define ____cacheline_aligned __attribute__((aligned(64)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define fallthrough __attribute__((fallthrough))
#define __rcu
#define __percpu
#define __user
#define __force
#define __init
#define __exit

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define BUG_ON(c) ((c) ? abort() : (void)0)
#define WARN_ON(c)                                                    \
	({                                                            \
		int __w = !!(c);                                      \
		if (__w)                                              \
			fprintf(stderr, "WARN_ON(%s) at %s:%d\n", #c, \
				__FILE__, __LINE__);                  \
		__w;                                                  \
	})
#define WARN_ON_ONCE(c) WARN_ON(c)

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define round_up(x, y) ((((x)-1) | ((__typeof__(x))((y)-1))) + 1)
#define ALIGN(x, a) round_up(x, a)
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr)-offsetof(type, member)))
#define sizeof_field(t, m) sizeof(((t *)0)->m)
#define BIT(n) (1UL << (n))
#define BITS_PER_LONG 64
#define U64_MAX UINT64_MAX
#define S64_MAX INT64_MAX
#define S64_MIN INT64_MIN
#define U32_MAX UINT32_MAX
#define SIZE_MAX_SHIM SIZE_MAX

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline int ilog2(u64 n)
{
	return n ? 63 - __builtin_clzll(n) : -1;
}

static inline int fls64(u64 n)
{
	return n ? 64 - __builtin_clzll(n) : 0;
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline s64 div64_s64(s64 a, s64 b)
{
	return a / b;
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

/* Memory model: the core is written against the LKMM; these map onto C11. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() barrier()
#endif
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define cmpxchg(p, o, n)                                         \
	({                                                       \
		__typeof__(*(p)) __old = (o);                    \
		__atomic_compare_exchange_n(p, &__old, n, false, \
					    __ATOMIC_SEQ_CST,    \
					    __ATOMIC_SEQ_CST);   \
		__old;                                           \
	})
#define cmpxchg_relaxed(p, o, n)                                 \
	({                                                       \
		__typeof__(*(p)) __old = (o);                    \
		__atomic_compare_exchange_n(p, &__old, n, false, \
					    __ATOMIC_RELAXED,    \
					    __ATOMIC_RELAXED);   \
		__old;                                           \
	})
#define xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

#define ATOMIC_INIT(i) \
	{              \
		(i)    \
	}
#define ATOMIC64_INIT(i) \
	{                \
		(i)      \
	}
#define atomic_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i) __atomic_store_n(&(v)->counter, i, __ATOMIC_RELAXED)
#define atomic_inc(v) \
	((void)__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_dec(v) \
	((void)__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_add(i, v) \
	((void)__atomic_add_fetch(&(v)->counter, i, __ATOMIC_RELAXED))
#define atomic_inc_return(v) \
	__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec_return(v) \
	__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec_and_test(v) (atomic_dec_return(v) == 0)
#define atomic_cmpxchg(v, o, n) cmpxchg(&(v)->counter, o, n)
#define atomic64_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_set(v, i) __atomic_store_n(&(v)->counter, i, __ATOMIC_RELAXED)
#define atomic64_inc(v) \
	((void)__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic64_add(i, v) \
	((void)__atomic_add_fetch(&(v)->counter, i, __ATOMIC_RELAXED))
#define atomic64_add_return(i, v) \
	__atomic_add_fetch(&(v)->counter, i, __ATOMIC_SEQ_CST)
#define atomic64_inc_return(v) atomic64_add_return(1, v)
#define atomic64_cmpxchg(v, o, n) cmpxchg(&(v)->counter, o, n)

/* Errors as pointers. */
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) \
	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

/* Allocation, counted and failable: see kshim/alloc.c. */
void *kshim_alloc(size_t size, gfp_t flags);
void *kshim_realloc(void *p, size_t size, gfp_t flags);
void kshim_free(const void *p);
long kshim_live_allocations(void);
long kshim_alloc_calls(void);
void kshim_fail_after(long n);

#define kmalloc(s, f) kshim_alloc(s, f)
#define kzalloc(s, f) kshim_alloc(s, (f) | __GFP_ZERO)
#define kcalloc(n, s, f) kshim_alloc(size_mul(n, s), (f) | __GFP_ZERO)
#define kmalloc_array(n, s, f) kshim_alloc(size_mul(n, s), f)
#define krealloc(p, s, f) kshim_realloc(p, s, f)
#define kfree(p) kshim_free(p)
#define kvmalloc(s, f) kshim_alloc(s, f)
#define kvzalloc(s, f) kshim_alloc(s, (f) | __GFP_ZERO)
#define kvcalloc(n, s, f) kshim_alloc(size_mul(n, s), (f) | __GFP_ZERO)
#define kvmalloc_array(n, s, f) kshim_alloc(size_mul(n, s), f)
#define kvfree(p) kshim_free(p)
#define vzalloc(s) kshim_alloc(s, __GFP_ZERO)
#define vmalloc(s) kshim_alloc(s, 0)
#define vfree(p) kshim_free(p)

static inline char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	size_t n = strnlen(s, max);
	char *d = kshim_alloc(n + 1, gfp);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static inline char *kmemdup_nul_shim(const char *s, size_t n, gfp_t gfp)
{
	char *d = kshim_alloc(n + 1, gfp);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static inline char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kmemdup_nul_shim(s, strlen(s), gfp) : NULL;
}

static inline char *kmemdup(const void *s, size_t n, gfp_t gfp)
{
	char *d = kshim_alloc(n, gfp);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* scnprintf: like snprintf but returns what was really written. */
static inline int kshim_scnprintf_ret(int ret, size_t size)
{
	if (ret < 0 || size == 0)
		return 0;
	return (size_t)ret >= size ? (int)(size - 1) : ret;
}

#define scnprintf(buf, size, ...) \
	kshim_scnprintf_ret(snprintf(buf, size, __VA_ARGS__), size)

/* Sorting: the kernel's sort() is a heapsort with the same signature. */
void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int));

/* CPUs: userspace threads stand in for CPUs (see kshim/alloc.c). */
#define NR_CPUS 64
extern int kshim_nr_cpus;
int kshim_this_cpu(void);
#define num_possible_cpus() kshim_nr_cpus
#define nr_cpu_ids kshim_nr_cpus
#define smp_processor_id() kshim_this_cpu()
#define raw_smp_processor_id() kshim_this_cpu()
#define for_each_possible_cpu(c) for ((c) = 0; (c) < kshim_nr_cpus; (c)++)

/* Not defined by every libc; the hist parser returns it. */
#ifndef ENOTUNIQ
#define ENOTUNIQ 76
#endif

/* Per-area additions, one file each so that areas do not collide. */
#include <kshim/map_env.h>

#endif /* _KSHIM_KERNEL_H */
