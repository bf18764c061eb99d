// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffer management, changing the blocks while hooks write into them:
 * resizing every CPU's buffer, creating, linking and deleting a block, and
 * moving a CPU's write position to another block (jump).  The protocols
 * ("Resize", "Delete", "Jump") are in docs/buffer-design.md; the buffers
 * and the helpers used here: buffers.c.
 */
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include "buffers.h"

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

/**
 * lkc_ioc_buffer_resize() - give every block of every CPU a new size
 *	(LKST_IOC_BUFFER_RESIZE)
 * @req: the new size in bytes (whole pages of it are used)
 *
 * Allocates all the new blocks first, then swaps them in CPU by CPU;
 * writers still in an old block finish there before synchronize_rcu()
 * returns and the old blocks are freed (I11), their records counted as
 * overwritten (I12).  A CPU with no block gets the new size with its
 * first one.  The steps: "Resize" in docs/buffer-design.md.
 *
 * Context: process context; sleeps; takes the CPU hotplug lock.
 * Return: 0; -EINVAL for a size out of LKST_BLOCK_MIN_SIZE..
 * LKST_BLOCK_MAX_SIZE or non-zero padding; -EPERM while the buffers are
 * the persistent region; -ENOMEM when the new blocks do not fit in
 * available memory or cannot be allocated (nothing is changed then).
 */
int lkc_ioc_buffer_resize(const struct lkst_buffer_resize *req)
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
	/* lkst_buf_mutex before cpu_hotplug_lock, as in lkc_ioc_block_jump() */
	cpus_read_lock();
	/*
	 * Persistent buffers are the reserve_mem region, whose size the next
	 * boot finds them by: replacing them would end crash survival silently.
	 */
	if (lkc_persisting()) {
		ret = -EPERM;
		goto free;
	}
	for_each_possible_cpu(cpu)
		for (id = 0; id < LKST_MAX_BLOCKS; id++)
			if (lkc_block_get(lkc_cpu_buffer(cpu), id))
				bytes += lkc_block_bytes(req->size);
	/* The old blocks are freed only after the new ones are in place. */
	ret = lkc_check_memory(bytes);
	if (ret)
		goto free;
	for_each_possible_cpu(cpu) {
		for (id = 0; id < LKST_MAX_BLOCKS; id++) {
			old = lkc_block_get(lkc_cpu_buffer(cpu), id);
			if (!old)
				continue;
			i = cpu * LKST_MAX_BLOCKS + id;
			swap[i] = lkc_block_alloc(cpu, id, req->size,
						  READ_ONCE(old->next));
			if (!swap[i]) {
				ret = -ENOMEM;
				goto free;
			}
		}
	}
	for_each_possible_cpu(cpu) {
		rr.cb = lkc_cpu_buffer(cpu);
		rr.blocks = &swap[cpu * LKST_MAX_BLOCKS];
		/*
		 * No block, nothing to replace: its first block, when it
		 * comes, has the new size.  (Its position names no block, so
		 * lkst_buf_begin_switch() would say -EBUSY for ever.)
		 */
		if (!lkc_cpu_has_blocks(rr.cb))
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
				lkc_block_discard(lkc_cpu_buffer(cpu),
						  swap[cpu * LKST_MAX_BLOCKS + id]);
free:
	cpus_read_unlock();
	for (i = 0; i < nr_cpu_ids * LKST_MAX_BLOCKS; i++)
		if (swap[i])
			lkc_block_free(swap[i]);
	mutex_unlock(&lkst_buf_mutex);
	kvfree(swap);
	return ret;
}

/*
 * A CPU whose first block is its share of the persistent region
 * (lkst.persist=) writes there only: the next boot finds its records
 * there and nowhere else.  Moving the writer to another block, by a jump
 * or by a link at the region's end, would end crash survival silently, as
 * a resize would: refused the same way (EPERM).  @first: the CPU's block
 * 0, the only one that can be persistent.
 */
static bool lkst_leaves_region(const struct lkst_block *first,
			       const struct lkst_block *target)
{
	return first && first->persistent && target != first;
}

