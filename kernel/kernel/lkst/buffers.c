// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffer management, the CPUs' side: each CPU's buffer and its blocks
 * (allocated, freed, counted), the first block a CPU gets when it comes
 * online, the CPU and block information and the per-CPU buffer mode.
 * Reading the records: buffers_read.c; changing the blocks (resize,
 * create, link, delete, jump): buffers_layout.c.
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
#include "buffers.h"

DEFINE_PER_CPU(struct lkst_cpu_buffer, lkst_cpu_buffers);

DEFINE_MUTEX(lkst_buf_mutex);

/* Size of the first block of a CPU that comes online; follows resize. */
unsigned int lkst_first_block_size;
static int lkst_cpuhp_state;

struct lkst_cpu_buffer *lkc_cpu_buffer(unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		return NULL;
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	if (!cpu_possible(cpu))
		return NULL;
	return per_cpu_ptr(&lkst_cpu_buffers, cpu);
}

struct lkst_block *lkc_block_get(struct lkst_cpu_buffer *cb,
				 unsigned int id)
{
	if (id >= LKST_MAX_BLOCKS)
		return NULL;
	id = array_index_nospec(id, LKST_MAX_BLOCKS);
	return rcu_dereference_protected(cb->blocks[id],
					 lockdep_is_held(&lkst_buf_mutex));
}

/* Blocks are whole pages. */
size_t lkc_block_bytes(unsigned int size)
{
	return (size_t)(size / LKST_PAGE_SIZE) * LKST_PAGE_SIZE;
}

/* The CPU's blocks, stable while lkst_buf_mutex is held. */
void lkc_cpu_blocks(struct lkst_cpu_buffer *cb,
		    struct lkst_block **blocks)
{
	unsigned int id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		blocks[id] = lkc_block_get(cb, id);
}

/*
 * False for a CPU that was never online, or whose first block could not
 * be had.  Only whether pointers are set: stable under lkst_buf_mutex or
 * the hotplug lock, which every caller holds.
 */
bool lkc_cpu_has_blocks(struct lkst_cpu_buffer *cb)
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
int lkc_check_memory(u64 bytes)
{
	return (bytes >> PAGE_SHIFT) > si_mem_available() ? -ENOMEM : 0;
}

/*
 * Buffers are asked for by a user: charge them to its memory cgroup, and
 * let a large request fail instead of invoking the OOM killer.
 */
#define LKST_BLOCK_GFP (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
			__GFP_NOWARN)

