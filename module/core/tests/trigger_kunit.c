// SPDX-License-Identifier: GPL-2.0
/*
 * trigger_kunit.c - tests of the trigger command grammar: every command,
 * counts (bases, range, "unlimited", text after ':'), targets, the filter
 * part and its "if", removals that read nothing past the target, blanks
 * (Latin-1 included), and the caret of every error; the sys.event.name
 * split of action parameters.
 *
 * A row gives the command and the result rendered as one line; the
 * expected lines follow what ftrace's strsep()-based code makes of the
 * same text (kernel/trace/trace_events_trigger.c, 6.12).
 */
#include <kunit/test.h>
#include "trigger_parse.h"

static const char *trig_render(const char *text, char *buf, size_t size)
{
	struct khist_trig_cmd tc;
	int ret = khist_trigger_parse(text, &tc), n;

	if (ret) {
		snprintf(buf, size, "err=%d@%u%s", tc.err, tc.pos,
			 ret == -ERANGE ? " ERANGE" :
			 ret != -EINVAL ? " ?" :
					  "");
		return buf;
	}
	n = snprintf(buf, size, "%s%s", khist_trigger_kind_name(tc.kind),
		     tc.remove ? " rm" : "");
	if (tc.has_target)
		n += snprintf(buf + n, size - n, " sys=%.*s ev=%.*s",
			      (int)tc.sys.len, text + tc.sys.pos,
			      (int)tc.event.len, text + tc.event.pos);
	if (tc.counted && tc.count == U64_MAX)
		n += snprintf(buf + n, size - n, " n=unlimited");
	else if (tc.counted)
		n += snprintf(buf + n, size - n, " n=%llu",
			      (unsigned long long)tc.count);
	if (tc.has_filter)
		n += snprintf(buf + n, size - n, " if=[%.*s]",
			      (int)tc.filter.len, text + tc.filter.pos);
	if (tc.kind == KHIST_TRIG_HIST && tc.has_params)
		snprintf(buf + n, size - n, " p=[%.*s]", (int)tc.params.len,
			 text + tc.params.pos);
	return buf;
}

#define E(code, pos) "err=" #code "@" #pos

