/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writing and strictly reading lkst log files (format: lkst_log.h).
 *
 * Reading maps a regular file read-only and validates every size and count
 * against the bytes actually present before anything is allocated from
 * them, so a corrupt or hostile file is refused with a message instead of
 * crashing.  Nothing may write into the image: a mapped one is PROT_READ.
 * Path "-" is standard input.  Other inputs (a pipe, a device), and a file
 * or input that starts with a zstd frame (or a skippable one, as pzstd
 * writes), are copied as they are read, decompressed as a stream, into an
 * unnamed temporary file ($TMPDIR, else beside the file, else /tmp) which
 * is then mapped: the process holds a buffer of them at a time, whatever
 * their size.  Their first bytes must be a log's header, or nothing is
 * kept, and the log they claim must fit LKST_LOG_MAX_READ; zstd data that decompresses to more than 1024 times its size
 * (beyond 64 MiB) is refused as no log; corrupt or cut-short zstd data is
 * refused.
 */
#ifndef LKST_LOGIO_H
#define LKST_LOGIO_H

#include <stddef.h>
#include <stdio.h>

#include "lkst_log.h"
#include "lkst_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One CPU section; records and seqs point into the loaded file image.
 * A version 1 file has no sequence numbers: seqs is NULL and the seq_*
 * and lost fields of info are 0.
 */
struct lkst_log_section {
	struct lkst_log_cpu info;
	const struct lkst_record *records;
	const __u64 *seqs;
	int time_ordered;		/* known in time order (parser); 0: merge checks */
};

/*
 * A loaded log: an opaque handle (lkst_logio_int.h has its layout), made
 * by lkst_log_load() and its kin, read through the accessors below, freed
 * by lkst_log_free().
 */
struct lkst_log;

/*
 * The most a log from a pipe, a device or zstd data may claim to hold (its
 * header and section headers, as they arrive): what is copied into the
 * temporary file is bounded, whatever the input says or sends.
 */
#define LKST_LOG_MAX_READ	(4ull << 30)

/* Header fields that do not come from the kernel are filled in here. */
void lkst_log_header_init(struct lkst_log_header *h);

/*
 * Writing: open path.tmp, write, then commit (rename) or abort (unlink).
 * A log describes the active event table (lkst_util.h) as its own: create
 * adds it as LKST_META_EVENTS; add_meta adds more sections, any time
 * before the commit, which writes them after the CPU sections.
 *
 * Compressed: a path ending in ".zst", or lkst_log_set_zstd() before the
 * commit.  The plain log is then written to an unnamed temporary file
 * (O_TMPFILE in path's directory, else tmpfile()), and the commit
 * compresses it into path.tmp as standard zstd frames (zstd -d gives the
 * plain log) before the rename: a crash never leaves a half file under
 * the final name.  Path "-": standard output, written at the commit (the
 * header is rewritten last, so the log cannot be streamed as it is made).
 */
struct lkst_log_writer;

/*
 * A new log at path (path.tmp until the commit) with header h; NULL with
 * err set, nothing left behind.  Commit or abort frees it.
 */
struct lkst_log_writer *lkst_log_create(const char *path, const struct lkst_log_header *h,
					struct lkst_err *err);
/* Adds a metadata section (data copied), written at the commit. */
int lkst_log_add_meta(struct lkst_log_writer *w, __u32 type, const void *data,
		      size_t len, struct lkst_err *err);
/* Bytes a metadata section of @payload bytes takes; the event table's. */
size_t lkst_log_meta_bytes(size_t payload);
size_t lkst_log_event_table_bytes(void);
/*
 * seqs: the records' sequence numbers, or NULL for seq_start, seq_start+1,
 * ...; then a seq_end of 0 with no loss means seq_start + nr_records.
 */
int lkst_log_write_cpu_seqs(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
			    const struct lkst_record *records, const __u64 *seqs,
			    struct lkst_err *err);
int lkst_log_write_cpu(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
		       const struct lkst_record *records, struct lkst_err *err);
/* Compress (on) or not at the commit, whatever the name says. */
void lkst_log_set_zstd(struct lkst_log_writer *w, int on);
/*
 * Writes the metadata and renames path.tmp to path (standard output: the
 * log is copied there); frees w either way.  0, or -1 with err set and
 * path.tmp removed.
 */
int lkst_log_commit(struct lkst_log_writer *w, struct lkst_err *err);
/* Removes path.tmp and frees w (NULL: nothing). */
void lkst_log_abort(struct lkst_log_writer *w);

/*
 * Validates a file image (malloc'd): a new log owning image, or NULL with
 * err set and image still the caller's.
 */
