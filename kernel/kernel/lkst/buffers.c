// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffer management: creating, linking, deleting, jumping to,
 * resizing and reading the blocks of each CPU's buffer while hooks write
 * into them, and the per-CPU buffer mode.
 *
 * Control operations hold lkst_buf_mutex, never lkst_mutex, so that a
 * maskset switch does not wait for a reader copying a large buffer.
 * Writers take no lock: they find blocks through RCU-published pointers,
 * and a block is freed only after a grace period (I11).  The write
 * position of a CPU is changed only on that CPU (I1).  The invariants and
 * the jump, resize and delete protocols: docs/buffer-design.md.
 *
 * A CPU gets its first block when it first comes online (the prepare step
 * of CPU hotplug, run with the hotplug lock held for writing) and keeps its
 * blocks, and their records, while offline.  Operations that add or remove
 * blocks hold the hotplug lock for reading (taken after lkst_buf_mutex), so
 * they never race with that first allocation.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "internal.h"

DEFINE_PER_CPU(struct lkst_cpu_buffer, lkst_cpu_buffers);

static DEFINE_MUTEX(lkst_buf_mutex);

/* Size of the first block of a CPU that comes online; follows resize. */
static unsigned int lkst_first_block_size;
static int lkst_cpuhp_state;

static struct lkst_cpu_buffer *lkst_cpu_buffer(unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		return NULL;
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	if (!cpu_possible(cpu))
		return NULL;
	return per_cpu_ptr(&lkst_cpu_buffers, cpu);
}

static struct lkst_block *lkst_block_get(struct lkst_cpu_buffer *cb,
					 unsigned int id)
{
	if (id >= LKST_MAX_BLOCKS)
		return NULL;
	id = array_index_nospec(id, LKST_MAX_BLOCKS);
	return rcu_dereference_protected(cb->blocks[id],
					 lockdep_is_held(&lkst_buf_mutex));
}

/* Blocks are whole pages. */
static size_t lkst_block_bytes(unsigned int size)
{
	return (size_t)(size / LKST_PAGE_SIZE) * LKST_PAGE_SIZE;
}

/* The CPU's blocks, stable while lkst_buf_mutex is held. */
static void lkst_cpu_blocks(struct lkst_cpu_buffer *cb,
			    struct lkst_block **blocks)
{
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		blocks[id] = lkst_block_get(cb, id);
}

/*
 * False for a CPU that was never online, or whose first block could not
 * be had.  Only whether pointers are set: stable under lkst_buf_mutex or
 * the hotplug lock, which every caller holds.
 */
static bool lkst_cpu_has_blocks(struct lkst_cpu_buffer *cb)
{
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (rcu_access_pointer(cb->blocks[id]))
			return true;
	return false;
}

/*
 * Refuse what the machine cannot give without reclaiming hard or waking
 * the OOM killer, as ftrace's ring buffer does.
 */
static int lkst_check_memory(u64 bytes)
{
	return (bytes >> PAGE_SHIFT) > si_mem_available() ? -ENOMEM : 0;
}

/*
 * Buffers are asked for by a user: charge them to its memory cgroup, and
 * let a large request fail instead of invoking the OOM killer.
 */
#define LKST_BLOCK_GFP (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
			__GFP_NOWARN)

static struct lkst_block *lkst_block_alloc(unsigned int cpu, unsigned int id,
					   unsigned int size, unsigned int next)
{
	struct lkst_block *blk;

	blk = kzalloc_node(sizeof(*blk), LKST_BLOCK_GFP, cpu_to_node(cpu));
	if (!blk)
		return NULL;
	blk->id = id;
	blk->nr_pages = size / LKST_PAGE_SIZE;
	blk->next = next;
	/* Zeroed: every page's generation 0, never used (I5). */
#ifdef MODULE
	/* __vmalloc_node() is not exported; vmalloc is page aligned anyway. */
	blk->pages = __vmalloc(lkst_block_bytes(size),
			       LKST_BLOCK_GFP | __GFP_ZERO);
#else
	blk->pages = __vmalloc_node(lkst_block_bytes(size), LKST_PAGE_SIZE,
				    LKST_BLOCK_GFP | __GFP_ZERO,
				    cpu_to_node(cpu),
				    __builtin_return_address(0));
#endif
	if (!blk->pages) {
		kfree(blk);
		return NULL;
	}
	return blk;
}

