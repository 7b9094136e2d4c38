/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * khist_user_events.h - khist's copy of the user_events interface: how a
 * program registers its own events on khist's user_events_data file and
 * writes records to them. The names, layouts and ioctl numbers are those
 * of the Linux 6.4+ interface, so a program written for the kernel's
 * user_events builds against this header and runs unchanged on khist
 * (Documentation/user_events.rst). Written for khist from the documented
 * interface.
 */
#ifndef _UAPI_KHIST_USER_EVENTS_H
#define _UAPI_KHIST_USER_EVENTS_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* The system registered events appear under: events/user_events/. */
#define USER_EVENTS_SYSTEM "user_events"
/* The system of USER_EVENT_REG_MULTI_FORMAT events: <name>.<hex id>. */
#define USER_EVENTS_MULTI_SYSTEM "user_events_multi"
/* What the kernel prefixes to the names of its user_events. */
#define USER_EVENTS_PREFIX "u:"

/*
 * A dynamic location: the length of the data in the high 16 bits, its
 * offset in the low 16 (__data_loc: from the start of the record;
 * __rel_loc: from the end of the 4-byte location word itself).
 */
#define DYN_LOC(offset, size) ((size) << 16 | (offset))

/**
 * enum user_reg_flag - flags of struct user_reg
 * @USER_EVENT_REG_PERSIST:      the event stays after its last
 *                               registration goes (needs CAP_PERFMON);
 *                               remove it with DIAG_IOCSDEL or "!u:name"
 * @USER_EVENT_REG_MULTI_FORMAT: one event per distinct format under
 *                               user_events_multi/<name>.<hex id>
 * @USER_EVENT_REG_MAX:          the first value that is not a flag
 */
enum user_reg_flag {
	USER_EVENT_REG_PERSIST = 1U << 0,
	USER_EVENT_REG_MULTI_FORMAT = 1U << 1,
	USER_EVENT_REG_MAX = 1U << 2,
};

/**
 * struct user_reg - the argument of DIAG_IOCSREG
 * @size:        sizeof(struct user_reg) as the caller knows it
 * @enable_bit:  which bit of the word at @enable_addr khist sets while the
 *               event has a consumer and clears when it has none
 * @enable_size: that word's size: 4, or 8
 * @flags:       USER_EVENT_REG_* bits
 * @enable_addr: the word's address in the caller's memory, aligned to
 *               @enable_size
 * @name_args:   address of the NUL-terminated command
 *               "name[:flags] [type field[;type field]...]"
 * @write_index: out: the first 4 bytes of every write() of a record of
 *               this event on the same file
 */
struct user_reg {
	__u32 size;
	__u8 enable_bit;
	__u8 enable_size;
	__u16 flags;
	__u64 enable_addr;
	__u64 name_args;
	__u32 write_index;
} __attribute__((__packed__));

/**
 * struct user_unreg - the argument of DIAG_IOCSUNREG
 * @size:         sizeof(struct user_unreg) as the caller knows it
 * @disable_bit:  the @enable_bit given at registration
 * @__reserved:   0
 * @__reserved2:  0
 * @disable_addr: the @enable_addr given at registration
 */
struct user_unreg {
	__u32 size;
	__u8 disable_bit;
	__u8 __reserved;
	__u16 __reserved2;
	__u64 disable_addr;
} __attribute__((__packed__));

/* The ioctls of user_events_data; their numbers carry a pointer's size. */
#define DIAG_IOC_MAGIC '*'
/* Register an event (or take one more registration of it). */
#define DIAG_IOCSREG _IOWR(DIAG_IOC_MAGIC, 0, struct user_reg *)
/* Delete the event named by the argument (a string); EBUSY while used. */
#define DIAG_IOCSDEL _IOW(DIAG_IOC_MAGIC, 1, char *)
/* Drop the registration of (disable_addr, disable_bit) of this process. */
#define DIAG_IOCSUNREG _IOW(DIAG_IOC_MAGIC, 2, struct user_unreg *)

#endif /* _UAPI_KHIST_USER_EVENTS_H */
