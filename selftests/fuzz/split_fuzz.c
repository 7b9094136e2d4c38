// SPDX-License-Identifier: GPL-2.0
/*
 * split_fuzz.c - libFuzzer target: how writes to `dynamic_events`,
 * `synthetic_events` and `trigger` are cut into commands
 * (core/cmd_split.c), and the parsers each command then goes to.
 *
 * Input: byte 0 picks the file (dynamic_events, synthetic_events,
 * trigger), bytes 1-2 the size of each write; the rest (any bytes: NULs,
 * newlines, comments, '!' and '-:' prefixes) is written in writes of that
 * size, as `echo ... >> file` appends do. Each write's bytes are read
 * from a buffer of exactly the write's size, so ASan sees any read past
 * it. Checked against a reference model of ftrace's rules, written
 * independently of the splitter:
 *   - a line file runs exactly the model's lines (newline and '#' comment
 *     removed, chunks of 4095 bytes, a line longer than a chunk or holding
 *     a NUL refused as too long), in order, and stops at the first one
 *     refused, returning its error; otherwise it returns the write's size;
 *   - each line goes where the module sends it: a "-"/"!" line to the
 *     removal parser, other dynamic_events lines to the synthetic and then
 *     the eprobe parser, synthetic_events lines to the synthetic parser;
 *   - a trigger write (below 4 KiB, NUL-ended at its first NUL, blanks
 *     trimmed) splits into the model's name and parameters;
 *   - nothing stays allocated.
 */
#include <kshim/kernel.h>
#include "cmd_split.h"
#include "eprobe_parse.h"
#include "synth_parse.h"
#include "schemas.h"

#define IN_MAX 20000

enum { F_DYNEVENTS, F_SYNTH, F_TRIGGER, F_NR };

static void check(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "split_fuzz: %s\n", what);
	abort();
}

/* ---- the reference model ---- */

struct model_line {
	size_t start, len; /* in the write, comment removed */
};

static struct model_line model[IN_MAX + 1];
static unsigned int model_nr;

/* The lines ftrace runs for @w[0..@count), and what the write returns. */
static ssize_t model_split(const u8 *w, size_t count)
{
	size_t pos = 0, chunk, i, end;
	bool nl;

	model_nr = 0;
	while (pos < count) {
		chunk = count - pos < KHIST_CMD_BUF - 1 ? count - pos :
							  KHIST_CMD_BUF - 1;
		nl = false;
		for (i = pos; i < pos + chunk && w[i]; i++)
			if (w[i] == '\n') {
				nl = true;
				break;
			}
		if (!nl && i < count)
			return -EINVAL; /* too long, or a NUL in it */
		end = i;
		model[model_nr].start = pos;
		for (i = pos; i < end && w[i] != '#'; i++)
			;
		model[model_nr].len = i - pos;
		model_nr++;
		pos = nl ? end + 1 : end;
	}
	return count;
}

/* ---- the write, through the splitter ---- */

struct fz_write {
	const u8 *w;
	size_t count;
	int file;
	unsigned int seen;
	int refuse; /* -errno of the line refused, or 0 */
};

static int fz_copy(char *dst, size_t off, size_t len, void *arg)
{
	struct fz_write *fw = arg;

	check(off + len <= fw->count, "copy past the write");
	check(len < KHIST_CMD_BUF, "copy past the buffer");
	memcpy(dst, fw->w + off, len);
	return 0;
}

static const struct khist_event_schema *fz_find(const char *system,
						const char *event, void *arg)
{
	return fz_schema_in(fz_schemas, FZ_NR_SCHEMAS, system, event);
}

static const struct khist_ep_finder fz_finder = { fz_find, NULL };

static bool fz_exists(const char *name, void *arg)
{
	return !strcmp(name, "taken");
}

