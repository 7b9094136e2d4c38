// SPDX-License-Identifier: GPL-2.0
/*
 * kaddrcall - read(2) zero bytes from fd 0 into 0xffff888012345678, a
 * kernel address: the syscall events record it as an argument (the tests
 * of what a reader without CAP_SYSLOG sees). Prints nothing; exit 0.
 */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	syscall(SYS_read, 0, 0xffff888012345678UL, 0UL);
	return 0;
}
