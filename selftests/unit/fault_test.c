// SPDX-License-Identifier: GPL-2.0
/*
 * fault_test.c - allocation fault injection on every configuration entry
 * point of the portable core: hist trigger compile, filter compile,
 * synthetic event parse, map create, grow and snapshot, and the error_log
 * ring.
 *
 * For each case the call is first made without faults (the reference),
 * counting its allocations. Then, for k = 0, 1, ..., the k-th allocation
 * of the call is made to fail (kshim_fail_after(k)) until the call makes
 * fewer than k + 1 allocations. Every faulted call must return -ENOMEM
 * (ERR_PTR(-ENOMEM), or -ENOMEM with the log untouched), hand back no
 * object, leave the shim's live allocation count where it was, and leave
 * the object it works on (map, log) exactly as before. The first call
 * that runs to the end must give the reference result. Prints TAP and the
 * number of faults injected per entry point.
 */
#include <kshim/kernel.h>
#include "hist_bind.h"
#include "hist_print.h"
#include "filter_parse.h"
#include "map.h"
#include "errlog.h"
#include "synth_parse.h"
#include "../fuzz/schemas.h"

static int tap, failed;
static long faults_total;
static char why[4800];

#define FAIL(...)                                        \
	do {                                             \
		snprintf(why, sizeof(why), __VA_ARGS__); \
		return false;                            \
	} while (0)

static void report(bool ok, long faults, const char *what)
{
	printf("%sok %d - %s (%ld faults)\n", ok ? "" : "not ", ++tap, what,
	       faults);
	if (!ok) {
		printf("# %s\n", why);
		failed++;
	}
	faults_total += faults;
}

/*
 * Runs @call with the k-th allocation failing, for every k the call
 * reaches. @call returns true when its result is the reference, false
 * when it failed cleanly (-ENOMEM, nothing changed); it sets @why and
 * returns false with *@bad set for anything else.
 */
typedef bool (*fault_fn)(void *ctx, bool faulted, bool *bad);

static bool inject(fault_fn call, void *ctx, long *faults)
{
	long k, calls, live = kshim_live_allocations();
	bool bad = false, done;

	*faults = 0;
	for (k = 0;; k++) {
		calls = kshim_alloc_calls();
		kshim_fail_after(k);
		done = call(ctx, true, &bad);
		kshim_fail_after(-1);
		if (bad)
			return false;
		if (kshim_alloc_calls() - calls <= k) {
			/* Nothing failed: this was a full run. */
			if (!done)
				FAIL("k=%ld: unfaulted call differs", k);
			return true;
		}
		(*faults)++;
		if (done)
			continue; /* a failure the code may absorb */
		if (kshim_live_allocations() != live)
			FAIL("k=%ld: %ld allocations left", k,
			     kshim_live_allocations() - live);
	}
}

/* ---- hist trigger compile ---------------------------------------------- */

static int fvar(void *ctx, const char *sys, const char *ev, const char *var,
		struct khist_var_info *info)
{
	if (!strcmp(var, "ts0")) {
		info->usecs = 1;
		info->size = 8;
		return 0;
	}
	return -ENOENT;
}

static const struct khist_bind_ops hops = { .find_var = fvar };

struct hist_case {
	const struct khist_event_schema *sc;
	const char *cmd;
	int ret;
	char ref[2048];
	struct khist_hist_err err;
};

