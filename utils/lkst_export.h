/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lkbuf convert's exporters: a log file in the formats other tools open.
 *
 *   CTF 1.8 (lkst_export_ctf.c): a directory of TSDL metadata and one
 *   stream per CPU, for babeltrace2 and Trace Compass.
 *   Chrome trace JSON (lkst_export_json.c): process, thread and CPU tracks
 *   of slices, for Perfetto (ui.perfetto.dev) and chrome://tracing.
 *
 * Both read a log through the trace reader (lkst_logio.h), as lkbuf
 * print does, and decode arguments with lkst_format.c's typed fields, so
 * they show what lkbuf print shows.
 */
#ifndef LKST_EXPORT_H
#define LKST_EXPORT_H

#include "lkst_logio.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lkst_export {
	const struct lkst_log *log;
	struct lkst_trace *trace;	/* the reader over log */
	struct lkst_trace_iter *iter;	/* its records, merged or per section */
	struct lkst_trace *own;		/* trace when made by lkst_export_init */
	/* Records the output holds (the selected ones); was a pointer, same size. */
	unsigned long long written;
	unsigned long long records;	/* in all sections */
	/* Progress on stderr, only when it is a terminal. */
	int progress;
	unsigned long long work, done;	/* units: records visited */
	unsigned int last_percent;
	char summary[256];		/* what was made, for the last line */
};

/*
 * Sets x up for trace (its records counted and read in time order,
 * progress shown when stderr is a terminal); 0, or -1 with err set.  The
 * exporters use x; lkst_export_free() frees it (not the trace).
 * lkst_export_init() does the same for a loaded log (not freed either).
 */
int lkst_export_trace(struct lkst_export *x, struct lkst_trace *trace,
		      struct lkst_err *err);
int lkst_export_init(struct lkst_export *x, const struct lkst_log *log,
		     struct lkst_err *err);
void lkst_export_free(struct lkst_export *x);
/* Clears the progress line, before a summary. */
void lkst_export_end_progress(const struct lkst_export *x);
/* Counts n units of work done, redrawing the percentage when it moves. */
void lkst_export_step(struct lkst_export *x, unsigned long long n);

/* Each returns 0, or -1 with err set (then the output is incomplete). */
int lkst_export_ctf(struct lkst_export *x, const char *dir, struct lkst_err *err);
/* CTF in lttng-modules' layout, for Trace Compass (lkst_export_ctf_lttng.c). */
int lkst_export_ctf_lttng(struct lkst_export *x, const char *dir, struct lkst_err *err);
int lkst_export_json(struct lkst_export *x, const char *path, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_EXPORT_H */
