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

/* An export in the making: the trace, the progress, the summary.  Opaque. */
struct lkst_export;

/*
 * An export of trace (its records counted and read in time order; the
 * trace's selection applies), progress going to the message handler when
 * one wants it; NULL with err set.  lkst_export_new_log() does the same
 * for a loaded log.  The trace or log must outlive the export.
 */
struct lkst_export *lkst_export_new(struct lkst_trace *trace, struct lkst_err *err);
struct lkst_export *lkst_export_new_log(const struct lkst_log *log, struct lkst_err *err);
/* Frees x (NULL: nothing), not the trace or log it was made for. */
void lkst_export_free(struct lkst_export *x);
/* Records the output holds (the selected ones), after an exporter ran. */
unsigned long long lkst_export_written(const struct lkst_export *x);
/* What the exporter made, one line for the user ("" if nothing to say). */
const char *lkst_export_summary(const struct lkst_export *x);
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
