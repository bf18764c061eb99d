/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lkst log files: helpers shared by the writer (lkst_logwrite.c), the
 * loader (lkst_logload.c), the merge (lkst_logio.c) and the trace reader
 * (lkst_reader.c).  Internal to
 * liblkst, not installed: everything here is static inline, so the
 * library exports nothing new.
 */
#ifndef LKST_LOGIO_INT_H
#define LKST_LOGIO_INT_H

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lkst_logio.h"

/* The section's counts fill its range of sequence numbers (see lkst_log.h). */
static inline int check_seq_count(const struct lkst_log_cpu *c,
				  struct lkst_err *err)
{
	if (c->seq_end < c->seq_start || c->lost > c->seq_end - c->seq_start ||
	    c->nr_records != c->seq_end - c->seq_start - c->lost) {
		lkst_seterr(err, "cpu %u: %llu records and %llu lost do not fill sequence numbers %llu..%llu; the file is corrupt",
			    c->cpu, (unsigned long long)c->nr_records,
			    (unsigned long long)c->lost,
			    (unsigned long long)c->seq_start,
			    (unsigned long long)c->seq_end);
		return -1;
	}
	return 0;
}

/* Numbers from..to-1 of the section are in its range and increasing. */
static inline int check_seqs(const struct lkst_log_cpu *c, const __u64 *seqs,
			     uint64_t from, uint64_t to, struct lkst_err *err)
{
	uint64_t i;

	for (i = from; i < to; i++) {
		if (seqs[i] < c->seq_start || seqs[i] >= c->seq_end ||
		    (i && seqs[i] <= seqs[i - 1])) {
			lkst_seterr(err, "cpu %u: record %llu has sequence number %llu, out of order or outside %llu..%llu; the file is corrupt",
				    c->cpu, (unsigned long long)i,
				    (unsigned long long)seqs[i],
				    (unsigned long long)c->seq_start,
				    (unsigned long long)c->seq_end);
			return -1;
		}
	}
	return 0;
}

/*
 * A mapped image is read twice, to validate it and to print it: both give
 * back (MADV_DONTNEED) what they have passed every RELEASE_RECORDS records,
 * so the process keeps a bounded part of the file mapped however big it is.
 * The pages stay in the page cache and come back on the next touch.  An
 * image in memory of our own (mapped == 0) is never released.
 */
#define RELEASE_RECORDS	(1u << 14)	/* 1 MiB of records */

static inline void release_range(int mapped, const void *start,
				 const void *end)
{
	uintptr_t page, from, to;

	if (!mapped)
		return;
	page = (uintptr_t)sysconf(_SC_PAGESIZE);
	from = ((uintptr_t)start + page - 1) & ~(page - 1);
	to = (uintptr_t)end & ~(page - 1);
	if (from < to)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

/*
 * The merge's state (struct lkst_log_merge is opaque to programs): one run
 * per section, in time order, and a min-heap of the runs with records
 * left.  The trace reader walks a single section through its run.
 */
struct lkst_log_run {
	const struct lkst_log_section *sec;
	__u32 *order;			/* NULL: stored order */
	__u64 next;			/* position of the next record (merge_next's) */
	__u64 release;			/* mapped: records before it were given back */
};

struct lkst_log_merge {
	const struct lkst_log *log;
	struct lkst_log_run *runs;	/* one per section */
	/* Runs with records left, a min-heap by their next record's key. */
	struct lkst_log_head {
		__u64 time_ns;
		__u32 cpu;
		__u32 run;
	} *heap;
	unsigned int heap_len;
};

/* Stored index of a run's i-th record in time order, and that record. */
static inline __u64 lkst_log_run_index(const struct lkst_log_run *run, __u64 i)
{
	return run->order ? run->order[i] : i;
}

static inline const struct lkst_record *
lkst_log_run_record(const struct lkst_log_run *run, __u64 i)
{
	return &run->sec->records[lkst_log_run_index(run, i)];
}

#endif /* LKST_LOGIO_INT_H */
