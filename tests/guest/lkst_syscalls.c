// SPDX-License-Identifier: GPL-2.0
/*
 * Makes a known number of distinctive system calls for the syscall
 * scenarios:
 *   lseek(1234, TAG + i, SEEK_SET)  fails with -EBADF
 *   write(/dev/null, buf, 777 + i)  returns 777 + i
 * and optionally getppid() between two halves (a trigger point), and with
 * -6 one futex() call with six distinct arguments and an invalid operation
 * (FUTEX6_ARGS; fails with -ENOSYS before it reads any of them).  Prints
 * "pid P devnull F" so the checker knows what to look for.
 *
 *   lkst_syscalls -n LSEEKS -w WRITES [-t TAG] [-c CPU] [-g] [-6]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD_FD 1234
#define FUTEX_BAD_OP 0x7f

int main(int argc, char **argv)
{
	long lseeks = 0, writes = 0, tag = 0x5eed0000, i;
	static char buf[4096];
	int opt, cpu = -1, devnull, getppid_between = 0, six = 0;

	while ((opt = getopt(argc, argv, "n:w:t:c:g6")) != -1) {
		switch (opt) {
		case 'n': lseeks = atol(optarg); break;
		case 'w': writes = atol(optarg); break;
		case 't': tag = strtol(optarg, NULL, 0); break;
		case 'c': cpu = atoi(optarg); break;
		case 'g': getppid_between = 1; break;
		case '6': six = 1; break;
		default: return 2;
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("lkst_syscalls: sched_setaffinity");
			return 1;
		}
	}
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0) {
		perror("lkst_syscalls: /dev/null");
		return 1;
	}
	printf("pid %d devnull %d\n", getpid(), devnull);
	fflush(stdout);

	for (i = 0; i < lseeks; i++) {
		if (getppid_between && i == lseeks / 2)
			syscall(SYS_getppid);
		if (syscall(SYS_lseek, BAD_FD, tag + i, SEEK_SET) != -1)
			return 1;
	}
	for (i = 0; i < writes; i++)
		if (syscall(SYS_write, devnull, buf, 777 + i) != 777 + i)
			return 1;
	if (six && syscall(SYS_futex, 0x1111L, FUTEX_BAD_OP, 0x3333L, 0x4444L,
			   0x5555L, 0x6666L) != -1)
		return 1;
	return 0;
}