static struct hist_case hist_cases[] = {
	{ &fz_sched_switch,
	  "hist:keys=next_pid:vals=prev_prio:x=1+2,y=prev_pid" },
	{ &fz_sched_switch,
	  "hist:keys=common_pid.execname,next_comm:vals=prev_prio.hex:x=common_pid.execname,t=common_timestamp:clock=mono:sort=next_comm.descending" },
	{ &fz_sched_switch,
	  "hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_prio) if next_comm==\"cyclictest\"" },
	{ &fz_sched_switch,
	  "hist:keys=next_pid:l=-(prev_pid*2),m=sched.sched_waking.$x,n=$y:onmatch(a.b).trace(synth,$l, next_prio)" },
	{ &fz_kmalloc, "hist:name=foo:keys=ptr.hex:vals=bytes_alloc:size=256" },
	{ &fz_kmalloc,
	  "hist:keys=stacktrace,cpu:vals=hitcount.percent,bytes_req.graph:pause" },
	{ &fz_sys_enter,
	  "hist:keys=id.syscall:vals=hitcount:sort=id.syscall.descending,hitcount" },
	{ &fz_allkinds,
	  "hist:keys=f_u64.buckets=100,stack.stacktrace,name,dstr:vals=f_s8,f_u16.log2:s=common_stacktrace:onmax($s).save(name,pid):onchange($s).snapshot()" },
	/* errors: the reference is the error */
	{ &fz_kmalloc,
	  "hist:keys=common_pid:vals=bytes_req:sort=common_pid,junk" },
	{ &fz_sched_switch, "hist:keys=next_pid:vals=$lat:lat=prev_pid+1" },
	{ &fz_sched_switch, "hist:keys=common_pid:x=3/0" },
	{ &fz_sys_enter, "hist:keys=args" },
};

static bool hist_call(void *ctx, bool faulted, bool *bad)
{
	struct hist_case *c = ctx;
	struct khist_hist_spec *sp = (void *)1;
	struct khist_hist_err err;
	char buf[2048];
	int ret;

	ret = khist_hist_compile(c->cmd, strlen(c->cmd), c->sc, &hops, &sp,
				 &err);
	if (!faulted) {
		c->ret = ret;
		c->err = err;
		c->ref[0] = '\0';
		if (!ret) {
			khist_hist_print(sp, false, c->ref, sizeof(c->ref));
			khist_hist_spec_free(sp);
		}
		return true;
	}
	if (ret == -ENOMEM) {
		if (sp) {
			*bad = true;
			FAIL("-ENOMEM with a spec");
		}
		return false;
	}
	if (ret != c->ret) {
		*bad = true;
		FAIL("got %d, want %d (%s)", ret, c->ret,
		     ret ? khist_hist_err_text(err.e[0].code) : "");
	}
	if (ret) {
		if (memcmp(&err, &c->err, sizeof(err))) {
			*bad = true;
			FAIL("other error: %s @%u",
			     khist_hist_err_text(err.e[0].code), err.e[0].pos);
		}
		return true;
	}
	khist_hist_print(sp, false, buf, sizeof(buf));
	khist_hist_spec_free(sp);
	if (strcmp(buf, c->ref)) {
		*bad = true;
		FAIL("listing %s, want %s", buf, c->ref);
	}
	return true;
}

static void test_hist(void)
{
	unsigned int i;
	long faults, all = 0;
	bool ok = true, bad = false;

	for (i = 0; i < ARRAY_SIZE(hist_cases) && ok; i++) {
		hist_call(&hist_cases[i], false, &bad);
		ok = inject(hist_call, &hist_cases[i], &faults);
		all += faults;
		if (!ok)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " [%s]", hist_cases[i].cmd);
	}
	report(ok, all, "hist trigger compile");
}

/* ---- filter compile ---------------------------------------------------- */

struct filter_case {
	const struct khist_event_schema *sc;
	const char *text;
	int ret;
	struct khist_filter_error err;
	u64 matches;
};

static struct filter_case filter_cases[] = {
	{ &fz_allkinds, "common_pid == 1 || (f_s8 < 3 && dstr ~ \"a*\")" },
	{ &fz_allkinds, "mask & CPUS{1,3} || target_cpu == CPUS{0-3}" },
	{ &fz_allkinds, "ip.function == schedule && pstr.ustring ~ \"*sh\"" },
	{ &fz_allkinds,
	  "name ~ \"[ab]*\" && !(f_u64 > 0x10 || comm == \"bash\") && rstr != \"x\"" },
	{ &fz_sched_switch, "prev_comm == \"bash\" && next_prio < 100" },
	{ &fz_allkinds, "f_s8 == \"x\"" },
	{ &fz_allkinds, "((cpu == 1)" },
	{ &fz_allkinds, "nosuch > 3" },
};

