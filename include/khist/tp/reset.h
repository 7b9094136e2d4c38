/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist/tp/reset.h - read before every stage: forget what the previous
 * stage made the TRACE_EVENT vocabulary mean, route every event form to
 * the three a stage defines (KHIST_TP_CLASS, KHIST_TP_EVENT and
 * KHIST_TP_EVENT_PRINT, all empty until the stage says otherwise) and
 * make every field form expand to nothing.
 */

/* Event forms, as the kernel's trace headers use them. */
#undef TRACE_EVENT
#undef TRACE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef TRACE_EVENT_CONDITION
#undef TRACE_EVENT_NOP
#undef TRACE_EVENT_PERF_PERM
#undef DECLARE_EVENT_CLASS
#undef DECLARE_EVENT_NOP
#undef DEFINE_EVENT
#undef DEFINE_EVENT_FN
#undef DEFINE_EVENT_PRINT
#undef DEFINE_EVENT_CONDITION
#undef DEFINE_EVENT_NOP
#undef DECLARE_TRACE
#undef DECLARE_TRACE_CONDITION
#undef TRACE_DEFINE_ENUM
#undef TRACE_DEFINE_SIZEOF

#undef KHIST_TP_CLASS
#undef KHIST_TP_EVENT
#undef KHIST_TP_EVENT_PRINT
#undef KHIST_TP_ENUM
#undef KHIST_TP_SIZEOF

/* clang-format off */
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	KHIST_TP_CLASS(name, PARAMS(proto), PARAMS(args),		\
		       PARAMS(tstruct), PARAMS(assign), PARAMS(print))	\
	KHIST_TP_EVENT(name, name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, r, u) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
		    PARAMS(assign), PARAMS(print))
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign,	\
			    print, r, u)				\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
		    PARAMS(assign), PARAMS(print))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, \
			      print)					\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), \
		    PARAMS(assign), PARAMS(print))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print) \
	KHIST_TP_CLASS(name, PARAMS(proto), PARAMS(args),		\
		       PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#define DEFINE_EVENT(class, name, proto, args)				\
	KHIST_TP_EVENT(class, name, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_FN(class, name, proto, args, r, u)		\
	KHIST_TP_EVENT(class, name, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_CONDITION(class, name, proto, args, cond)		\
	KHIST_TP_EVENT(class, name, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_PRINT(class, name, proto, args, print)		\
	KHIST_TP_EVENT_PRINT(class, name, PARAMS(proto), PARAMS(args),	\
			     PARAMS(print))
/* clang-format on */

/* Forms that make no event: the condition and the reg/unreg functions
 * of the forms above belong to the tracepoint, not to its probes.
 */
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)
#define DECLARE_EVENT_NOP(name, proto, args)
#define DEFINE_EVENT_NOP(class, name, proto, args)
#define TRACE_EVENT_PERF_PERM(name, expr...)
#define DECLARE_TRACE(name, proto, args)
#define DECLARE_TRACE_CONDITION(name, proto, args, cond)
#define TRACE_DEFINE_ENUM(a) KHIST_TP_ENUM(a)
#define TRACE_DEFINE_SIZEOF(a) KHIST_TP_SIZEOF(a)

#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)
#define KHIST_TP_EVENT(class, name, proto, args)
#define KHIST_TP_EVENT_PRINT(class, name, proto, args, print) \
	KHIST_TP_EVENT(class, name, PARAMS(proto), PARAMS(args))
#define KHIST_TP_ENUM(a)
#define KHIST_TP_SIZEOF(a)

/* Fields. */
#undef __field
#undef __field_ext
#undef __field_struct
#undef __field_struct_ext
#undef __array
#undef __dynamic_array
#undef __string
#undef __string_len
#undef __vstring
#undef __bitmask
#undef __cpumask
#undef __sockaddr
#undef __rel_dynamic_array
#undef __rel_string
#undef __rel_string_len
#undef __rel_bitmask
#undef __rel_cpumask
#undef __rel_sockaddr

#define __field(t, fld)
#define __field_ext(t, fld, filter)
#define __field_struct(t, fld)
#define __field_struct_ext(t, fld, filter)
#define __array(t, fld, n)
#define __dynamic_array(t, fld, n)
#define __string(fld, from)
#define __string_len(fld, from, n)
#define __vstring(fld, f, va)
#define __bitmask(fld, bits)
#define __cpumask(fld)
#define __sockaddr(fld, n)
#define __rel_dynamic_array(t, fld, n)
#define __rel_string(fld, from)
#define __rel_string_len(fld, from, n)
#define __rel_bitmask(fld, bits)
#define __rel_cpumask(fld)
#define __rel_sockaddr(fld, n)

/* Assign and print helpers: each stage defines those it expands. */
#undef __entry
#undef __assign_str
#undef __assign_str_len
#undef __assign_vstr
#undef __assign_bitmask
#undef __assign_cpumask
#undef __assign_sockaddr
#undef __assign_rel_str
#undef __assign_rel_str_len
#undef __assign_rel_bitmask
#undef __assign_rel_cpumask
#undef __assign_rel_sockaddr
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_str
#undef __get_bitmask
#undef __get_cpumask
#undef __get_sockaddr
#undef __get_rel_dynamic_array
#undef __get_rel_dynamic_array_len
#undef __get_rel_str
#undef __get_rel_bitmask
#undef __get_rel_cpumask
#undef __get_rel_sockaddr
#undef __get_buf
#undef __perf_count
#undef __perf_task
#undef __perf_addr
#undef __print_flags
#undef __print_flags_u64
#undef __print_symbolic
#undef __print_symbolic_u64
#undef __print_hex
#undef __print_hex_str
#undef __print_array
#undef __print_dynamic_array
#undef __print_hex_dump
#undef __print_ns_to_secs
#undef __print_ns_without_secs

#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args
#define TP_printk(fmt, args...)
