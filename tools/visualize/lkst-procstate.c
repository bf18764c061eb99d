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
#include "input.h"
#include "procstate.h"
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
	int idle;
};

/* The selected tasks, and the time window everything is clipped to. */
struct view {
	const struct ps_task **lane;
	size_t nr_lanes;
	uint64_t from_ns, to_ns;
};

/* ---- Selection ------------------------------------------------------ */

static int selected(const struct ps_task *t, const struct options *o)
{
	char pid[16];

	if (t->pid == 0 && !o->idle)
		return 0;
	snprintf(pid, sizeof(pid), "%u", t->pid);
	if (o->pids && !viz_in_list(o->pids, pid, 0))
		return 0;
	return !o->comms || viz_in_list(o->comms, t->comm, 1);
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
static void build_lanes(const struct ps_machine *m, const struct options *o,
			struct view *v)
{
	struct ps_stats st;
	size_t i;

	v->lane = viz_xcalloc(m->nr_tasks, sizeof(*v->lane));
	for (i = 0; i < m->nr_tasks; i++) {
		const struct ps_task *t = &m->tasks[i];

		if (!selected(t, o))
			continue;
		ps_stats(t, v->from_ns, v->to_ns, &st);
		if (st.time_ns[PS_RUNNING] + st.time_ns[PS_READY] + st.time_ns[PS_BLOCKED])
			v->lane[v->nr_lanes++] = t;
	}
	qsort(v->lane, v->nr_lanes, sizeof(*v->lane), compare_lanes);
}

static void parse_window(const char *s, const struct ps_machine *m, struct view *v)
{
	char start[32];
	const char *end;

	v->from_ns = m->first_ns;
	v->to_ns = m->last_ns;
	if (!s)
		return;
	end = viz_split_pair(s, start, sizeof(start));
	if (!end)
		lkst_die(LKST_EXIT_USAGE, "-t takes START,END in seconds, not '%s'", s);
	if (viz_parse_seconds(start, &v->from_ns) || viz_parse_seconds(end, &v->to_ns) ||
	    v->to_ns <= v->from_ns)
		lkst_die(LKST_EXIT_USAGE, "-t takes START,END in seconds with START < END, not '%s'", s);
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

static void print_summary(FILE *out, const struct view *v)
{
	struct ps_stats st;
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
		char at[32] = "-";

		ps_stats(t, v->from_ns, v->to_ns, &st);
		if (st.longest_ready_ns)
			snprintf(at, sizeof(at), "%llu.%09llu",
				 (unsigned long long)(st.longest_ready_start_ns / 1000000000ull),
				 (unsigned long long)(st.longest_ready_start_ns % 1000000000ull));
		fprintf(out, "%7u %-16s %11.3f %11.3f %11.3f %8lu %13.3f %16s\n",
			t->pid, t->comm[0] ? t->comm : "?", ms(st.time_ns[PS_RUNNING]),
			ms(st.time_ns[PS_READY]), ms(st.time_ns[PS_BLOCKED]),
			st.switches_in, ms(st.longest_ready_ns), at);
	}
}

/* ---- Plot ----------------------------------------------------------- */

static void write_lane_rows(FILE *fp, const struct view *v, size_t lane)
{
	const struct ps_task *t = v->lane[lane];
	size_t i;

	for (i = 0; i < t->nr_intervals; i++) {
		const struct ps_interval *iv = &t->intervals[i];
		uint64_t start = iv->start_ns > v->from_ns ? iv->start_ns : v->from_ns;
		uint64_t end = iv->end_ns < v->to_ns ? iv->end_ns : v->to_ns;

		if (end > start)
			fprintf(fp, "%zu %.9f %.9f %d %d %u\n", lane, viz_secs(start),
				viz_secs(end), iv->state,
				iv->cpu == PS_NO_CPU ? -1 : (int)iv->cpu, t->pid);
	}
}

static void write_data(const char *path, const struct view *v)
{
	FILE *fp = fopen(path, "w");
	char label[PS_COMM_LEN + 32];
	size_t i;

	if (!fp)
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
	fprintf(fp, "# lkst-procstate data for procstate.gp\n# lane label\n");
	for (i = 0; i < v->nr_lanes; i++) {
		lane_label(v->lane[i], label, sizeof(label));
		viz_unquote(label);
		fprintf(fp, "%zu \"%s\"\n", i, label);
	}
	fprintf(fp, "\n\n# lane start_s end_s state(0 running,1 ready,2 blocked) cpu pid\n");
	for (i = 0; i < v->nr_lanes; i++)
		write_lane_rows(fp, v, i);
	if (fclose(fp))
		lkst_die(LKST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
}

/* Without -t the x axis spans the drawn lanes, not the whole trace. */
static void plot_range(const struct options *o, const struct view *v,
		       uint64_t *from, uint64_t *to)
{
	size_t i;

	*from = v->from_ns;
	*to = v->to_ns;
	if (o->window)
		return;
	*from = v->to_ns;
	*to = v->from_ns;
	for (i = 0; i < v->nr_lanes; i++) {
		const struct ps_task *t = v->lane[i];

		if (t->intervals[0].start_ns < *from)
			*from = t->intervals[0].start_ns;
		if (t->intervals[t->nr_intervals - 1].end_ns > *to)
			*to = t->intervals[t->nr_intervals - 1].end_ns;
	}
}

static void run_gnuplot(const struct options *o, const char *script,
			const char *data, const struct view *v, const char *title)
{
	const char *output = o->output;
	char vars[3 * PATH_MAX];
	uint64_t from, to;

	plot_range(o, v, &from, &to);
	snprintf(vars, sizeof(vars),
		 "datafile='%s'; outfile='%s'; nlanes=%zu; xmin=%.9f; xmax=%.9f; "
		 "plottitle='lkst process states: %s'",
		 data, output, v->nr_lanes, viz_secs(from), viz_secs(to), title);
	viz_gnuplot(vars, script, data, output);
}

static void plot(const struct options *o, const struct view *v)
{
	char script[PATH_MAX], title[PATH_MAX];
	char *data = viz_data_path(o->output);

	if (!v->nr_lanes)
		lkst_die(LKST_EXIT_USAGE, "no process matches -p/-c in the window; nothing to draw");
	viz_script_path(o->script, "procstate.gp", script, sizeof(script));
	snprintf(title, sizeof(title), "%s", o->log_file ? o->log_file : o->csv_file);
	viz_unquote(title);
	write_data(data, v);
	run_gnuplot(o, script, data, v, title);
	fprintf(stderr, "%s: %zu lanes: %s (data %s)\n", lkst_progname, v->nr_lanes,
		o->output, data);
	free(data);
}

/* ---- Main ----------------------------------------------------------- */

static void load(const struct options *o, struct ps_machine *m)
{
	struct ps_events e;
	struct lkst_err err;
	size_t i;
	int rc;

	rc = o->log_file ? ps_read_log(o->log_file, &e, &err)
			 : ps_read_csv(o->csv_file, 0, &e, &err);
	if (rc)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (!e.count)
		lkst_die(LKST_EXIT_USAGE, "no PROCESS_CONTEXTSWITCH or PROCESS_WAKEUP records; "
			 "trace events 0x01 and 0x02");
	ps_init(m);
	for (i = 0; i < e.count; i++)
		if (ps_feed(m, &e.ev[i]))
			lkst_die(LKST_EXIT_USAGE, "out of memory at event %zu", i);
	if (ps_finish(m, m->last_ns))
		lkst_die(LKST_EXIT_USAGE, "out of memory");
	ps_events_free(&e);
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct poptOption options[] = {
		VIZ_POPT_INPUT(o),
		{ "output", 'o', POPT_ARG_STRING, &o.output, 0,
		  "draw the timeline to this PNG (data in FILE.dat)", "FILE.png" },
		{ "summary", '\0', POPT_ARG_NONE, &o.summary, 0,
		  "per-process summary on stdout (the default without -o)", NULL },
		VIZ_POPT_SELECT(o),
		{ "time", 't', POPT_ARG_STRING, &o.window, 0,
		  "time window in seconds (trace clock)", "START,END" },
		{ "idle", '\0', POPT_ARG_NONE, &o.idle, 0, "include the idle tasks (pid 0, per CPU)", NULL },
		{ "script", '\0', POPT_ARG_STRING, &o.script, 0,
		  "gnuplot script (default: procstate.gp next to the program or in ../share/lkst)", "FILE" },
		VIZ_POPT_VERSION,
		LKST_POPT_TAIL
	};
	poptContext ctx;
	struct ps_machine m;
	struct view v = { 0 };

	lkst_progname = "lkst-procstate";
	ctx = lkst_parse_options(argc, (const char **)argv, options, NULL);
	lkst_no_positional(ctx);
	viz_check_input(o.log_file, o.csv_file, o.pids);
	load(&o, &m);
	parse_window(o.window, &m, &v);
	build_lanes(&m, &o, &v);
	if (o.summary || !o.output)
		print_summary(stdout, &v);
	if (o.output)
		plot(&o, &v);
	free(v.lane);
	ps_free(&m);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
