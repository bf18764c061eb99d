// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the page series (pagemap.c) on crafted event sequences
 * whose answers are known.  Times are in ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pagemap.h"
#include "unit.h"

#define MS 1000000ull

static struct pm_map m;

static void feed(const struct pm_event *ev)
{
	if (pm_feed(&m, ev)) {
		printf("FAIL: out of memory\n");
		exit(1);
	}
}

static void alloc(uint64_t ms, unsigned int cpu, uint32_t pid, uint64_t pfn,
		  uint32_t order)
{
	struct pm_event ev = { .time_ns = ms * MS, .cpu = cpu, .pid = pid,
			       .type = PM_ALLOC, .pfn = pfn, .order = order };

	feed(&ev);
}

static void release(uint64_t ms, unsigned int cpu, uint32_t pid, uint64_t pfn,
		    uint32_t order)
{
	struct pm_event ev = { .time_ns = ms * MS, .cpu = cpu, .pid = pid,
			       .type = PM_FREE, .pfn = pfn, .order = order };

	feed(&ev);
}

static void snap(uint64_t ms, uint32_t target, uint64_t vaddr, uint64_t pfn,
		 uint64_t pages, uint64_t nr)
{
	struct pm_event ev = { .time_ns = ms * MS, .pid = 999, .type = PM_SNAPSHOT,
			       .target = target, .vaddr = vaddr, .pfn = pfn,
			       .pages = pages, .snapshot = nr };

	feed(&ev);
}

static const uint32_t only_10[] = { 10 };

/* Alloc and free of the same pfn and order pair; orders count pages. */
static void test_pairing(void)
{
	pm_init(&m, only_10, 1);
	alloc(1, 0, 10, 0x100, 2);	/* 0x100-0x103 */
	alloc(2, 0, 10, 0x200, 0);
	release(3, 0, 10, 0x100, 2);
	CHECK_EQ(m.nr_allocs, 2, "allocations");
	CHECK_EQ(m.allocated_pages, 5, "allocated pages");
	CHECK_EQ(m.nr_frees, 1, "frees");
	CHECK_EQ(m.freed_pages, 4, "freed pages");
	CHECK_EQ(pm_held(&m), 1, "held");
	CHECK_EQ(m.pfn_min, 0x100, "pfn min");
	CHECK_EQ(m.pfn_max, 0x200, "pfn max");
	CHECK_EQ(m.levels.count, 3, "held-level points");
	CHECK_EQ(PM_AT(m.levels, struct pm_level, 1).held, 5, "held after 2 allocs");
	CHECK_EQ(PM_AT(m.frees, struct pm_point, 0).pages, 4, "free point pages");
	pm_free(&m);
}

/* The kernel frees a process's pages from other tasks and in pieces. */
static void test_free_by_other_and_split(void)
{
	pm_init(&m, only_10, 1);
	alloc(1, 0, 10, 0x400, 3);	/* 8 pages */
	release(2, 1, 77, 0x402, 1);	/* pages 0x402-0x403, by pid 77 */
	release(3, 1, 0, 0x407, 0);	/* one page, from idle/irq context */
	CHECK_EQ(m.nr_frees, 2, "frees matched whoever freed");
	CHECK_EQ(m.freed_pages, 3, "freed pages");
	CHECK_EQ(pm_held(&m), 5, "held");
	release(4, 1, 77, 0x402, 0);	/* already free: not ours any more */
	CHECK_EQ(m.nr_frees, 2, "a second free of a page is not counted");
	CHECK_EQ(m.nr_early_frees, 0, "nor as early (freed by pid 77)");
	/* A free of a larger block than the held part returns only that part. */
	release(5, 0, 10, 0x400, 3);
	CHECK_EQ(m.freed_pages, 8, "the rest of the block returned");
	CHECK_EQ(pm_held(&m), 0, "nothing held");
	pm_free(&m);
}

/* Pages allocated before the trace began, then freed in it. */
static void test_early_frees(void)
{
	pm_init(&m, only_10, 1);
	release(1, 0, 10, 0x900, 1);	/* freed by pid 10: counted */
	release(2, 0, 11, 0x910, 0);	/* by someone else: not ours */
	alloc(3, 0, 10, 0x920, 0);
	CHECK_EQ(m.nr_early_frees, 1, "early frees");
	CHECK_EQ(m.early_freed_pages, 2, "early freed pages");
	CHECK_EQ(m.nr_frees, 0, "frees of traced allocations");
	CHECK_EQ(pm_held(&m), 1, "held (early frees do not go negative)");
	CHECK_EQ(m.pfn_min, 0x900, "pfn range includes the early free");
	pm_free(&m);
}

