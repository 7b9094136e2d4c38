/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist/out.h - the text buffer that khist's renderers append to: the
 * print functions of events (khist_out_printf(), in khist.ko) and the
 * portable core's texts (khist_out_puts() and friends, core/out.c).
 *
 * Appends never write past the buffer and keep it NUL-terminated; @len
 * goes on counting what did not fit, so a caller can tell a cut text
 * from a complete one and size a second try, as with snprintf().
 *
 * Userspace builds of the core include the kernel types (kshim) before
 * this header.
 */
#ifndef _KHIST_OUT_H
#define _KHIST_OUT_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

/**
 * struct khist_out - a text buffer appended to
 * @buf:  storage (may be NULL when @size is 0, to measure)
 * @size: bytes in @buf
 * @len:  bytes the full text needs; may exceed @size - 1 when output was cut
 * @kaddr: the reader may see kernel addresses (opened with CAP_SYSLOG);
 *         when false, khist_out_printf() prints the hashed %p form where
 *         a pointer conversion would print an address
 */
struct khist_out {
	char *buf;
	size_t size;
	size_t len;
	bool kaddr;
};

void khist_out_putn(struct khist_out *out, const char *str, size_t n);
void khist_out_puts(struct khist_out *out, const char *str);
void khist_out_u64(struct khist_out *out, u64 v);

#endif /* _KHIST_OUT_H */
