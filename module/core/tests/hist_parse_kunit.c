// SPDX-License-Identifier: GPL-2.0
/*
 * hist_parse_kunit.c - table-driven tests of the hist command parser:
 * command -> syntax tree dump, and command -> error text + caret for the
 * errors found without a schema (including the deferred ones, through
 * khist_hist_syntax_check()).
 */
#include <kunit/test.h>
#include "hist_parse.h"
#include "hist_print.h"

struct parse_case {
	const char *cmd;
	const char *dump; /* NULL: an error is expected */
	const char *err;
	int pos;
};

static const struct parse_case parse_ok[] = {
	{ "hist:keys=common_pid",
	  "keys=F(common_pid);vals=;vars=;sort=;bits=11;clock=global" },
	{ "!hist:key=pid:val=a,b:sort=a.descending,b:size=200",
	  "!keys=F(pid);vals=F(a),F(b);vars=;sort=a.descending,b;bits=8;clock=global" },
	{ "hist:values=hitcount,a:keys=x.sym-offset,stacktrace",
	  "keys=F(x mod=symXoffset),STACK;vals=HC,F(a);vars=;sort=;bits=11;clock=global" },
	{ "hist:keys=a:x=16-8-4-2,y=4+3*2-2:z=-(a*b)",
	  "keys=F(a);vals=;vars=x:(((#16-#8)-#4)-#2),y:((#4+(#3*#2))-#2),z:neg((F(a)*F(b)));sort=;bits=11;clock=global" },
	{ "hist:keys=a:x=64/8/4/2,w=4*3/2*2",
	  "keys=F(a);vals=;vars=x:(((#64/#8)/#4)/#2),w:(((#4*#3)/#2)*#2);sort=;bits=11;clock=global" },
	{ "hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$saved_pid,next_prio) if next_comm==\"cyclictest\"",
	  "keys=F(next_pid);vals=;vars=wakeup_lat:(F(common_timestamp mod=usecs)-R($ts0));sort=;bits=11;clock=global;action=1/1[sched.sched_waking]wakeup_latency:$wakeup_lat,$saved_pid,next_prio;if=next_comm==\"cyclictest\"" },
	{ "hist:keys=pid:ts=sched.sched_switch.$x:onmax($ts).save(comm, prio):onchange($ts).snapshot():onmatch(a.b).trace(lat,$ts)",
	  "keys=F(pid);vals=;vars=ts:R(sched|sched_switch|$x);sort=;bits=11;clock=global;action=2/2[$ts]:comm,prio;action=3/3[$ts];action=1/1[a.b]lat:$ts" },
	{ "hist:keys=pid:name=foo:clock= mono :pause:cont:continue:clear:NOHC:vals=hitcount,b",
	  "keys=F(pid);vals=HC,F(b);vars=;sort=;bits=11;name=foo;clock=mono;pause;cont;clear;nohitcount" },
	/* last attribute wins */
	{ "hist:keys=a:keys=b:size=128:size=4096",
	  "keys=F(b);vals=;vars=;sort=;bits=12;clock=global" },
	/* "if" needs blanks on both sides */
	{ "hist:keys=diff:x=1 if_x",
	  "keys=F(diff);vals=;vars=x:ERR(Expecting numeric literal@17);sort=;bits=11;clock=global" },
	{ "hist:keys=a,b\t if \tx==1",
	  "keys=F(a),F(b);vals=;vars=;sort=;bits=11;clock=global;if=\tx==1" },
	/* whitespace inside tokens is kept */
	{ "hist:keys=pid, prio",
	  "keys=F(pid),F( prio);vals=;vars=;sort=;bits=11;clock=global" },
	{ "hist:keys=a.buckets=0x10,b.bucket=8:vals=c.percent,d.graph",
	  "keys=F(a mod=buckets=0x10),F(b mod=bucket=8);vals=F(c mod=percent),F(d mod=graph);vars=;sort=;bits=11;clock=global" },
	/* hitcount quirks: first skipped, a lone trailing one ignored */
	{ "hist:keys=a:vals=hitcount,hitcount",
	  "keys=F(a);vals=HC,F(hitcount);vars=;sort=;bits=11;clock=global" },
};