/* The filter's answers on 64 fixed records, one bit each. */
static u64 filter_answers(const struct khist_filter *f)
{
	struct khist_filter_ctx ctx = { .fetch_str = fz_fetch_str };
	char strbuf[KHIST_FILTER_STRBUF];
	u8 rec[160];
	u64 bits = 0, x = 1;
	unsigned int r, i;

	ctx.strbuf = strbuf;
	for (r = 0; r < 64; r++) {
		for (i = 0; i < sizeof(rec); i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			rec[i] = (x >> 59) < 16 ? (u8)(x >> 40) : 0;
		}
		ctx.cpu = r % 4;
		bits |= (u64)khist_filter_match(f, rec, sizeof(rec), &ctx) << r;
	}
	return bits;
}

static bool filter_call(void *ctx, bool faulted, bool *bad)
{
	struct filter_case *c = ctx;
	struct khist_filter_opts o = { .func_range = fz_func_range };
	struct khist_filter_error err;
	struct khist_filter *f;
	u64 m;
	int ret;

	ret = khist_filter_compile(c->sc, c->text, strlen(c->text), &o, &f,
				   &err);
	if (!faulted) {
		c->ret = ret;
		c->err = err;
		c->matches = ret ? 0 : filter_answers(f);
		khist_filter_free(f);
		return true;
	}
	if (ret == -ENOMEM) {
		if (f || err.ret != -ENOMEM) {
			*bad = true;
			FAIL("-ENOMEM with a filter or err.ret %d", err.ret);
		}
		return false;
	}
	if (ret != c->ret || memcmp(&err, &c->err, sizeof(err))) {
		*bad = true;
		FAIL("got %d (code %d @%u), want %d", ret, err.code, err.pos,
		     c->ret);
	}
	m = ret ? 0 : filter_answers(f);
	khist_filter_free(f);
	if (m != c->matches) {
		*bad = true;
		FAIL("answers %llx, want %llx", (unsigned long long)m,
		     (unsigned long long)c->matches);
	}
	return true;
}

static void test_filter(void)
{
	unsigned int i;
	long faults, all = 0;
	bool ok = true, bad = false;

	for (i = 0; i < ARRAY_SIZE(filter_cases) && ok; i++) {
		filter_call(&filter_cases[i], false, &bad);
		ok = inject(filter_call, &filter_cases[i], &faults);
		all += faults;
		if (!ok)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " [%s]", filter_cases[i].text);
	}
	report(ok, all, "filter compile");
}

/* ---- synthetic event parse --------------------------------------------- */

struct synth_case {
	const char *line;
	unsigned int flags;
	int ret;
	struct khist_synth_cmd ref;
	char listing[512];
};

static struct synth_case synth_cases[] = {
	{ "wakeup_latency u64 lat; pid_t pid; char comm[16]" },
	{ "s:synthetic/block_lat pid_t pid; u64 delta; unsigned long[] stack;",
	  KHIST_SYNTH_PARSE_DYN },
	{ "myev char name[]; int a; unsigned int b; s64 c; char t[64]" },
	{ "!wakeup_latency" },
	{ "myevent char str[257]" },
	{ "myevent char str; ^int" },
	{ "taken u64 x" },
};

static bool synth_exists(const char *name, void *arg)
{
	return !strcmp(name, "taken");
}

