/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records on CPU 0, for the guest programs whose requests need some there
 * to copy: a scenario run before them may leave CPU 0's buffer empty
 * (t98_torture ends on an empty one, t66_report's resize empties every
 * CPU's), and a drain or block read with nothing to copy succeeds without
 * touching the caller's memory.
 */
#ifndef LKST_CPU0_H
#define LKST_CPU0_H

/* sched_setaffinity(): the includer defines _GNU_SOURCE first. */
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>

/*
 * Pin the caller to CPU 0 and make 100 system calls there under RDEFAULT,
 * which records them; *@restore gets the maskset that was active, for the
 * caller to set again when done.  0, or -1 with a message naming @prog.
 */
static int lkst_fill_cpu0(int fd, const char *prog, __u32 *restore)
{
	__u32 maskset = LKST_MASKSET_RDEFAULT;
	struct lkst_version ver;
	cpu_set_t cpu0;
	int i;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (ioctl(fd, LKST_IOC_GET_VERSION, &ver) ||
	    sched_setaffinity(0, sizeof(cpu0), &cpu0) ||
	    ioctl(fd, LKST_IOC_MASKSET_SET, &maskset)) {
		fprintf(stderr, "%s: recording on CPU 0: %m\n", prog);
		return -1;
	}
	*restore = ver.active_maskset;
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	return 0;
}

#endif
