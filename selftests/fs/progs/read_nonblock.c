// SPDX-License-Identifier: GPL-2.0
/*
 * read_nonblock FILE - open FILE with O_NONBLOCK, read once, and print
 * "eagain" when the read would block, else the bytes read ("data N"), or
 * "error <errno>".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: read_nonblock FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && errno == EAGAIN)
		printf("eagain\n");
	else if (n < 0)
		printf("error %d\n", errno);
	else
		printf("data %zd\n", n);
	close(fd);
	return 0;
}
