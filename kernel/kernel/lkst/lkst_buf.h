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
	local64_t pos;
	local64_t written;
	local64_t overwritten;
	local64_t dropped;
	local64_t next_seq;
	u64 discarded;		/* held by blocks a resize or delete freed */
	u32 mode;
	struct lkst_block __rcu *blocks[LKST_MAX_BLOCKS];
};

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
