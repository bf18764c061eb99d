/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkst per-CPU buffers: fixed-size blocks of records, each block with an
 * optional next block.  This file and lkst_buf.c build in the kernel and,
 * with tests/host/lkst_host_compat.h, on the host, so the lockless write
 * path can be stress-tested with threads and signals under sanitizers.
 *
 * Writer rules: only the CPU that owns a buffer writes to it (hooks run
 * with preemption off), but an IRQ or NMI may interrupt a writer and write
 * into the same buffer.  Therefore every change of the write position and
 * every claim of a slot is a single local compare-and-exchange.
 */
#ifndef _LKST_BUF_H
#define _LKST_BUF_H

#ifdef __KERNEL__
#include <linux/cache.h>
#include <linux/types.h>
#include <linux/rcupdate.h>
#include <asm/local64.h>
#include <uapi/linux/lkst_record.h>
#include <uapi/linux/lkst_ioctl.h>
#else
#include "lkst_host_compat.h"
#include <linux/lkst_record.h>
#include <linux/lkst_ioctl.h>
#endif

/*
 * seqs[slot] is the sequence number of the record in records[slot].  A
 * writer sets it to LKST_SEQ_CLAIMED before it marks the slot BUSY, and to
 * the record's number before it commits.  Numbers are unique, timestamps
 * are not (a coarse clock repeats them): a reader checks both around its
 * copy, so even a slot rewritten with the same time is never torn.
 */
#define LKST_SEQ_CLAIMED	(~0ULL)

struct lkst_block {
	u32 id;
	u32 nr_slots;
	u32 next;			/* LKST_NO_NEXT: wrap onto itself */
	struct lkst_record *records;
	u64 *seqs;
};

/*
 * pos packs the current block ID (high 32 bits) and the next slot to
 * claim in it (low 32 bits), so that moving to the next block and claiming
 * a slot there is one atomic step.
 */
/*
 * next_seq numbers the records of this CPU in the order their slots were
 * claimed: 0, 1, 2, ... with no gap, since a number is taken only once a
 * slot is held.  A reader that remembers the next number it wants finds
 * the records it missed as gaps (see lkst_buf_copy_record_seq()).
 *
 * mode is LKST_MODE_OVERWRITE or LKST_MODE_STOP: in STOP mode the writer
 * never overwrites a record; it stops, counting drops, where the next slot
 * holds one (at the end of a block with no next block, or of a ring).
 */
struct lkst_cpu_buffer {
	/* What every write touches, in one cache line. */
	local64_t pos;
	local64_t next_seq;
	local64_t written;
	local64_t overwritten;
	local64_t dropped;
	u32 mode;
	/* Read by the writer only to follow a block ID. */
	struct lkst_block __rcu *blocks[LKST_MAX_BLOCKS];
	u64 discarded;		/* held by blocks a resize or delete freed */
} ____cacheline_aligned;

static inline u32 lkst_pos_block(u64 pos)
{
	return pos >> 32;
}

static inline u32 lkst_pos_slot(u64 pos)
{
	return (u32)pos;
}

static inline u64 lkst_make_pos(u32 block, u32 slot)
{
	return (u64)block << 32 | slot;
}

/*
 * Points of lkst_buf_reserve() where the host unit test makes an interrupt
 * write into the buffer (tests/host/lkst_host_compat.h); nothing here.
 */
enum {
	LKST_BUF_AT_SLOT_READ,		/* the slot's number and time read */
	LKST_BUF_AT_CLAIMED,		/* CLAIMED stored, the slot not BUSY */
};

#ifndef lkst_buf_test_point
static inline void lkst_buf_test_point(struct lkst_cpu_buffer *cb, int point)
{
}
#endif

/*
 * Claim the next slot of this CPU's buffer and give it the next sequence
 * number.  Returns NULL, counting a drop, when there is no block, when a
 * STOP-mode buffer would overwrite a record, or when the slot is still
 * owned by a writer this one interrupted (a nested context wrote a whole
 * block meanwhile): its record is left intact instead of being
 * overwritten half-way.
 */
