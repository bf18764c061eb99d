/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of lkst's buffer management share: buffers.c (the CPUs'
 * buffers and their blocks) defines these for buffers_read.c (reading)
 * and buffers_layout.c (changing the blocks).
 */
#ifndef _LKST_BUFFERS_H
#define _LKST_BUFFERS_H

#include <linux/mutex.h>
#include "internal.h"

/* Serializes control operations on every CPU's blocks; never lkst_mutex. */
extern struct mutex lkst_buf_mutex;
/* Size of the first block of a CPU that comes online; follows resize. */
extern unsigned int lkst_first_block_size;

/* @cpu's buffer, or NULL for an impossible CPU (any number is safe). */
struct lkst_cpu_buffer *lkc_cpu_buffer(unsigned int cpu);
/* Block @id of @cb or NULL (any @id is safe), under lkst_buf_mutex. */
struct lkst_block *lkc_block_get(struct lkst_cpu_buffer *cb,
				 unsigned int id);
size_t lkc_block_bytes(unsigned int size);
void lkc_cpu_blocks(struct lkst_cpu_buffer *cb,
		    struct lkst_block **blocks);
bool lkc_cpu_has_blocks(struct lkst_cpu_buffer *cb);
int lkc_check_memory(u64 bytes);
struct lkst_block *lkc_block_alloc(unsigned int cpu, unsigned int id,
				   unsigned int size, unsigned int next);
void lkc_block_free(struct lkst_block *blk);
void lkc_block_discard(struct lkst_cpu_buffer *cb,
		       const struct lkst_block *blk);
u64 lkc_lost_records(struct lkst_cpu_buffer *cb);

#endif /* _LKST_BUFFERS_H */
