// SPDX-License-Identifier: GPL-2.0
/*
 * rawpipe - read a per_cpu/cpuN/trace_pipe_raw file the ways recorders do.
 *
 *   rawpipe read FILE SIZE [nb]   one read() of SIZE bytes (nb: O_NONBLOCK)
 *   rawpipe reads FILE SIZE N     N reads of SIZE bytes on one open file
 *   rawpipe drain FILE [TEXT]     O_NONBLOCK reads of whole pages until
 *                                 EAGAIN; counts the pages, checks each
 *                                 page header and finds TEXT in the data
 *                                 (pages of $RAWPIPE_SUBBUF bytes if set:
 *                                 the sub-buffer size)
 *   rawpipe splice FILE LEN [nb]  one splice() of LEN bytes into a pipe
 *                                 (nb: SPLICE_F_NONBLOCK)
 *   rawpipe write FILE TEXT       one write() of TEXT: "wrote N"
 *   rawpipe slow FILE USEC STOP   blocking reads of whole pages, USEC
 *                                 apart, until a read returns 0 or the
 *                                 file STOP exists and the CPU is empty;
 *                                 counts the pages, the data events in
 *                                 them, the pages equal to the one read
 *                                 before (timestamp, commit and data: a
 *                                 page given twice) and those whose
 *                                 timestamp is not after the last one's:
 *                                 "pages P events E dup D back B"
 *   rawpipe hold FILE LEN GO      splice LEN bytes, close FILE, print
 *                                 "spliced BYTES", wait for the file GO to
 *                                 exist, then read the pipe: "n BYTES
 *                                 commit C"
 *
 * SIGUSR1 interrupts a blocked call (no SA_RESTART): "error 4".
 * Each prints one line: "n BYTES [commit C]", "eagain", "error ERRNO",
 * "pages P found F", or "spliced BYTES".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PG 4096

/* The sub-buffer header: a timestamp, then the commit (bytes of data). */
static unsigned long commit_of(const char *page)
{
	uint64_t c;

	memcpy(&c, page + 8, sizeof(c));
	return c & 0xfffff;
}

static int report(ssize_t n, const char *page)
{
	if (n < 0 && errno == EAGAIN)
		printf("eagain\n");
	else if (n < 0)
		printf("error %d\n", errno);
	else if (n >= 16 && page)
		printf("n %zd commit %lu\n", n, commit_of(page));
	else
		printf("n %zd\n", n);
	return 0;
}

static void on_usr1(int sig)
{
}

/*
 * The data events of a sub-buffer: the event header's 5-bit type_len
 * (0: length in the next word, 1-28: that many words of data, 29:
 * padding, 30: time extend, 31: absolute time stamp) and 27-bit delta.
 */
static long events_of(const char *page)
{
	unsigned long off = 16, end = 16 + commit_of(page);
	uint32_t hdr, len;
	long n = 0;

	while (off + 4 <= end) {
		memcpy(&hdr, page + off, 4);
		switch (hdr & 31) {
		case 29:
			if (!(hdr >> 5))
				return n;
			memcpy(&len, page + off + 4, 4);
			off += 4 + len;
			break;
		case 30:
		case 31:
			off += 8;
			break;
		case 0:
			memcpy(&len, page + off + 4, 4);
			off += 4 + len;
			n++;
			break;
		default:
			off += 4 + (hdr & 31) * 4;
			n++;
		}
	}
	return n;
}

static int slow_reader(const char *file, long usec, const char *stop)
{
	static char page[PG], prev[PG];
	long pages = 0, events = 0, dup = 0, back = 0;
	uint64_t ts, last = 0;
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return report(-1, NULL);
	for (;;) {
		n = read(fd, page, PG);
		if (n < 0 && errno == EAGAIN) {
			if (!access(stop, F_OK))
				break;
			usleep(1000);
			continue;
		}
		if (n <= 0)
			break;
		if (n != PG) {
			printf("bad read %zd\n", n);
			return 1;
		}
		memcpy(&ts, page, sizeof(ts));
		if (pages && !memcmp(page, prev, 16 + commit_of(page)))
			dup++;
		else if (pages && ts <= last)
			back++;
		memcpy(prev, page, PG);
		last = ts;
		pages++;
		events += events_of(page);
		usleep(usec);
	}
	printf("pages %ld events %ld dup %ld back %ld\n", pages, events, dup,
	       back);
	return 0;
}