static __always_inline struct lkst_record *
lkst_buf_reserve_inline(struct lkst_cpu_buffer *cb)
{
	struct lkst_block *blk, *next_blk;
	struct lkst_record *rec;
	bool stop = READ_ONCE(cb->mode) == LKST_MODE_STOP;
	u64 old, old_seq, seen, seq;
	u32 id, slot, next;

	old = local64_read(&cb->pos);
	for (;;) {
		id = lkst_pos_block(old);
		slot = lkst_pos_slot(old);
		blk = id < LKST_MAX_BLOCKS ?
			rcu_dereference_sched(cb->blocks[id]) : NULL;
		if (unlikely(!blk))
			goto drop;
		if (slot >= blk->nr_slots) {
			next = READ_ONCE(blk->next);
			next_blk = next < LKST_MAX_BLOCKS ?
				rcu_dereference_sched(cb->blocks[next]) : NULL;
			if (next_blk) {
				blk = next_blk;
				id = next;
			}
			slot = 0;
		}
		/* A slot once written is never empty again: no race here. */
		if (unlikely(stop) && READ_ONCE(blk->records[slot].time_ns))
			goto drop;	/* keep the record it holds */
		seen = local64_cmpxchg(&cb->pos, old, lkst_make_pos(id, slot + 1));
		if (likely(seen == old))
			break;
		old = seen;	/* a nested writer moved on first */
	}

	rec = &blk->records[slot];
	old_seq = READ_ONCE(blk->seqs[slot]);
	barrier();	/* the number of the record whose time is read next */
	old = READ_ONCE(rec->time_ns);
	if (unlikely(old == LKST_TIME_BUSY) || unlikely(old && stop))
		goto drop;
	lkst_buf_test_point(cb, LKST_BUF_AT_SLOT_READ);
	/*
	 * From here a reader of the record this one replaces sees it change,
	 * and a reader that finds the slot BUSY never takes the replaced
	 * record's number for one being written.  CLAIMED replaces the number
	 * only if it is still the one read above: an interrupt that filled
	 * this slot since (a jump or a lap) gave it a new, unique number, and
	 * CLAIMED must not be left on a record this writer does not replace.
	 */
	if (unlikely(cmpxchg_local(&blk->seqs[slot], old_seq,
				   LKST_SEQ_CLAIMED) != old_seq))
		goto drop;
	smp_wmb();	/* CLAIMED is seen before BUSY */
	lkst_buf_test_point(cb, LKST_BUF_AT_CLAIMED);
	if (unlikely(cmpxchg_local(&rec->time_ns, old, LKST_TIME_BUSY) != old)) {
		/*
		 * An interrupt filled the slot since its time was read.  If
		 * that was after CLAIMED was stored, it stored its own number
		 * and the put-back fails; if before, its number equals the one
		 * read (0: an unused slot took the buffer's first record), so
		 * putting that number back is right.
		 */
		cmpxchg_local(&blk->seqs[slot], LKST_SEQ_CLAIMED, old_seq);
		goto drop;
	}
	smp_wmb();	/* BUSY is seen before the new number and content */
	/*
	 * The number is stored in the slot before it is taken from next_seq,
	 * so a reader that saw next_seq past it and finds the slot BUSY knows
	 * which number is still being written.  A nested writer taking the
	 * number first makes this one try the next.
	 */
	do {
		seq = local64_read(&cb->next_seq);
		WRITE_ONCE(blk->seqs[slot], seq);
		smp_wmb();	/* in the slot before it is taken */
	} while (local64_cmpxchg(&cb->next_seq, seq, seq + 1) != seq);
	if (old)
		local64_inc(&cb->overwritten);
	return rec;
drop:
	local64_inc(&cb->dropped);
	return NULL;
}

/*
 * Publish a claimed slot whose words after time_ns the caller has stored
 * (with WRITE_ONCE): @time_ns is the commit word.
 */
static __always_inline void lkst_buf_publish(struct lkst_cpu_buffer *cb,
					     struct lkst_record *rec,
					     u64 time_ns)
{
	if (unlikely(!time_ns || time_ns == LKST_TIME_BUSY))
		time_ns = 1;	/* keep the commit word meaningful */
	smp_wmb();	/* content before the commit */
	WRITE_ONCE(rec->time_ns, time_ns);
	local64_inc(&cb->written);
}

struct lkst_record *lkst_buf_reserve(struct lkst_cpu_buffer *cb);
void lkst_buf_commit(struct lkst_cpu_buffer *cb, struct lkst_record *rec,
		     const struct lkst_record *content, u64 time_ns);
enum {
	LKST_COPY_EMPTY,
	LKST_COPY_OK,
	LKST_COPY_BUSY,
	LKST_COPY_CHANGED,
};

bool lkst_buf_copy_record(const struct lkst_block *blk, u32 slot,
			  struct lkst_record *out);
int lkst_buf_copy_record_seq(const struct lkst_block *blk, u32 slot,
			     struct lkst_record *out, u64 *seq);
u32 lkst_buf_oldest_slot(struct lkst_cpu_buffer *cb,
			 const struct lkst_block *blk);
void lkst_buf_jump(struct lkst_cpu_buffer *cb, u32 block);

#endif /* _LKST_BUF_H */
