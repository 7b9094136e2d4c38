// SPDX-License-Identifier: GPL-2.0
/*
 * eprobe_kunit.c - tests of the event probe parser: every error with its
 * caret (the cases of ftrace's selftest eprobes_syntax_errors.tc first,
 * written as it writes them, '^' where the caret goes), the fetch each
 * argument compiles to, the record layout, the print fmt, the listing,
 * removal matching and allocation failures.
 */
#include <kunit/test.h>
#include "eprobe_parse.h"

/* syscalls/sys_enter_openat as khist serves it. */
static const struct khist_field_desc openat_fields[] = {
	{ "__syscall_nr", "int", 8, 4, 1, KHIST_FK_INT, 4 },
	{ "dfd", "int", 16, 8, 0, KHIST_FK_INT, 8 },
	{ "filename", "const char *", 24, 8, 0, KHIST_FK_PTRSTRING, 8 },
	{ "flags", "int", 32, 8, 0, KHIST_FK_INT, 8 },
	{ "mode", "umode_t", 40, 8, 0, KHIST_FK_INT, 8 },
};

static const struct khist_event_schema openat = {
	.system = "syscalls",
	.name = "sys_enter_openat",
	.fields = openat_fields,
	.nr_fields = ARRAY_SIZE(openat_fields),
	.rec_size = 48,
};

static const struct khist_event_schema *lookup(const char *system,
					       const char *event, void *arg)
{
	if (strcmp(system, openat.system) || strcmp(event, openat.name))
		return NULL;
	return &openat;
}

static const struct khist_ep_finder finder = { lookup, NULL };

#define EV "syscalls/sys_enter_openat"
#define EF "e:foo/bar " EV " "

