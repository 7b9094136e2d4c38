// SPDX-License-Identifier: GPL-2.0
/*
 * hdsys.c - a workload for the differential tests of the syscall events:
 * some forty system calls, each made through syscall(2) (so that the C
 * library picks no other one) a fixed number of times with fixed
 * arguments where the call allows it. Call k of the list is made k % 3 + 1
 * times, so the hit counts differ between events.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define HDSYS_DIR "/tmp/hdsys"

static char buf[4096];

static void once(int k)
{
	struct timespec ts = { 0, 1000 };
	struct utsname un;
	struct rlimit rl;
	struct stat st;
	struct tms tm;
	sigset_t set;
	int fds[2];
	long fd;
	void *p;

	switch (k) {
	case 0:
		syscall(SYS_getpid);
		break;
	case 1:
		syscall(SYS_getppid);
		break;
	case 2:
		syscall(SYS_getuid);
		break;
	case 3:
		syscall(SYS_geteuid);
		break;
	case 4:
		syscall(SYS_getgid);
		break;
	case 5:
		syscall(SYS_getegid);
		break;
	case 6:
		syscall(SYS_gettid);
		break;
	case 7:
		syscall(SYS_uname, &un);
		break;
	case 8:
		syscall(SYS_sched_yield);
		break;
	case 9:
		syscall(SYS_nanosleep, &ts, NULL);
		break;
	case 10:
		syscall(SYS_umask, 022);
		break;
	case 11:
		syscall(SYS_getcwd, buf, sizeof(buf));
		break;
	case 12:
		syscall(SYS_times, &tm);
		break;
	case 13:
		syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl);
		break;
	case 14:
		syscall(SYS_prlimit64, 0, RLIMIT_STACK, NULL, &rl);
		break;
	case 15:
		syscall(SYS_kill, syscall(SYS_getpid), 0);
		break;
	case 16:
		sigemptyset(&set);
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8);
		break;
	case 17:
		syscall(SYS_getpgrp);
		break;
	case 18:
		syscall(SYS_getsid, 0);
		break;
	case 19:
		fd = syscall(SYS_openat, AT_FDCWD, "/proc/version", O_RDONLY);
		syscall(SYS_read, fd, buf, 64);
		syscall(SYS_lseek, fd, 0, SEEK_SET);
		syscall(SYS_pread64, fd, buf, 32, 4);
		syscall(SYS_fstat, fd, &st);
		syscall(SYS_fcntl, fd, F_GETFL);
		syscall(SYS_dup3, fd, 40, O_CLOEXEC);
		syscall(SYS_close, 40);
		syscall(SYS_close, fd);
		break;
	case 20:
		syscall(SYS_pipe2, fds, O_CLOEXEC);
		syscall(SYS_write, fds[1], "hdsys", 5);
		syscall(SYS_read, fds[0], buf, 5);
		syscall(SYS_close, fds[0]);
		syscall(SYS_close, fds[1]);
		break;
	case 21:
		syscall(SYS_mkdirat, AT_FDCWD, HDSYS_DIR, 0700);
		syscall(SYS_symlinkat, "target", AT_FDCWD, HDSYS_DIR "/l");
		syscall(SYS_readlinkat, AT_FDCWD, HDSYS_DIR "/l", buf, 64);
		syscall(SYS_newfstatat, AT_FDCWD, HDSYS_DIR, &st, 0);
		syscall(SYS_faccessat, AT_FDCWD, HDSYS_DIR, R_OK);
		syscall(SYS_renameat2, AT_FDCWD, HDSYS_DIR "/l", AT_FDCWD,
			HDSYS_DIR "/m", 0);
		syscall(SYS_unlinkat, AT_FDCWD, HDSYS_DIR "/m", 0);
		syscall(SYS_unlinkat, AT_FDCWD, HDSYS_DIR, AT_REMOVEDIR);
		break;
	case 22:
		p = (void *)syscall(SYS_mmap, NULL, 8192,
				    PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		syscall(SYS_mprotect, p, 4096, PROT_READ);
		syscall(SYS_madvise, p, 8192, MADV_DONTNEED);
		syscall(SYS_munmap, p, 8192);
		break;
	case 23:
		syscall(SYS_getrandom, buf, 16, 0);
		break;
	case 24:
		fd = syscall(SYS_eventfd2, 0, 0);
		syscall(SYS_close, fd);
		break;
	case 25:
		fd = syscall(SYS_memfd_create, "hdsys", 0);
		syscall(SYS_ftruncate, fd, 4096);
		syscall(SYS_fsync, fd);
		syscall(SYS_flock, fd, LOCK_EX);
		syscall(SYS_close, fd);
		break;
	case 26:
		fd = syscall(SYS_epoll_create1, 0);
		syscall(SYS_close, fd);
		break;
	case 27:
		syscall(SYS_sysinfo, buf);
		break;
	case 28:
		syscall(SYS_getrusage, RUSAGE_SELF, buf);
		break;
	case 29:
		syscall(SYS_getpriority, PRIO_PROCESS, 0);
		break;
	case 30:
		syscall(SYS_sched_getaffinity, 0, 128, buf);
		break;
	case 31:
		syscall(SYS_personality, 0xffffffff);
		break;
	case 32:
		syscall(SYS_chdir, "/");
		break;
	case 33:
		syscall(SYS_statx, AT_FDCWD, "/", 0, 0x7ff, buf);
		break;
	}
}

int main(void)
{
	int k, i;

	for (k = 0; k < 34; k++)
		for (i = 0; i <= k % 3; i++)
			once(k);
	return 0;
}
