// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf info: what a log file holds, without its records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"
#include "lkst_format.h"
#include "lkst_format_int.h"
#include "lkst_logboot.h"

static struct poptOption info_options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
	LKST_POPT_TAIL
};

/*
 * A string of the log, which need not end in a NUL in a hostile file and
 * may hold terminal escapes: escaped as lkbuf print escapes names.
 */
static void print_field(const char *label, const char *field, size_t size)
{
	char *shown = malloc(4 * size + 1);

	if (!shown)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	lkst_fmt_escape_bytes((const unsigned char *)field, size, shown, 4 * size + 1);
	printf("%-9s %s\n", label, shown);
	free(shown);
}

/*
 * What a log holds without printing its records: where and when it was
 * taken (host, kernel, clock and its anchor to the time of day) and each
 * CPU's accounting, and how many task names it saved.
 */
static int run_info(struct lkst_cmd *cmd)
{
	unsigned long long records = 0, lost = 0;
	const struct lkst_log_header *h;
	const struct lkst_log *lp;
	struct lkst_trace *trace;
	unsigned int dynamic = 0;
	struct lkst_log_boot boot;
	struct lkst_tasks *tasks;
	struct lkst_err err;
	int ret;
	char when[64] = "?";
	struct tm tm;
	time_t secs;
	unsigned int s;

	(void)cmd;
	/* The reader: -f - and .zst files, several files or a directory as one. */
	trace = lkbuf_open_input("info", 0);
	lp = lkst_trace_log(trace);
	h = lkst_log_get_header(lp);
	secs = (time_t)(h->anchor_realtime_ns / 1000000000ULL);
	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%-9s %s\n", "file", lkbuf_input_name());
	printf("%-9s version %u, %u-byte records\n", "format", h->version, h->record_size);
	print_field("layout", h->layout, sizeof(h->layout));
	print_field("host", h->nodename, sizeof(h->nodename));
	print_field("kernel", h->release, sizeof(h->release));
	ret = lkst_log_boot(lp, &boot, &err);
	if (ret < 0)
		lkst_die(LKST_EXIT_USAGE, "%s: %s", lkbuf_input_name(), err.msg);
	printf("%-9s %s (%s)\n", "boot", boot.id,
	       !ret ? "not saved: derived from the host and clock anchor" :
	       boot.how == LKST_BOOT_ID_KERNEL ? "the recording boot's boot_id" :
	       "derived from the saved boot's host and clock anchor");
	printf("%-9s lkst ABI %u, %u event IDs\n", "tracer", h->abi_version, h->nr_event_ids);
	if (lkst_log_source(lp))
		print_field("source", lkst_log_source(lp), strlen(lkst_log_source(lp)));
	else
		printf("%-9s %s\n", "source", h->version >= 3 ? "not said" :
		       "not said (log format before version 3)");
	for (s = 0; s < lkst_nr_events; s++)
		dynamic += lkst_events[s].id >= LKST_EV_PROBE_FIRST;
	printf("%-9s %u, %s", "events", lkst_nr_events,
	       h->version >= 3 ? "the log's own table" :
	       "this lkbuf's built-in table (the log has none)");
	if (dynamic)
		printf(", %u of them dynamic probes", dynamic);
	printf("\n");
	if (!(tasks = lkst_tasks_new(&err)) || lkst_log_tasks(lp, tasks, &err))
		lkst_die(LKST_EXIT_USAGE, "%s: %s", lkbuf_input_name(), err.msg);
	if (lkst_tasks_nr(tasks))
		printf("%-9s %zu names saved\n", "tasks", lkst_tasks_nr(tasks));
	else
		printf("%-9s no names saved%s\n", "tasks", h->version >= 3 ?
		       " (only scheduler records name tasks)" : " (log format before version 3)");
	lkst_tasks_free(tasks);
	printf("%-9s %s\n", "clock",
	       h->clock == LKST_CLOCK_MONOTONIC ? "CLOCK_MONOTONIC" : "unknown");
	printf("%-9s trace time %llu.%09llu was %s.%09llu UTC\n", "anchor",
	       (unsigned long long)(h->anchor_trace_ns / 1000000000ULL),
	       (unsigned long long)(h->anchor_trace_ns % 1000000000ULL), when,
	       (unsigned long long)(h->anchor_realtime_ns % 1000000000ULL));
	for (s = 0; s < lkst_log_nr_sections(lp); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(lp, s);
		const struct lkst_log_cpu *c = &sec->info;

		records += c->nr_records;
		printf("cpu %-5u %llu records", c->cpu, (unsigned long long)c->nr_records);
		if (sec->seqs && c->seq_end > c->seq_start)
			printf(", numbers %llu..%llu",
			       (unsigned long long)c->seq_start,
			       (unsigned long long)c->seq_end - 1);
		if (sec->seqs) {
			struct lkst_log_gap gap;
			unsigned long long absent = 0;
			__u64 pos = 0;

			lost += c->lost;
			printf(", %llu lost", (unsigned long long)c->lost);
			/* A set's file that is missing is not the kernel's loss. */
			while (lkst_log_next_gap(sec, &pos, &gap))
				if (lkst_log_gap_in_missing_file(lp, sec, &gap))
					absent += gap.last - gap.first + 1;
			if (absent)
				printf(" (%llu of them in a missing file of the set)", absent);
		}
		printf("; %s: written %llu, overwritten %llu, dropped %llu\n",
		       sec->seqs ? "since boot" : "kernel counters",
		       (unsigned long long)c->written,
		       (unsigned long long)c->overwritten,
		       (unsigned long long)c->dropped);
	}
	printf("%-9s %llu records of %u CPUs", "total", records, lkst_log_nr_sections(lp));
	if (h->version >= 2)
		printf(", %llu lost", lost);
	printf("\n");
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the description: %s; check the output",
			 strerror(errno));
	lkst_trace_close(trace);
	lkbuf_select_free();
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_info_ops = { info_options, NULL, NULL, run_info, NULL };

