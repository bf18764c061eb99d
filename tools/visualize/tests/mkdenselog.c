// SPDX-License-Identifier: GPL-2.0
/*
 * mkdenselog FILE RECORDS: a dense two-CPU log for the decimation tests
 * and the benchmark (bench.sh).  Every 1 us a CPU records one of: a
 * context switch among t-dense 400..403 (preempted or blocked), a wakeup,
 * a MEM_PAGE_ALLOC or MEM_PAGE_FREE of t-dense 400 over 4096 PFNs, and
 * every 65536th record a snapshot run of 400.  Deterministic.
 */
#include <stdlib.h>

#include "mklogutil.h"

static void make(struct lkst_record *r, unsigned long long i, unsigned int cpu,
		 unsigned int *cur)
{
	unsigned long long x = i * 2654435761ull + cpu;
	unsigned int next = 400 + (unsigned int)((x >> 7) % 4);

	*r = (struct lkst_record){ .time_ns = 1000000000ull + i * 1000 + cpu * 300,
				   .pid = *cur };
	switch (i % 5) {
	case 0:
	case 1:
		if (next == *cur)
			next = 400 + (next - 399) % 4;
		*r = sw(r->time_ns, *cur, next, (x >> 3) % 3 ? 0 : 1, "t-dense");
		*cur = next;
		break;
	case 2:
		r->event = LKST_EV_PROCESS_WAKEUP;
		r->arg[0] = 400 + (x >> 9) % 4;
		set_comm(r, "t-dense");
		break;
	case 3:
		r->event = LKST_EV_MEM_PAGE_ALLOC;
		r->pid = 400;
		r->arg[0] = 0x10000 + (x >> 5) % 4096;
		r->arg[1] = (x >> 20) % 3;
		break;
	default:
		r->event = i % 65536 == 4 ? LKST_EV_MEM_PAGE_SNAPSHOT : LKST_EV_MEM_PAGE_FREE;
		if (r->event == LKST_EV_MEM_PAGE_SNAPSHOT) {
			r->arg[0] = 400;
			r->arg[1] = 0x400000;
			r->arg[2] = 0x10000 + (x >> 11) % 4000;
			r->arg[3] = 1 + (x >> 13) % 64;
			r->arg[4] = i / 65536;
		} else {
			r->arg[0] = 0x10000 + (x >> 5) % 4096;
		}
		break;
	}
}

int main(int argc, char **argv)
{
	struct lkst_record *rec[2];
	unsigned long long n, i;
	unsigned int cpu, cur;
	char *args[2];

	if (argc != 3 || !(n = strtoull(argv[2], NULL, 0) / 2))
		lkst_die(1, "usage: mkdenselog FILE RECORDS (at least 2)");
	for (cpu = 0; cpu < 2; cpu++) {
		rec[cpu] = calloc(n, sizeof(**rec));
		if (!rec[cpu])
			lkst_die(1, "out of memory");
		cur = 400 + cpu;
		for (i = 0; i < n; i++)
			make(&rec[cpu][i], i, cpu, &cur);
	}
	args[0] = argv[0];
	args[1] = argv[1];
	return write_two_cpus("mkdenselog", 2, args, rec[0], n, rec[1], n);
}
