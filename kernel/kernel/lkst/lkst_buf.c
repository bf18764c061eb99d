// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1-or-later
/*
 * lkst per-CPU buffers: moving to the next page, and the reader's
 * copy.  The protocols and the invariants (In)
 * cited here are in docs/buffer-design.md.
 */
#include "lkst_buf.h"

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/sort.h>
#else
#include <errno.h>
#include <stdlib.h>
#endif

/* The PID word is the caller's to store, always. */
bool lkst_buf_reserve(struct lkst_cpu_buffer *cb, u32 len,
		      struct lkst_slot *slot)
{
	return lkst_buf_reserve_inline(cb, len, LKST_PID_UNKNOWN, false, slot);
}

/* As the hooks reserve: without the PID word when @pid wrote last. */
bool lkst_buf_reserve_pid(struct lkst_cpu_buffer *cb, u32 len, u32 pid,
			  struct lkst_slot *slot)
{
	return lkst_buf_reserve_inline(cb, len, pid, true, slot);
}

/*
 * The size of a record of the first @nr_args of @args, with the mask of
 * those that take two words in *@wide (LKST_BREC_WIDE()).
 */
u32 lkst_brec_layout(const u64 *args, u32 nr_args, u32 *wide)
{
	u32 i, nr_wide = 0;

	*wide = 0;
	for (i = 0; i < nr_args; i++) {
		if (LKST_ARG_IS_WIDE(args[i])) {
			*wide |= 1u << i;
			nr_wide++;
		}
	}
	return LKST_BREC_SIZE(nr_args, nr_wide);
}

/* Write @rec's first @nr_args arguments, pid (always), event and context. */
void lkst_buf_write(struct lkst_cpu_buffer *cb, const struct lkst_record *rec,
		    u32 nr_args)
{
	const u64 *a = rec->arg;
	struct lkst_slot slot;
	u32 len, wide;

	len = lkst_brec_layout(a, nr_args, &wide);
	if (!lkst_buf_reserve_inline(cb, len, rec->pid, false, &slot))
		return;
	lkst_slot_put_args(&slot, rec->pid, nr_args, a[0], a[1], a[2], a[3],
			   a[4], a[5]);
	lkst_slot_put_time(&slot, rec->time_ns);
	lkst_buf_commit(&slot, LKST_BREC_INFO(rec->event, rec->context,
					      nr_args, wide) | LKST_BREC_TIME_NS);
}

/* The page a writer fills after page @page of @blk. */
static struct lkst_page *lkst_buf_next_page(struct lkst_cpu_buffer *cb,
					    struct lkst_block *blk, u32 page,
					    struct lkst_block **target,
					    u32 *target_page)
{
	struct lkst_block *next_blk;
	u32 next;

	if (page + 1 < blk->nr_pages) {
		*target = blk;
		*target_page = page + 1;
	} else {
		next = READ_ONCE(blk->next);
		next_blk = next < LKST_MAX_BLOCKS ?
			rcu_dereference_sched(cb->blocks[next]) : NULL;
		*target = next_blk ? next_blk : blk;
		*target_page = 0;
	}
	return lkst_block_page(*target, *target_page);
}

/*
 * With @pg's generation made odd by the caller (I5): count the records it
 * held as overwritten (I12) and make it empty.  Its records are zeroed:
 * readers read up to the first zero info word, so a record is complete
 * once its writer stores its info word (I6).  Once per page, out of line:
 * about 4 instructions per record of a full page, where publishing a
 * commit cost each record some 25.  Plain stores a u64 at a time, four to
 * a step: the kernel's memset() may be a REP STOSB, which QEMU's icount
 * counts byte by byte.
 */
static void lkst_page_empty(struct lkst_cpu_buffer *cb, struct lkst_page *pg,
			    u64 old_gen)
{
	u64 *word = (u64 *)((char *)pg + LKST_PAGE_HEAD);
	u64 *end = (u64 *)((char *)pg + LKST_PAGE_SIZE);

	smp_wmb();	/* odd before the page changes (I15) */
	if (old_gen)
		local64_add(READ_ONCE(pg->nr_records), &cb->overwritten);
	WRITE_ONCE(pg->nr_records, 0);
	WRITE_ONCE(pg->left_at, 0);
	WRITE_ONCE(pg->zero, 0);
	lkc_clock_anchor(&pg->clock);	/* I16 */
	for (; word < end; word += 4) {
		WRITE_ONCE(word[0], 0);
		WRITE_ONCE(word[1], 0);
		WRITE_ONCE(word[2], 0);
		WRITE_ONCE(word[3], 0);
	}
}

