// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkst_drain_settle(): ordering drained records by sequence
 * number, counting gaps as lost, and stopping at a number still being
 * written.
 */
#include <stdlib.h>

#include "check.h"
#include "lkst_drain.h"

#define MAX 16

static struct lkst_record records[MAX];
static __u64 seqs[MAX];

/* Drained entries, in the given (slot) order; arg[0] carries the number. */
static size_t load(const __u64 *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&records[i], 0, sizeof(records[i]));
		records[i].time_ns = 1000 + in[i];
		records[i].arg[0] = in[i];
		seqs[i] = in[i];
	}
	return n;
}

/* The kept records are first, in order, each with its own number. */
static int kept_in_order(const struct lkst_drain_result *res, const __u64 *want)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		if (seqs[i] != want[i] || records[i].arg[0] != want[i])
			return 0;
	return 1;
}

static void test_contiguous(void)
{
	static const __u64 in[] = { 5, 3, 4 }, want[] = { 3, 4, 5 };
	struct lkst_drain_result res;

	CHECK(lkst_drain_settle(records, seqs, load(in, 3), 3, 6, NULL, 0, 0, &res) == 0);
	CHECK(res.nr == 3 && kept_in_order(&res, want));
	CHECK(res.seq_start == 3 && res.seq_end == 6 && res.lost == 0 && !res.stalled);
}

static void test_gaps_are_lost_when_not_being_written(void)
{
	static const __u64 in[] = { 6, 3 }, want[] = { 3, 6 }, other[] = { 9, 1 };
	struct lkst_drain_result res;

	/* 4 and 5 between, 7 after the newest found: all overwritten. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, NULL, 0, 0, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want));
	CHECK(res.lost == 3 && res.seq_end == 8 && !res.stalled);
	/* Slots being written with numbers outside the gaps change nothing. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, other, 2, 0, &res) == 0);
	CHECK(res.nr == 2 && res.lost == 3 && res.seq_end == 8 && !res.stalled);
}

static void test_gap_being_written_stalls(void)
{
	static const __u64 in[] = { 6, 3 }, want[] = { 3 }, five[] = { 5 }, seven[] = { 7 };
	struct lkst_drain_result res;

	/* 5 is being written: 4 is lost, the reader waits at 5. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, five, 1, 0, &res) == 0);
	CHECK(res.nr == 1 && kept_in_order(&res, want));
	CHECK(res.stalled && res.seq_end == 5 && res.lost == 1);
	/* A trailing number being written stalls too. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 6, 8, seven, 1, 0, &res) == 0);
	CHECK(res.nr == 1 && seqs[0] == 6 && res.stalled && res.seq_end == 7 && res.lost == 0);
	/* Not knowing which are being written: wait at the first gap. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, NULL, -1, 0, &res) == 0);
	CHECK(res.nr == 1 && res.stalled && res.seq_end == 4 && res.lost == 0);
	/* The final drain counts them lost instead. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, five, 1, LKST_DRAIN_FINAL,
				&res) == 0);
	CHECK(res.nr == 2 && res.lost == 3 && res.seq_end == 8 && !res.stalled);
	/* Being written without a gap: nothing to wait for. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 6, 7, NULL, -1, 0, &res) == 0);
	CHECK(res.nr == 1 && !res.stalled && res.seq_end == 7);
}

static void test_from_oldest(void)
{
	static const __u64 in[] = { 101, 100 }, want[] = { 100, 101 };
	struct lkst_drain_result res;

	static const __u64 older[] = { 98 };

	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 0, 102, NULL, 0,
				LKST_DRAIN_FROM_OLDEST, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want));
	CHECK(res.seq_start == 100 && res.seq_end == 102 && res.lost == 0);
	/* An older record still being written: start there, and wait for it. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 0, 102, older, 1,
				LKST_DRAIN_FROM_OLDEST, &res) == 0);
	CHECK(res.seq_start == 98 && res.stalled && res.nr == 0 && res.seq_end == 98);
	/* Nothing found: start where the kernel is. */
	CHECK(lkst_drain_settle(records, seqs, 0, 0, 57, NULL, 0, LKST_DRAIN_FROM_OLDEST,
				&res) == 0);
	CHECK(res.nr == 0 && res.seq_start == 57 && res.seq_end == 57 && res.lost == 0);
}

static void test_from_last_gap(void)
{
	static const __u64 in[] = { 10, 3, 11, 4, 12, 9 }, want[] = { 9, 10, 11, 12 };
	static const __u64 eight[] = { 8 }, thirteen[] = { 13 };
	struct lkst_drain_result res;

	/* 3 and 4 are cut off by the gap 5..8: start at 9, nothing lost. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 6), 0, 13, NULL, 0,
				LKST_DRAIN_FROM_LAST_GAP, &res) == 0);
	CHECK(res.nr == 4 && kept_in_order(&res, want));
	CHECK(res.seq_start == 9 && res.seq_end == 13 && res.lost == 0 && !res.stalled);
	/* 8 is being written: the run goes on below it, to 8 and 3..4 stay out. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 6), 0, 13, eight, 1,
				LKST_DRAIN_FROM_LAST_GAP, &res) == 0);
	CHECK(res.seq_start == 8 && res.nr == 0 && res.stalled && res.seq_end == 8);
	/* The newest number is being written: the run starts below it. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 6), 0, 14, thirteen, 1,
				LKST_DRAIN_FROM_LAST_GAP, &res) == 0);
	CHECK(res.seq_start == 9 && res.nr == 4 && res.stalled && res.seq_end == 13);
	/* A gap at the very end: nothing before it is taken. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 6), 0, 15, NULL, 0,
				LKST_DRAIN_FROM_LAST_GAP, &res) == 0);
	CHECK(res.seq_start == 15 && res.nr == 0 && res.seq_end == 15 && res.lost == 0);
}

static void test_duplicates_and_range(void)
{
	static const __u64 dup[] = { 3, 4, 3 }, want[] = { 3, 4 };
	static const __u64 outside[] = { 1, 9, 2 }, want2[] = { 2 };
	struct lkst_drain_result res;

	CHECK(lkst_drain_settle(records, seqs, load(dup, 3), 3, 5, NULL, 0, 0, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want) && res.lost == 0);
	/* Below the cursor (already read) and from next_seq on: ignored. */
	CHECK(lkst_drain_settle(records, seqs, load(outside, 3), 2, 9, NULL, 0, 0, &res) == 0);
	CHECK(res.nr == 1 && kept_in_order(&res, want2));
	CHECK(res.lost == 6 && res.seq_end == 9);
	/* An empty drain with nothing new. */
	CHECK(lkst_drain_settle(records, seqs, 0, 9, 9, NULL, -1, 0, &res) == 0);
	CHECK(res.nr == 0 && res.lost == 0 && res.seq_end == 9 && !res.stalled);
}

int main(void)
{
	test_contiguous();
	test_gaps_are_lost_when_not_being_written();
	test_gap_being_written_stalls();
	test_from_oldest();
	test_from_last_gap();
	test_duplicates_and_range();
	return check_report();
}
