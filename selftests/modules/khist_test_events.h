/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist_test_events.h - the events of the khist_test system, fired on
 * demand by khist_test_events.ko with reproducible field values.
 */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM khist_test
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "khist_test_events.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_test_defs

#if !defined(_KHIST_TEST_EVENTS_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_TEST_EVENTS_H

#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

/* One event with every field type the hist tests need. */
KHIST_TRACE_EVENT(sample,
	TP_PROTO(u32 seq, u64 val64, s32 val32, u8 small, const char *name,
		 const char *word),
	TP_ARGS(seq, val64, val32, small, name, word),
	TP_STRUCT__entry(
		__field(u32, seq)
		__field(u64, val64)
		__field(s32, val32)
		__field(u8, small)
		__array(char, name, 16)
		__string(word, word)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->val64 = val64;
		__entry->val32 = val32;
		__entry->small = small;
		strscpy_pad(__entry->name, name, 16);
		__assign_str(word, word);
	),
	TP_printk("seq=%u val64=%llu val32=%d small=%u name=%s word=%s", __entry->seq, __entry->val64, __entry->val32, __entry->small, __entry->name, __get_str(word))
);

/* An event class with two events: the same record, two ids. */
KHIST_DECLARE_EVENT_CLASS(pair_class,
	TP_PROTO(u32 seq, u64 key),
	TP_ARGS(seq, key),
	TP_STRUCT__entry(
		__field(u32, seq)
		__field(u64, key)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->key = key;
	),
	TP_printk("seq=%u key=%llu", __entry->seq, __entry->key)
);

KHIST_DEFINE_EVENT(pair_class, pair_a, TP_PROTO(u32 seq, u64 key),
		   TP_ARGS(seq, key));
KHIST_DEFINE_EVENT(pair_class, pair_b, TP_PROTO(u32 seq, u64 key),
		   TP_ARGS(seq, key));
/* clang-format on */

#endif /* _KHIST_TEST_EVENTS_H */

#include <khist/define_event.h>