/*
 * By the holder of SWITCHING (I9): make @pg an empty page whose records
 * are numbered from @first_seq.  Readers that copy it meanwhile see its
 * generation change (I5, I15).
 */
static void lkst_page_reset(struct lkst_cpu_buffer *cb, struct lkst_page *pg,
			    u64 first_seq)
{
	u64 gen = READ_ONCE(pg->gen);

	WRITE_ONCE(pg->gen, gen + 1);
	lkst_page_empty(cb, pg, gen);
	WRITE_ONCE(pg->first_seq, first_seq);
	smp_wmb();	/* an empty page before it is stable */
	WRITE_ONCE(pg->gen, gen + 2);
}

/*
 * Leave the current page, whose position @old the caller holds with
 * SWITCHING set: the number its next record would have had (I12).  @blk
 * is the block of @old as the caller found it published: a delete on
 * another CPU may unpublish it meanwhile (it puts a current block back,
 * I11), and reading it again here would then find no block and number the
 * next page from 0.
 */
static u64 lkst_buf_leave_page(struct lkst_block *blk, u64 old)
{
	struct lkst_page *pg = lkst_block_page(blk, lkst_pos_page(old));

	WRITE_ONCE(pg->nr_records, lkst_pos_count(old));
	WRITE_ONCE(pg->left_at, lkst_pos_offset(old));
	return READ_ONCE(pg->first_seq) + lkst_pos_count(old);
}

/*
 * A block of one page wrapping onto itself: the page to empty is the one
 * written, so writers that interrupt this one drop their events until it
 * is done, as during a jump (I9).
 */
static struct lkst_brec *lkst_buf_wrap_page(struct lkst_cpu_buffer *cb,
					    struct lkst_block *blk,
					    u64 old, u32 len,
					    struct lkst_slot *slot)
{
	struct lkst_page *pg;
	u64 first_seq, pos;

	if (local64_cmpxchg(&cb->pos, old, old | LKST_POS_SWITCHING) != old)
		return LKST_RESERVE_RETRY;
	pg = lkst_block_page(blk, lkst_pos_page(old));
	first_seq = lkst_buf_leave_page(blk, old);
	lkst_page_reset(cb, pg, first_seq);
	WRITE_ONCE(pg->writers, READ_ONCE(pg->writers) + 1);
	barrier();	/* counted before a nested writer can see the page (I4) */
	pos = (old & ~((1ULL << LKST_POS_PAGE_SHIFT) - 1)) |
	      (old & LKST_POS_EPOCH) |
	      lkst_make_pos(0, 0, LKST_PAGE_HEAD + len, 1);
	local64_set(&cb->pos, pos);
	slot->page = pg;
	return (struct lkst_brec *)((char *)pg + LKST_PAGE_HEAD);
}

/*
 * The current page cannot take @len more bytes: empty the next page and
 * reserve there.  The writer claims that page by making its generation
 * odd, prepares it, and moves the position with one compare-and-exchange
 * (I8), so writers that interrupt it keep writing into the current page;
 * only one that needs another page too drops its event.  Returns
 * LKST_RESERVE_RETRY when a nested writer moved the position to another
 * page first, NULL (a drop, counted) when the next page holds records a
 * STOP-mode buffer keeps, or writers this one interrupted, or when this
 * one interrupted a writer claiming a page.  @blk: the
 * block of @old as the caller found it published (see
 * lkst_buf_leave_page()).
 */
static struct lkst_brec *lkst_buf_claim_next(struct lkst_cpu_buffer *cb,
					     struct lkst_block *blk,
					     u64 old, u32 len,
					     struct lkst_slot *slot)
{
	struct lkst_block *target;
	struct lkst_page *pg, *cur;
	u32 target_page;
	u64 gen, seen, pos;

