/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1-or-later */
/*
 * lkst per-CPU buffers: blocks of 4 KiB pages holding records sized by
 * their arguments (struct lkst_brec, 12 to 64 bytes), each block with an
 * optional next block.  This file and lkst_buf.c build in the kernel and,
 * with utils/lkst_host_compat.h, on the host, so the lockless write
 * path can be stress-tested with threads and signals under sanitizers,
 * and `lkbuf extract` reads the pages of a vmcore with the same code.
 *
 * docs/buffer-design.md is the design: a glossary, the bits of the
 * position and info words, the invariants I1..I15 that comments
 * here and in lkst_buf.c and buffers*.c cite by number, and the writer,
 * reader, jump, resize and delete protocols step by step.
 */
#ifndef _LKST_BUF_H
#define _LKST_BUF_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/cache.h>
#include <linux/types.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <asm/local64.h>
#include <uapi/linux/lkst_record.h>
#include <uapi/linux/lkst_ioctl.h>
#else
#include <assert.h>		/* static_assert */
#include "lkst_host_compat.h"
#include <linux/lkst_record.h>
#include <linux/lkst_ioctl.h>
#endif

/*
 * A page's clock anchor (I16), taken when the page is reset: the CPU's
 * counter then (@cycles), and CLOCK_MONOTONIC at that count as the
 * timekeeper computes it, in whole nanoseconds (@base_ns) and in
 * 1/2^@shift ns (@frac), with its @mult.  A record of the page whose time
 * is a counter value c (no LKST_BREC_TIME_NS) reads as
 * lkst_page_clock_ns(): base_ns + (frac + (c - cycles) * mult) >> shift,
 * the timekeeper's own formula from the anchor on.  The writer stores a
 * counter only up to LKST_CLOCK_RAW_SPAN after the anchor (clock.h), so
 * the product cannot overflow and a change of mult since the anchor (NTP)
 * moves a time by a few nanoseconds at most; past it, or with no anchor
 * (the counter is not the timekeeper's clock, or a module's build: @cycles
 * LKST_CLOCK_RAW_SPAN + 1 before 2^64, which no counter is within), it
 * stores nanoseconds.  The host's tests take the identity (@mult 1).
 * Readers trust nothing here: any value converts without a fault.
 */
struct lkst_page_clock {
	u64 cycles;
	u64 base_ns;
	u32 frac;
	u32 mult;
	u32 shift;
	u32 __pad;
};

static inline void lkst_page_clock_set(struct lkst_page_clock *anchor,
				       u64 cycles, u64 base_ns, u32 frac,
				       u32 mult, u32 shift)
{
	WRITE_ONCE(anchor->cycles, cycles);
	WRITE_ONCE(anchor->base_ns, base_ns);
	WRITE_ONCE(anchor->frac, frac);
	WRITE_ONCE(anchor->mult, mult);
	WRITE_ONCE(anchor->shift, shift);
	WRITE_ONCE(anchor->__pad, 0);
}

static inline u64 lkst_page_clock_ns(const struct lkst_page_clock *anchor,
				     u64 counter)
{
	u64 delta = counter - READ_ONCE(anchor->cycles);

	return READ_ONCE(anchor->base_ns) +
	       ((READ_ONCE(anchor->frac) + delta * READ_ONCE(anchor->mult)) >>
		(READ_ONCE(anchor->shift) & 63));
}

/*
 * The head of every page (64 bytes).  gen: 0 never used, odd while reset,
 * even and stable otherwise (I5).  The records are numbered first_seq,
 * first_seq + 1, ... in the order they lie in the page (I12).  nr_records
 * and left_at (bytes): what was reserved in the page, stored when the
 * writer leaves it.  writers: this CPU's writers that reserved in the page
 * and have not committed, counted with plain increments (I2, I4); no
 * writer resets a page whose writers is not 0 (I7).  There is no commit
 * word: a reset zeroes the page's records, and a record is complete once
 * its info word, stored last, is (I6), so readers read up to the first
 * zero word and a writer publishes nothing.  zero: 0.  clock: what the
 * records' times count from (I16).
 */
struct lkst_page {
	u64 gen;
	u64 first_seq;
	u32 nr_records;
	u32 writers;
	u32 left_at;
	u32 zero;
	struct lkst_page_clock clock;
};

/*
 * Take this CPU's clock anchor for a page being reset (clock.c).  On the
 * host, whose tests store nanoseconds as the counter, the identity.
 */
