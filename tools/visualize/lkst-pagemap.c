// SPDX-License-Identifier: GPL-2.0
/*
 * lkst-pagemap: the physical pages of a process against time.
 *
 * Reads MEM_PAGE_ALLOC, MEM_PAGE_FREE and MEM_PAGE_SNAPSHOT records (log
 * file or CSV), turns them into the pages the selected processes got, gave
 * back and mapped (pagemap.c), prints a summary and/or draws them with
 * gnuplot (pagemap.gp).  --live redraws every second from an input that is
 * still being written.  This file only selects, formats and runs gnuplot.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "csv.h"
#include "decimate.h"
#include "input.h"
#include "pageinput.h"
#include "pagemap.h"
#include "lkst_cli.h"

struct options {
	struct viz_options v;
	int live;
	int frames;
	char *interval;
	char *pfns;
	int height;
};

#define DEFAULT_WIDTH	1200	/* pagemap.gp's picture, in pixels */
#define DEFAULT_HEIGHT	700

/*
 * What one frame drew from: the selection, the model, and what is drawn.
 * The input is walked twice: first for the figures and the axes, then
 * (only to draw) for the points, runs and levels, decimated to the
 * picture's pixels as they come (decimate.h).  Nothing is kept per event.
 */
struct frame {
	uint32_t *pids;
	size_t nr_pids;
	char names[256];	/* "85 (lkw-pages)" for titles */
	struct viz_log log;
	struct viz_input in;
	struct pm_map map;
	uint64_t from_ns, to_ns;
	double snap_gap, snap_prev;	/* the shortest gap between snapshots */
	uint64_t run_snapshot, run_start_ns;	/* the snapshot of the last run */
	int have_run;
	struct vz_axis ax;		/* second walk */
	struct vz_rows rows;
	struct vz_points points[3];	/* allocations, frees, early frees */
	struct vz_bars bars;
	struct pm_run *runs;		/* the runs drawn, time_ns their snapshot's */
	size_t nr_runs, cap_runs;
	struct vz_levels levels;
	int drawn;			/* the second walk's parts are set up */
};

/* ---- Selection ------------------------------------------------------ */

static void add_name(struct frame *f, uint32_t pid, const char *comm)
{
	size_t len = strlen(f->names);
	char item[96];

	snprintf(item, sizeof(item), "%s%u%s%s%s", len ? ", " : "", pid,
		 *comm ? " (" : "", comm, *comm ? ")" : "");
	if (len + strlen(item) < sizeof(f->names) - 4)
		strcat(f->names, item);
	else if (!strstr(f->names, "..."))
		strcat(f->names, " ...");
}

/* Names of the selected PIDs as process events go by. */
struct namer {
	const struct options *o;
	struct frame *f;
	char (*comm)[PS_COMM_LEN];
	size_t cap;
};

static size_t pid_index(const struct frame *f, uint32_t pid)
{
	size_t i;

	for (i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == pid)
			return i;
	return SIZE_MAX;
}

static void add_pid(struct namer *n, uint32_t pid)
{
	struct frame *f = n->f;

	if (f->nr_pids == n->cap) {
		n->cap = n->cap ? n->cap * 2 : 64;
		f->pids = realloc(f->pids, n->cap * sizeof(*f->pids));
		n->comm = realloc(n->comm, n->cap * sizeof(*n->comm));
		if (!f->pids || !n->comm)
			lkst_die(LKST_EXIT_USAGE, "out of memory");
	}
	n->comm[f->nr_pids][0] = '\0';
	f->pids[f->nr_pids++] = pid;
}

