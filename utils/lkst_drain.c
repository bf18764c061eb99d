// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ordering drained records by sequence number and counting gaps.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_drain.h"

struct seq_index {
	__u64 seq;
	size_t index;
};

static int compare_seq(const void *a, const void *b)
{
	const struct seq_index *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Puts the entries of order[0..n) first in records[] and seqs[]. */
static int permute(struct lkst_record *records, __u64 *seqs,
		   const struct seq_index *order, size_t n)
{
	struct lkst_record *r = malloc((n ? n : 1) * sizeof(*r));
	size_t i;

	if (!r)
		return -1;
	for (i = 0; i < n; i++) {
		r[i] = records[order[i].index];
		seqs[i] = order[i].seq;
	}
	memcpy(records, r, n * sizeof(*r));
	free(r);
	return 0;
}

/*
 * The lowest number in [lo, hi) that may still be being written, or hi.
 * nr_busy < 0: the kernel could not list them all, so lo if lo < hi.
 */
static __u64 first_in_flight(__u64 lo, __u64 hi, const __u64 *busy, int nr_busy)
{
	__u64 first = hi;
	int i;

	if (nr_busy < 0)
		return lo;
	for (i = 0; i < nr_busy; i++)
		if (busy[i] >= lo && busy[i] < first)
			first = busy[i];
	return first;
}

/* Accounts for the missing numbers [*want, upto); false if it stalls. */
static int skip_gap(__u64 *want, __u64 upto, const __u64 *busy, int nr_busy,
		    unsigned int flags, struct lkst_drain_result *res)
{
	__u64 stop = upto;

	if (!(flags & LKST_DRAIN_FINAL))
		stop = first_in_flight(*want, upto, busy, nr_busy);
	res->lost += stop - *want;
	*want = stop;
	if (stop < upto) {
		res->stalled = 1;
		return 0;
	}
	return 1;
}

int lkst_drain_settle(struct lkst_record *records, __u64 *seqs, size_t n,
		      __u64 cursor, __u64 next_seq, const __u64 *busy, int nr_busy,
		      unsigned int flags, struct lkst_drain_result *res)
{
	struct seq_index *order = malloc((n ? n : 1) * sizeof(*order));
	size_t i, kept = 0;
	__u64 want;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!order)
		return -1;
	for (i = 0; i < n; i++) {
		if (seqs[i] < cursor || seqs[i] >= next_seq)
			continue;
		order[kept].seq = seqs[i];
		order[kept].index = i;
		kept++;
	}
	qsort(order, kept, sizeof(*order), compare_seq);
	if (flags & LKST_DRAIN_FROM_LAST_GAP) {
		__u64 start = next_seq;
		size_t left = kept;

		for (;;) {
			while (left && order[left - 1].seq >= start)
				left--;		/* the same number twice */
			if (start <= cursor)
				break;
			if (left && order[left - 1].seq == start - 1) {
				left--;
				start--;
			} else if (first_in_flight(start - 1, start, busy,
						   nr_busy < 0 ? 0 : nr_busy) < start) {
				start--;
			} else {
				break;
			}
		}
		cursor = start;
	} else if (flags & LKST_DRAIN_FROM_OLDEST) {
		__u64 oldest = kept ? order[0].seq : next_seq;

		cursor = first_in_flight(cursor, oldest, busy, nr_busy < 0 ? 0 : nr_busy);
	}
	if (next_seq < cursor)
		next_seq = cursor;
	res->seq_start = cursor;
	want = cursor;
	n = 0;
	for (i = 0; i < kept; i++) {
		if (order[i].seq < want)	/* the same record twice */
			continue;
		if (!skip_gap(&want, order[i].seq, busy, nr_busy, flags, res))
			break;
		order[n++] = order[i];
		want = order[i].seq + 1;
	}
	if (!res->stalled)
		skip_gap(&want, next_seq, busy, nr_busy, flags, res);
	res->seq_end = want;
	res->nr = n;
	ret = permute(records, seqs, order, n);
	free(order);
	return ret;
}
