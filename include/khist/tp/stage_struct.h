/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 1: per class, struct khist_tp_rec_<class>, the record with the
 * kernel's layout (common header, the fields in order, a u32 locator
 * per dynamic field, then the dynamic area), and struct
 * khist_tp_dyn_<class>, where the probe keeps each dynamic field's
 * locator and string source between measuring and filling the record.
 */
#include <khist/tp/reset.h>

#undef __field
#undef __field_ext
#undef __field_struct
#undef __field_struct_ext
#undef __array
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

#define __field(t, fld) t fld;
#define __field_ext(t, fld, filter) t fld;
#define __field_struct(t, fld) t fld;
#define __field_struct_ext(t, fld, filter) t fld;
#define __array(t, fld, n) t fld[n];
#define __dynamic_array(t, fld, n) u32 __data_loc_##fld;
#define __rel_dynamic_array(t, fld, n) u32 __rel_loc_##fld;
#define __string(fld, from) __dynamic_array(char, fld, -1)
#define __string_len(fld, from, n) __dynamic_array(char, fld, -1)
#define __vstring(fld, f, va) __dynamic_array(char, fld, -1)
#define __bitmask(fld, bits) __dynamic_array(char, fld, -1)
#define __cpumask(fld) __dynamic_array(char, fld, -1)
#define __sockaddr(fld, n) __dynamic_array(u8, fld, n)
#define __rel_string(fld, from) __rel_dynamic_array(char, fld, -1)
#define __rel_string_len(fld, from, n) __rel_dynamic_array(char, fld, -1)
#define __rel_bitmask(fld, bits) __rel_dynamic_array(char, fld, -1)
#define __rel_cpumask(fld) __rel_dynamic_array(char, fld, -1)
#define __rel_sockaddr(fld, n) __rel_dynamic_array(u8, fld, n)

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	struct khist_tp_rec_##name {					\
		struct khist_tp_hdr ent;				\
		tstruct							\
		char __data[];						\
	};
/* clang-format on */

#include KHIST_TP_HEADER

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

#define __dynamic_array(t, fld, n) u32 fld;
#define __rel_dynamic_array(t, fld, n) u32 fld;
#define __string(item, src) \
	u32 item;           \
	const void *item##_src;
#define __string_len(fld, from, n) __string(fld, from)
#define __vstring(fld, f, va) u32 fld;
#define __bitmask(fld, bits) u32 fld;
#define __cpumask(fld) u32 fld;
#define __sockaddr(fld, n) u32 fld;
#define __rel_string(fld, from) __string(fld, from)
#define __rel_string_len(fld, from, n) __string(fld, from)
#define __rel_bitmask(fld, bits) u32 fld;
#define __rel_cpumask(fld) u32 fld;
#define __rel_sockaddr(fld, n) u32 fld;

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	struct khist_tp_dyn_##name {					\
		u32 __khist_none;					\
		tstruct							\
	};
/* clang-format on */

#include KHIST_TP_HEADER
