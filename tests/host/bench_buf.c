// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark (not a test) of lkst_buf.c on one thread: reserve+commit into
 * a 64 KiB block wrapping onto itself and into a 4 MiB ring of blocks,
 * stamped with a counter (the buffer code alone) and with
 * clock_gettime(CLOCK_MONOTONIC) (to show the clock's share), then the
 * reader's copy of every slot of the 4 MiB ring.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "buf_fixture.h"

#define KIB		1024u
#define MIB		(1024u * KIB)
#define RING_BLOCKS	16		/* 16 x 256 KiB = 4 MiB */
#define WRITES		(20u * 1000 * 1000)
#define COPY_PASSES	50

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* nr_blocks blocks of block_bytes in a ring (one block: wraps onto itself). */
static struct lkst_cpu_buffer *make_buffer(u32 nr_blocks, u32 block_bytes)
{
	struct lkst_cpu_buffer *cb = new_buffer();

	for (u32 id = 0; id < nr_blocks; id++)
		add_block(cb, id, block_bytes / LKST_RECORD_SIZE,
			  nr_blocks == 1 ? LKST_NO_NEXT : (id + 1) % nr_blocks);
	return cb;
}

/*
 * Returns ns per record written as the kernel's DEFAULT path writes one
 * (lkst_write() in core.c): the inline reserve, the header and six
 * arguments stored once into the slot, then the commit word.
 */
static double bench_write(struct lkst_cpu_buffer *cb, bool use_clock)
{
	u64 start, counter = 1;

	start = now_ns();
	for (u32 i = 0; i < WRITES; i++) {
		struct lkst_record *rec = lkst_buf_reserve_inline(cb);

		if (!rec)
			continue;
		WRITE_ONCE(rec->pid, 1);
		WRITE_ONCE(rec->event, 1);
		WRITE_ONCE(rec->context, 0);
		WRITE_ONCE(rec->flags, 0);
		for (int a = 0; a < LKST_NR_ARGS; a++)
			WRITE_ONCE(rec->arg[a], i + a);
		lkst_buf_publish(cb, rec, use_clock ? now_ns() : ++counter);
	}
	return (double)(now_ns() - start) / WRITES;
}

/* Returns ns per record copied from a full buffer. */
static double bench_copy(struct lkst_cpu_buffer *cb, u64 *copied)
{
	struct lkst_record out;
	u64 start = now_ns(), sum = 0;

	*copied = 0;
	for (int pass = 0; pass < COPY_PASSES; pass++) {
		for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
			struct lkst_block *blk = rcu_dereference_sched(cb->blocks[id]);

			for (u32 s = 0; blk && s < blk->nr_slots; s++) {
				if (lkst_buf_copy_record(blk, s, &out)) {
					sum += out.arg[0];
					(*copied)++;
				}
			}
		}
	}
	if (sum == 1)		/* keep the copies from being optimized out */
		putchar(' ');
	return (double)(now_ns() - start) / *copied;
}

static void print_row(const char *what, double ns)
{
	printf("%-44s %10.1f %14.2f %12.2f\n", what, ns, 1e3 / ns,
	       LKST_RECORD_SIZE * 1e3 / ns);
}

int main(void)
{
	struct lkst_cpu_buffer *small = make_buffer(1, 64 * KIB);
	struct lkst_cpu_buffer *ring = make_buffer(RING_BLOCKS, 4 * MIB / RING_BLOCKS);
	u64 copied;

	printf("records per 64 KiB block: %u (%zu bytes each)\n",
	       64 * KIB / LKST_RECORD_SIZE, sizeof(struct lkst_record));
	printf("%u writes per row, single thread\n\n", WRITES);
	printf("%-44s %10s %14s %12s\n", "operation", "ns/record",
	       "Mrecords/s", "MB/s");
	print_row("write, 64 KiB wrap, counter time",
		  bench_write(small, false));
	print_row("write, 64 KiB wrap, CLOCK_MONOTONIC",
		  bench_write(small, true));
	print_row("write, 4 MiB ring, counter time",
		  bench_write(ring, false));
	print_row("write, 4 MiB ring, CLOCK_MONOTONIC",
		  bench_write(ring, true));
	print_row("clock_gettime(CLOCK_MONOTONIC) alone",
		  ({ u64 s = now_ns(), x = 0;
		     for (u32 i = 0; i < WRITES; i++)
			     x += now_ns();
		     (void)x; (double)(now_ns() - s) / WRITES; }));
	print_row("copy_record, 4 MiB ring (full)", bench_copy(ring, &copied));
	printf("\n(copied %llu records in %d passes; dropped %llu + %llu)\n",
	       copied, COPY_PASSES, local64_read(&small->dropped),
	       local64_read(&ring->dropped));
	free_buffer(small);
	free_buffer(ring);
	return 0;
}