static const struct ep_err_case {
	const char *line; /* '^' marks the caret; removed before parsing */
	int ret;
	int err;
	int err2; /* a second entry, at the same place */
} err_cases[] = {
	/* eprobes_syntax_errors.tc */
	{ "e ^a.", -EINVAL, KHIST_EPERR_NO_EVENT_INFO },
	{ "e ^.b", -EINVAL, KHIST_EPERR_NO_GROUP_NAME,
	  KHIST_EPERR_NO_EVENT_INFO },
	{ "e ^a.b", -ENODEV, KHIST_EPERR_BAD_ATTACH_EVENT },
	{ "e " EV " ^foo", -EINVAL, KHIST_EPERR_NOSUP_BTFARG },
	{ "e:^/bar " EV, -EINVAL, KHIST_EPERR_NO_GROUP_NAME },
	{ "e:^12345678901234567890123456789012345678901234567890123456789012345/bar " EV,
	  -EINVAL, KHIST_EPERR_GROUP_TOO_LONG },
	{ "e:^foo.1/bar " EV, -EINVAL, KHIST_EPERR_BAD_GROUP_NAME },
	{ "e:^ " EV, -EINVAL, KHIST_EPERR_NO_EVENT_NAME },
	{ "e:foo/^12345678901234567890123456789012345678901234567890123456789012345 " EV,
	  -EINVAL, KHIST_EPERR_EVENT_TOO_LONG },
	{ "e:foo/^bar.1 " EV, -EINVAL, KHIST_EPERR_BAD_EVENT_NAME },
	{ EF "arg=^dfd", -EINVAL, KHIST_EPERR_NOSUP_BTFARG },
	{ EF "arg=^$foo", -EINVAL, KHIST_EPERR_BAD_VAR },
	{ EF "if ^", -EINVAL, KHIST_EPERR_NO_EP_FILTER },
	/* names */
	{ "e:foo/bar ^" EV "x", -ENODEV, KHIST_EPERR_BAD_ATTACH_EVENT },
	{ "e:foo/bar ^sys_enter_openat", -EINVAL, KHIST_EPERR_NO_EVENT_INFO },
	{ "e:foo/bar ^syscalls/", -EINVAL, KHIST_EPERR_NO_EVENT_INFO },
	{ "e:foo/bar ^sys-calls/x", -EINVAL, KHIST_EPERR_BAD_GROUP_NAME,
	  KHIST_EPERR_NO_EVENT_INFO },
	{ "e:1foo/^2bar " EV, -EINVAL, KHIST_EPERR_BAD_EVENT_NAME },
	/* argument names */
	{ EF "^=$dfd", -EINVAL, KHIST_EPERR_NO_ARG_NAME },
	{ EF "^a-b=$dfd", -EINVAL, KHIST_EPERR_BAD_ARG_NAME },
	{ EF "^common_pid=$dfd", -EINVAL, KHIST_EPERR_USED_ARG_NAME },
	{ EF "a=$dfd ^a=$flags", -EINVAL, KHIST_EPERR_USED_ARG_NAME },
	{ EF "$dfd ^arg1=$flags", -EINVAL, KHIST_EPERR_USED_ARG_NAME },
	{ EF "^a23456789012345678901234567890123=$dfd", -EINVAL,
	  KHIST_EPERR_ARG_NAME_TOO_LONG },
	{ EF "a=^", -EINVAL, KHIST_EPERR_NO_ARG_BODY },
	{ EF
	  "a=^+0123456789012345678901234567890123456789012345678901234567890123($dfd)",
	  -E2BIG, KHIST_EPERR_ARG_TOO_LONG },
	/* fetches */
	{ EF "a=^%ax", -EINVAL, KHIST_EPERR_BAD_VAR,
	  KHIST_EPERR_BAD_FETCH_ARG },
	{ EF "a=^1", -EINVAL, KHIST_EPERR_BAD_FETCH_ARG },
	{ EF "a=^@jiffies", -EINVAL, KHIST_EPERR_NO_SYMBOLS },
	{ EF "a=^@+10", -EINVAL, KHIST_EPERR_FILE_ON_KPROBE },
	{ EF "a=^@12z", -EINVAL, KHIST_EPERR_BAD_MEM_ADDR },
	{ EF "a=\\^x", -EINVAL, KHIST_EPERR_BAD_IMM },
	{ EF "a=\\\"abc^", -EINVAL, KHIST_EPERR_IMMSTR_NO_CLOSE },
	{ EF "a=^+0$dfd", -EINVAL, KHIST_EPERR_DEREF_NEED_BRACE },
	{ EF "a=^+x($dfd)", -EINVAL, KHIST_EPERR_BAD_DEREF_OFFS },
	{ EF "a=+0($dfd^", -EINVAL, KHIST_EPERR_DEREF_OPEN_BRACE },
	{ EF "a=+0(^$comm)", -EINVAL, KHIST_EPERR_COMM_CANT_DEREF },
	{ EF "a=-8(^\\\"x\")", -EINVAL, KHIST_EPERR_COMM_CANT_DEREF },
	{ EF "a=+8(^$nope)", -EINVAL, KHIST_EPERR_BAD_VAR },
	/* the kernel's caret leaves the 'u' of "+u" out */
	{ EF "a=+u8^($nope)", -EINVAL, KHIST_EPERR_BAD_VAR },
	/* types */
	{ EF "a=$dfd:^u33", -EINVAL, KHIST_EPERR_BAD_TYPE },
	{ EF "a=$dfd:^", -EINVAL, KHIST_EPERR_BAD_TYPE },
	{ EF "a=$dfd:^b4@2", -EINVAL, KHIST_EPERR_BAD_TYPE },
	{ EF "a=$dfd:^b6@3/8", -EINVAL, KHIST_EPERR_BAD_BITFIELD },
	{ EF "a=$dfd:^b0@0/8", -EINVAL, KHIST_EPERR_BAD_BITFIELD },
	{ EF "a=$dfd:^bx@0/8", -EINVAL, KHIST_EPERR_BAD_BITFIELD },
	{ EF "a=+0($dfd):u8[4^", -EINVAL, KHIST_EPERR_ARRAY_NO_CLOSE },
	{ EF "a=+0($dfd):u8[4]^x", -EINVAL, KHIST_EPERR_BAD_ARRAY_SUFFIX },
	{ EF "a=+0($dfd):u8[^0]", -EINVAL, KHIST_EPERR_BAD_ARRAY_NUM },
	{ EF "a=+0($dfd):u8[^z]", -EINVAL, KHIST_EPERR_BAD_ARRAY_NUM },
	{ EF "a=+0($dfd):u8[^65]", -EINVAL, KHIST_EPERR_ARRAY_TOO_BIG },
	/* an array of what is not memory; the caret is the kernel's */
	{ EF "a=$dfd:^u8[4]", -EINVAL, KHIST_EPERR_BAD_STRING },
	{ EF "a=+0($dfd):sym^str[2]", -EINVAL, KHIST_EPERR_BAD_STRING },
	{ EF "a=$comm:^symstr", -EINVAL, KHIST_EPERR_BAD_SYMSTRING },
	/*
	 * After a dereference the kernel adds the type's offset to where the
	 * dereference's braces start, so the caret goes past the type.
	 */
	{ EF "a=+u0($dfd):sym^str", -EINVAL, KHIST_EPERR_BAD_SYMSTRING },
	{ EF "a=+0($dfd):b6@^3/8", -EINVAL, KHIST_EPERR_BAD_BITFIELD },
	/* the filter's word: past the end when there is none */
	{ EF "a=$dfd if ^", -EINVAL, KHIST_EPERR_NO_EP_FILTER },
	/* not an e: line */
	{ "p:foo do_fork", -ECANCELED },
	{ "e", -ECANCELED },
	{ "s:foo u64 x", -ECANCELED },
};

/* "a=" then "+0(" @n times around @inner, then @type */
static void nested(char *buf, unsigned int n, const char *inner,
		   const char *type)
{
	unsigned int i;
	char *p = buf;

	p += sprintf(p, "e:foo/bar %s a=", EV);
	for (i = 0; i < n; i++)
		p += sprintf(p, "+0(");
	p += sprintf(p, "%s", inner);
	for (i = 0; i < n; i++)
		*p++ = ')';
	sprintf(p, "%s", type);
}

#define ERR_FMT \
	"'%s': got ret %d err %d/%d pos %u, want ret %d err %d/%d pos %u"

