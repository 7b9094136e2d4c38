// SPDX-License-Identifier: GPL-2.0
/*
 * hist_bind_kunit.c - binder and printer tests against a few realistic
 * event layouts: command -> trigger listing (and listing -> parse ->
 * same listing), command -> error_log entries with carets, and the key
 * layout. Includes every check_error case of the 6.12 ftrace selftests
 * that applies to hist commands.
 */
#include <kunit/test.h>
#include "hist_bind.h"
#include "hist_print.h"

#define F(n, t, o, s, sg, k, e)      \
	{                            \
		n, t, o, s, sg, k, e \
	}

static const struct khist_field_desc sched_switch_f[] = {
	F("prev_comm", "char[16]", 8, 16, 0, KHIST_FK_STRING, 1),
	F("prev_pid", "pid_t", 24, 4, 1, KHIST_FK_INT, 4),
	F("prev_prio", "int", 28, 4, 1, KHIST_FK_INT, 4),
	F("prev_state", "long", 32, 8, 1, KHIST_FK_INT, 8),
	F("next_comm", "char[16]", 40, 16, 0, KHIST_FK_STRING, 1),
	F("next_pid", "pid_t", 56, 4, 1, KHIST_FK_INT, 4),
	F("next_prio", "int", 60, 4, 1, KHIST_FK_INT, 4),
};

static const struct khist_field_desc kmalloc_f[] = {
	F("call_site", "unsigned long", 8, 8, 0, KHIST_FK_INT, 8),
	F("ptr", "const void *", 16, 8, 0, KHIST_FK_INT, 8),
	F("bytes_req", "size_t", 24, 8, 0, KHIST_FK_INT, 8),
	F("bytes_alloc", "size_t", 32, 8, 0, KHIST_FK_INT, 8),
	F("gfp_flags", "unsigned long", 40, 8, 0, KHIST_FK_INT, 8),
	F("node", "int", 48, 4, 1, KHIST_FK_INT, 4),
};

static const struct khist_field_desc sys_enter_f[] = {
	F("id", "long", 8, 8, 1, KHIST_FK_INT, 8),
	F("args", "unsigned long[6]", 16, 48, 0, KHIST_FK_ARRAY, 8),
};

static const struct khist_field_desc exec_f[] = {
	F("filename", "__data_loc char[]", 8, 4, 0, KHIST_FK_DYNSTRING, 1),
	F("pid", "pid_t", 12, 4, 1, KHIST_FK_INT, 4),
	F("old_pid", "pid_t", 16, 4, 1, KHIST_FK_INT, 4),
};

static const struct khist_field_desc fork_f[] = {
	F("parent_comm", "char[16]", 8, 16, 0, KHIST_FK_STRING, 1),
	F("parent_pid", "pid_t", 24, 4, 1, KHIST_FK_INT, 4),
	F("child_comm", "char[16]", 28, 16, 0, KHIST_FK_STRING, 1),
	F("child_pid", "pid_t", 44, 4, 1, KHIST_FK_INT, 4),
};

static const struct khist_field_desc wake_lat_f[] = {
	F("pid", "pid_t", 8, 4, 1, KHIST_FK_INT, 4),
	F("delta", "u64", 16, 8, 0, KHIST_FK_INT, 8),
	F("stack", "unsigned long[]", 24, 4, 0, KHIST_FK_STACKTRACE, 8),
	F("comm", "char *", 32, 8, 0, KHIST_FK_PTRSTRING, 8),
};

static const struct khist_event_schema sched_switch = {
	.system = "sched",
	.name = "sched_switch",
	.id = 1,
	.fields = sched_switch_f,
	.nr_fields = ARRAY_SIZE(sched_switch_f),
	.rec_size = 64,
};

static const struct khist_event_schema ev_kmalloc = {
	.system = "kmem",
	.name = "kmalloc",
	.id = 1,
	.fields = kmalloc_f,
	.nr_fields = ARRAY_SIZE(kmalloc_f),
	.rec_size = 64,
};

static const struct khist_event_schema sys_enter = {
	.system = "raw_syscalls",
	.name = "sys_enter",
	.id = 1,
	.fields = sys_enter_f,
	.nr_fields = ARRAY_SIZE(sys_enter_f),
	.rec_size = 64,
};

static const struct khist_event_schema ev_sched_exec = {
	.system = "sched",
	.name = "sched_process_exec",
	.id = 1,
	.fields = exec_f,
	.nr_fields = ARRAY_SIZE(exec_f),
	.rec_size = 64,
};

