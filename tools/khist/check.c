// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `khist check`: what the module would say of a command,
 * without the module. The module's own portable core (module/core),
 * built in userspace on tools/kshim, parses and binds the command
 * against the event's schema (its live `format` file, or one given with
 * --format), and a refusal is printed as the module's error_log prints
 * it, without the timestamp:
 *
 *   hist:sched:sched_switch: error: Couldn't find field
 *     Command: hist:keys=nosuch
 *                        ^
 *
 * Checked: hist triggers (and their "if" filter), event filters
 * (--filter), dynamic_events lines "s:" (synthetic events) and "e:"
 * (event probes), and synthetic_events lines (--synthetic). What needs
 * other triggers (variables of other events, names already taken) is
 * looked at as on a module with no other trigger; an event probe named
 * like an event of the mounted khist is refused as the module does.
 */
#include <kshim/kernel.h>
#include <getopt.h>
#include <unistd.h>
#include "cmd_split.h"
#include "errlog.h"
#include "eprobe_parse.h"
#include "filter_parse.h"
#include "hist_bind.h"
#include "hist_parse.h"
#include "hist_print.h"
#include "synth_parse.h"
#include "format.h"
#include "khist.h"

static const char kh_check_help[] =
	"usage: khist check [--event SYSTEM:EVENT] [--format FILE] [--filter|--synthetic] 'COMMAND'\n"
	"Parse COMMAND with the module's own parsers, offline, and print what\n"
	"error_log would show for it (exit 1), or the trigger as the trigger\n"
	"file would list it (exit 0). COMMAND is a hist trigger ('hist:...'),\n"
	"a dynamic_events line ('s:...', 'e:...'), with --filter an event\n"
	"filter, with --synthetic a synthetic_events line. Field names are\n"
	"checked against the event's live format file (khist mounted), or\n"
	"against FILE (a copy of a format file).\n";

struct kh_check {
	const char *sys;
	const char *ev;
	struct kh_format fmt;
	bool have_fmt;
	const char *root;
	int errors;
};

static const char *kh_mounted_root(void)
{
	const char *r = getenv("KHIST_ROOT");
	char *text, *line, *save = NULL;
	static char dir[4096];

	if (r && *r)
		return r;
	text = kh_read_file("/proc/mounts", NULL);
	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char src[256], type[64];

		if (sscanf(line, "%255s %4095s %63s", src, dir, type) == 3 &&
		    !strcmp(type, "khist")) {
			free(text);
			return dir;
		}
	}
	free(text);
	return NULL;
}

/* One error_log entry, as the module renders it, less "[ts] ". */
static void kh_report(struct kh_check *c, const char *loc, const char *msg,
		      const char *cmd, unsigned int pos)
{
	struct khist_errlog_entry e = {
		.loc = (char *)loc,
		.msg = msg,
		.cmd = (char *)cmd,
		.pos = pos > 0xffff ? 0xffff : pos,
	};
	char *buf, *p;
	int n;

	n = khist_errlog_format(&e, NULL, 0);
	buf = kh_xmalloc(n + 1);
	khist_errlog_format(&e, buf, n + 1);
	p = strchr(buf, ']');
	fputs(p ? p + 2 : buf, stdout);
	free(buf);
	c->errors++;
}

static bool kh_exists(void *ctx, const char *sys, const char *ev)
{
	struct kh_check *c = ctx;
	char *p;
	bool ok;

	if (!c->root)
		return !!strcmp(sys, "synthetic");
	if (!*sys) {
		/* Unqualified: any system holding the event. */
		return true;
	}
	if (asprintf(&p, "%s/events/%s/%s", c->root, sys, ev) < 0)
		return true;
	ok = !access(p, F_OK);
	free(p);
	return ok;
}

static int kh_no_var(void *ctx, const char *sys, const char *ev,
		     const char *var, struct khist_var_info *info)
{
	return -ENOENT;
}

/*
 * The kernel's nr_cpu_ids, which bounds a CPUS{} list: the last possible
 * CPU plus one (this machine's, which may not be the target's).
 */
static unsigned int kh_nr_cpus(void)
{
	char *t = kh_read_file("/sys/devices/system/cpu/possible", NULL);
	unsigned int n = 0;
	char *p;

	if (!t)
		return 0;
	p = strrchr(t, '-');
	if (!p)
		p = strrchr(t, ',');
	n = strtoul(p ? p + 1 : t, NULL, 10) + 1;
	free(t);
	return n;
}