static void ep_errors(struct kunit *test)
{
	const struct ep_err_case *c;
	struct khist_ep_cmd cmd;
	char line[256], *caret;
	unsigned int i, pos;
	int ret;

	for (i = 0; i < ARRAY_SIZE(err_cases); i++) {
		c = &err_cases[i];
		snprintf(line, sizeof(line), "%s", c->line);
		caret = strchr(line, '^');
		pos = caret ? caret - line : 0;
		if (caret)
			memmove(caret, caret + 1, strlen(caret));
		ret = khist_ep_parse(line, &finder, &cmd);
		if (ret != c->ret || (c->err && cmd.nr_err != 1 + !!c->err2) ||
		    (!c->err && cmd.nr_err) ||
		    (c->err && (cmd.err[0] != c->err || cmd.pos[0] != pos)) ||
		    (c->err2 && (cmd.err[1] != c->err2 || cmd.pos[1] != pos)))
			KUNIT_FAIL(test, ERR_FMT, line, ret, cmd.err[0],
				   cmd.err[1], cmd.pos[0], c->ret, c->err,
				   c->err2, pos);
		KUNIT_EXPECT_NULL(test, cmd.def);
		khist_ep_cmd_release(&cmd);
	}
}

/* What the kernel logs the line as: its words joined by one blank. */
static void ep_error_command(struct kunit *test)
{
	struct khist_ep_cmd cmd;
	int ret;

	ret = khist_ep_parse("  e:foo/bar\t" EV "   a=$nope  ", &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_STREQ(test, cmd.cmd, "e:foo/bar " EV " a=$nope");
	KUNIT_EXPECT_EQ(test, cmd.pos[0], strlen("e:foo/bar " EV " a="));
	khist_ep_cmd_release(&cmd);
}

/* A fetch has 15 steps: the source, its loads, the store, a bitfield. */
static void ep_deref_limit(struct kunit *test)
{
	unsigned int where = strlen("e:foo/bar " EV " a=+0(");
	struct khist_ep_cmd cmd;
	char line[256];
	int ret;

	/* @1 is a load of its own: 14 loads, the last one the store */
	nested(line, 13, "@1", "");
	ret = khist_ep_parse(line, &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret)
		KUNIT_EXPECT_EQ(test, cmd.def->args[0].nr_loads, 13);
	khist_ep_cmd_release(&cmd);

	nested(line, 14, "@1", "");
	ret = khist_ep_parse(line, &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, cmd.err[0], KHIST_EPERR_TOO_MANY_OPS);
	KUNIT_EXPECT_EQ(test, cmd.pos[0], where);
	khist_ep_cmd_release(&cmd);

	/* a symbol name needs a step of its own after the 14 loads */
	nested(line, 13, "@1", ":symstr");
	ret = khist_ep_parse(line, &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, cmd.err[0], KHIST_EPERR_TOO_MANY_OPS);
	KUNIT_EXPECT_EQ(test, cmd.pos[0], where);
	khist_ep_cmd_release(&cmd);

	/* and so does a bitfield */
	nested(line, 12, "@1", ":b1@0/8");
	ret = khist_ep_parse(line, &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, 0);
	khist_ep_cmd_release(&cmd);
	nested(line, 13, "@1", ":b1@0/8");
	ret = khist_ep_parse(line, &finder, &cmd);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, cmd.err[0], KHIST_EPERR_BAD_BITFIELD);
	khist_ep_cmd_release(&cmd);
}

/*
 * Lines and texts too long for one line of code. In want_fmt, "%@" stands
 * for ftrace's "%L" (which the style checker refuses in C strings).
 */
static const char fetch_line[] =
	"e:p syscalls/sys_enter_openat file=+0($filename):ustring f=$flags:x32 $dfd c=$comm:string x=+8(+0(-16($filename))):s16 k=+u4($filename):u8 n=\\-3:s8 s=\\\"hi\":string m=@4096:u32 b=$flags:b4@2/32 y=$filename:symstr";
static const char layout_line[] =
	"e:p syscalls/sys_enter_openat file=+0($filename):ustring f=$flags:x32 $dfd a=+8($filename):u16[3] c=$comm:char";
static const char want_fmt[] =
	"\" file=\\\"%s\\\" f=0x%x arg3=0x%@x a={%u,%u,%u} c='%c'\", __get_str(file), REC->f, REC->arg3, REC->a[0], REC->a[1], REC->a[2], REC->c";
static const char want_show[] =
	"e:eprobes/p syscalls.sys_enter_openat file=+0($filename):ustring f=$flags:x32 arg3=$dfd a=+8($filename):u16[3] c=$comm:char\n";
static const char alloc_line[] =
	"e:p syscalls/sys_enter_openat file=+0($filename):ustring f=$flags:x32 s=\\\"hi\":string if dfd == 1";

static const struct khist_ep_def *
parse_ok(struct kunit *test, struct khist_ep_cmd *cmd, const char *line)
{
	int ret = khist_ep_parse(line, &finder, cmd);

	if (ret)
		KUNIT_FAIL(test, "'%s': ret %d err %d (%s) pos %u", line, ret,
			   cmd->err[0], khist_ep_err_text(cmd->err[0]),
			   cmd->pos[0]);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, cmd->def);
	return cmd->def;
}

