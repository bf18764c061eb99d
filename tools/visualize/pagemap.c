// SPDX-License-Identifier: GPL-2.0
/*
 * lkst-pagemap's model: the set of pages the selected processes hold,
 * fed one MEM_PAGE_* event at a time (rules in pagemap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pagemap.h"

/* ---- PFN set: linear probing, deletion by backward shift ------------- */

static size_t slot_of(const struct pm_set *s, uint64_t pfn)
{
	uint64_t h = (pfn + 1) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (s->cap - 1);
}

static size_t find(const struct pm_set *s, uint64_t pfn)
{
	size_t i;

	if (!s->cap)
		return SIZE_MAX;
	for (i = slot_of(s, pfn); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == pfn + 1)
			return i;
	return SIZE_MAX;
}

static int set_grow(struct pm_set *s)
{
	struct pm_set n = { .cap = s->cap ? s->cap * 2 : 1024 };
	size_t i;

	n.slot = calloc(n.cap, sizeof(*n.slot));
	if (!n.slot)
		return -1;
	for (i = 0; i < s->cap; i++) {
		size_t j;

		if (!s->slot[i])
			continue;
		for (j = slot_of(&n, s->slot[i] - 1); n.slot[j]; j = (j + 1) & (n.cap - 1))
			;
		n.slot[j] = s->slot[i];
		n.count++;
	}
	free(s->slot);
	*s = n;
	return 0;
}

/* 1 if added, 0 if already there, -1 out of memory. */
static int set_add(struct pm_set *s, uint64_t pfn)
{
	size_t i;

	if (find(s, pfn) != SIZE_MAX)
		return 0;
	if ((s->count + 1) * 2 > s->cap && set_grow(s))
		return -1;
	for (i = slot_of(s, pfn); s->slot[i]; i = (i + 1) & (s->cap - 1))
		;
	s->slot[i] = pfn + 1;
	s->count++;
	return 1;
}

/* 1 if removed, 0 if absent. */
static int set_del(struct pm_set *s, uint64_t pfn)
{
	size_t i = find(s, pfn), j, home;

	if (i == SIZE_MAX)
		return 0;
	s->slot[i] = 0;
	s->count--;
	/* Move back any entry of the cluster that probed past the hole. */
	for (j = (i + 1) & (s->cap - 1); s->slot[j]; j = (j + 1) & (s->cap - 1)) {
		home = slot_of(s, s->slot[j] - 1);
		if (((j - home) & (s->cap - 1)) >= ((j - i) & (s->cap - 1))) {
			s->slot[i] = s->slot[j];
			s->slot[j] = 0;
			i = j;
		}
	}
	return 1;
}

/* ---- Arrays -------------------------------------------------------- */

static int push(struct pm_array *a, const void *item, size_t size)
{
	if (a->count == a->cap) {
		size_t n = a->cap ? a->cap * 2 : 256;
		void *p = realloc(a->v, n * size);

		if (!p)
			return -1;
		a->v = p;
		a->cap = n;
	}
	memcpy((char *)a->v + a->count++ * size, item, size);
	return 0;
}

/* ---- Model --------------------------------------------------------- */

void pm_init(struct pm_map *m, const uint32_t *pids, size_t nr_pids)
{
	memset(m, 0, sizeof(*m));
	m->pids = pids;
	m->nr_pids = nr_pids;
}

void pm_free(struct pm_map *m)
{
	free(m->held.slot);
	free(m->allocs.v);
	free(m->frees.v);
	free(m->early_frees.v);
	free(m->runs.v);
	free(m->levels.v);
	memset(m, 0, sizeof(*m));
}

int pm_selected(const struct pm_map *m, uint32_t pid)
{
	size_t i;

	if (!m->pids)
		return 1;
	for (i = 0; i < m->nr_pids; i++)
		if (m->pids[i] == pid)
			return 1;
	return 0;
}

static void see_pfns(struct pm_map *m, uint64_t first, uint64_t pages)
{
	uint64_t last = first + (pages ? pages - 1 : 0);

	if (!m->have_pfn || first < m->pfn_min)
		m->pfn_min = first;
	if (!m->have_pfn || last > m->pfn_max)
		m->pfn_max = last;
	m->have_pfn = 1;
}

