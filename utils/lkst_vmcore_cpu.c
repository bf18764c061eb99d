// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf extract: one CPU's buffer out of a kdump vmcore (see
 * lkst_vmcore.h): its struct lkst_cpu_buffer through __per_cpu_offset,
 * its blocks' pages copied out, then walked by the kernel's own reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_drain.h"
#include "lkst_vmcore_int.h"

/*
 * The LKST_X86_* constants are the kernel's struct layout on x86_64 and
 * arm64; an x86_64 host builds the same header, so a change of the struct
 * stops the build here instead of misreading vmcores.
 */
#ifdef __x86_64__
_Static_assert(sizeof(struct lkst_cpu_buffer) == LKST_X86_CB_SIZE, "cb size");
_Static_assert(offsetof(struct lkst_cpu_buffer, pos) == 0, "cb pos");
_Static_assert(offsetof(struct lkst_cpu_buffer, mode) == 8, "cb mode");
_Static_assert(offsetof(struct lkst_cpu_buffer, blocks) == LKST_X86_CB_BLOCKS, "cb blocks");
_Static_assert(offsetof(struct lkst_cpu_buffer, overwritten) == LKST_X86_CB_OVERWRITTEN,
	       "cb overwritten");
_Static_assert(offsetof(struct lkst_cpu_buffer, dropped) == LKST_X86_CB_DROPPED, "cb dropped");
_Static_assert(offsetof(struct lkst_cpu_buffer, discarded) == LKST_X86_CB_DISCARDED,
	       "cb discarded");
_Static_assert(sizeof(struct lkst_block) == LKST_X86_BLOCK_SIZE, "block size");
_Static_assert(offsetof(struct lkst_block, id) == 0, "block id");
_Static_assert(offsetof(struct lkst_block, nr_pages) == LKST_X86_BLOCK_NR_PAGES, "block nr_pages");
_Static_assert(offsetof(struct lkst_block, next) == 8, "block next");
_Static_assert(offsetof(struct lkst_block, persistent) == 12, "block persistent");
_Static_assert(offsetof(struct lkst_block, pages) == LKST_X86_BLOCK_PAGES, "block pages");
#endif
/* Pages are copied as they are and read by lkst_buf.c in host order. */
_Static_assert(sizeof(struct lkst_page) == 64, "page head");

#define MAX_BLOCK_PAGES		(1u << 24)	/* what pos can address */

/* ---- One CPU's buffer ---------------------------------------------------- */

static int no_memory(struct lkst_err *err, const char *what)
{
	lkst_seterr(err, "out of memory for %s; free some memory", what);
	return LKST_VMCORE_NOMEM;
}

/* Copies a page that may be missing (read as unused) into @dst. */
static int copy_page(const struct lkst_vmcore *vc, u64 va, void *dst,
		     struct lkst_vmcore_cpu *out, struct lkst_err *err)
{
	u64 pa;

	if (lkst_vmcore_virt_to_phys(vc, va, &pa, err))
		return LKST_VMCORE_BAD;
	if (lkst_vmcore_read_phys(vc, pa, dst, LKST_PAGE_SIZE)) {
		memset(dst, 0, LKST_PAGE_SIZE);
		out->missing_pages++;
	}
	return 0;
}

/*
 * A page whose generation is odd was being emptied when the CPUs stopped:
 * what it holds is neither its old records nor new ones.  As unused, the
 * walk reads the other pages in full (a live reader would wait for it).
 */
static void drop_emptying(struct lkst_block *blk, struct lkst_vmcore_cpu *out)
{
	u32 i;

	for (i = 0; i < blk->nr_pages; i++) {
		struct lkst_page *pg = lkst_block_page(blk, i);

		if (pg->gen & 1) {
			pg->gen = 0;
			out->emptying_pages++;
		}
	}
}

/* Reads the struct lkst_block at @addr and copies its pages into *blk. */
static int copy_block(const struct lkst_vmcore *vc, u32 id, u64 addr, u64 *budget,
		      struct lkst_block **blk, struct lkst_vmcore_cpu *out,
		      struct lkst_err *err)
{
	unsigned char raw[LKST_X86_BLOCK_SIZE];
	bool persistent;
	u64 pages, i;
	u32 nr, max;
	int ret;

