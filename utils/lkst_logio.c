// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkst log files: what a loaded log gives (its metadata, its losses, all
 * its sections merged in time order).  Writing is in lkst_logwrite.c,
 * loading in lkst_logload.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_logio.h"
#include "lkst_logio_int.h"

_Static_assert(sizeof(struct lkst_record) == LKST_RECORD_SIZE, "record size");
_Static_assert(sizeof(struct lkst_log_header) % 8 == 0, "header keeps records aligned");
_Static_assert(sizeof(struct lkst_log_cpu) % 8 == 0, "cpu header keeps records aligned");
_Static_assert(sizeof(struct lkst_log_cpu_v1) == 40, "version 1 cpu header");

/* ---- The handle -------------------------------------------------------- */

/* A new handle filled by one of the logio_* loaders (rc their result). */
static struct lkst_log *log_alloc(struct lkst_err *err)
{
	struct lkst_log *log = calloc(1, sizeof(*log));

	if (!log)
		lkst_seterr(err, "out of memory; free some memory");
	return log;
}

static struct lkst_log *log_done(struct lkst_log *log, int rc)
{
	if (rc) {
		free(log);
		return NULL;
	}
	return log;
}

struct lkst_log *lkst_log_parse(void *image, size_t len, struct lkst_err *err)
{
	struct lkst_log *log = log_alloc(err);

	return log ? log_done(log, logio_parse(image, len, log, err)) : NULL;
}

struct lkst_log *lkst_log_load(const char *path, struct lkst_err *err)
{
	struct lkst_log *log = log_alloc(err);

	return log ? log_done(log, logio_load(path, log, err)) : NULL;
}

struct lkst_log *lkst_log_load_files(const char *const *paths, unsigned int n,
				     struct lkst_err *err)
{
	struct lkst_log *log = log_alloc(err);

	return log ? log_done(log, logio_load_files(paths, n, log, err)) : NULL;
}

struct lkst_log *lkst_log_load_dir(const char *dir, struct lkst_err *err)
{
	struct lkst_log *log = log_alloc(err);

	return log ? log_done(log, logio_load_dir(dir, log, err)) : NULL;
}

struct lkst_log *lkst_log_join(const struct lkst_log *const *logs,
			       const char *const *paths, unsigned int n,
			       struct lkst_err *err)
{
	struct lkst_log *log = log_alloc(err);

	return log ? log_done(log, logio_join(logs, paths, n, log, err)) : NULL;
}

void lkst_log_free(struct lkst_log *log)
{
	if (!log)
		return;
	logio_release(log);
	free(log);
}

const struct lkst_log_header *lkst_log_get_header(const struct lkst_log *log)
{
	return &log->header;
}

unsigned int lkst_log_nr_sections(const struct lkst_log *log)
{
	return log->nr_sections;
}

const struct lkst_log_section *lkst_log_get_section(const struct lkst_log *log,
						    unsigned int i)
{
	return i < log->nr_sections ? &log->sections[i] : NULL;
}

unsigned int lkst_log_nr_meta(const struct lkst_log *log)
{
	return log->nr_meta;
}

const void *lkst_log_get_meta(const struct lkst_log *log, unsigned int i,
			      __u32 *type, size_t *len)
{
	if (i >= log->nr_meta)
		return NULL;
	if (type)
		*type = log->meta[i].type;
	if (len)
		*len = log->meta[i].len;
	return log->meta[i].data;
}

const void *lkst_log_image(const struct lkst_log *log, size_t *len)
{
	if (len)
		*len = log->image_len;
	return log->image;
}

int lkst_log_mapped(const struct lkst_log *log)
{
	return log->mapped;
}

/* ---- Metadata ---------------------------------------------------------- */

const void *lkst_log_meta(const struct lkst_log *log, __u32 type, size_t *len)
{
	unsigned int i;

	for (i = 0; i < log->nr_meta; i++) {
		if (log->meta[i].type == type) {
			if (len)
				*len = log->meta[i].len;
			return log->meta[i].data;
		}
	}
	return NULL;
}

int lkst_log_use_events(const struct lkst_log *log, struct lkst_err *err)
{
	if (!log->events) {
		lkst_events_use_builtin();
		return 0;
	}
	return lkst_events_use(log->events, log->nr_events, sizeof(*log->events), err);
}

const char *lkst_log_source(const struct lkst_log *log)
{
	const char *text;
	size_t len;

	text = lkst_log_meta(log, LKST_META_SOURCE, &len);
	if (!text || !len || memchr(text, 0, len) != text + len - 1)
		return NULL;
	return text;
}

/* ---- Losses ------------------------------------------------------------ */

int lkst_log_next_gap(const struct lkst_log_section *sec, __u64 *pos,
		      struct lkst_log_gap *gap)
{
	__u64 i, n = sec->info.nr_records, from, to;

	if (!sec->seqs)
		return 0;
	for (i = *pos; i <= n; i++) {
		from = i ? sec->seqs[i - 1] + 1 : sec->info.seq_start;
		to = i < n ? sec->seqs[i] : sec->info.seq_end;
		if (to > from) {
			gap->first = from;
			gap->last = to - 1;
			gap->index = i;
			*pos = i + 1;
			return 1;
		}
	}
	*pos = n + 1;
	return 0;
}

