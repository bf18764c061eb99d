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

/**
 * lkst_log_header_init() - fill a log header's fixed fields
 * @h: the header to fill
 *
 * Clears @h and sets the fields that do not come from the kernel, the
 * ones every log this library writes has: the magic, byte order, format
 * version, header and record sizes, the number of event IDs, the clock
 * (%LKST_CLOCK_MONOTONIC), the tracer's ABI version and the record
 * layout.  The caller fills in the rest (the clock anchor, the host
 * name, ...) before lkst_log_create().
 */
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

/**
 * lkst_log_create() - start writing a log file
 * @path: the log's final name; "-" is standard output; a name ending in
 *        ".zst" is written compressed
 * @h: the header (lkst_log_header_init() and the caller's fields), copied
 * @err: the message, when it fails
 *
 * Creates @path.tmp (or, for a compressed log or standard output, an
 * unnamed temporary file), writes @h to it and adds the calling thread's
 * active event table as the log's %LKST_META_EVENTS section, so that the
 * log names its records as they are named now.  The CPU sections follow
 * (lkst_log_write_cpu()), metadata may be added any time
 * (lkst_log_add_meta()); lkst_log_commit() gives the file its name, and
 * lkst_log_abort() removes it.
 *
 * Return: a new writer, which lkst_log_commit() or lkst_log_abort() frees;
 * NULL with @err set, nothing left behind.
 */
struct lkst_log_writer *lkst_log_create(const char *path, const struct lkst_log_header *h,
					struct lkst_err *err);
/**
 * lkst_log_add_meta() - add a metadata section to a log being written
 * @w: the writer (lkst_log_create())
 * @type: the section's type, an %LKST_META_* value of lkst_log.h
 * @data: the section's bytes, copied (the caller keeps them)
 * @len: how many bytes
 * @err: the message, when it fails
 *
 * The section is written after the CPU sections, at the commit, in the
 * order added.
 *
 * Return: 0, or -1 with @err set (out of memory); @w is still the
 * caller's to commit or abort.
 */
int lkst_log_add_meta(struct lkst_log_writer *w, __u32 type, const void *data,
		      size_t len, struct lkst_err *err);
/**
 * lkst_log_meta_bytes(), lkst_log_event_table_bytes() - room metadata takes in a log
 * @payload: the bytes of a section's data
 *
 * lkst_log_meta_bytes() is what a metadata section of @payload bytes
 * takes in the file: its header, the data and the padding to 8 bytes.
 * lkst_log_event_table_bytes() is what lkst_log_create() writes for the
 * active event table, so that a writer can keep a file under a size.
 *
 * Return: a size in bytes.
 */
size_t lkst_log_meta_bytes(size_t payload);
size_t lkst_log_event_table_bytes(void);
/**
 * lkst_log_write_cpu_seqs(), lkst_log_write_cpu() - write one CPU's section
 * @w: the writer (lkst_log_create())
 * @cpu: the section's header: the CPU, nr_records, the sequence range
 *       (seq_start, seq_end), lost and the kernel's counters
 * @records: @cpu->nr_records records, in the order they were written
 * @seqs: their sequence numbers, or NULL for seq_start, seq_start + 1, ...
 * @err: the message, when it fails
 *
 * Appends a CPU section to the log.  Without @seqs (and always with
 * lkst_log_write_cpu()) the records are numbered from @cpu->seq_start on,
 * and a seq_end of 0 with no loss stands for seq_start + nr_records.  The
 * numbers must fill the range as lkst_log.h says: nr_records + lost =
 * seq_end - seq_start, each number increasing and in [seq_start,
 * seq_end); a section that does not is refused, so that the file reads
 * back.
 *
 * Return: 0, or -1 with @err set (numbers that do not fit the range, or a
 * write error); @w is then still the caller's, to abort.
 */
int lkst_log_write_cpu_seqs(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
			    const struct lkst_record *records, const __u64 *seqs,
			    struct lkst_err *err);
int lkst_log_write_cpu(struct lkst_log_writer *w, const struct lkst_log_cpu *cpu,
		       const struct lkst_record *records, struct lkst_err *err);
