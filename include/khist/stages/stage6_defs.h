/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 6: the definitions khist_event_<name>, and KHIST_EVENT_LIST(),
 * which lists them for khist_events_register(). With KHIST_ON_TRACEPOINTS
 * defined, each event attaches to the kernel tracepoint of its name, and
 * its probe is checked against that tracepoint's prototype (the
 * tracepoint's header must be included).
 */
#include <khist/stages/reset.h>

#ifdef KHIST_ON_TRACEPOINTS
#define __khist_tp_name(name) #name
#define __khist_tp_check(class, name)                                  \
	static inline void __khist_check_##name(void)                  \
	{                                                              \
		check_trace_callback_type_##name(khist_probe_##class); \
	}
#else
#define __khist_tp_name(name) NULL
#define __khist_tp_check(class, name)
#endif

#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print)
#undef KHIST_DEFINE_EVENT
#define KHIST_DEFINE_EVENT(class, ev_, proto, args)                        \
	__khist_tp_check(class,                                            \
			 ev_) struct khist_event_def khist_event_##ev_ = { \
		.system = __stringify(KHIST_SYSTEM),                       \
		.name = #ev_,                                              \
		.fields = khist_fields_##class,                            \
		.nr_fields = ARRAY_SIZE(khist_fields_##class),             \
		.rec_size = sizeof(struct khist_rec_##class),              \
		.print_fmt = khist_pfmt_##class,                           \
		.print = khist_print_##class,                              \
		.layout = khist_layout_##class,                            \
		.tp_name = __khist_tp_name(ev_),                           \
		.probe = khist_probe_##class,                              \
	};

#include KHIST_INCLUDE_FILE

#include <khist/stages/reset.h>

#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print)
#undef KHIST_DEFINE_EVENT
#define KHIST_DEFINE_EVENT(class, name, proto, args) \
	if (__n < __max)                             \
		__defs[__n] = &khist_event_##name;   \
	__n++

#ifndef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_event_defs
#endif

/*
 * KHIST_EVENT_LIST(defs, max): store up to @max definitions in @defs and
 * return how many the header defines (pass them to khist_events_register()).
 */
static unsigned int KHIST_EVENT_LIST(struct khist_event_def **__defs,
				     unsigned int __max)
{
	unsigned int __n = 0;

#include KHIST_INCLUDE_FILE
	return __n;
}

#undef __khist_tp_name
#undef __khist_tp_check