static bool synth_call(void *ctx, bool faulted, bool *bad)
{
	struct synth_case *c = ctx;
	struct khist_synth_cmd cmd;
	char buf[512] = "";
	int ret;

	ret = khist_synth_parse(c->line, c->flags, synth_exists, NULL, &cmd);
	if (!ret && cmd.op == KHIST_SYNTH_CREATE)
		khist_synth_show(cmd.def, buf, sizeof(buf));
	if (!ret && cmd.op == KHIST_SYNTH_DELETE)
		snprintf(buf, sizeof(buf), "!%s", cmd.name);
	if (!faulted) {
		c->ret = ret;
		c->ref = cmd;
		strcpy(c->listing, buf);
		khist_synth_cmd_release(&cmd);
		return true;
	}
	if (ret == -ENOMEM) {
		if (cmd.def || cmd.name) {
			*bad = true;
			FAIL("-ENOMEM with a result");
		}
		return false;
	}
	khist_synth_cmd_release(&cmd);
	if (ret != c->ret || cmd.op != c->ref.op || cmd.err != c->ref.err ||
	    cmd.pos != c->ref.pos || strcmp(buf, c->listing)) {
		*bad = true;
		FAIL("got %d/%d (%s @%u) '%s', want %d (%s @%u) '%s'", ret,
		     cmd.op, khist_synth_err_text(cmd.err), cmd.pos, buf,
		     c->ret, khist_synth_err_text(c->ref.err), c->ref.pos,
		     c->listing);
	}
	return true;
}

static void test_synth(void)
{
	unsigned int i;
	long faults, all = 0;
	bool ok = true, bad = false;

	for (i = 0; i < ARRAY_SIZE(synth_cases) && ok; i++) {
		synth_call(&synth_cases[i], false, &bad);
		ok = inject(synth_call, &synth_cases[i], &faults);
		all += faults;
		if (!ok)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " [%s]", synth_cases[i].line);
	}
	report(ok, all, "synthetic event parse");
}

/* ---- map: create, grow, snapshot ---------------------------------------- */

static const struct khist_map_params map_shapes[] = {
	{ .max_entries = 128,
	  .key_size = 8,
	  .n_sums = 2,
	  .flags = KHIST_MAP_F_PERCPU },
	{ .max_entries = 256,
	  .grow_limit = 1024,
	  .key_size = 40,
	  .n_sums = 3,
	  .n_vars = 4,
	  .extra_size = 16,
	  .flags = KHIST_MAP_F_ATOMIC | KHIST_MAP_F_OVERFLOW },
	{ .max_entries = 128,
	  .grow_limit = 512,
	  .key_size = 12,
	  .n_sums = 1,
	  .n_vars = 1,
	  .flags = KHIST_MAP_F_PERCPU | KHIST_MAP_F_OVERFLOW },
};

/* Key i of a shape: i in the first word, the rest zero. */
static void mkey(u8 *key, const struct khist_map_params *p, u32 i)
{
	memset(key, 0, p->key_size);
	memcpy(key, &i, sizeof(i));
}

/* Inserts keys 0..n-1, key i getting i + 1 in sum 0, a var set for odd i. */
static void map_fill(struct khist_map *m, u32 n)
{
	u8 key[KHIST_MAP_KEY_MAX];
	struct khist_map_elt *e;
	u32 i;

	for (i = 0; i < n; i++) {
		mkey(key, &m->p, i);
		e = khist_map_insert(m, key);
		if (!e)
			continue;
		khist_map_add(e, 0, i + 1);
		if (m->p.n_vars && (i & 1))
			khist_map_set_var(e, 0, i);
	}
}

/* A digest of everything observable: stats, then every key's state. */
/* The map's state; @mem: with the bytes allocated and the standby. */
static u64 map_digest_of(struct khist_map *m, u32 n, bool mem)
{
	u8 key[KHIST_MAP_KEY_MAX];
	struct khist_map_stats st;
	struct khist_map_elt *e;
	u64 h = 0;
	u32 i;

	khist_map_get_stats(m, &st);
	h = st.hits * 31 + st.drops * 37 + st.entries * 41 + st.max * 43 +
	    st.overflow;
	if (mem)
		h = h * 47 + st.mem + st.standby;
	for (i = 0; i < n; i++) {
		mkey(key, &m->p, i);
		e = khist_map_lookup(m, key);
		h = h * 1099511628211ULL + (e ? e->idx + 1 : 0);
		if (e)
			h = h * 31 + khist_map_read_sum(e, 0) +
			    (m->p.n_vars && khist_map_var_is_set(e, 0) ?
				     khist_map_get_var(e, 0) + 7 :
				     0);
	}
	e = khist_map_overflow(m);
	if (e)
		h = h * 31 + khist_map_read_sum(e, 0);
	return h;
}

