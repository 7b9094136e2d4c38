/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stage 3: khist_layout_<class>() writes the compiler's offsets of the
 * record fields into khist_fields_<class>[] (called at registration).
 */
#include <khist/stages/reset.h>

#define __field(type, item) (__f++)->offset = offsetof(typeof(*__r), item);
#define __array(type, item, len) (__f++)->offset = offsetof(typeof(*__r), item);
#define __string(item, src) \
	(__f++)->offset = offsetof(typeof(*__r), __data_loc_##item);
#define __dynamic_array(type, item, len) \
	(__f++)->offset = offsetof(typeof(*__r), __data_loc_##item);

/* clang-format cannot lay out a body built from macro arguments */
/* clang-format off */
#define KHIST_DECLARE_EVENT_CLASS(class, proto, args, tstruct, assign, print) \
	static void khist_layout_##class(void)				\
	{								\
		struct khist_field_desc *__f = khist_fields_##class;	\
		struct khist_rec_##class *__r = NULL;			\
									\
		tstruct							\
		(void)__f;						\
		(void)__r;						\
	}
/* clang-format on */

#include KHIST_INCLUDE_FILE
