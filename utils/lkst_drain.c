// SPDX-License-Identifier: GPL-2.0
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

int lkst_drain_settle(struct lkst_record *records, __u64 *seqs, size_t n,
		      __u64 cursor, __u64 next_seq, int busy, unsigned int flags,
		      struct lkst_drain_result *res)
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
	if (flags & LKST_DRAIN_FROM_OLDEST)
		cursor = kept ? order[0].seq : next_seq;
	if (next_seq < cursor)
		next_seq = cursor;
	res->seq_start = cursor;
	want = cursor;
	n = 0;
	for (i = 0; i < kept; i++) {
		if (order[i].seq < want)	/* the same record twice */
			continue;
		if (order[i].seq > want) {
			if (busy && !(flags & LKST_DRAIN_FINAL)) {
				res->stalled = 1;
				break;
			}
			res->lost += order[i].seq - want;
		}
		order[n++] = order[i];
		want = order[i].seq + 1;
	}
	if (!res->stalled && want < next_seq) {
		if (busy && !(flags & LKST_DRAIN_FINAL)) {
			res->stalled = 1;
		} else {
			res->lost += next_seq - want;
			want = next_seq;
		}
	}
	res->seq_end = want;
	res->nr = n;
	ret = permute(records, seqs, order, n);
	free(order);
	return ret;
}
