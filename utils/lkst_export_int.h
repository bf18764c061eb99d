/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct lkst_export, which programs see only as a handle (lkst_export.h):
 * the exporters' shared state.  Private to the exporters (not installed).
 */
#ifndef LKST_EXPORT_INT_H
#define LKST_EXPORT_INT_H

#include "lkst_export.h"

struct lkst_export {
	const struct lkst_log *log;
	struct lkst_trace *trace;	/* the reader over log */
	struct lkst_trace_iter *iter;	/* its records, merged or per section */
	struct lkst_trace *own;		/* trace when made by lkst_export_new_log */
	unsigned long long written;	/* records the output holds (the selected ones) */
	unsigned long long records;	/* in all sections */
	int progress;			/* a message handler wants progress */
	unsigned long long work, done;	/* units: records visited */
	unsigned int last_percent;
	char summary[256];		/* what was made, for the last line */
};

#endif /* LKST_EXPORT_INT_H */
