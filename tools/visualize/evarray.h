/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the process and memory inputs share: growing an array of events,
 * putting it in time order, and walking the records of a log file.
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
 * Calls record() for every record of the log at path, CPU section by
 * section; stops at the first that returns non-zero (having set err).
 */
typedef int (*viz_record_fn)(const struct lkst_record *r, unsigned int cpu,
			     void *ctx, struct lkst_err *err);
int viz_read_log(const char *path, viz_record_fn record, void *ctx,
		 struct lkst_err *err);

#endif /* LKST_VIZ_EVARRAY_H */
