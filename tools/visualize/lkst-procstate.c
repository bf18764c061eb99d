// SPDX-License-Identifier: GPL-2.0
/*
 * lkst-procstate: process-state timeline of an lkst trace.
 *
 * Reads PROCESS_CONTEXTSWITCH and PROCESS_WAKEUP records (log file or CSV),
 * turns them into RUNNING / READY / BLOCKED intervals per process
 * (procstate.c), prints a summary and/or draws the lanes with gnuplot
 * (procstate.gp).  This file only selects, formats and runs gnuplot.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "csv.h"
#include "decimate.h"
#include "input.h"
#include "procstate.h"
#include "lkst_cli.h"

struct options {
	struct viz_options v;
	int idle;
};

#define DEFAULT_WIDTH	1200	/* procstate.gp's picture, in pixels */

/* What the walks over the input gather per task (parallel to m->tasks). */
struct task_acc {
	struct ps_stats st;	/* clipped to the window */
	uint64_t first_ns, last_ns;	/* its first interval's start, last's end */
	int any;
	size_t lane;		/* the second walk: its lane, or SIZE_MAX */
};

/*
 * The model, fed by walking the input: the first walk gathers each task's
 * figures, the second (only to draw) each drawn lane's segments, merged to
 * the picture's pixel columns as they come (decimate.h).  Intervals are
 * never kept: memory is bounded by the tasks and the picture's width.
 */
struct model {
	struct ps_machine m;
	struct task_acc *acc;
	size_t nr_acc;
	uint64_t from_ns, to_ns;	/* the window the figures are clipped to */
	size_t events;
	struct vz_axis ax;		/* second walk */
	struct vz_segs *track;		/* per lane */
};

/* The selected tasks, and the time window everything is clipped to. */
struct view {
	const struct ps_task **lane;
	size_t *task;		/* their indexes in m.tasks */
	size_t nr_lanes;
	uint64_t from_ns, to_ns;
};

/* ---- Selection ------------------------------------------------------ */

static int selected(const struct ps_task *t, const struct options *o)
{
	size_t nr_pids, nr_comms;

	if (t->pid == 0 && !o->idle)
		return 0;
	lkst_select_pid_list(o->v.select, &nr_pids);
	lkst_select_comm_list(o->v.select, &nr_comms);
	if (nr_pids && !lkst_select_pid_wanted(o->v.select, t->pid))
		return 0;
	return !nr_comms || lkst_select_comm_wanted(o->v.select, t->comm);
}

