// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of a traced system call, as seen by the caller: times N getppid()
 * calls and prints the mean, to be compared between masksets within one
 * guest run (absolute times under emulation mean little).
 *
 *   lkst_bench -n CALLS -l LABEL
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *label = "";
	long calls = 100000, i;
	double best = 0;
	int opt, round;

	while ((opt = getopt(argc, argv, "n:l:")) != -1) {
		if (opt == 'n')
			calls = atol(optarg);
		else if (opt == 'l')
			label = optarg;
		else
			return 2;
	}
	/* Best of three rounds, to keep other guest activity out. */
	for (round = 0; round < 3; round++) {
		double start = now_ns(), per_call;

		for (i = 0; i < calls; i++)
			syscall(SYS_getppid);
		per_call = (now_ns() - start) / calls;
		if (!round || per_call < best)
			best = per_call;
	}
	printf("%-40s %10.1f ns per getppid()\n", label, best);
	return 0;
}
