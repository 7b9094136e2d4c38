/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 4: the probe of each class. khist_dynsize_<class>() measures the
 * dynamic fields; khist_probe_<class>() lets khist count a hit that needs
 * no record, or reserves the record, points the __data_loc fields at
 * their space, runs TP_fast_assign and commits.
 * Runs in any context with preemption disabled; never allocates. The
 * probe's only locals are the fixed-size record context and the dynamic
 * field offsets, which khist itself fills: no stack canary.
 */
#include <khist/stages/reset.h>

#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src)                       \
	__d->item##_src = khist_str_or_null(src); \
	__d->item = khist_dyn_take(&__ds, strlen(__d->item##_src) + 1);
#define __dynamic_array(type, item, len) \
	__d->item = khist_dyn_take(&__ds, (len) * sizeof(type));

/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static unsigned int						\
	khist_dynsize_##class(struct khist_dyn_##class *__d, proto)	\
	{								\
		unsigned int __ds = 0;					\
									\
		tstruct							\
		return __ds;						\
	}
/* clang-format on */

#include KHIST_INCLUDE_FILE

#include <khist/stages/reset.h>

#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src) \
	__entry->__data_loc_##item = __d.item + sizeof(*__entry);
#define __dynamic_array(type, item, len) \
	__entry->__data_loc_##item = __d.item + sizeof(*__entry);

#define __get_dynamic_array(item) \
	((void *)((char *)__entry + (__entry->__data_loc_##item & 0xffff)))
#define __get_str(item) ((char *)__get_dynamic_array(item))
#define __assign_str(dst, src...) \
	strscpy(__get_str(dst), __d.dst##_src, (__d.dst >> 16))

/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static __no_stack_protector void				\
	khist_probe_##class(void *__data, proto)			\
	{								\
		struct khist_event_def *__def = __data;			\
		struct khist_rec_##class *__entry;			\
		struct khist_dyn_##class __d;				\
		struct khist_rec_ctx __ctx __uninitialized;		\
		unsigned int __ds;					\
									\
		if (khist_rec_counted(__def))				\
			return;						\
		__ds = khist_dynsize_##class(&__d, args);		\
		__entry = khist_rec_reserve(&__ctx, __def,		\
					    sizeof(*__entry) + __ds);	\
		if (!__entry)						\
			return;						\
		tstruct							\
		{ assign }						\
		khist_rec_commit(&__ctx);				\
	}
/* clang-format on */

#include KHIST_INCLUDE_FILE