#ifdef __KERNEL__
void lkc_clock_anchor(struct lkst_page_clock *anchor);
#else
static inline void lkc_clock_anchor(struct lkst_page_clock *anchor)
{
	lkst_page_clock_set(anchor, 0, 0, 0, 1, 0);
}
#endif

#define LKST_PAGE_HEAD		sizeof(struct lkst_page)
#define LKST_PAGE_MAX_RECORDS	((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / \
				 LKST_BREC_MIN_SIZE)

/* A byte offset in a page, 0 to LKST_PAGE_SIZE: the position's. */
#define LKST_PAGE_OFFSET_BITS	13

struct lkst_block {
	u32 id;
	u32 nr_pages;
	u32 next;			/* LKST_NO_NEXT: wrap onto itself */
	bool persistent;		/* pages in the region: not freed */
	void *pages;			/* nr_pages * LKST_PAGE_SIZE bytes */
};

static inline struct lkst_page *lkst_block_page(const struct lkst_block *blk,
						u32 page)
{
	return (struct lkst_page *)((char *)blk->pages +
				    (size_t)page * LKST_PAGE_SIZE);
}

/*
 * The write position (drawn in docs/buffer-design.md), from bit 0 up: the
 * byte offset in the page, the records reserved in the page, SWITCHING
 * (I9), EPOCH (I10), the page, the block.  One compare-and-exchange both
 * reserves a record's bytes and numbers it (I4, I12); every field holds
 * its largest value without a carry into the next (I3).  Each field is
 * its width and its shift; a _MASK is the field's value mask.
 */
#define LKST_POS_OFFSET_BITS	LKST_PAGE_OFFSET_BITS
#define LKST_POS_COUNT_BITS	9
#define LKST_POS_PAGE_BITS	24
#define LKST_POS_BLOCK_BITS	16
#define LKST_POS_COUNT_SHIFT	LKST_POS_OFFSET_BITS
#define LKST_POS_SWITCHING_SHIFT (LKST_POS_COUNT_SHIFT + LKST_POS_COUNT_BITS)
#define LKST_POS_EPOCH_SHIFT	(LKST_POS_SWITCHING_SHIFT + 1)
#define LKST_POS_PAGE_SHIFT	(LKST_POS_EPOCH_SHIFT + 1)
#define LKST_POS_BLOCK_SHIFT	(LKST_POS_PAGE_SHIFT + LKST_POS_PAGE_BITS)

#define LKST_POS_OFFSET_MASK	((1u << LKST_POS_OFFSET_BITS) - 1)
#define LKST_POS_COUNT_MASK	((1u << LKST_POS_COUNT_BITS) - 1)
#define LKST_POS_PAGE_MASK	((1u << LKST_POS_PAGE_BITS) - 1)
#define LKST_POS_SWITCHING	(1ULL << LKST_POS_SWITCHING_SHIFT)
#define LKST_POS_EPOCH		(1ULL << LKST_POS_EPOCH_SHIFT)

static inline u32 lkst_pos_offset(u64 pos)
{
	return pos & LKST_POS_OFFSET_MASK;
}

static inline u32 lkst_pos_count(u64 pos)
{
	return (pos >> LKST_POS_COUNT_SHIFT) & LKST_POS_COUNT_MASK;
}

static inline u32 lkst_pos_page(u64 pos)
{
	return (u32)(pos >> LKST_POS_PAGE_SHIFT) & LKST_POS_PAGE_MASK;
}

/* The top field: no mask. */
static inline u32 lkst_pos_block(u64 pos)
{
	return pos >> LKST_POS_BLOCK_SHIFT;
}

/*
 * Same block and page in the same epoch, and no move under way: a resize
 * in between may have made the same block ID and page another block's
 * (I10).
 */
static inline bool lkst_pos_same_page(u64 a, u64 b)
{
	return ((a ^ b) & ~(LKST_POS_EPOCH - 1)) == 0 &&
	       !((a | b) & LKST_POS_SWITCHING);
}

static inline u64 lkst_make_pos(u32 block, u32 page, u32 offset, u32 count)
{
	return (u64)block << LKST_POS_BLOCK_SHIFT |
	       (u64)page << LKST_POS_PAGE_SHIFT |
	       (u64)count << LKST_POS_COUNT_SHIFT | offset;
}

/*
 * Every field holds its largest value (I3), and the words keep the layout
 * docs/buffer-design.md draws: changing one means changing that page, these
 * values and LKST_PERSIST_LAYOUT (persist.c) together.
 */
