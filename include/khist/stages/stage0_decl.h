/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 0 (normal read of an event header): declare each event's
 * definition and its khist_trace_<name>() caller. No include guard: it is
 * read again after every multi-stage pass to restore these meanings.
 */
#undef KHIST_DECLARE_EVENT_CLASS
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print)

#undef KHIST_DEFINE_EVENT
/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DEFINE_EVENT(class, name, proto, args)			\
	extern struct khist_event_def khist_event_##name;		\
	static inline void khist_trace_##name(proto)			\
	{								\
		void (*__p)(void *, proto);				\
									\
		if (likely(!READ_ONCE(khist_event_##name.active)))	\
			return;						\
		__p = khist_event_##name.probe;				\
		preempt_disable_notrace();				\
		__p(&khist_event_##name, args);				\
		preempt_enable_notrace();				\
	}
/* clang-format on */
