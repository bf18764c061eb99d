// SPDX-License-Identifier: GPL-2.0
/*
 * lkst per-CPU buffers: the lockless write path and the reader's copy.
 *
 * A record's time_ns is its commit word (see uapi/linux/lkst_record.h):
 * a writer first marks the slot's number LKST_SEQ_CLAIMED, claims the slot
 * by swapping its time for LKST_TIME_BUSY, stores the new number, fills
 * the other words, then stores the timestamp.  A reader that sees the same
 * number and the same committed time before and after copying the other
 * words has a whole record: the number is unique even when the time is not.
 */
#include "lkst_buf.h"

#define LKST_RECORD_WORDS (sizeof(struct lkst_record) / sizeof(u64))

/* The out-of-line forms of the inline write path, for tests and KUnit. */
struct lkst_record *lkst_buf_reserve(struct lkst_cpu_buffer *cb)
{
	return lkst_buf_reserve_inline(cb);
}

/* Fill a claimed slot with @content and publish it with @time_ns. */
void lkst_buf_commit(struct lkst_cpu_buffer *cb, struct lkst_record *rec,
		     const struct lkst_record *content, u64 time_ns)
{
	const u64 *src = (const u64 *)content;
	u64 *dst = (u64 *)rec;
	unsigned int i;

	for (i = 1; i < LKST_RECORD_WORDS; i++)
		WRITE_ONCE(dst[i], src[i]);
	lkst_buf_publish(cb, rec, time_ns);
}

/*
 * Copy slot @slot of @blk and its number under the commit words; see
 * LKST_COPY_*.  The number is read first and last: a writer changes it
 * before anything else and stores the new one before any content, so a
 * copy that saw content of another record sees another number.
 */
static int lkst_buf_copy(const struct lkst_block *blk, u32 slot,
			 struct lkst_record *out, u64 *seq)
{
	const struct lkst_record *rec = &blk->records[slot];
	const u64 *src = (const u64 *)rec;
	u64 *dst = (u64 *)out;
	u64 seq_before, before, after;
	unsigned int i;

	seq_before = READ_ONCE(blk->seqs[slot]);
	smp_rmb();	/* the number before the commit word */
	before = READ_ONCE(rec->time_ns);
	if (!before)
		return LKST_COPY_EMPTY;
	if (before == LKST_TIME_BUSY) {
		smp_rmb();	/* BUSY before the number stored after it */
		*seq = READ_ONCE(blk->seqs[slot]);
		return LKST_COPY_BUSY;
	}
	if (seq_before == LKST_SEQ_CLAIMED)
		return LKST_COPY_CHANGED;	/* being replaced */
	smp_rmb();	/* the commit word before the content it covers */
	for (i = 1; i < LKST_RECORD_WORDS; i++)
		dst[i] = READ_ONCE(src[i]);
	smp_rmb();	/* the content before the commit word read again */
	after = READ_ONCE(rec->time_ns);
	smp_rmb();	/* the commit word before the number read again */
	if (after != before || READ_ONCE(blk->seqs[slot]) != seq_before)
		return LKST_COPY_CHANGED;
	out->time_ns = before;
	*seq = seq_before;
	return LKST_COPY_OK;
}

/*
 * Copy one slot if it holds a committed record; false when it is empty,
 * being written, or was rewritten during the copy.
 */
bool lkst_buf_copy_record(const struct lkst_block *blk, u32 slot,
			  struct lkst_record *out)
{
	u64 seq;

	return lkst_buf_copy(blk, slot, out, &seq) == LKST_COPY_OK;
}

/*
 * Copy slot @slot of @blk with its sequence number: LKST_COPY_OK when it
 * holds a committed record, LKST_COPY_EMPTY when it never held one,
 * LKST_COPY_BUSY when a writer holds it (*seq is then the number that
 * writer took, one it is about to take, or LKST_SEQ_CLAIMED when it has not
 * chosen one yet: then its number is at least next_seq as read before the
 * copy), and LKST_COPY_CHANGED when a writer claimed it during the copy
 * (the record read was overwritten; the new one takes its number after the
 * copy began).
 */
int lkst_buf_copy_record_seq(const struct lkst_block *blk, u32 slot,
			     struct lkst_record *out, u64 *seq)
{
	return lkst_buf_copy(blk, slot, out, seq);
}

/*
 * Where a reader should start to get a block's records oldest first: the
 * slot the writer fills next if it is in this block, else slot 0.
 */
u32 lkst_buf_oldest_slot(struct lkst_cpu_buffer *cb,
			 const struct lkst_block *blk)
{
	u64 pos = local64_read(&cb->pos);
	u32 slot = lkst_pos_slot(pos);

	if (lkst_pos_block(pos) != blk->id || slot >= blk->nr_slots)
		return 0;
	return slot;
}

/* Make @block current from its first slot; run on the owning CPU. */
void lkst_buf_jump(struct lkst_cpu_buffer *cb, u32 block)
{
	u64 old = local64_read(&cb->pos), seen;

	for (;;) {
		seen = local64_cmpxchg(&cb->pos, old, lkst_make_pos(block, 0));
		if (seen == old)
			return;
		old = seen;
	}
}
