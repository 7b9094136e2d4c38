// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - appends to a struct khist_out (include/khist/out.h) that the
 * core's renderers share. Formatted appends (khist_out_printf()) need the
 * kernel's vsnprintf() and live with the event printers in khist.ko.
 */
#include "core_env.h"
#include <khist/out.h>

/**
 * khist_out_putn() - append @n bytes
 * @out: the buffer
 * @str: bytes
 * @n:   count
 *
 * Context: any.
 */
void khist_out_putn(struct khist_out *out, const char *str, size_t n)
{
	size_t room;

	if (out->size && out->len < out->size - 1) {
		room = out->size - 1 - out->len;
		memcpy(out->buf + out->len, str, min(room, n));
		out->buf[out->len + min(room, n)] = '\0';
	}
	out->len += n;
}

/**
 * khist_out_puts() - append a string
 * @out: the buffer
 * @str: NUL-terminated string
 *
 * Context: any.
 */
void khist_out_puts(struct khist_out *out, const char *str)
{
	khist_out_putn(out, str, strlen(str));
}

/**
 * khist_out_u64() - append a decimal number
 * @out: the buffer
 * @v:   value
 *
 * Context: any.
 */
void khist_out_u64(struct khist_out *out, u64 v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + (v % 10);
		v /= 10;
	} while (v);
	khist_out_putn(out, tmp + i, sizeof(tmp) - i);
}
