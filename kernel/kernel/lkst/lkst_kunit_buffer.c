// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lkst_buffer: the block write path on private buffers (fill,
 * wrap, links, interrupted writers, drains, stop mode, jumps, control
 * requests), the persistent region's checks and the records' clock.  The
 * maskset and handler suite is in lkst_kunit_maskset.c.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "clock.h"
#include "internal.h"
#include "lkst_kunit.h"

static struct lkst_block *test_block(struct kunit *test, u32 id, u32 pages,
				     u32 next)
{
	struct lkst_block *blk = kunit_kzalloc(test, sizeof(*blk), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, blk);
	blk->pages = kunit_kzalloc(test, pages * LKST_PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blk->pages);
	blk->id = id;
	blk->nr_pages = pages;
	blk->next = next;
	return blk;
}

/* A buffer whose first block is @blk, written from its first page. */
static struct lkst_cpu_buffer *test_buffer(struct kunit *test,
					   struct lkst_block *blk)
{
	struct lkst_cpu_buffer *cb = kunit_kzalloc(test, sizeof(*cb),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cb);
	if (blk) {
		RCU_INIT_POINTER(cb->blocks[blk->id], blk);
		lkst_buf_init_first_page(cb, blk);
	}
	return cb;
}

/*
 * Write a record of @nr_args arguments: the first 100 + @seq (one word), the
 * others TEST_WIDE + their index (two words).
 */
#define TEST_WIDE	0x700000000ULL

static bool test_write(struct lkst_cpu_buffer *cb, u64 seq, u32 nr_args)
{
	struct lkst_record content = { .pid = 42, .event = 1, .context = 2 };
	u64 dropped = local64_read(&cb->dropped);
	u32 i;

	content.time_ns = 1000 + seq;
	for (i = 0; i < nr_args; i++)
		content.arg[i] = i ? TEST_WIDE + i : 100 + seq;
	rcu_read_lock_sched();
	lkst_buf_write(cb, &content, nr_args);
	rcu_read_unlock_sched();
	return local64_read(&cb->dropped) == dropped;
}

struct lkst_record *lkst_kunit_page_records(struct kunit *test)
{
	struct lkst_record *out = kunit_kcalloc(test, LKST_PAGE_MAX_RECORDS,
						sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	return out;
}

static u64 test_next_seq(struct lkst_cpu_buffer *cb)
{
	return lkst_buf_next_seq(cb, (struct lkst_block *const *)cb->blocks);
}

/* 60-byte records: 67 fill a page's 4032 bytes of records. */
#define FULL	6
#define FULL_SIZE LKST_BREC_SIZE(FULL, FULL - 1)
#define PER_PAGE ((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / FULL_SIZE)
/* How many fit after @used bytes of other records. */
#define FIT_FULL(used) ((LKST_PAGE_SIZE - LKST_PAGE_HEAD - (used)) / FULL_SIZE)

static void lkst_buf_fills_in_order(struct kunit *test)
{
	struct lkst_block *blk = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, blk);
	struct lkst_record *out;
	u32 bytes = 0, i, n;
	u64 seq, first;

	out = lkst_kunit_page_records(test);
	for (seq = 0; seq < 7; seq++) {
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, seq));
		n = seq < FULL ? seq : FULL;
		bytes += n ? LKST_BREC_SIZE(n, n - 1) : LKST_BREC_SIZE(0, 0);
	}
	KUNIT_EXPECT_EQ(test, lkst_pos_offset(local64_read(&cb->pos)),
			LKST_PAGE_HEAD + bytes);
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), 7);
	KUNIT_EXPECT_EQ(test, first, 0);
	for (seq = 0; seq < 7; seq++) {
		KUNIT_EXPECT_EQ(test, out[seq].time_ns, 1000 + seq);
		KUNIT_EXPECT_EQ(test, out[seq].pid, 42);
		KUNIT_EXPECT_EQ(test, out[seq].event, 1);
		KUNIT_EXPECT_EQ(test, out[seq].context, 2);
		for (i = 0; i < LKST_NR_ARGS; i++)
			KUNIT_EXPECT_EQ(test, out[seq].arg[i],
					i >= seq ? 0 : i ? TEST_WIDE + i : 100 + seq);
	}
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 7);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
}