/* viz_walk() callback: -n selects by any name; a pid's last name is kept. */
static int name_event(const void *event, void *ctx, struct lkst_err *err)
{
	const struct ps_event *e = event;
	struct namer *n = ctx;
	const struct lkst_select *sel = n->o->v.select;
	size_t i, nr_pids, nr_comms;

	(void)err;
	if (!e->pid || !e->comm[0])
		return 0;
	i = pid_index(n->f, e->pid);
	if (i == SIZE_MAX) {
		lkst_select_pid_list(sel, &nr_pids);
		lkst_select_comm_list(sel, &nr_comms);
		if (!nr_comms || !lkst_select_comm_wanted(sel, e->comm) ||
		    (nr_pids && !lkst_select_pid_wanted(sel, e->pid)))
			return 0;
		add_pid(n, e->pid);
		i = n->f->nr_pids - 1;
	}
	snprintf(n->comm[i], sizeof(n->comm[i]), "%s", e->comm);
	return 0;
}

/*
 * -p and -n to PIDs.  Names come from PROCESS_CONTEXTSWITCH (next comm)
 * and PROCESS_WAKEUP (target comm); a PID matches -n if any of its names
 * does (a process renames itself at exec).  0 if nothing matched.
 */
static int select_pids(const struct options *o, struct frame *f, struct lkst_err *err)
{
	struct viz_input pin = { .log = o->v.log_file ? &f->log : NULL,
				.csv_file = o->v.csv_file, .partial_ok = o->live };
	struct namer n = { .o = o, .f = f };
	size_t i, nr_pids, nr_comms;
	const __u32 *pids;
	int rc;

	pids = lkst_select_pid_list(o->v.select, &nr_pids);
	lkst_select_comm_list(o->v.select, &nr_comms);
	f->names[0] = '\0';
	if (!nr_pids && !nr_comms)
		return 1;
	if (!nr_comms) {	/* -p alone: every listed PID, named if known */
		for (i = 0; i < nr_pids; i++)
			if (pid_index(f, pids[i]) == SIZE_MAX)
				add_pid(&n, pids[i]);
	}
	rc = viz_walk(&pin, &ps_kind, name_event, &n, err);
	viz_input_free(&pin);
	if (rc) {
		free(n.comm);
		return -1;
	}
	for (i = 0; i < f->nr_pids; i++)
		add_name(f, f->pids[i], n.comm[i]);
	free(n.comm);
	return f->nr_pids ? 1 : 0;
}

/* Events of the window go to the model. */
static int feed_event(const void *event, void *ctx, struct lkst_err *err)
{
	const struct pm_event *ev = event;
	struct frame *f = ctx;

	if (ev->time_ns < f->from_ns || ev->time_ns > f->to_ns)
		return 0;
	if (pm_feed(&f->map, ev)) {
		lkst_seterr(err, "out of memory at an event of %.9f s", viz_secs(ev->time_ns));
		return -1;
	}
	return 0;
}

/* A fresh model fed from the whole input, its drawn parts to sink. */
static int walk(struct frame *f, const struct pm_sink *sink, struct lkst_err *err)
{
	pm_free(&f->map);
	pm_init(&f->map, f->pids, f->nr_pids);	/* no pids: every process */
	pm_set_sink(&f->map, sink);
	f->have_run = 0;
	return viz_walk(&f->in, &pm_kind, feed_event, f, err);
}

/* The snapshot a run belongs to starts at its first run (consecutive runs). */
static uint64_t run_start(struct frame *f, const struct pm_run *r)
{
	if (!f->have_run || r->snapshot != f->run_snapshot) {
		f->run_snapshot = r->snapshot;
		f->run_start_ns = r->time_ns;
		f->have_run = 1;
		return r->time_ns;
	}
	return 0;
}

/* First walk: only the shortest gap between snapshots (bar widths). */
static int first_point(void *arg, int kind, const struct pm_point *p)
{
	(void)arg; (void)kind; (void)p;
	return 0;
}

static int first_run(void *arg, const struct pm_run *r)
{
	struct frame *f = arg;
	double t = viz_secs(r->time_ns);

	if (!run_start(f, r))
		return 0;
	if (f->snap_prev >= 0 && t > f->snap_prev && (!f->snap_gap || t - f->snap_prev < f->snap_gap))
		f->snap_gap = t - f->snap_prev;
	f->snap_prev = t;
	return 0;
}