static const struct trig_case {
	const char *text;
	const char *want;
} trig_cases[] = {
	/* counts */
	{ "traceon", "traceon" },
	{ "traceoff:5", "traceoff n=5" },
	{ "traceon:0x10", "traceon n=16" },
	{ "traceon:010", "traceon n=8" },
	{ "traceon:5:junk", "traceon n=5" },
	{ "traceon:5:", "traceon n=5" },
	{ "traceon:5\n", "traceon n=5" },
	{ "traceon:9223372036854775807", "traceon n=9223372036854775807" },
	{ "traceon:18446744073709551615", "traceon n=unlimited" },
	{ "traceon:9223372036854775808", E(4, 8) },
	{ "traceon:18446744073709551614", E(4, 8) },
	{ "traceon:18446744073709551616", E(4, 8) " ERANGE" },
	{ "snapshot:99999999999999999999", E(4, 9) " ERANGE" },
	{ "enable_event:a:b:0x10000000000000000", E(4, 17) " ERANGE" },
	{ "traceon:08", E(4, 8) },
	{ "traceon:0x", E(4, 8) },
	{ "traceon:5x", E(4, 8) },
	{ "traceon::5", E(5, 8) },
	{ "traceon:+5", E(5, 8) },
	{ "traceon:-1", E(5, 8) },
	/* the filter part */
	{ "traceon:5 if pid == 1", "traceon n=5 if=[pid == 1]" },
	{ "traceon if pid == 1", "traceon if=[pid == 1]" },
	{ "traceon  \t if x", "traceon if=[x]" },
	{ "traceon:5  \t if  x ", "traceon n=5 if=[ x ]" },
	{ "stacktrace:5\tif\tx", "stacktrace n=5 if=[x]" },
	{ "snapshot\t5", "snapshot n=5" },
	{ "traceon:5 if ", "traceon n=5 if=[]" },
	{ "traceon:abc", E(5, 8) },
	{ "traceon:5 iff x", E(5, 10) },
	{ "traceon:5 IF x", E(5, 10) },
	{ "traceon if", E(6, 10) },
	{ "traceon:5 if", E(6, 12) },
	{ "traceon:5 iff", E(5, 10) },
	/* the count error comes before the filter's */
	{ "traceon:x5 iff", E(5, 8) },
	{ "traceon:5x iff", E(4, 8) },
	/* Latin-1 blanks: skipped after the word, not a separator */
	{ "traceon:\2405", "traceon n=5" },
	{ "traceon:5\xa0if x", E(4, 8) },
	{ "traceon:5 \xa0 if x", "traceon n=5 if=[x]" },
	/* blanks before the command; the caret counts them */
	{ "  traceon:x", E(5, 10) },
	{ "\ttraceon", "traceon" },
	/* removals read nothing past the target */
	{ "!traceon", "traceon rm" },
	{ "!traceon:junk", "traceon rm" },
	{ "!traceon:5 iff", "traceon rm" },
	{ "!traceon:x5", "traceon rm" },
	{ "!enable_event:sched:sw:x iff", "enable_event rm sys=sched ev=sw" },
	{ "!enable_event", E(2, 13) },
	{ "!disable_hist:a", E(2, 15) },
	/* targets */
	{ "enable_event:sched:sched_switch",
	  "enable_event sys=sched ev=sched_switch" },
	{ "enable_event:sched:sched_switch:3 if prev_pid == 0",
	  "enable_event sys=sched ev=sched_switch n=3 if=[prev_pid == 0]" },
	{ "disable_event:a:b:0x10:zz", "disable_event sys=a ev=b n=16" },
	{ "enable_hist:a:b:4:junk", "enable_hist sys=a ev=b n=4" },
	{ "enable_event:sched:", "enable_event sys=sched ev=" },
	{ "enable_event::", "enable_event sys= ev=" },
	{ "enable_event", E(2, 12) },
	{ "enable_event:", E(2, 13) },
	{ "enable_event:sched", E(2, 18) },
	{ "enable_event:sched if x", E(2, 23) },
	{ "enable_event:sched:sw:", E(4, 22) },
	{ "enable_event:sched:sw:x", E(4, 22) },
	{ "enable_event:sched:sw:5 iff", E(5, 24) },
	{ "disable_hist:a:b foo", E(5, 17) },
	{ "disable_hist:a:b if", E(6, 19) },
	{ "enable_hist 5:a:b", E(4, 16) },
	{ "enable_hist 5:a", "enable_hist sys=5 ev=a" },
	/* hist: the word and its parameters only */
	{ "hist", "hist" },
	{ "hist:keys=pid if x", "hist p=[keys=pid if x]" },
	{ "!hist:keys=pid", "hist rm p=[keys=pid]" },
	{ "hist: \tkeys=pid", "hist p=[keys=pid]" },
	/* unknown commands */
	{ "", E(1, 0) },
	{ "   ", E(1, 3) },
	{ "!", E(1, 0) },
	{ "!!traceon", E(1, 0) },
	{ "traceonx", E(1, 0) },
	{ "Traceon", E(1, 0) },
	{ "trace", E(1, 0) },
	{ "  histo:keys=pid", E(1, 2) },
};

static void trigger_parse_table(struct kunit *test)
{
	char buf[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(trig_cases); i++) {
		const char *got =
			trig_render(trig_cases[i].text, buf, sizeof(buf));

		if (strcmp(got, trig_cases[i].want))
			KUNIT_FAIL(test, "\"%s\": got \"%s\", want \"%s\"",
				   trig_cases[i].text, got, trig_cases[i].want);
	}
}

