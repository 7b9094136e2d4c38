// SPDX-License-Identifier: GPL-2.0
/*
 * kaddr.c - kernel addresses in the text khist shows to readers.
 *
 * A file opened with CAP_SYSLOG (in the opener's credentials, file->f_cred,
 * as %pK decides) shows what ftrace shows, byte for byte. A file opened
 * without it (a member of the mount's gid= group) never shows a raw kernel
 * address: a %ps, %pS or %pB whose value is not a symbol, which vsnprintf
 * prints as 0x<address>, any %px or %pK, and a %lx or %llx of a number in
 * the kernel's half of the address space (khist_kaddr_hide()) print the
 * hashed %p form instead, padded to the conversion's width. Symbols print
 * as they are.
 */
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include "buffer/buffer.h"

/* "%" flags width .precision qualifier conversion extension, rebuilt. */
#define KHIST_SPEC_MAX 48

/**
 * khist_kaddr_ok() - may the opener of @file see raw kernel addresses
 * @file: an open khist file
 *
 * Context: any; the answer depends only on the credentials @file was
 * opened with, never on the task that reads it.
 * Return: true when @file was opened with CAP_SYSLOG.
 */
bool khist_kaddr_ok(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYSLOG);
}

/**
 * khist_kaddr_hide() - should a number print hashed for this reader
 * @kaddr: the reader may see kernel addresses (khist_kaddr_ok())
 * @v:     a value about to print as a number (a key, a hex argument)
 *
 * A value in the kernel's half of the address space (not an error code)
 * is an address as far as a reader without CAP_SYSLOG is concerned.
 *
 * Context: any.
 * Return: true when @v must print as %p does (hashed) instead.
 */
bool khist_kaddr_hide(bool kaddr, u64 v)
{
	return !kaddr && v >= TASK_SIZE_MAX && !IS_ERR_VALUE((unsigned long)v);
}

/* Append what @fmt formats at @len of @buf (@size bytes); its full length. */
static __printf(4, 5) size_t
	khist_emit(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	size_t room = len < size ? size - len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? buf + len : NULL, room, fmt, ap);
	va_end(ap);
	return n;
}

/* Does @spec ("%ps", "%pS", "%pB" ...) print 0x<address> for @ptr? */
static noinline bool khist_sym_missing(const char *ext, const void *ptr)
{
	char sym[KSYM_SYMBOL_LEN];
	char spec[4] = { '%', 'p', ext[0], '\0' };

	snprintf(sym, sizeof(sym), spec, ptr);
	return sym[0] == '0' && sym[1] == 'x';
}

/* Is the pointer conversion with extension @ext safe to print as it is? */
static bool khist_ptr_shown(const char *ext, const void *ptr)
{
	switch (ext[0]) {
	case 's':
	case 'S':
	case 'B':
	case 'F':
	case 'f':
		return !khist_sym_missing(ext, ptr);
	case 'x':
	case 'K':
		return false;
	default:
		return true;
	}
}

/* Skip flags, width, precision and qualifier; the conversion character. */
static const char *khist_spec_conv(const char *s)
{
	while (*s && strchr("-+ #0123456789.*hlLqjzZt", *s))
		s++;
	return s;
}

/*
 * May @fmt print a kernel address: a pointer conversion, or a hex one of a
 * long or long long (ftrace prints addresses as %lx too: syscall arguments).
 */
static bool khist_fmt_may_addr(const char *fmt)
{
	const char *s = fmt, *c;

	while ((s = strchr(s, '%'))) {
		c = khist_spec_conv(s + 1);
		if (*c == 'p')
			return true;
		if ((*c == 'x' || *c == 'X') && memchr(s + 1, 'l', c - s - 1))
			return true;
		s = *c ? c + 1 : c;
	}
	return false;
}

