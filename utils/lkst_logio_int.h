/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lkst log files: helpers shared by the writer (lkst_logwrite.c), the
 * loader (lkst_logload.c), the merge (lkst_logio.c) and the trace reader
 * (lkst_reader.c).  Internal to liblkst, not installed.  The logio_*
 * functions are shared between its files; their names lack the lkst_
 * prefix, so the version script (liblkst.map) keeps them local.
 */
#ifndef LKST_LOGIO_INT_H
#define LKST_LOGIO_INT_H

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lkst_logio.h"

/* A metadata section (version 3); data points into the image. */
struct lkst_log_metaref {
	__u32 type;
	const void *data;
	size_t len;
};

/* A loaded log (opaque to programs: struct lkst_log in lkst_logio.h). */
struct lkst_log {
	struct lkst_log_header header;	/* a v1/v2 one zero-extended */
	unsigned int nr_sections;
	struct lkst_log_section *sections;
	unsigned int nr_meta;
	struct lkst_log_metaref *meta;
	/* Version 3: the log's own event table, decoded and checked. */
	unsigned int nr_events;
	struct lkst_event_desc *events;
	void *image;			/* the file's bytes, owned */
	size_t image_len;
	int mapped;			/* image is a PROT_READ mapping of the file */
	/*
	 * A joined set: the numbers between two files of a CPU that neither
	 * holds (lkbuf record writes a set without such gaps: a file of it is
	 * missing, or was not given).
	 */
	unsigned int nr_file_gaps;
	struct lkst_log_file_gap {
		__u32 cpu;
		__u64 first, last;
	} *file_gaps;
};

/* A table of task names (opaque to programs: lkst_logio.h). */
struct lkst_tasks {
	struct lkst_log_task *ent;
	size_t nr, cap;
};

/* Empties t (an embedded table, zeroed before its first use). */
void logio_tasks_clear(struct lkst_tasks *t);

/*
 * The loaders into a struct the caller provides (the trace reader embeds
 * one): 0, or -1 with err set and *log empty.  logio_release frees what
 * log holds, not log itself.  The public lkst_log_load() and kin wrap
 * them in an allocated handle.
 */
int logio_parse(void *image, size_t len, struct lkst_log *log, struct lkst_err *err);
int logio_load(const char *path, struct lkst_log *log, struct lkst_err *err);
int logio_load_files(const char *const *paths, unsigned int n, struct lkst_log *log,
		     struct lkst_err *err);
int logio_load_dir(const char *dir, struct lkst_log *log, struct lkst_err *err);
int logio_join(const struct lkst_log *const *logs, const char *const *paths,
	       unsigned int n, struct lkst_log *log, struct lkst_err *err);
void logio_release(struct lkst_log *log);

/*
 * Inputs that cannot be mapped as they are (a pipe, standard input, zstd
 * data, a joined set) go through an unnamed temporary file, mapped once
 * written.  tmpfile: a new one, in $TMPDIR, else beside near (a path, or
 * NULL), else /tmp; its descriptor, or -1 with err set.  write_tmp: all of
 * buf, or -1 with err set.  parse_tmp: maps its first len bytes and parses
 * them (messages: "NAMEWHAT: ..."); closes fd either way.
 */
int logio_tmpfile(const char *near, struct lkst_err *err);
int logio_write_tmp(int fd, const void *buf, size_t len, struct lkst_err *err);
int logio_parse_tmp(int fd, size_t len, const char *name, const char *what,
		    struct lkst_log *log, struct lkst_err *err);
/* zstd data in memory, decompressed as a .zst file is (the fuzzer's way in). */
int logio_load_zstd_mem(const void *bytes, size_t len, const char *name,
			struct lkst_log *log, struct lkst_err *err);

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
