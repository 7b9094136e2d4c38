/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t2render.h - reading a record log (the fake sink's output) back, and
 * rendering trace2_* records as Git's Trace2 event, perf or normal text.
 */
#ifndef KHIST_TRACE2_RENDER_H
#define KHIST_TRACE2_RENDER_H

#include <stdio.h>

#include "t2map.h"

enum t2_render_fmt { T2R_DECODE, T2R_EVENT, T2R_PERF, T2R_NORMAL };

int t2_render_log(FILE *in, FILE *out, enum t2_render_fmt how,
		  const char *prefix, unsigned long *bad);

#endif
