/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building and freeing lkst_cpu_buffers on the host, shared by the buffer
 * unit test, stress test and benchmark.  A block's pages are page-aligned
 * and zeroed, as vzalloc'ed blocks are in the kernel (gen 0: never used).
 */
#ifndef LKST_BUF_FIXTURE_H
#define LKST_BUF_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "lkst_buf.h"

static inline struct lkst_cpu_buffer *new_buffer(void)
{
	struct lkst_cpu_buffer *cb = aligned_alloc(64, sizeof(*cb));

	memset(cb, 0, sizeof(*cb));
	return cb;
}

/* Block @id of @nr_pages zeroed pages linked to @next, not published. */
static inline struct lkst_block *new_block(u32 id, u32 nr_pages, u32 next)
{
	size_t bytes = (size_t)nr_pages * LKST_PAGE_SIZE;
	struct lkst_block *blk = calloc(1, sizeof(*blk));

	blk->id = id;
	blk->nr_pages = nr_pages;
	blk->next = next;
	blk->pages = aligned_alloc(LKST_PAGE_SIZE, bytes ? bytes : LKST_PAGE_SIZE);
	memset(blk->pages, 0, bytes);
	return blk;
}

static inline void free_block(struct lkst_block *blk)
{
	free(blk->pages);
	free(blk);
}

/* The same, published in @cb. */
static inline struct lkst_block *add_block(struct lkst_cpu_buffer *cb, u32 id,
					   u32 nr_pages, u32 next)
{
	struct lkst_block *blk = new_block(id, nr_pages, next);

	rcu_assign_pointer(cb->blocks[id], blk);
	return blk;
}

/* A buffer whose first block is @blk, as lkst_cpu_first_block() makes it. */
static inline void start_buffer(struct lkst_cpu_buffer *cb, struct lkst_block *blk)
{
	lkst_buf_init_first_page(cb, blk);
}

static inline void free_buffer(struct lkst_cpu_buffer *cb)
{
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (cb->blocks[id])
			free_block(cb->blocks[id]);
	}
	free(cb);
}

#endif /* LKST_BUF_FIXTURE_H */
