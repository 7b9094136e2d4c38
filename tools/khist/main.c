// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the khist command: subcommands over a mounted khist
 * filesystem (Documentation/khist.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include "khist.h"

static const char *kh_root_opt;

void kh_err(const char *fmt, ...)
{
	va_list ap;

	fputs("khist: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *kh_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		kh_err("out of memory");
		exit(1);
	}
	return p;
}

char *kh_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(kh_xmalloc(n), s, n);
}

/**
 * kh_read_file() - a whole file, NUL ended
 * @path: the file
 * @len:  its length, if not NULL
 *
 * Return: the text (free it), or NULL with errno set.
 */
char *kh_read_file(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = kh_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				kh_err("out of memory");
				exit(1);
			}
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/**
 * kh_root_given() - the filesystem the user named: --root, else
 * $KHIST_ROOT
 *
 * Return: the directory, or NULL when neither is given.
 */
const char *kh_root_given(void)
{
	const char *r = kh_root_opt ? kh_root_opt : getenv("KHIST_ROOT");

	return r && *r ? r : NULL;
}

/* The first khist mount of /proc/mounts. */
static char *kh_find_mount(void)
{
	char *text = kh_read_file("/proc/mounts", NULL), *line, *save = NULL;
	char *found = NULL;

	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char src[256], dir[4096], type[64];

		if (sscanf(line, "%255s %4095s %63s", src, dir, type) == 3 &&
		    !strcmp(type, "khist"))
			found = kh_xstrdup(dir);
	}
	free(text);
	return found;
}

/**
 * kh_root() - the khist filesystem: --root, $KHIST_ROOT, or its first
 * mount in /proc/mounts; exits with a message if there is none
 *
 * Return: the directory.
 */
const char *kh_root(void)
{
	static const char *root;
	struct stat st;
	char *p;

	if (root)
		return root;
	root = kh_root_given();
	if (!root) {
		root = kh_find_mount();
		if (!root) {
			kh_err("khist is not mounted (mount -t khist nodev /sys/kernel/khist, or give --root DIR)");
			exit(1);
		}
	}
	p = NULL;
	if (asprintf(&p, "%s/events", root) < 0 || stat(p, &st) ||
	    !S_ISDIR(st.st_mode)) {
		kh_err("%s: not a khist filesystem (no events/)", root);
		exit(1);
	}
	free(p);
	return root;
}

/**
 * kh_event_split() - "sys:event" (or "sys/event") into its two names
 * @arg:   the argument
 * @sys:   system, @syssz bytes
 * @syssz: see @sys
 * @ev:    event, @evsz bytes
 * @evsz:  see @ev
 *
 * Return: 0, or -1 after an error message.
 */
int kh_event_split(const char *arg, char *sys, size_t syssz, char *ev,
		   size_t evsz)
{
	const char *c = strpbrk(arg, ":/");

	if (!c || c == arg || !c[1] || strpbrk(c + 1, ":/") ||
	    (size_t)(c - arg) >= syssz || strlen(c + 1) >= evsz) {
		kh_err("'%s': give the event as system:event", arg);
		return -1;
	}
	memcpy(sys, arg, c - arg);
	sys[c - arg] = '\0';
	strcpy(ev, c + 1);
	return 0;
}

/**
 * kh_event_path() - a file of an event, in an instance or the top level
 * @inst: instance name or NULL
 * @sys:  system
 * @ev:   event
 * @file: file name ("hist", "trigger", "format")
 *
 * Return: the path (free it).
 */
char *kh_event_path(const char *inst, const char *sys, const char *ev,
		    const char *file)
{
	char *p;
	int r;

	if (inst)
		r = asprintf(&p, "%s/instances/%s/events/%s/%s/%s", kh_root(),
			     inst, sys, ev, file);
	else
		r = asprintf(&p, "%s/events/%s/%s/%s", kh_root(), sys, ev,
			     file);
	if (r < 0) {
		kh_err("out of memory");
		exit(1);
	}
	return p;
}

static bool kh_help_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* ---- list, fields ---------------------------------------------------- */