static void ep_names(struct kunit *test)
{
	const struct khist_ep_def *d;
	struct khist_ep_cmd cmd;

	d = parse_ok(test, &cmd, "e " EV);
	KUNIT_EXPECT_STREQ(test, d->group, "eprobes");
	KUNIT_EXPECT_STREQ(test, d->event, "sys_enter_openat");
	KUNIT_EXPECT_STREQ(test, d->system, "syscalls");
	KUNIT_EXPECT_STREQ(test, d->target, "sys_enter_openat");
	KUNIT_EXPECT_EQ(test, d->nr_args, 0);
	KUNIT_EXPECT_EQ(test, d->fixed_size, 8);
	khist_ep_cmd_release(&cmd);

	d = parse_ok(test, &cmd, "e:mygroup/ syscalls.sys_enter_openat");
	KUNIT_EXPECT_STREQ(test, d->group, "mygroup");
	KUNIT_EXPECT_STREQ(test, d->event, "sys_enter_openat");
	khist_ep_cmd_release(&cmd);

	d = parse_ok(test, &cmd, "e:open " EV " if dfd  ==   3");
	KUNIT_EXPECT_STREQ(test, d->group, "eprobes");
	KUNIT_EXPECT_STREQ(test, d->event, "open");
	KUNIT_EXPECT_STREQ(test, d->filter, "dfd == 3");
	khist_ep_cmd_release(&cmd);

	/* a group may start with a digit, an event may not */
	d = parse_ok(test, &cmd, "e:1g.ev " EV);
	KUNIT_EXPECT_STREQ(test, d->group, "1g");
	KUNIT_EXPECT_STREQ(test, d->event, "ev");
	khist_ep_cmd_release(&cmd);
}

static void ep_fetches(struct kunit *test)
{
	const struct khist_ep_def *d;
	const struct khist_ep_arg *a;
	struct khist_ep_cmd cmd;

	d = parse_ok(test, &cmd, fetch_line);
	KUNIT_ASSERT_EQ(test, d->nr_args, 11);
	a = &d->args[0]; /* the user string at filename + 0 */
	KUNIT_EXPECT_STREQ(test, a->name, "file");
	KUNIT_EXPECT_EQ(test, a->src, KHIST_EPS_FIELD);
	KUNIT_EXPECT_EQ(test, a->field, 2);
	KUNIT_EXPECT_EQ(test, a->nr_loads, 0);
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_STRING);
	KUNIT_EXPECT_TRUE(test, a->store_user);
	KUNIT_EXPECT_EQ(test, a->store_offset, 0);
	a = &d->args[1];
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_RAW);
	KUNIT_EXPECT_STREQ(test, a->type->name, "x32");
	a = &d->args[2]; /* unnamed: argN, a long in hex */
	KUNIT_EXPECT_STREQ(test, a->name, "arg3");
	KUNIT_EXPECT_STREQ(test, a->type->name, "x64");
	KUNIT_EXPECT_EQ(test, a->field, 1);
	a = &d->args[3];
	KUNIT_EXPECT_EQ(test, a->src, KHIST_EPS_COMM);
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_STRING);
	KUNIT_EXPECT_FALSE(test, a->store_user);
	a = &d->args[4]; /* two loads, then 2 bytes at +8 */
	KUNIT_EXPECT_EQ(test, a->nr_loads, 2);
	KUNIT_EXPECT_EQ(test, a->loads[0].offset, -16);
	KUNIT_EXPECT_EQ(test, a->loads[1].offset, 0);
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_MEM);
	KUNIT_EXPECT_EQ(test, a->store_offset, 8);
	a = &d->args[5];
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_MEM);
	KUNIT_EXPECT_TRUE(test, a->store_user);
	KUNIT_EXPECT_EQ(test, a->store_offset, 4);
	a = &d->args[6];
	KUNIT_EXPECT_EQ(test, a->src, KHIST_EPS_IMM);
	KUNIT_EXPECT_EQ(test, (long)a->imm, -3);
	a = &d->args[7];
	KUNIT_EXPECT_EQ(test, a->src, KHIST_EPS_DATA);
	KUNIT_EXPECT_STREQ(test, a->data, "hi");
	a = &d->args[8]; /* @addr: the u32 at that address */
	KUNIT_EXPECT_EQ(test, a->src, KHIST_EPS_IMM);
	KUNIT_EXPECT_EQ(test, a->imm, 4096);
	KUNIT_EXPECT_EQ(test, a->nr_loads, 0);
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_MEM);
	a = &d->args[9];
	KUNIT_EXPECT_STREQ(test, a->type->name, "u32");
	KUNIT_EXPECT_TRUE(test, a->bitfield);
	KUNIT_EXPECT_EQ(test, a->bf_lshift, 26);
	KUNIT_EXPECT_EQ(test, a->bf_rshift, 28);
	a = &d->args[10];
	KUNIT_EXPECT_EQ(test, a->store, KHIST_EPST_SYMSTR);
	khist_ep_cmd_release(&cmd);
}