static int first_level(void *arg, const struct pm_level *l)
{
	(void)arg; (void)l;
	return 0;
}

static const struct pm_sink first_sink = { first_point, first_run, first_level, NULL };

/*
 * Reads the input and builds f->map.  1 on success, 0 when the selection
 * matches nothing yet, -1 on an input error (err set).
 */
static int load(const struct options *o, struct frame *f, struct lkst_err *err)
{
	struct pm_sink sink = first_sink;
	int rc;

	memset(f, 0, sizeof(*f));
	if (o->v.log_file && viz_log_open(&f->log, o->v.log_file, err))
		return -1;
	/* A time of day needs the log's clock anchor: after it is open. */
	viz_parse_window(o->v.window, o->v.log_file ? &f->log : NULL, &f->from_ns, &f->to_ns);
	f->in.log = o->v.log_file ? &f->log : NULL;
	f->in.csv_file = o->v.csv_file;
	f->in.partial_ok = o->live;
	rc = select_pids(o, f, err);
	if (rc <= 0)
		return rc;
	f->snap_prev = -1;
	sink.arg = f;
	if (walk(f, &sink, err))
		return -1;
	f->map.sink = NULL;
	return 1;
}

static void frame_free(struct frame *f)
{
	int k;

	pm_free(&f->map);
	free(f->pids);
	f->pids = NULL;
	if (f->drawn) {
		for (k = 0; k < 3; k++)
			vz_points_free(&f->points[k]);
		vz_bars_free(&f->bars);
		vz_levels_free(&f->levels);
		free(f->runs);
		f->runs = NULL;
		f->drawn = 0;
	}
	viz_input_free(&f->in);
	viz_log_close(&f->log);
}

static int frame_empty(const struct frame *f)
{
	return !f->map.nr_allocs && !f->map.nr_frees &&
	       !f->map.nr_early_frees && !f->map.nr_runs;
}

/* ---- Summary -------------------------------------------------------- */

static void print_summary(FILE *out, const struct frame *f)
{
	const struct pm_map *m = &f->map;

	fprintf(out, "# lkst-pagemap: %s%s; ", f->nr_pids ? "pid " : "",
		f->nr_pids ? f->names : "every process");
	if (m->have_time) {
		viz_print_time(out, m->first_ns);
		fputc('-', out);
		viz_print_time(out, m->last_ns);
		fprintf(out, " s of trace\n");
	} else {
		fprintf(out, "no MEM_PAGE_* records\n");
	}
	fprintf(out, "%-22s %10llu\n", "allocations", (unsigned long long)m->nr_allocs);
	fprintf(out, "%-22s %10llu\n", "allocated_pages", (unsigned long long)m->allocated_pages);
	fprintf(out, "%-22s %10llu  # of pages allocated in the trace\n", "frees",
		(unsigned long long)m->nr_frees);
	fprintf(out, "%-22s %10llu\n", "freed_pages", (unsigned long long)m->freed_pages);
	fprintf(out, "%-22s %10llu  # by the selection, of pages allocated before the trace\n",
		"early_frees", (unsigned long long)m->nr_early_frees);
	fprintf(out, "%-22s %10llu\n", "early_freed_pages",
		(unsigned long long)m->early_freed_pages);
	fprintf(out, "%-22s %10llu  # held pages allocated again: their free was not recorded\n",
		"missed_free_pages", (unsigned long long)m->missed_pages);
	fprintf(out, "%-22s %10llu  # allocated in the trace, not freed by its end\n",
		"held_pages", (unsigned long long)pm_held(m));
	if (m->have_pfn) {
		fprintf(out, "%-22s %#10llx\n", "pfn_min", (unsigned long long)m->pfn_min);
		fprintf(out, "%-22s %#10llx\n", "pfn_max", (unsigned long long)m->pfn_max);
	} else {
		fprintf(out, "%-22s %10s\n%-22s %10s\n", "pfn_min", "-", "pfn_max", "-");
	}
	fprintf(out, "%-22s %10llu\n", "snapshots", (unsigned long long)m->nr_snapshots);
	if (m->nr_snapshots) {
		fprintf(out, "%-22s %10llu  # taken at ", "last_snapshot",
			(unsigned long long)m->last_snapshot);
		viz_print_time(out, m->last_snapshot_ns);
		fprintf(out, " s\n%-22s %10llu\n%-22s %10llu\n", "last_snapshot_pages",
			(unsigned long long)m->last_snapshot_pages, "last_snapshot_runs",
			(unsigned long long)m->last_snapshot_runs);
	}
}