	cur = lkst_block_page(blk, lkst_pos_page(old));
	pg = lkst_buf_next_page(cb, blk, lkst_pos_page(old), &target,
				&target_page);
	gen = READ_ONCE(pg->gen);
	/*
	 * A writer that reserved in the page and has not committed can only
	 * be one this writer interrupted, and it stays until this one is
	 * done: the check holds without a lock (I2, I7).
	 */
	if (READ_ONCE(cb->claiming) || READ_ONCE(pg->writers) || (gen & 1) ||
	    (gen && READ_ONCE(cb->mode) == LKST_MODE_STOP)) {
		/* A nested writer that moved on first decided for it. */
		if (local64_read(&cb->pos) != old)
			return LKST_RESERVE_RETRY;
		goto drop;
	}
	if (pg == cur)
		return lkst_buf_wrap_page(cb, blk, old, len, slot);
	if (cmpxchg_local(&pg->gen, gen, gen + 1) != gen)
		return LKST_RESERVE_RETRY;
	/*
	 * Until the position moves on, this writer stores the current
	 * page's count and end from @old, over whatever an interrupting
	 * writer stored there: a switch from an NMI (a handler's jump), or
	 * a nested writer moving to another page, would store its own and
	 * be overwritten by these.  They see claiming and drop or refuse
	 * (I9).  The page claimed does not tell them: another CPU may relink
	 * or delete the block's next one meanwhile without an IPI, so the
	 * page after the current one is no longer the page this writer
	 * claimed.
	 */
	WRITE_ONCE(cb->claiming, 1);
	barrier();
	/*
	 * Claimed, then checked: a nested writer may have moved on to that
	 * very page since this one read @old (then it is the current page,
	 * not one to empty), or a jump from an NMI moved the position and
	 * left this page with its own records counted (then the count this
	 * writer would store is stale).  From here on, neither can happen.
	 * The page is not changed yet: its generation goes back.  Same page:
	 * same epoch too (I10).
	 */
	if (!lkst_pos_same_page(local64_read(&cb->pos), old)) {
		WRITE_ONCE(pg->gen, gen);
		barrier();
		WRITE_ONCE(cb->claiming, 0);
		return LKST_RESERVE_RETRY;
	}
	lkst_page_empty(cb, pg, gen);
	WRITE_ONCE(pg->writers, 1);	/* this writer's record */
	for (;;) {
		WRITE_ONCE(pg->first_seq, READ_ONCE(cur->first_seq) +
					  lkst_pos_count(old));
		WRITE_ONCE(cur->nr_records, lkst_pos_count(old));
		WRITE_ONCE(cur->left_at, lkst_pos_offset(old));
		smp_wmb();	/* the new page ready before writers go there (I8) */
		pos = lkst_make_pos(target->id, target_page,
				    LKST_PAGE_HEAD + len, 1) |
		      (old & LKST_POS_EPOCH);
		seen = local64_cmpxchg(&cb->pos, old, pos);
		if (seen == old)
			break;
		if (!lkst_pos_same_page(seen, old)) {
			/*
			 * A jump or a resize from an interrupt moved on: the
			 * page stays empty, its records counted overwritten,
			 * and unused (generation 0, I5).
			 */
			WRITE_ONCE(pg->writers, 0);
			smp_wmb();	/* emptied before it reads as unused */
			WRITE_ONCE(pg->gen, 0);
			barrier();
			WRITE_ONCE(cb->claiming, 0);
			return LKST_RESERVE_RETRY;
		}
		old = seen;	/* nested writers added to the current page */
	}
	smp_wmb();	/* the page's head before it is stable (I5) */
	WRITE_ONCE(pg->gen, gen + 2);
	barrier();	/* the counts stored before switches may go ahead */
	WRITE_ONCE(cb->claiming, 0);
	slot->page = pg;
	return (struct lkst_brec *)((char *)pg + LKST_PAGE_HEAD);
drop:
	local64_inc(&cb->dropped);
	return NULL;
}

/*
 * Interrupts stay off while the next page is claimed: an interrupt whose
 * writer needed that page too would drop its event (and, in practice, the
 * rest of its handler's), which the tracer then misses at exactly the
 * moments interrupts land.  Only an NMI's writer can still come between.
 * It happens once per page, so its cost is spread over the page's records.
 */
struct lkst_brec *lkst_buf_reserve_switch(struct lkst_cpu_buffer *cb,
					  struct lkst_block *blk,
					  u64 old, u32 len,
					  struct lkst_slot *slot)
{
	struct lkst_brec *rec;
	unsigned long flags;