/* The error codes the table uses by number, and their texts. */
static void trigger_error_texts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KHIST_TRERR_UNKNOWN_CMD, 1);
	KUNIT_EXPECT_EQ(test, KHIST_TRERR_MISSING_EVENT, 2);
	KUNIT_EXPECT_EQ(test, KHIST_TRERR_INVALID_COUNT, 4);
	KUNIT_EXPECT_EQ(test, KHIST_TRERR_EXPECTED_IF, 5);
	KUNIT_EXPECT_EQ(test, KHIST_TRERR_MISSING_FILTER, 6);
	KUNIT_EXPECT_STREQ(test, khist_trigger_err_text(KHIST_TRERR_NONE), "");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_UNKNOWN_CMD), "");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_MISSING_EVENT),
			   "Missing event");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_EVENT_NOT_FOUND),
			   "Event not found");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_INVALID_COUNT),
			   "Invalid count");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_EXPECTED_IF),
			   "Expected 'if' before the filter");
	KUNIT_EXPECT_STREQ(test,
			   khist_trigger_err_text(KHIST_TRERR_MISSING_FILTER),
			   "Missing filter after 'if'");
	KUNIT_EXPECT_STREQ(test, khist_trigger_err_text(KHIST_TRERR_COUNT), "");
	KUNIT_EXPECT_STREQ(test, khist_trigger_err_text(-1), "");
}

/* Names in ftrace's registration order; which take a target. */
static void trigger_kinds(struct kunit *test)
{
	static const char *const names[] = {
		"traceon",     "traceoff",     "snapshot",
		"stacktrace",  "enable_event", "disable_event",
		"enable_hist", "disable_hist", "hist",
	};
	unsigned int k;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(names), KHIST_TRIG_NR);
	for (k = 0; k < KHIST_TRIG_NR; k++) {
		KUNIT_EXPECT_STREQ(test, khist_trigger_kind_name(k), names[k]);
		KUNIT_EXPECT_EQ(test, khist_trigger_kind_has_target(k),
				!strncmp(names[k], "enable_", 7) ||
					!strncmp(names[k], "disable_", 8));
	}
	KUNIT_EXPECT_STREQ(test, khist_trigger_kind_name(KHIST_TRIG_NR), "");
	KUNIT_EXPECT_STREQ(test, khist_trigger_kind_name(-1), "");
}

static void trigger_split_dotted(struct kunit *test)
{
	static const struct {
		const char *s;
		int ret;
		const char *sys, *event, *rest;
	} cases[] = {
		{ "pid", 0, NULL, NULL, "pid" },
		{ "", 0, NULL, NULL, "" },
		{ "sched.sched_switch.prev_pid", 1, "sched", "sched_switch",
		  "prev_pid" },
		{ "a.b.c.d", 1, "a", "b", "c.d" },
		{ "a..c", 1, "a", "", "c" },
		{ "..", 1, "", "", "" },
		{ "a.b", -EINVAL, NULL, NULL, NULL },
		{ ".", -EINVAL, NULL, NULL, NULL },
	};
	struct khist_trig_span sys, event, rest;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *s = cases[i].s;

		ret = khist_trigger_split_dotted(s, strlen(s), &sys, &event,
						 &rest);
		KUNIT_EXPECT_EQ(test, ret, cases[i].ret);
		if (ret < 0)
			continue;
		KUNIT_EXPECT_EQ(test, rest.len, strlen(cases[i].rest));
		KUNIT_EXPECT_TRUE(test, !strncmp(s + rest.pos, cases[i].rest,
						 rest.len));
		if (!ret)
			continue;
		KUNIT_EXPECT_EQ(test, sys.len, strlen(cases[i].sys));
		KUNIT_EXPECT_TRUE(test,
				  !strncmp(s + sys.pos, cases[i].sys, sys.len));
		KUNIT_EXPECT_EQ(test, event.len, strlen(cases[i].event));
		KUNIT_EXPECT_TRUE(test, !strncmp(s + event.pos, cases[i].event,
						 event.len));
	}
}

static struct kunit_case trigger_cases[] = { KUNIT_CASE(trigger_parse_table),
					     KUNIT_CASE(trigger_error_texts),
					     KUNIT_CASE(trigger_kinds),
					     KUNIT_CASE(trigger_split_dotted),
					     {} };

static struct kunit_suite trigger_suite = {
	.name = "khist_trigger_parse",
	.test_cases = trigger_cases,
};

kunit_test_suite(trigger_suite);