/* A filter of @schema, logged as the module logs a trigger's filter. */
static int kh_check_filter(struct kh_check *c,
			   const struct khist_event_schema *schema,
			   const char *text)
{
	struct khist_filter_opts opts = { .nr_cpus = kh_nr_cpus() };
	struct khist_filter_error err = { 0 };
	struct khist_filter *f = NULL;
	size_t len = khist_filter_trim(text, strlen(text));
	char *cmd;
	int ret;

	ret = khist_filter_compile(schema, text, len, &opts, &f, &err);
	if (!ret) {
		khist_filter_free(f);
		return 0;
	}
	cmd = strndup(text, len);
	kh_report(c, KHIST_FILTER_ERRLOG_LOC, khist_filter_errlog_msg(&err),
		  cmd ? cmd : text, khist_filter_errlog_pos(&err));
	free(cmd);
	return ret;
}

/* The trace clocks the module knows (clock=), as its hist_data.c lists. */
static bool kh_clock_ok(const char *name)
{
	static const char *const clocks[] = {
		"local", "global",   "counter", "uptime", "perf",
		"mono",	 "mono_raw", "boot",	"tai",	  "x86-tsc",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++)
		if (!strcmp(clocks[i], name))
			return true;
	return false;
}

/* Is "$name" (@len bytes at @s) a variable this trigger defines? */
static bool kh_own_var(const struct khist_hist_spec *sp, const char *s,
		       size_t len)
{
	unsigned int i;

	if (len < 2 || *s != '$')
		return false;
	for (i = 0; i < sp->n_vars; i++)
		if (sp->vars[i].name && strlen(sp->vars[i].name) == len - 1 &&
		    !memcmp(sp->vars[i].name, s + 1, len - 1))
			return true;
	return false;
}

/*
 * What the module checks when it adds a bound trigger, on an event with
 * no other trigger: cont/clear need an existing trigger; the clock must
 * be known; an onmatch() action's synthetic event must exist. Return: an enum khist_hist_errcode and its caret, or 0.
 */
static unsigned int kh_check_register(struct kh_check *c,
				      const struct khist_hist_spec *sp,
				      const char *ecmd, unsigned int *pos)
{
	const struct khist_hist_cmd *cmd = sp->cmd;
	unsigned int i;
	const char *p;

	*pos = 0;
	if (sp->remove)
		return 0;
	if (sp->cont || sp->clear)
		return KHIST_HERR_TRIGGER_ENOENT_CLEAR;
	if (sp->timestamps && !kh_clock_ok(sp->clock)) {
		p = *sp->clock ? strstr(ecmd, sp->clock) : NULL;
		*pos = p ? p - ecmd : 0;
		return KHIST_HERR_SET_CLOCK_FAIL;
	}
	/*
	 * The first thing the module does for an onmatch() action is to
	 * look its synthetic event up. Other handlers check more first,
	 * which needs the other triggers: the look-up stops at them.
	 */
	for (i = 0; i < cmd->n_actions; i++) {
		const struct khist_action *a = &cmd->actions[i];
		struct khist_span sn = a->trace_kw ? a->synth : a->name;
		char name[256];

		if (sn.len >= sizeof(name))
			break;
		/* onmax($v)/onchange($v).trace(): $v must be one of ours. */
		if (a->handler != KHIST_HANDLER_ONMATCH &&
		    (a->action != KHIST_ACTION_TRACE ||
		     !kh_own_var(sp, cmd->work + a->arg.pos, a->arg.len)))
			break;
		memcpy(name, cmd->work + sn.pos, sn.len);
		name[sn.len] = '\0';
		if (c->root && kh_exists(c, "synthetic", name))
			break;
		p = *name ? strstr(ecmd, name) : NULL;
		*pos = p ? p - ecmd : 0;
		return KHIST_HERR_SYNTH_EVENT_NOT_FOUND;
	}
	return 0;
}