static int compare_lanes(const void *a, const void *b)
{
	const struct ps_task *x = *(const struct ps_task *const *)a;
	const struct ps_task *y = *(const struct ps_task *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->idle_cpu < y->idle_cpu ? -1 : x->idle_cpu > y->idle_cpu;
}

/* Selected tasks with any time inside the window, sorted by PID. */
static void build_lanes(const struct model *md, const struct options *o, struct view *v)
{
	const struct ps_machine *m = &md->m;
	size_t i;

	v->lane = viz_xcalloc(m->nr_tasks, sizeof(*v->lane));
	v->task = viz_xcalloc(m->nr_tasks, sizeof(*v->task));
	for (i = 0; i < m->nr_tasks; i++) {
		const struct ps_task *t = &m->tasks[i];
		const struct ps_stats *st = &md->acc[i].st;

		if (!selected(t, o))
			continue;
		if (st->time_ns[PS_RUNNING] + st->time_ns[PS_READY] + st->time_ns[PS_BLOCKED])
			v->lane[v->nr_lanes++] = t;
	}
	qsort(v->lane, v->nr_lanes, sizeof(*v->lane), compare_lanes);
	for (i = 0; i < v->nr_lanes; i++)
		v->task[i] = (size_t)(v->lane[i] - m->tasks);
}

/* ---- Summary -------------------------------------------------------- */

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static void lane_label(const struct ps_task *t, char *buf, size_t len)
{
	const char *comm = t->comm[0] ? t->comm : "?";

	if (t->pid == 0)
		snprintf(buf, len, "0 %s (idle cpu%u)", comm, t->idle_cpu);
	else
		snprintf(buf, len, "%u %s", t->pid, comm);
}

static void print_summary(FILE *out, const struct model *md, const struct view *v)
{
	size_t i;

	fprintf(out, "# window ");
	viz_print_time(out, v->from_ns);
	fputc('-', out);
	viz_print_time(out, v->to_ns);
	fprintf(out, " s; times in ms; a task's time starts at its first event\n");
	fprintf(out, "%7s %-16s %11s %11s %11s %8s %13s %16s\n", "PID", "COMM",
		"RUNNING", "READY", "BLOCKED", "SWITCHES", "MAX_READY", "MAX_READY_AT_S");
	for (i = 0; i < v->nr_lanes; i++) {
		const struct ps_task *t = v->lane[i];
		const struct ps_stats *st = &md->acc[v->task[i]].st;
		char at[32] = "-";

		if (st->longest_ready_ns)
			snprintf(at, sizeof(at), "%llu.%09llu",
				 (unsigned long long)(st->longest_ready_start_ns / 1000000000ull),
				 (unsigned long long)(st->longest_ready_start_ns % 1000000000ull));
		fprintf(out, "%7u %-16s %11.3f %11.3f %11.3f %8lu %13.3f %16s\n",
			t->pid, t->comm[0] ? t->comm : "?", ms(st->time_ns[PS_RUNNING]),
			ms(st->time_ns[PS_READY]), ms(st->time_ns[PS_BLOCKED]),
			st->switches_in, ms(st->longest_ready_ns), at);
	}
}

/* ---- Plot ----------------------------------------------------------- */

static void write_lane_rows(FILE *fp, const struct model *md, const struct view *v,
			    size_t lane)
{
	const struct vz_segs *tr = &md->track[lane];
	size_t i;

	for (i = 0; i < tr->count; i++) {
		const struct vz_seg *sg = &tr->seg[i];

		fprintf(fp, "%zu %.9f %.9f %u %d %u\n", lane, viz_secs(sg->start_ns),
			viz_secs(sg->end_ns), sg->state,
			sg->cpu == PS_NO_CPU ? -1 : (int)sg->cpu, v->lane[lane]->pid);
	}
}

static size_t write_data(const char *path, const struct model *md, const struct view *v)
{
	FILE *fp = fopen(path, "w");
	char label[PS_COMM_LEN + 32];
	size_t i, rows = 0;

	if (!fp)
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
	fprintf(fp, "# lkst-procstate data for procstate.gp\n# lane label\n");
	for (i = 0; i < v->nr_lanes; i++) {
		lane_label(v->lane[i], label, sizeof(label));
		viz_unquote(label);
		fprintf(fp, "%zu \"%s\"\n", i, label);
	}
	fprintf(fp, "\n\n# lane start_s end_s state(0 running,1 ready,2 blocked) cpu pid\n");
	for (i = 0; i < v->nr_lanes; i++) {
		write_lane_rows(fp, md, v, i);
		rows += md->track[i].count;
	}
	if (fclose(fp))
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
	return rows;
}

/* Without -t the x axis spans the drawn lanes, not the whole trace. */
static void plot_range(const struct options *o, const struct model *md,
		       const struct view *v, uint64_t *from, uint64_t *to)
{
	size_t i;

	*from = v->from_ns;
	*to = v->to_ns;
	if (o->v.window)
		return;
	*from = v->to_ns;
	*to = v->from_ns;
	for (i = 0; i < v->nr_lanes; i++) {
		const struct task_acc *a = &md->acc[v->task[i]];

		if (a->first_ns < *from)
			*from = a->first_ns;
		if (a->last_ns > *to)
			*to = a->last_ns;
	}
}

static void run_gnuplot(const struct options *o, const char *script, const char *data,
			const struct view *v, uint64_t from, uint64_t to, const char *title)
{
	const char *output = o->v.output;
	char vars[3 * PATH_MAX];

	snprintf(vars, sizeof(vars),
		 "datafile='%s'; outfile='%s'; nlanes=%zu; xmin=%.9f; xmax=%.9f; "
		 "width=%d; plottitle='lkst process states: %s'",
		 data, output, v->nr_lanes, viz_secs(from), viz_secs(to), o->v.width, title);
	viz_gnuplot(vars, script, data, output);
}

static void gather_segments(struct viz_input *in, struct model *md, struct view *v);

static void plot(const struct options *o, struct viz_input *in, struct model *md,
		 struct view *v)
{
	char script[PATH_MAX], title[PATH_MAX];
	char *data = viz_data_path(o->v.output);
	uint64_t from, to;
	size_t rows, i;

	if (!v->nr_lanes)
		lkst_die(LKST_EXIT_USAGE, "no process matches -p/-n in the window; nothing to draw");
	viz_script_path(o->v.script, "procstate.gp", script, sizeof(script));
	snprintf(title, sizeof(title), "%s", o->v.log_file ? o->v.log_file : o->v.csv_file);
	viz_unquote(title);
	plot_range(o, md, v, &from, &to);
	vz_axis_init(&md->ax, from, to, (unsigned int)o->v.width);
	gather_segments(in, md, v);
	rows = write_data(data, md, v);
	run_gnuplot(o, script, data, v, from, to, title);
	fprintf(stderr, "%s: %zu lanes, %zu segments: %s (data %s)\n", lkst_progname,
		v->nr_lanes, rows, o->v.output, data);
	for (i = 0; i < v->nr_lanes; i++)
		vz_segs_free(&md->track[i]);
	free(md->track);
	free(data);
}

/* ---- Walks ---------------------------------------------------------- */

static void grow_acc(struct model *md, size_t n)
{
	struct task_acc *p;

	if (n <= md->nr_acc)
		return;
	p = realloc(md->acc, n * sizeof(*p));
	if (!p)
		lkst_die(LKST_EXIT_USAGE, "out of memory after %zu tasks", md->nr_acc);
	memset(p + md->nr_acc, 0, (n - md->nr_acc) * sizeof(*p));
	md->acc = p;
	md->nr_acc = n;
}

/* First walk: each closed interval adds to its task's figures. */
static int stats_sink(void *arg, size_t task, const struct ps_interval *iv)
{
	struct model *md = arg;
	struct task_acc *a;

	grow_acc(md, md->m.nr_tasks);
	a = &md->acc[task];
	ps_stats_add(&a->st, iv, md->from_ns, md->to_ns);
	if (!a->any)
		a->first_ns = iv->start_ns;
	a->last_ns = iv->end_ns;
	a->any = 1;
	return 0;
}

/* Second walk: a drawn lane's interval, clipped to the axis, to its track. */
static int segment_sink(void *arg, size_t task, const struct ps_interval *iv)
{
	struct model *md = arg;
	size_t lane = task < md->nr_acc ? md->acc[task].lane : SIZE_MAX;
	uint64_t from = md->ax.x0, to = md->ax.x0 + md->ax.span;
	struct vz_seg sg = { .state = iv->state, .cpu = iv->cpu };

	if (lane == SIZE_MAX)
		return 0;
	sg.start_ns = iv->start_ns > from ? iv->start_ns : from;
	sg.end_ns = iv->end_ns < to ? iv->end_ns : to;
	if (sg.end_ns <= sg.start_ns)
		return 0;
	return vz_segs_add(&md->track[lane], &sg);
}

static int feed_event(const void *event, void *ctx, struct lkst_err *err)
{
	const struct ps_event *ev = event;
	struct model *md = ctx;

	md->events++;
	if (ps_feed(&md->m, ev)) {
		lkst_seterr(err, "out of memory at event %zu", md->events - 1);
		return -1;
	}
	return 0;
}

/* A walk of the input through a fresh machine whose intervals go to sink. */
static void walk(struct viz_input *in, struct model *md,
		 int (*sink)(void *, size_t, const struct ps_interval *))
{
	struct lkst_err err;

	ps_free(&md->m);
	md->m.sink = sink;
	md->m.sink_arg = md;
	md->events = 0;
	if (viz_walk(in, &ps_kind, feed_event, md, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (md->events && ps_finish(&md->m, md->m.last_ns))
		lkst_die(LKST_EXIT_USAGE, "out of memory");
}

/*
 * The second walk rebuilds the same tasks in the same order (the same
 * events), so a task's index names its lane.
 */
static void gather_segments(struct viz_input *in, struct model *md, struct view *v)
{
	size_t i;

	for (i = 0; i < md->nr_acc; i++)
		md->acc[i].lane = SIZE_MAX;
	md->track = viz_xcalloc(v->nr_lanes, sizeof(*md->track));
	for (i = 0; i < v->nr_lanes; i++) {
		md->acc[v->task[i]].lane = i;
		vz_segs_init(&md->track[i], &md->ax);
	}
	walk(in, md, segment_sink);
	for (i = 0; i < v->nr_lanes; i++) {
		if (vz_segs_finish(&md->track[i]))
			lkst_die(LKST_EXIT_USAGE, "out of memory");
		/* The walk made the tasks anew: the first walk's are freed. */
		v->lane[i] = &md->m.tasks[v->task[i]];
	}
}

/* ---- Main ----------------------------------------------------------- */

/*
 * The first walk: every task's figures in the window.  Without -t, or for
 * an empty side of it, the window is the trace's.
 */
static void load(const struct options *o, struct viz_input *in, struct model *md,
		 struct view *v)
{
	walk(in, md, stats_sink);
	if (!md->events)
		lkst_die(LKST_EXIT_USAGE, "no PROCESS_CONTEXTSWITCH or PROCESS_WAKEUP records; "
			 "trace events 0x01 and 0x02");
	grow_acc(md, md->m.nr_tasks);
	if (!o->v.window || o->v.window[0] == ',')
		v->from_ns = md->m.first_ns;
	if (!o->v.window || o->v.window[strlen(o->v.window) - 1] == ',')
		v->to_ns = md->m.last_ns;
	if (v->to_ns < v->from_ns)
		lkst_die(LKST_EXIT_USAGE, "-t %s is outside the trace (%.9f to %.9f s)",
			 o->v.window, viz_secs(md->m.first_ns), viz_secs(md->m.last_ns));
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct poptOption options[] = {
		VIZ_POPT_COMMON(o.v, "draw the timeline",
				"per-process summary on stdout (the default without -o)"),
		{ "idle", '\0', POPT_ARG_NONE, &o.idle, 0, "include the idle tasks (pid 0, per CPU)", NULL },
		{ "width", '\0', POPT_ARG_INT, &o.v.width, 0,
		  "picture width in pixels (default 1200); the data has at most 3 "
		  "segments per pixel column and lane", "PIXELS" },
		VIZ_POPT_SCRIPT(o.v, "procstate.gp"),
		VIZ_POPT_VERSION,
		LKST_POPT_TAIL
	};
	poptContext ctx;
	struct viz_log log = { 0 };
	struct viz_input in = { 0 };
	struct model md = { 0 };
	struct view v = { 0 };
	struct lkst_err err;

	o.v.width = DEFAULT_WIDTH;
	ctx = viz_parse_options("lkst-procstate", argc, argv, options, &o.v);
	if (o.v.width < 1 || o.v.width > VIZ_MAX_PIXELS)
		lkst_die(LKST_EXIT_USAGE, "--width takes 1 to %d pixels, not %d",
			 VIZ_MAX_PIXELS, o.v.width);
	if (o.v.log_file) {
		if (viz_log_open(&log, o.v.log_file, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
		in.log = &log;
	} else {
		in.csv_file = o.v.csv_file;
	}
	/* A time of day needs the log's clock anchor: after it is open. */
	viz_parse_window(o.v.window, o.v.log_file ? &log : NULL, &v.from_ns, &v.to_ns);
	md.from_ns = v.from_ns;
	md.to_ns = v.to_ns;
	ps_init(&md.m);
	load(&o, &in, &md, &v);
	build_lanes(&md, &o, &v);
	if (o.v.summary || !o.v.output)
		print_summary(stdout, &md, &v);
	if (o.v.output)
		plot(&o, &in, &md, &v);
	free(v.lane);
	free(v.task);
	free(md.acc);
	ps_free(&md.m);
	viz_input_free(&in);
	viz_log_close(&log);
	viz_options_free(ctx, &o.v);
	return LKST_EXIT_OK;
}
