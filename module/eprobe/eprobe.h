/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eprobe.h - event probes (e: lines of `dynamic_events`) as khist events.
 *
 * An event probe is a khist event of its own (events/<group>/<name>/ in
 * every instance, with format, enable, filter, trigger and hist files)
 * whose records are built from the hits of another event, the target.
 * While the probe's event is attached in an instance (enabled, or used by
 * a trigger or a hist), a hidden trigger sits on the target's event of
 * the same instance - as ftrace does it - and each hit that passes the
 * probe's `if` filter makes one record of the probe in that instance:
 * its arguments fetched from the target's record, the task, constants and
 * memory (fetch.c). The hidden trigger is not listed in the target's
 * `trigger` file and a '>' on that file keeps it.
 *
 * A probe holds the target's top-level event (and, for a synthetic event,
 * a reference that keeps it from being removed). It may be removed only
 * while attached nowhere (-EBUSY), as in ftrace.
 *
 * Locking: everything but the hit path runs under khist_event_mutex.
 */
#ifndef _KHIST_EPROBE_EPROBE_H
#define _KHIST_EPROBE_EPROBE_H

#include <linux/list.h>
#include <linux/seq_file.h>
#include <khist/event.h>
#include "core/eprobe_parse.h"
#include "hist/hist.h"
#include "events/dynevent.h"

struct khist_synth_event;

/**
 * struct khist_eprobe - one event probe
 * @kdef:   its khist event definition (registered while it exists)
 * @dyn:    its entry in the dynamic events list
 * @def:    the parsed line: names, target, arguments, layout
 * @descs:  the fields of its records (for format, filters, hists)
 * @target: the target's top-level event (referenced)
 * @tdef:   the target's definition when the probe was made; the probe
 *          attaches only while the target still has it
 * @synth:  the target, when it is a synthetic event (referenced)
 * @links:  struct khist_ep_link, one per instance the probe is attached in
 */
struct khist_eprobe {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_ep_def *def;
	struct khist_field_desc *descs;
	struct khist_event *target;
	struct khist_event_def *tdef;
	struct khist_synth_event *synth;
	struct list_head links;
};

/**
 * struct khist_ep_link - the hidden trigger of a probe in one instance
 * @base: the trigger, on the target's event of the instance
 * @ep:   the probe
 * @ev:   the probe's event in that instance
 * @node: entry in @ep->links
 */
struct khist_ep_link {
	struct khist_trigger base;
	struct khist_eprobe *ep;
	struct khist_event *ev;
	struct list_head node;
};

/**
 * struct khist_ep_from - where a probe's values come from on one hit
 * @tf:    event probes: the target's fields
 * @rec:   event probes: the target's record
 * @size:  event probes: its size
 * @regs:  kprobes: the probed context's registers
 * @edata: kretprobes: the function arguments saved at entry, or NULL
 * @ubase: uprobes: where offset 0 of the probed file is mapped
 */
struct khist_ep_from {
	const struct khist_field_desc *tf;
	const void *rec;
	unsigned int size;
	struct pt_regs *regs;
	const unsigned long *edata;
	unsigned long ubase;
};

/* fetch.c */
void khist_ep_build(const struct khist_ep_def *def,
		    struct khist_event_def *kdef, struct khist_event *kev,
		    const struct khist_ep_from *s, const void *hdr);
void khist_ep_hit(struct khist_trigger *t, void *rec, unsigned int size,
		  u64 ts);
void khist_ep_prefault(const struct khist_ep_def *def,
		       const struct khist_ep_from *s);

/* print.c */
void khist_ep_print(struct khist_print_ctx *p);
void khist_ep_print_args(struct khist_print_ctx *p,
			 const struct khist_ep_def *def);
struct seq_file;

/* eprobe.c */
int khist_eprobe_init(void);
void khist_eprobe_exit(void);

/* kprobe.c */
void khist_kprobe_print(struct khist_print_ctx *p);
int khist_kprobe_init(void);
void khist_kprobe_exit(void);
int khist_kprobe_command(const char *line);
int khist_kprobe_show(struct seq_file *m);
int khist_kprobe_clear(void);
int khist_kprobe_profile_show(struct seq_file *m);
int khist_kp_reg_offset(const char *name);

/* uprobe.c */
void khist_uprobe_print(struct khist_print_ctx *p);
void khist_uprobe_init(void);
void khist_uprobe_exit(void);
int khist_uprobe_command(const char *line);
int khist_uprobe_show(struct seq_file *m);
int khist_uprobe_clear(void);
int khist_uprobe_profile_show(struct seq_file *m);

#endif /* _KHIST_EPROBE_EPROBE_H */
