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

/**
 * lkst_export_new(), lkst_export_new_log(), lkst_export_free() - an export of a trace
 * @trace: an opened trace (lkst_trace_open()); its selection applies
 * @log: a loaded log, exported whole
 * @err: the message, when it fails
 * @x: an export; lkst_export_free() of NULL does nothing
 *
 * An export reads the trace's records in time order for one exporter
 * (lkst_export_ctf(), lkst_export_ctf_lttng(), lkst_export_json()), and
 * counts its progress for the calling thread's message handler when it
 * has one (lkst_msg_wanted()).  The trace or log must outlive the export;
 * lkst_export_free() frees the export, not them.
 *
 * Return: lkst_export_new() and lkst_export_new_log(): a new export, to
 * free with lkst_export_free(); NULL with @err set when out of memory.
 *
 * Example:
 *	struct lkst_export *x;
 *	struct lkst_trace *t;
 *	struct lkst_err err;
 *
 *	if (!(t = lkst_trace_open("trace.log", 0, &err)) ||
 *	    !(x = lkst_export_new(t, &err)) ||
 *	    lkst_export_json(x, "trace.json", &err)) {
 *		fprintf(stderr, "%s\n", err.msg);
 *		return 1;
 *	}
 *	printf("%llu records\n", lkst_export_written(x));
 *	lkst_export_free(x);
 *	lkst_trace_close(t);
 */
struct lkst_export *lkst_export_new(struct lkst_trace *trace, struct lkst_err *err);
struct lkst_export *lkst_export_new_log(const struct lkst_log *log, struct lkst_err *err);
void lkst_export_free(struct lkst_export *x);
/**
 * lkst_export_written(), lkst_export_summary() - what an exporter wrote
 * @x: an export an exporter ran on
 *
 * Return: lkst_export_written(): the records the output holds (the
 * selected ones).  lkst_export_summary(): what the exporter made, one
 * line for the user, valid until lkst_export_free() ("" when there is
 * nothing to say).
 */
unsigned long long lkst_export_written(const struct lkst_export *x);
const char *lkst_export_summary(const struct lkst_export *x);
/**
 * lkst_export_end_progress(), lkst_export_step() - an export's progress
 * @x: an export
 * @n: units of work done since the last step
 *
 * For exporters: lkst_export_step() counts @n units of work and sends
 * the percentage done (%LKST_MSG_PROGRESS) to the message handler when it
 * moves; lkst_export_end_progress() sends %LKST_MSG_PROGRESS_END, so that
 * the progress line is cleared before a summary.  Nothing without a
 * handler.
 */
void lkst_export_end_progress(const struct lkst_export *x);
void lkst_export_step(struct lkst_export *x, unsigned long long n);

/**
 * lkst_export_ctf(), lkst_export_ctf_lttng() - write a trace as CTF 1.8
 * @x: an export (lkst_export_new())
 * @dir: the trace directory: created when it does not exist; an existing
 *       one must hold only what an earlier conversion wrote, which is
 *       removed
 * @err: the message, when it fails
 *
 * Writes @dir/metadata (TSDL: the clock with its offset to the time of
 * day, one event class per event of the table, fields named and typed
 * after the arguments, lkst_event_fields()) and one stream @dir/cpuN per
 * CPU section, for babeltrace2 and Trace Compass.  Records lost, where
 * the sequence numbers say so, show as discarded events between packets.
 * lkst_export_ctf_lttng() writes the same streams in lttng-modules'
 * layout, so that Trace Compass's kernel analysis knows the events it
 * has, under their names and fields.
 *
 * Return: 0, or -1 with @err set; the output is then incomplete.
 */
int lkst_export_ctf(struct lkst_export *x, const char *dir, struct lkst_err *err);
int lkst_export_ctf_lttng(struct lkst_export *x, const char *dir, struct lkst_err *err);
/**
 * lkst_export_json() - write a trace as Chrome trace JSON
 * @x: an export (lkst_export_new())
 * @path: the file; "-" is standard output
 * @err: the message, when it fails
 *
 * Writes process, thread and CPU tracks of slices, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing.  A regular file left half
 * written by an error is removed.
 *
 * Return: 0, or -1 with @err set.
 */
int lkst_export_json(struct lkst_export *x, const char *path, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_EXPORT_H */