static const struct khist_event_schema ev_sched_fork = {
	.system = "sched",
	.name = "sched_process_fork",
	.id = 1,
	.fields = fork_f,
	.nr_fields = ARRAY_SIZE(fork_f),
	.rec_size = 64,
};

static const struct khist_event_schema wake_lat = {
	.system = "synthetic",
	.name = "wake_lat",
	.id = 1,
	.fields = wake_lat_f,
	.nr_fields = ARRAY_SIZE(wake_lat_f),
	.rec_size = 64,
};

struct list_case {
	const struct khist_event_schema *sc;
	const char *cmd;
	const char *listing;
};

static const struct list_case list_cases[] = {
	{ &ev_sched_fork, "hist:keys=common_pid",
	  "hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]\n" },
	{ &ev_kmalloc,
	  "hist:keys=call_site.sym:vals=bytes_req:sort=bytes_req.descending",
	  "hist:keys=call_site.sym:vals=hitcount,bytes_req:sort=bytes_req.descending:size=2048 [active]\n" },
	{ &ev_sched_exec,
	  "hist:keys=pid:ts0=common_timestamp.usecs if comm==\"cyclictest\"",
	  "hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:size=2048:clock=global if comm==\"cyclictest\" [active]\n" },
	{ &sched_switch,
	  "hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$saved_pid,next_prio) if next_comm==\"cyclictest\"",
	  "hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,$saved_pid,next_prio) if next_comm==\"cyclictest\" [active]\n" },
	{ &ev_kmalloc, "hist:name=foo:keys=ptr.hex:vals=bytes_alloc",
	  "hist:name=foo:keys=ptr.hex:vals=hitcount,bytes_alloc:sort=hitcount:size=2048 [active]\n" },
	{ &sched_switch,
	  "hist:keys=prev_pid,prev_prio,next_pid.buckets=10:sort=next_pid.buckets=10",
	  "hist:keys=prev_pid,prev_prio,next_pid.buckets=10:vals=hitcount:sort=next_pid.buckets=10:size=2048 [active]\n" },
	{ &sys_enter,
	  "hist:keys=id.syscall:vals=hitcount:sort=id.syscall.descending,hitcount",
	  "hist:keys=id.syscall:vals=hitcount:sort=id.syscall.descending,hitcount:size=2048 [active]\n" },
	/* trigger-hist-expressions.tc: folded constants */
	{ &ev_sched_fork, "hist:keys=common_pid:x=123",
	  "hist:keys=common_pid:vals=hitcount:x=123:sort=hitcount:size=2048 [active]\n" },
	{ &ev_sched_fork,
	  "hist:keys=common_pid:x=16-8-4-2,a=64/8/4/2,b=16-8+4+2,c=4*3/2*2,d=4+3*2-2,e=4+6/2-2",
	  "hist:keys=common_pid:vals=hitcount:x=2,a=1,b=14,c=12,d=8,e=5:sort=hitcount:size=2048 [active]\n" },
	/* khist: exact constant division (the kernel lists 4) */
	{ &ev_sched_fork, "hist:keys=common_pid:x=10/3",
	  "hist:keys=common_pid:vals=hitcount:x=3:sort=hitcount:size=2048 [active]\n" },
	{ &ev_kmalloc, "hist:keys=common_pid:vals=bytes_req:NOHC",
	  "hist:keys=common_pid:vals=bytes_req:sort=hitcount:size=2048:nohitcount [active]\n" },
	{ &ev_kmalloc,
	  "hist:keys=stacktrace,cpu:vals=hitcount.percent,bytes_req.graph:pause",
	  "hist:keys=common_stacktrace,common_cpu:vals=hitcount,hitcount.percent,bytes_req.graph:sort=hitcount:size=2048 [active]\n" },
	{ &sched_switch, "hist:keys=$testpid:testpid=next_pid:size=100",
	  "hist:keys=next_pid:vals=hitcount:testpid=next_pid:sort=hitcount:size=128 [active]\n" },
	{ &sched_switch,
	  "hist:keys=common_pid.execname,next_comm:vals=prev_prio.hex:x=common_pid.execname,t=common_timestamp:clock=mono:sort=next_comm.descending",
	  "hist:keys=common_pid.execname,next_comm:vals=hitcount,prev_prio.hex:x=common_pid.execname,t=common_timestamp:sort=next_comm.descending:size=2048:clock=mono [active]\n" },
	{ &wake_lat,
	  "hist:keys=delta.buckets=100,stack.stacktrace:s=common_stacktrace:onmax($s).save(comm,pid):onchange($s).snapshot()",
	  "hist:keys=delta.buckets=100,stack.stacktrace:vals=hitcount:s=common_stacktrace:sort=hitcount:size=2048:onmax($s).save(comm,pid):onchange($s).snapshot() [active]\n" },
	{ &sched_switch,
	  "hist:keys=next_pid:l=-(prev_pid*2),m=sched.sched_waking.$x,n=$y:onmatch(a.b).trace(synth,$l, next_prio)",
	  "hist:keys=next_pid:vals=hitcount:l=-(prev_pid*2),m=sched.sched_waking.$x,n=$y:sort=hitcount:size=2048:onmatch(a.b).trace(synth,$l,next_prio) [active]\n" },
	{ &sched_switch,
	  "hist:keys=next_pid:vals=prev_pid-next_pid:sort=prev_pid-next_pid:x=common_timestamp.usecs-common_timestamp.usecs",
	  "hist:keys=next_pid:vals=hitcount,prev_pid-next_pid:x=common_timestamp.usecs-common_timestamp.usecs:sort=prev_pid-next_pid:size=2048:clock=global [active]\n" },
	{ &sched_switch, "hist:keys=next_pid.sym-offset:vals=prev_state.usecs",
	  "hist:keys=next_pid.sym-offset:vals=hitcount,prev_state.usecs:sort=hitcount:size=2048 [active]\n" },
};