/**
 * lkst_log_set_zstd() - choose whether the commit compresses a log
 * @w: the writer (lkst_log_create())
 * @on: 1: compress with zstd at the commit; 0: write the plain log
 *
 * Overrides what the path's ".zst" ending chose.  The compressed file is
 * standard zstd frames: zstd -d gives the plain log.
 */
void lkst_log_set_zstd(struct lkst_log_writer *w, int on);
/**
 * lkst_log_commit() - finish a log and give it its name
 * @w: the writer (lkst_log_create()), freed either way
 * @err: the message, when it fails
 *
 * Writes the metadata sections and the final header, compresses the log
 * when asked, syncs @path.tmp to disk and renames it to the path given to
 * lkst_log_create(), so that a crash never leaves a half file under the
 * final name.  For "-" the log is copied to standard output instead.
 *
 * Return: 0, or -1 with @err set and @path.tmp removed.
 */
int lkst_log_commit(struct lkst_log_writer *w, struct lkst_err *err);
/**
 * lkst_log_abort() - give up writing a log
 * @w: the writer (lkst_log_create()); NULL does nothing
 *
 * Closes and removes @path.tmp (nothing is written to standard output)
 * and frees @w.
 */
void lkst_log_abort(struct lkst_log_writer *w);

/**
 * lkst_log_parse() - validate a log image in memory
 * @image: the file's bytes, from malloc(3)
 * @len: how many
 * @err: the message, when it fails
 *
 * Checks every size and count of the image against the bytes present, as
 * lkst_log_load() does with a file, and makes a log of it.  The log's
 * sections and metadata point into @image.
 *
 * Return: a new log owning @image (lkst_log_free() frees both), or NULL
 * with @err set and @image still the caller's.
 */
struct lkst_log *lkst_log_parse(void *image, size_t len, struct lkst_err *err);
/**
 * lkst_log_load() - load and validate a log file
 * @path: the file; "-" is standard input; a directory is read as
 *        lkst_log_load_dir() does
 * @err: the message, when it fails
 *
 * Maps a regular file read-only.  Other inputs (a pipe, a device) and a
 * file that starts with a zstd frame are read (and decompressed) first,
 * as the opening comment of lkst_logio.h tells.  The image is then
 * checked as lkst_log_parse() does: a corrupt or hostile file is refused
 * with a message, never read out of bounds.  The map hooks
 * (lkst_log_set_map_hooks()) are told of the mapping.
 *
 * Return: a new log, to free with lkst_log_free(); NULL with @err set.
 *
 * Example:
 *	struct lkst_err err;
 *	struct lkst_log *log = lkst_log_load("trace.log", &err);
 *
 *	if (!log) {
 *		fprintf(stderr, "%s\n", err.msg);
 *		return 1;
 *	}
 *	printf("%u CPU sections\n", lkst_log_nr_sections(log));
 *	lkst_log_free(log);
 */
struct lkst_log *lkst_log_load(const char *path, struct lkst_err *err);
/**
 * lkst_log_free() - free a loaded log
 * @log: the log; NULL does nothing
 *
 * Unmaps or frees its image (telling the map hooks) and frees @log.
 * Everything its accessors returned points into it and goes with it.
 */
void lkst_log_free(struct lkst_log *log);

/**
 * lkst_log_get_header() - a log's header
 * @log: a loaded log
 *
 * Return: the header, valid as long as @log; an older version's header
 * zero-extended to the current struct lkst_log_header.
 */
const struct lkst_log_header *lkst_log_get_header(const struct lkst_log *log);
/**
 * lkst_log_nr_sections(), lkst_log_get_section() - a log's CPU sections
 * @log: a loaded log
 * @i: a section's index in file order, from 0
 *
 * A section holds one CPU's records and their sequence numbers, pointing
 * into the log's image (struct lkst_log_section); a version 1 section has
 * no sequence numbers (seqs NULL).
 *
 * Return: lkst_log_nr_sections(): how many sections @log has.
 * lkst_log_get_section(): section @i, valid as long as @log, or NULL when
 * @i is past the last one.
 */
unsigned int lkst_log_nr_sections(const struct lkst_log *log);
const struct lkst_log_section *lkst_log_get_section(const struct lkst_log *log,
						    unsigned int i);
