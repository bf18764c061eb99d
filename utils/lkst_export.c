// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What both exporters share: the log's records in time order (the trace
 * reader, as lkbuf print uses) and progress.  The verb, lkbuf
 * convert, is lkbuf_convert.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_export_int.h"

struct lkst_export *lkst_export_new(struct lkst_trace *trace, struct lkst_err *err)
{
	struct lkst_export *x = calloc(1, sizeof(*x));

	if (!x) {
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	x->trace = trace;
	x->log = lkst_trace_log(trace);
	x->iter = lkst_trace_iter_new(trace, 0, err);
	if (!x->iter) {
		free(x);
		return NULL;
	}
	x->records = lkst_trace_nr_records(trace);
	x->progress = lkst_msg_wanted();	/* the handler decides where it shows */
	return x;
}

struct lkst_export *lkst_export_new_log(const struct lkst_log *log, struct lkst_err *err)
{
	struct lkst_trace *t = lkst_trace_wrap(log, err);
	struct lkst_export *x;

	if (!t)
		return NULL;
	x = lkst_export_new(t, err);
	if (!x) {
		lkst_trace_close(t);
		return NULL;
	}
	x->own = t;
	return x;
}

unsigned long long lkst_export_written(const struct lkst_export *x)
{
	return x->written;
}

const char *lkst_export_summary(const struct lkst_export *x)
{
	return x->summary;
}

void lkst_export_step(struct lkst_export *x, unsigned long long n)
{
	unsigned int percent;

	x->done += n;
	if (!x->progress || !x->work)
		return;
	percent = x->done >= x->work ? 100 : x->done * 100 / x->work;
	if (percent == x->last_percent)
		return;
	x->last_percent = percent;
	lkst_msg(LKST_MSG_PROGRESS, percent, "converting");
}

void lkst_export_end_progress(const struct lkst_export *x)
{
	if (x->progress && x->last_percent)
		lkst_msg(LKST_MSG_PROGRESS_END, 100, "converting");
}

void lkst_export_free(struct lkst_export *x)
{
	if (!x)
		return;
	lkst_trace_iter_free(x->iter);
	lkst_trace_close(x->own);
	free(x);
}