static_assert(LKST_PAGE_SIZE <= LKST_POS_OFFSET_MASK, "offset 0..page size");
static_assert(LKST_PAGE_MAX_RECORDS <= LKST_POS_COUNT_MASK,
	      "records a page holds");
static_assert(LKST_BLOCK_MAX_SIZE / LKST_PAGE_SIZE - 1 <= LKST_POS_PAGE_MASK,
	      "pages a block holds");
static_assert(LKST_MAX_BLOCKS - 1 <= (1u << LKST_POS_BLOCK_BITS) - 1,
	      "block IDs");
static_assert(LKST_POS_BLOCK_SHIFT + LKST_POS_BLOCK_BITS == 64,
	      "the block is the top field");
static_assert(LKST_POS_OFFSET_MASK == 0x1fff && LKST_POS_COUNT_SHIFT == 13 &&
	      LKST_POS_COUNT_MASK == 0x1ff &&
	      LKST_POS_SWITCHING == 1ULL << 22 && LKST_POS_EPOCH == 1ULL << 23 &&
	      LKST_POS_PAGE_SHIFT == 24 && LKST_POS_PAGE_MASK == 0xffffff &&
	      LKST_POS_BLOCK_SHIFT == 48, "position word layout");
static_assert(LKST_NR_ARGS <= LKST_BREC_NR_ARGS_MASK, "arguments stored");
static_assert(LKST_CTX_NMI <= LKST_BREC_CONTEXT_MASK, "contexts");
static_assert(LKST_NR_EVENT_IDS - 1 <= LKST_BREC_EVENT_MASK, "event IDs");
static_assert((LKST_BREC_NR_ARGS_MASK << LKST_BREC_NR_ARGS_SHIFT) +
	      (LKST_BREC_CONTEXT_MASK << LKST_BREC_CONTEXT_SHIFT) +
	      LKST_BREC_TIME_NS + LKST_BREC_NO_PID + LKST_BREC_VALID +
	      (LKST_BREC_WIDE_MASK << LKST_BREC_WIDE_SHIFT) +
	      (LKST_BREC_EVENT_MASK << LKST_BREC_EVENT_SHIFT) == 0xffff3fffu,
	      "info fields do not overlap; bits 14 and 15 are reserved");
static_assert(LKST_BREC_NR_ARGS_MASK == 7 && LKST_BREC_CONTEXT_SHIFT == 3 &&
	      LKST_BREC_CONTEXT_MASK == 3 && LKST_BREC_TIME_NS == 0x20 &&
	      LKST_BREC_NO_PID == 0x40 &&
	      LKST_BREC_VALID == 0x80 && LKST_BREC_WIDE_SHIFT == 8 &&
	      LKST_BREC_WIDE_MASK == 0x3f && LKST_BREC_EVENT_SHIFT == 16 &&
	      LKST_BREC_EVENT_MASK == 0xffff, "info word layout");
static_assert(LKST_BREC_SIZE(0, 0) == sizeof(struct lkst_brec) + 4 &&
	      LKST_BREC_MIN_SIZE == 12 && LKST_BREC_MAX_SIZE == 64 &&
	      LKST_BREC_MAX_SIZE == LKST_RECORD_SIZE,
	      "records of 12 to 64 bytes");
static_assert(sizeof(struct lkst_page_clock) == 32 &&
	      sizeof(struct lkst_page) == 64, "a 64-byte page head");
/* The reset zeroes the records a u64 at a time, four to a step. */
static_assert((LKST_PAGE_SIZE - LKST_PAGE_HEAD) % 32 == 0, "records' bytes");

/*
 * mode is LKST_MODE_OVERWRITE or LKST_MODE_STOP: in STOP mode the writer
 * never resets a page that holds records; it stops there, counting drops
 * (I7).  The numbers of records written are not counted: they are the
 * current page's first_seq plus its count (lkst_buf_next_seq(), I12).
 * pos changes only on the buffer's own CPU (I1).
 */
struct lkst_cpu_buffer {
	/* What every write touches, in one cache line. */
	local64_t pos;
	u32 mode;
	u32 last_pid;		/* of the record reserved last */
	struct lkst_block __rcu *blocks[LKST_MAX_BLOCKS];
	/* Written only when events are lost. */
	local64_t overwritten ____cacheline_aligned;
	local64_t dropped;
	u64 discarded;		/* held by blocks a resize or delete freed */
	/*
	 * Not 0 while a writer of this CPU has claimed the next page and
	 * not yet moved the position there (lkst_buf_claim_next()); only
	 * writers and switches on this CPU, which interrupt it, read it.
	 */
	u32 claiming;
} ____cacheline_aligned;