/**
 * lkst_log_nr_meta(), lkst_log_get_meta() - a log's metadata sections
 * @log: a loaded log
 * @i: a section's index in file order, from 0
 * @type: set to the section's %LKST_META_* type (NULL: not wanted)
 * @len: set to its length in bytes (NULL: not wanted)
 *
 * Only version 3 logs and later have metadata sections.
 *
 * Return: lkst_log_nr_meta(): how many metadata sections @log has (0 for
 * an older log).  lkst_log_get_meta(): section @i's data, in the log's
 * image and valid as long as @log, or NULL (@type and @len untouched)
 * when @i is past the last one.
 */
unsigned int lkst_log_nr_meta(const struct lkst_log *log);
const void *lkst_log_get_meta(const struct lkst_log *log, unsigned int i,
			      __u32 *type, size_t *len);
/**
 * lkst_log_image(), lkst_log_mapped() - a log's file image
 * @log: a loaded log
 * @len: set to the image's length in bytes (NULL: not wanted)
 *
 * The image is the file's bytes as loaded: decompressed when the file
 * was, and for a set of files (lkst_log_load_files()) the joined log.
 *
 * Return: lkst_log_image(): the image, read-only, valid as long as @log.
 * lkst_log_mapped(): 1 when the image is a read-only mapping (which
 * raises SIGBUS when the file under it shrinks:
 * lkst_log_set_map_hooks()), 0 when it is in memory.
 */
const void *lkst_log_image(const struct lkst_log *log, size_t *len);
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
 */

/**
 * lkst_log_load_files(), lkst_log_load_dir(), lkst_log_join() - read several logs of one trace as one
 * @paths: the files in their order (lkst_log_load_files(); one path is
 *         lkst_log_load()); for lkst_log_join(), the names of @logs, used
 *         in messages
 * @n: how many paths (and logs)
 * @dir: a directory: its lkst-*.log and lkst-*.log.zst files, in name
 *       order (lkst_log_load() of a directory does the same)
 * @logs: logs already loaded, which stay the caller's
 * @err: the message, when it fails
 *
 * Joins the files that lkbuf record --rotate writes into one log image,
 * parsed as a file is (the comment above says where it is kept): one
 * section per CPU holding the records of all files in order, seq_start
 * the first file's, seq_end the last's, lost the losses and gaps, the
 * kernel's counters the last file's.  The header and metadata are the
 * first file's, except the kernel symbols and task names, merged from all.
 * The files must be of one boot, host and event table (version 2 or
 * later), and per CPU each must continue the sequence numbers of the one
 * before it: a gap between two is a loss, overlapping numbers are refused.
 *
 * Return: a new log, to free with lkst_log_free(); NULL with @err set.
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

/**
 * lkst_log_set_map_hooks() - be told of the library's file mappings
 * @hooks: the hooks, which must stay valid while set; NULL removes them
 *
 * From now on each mapping lkst_log_load() makes is passed to
 * @hooks->mapped (its start, length and the path as given), and each that
 * lkst_log_free() or a failed load ends to @hooks->unmapped, so that a
 * program can tell a SIGBUS in a log cut short while it is read from one
 * of its own.  Process-wide: set it once, before threads start.
 */
void lkst_log_set_map_hooks(const struct lkst_log_map_hooks *hooks);

/**
 * lkst_log_meta() - a log's metadata section of a type
 * @log: a loaded log
 * @type: an %LKST_META_* type
 * @len: set to the section's length when found (NULL: not wanted)
 *
 * Return: the data of the first section of @type, in the log's image and
 * valid as long as @log, or NULL when the log has none.
 */
const void *lkst_log_meta(const struct lkst_log *log, __u32 type, size_t *len);
/**
 * lkst_log_use_events() - make a log's event table the active one
 * @log: a loaded log
 * @err: the message, when it fails
 *
 * Makes the event table the log was recorded with (%LKST_META_EVENTS,
 * dynamic probes included) the calling thread's active table, copied, so
 * that records are named and decoded as they were written; a version 1 or
 * 2 log, which has none, gets the built-in table.  A trace handle
 * (lkst_trace_open()) does this by itself.
 *
 * Return: 0, or -1 with @err set (a table that does not check out,
 * lkst_events_check(), or out of memory).
 */
