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
#include "input.h"
#include "pageinput.h"
#include "pagemap.h"
#include "lkst_util.h"

struct options {
	char *log_file;
	char *csv_file;
	char *output;
	char *pids;
	char *comms;
	char *window;
	char *script;
	int summary;
	int live;
	int frames;
	char *interval;
	char *pfns;
};

/* What one frame drew from: the selection and the model. */
struct frame {
	uint32_t *pids;
	size_t nr_pids;
	char names[256];	/* "85 (lkw-pages)" for titles */
	struct pm_map map;
	uint64_t from_ns, to_ns;
};

/* ---- Selection ------------------------------------------------------ */

static int has_pid(const struct frame *f, uint32_t pid)
{
	size_t i;

	for (i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == pid)
			return 1;
	return 0;
}

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

/*
 * -p and -c to PIDs.  Names come from PROCESS_CONTEXTSWITCH (next comm)
 * and PROCESS_WAKEUP (target comm); a PID matches -c if any of its names
 * does (a process renames itself at exec).  0 if nothing matched.
 */
static int select_pids(const struct options *o, struct frame *f, struct lkst_err *err)
{
	struct ps_events pe = { 0 };
	size_t i, cap;
	char pid[16];

	f->names[0] = '\0';
	if (!o->pids && !o->comms)
		return 1;
	if (o->log_file ? ps_read_log(o->log_file, &pe, err)
			: ps_read_csv(o->csv_file, o->live, &pe, err))
		return -1;
	cap = pe.count + 64;
	f->pids = viz_xcalloc(cap, sizeof(*f->pids));
	if (!o->comms) {	/* -p alone: every listed PID, named if known */
		const char *p = o->pids;

		while (*p && f->nr_pids < cap) {
			uint32_t v = (uint32_t)strtoul(p, NULL, 10);

			if (*p != ',' && !has_pid(f, v))
				f->pids[f->nr_pids++] = v;
			p += strcspn(p, ",");
			p += *p == ',';
		}
	}
	for (i = 0; i < pe.count; i++) {
		const struct ps_event *e = &pe.ev[i];

		snprintf(pid, sizeof(pid), "%u", e->pid);
		if (!e->pid || !e->comm[0] || has_pid(f, e->pid) ||
		    !o->comms || !viz_in_list(o->comms, e->comm, 1) ||
		    (o->pids && !viz_in_list(o->pids, pid, 0)))
			continue;
		f->pids[f->nr_pids++] = e->pid;
	}
	for (i = 0; i < f->nr_pids; i++) {
		const char *comm = "";
		size_t j;

		for (j = pe.count; j-- > 0;)
			if (pe.ev[j].pid == f->pids[i] && pe.ev[j].comm[0]) {
				comm = pe.ev[j].comm;
				break;
			}
		add_name(f, f->pids[i], comm);
	}
	ps_events_free(&pe);
	return f->nr_pids ? 1 : 0;
}

static void parse_window(const char *s, uint64_t *from, uint64_t *to)
{
	char start[32];
	const char *end;

	*from = 0;
	*to = UINT64_MAX;
	if (!s)
		return;
	end = viz_split_pair(s, start, sizeof(start));
	if (!end)
		lkst_die(LKST_EXIT_USAGE, "-t takes START,END in seconds, not '%s'", s);
	if ((*start && viz_parse_seconds(start, from)) ||
	    (*end && viz_parse_seconds(end, to)) || *to <= *from)
		lkst_die(LKST_EXIT_USAGE, "-t takes START,END in seconds with START < END, not '%s'", s);
}

/*
 * Reads the input and builds f->map.  1 on success, 0 when the selection
 * matches nothing yet, -1 on an input error (err set).
 */
static int load(const struct options *o, struct frame *f, struct lkst_err *err)
{
	struct pm_events e;
	size_t i;
	int rc;

	memset(f, 0, sizeof(*f));
	parse_window(o->window, &f->from_ns, &f->to_ns);
	rc = select_pids(o, f, err);
	if (rc <= 0)
		return rc;
	rc = o->log_file ? pm_read_log(o->log_file, &e, err)
			 : pm_read_csv(o->csv_file, o->live, &e, err);
	if (rc)
		return -1;
	pm_init(&f->map, f->pids, f->nr_pids);	/* no pids: every process */
	for (i = 0; i < e.count; i++) {
		if (e.ev[i].time_ns < f->from_ns || e.ev[i].time_ns > f->to_ns)
			continue;
		if (pm_feed(&f->map, &e.ev[i]))
			lkst_die(LKST_EXIT_USAGE, "out of memory at event %zu", i);
	}
	pm_events_free(&e);
	return 1;
}

static void frame_free(struct frame *f)
{
	pm_free(&f->map);
	free(f->pids);
	f->pids = NULL;
}

