// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkst_drain_settle(): ordering drained records by sequence
 * number, counting gaps as lost, and stopping at a gap that may be a
 * record still being written.
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

	CHECK(lkst_drain_settle(records, seqs, load(in, 3), 3, 6, 0, 0, &res) == 0);
	CHECK(res.nr == 3 && kept_in_order(&res, want));
	CHECK(res.seq_start == 3 && res.seq_end == 6 && res.lost == 0 && !res.stalled);
}

static void test_gaps_are_lost_when_no_writer_was_busy(void)
{
	static const __u64 in[] = { 6, 3 }, want[] = { 3, 6 };
	struct lkst_drain_result res;

	/* 4 and 5 between, 7 after the newest found: all overwritten. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, 0, 0, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want));
	CHECK(res.lost == 3 && res.seq_end == 8 && !res.stalled);
}

static void test_gap_while_busy_stalls(void)
{
	static const __u64 in[] = { 6, 3 }, want[] = { 3 };
	struct lkst_drain_result res;

	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, 1, 0, &res) == 0);
	CHECK(res.nr == 1 && kept_in_order(&res, want));
	CHECK(res.stalled && res.seq_end == 4 && res.lost == 0);
	/* A trailing gap stalls too. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 6, 8, 1, 0, &res) == 0);
	CHECK(res.nr == 1 && seqs[0] == 6 && res.stalled && res.seq_end == 7);
	/* The final drain counts them lost instead. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 3, 8, 1, LKST_DRAIN_FINAL,
				&res) == 0);
	CHECK(res.nr == 2 && res.lost == 3 && res.seq_end == 8 && !res.stalled);
	/* Busy without a gap: nothing to wait for. */
	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 6, 7, 1, 0, &res) == 0);
	CHECK(res.nr == 1 && !res.stalled && res.seq_end == 7);
}

static void test_from_oldest(void)
{
	static const __u64 in[] = { 101, 100 }, want[] = { 100, 101 };
	struct lkst_drain_result res;

	CHECK(lkst_drain_settle(records, seqs, load(in, 2), 0, 102, 0,
				LKST_DRAIN_FROM_OLDEST, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want));
	CHECK(res.seq_start == 100 && res.seq_end == 102 && res.lost == 0);
	/* Nothing found: start where the kernel is. */
	CHECK(lkst_drain_settle(records, seqs, 0, 0, 57, 0, LKST_DRAIN_FROM_OLDEST,
				&res) == 0);
	CHECK(res.nr == 0 && res.seq_start == 57 && res.seq_end == 57 && res.lost == 0);
}

static void test_duplicates_and_range(void)
{
	static const __u64 dup[] = { 3, 4, 3 }, want[] = { 3, 4 };
	static const __u64 outside[] = { 1, 9, 2 }, want2[] = { 2 };
	struct lkst_drain_result res;

	CHECK(lkst_drain_settle(records, seqs, load(dup, 3), 3, 5, 0, 0, &res) == 0);
	CHECK(res.nr == 2 && kept_in_order(&res, want) && res.lost == 0);
	/* Below the cursor (already read) and from next_seq on: ignored. */
	CHECK(lkst_drain_settle(records, seqs, load(outside, 3), 2, 9, 0, 0, &res) == 0);
	CHECK(res.nr == 1 && kept_in_order(&res, want2));
	CHECK(res.lost == 6 && res.seq_end == 9);
	/* An empty drain with nothing new. */
	CHECK(lkst_drain_settle(records, seqs, 0, 9, 9, 1, 0, &res) == 0);
	CHECK(res.nr == 0 && res.lost == 0 && res.seq_end == 9 && !res.stalled);
}

int main(void)
{
	test_contiguous();
	test_gaps_are_lost_when_no_writer_was_busy();
	test_gap_while_busy_stalls();
	test_from_oldest();
	test_duplicates_and_range();
	return check_report();
}