int lkst_log_use_events(const struct lkst_log *log, struct lkst_err *err);
/**
 * lkst_log_source() - where a log's records came from
 * @log: a loaded log
 *
 * Return: the text of its %LKST_META_SOURCE section, in the log's image,
 * or NULL when it has none or the text is not one NUL-terminated string.
 */
const char *lkst_log_source(const struct lkst_log *log);

/* ---- Task names (LKST_META_TASKS, lkst_logtasks.c) ------------------- */

/*
 * A table of task names, sorted by pid, one entry per pid: an opaque
 * handle (lkst_logio_int.h has its layout).
 */
struct lkst_tasks;

/**
 * lkst_tasks_new(), lkst_tasks_free(), lkst_tasks_nr(), lkst_tasks_get() - a table of task names
 * @err: the message, when it fails
 * @t: a table; lkst_tasks_free() of NULL does nothing
 * @i: an entry's index in pid order, from 0
 *
 * A table holds one name per pid, sorted by pid (struct lkst_log_task:
 * pid, tgid, comm).  lkst_tasks_new() makes an empty one, lkst_tasks_free()
 * frees it and its entries.
 *
 * Return: lkst_tasks_new(): a new table, or NULL with @err set when out
 * of memory.  lkst_tasks_nr(): how many names @t holds.
 * lkst_tasks_get(): entry @i, valid until @t changes, or NULL past the
 * last one.  lkst_tasks_free() returns nothing.
 */
struct lkst_tasks *lkst_tasks_new(struct lkst_err *err);
void lkst_tasks_free(struct lkst_tasks *t);
size_t lkst_tasks_nr(const struct lkst_tasks *t);
const struct lkst_log_task *lkst_tasks_get(const struct lkst_tasks *t, size_t i);

/**
 * lkst_tasks_put() - add a task's name to a table
 * @t: the table
 * @pid: the task (thread) ID; 0 is not kept
 * @tgid: its thread group (process) ID
 * @comm: its command name: the first 15 bytes are kept; an empty one is
 *        not kept
 * @replace: replace the entry @pid has already (else it is kept)
 * @err: the message, when it fails
 *
 * A table holding %LKST_LOG_TASKS_MAX entries takes no more: the name is
 * left out, which is no error.
 *
 * Return: 0 (also when nothing was added), or -1 with @err set when out
 * of memory.
 */
int lkst_tasks_put(struct lkst_tasks *t, __u32 pid, __u32 tgid, const char *comm,
		   int replace, struct lkst_err *err);
/**
 * lkst_tasks_find() - a pid's entry in a table of task names
 * @t: the table
 * @pid: the task ID
 *
 * Return: the entry, valid until @t changes, or NULL when @pid has none.
 */
const struct lkst_log_task *lkst_tasks_find(const struct lkst_tasks *t, __u32 pid);
/**
 * lkst_tasks_read_pid(), lkst_tasks_scan() - add the names of running tasks
 * @t: the table
 * @proc: where a proc file system is mounted ("/proc")
 * @pid: the thread to add
 * @err: the message, when it fails
 *
 * lkst_tasks_read_pid() adds one thread: its name from @proc/PID/comm and
 * its thread group from the Tgid line of @proc/PID/status; an entry the
 * thread has already is kept.  lkst_tasks_scan() adds every thread of
 * every process (@proc/PID/task/TID), keeping entries too; threads that
 * end while they are read are left out.
 *
 * Return: lkst_tasks_read_pid(): 1 when the thread was added or was known
 * already, 0 when it is gone (or @proc hides it), -1 with @err set when
 * out of memory.  lkst_tasks_scan(): 0, or -1 with @err set when @proc
 * cannot be read or memory runs out.
 */
int lkst_tasks_read_pid(struct lkst_tasks *t, const char *proc, __u32 pid,
			struct lkst_err *err);
int lkst_tasks_scan(struct lkst_tasks *t, const char *proc, struct lkst_err *err);
/**
 * lkst_tasks_load() - check a task names section and load it
 * @blob: an %LKST_META_TASKS section's data
 * @len: its length in bytes
 * @t: the table to fill (emptied first), or NULL only to check
 * @err: the message, when it fails
 *
 * Validates the section strictly, as lkst_log.h lays it out (sizes,
 * entries sorted by pid, names terminated).
 *
 * Return: 0, or -1 with @err saying what is wrong (or out of memory).
 */
