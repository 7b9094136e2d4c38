// SPDX-License-Identifier: GPL-2.0
/*
 * sqlhist_ref.c - the commands unmodified libtracefs makes of a query in
 * its SQL dialect, for test.d/tools/tools-sql.tc to hold `khist sql` to:
 *
 *   khist-sqlhist-ref NAME 'SELECT ...'
 *
 * prints what tracefs_synth_echo_cmd() prints for a JOIN, or what
 * tracefs_hist_echo_cmd() prints for a hist, and writes nothing. Exit
 * status 1 when libtracefs refuses the query (its message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <tracefs.h>

int main(int argc, char **argv)
{
	struct tracefs_synth *synth;
	struct tep_handle *tep;
	struct trace_seq seq;
	char *err = NULL;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: khist-sqlhist-ref NAME QUERY\n");
		return 2;
	}
	tep = tracefs_local_events(NULL);
	if (!tep) {
		perror("tracefs_local_events");
		return 1;
	}
	synth = tracefs_sql(tep, argv[1], argv[2], &err);
	if (!synth) {
		fprintf(stderr, "tracefs_sql: %s\n", err ? err : "failed");
		free(err);
		return 1;
	}
	trace_seq_init(&seq);
	if (tracefs_synth_complete(synth))
		rc = tracefs_synth_echo_cmd(&seq, synth);
	else
		rc = tracefs_hist_echo_cmd(&seq, NULL,
					   tracefs_synth_get_start_hist(synth),
					   TRACEFS_HIST_CMD_START);
	trace_seq_do_printf(&seq);
	trace_seq_destroy(&seq);
	tracefs_synth_free(synth);
	tep_free(tep);
	return rc ? 1 : 0;
}