static const struct parse_case parse_err[] = {
	/* trigger-hist-syntax-errors.tc (those found before binding) */
	{ "hist:keys=common_pid:vals=bytes_req:sort=", NULL, "Empty assignment",
	  36 },
	{ "hist:keys=common_pid:vals=bytes_req:sort=common_pid,", NULL,
	  "Empty sort field", 36 },
	{ "hist:keys=common_pid:vals=bytes_req,bytes_alloc:sort=common_pid,bytes_req,bytes_alloc",
	  NULL, "Too many sort fields (Max = 2)", 48 },
	/* trigger-hist-expressions.tc */
	{ "hist:keys=common_pid:x=32+10*3/20-4", NULL,
	  "Too many subexpressions (3 max)", 26 },
	{ "hist:keys=common_pid:x=1+2+3+4+5", NULL,
	  "Too many subexpressions (3 max)", 23 },
	{ "hist:keys=common_pid:x=-(1)+2", NULL,
	  "Unary minus not supported in sub-expressions", 25 },
	/* the last '-' is taken as binary: the 4th operator is "-(" */
	{ "hist:keys=a:x=-(-(-(-(b))))", NULL,
	  "Too many subexpressions (3 max)", 14 },
	{ "hist:keys=a:x=12z", NULL, "Expecting numeric literal", 14 },
	{ "hist:keys=a:x=", NULL, "Empty assignment", 12 },
	/* strstr(): the first "y" is in "keys" */
	{ "hist:keys=a:x=1,y", NULL, "Malformed assignment", 7 },
	{ "hist:keys=a:x=1,qq", NULL, "Malformed assignment", 16 },
	{ "hist:keys=a:x=1,,y=2", NULL, "Malformed assignment", 0 },
	{ "hist:keys=a:onmatch(sched.sched_waking", NULL,
	  "No closing paren found", 20 },
	{ "hist:keys=a:onmatch(sched_waking).x($a)", NULL, "Missing subsystem",
	  20 },
	{ "hist:keys=a:onmatch(a.b)", NULL, "No action found", 0 },
	{ "hist:keys=a:onmatch(a.b).trace", NULL, "No action found", 0 },
	{ "hist:keys=a:onmatch(a.b).save(x,y)", NULL, "Invalid action param",
	  30 },
	{ "hist:keys=a:onmatch(a.b).save(xx,yy)", NULL,
	  "Handler doesn't support action", 25 },
	{ "hist:keys=a:onmatch(a.b).snapshot()", NULL,
	  "Handler doesn't support action", 25 },
	{ "hist:keys=a:onmax($v).snapshot(", NULL, "No closing paren found",
	  0 },
	{ "hist:keys=a:onmax($v).save()", NULL, "Invalid action param", 0 },
	{ "hist:keys=aa:onmatch(a.b).e($x,y)", NULL, "Invalid action param",
	  7 },
	{ "hist:keys=a:vals=b:sort=b.junk:sort=,", NULL, "Empty sort field",
	  19 },
	/* khist messages where the kernel is silent */
	{ "hist:vals=a", NULL, "Missing keys= attribute", 0 },
	{ "hist:keys=a:size=64", NULL, "Invalid size= (must be 128..131072)",
	  12 },
	{ "hist:keys=a:size=262144", NULL,
	  "Invalid size= (must be 128..131072)", 12 },
	{ "hist:keys=a:5", NULL, "Unknown hist trigger attribute", 12 },
	{ "hist:keys=a:junk", NULL, "Unknown hist trigger attribute", 12 },
	{ "hist:keys=a:onmax($v.save(a)", NULL, "No action found", 0 },
	{ "hist:keys=a:onchange($v", NULL,
	  "Missing ')' after onmax(/onchange( variable", 12 },
	{ "hist:keys=a:x=-5", NULL,
	  "Malformed expression (missing operand, or unary minus without -(...))",
	  14 },
	{ "hist:keys=a:x=b+", NULL,
	  "Malformed expression (missing operand, or unary minus without -(...))",
	  14 },
	{ "hist:if x", NULL,
	  "Misplaced 'if': a filter needs text before and after it", 5 },
	{ "hist:keys=a if", NULL,
	  "Misplaced 'if': a filter needs text before and after it", 12 },
	{ "hist", NULL, "Missing hist trigger parameters", 0 },
	{ "hist:keys=a,b,c,d,e,f,g,h,i", NULL, "Too many keys (max 8)", 26 },
	{ "hist:keys=a:vals=a,b,c,d,e,f,g,h", NULL,
	  "Too many values (max 7 besides hitcount)", 31 },
	{ "hist:keys=a:1:2:3:4:5:6:7:8:9", NULL,
	  "Unknown hist trigger attribute", 12 },
	{ "hist:keys=a:onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x():onmax($a).x()",
	  NULL, "Too many handler.action entries (max 8)", 12 },
};