static int kh_check_hist(struct kh_check *c, char *text)
{
	struct khist_bind_ops ops = {
		.ctx = c,
		.event_exists = kh_exists,
		.find_var = kh_no_var,
		/* The module keeps distributions: .stats/.quantiles. */
		.dists = true,
	};
	struct khist_hist_spec *sp = NULL;
	struct khist_hist_cmd *cmd = NULL;
	struct khist_hist_err err = { 0 };
	char *copy = kh_xstrdup(text), *params, *ecmd, *loc;
	unsigned int i, code, pos;
	int ret;

	khist_trigger_split(copy, &params);
	if (asprintf(&ecmd, "hist:%s", params ? params : "") < 0 ||
	    asprintf(&loc, "hist:%s:%s", c->sys ? c->sys : "?",
		     c->ev	 ? c->ev :
		     c->have_fmt ? c->fmt.event :
				   "?") < 0) {
		kh_err("out of memory");
		exit(1);
	}
	if (c->have_fmt) {
		ret = khist_hist_compile(text, strlen(text), &c->fmt.schema,
					 &ops, &sp, &err);
	} else {
		ret = khist_hist_parse(text, strlen(text), &cmd, &err);
		if (!ret)
			ret = khist_hist_syntax_check(cmd, &err);
	}
	if (ret) {
		for (i = 0; i < err.n; i++)
			kh_report(c, loc, khist_hist_err_text(err.e[i].code),
				  ecmd, err.e[i].pos);
		if (!err.n)
			kh_err("check: %s", strerror(-ret));
	} else if (sp && sp->filter &&
		   kh_check_filter(c, &c->fmt.schema, sp->filter)) {
		ret = -EINVAL;
	} else if (sp && (code = kh_check_register(c, sp, ecmd, &pos))) {
		kh_report(c, loc, khist_hist_err_text(code), ecmd, pos);
		ret = -EINVAL;
	} else if (sp) {
		int n = khist_hist_print(sp, false, NULL, 0);
		char *buf = kh_xmalloc(n + 1);

		khist_hist_print(sp, false, buf, n + 1);
		fputs(buf, stdout);
		free(buf);
	} else {
		printf("syntax ok (no schema: give --event or --format to check the fields)\n");
	}
	if (sp)
		khist_hist_spec_free(sp);
	else if (cmd)
		khist_hist_cmd_free(cmd);
	free(ecmd);
	free(loc);
	free(copy);
	return ret ? 1 : 0;
}

static bool kh_no_synth(const char *name, void *arg)
{
	return false;
}

static int kh_check_synth(struct kh_check *c, const char *line,
			  unsigned int flags)
{
	struct khist_synth_cmd cmd;
	int ret;

	ret = khist_synth_parse(line, flags, kh_no_synth, NULL, &cmd);
	if (cmd.err)
		kh_report(c, "synthetic_events", khist_synth_err_text(cmd.err),
			  cmd.cmd, cmd.pos);
	if (!ret && cmd.op == KHIST_SYNTH_CREATE) {
		int n = khist_synth_show(cmd.def, NULL, 0);
		char *buf = kh_xmalloc(n + 1);

		khist_synth_show(cmd.def, buf, n + 1);
		fputs(buf, stdout);
		free(buf);
	} else if (ret && !cmd.err) {
		kh_err("check: %s", strerror(-ret));
	} else if (!ret && cmd.op == KHIST_SYNTH_DELETE &&
		   !kh_exists(c, "synthetic", cmd.name)) {
		/* Refused with -ENOENT, and nothing in error_log. */
		kh_err("check: no synthetic event '%s'%s", cmd.name,
		       c->root ? "" : " (khist is not mounted)");
		ret = -ENOENT;
	}
	khist_synth_cmd_release(&cmd);
	return ret || cmd.err ? 1 : 0;
}

/* The schema of the event an eprobe attaches to. */
static const struct khist_event_schema *kh_ep_find(const char *sys,
						   const char *ev, void *arg)
{
	struct kh_check *c = arg;
	char *p, *text;

	if (c->have_fmt) {
		if (c->sys && c->ev &&
		    (strcmp(sys, c->sys) || strcmp(ev, c->ev)))
			return NULL;
		return &c->fmt.schema;
	}
	if (!c->root)
		return NULL;
	if (asprintf(&p, "%s/events/%s/%s/format", c->root, sys, ev) < 0)
		return NULL;
	text = kh_read_file(p, NULL);
	free(p);
	if (!text)
		return NULL;
	if (!kh_format_parse(text, sys, ev, false, &c->fmt))
		c->have_fmt = true;
	free(text);
	return c->have_fmt ? &c->fmt.schema : NULL;
}

