/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eprobe_parse.h - event probes: the `e:` lines of `dynamic_events`.
 *
 *   e[:[<group>/][<event>]] <system>.<event> [<args>] [if <filter>]
 *
 * An event probe is an event of its own (events/<group>/<event>/, group
 * "eprobes" by default) fired each time the event it is attached to is
 * hit, with a record holding only its arguments: values fetched from the
 * attached event's fields ($field), the task name ($comm), constants
 * (\imm, \"text") and memory reached from them (+|-[u]<offs>(<arg>),
 * @<address>), stored as numbers, characters, symbols or strings.
 *
 * Portable core: this file parses a line into a struct khist_ep_def (the
 * argument list, the record layout, the format and listing texts) and
 * reports errors as data (ftrace's texts and caret positions, 6.12
 * dialect); module/eprobe/ registers the event and runs the fetches.
 *
 * Record layout (ftrace's): the 8-byte common header, then each argument
 * at its offset in definition order (its type's size, times the array
 * length), then the bytes of the string arguments, each a u32 locator
 * (length << 16 | offset from the record start) in its slot.
 */
#ifndef _KHIST_CORE_EPROBE_PARSE_H
#define _KHIST_CORE_EPROBE_PARSE_H

#include "core_env.h"
#include "schema.h"

#define KHIST_EP_SYSTEM "eprobes"
/* Bounds of the kernel's probe parser. */
#define KHIST_EP_NAME_MAX 64 /* group and event names, NUL included */
#define KHIST_EP_ARGS_MAX 128 /* arguments per probe */
#define KHIST_EP_ARGSTR_MAX 63 /* an argument's text after '=' */
#define KHIST_EP_ARGNAME_MAX 32 /* an argument's name */
#define KHIST_EP_ARRAY_MAX 64 /* elements of an array argument */
#define KHIST_EP_FIXED_MAX 3072 /* bytes of the arguments' slots */
#define KHIST_EP_INSN_MAX 16 /* fetch steps of one argument */
#define KHIST_EP_HDR_SIZE 8

/**
 * enum khist_ep_errcode - why a line was refused (the texts are ftrace's,
 * see khist_ep_err_text())
 * @KHIST_EPERR_NONE:             no error
 * @KHIST_EPERR_NO_GROUP_NAME:    a '/' or '.' with nothing before it
 * @KHIST_EPERR_GROUP_TOO_LONG:   group name of 64 bytes or more
 * @KHIST_EPERR_BAD_GROUP_NAME:   group name not made of [A-Za-z0-9_]
 * @KHIST_EPERR_NO_EVENT_NAME:    "e:" with no name
 * @KHIST_EPERR_EVENT_TOO_LONG:   event name of 64 bytes or more
 * @KHIST_EPERR_BAD_EVENT_NAME:   event name not a C identifier
 * @KHIST_EPERR_EVENT_EXIST:      group/event already taken
 * @KHIST_EPERR_BAD_VAR:          unknown $-variable
 * @KHIST_EPERR_BAD_MEM_ADDR:     @<address> is no number
 * @KHIST_EPERR_BAD_IMM:          \<imm> is no number
 * @KHIST_EPERR_IMMSTR_NO_CLOSE:  \"text without its closing quote
 * @KHIST_EPERR_FILE_ON_KPROBE:   @+<file offset>
 * @KHIST_EPERR_TOO_MANY_OPS:     too many fetch steps
 * @KHIST_EPERR_DEREF_NEED_BRACE: +<offs> without '('
 * @KHIST_EPERR_BAD_DEREF_OFFS:   +<offs>( with a bad number
 * @KHIST_EPERR_DEREF_OPEN_BRACE: +<offs>( without ')'
 * @KHIST_EPERR_COMM_CANT_DEREF:  dereference of $comm or \"text"
 * @KHIST_EPERR_BAD_FETCH_ARG:    nothing to fetch
 * @KHIST_EPERR_ARRAY_NO_CLOSE:   :type[N without ']'
 * @KHIST_EPERR_BAD_ARRAY_SUFFIX: text after ']'
 * @KHIST_EPERR_BAD_ARRAY_NUM:    bad array length
 * @KHIST_EPERR_ARRAY_TOO_BIG:    array length above 64
 * @KHIST_EPERR_BAD_TYPE:         unknown type
 * @KHIST_EPERR_BAD_STRING:       string (or array) of something that is
 *                                not memory
 * @KHIST_EPERR_BAD_SYMSTRING:    symstr of something that is no address
 * @KHIST_EPERR_BAD_BITFIELD:     bad b<width>@<offset>/<size>
 * @KHIST_EPERR_ARG_NAME_TOO_LONG: argument name above 32 bytes
 * @KHIST_EPERR_NO_ARG_NAME:      "=<arg>"
 * @KHIST_EPERR_BAD_ARG_NAME:     argument name not a C identifier
 * @KHIST_EPERR_USED_ARG_NAME:    argument name reserved or taken
 * @KHIST_EPERR_ARG_TOO_LONG:     argument text above 63 bytes
 * @KHIST_EPERR_NO_ARG_BODY:      "<name>=" and nothing else
 * @KHIST_EPERR_NO_EVENT_INFO:    no <system>.<event> to attach to
 * @KHIST_EPERR_BAD_ATTACH_EVENT: the event to attach to does not exist
 * @KHIST_EPERR_NO_EP_FILTER:     "if" and nothing after it
 * @KHIST_EPERR_NOSUP_BTFARG:     a bare name (a BTF argument elsewhere)
 * @KHIST_EPERR_EVENT_TOO_BIG:    the arguments take more than 3072 bytes
 * @KHIST_EPERR_NO_SYMBOLS:       @<symbol>: khist cannot look symbols up
 * @KHIST_EPERR_BAD_MAXACT_TYPE:  r<N> on a p: line
 * @KHIST_EPERR_BAD_MAXACT:       bad maxactive number
 * @KHIST_EPERR_MAXACT_TOO_BIG:   maxactive above 4096
 * @KHIST_EPERR_BAD_PROBE_ADDR:   bad symbol+offset, or no such symbol
 * @KHIST_EPERR_BAD_RETPROBE:     a return probe not on a function entry
 * @KHIST_EPERR_BAD_ADDR_SUFFIX:  %<word> other than %return
 * @KHIST_EPERR_RETVAL_ON_PROBE:  $retval on an entry probe
 * @KHIST_EPERR_BAD_STACK_NUM:    $stackN too deep
 * @KHIST_EPERR_BAD_ARG_NUM:      $argN out of 1..2048
 * @KHIST_EPERR_BAD_REG_NAME:     %<reg> not a register
 * @KHIST_EPERR_NOFENTRY_ARGS:    $argN not at a function entry or exit
 * @KHIST_EPERR_BAD_INSN_BNDRY:   the address is inside an instruction
 * @KHIST_EPERR_FAIL_REG_PROBE:   the kernel refused the probe
 * @KHIST_EPERR_NEED_STRING_TYPE: $comm or \"text" of a type not string
 * @KHIST_EPERR_SAME_PROBE:       the same probe exists already
 * @KHIST_EPERR_FILE_NOT_FOUND:   uprobes: no such file
 * @KHIST_EPERR_NO_REGULAR_FILE:  uprobes: the path is no regular file
 * @KHIST_EPERR_BAD_REFCNT:       uprobes: bad reference counter offset
 * @KHIST_EPERR_REFCNT_OPEN_BRACE: uprobes: "(" without ")"
 * @KHIST_EPERR_BAD_REFCNT_SUFFIX: uprobes: text after the ")"
 * @KHIST_EPERR_BAD_UPROBE_OFFS:  uprobes: the offset is no number
 * @KHIST_EPERR_BAD_FILE_OFFS:    uprobes: @+<offset> is no number
 * @KHIST_EPERR_SYM_ON_UPROBE:    uprobes: @<symbol>
 * @KHIST_EPERR_COUNT:            number of codes
 */
enum khist_ep_errcode {
	KHIST_EPERR_NONE,
	KHIST_EPERR_NO_GROUP_NAME,
	KHIST_EPERR_GROUP_TOO_LONG,
	KHIST_EPERR_BAD_GROUP_NAME,
	KHIST_EPERR_NO_EVENT_NAME,
	KHIST_EPERR_EVENT_TOO_LONG,
	KHIST_EPERR_BAD_EVENT_NAME,
	KHIST_EPERR_EVENT_EXIST,
	KHIST_EPERR_BAD_VAR,
	KHIST_EPERR_BAD_MEM_ADDR,
	KHIST_EPERR_BAD_IMM,
	KHIST_EPERR_IMMSTR_NO_CLOSE,
	KHIST_EPERR_FILE_ON_KPROBE,
	KHIST_EPERR_TOO_MANY_OPS,
	KHIST_EPERR_DEREF_NEED_BRACE,
	KHIST_EPERR_BAD_DEREF_OFFS,
	KHIST_EPERR_DEREF_OPEN_BRACE,
	KHIST_EPERR_COMM_CANT_DEREF,
	KHIST_EPERR_BAD_FETCH_ARG,
	KHIST_EPERR_ARRAY_NO_CLOSE,
	KHIST_EPERR_BAD_ARRAY_SUFFIX,
	KHIST_EPERR_BAD_ARRAY_NUM,
	KHIST_EPERR_ARRAY_TOO_BIG,
	KHIST_EPERR_BAD_TYPE,
	KHIST_EPERR_BAD_STRING,
	KHIST_EPERR_BAD_SYMSTRING,
	KHIST_EPERR_BAD_BITFIELD,
	KHIST_EPERR_ARG_NAME_TOO_LONG,
	KHIST_EPERR_NO_ARG_NAME,
	KHIST_EPERR_BAD_ARG_NAME,
	KHIST_EPERR_USED_ARG_NAME,
	KHIST_EPERR_ARG_TOO_LONG,
	KHIST_EPERR_NO_ARG_BODY,
	KHIST_EPERR_NO_EVENT_INFO,
	KHIST_EPERR_BAD_ATTACH_EVENT,
	KHIST_EPERR_NO_EP_FILTER,
	KHIST_EPERR_NOSUP_BTFARG,
	KHIST_EPERR_EVENT_TOO_BIG,
	KHIST_EPERR_NO_SYMBOLS,
	KHIST_EPERR_BAD_MAXACT_TYPE,
	KHIST_EPERR_BAD_MAXACT,
	KHIST_EPERR_MAXACT_TOO_BIG,
	KHIST_EPERR_BAD_PROBE_ADDR,
	KHIST_EPERR_BAD_RETPROBE,
	KHIST_EPERR_BAD_ADDR_SUFFIX,
	KHIST_EPERR_RETVAL_ON_PROBE,
	KHIST_EPERR_BAD_STACK_NUM,
	KHIST_EPERR_BAD_ARG_NUM,
	KHIST_EPERR_BAD_REG_NAME,
	KHIST_EPERR_NOFENTRY_ARGS,
	KHIST_EPERR_BAD_INSN_BNDRY,
	KHIST_EPERR_FAIL_REG_PROBE,
	KHIST_EPERR_NEED_STRING_TYPE,
	KHIST_EPERR_SAME_PROBE,
	KHIST_EPERR_FILE_NOT_FOUND,
	KHIST_EPERR_NO_REGULAR_FILE,
	KHIST_EPERR_BAD_REFCNT,
	KHIST_EPERR_REFCNT_OPEN_BRACE,
	KHIST_EPERR_BAD_REFCNT_SUFFIX,
	KHIST_EPERR_BAD_UPROBE_OFFS,
	KHIST_EPERR_BAD_FILE_OFFS,
	KHIST_EPERR_SYM_ON_UPROBE,
	KHIST_EPERR_COUNT
};

/**
 * enum khist_ep_print - how a value is shown in `trace`
 * @KHIST_EPP_UNSIGNED: decimal
 * @KHIST_EPP_SIGNED:   signed decimal
 * @KHIST_EPP_HEX:      0x and hex digits
 * @KHIST_EPP_CHAR:     'c'
 * @KHIST_EPP_SYMBOL:   symbol+offset/size
 * @KHIST_EPP_STRING:   "text", or (fault) when it could not be read
 */
enum khist_ep_print {
	KHIST_EPP_UNSIGNED,
	KHIST_EPP_SIGNED,
	KHIST_EPP_HEX,
	KHIST_EPP_CHAR,
	KHIST_EPP_SYMBOL,
	KHIST_EPP_STRING,
};

/**
 * struct khist_ep_type - a fetch type (":u32", ":string", ...)
 * @name:      as written after ':'
 * @fmttype:   the field's type in `format`
 * @fmt:       its conversion in the print fmt
 * @size:      bytes of its slot
 * @is_signed: signed
 * @print:     enum khist_ep_print
 */
struct khist_ep_type {
	const char *name;
	const char *fmttype;
	const char *fmt;
	u8 size;
	u8 is_signed;
	u8 print;
};

/**
 * enum khist_ep_src - where an argument's value starts
 * @KHIST_EPS_FIELD: a field of the attached event's record
 * @KHIST_EPS_COMM:  the address of the current task's name
 * @KHIST_EPS_IMM:   a constant
 * @KHIST_EPS_DATA:  the address of a constant string
 * @KHIST_EPS_REG:   a register of the probed context (@field: its byte
 *                   offset in the saved registers)
 * @KHIST_EPS_ARG:   function argument @field (from 0) at a function entry
 * @KHIST_EPS_EDATA: function argument saved at entry by a return probe
 *                   (@field: its slot in the saved ones)
 * @KHIST_EPS_RETVAL: the return value
 * @KHIST_EPS_STACK: entry @field of the kernel stack
 * @KHIST_EPS_STACKP: the stack pointer
 * @KHIST_EPS_USTACK: entry @field of the user stack (uprobes)
 * @KHIST_EPS_FOFFS: uprobes: the address where offset @imm of the probed
 *                   file is mapped in the probed process
 */
enum khist_ep_src {
	KHIST_EPS_FIELD,
	KHIST_EPS_COMM,
	KHIST_EPS_IMM,
	KHIST_EPS_DATA,
	KHIST_EPS_REG,
	KHIST_EPS_ARG,
	KHIST_EPS_EDATA,
	KHIST_EPS_RETVAL,
	KHIST_EPS_STACK,
	KHIST_EPS_STACKP,
	KHIST_EPS_USTACK,
	KHIST_EPS_FOFFS,
};

/**
 * enum khist_ep_kind - what a definition probes
 * @KHIST_EPK_EVENT:     another event (e: lines)
 * @KHIST_EPK_KPROBE:    a kernel address (p: lines)
 * @KHIST_EPK_KRETPROBE: a kernel function's return (r: lines)
 * @KHIST_EPK_UPROBE:    an offset in a file (p: lines with PATH:OFFSET)
 * @KHIST_EPK_URETPROBE: the return of the function there (r: lines)
 */
enum khist_ep_kind {
	KHIST_EPK_EVENT,
	KHIST_EPK_KPROBE,
	KHIST_EPK_KRETPROBE,
	KHIST_EPK_UPROBE,
	KHIST_EPK_URETPROBE,
};

#define KHIST_UP_SYSTEM "uprobes"

#define KHIST_KP_SYSTEM "kprobes"
#define KHIST_KP_MAXACTIVE_MAX 4096
/* $argN and $stackN bound: a 16 KiB kernel stack of longs (x86_64). */
#define KHIST_KP_PARAM_MAX 2048
/* Function arguments a return probe can save at entry. */
#define KHIST_KP_ENTRY_MAX 16

/**
 * enum khist_ep_store - what ends in the argument's slot
 * @KHIST_EPST_RAW:    the value itself, cut to the type's size
 * @KHIST_EPST_MEM:    the type's size of memory at value + offset
 * @KHIST_EPST_STRING: the string at value + offset (dynamic)
 * @KHIST_EPST_SYMSTR: the name of the symbol at value (dynamic)
 */
enum khist_ep_store {
	KHIST_EPST_RAW,
	KHIST_EPST_MEM,
	KHIST_EPST_STRING,
	KHIST_EPST_SYMSTR,
};

/**
 * struct khist_ep_load - one dereference: value = *(long *)(value + @offset)
 * @offset: bytes added first
 * @user:   user memory
 */
struct khist_ep_load {
	long offset;
	bool user;
};

/**
 * struct khist_ep_arg - one argument
 * @name:      its field name
 * @text:      what was written after '=' (listing, removal match)
 * @type:      its type
 * @ftype:     its field type in `format` ("u32", "u8[4]", ...)
 * @count:     array length, 0 for a single value
 * @offset:    offset of its slot from the record start
 * @src:       enum khist_ep_src
 * @field:     KHIST_EPS_FIELD: index in the attached event's fields
 * @imm:       KHIST_EPS_IMM: the constant
 * @data:      KHIST_EPS_DATA: the string (owned)
 * @nr_loads:  dereferences applied to the value, in order
 * @loads:     the dereferences
 * @store:     enum khist_ep_store
 * @store_user: KHIST_EPST_MEM, KHIST_EPST_STRING: user memory
 * @store_offset: added to the value before the store reads memory
 * @bf_lshift: bitfield: shifts applied to the stored value (0, 0: none)
 * @bf_rshift: see @bf_lshift
 * @bitfield:  a bitfield type was given
 */
struct khist_ep_arg {
	char *name;
	char *text;
	const struct khist_ep_type *type;
	char *ftype;
	unsigned int count;
	unsigned int offset;
	u8 src;
	unsigned int field;
	u64 imm;
	char *data;
	unsigned int nr_loads;
	struct khist_ep_load loads[KHIST_EP_INSN_MAX];
	u8 store;
	bool store_user;
	long store_offset;
	u8 bf_lshift;
	u8 bf_rshift;
	bool bitfield;
};

/**
 * struct khist_ep_def - a parsed e: line
 * @group:     group (events/<group>/)
 * @event:     event name
 * @system:    system of the attached event
 * @target:    name of the attached event
 * @filter:    the text after "if" (words joined by one blank), or NULL
 * @nr_args:   arguments
 * @args:      the arguments
 * @fixed_size: bytes of the fixed part, header included
 * @dynamic:   some argument is a string
 * @kind:      enum khist_ep_kind
 * @symbol:    kprobes: the probed symbol ("[mod:]sym"), NULL for an address
 * @offset:    kprobes: bytes after @symbol
 * @addr:      kprobes: the probed address when no @symbol
 * @maxactive: kretprobes: the r<N> given, 0 for the default
 * @hdr_size:  bytes before the first argument: the common header, then
 *             __probe_ip (kprobes) or __probe_func and __probe_ret_ip
 * @nr_entry:  kretprobes: function arguments saved at entry
 * @entry:     their numbers (from 0)
 * @path:      uprobes: the probed file, as written (@offset: the offset
 *             in it)
 * @ref_ctr:   uprobes: the offset of the reference counter (0: none)
 */
struct khist_ep_def {
	char *group;
	char *event;
	char *system;
	char *target;
	char *filter;
	unsigned int nr_args;
	struct khist_ep_arg *args;
	unsigned int fixed_size;
	bool dynamic;
	u8 kind;
	char *symbol;
	unsigned long offset;
	u64 addr;
	unsigned int maxactive;
	unsigned int hdr_size;
	unsigned int nr_entry;
	u16 entry[KHIST_KP_ENTRY_MAX];
	char *path;
	unsigned long ref_ctr;
};

/**
 * khist_ep_is_ret() - does the definition probe a function's return?
 * @def: the definition
 *
 * Context: any.
 * Return: true for kretprobes and uretprobes.
 */
static inline bool khist_ep_is_ret(const struct khist_ep_def *def)
{
	return def->kind == KHIST_EPK_KRETPROBE ||
	       def->kind == KHIST_EPK_URETPROBE;
}

/**
 * khist_ep_is_user() - does the definition probe user code?
 * @def: the definition
 *
 * Context: any.
 * Return: true for uprobes and uretprobes.
 */
static inline bool khist_ep_is_user(const struct khist_ep_def *def)
{
	return def->kind == KHIST_EPK_UPROBE ||
	       def->kind == KHIST_EPK_URETPROBE;
}

/* Two errors at most: the kernel logs a second one after a few. */
#define KHIST_EP_ERRS 2

/**
 * struct khist_ep_cmd - the result of khist_ep_parse()
 * @def:    the definition (on success; the caller takes it)
 * @cmd:    the line as ftrace logs it (words joined by one blank), or NULL
 * @nr_err: errors to log, in order
 * @err:    their enum khist_ep_errcode
 * @pos:    their caret positions in @cmd
 */
struct khist_ep_cmd {
	struct khist_ep_def *def;
	char *cmd;
	unsigned int nr_err;
	int err[KHIST_EP_ERRS];
	unsigned int pos[KHIST_EP_ERRS];
};

/**
 * struct khist_ep_finder - how the parser finds the event to attach to
 * @find: gives the schema of the event @system/@event (its own fields
 *        only), or NULL when there is none or it cannot carry a probe
 * @arg:  passed to @find
 * @reg:  kprobes: the byte offset of register @name in the saved
 *        registers, or a negative value when there is no such register
 * @symbol: kprobes: the address of @name ("sym[+-offs]") in *@addr; 0 or
 *        -ENOENT (NULL: @<symbol> is refused)
 * @file: uprobes: 0 when @path is a regular file, -ENOENT when there is
 *        no such file, another negative errno when it is not regular
 */
struct khist_ep_finder {
	const struct khist_event_schema *(*find)(const char *system,
						 const char *event, void *arg);
	void *arg;
	int (*reg)(const char *name);
	int (*symbol)(const char *name, u64 *addr);
	int (*file)(const char *path);
};

int khist_ep_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd);
int khist_kp_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd);
int khist_up_parse(const char *line, const struct khist_ep_finder *finder,
		   struct khist_ep_cmd *cmd);
unsigned int khist_ep_nr_fields(const struct khist_ep_def *def);
void khist_ep_cmd_release(struct khist_ep_cmd *cmd);
void khist_ep_def_free(struct khist_ep_def *def);
void khist_ep_set_error(struct khist_ep_cmd *cmd, int err, unsigned int pos);
const char *khist_ep_err_text(int err);
const struct khist_ep_type *khist_ep_find_type(const char *name);
int khist_ep_print_fmt(const struct khist_ep_def *def, char *buf, size_t size);
int khist_ep_show(const struct khist_ep_def *def, char *buf, size_t size);
void khist_ep_fields(const struct khist_ep_def *def,
		     struct khist_field_desc *descs);
bool khist_ep_match(const struct khist_ep_def *def, const char *system,
		    const char *event, int argc, const char *const *argv);

#endif /* _KHIST_CORE_EPROBE_PARSE_H */
