// SPDX-License-Identifier: GPL-2.0
/*
 * Known calls for t65_probe's dynamic probes on ksys_lseek() and
 * do_sys_openat2():
 *   lkst_probeload -n N -b BASE   N times: lseek(fd, BASE + i, SEEK_SET)
 *                                 (returns BASE + i), lseek(fd, -(i + 1),
 *                                 42) (returns -EINVAL), and
 *                                 openat(AT_FDCWD, FILE, O_WRONLY|O_CREAT,
 *                                 0640 + i % 8) then close
 *   lkst_probeload -L             lseek(fd, 0, SEEK_SET) until killed
 * It prints "pid PID fd FD" first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_PATH "/tmp/lkst_probeload.dat"

int main(int argc, char **argv)
{
	long n = -1, base = 0, i;
	int loop = 0, opt, fd, fd2;

	while ((opt = getopt(argc, argv, "n:b:L")) != -1) {
		switch (opt) {
		case 'n':
			n = strtol(optarg, NULL, 0);
			break;
		case 'b':
			base = strtol(optarg, NULL, 0);
			break;
		case 'L':
			loop = 1;
			break;
		default:
			fprintf(stderr, "usage: lkst_probeload -n N -b BASE | -L\n");
			return 1;
		}
	}
	if (!loop && n < 0) {
		fprintf(stderr, "lkst_probeload: -n N or -L\n");
		return 1;
	}
	fd = open(FILE_PATH, O_RDWR | O_CREAT, 0600);
	if (fd < 0) {
		perror("lkst_probeload: open");
		return 1;
	}
	printf("pid %d fd %d\n", getpid(), fd);
	fflush(stdout);
	while (loop)
		if (lseek(fd, 0, SEEK_SET) != 0) {
			perror("lkst_probeload: lseek");
			return 1;
		}
	for (i = 0; i < n; i++) {
		if (lseek(fd, base + i, SEEK_SET) != base + i) {
			perror("lkst_probeload: lseek");
			return 1;
		}
		if (lseek(fd, -(i + 1), 42) != -1 || errno != EINVAL) {
			fprintf(stderr, "lkst_probeload: lseek whence 42 did not fail with EINVAL\n");
			return 1;
		}
		fd2 = openat(AT_FDCWD, FILE_PATH, O_WRONLY | O_CREAT, 0640 + i % 8);
		if (fd2 < 0) {
			perror("lkst_probeload: openat");
			return 1;
		}
		close(fd2);
	}
	return 0;
}
