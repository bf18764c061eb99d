/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The visualizers' one input reader: the events of one kind (process
 * events for lkst-procstate, memory events for lkst-pagemap) from a log
 * file, through liblkst's trace reader, or from any CSV variant of
 * `lkbuf print -C`, in time order (CPUs merged; ties by CPU, then input
 * order), walked as often as needed.
 */
#ifndef LKST_VIZ_EVARRAY_H
#define LKST_VIZ_EVARRAY_H

#include <stddef.h>

#include "csv.h"
#include "lkst_logio.h"
#include "lkst_util.h"

/*
 * Room for one more of count events of size bytes at ev: ev itself, or
 * the array grown (doubled, at least 256) with *cap updated; NULL when out
 * of memory (ev untouched).
 */
void *viz_grow(void *ev, size_t count, size_t *cap, size_t size);

/*
 * Sorts count events of size bytes by time, CPU, then input order; each
 * event has a uint64_t time at time_off and an unsigned int CPU at
 * cpu_off.  Use VIZ_SORT_EVENTS.
 */
int viz_sort_events(void *ev, size_t count, size_t size, size_t time_off,
		    size_t cpu_off, struct lkst_err *err);
#define VIZ_SORT_EVENTS(ev, count, type, err)				\
	viz_sort_events(ev, count, sizeof(type), offsetof(type, time_ns),	\
			offsetof(type, cpu), err)

/*
 * A log file, opened once with its event table made the active one
 * (lkst_logio.h), and walked as often as needed in time order; the
 * reader gives back the mapped pages it has passed, so a walk keeps a
 * bounded part of the file in memory however big it is.
 */
struct viz_log {
	struct lkst_trace *trace;
	struct lkst_trace_iter *iter;
};
int viz_log_open(struct viz_log *l, const char *path, struct lkst_err *err);
void viz_log_close(struct viz_log *l);

/* An array of events of one kind (a CSV's, read once). */
struct viz_events {
	void *ev;
	size_t count, cap;
};
void viz_events_free(struct viz_events *e);

/*
 * One kind of event: its struct (size, where its time and CPU are), the
 * event IDs it is made of, and how a record or a CSV row becomes one:
 * from_record fills ev; csv_row (csv.h) calls viz_events_push() with ctx,
 * returns 0 for a row of another event (skipped), -1 for a bad one.
 */
struct viz_kind {
	size_t size, time_off, cpu_off;
	const unsigned int *ids;
	unsigned int nr_ids;
	const char *what;		/* "a process event", for CSV messages */
	void (*from_record)(const struct lkst_record *r, unsigned int cpu, void *ev);
	csv_row_fn csv_row;
};
int viz_events_push(struct viz_events *e, const void *ev, size_t size);

/* Reads a CSV's events of kind, sorted by time. */
int viz_read_csv(const struct viz_kind *kind, const char *path, int partial_ok,
		 struct viz_events *out, struct lkst_err *err);

/*
 * The input: an open log, or a CSV file read on the first walk.  A walk
 * stops at the first fn() that returns non-zero (having set err): -1.
 */
typedef int (*viz_event_fn)(const void *ev, void *ctx, struct lkst_err *err);
struct viz_input {
	struct viz_log *log;	/* an open log, or NULL for csv_file */
	const char *csv_file;
	int partial_ok;
	struct viz_events csv;
	int read;
};
int viz_walk(struct viz_input *in, const struct viz_kind *kind, viz_event_fn fn,
	     void *ctx, struct lkst_err *err);
void viz_input_free(struct viz_input *in);

#endif /* LKST_VIZ_EVARRAY_H */
