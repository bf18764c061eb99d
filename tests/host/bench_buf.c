// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark (not a test; asserts nothing) of lkst_buf.c on one thread:
 * the native write path per event as the kernel's DEFAULT handler takes
 * it (the inline reserve, pid, time and the arguments stored once, the
 * commit), for a realistic mix of argument counts, into a 64 KiB block
 * wrapping onto itself and into a 4 MiB ring of blocks, stamped with a
 * counter (the buffer code alone) and with clock_gettime(CLOCK_MONOTONIC)
 * (to show the clock's share); then how many records of that mix 64 KiB
 * holds, and the reader's copy of the 4 MiB ring page by page.
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
#define ROUNDS		5		/* of WRITES / ROUNDS each */
#define COPY_PASSES	50

/*
 * Argument counts of a realistic event mix, as trailing zero arguments
 * leave them: 1 in 8 with none (e.g. irq exit, softirq exit), then mostly
 * two to four (syscalls, scheduler, IRQ entry), some with all six.
 */
static const u32 mix[16] = { 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 6, 6 };

/* Argument @a of write @i: the second and fourth look like kernel pointers. */
static u64 arg_value(u32 i, u32 a)
{
	return a == 1 || a == 3 ? 0xffff888000000000ull + i * 64 : i + a + 1;
}

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
		add_block(cb, id, block_bytes / LKST_PAGE_SIZE,
			  nr_blocks == 1 ? LKST_NO_NEXT : (id + 1) % nr_blocks);
	start_buffer(cb, cb->blocks[0]);
	return cb;
}

/*
 * Write event @i as lkst_write() in core.c writes one, with its code
 * (lkst_brec_layout_args(), lkst_slot_put_args()): the PID (always 1
 * here, as while one task runs) only at the head of a page.
 */
static inline void write_event(struct lkst_cpu_buffer *cb, u32 i, u32 nr,
			       u64 time_ns)
{
	u64 a[LKST_NR_ARGS] = { 0 };
	struct lkst_slot slot;
	u32 nr_args, wide, len;

	for (u32 k = 0; k < nr; k++)
		a[k] = arg_value(i, k);
	len = lkst_brec_layout_args(a[0], a[1], a[2], a[3], a[4], a[5],
				    &nr_args, &wide);
	if (!lkst_buf_reserve_inline(cb, len, 1, true, &slot))
		return;
	lkst_slot_put_args(&slot, 1, nr_args, a[0], a[1], a[2], a[3], a[4], a[5]);
	lkst_slot_put_time(&slot, time_ns);
	lkst_buf_commit(&slot, LKST_BREC_INFO(1, 0, nr_args, wide));
}

/*
 * Returns ns per event written: the best of ROUNDS rounds, as the host is
 * a VM whose neighbours slow whole rounds down.
 */
static double bench_write(struct lkst_cpu_buffer *cb, bool use_clock,
			  bool fixed_six)
{
	double best = 0;
	u64 counter = 1;

	for (u32 round = 0; round < ROUNDS; round++) {
		u64 start = now_ns();
		double ns;

		for (u32 i = 0; i < WRITES / ROUNDS; i++)
			write_event(cb, i, fixed_six ? LKST_NR_ARGS : mix[i & 15],
				    use_clock ? now_ns() : ++counter);
		ns = (double)(now_ns() - start) / (WRITES / ROUNDS);
		if (!round || ns < best)
			best = ns;
	}
	return best;
}

/* Records of the mix a 64 KiB block holds, counted after filling it. */
static u64 records_per_64k(bool fixed_six)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *blk = add_block(cb, 0, 64 * KIB / LKST_PAGE_SIZE, 1);
	u64 held = 0;

	add_block(cb, 1, 1, LKST_NO_NEXT);	/* where the writer goes on */
	start_buffer(cb, blk);
	for (u32 i = 0; lkst_pos_block(local64_read(&cb->pos)) == 0; i++)
		write_event(cb, i, fixed_six ? LKST_NR_ARGS : mix[i & 15], 1);
	for (u32 p = 0; p < blk->nr_pages; p++)
		held += lkst_page_count(lkst_block_page(blk, p));
	free_buffer(cb);
	return held;
}