struct lkst_log *lkst_log_parse(void *image, size_t len, struct lkst_err *err);
/* Maps or reads path and parses it the same way; NULL with err set. */
struct lkst_log *lkst_log_load(const char *path, struct lkst_err *err);
/* Frees log and unmaps its image (NULL: nothing). */
void lkst_log_free(struct lkst_log *log);

/* The header (a version 1 or 2 one zero-extended to the current size). */
const struct lkst_log_header *lkst_log_get_header(const struct lkst_log *log);
/* How many CPU sections the log has. */
unsigned int lkst_log_nr_sections(const struct lkst_log *log);
/* Section i in file order, or NULL past the last one. */
const struct lkst_log_section *lkst_log_get_section(const struct lkst_log *log,
						    unsigned int i);
/* How many metadata sections the log has (version 3; else 0). */
unsigned int lkst_log_nr_meta(const struct lkst_log *log);
/*
 * Metadata section i in file order: its data (in the image), *type and
 * *len set; NULL past the last one.
 */
const void *lkst_log_get_meta(const struct lkst_log *log, unsigned int i,
			      __u32 *type, size_t *len);
/* The file's bytes as loaded (a joined set's: the joined log), *len set. */
const void *lkst_log_image(const struct lkst_log *log, size_t *len);
/* 1 when the image is a read-only mapping of the file (see the hooks below). */
int lkst_log_mapped(const struct lkst_log *log);

/*
 * Several logs of one trace read as one (lkst_logset.c), as lkbuf record
 * --rotate writes them: the files must be of one boot, host and event
 * table (version 2 or later), and per CPU each continues the sequence
 * numbers of the one before it; a gap between two is a loss, overlapping
 * numbers are refused.  They are joined into one image, in the log
 * format and parsed as a file is, so that log is an ordinary one: per
 * CPU one section, its records those of the files in order, seq_start
 * the first file's, seq_end the last's, lost the losses and gaps, the
 * counters since boot the last file's.  The header and metadata are the
 * first file's, but the kernel symbols and task names of all files, merged
 * (a pid or address the first file to have it names).  The joined
 * image is written to a temporary file (as a zstd file is) a file's
 * section at a time, and mapped: memory does not grow with the set.
 *
 * load_files: paths in their order (one path: lkst_log_load()).
 * load_dir: the lkst-*.log and lkst-*.log.zst files of dir, by name
 * (lkst_log_load() of a directory does the same).  join: logs already
 * loaded (paths name them in messages); they stay the caller's.  Each
 * returns a new log, or NULL with err set.
 */
struct lkst_log *lkst_log_load_files(const char *const *paths, unsigned int n,
				     struct lkst_err *err);
struct lkst_log *lkst_log_load_dir(const char *dir, struct lkst_err *err);
struct lkst_log *lkst_log_join(const struct lkst_log *const *logs,
			       const char *const *paths, unsigned int n,
			       struct lkst_err *err);

/*
 * A mapped log that shrinks while it is read (truncated by another
 * program, or an I/O error) raises SIGBUS, which the library leaves alone.
 * These hooks, when set, are told of each mapping lkst_log_load() makes
 * (path as given) and lkst_log_free() (or a failed load) ends, so that a
 * program can catch that SIGBUS; lkst_log_exit_on_sigbus() (lkst_cli.h)
 * is lkm's and lkbuf's.  NULL (the default): none.  Process-wide, like the
 * active event table; hooks must stay valid while set.
 */
struct lkst_log_map_hooks {
	void (*mapped)(const void *start, size_t len, const char *path);
	void (*unmapped)(const void *start);
};
void lkst_log_set_map_hooks(const struct lkst_log_map_hooks *hooks);

/* The first metadata section of a type (len set), or NULL. */
const void *lkst_log_meta(const struct lkst_log *log, __u32 type, size_t *len);
/*
 * Makes the log's own event table the active one (a version 1 or 2 log:
 * the built-in table).  0, or -1 with err set.
 */
int lkst_log_use_events(const struct lkst_log *log, struct lkst_err *err);
/* LKST_META_SOURCE's text, or NULL. */
const char *lkst_log_source(const struct lkst_log *log);

/* ---- Task names (LKST_META_TASKS, lkst_logtasks.c) ------------------- */

/*
 * A table of task names, sorted by pid, one entry per pid: an opaque
 * handle (lkst_logio_int.h has its layout).
 */
struct lkst_tasks;

/* An empty table; NULL with err set when out of memory. */
struct lkst_tasks *lkst_tasks_new(struct lkst_err *err);
/* Frees t (NULL: nothing). */
void lkst_tasks_free(struct lkst_tasks *t);
/* How many names t holds. */
size_t lkst_tasks_nr(const struct lkst_tasks *t);
/* Entry i in pid order, or NULL past the last one. */
const struct lkst_log_task *lkst_tasks_get(const struct lkst_tasks *t, size_t i);

