/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 4: khist_tp_pfmt_<class>[] (and khist_tp_pfmt_ev_<event>[] for a
 * DEFINE_EVENT_PRINT), the "print fmt" text: the TP_printk format in
 * quotes, then its arguments as text after macro expansion, __entry
 * spelled REC. The print helpers stay as written (undefined here), except
 * the few the kernel's format text shows expanded: on 64-bit the _u64
 * flag and symbol helpers become the plain ones, and the nanosecond
 * helpers become their arithmetic.
 */
#include <khist/tp/reset.h>

#define __entry REC
#if BITS_PER_LONG == 64
#define __print_flags_u64(flag, delim, flag_array...) \
	__print_flags(flag, delim, flag_array)
#define __print_symbolic_u64(value, symbol_array...) \
	__print_symbolic(value, symbol_array)
#endif
#define __print_ns_to_secs(val) (val) / 1000000000UL
#define __print_ns_without_secs(val) (val) % 1000000000UL

#undef TP_printk
#define TP_printk(fmt, args...) "\"" fmt "\", " __stringify(args)

#undef KHIST_TP_CLASS
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print) \
	static const char khist_tp_pfmt_##name[] = print;
#undef KHIST_TP_EVENT_PRINT
#define KHIST_TP_EVENT_PRINT(class, name, proto, args, print) \
	static const char khist_tp_pfmt_ev_##name[] = print;

#include KHIST_TP_HEADER
