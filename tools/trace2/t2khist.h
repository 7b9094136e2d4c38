/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t2khist.h - the trace2 records in khist's ring buffer, read from
 * per_cpu/cpuN/trace_pipe_raw, as a record log.
 */
#ifndef KHIST_TRACE2_KHIST_H
#define KHIST_TRACE2_KHIST_H

#include <stdio.h>

/*
 * struct t2_khist_stats - what t2_khist_log() read.
 * @cpus: per_cpu directories read
 * @pages: sub-buffers read
 * @records: trace2 records found
 * @other: records of other events (left out)
 * @lost_pages: sub-buffers marked as following lost events
 * @bad: sub-buffers or events that did not parse (the rest of the
 *	sub-buffer is skipped)
 */
struct t2_khist_stats {
	unsigned int cpus;
	unsigned long pages, records, other, lost_pages, bad;
};

int t2_khist_log(const char *dir, const char *prefix, FILE *out,
		 struct t2_khist_stats *st);

#endif