	raw_local_irq_save(flags);
	rec = lkst_buf_claim_next(cb, blk, old, len, slot);
	raw_local_irq_restore(flags);
	return rec;
}

/* A new CPU's first block: page 0 empty, numbered from 0, current. */
void lkst_buf_init_first_page(struct lkst_cpu_buffer *cb,
			      struct lkst_block *blk)
{
	lkst_page_reset(cb, lkst_block_page(blk, 0), 0);
	local64_set(&cb->pos, lkst_make_pos(blk->id, 0, LKST_PAGE_HEAD, 0));
}

/**
 * lkst_buf_begin_switch() - hold a CPU's write position for a move
 * @cb: the buffer of the CPU this runs on (I1)
 * @old: the position held, to put back or move from
 * @first_seq: the number of the next record
 *
 * For a move the caller makes (a jump, or new blocks in place of the old
 * ones): writers interrupting the caller drop their events until
 * lkst_buf_end_switch() (I9).
 *
 * Context: on @cb's CPU with interrupts or preemption off.
 * Return: 0; -EBUSY when the caller interrupted a writer that is moving
 * to another page itself (switching, or claiming the next page), or the
 * current block is unpublished for a moment by a delete (I11): try again
 * from outside.
 */
int lkst_buf_begin_switch(struct lkst_cpu_buffer *cb, u64 *old, u64 *first_seq)
{
	u64 pos = local64_read(&cb->pos);
	struct lkst_block *blk;
	u32 id;

	for (;;) {
		if (pos & LKST_POS_SWITCHING)
			return -EBUSY;
		/*
		 * The current block unpublished by a delete that will put it
		 * back (it is current): its page numbers the next record.
		 */
		id = lkst_pos_block(pos);
		blk = id < LKST_MAX_BLOCKS ?
			rcu_dereference_sched(cb->blocks[id]) : NULL;
		if (!blk)
			return -EBUSY;
		/*
		 * A writer the caller interrupted (an NMI's handler, in the
		 * kernel, where interrupts are off during a claim) has claimed
		 * the next page: it stores the current page's count and end
		 * from the position it read, over the ones a switch leaving
		 * the page would store with the caller's records (I9).
		 */
		if (READ_ONCE(cb->claiming))
			return -EBUSY;
		*old = local64_cmpxchg(&cb->pos, pos, pos | LKST_POS_SWITCHING);
		if (*old == pos)
			break;
		pos = *old;
	}
	*first_seq = lkst_buf_leave_page(blk, pos);
	return 0;
}

/*
 * Continue at the first page of @target, reset, numbered from @first_seq.
 * The position's epoch bit flips (I10): a writer this switch interrupted
 * between its read of the position and its claim must fail the claim even
 * when the new position equals the old one (page 0 of the same block, no
 * records), since after a resize that is a new block's page.
 */
void lkst_buf_end_switch(struct lkst_cpu_buffer *cb, struct lkst_block *target,
			 u64 first_seq)
{
	u64 epoch = ~local64_read(&cb->pos) & LKST_POS_EPOCH;

	lkst_page_reset(cb, lkst_block_page(target, 0), first_seq);
	barrier();
	local64_set(&cb->pos, lkst_make_pos(target->id, 0, LKST_PAGE_HEAD, 0) |
			      epoch);
}

/**
 * lkst_buf_jump_pos() - continue writing at the first page of a block
 * @cb: the buffer of the CPU this runs on (I1)
 * @target: a block @cb holds
 *
 * The page's records are lost, counted as overwritten, in STOP mode too:
 * a jump asks for it.  Once the position is held no resize can replace
 * @target, so it is checked then; the current page, left, stays current.
 *
 * Context: on @cb's CPU, preemption off, in an RCU-sched read section.
 * Return: 0; -EBUSY when the caller interrupted a writer moving to another
 * page (I9), or one still writing in that page (I7), or when @target is no
 * longer the published block of its ID: a resize's IPI that interrupted a
 * handler between its lookup and this call replaced it (jumping there
 * would make a new block's unused page current, numbered from 0), or a
 * delete holds it unpublished (I11).
 */
