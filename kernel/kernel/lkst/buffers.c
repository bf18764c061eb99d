// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffer management: creating, linking, deleting, jumping to,
 * resizing and reading the blocks of each CPU's buffer while hooks write
 * into them, and the per-CPU buffer mode.
 *
 * Control operations hold lkst_buf_mutex, never lkst_mutex, so that a
 * maskset switch does not wait for a reader copying a large buffer.
 * Writers take no lock: they find blocks through RCU-published pointers,
 * and a block is freed only after a grace period.  The write position of a
 * CPU is changed only on that CPU.
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

/* The records, then their sequence numbers, in one allocation. */
static size_t lkst_block_bytes(unsigned int size)
{
	return array_size(size / LKST_RECORD_SIZE,
			  LKST_RECORD_SIZE + sizeof(u64));
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
	blk->nr_slots = size / LKST_RECORD_SIZE;
	blk->next = next;
	blk->records = __vmalloc_node(lkst_block_bytes(size), 1,
				      LKST_BLOCK_GFP | __GFP_ZERO,
				      cpu_to_node(cpu),
				      __builtin_return_address(0));
	if (!blk->records) {
		kfree(blk);
		return NULL;
	}
	blk->seqs = (u64 *)(blk->records + blk->nr_slots);
	return blk;
}

static void lkst_block_free(struct lkst_block *blk)
{
	vfree(blk->records);
	kfree(blk);
}

/*
 * Count the committed records of a block no writer can reach any more
 * (after a grace period), which a resize or a delete discards, as
 * overwritten: written = held + overwritten stays exact.
 */
