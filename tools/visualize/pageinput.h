/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading memory events for lkst-pagemap: MEM_PAGE_ALLOC, MEM_PAGE_FREE and
 * MEM_PAGE_SNAPSHOT records from a log file or any CSV of `lkbuf print -C`.
 */
#ifndef LKST_PAGEINPUT_H
#define LKST_PAGEINPUT_H

#include "pagemap.h"
#include "lkst_util.h"

struct pm_events {
	struct pm_event *ev;
	size_t count, cap;
};

/*
 * Both sort by time, CPU, then input order.  With partial_ok a CSV's last
 * line without its newline (still being written) is left out.
 */
int pm_read_log(const char *path, struct pm_events *out, struct lkst_err *err);
int pm_read_csv(const char *path, int partial_ok, struct pm_events *out,
		struct lkst_err *err);
void pm_events_free(struct pm_events *e);

#endif /* LKST_PAGEINPUT_H */