int lkst_buf_jump_pos(struct lkst_cpu_buffer *cb, struct lkst_block *target)
{
	struct lkst_page *pg = lkst_block_page(target, 0);
	u64 old, first_seq;
	int ret;

	if (READ_ONCE(pg->writers) || (READ_ONCE(pg->gen) & 1))
		return -EBUSY;
	ret = lkst_buf_begin_switch(cb, &old, &first_seq);
	if (ret)
		return ret;
	if (unlikely(rcu_dereference_sched(cb->blocks[target->id]) != target)) {
		local64_set(&cb->pos, old);
		return -EBUSY;
	}
	lkst_buf_end_switch(cb, target, first_seq);
	return 0;
}

/*
 * The number the next record of the buffer gets, which is also how many
 * it was given: the current page's first number plus its count (I12), read
 * until both come from the same page.  @blocks: the buffer's blocks, held
 * by the caller.
 */
u64 lkst_buf_next_seq(struct lkst_cpu_buffer *cb,
		      struct lkst_block *const *blocks)
{
	const struct lkst_page *pg;
	u64 pos, again, gen, first;
	u32 id;

	for (;;) {
		pos = local64_read(&cb->pos);
		id = lkst_pos_block(pos);
		if (id >= LKST_MAX_BLOCKS || !blocks[id])
			return 0;
		pg = lkst_block_page(blocks[id], lkst_pos_page(pos));
		gen = READ_ONCE(pg->gen);
		smp_rmb();	/* the generation before the number */
		first = READ_ONCE(pg->first_seq);
		smp_rmb();	/* the number before the position again */
		again = local64_read(&cb->pos);
		smp_rmb();	/* the position before the generation again */
		if (!(pos & LKST_POS_SWITCHING) && !(gen & 1) &&
		    READ_ONCE(pg->gen) == gen &&
		    lkst_pos_same_page(again, pos))
			return first + lkst_pos_count(again);
	}
}

/*
 * Copy the complete record at *@offset of @pg, below @end, and step over
 * it; false at @end, or at a record not complete: its info word is still
 * the 0 the page's reset left (I6).  What it copies is whole only if the
 * page's generation did not change meanwhile (lkst_page_read(), I15).
 */
bool lkst_page_next(const struct lkst_page *pg, u32 end, u32 *offset,
		    u32 *pid, struct lkst_record *out)
{
	const struct lkst_brec *rec;
	u32 info, nr, wide, i, len;
	const u32 *word, *high;

	if (end > LKST_PAGE_SIZE || *offset + LKST_BREC_MIN_SIZE > end)
		return false;
	rec = (const struct lkst_brec *)((const char *)pg + *offset);
	info = READ_ONCE(rec->info);
	smp_rmb();	/* the info word before the words it completes (I14) */
	nr = LKST_BREC_NR_ARGS(info);
	wide = LKST_BREC_WIDE(info);
	/*
	 * Only a page reset under the reader shows anything else: a record
	 * without its PID word at the head of the page, a wide bit for an
	 * argument it does not hold (I13, I14).
	 */
	if (!(info & LKST_BREC_VALID) || nr > LKST_NR_ARGS || wide >> nr ||
	    ((info & LKST_BREC_NO_PID) && *offset == LKST_PAGE_HEAD))
		return false;
	len = LKST_BREC_SIZE(nr, 0);
	for (i = 0; i < nr; i++)
		len += (wide >> i & 1) * 4;
	if (info & LKST_BREC_NO_PID)
		len -= 4;
	if (*offset + len > end)
		return false;
	if (!(info & LKST_BREC_NO_PID))
		*pid = READ_ONCE(*(const u32 *)((const char *)rec + len - 4));
	out->time_ns = READ_ONCE(rec->time_lo) |
		       (u64)READ_ONCE(rec->time_hi) << 32;
	if (!(info & LKST_BREC_TIME_NS))	/* a counter value (I16) */
		out->time_ns = lkst_page_clock_ns(&pg->clock, out->time_ns);
	out->pid = *pid;
	out->event = LKST_BREC_EVENT(info);
	out->context = LKST_BREC_CONTEXT(info);
	out->flags = 0;
	word = rec->word;
	high = word + nr;
	for (i = 0; i < LKST_NR_ARGS; i++) {
		out->arg[i] = i < nr ? READ_ONCE(word[i]) : 0;
		if (wide >> i & 1)
			out->arg[i] |= (u64)READ_ONCE(*high++) << 32;
	}
	*offset += len;
	return true;
}