static void ep_layout_and_texts(struct kunit *test)
{
	struct khist_field_desc descs[5];
	const struct khist_ep_def *d;
	struct khist_ep_cmd cmd;
	static char buf[512], want[512];
	int len;

	d = parse_ok(test, &cmd, layout_line);
	KUNIT_EXPECT_EQ(test, d->fixed_size, 8 + 4 + 4 + 8 + 6 + 1);
	KUNIT_EXPECT_TRUE(test, d->dynamic);
	khist_ep_fields(d, descs);
	KUNIT_EXPECT_STREQ(test, descs[0].type, "__data_loc char[]");
	KUNIT_EXPECT_EQ(test, descs[0].kind, KHIST_FK_DYNSTRING);
	KUNIT_EXPECT_EQ(test, descs[0].offset, 8);
	KUNIT_EXPECT_EQ(test, descs[0].size, 4);
	KUNIT_EXPECT_EQ(test, descs[0].is_signed, 1);
	KUNIT_EXPECT_STREQ(test, descs[1].type, "u32");
	KUNIT_EXPECT_EQ(test, descs[1].offset, 12);
	KUNIT_EXPECT_STREQ(test, descs[2].name, "arg3");
	KUNIT_EXPECT_STREQ(test, descs[2].type, "u64");
	KUNIT_EXPECT_EQ(test, descs[2].offset, 16);
	KUNIT_EXPECT_STREQ(test, descs[3].type, "u16[3]");
	KUNIT_EXPECT_EQ(test, descs[3].kind, KHIST_FK_ARRAY);
	KUNIT_EXPECT_EQ(test, descs[3].size, 6);
	KUNIT_EXPECT_EQ(test, descs[3].elem_size, 2);
	KUNIT_EXPECT_STREQ(test, descs[4].type, "u8");
	KUNIT_EXPECT_EQ(test, descs[4].offset, 30);

	len = khist_ep_print_fmt(d, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s", want_fmt);
	*strchr(want, '@') = 'L';
	KUNIT_EXPECT_STREQ(test, buf, want);
	KUNIT_EXPECT_EQ(test, len, strlen(buf));
	KUNIT_EXPECT_EQ(test, khist_ep_print_fmt(d, NULL, 0), len);

	len = khist_ep_show(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, want_show);
	KUNIT_EXPECT_EQ(test, khist_ep_show(d, NULL, 0), len);
	/* cut short, still terminated */
	khist_ep_show(d, buf, 10);
	KUNIT_EXPECT_STREQ(test, buf, "e:eprobes");
	khist_ep_cmd_release(&cmd);
}

static void ep_match(struct kunit *test)
{
	static const char *const attach[] = { "syscalls/sys_enter_openat" };
	static const char *const dot[] = { "syscalls.sys_enter_openat" };
	static const char *const other[] = { "syscalls.sys_exit_openat" };
	static const char *const full[] = { "syscalls/sys_enter_openat",
					    "file=+0($filename):ustring",
					    "f=$flags" };
	static const char *const wrong[] = { "syscalls/sys_enter_openat",
					     "file=+0($filename):string" };
	const struct khist_ep_def *d;
	struct khist_ep_cmd cmd;

	d = parse_ok(test, &cmd,
		     "e:p " EV " file=+0($filename):ustring f=$flags");
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "p", 0, NULL));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, "eprobes", "p", 0, NULL));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, "eprobes", "", 0, NULL));
	KUNIT_EXPECT_FALSE(test, khist_ep_match(d, "other", "p", 0, NULL));
	KUNIT_EXPECT_FALSE(test, khist_ep_match(d, NULL, "q", 0, NULL));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "p", 1, attach));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "p", 1, dot));
	KUNIT_EXPECT_FALSE(test, khist_ep_match(d, NULL, "p", 1, other));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "p", 3, full));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "p", 2, full));
	KUNIT_EXPECT_FALSE(test, khist_ep_match(d, NULL, "p", 2, wrong));
	khist_ep_cmd_release(&cmd);
}

static void ep_error_texts(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_STREQ(test, khist_ep_err_text(KHIST_EPERR_NONE), "");
	KUNIT_EXPECT_STREQ(test, khist_ep_err_text(KHIST_EPERR_COUNT), "");
	for (i = 1; i < KHIST_EPERR_COUNT; i++)
		KUNIT_EXPECT_GT(test, strlen(khist_ep_err_text(i)), 0);
	KUNIT_EXPECT_STREQ(test, khist_ep_err_text(KHIST_EPERR_BAD_VAR),
			   "Invalid $-variable specified");
	KUNIT_EXPECT_STREQ(test,
			   khist_ep_err_text(KHIST_EPERR_BAD_ATTACH_EVENT),
			   "Attached event does not exist");
}

