// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_blockio - direct I/O of known sizes at known sectors of a scratch
 * block device, for the t52_block scenario.
 *
 * Writes a pattern at each (sector, bytes) of a fixed list with O_DIRECT,
 * then reads every range back and compares, so each transfer is one bio
 * the page cache never sees.  Prints "pid PID" and "dev MAJOR MINOR".
 *
 * usage: lkst_blockio DEVICE     (never the results disk)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Must match tests/check/t52_block.py. */
static const struct {
	unsigned long long sector;
	size_t bytes;
} ranges[] = {
	{ 2048, 4096 },
	{ 4104, 8192 },
	{ 16384, 65536 },
	{ 40001, 512 },
};

#define NR_RANGES (sizeof(ranges) / sizeof(ranges[0]))

int main(int argc, char **argv)
{
	unsigned char *wbuf, *rbuf;
	struct stat st;
	unsigned int i;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: lkst_blockio DEVICE\n");
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0 || fstat(fd, &st) || !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "lkst_blockio: %s: not an openable block device (%s)\n",
			argv[1], strerror(errno));
		return 1;
	}
	if (posix_memalign((void **)&wbuf, 4096, 65536) ||
	    posix_memalign((void **)&rbuf, 4096, 65536)) {
		fprintf(stderr, "lkst_blockio: out of memory\n");
		return 1;
	}
	printf("pid %d\ndev %u %u\n", (int)getpid(), major(st.st_rdev),
	       minor(st.st_rdev));
	fflush(stdout);

	for (i = 0; i < NR_RANGES; i++) {
		memset(wbuf, 0xa0 + i, ranges[i].bytes);
		if (pwrite(fd, wbuf, ranges[i].bytes, ranges[i].sector * 512) !=
		    (ssize_t)ranges[i].bytes) {
			fprintf(stderr, "lkst_blockio: write of %zu bytes at sector %llu failed: %s\n",
				ranges[i].bytes, ranges[i].sector, strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < NR_RANGES; i++) {
		memset(wbuf, 0xa0 + i, ranges[i].bytes);
		if (pread(fd, rbuf, ranges[i].bytes, ranges[i].sector * 512) !=
		    (ssize_t)ranges[i].bytes) {
			fprintf(stderr, "lkst_blockio: read of %zu bytes at sector %llu failed: %s\n",
				ranges[i].bytes, ranges[i].sector, strerror(errno));
			return 1;
		}
		if (memcmp(rbuf, wbuf, ranges[i].bytes)) {
			fprintf(stderr, "lkst_blockio: sector %llu reads back other data\n",
				ranges[i].sector);
			return 1;
		}
	}
	close(fd);
	printf("done\n");
	return 0;
}