/*
 * Copy the complete records of @pg (up to the first one not complete, I6)
 * into @out
 * (LKST_PAGE_MAX_RECORDS of them at most).  Returns how many, with the
 * number of the first in *@first_seq, or -1 when the page never held
 * records or was reset during the copy (I15).  *@reserved: how many
 * records were reserved in the page when its writer left it (0 while it
 * is the current page).
 */
static int lkst_page_read_reserved(const struct lkst_page *pg,
				   struct lkst_record *out, u64 *first_seq,
				   u32 *reserved)
{
	u32 offset = LKST_PAGE_HEAD, pid = 0;
	u64 gen = READ_ONCE(pg->gen);
	int n = 0;

	if (!gen || (gen & 1))
		return -1;
	smp_rmb();	/* the generation before what it covers */
	*first_seq = READ_ONCE(pg->first_seq);
	*reserved = READ_ONCE(pg->nr_records);
	while (n < (int)LKST_PAGE_MAX_RECORDS &&
	       lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &out[n]))
		n++;
	smp_rmb();	/* what it covers before the generation again */
	return READ_ONCE(pg->gen) == gen ? n : -1;
}

/**
 * lkst_page_read() - copy a page's complete records
 * @pg: the page
 * @out: room for LKST_PAGE_MAX_RECORDS records
 * @first_seq: the number of the first record copied
 *
 * The records up to the first one not complete (I6), while writers may
 * go on.
 *
 * Context: any; never sleeps, never blocks a writer.
 * Return: how many records were copied, or -1 when the page never held
 * records or was reset during the copy (I15).
 */
int lkst_page_read(const struct lkst_page *pg, struct lkst_record *out,
		   u64 *first_seq)
{
	u32 reserved;

	return lkst_page_read_reserved(pg, out, first_seq, &reserved);
}

/* Complete records of a page no writer can reach. */
u32 lkst_page_count(const struct lkst_page *pg)
{
	struct lkst_record rec;
	u32 offset = LKST_PAGE_HEAD, pid = 0, n = 0;

	if (!READ_ONCE(pg->gen) || (READ_ONCE(pg->gen) & 1))
		return 0;
	while (lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &rec))
		n++;
	return n;
}

static int lkst_page_ref_cmp(const void *a, const void *b)
{
	const struct lkst_page_ref *x = a, *y = b;

	return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

/*
 * The pages of @blocks (only of block @only_block unless it is negative)
 * that hold records, by number: up to @max of them into @refs.  Returns
 * how many pages hold records (more than @max: some were left out).
 */
u64 lkst_buf_list_pages(struct lkst_block *const *blocks, int only_block,
			struct lkst_page_ref *refs, u64 max)
{
	const struct lkst_page *pg;
	u64 nr = 0, gen;
	u32 id, page;

	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (!blocks[id] || (only_block >= 0 && id != (u32)only_block))
			continue;
		for (page = 0; page < blocks[id]->nr_pages; page++) {
			pg = lkst_block_page(blocks[id], page);
			gen = READ_ONCE(pg->gen);
			if (!gen || (gen & 1))
				continue;
			smp_rmb();	/* the generation before the number */
			if (nr < max) {
				refs[nr].first_seq = READ_ONCE(pg->first_seq);
				refs[nr].block = id;
				refs[nr].page = page;
			}
			nr++;
		}
	}
#ifdef __KERNEL__
	sort(refs, min(nr, max), sizeof(*refs), lkst_page_ref_cmp, NULL);
#else
	qsort(refs, nr < max ? nr : max, sizeof(*refs), lkst_page_ref_cmp);
#endif
	return nr;
}