struct err_case {
	const struct khist_event_schema *sc;
	const char *cmd;
	const char *err;
	int pos;
	const char *err2; /* second entry, or NULL */
};

static const struct err_case err_cases[] = {
	/* trigger-hist-syntax-errors.tc, all five */
	{ &ev_kmalloc,
	  "hist:keys=common_pid:vals=bytes_req:sort=common_pid,junk",
	  "Sort field must be a key or a val", 52 },
	{ &ev_kmalloc,
	  "hist:keys=common_pid:vals=bytes_req:sort=", "Empty assignment", 36 },
	{ &ev_kmalloc, "hist:keys=common_pid:vals=bytes_req:sort=common_pid,",
	  "Empty sort field", 36 },
	{ &ev_kmalloc,
	  "hist:keys=common_pid:vals=bytes_req:sort=common_pid.junk",
	  "Invalid sort modifier", 52 },
	{ &ev_kmalloc,
	  "hist:keys=common_pid:vals=bytes_req,bytes_alloc:sort=common_pid,bytes_req,bytes_alloc",
	  "Too many sort fields (Max = 2)", 48 },
	/* trigger-hist-expressions.tc, all four */
	{ &ev_sched_fork, "hist:keys=common_pid:x=32+10*3/20-4",
	  "Too many subexpressions (3 max)", 26 },
	{ &ev_sched_fork, "hist:keys=common_pid:x=1+2+3+4+5",
	  "Too many subexpressions (3 max)", 23 },
	{ &ev_sched_fork, "hist:keys=common_pid:x=-(1)+2",
	  "Unary minus not supported in sub-expressions", 25 },
	{ &ev_sched_fork, "hist:keys=common_pid:x=3/0", "Division by zero",
	  25 },
	/* binder errors */
	{ &ev_kmalloc, "hist:keys=junk", "Couldn't find field", 10 },
	{ &ev_kmalloc, "hist:keys=ptr.junk", "Invalid field modifier", 14 },
	{ &ev_kmalloc, "hist:keys=ptr.percent", "Invalid field modifier", 14 },
	{ &ev_kmalloc, "hist:keys=ptr.execname", "Invalid field modifier", 14 },
	{ &ev_kmalloc, "hist:keys=ptr.buckets=0", "Invalid field modifier",
	  22 },
	{ &ev_kmalloc, "hist:keys=ptr.bucketz=4", "Invalid field modifier",
	  20 },
	{ &ev_kmalloc, "hist:keys=ptr.stacktrace", "Invalid field modifier",
	  10 },
	{ &ev_kmalloc, "hist:keys=ptr:vals=bytes_req.log2",
	  "Invalid field modifier", 19 },
	{ &ev_kmalloc, "hist:keys=ptr:vals=call_site.sym",
	  "Invalid field modifier", 19 },
	{ &ev_kmalloc, "hist:keys=ptr:vals=common_stacktrace",
	  "Invalid field modifier", 19 },
	{ &ev_kmalloc, "hist:keys=ptr:xx=bytes_req.graph",
	  "Invalid field modifier", 27 },
	{ &ev_kmalloc, "hist:keys=ptr:xx=bytes_req.log2",
	  "Invalid field modifier", 17 },
	{ &ev_kmalloc, "hist:keys=ptr:vals=hitcount:NOHC",
	  "Non-hitcount value is required for 'nohitcount'", 0 },
	{ &sched_switch, "hist:keys=next_pid:x=prev_comm+1",
	  "String type can not be an operand in expression", 21 },
	{ &sched_switch, "hist:keys=next_pid:x=1-next_comm",
	  "String type can not be an operand in expression", 23 },
	{ &sched_switch, "hist:keys=next_pid:x=-(next_comm)",
	  "String type can not be an operand in expression", 23 },
	{ &sched_switch,
	  "hist:keys=next_pid:x=common_timestamp.usecs-common_timestamp",
	  "Timestamp units in expression don't match", 0 },
	{ &sched_switch, "hist:keys=$ts0",
	  "Using variable references in keys not supported", 10 },
	{ &sched_switch, "hist:keys=next_pid:vals=$lat:lat=prev_pid+1",
	  "Couldn't find variable", 25, "Couldn't find field" },
	{ &sched_switch, "hist:keys=next_pid:zz=prev_pid,zz=next_prio",
	  "Variable already defined", 19 },
	{ &sched_switch, "hist:keys=next_pid:x=$nosuch",
	  "Couldn't find variable", 22, "Couldn't find field" },
	/* strstr(): the first "x" is in "next_pid" */
	{ &sched_switch, "hist:keys=next_pid:onmax(x).save(prev_pid)",
	  "For onmax(x) or onchange(x), x must be a variable", 12 },
	{ &sched_switch, "hist:keys=next_pid:onchange($q).save(prev_pid)",
	  "Couldn't find onmax or onchange variable", 29 },
	{ &sched_switch,
	  "hist:keys=next_pid:q=prev_prio:onmax($q).save(prev_pid):onmax($q).save(next_pid)",
	  "Can't have more than one save() action per hist", 0 },
	{ &sched_switch, "hist:keys=next_pid:onmatch(no.such).x($y)",
	  "Invalid subsystem or event name", 30 },
	{ &sched_switch, "hist:keys=next_pid:sort=next_pid.buckets=3",
	  "Invalid sort modifier", 33 },
	{ &sched_switch,
	  "hist:keys=next_pid:vals=hitcount,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p",
	  "Couldn't find field", 20 },
	/* khist limits and khist messages */
	{ &ev_sched_exec, "hist:keys=filename,filename,filename,filename,pid",
	  "Compound key too large (max 1024 bytes)", 46 },
	{ &sys_enter, "hist:keys=args",
	  "Field type can not be used in a hist trigger", 10 },
	{ &sched_switch,
	  "hist:keys=next_pid,prev_pid,next_prio,prev_prio,prev_state,common_pid,next_comm,prev_comm,cpu",
	  "Too many keys (max 8)", 90 },
};