static u64 map_digest(struct khist_map *m, u32 n)
{
	return map_digest_of(m, n, true);
}

struct map_ctx {
	const struct khist_map_params *p;
	struct khist_map *map;
	u64 ref;
	u64 ref_nomem; /* grow: the reference without memory and standby */
	u32 n;
	struct khist_map_sort_key keys[2];
};

static bool create_call(void *ctx, bool faulted, bool *bad)
{
	struct map_ctx *c = ctx;
	struct khist_map *m = khist_map_create(c->p, NULL, NULL);
	u64 d;

	if (IS_ERR(m)) {
		if (!faulted || PTR_ERR(m) != -ENOMEM) {
			*bad = true;
			FAIL("create: %ld", PTR_ERR(m));
		}
		return false;
	}
	map_fill(m, c->n);
	d = map_digest(m, c->n);
	khist_map_destroy(m);
	if (!faulted)
		c->ref = d;
	else if (d != c->ref) {
		*bad = true;
		FAIL("created map behaves differently");
	}
	return true;
}

static bool grow_call(void *ctx, bool faulted, bool *bad)
{
	struct khist_map_stats st;
	struct map_ctx *c = ctx;
	u64 before = map_digest(c->map, c->n);
	int ret = khist_map_grow(c->map);

	if (ret) {
		if (!faulted || ret != -ENOMEM) {
			*bad = true;
			FAIL("grow: %d", ret);
		}
		if (map_digest(c->map, c->n) != before) {
			*bad = true;
			FAIL("a failed grow changed the map");
		}
		/* The map still works: a new key goes in. */
		return false;
	}
	map_fill(c->map, c->n);
	khist_map_get_stats(c->map, &st);
	if (!faulted) {
		c->ref = map_digest(c->map, c->n);
		c->ref_nomem = map_digest_of(c->map, c->n, false);
	} else if (map_digest(c->map, c->n) != c->ref &&
		   /*
		    * The level after the growth is allocated ahead; when that
		    * allocation fails the growth still succeeds, without it.
		    */
		   (st.standby ||
		    map_digest_of(c->map, c->n, false) != c->ref_nomem)) {
		*bad = true;
		FAIL("grown map differs");
	}
	if (faulted && !*bad) {
		/*
		 * Grown although an allocation failed: the next try must
		 * start from the same map as this one did.
		 */
		kshim_fail_after(-1);
		khist_map_destroy(c->map);
		c->map = khist_map_create(c->p, NULL, NULL);
		map_fill(c->map, c->n);
	}
	return true;
}

static u64 snap_digest(const struct khist_map_snapshot *s)
{
	u64 h = s->n;
	u32 i;

	for (i = 0; i < s->n; i++)
		h = h * 1099511628211ULL + s->sorted[i]->idx * 31 +
		    s->sorted[i]->sums[0];
	for (i = 0; i < s->n_sums; i++)
		h = h * 31 + s->totals[i];
	return h;
}

static bool snapshot_call(void *ctx, bool faulted, bool *bad)
{
	struct map_ctx *c = ctx;
	struct khist_map_snapshot *s = (void *)1;
	int ret = khist_map_snapshot(c->map, c->keys, 2, &s);
	u64 d;

	if (ret) {
		if (!faulted || ret != -ENOMEM || s) {
			*bad = true;
			FAIL("snapshot: %d", ret);
		}
		return false;
	}
	d = snap_digest(s);
	khist_map_snapshot_free(s);
	if (!faulted)
		c->ref = d;
	else if (d != c->ref) {
		*bad = true;
		FAIL("snapshot differs");
	}
	return true;
}

