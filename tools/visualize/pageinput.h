/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading memory events for lkst-pagemap: MEM_PAGE_ALLOC, MEM_PAGE_FREE and
 * MEM_PAGE_SNAPSHOT records from a log file or any CSV of `lkbuf print -C`.
 */
#ifndef LKST_PAGEINPUT_H
#define LKST_PAGEINPUT_H

#include "evarray.h"
#include "pagemap.h"
#include "lkst_util.h"

struct pm_events {
	struct pm_event *ev;
	size_t count, cap;
};

/* As ps_walk() (input.h), for the MEM_PAGE_* events. */
typedef int (*pm_event_fn)(const struct pm_event *ev, void *ctx, struct lkst_err *err);
struct pm_input {
	struct viz_log *log;	/* an open log, or NULL for csv_file */
	const char *csv_file;
	int partial_ok;
	struct pm_events csv;
	int read;
};
int pm_walk(struct pm_input *in, pm_event_fn fn, void *ctx, struct lkst_err *err);
void pm_input_free(struct pm_input *in);

int pm_read_csv(const char *path, int partial_ok, struct pm_events *out,
		struct lkst_err *err);
void pm_events_free(struct pm_events *e);

#endif /* LKST_PAGEINPUT_H */
