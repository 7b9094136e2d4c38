/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 3: per class, khist_tp_dynsize_<class>(), which measures the
 * dynamic fields on the tracepoint's arguments, and khist_tp_probe_<class>,
 * the tracepoint probe: it reserves the record through khist_tp_reserve(),
 * points each locator at its space, runs the header's TP_fast_assign with
 * the assign helpers of both the 6.1 and the 6.12 dialects, and commits.
 * A class the generator excluded (KHIST_TP_OFF_<class> defined to 1)
 * gets a probe that returns at once, so that the symbols its assign
 * calls are never referenced.
 */
#include <khist/tp/reset.h>

#define __khist_tp_off(class) __is_defined(KHIST_TP_OFF_##class)

/* Measure: locators are relative to the start of the dynamic area. */
#undef __dynamic_array
#undef __rel_dynamic_array
#undef __string
#undef __string_len
#undef __vstring
#undef __bitmask
#undef __cpumask
#undef __sockaddr
#undef __rel_string
#undef __rel_string_len
#undef __rel_bitmask
#undef __rel_cpumask
#undef __rel_sockaddr

#define __khist_tp_bits_bytes(nr) (BITS_TO_LONGS(nr) * sizeof(unsigned long))
#define __dynamic_array(type, item, len) \
	__d->item = khist_tp_take(&__ds, (long)(len) * (long)sizeof(type));
