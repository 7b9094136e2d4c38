// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - ftrace/print, the event trace_marker writes: the address of
 * the writer and the text, always recorded (it has no enable file).
 */
#include "base/instance.h"
#include "events.h"

static struct khist_field_desc khist_print_fields[] = {
	{ "ip", "unsigned long", 8, 8, 0, KHIST_FK_INT, 8 },
	{ "buf", "char[]", 16, 0, is_signed_type(char), KHIST_FK_STRING, 1 },
};

static void khist_print_print(struct khist_print_ctx *p)
{
	const char *buf = (const char *)p->rec + 16;
	size_t len = strnlen(buf, p->size - 16);

	if (len && buf[len - 1] == '\n')
		len--;
	khist_out_printf(p->out, "tracing_mark_write: %.*s", (int)len, buf);
}

static int khist_print_reg(struct khist_event_def *def, bool on)
{
	return 0;
}

struct khist_event_def khist_print_def = {
	.system = "ftrace",
	.name = "print",
	.fields = khist_print_fields,
	.nr_fields = ARRAY_SIZE(khist_print_fields),
	.rec_size = 16,
	.print_fmt = "\"%ps: %s\", (void *)REC->ip, REC->buf",
	.print = khist_print_print,
	.reg = khist_print_reg,
	.fixed_id = 5,
	.flags = KHIST_EVF_IGNORE_ENABLE | KHIST_EVF_NO_NAME,
};