static bool lkst_listed(const struct lkst_page_ref *refs, u64 nr, u64 first)
{
	u64 lo = 0, hi = nr;

	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (refs[mid].first_seq < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && refs[lo].first_seq == first;
}

/*
 * Right after the listing: a page reset while the pages were listed (its
 * number changed, or it was left out, odd) holds records numbered from
 * its first_seq now, maybe below pages listed after it: no number from
 * there on is known lost.  Returns @next, lowered to the lowest such
 * first_seq (not below @cursor).  A page reset after the listing is
 * numbered above every page listed (I12).  Only the blocks listed
 * (@only_block, unless negative) count: another block's pages were never
 * listed, and their numbers, below or between this block's, are no reset.
 */
static u64 lkst_buf_walk_limit(struct lkst_block *const *blocks,
			       int only_block,
			       const struct lkst_page_ref *refs, u64 nr,
			       u64 cursor, u64 next)
{
	const struct lkst_page *pg;
	u64 gen, first;
	u32 id, page;

	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (only_block >= 0 && id != (u32)only_block)
			continue;
		for (page = 0; blocks[id] && page < blocks[id]->nr_pages; page++) {
			pg = lkst_block_page(blocks[id], page);
			gen = READ_ONCE(pg->gen);
			if (!gen)
				continue;
			smp_rmb();	/* the generation before the number */
			first = READ_ONCE(pg->first_seq);
			if (first < next && !lkst_listed(refs, nr, first))
				next = first > cursor ? first : cursor;
		}
	}
	return next;
}

/**
 * lkst_buf_walk_only() - hand on the records numbered from a cursor on
 * @blocks: a CPU's blocks by ID, stable for the walk
 * @only_block: the block whose pages @refs lists, or negative for every
 *	block: as given to lkst_buf_list_pages()
 * @refs: the pages that hold records, from lkst_buf_list_pages()
 * @nr: how many @refs lists
 * @cursor: the number of the first record wanted
 * @stop_at_hole: stop at a page whose next record is still being written
 * @tmp: room for LKST_PAGE_MAX_RECORDS records, each page's copy
 * @emit: called with each record and its number, in order
 * @ctx: @emit's
 * @next_seq: where the next walk starts: the number after the last record
 *	handed on or known lost
 *
 * A page reset since it was listed is skipped: its records were
 * overwritten.  With @stop_at_hole the walk stops at a page its writer
 * left with fewer committed records than it reserved there.  A gap between
 * whole pages is pages overwritten since they were listed, or a chain's
 * old block: lost, not in flight.
 *
 * Context: any that @emit allows; never blocks a writer.
 * Return: 0, or what @emit returned when it was negative (then *@next_seq
 * is the number of the record it refused).
 */
int lkst_buf_walk_only(struct lkst_block *const *blocks, int only_block,
		       const struct lkst_page_ref *refs, u64 nr, u64 cursor,
		       bool stop_at_hole, struct lkst_record *tmp,
		       lkst_emit_fn emit, void *ctx, u64 *next_seq)
{
	u64 i, start = 0, first, seq, next = cursor;
	u64 limit = lkst_buf_walk_limit(blocks, only_block, refs, nr, cursor,
					U64_MAX);
	u32 reserved;
	int n, k, ret;

	for (i = 0; i < nr; i++)
		if (refs[i].first_seq <= cursor)
			start = i;
	for (i = start; i < nr; i++) {
		n = lkst_page_read_reserved(lkst_block_page(blocks[refs[i].block],
							    refs[i].page),
					    tmp, &first, &reserved);
		if (n < 0 || first != refs[i].first_seq)
			continue;	/* overwritten since it was listed */
		for (k = 0; k < n; k++) {
			seq = first + k;
			if (seq < cursor)
				continue;
			if (seq >= limit) {
				if (seq > next)
					next = seq;	/* handed on below it */
				goto out;
			}
			ret = emit(ctx, &tmp[k], seq);
			if (ret < 0) {
				*next_seq = seq;
				return ret;
			}
		}
		if (first + n > next)
			next = first + n;
		/*
		 * A page left with fewer committed records than were reserved
		 * in it (I6): the next is still being written.  A gap between two
		 * whole pages is pages overwritten since (a chain's old block,
		 * a jump's target): lost, not in flight.
		 */
		if (stop_at_hole && (u32)n < reserved)
			break;
	}
out:
	*next_seq = next < limit ? next : limit > cursor ? limit : cursor;
	return 0;
}

/* lkst_buf_walk_only() of every block's pages. */
int lkst_buf_walk(struct lkst_block *const *blocks,
		  const struct lkst_page_ref *refs, u64 nr, u64 cursor,
		  bool stop_at_hole, struct lkst_record *tmp,
		  lkst_emit_fn emit, void *ctx, u64 *next_seq)
{
	return lkst_buf_walk_only(blocks, -1, refs, nr, cursor, stop_at_hole,
				  tmp, emit, ctx, next_seq);
}