int lkst_tasks_load(const void *blob, size_t len, struct lkst_tasks *t,
		    struct lkst_err *err);
/**
 * lkst_log_tasks() - the task names saved with a log
 * @log: a loaded log
 * @t: the table to fill, emptied first (left empty when the log has none)
 * @err: the message, when it fails
 *
 * Return: 0, or -1 with @err set (a bad section, lkst_tasks_load(), or out
 * of memory).
 */
int lkst_log_tasks(const struct lkst_log *log, struct lkst_tasks *t, struct lkst_err *err);
/**
 * lkst_log_add_tasks() - save task names with a log being written
 * @w: the writer (lkst_log_create())
 * @t: the names; an empty table adds nothing
 * @err: the message, when it fails
 *
 * Adds @t as the log's %LKST_META_TASKS section (lkst_log_add_meta()),
 * so that pids the records never name print with their names.
 *
 * Return: 0, or -1 with @err set when out of memory.
 */
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

/**
 * lkst_log_next_gap() - the next loss in a CPU section
 * @sec: a section (lkst_log_get_section())
 * @pos: where the search goes on: 0 at first, then left as this sets it
 * @gap: filled with the gap found: its first and last missing numbers,
 *       and the index of the stored record it comes before (nr_records:
 *       after the last one)
 *
 * Walks the section's sequence numbers for runs of numbers with no
 * record, exactly where they are, one per call.
 *
 * Return: 1 with @gap filled, 0 when no gap is left (always for a
 * version 1 section, which has no numbers).
 */
int lkst_log_next_gap(const struct lkst_log_section *sec, __u64 *pos,
		      struct lkst_log_gap *gap);
/**
 * lkst_log_gap_in_missing_file() - whether a gap is a file missing from a set
 * @log: the log @sec is in
 * @sec: a section of @log
 * @gap: a gap of @sec (lkst_log_next_gap())
 *
 * lkbuf record --rotate writes each file to continue the last, so a gap
 * between two files of a joined set (lkst_log_load_files()) means a file
 * of the set is missing: those records are in no file given, rather than
 * lost in the kernel.
 *
 * Return: 1 when @gap lies, at least partly, between two files of the
 * set; 0 for any other gap, or for a log that is no joined set.
 */
int lkst_log_gap_in_missing_file(const struct lkst_log *log,
				 const struct lkst_log_section *sec,
				 const struct lkst_log_gap *gap);
/**
 * lkst_log_lost_before() - records lost before a section's numbers begin
 * @sec: a section (lkst_log_get_section())
 *
 * From version 2 on every record is numbered from boot, so the seq_start
 * numbers before the section's first were overwritten, unless the file
 * continues an earlier one (lkbuf record), which shows as an overwritten
 * count too small to hold them.
 *
 * Return: how many records were lost before the section begins; for a
 * version 1 section, its overwritten count.
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

/**
 * lkst_log_merge_new(), lkst_log_merge_free(), lkst_log_merge_rewind(), lkst_log_merge_next() - all of a log's records in time order
 * @log: a loaded log, which must outlive the merge
 * @err: the message, when it fails
 * @m: a merge; lkst_log_merge_free() of NULL does nothing
 * @section: set to the index of the section the record is in
 *
 * A merge walks every record of @log in time order: each section in time
 * order (sorted by time, ties in stored order, only when it is not in
 * order already), merged over the sections with ties by CPU, then by
 * section.  lkst_log_merge_next() hands on the next record,
 * lkst_log_merge_rewind() goes back to the first.  It applies no
 * selection: lkst_trace_iter_new() is the reader most programs want.
 *
 * Return: lkst_log_merge_new(): a new merge at the first record, or NULL
 * with @err set when out of memory.  lkst_log_merge_next(): the next
 * record, in the log's image, or NULL at the end.  The others return
 * nothing.
 */
struct lkst_log_merge *lkst_log_merge_new(const struct lkst_log *log, struct lkst_err *err);
void lkst_log_merge_free(struct lkst_log_merge *m);
void lkst_log_merge_rewind(struct lkst_log_merge *m);
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

