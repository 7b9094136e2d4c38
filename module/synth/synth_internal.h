/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_internal.h - a synthetic event, as module/synth/ sees it.
 */
#ifndef _KHIST_SYNTH_SYNTH_INTERNAL_H
#define _KHIST_SYNTH_SYNTH_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <khist/event.h>
#include "events/dynevent.h"
#include "synth.h"

/**
 * struct khist_synth_event - one synthetic event
 * @kdef:   its khist event definition (registered while it exists)
 * @dyn:    its entry in the dynamic events list
 * @def:    the parsed definition: name, fields, layout
 * @descs:  the schema fields built from @def (for format, filter, hist)
 * @owner:  the module that created it, or NULL
 * @users:  khist_synth_get() references (the event is busy while > 0)
 * @kref:   memory: one for the list, one per reference
 * @dead:   removed from khist; only references keep it
 */
struct khist_synth_event {
	struct khist_event_def kdef;
	struct khist_dynevent dyn;
	struct khist_synth_def *def;
	struct khist_field_desc *descs;
	struct module *owner;
	atomic_t users;
	struct kref kref;
	bool dead;
};

/* synth_event.c */
extern struct khist_dynevent_ops khist_synth_dyn_ops;
int khist_synth_command(const char *line);
int khist_synth_dyn_create(const char *line);
void khist_synth_remove_all(void);

/* synth_trace.c */
void khist_synth_print(struct khist_print_ctx *p);

#endif /* _KHIST_SYNTH_SYNTH_INTERNAL_H */