/* The pid filter; a held page re-allocated means its free was lost. */
static void test_filter_and_missed(void)
{
	pm_init(&m, only_10, 1);
	alloc(1, 0, 11, 0x300, 4);	/* another process: ignored */
	alloc(2, 0, 10, 0x500, 1);
	alloc(3, 1, 12, 0x501, 0);	/* 0x501 handed to 12: our free was lost */
	alloc(4, 0, 10, 0x500, 0);	/* 0x500 again for 10: lost free too */
	CHECK_EQ(m.nr_allocs, 2, "only pid 10's allocations");
	CHECK_EQ(m.allocated_pages, 3, "allocated pages");
	CHECK_EQ(m.missed_pages, 2, "missed frees");
	CHECK_EQ(pm_held(&m), 1, "held: 0x500 once");
	CHECK_EQ(m.pfn_min, 0x500, "pfn range ignores other processes");
	pm_free(&m);

	pm_init(&m, NULL, 0);		/* no selection: everyone */
	alloc(1, 0, 11, 0x300, 4);
	alloc(2, 0, 10, 0x500, 1);
	release(3, 0, 0, 0x300, 4);
	release(4, 0, 5, 0x700, 0);
	CHECK_EQ(m.allocated_pages, 18, "all allocations");
	CHECK_EQ(m.freed_pages, 16, "all frees");
	CHECK_EQ(m.early_freed_pages, 1, "every unmatched free is early");
	CHECK_EQ(pm_held(&m), 2, "held");
	pm_free(&m);
}

/*
 * Two CPUs interleaved in time: the model sees one stream in time order;
 * an allocation on CPU 0 freed on CPU 1 and re-allocated on CPU 0.
 */
static void test_interleaved_cpus(void)
{
	pm_init(&m, only_10, 1);
	alloc(1, 0, 10, 0x10, 0);
	alloc(2, 1, 10, 0x20, 0);
	release(3, 1, 10, 0x10, 0);
	alloc(4, 0, 10, 0x10, 0);
	release(5, 0, 10, 0x20, 0);
	CHECK_EQ(m.allocated_pages, 3, "allocated");
	CHECK_EQ(m.freed_pages, 2, "freed");
	CHECK_EQ(m.missed_pages, 0, "no missed frees");
	CHECK_EQ(pm_held(&m), 1, "held");
	pm_free(&m);
}

static void test_snapshots(void)
{
	pm_init(&m, only_10, 1);
	snap(1000, 10, 0x400000, 0x1000, 3, 1);
	snap(1000, 10, 0x403000, 0x2000, 1, 1);
	snap(1000, 11, 0x400000, 0x5000, 9, 1);	/* another process */
	snap(2000, 10, 0x400000, 0x1000, 4, 2);
	snap(2000, 10, 0x7ff000, 0x3000, 0, 2);	/* empty run: ignored */
	CHECK_EQ(m.nr_snapshots, 2, "snapshots");
	CHECK_EQ(m.last_snapshot, 2, "last number");
	CHECK_EQ(m.last_snapshot_pages, 4, "pages in the last");
	CHECK_EQ(m.last_snapshot_runs, 1, "runs in the last");
	CHECK_EQ(m.last_snapshot_ns, 2000 * MS, "time of the last");
	CHECK_EQ(m.runs.count, 3, "runs drawn");
	CHECK_EQ(m.pfn_min, 0x1000, "pfn min");
	CHECK_EQ(m.pfn_max, 0x2000, "pfn max");
	CHECK_EQ(m.nr_allocs, 0, "no allocations");
	pm_free(&m);
}

/* Orders that no buddy allocator has are dropped, not looped over. */
static void test_bad_order(void)
{
	pm_init(&m, NULL, 0);
	alloc(1, 0, 10, 0x10, 63);
	release(2, 0, 10, 0x10, 40);
	CHECK_EQ(m.nr_allocs + m.nr_frees + m.nr_early_frees, 0, "ignored");
	pm_free(&m);
}

/* The PFN set against a plain bitmap, through growth and deletions. */
static void test_set(void)
{
	enum { N = 50000 };
	static unsigned char ref[N];
	uint32_t seed = 12345;
	uint64_t held = 0;
	int i, bad = 0;

	pm_init(&m, NULL, 0);
	for (i = 0; i < 400000; i++) {
		uint64_t pfn;

		seed = seed * 1103515245 + 12345;
		pfn = (seed >> 8) % N;
		if ((seed >> 4) & 1) {
			alloc(i, 0, 1, pfn, 0);
			held += !ref[pfn];
			ref[pfn] = 1;
		} else {
			release(i, 0, 1, pfn, 0);
			held -= ref[pfn];
			ref[pfn] = 0;
		}
		if (pm_held(&m) != held)
			bad++;
	}
	CHECK_EQ(bad, 0, "steps where the set size disagreed");
	CHECK_EQ(pm_held(&m), held, "final size");
	pm_free(&m);
}

int main(void)
{
	test_pairing();
	test_free_by_other_and_split();
	test_early_frees();
	test_filter_and_missed();
	test_interleaved_cpus();
	test_snapshots();
	test_bad_order();
	test_set();
	return unit_report();
}