static int frame_empty(const struct frame *f)
{
	return !f->map.allocs.count && !f->map.frees.count &&
	       !f->map.early_frees.count && !f->map.runs.count;
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

static void write_points(FILE *fp, const struct pm_array *a)
{
	size_t i;

	for (i = 0; i < a->count; i++) {
		const struct pm_point *p = &PM_AT(*a, struct pm_point, i);

		fprintf(fp, "%.9f %llu %u %u %llu\n", viz_secs(p->time_ns),
			(unsigned long long)p->pfn, p->order, p->pid,
			(unsigned long long)p->pages);
	}
	if (!a->count)
		fprintf(fp, "NaN NaN NaN NaN NaN\n");
}

static void write_data(FILE *fp, const struct frame *f)
{
	const struct pm_map *m = &f->map;
	uint64_t start = 0;
	size_t i;

	fprintf(fp, "# lkst-pagemap data for pagemap.gp\n"
		"# allocations: time_s pfn order pid pages\n");
	write_points(fp, &m->allocs);
	fprintf(fp, "\n\n# frees of pages allocated in the trace: time_s pfn order pid pages\n");
	write_points(fp, &m->frees);
	fprintf(fp, "\n\n# frees of pages allocated before the trace: time_s pfn order pid pages\n");
	write_points(fp, &m->early_frees);
	fprintf(fp, "\n\n# snapshot runs (time of the snapshot's first run): "
		"time_s first_pfn end_pfn pages snapshot vaddr pid\n");
	for (i = 0; i < m->runs.count; i++) {
		const struct pm_run *r = &PM_AT(m->runs, struct pm_run, i);

		if (!i || r->snapshot != PM_AT(m->runs, struct pm_run, i - 1).snapshot)
			start = r->time_ns;
		fprintf(fp, "%.9f %llu %llu %llu %llu 0x%llx %u\n", viz_secs(start),
			(unsigned long long)r->pfn, (unsigned long long)(r->pfn + r->pages),
			(unsigned long long)r->pages, (unsigned long long)r->snapshot,
			(unsigned long long)r->vaddr, r->pid);
	}
	if (!m->runs.count)
		fprintf(fp, "NaN NaN NaN NaN NaN NaN NaN\n");
	fprintf(fp, "\n\n# pages held: time_s pages\n");
	for (i = 0; i < m->levels.count; i++) {
		const struct pm_level *l = &PM_AT(m->levels, struct pm_level, i);

		fprintf(fp, "%.9f %llu\n", viz_secs(l->time_ns), (unsigned long long)l->held);
	}
	if (m->levels.count)	/* the level lasts to the end of the trace */
		fprintf(fp, "%.9f %llu\n", viz_secs(m->last_ns), (unsigned long long)pm_held(m));
	else
		fprintf(fp, "NaN NaN\n");
}

/* Axes: the drawn events' times and PFNs, with a margin. */
static void ranges(const struct frame *f, double *x0, double *x1, double *y0,
		   double *y1, double *snapw)
{
	const struct pm_map *m = &f->map;
	double span, gap = 0, prev = -1, pad;
	size_t i;

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
	for (i = 0; i < m->runs.count; i++) {
		const struct pm_run *r = &PM_AT(m->runs, struct pm_run, i);
		double t = viz_secs(r->time_ns);

		if (i && r->snapshot == PM_AT(m->runs, struct pm_run, i - 1).snapshot)
			continue;
		if (prev >= 0 && t > prev && (!gap || t - prev < gap))
			gap = t - prev;
		prev = t;
	}
	*snapw = gap ? gap / 6 : span / 100;
	*x0 -= *snapw;
	*x1 += *snapw;
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
			const char *output, const struct frame *f)
{
	char vars[3 * PATH_MAX + 512], title[512];
	double x0, x1, y0, y1, snapw;
	uint64_t y2max = 1;
	size_t i;

	snprintf(title, sizeof(title), "lkst physical pages of %s: %s",
		 f->nr_pids ? f->names : "every process",
		 o->log_file ? o->log_file : o->csv_file);
	viz_unquote(title);
	ranges(f, &x0, &x1, &y0, &y1, &snapw);
	if (o->pfns)
		parse_pfns(o->pfns, &y0, &y1);
	/* A fixed right axis: gnuplot cannot autoscale a series with no points. */
	for (i = 0; i < f->map.levels.count; i++)
		if (PM_AT(f->map.levels, struct pm_level, i).held > y2max)
			y2max = PM_AT(f->map.levels, struct pm_level, i).held;
	snprintf(vars, sizeof(vars),
		 "datafile='%s'; outfile='%s'; xmin=%.9f; xmax=%.9f; ymin=%.0f; ymax=%.0f; "
		 "y2max=%.0f; snapw=%.9f; minh=%.3f; plottitle='%s'",
		 data, output, x0, x1, y0, y1, y2max * 1.05 + 1, snapw, (y1 - y0) / 500,
		 title);
	viz_gnuplot(vars, script, data, output);
}

/*
 * Writes OUT.dat and draws OUT.png.  Live frames are drawn to OUT.png.tmp
 * and renamed, so a viewer never shows half a picture.
 */
static void plot(const struct options *o, const struct frame *f)
{
	char script[PATH_MAX], tmp[PATH_MAX];
	char *data = viz_data_path(o->output);
	FILE *fp;

	viz_script_path(o->script, "pagemap.gp", script, sizeof(script));
	fp = fopen(data, "w");
	if (!fp)
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", data, strerror(errno));
	write_data(fp, f);
	if (fclose(fp))
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", data, strerror(errno));
	if (!o->live) {
		run_gnuplot(o, script, data, o->output, f);
	} else {
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", o->output) >= sizeof(tmp))
			lkst_die(LKST_EXIT_USAGE, "-o path too long");
		run_gnuplot(o, script, data, tmp, f);
		if (rename(tmp, o->output))
			lkst_die(LKST_EXIT_USAGE, "cannot rename %s to %s: %s", tmp,
				 o->output, strerror(errno));
	}
	free(data);
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
	uint64_t period_ns = 1000000000ull;
	struct lkst_err err;
	struct frame f;
	int n, drawn = 0;

	if (o->interval && (viz_parse_seconds(o->interval, &period_ns) || !period_ns))
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
				(unsigned long long)f.map.nr_snapshots, o->output);
		}
		if (rc >= 0)
			frame_free(&f);
		if (!stop && (!o->frames || n < o->frames))
			nanosleep(&ts, NULL);
	}
	if (!drawn)
		lkst_die(LKST_EXIT_USAGE, "no frame drawn: no MEM_PAGE_* records of the selection");
	if (o->summary) {	/* of the input as the last frame saw it */
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
		VIZ_POPT_INPUT(o),
		{ "output", 'o', POPT_ARG_STRING, &o.output, 0,
		  "draw the pages to this PNG (data in FILE.dat)", "FILE.png" },
		{ "summary", '\0', POPT_ARG_NONE, &o.summary, 0,
		  "summary on stdout (the default without -o)", NULL },
		VIZ_POPT_SELECT(o),
		{ "time", 't', POPT_ARG_STRING, &o.window, 0,
		  "time window in seconds (trace clock); either end may be empty", "START,END" },
		{ "pfn", '\0', POPT_ARG_STRING, &o.pfns, 0,
		  "draw only this PFN range (zoom)", "LO,HI" },
		{ "live", '\0', POPT_ARG_NONE, &o.live, 0,
		  "redraw -o every second from an input still being written, until Ctrl-C", NULL },
		{ "interval", '\0', POPT_ARG_STRING, &o.interval, 0,
		  "seconds between live frames (default 1)", "SECONDS" },
		{ "frames", '\0', POPT_ARG_INT, &o.frames, 0,
		  "stop --live after this many frames", "N" },
		{ "script", '\0', POPT_ARG_STRING, &o.script, 0,
		  "gnuplot script (default: pagemap.gp next to the program or in ../share/lkst)", "FILE" },
		VIZ_POPT_VERSION,
		LKST_POPT_TAIL
	};
	struct lkst_err err;
	poptContext ctx;
	struct frame f;
	int rc;

	lkst_progname = "lkst-pagemap";
	ctx = lkst_parse_options(argc, (const char **)argv, options, NULL);
	lkst_no_positional(ctx);
	viz_check_input(o.log_file, o.csv_file, o.pids);
	if (o.pfns) {
		double lo, hi;

		parse_pfns(o.pfns, &lo, &hi);	/* refuse it before any work */
	}
	if (o.frames < 0)
		lkst_die(LKST_EXIT_USAGE, "--frames takes N >= 0");
	if (o.live) {
		if (!o.output)
			lkst_die(LKST_EXIT_USAGE, "--live needs -o FILE.png");
		live(&o);
		poptFreeContext(ctx);
		return LKST_EXIT_OK;
	}
	rc = load(&o, &f, &err);
	if (rc < 0)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (!rc)
		lkst_die(LKST_EXIT_USAGE, "no process matches -p/-c (names come from "
			 "PROCESS_CONTEXTSWITCH/WAKEUP records; trace them or give -p)");
	if (o.summary || !o.output)
		print_summary(stdout, &f);
	if (o.output) {
		if (frame_empty(&f))
			lkst_die(LKST_EXIT_USAGE, "no MEM_PAGE_* records of the selection; nothing to draw "
				 "(route MEM_PAGE_ALLOC/FREE, load lkst_pagewalk.ko)");
		plot(&o, &f);
		fprintf(stderr, "%s: %zu allocations, %zu frees, %zu snapshot runs: %s\n",
			lkst_progname, f.map.allocs.count,
			f.map.frees.count + f.map.early_frees.count, f.map.runs.count,
			o.output);
	}
	frame_free(&f);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
