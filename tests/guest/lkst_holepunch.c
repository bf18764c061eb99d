// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_holepunch FILE LENGTH: give back the memory of FILE's first LENGTH
 * bytes (whole pages: LENGTH rounded down to 4096), the file's size and
 * the rest of its data unchanged (fallocate(FALLOC_FL_PUNCH_HOLE)).
 *
 * tests/scenarios/bench_bpftrace.sh: bpftrace's output file grows by tens
 * of MB per workload while the suite reads it, on the initramfs's tmpfs,
 * which has half of the guest's memory and the initramfs's 295 MB in it.
 * When it filled, bpftrace's -o stream failed and wrote nothing more, and
 * the suite waited for a marker that could never come.  The suite frees
 * what it has read as it goes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/falloc.h>

int main(int argc, char **argv)
{
	long long len;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: lkst_holepunch FILE LENGTH\n");
		return 2;
	}
	len = strtoll(argv[2], NULL, 10) & ~4095LL;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (len > 0 &&
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, len)) {
		perror("lkst_holepunch: fallocate");
		return 1;
	}
	return 0;
}