static int kh_check_eprobe(struct kh_check *c, const char *line)
{
	struct khist_ep_finder finder = { kh_ep_find, c };
	struct khist_ep_cmd cmd;
	unsigned int i;
	int ret;

	ret = khist_ep_parse(line, &finder, &cmd);
	/* As the module's registration: the name of an existing event. */
	if (!ret && c->root && cmd.def &&
	    kh_exists(c, cmd.def->group, cmd.def->event)) {
		khist_ep_set_error(&cmd, KHIST_EPERR_EVENT_EXIST, 0);
		ret = -EEXIST;
	}
	for (i = 0; i < cmd.nr_err; i++)
		kh_report(c, "event_probe", khist_ep_err_text(cmd.err[i]),
			  cmd.cmd, cmd.pos[i]);
	if (!ret && cmd.def->filter && c->have_fmt &&
	    kh_check_filter(c, &c->fmt.schema, cmd.def->filter))
		ret = -EINVAL;
	if (!ret) {
		int n = khist_ep_show(cmd.def, NULL, 0);
		char *buf = kh_xmalloc(n + 1);

		khist_ep_show(cmd.def, buf, n + 1);
		fputs(buf, stdout);
		free(buf);
	} else if (!cmd.nr_err && !c->errors) {
		kh_err("check: %s", strerror(-ret));
	}
	khist_ep_cmd_release(&cmd);
	return ret ? 1 : 0;
}

static char *kh_strip(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int kh_load_format(struct kh_check *c, const char *file)
{
	char *text, *p = NULL;

	if (!file && c->root && c->sys &&
	    asprintf(&p, "%s/events/%s/%s/format", c->root, c->sys, c->ev) < 0)
		return -1;
	if (!file && !p)
		return 0;
	text = kh_read_file(file ? file : p, NULL);
	if (!text) {
		if (file)
			kh_err("%s: %s", file, strerror(errno));
		else
			kh_err("%s:%s: no such event (%s: %s)", c->sys, c->ev,
			       p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	if (kh_format_parse(text, c->sys, c->ev, false, &c->fmt)) {
		kh_err("%s: not a format file (no field: lines)",
		       file ? file : "format");
		free(text);
		return -1;
	}
	free(text);
	c->have_fmt = true;
	return 0;
}

/**
 * kh_cmd_check() - `khist check`
 * @argc: arguments, "check" first
 * @argv: see @argc
 *
 * Return: 0 when the command would be accepted, 1 otherwise.
 */
int kh_cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "filter", no_argument, NULL, 'F' },
		{ "synthetic", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char sys[256], ev[256];
	const char *file = NULL;
	bool filter = false, synth = false;
	struct kh_check c = { 0 };
	char *text, *word;
	int o, ret;

	optind = 1;
	while ((o = getopt_long(argc, argv, "+e:f:h", lo, NULL)) != -1) {
		switch (o) {
		case 'e':
			if (kh_event_split(optarg, sys, sizeof(sys), ev,
					   sizeof(ev)))
				return 1;
			c.sys = sys;
			c.ev = ev;
			break;
		case 'f':
			file = optarg;
			break;
		case 'F':
			filter = true;
			break;
		case 's':
			synth = true;
			break;
		case 'h':
			fputs(kh_check_help, stdout);
			return 0;
		default:
			kh_err("check: bad option (khist check --help)");
			return 1;
		}
	}
	if (argc - optind != 1) {
		kh_err("check: give one command, quoted (khist check --help)");
		return 1;
	}
	c.root = kh_mounted_root();
	if (kh_load_format(&c, file))
		return 1;
	text = filter ? argv[optind] : kh_strip(argv[optind]);
	if (synth) {
		ret = kh_check_synth(&c, text, 0);
	} else if (filter) {
		if (!c.have_fmt) {
			kh_err("check --filter: needs the event's fields (--event SYSTEM:EVENT or --format FILE)");
			ret = 1;
		} else {
			ret = kh_check_filter(&c, &c.fmt.schema, text) ? 1 : 0;
		}
	} else if (!strncmp(text, "s:", 2)) {
		ret = kh_check_synth(&c, text, KHIST_SYNTH_PARSE_DYN);
	} else if (!strncmp(text, "e:", 2)) {
		ret = kh_check_eprobe(&c, text);
	} else {
		char *copy = kh_xstrdup(text), *params;

		word = khist_trigger_split(copy, &params);
		if (*word == '!')
			word++;
		if (strcmp(word, "hist")) {
			kh_err("check: '%s': only hist triggers, filters (--filter), s:/e: lines and synthetic_events lines (--synthetic) are checked",
			       word);
			ret = 1;
		} else {
			ret = kh_check_hist(&c, text);
		}
		free(copy);
	}
	if (c.have_fmt)
		kh_format_free(&c.fmt);
	return ret;
}
