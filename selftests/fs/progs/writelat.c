// SPDX-License-Identifier: GPL-2.0
/*
 * writelat FILE COUNT TEXT... - open FILE for appending COUNT times, each
 * time writing the next TEXT (round robin, one write each), and print
 *   writes=COUNT errors=E max_ms=M mean_ms=A
 * with the wall-clock time of the longest and the average open+write+close,
 * in milliseconds.
 * writelat -r FILE - read FILE to its end once and print read_ms=M, the
 * time it took. Exit status 1 on a usage error only.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double t, d, max = 0, sum = 0;
	int count, i, fd, errors = 0;
	const char *text;

	if (argc == 3 && !strcmp(argv[1], "-r")) {
		static char buf[1 << 16];

		t = now_ms();
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return 1;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		printf("read_ms=%.0f\n", now_ms() - t);
		return 0;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: writelat FILE COUNT TEXT...\n");
		return 1;
	}
	count = atoi(argv[2]);
	for (i = 0; i < count; i++) {
		text = argv[3 + i % (argc - 3)];
		t = now_ms();
		fd = open(argv[1], O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, text, strlen(text)) < 0)
			errors++;
		if (fd >= 0)
			close(fd);
		d = now_ms() - t;
		sum += d;
		if (d > max)
			max = d;
	}
	printf("writes=%d errors=%d max_ms=%.0f mean_ms=%.1f\n", count, errors,
	       max, count ? sum / count : 0);
	return 0;
}