/* ---- Plot ----------------------------------------------------------- */

static size_t write_points(FILE *fp, const struct vz_points *a)
{
	size_t i;

	for (i = 0; i < a->count; i++) {
		const struct vz_point *p = &a->pt[i];

		fprintf(fp, "%.9f %llu %u %u %llu\n", viz_secs(p->time_ns),
			(unsigned long long)p->pfn, p->order, p->pid,
			(unsigned long long)p->pages);
	}
	if (!a->count)
		fprintf(fp, "NaN NaN NaN NaN NaN\n");
	return a->count;
}

/* Writes the data file; returns its data rows (not NaN placeholders). */
static size_t write_data(FILE *fp, const struct frame *f)
{
	const struct pm_map *m = &f->map;
	size_t i, rows = 0;

	fprintf(fp, "# lkst-pagemap data for pagemap.gp\n"
		"# allocations: time_s pfn order pid pages\n");
	rows += write_points(fp, &f->points[0]);
	fprintf(fp, "\n\n# frees of pages allocated in the trace: time_s pfn order pid pages\n");
	rows += write_points(fp, &f->points[1]);
	fprintf(fp, "\n\n# frees of pages allocated before the trace: time_s pfn order pid pages\n");
	rows += write_points(fp, &f->points[2]);
	fprintf(fp, "\n\n# snapshot runs (time of the snapshot's first run): "
		"time_s first_pfn end_pfn pages snapshot vaddr pid\n");
	for (i = 0; i < f->nr_runs; i++) {
		const struct pm_run *r = &f->runs[i];

		fprintf(fp, "%.9f %llu %llu %llu %llu 0x%llx %u\n", viz_secs(r->time_ns),
			(unsigned long long)r->pfn, (unsigned long long)(r->pfn + r->pages),
			(unsigned long long)r->pages, (unsigned long long)r->snapshot,
			(unsigned long long)r->vaddr, r->pid);
	}
	if (!f->nr_runs)
		fprintf(fp, "NaN NaN NaN NaN NaN NaN NaN\n");
	rows += f->nr_runs;
	fprintf(fp, "\n\n# pages held: time_s pages\n");
	for (i = 0; i < f->levels.count; i++) {
		const struct vz_level *l = &f->levels.lv[i];

		fprintf(fp, "%.9f %llu\n", viz_secs(l->time_ns), (unsigned long long)l->value);
	}
	rows += f->levels.count;
	if (f->levels.count)	/* the level lasts to the end of the trace */
		fprintf(fp, "%.9f %llu\n", viz_secs(m->last_ns), (unsigned long long)pm_held(m));
	else
		fprintf(fp, "NaN NaN\n");
	return rows + !!f->levels.count;
}

/* Axes: the drawn events' times and PFNs, with a margin. */
static void ranges(const struct frame *f, double *x0, double *x1, double *y0,
		   double *y1, double *snapw)
{
	const struct pm_map *m = &f->map;
	double span, pad;

	*x0 = viz_secs(m->first_ns);
	*x1 = viz_secs(m->last_ns);
	if (*x1 - *x0 < 0.01) {
		*x0 -= 0.5;
		*x1 += 0.5;
	}
	span = *x1 - *x0;
	pad = (m->pfn_max - m->pfn_min) * 0.03 + 4;
	*y0 = m->pfn_min > pad ? m->pfn_min - pad : 0;
	*y1 = m->pfn_max + pad;
	/* Snapshot bars a third of the shortest gap between snapshots wide. */
	*snapw = f->snap_gap ? f->snap_gap / 6 : span / 100;
	*x0 -= *snapw;
	*x1 += *snapw;
}