static bool exists(void *ctx, const char *sys, const char *ev)
{
	return !strcmp(sys, "sched");
}

static int find_var(void *ctx, const char *sys, const char *ev, const char *var,
		    struct khist_var_info *info)
{
	if (!strcmp(var, "ts0")) {
		info->usecs = 1;
		info->size = 8;
		return 0;
	}
	if (!strcmp(var, "dup"))
		return -ENOTUNIQ;
	if (!strcmp(var, "zero")) {
		info->is_const = 1;
		info->constant = 0;
		return 0;
	}
	if (!strcmp(var, "str")) {
		info->is_string = 1;
		info->size = 16;
		return 0;
	}
	return -ENOENT;
}

static const struct khist_bind_ops test_ops = {
	.event_exists = exists,
	.find_var = find_var,
};

static void hist_bind_listing(struct kunit *test)
{
	struct khist_hist_spec *sp, *sp2;
	struct khist_hist_err err;
	static char buf[1024], buf2[1024];
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(list_cases); i++) {
		const struct list_case *c = &list_cases[i];
		int ret = khist_hist_compile(c->cmd, strlen(c->cmd), c->sc,
					     NULL, &sp, &err);

		if (ret) {
			KUNIT_FAIL(test, "%s: %d %s @%u", c->cmd, ret,
				   khist_hist_err_text(err.e[0].code),
				   err.e[0].pos);
			continue;
		}
		n = khist_hist_print(sp, false, buf, sizeof(buf));
		KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
		KUNIT_EXPECT_STREQ(test, buf, c->listing);
		/* round trip: the listing (minus state) parses back to itself */
		n -= strlen(" [active]\n");
		ret = khist_hist_compile(buf, n, c->sc, NULL, &sp2, &err);
		if (ret) {
			KUNIT_FAIL(test, "round trip of %s: %s @%u", buf,
				   khist_hist_err_text(err.e[0].code),
				   err.e[0].pos);
		} else {
			khist_hist_print(sp2, false, buf2, sizeof(buf2));
			KUNIT_EXPECT_STREQ(test, buf2, buf);
			khist_hist_spec_free(sp2);
		}
		khist_hist_spec_free(sp);
	}
}

