// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - ftrace/print, the event trace_marker writes: the address of
 * the writer and the text, always recorded (it has no enable file);
 * ftrace/raw_data, the event trace_marker_raw writes: a 4-byte id and the
 * bytes after it; and khist_snapshot_trigger(), which writes its notes as
 * ftrace/print records.
 */
#include <linux/ring_buffer.h>
#include "base/instance.h"
#include "buffer/buffer.h"
#include "buffer/snapshot.h"
#include "events/events.h"

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

static struct khist_field_desc khist_raw_data_fields[] = {
	{ "id", "unsigned int", 8, 4, 0, KHIST_FK_INT, 4 },
	{ "buf", "char[]", 12, 0, is_signed_type(char), KHIST_FK_STRING, 1 },
};

/*
 * As ftrace shows a raw_data record: the id in hex, then every byte of
 * the record after it, the padding of its end included (zeroed by the
 * writer), in hex.
 */
static void khist_raw_data_print(struct khist_print_ctx *p)
{
	const unsigned char *data = (const unsigned char *)p->rec + 12;
	unsigned int i;

	khist_out_printf(p->out, "# %x buf:", *(const u32 *)(p->rec + 8));
	for (i = 0; i + 12 < p->size; i++)
		khist_out_printf(p->out, " %02x", data[i]);
}

struct khist_event_def khist_raw_data_def = {
	.system = "ftrace",
	.name = "raw_data",
	.fields = khist_raw_data_fields,
	.nr_fields = ARRAY_SIZE(khist_raw_data_fields),
	.rec_size = 12,
	.print_fmt = "\"id:%04x %08x\", REC->id, (int)REC->buf[0]",
	.print = khist_raw_data_print,
	.reg = khist_print_reg,
	.fixed_id = 18,
	.flags = KHIST_EVF_IGNORE_ENABLE | KHIST_EVF_NO_NAME |
		 KHIST_EVF_NO_TRIGGERS,
};

/* Write @text into the instance's buffer as an ftrace/print record. */
static void khist_snapshot_note(struct khist_instance *inst, const char *text)
{
	size_t len = strlen(text);
	struct khist_rec_ctx ctx;
	struct khist_event *ev;
	char *rec;

	ev = READ_ONCE(inst->print_ev);
	if (!ev)
		return;
	rec = khist_rec_reserve_ev(&ctx, ev,
				   khist_print_def.rec_size + len + 1);
	if (!rec)
		return;
	*(unsigned long *)(rec + sizeof(struct khist_common_hdr)) =
		(unsigned long)khist_snapshot_trigger;
	memcpy(rec + khist_print_def.rec_size, text, len + 1);
	khist_rec_commit_quiet(&ctx);
}

/**
 * khist_snapshot_trigger() - take a snapshot of an instance's buffer
 * @inst: the instance
 *
 * As ftrace's snapshot trigger: when the snapshot is not allocated (it was
 * freed after the trigger was set), two notes go into the buffer and
 * tracing stops, so that what led there is kept.
 *
 * Context: any (NMI included), preemption disabled.
 */
void khist_snapshot_trigger(struct khist_instance *inst)
{
	struct khist_buffer *buf = READ_ONCE(inst->buf);

	if (!buf || khist_snapshot_swap(buf) != KHIST_SWAP_UNALLOCATED)
		return;
	khist_snapshot_note(inst, "*** SNAPSHOT NOT ALLOCATED ***\n");
	khist_snapshot_note(inst, "*** stopping trace here!   ***\n");
	ring_buffer_record_off(READ_ONCE(buf->rb));
	WRITE_ONCE(buf->on, 0);
}
