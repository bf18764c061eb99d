/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the process and memory inputs share: growing an array of events
 * and putting it in time order (CSV input), and walking the records of a
 * log file in time order.
 */
#ifndef LKST_VIZ_EVARRAY_H
#define LKST_VIZ_EVARRAY_H

#include <stddef.h>

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
 * A log file, loaded once (mapped read-only and checked: lkst_logio.h)
 * with its event table made the active one, and walked as often as
 * needed: each walk calls record() for every record of every CPU, merged
 * in time order (ties by CPU, then by position in the file) by the shared
 * reader, which gives back the mapped pages it has passed, so a walk keeps
 * a bounded part of the file in memory however big it is.  A walk stops at
 * the first record() that returns non-zero (having set err).
 */
typedef int (*viz_record_fn)(const struct lkst_record *r, unsigned int cpu,
			     void *ctx, struct lkst_err *err);
struct viz_log {
	struct lkst_log log;
	struct lkst_log_merge merge;
	int open;
};
int viz_log_open(struct viz_log *l, const char *path, struct lkst_err *err);
int viz_log_walk(struct viz_log *l, viz_record_fn record, void *ctx,
		 struct lkst_err *err);
void viz_log_close(struct viz_log *l);

#endif /* LKST_VIZ_EVARRAY_H */
