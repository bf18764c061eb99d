/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page series of lkst-pagemap, with no I/O: MEM_PAGE_ALLOC and
 * MEM_PAGE_FREE records become the pages the selected processes were
 * given and gave back, and MEM_PAGE_SNAPSHOT records the runs of pages
 * they mapped at each snapshot.
 *
 * Pairing is by PFN, page by page: an allocation of order N by a selected
 * process holds pages pfn..pfn+2^N-1; a free of any order returns those of
 * its pages that are held, whoever frees them (the kernel often frees a
 * process's pages from another context).  A free that returns no held page
 * counts for a selected process only if that process freed it: pages it
 * got before the trace began.  A held page allocated again (by anyone)
 * means its free was lost: it is "missed" and no longer held.
 */
#ifndef LKST_PAGEMAP_H
#define LKST_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

enum pm_type { PM_ALLOC, PM_FREE, PM_SNAPSHOT };

struct pm_event {
	uint64_t time_ns;
	uint32_t cpu;
	uint32_t pid;		/* the record's: allocating or freeing task */
	enum pm_type type;
	uint64_t pfn;		/* first page */
	uint32_t order;		/* ALLOC, FREE */
	uint64_t gfp;		/* ALLOC */
	uint32_t target;	/* SNAPSHOT: the process walked */
	uint64_t vaddr;		/* SNAPSHOT: first virtual address of the run */
	uint64_t pages;		/* SNAPSHOT: pages in the run */
	uint64_t snapshot;	/* SNAPSHOT: its number */
};

/* One allocation or free drawn: pages is what it gave to or took from the set. */
struct pm_point {
	uint64_t time_ns;
	uint64_t pfn;
	uint32_t order;
	uint32_t pid;
	uint64_t pages;
};

struct pm_run {
	uint64_t time_ns;
	uint64_t snapshot;
	uint32_t pid;
	uint64_t vaddr, pfn, pages;
};

/* Pages held after an event, for the held-pages line. */
struct pm_level {
	uint64_t time_ns;
	uint64_t held;
};

struct pm_array {
	void *v;
	size_t count, cap;
};

/* Open-addressing set of held PFNs. */
struct pm_set {
	uint64_t *slot;		/* pfn + 1, 0 = empty */
	size_t count, cap;
};

/*
 * Where a map's points, runs and levels go instead of its arrays (each in
 * time order): memory is then bounded by the pages held, not the events.
 * kind: 0 allocation, 1 free, 2 early free.  Non-zero fails the feed.
 */
struct pm_sink {
	int (*point)(void *arg, int kind, const struct pm_point *p);
	int (*run)(void *arg, const struct pm_run *r);
	int (*level)(void *arg, const struct pm_level *l);
	void *arg;
};

struct pm_map {
	/* selection: NULL = every process */
	const uint32_t *pids;
	size_t nr_pids;

	struct pm_set held;
	struct pm_array allocs;		/* struct pm_point */
	struct pm_array frees;		/* frees of pages allocated in the trace */
	struct pm_array early_frees;	/* frees of pages from before the trace */
	struct pm_array runs;		/* struct pm_run */
	struct pm_array levels;		/* struct pm_level */

	uint64_t nr_allocs, allocated_pages;
	uint64_t nr_frees, freed_pages;
	uint64_t nr_early_frees, early_freed_pages;
	uint64_t missed_pages;
	int have_pfn;
	uint64_t pfn_min, pfn_max;	/* over allocations, frees and runs drawn */
	uint64_t nr_snapshots;		/* distinct snapshot numbers seen */
	uint64_t last_snapshot, last_snapshot_ns;
	uint64_t last_snapshot_pages, last_snapshot_runs;
	uint64_t first_ns, last_ns;	/* of the events fed */
	int have_time;
	uint64_t nr_runs;		/* snapshot runs drawn */
	uint64_t max_held;		/* the highest level */
	const struct pm_sink *sink;	/* NULL: the arrays above */
};

/* pids (kept by reference, sorted by the caller or not) selects processes. */
void pm_init(struct pm_map *m, const uint32_t *pids, size_t nr_pids);
/* After pm_init, before feeding: hand everything drawn to sink instead. */
static inline void pm_set_sink(struct pm_map *m, const struct pm_sink *sink)
{
	m->sink = sink;
}
/* Events in time order.  0 or -1 when out of memory. */
int pm_feed(struct pm_map *m, const struct pm_event *ev);
void pm_free(struct pm_map *m);

int pm_selected(const struct pm_map *m, uint32_t pid);
static inline uint64_t pm_held(const struct pm_map *m)
{
	return m->held.count;
}

#define PM_AT(arr, type, i)	(((type *)(arr).v)[i])

#endif /* LKST_PAGEMAP_H */
