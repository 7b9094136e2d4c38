// SPDX-License-Identifier: GPL-2.0
/*
 * synth_kunit.c - tests of the synthetic event command parser: every error
 * with its caret, every field type, the listing and print fmt, the record
 * layout, the value type check and allocation failures.
 *
 * The error table starts with the cases of ftrace's selftest
 * trigger-synthetic_event_syntax_errors.tc (the caret is where its '^'
 * is), then adds the corners of the kernel's parser.
 */
#include <kunit/test.h>
#include "synth_parse.h"

static bool exists_taken(const char *name, void *arg)
{
	return !strcmp(name, (const char *)arg);
}

static const struct synth_err_case {
	const char *line;
	unsigned int flags;
	int ret;
	int err;
	unsigned int pos;
} err_cases[] = {
	/* trigger-synthetic_event_syntax_errors.tc */
	{ "myevent chr arg", 0, -EINVAL, KHIST_SERR_INVALID_TYPE, 8 },
	{ "myevent unsigned arg", 0, -EINVAL, KHIST_SERR_INCOMPLETE_TYPE, 8 },
	{ "myevent char str]; int v", 0, -EINVAL, KHIST_SERR_BAD_NAME, 13 },
	{ "mye-vent char str[]", 0, -EINVAL, KHIST_SERR_BAD_NAME, 0 },
	{ "myevent char st-r[]", 0, -EINVAL, KHIST_SERR_BAD_NAME, 13 },
	{ "myevent char str;[]", 0, -EINVAL, KHIST_SERR_INVALID_FIELD, 17 },
	{ "myevent char str; int", 0, -EINVAL, KHIST_SERR_INVALID_FIELD, 18 },
	{ "myevent char str[; int v", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC,
	  13 },
	{ "myevent char str[kdjdk]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC,
	  13 },
	{ "myevent char str[257]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC,
	  13 },
	{ "mye;vent char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent ; char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent; char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent ;char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "; char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ ";myevent char str[]", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "s:junk/myevent char str[", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_INVALID_DYN_CMD, 0 },
	/* the caret counts from the first non-blank character */
	{ "  \tmyevent chr arg", 0, -EINVAL, KHIST_SERR_INVALID_TYPE, 8 },
	/* arrays of anything but char are no type */
	{ "myevent u64 x[4]", 0, -EINVAL, KHIST_SERR_INVALID_TYPE, 8 },
	/* the caret goes to the FIRST occurrence of the token */
	{ "myevent u64 lat; u64", 0, -EINVAL, KHIST_SERR_INVALID_FIELD, 8 },
	{ "myevent u64 a b", 0, -EINVAL, KHIST_SERR_INVALID_FIELD, 14 },
	{ "myevent u64 a; unsigned", 0, -EINVAL, KHIST_SERR_INCOMPLETE_TYPE,
	  15 },
	{ "myevent unsigned int", 0, -EINVAL, KHIST_SERR_INCOMPLETE_TYPE, 8 },
	{ "myevent unsigned", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent u64", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "myevent\vu64\vx", 0, -EINVAL, KHIST_SERR_INVALID_CMD, 0 },
	{ "1abc u64 x", 0, -EINVAL, KHIST_SERR_BAD_NAME, 0 },
	{ "myevent u64 1x", 0, -EINVAL, KHIST_SERR_BAD_NAME, 12 },
	{ "myevent u64 x-y[2]", 0, -EINVAL, KHIST_SERR_BAD_NAME, 12 },
	{ "myevent u64 [2]", 0, -EINVAL, KHIST_SERR_BAD_NAME, 12 },
	{ "myevent char s[0x10]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC,
	  13 },
	{ "myevent char s[08]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC, 13 },
	{ "myevent char s[0x]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC, 13 },
	{ "myevent char s[+]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC, 13 },
	{ "myevent char s[-1]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC, 13 },
	{ "myevent char s[10]x", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC,
	  13 },
	{ "myevent char s[1]]", 0, -EINVAL, KHIST_SERR_INVALID_ARRAY_SPEC, 13 },
	/* a malformed char[..] without a field-name array is a bad type */
	{ "myevent char[5x] s", 0, -EINVAL, KHIST_SERR_INVALID_TYPE, 8 },
	/* ... even inside the event name */
	{ "myevent u64 x; s32 y; y z", 0, -EINVAL, KHIST_SERR_INVALID_TYPE, 1 },
	{ "myevent u64 lat", 0, -EEXIST, KHIST_SERR_EVENT_EXISTS, 0 },
	{ "  taken   u64 lat", 0, -EEXIST, KHIST_SERR_EVENT_EXISTS, 0 },
	/* dynamic_events s: lines */
	{ "s:myevent", KHIST_SYNTH_PARSE_DYN, -EINVAL, KHIST_SERR_INVALID_CMD,
	  0 },
	{ "s:myevent u64", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_INVALID_CMD, 0 },
	{ "s:myevent u64 a/b", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_INVALID_DYN_CMD, 0 },
	{ "s:synthetic/ u64 a b", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_INVALID_CMD, 0 },
	{ "s:my-ev u64 x", KHIST_SYNTH_PARSE_DYN, -EINVAL, KHIST_SERR_BAD_NAME,
	  2 },
	{ "s:synthetic/my-ev u64 x", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_BAD_NAME, 12 },
	{ " s:synthetic/ev chr x", KHIST_SYNTH_PARSE_DYN, -EINVAL,
	  KHIST_SERR_INVALID_TYPE, 15 },
	{ "s:taken u64 x", KHIST_SYNTH_PARSE_DYN, -EEXIST,
	  KHIST_SERR_EVENT_EXISTS, 2 },
	{ "p:foo do_fork", KHIST_SYNTH_PARSE_DYN, -ECANCELED, 0, 0 },
	{ "-:foo", KHIST_SYNTH_PARSE_DYN, -ECANCELED, 0, 0 },
};

#define ERR_FMT "'%s': got ret %d err %d (%s) pos %u, want ret %d err %d pos %u"

static void synth_errors(struct kunit *test)
{
	const struct synth_err_case *c;
	const char *taken;
	struct khist_synth_cmd cmd;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(err_cases); i++) {
		c = &err_cases[i];
		/* "myevent" is free unless the case is about a taken name */
		taken = "none";
		if (c->ret == -EEXIST)
			taken = strstr(c->line, "taken") ? "taken" : "myevent";
		ret = khist_synth_parse(c->line, c->flags, exists_taken,
					(void *)taken, &cmd);
		if (ret != c->ret || cmd.err != c->err || cmd.pos != c->pos)
			KUNIT_FAIL(test, ERR_FMT, c->line, ret, cmd.err,
				   khist_synth_err_text(cmd.err), cmd.pos,
				   c->ret, c->err, c->pos);
		KUNIT_EXPECT_EQ(test, cmd.op, KHIST_SYNTH_NOP);
		KUNIT_EXPECT_NULL(test, cmd.def);
		khist_synth_cmd_release(&cmd);
	}
}

static void synth_error_texts(struct kunit *test)
{
	static const char *const want[KHIST_SERR_COUNT] = {
		[KHIST_SERR_BAD_NAME] = "Illegal name",
		[KHIST_SERR_INVALID_CMD] =
			"Command must be of the form: <name> field[;field] ...",
		[KHIST_SERR_INVALID_DYN_CMD] =
			"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
		[KHIST_SERR_EVENT_EXISTS] = "Event already exists",
		[KHIST_SERR_TOO_MANY_FIELDS] = "Too many fields",
		[KHIST_SERR_INCOMPLETE_TYPE] = "Incomplete type",
		[KHIST_SERR_INVALID_TYPE] = "Invalid type",
		[KHIST_SERR_INVALID_FIELD] = "Invalid field",
		[KHIST_SERR_INVALID_ARRAY_SPEC] = "Invalid array specification",
	};
	int i;

	for (i = KHIST_SERR_BAD_NAME; i < KHIST_SERR_COUNT; i++)
		KUNIT_EXPECT_STREQ(test, khist_synth_err_text(i), want[i]);
	KUNIT_EXPECT_STREQ(test, khist_synth_err_text(0), "");
	KUNIT_EXPECT_STREQ(test, khist_synth_err_text(KHIST_SERR_COUNT), "");
	KUNIT_EXPECT_STREQ(test, khist_synth_err_text(-1), "");
}

/* Parse @line as a definition; fail the test if it is refused. */
static struct khist_synth_def *parse_ok(struct kunit *test, const char *line,
					unsigned int flags)
{
	struct khist_synth_cmd cmd;
	struct khist_synth_def *def;
	int ret;

	ret = khist_synth_parse(line, flags, NULL, NULL, &cmd);
	if (ret || cmd.op != KHIST_SYNTH_CREATE) {
		KUNIT_FAIL(test, "'%s': ret %d op %d err '%s' pos %u", line,
			   ret, cmd.op, khist_synth_err_text(cmd.err), cmd.pos);
		khist_synth_cmd_release(&cmd);
		return NULL;
	}
	def = cmd.def;
	cmd.def = NULL;
	khist_synth_cmd_release(&cmd);
	return def;
}

static const struct synth_type_case {
	const char *decl;
	const char *type;
	const char *list;
	unsigned int size;
	bool is_signed, is_string, is_dynamic, is_stack;
	const char *fmt;
} type_cases[] = {
	{ "s64 v", "s64", "s64", 8, 1, 0, 0, 0, "%lld" },
	{ "u64 v", "u64", "u64", 8, 0, 0, 0, 0, "%llu" },
	{ "s32 v", "s32", "s32", 4, 1, 0, 0, 0, "%d" },
	{ "u32 v", "u32", "u32", 4, 0, 0, 0, 0, "%u" },
	{ "s16 v", "s16", "s16", 2, 1, 0, 0, 0, "%d" },
	{ "u16 v", "u16", "u16", 2, 0, 0, 0, 0, "%u" },
	{ "s8 v", "s8", "s8", 1, 1, 0, 0, 0, "%d" },
	{ "u8 v", "u8", "u8", 1, 0, 0, 0, 0, "%u" },
	{ "char v", "char", "char", 1, 1, 0, 0, 0, "%d" },
	{ "unsigned char v", "unsigned char", "unsigned char", 1, 0, 0, 0, 0,
	  "%u" },
	{ "int v", "int", "int", 4, 1, 0, 0, 0, "%d" },
	{ "unsigned int v", "unsigned int", "unsigned int", 4, 0, 0, 0, 0,
	  "%u" },
	{ "long v", "long", "long", 8, 1, 0, 0, 0, "%ld" },
	{ "unsigned long v", "unsigned long", "unsigned long", 8, 0, 0, 0, 0,
	  "%lu" },
	{ "bool v", "bool", "bool", 1, 1, 0, 0, 0, "%d" },
	{ "pid_t v", "pid_t", "pid_t", 4, 1, 0, 0, 0, "%d" },
	{ "gfp_t v", "gfp_t", "gfp_t", 4, 0, 0, 0, 0, "%x" },
	{ "char v[16]", "char[16]", "char[16]", 16, 1, 1, 0, 0, "%s" },
	{ "char[16] v", "char[16]", "char[16]", 16, 1, 1, 0, 0, "%s" },
	{ "char v[256]", "char[256]", "char[256]", 256, 1, 1, 0, 0, "%s" },
	{ "char v[0x9]", "char[0x9]", "char[0x9]", 9, 1, 1, 0, 0, "%s" },
	{ "char v[010]", "char[010]", "char[010]", 8, 1, 1, 0, 0, "%s" },
	{ "char v[+12]", "char[+12]", "char[+12]", 12, 1, 1, 0, 0, "%s" },
	{ "unsigned char v[4]", "unsigned char[4]", "unsigned char[4]", 4, 0, 1,
	  0, 0, "%s" },
	{ "char v[]", "__data_loc char[]", "char[]", 8, 1, 1, 1, 0, "%s" },
	{ "char[] v", "__data_loc char[]", "char[]", 8, 1, 1, 1, 0, "%s" },
	/* ftrace takes a zero length for a dynamic string */
	{ "char v[0]", "__data_loc char[0]", "char[0]", 8, 1, 1, 1, 0, "%s" },
	{ "unsigned long[] v", "__data_loc unsigned long[]", "unsigned long[]",
	  8, 1, 0, 1, 1, "%s" },
	{ "unsigned long v[]", "__data_loc unsigned long[]", "unsigned long[]",
	  8, 1, 0, 1, 1, "%s" },
	{ "long[] v", "__data_loc long[]", "long[]", 8, 1, 0, 1, 1, "%s" },
	{ "long v[8]", "__data_loc long[8]", "long[8]", 8, 1, 0, 1, 1, "%s" },
};

#define TYPE_FMT \
	"'%s': type '%s' list '%s' size %u signed %d string %d dynamic %d stack %d fmt %s"

static void synth_types_all(struct kunit *test)
{
	const struct synth_type_case *c;
	struct khist_synth_def *def;
	const struct khist_synth_field *f;
	char line[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(type_cases); i++) {
		c = &type_cases[i];
		snprintf(line, sizeof(line), "ev %s", c->decl);
		def = parse_ok(test, line, 0);
		if (!def)
			continue;
		KUNIT_ASSERT_EQ(test, def->nr_fields, 1);
		f = &def->fields[0];
		if (strcmp(f->type, c->type) || f->size != c->size ||
		    f->is_signed != c->is_signed ||
		    f->is_string != c->is_string ||
		    f->is_dynamic != c->is_dynamic ||
		    f->is_stack != c->is_stack || strcmp(f->name, "v") ||
		    strcmp(khist_synth_list_type(f), c->list) ||
		    strcmp(khist_synth_field_fmt(f->type), c->fmt))
			KUNIT_FAIL(test, TYPE_FMT, line, f->type,
				   khist_synth_list_type(f), f->size,
				   f->is_signed, f->is_string, f->is_dynamic,
				   f->is_stack, khist_synth_field_fmt(f->type));
		KUNIT_EXPECT_EQ(test, def->nr_dynamic, c->is_dynamic);
		KUNIT_EXPECT_EQ(test, def->fixed_size,
				c->is_string && !c->is_dynamic ? 8 + 256 :
								 8 + 8);
		khist_synth_def_free(def);
	}
}

static const struct synth_show_case {
	const char *line;
	unsigned int flags;
	const char *show;
	const char *fmt;
} show_cases[] = {
	/* trigger-synthetic-event-syntax.tc and createremove.tc */
	{ "myevent u64 var1", 0, "myevent\tu64 var1\n",
	  "\"var1=%llu\", REC->var1" },
	{ "myevent u64 var1; u64 var2;", 0, "myevent\tu64 var1; u64 var2\n",
	  NULL },
	{ "myevent u64 var1 ; u64 var2 ;", 0, "myevent\tu64 var1; u64 var2\n",
	  NULL },
	{ "myevent u64 var1 ;u64 var2", 0, "myevent\tu64 var1; u64 var2\n",
	  NULL },
	{ "myevent unsigned long var", 0, "myevent\tunsigned long var\n",
	  NULL },
	{ "myevent char var[10]", 0, "myevent\tchar[10] var\n", NULL },
	{ "myevent unsigned long[] var", 0, "myevent\tunsigned long[] var\n",
	  "\"var=%s\", __get_stacktrace(var)" },
	{ "wakeup_latency  u64 lat pid_t pid char comm[16]", 0,
	  "wakeup_latency\tu64 lat; pid_t pid; char[16] comm\n",
	  "\"lat=%llu, pid=%d, comm=%s\", REC->lat, REC->pid, REC->comm" },
	/* old and new syntax mixed, blanks of every kind */
	{ "mixed\tu64 a s32 b;\tchar c[]  ;unsigned int d", 0,
	  "mixed\tu64 a; s32 b; char[] c; unsigned int d\n",
	  "\"a=%llu, b=%d, c=%s, d=%u\", REC->a, REC->b, __get_str(c), REC->d" },
	{ "ping_test_latency u64 lat; char filename[]", 0,
	  "ping_test_latency\tu64 lat; char[] filename\n",
	  "\"lat=%llu, filename=%s\", REC->lat, __get_str(filename)" },
	{ "myevent u64 lat; char name[]; long[] stack", 0,
	  "myevent\tu64 lat; char[] name; long[] stack\n",
	  "\"lat=%llu, name=%s, stack=%s\", REC->lat, __get_str(name), __get_stacktrace(stack)" },
	{ "g gfp_t f; bool b", 0, "g\tgfp_t f; bool b\n",
	  "\"f=%x, b=%d\", REC->f, REC->b" },
	/*
	 * "__data_loc" inside a type: listed as written (the kernel cuts
	 * 11 characters after it and lists "har[16] s", which does not
	 * parse back).
	 */
	{ "e __data_locchar s[16]", 0, "e\t__data_locchar[16] s\n", NULL },
	/* dynamic_events */
	{ "s:latency1 u64 lat; pid_t pid;", KHIST_SYNTH_PARSE_DYN,
	  "latency1\tu64 lat; pid_t pid\n", NULL },
	{ "s:synthetic/wake_lat pid_t pid; u64 delta; unsigned long[] stack;",
	  KHIST_SYNTH_PARSE_DYN,
	  "wake_lat\tpid_t pid; u64 delta; unsigned long[] stack\n",
	  "\"pid=%d, delta=%llu, stack=%s\", REC->pid, REC->delta, __get_stacktrace(stack)" },
};

static void synth_show_and_fmt(struct kunit *test)
{
	const struct synth_show_case *c;
	struct khist_synth_def *def, *again;
	static char buf[512], buf2[512];
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(show_cases); i++) {
		c = &show_cases[i];
		def = parse_ok(test, c->line, c->flags);
		if (!def)
			continue;
		n = khist_synth_show(def, buf, sizeof(buf));
		KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
		KUNIT_EXPECT_STREQ(test, buf, c->show);
		if (c->fmt) {
			n = khist_synth_print_fmt(def, buf2, sizeof(buf2));
			KUNIT_EXPECT_EQ(test, n, (int)strlen(buf2));
			KUNIT_EXPECT_STREQ(test, buf2, c->fmt);
		}
		/* Round trip: the listing, read back, lists the same. */
		buf[strlen(buf) - 1] = '\0';
		again = parse_ok(test, buf, 0);
		if (again) {
			khist_synth_show(again, buf2, sizeof(buf2));
			buf[strlen(buf)] = '\n';
			KUNIT_EXPECT_STREQ(test, buf2, c->show);
			khist_synth_def_free(again);
		}
		khist_synth_def_free(def);
	}
}

static void synth_show_truncates(struct kunit *test)
{
	struct khist_synth_def *def = parse_ok(test, "ev u64 a; s8 b", 0);
	char buf[8];
	int n;

	KUNIT_ASSERT_NOT_NULL(test, def);
	memset(buf, 'x', sizeof(buf));
	n = khist_synth_show(def, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, n, (int)strlen("ev\tu64 a; s8 b\n"));
	KUNIT_EXPECT_STREQ(test, buf, "ev\tu64 ");
	KUNIT_EXPECT_EQ(test, khist_synth_show(def, NULL, 0), n);
	n = khist_synth_print_fmt(def, NULL, 0);
	KUNIT_EXPECT_EQ(test, n,
			(int)strlen("\"a=%llu, b=%d\", REC->a, REC->b"));
	khist_synth_def_free(def);
}

static void synth_layout_offsets(struct kunit *test)
{
	struct khist_synth_def *def;

	static const char line[] =
		"lay u64 lat; pid_t pid; char comm[16]; char f[]; unsigned long[] st; u8 x";

	def = parse_ok(test, line, 0);
	KUNIT_ASSERT_NOT_NULL(test, def);
	KUNIT_EXPECT_EQ(test, def->fields[0].offset, 8);
	KUNIT_EXPECT_EQ(test, def->fields[1].offset, 16);
	KUNIT_EXPECT_EQ(test, def->fields[2].offset, 24);
	KUNIT_EXPECT_EQ(test, def->fields[3].offset, 24 + 256);
	KUNIT_EXPECT_EQ(test, def->fields[4].offset, 24 + 256 + 8);
	KUNIT_EXPECT_EQ(test, def->fields[5].offset, 24 + 256 + 16);
	KUNIT_EXPECT_EQ(test, def->fixed_size, 24 + 256 + 24);
	KUNIT_EXPECT_EQ(test, def->nr_dynamic, 2);
	khist_synth_def_free(def);
}

static void synth_too_many_fields(struct kunit *test)
{
	struct khist_synth_cmd cmd;
	static char line[1024];
	int i, pos, ret;

	pos = snprintf(line, sizeof(line), "many");
	for (i = 0; i < KHIST_SYNTH_FIELDS_MAX; i++)
		pos += snprintf(line + pos, sizeof(line) - pos, " u8 f%d;", i);
	ret = khist_synth_parse(line, 0, NULL, NULL, &cmd);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, cmd.def);
	KUNIT_EXPECT_EQ(test, cmd.def->nr_fields, KHIST_SYNTH_FIELDS_MAX);
	KUNIT_EXPECT_EQ(test, cmd.def->fixed_size, 8 + 64 * 8);
	khist_synth_cmd_release(&cmd);
	/* The 65th field is refused, with the caret at 0; a bad 65th field
	 * is reported as bad first.
	 */
	snprintf(line + pos, sizeof(line) - pos, " u8 last");
	ret = khist_synth_parse(line, 0, NULL, NULL, &cmd);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, cmd.err, KHIST_SERR_TOO_MANY_FIELDS);
	KUNIT_EXPECT_EQ(test, cmd.pos, 0);
	khist_synth_cmd_release(&cmd);
	snprintf(line + pos, sizeof(line) - pos, " u8 la-st");
	ret = khist_synth_parse(line, 0, NULL, NULL, &cmd);
	KUNIT_EXPECT_EQ(test, cmd.err, KHIST_SERR_BAD_NAME);
	khist_synth_cmd_release(&cmd);
}

static void synth_delete_and_blank(struct kunit *test)
{
	static const struct {
		const char *line;
		const char *name;
	} dels[] = {
		{ "!myevent", "myevent" },
		{ "  !wakeup_latency  u64 lat pid_t pid char comm[16]",
		  "wakeup_latency" },
		{ "!synth_open u64 filename; s64 ret", "synth_open" },
		{ "!myevent;", "myevent;" },
		{ "!", "" },
	};
	struct khist_synth_cmd cmd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dels); i++) {
		KUNIT_EXPECT_EQ(test,
				khist_synth_parse(dels[i].line, 0, NULL, NULL,
						  &cmd),
				0);
		KUNIT_EXPECT_EQ(test, cmd.op, KHIST_SYNTH_DELETE);
		KUNIT_EXPECT_STREQ(test, cmd.name, dels[i].name);
		khist_synth_cmd_release(&cmd);
	}
	KUNIT_EXPECT_EQ(test, khist_synth_parse(" \t ", 0, NULL, NULL, &cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd.op, KHIST_SYNTH_NOP);
	KUNIT_EXPECT_NULL(test, cmd.cmd);
	KUNIT_EXPECT_EQ(test,
			khist_synth_parse("", KHIST_SYNTH_PARSE_DYN, NULL, NULL,
					  &cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd.op, KHIST_SYNTH_NOP);
	/* A '!' inside an s: line is just a bad name. */
	KUNIT_EXPECT_EQ(test,
			khist_synth_parse("s:!ev u64 a", KHIST_SYNTH_PARSE_DYN,
					  NULL, NULL, &cmd),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cmd.err, KHIST_SERR_BAD_NAME);
	KUNIT_EXPECT_EQ(test, cmd.pos, 2);
}

static void synth_names(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, khist_synth_good_name("_a1"));
	KUNIT_EXPECT_TRUE(test, khist_synth_good_name("wakeup_latency"));
	KUNIT_EXPECT_FALSE(test, khist_synth_good_name(""));
	KUNIT_EXPECT_FALSE(test, khist_synth_good_name("1a"));
	KUNIT_EXPECT_FALSE(test, khist_synth_good_name("a-b"));
	KUNIT_EXPECT_FALSE(test, khist_synth_good_name("a.b"));
	/* The kernel's ctype counts Latin-1 letters as letters. */
	KUNIT_EXPECT_TRUE(test, khist_synth_good_name("caf\xe9"));
	KUNIT_EXPECT_FALSE(test, khist_synth_good_name("a\xd7"));
}

