/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Turning what LKST_IOC_BUFFER_DRAIN returned into records in the order
 * they were written, and counting the ones the reader missed.
 *
 * The kernel gives each CPU's records sequence numbers 0, 1, 2, ... and
 * DRAIN returns the committed ones numbered [cursor, next_seq) in slot
 * order, with the numbers of the slots still being written.  A number in
 * that range with no record was overwritten before it was read (lost),
 * unless it is being written: then the reader stops there and asks again
 * later.  Pure code, shared by lkbuf and the host stress test.
 */
#ifndef LKST_DRAIN_H
#define LKST_DRAIN_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/lkst_record.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lkst_drain_result {
	size_t nr;		/* records kept, now first in the arrays */
	__u64 seq_start;	/* the first number accounted for */
	__u64 seq_end;		/* the cursor for the next drain */
	__u64 lost;		/* numbers in [seq_start, seq_end) with no record */
	int stalled;		/* stopped at a number that may be in flight */
};

/* Flags of lkst_drain_settle(). */
#define LKST_DRAIN_FROM_OLDEST	(1u << 0) /* start at the oldest record found */
#define LKST_DRAIN_FINAL	(1u << 1) /* count possibly in-flight ones lost */
#define LKST_DRAIN_FROM_LAST_GAP (1u << 2) /* start after the newest gap */

/**
 * lkst_drain_settle() - order what a drain returned and count the losses
 * @records: @n records from one LKST_IOC_BUFFER_DRAIN, reordered in place
 * @seqs: their sequence numbers, reordered with them
 * @n: how many
 * @cursor: the first number the drain asked for
 * @next_seq: the number after the newest the kernel had committed
 * @busy: @nr_busy numbers of slots still being written
 * @nr_busy: how many; below 0: unknown, so any missing number may be
 *           being written
 * @flags: 0, or any of %LKST_DRAIN_FROM_OLDEST, %LKST_DRAIN_FINAL and
 *         %LKST_DRAIN_FROM_LAST_GAP
 * @res: filled: the records kept (now first in the arrays), the range
 *       accounted for, the numbers lost in it, and whether it stalled
 *
 * Sorts the records by number, drops duplicates and numbers outside
 * [@cursor, @next_seq), and keeps the records up to the first missing
 * number that may be in flight (in @busy); a missing number that is not
 * was overwritten before it was read, a loss.  With
 * %LKST_DRAIN_FROM_OLDEST the numbers below the oldest record found or
 * being written are not counted lost; with %LKST_DRAIN_FINAL the ones
 * possibly in flight are (the last drain); with %LKST_DRAIN_FROM_LAST_GAP
 * it starts where the records found or being written run without a gap
 * up to @next_seq, leaving out older ones cut off by a gap (records lost
 * before a recording began).
 *
 * Return: 0, or -1 when out of memory.
 * Errors: %ENOMEM from malloc(3).
 */
int lkst_drain_settle(struct lkst_record *records, __u64 *seqs, size_t n,
		      __u64 cursor, __u64 next_seq, const __u64 *busy, int nr_busy,
		      unsigned int flags, struct lkst_drain_result *res);

#ifdef __cplusplus
}
#endif

#endif /* LKST_DRAIN_H */
