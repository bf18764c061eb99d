// SPDX-License-Identifier: GPL-2.0
/*
 * Decimation for gnuplot (decimate.h).
 */
#include <stdlib.h>
#include <string.h>

#include "decimate.h"
#include "lkst_util.h"

typedef unsigned __int128 u128;

/* ---- Axes ---------------------------------------------------------- */

void vz_axis_init(struct vz_axis *ax, uint64_t x0, uint64_t x1, unsigned int cols)
{
	ax->x0 = x0;
	ax->span = x1 > x0 ? x1 - x0 : 1;
	ax->cols = cols ? cols : 1;
}

unsigned int vz_col(const struct vz_axis *ax, uint64_t t)
{
	u128 c;

	if (t <= ax->x0)
		return 0;
	c = (u128)(t - ax->x0) * ax->cols / ax->span;
	return c >= ax->cols ? ax->cols - 1 : (unsigned int)c;
}

uint64_t vz_col_start(const struct vz_axis *ax, unsigned int c)
{
	u128 n = (u128)c * ax->span;

	return ax->x0 + (uint64_t)((n + ax->cols - 1) / ax->cols);
}

int vz_short(const struct vz_axis *ax, uint64_t d)
{
	return (u128)d * ax->cols < ax->span;
}

/* ---- Segments ------------------------------------------------------- */

void vz_segs_init(struct vz_segs *s, const struct vz_axis *ax)
{
	memset(s, 0, sizeof(*s));
	s->ax = ax;
}

void vz_segs_free(struct vz_segs *s)
{
	free(s->seg);
	vz_segs_init(s, s->ax);
}

static int push_seg(struct vz_segs *s, const struct vz_seg *in)
{
	struct vz_seg *last = s->count ? &s->seg[s->count - 1] : NULL;

	/* Merged columns of one state and CPU that touch are one segment. */
	if (in->merged && last && last->merged && last->state == in->state &&
	    last->cpu == in->cpu && last->end_ns == in->start_ns) {
		last->end_ns = in->end_ns;
		return 0;
	}
	if (lkst_grow((void **)&s->seg, &s->cap, s->count, sizeof(*s->seg), 64))
		return -1;
	s->seg[s->count++] = *in;
	return 0;
}

/* The column being merged becomes one segment of its dominant state. */
static int emit_column(struct vz_segs *s)
{
	struct vz_seg out = { .start_ns = s->c_start, .end_ns = s->c_end, .merged = 1 };
	unsigned int i;

	if (!s->have_col)
		return 0;
	s->have_col = 0;
	for (i = 1; i < VZ_MAX_STATES; i++)
		if (s->c_ns[i] > s->c_ns[out.state])
			out.state = i;
	out.cpu = s->c_cpu[out.state];
	return push_seg(s, &out);
}

/* A short segment of a run of several, cut at the column boundaries. */
static int merge_piece(struct vz_segs *s, const struct vz_seg *in)
{
	uint64_t a = in->start_ns, b;
	unsigned int c = vz_col(s->ax, a);

	while (a < in->end_ns) {
		b = c + 1 < s->ax->cols ? vz_col_start(s->ax, c + 1) : UINT64_MAX;
		if (b > in->end_ns)
			b = in->end_ns;
		if (!s->have_col || s->col != c) {
			if (emit_column(s))
				return -1;
			s->have_col = 1;
			s->col = c;
			s->c_start = a;
			memset(s->c_ns, 0, sizeof(s->c_ns));
			memset(s->c_best, 0, sizeof(s->c_best));
			memset(s->c_cpu, 0xff, sizeof(s->c_cpu));
		}
		s->c_ns[in->state] += b - a;
		if (b - a > s->c_best[in->state]) {
			s->c_best[in->state] = b - a;
			s->c_cpu[in->state] = in->cpu;
		}
		s->c_end = b;
		a = b;
		c++;
	}
	return 0;
}

static int end_run(struct vz_segs *s)
{
	int rc = 0;

	if (s->run == 1)
		rc = push_seg(s, &s->first);
	else if (s->run > 1)
		rc = emit_column(s);
	s->run = 0;
	return rc;
}

int vz_segs_add(struct vz_segs *s, const struct vz_seg *in)
{
	struct vz_seg piece = *in;

	if (in->end_ns <= in->start_ns || in->state >= VZ_MAX_STATES)
		return 0;
	piece.merged = 0;
	/* A gap of a column or more, or a long segment, ends a run. */
	if (s->run && (in->start_ns < s->run_end || !vz_short(s->ax, in->start_ns - s->run_end)) &&
	    end_run(s))
		return -1;
	if (!vz_short(s->ax, in->end_ns - in->start_ns))
		return end_run(s) || push_seg(s, &piece) ? -1 : 0;
	if (!s->run) {
		s->first = piece;
	} else {
		if (s->run == 1 && merge_piece(s, &s->first))
			return -1;
		if (merge_piece(s, &piece))
			return -1;
	}
	s->run++;
	s->run_end = in->end_ns;
	return 0;
}

int vz_segs_finish(struct vz_segs *s)
{
	return end_run(s);
}

/* ---- Points --------------------------------------------------------- */

void vz_rows_init(struct vz_rows *r, uint64_t y0, uint64_t y1, unsigned int rows)
{
	r->y0 = y0;
	r->span = y1 > y0 ? y1 - y0 : 1;
	r->rows = rows ? rows : 1;
}

