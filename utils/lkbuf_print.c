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
static void print_gaps(const struct lkst_log *log, const struct lkst_log_section *sec)
{
	const struct lkst_log_cpu *c = &sec->info;
	unsigned long long left = c->lost, first, last, n, gaps = 0;
	const char *why;
	struct lkst_log_gap gap;
	__u64 pos = 0;

	while (left && lkst_log_next_gap(sec, &pos, &gap)) {
		why = lkst_log_gap_in_missing_file(log, sec, &gap) ?
			"in no file given: a file of the set is missing" :
			"overwritten before they were read";
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
		lkst_log_nr_sections(log));
	for (s = 0; s < lkst_log_nr_sections(log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(log, s);
		const struct lkst_log_cpu *c = &sec->info;

		print_gaps(log, sec);
		/* Version 2 files say the counters are the kernel's, since boot. */
		since = sec->seqs ? " since boot" : "";
		if (c->overwritten)
			fprintf(stderr, "lkbuf: cpu%u: %llu records overwritten%s\n",
				c->cpu, (unsigned long long)c->overwritten, since);
		if (c->dropped)
			fprintf(stderr, "lkbuf: cpu%u: %llu events dropped%s\n",
				c->cpu, (unsigned long long)c->dropped, since);
	}
}

/* ---- Input and selection, shared by print, convert and report ---------- */

static const char **in_files, **sel_ev, **sel_pid, **sel_comm, **sel_time, **sel_cpu,
	**sel_where;

struct poptOption lkbuf_input_options[] = {
	{ "file", 'f', POPT_ARG_ARGV, &in_files, 0,
	  "log file (.zst ones too), - for standard input, or the directory lkbuf "
	  "record -o wrote; -f given again: more files of the same trace, read as one",
	  "FILE" },
	POPT_TABLEEND
};

struct poptOption lkbuf_select_options[] = {
	{ "event", 'e', POPT_ARG_ARGV, &sel_ev, 0,
	  "only these events: IDs, mnemonics or categories (process, syscall, ...)",
	  "EVENT,..." },
	{ "pid", 'p', POPT_ARG_ARGV, &sel_pid, 0,
	  "only records of these pids, and PROCESS_CONTEXTSWITCH and "
	  "PROCESS_WAKEUP records naming one as prev, next or target pid",
	  "PID,..." },
	{ "comm", 'n', POPT_ARG_ARGV, &sel_comm, 0,
	  "only records of tasks with these command names (exact, as printed, "
	  "or PREFIX* for every name starting with PREFIX; names are learned "
	  "from switches and wakeups), and switches to or wakeups of them",
	  "COMM,..." },
	{ "time", 't', POPT_ARG_ARGV, &sel_time, 0,
	  "only records in this window: each side seconds of the trace clock "
	  "(12.5) or a time of day as the text prints it (hh:mm:ss[.frac], local "
	  "time, on the day of the log's clock anchor; END before START: the "
	  "next day); either side may be empty", "START,END" },
	{ "cpu", 'c', POPT_ARG_ARGV, &sel_cpu, 0,
	  "only records of these CPUs, or ranges of them (0-3,6)", "CPU,..." },
	{ "where", '\0', POPT_ARG_ARGV, &sel_where, 0,
	  "only records for which EXPR holds (lkm filter's language: arg1 == 3 && pid != 1)",
	  "EXPR" },
	POPT_TABLEEND
};

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

struct lkst_trace *lkbuf_open_input(const char *verb, unsigned int flags)
{
	struct lkst_trace *t;
	struct lkst_err err;
	unsigned int n;

	lkst_require(in_files ? in_files[0] : NULL, "-f FILE", verb);
	for (n = 0; in_files[n]; n++)
		;
	t = lkst_trace_open_files(in_files, n, flags, &err);
	if (!t)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	return t;
}

const char *lkbuf_input_name(void)
{
	return in_files && in_files[0] ? in_files[0] : "";
}

/*
 * After the log is opened: -e names its events, -t uses its clock anchor.
 * One list at a time, so that the first bad option is the one named.
 */
void lkbuf_select_apply(struct lkst_trace *t)
{
	const char **lists[] = { sel_ev, sel_pid, sel_comm, sel_time, sel_cpu, sel_where };
	static const char *const names[] = { "-e", "-p", "-n", "-t", "-c", "--where" };
	struct lkst_trace_select sel = { 0 };
	const char **fields[] = { &sel.events, &sel.pids, &sel.comms, &sel.window, &sel.cpus,
				  &sel.where };
	struct lkst_err err;
	unsigned int i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		*fields[i] = filter_value(lists[i], names[i]);
		if (*fields[i] && lkst_trace_select(t, &sel, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
}

void lkbuf_select_free(void)
{
	const char ***all[] = { &in_files, &sel_ev, &sel_pid, &sel_comm, &sel_time, &sel_cpu,
				&sel_where };
	unsigned int i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		free_values(*all[i]);
		*all[i] = NULL;
	}
}

int lkbuf_verb_print(int argc, const char **argv)
{
	struct lkst_format_opts opts = { 0 };
	struct poptOption options[] = {
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
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
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_select_options, 0,
		  "Selecting records:", NULL },
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
	trace = lkbuf_open_input("print", LKST_TRACE_SYMBOLS);
	opts.symbols = lkst_trace_symbols(trace);
	/* Event names in -e are the log's own. */
	lkbuf_select_apply(trace);
	opts.human = !opts.csv && !opts.seconds;
	opts.realtime_offset_ns = lkst_trace_realtime_offset(trace);
	out = lkst_outbuf_new(stdout);
	if (!out)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	/* The text's COMM column: names learned from the records before it. */
	it = lkst_trace_iter_new(trace, opts.human ? LKST_ITER_COMMS : 0, &err);
	if (!it)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	opts.comms = lkst_trace_comms(it);
	if (opts.csv)
		lkst_format_csv_header(stdout, &opts);
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
	lkst_outbuf_free(out);
	lkst_trace_close(trace);
	lkbuf_select_free();
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