static void lkst_buf_wraps_page_by_page(struct kunit *test)
{
	struct lkst_block *blk = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, blk);
	struct lkst_record *out;
	u64 seq, first;

	out = lkst_kunit_page_records(test);
	for (seq = 0; seq < PER_PAGE + 10; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	/* The full page was reset for the 68th: its 67 records are lost. */
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), PER_PAGE);
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), 10);
	KUNIT_EXPECT_EQ(test, first, PER_PAGE);
	KUNIT_EXPECT_EQ(test, out[0].arg[0], 100 + PER_PAGE);
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), PER_PAGE + 10);
}

static void lkst_buf_follows_links(struct kunit *test)
{
	struct lkst_block *a = test_block(test, 0, 1, 1);
	struct lkst_block *b = test_block(test, 1, 2, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, a);
	struct lkst_page_ref refs[3];
	u64 seq;

	RCU_INIT_POINTER(cb->blocks[1], b);
	for (seq = 0; seq < 3 * PER_PAGE + 5; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	/* a: 0-66; b: 67-133, 134-200, then page 0 again from 201 */
	KUNIT_ASSERT_EQ(test, lkst_buf_list_pages(
		(struct lkst_block *const *)cb->blocks, -1, refs, 3), 3);
	KUNIT_EXPECT_EQ(test, refs[0].first_seq, 0);
	KUNIT_EXPECT_EQ(test, refs[0].block, 0);
	KUNIT_EXPECT_EQ(test, refs[1].first_seq, 2 * PER_PAGE);
	KUNIT_EXPECT_EQ(test, refs[1].page, 1);
	KUNIT_EXPECT_EQ(test, refs[2].first_seq, 3 * PER_PAGE);
	KUNIT_EXPECT_EQ(test, refs[2].block, 1);
	KUNIT_EXPECT_EQ(test, refs[2].page, 0);
	KUNIT_EXPECT_EQ(test, lkst_pos_block(local64_read(&cb->pos)), 1);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), PER_PAGE);
}

/*
 * An interrupt that laps the buffer drops instead of resetting a page
 * under a writer it interrupted, and readers stop before that record.
 */
static void lkst_buf_never_resets_under_writer(struct kunit *test)
{
	struct lkst_block *blk = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, blk);
	struct lkst_record *out;
	struct lkst_slot held;
	u64 seq, first;

	out = lkst_kunit_page_records(test);
	rcu_read_lock_sched();
	KUNIT_ASSERT_TRUE(test, lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0),
						 &held));
	rcu_read_unlock_sched();
	/* the full records that fit after the 16 bytes held */
	for (seq = 1; seq <= FIT_FULL(16); seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 99, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 1);
	KUNIT_EXPECT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), 0);
	lkst_slot_put_time(&held, 5);
	rcu_read_lock_sched();
	lkst_buf_commit(&held, LKST_BREC_INFO(3, 0, 0, 0) | LKST_BREC_TIME_NS);
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), FIT_FULL(16) + 1);
	KUNIT_EXPECT_EQ(test, out[0].event, 3);
	KUNIT_EXPECT_EQ(test, out[0].time_ns, 5);
	/* Now the page can be reset. */
	KUNIT_EXPECT_TRUE(test, test_write(cb, 100, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), FIT_FULL(16) + 1);
}

static void lkst_buf_drops_without_block(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test, NULL);

	KUNIT_EXPECT_FALSE(test, test_write(cb, 1, 1));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 1);
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 0);
}

struct test_walk {
	u64 seqs[8];
	u32 n;
};

static int test_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct test_walk *w = ctx;

	if (w->n == ARRAY_SIZE(w->seqs) || rec->arg[0] != 100 + seq)
		return -ENOSPC;
	w->seqs[w->n++] = seq;
	return 0;
}