/* A conversion split into its parts, '*' replaced by its argument. */
struct khist_spec {
	char text[KHIST_SPEC_MAX];
	unsigned int len;
	bool left;
	int width;
	char qual[3];
	char conv;
	unsigned int ext;
};

static void khist_spec_put(struct khist_spec *sp, char c)
{
	if (sp->len < sizeof(sp->text) - 1)
		sp->text[sp->len++] = c;
}

static void khist_spec_num(struct khist_spec *sp, int v)
{
	char num[12];
	unsigned int i;

	snprintf(num, sizeof(num), "%d", v);
	for (i = 0; num[i]; i++)
		khist_spec_put(sp, num[i]);
}

/*
 * Parse the conversion at @s (just after its '%') into @sp, taking the
 * arguments of '*' from @ap; where the text after it starts.
 */
static const char *khist_spec_parse(const char *s, struct khist_spec *sp,
				    va_list *ap)
{
	unsigned int q = 0;
	int v;

	memset(sp, 0, sizeof(*sp));
	khist_spec_put(sp, '%');
	for (; *s && strchr("-+ #0", *s); s++) {
		sp->left |= *s == '-';
		khist_spec_put(sp, *s);
	}
	if (*s == '*') {
		v = va_arg(*ap, int);
		s++;
		if (v < 0) {
			sp->left = true;
			khist_spec_put(sp, '-');
			v = v == INT_MIN ? INT_MAX : -v;
		}
		sp->width = v;
		khist_spec_num(sp, v);
	} else {
		for (; isdigit(*s); s++) {
			if (sp->width < 100000)
				sp->width = sp->width * 10 + (*s - '0');
			khist_spec_put(sp, *s);
		}
	}
	if (*s == '.') {
		khist_spec_put(sp, *s++);
		if (*s == '*') {
			khist_spec_num(sp, va_arg(*ap, int));
			s++;
		}
		for (; isdigit(*s); s++)
			khist_spec_put(sp, *s);
	}
	for (; *s && strchr("hlLqjzZt", *s); s++) {
		if (q < sizeof(sp->qual) - 1)
			sp->qual[q++] = *s;
		khist_spec_put(sp, *s);
	}
	sp->conv = *s;
	if (!*s)
		return s;
	khist_spec_put(sp, *s++);
	sp->ext = sp->len;
	if (sp->conv == 'p')
		for (; isalnum(*s); s++)
			khist_spec_put(sp, *s);
	sp->text[sp->len] = '\0';
	return s;
}

/* @v as %p prints it (hashed), padded to @sp's width. */
static size_t khist_emit_hashed(char *buf, size_t size, size_t len,
				const struct khist_spec *sp, u64 v)
{
	char hashed[32];

	snprintf(hashed, sizeof(hashed), "%p", (void *)(uintptr_t)v);
	return khist_emit(buf, size, len, sp->left ? "%-*s" : "%*s", sp->width,
			  hashed);
}

/**
 * khist_kaddr_hex_str() - the address a "0x<hex>" text stands for
 * @s: the text (NUL-terminated within @n bytes, or @n bytes long)
 * @n: its room
 * @v: the number, when the whole text is "0x" and hex digits
 *
 * A symstr of an address that is no symbol holds such a text; a string
 * key or field that does is shown as an address would be.
 *
 * Context: any.
 * Return: true when @s is such a text.
 */
bool khist_kaddr_hex_str(const char *s, size_t n, u64 *v)
{
	char num[24];
	size_t len = strnlen(s, n);

	if (len < 3 || len >= sizeof(num) || s[0] != '0' || s[1] != 'x')
		return false;
	memcpy(num, s + 2, len - 2);
	num[len - 2] = '\0';
	return !kstrtoull(num, 16, v);
}