static void ep_alloc_failures(struct kunit *test)
{
	struct khist_ep_cmd cmd;
	long live = kshim_live_allocations();
	int n, ret = -ENOMEM;

	for (n = 0; ret == -ENOMEM && n < 200; n++) {
		kshim_fail_after(n);
		ret = khist_ep_parse(alloc_line, &finder, &cmd);
		kshim_fail_after(-1);
		khist_ep_cmd_release(&cmd);
		KUNIT_EXPECT_EQ(test, kshim_live_allocations(), live);
	}
	KUNIT_EXPECT_GT(test, n, 1);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

/* ---- kprobes ----------------------------------------------------------- */

static int kp_reg(const char *name)
{
	if (!strcmp(name, "di"))
		return 112;
	if (!strcmp(name, "ax"))
		return 80;
	return -ENOENT;
}

static int kp_sym(const char *name, u64 *addr)
{
	if (strncmp(name, "jiffies", 7))
		return -ENOENT;
	*addr = 0xffffffff81000000ULL + (name[7] ? 8 : 0);
	return 0;
}

static const struct khist_ep_finder kfinder = { NULL, NULL, kp_reg, kp_sym };

#define KP "p:kp/e vfs_read "

static const struct ep_err_case kp_err_cases[] = {
	{ KP "^%bx", -EINVAL, KHIST_EPERR_BAD_REG_NAME },
	{ KP "x=^$retval", -EINVAL, KHIST_EPERR_RETVAL_ON_PROBE },
	{ "r:kp/e ^vfs_read+8", -EINVAL, KHIST_EPERR_BAD_RETPROBE },
	{ "p^5:kp/e vfs_read", -EINVAL, KHIST_EPERR_BAD_MAXACT_TYPE },
	{ "r^0:kp/e vfs_read", -EINVAL, KHIST_EPERR_BAD_MAXACT },
	{ "r^5000 vfs_read", -EINVAL, KHIST_EPERR_MAXACT_TOO_BIG },
	{ "p:kp/e vfs_read^%ret", -EINVAL, KHIST_EPERR_BAD_ADDR_SUFFIX },
	{ "p:kp/e ^vfs_read+x", -EINVAL, KHIST_EPERR_BAD_PROBE_ADDR },
	{ KP "^$stack9999", -EINVAL, KHIST_EPERR_BAD_STACK_NUM },
	{ KP "^$stackx", -EINVAL, KHIST_EPERR_BAD_VAR },
	{ KP "^$arg0", -EINVAL, KHIST_EPERR_BAD_ARG_NUM },
	{ "p:kp/e vfs_read+8 ^$arg1", -EINVAL, KHIST_EPERR_NOFENTRY_ARGS },
	{ KP "%di:^string", -EINVAL, KHIST_EPERR_BAD_STRING },
	{ KP "$stack:^symstr", -EINVAL, KHIST_EPERR_BAD_SYMSTRING },
	{ KP "$comm:^u32", -EINVAL, KHIST_EPERR_NEED_STRING_TYPE },
	{ KP "x=+0(^$comm)", -EINVAL, KHIST_EPERR_COMM_CANT_DEREF },
	{ "p:kp/e ^vfs_read x=@nosuch", -ENOENT, KHIST_EPERR_BAD_PROBE_ADDR },
	{ KP "x=^@+8", -EINVAL, KHIST_EPERR_FILE_ON_KPROBE },
	{ "p:^/e vfs_read", -EINVAL, KHIST_EPERR_NO_GROUP_NAME },
	{ "p:kp/^1e vfs_read", -EINVAL, KHIST_EPERR_BAD_EVENT_NAME },
	{ "/bin/sh:0x10", -ECANCELED, 0 },
	{ "p /bin/sh:0x10", -ECANCELED, 0 },
};

static void kp_errors(struct kunit *test)
{
	const struct ep_err_case *c;
	struct khist_ep_cmd cmd;
	char line[256], *caret;
	unsigned int i, pos;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kp_err_cases); i++) {
		c = &kp_err_cases[i];
		snprintf(line, sizeof(line), "%s", c->line);
		caret = strchr(line, '^');
		pos = caret ? caret - line : 0;
		if (caret)
			memmove(caret, caret + 1, strlen(caret));
		ret = khist_kp_parse(line, &kfinder, &cmd);
		if (ret != c->ret || (c->err && cmd.nr_err != 1) ||
		    (!c->err && cmd.nr_err) ||
		    (c->err && (cmd.err[0] != c->err || cmd.pos[0] != pos)))
			KUNIT_FAIL(test, ERR_FMT, line, ret, cmd.err[0],
				   cmd.err[1], cmd.pos[0], c->ret, c->err,
				   c->err2, pos);
		KUNIT_EXPECT_NULL(test, cmd.def);
		khist_ep_cmd_release(&cmd);
	}
}

/* As want_fmt: '@' stands for 'L'. */
static const char kp_want_ret_fmt[] =
	"\"(%lx <- %lx) a=%u r=%@d j=0x%@x c=\\\"%s\\\"\", REC->__probe_func, REC->__probe_ret_ip, REC->a, REC->r, REC->j, __get_str(c)";
static const char kp_want_ret_show[] =
	"r10:kprobes/r_vfs_read_0 vfs_read a=$arg2:u32 r=$retval:s64 j=@jiffies+8 c=$comm\n";
static const char kp_want_fmt[] =
	"\"(%lx) arg1=0x%@x arg2=0x%x\", REC->__probe_ip, REC->arg1, REC->arg2";

/* @want with its '@'s as 'L'. */
static const char *kp_fix_l(char *buf, size_t size, const char *want)
{
	char *p;

	snprintf(buf, size, "%s", want);
	for (p = buf; *p; p++)
		if (*p == '@')
			*p = 'L';
	return buf;
}

