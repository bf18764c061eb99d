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

/*
 * Claim the next slot of this CPU's buffer and give it the next sequence
 * number.  Returns NULL, counting a drop, when there is no block, when a
 * STOP-mode buffer would overwrite a record, or when the slot is still
 * owned by a writer this one interrupted (a nested context wrote a whole
 * block meanwhile): its record is left intact instead of being
 * overwritten half-way.
 */
struct lkst_record *lkst_buf_reserve(struct lkst_cpu_buffer *cb)
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

/* Fill a claimed slot with @content and publish it with @time_ns. */
void lkst_buf_commit(struct lkst_cpu_buffer *cb, struct lkst_record *rec,
		     const struct lkst_record *content, u64 time_ns)
{
	const u64 *src = (const u64 *)content;
	u64 *dst = (u64 *)rec;
	unsigned int i;

	for (i = 1; i < LKST_RECORD_WORDS; i++)
		WRITE_ONCE(dst[i], src[i]);
	if (unlikely(!time_ns || time_ns == LKST_TIME_BUSY))
		time_ns = 1;	/* keep the commit word meaningful */
	smp_wmb();	/* content before the commit */
	WRITE_ONCE(rec->time_ns, time_ns);
	local64_inc(&cb->written);
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