static void lkst_block_free(struct lkst_block *blk)
{
	if (!blk->persistent)
		vfree(blk->pages);
	kfree(blk);
}

/*
 * Count the committed records of a block no writer can reach any more
 * (after a grace period, I11), which a resize or a delete discards, as
 * overwritten: written = held + overwritten stays exact (I12).
 */
static void lkst_block_discard(struct lkst_cpu_buffer *cb,
			       const struct lkst_block *blk)
{
	u64 held = 0;
	u32 page;

	for (page = 0; page < blk->nr_pages; page++) {
		held += lkst_page_count(lkst_block_page(blk, page));
		if (!(page % 64))
			cond_resched();
	}
	WRITE_ONCE(cb->discarded, cb->discarded + held);
}

static u64 lkst_lost_records(struct lkst_cpu_buffer *cb)
{
	return local64_read(&cb->overwritten) + READ_ONCE(cb->discarded);
}

static int lkst_cpu_first_block(unsigned int cpu, unsigned int block_size)
{
	struct lkst_cpu_buffer *cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);
	struct lkst_block *blk;
	void *persist_pages;
	u32 nr_pages;

	if (lkst_cpu_has_blocks(cb))
		return 0;	/* online before: keeps its blocks */
	persist_pages = lkst_persist_pages(cpu, &nr_pages);
	if (persist_pages) {
		blk = kzalloc_node(sizeof(*blk), GFP_KERNEL, cpu_to_node(cpu));
		if (!blk)
			return -ENOMEM;
		blk->nr_pages = nr_pages;
		blk->next = LKST_NO_NEXT;
		blk->persistent = true;
		blk->pages = persist_pages;	/* emptied by lkst_persist_init() */
	} else {
		blk = lkst_block_alloc(cpu, 0, block_size, LKST_NO_NEXT);
		if (!blk)
			return -ENOMEM;
	}
	lkst_buf_init_first_page(cb, blk);
	rcu_assign_pointer(cb->blocks[0], blk);
	return 0;
}

/*
 * Before a CPU comes up.  Tracing is no reason to keep a CPU offline:
 * without memory it runs untraced, its events counted as dropped.
 */
static int lkst_cpu_prepare(unsigned int cpu)
{
	if (lkst_cpu_first_block(cpu, READ_ONCE(lkst_first_block_size)))
		pr_warn("lkst: no memory for CPU %u's buffer; it is not traced\n",
			cpu);
	return 0;
}

/* The CPUs online now get block 0, wrapping onto itself; others later. */
int __init lkst_buffers_init(unsigned int block_size)
{
	unsigned int cpu;
	int ret = 0;

	lkst_persist_init();
	cpus_read_lock();
	lkst_first_block_size = block_size;
	for_each_online_cpu(cpu) {
		ret = lkst_cpu_first_block(cpu, block_size);
		if (ret)
			goto unlock;
	}
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_BP_PREPARE_DYN,
						   "lkst:prepare",
						   lkst_cpu_prepare, NULL);
	lkst_cpuhp_state = ret;
	ret = ret < 0 ? ret : 0;
unlock:
	cpus_read_unlock();
	return ret;
}

int lkst_cpu_info(struct lkst_cpu_info *info)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(info->cpu);
	struct lkst_block *blocks[LKST_MAX_BLOCKS];
	unsigned int id;
	u64 pos;

	if (!cb)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	lkst_cpu_blocks(cb, blocks);
	info->online = cpu_online(info->cpu);
	info->nr_blocks = 0;
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (blocks[id])
			info->nr_blocks++;
	info->next_seq = lkst_buf_next_seq(cb, blocks);
	pos = local64_read(&cb->pos);
	info->current_block = lkst_pos_block(pos);
	info->current_offset = (u64)lkst_pos_page(pos) * LKST_PAGE_SIZE +
			       lkst_pos_offset(pos);
	/* Every number given is a record written, or being written (I12). */
	info->written = info->next_seq;
	info->overwritten = lkst_lost_records(cb);
	info->dropped = local64_read(&cb->dropped);
	info->mode = READ_ONCE(cb->mode);
	info->__pad = 0;
	mutex_unlock(&lkst_buf_mutex);
	return 0;
}

