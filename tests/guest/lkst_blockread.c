// SPDX-License-Identifier: GPL-2.0
/*
 * BLOCK_READ of one block among others: two blocks of two pages on CPU 0,
 * A linked to B, a maskset routing only USER_MARK, the writer jumped to A;
 * marks "br-N" (N = 0, 1, ...) made on CPU 0 until the writer is in B's
 * first page, and a few more.  Each block read must return exactly the
 * marks its pages hold, in order: A 0..a-1 (two full pages), B a..n-1.
 * Then B is linked back to A and marks made until A's first page was
 * written again: A holds its second page (older than B's) and its first
 * (newer), B both of its own, and the two reads together are every mark
 * from the oldest A's second page holds to the last, each once.  Reading
 * a block used to stop at the lowest number any other block's pages held:
 * a read of B returned no record.
 *
 * Prints one "ok"/"FAIL" line per check and then
 * "blockread: A a1 B b1 ring: A a2 B b2 of n" (the records each read
 * returned); exits 1 on a failure.  CPU 0 overwrites meanwhile; then it
 * puts back the maskset that was active and CPU 0's mode, jumps back to
 * the block CPU 0 wrote into and deletes A and B.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include "lkst_expect.h"

#define BLOCK_SIZE	(2 * 4096)
#define MAX_MARKS	4096
#define ROOM		1024

static int fd;
static unsigned int nr_marks;

static int mark(void)
{
	struct lkst_mark m;

	memset(&m, 0, sizeof(m));
	snprintf(m.text, sizeof(m.text), "br-%u", nr_marks);
	if (ioctl(fd, LKST_IOC_MARK, &m))
		return -1;
	nr_marks++;
	return 0;
}

static int current_block(unsigned int *mode)
{
	struct lkst_cpu_info ci = { .cpu = 0 };

	if (ioctl(fd, LKST_IOC_CPU_INFO, &ci))
		return -1;
	if (mode)
		*mode = ci.mode;
	return ci.current_block;
}

/* Mark numbers of a block's records, in the order the read gave them. */
static int read_block(unsigned int block, unsigned int *num)
{
	static struct lkst_record recs[ROOM];
	struct lkst_block_read rd = {
		.cpu = 0, .block = block,
		.records = (unsigned long)recs, .max_records = ROOM,
	};
	char text[sizeof(recs[0].arg) + 1];
	unsigned int i, n;

	if (ioctl(fd, LKST_IOC_BLOCK_READ, &rd)) {
		printf("FAIL BLOCK_READ of block %u: %s\n", block, strerror(errno));
		failures++;
		return 0;
	}
	for (i = n = 0; i < rd.nr_records; i++) {
		memcpy(text, recs[i].arg, sizeof(recs[i].arg));
		text[sizeof(recs[i].arg)] = 0;
		if (recs[i].event != LKST_EV_USER_MARK ||
		    sscanf(text, "br-%u", &num[n]) != 1) {
			printf("FAIL block %u: record %u is not a mark of this program (event %u)\n",
			       block, i, recs[i].event);
			failures++;
			continue;
		}
		n++;
	}
	return n;
}

/* @num[0..@n) runs from @from by one. */
static void expect_run(const char *what, const unsigned int *num, int n,
		       unsigned int from, unsigned int to)
{
	int i, ok = n == (int)(to - from);

	for (i = 0; ok && i < n; i++)
		ok = num[i] == from + i;
	if (ok) {
		printf("ok   %s: marks %u..%u\n", what, from, to - 1);
	} else {
		printf("FAIL %s: %d records, wanted marks %u..%u; first %d, last %d\n",
		       what, n, from, to - 1, n ? (int)num[0] : -1,
		       n ? (int)num[n - 1] : -1);
		failures++;
	}
}