/* Default names, sources, layout and the texts of a kretprobe. */
static void kp_layout_and_texts(struct kunit *test)
{
	static const char line[] =
		"r vfs_read%return a=$arg2:u32 r=$retval:s64 j=@jiffies+8 c=$comm";
	struct khist_field_desc descs[8];
	struct khist_ep_cmd cmd;
	struct khist_ep_def *d;
	static char buf[512], want[512];

	KUNIT_ASSERT_EQ(test, khist_kp_parse(line, &kfinder, &cmd), 0);
	d = cmd.def;
	KUNIT_EXPECT_STREQ(test, d->group, "kprobes");
	KUNIT_EXPECT_STREQ(test, d->event, "r_vfs_read_0");
	KUNIT_EXPECT_EQ(test, d->kind, KHIST_EPK_KRETPROBE);
	KUNIT_EXPECT_EQ(test, d->hdr_size, 24U);
	KUNIT_EXPECT_EQ(test, d->nr_entry, 1U);
	KUNIT_EXPECT_EQ(test, d->entry[0], 1);
	KUNIT_EXPECT_EQ(test, d->args[0].src, KHIST_EPS_EDATA);
	KUNIT_EXPECT_EQ(test, d->args[1].src, KHIST_EPS_RETVAL);
	KUNIT_EXPECT_EQ(test, d->args[2].src, KHIST_EPS_IMM);
	KUNIT_EXPECT_EQ(test, d->args[2].imm, 0xffffffff81000008ULL);
	KUNIT_EXPECT_STREQ(test, d->args[3].type->name, "string");
	KUNIT_EXPECT_EQ(test, d->args[0].offset, 24U);
	KUNIT_EXPECT_EQ(test, d->args[1].offset, 28U);
	KUNIT_EXPECT_EQ(test, khist_ep_nr_fields(d), 6U);
	khist_ep_fields(d, descs);
	KUNIT_EXPECT_STREQ(test, descs[0].name, "__probe_func");
	KUNIT_EXPECT_EQ(test, descs[0].offset, 8U);
	KUNIT_EXPECT_STREQ(test, descs[1].name, "__probe_ret_ip");
	KUNIT_EXPECT_EQ(test, descs[1].offset, 16U);
	KUNIT_EXPECT_STREQ(test, descs[2].name, "a");
	khist_ep_print_fmt(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   kp_fix_l(want, sizeof(want), kp_want_ret_fmt));
	d->maxactive = 10;
	khist_ep_show(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, kp_want_ret_show);
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, "kprobes", "", 0, NULL));
	KUNIT_EXPECT_TRUE(test, khist_ep_match(d, NULL, "r_vfs_read_0", 1,
					       (const char *[]){ "vfs_read" }));
	KUNIT_EXPECT_FALSE(test,
			   khist_ep_match(d, NULL, "r_vfs_read_0", 1,
					  (const char *[]){ "ksys_read" }));
	khist_ep_cmd_release(&cmd);

	KUNIT_ASSERT_EQ(test,
			khist_kp_parse("p mod:fn.isra.0+16 %di %ax:x8",
				       &kfinder, &cmd),
			0);
	d = cmd.def;
	KUNIT_EXPECT_STREQ(test, d->event, "p_mod_fn_isra_0_16");
	KUNIT_EXPECT_STREQ(test, d->symbol, "mod:fn.isra.0");
	KUNIT_EXPECT_EQ(test, d->offset, 16UL);
	KUNIT_EXPECT_STREQ(test, d->args[0].name, "arg1");
	KUNIT_EXPECT_EQ(test, d->args[0].src, KHIST_EPS_REG);
	KUNIT_EXPECT_EQ(test, d->args[0].field, 112U);
	KUNIT_EXPECT_EQ(test, d->args[0].offset, 16U);
	KUNIT_EXPECT_EQ(test, d->args[1].offset, 24U);
	khist_ep_print_fmt(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   kp_fix_l(want, sizeof(want), kp_want_fmt));
	khist_ep_cmd_release(&cmd);
}

/* ---- uprobes ----------------------------------------------------------- */

static int up_file(const char *path)
{
	if (!strcmp(path, "/bin/up"))
		return 0;
	return strcmp(path, "/bin") ? -ENOENT : -EISDIR;
}

static const struct khist_ep_finder ufinder = { .reg = kp_reg,
						.file = up_file };

#define UP "p:up/e /bin/up:0x10 "

static const struct ep_err_case up_err_cases[] = {
	{ "p:up/e ^/bin/nofile:0x10", -ENOENT, KHIST_EPERR_FILE_NOT_FOUND },
	{ "p:up/e ^/bin:0x10", -EINVAL, KHIST_EPERR_NO_REGULAR_FILE },
	{ "p:up/e /bin/up:0x10(0x20^", -EINVAL, KHIST_EPERR_REFCNT_OPEN_BRACE },
	{ "p:up/e /bin/up:0x10(0x20)^x", -EINVAL,
	  KHIST_EPERR_BAD_REFCNT_SUFFIX },
	{ "p:up/e /bin/up:0x10(^zz)", -EINVAL, KHIST_EPERR_BAD_REFCNT },
	{ "p:up/e /bin/up:0x10^%ret", -EINVAL, KHIST_EPERR_BAD_ADDR_SUFFIX },
	{ "p:up/e /bin/up:^0x1z", -EINVAL, KHIST_EPERR_BAD_UPROBE_OFFS },
	{ UP "^@+zz", -EINVAL, KHIST_EPERR_BAD_FILE_OFFS },
	{ UP "^@jiffies", -EINVAL, KHIST_EPERR_SYM_ON_UPROBE },
	{ UP "^$retval", -EINVAL, KHIST_EPERR_RETVAL_ON_PROBE },
	{ UP "^$arg1", -EINVAL, KHIST_EPERR_NOFENTRY_ARGS },
	{ "r:up/e /bin/up:0x10 ^$arg1", -EINVAL, KHIST_EPERR_NOFENTRY_ARGS },
	{ UP "%di:^symbol", -EINVAL, KHIST_EPERR_BAD_TYPE },
	{ UP "%di:^symstr", -EINVAL, KHIST_EPERR_BAD_TYPE },
	{ UP "^%nope", -EINVAL, KHIST_EPERR_BAD_REG_NAME },
	{ "p:^/e /bin/up:0x10", -EINVAL, KHIST_EPERR_NO_GROUP_NAME },
	{ "p vfs_read", -ECANCELED, 0 },
	{ "p /bin/up", -ECANCELED, 0 },
	{ "p /bin/up:x", -ECANCELED, 0 },
};

