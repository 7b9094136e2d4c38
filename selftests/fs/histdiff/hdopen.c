// SPDX-License-Identifier: GPL-2.0
/*
 * hdopen.c - a workload for the differential tests: openat() of a missing
 * file through pointers chosen so that sorting them as numbers and sorting
 * their bytes as C strings (which the kernel does for `const char *` hist
 * keys) give different orders, wherever the page lands.
 *
 * The pointers are offsets into one page, so they differ in their lowest
 * byte (little-endian: the first byte a string compare looks at), and none
 * of those bytes is zero. Pointer i is used i + 1 times, so each one also
 * has its own hit count.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HDOPEN_NAME "/nonexistent-hdopen"
#define HDOPEN_N 4

int main(void)
{
	/* numeric order 0x10 < 0x101 < 0x1ff < 0x280; by first byte
	 * 0x101 (01) < 0x10 (10) < 0x280 (80) < 0x1ff (ff)
	 */
	static const unsigned int offs[HDOPEN_N] = { 0x1ff, 0x10, 0x280,
						     0x101 };
	unsigned int i, n;
	char *page;
	int fd;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	for (i = 0; i < HDOPEN_N; i++)
		memcpy(page + offs[i], HDOPEN_NAME, sizeof(HDOPEN_NAME));
	for (i = 0; i < HDOPEN_N; i++) {
		for (n = 0; n <= i; n++) {
			fd = openat(AT_FDCWD, page + offs[i], O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
	}
	return 0;
}