	if ((ret = lkst_vc_virt_read(vc, addr, raw, sizeof(raw), "struct lkst_block", err)))
		return ret;
	nr = lkst_vc_get32(raw + LKST_X86_BLOCK_NR_PAGES);
	pages = lkst_vc_get64(raw + LKST_X86_BLOCK_PAGES);
	persistent = raw[12];
	/* A persistent block is the region's share: not bound by lkbuf create's sizes. */
	max = persistent ? MAX_BLOCK_PAGES : LKST_BLOCK_MAX_SIZE / LKST_PAGE_SIZE;
	if (!nr || nr > max || nr > *budget || (pages & (LKST_PAGE_SIZE - 1)) ||
	    pages + (u64)nr * LKST_PAGE_SIZE < pages) {
		lkst_seterr(err, "block %u claims %u pages at 0x%llx, more than the machine had or misaligned; the vmcore is corrupt or the vmlinux does not match it",
			    id, nr, (unsigned long long)pages);
		return LKST_VMCORE_BAD;
	}
	*budget -= nr;
	*blk = calloc(1, sizeof(**blk));
	if (!*blk || !((*blk)->pages = malloc((size_t)nr * LKST_PAGE_SIZE)))
		return no_memory(err, "a block's pages");
	(*blk)->id = id;
	(*blk)->nr_pages = nr;
	(*blk)->next = lkst_vc_get32(raw + 8);
	(*blk)->persistent = persistent;
	for (i = 0; i < nr; i++)
		if ((ret = copy_page(vc, pages + i * LKST_PAGE_SIZE,
				     (char *)(*blk)->pages + i * LKST_PAGE_SIZE, out, err)))
			return ret;
	drop_emptying(*blk, out);
	return 0;
}

static void free_blocks(struct lkst_block **blocks)
{
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (blocks[id])
			free(blocks[id]->pages);
		free(blocks[id]);
		blocks[id] = NULL;
	}
}

static int emit_record(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct lkst_vmcore_cpu *c = ctx;
	size_t n = c->info.nr_records;

	if (n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		struct lkst_record *r = realloc(c->records, cap * sizeof(*r));
		__u64 *s = r ? realloc(c->seqs, cap * sizeof(*s)) : NULL;

		if (r)
			c->records = r;
		if (!s)
			return -ENOMEM;
		c->seqs = s;
		c->cap = cap;
	}
	c->records[n] = *rec;
	c->seqs[n] = seq;
	c->info.nr_records = n + 1;
	return 0;
}

/*
 * The records of the copied blocks in order, settled as `lkbuf read`
 * settles a final drain: from the oldest record found, every number up to
 * the walk's end either a record or lost.
 */
static int walk_blocks(struct lkst_block *const *blocks, u64 nr_pages,
		       struct lkst_vmcore_cpu *out, struct lkst_err *err)
{
	struct lkst_page_ref *refs = calloc(nr_pages ? nr_pages : 1, sizeof(*refs));
	struct lkst_record *tmp = malloc(LKST_PAGE_MAX_RECORDS * sizeof(*tmp));
	struct lkst_drain_result res;
	u64 nr, next_seq = 0;
	int ret = -ENOMEM;

	if (refs && tmp) {
		nr = lkst_buf_list_pages(blocks, -1, refs, nr_pages);
		ret = lkst_buf_walk(blocks, refs, nr < nr_pages ? nr : nr_pages, 0, false,
				    tmp, emit_record, out, &next_seq);
	}
	free(refs);
	free(tmp);
	if (!ret && !out->info.nr_records) {	/* nothing to settle */
		out->info.written = out->info.seq_start = out->info.seq_end = next_seq;
		return 0;
	}
	if (ret || lkst_drain_settle(out->records, out->seqs, out->info.nr_records, 0,
				     next_seq, NULL, 0,
				     LKST_DRAIN_FROM_OLDEST | LKST_DRAIN_FINAL, &res))
		return no_memory(err, "the records");
	out->info.nr_records = res.nr;
	out->info.written = next_seq;
	out->info.seq_start = res.seq_start;
	out->info.seq_end = res.seq_end;
	out->info.lost = res.lost;
	return 0;
}

/* Copies the CPU's blocks, whose addresses @cb holds, and walks them. */
static int read_buffer(const struct lkst_vmcore *vc, const unsigned char *cb,
		       struct lkst_vmcore_cpu *out, struct lkst_err *err)
{
	struct lkst_block *blocks[LKST_MAX_BLOCKS] = { NULL };
	u64 budget = vc->phys_pages, addr;
	unsigned int id;
	int ret = 0;

