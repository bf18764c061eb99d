/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading process events for lkst-procstate (and process names for
 * lkst-pagemap): from a log file (through the utils' strict reader) or
 * from any CSV variant of `lkbuf print -C`.
 */
#ifndef LKST_PROCSTATE_INPUT_H
#define LKST_PROCSTATE_INPUT_H

#include "procstate.h"
#include "lkst_util.h"

struct ps_events {
	struct ps_event *ev;
	size_t count, cap;
};

/*
 * Both sort the events by time, CPU, then input order (all CPUs merged).
 * With partial_ok a CSV's last line without its newline (a file still
 * being written) is left out.
 */
int ps_read_log(const char *path, struct ps_events *out, struct lkst_err *err);
int ps_read_csv(const char *path, int partial_ok, struct ps_events *out,
		struct lkst_err *err);
void ps_events_free(struct ps_events *e);

#endif /* LKST_PROCSTATE_INPUT_H */
