// SPDX-License-Identifier: GPL-2.0
/*
 * The visualizers' input reader (evarray.h): logs through liblkst's trace
 * reader, CSVs read into sorted arrays.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evarray.h"

void *viz_grow(void *ev, size_t count, size_t *cap, size_t size)
{
	size_t n;
	void *p;

	if (count < *cap)
		return ev;
	n = *cap ? *cap * 2 : 256;
	p = realloc(ev, n * size);
	if (p)
		*cap = n;
	return p;
}

/* Input position, so that sorting keeps records of equal time in order. */
struct keyed {
	uint64_t time_ns;
	unsigned int cpu;
	size_t seq;
};

static int compare_keys(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Per-CPU log sections (or a hand-edited CSV) are not in global time order. */
int viz_sort_events(void *ev, size_t count, size_t size, size_t time_off,
		    size_t cpu_off, struct lkst_err *err)
{
	struct keyed *k = calloc(count ? count : 1, sizeof(*k));
	char *copy = malloc(count ? count * size : 1);
	char *base = ev;
	size_t i;

	if (!k || !copy) {
		free(k);
		free(copy);
		lkst_seterr(err, "out of memory sorting %zu events", count);
		return -1;
	}
	for (i = 0; i < count; i++) {
		memcpy(&k[i].time_ns, base + i * size + time_off, sizeof(k[i].time_ns));
		memcpy(&k[i].cpu, base + i * size + cpu_off, sizeof(k[i].cpu));
		k[i].seq = i;
	}
	qsort(k, count, sizeof(*k), compare_keys);
	if (count)
		memcpy(copy, base, count * size);
	for (i = 0; i < count; i++)
		memcpy(base + i * size, copy + k[i].seq * size, size);
	free(copy);
	free(k);
	return 0;
}

int viz_log_open(struct viz_log *l, const char *path, struct lkst_err *err)
{
	memset(l, 0, sizeof(*l));
	l->trace = lkst_trace_open(path, 0, err);
	if (!l->trace)
		return -1;
	l->iter = lkst_trace_iter_new(l->trace, 0, err);
	if (!l->iter) {
		lkst_trace_close(l->trace);
		l->trace = NULL;
		return -1;
	}
	return 0;
}

void viz_log_close(struct viz_log *l)
{
	lkst_trace_iter_free(l->iter);
	lkst_trace_close(l->trace);
	memset(l, 0, sizeof(*l));
}

/* ---- Inputs --------------------------------------------------------- */

int viz_events_push(struct viz_events *e, const void *ev, size_t size)
{
	char *p = viz_grow(e->ev, e->count, &e->cap, size);

	if (!p)
		return -1;
	e->ev = p;
	memcpy(p + e->count++ * size, ev, size);
	return 0;
}

void viz_events_free(struct viz_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}

int viz_read_csv(const struct viz_kind *kind, const char *path, int partial_ok,
		 struct viz_events *out, struct lkst_err *err)
{
	memset(out, 0, sizeof(*out));
	if (csv_read(path, kind->what, partial_ok, kind->csv_row, out, err))
		return -1;
	return viz_sort_events(out->ev, out->count, kind->size, kind->time_off,
			       kind->cpu_off, err);
}

/* The log's records of the kind's events, through the reader's selection. */
static int walk_log(struct viz_log *l, const struct viz_kind *kind, viz_event_fn fn,
		    void *ctx, struct lkst_err *err)
{
	struct lkst_trace_select sel = { .ids = kind->ids, .nr_ids = kind->nr_ids };
	struct lkst_trace_rec r;
	union {
		char bytes[256];
		uint64_t align;
	} ev;

	if (kind->size > sizeof(ev)) {
		lkst_seterr(err, "an event of %zu bytes is too big", kind->size);
		return -1;
	}
	if (lkst_trace_select(l->trace, &sel, err))
		return -1;
	lkst_trace_rewind(l->iter);
	while (lkst_trace_next(l->iter, &r)) {
		kind->from_record(r.rec, r.cpu, &ev);
		if (fn(&ev, ctx, err))
			return -1;
	}
	return 0;
}

int viz_walk(struct viz_input *in, const struct viz_kind *kind, viz_event_fn fn,
	     void *ctx, struct lkst_err *err)
{
	size_t i;

	if (in->log)
		return walk_log(in->log, kind, fn, ctx, err);
	if (!in->read) {
		if (viz_read_csv(kind, in->csv_file, in->partial_ok, &in->csv, err))
			return -1;
		in->read = 1;
	}
	for (i = 0; i < in->csv.count; i++)
		if (fn((const char *)in->csv.ev + i * kind->size, ctx, err))
			return -1;
	return 0;
}

void viz_input_free(struct viz_input *in)
{
	viz_events_free(&in->csv);
	in->read = 0;
}
