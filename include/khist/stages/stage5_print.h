/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 5: khist_print_<class>(), which renders a record for `trace`, and
 * khist_pfmt_<class>[], the "print fmt" line of the format file: the
 * TP_printk() format and its arguments as text, __entry spelled REC.
 */
#include <khist/stages/reset.h>

#define __get_dynamic_array(item)               \
	((const void *)((const char *)__entry + \
			(__entry->__data_loc_##item & 0xffff)))
#define __get_str(item) khist_rec_dynstr(__kp, __entry->__data_loc_##item)
#define __print_flags(flag, delim, flag_array...)                       \
	khist_print_flags(__kp, flag, delim,                            \
			  (const struct khist_flag_name[]){ flag_array, \
							    { 0, NULL } })
#define __print_symbolic(value, symbol_array...)                             \
	khist_print_symbolic(__kp, value,                                    \
			     (const struct khist_flag_name[]){ symbol_array, \
							       { 0, NULL } })
#undef TP_printk
#define TP_printk(fmt, args...) khist_out_printf(__kp->out, fmt, args)

/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static void khist_print_##class(struct khist_print_ctx *__kp)	\
	{								\
		const struct khist_rec_##class *__entry = __kp->rec;	\
									\
		print;							\
	}
/* clang-format on */

#include KHIST_INCLUDE_FILE

#include <khist/stages/reset.h>

#define __entry REC
#undef TP_printk
#ifdef __CHECKER__
/* sparse cannot stringify the longest argument lists (kmalloc's gfp names) */
#define TP_printk(fmt, args...) "\"" fmt "\""
#else
#define TP_printk(fmt, args...) "\"" fmt "\", " __stringify(args)
#endif

#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static const char khist_pfmt_##class[] = print;

#include KHIST_INCLUDE_FILE
