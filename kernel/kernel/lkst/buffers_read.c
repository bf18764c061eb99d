// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffer management, reading: copying a block's records, or a CPU's
 * from a cursor on (a drain), or the previous boot's, out to user space
 * while hooks keep writing, a chunk at a time under lkst_buf_mutex.  The
 * walk itself is lkst_buf_walk() (lkst_buf.c); the buffers: buffers.c.
 */
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "buffers.h"

#define LKST_READ_CHUNK 64

/* Copying walked records out to user space, a chunk at a time. */
struct lkst_reader {
	struct lkst_record __user *records;
	u64 __user *seqs;		/* NULL: the numbers are not wanted */
	u32 max, copied, filled;
	struct lkst_record chunk[LKST_READ_CHUNK];
	u64 chunk_seqs[LKST_READ_CHUNK];
	struct lkst_record page[LKST_PAGE_MAX_RECORDS];
};

static int lkst_reader_flush(struct lkst_reader *rd)
{
	u32 n = rd->filled;

	rd->filled = 0;
	if (copy_to_user(rd->records + rd->copied, rd->chunk,
			 n * sizeof(*rd->chunk)) ||
	    (rd->seqs && copy_to_user(rd->seqs + rd->copied, rd->chunk_seqs,
				      n * sizeof(*rd->chunk_seqs))))
		return -EFAULT;
	rd->copied += n;
	cond_resched();
	return 0;
}

static int lkst_reader_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct lkst_reader *rd = ctx;

	if (rd->copied + rd->filled >= rd->max)
		return -ENOSPC;
	rd->chunk[rd->filled] = *rec;
	rd->chunk_seqs[rd->filled] = seq;
	if (++rd->filled < LKST_READ_CHUNK)
		return 0;
	return lkst_reader_flush(rd);
}

static u64 lkst_nr_pages(struct lkst_block *const *blocks)
{
	unsigned int id;
	u64 nr = 0;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (blocks[id])
			nr += blocks[id]->nr_pages;
	return nr;
}

/*
 * Walk the records of @cb (of block @only_block unless negative) from
 * @cursor on into @rd, under lkst_buf_mutex.  -ENOSPC: @rd was full.
 */
static int lkst_read_blocks(struct lkst_block *const *blocks, int only_block,
			    u64 cursor, bool stop_at_hole,
			    struct lkst_reader *rd, u64 *next_seq)
{
	struct lkst_page_ref *refs;
	u64 nr_pages, nr;
	int ret;

	if (only_block >= 0 && !blocks[only_block])
		return -ENOENT;
	nr_pages = lkst_nr_pages(blocks);
	refs = kvmalloc_array(max_t(u64, nr_pages, 1), sizeof(*refs),
			      GFP_KERNEL);
	if (!refs)
		return -ENOMEM;
	nr = lkst_buf_list_pages(blocks, only_block, refs, nr_pages);
	ret = lkst_buf_walk_only(blocks, only_block, refs, min(nr, nr_pages),
				 cursor, stop_at_hole, rd->page,
				 lkst_reader_emit, rd, next_seq);
	kvfree(refs);
	if (ret && ret != -ENOSPC)
		return ret;
	if (rd->filled) {
		int err = lkst_reader_flush(rd);

		if (err)
			return err;
	}
	return ret;
}

static int lkst_read_records(struct lkst_cpu_buffer *cb, int only_block,
			     u64 cursor, bool stop_at_hole,
			     struct lkst_reader *rd, u64 *next_seq)
{
	struct lkst_block *blocks[LKST_MAX_BLOCKS];

	lkc_cpu_blocks(cb, blocks);
	return lkst_read_blocks(blocks, only_block, cursor, stop_at_hole, rd,
				next_seq);
}

/**
 * lkc_ioc_block_read() - copy one block's records out (LKST_IOC_BLOCK_READ)
 * @req: the CPU, block ID, user array and its room in; how many were
 *	copied out in @req->nr_records
 *
 * Copies the block's committed records, oldest first, while hooks keep
 * writing, at most @req->max_records of them.
 *
 * Context: process context; sleeps.
 * Return: 0, also when the array was too small (nr_records is then its
 * room); -EINVAL when @req->cpu is not a possible CPU or the block ID is
 * LKST_MAX_BLOCKS or more; -ENOENT when the CPU has no such block;
 * -ENOMEM; -EFAULT when the array cannot be written.
 */
int lkc_ioc_block_read(struct lkst_block_read *req)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);
	struct lkst_reader *rd;
	u64 next_seq;
	int ret;

	if (!cb || req->block >= LKST_MAX_BLOCKS)
		return -EINVAL;
	rd = kvzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;
	rd->records = u64_to_user_ptr(req->records);
	rd->max = req->max_records;
	mutex_lock(&lkst_buf_mutex);
	ret = lkst_read_records(cb, array_index_nospec(req->block,
						       LKST_MAX_BLOCKS),
				0, false, rd, &next_seq);
	mutex_unlock(&lkst_buf_mutex);
	if (ret == -ENOSPC)
		ret = 0;	/* as many as max_records asked for */
	req->nr_records = rd->copied;
	kvfree(rd);
	return ret;
}