/* Returns ns per record copied from a full buffer, page by page. */
static double bench_copy(struct lkst_cpu_buffer *cb, u64 *copied)
{
	struct lkst_record *out = calloc(LKST_PAGE_MAX_RECORDS, sizeof(*out));
	u64 start = now_ns(), sum = 0, first;

	*copied = 0;
	for (int pass = 0; pass < COPY_PASSES; pass++) {
		for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
			struct lkst_block *blk = rcu_dereference_sched(cb->blocks[id]);

			for (u32 p = 0; blk && p < blk->nr_pages; p++) {
				int n = lkst_page_read(lkst_block_page(blk, p), out,
						       &first);

				for (int k = 0; k < n; k++)
					sum += out[k].arg[0];
				if (n > 0)
					*copied += n;
			}
		}
	}
	if (sum == 1)		/* keep the copies from being optimized out */
		putchar(' ');
	free(out);
	return (double)(now_ns() - start) / (*copied ? *copied : 1);
}

static void print_row(const char *what, double ns)
{
	printf("%-48s %10.1f %14.2f\n", what, ns, 1e3 / ns);
}

int main(void)
{
	struct lkst_cpu_buffer *small = make_buffer(1, 64 * KIB);
	struct lkst_cpu_buffer *ring = make_buffer(RING_BLOCKS, 4 * MIB / RING_BLOCKS);
	u64 copied, mixed = records_per_64k(false), six = records_per_64k(true);
	double bytes = 0;

	for (int i = 0; i < 16; i++) {
		u64 args[LKST_NR_ARGS];
		u32 wide;

		for (u32 a = 0; a < mix[i]; a++)
			args[a] = arg_value(i, a);
		/* Without the PID word, as all but a page's first record. */
		bytes += (lkst_brec_layout(args, mix[i], &wide) - 4) / 16.0;
	}
	printf("event mix: arguments 0,0,1,1,2,2,2,3,3,3,3,4,4,5,6,6, the 2nd and 4th "
	       "wide, one PID (%.1f bytes per record on average)\n", bytes);
	printf("records per 64 KiB block: %llu of the mix, %llu of six arguments "
	       "(%u-byte page heads)\n", mixed, six, (unsigned int)LKST_PAGE_HEAD);
	printf("%u writes per row, single thread; write rows: the best of %u rounds\n\n",
	       WRITES, ROUNDS);
	printf("%-48s %10s %14s\n", "operation", "ns/event", "Mevents/s");
	print_row("write mix, 64 KiB wrap, counter time",
		  bench_write(small, false, false));
	print_row("write mix, 64 KiB wrap, CLOCK_MONOTONIC",
		  bench_write(small, true, false));
	print_row("write mix, 4 MiB ring, counter time",
		  bench_write(ring, false, false));
	print_row("write mix, 4 MiB ring, CLOCK_MONOTONIC",
		  bench_write(ring, true, false));
	print_row("write six args, 4 MiB ring, counter time",
		  bench_write(ring, false, true));
	print_row("clock_gettime(CLOCK_MONOTONIC) alone",
		  ({ u64 s = now_ns(), x = 0;
		     for (u32 i = 0; i < WRITES; i++)
			     x += now_ns();
		     (void)x; (double)(now_ns() - s) / WRITES; }));
	print_row("page copy (lkst_page_read), 4 MiB ring, per record",
		  bench_copy(ring, &copied));
	printf("\n(copied %llu records in %d passes; dropped %llu + %llu)\n",
	       copied, COPY_PASSES, local64_read(&small->dropped),
	       local64_read(&ring->dropped));
	free_buffer(small);
	free_buffer(ring);
	return 0;
}
