/* SPDX-License-Identifier: GPL-2.0 */
/*
 * user_events_abi.h - the user_events registration ABI as khist-trace2
 * needs it, written from the layout documented for Linux 6.4 and later
 * (Documentation/trace/user_events.rst of the 6.12 source): a packed
 * registration and unregistration structure and three ioctls on the
 * user_events_data file.
 *
 * Temporary: issue 22 part 1 ships khist's own uapi header for these
 * structures (include/uapi/...); this file is then replaced by it.
 */
#ifndef KHIST_TRACE2_USER_EVENTS_ABI_H
#define KHIST_TRACE2_USER_EVENTS_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

/* The system every registered event appears in. */
#define T2_UE_SYSTEM "user_events"

/* Registration flags (struct t2_ue_reg.flags). */
#define T2_UE_REG_PERSIST (1U << 0)
#define T2_UE_REG_MULTI_FORMAT (1U << 1)

/*
 * struct t2_ue_reg - DIAG_IOCSREG argument: 28 bytes, packed.
 * @size: sizeof(struct t2_ue_reg)
 * @enable_bit: bit the kernel sets at @enable_addr while the event has
 *	any consumer
 * @enable_size: 4 or 8, the size of the word at @enable_addr
 * @flags: T2_UE_REG_* or 0
 * @enable_addr: naturally aligned, writable address of that word
 * @name_args: address of "name field;field;..." (under 512 bytes)
 * @write_index: out: the index a write on this file starts with
 */
struct t2_ue_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((__packed__));

/*
 * struct t2_ue_unreg - DIAG_IOCSUNREG argument: 16 bytes, packed.
 * @size: sizeof(struct t2_ue_unreg)
 * @disable_bit: the bit given at registration
 * @reserved: 0
 * @reserved2: 0
 * @disable_addr: the address given at registration
 */
struct t2_ue_unreg {
	uint32_t size;
	uint8_t disable_bit;
	uint8_t reserved;
	uint16_t reserved2;
	uint64_t disable_addr;
} __attribute__((__packed__));

/* The ioctl numbers encode the size of a pointer, not of the structure. */
#define T2_UE_IOC_MAGIC '*'
#define T2_DIAG_IOCSREG _IOWR(T2_UE_IOC_MAGIC, 0, struct t2_ue_reg *)
#define T2_DIAG_IOCSDEL _IOW(T2_UE_IOC_MAGIC, 1, char *)
#define T2_DIAG_IOCSUNREG _IOW(T2_UE_IOC_MAGIC, 2, struct t2_ue_unreg *)

/*
 * A __rel_loc field holds (length << 16) | offset, the offset counted from
 * the end of the 4-byte field itself (__data_loc: from the record start).
 */
#define T2_UE_LOC(off, len) (((uint32_t)(len) << 16) | (uint32_t)(off))

/* Longest registration command the kernel accepts, NUL included. */
#define T2_UE_CMD_MAX 512

_Static_assert(sizeof(struct t2_ue_reg) == 28, "user_reg layout");
_Static_assert(sizeof(struct t2_ue_unreg) == 16, "user_unreg layout");

#endif
