/* SPDX-License-Identifier: GPL-2.0 */
/* kshim/map_env.h - userspace stand-ins needed only by the map code. */
#ifndef _KSHIM_MAP_ENV_H
#define _KSHIM_MAP_ENV_H

/*
 * local64_t: in the kernel, a counter that only its own CPU updates, with
 * operations atomic against interrupts on that CPU. Threads stand in for
 * CPUs here and several threads may share one "CPU" number, so the
 * stand-ins are relaxed atomics.
 */
typedef struct {
	s64 counter;
} local64_t;

#define local64_read(l) __atomic_load_n(&(l)->counter, __ATOMIC_RELAXED)
#define local64_set(l, i) __atomic_store_n(&(l)->counter, i, __ATOMIC_RELAXED)
#ifdef KSHIM_LOCAL64_UNLOCKED
/*
 * Benchmarks only: the kernel's cost (a plain add on x86). Correct only
 * while no two threads run with the same CPU number at once.
 */
#define local64_add(i, l)                                                   \
	__atomic_store_n(&(l)->counter,                                     \
			 __atomic_load_n(&(l)->counter, __ATOMIC_RELAXED) + \
				 (s64)(i),                                  \
			 __ATOMIC_RELAXED)
#else
#define local64_add(i, l) \
	((void)__atomic_fetch_add(&(l)->counter, (s64)(i), __ATOMIC_RELAXED))
#endif
#define local64_inc(l) local64_add(1, l)

#define atomic_try_cmpxchg(v, po, n)                             \
	__atomic_compare_exchange_n(&(v)->counter, po, n, false, \
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#ifndef BIT_ULL
#define BIT_ULL(n) (1ULL << (n))
#endif

#define atomic_xchg(v, n) \
	__atomic_exchange_n(&(v)->counter, n, __ATOMIC_SEQ_CST)

/* The map's API is exported to khist_map_selftest.ko in the kernel only. */
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

#endif