static void synth_param_check(struct kunit *test)
{
	struct khist_synth_def *def;
	const struct khist_synth_field *f;

	static const char line[] =
		"p u64 lat; pid_t pid; char comm[16]; char dyn[]; unsigned long[] st; s32 s; char c8[8]";

	def = parse_ok(test, line, 0);
	KUNIT_ASSERT_NOT_NULL(test, def);
	f = def->fields;
	KUNIT_EXPECT_TRUE(test, khist_synth_param_ok(&f[0], "u64", 8, 0, 0));
	/* equal sizes and signedness are enough */
	KUNIT_EXPECT_TRUE(test, khist_synth_param_ok(&f[0], "unsigned long", 8,
						     0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[0], "s64", 8, 1, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[0], "u32", 4, 0, 0));
	KUNIT_EXPECT_TRUE(test, khist_synth_param_ok(&f[1], "int", 4, 1, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[1], "unsigned int", 4,
						      0, 0));
	/* a static string fits only the same size, or a dynamic string */
	KUNIT_EXPECT_TRUE(test,
			  khist_synth_param_ok(&f[2], "char[16]", 16, 1, 0));
	KUNIT_EXPECT_FALSE(test,
			   khist_synth_param_ok(&f[2], "char[32]", 32, 1, 0));
	KUNIT_EXPECT_FALSE(test,
			   khist_synth_param_ok(&f[2], "char[]", 256, 0, 0));
	KUNIT_EXPECT_TRUE(test,
			  khist_synth_param_ok(&f[3], "char[16]", 16, 1, 0));
	KUNIT_EXPECT_TRUE(test,
			  khist_synth_param_ok(&f[3], "char[]", 256, 0, 0));
	/* ftrace lets a number of a string field's size in (a dynamic
	 * string's size is its 8-byte slot) and then reads the string at
	 * the address it holds; khist takes only strings there.
	 */
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[3], "u64", 8, 0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[3], "s64", 8, 1, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[3], "u32", 4, 0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[6], "u64", 8, 0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[6], "unsigned long", 8,
						      0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[6], "s64", 8, 1, 0));
	KUNIT_EXPECT_TRUE(test,
			  khist_synth_param_ok(&f[6], "char[8]", 8, 1, 0));
	KUNIT_EXPECT_TRUE(test,
			  khist_synth_type_is_string("__data_loc char[]"));
	KUNIT_EXPECT_FALSE(test, khist_synth_type_is_string("u64"));
	/* stacks only into stacks */
	KUNIT_EXPECT_TRUE(test, khist_synth_param_ok(&f[4], "unsigned long[]",
						     128, 0, 1));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[4], "u64", 8, 0, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[0], "unsigned long[]",
						      8, 0, 1));
	KUNIT_EXPECT_TRUE(test, khist_synth_param_ok(&f[5], "int", 4, 1, 0));
	KUNIT_EXPECT_FALSE(test, khist_synth_param_ok(&f[5], "u32", 4, 0, 0));
	khist_synth_def_free(def);
}

