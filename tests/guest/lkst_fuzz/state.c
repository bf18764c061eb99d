// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_fuzz's bookkeeping of the tracer: its state before the run (the
 * active maskset, the user masksets, each CPU's first block and mode),
 * put back after it, and the event IDs it knows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "fuzz.h"

struct saved_state saved;

int save_state(int fd)
{
	struct lkst_version v = { 0 };
	unsigned int cpu, id;

	if (ioctl(fd, LKST_IOC_GET_VERSION, &v)) {
		perror("lkst_fuzz: GET_VERSION");
		return -1;
	}
	saved.active = v.active_maskset;
	saved.nr_cpus = v.nr_cpu_ids < MAX_THREADS ? v.nr_cpu_ids : MAX_THREADS;
	for (cpu = 0; cpu < saved.nr_cpus; cpu++) {
		struct lkst_cpu_info ci = { .cpu = cpu };
		struct lkst_block_info bi = { .cpu = cpu, .block = 0 };

		if (ioctl(fd, LKST_IOC_CPU_INFO, &ci) || !ci.nr_blocks)
			continue;
		saved.has_blocks[cpu] = 1;
		saved.mode[cpu] = ci.mode;
		saved.block0_size[cpu] = ioctl(fd, LKST_IOC_BLOCK_INFO, &bi) ? 512 << 10 : bi.size;
	}
	for (id = LKST_MASKSET_FIRST_USER; id < LKST_MAX_MASKSETS; id++) {
		saved.ms[id].id = id;
		saved.ms_used[id] = !ioctl(fd, LKST_IOC_MASKSET_READ, &saved.ms[id]);
		saved.ms[id].flags = 0;
	}
	return 0;
}

static int restore_failures;

static void restore_step(const char *what, int ret, int ok_errno)
{
	if (ret && errno != ok_errno) {
		printf("FAIL restore: %s: %s\n", what, strerror(errno));
		restore_failures++;
	}
}

/*
 * The saved maskset active (a system one first, the user ones as they
 * were), every CPU back to block 0 alone at its saved size and mode.
 */
int restore_state(int fd)
{
	uint32_t id, sys = saved.active < LKST_MASKSET_FIRST_USER ? saved.active :
					       LKST_MASKSET_RDEFAULT;
	struct lkst_buffer_resize rs = { .size = 0 };
	unsigned int cpu, b;
	char what[64];

	restore_step("MASKSET_SET system", ioctl(fd, LKST_IOC_MASKSET_SET, &sys), 0);
	for (id = LKST_MASKSET_FIRST_USER; id < LKST_MAX_MASKSETS; id++) {
		snprintf(what, sizeof(what), "maskset %u", id);
		if (saved.ms_used[id])
			restore_step(what, ioctl(fd, LKST_IOC_MASKSET_WRITE, &saved.ms[id]), 0);
		else
			restore_step(what, ioctl(fd, LKST_IOC_MASKSET_DELETE, &id), ENOENT);
	}
	if (saved.active >= LKST_MASKSET_FIRST_USER)
		restore_step("MASKSET_SET user",
			     ioctl(fd, LKST_IOC_MASKSET_SET, &saved.active), 0);
	for (cpu = 0; cpu < saved.nr_cpus; cpu++) {
		struct lkst_block_info bi = { .cpu = cpu, .block = 0 };
		struct lkst_block_link l = { .cpu = cpu, .block = 0, .next = 0 };
		struct lkst_block_jump j = { .cpu = cpu, .block = 0 };
		struct lkst_block_delete d = { .cpu = cpu };
		struct lkst_buffer_mode m = { .cpu = cpu, .mode = saved.mode[cpu] };

		if (!saved.has_blocks[cpu])
			continue;
		if (!rs.size)
			rs.size = saved.block0_size[cpu];
		if (ioctl(fd, LKST_IOC_BLOCK_INFO, &bi)) {
			/* deleted: the lowest free ID is 0 again */
			struct lkst_block_create bc = {
				.cpu = cpu, .size = saved.block0_size[cpu], .next = LKST_NO_NEXT,
			};

			restore_step("BLOCK_CREATE 0", ioctl(fd, LKST_IOC_BLOCK_CREATE, &bc), 0);
			if (bc.block != 0) {
				printf("FAIL restore: cpu %u: new block is %u, not 0\n", cpu, bc.block);
				restore_failures++;
			}
		}
		restore_step("BLOCK_JUMP 0", ioctl(fd, LKST_IOC_BLOCK_JUMP, &j), 0);
		for (b = 1; b < LKST_MAX_BLOCKS; b++) {
			d.block = b;
			restore_step("BLOCK_DELETE", ioctl(fd, LKST_IOC_BLOCK_DELETE, &d), ENOENT);
		}
		l.next = LKST_NO_NEXT;
		restore_step("BLOCK_LINK 0", ioctl(fd, LKST_IOC_BLOCK_LINK, &l), 0);
		restore_step("BUFFER_MODE", ioctl(fd, LKST_IOC_BUFFER_MODE, &m), 0);
	}
	if (rs.size)
		restore_step("BUFFER_RESIZE", ioctl(fd, LKST_IOC_BUFFER_RESIZE, &rs),
			     persistent ? EPERM : 0);
	return restore_failures;
}

/* Which IDs are events: RALL routes exactly those. */
void read_known_events(int fd)
{
	struct lkst_maskset_desc d = { .id = LKST_MASKSET_RALL };
	unsigned int e;

	if (ioctl(fd, LKST_IOC_MASKSET_READ, &d))
		return;
	for (e = 0; e < LKST_NR_EVENT_IDS; e++) {
		if (d.handler[e] != LKST_HANDLER_NOTHING)
			known_list[nr_known++] = e;
	}
}