int main(void)
{
	static unsigned int a[ROOM], b[ROOM];
	struct lkst_maskset_desc ms;
	struct lkst_version ver;
	struct lkst_block_create create_a = { .cpu = 0, .size = BLOCK_SIZE,
					.next = LKST_NO_NEXT };
	struct lkst_block_create create_b = create_a;
	struct lkst_block_link link = { .cpu = 0 };
	struct lkst_block_jump jump = { .cpu = 0 };
	struct lkst_block_delete del = { .cpu = 0 };
	struct lkst_buffer_mode mode = { .cpu = 0 }, overwrite = { .cpu = 0 };
	unsigned int id, restore, first_a, prev;
	int na, nb, na2, nb2, i, lowest;
	cpu_set_t cpu0;

	fd = open("/dev/lkst", O_RDWR);
	if (fd < 0 || ioctl(fd, LKST_IOC_GET_VERSION, &ver)) {
		perror("lkst_blockread: /dev/lkst");
		return 1;
	}
	restore = ver.active_maskset;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		perror("lkst_blockread: CPU 0");
		return 1;
	}
	prev = current_block(&mode.mode);
	overwrite.mode = LKST_MODE_OVERWRITE;
	/* A user maskset of USER_MARK only: nothing else fills the blocks. */
	for (id = LKST_MASKSET_FIRST_USER; id < LKST_MAX_MASKSETS; id++) {
		memset(&ms, 0, sizeof(ms));
		ms.id = id;
		if (ioctl(fd, LKST_IOC_MASKSET_READ, &ms) && errno == ENOENT)
			break;
	}
	if (id == LKST_MAX_MASKSETS) {
		printf("FAIL no free maskset ID\n");
		return 1;
	}
	memset(&ms, 0, sizeof(ms));
	ms.id = id;
	snprintf(ms.name, sizeof(ms.name), "blockread");
	memset(ms.handler, LKST_HANDLER_NOTHING, sizeof(ms.handler));
	ms.handler[LKST_EV_USER_MARK] = LKST_HANDLER_DEFAULT;
	expect("MASKSET_WRITE", ioctl(fd, LKST_IOC_MASKSET_WRITE, &ms), 0);
	expect("BLOCK_CREATE A", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create_a), 0);
	expect("BLOCK_CREATE B", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create_b), 0);
	if (failures)
		return 1;
	link.block = create_a.block;
	link.next = create_b.block;
	expect("BLOCK_LINK A -> B", ioctl(fd, LKST_IOC_BLOCK_LINK, &link), 0);
	jump.block = create_a.block;
	/* A run before may have left CPU 0 in STOP mode: the ring laps. */
	expect("BUFFER_MODE overwrite", ioctl(fd, LKST_IOC_BUFFER_MODE, &overwrite), 0);
	expect("MASKSET_SET", ioctl(fd, LKST_IOC_MASKSET_SET, &id), 0);
	expect("BLOCK_JUMP A", ioctl(fd, LKST_IOC_BLOCK_JUMP, &jump), 0);

	/* A's two pages full, B's first page begun. */
	while (nr_marks < MAX_MARKS && current_block(NULL) != (int)create_b.block)
		mark();
	first_a = nr_marks - 1;		/* B's first mark */
	for (i = 0; i < 20; i++)
		mark();
	na = read_block(create_a.block, a);
	nb = read_block(create_b.block, b);
	expect_run("BLOCK_READ A", a, na, 0, first_a);
	expect_run("BLOCK_READ B", b, nb, first_a, nr_marks);

	/* B -> A: around once more, into A's first page again. */
	link.block = create_b.block;
	link.next = create_a.block;
	expect("BLOCK_LINK B -> A", ioctl(fd, LKST_IOC_BLOCK_LINK, &link), 0);
	while (nr_marks < MAX_MARKS && current_block(NULL) != (int)create_a.block)
		mark();
	for (i = 0; i < 20; i++)
		mark();
	na2 = read_block(create_a.block, a);
	nb2 = read_block(create_b.block, b);
	/*
	 * A: its second page (the oldest marks held), then its first (the
	 * newest, 21 or more); B's two pages hold the marks between.
	 */
	lowest = na2 ? (int)a[0] : 0;
	for (i = 1; i < na2 && a[i] == a[i - 1] + 1; i++)
		;
	if (!na2)
		i = 0;
	expect_run("ring: BLOCK_READ A, its second page", a, i, lowest,
		   i ? a[i - 1] + 1 : 0);
	expect_run("ring: BLOCK_READ B", b, nb2, i ? a[i - 1] + 1 : 0,
		   nb2 ? b[nb2 - 1] + 1 : 0);
	expect_run("ring: BLOCK_READ A, its first page", a + i, na2 - i,
		   nb2 ? b[nb2 - 1] + 1 : 0, nr_marks);
	if (i == 0 || nb2 == 0 || na2 - i < 21) {
		printf("FAIL ring: A's pages hold %d and %d marks, B's %d\n",
		       i, na2 - i, nb2);
		failures++;
	}

	expect("MASKSET_SET back", ioctl(fd, LKST_IOC_MASKSET_SET, &restore), 0);
	expect("MASKSET_DELETE", ioctl(fd, LKST_IOC_MASKSET_DELETE, &id), 0);
	expect("BUFFER_MODE back", ioctl(fd, LKST_IOC_BUFFER_MODE, &mode), 0);
	jump.block = prev;
	expect("BLOCK_JUMP back", ioctl(fd, LKST_IOC_BLOCK_JUMP, &jump), 0);
	del.block = create_a.block;
	expect("BLOCK_DELETE A", ioctl(fd, LKST_IOC_BLOCK_DELETE, &del), 0);
	del.block = create_b.block;
	expect("BLOCK_DELETE B", ioctl(fd, LKST_IOC_BLOCK_DELETE, &del), 0);
	printf("blockread: A %d B %d ring: A %d B %d of %u\n", na, nb, na2, nb2,
	       nr_marks);
	return failures ? 1 : 0;
}