/* A writer's reservation: where the record goes, and in which page. */
struct lkst_slot {
	struct lkst_page *page;
	struct lkst_brec *rec;
	u32 *end;			/* one past the record's last word */
	u32 info_flags;			/* LKST_BREC_NO_PID or 0 */
};

#define LKST_RESERVE_RETRY	((struct lkst_brec *)1)
/* last_pid when the caller stores the PID itself: no task has it. */
#define LKST_PID_UNKNOWN	(~0u)

struct lkst_brec *lkst_buf_reserve_switch(struct lkst_cpu_buffer *cb,
					  struct lkst_block *blk,
					  u64 old, u32 len,
					  struct lkst_slot *slot);

/*
 * Reserve a record of @len bytes (LKST_BREC_SIZE(), with its PID word) for
 * @pid in this CPU's buffer: 4 bytes fewer, without the PID word
 * (LKST_BREC_NO_PID in slot->info_flags), when @may_omit_pid and the
 * record reserved last, which is the one before it in the page, has the
 * same PID (I13).  The first record of a page always stores its PID.
 *
 * Returns false, counting a drop, when there is no block, when a STOP-mode
 * buffer is full, or while a writer this one interrupted is moving to
 * another page (I9).  Moving to the next page is out of line: it happens
 * once per page.  The steps: "Writer" in docs/buffer-design.md.
 */
static __always_inline bool lkst_buf_reserve_inline(struct lkst_cpu_buffer *cb,
						    u32 len, u32 pid,
						    bool may_omit_pid,
						    struct lkst_slot *slot)
{
	struct lkst_block *blk;
	struct lkst_page *pg;
	u64 old, seen;
	u32 id, need;

	old = local64_read(&cb->pos);
	for (;;) {
		id = lkst_pos_block(old);
		blk = id < LKST_MAX_BLOCKS ?
			rcu_dereference_sched(cb->blocks[id]) : NULL;
		/*
		 * A resize's IPI between the two loads replaces the blocks
		 * and moves the position: @blk must be @old's block before
		 * its pages are indexed with @old's page (a smaller block's
		 * would be overrun), I11.
		 */
		seen = local64_read(&cb->pos);
		if (unlikely(seen != old)) {
			old = seen;
			continue;
		}
		if (unlikely(!blk || (old & LKST_POS_SWITCHING)))
			goto drop;
		need = len;
		if (may_omit_pid && pid == READ_ONCE(cb->last_pid) &&
		    lkst_pos_offset(old) != LKST_PAGE_HEAD)
			need -= 4;
		if (unlikely(lkst_pos_offset(old) + need > LKST_PAGE_SIZE)) {
			/*
			 * The first record of the next page: with its PID.
			 * Filled out of line into a copy, so that the
			 * caller's slot has no address taken and can stay
			 * in registers.
			 */
			struct lkst_slot next __uninitialized;

			next.rec = lkst_buf_reserve_switch(cb, blk, old, len,
							   &next);
			if (next.rec == LKST_RESERVE_RETRY) {
				old = local64_read(&cb->pos);
				continue;
			}
			if (!next.rec)
				return false;
			slot->page = next.page;
			slot->rec = next.rec;
			need = len;
			goto reserved;
		}
		pg = lkst_block_page(blk, lkst_pos_page(old));
		/* Counted before the bytes are ours (I4, I7); no carry (I3). */
		WRITE_ONCE(pg->writers, READ_ONCE(pg->writers) + 1);
		barrier();
#ifdef CONFIG_ARM64
		/*
		 * arm64's local64_cmpxchg() is fully ordered (stlxr, dmb ish).
		 * Only this CPU moves pos (I1) and no other CPU learns of a
		 * record through it (I14, I15), so a relaxed exchange does;
		 * its asm has no memory clobber, hence the barrier().
		 */
		seen = atomic_long_cmpxchg_relaxed(&cb->pos.a.a, old,
				old + need + (1ULL << LKST_POS_COUNT_SHIFT));
		barrier();
#else
		seen = local64_cmpxchg(&cb->pos, old,
				       old + need + (1ULL << LKST_POS_COUNT_SHIFT));
#endif
		if (likely(seen == old)) {
			slot->page = pg;
			slot->rec = (struct lkst_brec *)((char *)pg +
							 lkst_pos_offset(old));
			goto reserved;
		}
		barrier();
		WRITE_ONCE(pg->writers, READ_ONCE(pg->writers) - 1);
		old = seen;	/* a nested writer moved on first */
	}
reserved:
	slot->end = (u32 *)((char *)slot->rec + need);
	slot->info_flags = need != len ? LKST_BREC_NO_PID : 0;
	WRITE_ONCE(cb->last_pid, pid);
	return true;
drop:
	local64_inc(&cb->dropped);
	return false;
}

