/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The physical memory of the synthetic machines test_vmcore.c (x86-64) and
 * test_vmcore_arm64.c dump: pages made on first touch, little-endian
 * accessors, and page-table pages handed out from VMCORE_TABLE_BASE.  The
 * includer defines PAGE, VMCORE_TABLE_BASE and u64 first.
 */
#ifndef VMCORE_MEM_H
#define VMCORE_MEM_H

#include <stdlib.h>
#include <string.h>

struct ppage {
	u64 pa;
	int omit;		/* filtered out of the dump */
	unsigned char data[PAGE];
};

static struct ppage **mem;
static size_t nr_mem;
static u64 next_table;

static struct ppage *ppage(u64 pa)
{
	size_t i;

	for (i = 0; i < nr_mem; i++)
		if (mem[i]->pa == pa / PAGE * PAGE)
			return mem[i];
	mem = realloc(mem, (nr_mem + 1) * sizeof(*mem));
	mem[nr_mem] = calloc(1, sizeof(**mem));
	mem[nr_mem]->pa = pa / PAGE * PAGE;
	return mem[nr_mem++];
}

static void pwrite_(u64 pa, const void *src, size_t len)
{
	const unsigned char *s = src;

	while (len) {
		size_t n = PAGE - pa % PAGE;

		n = n < len ? n : len;
		memcpy(ppage(pa)->data + pa % PAGE, s, n);
		s += n;
		pa += n;
		len -= n;
	}
}

static u64 pread64_(u64 pa)
{
	u64 v;

	memcpy(&v, ppage(pa)->data + pa % PAGE, 8);
	return v;
}

static void pwrite64_(u64 pa, u64 v)
{
	pwrite_(pa, &v, 8);
}

static void mem_reset(void)
{
	size_t i;

	for (i = 0; i < nr_mem; i++)
		free(mem[i]);
	free(mem);
	mem = NULL;
	nr_mem = 0;
	next_table = VMCORE_TABLE_BASE;
}

#endif