/* A reader for the records[] and seqs[] a drain request gives. */
static struct lkst_reader *lkst_drain_reader(const struct lkst_buffer_drain *req)
{
	struct lkst_reader *rd = kvzalloc(sizeof(*rd), GFP_KERNEL);

	if (rd) {
		rd->records = u64_to_user_ptr(req->records);
		rd->seqs = u64_to_user_ptr(req->seqs);
		rd->max = req->max_records;
	}
	return rd;
}

/*
 * The walk of a drain request over @blocks, under lkst_buf_mutex: its
 * records, next_seq, capacity and flags (TRUNCATED when records[] was
 * too small).
 */
static int lkst_drain_blocks(struct lkst_block *const *blocks,
			     struct lkst_buffer_drain *req, bool stop_at_hole,
			     struct lkst_reader *rd)
{
	int ret;

	req->flags = 0;
	req->nr_busy = 0;
	req->__pad = 0;
	ret = lkst_read_blocks(blocks, -1, req->cursor, stop_at_hole, rd,
			       &req->next_seq);
	if (ret == -ENOSPC) {
		req->flags |= LKST_DRAIN_TRUNCATED;
		ret = 0;
	}
	req->capacity = lkst_nr_pages(blocks) * LKST_PAGE_MAX_RECORDS;
	req->nr_records = rd->copied;
	return ret;
}

/**
 * lkc_ioc_buffer_drain() - copy a CPU's records from a cursor on
 *	(LKST_IOC_BUFFER_DRAIN)
 * @req: the CPU, cursor and user arrays in; the records' count, the next
 *	cursor, capacity, flags and the CPU's counters out
 *
 * Copies the CPU's committed records numbered from the cursor on, in
 * order, stopping before one still being written (see struct
 * lkc_ioc_buffer_drain).  The walk starts at the page holding the cursor and
 * never blocks a writer; LKST_DRAIN_TRUNCATED says the arrays were full.
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @req->cpu is not a possible CPU; -ENOMEM;
 * -EFAULT when the arrays cannot be written.
 */
int lkc_ioc_buffer_drain(struct lkst_buffer_drain *req)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);
	struct lkst_block *blocks[LKST_MAX_BLOCKS];
	struct lkst_reader *rd;
	int ret;

	if (!cb)
		return -EINVAL;
	rd = lkst_drain_reader(req);
	if (!rd)
		return -ENOMEM;
	mutex_lock(&lkst_buf_mutex);
	lkc_cpu_blocks(cb, blocks);
	ret = lkst_drain_blocks(blocks, req, true, rd);
	if (!ret) {
		req->written = lkst_buf_next_seq(cb, blocks);
		req->overwritten = lkc_lost_records(cb);
		req->dropped = local64_read(&cb->dropped);
	}
	mutex_unlock(&lkst_buf_mutex);
	kvfree(rd);
	return ret;
}

/**
 * lkc_ioc_previous_info() - describe the previous boot's records
 *	(LKST_IOC_PREVIOUS_INFO)
 * @info: filled in by lkc_previous_info(), under lkst_buf_mutex
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOENT when no previous boot's records were found.
 */
int lkc_ioc_previous_info(struct lkst_previous_info *info)
{
	int ret;

	mutex_lock(&lkst_buf_mutex);
	ret = lkc_previous_info(info);
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

/**
 * lkc_ioc_previous_drain() - copy a CPU's records of the previous boot
 *	(LKST_IOC_PREVIOUS_DRAIN)
 * @req: as for lkc_ioc_buffer_drain()
 *
 * As a drain gives them, but nothing writes there any more, so there is no
 * record in flight to stop at.  The counters are the ones that boot saved,
 * or, without them, derived from what its pages hold.
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOENT when there are no previous boot's records; -EINVAL
 * when there are, but none of @req->cpu; -ENOMEM; -EFAULT when the arrays
 * cannot be written.
 */
int lkc_ioc_previous_drain(struct lkst_buffer_drain *req)
{
	struct lkst_block *blocks[LKST_MAX_BLOCKS] = {};
	struct lkst_reader *rd;
	int ret;

	rd = lkst_drain_reader(req);
	if (!rd)
		return -ENOMEM;
	mutex_lock(&lkst_buf_mutex);
	blocks[0] = lkc_previous_block(req->cpu);
	ret = blocks[0] ? 0 : lkc_previous_block(0) ? -EINVAL : -ENOENT;
	if (!ret)
		ret = lkst_drain_blocks(blocks, req, false, rd);
	if (!ret) {
		req->written = lkc_previous_end(blocks[0]);
		if (!lkc_previous_counts(req->cpu, &req->overwritten,
					 &req->dropped)) {
			req->overwritten = req->written -
					   lkc_previous_held(blocks[0]);
			req->dropped = 0;
		}
	}
	mutex_unlock(&lkst_buf_mutex);
	kvfree(rd);
	return ret;
}

/**
 * lkc_ioc_previous_release() - free the previous boot's records
 *	(LKST_IOC_PREVIOUS_RELEASE)
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOENT when there are none (or they were released).
 */
int lkc_ioc_previous_release(void)
{
	int ret = 0;

	mutex_lock(&lkst_buf_mutex);
	if (lkc_previous_block(0))
		lkc_previous_free();
	else
		ret = -ENOENT;
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}