static const char kh_list_help[] =
	"usage: khist list [GLOB]\n"
	"List the events (system:event), those matching GLOB if given.\n";

static int kh_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int kh_cmd_list(int argc, char **argv)
{
	const char *glob = argc > 1 ? argv[1] : "*";
	char **names = NULL, *path;
	size_t n = 0, i;
	struct dirent *s, *e;
	DIR *d, *sd;

	if (kh_help_asked(argc, argv)) {
		fputs(kh_list_help, stdout);
		return 0;
	}
	if (argc > 2) {
		kh_err("list: one glob at most (khist list --help)");
		return 1;
	}
	if (asprintf(&path, "%s/events", kh_root()) < 0)
		return 1;
	d = opendir(path);
	if (!d) {
		kh_err("%s: %s", path, strerror(errno));
		return 1;
	}
	while ((s = readdir(d))) {
		char *sp;

		if (s->d_name[0] == '.')
			continue;
		if (asprintf(&sp, "%s/%s", path, s->d_name) < 0)
			return 1;
		sd = opendir(sp);
		free(sp);
		if (!sd)
			continue;
		while ((e = readdir(sd))) {
			char *name;

			if (e->d_name[0] == '.' || e->d_type == DT_REG)
				continue;
			if (asprintf(&name, "%s:%s", s->d_name, e->d_name) < 0)
				return 1;
			if (fnmatch(glob, name, 0) &&
			    fnmatch(glob, e->d_name, 0)) {
				free(name);
				continue;
			}
			names = realloc(names, (n + 1) * sizeof(*names));
			if (!names)
				return 1;
			names[n++] = name;
		}
		closedir(sd);
	}
	closedir(d);
	free(path);
	qsort(names, n, sizeof(*names), kh_strcmp);
	for (i = 0; i < n; i++) {
		puts(names[i]);
		free(names[i]);
	}
	free(names);
	if (!n && argc > 1) {
		kh_err("no event matches '%s'", glob);
		return 1;
	}
	return 0;
}

static const char kh_fields_help[] =
	"usage: khist fields SYSTEM:EVENT\n"
	"List the event's fields (name, type, offset, size) from its format file.\n";

static int kh_cmd_fields(int argc, char **argv)
{
	char sys[256], ev[256], *path, *text;
	int ret;

	if (kh_help_asked(argc, argv)) {
		fputs(kh_fields_help, stdout);
		return 0;
	}
	if (argc != 2) {
		kh_err("fields: give one SYSTEM:EVENT (khist fields --help)");
		return 1;
	}
	if (kh_event_split(argv[1], sys, sizeof(sys), ev, sizeof(ev)))
		return 1;
	path = kh_event_path(NULL, sys, ev, "format");
	text = kh_read_file(path, NULL);
	if (!text) {
		kh_err("%s:%s: no such event (%s: %s)", sys, ev, path,
		       strerror(errno));
		free(path);
		return 1;
	}
	free(path);
	ret = kh_format_fields(text, stdout);
	free(text);
	return ret ? 1 : 0;
}

/* ---- hist add|rm|pause|cont|clear ------------------------------------ */

static const char kh_hist_help[] =
	"usage: khist hist add|rm|pause|cont|clear [-i INSTANCE] SYSTEM:EVENT 'hist:...'\n"
	"Write a hist trigger to the event's trigger file: add it as given, rm\n"
	"writes it with '!', pause/cont/clear with :pause, :cont or :clear added.\n"
	"On a refusal, prints the error_log entry the write left.\n";

static char *kh_errlog_path(const char *inst)
{
	char *p;
	int r;

	if (inst)
		r = asprintf(&p, "%s/instances/%s/error_log", kh_root(), inst);
	else
		r = asprintf(&p, "%s/error_log", kh_root());
	return r < 0 ? NULL : p;
}

/**
 * kh_write_cmd() - write a command to one of khist's files
 * @path: the file (a trigger file, dynamic_events, ...)
 * @cmd:  the command
 * @inst: the instance whose error_log tells why a write failed, or NULL
 *
 * Return: 0, or 1 after saying why, with error_log's last entry.
 */