static void check_err(struct kunit *test, const struct parse_case *c, int ret,
		      const struct khist_hist_err *err)
{
	KUNIT_EXPECT_EQ(test, ret < 0, 1);
	KUNIT_ASSERT_GE(test, err->n, 1);
	KUNIT_EXPECT_STREQ(test, khist_hist_err_text(err->e[0].code), c->err);
	if (err->e[0].pos != c->pos)
		KUNIT_FAIL(test, "%s: caret %u, want %d", c->cmd, err->e[0].pos,
			   c->pos);
}

static void hist_parse_table_ok(struct kunit *test)
{
	struct khist_hist_err err;
	struct khist_hist_cmd *cmd;
	static char buf[1024];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parse_ok); i++) {
		const struct parse_case *c = &parse_ok[i];
		int ret = khist_hist_parse(c->cmd, strlen(c->cmd), &cmd, &err);

		if (ret) {
			KUNIT_FAIL(test, "%s: %d %s", c->cmd, ret,
				   khist_hist_err_text(err.e[0].code));
			continue;
		}
		khist_hist_dump(cmd, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, c->dump);
		khist_hist_cmd_free(cmd);
	}
}

static void hist_parse_table_err(struct kunit *test)
{
	struct khist_hist_err err;
	struct khist_hist_cmd *cmd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parse_err); i++) {
		const struct parse_case *c = &parse_err[i];
		int ret = khist_hist_parse(c->cmd, strlen(c->cmd), &cmd, &err);

		if (!ret) {
			ret = khist_hist_syntax_check(cmd, &err);
			khist_hist_cmd_free(cmd);
		}
		check_err(test, c, ret, &err);
	}
}

static void hist_parse_input_untouched(struct kunit *test)
{
	static const char text[] = "hist:keys=a.sym-offset:x=1 if b==2";
	char copy[sizeof(text)];
	struct khist_hist_cmd *cmd;

	memcpy(copy, text, sizeof(text));
	KUNIT_ASSERT_EQ(test, khist_hist_parse(copy, strlen(copy), &cmd, NULL),
			0);
	KUNIT_EXPECT_STREQ(test, copy, text);
	KUNIT_EXPECT_STREQ(test, cmd->cmd, text);
	/* not NUL-terminated input: only len bytes are read */
	khist_hist_cmd_free(cmd);
	KUNIT_ASSERT_EQ(test,
			khist_hist_parse("hist:keys=aXYZ", 11, &cmd, NULL), 0);
	KUNIT_EXPECT_STREQ(test, cmd->cmd, "hist:keys=a");
	khist_hist_cmd_free(cmd);
}

static void hist_parse_nomem(struct kunit *test)
{
	static const char text[] =
		"hist:keys=a,b:vals=c:x=1+2,y=$z:onmax($x).save(aa,bb)";
	struct khist_hist_cmd *cmd;
	int n, ret;

	for (n = 0; n < 20; n++) {
		kshim_fail_after(n);
		ret = khist_hist_parse(text, strlen(text), &cmd, NULL);
		kshim_fail_after(-1);
		if (!ret) {
			khist_hist_cmd_free(cmd);
			break;
		}
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	}
	KUNIT_EXPECT_LT(test, n, 20);
}

static void hist_parse_u64_base0(struct kunit *test)
{
	u64 v = 0;

	KUNIT_EXPECT_EQ(test, khist_parse_u64("0x1F", 4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 31);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("017", 3, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 15);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("+9", 2, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 9);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("08", 2, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("0x", 2, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("18446744073709551616", 20, &v),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, khist_parse_u64("18446744073709551615", 20, &v),
			0);
	KUNIT_EXPECT_EQ(test, v, U64_MAX);
}

static void hist_err_table_complete(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < KHIST_HERR_COUNT; i++)
		KUNIT_EXPECT_NE(test, strcmp(khist_hist_err_text(i), "Error"),
				0);
	KUNIT_EXPECT_STREQ(test, khist_hist_err_text(KHIST_HERR_NEED_NOHC_VAL),
			   "Non-hitcount value is required for 'nohitcount'");
	KUNIT_EXPECT_STREQ(test, khist_hist_err_text(KHIST_HERR_COUNT),
			   "Error");
}

static struct kunit_case hist_parse_cases[] = {
	KUNIT_CASE(hist_parse_table_ok),
	KUNIT_CASE(hist_parse_table_err),
	KUNIT_CASE(hist_parse_input_untouched),
	KUNIT_CASE(hist_parse_nomem),
	KUNIT_CASE(hist_parse_u64_base0),
	KUNIT_CASE(hist_err_table_complete),
	{}
};

static struct kunit_suite hist_parse_suite = {
	.name = "khist_hist_parse",
	.test_cases = hist_parse_cases,
};

kunit_test_suite(hist_parse_suite);