/*
 * A reserved record is filled in this order: the PID, the high words, the
 * low words, the time (all without a branch, so some land where a later
 * store goes too), then lkst_buf_commit().
 *
 * Store the PID word last in the record (before @slot->end) and return
 * where the arguments' words end: before it if the record has it, else at
 * the end, where the last argument word or the time then goes.
 */
static __always_inline u32 *lkst_slot_put_pid(const struct lkst_slot *slot,
					      u32 pid)
{
	WRITE_ONCE(slot->end[-1], pid);
	return slot->end - !(slot->info_flags & LKST_BREC_NO_PID);
}

/* Where the low words of the arguments go. */
static __always_inline u32 *lkst_slot_args(const struct lkst_slot *slot)
{
	return slot->rec->word;
}

/* A counter value, or nanoseconds with LKST_BREC_TIME_NS in the info. */
static __always_inline void lkst_slot_put_time(const struct lkst_slot *slot,
					       u64 time)
{
	WRITE_ONCE(slot->rec->time_lo, (u32)time);
	WRITE_ONCE(slot->rec->time_hi, (u32)(time >> 32));
}

/*
 * Store the high word of @arg, if it is not 0, right before @end, and
 * return where the high words before it go.  Writers store the high words
 * from the last argument back, then the low words: a 0 high word is stored
 * too, where the next one back or the last low word then goes.
 */
static __always_inline u32 *lkst_brec_put_high_before(u32 *end, u64 arg)
{
	u32 high = arg >> 32;

	WRITE_ONCE(end[-1], high);
	return end - (high != 0);
}

/*
 * The layout of a record of these arguments as the kernel's writer stores
 * it: how many are stored (@nr_args, up to the last non-zero one), which
 * take two words (@wide, LKST_BREC_WIDE()), and its length with the PID
 * word.  Only the arguments stored are tested, so the cost goes with what
 * is recorded; a constant 0 costs nothing.
 */
static __always_inline u32 lkst_brec_layout_args(u64 a1, u64 a2, u64 a3,
						 u64 a4, u64 a5, u64 a6,
						 u32 *nr_args, u32 *wide)
{
	/* How many arguments take two words, by the wide mask. */
	static const u8 nr_wide[LKST_BREC_WIDE_MASK + 1] = {
		0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
		1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
		1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
		2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
	};
	u32 nr = a6 ? 6 : a5 ? 5 : a4 ? 4 : a3 ? 3 : a2 ? 2 : a1 ? 1 : 0;
	u32 w = 0;

	switch (nr) {
	case 6:
		w |= LKST_ARG_IS_WIDE(a6) << 5;
		fallthrough;
	case 5:
		w |= LKST_ARG_IS_WIDE(a5) << 4;
		fallthrough;
	case 4:
		w |= LKST_ARG_IS_WIDE(a4) << 3;
		fallthrough;
	case 3:
		w |= LKST_ARG_IS_WIDE(a3) << 2;
		fallthrough;
	case 2:
		w |= LKST_ARG_IS_WIDE(a2) << 1;
		fallthrough;
	case 1:
		w |= LKST_ARG_IS_WIDE(a1);
	}
	*nr_args = nr;
	*wide = w;
	return LKST_BREC_SIZE(nr, nr_wide[w]);
}

/*
 * Store the PID and the first @nr_args arguments (lkst_brec_layout_args())
 * into a reserved record: the high words from the last argument back,
 * then the low words, each argument once, from the caller's registers.
 */
