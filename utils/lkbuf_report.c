// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf report -f LOG: summaries of a log's records (lkst_report.h), the
 * tables lkm agg would have made of the same events, printed as lkm agg
 * print prints them (text with quantize rows, or the same CSV).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"
#include "lkm_agg.h"
#include "lkst_format.h"
#include "lkst_report.h"
#include "lkst_sysnames.h"

static char *sections_arg;
static int csv;

static struct poptOption report_options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
	{ "csv", 'C', POPT_ARG_NONE, &csv, 0,
	  "CSV rows as lkm agg print -C writes them (one per bucket of a quantize)", NULL },
	{ "section", '\0', POPT_ARG_STRING, &sections_arg, 0,
	  "only these summaries (default all): events, tasks, cpus, syscalls, "
	  "task_syscalls, syscall_lat, sched_lat, irq_lat, errors", "LIST" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_select_options, 0,
	  "Selecting records (only these are summarized; the rest still name tasks):",
	  NULL },
	LKST_POPT_TAIL
};

static const char *const lost_names[LKST_AGG_NR_LAT] = { "syscall", "sched", "irq" };

static int by_count_desc(const void *a, const void *b)
{
	const struct lkst_agg_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return memcmp(x->key, y->key, sizeof(x->key));
}

/* Text: the most frequent failure first, the errno by name. */
static void print_errors(struct lkst_report_table *t)
{
	char call[64], err[48], desc[256];
	const char *name;
	unsigned int i;

	/* An empty table's entries may be NULL, which qsort() must not get. */
	if (t->n > 1)
		qsort(t->entries, t->n, sizeof(*t->entries), by_count_desc);
	lkm_agg_describe(&t->cfg, desc, sizeof(desc));
	printf("%s: %s returning < 0\n", t->cfg.name, desc);
	if (t->n)
		printf("\n  %-20s %-16s %10s\n", "syscall", "error", "count");
	for (i = 0; i < t->n; i++) {
		const struct lkst_agg_entry *e = &t->entries[i];

		lkm_agg_format_key(&t->cfg, e->key, 0, call, sizeof(call));
		name = lkst_errno_name((long long)e->key[1]);
		snprintf(err, sizeof(err), "%lld%s%s", (long long)e->key[1], name ? " " : "",
			 name ? name : "");
		printf("  %-20s %-16s %10llu\n", call, err, (unsigned long long)e->count);
	}
}

static void print_lost(const struct lkst_report_lost *l, unsigned int kind)
{
	if (l->unmatched || l->evicted || l->mismatch || l->negative)
		printf("  %s pairs not made: %llu unmatched ends, %llu starts never ended, %llu mismatched exits, %llu negative\n\n",
		       lost_names[kind], l->unmatched, l->evicted, l->mismatch, l->negative);
}

static int run_report(struct lkst_cmd *cmd)
{
	unsigned int sections = LKST_REPORT_ALL, s;
	unsigned long long lost = 0, absent = 0;
	const struct lkst_log *log;
	struct lkst_trace_iter *it;
	struct lkst_trace *trace;
	struct lkst_trace_rec r;
	struct lkst_report rep;
	struct lkst_err err;

	(void)cmd;
	if (sections_arg && lkst_report_parse_sections(sections_arg, &sections, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	trace = lkbuf_open_input("report", 0);
	lkbuf_select_apply(trace);
	if (lkst_report_init(&rep, sections, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	/* The tasks' names: learned from switches and wakeups, in time order. */
	it = lkst_trace_iter_new(trace, LKST_ITER_COMMS, &err);
	if (!it)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	while (lkst_trace_next(it, &r))
		if (lkst_report_add(&rep, r.rec, r.cpu,
				    lkst_comm_map_name(lkst_trace_comms(it), r.rec->pid, r.cpu),
				    &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (csv)
		lkm_agg_csv_header(stdout);
	else
		printf("lkbuf report: %llu records of %s\n\n", rep.records, lkbuf_input_name());
	for (s = 0; s < LKST_REPORT_NR; s++) {
		struct lkst_report_table *t = &rep.table[s];

		if (!(sections & (1u << s)))
			continue;
		if (csv || s != LKST_REPORT_ERRORS)
			lkm_agg_print(stdout, &t->cfg, t->entries, t->buckets, t->n, csv);
		else
			print_errors(t);
		if (csv)
			continue;
		/* A quantize ends with its blank line already. */
		if (t->cfg.func != LKST_AGG_F_QUANTIZE || !t->n)
			putchar('\n');
		if (LKST_AGG_IS_LAT(t->cfg.value))
			print_lost(&rep.lost[t->cfg.value - LKST_AGG_VAL_LAT_SYSCALL],
				   t->cfg.value - LKST_AGG_VAL_LAT_SYSCALL);
	}
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the report: %s; check the output",
			 strerror(errno));
	/* Summaries of a log with holes undercount: never silently. */
	log = lkst_trace_log(trace);
	for (s = 0; s < lkst_log_nr_sections(log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(log, s);
		struct lkst_log_gap gap;
		__u64 pos = 0;

		lost += sec->info.lost;
		/* A set's file that is missing is not the kernel's loss. */
		while (sec->seqs && lkst_log_next_gap(sec, &pos, &gap))
			if (lkst_log_gap_in_missing_file(log, sec, &gap))
				absent += gap.last - gap.first + 1;
	}
	if (absent)
		fprintf(stderr, "lkbuf: the log lacks %llu records in a missing file of the set%s: the summaries leave them out\n",
			absent, lost > absent ? " and lost more (overwritten before they were read)" : "");
	else if (lost)
		fprintf(stderr, "lkbuf: the log lost %llu records (overwritten before they were read): the summaries leave them out\n",
			lost);
	lkst_report_free(&rep);
	lkst_trace_iter_free(it);
	lkst_trace_close(trace);
	lkbuf_select_free();
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_report_ops = { report_options, NULL, NULL, run_report, NULL };
