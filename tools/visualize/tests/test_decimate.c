// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of decimate.c: segments of one track never exceed 3 per
 * column, long ones pass unchanged, sparse input passes whole; points keep
 * one per cell with their pages; levels keep at most 4 per column with the
 * column's extremes.
 */
#include <stdlib.h>
#include <string.h>

#include "decimate.h"
#include "unit.h"

static unsigned int per_col_max(const struct vz_axis *ax, const struct vz_segs *s)
{
	unsigned int *n = calloc(ax->cols, sizeof(*n)), c, max = 0;
	size_t i;

	for (i = 0; i < s->count; i++) {
		for (c = vz_col(ax, s->seg[i].start_ns); c < ax->cols &&
		     vz_col_start(ax, c) < s->seg[i].end_ns; c++)
			if (++n[c] > max)
				max = n[c];
	}
	free(n);
	return max;
}

static void dense_segments(void)
{
	struct vz_axis ax;
	struct vz_segs s;
	uint64_t t = 1000;
	unsigned int i, bad = 0;

	vz_axis_init(&ax, 1000, 1000 + 100000, 100);	/* 1000 ns columns */
	vz_segs_init(&s, &ax);
	srand(7);
	for (i = 0; i < 20000 && t < 101000; i++) {
		struct vz_seg sg = { .start_ns = t, .state = rand() % 3, .cpu = rand() % 2 };
		/* mostly short, some long, some gaps */
		uint64_t d = rand() % 10 ? 1 + rand() % 300 : 1000 + rand() % 3000;

		sg.end_ns = t + d < 101000 ? t + d : 101000;
		if (vz_segs_add(&s, &sg))
			bad++;
		t = sg.end_ns + (rand() % 8 ? 0 : rand() % 1500);
	}
	CHECK(!bad && !vz_segs_finish(&s), "segments added");
	CHECK(per_col_max(&ax, &s) <= 3, "dense: at most 3 segments per column, got %u",
	      per_col_max(&ax, &s));
	CHECK(s.count < 400, "dense: %zu segments for 100 columns", s.count);
	for (i = 1; i < s.count; i++)
		if (s.seg[i].start_ns < s.seg[i - 1].end_ns)
			bad++;
	CHECK(!bad, "segments in order, not overlapping");
	vz_segs_free(&s);
}

static void sparse_segments(void)
{
	struct vz_axis ax;
	struct vz_segs s;
	struct vz_seg in[] = {
		{ 0, 5000, 0, 1, 0 }, { 5000, 5100, 1, VZ_NO_CPU, 0 },	/* a lone short one */
		{ 5100, 9000, 2, VZ_NO_CPU, 0 }, { 9500, 12000, 0, 0, 0 },
	};
	unsigned int i;

	vz_axis_init(&ax, 0, 100000, 100);
	vz_segs_init(&s, &ax);
	for (i = 0; i < 4; i++)
		vz_segs_add(&s, &in[i]);
	vz_segs_finish(&s);
	CHECK_EQ(s.count, 4, "sparse: every segment kept");
	CHECK(s.count == 4 && !memcmp(s.seg, in, sizeof(in)), "sparse: unchanged");
	vz_segs_free(&s);

	/* Two short ones in one column: one segment of the longer's state. */
	vz_segs_init(&s, &ax);
	vz_segs_add(&s, &(struct vz_seg){ 2000, 2300, 1, VZ_NO_CPU, 0 });
	vz_segs_add(&s, &(struct vz_seg){ 2300, 2900, 0, 3, 0 });
	vz_segs_finish(&s);
	CHECK(s.count == 1 && s.seg[0].start_ns == 2000 && s.seg[0].end_ns == 2900 &&
	      s.seg[0].state == 0 && s.seg[0].cpu == 3 && s.seg[0].merged,
	      "two short: merged into the dominant state");
	vz_segs_free(&s);
}

static void points_and_levels(void)
{
	struct vz_axis ax;
	struct vz_rows rows;
	struct vz_points p;
	struct vz_levels l;
	uint64_t pages = 0, t;
	size_t i;
	int ok = 1;

	vz_axis_init(&ax, 0, 10000, 10);
	vz_rows_init(&rows, 0, 1000, 10);
	CHECK(!vz_points_init(&p, &ax, &rows), "points init");
	for (t = 0; t < 10000; t += 7) {
		struct vz_point pt = { t, (t * 37) % 1000, (uint32_t)(t % 3), 1, 1u << (t % 3) };

		pages += pt.pages;
		vz_points_add(&p, &pt);
	}
	CHECK(p.count <= 100, "points: at most one per cell, %zu for 100 cells", p.count);
	for (i = 0; i < p.count; i++) {
		size_t j;

		pages -= p.pt[i].pages;
		for (j = i + 1; j < p.count; j++)
			if (vz_col(&ax, p.pt[i].time_ns) == vz_col(&ax, p.pt[j].time_ns) &&
			    vz_row(&rows, p.pt[i].pfn) == vz_row(&rows, p.pt[j].pfn))
				ok = 0;
	}
	CHECK(ok, "points: no two in a cell");
	CHECK_EQ(pages, 0, "points: pages summed");
	vz_points_free(&p);

	vz_levels_init(&l, &ax);
	/* One column 0..999: first 50, lowest 1 at 700, highest 999 at 500. */
	for (t = 0; t < 1000; t++)
		vz_levels_add(&l, t, t == 500 ? 999 : t == 700 ? 1 : t % 100 + 50);
	vz_levels_add(&l, 1500, 7);
	vz_levels_finish(&l);
	CHECK_EQ(l.count, 5, "levels: first, high, low, last, then the next column's");
	CHECK(l.count == 5 && l.lv[0].value == 50 && l.lv[1].time_ns == 500 &&
	      l.lv[2].time_ns == 700 && l.lv[3].time_ns == 999 && l.lv[4].value == 7,
	      "levels: the column's extremes in time order");
	vz_levels_free(&l);
}

int main(void)
{
	dense_segments();
	sparse_segments();
	points_and_levels();
	return unit_report();
}