static void hist_bind_errors(struct kunit *test)
{
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(err_cases); i++) {
		const struct err_case *c = &err_cases[i];
		int ret = khist_hist_compile(c->cmd, strlen(c->cmd), c->sc,
					     &test_ops, &sp, &err);

		if (!ret) {
			KUNIT_FAIL(test, "%s: accepted", c->cmd);
			khist_hist_spec_free(sp);
			continue;
		}
		KUNIT_ASSERT_GE(test, err.n, 1);
		KUNIT_EXPECT_STREQ(test, khist_hist_err_text(err.e[0].code),
				   c->err);
		if (err.e[0].pos != c->pos)
			KUNIT_FAIL(test, "%s: caret %u, want %d", c->cmd,
				   err.e[0].pos, c->pos);
		KUNIT_EXPECT_EQ(test, err.n, c->err2 ? 2 : 1);
		if (c->err2 && err.n == 2)
			KUNIT_EXPECT_STREQ(test,
					   khist_hist_err_text(err.e[1].code),
					   c->err2);
	}
}

static void hist_bind_key_layout(struct kunit *test)
{
	static const char cmd[] =
		"hist:keys=common_pid,prev_comm,cpu,stacktrace:vals=prev_prio";
	static const char cmd2[] = "hist:keys=filename,filename,pid";
	struct khist_hist_spec *sp;

	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd, strlen(cmd), &sched_switch,
					   NULL, &sp, NULL),
			0);
	KUNIT_EXPECT_EQ(test, sp->n_keys, 4);
	KUNIT_EXPECT_EQ(test, sp->keys[0].offset, 0);
	KUNIT_EXPECT_EQ(test, sp->keys[0].size, 8);
	KUNIT_EXPECT_EQ(test, sp->keys[0].f->field->offset, 4);
	KUNIT_EXPECT_TRUE(test, sp->keys[0].f->is_signed);
	KUNIT_EXPECT_EQ(test, sp->keys[1].offset, 8);
	KUNIT_EXPECT_EQ(test, sp->keys[1].size, 16);
	KUNIT_EXPECT_TRUE(test, sp->keys[1].f->flags & KHIST_HF_STRING);
	KUNIT_EXPECT_EQ(test, sp->keys[2].f->kind, KHIST_BF_CPU);
	KUNIT_EXPECT_EQ(test, sp->keys[2].size, 8);
	KUNIT_EXPECT_EQ(test, sp->keys[3].f->kind, KHIST_BF_STACK);
	KUNIT_EXPECT_EQ(test, sp->keys[3].size, 128);
	KUNIT_EXPECT_EQ(test, sp->key_size, 160);
	KUNIT_EXPECT_EQ(test, sp->n_vals, 2);
	KUNIT_EXPECT_EQ(test, sp->vals[1]->field->offset, 28);
	khist_hist_spec_free(sp);

	/* two dynamic strings: impossible in the kernel, fine in khist */
	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd2, strlen(cmd2), &ev_sched_exec,
					   NULL, &sp, NULL),
			0);
	KUNIT_EXPECT_EQ(test, sp->keys[1].offset, 256);
	KUNIT_EXPECT_EQ(test, sp->key_size, 520);
	khist_hist_spec_free(sp);
}

