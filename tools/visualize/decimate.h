/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decimation of what the visualizers hand to gnuplot, so that a trace of
 * millions of records gives it at most a few items per pixel (no I/O; unit
 * tested in tests/test_decimate.c).  The rules are in README.md.
 *
 * An axis cuts [x0, x0 + span] into cols columns of span/cols ns each,
 * the picture's pixel columns: column c holds the times t with
 * c <= (t - x0) * cols / span < c + 1 (clamped to 0..cols-1).
 */
#ifndef LKST_VIZ_DECIMATE_H
#define LKST_VIZ_DECIMATE_H

#include <stddef.h>
#include <stdint.h>

struct vz_axis {
	uint64_t x0, span;
	unsigned int cols;
};

/* span 0 becomes 1, cols 0 becomes 1. */
void vz_axis_init(struct vz_axis *ax, uint64_t x0, uint64_t x1, unsigned int cols);
unsigned int vz_col(const struct vz_axis *ax, uint64_t t);
/* First time of column c (c == cols: x0 + span). */
uint64_t vz_col_start(const struct vz_axis *ax, unsigned int c);
/* Whether d ns is shorter than a column. */
int vz_short(const struct vz_axis *ax, uint64_t d);

/* ---- Segments of one track (a lane of lkst-procstate) ----------------- */

#define VZ_MAX_STATES	4
#define VZ_NO_CPU	(~0u)

struct vz_seg {
	uint64_t start_ns, end_ns;
	unsigned int state;	/* < VZ_MAX_STATES */
	unsigned int cpu;
	int merged;		/* a column's merge of several segments */
};

/*
 * Segments are added in time order, not overlapping.  A segment at least a
 * column long passes unchanged, and so does a short one alone between
 * them.  Two or more short segments in a row (apart by less than a column)
 * become one segment per column they touch, from the first to the last of
 * their time in it, of the state with the most time there (ties: the lower
 * state), with the CPU of that state's longest piece; neighbouring such
 * segments of one state and CPU that touch are joined.  A column then
 * holds at most 3 segments: the end of a long one, one merged or lone
 * short one, the start of the next long one.
 */
struct vz_segs {
	const struct vz_axis *ax;
	struct vz_seg *seg;
	size_t count, cap;
	size_t run;		/* short segments in the current run */
	struct vz_seg first;	/* the run's first, until a second comes */
	uint64_t run_end;
	int have_col;
	unsigned int col;	/* the column being merged */
	uint64_t c_start, c_end;
	uint64_t c_ns[VZ_MAX_STATES], c_best[VZ_MAX_STATES];
	unsigned int c_cpu[VZ_MAX_STATES];
};

void vz_segs_init(struct vz_segs *s, const struct vz_axis *ax);
/* 0, or -1 when out of memory. */
int vz_segs_add(struct vz_segs *s, const struct vz_seg *in);
int vz_segs_finish(struct vz_segs *s);
void vz_segs_free(struct vz_segs *s);

/* ---- Points in cells (lkst-pagemap's allocations and frees) ---------- */

/*
 * A second axis cuts the PFNs [y0, y0 + yspan] into rows (pixel rows; a
 * PFN below or above is a row of its own).  Of the points of one kind that
 * fall in one cell (column, row), the first is kept, with the largest
 * order of them and the sum of their pages; points come in time order.
 */
struct vz_point {
	uint64_t time_ns, pfn;
	uint32_t order, pid;
	uint64_t pages;
};

struct vz_rows {
	uint64_t y0, span;
	unsigned int rows;
};

void vz_rows_init(struct vz_rows *r, uint64_t y0, uint64_t y1, unsigned int rows);
/* 0 below y0, 1..rows inside, rows + 1 above. */
unsigned int vz_row(const struct vz_rows *r, uint64_t y);

struct vz_points {
	const struct vz_axis *ax;
	const struct vz_rows *rows;
	struct vz_point *pt;
	size_t count, cap;
	uint64_t *cell_col;	/* per row: 1 + the column of its last point */
	size_t *cell_idx;	/* per row: that point's index */
};

int vz_points_init(struct vz_points *p, const struct vz_axis *ax, const struct vz_rows *rows);
int vz_points_add(struct vz_points *p, const struct vz_point *in);
void vz_points_free(struct vz_points *p);

/*
 * Bars at one time over PFNs (snapshot runs): a bar whose rows are all
 * covered already in its column by earlier bars is dropped.
 */
struct vz_bars {
	const struct vz_axis *ax;
	const struct vz_rows *rows;
	uint64_t *covered;	/* per row: 1 + the column it is covered in */
};

int vz_bars_init(struct vz_bars *b, const struct vz_axis *ax, const struct vz_rows *rows);
/* 1: draw it, 0: drop it. */
int vz_bars_keep(struct vz_bars *b, uint64_t time_ns, uint64_t first, uint64_t end);
void vz_bars_free(struct vz_bars *b);

/* ---- A level over time (pages held) -------------------------------- */

/*
 * Of the levels of one column, up to 4 pass unchanged; with more, the
 * first, the lowest, the highest and the last are kept, in time order
 * (the first of equal ones).
 */
struct vz_level {
	uint64_t time_ns, value;
};

struct vz_levels {
	const struct vz_axis *ax;
	struct vz_level *lv;
	size_t count, cap;
	int have_col;
	unsigned int col;
	size_t n;		/* levels in the column */
	struct vz_level buf[4];
	struct vz_level lo, hi, last;
	size_t lo_i, hi_i;
};

void vz_levels_init(struct vz_levels *l, const struct vz_axis *ax);
int vz_levels_add(struct vz_levels *l, uint64_t time_ns, uint64_t value);
int vz_levels_finish(struct vz_levels *l);
void vz_levels_free(struct vz_levels *l);

#endif /* LKST_VIZ_DECIMATE_H */