/* A drain starts at its cursor and stops before a record in flight. */
static void lkst_buf_walks_from_cursor(struct kunit *test)
{
	struct lkst_block *blk = test_block(test, 0, 2, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, blk);
	struct lkst_block *const *blocks = (void *)cb->blocks;
	struct test_walk w = {};
	struct lkst_page_ref refs[2];
	struct lkst_record *tmp;
	struct lkst_slot held;
	u64 seq, next;

	tmp = lkst_kunit_page_records(test);
	for (seq = 0; seq < PER_PAGE + 2; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	KUNIT_ASSERT_EQ(test, lkst_buf_list_pages(blocks, -1, refs, 2), 2);
	KUNIT_EXPECT_EQ(test, lkst_buf_walk(blocks, refs, 2, PER_PAGE - 3,
					    true, tmp, test_emit, &w, &next),
			0);
	KUNIT_EXPECT_EQ(test, w.n, 5);
	KUNIT_EXPECT_EQ(test, w.seqs[0], PER_PAGE - 3);
	KUNIT_EXPECT_EQ(test, w.seqs[4], PER_PAGE + 1);
	KUNIT_EXPECT_EQ(test, next, PER_PAGE + 2);

	rcu_read_lock_sched();
	KUNIT_ASSERT_TRUE(test, lkst_buf_reserve(cb, LKST_BREC_SIZE(1, 0), &held));
	rcu_read_unlock_sched();
	KUNIT_ASSERT_TRUE(test, test_write(cb, PER_PAGE + 3, 1));
	w.n = 0;
	KUNIT_EXPECT_EQ(test, lkst_buf_walk(blocks, refs, 2, PER_PAGE + 1,
					    true, tmp, test_emit, &w, &next),
			0);
	KUNIT_EXPECT_EQ(test, w.n, 1);
	KUNIT_EXPECT_EQ(test, next, PER_PAGE + 2);	/* the one in flight */
	WRITE_ONCE(held.rec->word[0], 100 + PER_PAGE + 2);
	rcu_read_lock_sched();
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 0, 1, 0));
	rcu_read_unlock_sched();
	w.n = 0;
	KUNIT_EXPECT_EQ(test, lkst_buf_walk(blocks, refs, 2, next, true, tmp,
					    test_emit, &w, &next), 0);
	KUNIT_EXPECT_EQ(test, w.n, 2);
	KUNIT_EXPECT_EQ(test, next, PER_PAGE + 4);
}

static void lkst_buf_stop_mode_keeps_oldest(struct kunit *test)
{
	struct lkst_block *a = test_block(test, 0, 1, 1);
	struct lkst_block *b = test_block(test, 1, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, a);
	struct lkst_record *out;
	u64 seq, first;

	out = lkst_kunit_page_records(test);
	RCU_INIT_POINTER(cb->blocks[1], b);
	cb->mode = LKST_MODE_STOP;
	/* b's page with room for one full record less, then a small one */
	for (seq = 0; seq < 2 * PER_PAGE - 1; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	KUNIT_EXPECT_TRUE(test, test_write(cb, seq, 0));
	/* The chain is full: nothing is overwritten, the rest is dropped. */
	KUNIT_EXPECT_FALSE(test, test_write(cb, 200, FULL));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 201, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 2);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 2 * PER_PAGE);
	/* Back to overwriting: the last block wraps onto itself. */
	WRITE_ONCE(cb->mode, LKST_MODE_OVERWRITE);
	KUNIT_ASSERT_TRUE(test, test_write(cb, 2 * PER_PAGE + 1, FULL));
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(b, 0), out,
					     &first), 1);
	KUNIT_EXPECT_EQ(test, first, 2 * PER_PAGE);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), PER_PAGE);
}

static void lkst_buf_jumps(struct kunit *test)
{
	struct lkst_block *a = test_block(test, 0, 2, LKST_NO_NEXT);
	struct lkst_block *b = test_block(test, 1, 1, 0);
	struct lkst_cpu_buffer *cb = test_buffer(test, a);
	struct lkst_record *out;
	struct lkst_slot held;
	u64 seq, first;

	out = lkst_kunit_page_records(test);
	RCU_INIT_POINTER(cb->blocks[1], b);
	for (seq = 0; seq < 5; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, 2));
	rcu_read_lock_sched();
	KUNIT_EXPECT_EQ(test, lkst_buf_jump_pos(cb, b), 0);
	rcu_read_unlock_sched();
	KUNIT_ASSERT_TRUE(test, test_write(cb, 5, 2));
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(b, 0), out,
					     &first), 1);
	KUNIT_EXPECT_EQ(test, first, 5);
	/* Back to a's page 0, whose 5 records are lost, in STOP mode too. */
	cb->mode = LKST_MODE_STOP;
	rcu_read_lock_sched();
	KUNIT_EXPECT_EQ(test, lkst_buf_jump_pos(cb, a), 0);
	KUNIT_ASSERT_TRUE(test, lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0),
						 &held));
	/* Not while a writer this one interrupted writes in the page. */
	KUNIT_EXPECT_EQ(test, lkst_buf_jump_pos(cb, a), -EBUSY);
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 5);
	rcu_read_lock_sched();
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 0, 0, 0));
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 7);
}