static void up_errors(struct kunit *test)
{
	const struct ep_err_case *c;
	struct khist_ep_cmd cmd;
	char line[256], *caret;
	unsigned int i, pos;
	int ret;

	for (i = 0; i < ARRAY_SIZE(up_err_cases); i++) {
		c = &up_err_cases[i];
		snprintf(line, sizeof(line), "%s", c->line);
		caret = strchr(line, '^');
		pos = caret ? caret - line : 0;
		if (caret)
			memmove(caret, caret + 1, strlen(caret));
		ret = khist_up_parse(line, &ufinder, &cmd);
		if (ret != c->ret || (c->err && cmd.nr_err != 1) ||
		    (!c->err && cmd.nr_err) ||
		    (c->err && (cmd.err[0] != c->err || cmd.pos[0] != pos)))
			KUNIT_FAIL(test, ERR_FMT, line, ret, cmd.err[0],
				   cmd.err[1], cmd.pos[0], c->ret, c->err,
				   c->err2, pos);
		KUNIT_EXPECT_NULL(test, cmd.def);
		khist_ep_cmd_release(&cmd);
	}
}

static const char up_line[] =
	"p /bin/up:0x1d0(0x40) a=%di s=+u0(%di):string n=@+16:u8 st=$stack3000";
static const char up_show[] =
	"p:uprobes/p_up_0x1d0 /bin/up:0x00000000000001d0(0x40) a=%di s=+u0(%di):string n=@+16:u8 st=$stack3000\n";
static const char *const up_rm_ok[] = { "/bin/up:0x00000000000001d0(0x40)",
					"a=%di" };
static const char *const up_rm_bad[] = { "/bin/up:0x00000000000001d0" };

/* Default names, sources, layout, listing and removal match of uprobes. */
static void up_layout_and_texts(struct kunit *test)
{
	const char *ret_line = "p:g/r /bin/up:0x20%return r=$retval:s32";
	struct khist_ep_cmd cmd;
	struct khist_ep_def *d;
	static char buf[512];
	bool m;

	KUNIT_ASSERT_EQ(test, khist_up_parse(up_line, &ufinder, &cmd), 0);
	d = cmd.def;
	KUNIT_EXPECT_STREQ(test, d->group, "uprobes");
	KUNIT_EXPECT_STREQ(test, d->event, "p_up_0x1d0");
	KUNIT_EXPECT_EQ(test, d->kind, KHIST_EPK_UPROBE);
	KUNIT_EXPECT_EQ(test, d->offset, 0x1d0UL);
	KUNIT_EXPECT_EQ(test, d->ref_ctr, 0x40UL);
	KUNIT_EXPECT_EQ(test, d->hdr_size, 16U);
	KUNIT_EXPECT_EQ(test, d->args[0].src, KHIST_EPS_REG);
	KUNIT_EXPECT_TRUE(test, d->args[1].store_user);
	KUNIT_EXPECT_EQ(test, d->args[2].src, KHIST_EPS_FOFFS);
	KUNIT_EXPECT_EQ(test, d->args[2].imm, 16ULL);
	KUNIT_EXPECT_EQ(test, d->args[2].store, KHIST_EPST_MEM);
	KUNIT_EXPECT_TRUE(test, d->args[2].store_user);
	KUNIT_EXPECT_EQ(test, d->args[3].src, KHIST_EPS_USTACK);
	KUNIT_EXPECT_EQ(test, d->args[3].field, 3000U);
	khist_ep_show(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, up_show);
	m = khist_ep_match(d, NULL, "p_up_0x1d0", 2, up_rm_ok);
	KUNIT_EXPECT_TRUE(test, m);
	m = khist_ep_match(d, NULL, "p_up_0x1d0", 1, up_rm_bad);
	KUNIT_EXPECT_FALSE(test, m);
	khist_ep_cmd_release(&cmd);

	KUNIT_ASSERT_EQ(test, khist_up_parse(ret_line, &ufinder, &cmd), 0);
	d = cmd.def;
	KUNIT_EXPECT_EQ(test, d->kind, KHIST_EPK_URETPROBE);
	KUNIT_EXPECT_EQ(test, d->hdr_size, 24U);
	KUNIT_EXPECT_EQ(test, d->args[0].src, KHIST_EPS_RETVAL);
	khist_ep_show(d, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "r:g/r /bin/up:0x0000000000000020 r=$retval:s32\n");
	khist_ep_cmd_release(&cmd);
}

static struct kunit_case ep_cases[] = {
	KUNIT_CASE(up_errors),	       KUNIT_CASE(up_layout_and_texts),
	KUNIT_CASE(kp_errors),	       KUNIT_CASE(kp_layout_and_texts),
	KUNIT_CASE(ep_errors),	       KUNIT_CASE(ep_error_command),
	KUNIT_CASE(ep_deref_limit),    KUNIT_CASE(ep_names),
	KUNIT_CASE(ep_fetches),	       KUNIT_CASE(ep_layout_and_texts),
	KUNIT_CASE(ep_match),	       KUNIT_CASE(ep_error_texts),
	KUNIT_CASE(ep_alloc_failures), {}
};

static struct kunit_suite ep_suite = {
	.name = "khist_eprobe_parse",
	.test_cases = ep_cases,
};

kunit_test_suite(ep_suite);
