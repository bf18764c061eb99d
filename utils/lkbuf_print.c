// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf print -f LOG: the records of a log file merged in time order,
 * filtered and formatted, then what was lost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkbuf_print.h"
#include "lkst_cli.h"
#include "lkst_format.h"
#include "lkst_logio.h"

/* Gaps named one by one per CPU section; the rest are summed up. */
#define GAPS_SHOWN	20

/*
 * A section's gaps in its sequence numbers, each by the numbers of the
 * records around it (those it holds), so that a loss can be found.
 */
static void print_gaps(const struct lkst_log_section *sec)
{
	const struct lkst_log_cpu *c = &sec->info;
	unsigned long long left = c->lost, first, last, n, gaps = 0;
	const char *why = "overwritten before they were read";
	struct lkst_log_gap gap;
	__u64 pos = 0;

	while (left && lkst_log_next_gap(sec, &pos, &gap)) {
		first = gap.first;
		last = gap.last;
		n = last - first + 1;
		left -= n;
		if (++gaps > GAPS_SHOWN)
			continue;
		if (!c->nr_records)
			fprintf(stderr, "lkbuf: cpu%u: %llu records of sequence numbers %llu..%llu lost, none saved (%s)\n",
				c->cpu, n, first, last, why);
		else if (!gap.index)
			fprintf(stderr, "lkbuf: cpu%u: %llu records lost before sequence number %llu (numbers %llu..%llu, %s)\n",
				c->cpu, n, last + 1, first, last, why);
		else if (gap.index == c->nr_records)
			fprintf(stderr, "lkbuf: cpu%u: %llu records lost after sequence number %llu (numbers %llu..%llu, %s)\n",
				c->cpu, n, first - 1, first, last, why);
		else
			fprintf(stderr, "lkbuf: cpu%u: %llu records lost between sequence numbers %llu and %llu (%s)\n",
				c->cpu, n, first - 1, last + 1, why);
	}
	if (gaps > GAPS_SHOWN)
		fprintf(stderr, "lkbuf: cpu%u: %llu gaps in all, %llu records lost (lkbuf convert places each)\n",
			c->cpu, gaps, (unsigned long long)c->lost);
}

/* Lost events are never silent: report them after the records. */
static void print_losses(const struct lkst_log *log, size_t printed)
{
	const char *since;
	unsigned int s;

	fprintf(stderr, "lkbuf: printed %zu records of %u CPUs\n", printed,
		log->nr_sections);
	for (s = 0; s < log->nr_sections; s++) {
		const struct lkst_log_cpu *c = &log->sections[s].info;

		print_gaps(&log->sections[s]);
		/* Version 2 files say the counters are the kernel's, since boot. */
		since = log->sections[s].seqs ? " since boot" : "";
		if (c->overwritten)
			fprintf(stderr, "lkbuf: cpu%u: %llu records overwritten%s\n",
				c->cpu, (unsigned long long)c->overwritten, since);
		if (c->dropped)
			fprintf(stderr, "lkbuf: cpu%u: %llu events dropped%s\n",
				c->cpu, (unsigned long long)c->dropped, since);
	}
}

/* A filter option's value: given at most once (a list takes commas). */
static const char *filter_value(const char **values, const char *option)
{
	if (!values)
		return NULL;
	if (values[1])
		lkst_die(LKST_EXIT_USAGE, "%s given more than once; give it once with a comma-separated list",
			 option);
	return values[0];
}

static void free_values(const char **values)
{
	size_t i;

	for (i = 0; values && values[i]; i++)
		free((char *)values[i]);
	free(values);
}

/*
 * After the log is opened: -e names its events, -t uses its clock anchor.
 * One list at a time, so that the first bad option is the one named.
 */
