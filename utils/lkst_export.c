// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf convert: the verb, and what both exporters share: the records of
 * each CPU in time order, their merge over CPUs, and progress.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_export.h"

struct sort_key {
	__u64 time_ns;
	__u32 index;
};

static int compare_keys(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts a section by time only if it is not in time order already. */
static int init_run(const struct lkst_log_section *sec, struct lkst_export_run *run,
		    struct lkst_err *err)
{
	__u64 i, n = sec->info.nr_records;
	struct sort_key *keys;

	run->sec = sec;
	run->order = NULL;
	run->next = 0;
	for (i = 1; i < n; i++)
		if (sec->records[i].time_ns < sec->records[i - 1].time_ns)
			break;
	if (i >= n)
		return 0;
	keys = malloc(n * sizeof(*keys));
	run->order = malloc(n * sizeof(*run->order));
	if (!keys || !run->order) {
		free(keys);
		lkst_seterr(err, "out of memory sorting %llu records of cpu %u; free some memory",
			    (unsigned long long)n, sec->info.cpu);
		return -1;
	}
	for (i = 0; i < n; i++) {
		keys[i].time_ns = sec->records[i].time_ns;
		keys[i].index = i;
	}
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (i = 0; i < n; i++)
		run->order[i] = keys[i].index;
	free(keys);
	return 0;
}

static void free_runs(struct lkst_export *x)
{
	unsigned int s;

	for (s = 0; x->runs && s < x->log->nr_sections; s++)
		free(x->runs[s].order);
	free(x->runs);
	x->runs = NULL;
}

static int init_export(struct lkst_export *x, const struct lkst_log *log,
		       struct lkst_err *err)
{
	unsigned int s;

	memset(x, 0, sizeof(*x));
	x->log = log;
	x->runs = calloc(log->nr_sections ? log->nr_sections : 1, sizeof(*x->runs));
	if (!x->runs) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (s = 0; s < log->nr_sections; s++) {
		if (init_run(&log->sections[s], &x->runs[s], err)) {
			free_runs(x);
			return -1;
		}
		x->records += log->sections[s].info.nr_records;
	}
	x->progress = isatty(STDERR_FILENO);
	return 0;
}

void lkst_export_rewind(struct lkst_export *x)
{
	unsigned int s;

	for (s = 0; s < x->log->nr_sections; s++)
		x->runs[s].next = 0;
}

const struct lkst_record *lkst_export_next(struct lkst_export *x, unsigned int *section)
{
	const struct lkst_record *best = NULL, *r;
	unsigned int s, best_s = 0;

	for (s = 0; s < x->log->nr_sections; s++) {
		struct lkst_export_run *run = &x->runs[s];

		if (run->next >= run->sec->info.nr_records)
			continue;
		r = lkst_run_record(run, run->next);
		if (!best || r->time_ns < best->time_ns ||
		    (r->time_ns == best->time_ns &&
		     run->sec->info.cpu < x->runs[best_s].sec->info.cpu)) {
			best = r;
			best_s = s;
		}
	}
	if (best) {
		x->runs[best_s].next++;
		*section = best_s;
	}
	return best;
}

void lkst_export_step(struct lkst_export *x, unsigned long long n)
{
	unsigned int percent;

	x->done += n;
	if (!x->progress || !x->work)
		return;
	percent = x->done >= x->work ? 100 : x->done * 100 / x->work;
	if (percent == x->last_percent)
		return;
	x->last_percent = percent;
	fprintf(stderr, "\rlkbuf: converting: %3u%%", percent);
}

/* Clears the progress line before the summary. */
static void end_progress(const struct lkst_export *x)
{
	if (x->progress && x->last_percent)
		fprintf(stderr, "\r%*s\r", 24, "");
}

int lkbuf_verb_convert(int argc, const char **argv)
{
	char *file = NULL, *format = NULL, *out = NULL;
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to convert", "FILE" },
		{ "to", '\0', POPT_ARG_STRING, &format, 0,
		  "ctf: CTF 1.8 directory (babeltrace2, Trace Compass); json: Chrome "
		  "trace JSON (Perfetto, chrome://tracing)", "ctf|json" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "ctf: directory, created if missing (an empty one, or one an earlier "
		  "conversion wrote, is replaced); json: file, - for standard output",
		  "OUT" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_export x;
	struct lkst_log log;
	struct lkst_err err;
	int ctf, ret;

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "convert");
	lkst_require(format, "--to ctf|json", "convert");
	lkst_require(out, "-o OUT", "convert");
	if (strcmp(format, "ctf") && strcmp(format, "json"))
		lkst_die(LKST_EXIT_USAGE, "unknown output format '%s'; give --to ctf or --to json",
			 format);
	ctf = !strcmp(format, "ctf");
	if (ctf && !strcmp(out, "-"))
		lkst_die(LKST_EXIT_USAGE, "a CTF trace is a directory, not standard output; give -o DIR");
	if (lkst_log_load(file, &log, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (init_export(&x, &log, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	ret = ctf ? lkst_export_ctf(&x, out, &err) : lkst_export_json(&x, out, &err);
	end_progress(&x);
	if (ret)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fprintf(stderr, "lkbuf: converted %llu records of %u CPUs to %s (%s%s%s)\n",
		x.records, log.nr_sections, out, ctf ? "CTF 1.8" : "Chrome trace JSON",
		x.summary[0] ? ": " : "", x.summary);
	free_runs(&x);
	lkst_log_free(&log);
	free(file);
	free(format);
	free(out);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