static __always_inline void lkst_slot_put_args(const struct lkst_slot *slot,
					       u32 pid, u32 nr_args,
					       u64 a1, u64 a2, u64 a3,
					       u64 a4, u64 a5, u64 a6)
{
	u32 *end = lkst_slot_put_pid(slot, pid), *low;

	switch (nr_args) {
	case 6:
		end = lkst_brec_put_high_before(end, a6);
		fallthrough;
	case 5:
		end = lkst_brec_put_high_before(end, a5);
		fallthrough;
	case 4:
		end = lkst_brec_put_high_before(end, a4);
		fallthrough;
	case 3:
		end = lkst_brec_put_high_before(end, a3);
		fallthrough;
	case 2:
		end = lkst_brec_put_high_before(end, a2);
		fallthrough;
	case 1:
		lkst_brec_put_high_before(end, a1);
	}
	/* After the high words: the last low word may be where one went. */
	low = lkst_slot_args(slot);
	switch (nr_args) {
	case 6:
		WRITE_ONCE(low[5], (u32)a6);
		fallthrough;
	case 5:
		WRITE_ONCE(low[4], (u32)a5);
		fallthrough;
	case 4:
		WRITE_ONCE(low[3], (u32)a4);
		fallthrough;
	case 3:
		WRITE_ONCE(low[2], (u32)a3);
		fallthrough;
	case 2:
		WRITE_ONCE(low[1], (u32)a2);
		fallthrough;
	case 1:
		WRITE_ONCE(low[0], (u32)a1);
	}
}

/*
 * Complete a reserved record whose other words the caller has stored with
 * WRITE_ONCE: its info word (LKST_BREC_INFO()) last, after a write
 * barrier, is what makes it visible (I6, I14).  Readers read a page up to
 * its first zero word, which the reset left (I5), so nothing is published:
 * the cost of a commit is the barrier (a compiler barrier on x86), the
 * store and giving up the page's writer count (I4, I7).
 */
static __always_inline void lkst_buf_commit(const struct lkst_slot *slot,
					    u32 info)
{
	struct lkst_page *pg = slot->page;

	smp_wmb();	/* the record's words before its info word (I14) */
	WRITE_ONCE(slot->rec->info, info | slot->info_flags);
	barrier();	/* complete before a nested writer may reset the page */
	WRITE_ONCE(pg->writers, READ_ONCE(pg->writers) - 1);
}

/* Out-of-line forms, for handlers' tests, KUnit and the host tests. */
u32 lkst_brec_layout(const u64 *args, u32 nr_args, u32 *wide);
bool lkst_buf_reserve(struct lkst_cpu_buffer *cb, u32 len,
		      struct lkst_slot *slot);
bool lkst_buf_reserve_pid(struct lkst_cpu_buffer *cb, u32 len, u32 pid,
			  struct lkst_slot *slot);
void lkst_buf_write(struct lkst_cpu_buffer *cb, const struct lkst_record *rec,
		    u32 nr_args);

void lkst_buf_init_first_page(struct lkst_cpu_buffer *cb,
			      struct lkst_block *blk);
int lkst_buf_jump_pos(struct lkst_cpu_buffer *cb, struct lkst_block *target);
int lkst_buf_begin_switch(struct lkst_cpu_buffer *cb, u64 *old,
			  u64 *first_seq);
void lkst_buf_end_switch(struct lkst_cpu_buffer *cb, struct lkst_block *target,
			 u64 first_seq);
u64 lkst_buf_next_seq(struct lkst_cpu_buffer *cb,
		      struct lkst_block *const *blocks);

/* Reading: pages in the order of their records, and records of a page. */
struct lkst_page_ref {
	u64 first_seq;
	u32 block;
	u32 page;
};

bool lkst_page_next(const struct lkst_page *pg, u32 end, u32 *offset,
		    u32 *pid, struct lkst_record *out);
int lkst_page_read(const struct lkst_page *pg, struct lkst_record *out,
		   u64 *first_seq);
u32 lkst_page_count(const struct lkst_page *pg);
u64 lkst_buf_list_pages(struct lkst_block *const *blocks, int only_block,
			struct lkst_page_ref *refs, u64 max);

typedef int (*lkst_emit_fn)(void *ctx, const struct lkst_record *rec, u64 seq);
int lkst_buf_walk_only(struct lkst_block *const *blocks, int only_block,
		       const struct lkst_page_ref *refs, u64 nr, u64 cursor,
		       bool stop_at_hole, struct lkst_record *tmp,
		       lkst_emit_fn emit, void *ctx, u64 *next_seq);
int lkst_buf_walk(struct lkst_block *const *blocks,
		  const struct lkst_page_ref *refs, u64 nr, u64 cursor,
		  bool stop_at_hole, struct lkst_record *tmp,
		  lkst_emit_fn emit, void *ctx, u64 *next_seq);

#endif /* _LKST_BUF_H */
