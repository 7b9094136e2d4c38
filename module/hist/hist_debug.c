// SPDX-License-Identifier: GPL-2.0
/*
 * hist_debug.c - the `hist_debug` file (see Documentation/histogram.rst).
 */
#include <linux/seq_file.h>
#include "hist.h"

/**
 * khist_hist_debug_show() - the `hist_debug` file of an event
 * @m:  where it goes
 * @ev: the event
 *
 * Context: process context, khist_event_mutex held.
 * Return: 0.
 */
int khist_hist_debug_show(struct seq_file *m, struct khist_event *ev)
{
	return 0;
}