#define __rel_dynamic_array(t, fld, n) __dynamic_array(t, fld, n)
#define __string(item, src)      \
	__d->item##_src = (src); \
	__d->item =              \
		khist_tp_take(&__ds, strlen(__d->item##_src ?: "(null)") + 1);
#define __string_len(item, src, len) \
	__d->item##_src = (src);     \
	__d->item = khist_tp_take(&__ds, (long)(len) + 1);
#define __vstring(item, fmt, ap) \
	__d->item = khist_tp_take(&__ds, khist_tp_vstr_len(fmt, ap));
#define __bitmask(item, nr_bits) \
	__d->item = khist_tp_take(&__ds, __khist_tp_bits_bytes(nr_bits));
#define __cpumask(fld) __bitmask(fld, nr_cpumask_bits)
#define __sockaddr(fld, n) __dynamic_array(u8, fld, n)
#define __rel_string(fld, from) __string(fld, from)
#define __rel_string_len(fld, from, n) __string_len(fld, from, n)
#define __rel_bitmask(fld, bits) __bitmask(fld, bits)
#define __rel_cpumask(fld) __cpumask(fld)
#define __rel_sockaddr(fld, n) __dynamic_array(u8, fld, n)

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	static __always_inline unsigned long				\
	khist_tp_dynsize_##name(struct khist_tp_dyn_##name *__d, proto)	\
	{								\
		unsigned long __ds = 0;					\
									\
		tstruct							\
		return __ds;						\
	}
/* clang-format on */

#include KHIST_TP_HEADER

/* Fill: a __data_loc counts from the record start, a __rel_loc from the
 * end of the locator itself.
 */
#include <khist/tp/reset.h>

#undef __dynamic_array
#undef __rel_dynamic_array
#undef __string
#undef __string_len
#undef __vstring
#undef __bitmask
#undef __cpumask
#undef __sockaddr
#undef __rel_string
#undef __rel_string_len
#undef __rel_bitmask
#undef __rel_cpumask
#undef __rel_sockaddr

/* clang-format off */
#define __dynamic_array(type, item, len)				\
	__entry->__data_loc_##item = __d.item + sizeof(*__entry);
#define __rel_dynamic_array(type, item, len)				\
	__entry->__rel_loc_##item = __d.item + sizeof(*__entry) -	\
		offsetof(typeof(*__entry), __rel_loc_##item) - sizeof(u32);
/* clang-format on */
#define __string(fld, from) __dynamic_array(char, fld, -1)
#define __string_len(fld, from, n) __dynamic_array(char, fld, -1)
#define __vstring(fld, f, va) __dynamic_array(char, fld, -1)
#define __bitmask(fld, bits) __dynamic_array(char, fld, -1)
#define __cpumask(fld) __dynamic_array(char, fld, -1)
#define __sockaddr(fld, n) __dynamic_array(u8, fld, -1)
#define __rel_string(fld, from) __rel_dynamic_array(char, fld, -1)
#define __rel_string_len(fld, from, n) __rel_dynamic_array(char, fld, -1)
#define __rel_bitmask(fld, bits) __rel_dynamic_array(char, fld, -1)
#define __rel_cpumask(fld) __rel_dynamic_array(char, fld, -1)
#define __rel_sockaddr(fld, n) __rel_dynamic_array(u8, fld, -1)

/* Some headers name the record as the kernel's probe does: entry. */
#define __entry entry
#define __perf_count(c) (c)
#define __perf_task(t) (t)
#define __perf_addr(a) (a)

#define __get_dynamic_array(f) \
	((void *)__entry + (__entry->__data_loc_##f & 0xffff))
#define __get_dynamic_array_len(f) ((__entry->__data_loc_##f >> 16) & 0xffff)
#define __get_str(f) ((char *)__get_dynamic_array(f))
#define __get_bitmask(f) ((char *)__get_dynamic_array(f))
#define __get_cpumask(f) ((char *)__get_dynamic_array(f))
#define __get_sockaddr(f) ((struct sockaddr *)__get_dynamic_array(f))
#define __get_rel_dynamic_array(f)                       \
	((void *)&__entry->__rel_loc_##f + sizeof(u32) + \
	 (__entry->__rel_loc_##f & 0xffff))
#define __get_rel_dynamic_array_len(f) ((__entry->__rel_loc_##f >> 16) & 0xffff)
#define __get_rel_str(f) ((char *)__get_rel_dynamic_array(f))
#define __get_rel_bitmask(f) ((char *)__get_rel_dynamic_array(f))
#define __get_rel_cpumask(f) ((char *)__get_rel_dynamic_array(f))
#define __get_rel_sockaddr(f) ((struct sockaddr *)__get_rel_dynamic_array(f))

/*
 * The string source: 6.12's one-argument form takes what __string()
 * measured, 6.1's two-argument form names it again.
 */
#define __khist_tp_pick1(a) a
#define __khist_tp_pick2(a, b) b
#define __khist_tp_sel(_1, _2, m, ...) m
#define __khist_tp_last(args...) \
	__khist_tp_sel(args, __khist_tp_pick2, __khist_tp_pick1)(args)
#define __assign_str(dst, src...)                  \
	khist_tp_copy_str(__get_str(dst), __d.dst, \
			  __khist_tp_last(__d.dst##_src, ##src))
#define __assign_str_len(dst, src, len) \
	khist_tp_copy_str(__get_str(dst), __d.dst, src)
#define __assign_rel_str(dst, src...)                  \
	khist_tp_copy_str(__get_rel_str(dst), __d.dst, \
			  __khist_tp_last(__d.dst##_src, ##src))
#define __assign_rel_str_len(dst, src, len) \
	khist_tp_copy_str(__get_rel_str(dst), __d.dst, src)
#define __khist_tp_vprint(to, n, fmt, va)    \
	do {                                 \
		va_list __aq;                \
		va_copy(__aq, *(va));        \
		vsnprintf(to, n, fmt, __aq); \
		va_end(__aq);                \
	} while (0)
#define __assign_vstr(dst, fmt, va) \
	__khist_tp_vprint(__get_str(dst), __d.dst >> 16, fmt, va)
#define __khist_tp_copy(to, loc, from, n) \
	memcpy(to, from, min_t(unsigned long, (loc) >> 16, n))
#define __assign_bitmask(dst, src, nr_bits)               \
	__khist_tp_copy(__get_bitmask(dst), __d.dst, src, \
			__khist_tp_bits_bytes(nr_bits))
#define __assign_cpumask(dst, src)                                      \
	__khist_tp_copy(__get_cpumask(dst), __d.dst, cpumask_bits(src), \
			__khist_tp_bits_bytes(nr_cpumask_bits))
#define __assign_sockaddr(dst, src, len) \
	__khist_tp_copy(__get_dynamic_array(dst), __d.dst, src, len)
#define __assign_rel_bitmask(dst, src, nr_bits)               \
	__khist_tp_copy(__get_rel_bitmask(dst), __d.dst, src, \
			__khist_tp_bits_bytes(nr_bits))
#define __assign_rel_cpumask(dst, src)                                      \
	__khist_tp_copy(__get_rel_cpumask(dst), __d.dst, cpumask_bits(src), \
			__khist_tp_bits_bytes(nr_cpumask_bits))
#define __assign_rel_sockaddr(dst, src, len) \
	__khist_tp_copy(__get_rel_dynamic_array(dst), __d.dst, src, len)

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	static __no_stack_protector void				\
	khist_tp_probe_##name(void *__data, proto)			\
	{								\
		const struct khist_tp_event *__ev = __data;		\
		struct khist_tp_rec_##name *entry;			\
		struct khist_tp_dyn_##name __d;				\
		struct khist_tp_ctx __ctx;				\
		unsigned long __ds;					\
									\
		if (__khist_tp_off(name))				\
			return;						\
		__ds = khist_tp_dynsize_##name(&__d, args);		\
		if (__ds > KHIST_TP_MAX_REC - sizeof(*__entry))		\
			return;						\
		__entry = khist_tp_reserve(&__ctx, __ev,		\
					   sizeof(*__entry) + __ds);	\
		if (!__entry)						\
			return;						\
		tstruct							\
		{ assign }						\
		khist_tp_commit(&__ctx);				\
	}
/* clang-format on */

#include KHIST_TP_HEADER

#undef __khist_tp_vprint
#undef __khist_tp_copy
