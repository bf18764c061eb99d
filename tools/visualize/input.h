/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading process events for lkst-procstate (and process names for
 * lkst-pagemap): from a log file (through the utils' strict reader) or
 * from any CSV variant of `lkbuf print -C`.
 */
#ifndef LKST_PROCSTATE_INPUT_H
#define LKST_PROCSTATE_INPUT_H

#include "evarray.h"
#include "procstate.h"
#include "lkst_util.h"

struct ps_events {
	struct ps_event *ev;
	size_t count, cap;
};

/*
 * The process events of a log file or a CSV, in time order (CPUs merged;
 * ties by CPU, then input order), walked as often as needed: a log in
 * place (evarray.h: memory bounded however big it is), a CSV read once
 * into csv and sorted.  With partial_ok a CSV's last line without its
 * newline (a file still being written) is left out.
 */
typedef int (*ps_event_fn)(const struct ps_event *ev, void *ctx, struct lkst_err *err);
struct ps_input {
	struct viz_log *log;	/* an open log, or NULL for csv_file */
	const char *csv_file;
	int partial_ok;
	struct ps_events csv;
	int read;
};
/* Stops at the first fn() that returns non-zero (having set err): -1. */
int ps_walk(struct ps_input *in, ps_event_fn fn, void *ctx, struct lkst_err *err);
void ps_input_free(struct ps_input *in);

int ps_read_csv(const char *path, int partial_ok, struct ps_events *out,
		struct lkst_err *err);
void ps_events_free(struct ps_events *e);

#endif /* LKST_PROCSTATE_INPUT_H */