static void synth_dyn_remove(struct kunit *test)
{
	static const struct {
		const char *line;
		int ret;
		const char *sys, *ev;
	} cases[] = {
		{ "-:synthetic/latency2", 0, "synthetic", "latency2" },
		{ "-:latency2 extra", 0, NULL, "latency2" },
		{ "-:grp/", 0, "grp", "" },
		{ "-:", -EINVAL, NULL, NULL },
		{ "-x:foo", -EINVAL, NULL, NULL },
		{ "!s:foo", 0, NULL, "foo" },
		{ "!foo", -EINVAL, NULL, NULL },
		{ "", -EINVAL, NULL, NULL },
	};
	const char *sys, *ev;
	char buf[64];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(buf, sizeof(buf), "%s", cases[i].line);
		ev = NULL;
		ret = khist_dynevent_parse_remove(buf, &sys, &ev);
		KUNIT_EXPECT_EQ(test, ret, cases[i].ret);
		if (ret)
			continue;
		if (cases[i].sys)
			KUNIT_EXPECT_STREQ(test, sys, cases[i].sys);
		else
			KUNIT_EXPECT_NULL(test, sys);
		KUNIT_EXPECT_STREQ(test, ev, cases[i].ev);
	}
}

/* Every allocation of a parse can fail: -ENOMEM, nothing left behind. */
static void synth_alloc_failures(struct kunit *test)
{
	static const char *const lines[] = {
		"a u64 x; char s[16]; char d[]; unsigned long[] st",
		"a u64 x; chr y",
		"!a",
	};
	struct khist_synth_cmd cmd;
	unsigned int i;
	long live;
	int n, ret;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		for (n = 0;; n++) {
			live = kshim_live_allocations();
			kshim_fail_after(n);
			ret = khist_synth_parse(lines[i], 0, NULL, NULL, &cmd);
			kshim_fail_after(-1);
			khist_synth_cmd_release(&cmd);
			KUNIT_EXPECT_EQ(test, kshim_live_allocations(), live);
			if (ret != -ENOMEM)
				break;
			KUNIT_EXPECT_EQ(test, cmd.op, KHIST_SYNTH_NOP);
		}
		KUNIT_EXPECT_GT(test, n, 0);
		KUNIT_EXPECT_NE(test, ret, -ENOMEM);
	}
}

static struct kunit_case synth_cases[] = { KUNIT_CASE(synth_errors),
					   KUNIT_CASE(synth_error_texts),
					   KUNIT_CASE(synth_types_all),
					   KUNIT_CASE(synth_show_and_fmt),
					   KUNIT_CASE(synth_show_truncates),
					   KUNIT_CASE(synth_layout_offsets),
					   KUNIT_CASE(synth_too_many_fields),
					   KUNIT_CASE(synth_delete_and_blank),
					   KUNIT_CASE(synth_names),
					   KUNIT_CASE(synth_param_check),
					   KUNIT_CASE(synth_dyn_remove),
					   KUNIT_CASE(synth_alloc_failures),
					   {} };

static struct kunit_suite synth_suite = {
	.name = "khist_synth_parse",
	.test_cases = synth_cases,
};

kunit_test_suite(synth_suite);