int lkst_block_info(struct lkst_block_info *info)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(info->cpu);
	struct lkst_block *blk;
	int ret = 0;

	if (!cb || info->block >= LKST_MAX_BLOCKS || info->__pad)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	blk = lkst_block_get(cb, info->block);
	if (blk) {
		info->nr_pages = blk->nr_pages;
		info->size = blk->nr_pages * LKST_PAGE_SIZE;
		info->next = READ_ONCE(blk->next);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

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
	ret = lkst_buf_walk(blocks, refs, min(nr, nr_pages), cursor,
			    stop_at_hole, rd->page, lkst_reader_emit, rd,
			    next_seq);
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

	lkst_cpu_blocks(cb, blocks);
	return lkst_read_blocks(blocks, only_block, cursor, stop_at_hole, rd,
				next_seq);
}

/* Copy a block's committed records to user space, oldest first. */
int lkst_block_read(struct lkst_block_read *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
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

/*
 * Copy the CPU's committed records numbered from the cursor on, in order,
 * stopping before one still being written (see struct lkst_buffer_drain).
 * The walk starts at the page holding the cursor and never blocks a
 * writer.
 */
int lkst_buffer_drain(struct lkst_buffer_drain *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	struct lkst_block *blocks[LKST_MAX_BLOCKS];
	struct lkst_reader *rd;
	int ret;

	if (!cb)
		return -EINVAL;
	rd = lkst_drain_reader(req);
	if (!rd)
		return -ENOMEM;
	mutex_lock(&lkst_buf_mutex);
	lkst_cpu_blocks(cb, blocks);
	ret = lkst_drain_blocks(blocks, req, true, rd);
	if (!ret) {
		req->written = lkst_buf_next_seq(cb, blocks);
		req->overwritten = lkst_lost_records(cb);
		req->dropped = local64_read(&cb->dropped);
	}
	mutex_unlock(&lkst_buf_mutex);
	kvfree(rd);
	return ret;
}

int lkst_previous_info_get(struct lkst_previous_info *info)
{
	int ret;

	mutex_lock(&lkst_buf_mutex);
	ret = lkst_previous_info(info);
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

/*
 * The previous boot's records of one CPU, as a drain gives them: nothing
 * writes there any more, so there is no record in flight to stop at.
 */
int lkst_previous_drain(struct lkst_buffer_drain *req)
{
	struct lkst_block *blocks[LKST_MAX_BLOCKS] = {};
	struct lkst_reader *rd;
	int ret;

	rd = lkst_drain_reader(req);
	if (!rd)
		return -ENOMEM;
	mutex_lock(&lkst_buf_mutex);
	blocks[0] = lkst_previous_block(req->cpu);
	ret = blocks[0] ? 0 : lkst_previous_block(0) ? -EINVAL : -ENOENT;
	if (!ret)
		ret = lkst_drain_blocks(blocks, req, false, rd);
	if (!ret) {
		req->written = lkst_previous_end(blocks[0]);
		if (!lkst_previous_counts(req->cpu, &req->overwritten,
					  &req->dropped)) {
			req->overwritten = req->written -
					   lkst_previous_held(blocks[0]);
			req->dropped = 0;
		}
	}
	mutex_unlock(&lkst_buf_mutex);
	kvfree(rd);
	return ret;
}

int lkst_previous_release(void)
{
	int ret = 0;

	mutex_lock(&lkst_buf_mutex);
	if (lkst_previous_block(0))
		lkst_previous_free();
	else
		ret = -ENOENT;
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

int lkst_buffer_mode(const struct lkst_buffer_mode *req)
{
	unsigned int cpu;

	if (req->mode > LKST_MODE_STOP)
		return -EINVAL;
	if (req->cpu != LKST_ALL_CPUS) {
		struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);

		if (!cb)
			return -EINVAL;
		WRITE_ONCE(cb->mode, req->mode);
		return 0;
	}
	for_each_possible_cpu(cpu)
		WRITE_ONCE(lkst_cpu_buffer(cpu)->mode, req->mode);
	return 0;
}

struct lkst_resize_request {
	struct lkst_cpu_buffer *cb;
	struct lkst_block **blocks;	/* by ID: new blocks in, old ones out */
	int ret;
};

/*
 * On the buffer's own CPU (I1), with interrupts off: hold the write
 * position (writers of NMIs drop meanwhile, I9), put the new blocks in
 * place and continue at the first page of the current one, numbered on,
 * in a new epoch (I10).  -EBUSY in rr->ret: the IPI interrupted a writer
 * moving to another page; the caller tries again.
 */
static void lkst_resize_on_cpu(void *arg)
{
	struct lkst_resize_request *rr = arg;
	u64 old, first_seq;
	unsigned int id;

	rr->ret = lkst_buf_begin_switch(rr->cb, &old, &first_seq);
	if (rr->ret)
		return;
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (rr->blocks[id])
			rr->blocks[id] = rcu_replace_pointer(rr->cb->blocks[id],
							     rr->blocks[id], true);
	id = lkst_pos_block(old);
	lkst_buf_end_switch(rr->cb, rcu_dereference_sched(rr->cb->blocks[id]),
			    first_seq);
}

/* Nothing writes on an offline CPU; preemption off for the RCU reads. */
static void lkst_resize_on_cpu_offline(struct lkst_resize_request *rr)
{
	preempt_disable();
	lkst_resize_on_cpu(rr);
	preempt_enable();
}

/*
 * Allocate all the new blocks first, then swap them in CPU by CPU; writers
 * still in an old block finish there before synchronize_rcu() returns and
 * the old blocks are freed (I11).  The steps: "Resize" in
 * docs/buffer-design.md.
 */
int lkst_buffer_resize(const struct lkst_buffer_resize *req)
{
	struct lkst_resize_request rr;
	struct lkst_block **swap, *old;
	unsigned int cpu, id, i;
	u64 bytes = 0;
	int ret = 0;

	if (req->size < LKST_BLOCK_MIN_SIZE ||
	    req->size > LKST_BLOCK_MAX_SIZE || req->__pad)
		return -EINVAL;
	swap = kvcalloc(nr_cpu_ids * LKST_MAX_BLOCKS, sizeof(*swap),
			GFP_KERNEL);
	if (!swap)
		return -ENOMEM;

	mutex_lock(&lkst_buf_mutex);
	/* lkst_buf_mutex before cpu_hotplug_lock, as in lkst_block_jump() */
	cpus_read_lock();
	/*
	 * Persistent buffers are the reserve_mem region, whose size the next
	 * boot finds them by: replacing them would end crash survival silently.
	 */
	if (lkst_persisting()) {
		ret = -EPERM;
		goto free;
	}
	for_each_possible_cpu(cpu)
		for (id = 0; id < LKST_MAX_BLOCKS; id++)
			if (lkst_block_get(lkst_cpu_buffer(cpu), id))
				bytes += lkst_block_bytes(req->size);
	/* The old blocks are freed only after the new ones are in place. */
	ret = lkst_check_memory(bytes);
	if (ret)
		goto free;
	for_each_possible_cpu(cpu) {
		for (id = 0; id < LKST_MAX_BLOCKS; id++) {
			old = lkst_block_get(lkst_cpu_buffer(cpu), id);
			if (!old)
				continue;
			i = cpu * LKST_MAX_BLOCKS + id;
			swap[i] = lkst_block_alloc(cpu, id, req->size,
						   READ_ONCE(old->next));
			if (!swap[i]) {
				ret = -ENOMEM;
				goto free;
			}
		}
	}
	for_each_possible_cpu(cpu) {
		rr.cb = lkst_cpu_buffer(cpu);
		rr.blocks = &swap[cpu * LKST_MAX_BLOCKS];
		/*
		 * No block, nothing to replace: its first block, when it
		 * comes, has the new size.  (Its position names no block, so
		 * lkst_buf_begin_switch() would say -EBUSY for ever.)
		 */
		if (!lkst_cpu_has_blocks(rr.cb))
			continue;
		do {
			if (cpu_online(cpu))
				smp_call_function_single(cpu, lkst_resize_on_cpu,
							 &rr, 1);
			else
				lkst_resize_on_cpu_offline(&rr);
		} while (rr.ret == -EBUSY);
	}
	WRITE_ONCE(lkst_first_block_size, req->size);
	synchronize_rcu();
	/* swap[] holds the old blocks now: count what they held. */
	for_each_possible_cpu(cpu)
		for (id = 0; id < LKST_MAX_BLOCKS; id++)
			if (swap[cpu * LKST_MAX_BLOCKS + id])
				lkst_block_discard(lkst_cpu_buffer(cpu),
						   swap[cpu * LKST_MAX_BLOCKS + id]);
free:
	cpus_read_unlock();
	for (i = 0; i < nr_cpu_ids * LKST_MAX_BLOCKS; i++)
		if (swap[i])
			lkst_block_free(swap[i]);
	mutex_unlock(&lkst_buf_mutex);
	kvfree(swap);
	return ret;
}

static int lkst_check_next(struct lkst_cpu_buffer *cb, unsigned int next)
{
	if (next == LKST_NO_NEXT)
		return 0;
	if (next >= LKST_MAX_BLOCKS)
		return -EINVAL;
	return lkst_block_get(cb, next) ? 0 : -ENOENT;
}

struct lkst_start_request {
	struct lkst_cpu_buffer *cb;
	struct lkst_block *blk;
};

/* The position first, then the block: no writer finds one before (I11). */
static void lkst_start_on_cpu(void *arg)
{
	struct lkst_start_request *sr = arg;

	lkst_buf_init_first_page(sr->cb, sr->blk);
	rcu_assign_pointer(sr->cb->blocks[sr->blk->id], sr->blk);
}

/*
 * The first block of a CPU that has none (never online, or its first
 * block could not be had): page 0 empty and current, as coming online
 * makes it, which then keeps it.  The position changes only on its own
 * CPU (I1); nothing writes on an offline one, and it cannot come up
 * meanwhile (the caller holds the hotplug lock).
 */
static void lkst_buffer_start(unsigned int cpu, struct lkst_cpu_buffer *cb,
			      struct lkst_block *blk)
{
	struct lkst_start_request sr = { .cb = cb, .blk = blk };

	if (cpu_online(cpu)) {
		smp_call_function_single(cpu, lkst_start_on_cpu, &sr, 1);
	} else {
		preempt_disable();
		lkst_start_on_cpu(&sr);
		preempt_enable();
	}
}

int lkst_block_create(struct lkst_block_create *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	struct lkst_block *blk;
	unsigned int id;
	int ret;

	if (!cb || req->size < LKST_BLOCK_MIN_SIZE ||
	    req->size > LKST_BLOCK_MAX_SIZE)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();	/* no first block appears meanwhile */
	ret = lkst_check_next(cb, req->next);
	if (!ret)
		ret = lkst_check_memory(lkst_block_bytes(req->size));
	if (ret)
		goto unlock;
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (!lkst_block_get(cb, id))
			break;
	if (id == LKST_MAX_BLOCKS) {
		ret = -ENOSPC;
		goto unlock;
	}
	blk = lkst_block_alloc(req->cpu, id, req->size, req->next);
	if (!blk) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (lkst_cpu_has_blocks(cb))
		rcu_assign_pointer(cb->blocks[id], blk);
	else
		lkst_buffer_start(req->cpu, cb, blk);
	req->block = id;
unlock:
	cpus_read_unlock();
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

int lkst_block_link(const struct lkst_block_link *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	struct lkst_block *blk;
	int ret;

	if (!cb || req->block >= LKST_MAX_BLOCKS || req->__pad)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	blk = lkst_block_get(cb, req->block);
	ret = blk ? lkst_check_next(cb, req->next) : -ENOENT;
	if (!ret)
		WRITE_ONCE(blk->next, req->next);
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

static bool lkst_block_is_current(struct lkst_cpu_buffer *cb, unsigned int id)
{
	return lkst_pos_block(local64_read(&cb->pos)) == id;
}

/*
 * Unlink and unpublish the block, wait until no writer can still be moving
 * into it, then free it, unless a writer that had read an old link made it
 * current meanwhile: then it is put back as it was (I11).  The steps:
 * "Delete" in docs/buffer-design.md.
 */
int lkst_block_delete(const struct lkst_block_link *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	DECLARE_BITMAP(linked_to_it, LKST_MAX_BLOCKS);
	struct lkst_block *blk, *other;
	unsigned int id;
	int ret = 0;

	if (!cb || req->block >= LKST_MAX_BLOCKS || req->next || req->__pad)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();
	blk = lkst_block_get(cb, req->block);
	if (!blk) {
		ret = -ENOENT;
		goto unlock;
	}
	/* The region stays the CPU's buffer: crash survival depends on it. */
	if (blk->persistent) {
		ret = -EPERM;
		goto unlock;
	}
	if (lkst_block_is_current(cb, req->block)) {
		ret = -EBUSY;
		goto unlock;
	}
	bitmap_zero(linked_to_it, LKST_MAX_BLOCKS);
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		other = lkst_block_get(cb, id);
		if (other && other != blk && READ_ONCE(other->next) == req->block) {
			__set_bit(id, linked_to_it);
			WRITE_ONCE(other->next, LKST_NO_NEXT);
		}
	}
	rcu_assign_pointer(cb->blocks[req->block], NULL);
	synchronize_rcu();
	if (lkst_block_is_current(cb, req->block)) {
		rcu_assign_pointer(cb->blocks[req->block], blk);
		for_each_set_bit(id, linked_to_it, LKST_MAX_BLOCKS)
			WRITE_ONCE(lkst_block_get(cb, id)->next, req->block);
		ret = -EBUSY;
		goto unlock;
	}
	lkst_block_discard(cb, blk);
	lkst_block_free(blk);
unlock:
	cpus_read_unlock();
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

struct lkst_jump_request {
	struct lkst_cpu_buffer *cb;
	struct lkst_block *target;
	int ret;
};

static void lkst_jump_on_cpu(void *arg)
{
	struct lkst_jump_request *jr = arg;

	jr->ret = lkst_buf_jump(jr->cb, jr->target);
}

/* Nothing writes on an offline CPU; preemption off for the RCU reads. */
static void lkst_jump_on_cpu_offline(struct lkst_jump_request *jr)
{
	preempt_disable();
	lkst_jump_on_cpu(jr);
	preempt_enable();
}

/* The write position changes only on its own CPU (I1): jump there by IPI. */
int lkst_block_jump(const struct lkst_block_link *req)
{
	struct lkst_jump_request jr = {
		.cb = lkst_cpu_buffer(req->cpu),
	};
	int ret = 0;

	if (!jr.cb || req->block >= LKST_MAX_BLOCKS || req->next || req->__pad)
		return -EINVAL;
	/* lkst_buf_mutex before cpu_hotplug_lock, as in resize and delete */
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();
	jr.target = lkst_block_get(jr.cb, req->block);
	if (!jr.target) {
		ret = -ENOENT;
		goto unlock;
	}
	/* -EBUSY: the IPI came while a writer was moving; it soon is done. */
	do {
		ret = 0;
		if (cpu_online(req->cpu))
			ret = smp_call_function_single(req->cpu,
						       lkst_jump_on_cpu, &jr, 1);
		else
			lkst_jump_on_cpu_offline(&jr);
		ret = ret ?: jr.ret;
	} while (ret == -EBUSY);
unlock:
	cpus_read_unlock();
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

/*
 * For handlers: jump this CPU's buffer, from hook context.  -EBUSY when
 * the hook interrupted a writer of this CPU moving to another page (I9),
 * or when a resize replaced the block (its IPI can land between the lookup
 * and the jump) or a delete holds it unpublished (I11): lkst_buf_jump()
 * checks.
 */
int lkst_buffer_jump(unsigned int block)
{
	struct lkst_cpu_buffer *cb;
	struct lkst_block *target;
	int ret;

	if (block >= LKST_MAX_BLOCKS)
		return -EINVAL;
	preempt_disable_notrace();
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	target = rcu_dereference_sched(cb->blocks[block]);
	ret = target ? lkst_buf_jump(cb, target) : -ENOENT;
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_buffer_jump, LKST);

#ifdef MODULE
/* At unload, once no probe can run (lkst_tracepoints_exit()). */
void lkst_buffers_exit(void)
{
	struct lkst_block *blk;
	unsigned int cpu, id;

	if (lkst_cpuhp_state > 0)
		cpuhp_remove_state_nocalls(lkst_cpuhp_state);
	mutex_lock(&lkst_buf_mutex);
	for_each_possible_cpu(cpu) {
		struct lkst_cpu_buffer *cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);

		for (id = 0; id < LKST_MAX_BLOCKS; id++) {
			blk = lkst_block_get(cb, id);
			if (!blk)
				continue;
			RCU_INIT_POINTER(cb->blocks[id], NULL);
			lkst_block_free(blk);
		}
	}
	mutex_unlock(&lkst_buf_mutex);
}
#endif