static int lkst_check_next(struct lkst_cpu_buffer *cb, unsigned int next)
{
	if (next == LKST_NO_NEXT)
		return 0;
	if (next >= LKST_MAX_BLOCKS)
		return -EINVAL;
	return lkc_block_get(cb, next) ? 0 : -ENOENT;
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

/**
 * lkc_ioc_block_create() - add a block to a CPU's buffer
 *	(LKST_IOC_BLOCK_CREATE)
 * @req: the CPU, size and next block in; the new block's ID, the lowest
 *	free one, out in @req->block
 *
 * No other block links to the new one yet; its writer moves on to
 * @req->next when it is full (LKST_NO_NEXT: wraps onto itself).  A CPU
 * that has no block yet starts writing in it.
 *
 * Context: process context; sleeps; takes the CPU hotplug lock.
 * Return: 0; -EINVAL when @req->cpu is not a possible CPU, the size is out
 * of range, or @req->next is neither a block ID nor LKST_NO_NEXT; -ENOENT
 * when the CPU has no block @req->next; -ENOSPC when it has
 * LKST_MAX_BLOCKS already; -ENOMEM.
 */
int lkc_ioc_block_create(struct lkst_block_create *req)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);
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
		ret = lkc_check_memory(lkc_block_bytes(req->size));
	if (ret)
		goto unlock;
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (!lkc_block_get(cb, id))
			break;
	if (id == LKST_MAX_BLOCKS) {
		ret = -ENOSPC;
		goto unlock;
	}
	blk = lkc_block_alloc(req->cpu, id, req->size, req->next);
	if (!blk) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (lkc_cpu_has_blocks(cb))
		rcu_assign_pointer(cb->blocks[id], blk);
	else
		lkst_buffer_start(req->cpu, cb, blk);
	req->block = id;
unlock:
	cpus_read_unlock();
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

/**
 * lkc_ioc_block_link() - set the block a block's writer moves to when it is
 *	full (LKST_IOC_BLOCK_LINK)
 * @req: the CPU, the block, and next: a block ID or LKST_NO_NEXT (wrap)
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @req->cpu is not a possible CPU, a block ID is
 * out of range or the padding is not zero; -ENOENT when the CPU has no
 * such block, or no block @req->next; -EPERM when the block is the
 * persistent region's and @req->next another block (the writer would
 * leave the region).
 */
int lkc_ioc_block_link(const struct lkst_block_link *req)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);
	struct lkst_block *blk;
	int ret;

	if (!cb || req->block >= LKST_MAX_BLOCKS || req->__pad)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	blk = lkc_block_get(cb, req->block);
	ret = blk ? lkst_check_next(cb, req->next) : -ENOENT;
	if (!ret && req->next != LKST_NO_NEXT &&
	    lkst_leaves_region(blk, lkc_block_get(cb, req->next)))
		ret = -EPERM;
	if (!ret)
		WRITE_ONCE(blk->next, req->next);
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

static bool lkst_block_is_current(struct lkst_cpu_buffer *cb, unsigned int id)
{
	return lkst_pos_block(local64_read(&cb->pos)) == id;
}

/**
 * lkc_ioc_block_delete() - free a block that is not being written
 *	(LKST_IOC_BLOCK_DELETE)
 * @req: the CPU and the block; the padding must be zero
 *
 * Unlinks and unpublishes the block, waits until no writer can still be
 * moving into it, then frees it, its records counted as overwritten
 * (I12), unless a writer that had read an old link made it current
 * meanwhile: then it is put back as it was (I11).  The steps: "Delete" in
 * docs/buffer-design.md.
 *
 * Context: process context; sleeps; takes the CPU hotplug lock.
 * Return: 0; -EINVAL when @req->cpu is not a possible CPU, the block ID is
 * out of range, or the padding is not zero; -ENOENT when the CPU
 * has no such block; -EPERM for a block of the persistent region; -EBUSY
 * when it is the block being written.
 */