int lkst_log_gap_in_missing_file(const struct lkst_log *log,
				 const struct lkst_log_section *sec,
				 const struct lkst_log_gap *gap)
{
	unsigned int i;

	for (i = 0; i < log->nr_file_gaps; i++) {
		const struct lkst_log_file_gap *g = &log->file_gaps[i];

		if (g->cpu == sec->info.cpu && g->first <= gap->last && gap->first <= g->last)
			return 1;
	}
	return 0;
}

__u64 lkst_log_lost_before(const struct lkst_log_section *sec)
{
	const struct lkst_log_cpu *c = &sec->info;

	if (!sec->seqs)
		return c->overwritten;
	return c->overwritten >= c->seq_start + c->lost ? c->seq_start : 0;
}

/* ---- All sections in time order --------------------------------------- */

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
static int init_run(const struct lkst_log_section *sec, struct lkst_log_run *run,
		    struct lkst_err *err)
{
	__u64 i, n = sec->info.nr_records;
	struct sort_key *keys;

	run->sec = sec;
	run->order = NULL;
	run->next = 0;
	run->release = 0;
	if (sec->time_ordered)
		return 0;
	for (i = 1; i < n; i++)
		if (sec->records[i].time_ns < sec->records[i - 1].time_ns)
			break;
	if (i >= n)
		return 0;
	keys = malloc(n * sizeof(*keys));
	run->order = malloc(n * sizeof(*run->order));
	if (!keys || !run->order) {
		free(keys);
		free(run->order);
		run->order = NULL;
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

/*
 * The merge picks the run whose next record is first by time, then by CPU,
 * then by section: a min-heap of those keys, one entry per run with records
 * left (no two keys are equal, so the order is the one a scan would give).
 */
static int head_before(const struct lkst_log_head *a, const struct lkst_log_head *b)
{
	if (a->time_ns != b->time_ns)
		return a->time_ns < b->time_ns;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	return a->run < b->run;
}

static void sift_down(struct lkst_log_head *heap, unsigned int len, unsigned int i)
{
	struct lkst_log_head h = heap[i];
	unsigned int c;

	while ((c = 2 * i + 1) < len) {
		if (c + 1 < len && head_before(&heap[c + 1], &heap[c]))
			c++;
		if (!head_before(&heap[c], &h))
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = h;
}

static void build_heap(struct lkst_log_merge *m)
{
	unsigned int s, i;

	m->heap_len = 0;
	for (s = 0; s < m->log->nr_sections; s++) {
		const struct lkst_log_run *run = &m->runs[s];

		if (run->next >= run->sec->info.nr_records)
			continue;
		m->heap[m->heap_len].time_ns = lkst_log_run_record(run, run->next)->time_ns;
		m->heap[m->heap_len].cpu = run->sec->info.cpu;
		m->heap[m->heap_len].run = s;
		m->heap_len++;
	}
	for (i = m->heap_len / 2; i-- > 0;)
		sift_down(m->heap, m->heap_len, i);
}

struct lkst_log_merge *lkst_log_merge_new(const struct lkst_log *log, struct lkst_err *err)
{
	unsigned int s, n = log->nr_sections ? log->nr_sections : 1;
	struct lkst_log_merge *m = calloc(1, sizeof(*m));

	if (m) {
		m->log = log;
		m->runs = calloc(n, sizeof(*m->runs));
		m->heap = calloc(n, sizeof(*m->heap));
	}
	if (!m || !m->runs || !m->heap) {
		lkst_log_merge_free(m);
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	for (s = 0; s < log->nr_sections; s++) {
		if (init_run(&log->sections[s], &m->runs[s], err)) {
			lkst_log_merge_free(m);
			return NULL;
		}
	}
	build_heap(m);
	return m;
}

void lkst_log_merge_free(struct lkst_log_merge *m)
{
	unsigned int s;

	if (!m)
		return;
	for (s = 0; m->runs && s < m->log->nr_sections; s++)
		free(m->runs[s].order);
	free(m->runs);
	free(m->heap);
	free(m);
}

void lkst_log_merge_rewind(struct lkst_log_merge *m)
{
	unsigned int s;

	for (s = 0; s < m->log->nr_sections; s++)
		m->runs[s].next = m->runs[s].release = 0;
	build_heap(m);
}

/* A mapped run in stored order gives back the records it has passed. */
static void release_behind(struct lkst_log_run *run)
{
	release_range(1, &run->sec->records[run->release], &run->sec->records[run->next]);
	run->release = run->next;
}

const struct lkst_record *lkst_log_merge_next(struct lkst_log_merge *m,
					      unsigned int *section)
{
	const struct lkst_record *rec;
	struct lkst_log_run *run;
	unsigned int s;

	if (!m->heap_len)
		return NULL;
	s = m->heap[0].run;
	run = &m->runs[s];
	rec = lkst_log_run_record(run, run->next);
	if (++run->next < run->sec->info.nr_records)
		m->heap[0].time_ns = lkst_log_run_record(run, run->next)->time_ns;
	else
		m->heap[0] = m->heap[--m->heap_len];
	if (m->heap_len > 1)
		sift_down(m->heap, m->heap_len, 0);
	if (run->next - run->release >= RELEASE_RECORDS && m->log->mapped && !run->order)
		release_behind(run);
	*section = s;
	return rec;
}
