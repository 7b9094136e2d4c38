/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 2: per class, khist_tp_fields_<class>(), which returns the field
 * table: type text, name, offset, size and signedness as the kernel's own
 * field table of that header has them. A type is spelled as the kernel
 * spells it: __field() and __field_struct() expand their type once
 * before taking its text, the other forms take it as written.
 */
#include <khist/tp/reset.h>

#define __khist_tp_is_char(t) __builtin_types_compatible_p(t, char)

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

/* clang-format off */
#define __field(t, fld) __field_ext(t, fld, 0)
#define __field_struct(t, fld) __field_struct_ext(t, fld, 0)
#define __field_ext(t_, item, filter)					\
	{ .type = #t_, .name = #item,					\
	  .offset = offsetof(typeof(*__khist_rec), item), .size = sizeof(t_),	\
	  .is_signed = is_signed_type(t_), .kind = KHIST_TP_SCALAR,	\
	  .is_char = __khist_tp_is_char(t_), .elem_size = sizeof(t_) },
#define __field_struct_ext(t_, item, filter)				\
	{ .type = #t_, .name = #item,					\
	  .offset = offsetof(typeof(*__khist_rec), item), .size = sizeof(t_),	\
	  .is_signed = 0, .kind = KHIST_TP_STRUCT,			\
	  .elem_size = sizeof(t_) },
#define __array(t_, item, n_)						\
	{ .type = #t_ "[" __stringify(n_) "]", .name = #item,		\
	  .offset = offsetof(typeof(*__khist_rec), item),			\
	  .size = sizeof(t_[n_]), .is_signed = is_signed_type(t_),	\
	  .kind = KHIST_TP_ARRAY, .is_char = __khist_tp_is_char(t_),	\
	  .elem_size = sizeof(t_), .len = n_ },
#define __dynamic_array(t_, item, n_)					\
	{ .type = "__data_loc " #t_ "[]", .name = #item,		\
	  .offset = offsetof(typeof(*__khist_rec), __data_loc_##item),		\
	  .size = 4, .is_signed = is_signed_type(t_),			\
	  .kind = KHIST_TP_DYN, .is_char = __khist_tp_is_char(t_),	\
	  .elem_size = sizeof(t_) },
#define __rel_dynamic_array(t_, item, n_)				\
	{ .type = "__rel_loc " #t_ "[]", .name = #item,		\
	  .offset = offsetof(typeof(*__khist_rec), __rel_loc_##item),		\
	  .size = 4, .is_signed = is_signed_type(t_),			\
	  .kind = KHIST_TP_REL, .is_char = __khist_tp_is_char(t_),	\
	  .elem_size = sizeof(t_) },
#define __cpumask(item)							\
	{ .type = "__data_loc cpumask_t", .name = #item,		\
	  .offset = offsetof(typeof(*__khist_rec), __data_loc_##item),		\
	  .size = 4, .kind = KHIST_TP_CPUMASK,				\
	  .elem_size = sizeof(unsigned long) },
#define __rel_cpumask(item)						\
	{ .type = "__rel_loc cpumask_t", .name = #item,		\
	  .offset = offsetof(typeof(*__khist_rec), __rel_loc_##item),		\
	  .size = 4, .kind = KHIST_TP_RELCPUMASK,			\
	  .elem_size = sizeof(unsigned long) },
/* clang-format on */
#define __string(fld, from) __dynamic_array(char, fld, -1)
#define __string_len(fld, from, n) __dynamic_array(char, fld, -1)
#define __vstring(fld, f, va) __dynamic_array(char, fld, -1)
#define __bitmask(fld, bits) __dynamic_array(unsigned long, fld, -1)
#define __sockaddr(fld, n) __dynamic_array(u8, fld, n)
#define __rel_string(fld, from) __rel_dynamic_array(char, fld, -1)
#define __rel_string_len(fld, from, n) __rel_dynamic_array(char, fld, -1)
#define __rel_bitmask(item, nr_bits) \
	__rel_dynamic_array(unsigned long, item, -1)
#define __rel_sockaddr(fld, n) __rel_dynamic_array(u8, fld, n)

#undef KHIST_TP_CLASS
/* clang-format off */
#define KHIST_TP_CLASS(name, proto, args, tstruct, assign, print)	\
	static const struct khist_tp_field *				\
	khist_tp_fields_##name(unsigned int *__nr)			\
	{								\
		struct khist_tp_rec_##name *__khist_rec = NULL;		\
		static const struct khist_tp_field __f[] = {		\
			tstruct						\
			{ }						\
		};							\
									\
		(void)__khist_rec;					\
		*__nr = ARRAY_SIZE(__f) - 1;				\
		return __f;						\
	}
/* clang-format on */

#include KHIST_TP_HEADER

#undef __khist_tp_is_char