	for (id = 0; id < LKST_MAX_BLOCKS && !ret; id++) {
		addr = lkst_vc_get64(cb + LKST_X86_CB_BLOCKS + 8 * id);
		if (addr && !(ret = copy_block(vc, id, addr, &budget, &blocks[id], out, err)))
			out->nr_blocks++;
	}
	if (!ret && out->nr_blocks)
		ret = walk_blocks(blocks, vc->phys_pages - budget, out, err);
	if (!ret) {
		out->info.overwritten = lkst_vc_get64(cb + LKST_X86_CB_OVERWRITTEN) +
					lkst_vc_get64(cb + LKST_X86_CB_DISCARDED);
		out->info.dropped = lkst_vc_get64(cb + LKST_X86_CB_DROPPED);
	}
	free_blocks(blocks);
	return ret;
}

/*
 * A CPU that is not possible has no per-CPU area (its __per_cpu_offset is
 * the boot one, whose memory is freed): it has no buffer either.
 */
static bool cpu_possible(const struct lkst_vmcore *vc, unsigned int cpu)
{
	unsigned char byte;
	struct lkst_err ignored;

	if (!vc->possible_mask ||
	    lkst_vc_kernel_read(vc, vc->possible_mask + cpu / 8, &byte, 1, "__cpu_possible_mask",
			&ignored))
		return true;	/* unknown: try it */
	return byte >> (cpu % 8) & 1;
}

/* "cpu N: " before the message of a failure. */
static int cpu_failed(unsigned int cpu, int ret, struct lkst_err *err)
{
	char msg[sizeof(err->msg)];

	if (ret == LKST_VMCORE_BAD) {
		memcpy(msg, err->msg, sizeof(msg));
		lkst_seterr(err, "cpu %u: %s", cpu, msg);
	}
	return ret;
}

int lkst_vmcore_read_cpu(const struct lkst_vmcore *vc, unsigned int cpu,
			 struct lkst_vmcore_cpu **cpup, struct lkst_err *err)
{
	unsigned char cb[LKST_X86_CB_SIZE];
	struct lkst_vmcore_cpu *out;
	char what[64];
	u64 offset;
	int ret;

	*cpup = NULL;
	if (cpu >= vc->nr_cpu_ids) {
		lkst_seterr(err, "cpu %u does not exist; the vmcore's CPUs are 0..%u", cpu,
			    vc->nr_cpu_ids - 1);
		return LKST_VMCORE_BAD;
	}
	out = calloc(1, sizeof(*out));
	if (!out) {
		lkst_seterr(err, "out of memory; free some memory");
		return LKST_VMCORE_NOMEM;
	}
	out->info.cpu = cpu;
	if (!cpu_possible(vc, cpu)) {
		*cpup = out;
		return 0;
	}
	snprintf(what, sizeof(what), "__per_cpu_offset[%u]", cpu);
	ret = lkst_vc_kernel_read(vc, vc->per_cpu_offset + 8ULL * cpu, &offset, sizeof(offset), what, err);
	snprintf(what, sizeof(what), "its struct lkst_cpu_buffer");
	if (!ret)
		ret = lkst_vc_virt_read(vc, offset + vc->cpu_buffers, cb, sizeof(cb), what, err);
	if (!ret)
		ret = read_buffer(vc, cb, out, err);
	if (ret)
		lkst_vmcore_cpu_free(out);
	else
		*cpup = out;
	return cpu_failed(cpu, ret, err);
}

void lkst_vmcore_cpu_free(struct lkst_vmcore_cpu *c)
{
	if (!c)
		return;
	free(c->records);
	free(c->seqs);
	free(c);
}

const struct lkst_log_cpu *lkst_vmcore_cpu_info(const struct lkst_vmcore_cpu *c)
{
	return &c->info;
}

const struct lkst_record *lkst_vmcore_cpu_records(const struct lkst_vmcore_cpu *c)
{
	return c->records;
}

const __u64 *lkst_vmcore_cpu_seqs(const struct lkst_vmcore_cpu *c)
{
	return c->seqs;
}

unsigned int lkst_vmcore_cpu_nr_blocks(const struct lkst_vmcore_cpu *c)
{
	return c->nr_blocks;
}

__u64 lkst_vmcore_cpu_missing_pages(const struct lkst_vmcore_cpu *c)
{
	return c->missing_pages;
}

__u64 lkst_vmcore_cpu_emptying_pages(const struct lkst_vmcore_cpu *c)
{
	return c->emptying_pages;
}