int main(int argc, char **argv)
{
	static char page[1 << 20];
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd, i, nb = argc > 4 && !strcmp(argv[4], "nb");
	long pages = 0, found = 0;
	ssize_t n;

	if (argc < 3)
		return 2;
	sigaction(SIGUSR1, &sa, NULL);
	if (!strcmp(argv[1], "read") || !strcmp(argv[1], "reads")) {
		size_t size = strtoul(argv[3], NULL, 0);
		int times = !strcmp(argv[1], "reads") ? atoi(argv[4]) : 1;

		if (!strcmp(argv[1], "reads"))
			nb = 1;
		fd = open(argv[2], O_RDONLY | (nb ? O_NONBLOCK : 0));
		if (fd < 0)
			return report(-1, NULL);
		for (i = 0; i < times; i++) {
			n = read(fd, page, size);
			report(n, i ? NULL : page);
		}
		return 0;
	}
	if (!strcmp(argv[1], "drain")) {
		const char *sub = getenv("RAWPIPE_SUBBUF");
		ssize_t pg = sub ? strtol(sub, NULL, 0) : PG;

		if (pg < PG || pg > (ssize_t)sizeof(page))
			return 2;
		fd = open(argv[2], O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			return report(-1, NULL);
		for (;;) {
			n = read(fd, page, pg);
			if (n < 0 && errno == EAGAIN)
				break;
			if (n != pg) {
				printf("bad read %zd errno %d\n", n, errno);
				return 1;
			}
			if (commit_of(page) > (unsigned long)pg - 16) {
				printf("bad commit %lu\n", commit_of(page));
				return 1;
			}
			pages++;
			if (argc > 3 && memmem(page + 16, commit_of(page),
					       argv[3], strlen(argv[3])))
				found++;
		}
		printf("pages %ld found %ld\n", pages, found);
		return 0;
	}
	if (!strcmp(argv[1], "slow") && argc > 4)
		return slow_reader(argv[2], atol(argv[3]), argv[4]);
	if (!strcmp(argv[1], "write") && argc > 3) {
		fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			return report(-1, NULL);
		n = write(fd, argv[3], strlen(argv[3]));
		if (n < 0)
			return report(n, NULL);
		printf("wrote %zd\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "hold") && argc > 4) {
		size_t len = strtoul(argv[3], NULL, 0);
		int p[2];

		fd = open(argv[2], O_RDONLY | O_NONBLOCK);
		if (fd < 0 || pipe(p))
			return report(-1, NULL);
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
		n = splice(fd, NULL, p[1], NULL, len, SPLICE_F_NONBLOCK);
		if (n < 0)
			return report(n, NULL);
		close(fd);
		printf("spliced %zd\n", n);
		fflush(stdout);
		while (access(argv[4], F_OK))
			usleep(10000);
		return report(read(p[0], page, PG), page);
	}
	if (!strcmp(argv[1], "splice")) {
		size_t len = strtoul(argv[3], NULL, 0);
		int p[2];

		fd = open(argv[2], O_RDONLY);
		if (fd < 0 || pipe(p))
			return report(-1, NULL);
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
		n = splice(fd, NULL, p[1], NULL, len,
			   nb ? SPLICE_F_NONBLOCK : 0);
		if (n < 0)
			return report(n, NULL);
		printf("spliced %zd", n);
		if (n >= PG && read(p[0], page, PG) == PG)
			printf(" commit %lu", commit_of(page));
		printf("\n");
		return 0;
	}
	return 2;
}
