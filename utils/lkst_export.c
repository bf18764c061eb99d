// SPDX-License-Identifier: GPL-2.0
/*
 * What both exporters share: the log's records in time order
 * (lkst_log_merge, as lkbuf print uses) and progress.  The verb, lkbuf
 * convert, is lkbuf_convert.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_export.h"

int lkst_export_init(struct lkst_export *x, const struct lkst_log *log,
		     struct lkst_err *err)
{
	unsigned int s;

	memset(x, 0, sizeof(*x));
	x->log = log;
	if (lkst_log_merge_init(&x->merge, log, err))
		return -1;
	for (s = 0; s < log->nr_sections; s++)
		x->records += log->sections[s].info.nr_records;
	x->progress = isatty(STDERR_FILENO);
	return 0;
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
	fprintf(stderr, "\rlkbuf: converting: %3u%%", percent);
}

void lkst_export_end_progress(const struct lkst_export *x)
{
	if (x->progress && x->last_percent)
		fprintf(stderr, "\r%*s\r", 24, "");
}

void lkst_export_free(struct lkst_export *x)
{
	lkst_log_merge_free(&x->merge);
}