/**
 * khist_vsnprintf_kaddr() - vsnprintf() for a reader without CAP_SYSLOG
 * @buf:  where the text goes (NUL-terminated when @size > 0)
 * @size: bytes in @buf
 * @fmt:  a kernel printf format
 * @ap:   its arguments
 *
 * Formats as vsnprintf() does, except that a pointer conversion that would
 * print a kernel address prints the hashed %p form instead (see the top of
 * this file).
 *
 * Context: process context (a symbol lookup takes a stack buffer of
 * KSYM_SYMBOL_LEN bytes).
 * Return: the length of the whole text, as vsnprintf() returns it.
 */
__printf(3, 0) int khist_vsnprintf_kaddr(char *buf, size_t size,
					 const char *fmt, va_list ap)
{
	const char *s = fmt, *pct, *q;
	struct khist_spec sp;
	size_t len = 0;
	va_list args;
	void *ptr;

	if (!khist_fmt_may_addr(fmt))
		return vsnprintf(buf, size, fmt, ap);
	va_copy(args, ap);
	while (*s) {
		pct = strchrnul(s, '%');
		if (pct != s)
			len += khist_emit(buf, size, len, "%.*s",
					  (int)(pct - s), s);
		if (!*pct)
			break;
		s = khist_spec_parse(pct + 1, &sp, &args);
		q = sp.qual;
		switch (sp.conv) {
		case '%':
			len += khist_emit(buf, size, len, "%%");
			break;
		case 'p':
			ptr = va_arg(args, void *);
			if (khist_ptr_shown(sp.text + sp.ext, ptr)) {
				len += khist_emit(buf, size, len, sp.text, ptr);
				break;
			}
			len += khist_emit_hashed(buf, size, len, &sp,
						 (uintptr_t)ptr);
			break;
		case 's':
			len += khist_emit(buf, size, len, sp.text,
					  va_arg(args, const char *));
			break;
		case 'c':
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (!strcmp(q, "ll") || q[0] == 'L' || q[0] == 'q' ||
			    (q[0] && strchr("lzZtj", q[0]))) {
				unsigned long long v;

				if (!strcmp(q, "ll") || q[0] == 'L' ||
				    q[0] == 'q')
					v = va_arg(args, unsigned long long);
				else
					v = va_arg(args, unsigned long);
				if ((sp.conv == 'x' || sp.conv == 'X') &&
				    khist_kaddr_hide(false, v)) {
					/* An address printed in hex. */
					len += khist_emit_hashed(buf, size, len,
								 &sp, v);
					break;
				}
				if (!strcmp(q, "ll") || q[0] == 'L' ||
				    q[0] == 'q')
					len += khist_emit(buf, size, len,
							  sp.text, v);
				else
					len += khist_emit(buf, size, len,
							  sp.text,
							  (unsigned long)v);
			} else {
				len += khist_emit(buf, size, len, sp.text,
						  va_arg(args, unsigned int));
			}
			break;
		case '\0':
			break;
		default:
			/* vsnprintf() prints an unknown conversion as it is. */
			len += khist_emit(buf, size, len, "%s", sp.text);
			break;
		}
	}
	va_end(args);
	if (size)
		buf[min(len, size - 1)] = '\0';
	return len;
}

/**
 * khist_seq_printf_kaddr() - seq_printf() that hides kernel addresses
 * @m:     the seq_file
 * @kaddr: the reader may see kernel addresses (khist_kaddr_ok())
 * @fmt:   a kernel printf format
 *
 * seq_printf() when @kaddr, khist_vsnprintf_kaddr() otherwise.
 *
 * Context: process context (a seq_file show).
 */
void khist_seq_printf_kaddr(struct seq_file *m, bool kaddr, const char *fmt,
			    ...)
{
	size_t room;
	char *buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (kaddr) {
		seq_vprintf(m, fmt, ap);
	} else {
		room = seq_get_buf(m, &buf);
		n = khist_vsnprintf_kaddr(room ? buf : NULL, room, fmt, ap);
		seq_commit(m, n >= 0 && (size_t)n < room ? n : -1);
	}
	va_end(ap);
}