static void select_records(const char **ev, const char **pid, const char **comm,
			   const char **time, const char **cpus, struct lkst_trace *t)
{
	const char **lists[] = { ev, pid, comm, time, cpus };
	static const char *const names[] = { "-e", "-p", "-n", "-t", "-c" };
	struct lkst_trace_select sel = { 0 };
	const char **fields[] = { &sel.events, &sel.pids, &sel.comms, &sel.window, &sel.cpus };
	struct lkst_err err;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		*fields[i] = filter_value(lists[i], names[i]);
		if (*fields[i] && lkst_trace_select(t, &sel, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
}

int lkbuf_verb_print(int argc, const char **argv)
{
	char *file = NULL;
	const char **ev_arg = NULL, **pid_arg = NULL, **comm_arg = NULL, **time_arg = NULL;
	const char **cpu_arg = NULL;
	struct lkst_format_opts opts = { 0 };
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to print", "FILE" },
		{ "raw", 'r', POPT_ARG_NONE, &opts.raw, 0, "arguments as raw hex", NULL },
		{ "csv", 'C', POPT_ARG_NONE, &opts.csv, 0, "CSV (RFC 4180) with a header row", NULL },
		{ "seconds", 'S', POPT_ARG_NONE, &opts.seconds, 0,
		  "time as seconds.nanoseconds of the trace clock; without -C also the "
		  "\"TIME cpu= pid= ctx= EVENT key=value\" text instead of the default "
		  "\"hh:mm:ss.uuuuuu  #CPU  PID  COMM  EVENT key=value\" (local time)", NULL },
		{ "verbose", 'V', POPT_ARG_NONE, &opts.verbose, 0,
		  "CSV: an argN_desc column before each argN", NULL },
		{ "stacks", '\0', POPT_ARG_NONE, &opts.stacks, 0,
		  "text: the frames of stack records (lkst_stack) a line each, under their event",
		  NULL },
		{ "event", 'e', POPT_ARG_ARGV, &ev_arg, 0,
		  "only these events: IDs, mnemonics or categories (process, syscall, ...)",
		  "EVENT,..." },
		{ "pid", 'p', POPT_ARG_ARGV, &pid_arg, 0,
		  "only records of these pids, and PROCESS_CONTEXTSWITCH and "
		  "PROCESS_WAKEUP records naming one as prev, next or target pid",
		  "PID,..." },
		{ "comm", 'n', POPT_ARG_ARGV, &comm_arg, 0,
		  "only records of tasks with these command names (exact, as printed, "
		  "or PREFIX* for every name starting with PREFIX; names are learned "
		  "from switches and wakeups), and switches to or wakeups of them",
		  "COMM,..." },
		{ "time", 't', POPT_ARG_ARGV, &time_arg, 0,
		  "only records in this window: each side seconds of the trace clock "
		  "(12.5) or a time of day as the text prints it (hh:mm:ss[.frac], local "
		  "time, on the day of the log's clock anchor; END before START: the "
		  "next day); either side may be empty", "START,END" },
		{ "cpu", 'c', POPT_ARG_ARGV, &cpu_arg, 0,
		  "only records of these CPUs", "CPU,..." },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_trace_iter *it;
	struct lkst_trace_rec r;
	struct lkst_outbuf *out;
	struct lkst_trace *trace;
	struct lkst_err err;
	size_t count = 0;

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "print");
	trace = lkst_trace_open(file, LKST_TRACE_SYMBOLS, &err);
	if (!trace)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	opts.symbols = lkst_trace_symbols(trace);
	/* Event names in -e are the log's own. */
	select_records(ev_arg, pid_arg, comm_arg, time_arg, cpu_arg, trace);
	opts.human = !opts.csv && !opts.seconds;
	opts.realtime_offset_ns = lkst_trace_realtime_offset(trace);
	out = malloc(sizeof(*out));
	if (!out)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	/* The text's COMM column: names learned from the records before it. */
	it = lkst_trace_iter_new(trace, opts.human ? LKST_ITER_COMMS : 0, &err);
	if (!it)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	opts.comms = lkst_trace_comms(it);
	if (opts.csv)
		lkst_format_csv_header(stdout, &opts);
	lkst_outbuf_init(out, stdout);
	while (lkst_trace_next(it, &r)) {
		lkst_format_record_buf(out, r.rec, r.cpu, &opts);
		count++;
	}
	lkst_outbuf_flush(out);
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the records: %s; check the output",
			 strerror(errno));
	print_losses(lkst_trace_log(trace), count);
	lkst_trace_iter_free(it);
	free(out);
	lkst_trace_close(trace);
	free_values(ev_arg);
	free_values(pid_arg);
	free_values(comm_arg);
	free_values(time_arg);
	free_values(cpu_arg);
	free(file);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