static void test_map(void)
{
	long faults, fc = 0, fg = 0, fs = 0;
	bool okc = true, okg = true, oks = true, bad = false;
	struct map_ctx c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map_shapes); i++) {
		memset(&c, 0, sizeof(c));
		c.p = &map_shapes[i];
		c.n = c.p->max_entries + 20; /* some keys dropped */
		create_call(&c, false, &bad);
		okc = okc && inject(create_call, &c, &faults);
		fc += faults;

		c.map = khist_map_create(c.p, NULL, NULL);
		map_fill(c.map, c.n);
		c.keys[0] = (struct khist_map_sort_key){ KHIST_MAP_SORT_SUM,
							 true, 0, 0 };
		c.keys[1] = (struct khist_map_sort_key){ KHIST_MAP_SORT_KEY_U,
							 false, 0, 4 };
		snapshot_call(&c, false, &bad);
		oks = oks && inject(snapshot_call, &c, &faults);
		fs += faults;
		if (c.p->grow_limit) {
			struct khist_map *ref = c.map;

			/* Reference: the same map grown without faults. */
			c.map = khist_map_create(c.p, NULL, NULL);
			map_fill(c.map, c.n);
			grow_call(&c, false, &bad);
			khist_map_destroy(c.map);
			c.map = ref;
			okg = okg && inject(grow_call, &c, &faults);
			fg += faults;
		}
		khist_map_destroy(c.map);
	}
	report(okc, fc, "map create");
	report(okg, fg, "map grow");
	report(oks, fs, "map snapshot");
}

/* ---- error_log ---------------------------------------------------------- */

struct log_ctx {
	struct khist_errlog log;
	unsigned int i;
	char ref[512];
};

static void log_digest(const struct khist_errlog *log, char *buf, size_t sz)
{
	const struct khist_errlog_entry *e;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; (e = khist_errlog_get(log, i)) && n < sz; i++)
		n += khist_errlog_format(e, buf + n, sz - n);
}

static bool log_call(void *ctx, bool faulted, bool *bad)
{
	struct log_ctx *c = ctx;
	char before[512], after[512];
	int ret;

	log_digest(&c->log, before, sizeof(before));
	ret = khist_errlog_add(&c->log, 1000000 * c->i,
			       "hist:sched:sched_switch", "Couldn't find field",
			       "hist:keys=junk", 10);
	log_digest(&c->log, after, sizeof(after));
	if (ret) {
		if (!faulted || ret != -ENOMEM || strcmp(before, after)) {
			*bad = true;
			FAIL("errlog: %d, log changed: %d", ret,
			     !!strcmp(before, after));
		}
		return false;
	}
	if (strcmp(after, c->ref)) {
		*bad = true;
		FAIL("log differs");
	}
	return true;
}

static void test_errlog(void)
{
	static struct khist_errlog twin;
	static struct log_ctx c;
	long faults, all = 0;
	bool ok = true;

	/*
	 * An empty ring, a partly filled one, then a full one (the oldest
	 * entry goes). The twin gets the same adds without faults.
	 */
	khist_errlog_init(&c.log);
	khist_errlog_init(&twin);
	for (c.i = 0; c.i < KHIST_ERRLOG_MAX + 2 && ok; c.i++) {
		khist_errlog_add(&twin, 1000000 * c.i,
				 "hist:sched:sched_switch",
				 "Couldn't find field", "hist:keys=junk", 10);
		log_digest(&twin, c.ref, sizeof(c.ref));
		ok = inject(log_call, &c, &faults);
		all += faults;
		if (ok && !faults) {
			ok = false;
			snprintf(why, sizeof(why), "no allocation to fail");
		}
	}
	khist_errlog_clear(&c.log);
	khist_errlog_clear(&twin);
	report(ok, all, "error_log add");
}

int main(void)
{
	long live = kshim_live_allocations();

	printf("TAP version 13\n");
	test_hist();
	test_filter();
	test_synth();
	test_map();
	test_errlog();
	printf("%sok %d - nothing left allocated\n",
	       kshim_live_allocations() == live ? "" : "not ", ++tap);
	failed += kshim_live_allocations() != live;
	printf("1..%d\n# faults injected: %ld\n", tap, faults_total);
	return failed ? 1 : 0;
}