static void lkst_block_discard(struct lkst_cpu_buffer *cb,
			       const struct lkst_block *blk)
{
	u64 held = 0;
	u32 slot;

	for (slot = 0; slot < blk->nr_slots; slot++) {
		if (READ_ONCE(blk->records[slot].time_ns))
			held++;
		if (!(slot % 4096))
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
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (rcu_access_pointer(cb->blocks[id]))
			return 0;	/* online before: keeps its blocks */
	blk = lkst_block_alloc(cpu, 0, block_size, LKST_NO_NEXT);
	if (!blk)
		return -ENOMEM;
	local64_set(&cb->pos, lkst_make_pos(0, 0));
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
	ret = ret < 0 ? ret : 0;
unlock:
	cpus_read_unlock();
	return ret;
}

int lkst_cpu_info(struct lkst_cpu_info *info)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(info->cpu);
	unsigned int id;
	u64 pos;

	if (!cb)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	info->online = cpu_online(info->cpu);
	info->nr_blocks = 0;
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (lkst_block_get(cb, id))
			info->nr_blocks++;
	pos = local64_read(&cb->pos);
	info->current_block = lkst_pos_block(pos);
	info->current_slot = lkst_pos_slot(pos);
	info->written = local64_read(&cb->written);
	info->overwritten = lkst_lost_records(cb);
	info->dropped = local64_read(&cb->dropped);
	info->next_seq = local64_read(&cb->next_seq);
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
		info->nr_slots = blk->nr_slots;
		info->size = blk->nr_slots * LKST_RECORD_SIZE;
		info->next = READ_ONCE(blk->next);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

#define LKST_READ_CHUNK 64
#define LKST_SCAN_BATCH 4096

/* Copy a block's committed records to user space, oldest first. */
int lkst_block_read(struct lkst_block_read *req)
{
	struct lkst_record __user *dst = u64_to_user_ptr(req->records);
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	struct lkst_record *chunk;
	struct lkst_block *blk;
	u32 start, i, filled = 0, copied = 0;
	int ret = 0;

	if (!cb || req->block >= LKST_MAX_BLOCKS)
		return -EINVAL;
	chunk = kmalloc_array(LKST_READ_CHUNK, sizeof(*chunk), GFP_KERNEL);
	if (!chunk)
		return -ENOMEM;

	mutex_lock(&lkst_buf_mutex);
	blk = lkst_block_get(cb, req->block);
	if (!blk) {
		ret = -ENOENT;
		goto unlock;
	}
	start = lkst_buf_oldest_slot(cb, blk);
	for (i = 0; i < blk->nr_slots && copied < req->max_records; i++) {
		u32 slot = (start + i) % blk->nr_slots;

		if (!lkst_buf_copy_record(blk, slot, &chunk[filled]))
			continue;
		if (++filled < LKST_READ_CHUNK &&
		    copied + filled < req->max_records)
			continue;
		if (copy_to_user(dst + copied, chunk, filled * sizeof(*chunk))) {
			ret = -EFAULT;
			goto unlock;
		}
		copied += filled;
		filled = 0;
		cond_resched();
	}
	if (filled && copy_to_user(dst + copied, chunk,
				   filled * sizeof(*chunk)))
		ret = -EFAULT;
	copied += filled;
	req->nr_records = copied;
unlock:
	mutex_unlock(&lkst_buf_mutex);
	kfree(chunk);
	return ret;
}

/* Copies chunk[0..filled) and its numbers to the user's arrays at @at. */
static int lkst_drain_flush(struct lkst_buffer_drain *req,
			    const struct lkst_record *chunk, const u64 *seqs,
			    u32 at, u32 filled)
{
	struct lkst_record __user *records = u64_to_user_ptr(req->records);
	u64 __user *user_seqs = u64_to_user_ptr(req->seqs);

	if (copy_to_user(records + at, chunk, filled * sizeof(*chunk)) ||
	    copy_to_user(user_seqs + at, seqs, filled * sizeof(*seqs)))
		return -EFAULT;
	return 0;
}

/* A number below next_seq whose slot is still being written. */
static void lkst_drain_busy(struct lkst_buffer_drain *req, u64 seq)
{
	if (req->nr_busy < LKST_DRAIN_MAX_BUSY)
		req->busy_seqs[req->nr_busy++] = seq;
	else
		req->flags |= LKST_DRAIN_BUSY_OVERFLOW;
}

/*
 * Copy the CPU's committed records numbered [cursor, next_seq).  next_seq
 * is read first: a number below it was stored in its slot, BUSY already,
 * before it was taken, so the scan finds that slot holding the record, a
 * newer one that overwrote it, or BUSY with that number.  A slot claimed
 * during the scan holds a number from next_seq on.  The scan never blocks
 * a writer.
 */
int lkst_buffer_drain(struct lkst_buffer_drain *req)
{
	struct lkst_cpu_buffer *cb = lkst_cpu_buffer(req->cpu);
	u32 copied = 0, filled = 0, slot, id;
	struct lkst_record *chunk;
	struct lkst_block *blk;
	u64 *seqs, seq = 0;
	int ret = 0, got;

	if (!cb)
		return -EINVAL;
	chunk = kmalloc_array(LKST_READ_CHUNK, sizeof(*chunk), GFP_KERNEL);
	seqs = kmalloc_array(LKST_READ_CHUNK, sizeof(*seqs), GFP_KERNEL);
	if (!chunk || !seqs) {
		ret = -ENOMEM;
		goto out;
	}

	mutex_lock(&lkst_buf_mutex);
	req->flags = 0;
	req->nr_slots = 0;
	req->nr_busy = 0;
	req->__pad = 0;
	req->next_seq = local64_read(&cb->next_seq);
	smp_rmb();	/* the number before the slots claimed ahead of it */
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		blk = lkst_block_get(cb, id);
		if (!blk)
			continue;
		req->nr_slots += blk->nr_slots;
		for (slot = 0; slot < blk->nr_slots; slot++) {
			if (!(slot % LKST_SCAN_BATCH))
				cond_resched();	/* blocks hold up to 4M slots */
			got = lkst_buf_copy_record_seq(blk, slot, &chunk[filled],
						       &seq);
			if (got != LKST_COPY_OK && got != LKST_COPY_BUSY)
				continue;
			if (seq < req->cursor || seq >= req->next_seq)
				continue;
			if (got == LKST_COPY_BUSY) {
				lkst_drain_busy(req, seq);
				continue;
			}
			if (copied + filled >= req->max_records) {
				req->flags |= LKST_DRAIN_TRUNCATED;
				continue;
			}
			seqs[filled] = seq;
			if (++filled < LKST_READ_CHUNK)
				continue;
			ret = lkst_drain_flush(req, chunk, seqs, copied, filled);
			if (ret)
				goto unlock;
			copied += filled;
			filled = 0;
		}
	}
	ret = lkst_drain_flush(req, chunk, seqs, copied, filled);
	if (ret)
		goto unlock;
	req->nr_records = copied + filled;
	req->written = local64_read(&cb->written);
	req->overwritten = lkst_lost_records(cb);
	req->dropped = local64_read(&cb->dropped);
unlock:
	mutex_unlock(&lkst_buf_mutex);
out:
	kfree(seqs);
	kfree(chunk);
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
};

