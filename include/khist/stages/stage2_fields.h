/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 2: the field table of each class, khist_fields_<class>[]: name,
 * type as the format file prints it, size, signedness and kind. Offsets
 * are filled by stage 3's khist_layout_<class>().
 */
#include <khist/stages/reset.h>

#define __khist_kind(type, str, other) \
	(__builtin_types_compatible_p(type, char) ? (str) : (other))

#define __field(t_, item)                  \
	{ .name = #item,                   \
	  .type = #t_,                     \
	  .size = sizeof(t_),              \
	  .is_signed = is_signed_type(t_), \
	  .kind = KHIST_FK_INT,            \
	  .elem_size = sizeof(t_) },
#define __array(t_, item, len)                                       \
	{ .name = #item,                                             \
	  .type = #t_ "[" __stringify(len) "]",                      \
	  .size = sizeof(t_) * (len),                                \
	  .is_signed = is_signed_type(t_),                           \
	  .kind = __khist_kind(t_, KHIST_FK_STRING, KHIST_FK_ARRAY), \
	  .elem_size = sizeof(t_) },
#define __string(item, src)                  \
	{ .name = #item,                     \
	  .type = "__data_loc char[]",       \
	  .size = 4,                         \
	  .is_signed = is_signed_type(char), \
	  .kind = KHIST_FK_DYNSTRING,        \
	  .elem_size = 1 },
#define __dynamic_array(t_, item, len)                                     \
	{ .name = #item,                                                   \
	  .type = "__data_loc " #t_ "[]",                                  \
	  .size = 4,                                                       \
	  .is_signed = is_signed_type(t_),                                 \
	  .kind = __khist_kind(t_, KHIST_FK_DYNSTRING, KHIST_FK_DYNARRAY), \
	  .elem_size = sizeof(t_) },

#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static struct khist_field_desc khist_fields_##class[] = { tstruct };

#include KHIST_INCLUDE_FILE
