// SPDX-License-Identifier: GPL-2.0
/*
 * Do maskset requests wait for a buffer reader?  One thread drains CPU 0's
 * buffer, which holds a large extra block (every drain scans all its
 * slots), while another reads masksets under the lock that maskset
 * switches and their static-key updates take, and counts the reads that
 * began and ended inside one drain call.  A request that shares a lock
 * with the drain can never do that.  Then it times whole switches, for the
 * record.  Prints the figures:
 *
 *   lkst_switchdrain [-s BLOCK_BYTES] [-d DRAINS]
 *   drains D, drain_ms_max X, maskset_reads R, reads_inside_a_drain K,
 *   read_ms_max Y, switch_ms_max Z
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include <linux/lkst_record.h>

static int fd;
static int drains_wanted = 5;
/* Odd while a drain call is in progress; bumped at its start and end. */
static unsigned long drain_gen;
static int draining_done;
static double drain_ms_max;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *drainer(void *arg)
{
	static struct lkst_record records[64];
	static __u64 seqs[64];
	struct lkst_buffer_drain req;
	double t;
	int i;

	(void)arg;
	for (i = 0; i < drains_wanted; i++) {
		memset(&req, 0, sizeof(req));
		req.cpu = 0;
		req.records = (unsigned long)records;
		req.seqs = (unsigned long)seqs;
		req.max_records = 64;
		t = now_ms();
		__atomic_add_fetch(&drain_gen, 1, __ATOMIC_SEQ_CST);
		if (ioctl(fd, LKST_IOC_BUFFER_DRAIN, &req)) {
			perror("lkst_switchdrain: BUFFER_DRAIN");
			exit(1);
		}
		__atomic_add_fetch(&drain_gen, 1, __ATOMIC_SEQ_CST);
		t = now_ms() - t;
		if (t > drain_ms_max)
			drain_ms_max = t;
		usleep(20000);	/* let switches start outside a drain too */
	}
	__atomic_store_n(&draining_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	struct lkst_block_create blk = { .cpu = 0, .next = LKST_NO_NEXT };
	struct lkst_block_link del = { .cpu = 0 };
	static struct lkst_maskset_desc desc;
	struct lkst_version ver;
	unsigned long gen_before, gen_after;
	unsigned int reads = 0, inside = 0, i;
	double t, read_ms_max = 0, switch_ms_max = 0;
	__u32 maskset, restore;
	pthread_t thread;
	int opt;

	blk.size = 32u << 20;
	while ((opt = getopt(argc, argv, "s:d:")) != -1) {
		switch (opt) {
		case 's': blk.size = strtoul(optarg, NULL, 0); break;
		case 'd': drains_wanted = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: lkst_switchdrain [-s BLOCK_BYTES] [-d DRAINS]\n");
			return 2;
		}
	}
	fd = open("/dev/lkst", O_RDWR);
	if (fd < 0 || ioctl(fd, LKST_IOC_GET_VERSION, &ver)) {
		perror("lkst_switchdrain: /dev/lkst");
		return 1;
	}
	restore = ver.active_maskset;
	if (ioctl(fd, LKST_IOC_BLOCK_CREATE, &blk)) {
		perror("lkst_switchdrain: BLOCK_CREATE");
		return 1;
	}
	pthread_create(&thread, NULL, drainer, NULL);
	while (!__atomic_load_n(&draining_done, __ATOMIC_SEQ_CST)) {
		desc.id = reads % LKST_MASKSET_FIRST_USER;
		gen_before = __atomic_load_n(&drain_gen, __ATOMIC_SEQ_CST);
		t = now_ms();
		if (ioctl(fd, LKST_IOC_MASKSET_READ, &desc)) {
			perror("lkst_switchdrain: MASKSET_READ");
			return 1;
		}
		t = now_ms() - t;
		gen_after = __atomic_load_n(&drain_gen, __ATOMIC_SEQ_CST);
		reads++;
		inside += gen_before == gen_after && gen_before % 2;
		if (t > read_ms_max)
			read_ms_max = t;
	}
	pthread_join(thread, NULL);
	for (i = 0; i < 6; i++) {
		maskset = i % 2 ? LKST_MASKSET_RDEFAULT : LKST_MASKSET_RNOTHING;
		t = now_ms();
		if (ioctl(fd, LKST_IOC_MASKSET_SET, &maskset)) {
			perror("lkst_switchdrain: MASKSET_SET");
			return 1;
		}
		t = now_ms() - t;
		if (t > switch_ms_max)
			switch_ms_max = t;
	}
	ioctl(fd, LKST_IOC_MASKSET_SET, &restore);
	del.block = blk.block;
	if (ioctl(fd, LKST_IOC_BLOCK_DELETE, &del)) {
		perror("lkst_switchdrain: BLOCK_DELETE");
		return 1;
	}
	printf("drains %d, drain_ms_max %.1f, maskset_reads %u, "
	       "reads_inside_a_drain %u, read_ms_max %.1f, switch_ms_max %.1f\n",
	       drains_wanted, drain_ms_max, reads, inside, read_ms_max,
	       switch_ms_max);
	return 0;
}
