// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a small two-CPU lkst log of memory events with the utils' log
 * writer, for lkst-pagemap's render tests.  CPU 1's section is written
 * first, as lkbuf may do, and its free at 40 ms pairs with CPU 0's
 * allocation at 20 ms only if the reader merges the CPUs in time order.
 *
 * Answers for t-mem (pid 300), which tests/run_pagemap_tests.sh expects:
 *   allocations 3, 6 pages (0x1000 o0, 0x1010 o2, 0x1200 o0 on CPU 1)
 *   frees 2, 3 pages (0x1000 o0 by itself, 0x1010 o1 by pid 0 on CPU 1)
 *   early frees 1, 1 page (0xf00, allocated before the trace)
 *   held 3 (0x1012, 0x1013, 0x1200), PFNs 0xf00-0x1200
 *   snapshots 2; the last (#2) 2 pages in 1 run
 * t-other (pid 301): 1 allocation of 2 pages, all held, no snapshot.
 */
#include "mklogutil.h"

static struct lkst_record al(unsigned long long t, unsigned int pid,
			     unsigned long long pfn, unsigned int order)
{
	struct lkst_record r = { .time_ns = t, .pid = pid,
				 .event = LKST_EV_MEM_PAGE_ALLOC };

	r.arg[0] = pfn;
	r.arg[1] = order;
	r.arg[2] = 0x140cca;	/* GFP_HIGHUSER_MOVABLE | __GFP_COMP-ish */
	r.arg[3] = 1;
	return r;
}

static struct lkst_record fr(unsigned long long t, unsigned int pid,
			     unsigned long long pfn, unsigned int order)
{
	struct lkst_record r = { .time_ns = t, .pid = pid, .context = pid ? 0 : 1,
				 .event = LKST_EV_MEM_PAGE_FREE };

	r.arg[0] = pfn;
	r.arg[1] = order;
	return r;
}

static struct lkst_record sn(unsigned long long t, unsigned int target,
			     unsigned long long vaddr, unsigned long long pfn,
			     unsigned long long pages, unsigned long long nr)
{
	struct lkst_record r = { .time_ns = t, .pid = 7,	/* the kworker */
				 .event = LKST_EV_MEM_PAGE_SNAPSHOT };

	r.arg[0] = target;
	r.arg[1] = vaddr;
	r.arg[2] = pfn;
	r.arg[3] = pages;
	r.arg[4] = nr;
	return r;
}

int main(int argc, char **argv)
{
	struct lkst_record cpu0[] = {
		sw(T(0), 0, 300, 0, "t-mem"),
		al(T(10), 300, 0x1000, 0),
		al(T(20), 300, 0x1010, 2),
		al(T(30), 301, 0x2000, 1),
		fr(T(50), 300, 0x1000, 0),
		sn(T(60), 300, 0x400000, 0x1010, 4, 1),
		sn(T(60), 300, 0x404000, 0x1100, 2, 1),
		fr(T(80), 300, 0xf00, 0),
	};
	struct lkst_record cpu1[] = {
		sw(T(1), 0, 301, 0, "t-other"),
		fr(T(40), 0, 0x1010, 1),
		al(T(45), 300, 0x1200, 0),
		sn(T(90), 300, 0x400000, 0x1012, 2, 2),
		sw(T(95), 301, 0, 0, "swapper/1"),
	};

	return write_two_cpus("mkpagelog", argc, argv, cpu0, NR(cpu0), cpu1, NR(cpu1));
}
