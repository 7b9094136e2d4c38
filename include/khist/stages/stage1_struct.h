/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 1: the record of each class, struct khist_rec_<class>: the common
 * header, then the fields in order; strings and dynamic arrays are a u32
 * __data_loc (length << 16 | offset from the record start) and live after
 * the fixed part. Also struct khist_dyn_<class>, where the probe keeps the
 * sizes and sources of the dynamic fields.
 */
#include <khist/stages/reset.h>

#define __field(type, item) type item;
#define __array(type, item, len) type item[len];
#define __string(item, src) u32 __data_loc_##item;
#define __dynamic_array(type, item, len) u32 __data_loc_##item;

/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	struct khist_rec_##class {					\
		struct khist_common_hdr ent;				\
		tstruct							\
		char __data[];						\
	};
/* clang-format on */

#include KHIST_INCLUDE_FILE

#include <khist/stages/reset.h>

#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src) \
	u32 item;           \
	const char *item##_src;
#define __dynamic_array(type, item, len) u32 item;

#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	struct khist_dyn_##class {                                            \
		u32 __khist_none;                                             \
		tstruct                                                       \
	};

#include KHIST_INCLUDE_FILE
