// SPDX-License-Identifier: GPL-2.0
/*
 * Memory workload for the page-allocation view: names itself lkw-pages,
 * maps and touches a buffer it keeps to the end, then for SECONDS maps,
 * touches and unmaps chunks of varying size every 100 ms, holding up to
 * eight at a time, so the kernel allocates and frees its pages all along.
 * Prints "pid P buffer 0xADDR pages N" (flushed) before the churn starts,
 * so a scenario can point lkst_pagewalk at it and check the buffer.
 *
 *   lkst_pagemem [-t SECONDS] [-b BUFFER_PAGES] [-w MS_BEFORE_CHURN]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NR_CHUNKS	8

static void *map_touch(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("lkst_pagemem: mmap");
		exit(1);
	}
	memset(p, 0x5a, len);	/* every page faulted in: one allocation each */
	return p;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), buf_pages = 256, wait_ms = 0;
	size_t chunk_len[NR_CHUNKS] = { 0 };
	void *chunk[NR_CHUNKS] = { 0 };
	double seconds = 4, end;
	unsigned int i, rounds;
	char *buf;
	int opt;

	while ((opt = getopt(argc, argv, "t:b:w:")) != -1) {
		switch (opt) {
		case 't': seconds = atof(optarg); break;
		case 'b': buf_pages = atol(optarg); break;
		case 'w': wait_ms = atol(optarg); break;
		default:
			fprintf(stderr, "usage: lkst_pagemem [-t SECONDS] [-b PAGES] [-w MS]\n");
			return 2;
		}
	}
	if (buf_pages < 1 || seconds < 0) {
		fprintf(stderr, "lkst_pagemem: -b must be >= 1 and -t >= 0\n");
		return 2;
	}
	prctl(PR_SET_NAME, "lkw-pages", 0, 0, 0);
	buf = map_touch(buf_pages * page);
	printf("pid %d buffer %p pages %ld\n", getpid(), (void *)buf, buf_pages);
	fflush(stdout);
	sleep_ms(wait_ms);

	end = now() + seconds;
	for (rounds = 0; now() < end; rounds++) {
		unsigned int slot = rounds % NR_CHUNKS;
		/* 16 to 128 pages, in a pattern that grows and shrinks */
		size_t pages = 16 + 16 * ((rounds * 5) % 8);

		if (chunk[slot])
			munmap(chunk[slot], chunk_len[slot]);
		chunk_len[slot] = pages * page;
		chunk[slot] = map_touch(chunk_len[slot]);
		buf[(rounds * page) % (buf_pages * page)]++;	/* the buffer stays in use */
		sleep_ms(100);
	}
	for (i = 0; i < NR_CHUNKS; i++)
		if (chunk[i])
			munmap(chunk[i], chunk_len[i]);
	printf("rounds %u\n", rounds);
	return 0;
}