static int level(struct pm_map *m, uint64_t time_ns)
{
	struct pm_level l = { time_ns, pm_held(m) };

	if (l.held > m->max_held)
		m->max_held = l.held;
	if (m->sink)
		return m->sink->level(m->sink->arg, &l);
	return push(&m->levels, &l, sizeof(l));
}

/* A point of kind (0 allocation, 1 free, 2 early free) to its array or sink. */
static int point(struct pm_map *m, int kind, const struct pm_point *p)
{
	struct pm_array *a[] = { &m->allocs, &m->frees, &m->early_frees };

	if (m->sink)
		return m->sink->point(m->sink->arg, kind, p);
	return push(a[kind], p, sizeof(*p));
}

/* Orders above 20 are not buddy orders; keep a corrupt record from looping. */
#define PM_MAX_ORDER	20

static int alloc(struct pm_map *m, const struct pm_event *ev)
{
	uint64_t n = 1ull << ev->order, i, missed = 0;
	int mine = pm_selected(m, ev->pid), rc;
	struct pm_point p = { ev->time_ns, ev->pfn, ev->order, ev->pid, n };

	for (i = 0; i < n; i++) {
		if (!mine) {
			missed += set_del(&m->held, ev->pfn + i);
			continue;
		}
		rc = set_add(&m->held, ev->pfn + i);
		if (rc < 0)
			return -1;
		missed += !rc;
	}
	m->missed_pages += missed;
	if (!mine)
		return missed ? level(m, ev->time_ns) : 0;
	m->nr_allocs++;
	m->allocated_pages += n;
	see_pfns(m, ev->pfn, n);
	if (point(m, 0, &p))
		return -1;
	return level(m, ev->time_ns);
}

static int free_pages(struct pm_map *m, const struct pm_event *ev)
{
	uint64_t n = 1ull << ev->order, i, returned = 0;
	struct pm_point p = { ev->time_ns, ev->pfn, ev->order, ev->pid, 0 };

	for (i = 0; i < n; i++)
		returned += set_del(&m->held, ev->pfn + i);
	if (returned) {
		p.pages = returned;
		m->nr_frees++;
		m->freed_pages += returned;
		see_pfns(m, ev->pfn, n);
		if (point(m, 1, &p))
			return -1;
		return level(m, ev->time_ns);
	}
	if (!pm_selected(m, ev->pid))
		return 0;
	p.pages = n;
	m->nr_early_frees++;
	m->early_freed_pages += n;
	see_pfns(m, ev->pfn, n);
	return point(m, 2, &p);
}

static int snapshot(struct pm_map *m, const struct pm_event *ev)
{
	struct pm_run r = { ev->time_ns, ev->snapshot, ev->target, ev->vaddr,
			    ev->pfn, ev->pages };

	if (!pm_selected(m, ev->target) || !ev->pages)
		return 0;
	if (!m->nr_snapshots || ev->snapshot != m->last_snapshot) {
		m->nr_snapshots++;
		m->last_snapshot = ev->snapshot;
		m->last_snapshot_ns = ev->time_ns;
		m->last_snapshot_pages = 0;
		m->last_snapshot_runs = 0;
	}
	m->last_snapshot_pages += ev->pages;
	m->last_snapshot_runs++;
	see_pfns(m, ev->pfn, ev->pages);
	m->nr_runs++;
	if (m->sink)
		return m->sink->run(m->sink->arg, &r);
	return push(&m->runs, &r, sizeof(r));
}

int pm_feed(struct pm_map *m, const struct pm_event *ev)
{
	if (!m->have_time)
		m->first_ns = ev->time_ns;
	m->have_time = 1;
	m->last_ns = ev->time_ns;
	switch (ev->type) {
	case PM_ALLOC:
		return ev->order > PM_MAX_ORDER ? 0 : alloc(m, ev);
	case PM_FREE:
		return ev->order > PM_MAX_ORDER ? 0 : free_pages(m, ev);
	case PM_SNAPSHOT:
		return snapshot(m, ev);
	}
	return 0;
}