static void lkst_buf_control_rejects_bad_requests(struct kunit *test)
{
	struct lkst_buffer_mode mode = { .cpu = 0, .mode = LKST_MODE_STOP + 1 };
	struct lkst_buffer_resize resize = { .size = LKST_BLOCK_MIN_SIZE - 1 };
	struct lkst_buffer_drain drain = { .cpu = nr_cpu_ids };

	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_mode(&mode), -EINVAL);
	mode.cpu = nr_cpu_ids;
	mode.mode = LKST_MODE_OVERWRITE;
	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_mode(&mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_resize(&resize), -EINVAL);
	resize.size = LKST_BLOCK_MAX_SIZE + 1;
	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_resize(&resize), -EINVAL);
	resize.size = LKST_BLOCK_MIN_SIZE;
	resize.__pad = 1;
	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_resize(&resize), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkc_ioc_buffer_drain(&drain), -EINVAL);
}

/*
 * A persistent region: an empty one is refused, a formatted one is
 * trusted, and what a writer put in its pages passes the page checks
 * until a head byte, a page's end, a record, the zeros after the
 * records or a page number is corrupted.
 */
static void lkst_persist_validates(struct kunit *test)
{
	const u64 pages = 16;
	struct lkst_block *copy = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_block *blk = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb;
	struct lkst_brec *rec;
	void *region;
	size_t bytes;
	u64 seq, nr;
	u32 nr_pages;

	region = vzalloc(pages * LKST_PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, region);
	KUNIT_EXPECT_STREQ(test, lkc_persist_refusal(region, pages),
			   "no trace there (a cold boot, or never written)");
	lkc_persist_format(region, pages, 2);
	KUNIT_EXPECT_NULL(test, lkc_persist_refusal(region, pages));
	KUNIT_EXPECT_NOT_NULL(test, lkc_persist_refusal(region, 2));

	/* CPU 1's pages, written as the writers do: 4 full pages and 10. */
	blk->pages = lkc_persist_cpu_pages(region, 1, &nr_pages);
	blk->nr_pages = nr_pages;
	KUNIT_ASSERT_EQ(test, nr_pages, 7);
	cb = test_buffer(test, blk);
	for (seq = 0; seq < 4 * PER_PAGE + 10; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	bytes = (size_t)nr_pages * LKST_PAGE_SIZE;
	copy->pages = kunit_kzalloc(test, bytes, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy->pages);
	copy->nr_pages = nr_pages;

#define CHECK_COPY(refused, records)					\
	do {								\
		memcpy(copy->pages, blk->pages, bytes);			\
		nr = 0;							\
		KUNIT_EXPECT_EQ(test, lkc_persist_check_pages(copy, &nr), \
				refused);				\
		KUNIT_EXPECT_EQ(test, nr, records);			\
	} while (0)

	CHECK_COPY(0, 4 * PER_PAGE + 10);
	/* A page left beyond its end. */
	lkst_block_page(blk, 1)->left_at += LKST_PAGE_SIZE;
	CHECK_COPY(1, 3 * PER_PAGE + 10);
	lkst_block_page(blk, 1)->left_at -= LKST_PAGE_SIZE;
	/* Garbage where the reset left zeros, after the page's records. */
	*(u32 *)((char *)lkst_block_page(blk, 4) + LKST_PAGE_HEAD +
		 10 * FULL_SIZE) = 0x1234;
	CHECK_COPY(1, 4 * PER_PAGE);
	*(u32 *)((char *)lkst_block_page(blk, 4) + LKST_PAGE_HEAD +
		 10 * FULL_SIZE) = 0;
	/* A record claiming more arguments than there are. */
	rec = (struct lkst_brec *)((char *)lkst_block_page(blk, 2) +
				   LKST_PAGE_HEAD);
	rec->info |= 7;
	CHECK_COPY(1, 3 * PER_PAGE + 10);
	rec->info &= ~7u;
	rec->info |= FULL;
	/* A page numbered like another one. */
	lkst_block_page(blk, 3)->first_seq = lkst_block_page(blk, 2)->first_seq;
	CHECK_COPY(1, 3 * PER_PAGE + 10);
	lkst_block_page(blk, 3)->first_seq += PER_PAGE;
	CHECK_COPY(0, 4 * PER_PAGE + 10);
#undef CHECK_COPY

	/*
	 * A share larger than a block can hold (lkc_ioc_block_info's u32 size),
	 * sealed with a good checksum: refused all the same.  Offsets of
	 * struct lkst_persist_head: head_crc 12, head_pages 40,
	 * pages_per_cpu 44.
	 */
	{
		u32 *words = region, saved = words[11], crc;

		words[11] = U32_MAX / LKST_PAGE_SIZE + 1;
		words[3] = 0;
		crc = crc32_le(~0, region, (size_t)words[10] * LKST_PAGE_SIZE);
		words[3] = crc;
		KUNIT_EXPECT_STREQ(test, lkc_persist_refusal(region, 1ULL << 30),
				   "pages per CPU beyond what a block can hold");
		words[11] = saved;
		words[3] = 0;
		words[3] = crc32_le(~0, region, (size_t)words[10] * LKST_PAGE_SIZE);
		KUNIT_EXPECT_NULL(test, lkc_persist_refusal(region, pages));
	}

	/* One byte of the head changed: its checksum no longer matches. */
	((u8 *)region)[60] ^= 1;
	KUNIT_EXPECT_STREQ(test, lkc_persist_refusal(region, pages),
			   "head checksum mismatch");
	vfree(region);
}

/*
 * The records' clock read between two reads of the timekeeper's fast
 * reader falls between them, every time: a wrong copy of the readout base
 * (a field, the shift, the latch) is off by far more than a read takes.
 */
static void lkst_clock_matches_timekeeper(struct kunit *test)
{
	u64 before, t, after;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		preempt_disable();
		before = ktime_get_mono_fast_ns();
		t = lkst_clock_ns();
		after = ktime_get_mono_fast_ns();
		preempt_enable();
		if (t < before || t > after)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, i, 100000, "%llu not within [%llu, %llu]",
			    t, before, after);
#ifdef LKST_CLOCK_INLINE_TSC
	/*
	 * A counter value stored in a page reads, through the page's anchor,
	 * as the timekeeper's time then (I16); the anchor taken first, as a
	 * page's reset takes it before its records.
	 */
	if (lkc_clock_is_inline()) {
		struct lkst_page_clock anchor;
		u64 counter;

		for (i = 0; i < 10000; i++) {
			preempt_disable();
			lkc_clock_anchor(&anchor);
			before = ktime_get_mono_fast_ns();
			counter = lkst_clock_counter();
			after = ktime_get_mono_fast_ns();
			preempt_enable();
			t = lkst_page_clock_ns(&anchor, counter);
			if (!anchor.mult || t < before || t > after)
				break;
		}
		KUNIT_EXPECT_EQ_MSG(test, i, 10000,
				    "mult %u: %llu not within [%llu, %llu]",
				    anchor.mult, t, before, after);
	}
#endif
	kunit_info(test, "records timed %s\n", lkc_clock_is_inline() ?
		   "from the CPU's counter (TSC, arch timer), inline" :
		   "by ktime_get_mono_fast_ns()");
}

static struct kunit_case lkst_buf_cases[] = {
	KUNIT_CASE(lkst_clock_matches_timekeeper),
	KUNIT_CASE(lkst_buf_fills_in_order),
	KUNIT_CASE(lkst_buf_wraps_page_by_page),
	KUNIT_CASE(lkst_buf_follows_links),
	KUNIT_CASE(lkst_buf_never_resets_under_writer),
	KUNIT_CASE(lkst_buf_drops_without_block),
	KUNIT_CASE(lkst_buf_walks_from_cursor),
	KUNIT_CASE(lkst_buf_stop_mode_keeps_oldest),
	KUNIT_CASE(lkst_buf_jumps),
	KUNIT_CASE(lkst_buf_control_rejects_bad_requests),
	KUNIT_CASE(lkst_persist_validates),
	{}
};

static struct kunit_suite lkst_buf_suite = {
	.name = "lkst_buffer",
	.test_cases = lkst_buf_cases,
};

kunit_test_suites(&lkst_buf_suite);

MODULE_DESCRIPTION("KUnit tests for the lkst kernel state tracer: the buffer");
MODULE_LICENSE("GPL");
