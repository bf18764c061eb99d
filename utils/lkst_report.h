/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkbuf report: summaries of a log's records, each one an aggregation of
 * lkst_agg (handlers/lkst_agg.h) computed offline from the records as the
 * handler computes it live from the events: the same keys, the same
 * latency pairs (syscall: a task's SYSCALL_ENTRY to its next SYSCALL_EXIT;
 * sched: wakeup to switch-in; irq: INT_HARDWARE_ENTRY to its EXIT on that
 * CPU and context), the same quantize buckets, so that lkm agg print and
 * the report give equal numbers for the same events.  The record's time
 * stands for the handler's clock reading.  Pure: unit tested on the host;
 * lkm_agg_print() formats the tables.
 */
#ifndef LKST_REPORT_H
#define LKST_REPORT_H

#include <linux/lkst_record.h>

#include "lkst_agg.h"
#include "lkst_util.h"

/* The summaries, in the order printed; their names are the tables'. */
enum lkst_report_section {
	LKST_REPORT_EVENTS,		/* count by event */
	LKST_REPORT_TASKS,		/* count by pid, comm */
	LKST_REPORT_CPUS,		/* count by cpu */
	LKST_REPORT_SYSCALLS,		/* count by arg1 of SYSCALL_ENTRY */
	LKST_REPORT_TASK_SYSCALLS,	/* count by pid, arg1 of SYSCALL_ENTRY */
	LKST_REPORT_SYSCALL_LAT,	/* quantize latency syscall by pid */
	LKST_REPORT_SCHED_LAT,		/* quantize latency sched by pid */
	LKST_REPORT_IRQ_LAT,		/* quantize latency irq by arg1 */
	LKST_REPORT_ERRORS,		/* count by arg1, arg2 of failed SYSCALL_EXITs */
	LKST_REPORT_NR,
};

#define LKST_REPORT_ALL		((1u << LKST_REPORT_NR) - 1)

/* One table as lkm agg reads one from the kernel: entries merged. */
struct lkst_report_table {
	struct lkst_agg_config cfg;
	struct lkst_agg_entry *entries;
	__u64 *buckets;			/* quantize: [cap][LKST_AGG_NR_BUCKETS] */
	unsigned int n;
	size_t cap;
	unsigned int *index;		/* key hash -> entry + 1, 0 empty */
	size_t index_cap;		/* a power of two, > 2 * n */
};

/* Samples a latency lost, as lkst_agg_info counts them. */
struct lkst_report_lost {
	unsigned long long unmatched, evicted, mismatch, negative;
};

struct lkst_report_starts;

struct lkst_report {
	unsigned int sections;		/* bits of enum lkst_report_section */
	struct lkst_report_table table[LKST_REPORT_NR];
	struct lkst_report_lost lost[LKST_AGG_NR_LAT];
	struct lkst_report_starts *starts[LKST_AGG_NR_LAT];
	unsigned long long records;
};

/* "events,syscalls" into bits; "all" is every one.  0, or -1 with err. */
int lkst_report_parse_sections(const char *list, unsigned int *sections,
			       struct lkst_err *err);
const char *lkst_report_section_name(unsigned int section);

/* For the sections given; 0, or -1 with err (out of memory). */
int lkst_report_init(struct lkst_report *r, unsigned int sections, struct lkst_err *err);
void lkst_report_free(struct lkst_report *r);
/*
 * Counts a record, in time order, recorded by @cpu; @comm is the escaped
 * name its pid had (lkst_comm_map_name()) or NULL.  0, or -1 with err.
 */
int lkst_report_add(struct lkst_report *r, const struct lkst_record *rec,
		    unsigned int cpu, const char *comm, struct lkst_err *err);

#endif /* LKST_REPORT_H */