/**
 * lkst_trace_open(), lkst_trace_open_files() - open a saved trace
 * @path: a log file, "-" for standard input, or a directory of rotated
 *        files (lkst_log_load())
 * @paths: several files of one trace, read as one (lkst_log_load_files());
 *         "-" or a directory only as the only one
 * @n: how many @paths
 * @flags: 0, or %LKST_TRACE_SYMBOLS to load the kernel symbols saved with
 *         the log (lkst_trace_symbols())
 * @err: the message, when it fails
 *
 * Loads the log (mapped, never copied whole) and its event table, and
 * makes that table the calling thread's active one, so that
 * lkst_event_by_id() and the formatters name its records as they were
 * recorded.  The trace selects nothing out until lkst_trace_select().
 *
 * Return: a new trace, to close with lkst_trace_close(); NULL with @err
 * set (the message as lkbuf prints it; for bad symbols, naming the file).
 *
 * Example: examples/lkst_count.c
 */
struct lkst_trace *lkst_trace_open(const char *path, unsigned int flags,
				   struct lkst_err *err);
struct lkst_trace *lkst_trace_open_files(const char *const *paths, unsigned int n,
					 unsigned int flags, struct lkst_err *err);
/**
 * lkst_trace_wrap() - a trace over a log the caller loaded
 * @log: a loaded log, which the caller keeps and frees after the trace
 * @err: the message, when it fails
 *
 * The trace reader (selection, iterators) over @log.  Its event table is
 * not made active here nor by the trace's calls: the caller makes it
 * active (lkst_log_use_events()) as it needs.
 *
 * Return: a new trace, to close with lkst_trace_close(); NULL with @err
 * set when out of memory.
 */
struct lkst_trace *lkst_trace_wrap(const struct lkst_log *log, struct lkst_err *err);
/**
 * lkst_trace_close() - close a trace
 * @t: the trace; NULL does nothing
 *
 * Frees the trace, its selection, its symbols and the log it loaded (not
 * a wrapped one, lkst_trace_wrap()).  When its event table is the calling
 * thread's active one, the built-in table becomes active instead.
 * Iterators over @t must be freed before.
 */
void lkst_trace_close(struct lkst_trace *t);
/**
 * lkst_trace_use_events() - make a trace's event table the active one
 * @t: an opened trace
 *
 * Makes the trace's event table the calling thread's active one, for the
 * formatters and lookups (lkst_event_by_id()) a program calls between two
 * calls of the trace; lkst_trace_open(), lkst_trace_select(),
 * lkst_trace_iter_new() and lkst_trace_next() do it themselves.  Cheap
 * when it is active already.  Nothing for a wrapped log's trace.
 */
void lkst_trace_use_events(const struct lkst_trace *t);

/**
 * lkst_trace_log() - the log a trace reads
 * @t: an opened trace
 *
 * Return: the log, valid until lkst_trace_close() (for a wrapped trace,
 * the caller's log).
 */
const struct lkst_log *lkst_trace_log(const struct lkst_trace *t);
/**
 * lkst_trace_symbols() - the kernel symbols saved with a trace
 * @t: an opened trace
 *
 * Return: the symbol table, loaded by lkst_trace_open() with
 * %LKST_TRACE_SYMBOLS (empty when the log saved none) and valid until
 * lkst_trace_close(); NULL without that flag.
 */
const struct lkst_ksym_table *lkst_trace_symbols(const struct lkst_trace *t);
/**
 * lkst_trace_nr_records() - how many records a trace holds
 * @t: an opened trace
 *
 * Return: the records of all sections, selected or not.
 */