/*
 * Adds pid's name (comm: its first 15 bytes; an empty one is not kept);
 * an entry the pid has already is replaced only when replace is set.  A
 * table holding LKST_LOG_TASKS_MAX entries takes no more.  0, or -1 with
 * err set when out of memory.
 */
int lkst_tasks_put(struct lkst_tasks *t, __u32 pid, __u32 tgid, const char *comm,
		   int replace, struct lkst_err *err);
/* pid's entry, or NULL. */
const struct lkst_log_task *lkst_tasks_find(const struct lkst_tasks *t, __u32 pid);
/*
 * From a proc file system mounted at proc ("/proc"): read_pid adds one
 * thread (PROC/PID/comm, its Tgid from PROC/PID/status), keeping an entry
 * it has: 1 when added or known, 0 when it is gone (or proc hides it),
 * -1 with err set when out of memory.  scan adds every thread of every
 * process (PROC/PID/task/TID); -1 with err set when proc cannot be read.
 */
int lkst_tasks_read_pid(struct lkst_tasks *t, const char *proc, __u32 pid,
			struct lkst_err *err);
int lkst_tasks_scan(struct lkst_tasks *t, const char *proc, struct lkst_err *err);
/*
 * Validates a section strictly (lkst_log.h) and, when t is not NULL,
 * copies its entries into t (emptied first).  0, or -1 with err saying
 * what is wrong.
 */
int lkst_tasks_load(const void *blob, size_t len, struct lkst_tasks *t,
		    struct lkst_err *err);
/* A log's saved names into t (emptied first; empty when it has none).  0, or -1 with err. */
int lkst_log_tasks(const struct lkst_log *log, struct lkst_tasks *t, struct lkst_err *err);
/* Adds t as the log's LKST_META_TASKS; nothing when t is empty. */
int lkst_log_add_tasks(struct lkst_log_writer *w, const struct lkst_tasks *t,
		       struct lkst_err *err);

/*
 * Losses of a section, exactly where its sequence numbers put them: a gap
 * is numbers first..last with no record, before stored record index
 * (nr_records: after the last one).  Start with *pos = 0; 1 with gap
 * filled, 0 when no gap is left (always, in a version 1 section).
 */
struct lkst_log_gap {
	__u64 first, last;
	__u64 index;
};
int lkst_log_next_gap(const struct lkst_log_section *sec, __u64 *pos,
		      struct lkst_log_gap *gap);
/*
 * 1 when a gap of a section of a joined set lies, at least partly, between
 * two files of the set: those records are in no file given (lkbuf record
 * writes each file to continue the last, so a file of the set is missing)
 * rather than lost in the kernel.  0 for any other gap, or another log.
 */
int lkst_log_gap_in_missing_file(const struct lkst_log *log,
				 const struct lkst_log_section *sec,
				 const struct lkst_log_gap *gap);
/*
 * Records lost before the section's numbers begin: version 2 on numbers
 * every record from boot, so the seq_start numbers before it were
 * overwritten, unless the file continues an earlier one (lkbuf record),
 * which shows as an overwritten count too small to hold them.  Version 1
 * has only the overwritten count.
 */
__u64 lkst_log_lost_before(const struct lkst_log_section *sec);

/*
 * All sections' records in time order, as lkbuf print and lkbuf convert
 * show them: each section in time order (sorted by time, ties in stored
 * order, only when it is not in order already), merged over the sections
 * with ties by CPU, then by section (position in the file).  An opaque
 * handle; the trace reader (below) is the one most programs want.
 */
struct lkst_log_merge;

/* A merge over log (which must outlive it); NULL with err set when out of memory. */
struct lkst_log_merge *lkst_log_merge_new(const struct lkst_log *log, struct lkst_err *err);
/* Frees m (NULL: nothing). */
void lkst_log_merge_free(struct lkst_log_merge *m);
void lkst_log_merge_rewind(struct lkst_log_merge *m);
/* The next record and its section's index; NULL at the end. */
const struct lkst_record *lkst_log_merge_next(struct lkst_log_merge *m,
					      unsigned int *section);

/* ---- The trace reader (lkst_reader.c) ------------------------------- */

/*
 * The trace reader: the one way every tool reads a saved log (lkbuf print
 * and convert, the exporters, lkst-procstate and lkst-pagemap).
 *
 * A struct lkst_trace owns an opened log (lkst_logio.h), makes its event
 * table (dynamic-probe names included) the active one, holds its kernel
 * symbols when asked, and a record selection: the tools' filter options
 * (-e events or categories, -p pids, -n command names, -t time window,
 * -c CPUs) with one meaning everywhere (lkst_format.h).  An iterator
 * walks its records merged in time order across CPUs (ties by CPU, then
 * by section), or one CPU section in time order, and hands on only the
 * selected ones.  Both handles are opaque.
 */