/* What the module does with one line; returns its error. */
static int fz_run(char *line, int file)
{
	struct khist_synth_cmd sc;
	struct khist_ep_cmd ec;
	const char *sys, *ev;
	char *copy;
	int ret;

	if (file == F_DYNEVENTS && (line[0] == '-' || line[0] == '!')) {
		/* The module hands the first word over. */
		copy = strdup(line);
		copy[strcspn(copy, " \t")] = '\0';
		ret = khist_dynevent_parse_remove(copy, &sys, &ev);
		free(copy);
		return ret;
	}
	ret = khist_synth_parse(line,
				file == F_DYNEVENTS ? KHIST_SYNTH_PARSE_DYN : 0,
				fz_exists, NULL, &sc);
	khist_synth_cmd_release(&sc);
	if (ret != -ECANCELED || file != F_DYNEVENTS)
		return ret;
	ret = khist_ep_parse(line, &fz_finder, &ec);
	khist_ep_cmd_release(&ec);
	return ret == -ECANCELED ? -EINVAL : ret;
}

static int fz_line(char *line, void *arg)
{
	struct fz_write *fw = arg;
	const struct model_line *m = &model[fw->seen];
	size_t len = strlen(line);

	check(fw->seen < model_nr, "a line the model does not have");
	check(len == m->len && !memcmp(line, fw->w + m->start, len),
	      "a line other than the model's");
	fw->seen++;
	fw->refuse = fz_run(line, fw->file);
	return fw->refuse;
}

static void line_write(const u8 *w, size_t count, int file)
{
	static char buf[KHIST_CMD_BUF];
	struct fz_write fw = { .w = w, .count = count, .file = file };
	struct khist_cmd_split s = {
		.buf = buf,
		.count = count,
		.copy = fz_copy,
		.line = fz_line,
		.arg = &fw,
	};
	ssize_t want = model_split(w, count), ret;

	ret = khist_cmd_split_run(&s);
	if (fw.refuse) {
		check(ret == fw.refuse, "a refused line, another error");
		check(!s.too_long, "a refused line called too long");
		return;
	}
	check(fw.seen == model_nr, "lines the model has were not run");
	check(ret == want, "the write's result is not the model's");
	check(s.too_long == (want == -EINVAL), "too long flag");
}

/* ---- trigger ---- */

static bool blank(u8 c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static void trigger_write(const u8 *w, size_t count)
{
	char *buf, *text, *end, *name, *params;
	size_t i, n;

	if (count >= 4096)
		return; /* refused by the module with -EINVAL */
	buf = malloc(count + 1);
	memcpy(buf, w, count);
	buf[count] = '\0';
	/* strim() */
	n = strlen(buf);
	while (n && blank(buf[n - 1]))
		buf[--n] = '\0';
	text = buf;
	while (blank(*text))
		text++;
	end = text + strlen(text);
	name = khist_trigger_split(text, &params);
	/* The model: the name runs to the first ':', ' ' or '\t'. */
	n = strcspn(name, ": \t");
	check(name == text && strlen(name) == n, "trigger name");
	if (name + n == end) {
		check(!params, "parameters after the end");
	} else if (params) {
		check(params > name + n && params < end && !blank(*params),
		      "parameters not after the name");
		for (i = n + 1; name + i < params; i++)
			check(blank(name[i]), "text skipped before parameters");
		check(strlen(params) == (size_t)(end - params),
		      "parameters cut");
	} else {
		for (i = n + 1; name + i < end; i++)
			check(blank(name[i]), "parameters lost");
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	long live = kshim_live_allocations();
	size_t wsize, off, n;
	int file;
	u8 *w;

	if (size < 3 || size > IN_MAX)
		return -1;
	file = data[0] % F_NR;
	/* 1 .. 9000 bytes a write: up to three chunks in one write. */
	wsize = (data[1] | data[2] << 8) % 9000 + 1;
	data += 3;
	size -= 3;
	for (off = 0; off < size; off += n) {
		n = size - off < wsize ? size - off : wsize;
		w = malloc(n);
		memcpy(w, data + off, n);
		if (file == F_TRIGGER)
			trigger_write(w, n);
		else
			line_write(w, n, file);
		free(w);
	}
	check(kshim_live_allocations() == live, "memory left allocated");
	return 0;
}