unsigned long long lkst_trace_nr_records(const struct lkst_trace *t);
/**
 * lkst_trace_anchor(), lkst_trace_realtime_offset() - a trace's clock anchor
 * @t: an opened trace
 *
 * The anchor is the log header's pair of times read together:
 * trace time trace_ns was CLOCK_REALTIME realtime_ns.
 *
 * Return: lkst_trace_anchor(): the anchor (zeros when the log has none).
 * lkst_trace_realtime_offset(): realtime_ns - trace_ns, what to add to a
 * record's time for CLOCK_REALTIME (struct lkst_format_opts'
 * realtime_offset_ns).
 */
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
/**
 * lkst_trace_select() - choose the records a trace's iterators hand on
 * @t: an opened trace
 * @sel: the criteria (struct lkst_trace_select); a NULL or 0 field is not
 *       applied, so { 0 } selects every record
 * @err: the message, when it fails
 *
 * Replaces the selection: a record passes when it passes every criterion
 * given (lkst_select_match(), and the --where expression).  The lists
 * are text, as lkbuf print's options take them (lkst_select_events(),
 * lkst_select_pids(), lkst_select_comms(), lkst_parse_window() on the
 * log's clock anchor, lkst_select_cpus()); @sel->ids adds events by ID
 * (either an event of @sel->events or one of @sel->ids passes).  Iterators
 * made before go on with the new selection.
 *
 * Return: 0, or -1 with @err naming the first bad list (checked in the
 * order of the struct; a CPU list none of whose CPUs the trace has is
 * one); the trace then selects nothing out.
 *
 * Example: examples/lkst_count.c
 */
int lkst_trace_select(struct lkst_trace *t, const struct lkst_trace_select *sel,
		      struct lkst_err *err);
/**
 * lkst_trace_selecting() - whether a trace selects
 * @t: an opened trace
 *
 * Return: 1 when any criterion of lkst_trace_select() is set, so that
 * iterators may leave records out; 0 when they hand on every record.
 */
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

/**
 * lkst_trace_iter_new(), lkst_trace_iter_free() - an iterator over a trace's records
 * @t: an opened trace, which must outlive the iterator
 * @flags: 0, or any of %LKST_ITER_COMMS (learn command names as it goes,
 *         lkst_trace_comms()) and %LKST_ITER_ALL (hand on every record,
 *         the selection aside)
 * @err: the message, when it fails
 * @it: an iterator; lkst_trace_iter_free() of NULL does nothing
 *
 * The iterator starts at the first record and merges every section in
 * time order (ties by CPU, then by section).  A selection by command name
 * or a --where expression that tests comm learns names whatever
 * @flags say, starting from the names saved with the log.  A mapped log's
 * pages the merge has passed are given back, so memory stays bounded
 * however big the file is.
 *
 * Return: lkst_trace_iter_new(): a new iterator, to free with
 * lkst_trace_iter_free(); NULL with @err set when out of memory.
 *
 * Example: examples/lkst_count.c
 */
struct lkst_trace_iter *lkst_trace_iter_new(struct lkst_trace *t, unsigned int flags,
					    struct lkst_err *err);
void lkst_trace_iter_free(struct lkst_trace_iter *it);
/**
 * lkst_trace_next() - the next selected record
 * @it: an iterator (lkst_trace_iter_new())
 * @out: filled with the record (in the log's image), the CPU that
 *       recorded it, its section and its index there
 *
 * Makes the trace's event table active, then walks on to the next record
 * the selection passes; every record it passes teaches command names
 * when the iterator learns them.
 *
 * Return: 1 with @out filled, 0 at the end.
 *
 * Example: examples/lkst_count.c
 */
int lkst_trace_next(struct lkst_trace_iter *it, struct lkst_trace_rec *out);
/**
 * lkst_trace_rewind(), lkst_trace_rewind_section() - start an iterator again
 * @it: an iterator (lkst_trace_iter_new())
 * @section: the one section to walk, by index
 *
 * lkst_trace_rewind() goes back to the first record of the merge of every
 * section.  lkst_trace_rewind_section() starts again over @section alone,
 * in time order (ties in stored order); a section past the last one ends
 * at once.  Names learned so far are kept.
 */
void lkst_trace_rewind(struct lkst_trace_iter *it);
void lkst_trace_rewind_section(struct lkst_trace_iter *it, unsigned int section);
/**
 * lkst_trace_comms() - the command names an iterator learned
 * @it: an iterator (lkst_trace_iter_new())
 *
 * Return: the map of names learned so far, for the formatters (struct
 * lkst_format_opts' comms) and lkst_comm_map_name(), valid until
 * lkst_trace_iter_free(); NULL when the iterator learns none.
 */
const struct lkst_comm_map *lkst_trace_comms(const struct lkst_trace_iter *it);

#ifdef __cplusplus
}
#endif

#endif /* LKST_LOGIO_H */
