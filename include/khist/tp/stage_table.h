/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 5: per event, khist_tp_ev_<event> (struct khist_tp_event) with
 * the check, at compile time, that the class's probe has the prototype
 * of the kernel's tracepoint (declared by the header's normal read);
 * then the unit's two list functions, khist_tp_events() and
 * khist_tp_evals(), and its struct khist_tp_unit, named
 * khist_tp_unit_<KHIST_TP_UNIT>.
 */
#include <khist/tp/reset.h>

#define __khist_tp_off(class) __is_defined(KHIST_TP_OFF_##class)
#define __khist_tp_off_ev(event) __is_defined(KHIST_TP_OFFEV_##event)

/* clang-format off */
#define __khist_tp_event(cl_, ev_, pfmt)				\
	static struct khist_tp_event khist_tp_ev_##ev_ = {		\
		.system = __stringify(TRACE_SYSTEM),			\
		.name = #ev_,						\
		.class = #cl_,						\
		.rec_size = sizeof(struct khist_tp_rec_##cl_),		\
		.print_fmt = pfmt,					\
		.probe = khist_tp_probe_##cl_,				\
		.off = __khist_tp_off(cl_) || __khist_tp_off_ev(ev_),	\
	};								\
	static const char khist_tp_info_##ev_[] __used			\
		__section(".discard.khist_tp_info") =			\
		__stringify(TRACE_SYSTEM) ":" #ev_ " " #cl_;		\
	static inline void khist_tp_check_##ev_(void)			\
	{								\
		check_trace_callback_type_##ev_(khist_tp_probe_##cl_);	\
	}
/* clang-format on */

#undef KHIST_TP_EVENT
#define KHIST_TP_EVENT(class, name, proto, args) \
	__khist_tp_event(class, name, khist_tp_pfmt_##class)
#undef KHIST_TP_EVENT_PRINT
#define KHIST_TP_EVENT_PRINT(class, name, proto, args, print) \
	__khist_tp_event(class, name, khist_tp_pfmt_ev_##name)

#include KHIST_TP_HEADER

#include <khist/tp/reset.h>

#undef KHIST_TP_EVENT
/* clang-format off */
#define KHIST_TP_EVENT(class, name, proto, args)			\
	if (__n < __max) {						\
		khist_tp_ev_##name.fields =				\
			khist_tp_fields_##class(&khist_tp_ev_##name.nr_fields); \
		__ev[__n] = &khist_tp_ev_##name;			\
	}								\
	__n++;
/* clang-format on */

static unsigned int khist_tp_events(struct khist_tp_event **__ev,
				    unsigned int __max)
{
	unsigned int __n = 0;

#include KHIST_TP_HEADER
	return __n;
}

#include <khist/tp/reset.h>

#undef KHIST_TP_ENUM
#undef KHIST_TP_SIZEOF
/* clang-format off */
#define __khist_tp_eval(text, value)					\
	if (__n < __max) {						\
		__ev[__n].system = __stringify(TRACE_SYSTEM);		\
		__ev[__n].str = text;					\
		__ev[__n].val = (long)(value);				\
	}								\
	__n++;
/* clang-format on */
#define KHIST_TP_ENUM(a) __khist_tp_eval(#a, a)
#define KHIST_TP_SIZEOF(a) __khist_tp_eval("sizeof(" #a ")", sizeof(a))

static unsigned int khist_tp_evals(struct khist_tp_eval *__ev,
				   unsigned int __max)
{
	unsigned int __n = 0;

#include KHIST_TP_HEADER
	return __n;
}

#undef __khist_tp_eval
#undef __khist_tp_event
#undef __khist_tp_off

const struct khist_tp_unit __KHIST_TP_UNIT_NAME(KHIST_TP_UNIT) = {
	.header = __stringify(KHIST_TP_HEADER),
	.list_events = khist_tp_events,
	.list_evals = khist_tp_evals,
};