int kh_write_cmd(const char *path, const char *cmd, const char *inst)
{
	char *elog = kh_errlog_path(inst), *before, *after;
	int fd, e = 0;
	ssize_t r;

	before = elog ? kh_read_file(elog, NULL) : NULL;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		kh_err("%s: %s", path, strerror(errno));
		free(before);
		free(elog);
		return 1;
	}
	r = write(fd, cmd, strlen(cmd));
	if (r < 0)
		e = errno;
	close(fd);
	if (!e) {
		free(before);
		free(elog);
		return 0;
	}
	after = elog ? kh_read_file(elog, NULL) : NULL;
	if (after && (!before || strcmp(before, after))) {
		/* The last entry: its three lines. */
		char *p = after + strlen(after);
		int nl = 0;

		while (p > after && nl < 4)
			if (*--p == '\n')
				nl++;
		kh_err("%s: %s", cmd, strerror(e));
		fputs(p == after ? p : p + 1, stderr);
	} else {
		kh_err("%s: %s", cmd, strerror(e));
	}
	free(before);
	free(after);
	free(elog);
	return 1;
}

/* @trig with ":@attr" added before any " if ". */
static char *kh_with_attr(const char *trig, const char *attr)
{
	const char *f = strstr(trig, " if ");
	size_t n = f ? (size_t)(f - trig) : strlen(trig);
	char *p;

	if (asprintf(&p, "%.*s:%s%s", (int)n, trig, attr, f ? f : "") < 0)
		return NULL;
	return p;
}