static void hist_bind_exprs(struct kunit *test)
{
	static const char cmd[] =
		"hist:keys=next_pid:lat=common_timestamp.usecs-$ts0,k=prev_pid/$zero,u=prev_pid-(1)";
	static const char cmd2[] =
		"hist:keys=next_pid:lat=common_timestamp.usecs-$ts0,q=$dup";
	static const char cmd3[] =
		"hist:keys=next_pid:lat=common_timestamp.usecs-$ts0";
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	const struct khist_bfield *f;

	/* u=prev_pid-(1): "(1)" is a field name, as in the kernel */
	KUNIT_EXPECT_EQ(test,
			khist_hist_compile(cmd, strlen(cmd), &sched_switch,
					   &test_ops, &sp, &err),
			-EDOM);
	KUNIT_EXPECT_STREQ(test, khist_hist_err_text(err.e[0].code),
			   "Division by zero");
	KUNIT_EXPECT_EQ(test,
			khist_hist_compile(cmd2, strlen(cmd2), &sched_switch,
					   &test_ops, &sp, &err),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, khist_hist_err_text(err.e[0].code),
			   khist_hist_err_text(KHIST_HERR_VAR_NOT_UNIQUE));
	KUNIT_ASSERT_EQ(test,
			khist_hist_compile(cmd3, strlen(cmd3), &sched_switch,
					   &test_ops, &sp, &err),
			0);
	f = sp->vars[0].f;
	KUNIT_EXPECT_EQ(test, f->kind, KHIST_BF_BINOP);
	KUNIT_EXPECT_EQ(test, f->op, '-');
	KUNIT_EXPECT_EQ(test, f->l->kind, KHIST_BF_TIMESTAMP);
	KUNIT_EXPECT_EQ(test, f->r->kind, KHIST_BF_VARREF);
	KUNIT_EXPECT_TRUE(test, f->r->ref_resolved);
	KUNIT_EXPECT_STREQ(test, f->name, "common_timestamp.usecs-$ts0");
	KUNIT_EXPECT_TRUE(test, sp->ts_usecs);
	KUNIT_EXPECT_TRUE(test, sp->timestamps);
	khist_hist_spec_free(sp);
}

static void hist_bind_nomem(struct kunit *test)
{
	static const char cmd[] =
		"hist:keys=next_pid:vals=prev_prio:x=1+2,y=prev_pid:sort=x";
	struct khist_hist_spec *sp;
	int n, ret;

	for (n = 0; n < 30; n++) {
		kshim_fail_after(n);
		ret = khist_hist_compile(cmd, strlen(cmd) - 7, &sched_switch,
					 NULL, &sp, NULL);
		kshim_fail_after(-1);
		if (!ret) {
			khist_hist_spec_free(sp);
			break;
		}
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	}
	KUNIT_EXPECT_LT(test, n, 30);
}

/*
 * A reference to a string variable is an operand like any other (the
 * kernel's reference fields have no string flag); a string field is not.
 */
static void hist_bind_str_ref_operand(struct kunit *test)
{
	static const char *const ok[] = {
		"hist:keys=next_pid:x=$str+1",
		"hist:keys=next_pid:x=1-$str",
		"hist:keys=next_pid:x=-($str)",
	};
	static const char bad[] = "hist:keys=next_pid:x=next_comm+$str";
	struct khist_hist_spec *sp;
	struct khist_hist_err err;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		if (khist_hist_compile(ok[i], strlen(ok[i]), &sched_switch,
				       &test_ops, &sp, &err)) {
			KUNIT_FAIL(test, "%s: %s", ok[i],
				   khist_hist_err_text(err.e[0].code));
			continue;
		}
		KUNIT_EXPECT_FALSE(test,
				   sp->vars[0].f->flags & KHIST_HF_STRING);
		khist_hist_spec_free(sp);
	}
	KUNIT_ASSERT_NE(test,
			khist_hist_compile(bad, strlen(bad), &sched_switch,
					   &test_ops, &sp, &err),
			0);
	KUNIT_EXPECT_EQ(test, err.e[0].code,
			(unsigned int)KHIST_HERR_INVALID_STR_OPERAND);
}

static struct kunit_case hist_bind_cases[] = {
	KUNIT_CASE(hist_bind_listing),
	KUNIT_CASE(hist_bind_errors),
	KUNIT_CASE(hist_bind_key_layout),
	KUNIT_CASE(hist_bind_exprs),
	KUNIT_CASE(hist_bind_nomem),
	KUNIT_CASE(hist_bind_str_ref_operand),
	{},
};

static struct kunit_suite hist_bind_suite = {
	.name = "khist_hist_bind",
	.test_cases = hist_bind_cases,
};

kunit_test_suite(hist_bind_suite);
