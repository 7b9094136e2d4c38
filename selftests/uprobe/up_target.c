// SPDX-License-Identifier: GPL-2.0
/*
 * up_target.c - the program the uprobe tests probe: up_add() is called
 * N times (argv[1], default 10) with known arguments, and returns their
 * sum; up_counter counts the calls. vm-image.sh writes the symbols'
 * offsets (from nm) next to the binary.
 */
#include <stdio.h>
#include <stdlib.h>

volatile long up_counter = 1000;

__attribute__((noinline)) long up_add(int a, long b, const char *s)
{
	up_counter++;
	__asm__ volatile("" ::: "memory");
	return a + b + s[0];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += up_add(i, 100L * i, i & 1 ? "odd" : "even");
	printf("%ld\n", sum);
	return 0;
}
