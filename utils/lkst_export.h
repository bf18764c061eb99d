/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkbuf convert: a log file in the formats other tools open.
 *
 *   CTF 1.8 (lkst_export_ctf.c): a directory of TSDL metadata and one
 *   stream per CPU, for babeltrace2 and Trace Compass.
 *   Chrome trace JSON (lkst_export_json.c): process, thread and CPU tracks
 *   of slices, for Perfetto (ui.perfetto.dev) and chrome://tracing.
 *
 * Both read a loaded log (lkst_logio.h) and decode arguments with
 * lkst_format.c's typed fields, so they show what lkbuf print shows.
 */
#ifndef LKST_EXPORT_H
#define LKST_EXPORT_H

#include "lkst_logio.h"

/* lkbuf convert -f LOG --to ctf|json -o OUT */
int lkbuf_verb_convert(int argc, const char **argv);

/*
 * A CPU section in time order, ties in stored order: as lkbuf print
 * orders it.  order is NULL when the stored order already is.
 */
struct lkst_export_run {
	const struct lkst_log_section *sec;
	__u32 *order;
	__u64 next;		/* merging: position of the next record */
};

struct lkst_export {
	const struct lkst_log *log;
	struct lkst_export_run *runs;	/* one per section */
	unsigned long long records;	/* in all sections */
	/* Progress on stderr, only when it is a terminal. */
	int progress;
	unsigned long long work, done;	/* units: records visited */
	unsigned int last_percent;
	char summary[256];		/* what was made, for the last line */
};

static inline const struct lkst_record *
lkst_run_record(const struct lkst_export_run *run, __u64 i)
{
	return &run->sec->records[run->order ? run->order[i] : i];
}

/* Stored index of the i-th record in time order. */
static inline __u64 lkst_run_index(const struct lkst_export_run *run, __u64 i)
{
	return run->order ? run->order[i] : i;
}

/* Rewinds the merge of all sections. */
void lkst_export_rewind(struct lkst_export *x);

/*
 * The next record of all CPUs in time order, ties by CPU, then by
 * section, exactly as lkbuf print merges them, and its section's index;
 * NULL at the end.
 */
const struct lkst_record *lkst_export_next(struct lkst_export *x, unsigned int *section);

/* Counts n units of work done, redrawing the percentage when it moves. */
void lkst_export_step(struct lkst_export *x, unsigned long long n);

/* Both return 0, or -1 with err set (then the output is incomplete). */
int lkst_export_ctf(struct lkst_export *x, const char *dir, struct lkst_err *err);
int lkst_export_json(struct lkst_export *x, const char *path, struct lkst_err *err);

#endif /* LKST_EXPORT_H */