/* ---- Second walk: what is drawn, decimated to the pixels ------------- */

static int draw_point(void *arg, int kind, const struct pm_point *p)
{
	struct frame *f = arg;
	struct vz_point v = { p->time_ns, p->pfn, p->order, p->pid, p->pages };

	return vz_points_add(&f->points[kind], &v);
}

static int draw_run(void *arg, const struct pm_run *r)
{
	struct frame *f = arg;
	struct pm_run drawn = *r;

	run_start(f, r);
	drawn.time_ns = f->run_start_ns;
	if (!vz_bars_keep(&f->bars, drawn.time_ns, r->pfn, r->pfn + r->pages))
		return 0;
	if (f->nr_runs == f->cap_runs) {
		size_t n = f->cap_runs ? f->cap_runs * 2 : 64;
		struct pm_run *p = realloc(f->runs, n * sizeof(*p));

		if (!p)
			return -1;
		f->runs = p;
		f->cap_runs = n;
	}
	f->runs[f->nr_runs++] = drawn;
	return 0;
}

static int draw_level(void *arg, const struct pm_level *l)
{
	struct frame *f = arg;

	return vz_levels_add(&f->levels, l->time_ns, l->held);
}

static uint64_t to_ns(double secs)
{
	return secs <= 0 ? 0 : (uint64_t)(secs * 1e9 + 0.5);
}