unsigned int vz_row(const struct vz_rows *r, uint64_t y)
{
	u128 i;

	if (y < r->y0)
		return 0;
	if (y - r->y0 > r->span)
		return r->rows + 1;
	i = (u128)(y - r->y0) * r->rows / r->span;
	return 1 + (i >= r->rows ? r->rows - 1 : (unsigned int)i);
}

int vz_points_init(struct vz_points *p, const struct vz_axis *ax, const struct vz_rows *rows)
{
	memset(p, 0, sizeof(*p));
	p->ax = ax;
	p->rows = rows;
	p->cell_col = calloc(rows->rows + 2, sizeof(*p->cell_col));
	p->cell_idx = calloc(rows->rows + 2, sizeof(*p->cell_idx));
	if (!p->cell_col || !p->cell_idx) {
		vz_points_free(p);
		return -1;
	}
	return 0;
}

void vz_points_free(struct vz_points *p)
{
	free(p->pt);
	free(p->cell_col);
	free(p->cell_idx);
	p->pt = NULL;
	p->cell_col = NULL;
	p->cell_idx = NULL;
	p->count = p->cap = 0;
}

int vz_points_add(struct vz_points *p, const struct vz_point *in)
{
	uint64_t col = 1 + (uint64_t)vz_col(p->ax, in->time_ns);
	unsigned int row = vz_row(p->rows, in->pfn);

	if (p->cell_col[row] == col) {
		struct vz_point *q = &p->pt[p->cell_idx[row]];

		if (in->order > q->order)
			q->order = in->order;
		q->pages += in->pages;
		return 0;
	}
	if (lkst_grow((void **)&p->pt, &p->cap, p->count, sizeof(*p->pt), 64))
		return -1;
	p->cell_col[row] = col;
	p->cell_idx[row] = p->count;
	p->pt[p->count++] = *in;
	return 0;
}

int vz_bars_init(struct vz_bars *b, const struct vz_axis *ax, const struct vz_rows *rows)
{
	b->ax = ax;
	b->rows = rows;
	b->covered = calloc(rows->rows + 2, sizeof(*b->covered));
	return b->covered ? 0 : -1;
}

void vz_bars_free(struct vz_bars *b)
{
	free(b->covered);
	b->covered = NULL;
}

int vz_bars_keep(struct vz_bars *b, uint64_t time_ns, uint64_t first, uint64_t end)
{
	uint64_t col = 1 + (uint64_t)vz_col(b->ax, time_ns);
	unsigned int r0 = vz_row(b->rows, first);
	unsigned int r1 = vz_row(b->rows, end > first ? end - 1 : first), r;
	int keep = 0;

	for (r = r0; r <= r1; r++) {
		if (b->covered[r] != col)
			keep = 1;
		b->covered[r] = col;
	}
	return keep;
}

/* ---- Levels --------------------------------------------------------- */

void vz_levels_init(struct vz_levels *l, const struct vz_axis *ax)
{
	memset(l, 0, sizeof(*l));
	l->ax = ax;
}

void vz_levels_free(struct vz_levels *l)
{
	free(l->lv);
	vz_levels_init(l, l->ax);
}

static int push_level(struct vz_levels *l, const struct vz_level *v)
{
	if (lkst_grow((void **)&l->lv, &l->cap, l->count, sizeof(*l->lv), 64))
		return -1;
	l->lv[l->count++] = *v;
	return 0;
}

static int emit_levels(struct vz_levels *l)
{
	size_t i;

	if (!l->have_col)
		return 0;
	l->have_col = 0;
	if (l->n <= 4) {
		for (i = 0; i < l->n; i++)
			if (push_level(l, &l->buf[i]))
				return -1;
		return 0;
	}
	/* first (index 0), lo, hi, last (index n - 1), in time order */
	if (push_level(l, &l->buf[0]))
		return -1;
	if (l->lo_i && l->hi_i && l->hi_i < l->lo_i) {
		if (l->hi_i != l->n - 1 && push_level(l, &l->hi))
			return -1;
		if (l->lo_i != l->n - 1 && push_level(l, &l->lo))
			return -1;
	} else {
		if (l->lo_i && l->lo_i != l->n - 1 && push_level(l, &l->lo))
			return -1;
		if (l->hi_i && l->hi_i != l->n - 1 && l->hi_i != l->lo_i &&
		    push_level(l, &l->hi))
			return -1;
	}
	return push_level(l, &l->last);
}

int vz_levels_add(struct vz_levels *l, uint64_t time_ns, uint64_t value)
{
	struct vz_level v = { time_ns, value };
	unsigned int c = vz_col(l->ax, time_ns);

	if (!l->have_col || c != l->col) {
		if (emit_levels(l))
			return -1;
		l->have_col = 1;
		l->col = c;
		l->n = 0;
	}
	if (l->n < 4)
		l->buf[l->n] = v;
	if (!l->n || value < l->lo.value) {
		l->lo = v;
		l->lo_i = l->n;
	}
	if (!l->n || value > l->hi.value) {
		l->hi = v;
		l->hi_i = l->n;
	}
	l->last = v;
	l->n++;
	return 0;
}

int vz_levels_finish(struct vz_levels *l)
{
	return emit_levels(l);
}