static int kh_cmd_hist(int argc, char **argv)
{
	const char *inst = NULL, *op, *trig;
	char sys[256], ev[256], *path, *cmd;
	int i = 1, ret;

	if (kh_help_asked(argc, argv) || argc < 2) {
		fputs(kh_hist_help, argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	op = argv[i++];
	if (i < argc && !strcmp(argv[i], "-i") && i + 1 < argc) {
		inst = argv[i + 1];
		i += 2;
	}
	if (argc - i != 2) {
		kh_err("hist %s: give SYSTEM:EVENT and the trigger (khist hist --help)",
		       op);
		return 1;
	}
	if (kh_event_split(argv[i], sys, sizeof(sys), ev, sizeof(ev)))
		return 1;
	trig = argv[i + 1];
	while (*trig == '!' || *trig == ' ')
		trig++;
	if (strncmp(trig, "hist", 4) ||
	    (trig[4] && trig[4] != ':' && trig[4] != ' ')) {
		kh_err("hist %s: '%s' is not a hist trigger (hist:keys=...)",
		       op, argv[i + 1]);
		return 1;
	}
	if (!strcmp(op, "add")) {
		cmd = kh_xstrdup(trig);
	} else if (!strcmp(op, "rm")) {
		if (asprintf(&cmd, "!%s", trig) < 0)
			cmd = NULL;
	} else if (!strcmp(op, "pause") || !strcmp(op, "cont") ||
		   !strcmp(op, "clear")) {
		cmd = kh_with_attr(trig, op);
	} else {
		kh_err("hist: unknown operation '%s' (add, rm, pause, cont, clear)",
		       op);
		return 1;
	}
	if (!cmd) {
		kh_err("out of memory");
		return 1;
	}
	path = kh_event_path(inst, sys, ev, "trigger");
	if (access(path, W_OK)) {
		kh_err("%s:%s: no such event%s%s (%s)", sys, ev,
		       inst ? " in instance " : "", inst ? inst : "",
		       strerror(errno));
		ret = 1;
	} else {
		ret = kh_write_cmd(path, cmd, inst);
	}
	free(path);
	free(cmd);
	return ret;
}

/* ---- show, watch ----------------------------------------------------- */

static const char kh_show_help[] =
	"usage: khist show [-i INSTANCE] [--raw|--json] [--width N] SYSTEM:EVENT\n"
	"Show the event's hist file as aligned tables, in the hist's order; a\n"
	".log2 or .buckets key as a bar chart with percent of the hits.\n"
	"--raw prints the hist file as it is; --json prints the hist_json file\n"
	"(the same tables as one JSON document, Documentation/hist_json.rst).\n";

static const char kh_watch_help[] =
	"usage: khist watch [-i INSTANCE] [-n SECONDS] SYSTEM:EVENT\n"
	"Show the hist like khist show every SECONDS (default 2), as top does;\n"
	"q or Ctrl-C stops.\n";

struct kh_show_opts {
	const char *inst;
	bool raw;
	bool json;
	int width;
	double interval;
	char sys[256];
	char ev[256];
};

static int kh_show_args(int argc, char **argv, struct kh_show_opts *o,
			bool watch)
{
	static const struct option lo[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "width", required_argument, NULL, 'w' },
		{ "instance", required_argument, NULL, 'i' },
		{ "interval", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->width = 40;
	o->interval = 2;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+i:n:w:", lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->inst = optarg;
			break;
		case 'r':
			o->raw = true;
			break;
		case 'w':
			o->width = atoi(optarg);
			if (o->width < 1 || o->width > 400) {
				kh_err("--width: 1 to 400");
				return -1;
			}
			break;
		case 'n':
			o->interval = atof(optarg);
			if (!(o->interval >= 0.1)) {
				kh_err("-n: an interval of 0.1 s or more");
				return -1;
			}
			break;
		case 'j':
			if (watch) {
				kh_err("watch: --json is for khist show");
				return -1;
			}
			o->json = true;
			break;
		default:
			kh_err("%s: bad option (khist %s --help)",
			       watch ? "watch" : "show",
			       watch ? "watch" : "show");
			return -1;
		}
	}
	if (o->raw && o->json) {
		kh_err("show: --raw or --json, not both");
		return -1;
	}
	if (argc - optind != 1) {
		kh_err("%s: give one SYSTEM:EVENT", watch ? "watch" : "show");
		return -1;
	}
	return kh_event_split(argv[optind], o->sys, sizeof(o->sys), o->ev,
			      sizeof(o->ev));
}

static int kh_show_once(const struct kh_show_opts *o, struct kh_buf *out)
{
	const char *file = o->json ? "hist_json" : "hist";
	char *path = kh_event_path(o->inst, o->sys, o->ev, file), *text;
	char title[600];
	struct kh_hist h;

	text = kh_read_file(path, NULL);
	if (!text) {
		int err = errno;
		struct stat st;
		char *hist;

		/* An older module has hist but no hist_json: say so. */
		hist = o->json ? kh_event_path(o->inst, o->sys, o->ev, "hist") :
				 NULL;
		if (err == ENOENT && hist && !stat(hist, &st))
			kh_err("%s:%s: no hist_json file: the loaded khist module is older than it; use --raw",
			       o->sys, o->ev);
		else
			kh_err("%s:%s: %s (%s)", o->sys, o->ev, strerror(err),
			       path);
		free(hist);
		free(path);
		return 1;
	}
	free(path);
	if (o->raw || o->json) {
		kh_buf_printf(out, "%s", text);
		free(text);
		return 0;
	}
	kh_hist_parse(text, &h);
	snprintf(title, sizeof(title), "%s:%s%s%s", o->sys, o->ev,
		 o->inst ? "  instance " : "", o->inst ? o->inst : "");
	kh_render(out, title, &h, o->width);
	kh_hist_free(&h);
	free(text);
	return 0;
}

static int kh_cmd_show(int argc, char **argv)
{
	struct kh_show_opts o = { 0 };
	struct kh_buf out = { 0 };
	int ret;

	if (kh_help_asked(argc, argv)) {
		fputs(kh_show_help, stdout);
		return 0;
	}
	if (kh_show_args(argc, argv, &o, false))
		return 1;
	ret = kh_show_once(&o, &out);
	if (out.s)
		fputs(out.s, stdout);
	kh_buf_free(&out);
	return ret;
}

static volatile sig_atomic_t kh_stop;

static void kh_on_signal(int sig)
{
	kh_stop = 1;
}

static int kh_cmd_watch(int argc, char **argv)
{
	struct kh_show_opts o = { 0 };
	struct termios old, raw;
	bool tty = isatty(0);
	struct sigaction sa;
	int ret = 0;

	if (kh_help_asked(argc, argv)) {
		fputs(kh_watch_help, stdout);
		return 0;
	}
	if (kh_show_args(argc, argv, &o, true))
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kh_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (tty && !tcgetattr(0, &old)) {
		raw = old;
		raw.c_lflag &= ~(ICANON | ECHO);
		tcsetattr(0, TCSANOW, &raw);
	} else {
		tty = false;
	}
	while (!kh_stop) {
		struct kh_buf out = { 0 };
		struct pollfd p = { .fd = 0, .events = POLLIN };
		char c;

		ret = kh_show_once(&o, &out);
		if (ret)
			break;
		/* Home, clear, then the tables. */
		printf("\033[H\033[2J%s", out.s ? out.s : "");
		fflush(stdout);
		kh_buf_free(&out);
		/* Keys only from a terminal: other input (EOF) is ignored. */
		if (!tty)
			p.fd = -1;
		if (poll(&p, 1, (int)(o.interval * 1000)) > 0 &&
		    (p.revents & POLLIN)) {
			if (read(0, &c, 1) <= 0 || c == 'q' || c == 'Q')
				break;
		}
	}
	if (tty)
		tcsetattr(0, TCSANOW, &old);
	return ret;
}

/* ---- main ------------------------------------------------------------ */

static const char kh_help[] =
	"usage: khist [--root DIR] COMMAND [ARGS]\n"
	"\n"
	"  list [GLOB]                       events\n"
	"  fields SYSTEM:EVENT               an event's fields and types\n"
	"  check [--event SYSTEM:EVENT | --format FILE] 'TRIGGER'\n"
	"                                    the module's parsers, offline\n"
	"  hist add|rm|pause|cont|clear [-i INSTANCE] SYSTEM:EVENT 'TRIGGER'\n"
	"  show [-i INSTANCE] SYSTEM:EVENT   the hist as tables and charts\n"
	"  watch [-n SECONDS] SYSTEM:EVENT   show, refreshed; q stops\n"
	"  export [--textfile DIR | --listen ADDR] --hist SYSTEM:EVENT ...\n"
	"                                    OpenMetrics text for Prometheus\n"
	"  sql [-n NAME] [--dry-run] 'SELECT ...'\n"
	"                                    libtracefs's SQL as hist triggers\n"
	"  exec [--mount DIR] -- TOOL [ARGS]  run a tracing tool (trace-cmd, ...)\n"
	"                                    with khist as its tracing directory\n"
	"\n"
	"khist COMMAND --help tells more. The filesystem is --root DIR, else\n"
	"$KHIST_ROOT, else the first khist mount of /proc/mounts.\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "list", kh_cmd_list },     { "fields", kh_cmd_fields },
		{ "check", kh_cmd_check },   { "hist", kh_cmd_hist },
		{ "show", kh_cmd_show },     { "watch", kh_cmd_watch },
		{ "export", kh_cmd_export }, { "exec", kh_cmd_exec },
		{ "sql", kh_cmd_sql },
	};
	unsigned int i;
	int a = 1;

	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			fputs(kh_help, stdout);
			return 0;
		} else if (!strcmp(argv[a], "--version")) {
			puts("khist " KHIST_VERSION);
			return 0;
		} else if (!strcmp(argv[a], "--root") && a + 1 < argc) {
			kh_root_opt = argv[a + 1];
			a += 2;
		} else if (!strncmp(argv[a], "--root=", 7)) {
			kh_root_opt = argv[a] + 7;
			a++;
		} else {
			kh_err("unknown option '%s' (khist --help)", argv[a]);
			return 1;
		}
	}
	if (a >= argc) {
		fputs(kh_help, stderr);
		return 1;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[a], cmds[i].name))
			return cmds[i].fn(argc - a, argv + a) ? 1 : 0;
	kh_err("unknown command '%s' (khist --help)", argv[a]);
	return 1;
}
