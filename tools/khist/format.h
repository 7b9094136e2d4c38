/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - an event's `format` file as the portable core's schema.
 */
#ifndef _KHIST_TOOL_FORMAT_H
#define _KHIST_TOOL_FORMAT_H

#include "schema.h"

/**
 * struct kh_format - a parsed `format` file
 * @schema: the schema (points into the members below)
 * @fields: the fields, @n of them
 * @n:      see @fields
 * @system: owned copy of the system name
 * @event:  owned copy of the event name
 * @any:    the text had field lines
 */
struct kh_format {
	struct khist_event_schema schema;
	struct khist_field_desc *fields;
	unsigned int n;
	char *system;
	char *event;
	bool any;
};

int kh_format_parse(const char *text, const char *system, const char *event,
		    bool common, struct kh_format *out);
void kh_format_free(struct kh_format *f);

#endif /* _KHIST_TOOL_FORMAT_H */
