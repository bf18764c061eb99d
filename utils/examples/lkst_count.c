// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst_count: a liblkst example.  Opens an lkst log, selects records by
 * event (lkbuf print -e's list: IDs, mnemonics or categories), prints the
 * first few selected records' time, CPU, pid and event, and counts them.
 *
 *   cc -o lkst_count lkst_count.c $(pkg-config --cflags --libs liblkst)
 *   ./lkst_count trace.log syscall
 */
#include <stdio.h>
#include <stdlib.h>

#include <lkst.h>

#define SHOWN	5

int main(int argc, char **argv)
{
	struct lkst_trace_select sel = { 0 };
	struct lkst_trace_iter *it;
	struct lkst_trace_rec r;
	struct lkst_trace *t;
	struct lkst_err err;
	unsigned long long n = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s LOG [EVENT,...]\n", argv[0]);
		return 1;
	}
	t = lkst_trace_open(argv[1], 0, &err);
	if (!t) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	sel.events = argc > 2 ? argv[2] : NULL;
	if (lkst_trace_select(t, &sel, &err) || !(it = lkst_trace_iter_new(t, 0, &err))) {
		fprintf(stderr, "%s\n", err.msg);
		lkst_trace_close(t);
		return 1;
	}
	while (lkst_trace_next(it, &r)) {
		/* Named by the log's own event table, which the trace made active. */
		const struct lkst_event_info *ev = lkst_event_by_id(r.rec->event);

		if (n++ < SHOWN)
			printf("%llu.%09llu cpu %u pid %u %s\n",
			       (unsigned long long)r.rec->time_ns / 1000000000,
			       (unsigned long long)r.rec->time_ns % 1000000000,
			       r.cpu, (unsigned int)r.rec->pid, ev ? ev->mnemonic : "?");
	}
	printf("%llu of %llu records selected\n", n, lkst_trace_nr_records(t));
	lkst_trace_iter_free(it);
	lkst_trace_close(t);
	return 0;
}
