// SPDX-License-Identifier: GPL-2.0
/*
 * Event arrays of the visualizers' inputs (evarray.h).
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
	if (lkst_log_load(path, &l->log, err))
		return -1;
	if (lkst_log_use_events(&l->log, err) ||
	    lkst_log_merge_init(&l->merge, &l->log, err)) {
		lkst_log_free(&l->log);
		return -1;
	}
	l->open = 1;
	return 0;
}

int viz_log_walk(struct viz_log *l, viz_record_fn record, void *ctx,
		 struct lkst_err *err)
{
	const struct lkst_record *r;
	unsigned int s;

	lkst_log_merge_rewind(&l->merge);
	while ((r = lkst_log_merge_next(&l->merge, &s)))
		if (record(r, l->log.sections[s].info.cpu, ctx, err))
			return -1;
	return 0;
}

void viz_log_close(struct viz_log *l)
{
	if (!l->open)
		return;
	lkst_log_merge_free(&l->merge);
	lkst_log_free(&l->log);
	l->open = 0;
}
