/* SPDX-License-Identifier: GPL-2.0 */
/* ev_kmem.h - khist's kmem events, fed by the kernel's kmem tracepoints. */
#undef KHIST_SYSTEM
#define KHIST_SYSTEM kmem
#undef KHIST_INCLUDE_FILE
#define KHIST_INCLUDE_FILE "events/ev_kmem.h"
#undef KHIST_EVENT_LIST
#define KHIST_EVENT_LIST khist_kmem_defs

#if !defined(_KHIST_EV_KMEM_H) || defined(KHIST_HEADER_MULTI_READ)
#define _KHIST_EV_KMEM_H

#include <linux/gfp.h>
#include <trace/events/mmflags.h>
#include <khist/tracepoint.h>

/*
 * Event descriptions keep their layout: TP_printk() arguments are shown,
 * spacing included, in the format file.
 */
/* clang-format off */

KHIST_TRACE_EVENT(kmalloc,
	TP_PROTO(unsigned long site, const void *obj, size_t asked,
		 size_t got, gfp_t gfp, int nid),
	TP_ARGS(site, obj, asked, got, gfp, nid),
	TP_STRUCT__entry(
		__field(unsigned long, call_site)
		__field(const void *, ptr)
		__field(size_t, bytes_req)
		__field(size_t, bytes_alloc)
		__field(unsigned long, gfp_flags)
		__field(int, node)
	),
	TP_fast_assign(
		__entry->call_site = site;
		__entry->ptr = obj;
		__entry->bytes_req = asked;
		__entry->bytes_alloc = got;
		/* gfp_t is __bitwise: record its plain bits. */
		__entry->gfp_flags = (__force unsigned long)gfp;
		__entry->node = nid;
	),
	TP_printk("call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d accounted=%s",
		(void *)__entry->call_site, __entry->ptr, __entry->bytes_req,
		__entry->bytes_alloc, show_gfp_flags(__entry->gfp_flags),
		__entry->node,
		(KHIST_MEMCG_KMEM && (__entry->gfp_flags & (__force unsigned long)__GFP_ACCOUNT)) ? "true" : "false")
);

KHIST_TRACE_EVENT(kfree,
	TP_PROTO(unsigned long site, const void *obj),
	TP_ARGS(site, obj),
	TP_STRUCT__entry(
		__field(unsigned long, call_site)
		__field(const void *, ptr)
	),
	TP_fast_assign(
		__entry->call_site = site;
		__entry->ptr = obj;
	),
	TP_printk("call_site=%pS ptr=%p", (void *)__entry->call_site, __entry->ptr)
);
/* clang-format on */

#endif /* _KHIST_EV_KMEM_H */

#include <khist/define_event.h>