struct lkst_block *lkc_block_alloc(unsigned int cpu, unsigned int id,
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
	blk->pages = __vmalloc(lkc_block_bytes(size),
			       LKST_BLOCK_GFP | __GFP_ZERO);
#else
	blk->pages = __vmalloc_node(lkc_block_bytes(size), LKST_PAGE_SIZE,
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

void lkc_block_free(struct lkst_block *blk)
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
void lkc_block_discard(struct lkst_cpu_buffer *cb,
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

u64 lkc_lost_records(struct lkst_cpu_buffer *cb)
{
	return local64_read(&cb->overwritten) + READ_ONCE(cb->discarded);
}

static int lkst_cpu_first_block(unsigned int cpu, unsigned int block_size)
{
	struct lkst_cpu_buffer *cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);
	struct lkst_block *blk;
	void *persist_pages;
	u32 nr_pages;

	if (lkc_cpu_has_blocks(cb))
		return 0;	/* online before: keeps its blocks */
	persist_pages = lkc_persist_pages(cpu, &nr_pages);
	if (persist_pages) {
		blk = kzalloc_node(sizeof(*blk), GFP_KERNEL, cpu_to_node(cpu));
		if (!blk)
			return -ENOMEM;
		blk->nr_pages = nr_pages;
		blk->next = LKST_NO_NEXT;
		blk->persistent = true;
		blk->pages = persist_pages;	/* emptied by lkc_persist_init() */
	} else {
		blk = lkc_block_alloc(cpu, 0, block_size, LKST_NO_NEXT);
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

/**
 * lkc_buffers_init() - give the CPUs online now their first block
 * @block_size: bytes of each CPU's first block (whole pages of it are used)
 *
 * Sets the persistent region up if the command line asked for one, gives
 * each CPU online now block 0, wrapping onto itself, and registers the
 * hotplug step that gives a CPU coming online later its own.
 *
 * Context: boot, process context; takes the CPU hotplug lock.
 * Return: 0; -ENOMEM when a first block cannot be allocated; the error of
 * cpuhp_setup_state_nocalls_cpuslocked() when no hotplug step is left.
 */
int __init lkc_buffers_init(unsigned int block_size)
{
	unsigned int cpu;
	int ret = 0;

	lkc_persist_init();
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

/**
 * lkc_ioc_cpu_info() - describe one CPU's buffer (LKST_IOC_CPU_INFO)
 * @info: the CPU in @info->cpu; every other field is filled in
 *
 * Whether the CPU is online, how many blocks it has, the number of its next
 * record, the write position (block, byte offset), the records written,
 * overwritten and dropped, and its mode, read under lkst_buf_mutex.
 *
 * Context: process context; sleeps.
 * Return: 0, or -EINVAL when @info->cpu is not a possible CPU.
 */
int lkc_ioc_cpu_info(struct lkst_cpu_info *info)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(info->cpu);
	struct lkst_block *blocks[LKST_MAX_BLOCKS];
	unsigned int id;
	u64 pos;

	if (!cb)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	lkc_cpu_blocks(cb, blocks);
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
	info->overwritten = lkc_lost_records(cb);
	info->dropped = local64_read(&cb->dropped);
	info->mode = READ_ONCE(cb->mode);
	info->__pad = 0;
	mutex_unlock(&lkst_buf_mutex);
	return 0;
}

/**
 * lkc_ioc_block_info() - describe one block of a CPU (LKST_IOC_BLOCK_INFO)
 * @info: the CPU and block ID in; its pages, size and next block out
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @info->cpu is not a possible CPU, the block ID
 * is LKST_MAX_BLOCKS or more, or the padding is not zero; -ENOENT when the
 * CPU has no block of that ID.
 */
int lkc_ioc_block_info(struct lkst_block_info *info)
{
	struct lkst_cpu_buffer *cb = lkc_cpu_buffer(info->cpu);
	struct lkst_block *blk;
	int ret = 0;

	if (!cb || info->block >= LKST_MAX_BLOCKS || info->__pad)
		return -EINVAL;
	mutex_lock(&lkst_buf_mutex);
	blk = lkc_block_get(cb, info->block);
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

/**
 * lkc_ioc_buffer_mode() - set what a full buffer does (LKST_IOC_BUFFER_MODE)
 * @req: a CPU, or LKST_ALL_CPUS, and LKST_MODE_OVERWRITE or LKST_MODE_STOP
 *
 * A writer reads the mode when it is about to reset a page that holds
 * records: in STOP mode it stops there and counts drops instead (I7).
 *
 * Context: process context; takes no lock.
 * Return: 0, or -EINVAL for an unknown mode or a CPU that is neither
 * possible nor LKST_ALL_CPUS.
 */
int lkc_ioc_buffer_mode(const struct lkst_buffer_mode *req)
{
	unsigned int cpu;

	if (req->mode > LKST_MODE_STOP)
		return -EINVAL;
	if (req->cpu != LKST_ALL_CPUS) {
		struct lkst_cpu_buffer *cb = lkc_cpu_buffer(req->cpu);

		if (!cb)
			return -EINVAL;
		WRITE_ONCE(cb->mode, req->mode);
		return 0;
	}
	for_each_possible_cpu(cpu)
		WRITE_ONCE(lkc_cpu_buffer(cpu)->mode, req->mode);
	return 0;
}

#ifdef MODULE
/**
 * lkc_buffers_exit() - free every CPU's blocks when lkst.ko unloads
 *
 * Removes the hotplug step and frees each block of each CPU.
 *
 * Context: module unload, once no probe can run (after
 * lkc_tracepoints_exit()); sleeps.
 */
void lkc_buffers_exit(void)
{
	struct lkst_block *blk;
	unsigned int cpu, id;

	if (lkst_cpuhp_state > 0)
		cpuhp_remove_state_nocalls(lkst_cpuhp_state);
	mutex_lock(&lkst_buf_mutex);
	for_each_possible_cpu(cpu) {
		struct lkst_cpu_buffer *cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);

		for (id = 0; id < LKST_MAX_BLOCKS; id++) {
			blk = lkc_block_get(cb, id);
			if (!blk)
				continue;
			RCU_INIT_POINTER(cb->blocks[id], NULL);
			lkc_block_free(blk);
		}
	}
	mutex_unlock(&lkst_buf_mutex);
}
#endif
