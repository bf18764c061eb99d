/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the CSV of `lkbuf print -C` (any of -r -S -V) for the
 * visualizers: RFC 4180 lines, columns found by the header, and times.
 */
#ifndef LKST_VIZ_CSV_H
#define LKST_VIZ_CSV_H

#include <stdint.h>

#include "lkst_util.h"

/* Column positions by name; argN_desc columns are never needed. */
enum csv_col { CSV_TIME, CSV_CPU, CSV_PID, CSV_ID, CSV_ARG1,
	       CSV_NR = CSV_ARG1 + LKST_NR_ARGS };

/*
 * One data row: f[col[CSV_...]] is that column's text.  Return 0 (kept or
 * skipped) or -1 if the row cannot be read; csv_read() then names the line.
 */
typedef int (*csv_row_fn)(char **f, const int *col, void *ctx);

/*
 * Calls row() for every data line of path.  what ("a process event")
 * goes into the error for a row that row() refuses.  With partial_ok a
 * last line without its newline (a file still being written) is left out.
 */
int csv_read(const char *path, const char *what, int partial_ok,
	     csv_row_fn row, void *ctx, struct lkst_err *err);

/* A time column: seconds.nanoseconds (lkbuf -S; lkst_parse_seconds) or integer ns. */
int csv_parse_time(const char *s, uint64_t *ns);

#endif /* LKST_VIZ_CSV_H */