int lkc_ioc_block_delete(const struct lkst_block_delete *req)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);
	DECLARE_BITMAP(linked_to_it, LKST_MAX_BLOCKS);
	struct lkst_block *blk, *other;
	unsigned int id;
	int ret = 0;

	if (!cb || req->block >= LKST_MAX_BLOCKS || req->__pad[0] ||
	    req->__pad[1])
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();
	blk = lkc_block_get(cb, req->block);
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
		other = lkc_block_get(cb, id);
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
			WRITE_ONCE(lkc_block_get(cb, id)->next, req->block);
		ret = -EBUSY;
		goto unlock;
	}
	lkc_block_discard(cb, blk);
	lkc_block_free(blk);
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

	jr->ret = lkst_buf_jump_pos(jr->cb, jr->target);
}

/* Nothing writes on an offline CPU; preemption off for the RCU reads. */
static void lkst_jump_on_cpu_offline(struct lkst_jump_request *jr)
{
	preempt_disable();
	lkst_jump_on_cpu(jr);
	preempt_enable();
}

/**
 * lkc_ioc_block_jump() - move a CPU's writing to the start of one of its
 *	blocks (LKST_IOC_BLOCK_JUMP)
 * @req: the CPU and the block; the padding must be zero
 *
 * The write position changes only on its own CPU (I1): the jump is made
 * there by IPI, and tried again while it finds a writer moving to another
 * page.  The steps: "Jump" in docs/buffer-design.md.
 *
 * Context: process context; sleeps; takes the CPU hotplug lock.
 * Return: 0; -EINVAL when @req->cpu is not a possible CPU, the block ID is
 * out of range, or the padding is not zero; -ENOENT when the CPU
 * has no such block; -EPERM when the CPU writes into the persistent
 * region and the block is another; an error of smp_call_function_single().
 */
int lkc_ioc_block_jump(const struct lkst_block_jump *req)
{
	struct lkst_jump_request jr = {
		.cb = lkc_cpu_buffer(req->cpu),
	};
	int ret = 0;

	if (!jr.cb || req->block >= LKST_MAX_BLOCKS || req->__pad[0] ||
	    req->__pad[1])
		return -EINVAL;
	/* lkst_buf_mutex before cpu_hotplug_lock, as in resize and delete */
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();
	jr.target = lkc_block_get(jr.cb, req->block);
	if (!jr.target) {
		ret = -ENOENT;
		goto unlock;
	}
	if (lkst_leaves_region(lkc_block_get(jr.cb, 0), jr.target)) {
		ret = -EPERM;
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

/**
 * lkst_jump_this_cpu() - move this CPU's writing to the start of a block,
 *	from a handler
 * @block: the block's ID
 *
 * For extended handlers (exported in the LKST namespace), in hook context:
 * the jump is made at once, on this CPU, or refused.
 *
 * Context: any context, NMI included; never sleeps.
 * Return: 0; -EINVAL when @block is LKST_MAX_BLOCKS or more; -ENOENT when
 * this CPU has no such block; -EBUSY when the hook interrupted a writer of
 * this CPU moving to another page (I9), when a writer is still in the
 * target's first page, or when a resize replaced the block (its IPI can
 * land between the lookup and the jump) or a delete holds it unpublished
 * (I11), as lkst_buf_jump_pos() checks; -EPERM when this CPU writes into
 * the persistent region and @block is another block.
 */
int lkst_jump_this_cpu(unsigned int block)
{
	struct lkst_cpu_buffer *cb;
	struct lkst_block *target;
	int ret;

	if (block >= LKST_MAX_BLOCKS)
		return -EINVAL;
	preempt_disable_notrace();
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	target = rcu_dereference_sched(cb->blocks[block]);
	if (!target)
		ret = -ENOENT;
	else if (lkst_leaves_region(rcu_dereference_sched(cb->blocks[0]),
				    target))
		ret = -EPERM;
	else
		ret = lkst_buf_jump_pos(cb, target);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_jump_this_cpu, LKST);
