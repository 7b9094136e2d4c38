/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forget what the previous stage made the event vocabulary mean.
 */
#undef KHIST_DECLARE_EVENT_CLASS
#undef KHIST_DEFINE_EVENT
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef __assign_str
#undef __get_str
#undef __get_dynamic_array
#undef __entry
#undef __print_flags
#undef __print_symbolic

#define KHIST_DEFINE_EVENT(class, name, proto, args)
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args
#define TP_printk(fmt, args...)