/*
 * On the buffer's own CPU, with interrupts off: put the new blocks in
 * place and continue at the first slot of the current one, so that no
 * writer of this CPU sees a new block before the rewind.
 */
static void lkst_resize_on_cpu(void *arg)
{
	struct lkst_resize_request *rr = arg;
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (rr->blocks[id])
			rr->blocks[id] = rcu_replace_pointer(rr->cb->blocks[id],
							     rr->blocks[id], true);
	lkst_buf_jump(rr->cb, lkst_pos_block(local64_read(&rr->cb->pos)));
}

/*
 * Allocate all the new blocks first, then swap them in CPU by CPU; writers
 * still in an old block finish there before synchronize_rcu() returns and
 * the old blocks are freed.
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
		if (cpu_online(cpu))
			smp_call_function_single(cpu, lkst_resize_on_cpu, &rr, 1);
		else
			lkst_resize_on_cpu(&rr);	/* nothing writes there */
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
	rcu_assign_pointer(cb->blocks[id], blk);
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
 * current meanwhile: then it is put back as it was.
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
	u32 block;
};

static void lkst_jump_on_cpu(void *arg)
{
	struct lkst_jump_request *jr = arg;

	lkst_buf_jump(jr->cb, jr->block);
}

/* The write position changes only on its own CPU: jump there by IPI. */
int lkst_block_jump(const struct lkst_block_link *req)
{
	struct lkst_jump_request jr = {
		.cb = lkst_cpu_buffer(req->cpu),
		.block = req->block,
	};
	int ret = 0;

	if (!jr.cb || req->block >= LKST_MAX_BLOCKS || req->next || req->__pad)
		return -EINVAL;
	/* lkst_buf_mutex before cpu_hotplug_lock, as in resize and delete */
	mutex_lock(&lkst_buf_mutex);
	cpus_read_lock();
	if (!lkst_block_get(jr.cb, req->block))
		ret = -ENOENT;
	else if (cpu_online(req->cpu))
		ret = smp_call_function_single(req->cpu, lkst_jump_on_cpu,
					       &jr, 1);
	else
		lkst_jump_on_cpu(&jr);	/* offline: nothing writes there */
	cpus_read_unlock();
	mutex_unlock(&lkst_buf_mutex);
	return ret;
}

/* For handlers: jump this CPU's buffer, from hook context. */
int lkst_buffer_jump(unsigned int block)
{
	struct lkst_cpu_buffer *cb;
	int ret = 0;

	if (block >= LKST_MAX_BLOCKS)
		return -EINVAL;
	preempt_disable_notrace();
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	if (rcu_dereference_sched(cb->blocks[block]))
		lkst_buf_jump(cb, block);
	else
		ret = -ENOENT;
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_buffer_jump, LKST);
