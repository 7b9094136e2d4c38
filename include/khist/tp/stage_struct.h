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

#define __field(type, item) type item;
#define __field_ext(type, item, filter) type item;
#define __field_struct(type, item) type item;
#define __field_struct_ext(type, item, filter) type item;
#define __array(type, item, len) type item[len];
#define __dynamic_array(type, item, len) u32 __data_loc_##item;
#define __rel_dynamic_array(type, item, len) u32 __rel_loc_##item;
#define __string(item, src) __dynamic_array(char, item, -1)
#define __string_len(item, src, len) __dynamic_array(char, item, -1)
#define __vstring(item, fmt, ap) __dynamic_array(char, item, -1)
#define __bitmask(item, nr_bits) __dynamic_array(char, item, -1)
#define __cpumask(item) __dynamic_array(char, item, -1)
#define __sockaddr(item, len) __dynamic_array(u8, item, len)
#define __rel_string(item, src) __rel_dynamic_array(char, item, -1)
#define __rel_string_len(item, src, len) __rel_dynamic_array(char, item, -1)
#define __rel_bitmask(item, nr_bits) __rel_dynamic_array(char, item, -1)
#define __rel_cpumask(item) __rel_dynamic_array(char, item, -1)
#define __rel_sockaddr(item, len) __rel_dynamic_array(u8, item, len)

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

#define __dynamic_array(type, item, len) u32 item;
#define __rel_dynamic_array(type, item, len) u32 item;
#define __string(item, src) \
	u32 item;           \
	const void *item##_src;
#define __string_len(item, src, len) __string(item, src)
#define __vstring(item, fmt, ap) u32 item;
#define __bitmask(item, nr_bits) u32 item;
#define __cpumask(item) u32 item;
#define __sockaddr(item, len) u32 item;
#define __rel_string(item, src) __string(item, src)
#define __rel_string_len(item, src, len) __string(item, src)
#define __rel_bitmask(item, nr_bits) u32 item;
#define __rel_cpumask(item) u32 item;
#define __rel_sockaddr(item, len) u32 item;

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	struct khist_tp_dyn_##name {					\
		u32 __khist_none;					\
		tstruct							\
	};
/* clang-format on */

#include KHIST_TP_HEADER
