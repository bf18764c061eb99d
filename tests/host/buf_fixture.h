/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building and freeing lkst_cpu_buffers on the host, shared by the buffer
 * unit test, stress test and benchmark.  Records are cache-line aligned
 * and zeroed, as vzalloc'ed blocks are in the kernel.
 */
#ifndef LKST_BUF_FIXTURE_H
#define LKST_BUF_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "lkst_buf.h"

static inline struct lkst_cpu_buffer *new_buffer(void)
{
	return calloc(1, sizeof(struct lkst_cpu_buffer));
}

static inline struct lkst_block *add_block(struct lkst_cpu_buffer *cb, u32 id,
					   u32 nr_slots, u32 next)
{
	size_t bytes = (size_t)nr_slots * sizeof(struct lkst_record);
	struct lkst_block *blk = calloc(1, sizeof(*blk));

	blk->id = id;
	blk->nr_slots = nr_slots;
	blk->next = next;
	blk->records = aligned_alloc(64, bytes ? bytes : 64);
	memset(blk->records, 0, bytes);
	blk->seqs = calloc(nr_slots ? nr_slots : 1, sizeof(u64));
	rcu_assign_pointer(cb->blocks[id], blk);
	return blk;
}

static inline void free_buffer(struct lkst_cpu_buffer *cb)
{
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (cb->blocks[id]) {
			free(cb->blocks[id]->records);
			free(cb->blocks[id]->seqs);
			free(cb->blocks[id]);
		}
	}
	free(cb);
}

#endif /* LKST_BUF_FIXTURE_H */
