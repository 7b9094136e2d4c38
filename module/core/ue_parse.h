/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ue_parse.h - the command of a user-space event (user_events): what a
 * program registers with DIAG_IOCSREG or writes as a u: line of
 * `dynamic_events`, "name[:flags] [type field[;type field]...]".
 *
 * Types: s8 u8 s16 u16 s32 u32 s64 u64, char, unsigned char, short,
 * unsigned short, int, unsigned int, char[N] and unsigned char[N]
 * (1 <= N <= 1024, decimal or 0x), "__data_loc T" and "__rel_loc T"
 * (a 4-byte locator, (length << 16) | offset; T a char[] is a string),
 * and "struct T name SIZE". Fields are packed in order after the 8-byte
 * common header, without padding; a field is signed when its type does
 * not start with 'u'.
 *
 * Portable core: no VFS, no locks.
 */
#ifndef _KHIST_CORE_UE_PARSE_H
#define _KHIST_CORE_UE_PARSE_H

#include "core_env.h"

/* Longest command, NUL included. */
#define KHIST_UE_CMD_MAX 512
/* Longest char[N]. */
#define KHIST_UE_ARRAY_MAX 1024

/* How a field's bytes are located. */
#define KHIST_UE_LOC_NONE 0
#define KHIST_UE_LOC_DATA 1 /* __data_loc: offset from the record start */
#define KHIST_UE_LOC_REL 2 /* __rel_loc: from the end of the locator */

/**
 * struct khist_ue_field - one field of a user-space event
 * @type:      its type as written ("u32", "char[16]", "__rel_loc char[]",
 *             "struct foo")
 * @name:      its name
 * @offset:    byte offset in the record, header included
 * @size:      bytes (4 for a locator)
 * @is_signed: the type does not start with 'u'
 * @loc:       KHIST_UE_LOC_*
 * @is_char:   a char array (char[N], or a locator of char[])
 * @is_struct: a "struct T name SIZE" field
 */
struct khist_ue_field {
	const char *type;
	const char *name;
	u16 offset;
	u16 size;
	u8 is_signed;
	u8 loc;
	u8 is_char;
	u8 is_struct;
};

/**
 * struct khist_ue_def - a parsed command
 * @name:       the event name
 * @nr_fields:  entries in @fields
 * @nr_locs:    fields with a locator
 * @fixed_size: bytes of the fixed part, the 8-byte header included
 * @fields:     the fields, in order
 * @size:       bytes of the allocation (what its owner charges)
 *
 * One allocation holds it all: free with khist_ue_def_free().
 */
struct khist_ue_def {
	const char *name;
	unsigned int nr_fields;
	unsigned int nr_locs;
	unsigned int fixed_size;
	struct khist_ue_field *fields;
	size_t size;
};

int khist_ue_parse(const char *cmd, unsigned int max_size,
		   struct khist_ue_def **out);
void khist_ue_def_free(struct khist_ue_def *def);
bool khist_ue_same(const struct khist_ue_def *a, const struct khist_ue_def *b);
int khist_ue_print_fmt(const struct khist_ue_def *def, char *buf, int len);
int khist_ue_show(const struct khist_ue_def *def, char *buf, int len);
int khist_ue_validate(const struct khist_ue_def *def, const void *rec,
		      unsigned int size);
const char *khist_ue_num_fmt(const struct khist_ue_field *f);

#endif /* _KHIST_CORE_UE_PARSE_H */