/* The second walk, on axes of width x height pixels over the plot's ranges. */
static void gather(const struct options *o, struct frame *f, double x0, double x1,
		   double y0, double y1)
{
	struct pm_sink sink = { draw_point, draw_run, draw_level, f };
	struct lkst_err err;
	int k;

	vz_axis_init(&f->ax, to_ns(x0), to_ns(x1), (unsigned int)o->v.width);
	vz_rows_init(&f->rows, y0 <= 0 ? 0 : (uint64_t)y0, (uint64_t)y1, (unsigned int)o->height);
	for (k = 0; k < 3; k++)
		if (vz_points_init(&f->points[k], &f->ax, &f->rows))
			lkst_die(LKST_EXIT_USAGE, "out of memory");
	if (vz_bars_init(&f->bars, &f->ax, &f->rows))
		lkst_die(LKST_EXIT_USAGE, "out of memory");
	vz_levels_init(&f->levels, &f->ax);
	f->drawn = 1;
	if (walk(f, &sink, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (vz_levels_finish(&f->levels))
		lkst_die(LKST_EXIT_USAGE, "out of memory");
	f->map.sink = NULL;
}

/* --pfn LO,HI: the PFN axis, hex or decimal. */
static void parse_pfns(const char *s, double *y0, double *y1)
{
	const char *second;
	uint64_t lo, hi;
	char first[32];

	second = viz_split_pair(s, first, sizeof(first));
	if (!second)
		lkst_die(LKST_EXIT_USAGE, "--pfn takes LO,HI, not '%s'", s);
	if (lkst_parse_u64(first, UINT64_MAX, &lo) ||
	    lkst_parse_u64(second, UINT64_MAX, &hi) || hi <= lo)
		lkst_die(LKST_EXIT_USAGE, "--pfn takes LO,HI with LO < HI (0x... or decimal), not '%s'", s);
	*y0 = lo;
	*y1 = hi;
}

static void run_gnuplot(const struct options *o, const char *script, const char *data,
			const char *output, const struct frame *f, const double *ax)
{
	char vars[3 * PATH_MAX + 512], title[512];

	snprintf(title, sizeof(title), "lkst physical pages of %s: %s",
		 f->nr_pids ? f->names : "every process",
		 o->v.log_file ? o->v.log_file : o->v.csv_file);
	viz_unquote(title);
	/* A fixed right axis: gnuplot cannot autoscale a series with no points. */
	snprintf(vars, sizeof(vars),
		 "datafile='%s'; outfile='%s'; xmin=%.9f; xmax=%.9f; ymin=%.0f; ymax=%.0f; "
		 "y2max=%.0f; snapw=%.9f; minh=%.3f; width=%d; height=%d; plottitle='%s'",
		 data, output, ax[0], ax[1], ax[2], ax[3],
		 (f->map.max_held > 1 ? f->map.max_held : 1) * 1.05 + 1, ax[4],
		 (ax[3] - ax[2]) / 500, o->v.width, o->height, title);
	viz_gnuplot(vars, script, data, output);
}

/*
 * Walks the input again for what is drawn, writes OUT.dat and draws
 * OUT.png.  Live frames are drawn to OUT.png.tmp and renamed, so a viewer
 * never shows half a picture.  Returns the data rows written.
 */
static size_t plot(const struct options *o, struct frame *f)
{
	char script[PATH_MAX], tmp[PATH_MAX];
	char *data = viz_data_path(o->v.output);
	double ax[5];	/* xmin xmax ymin ymax snapw */
	size_t rows;
	FILE *fp;

	viz_script_path(o->v.script, "pagemap.gp", script, sizeof(script));
	ranges(f, &ax[0], &ax[1], &ax[2], &ax[3], &ax[4]);
	if (o->pfns)
		parse_pfns(o->pfns, &ax[2], &ax[3]);
	gather(o, f, ax[0], ax[1], ax[2], ax[3]);
	fp = fopen(data, "w");
	if (!fp)
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", data, strerror(errno));
	rows = write_data(fp, f);
	if (fclose(fp))
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", data, strerror(errno));
	if (!o->live) {
		run_gnuplot(o, script, data, o->v.output, f, ax);
	} else {
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", o->v.output) >= sizeof(tmp))
			lkst_die(LKST_EXIT_USAGE, "-o path too long");
		run_gnuplot(o, script, data, tmp, f, ax);
		if (rename(tmp, o->v.output))
			lkst_die(LKST_EXIT_USAGE, "cannot rename %s to %s: %s", tmp,
				 o->v.output, strerror(errno));
	}
	free(data);
	return rows;
}

/* ---- Live ----------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * Redraws every interval until SIGINT/SIGTERM (or --frames).  An input that
 * cannot be read right now (a writer mid-way) keeps the last picture.
 */
static void live(const struct options *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long long period_ns = 1000000000ull;
	struct lkst_err err;
	struct frame f;
	int n, drawn = 0;

	if (o->interval && (lkst_parse_seconds(o->interval, &period_ns) || !period_ns))
		lkst_die(LKST_EXIT_USAGE, "--interval takes seconds > 0, not '%s'", o->interval);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (n = 1; !stop && (!o->frames || n <= o->frames); n++) {
		struct timespec ts = { period_ns / 1000000000ull, period_ns % 1000000000ull };
		int rc = load(o, &f, &err);

		if (rc < 0) {
			fprintf(stderr, "%s: frame %d: %s; keeping the last picture\n",
				lkst_progname, n, err.msg);
		} else if (!rc || frame_empty(&f)) {
			fprintf(stderr, "%s: frame %d: no MEM_PAGE_* records of the selection yet\n",
				lkst_progname, n);
		} else {
			plot(o, &f);
			drawn++;
			fprintf(stderr, "%s: frame %d: %llu pages allocated, %llu freed, %llu held, %llu snapshots -> %s\n",
				lkst_progname, n, (unsigned long long)f.map.allocated_pages,
				(unsigned long long)f.map.freed_pages,
				(unsigned long long)pm_held(&f.map),
				(unsigned long long)f.map.nr_snapshots, o->v.output);
		}
		frame_free(&f);
		if (!stop && (!o->frames || n < o->frames))
			nanosleep(&ts, NULL);
	}
	if (!drawn)
		lkst_die(LKST_EXIT_USAGE, "no frame drawn: no MEM_PAGE_* records of the selection");
	if (o->v.summary) {	/* of the input as the last frame saw it */
		if (load(o, &f, &err) > 0)
			print_summary(stdout, &f);
		frame_free(&f);
	}
}

/* ---- Main ----------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct poptOption options[] = {
		VIZ_POPT_COMMON(o.v, "draw the pages",
				"summary on stdout (the default without -o)"),
		{ "pfn", '\0', POPT_ARG_STRING, &o.pfns, 0,
		  "draw only this PFN range (zoom)", "LO,HI" },
		{ "live", '\0', POPT_ARG_NONE, &o.live, 0,
		  "redraw -o every second from an input still being written, until Ctrl-C", NULL },
		{ "interval", '\0', POPT_ARG_STRING, &o.interval, 0,
		  "seconds between live frames (default 1)", "SECONDS" },
		{ "frames", '\0', POPT_ARG_INT, &o.frames, 0,
		  "stop --live after this many frames", "N" },
		{ "width", '\0', POPT_ARG_INT, &o.v.width, 0,
		  "picture width in pixels (default 1200)", "PIXELS" },
		{ "height", '\0', POPT_ARG_INT, &o.height, 0,
		  "picture height in pixels (default 700); the data has at most one "
		  "point of a kind per pixel", "PIXELS" },
		VIZ_POPT_SCRIPT(o.v, "pagemap.gp"),
		VIZ_POPT_VERSION,
		LKST_POPT_TAIL
	};
	struct lkst_err err;
	poptContext ctx;
	struct frame f;
	size_t rows;
	int rc;

	o.v.width = DEFAULT_WIDTH;
	o.height = DEFAULT_HEIGHT;
	ctx = viz_parse_options("lkst-pagemap", argc, argv, options, &o.v);
	if (o.v.csv_file) {	/* refuse a bad -t before any work */
		uint64_t from, to;

		viz_parse_window(o.v.window, NULL, &from, &to);
	}
	if (o.v.width < 1 || o.v.width > VIZ_MAX_PIXELS || o.height < 1 || o.height > VIZ_MAX_PIXELS)
		lkst_die(LKST_EXIT_USAGE, "--width and --height take 1 to %d pixels, not %d and %d",
			 VIZ_MAX_PIXELS, o.v.width, o.height);
	if (o.pfns) {
		double lo, hi;

		parse_pfns(o.pfns, &lo, &hi);	/* refuse it before any work */
	}
	if (o.frames < 0)
		lkst_die(LKST_EXIT_USAGE, "--frames takes N >= 0");
	if (o.live) {
		if (!o.v.output)
			lkst_die(LKST_EXIT_USAGE, "--live needs -o FILE.png");
		live(&o);
		viz_options_free(ctx, &o.v);
		return LKST_EXIT_OK;
	}
	rc = load(&o, &f, &err);
	if (rc < 0)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (!rc)
		lkst_die(LKST_EXIT_USAGE, "no process matches -p/-n (names come from "
			 "PROCESS_CONTEXTSWITCH/WAKEUP records; trace them or give -p)");
	if (o.v.summary || !o.v.output)
		print_summary(stdout, &f);
	if (o.v.output) {
		if (frame_empty(&f))
			lkst_die(LKST_EXIT_USAGE, "no MEM_PAGE_* records of the selection; nothing to draw "
				 "(route MEM_PAGE_ALLOC/FREE, load lkst_pagewalk.ko)");
		rows = plot(&o, &f);
		fprintf(stderr, "%s: %llu allocations, %llu frees, %llu snapshot runs, "
			"%zu data rows: %s\n", lkst_progname,
			(unsigned long long)f.map.nr_allocs,
			(unsigned long long)(f.map.nr_frees + f.map.nr_early_frees),
			(unsigned long long)f.map.nr_runs, rows, o.v.output);
	}
	frame_free(&f);
	viz_options_free(ctx, &o.v);
	return LKST_EXIT_OK;
}