struct lkst_trace;
struct lkst_trace_iter;
struct lkst_ksym_table;
struct lkst_comm_map;

/* lkst_trace_open() flags. */
#define LKST_TRACE_SYMBOLS	0x1	/* load the kernel symbols saved with it */

/*
 * Loads path and makes its event table the active one; NULL with err set
 * (the message as lkbuf prints it; a symbol table's names the file).
 */
struct lkst_trace *lkst_trace_open(const char *path, unsigned int flags,
				   struct lkst_err *err);
/*
 * Several files of one trace as one (lkst_log_load_files()); a path may
 * be "-" (standard input) or a directory only when it is the only one.
 */
struct lkst_trace *lkst_trace_open_files(const char *const *paths, unsigned int n,
					 unsigned int flags, struct lkst_err *err);
/*
 * The same over a log the caller loaded and keeps (freed after the trace);
 * its event table is not made active here.
 */
struct lkst_trace *lkst_trace_wrap(const struct lkst_log *log, struct lkst_err *err);
void lkst_trace_close(struct lkst_trace *t);
/*
 * Makes the trace's event table the calling thread's active one, for the
 * formatters and lookups (lkst_event_by_id()) between two calls of the
 * trace: lkst_trace_open(), _select(), _iter_new() and _next() do it.
 * Nothing for a wrapped log's trace.
 */
void lkst_trace_use_events(const struct lkst_trace *t);

const struct lkst_log *lkst_trace_log(const struct lkst_trace *t);
/* The saved kernel symbols (LKST_TRACE_SYMBOLS), else NULL. */
const struct lkst_ksym_table *lkst_trace_symbols(const struct lkst_trace *t);
/* Records in all sections, selected or not. */
unsigned long long lkst_trace_nr_records(const struct lkst_trace *t);
/* The log header's clock anchor; CLOCK_REALTIME minus trace time. */
struct lkst_clock_anchor lkst_trace_anchor(const struct lkst_trace *t);
long long lkst_trace_realtime_offset(const struct lkst_trace *t);

/*
 * Which records iterators hand on; every field NULL or 0 means that
 * criterion is not applied.  The lists are comma-separated as the tools'
 * options take them; a window's time of day is on the log's clock anchor.
 * ids: events by ID, for programs (with events: either one passes).
 */
struct lkst_trace_select {
	const char *events;		/* -e IDs, mnemonics or categories */
	const char *pids;		/* -p */
	const char *comms;		/* -n NAME or PREFIX* */
	const char *window;		/* -t START,END */
	const char *cpus;		/* -c */
	const char *where;		/* --where EXPR, lkm filter's language */
	const unsigned int *ids;
	unsigned int nr_ids;
};
/*
 * Replaces the selection; 0, or -1 with err set naming the first bad list
 * (checked in the order above).  Iterators made before keep working with
 * the new one.
 */
int lkst_trace_select(struct lkst_trace *t, const struct lkst_trace_select *sel,
		      struct lkst_err *err);
/* Whether any criterion is set. */
int lkst_trace_selecting(const struct lkst_trace *t);

/* lkst_trace_iter_new() flags. */
#define LKST_ITER_COMMS		0x1	/* learn command names (lkst_trace_comms) */
#define LKST_ITER_ALL		0x2	/* every record, selected or not (state) */

/* One record an iterator hands on. */
struct lkst_trace_rec {
	const struct lkst_record *rec;
	unsigned int cpu;		/* the CPU that recorded it */
	unsigned int section;		/* its CPU section in the file */
	__u64 index;			/* its position there, as stored */
};

/*
 * An iterator at the first record, merging every section; NULL with err
 * set when out of memory.  A selection by command name learns names
 * whatever the flags.  A mapped log's pages a merge has passed are given
 * back, so memory stays bounded however big the file is.
 */
struct lkst_trace_iter *lkst_trace_iter_new(struct lkst_trace *t, unsigned int flags,
					    struct lkst_err *err);
void lkst_trace_iter_free(struct lkst_trace_iter *it);
/* The next selected record: 1 with *out filled, 0 at the end. */
int lkst_trace_next(struct lkst_trace_iter *it, struct lkst_trace_rec *out);
/* Back to the first record of every section (learned names are kept). */
void lkst_trace_rewind(struct lkst_trace_iter *it);
/*
 * From the start again, over section alone in time order (ties in stored
 * order); a section past the last one ends at once.
 */
void lkst_trace_rewind_section(struct lkst_trace_iter *it, unsigned int section);
/* Command names learned so far (text shows them), or NULL without any. */
const struct lkst_comm_map *lkst_trace_comms(const struct lkst_trace_iter *it);

#ifdef __cplusplus
}
#endif

#endif /* LKST_LOGIO_H */
