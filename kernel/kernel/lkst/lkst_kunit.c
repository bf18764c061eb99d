// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lkst: the block write path on private buffers, and
 * maskset and handler management on the live tables (each test puts the
 * active maskset back as it found it).
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "clock.h"
#include "internal.h"

#define TEST_MASKSET	(LKST_MAX_MASKSETS - 1)

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

/* Room for a page's records, as lkst_page_read() and the walk need. */
static struct lkst_record *test_page_records(struct kunit *test)
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

/* 60-byte records: 67 fill a page's 4064 bytes of records. */
#define FULL	6
#define FULL_SIZE LKST_BREC_SIZE(FULL, FULL - 1)
#define PER_PAGE ((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / FULL_SIZE)

static void lkst_buf_fills_in_order(struct kunit *test)
{
	struct lkst_block *blk = test_block(test, 0, 1, LKST_NO_NEXT);
	struct lkst_cpu_buffer *cb = test_buffer(test, blk);
	struct lkst_record *out;
	u32 bytes = 0, i, n;
	u64 seq, first;

	out = test_page_records(test);
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

	out = test_page_records(test);
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

	out = test_page_records(test);
	rcu_read_lock_sched();
	KUNIT_ASSERT_TRUE(test, lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0),
						 &held));
	rcu_read_unlock_sched();
	/* 16 bytes held leave room for 67 full records still. */
	for (seq = 1; seq <= PER_PAGE; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 99, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 1);
	KUNIT_EXPECT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), 0);
	lkst_slot_put_time(&held, 5);
	rcu_read_lock_sched();
	lkst_buf_commit(cb, &held, LKST_BREC_INFO(3, 0, 0, 0));
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, lkst_page_read(lkst_block_page(blk, 0), out,
					     &first), PER_PAGE + 1);
	KUNIT_EXPECT_EQ(test, out[0].event, 3);
	KUNIT_EXPECT_EQ(test, out[0].time_ns, 5);
	/* Now the page can be reset. */
	KUNIT_EXPECT_TRUE(test, test_write(cb, 100, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), PER_PAGE + 1);
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

	tmp = test_page_records(test);
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
	lkst_buf_commit(cb, &held, LKST_BREC_INFO(1, 0, 1, 0));
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

	out = test_page_records(test);
	RCU_INIT_POINTER(cb->blocks[1], b);
	cb->mode = LKST_MODE_STOP;
	for (seq = 0; seq < 2 * PER_PAGE; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, FULL));
	/* The chain is full: nothing is overwritten, the rest is dropped. */
	KUNIT_EXPECT_FALSE(test, test_write(cb, 200, FULL));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 201, FULL));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 2);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 2 * PER_PAGE);
	/* A small record still fits in the last page's 32 bytes left. */
	KUNIT_EXPECT_TRUE(test, test_write(cb, 2 * PER_PAGE, 1));
	/* Back to overwriting: the last block wraps onto itself. */
	WRITE_ONCE(cb->mode, LKST_MODE_OVERWRITE);
	KUNIT_ASSERT_TRUE(test, test_write(cb, 2 * PER_PAGE + 1, FULL));
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(b, 0), out,
					     &first), 1);
	KUNIT_EXPECT_EQ(test, first, 2 * PER_PAGE + 1);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), PER_PAGE + 1);
}

static void lkst_buf_jumps(struct kunit *test)
{
	struct lkst_block *a = test_block(test, 0, 2, LKST_NO_NEXT);
	struct lkst_block *b = test_block(test, 1, 1, 0);
	struct lkst_cpu_buffer *cb = test_buffer(test, a);
	struct lkst_record *out;
	struct lkst_slot held;
	u64 seq, first;

	out = test_page_records(test);
	RCU_INIT_POINTER(cb->blocks[1], b);
	for (seq = 0; seq < 5; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq, 2));
	rcu_read_lock_sched();
	KUNIT_EXPECT_EQ(test, lkst_buf_jump(cb, b), 0);
	rcu_read_unlock_sched();
	KUNIT_ASSERT_TRUE(test, test_write(cb, 5, 2));
	KUNIT_ASSERT_EQ(test, lkst_page_read(lkst_block_page(b, 0), out,
					     &first), 1);
	KUNIT_EXPECT_EQ(test, first, 5);
	/* Back to a's page 0, whose 5 records are lost, in STOP mode too. */
	cb->mode = LKST_MODE_STOP;
	rcu_read_lock_sched();
	KUNIT_EXPECT_EQ(test, lkst_buf_jump(cb, a), 0);
	KUNIT_ASSERT_TRUE(test, lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0),
						 &held));
	/* Not while a writer this one interrupted writes in the page. */
	KUNIT_EXPECT_EQ(test, lkst_buf_jump(cb, a), -EBUSY);
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 5);
	rcu_read_lock_sched();
	lkst_buf_commit(cb, &held, LKST_BREC_INFO(1, 0, 0, 0));
	rcu_read_unlock_sched();
	KUNIT_EXPECT_EQ(test, test_next_seq(cb), 7);
}

static void lkst_buf_control_rejects_bad_requests(struct kunit *test)
{
	struct lkst_buffer_mode mode = { .cpu = 0, .mode = LKST_MODE_STOP + 1 };
	struct lkst_buffer_resize resize = { .size = LKST_BLOCK_MIN_SIZE - 1 };
	struct lkst_buffer_drain drain = { .cpu = nr_cpu_ids };

	KUNIT_EXPECT_EQ(test, lkst_buffer_mode(&mode), -EINVAL);
	mode.cpu = nr_cpu_ids;
	mode.mode = LKST_MODE_OVERWRITE;
	KUNIT_EXPECT_EQ(test, lkst_buffer_mode(&mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(&resize), -EINVAL);
	resize.size = LKST_BLOCK_MAX_SIZE + 1;
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(&resize), -EINVAL);
	resize.size = LKST_BLOCK_MIN_SIZE;
	resize.__pad = 1;
	KUNIT_EXPECT_EQ(test, lkst_buffer_resize(&resize), -EINVAL);
	KUNIT_EXPECT_EQ(test, lkst_buffer_drain(&drain), -EINVAL);
}

/*
 * A persistent region: an empty one is refused, a formatted one is
 * trusted, and what a writer put in its pages passes the page checks
 * until a head byte, a commit, a record or a page number is corrupted.
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
	KUNIT_EXPECT_STREQ(test, lkst_persist_refusal(region, pages),
			   "no trace there (a cold boot, or never written)");
	lkst_persist_format(region, pages, 2);
	KUNIT_EXPECT_NULL(test, lkst_persist_refusal(region, pages));
	KUNIT_EXPECT_NOT_NULL(test, lkst_persist_refusal(region, 2));

	/* CPU 1's pages, written as the writers do: 4 full pages and 10. */
	blk->pages = lkst_persist_cpu_pages(region, 1, &nr_pages);
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
		KUNIT_EXPECT_EQ(test, lkst_persist_check_pages(copy, &nr), \
				refused);				\
		KUNIT_EXPECT_EQ(test, nr, records);			\
	} while (0)

	CHECK_COPY(0, 4 * PER_PAGE + 10);
	/* A commit beyond the page. */
	lkst_block_page(blk, 1)->commit += LKST_PAGE_SIZE;
	CHECK_COPY(1, 3 * PER_PAGE + 10);
	lkst_block_page(blk, 1)->commit -= LKST_PAGE_SIZE;
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
	 * A share larger than a block can hold (lkst_block_info's u32 size),
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
		KUNIT_EXPECT_STREQ(test, lkst_persist_refusal(region, 1ULL << 30),
				   "pages per CPU beyond what a block can hold");
		words[11] = saved;
		words[3] = 0;
		words[3] = crc32_le(~0, region, (size_t)words[10] * LKST_PAGE_SIZE);
		KUNIT_EXPECT_NULL(test, lkst_persist_refusal(region, pages));
	}

	/* One byte of the head changed: its checksum no longer matches. */
	((u8 *)region)[60] ^= 1;
	KUNIT_EXPECT_STREQ(test, lkst_persist_refusal(region, pages),
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
	kunit_info(test, "records timed %s\n", lkst_clock_is_inline() ?
		   "from the TSC, inline" : "by ktime_get_mono_fast_ns()");
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

static unsigned int saved_active;

static int lkst_ms_test_init(struct kunit *test)
{
	saved_active = lkst_active_maskset_id();
	return 0;
}

static void lkst_ms_test_exit(struct kunit *test)
{
	lkst_maskset_select(saved_active);
	lkst_maskset_delete(TEST_MASKSET);
}

static void test_desc_fill(struct lkst_maskset_desc *desc, unsigned int id,
			   u8 handler)
{
	memset(desc, 0, sizeof(*desc));
	desc->id = id;
	strscpy(desc->name, "kunit", sizeof(desc->name));
	memset(desc->handler, LKST_HANDLER_NOTHING, sizeof(desc->handler));
	desc->handler[LKST_EV_PROCESS_CONTEXTSWITCH] = handler;
}

static void lkst_ms_system_read_only(struct kunit *test)
{
	struct lkst_maskset_entry entry = {
		.event = LKST_EV_SYSCALL_ENTRY,
		.handler = LKST_HANDLER_DEFAULT,
	};
	struct lkst_maskset_desc *desc;
	unsigned int id;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	for (id = 0; id < LKST_MASKSET_FIRST_USER; id++) {
		test_desc_fill(desc, id, LKST_HANDLER_DEFAULT);
		KUNIT_EXPECT_EQ(test, lkst_maskset_write(desc), -EROFS);
		entry.id = id;
		KUNIT_EXPECT_EQ(test, lkst_maskset_config(&entry), -EROFS);
		KUNIT_EXPECT_EQ(test, lkst_maskset_delete(id), -EROFS);
	}
	desc->id = LKST_MASKSET_RDEFAULT;
	KUNIT_ASSERT_EQ(test, lkst_maskset_read(desc), 0);
	KUNIT_EXPECT_TRUE(test, desc->flags & LKST_MS_SYSTEM);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_SYSCALL_ENTRY],
			LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_PROCESS_WAKEUP],
			LKST_HANDLER_DEFAULT);
	desc->id = LKST_MASKSET_RNOTHING;
	KUNIT_ASSERT_EQ(test, lkst_maskset_read(desc), 0);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_SYSCALL_ENTRY],
			LKST_HANDLER_NOTHING);
}

static void lkst_ms_validates_routes(struct kunit *test)
{
	struct lkst_maskset_entry entry = { .id = TEST_MASKSET };
	struct lkst_maskset_desc *desc;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	test_desc_fill(desc, TEST_MASKSET, 77);	/* no such handler */
	KUNIT_EXPECT_EQ(test, lkst_maskset_write(desc), -ENOENT);
	test_desc_fill(desc, TEST_MASKSET, 0);
	KUNIT_EXPECT_EQ(test, lkst_maskset_write(desc), -EINVAL);
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_DEFAULT);
	desc->handler[0xff] = LKST_HANDLER_DEFAULT;	/* not an event */
	KUNIT_EXPECT_EQ(test, lkst_maskset_write(desc), -EINVAL);
	desc->id = LKST_MAX_MASKSETS;
	KUNIT_EXPECT_EQ(test, lkst_maskset_write(desc), -EINVAL);

	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_DEFAULT);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	entry.event = LKST_NR_EVENT_IDS;
	entry.handler = LKST_HANDLER_DEFAULT;
	KUNIT_EXPECT_EQ(test, lkst_maskset_config(&entry), -EINVAL);
	entry.event = LKST_EV_PROCESS_WAKEUP;
	entry.handler = LKST_MAX_HANDLERS;
	KUNIT_EXPECT_EQ(test, lkst_maskset_config(&entry), -EINVAL);
	entry.handler = LKST_HANDLER_DEFAULT;
	KUNIT_EXPECT_EQ(test, lkst_maskset_config(&entry), 0);

	memset(desc, 0, sizeof(*desc));
	desc->id = TEST_MASKSET;
	KUNIT_ASSERT_EQ(test, lkst_maskset_read(desc), 0);
	KUNIT_EXPECT_STREQ(test, desc->name, "kunit");
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_PROCESS_WAKEUP],
			LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_SYSCALL_EXIT],
			LKST_HANDLER_NOTHING);
}

static void lkst_ms_select_drives_keys(struct kunit *test)
{
	struct lkst_maskset_desc *desc;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_DEFAULT);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);
	KUNIT_EXPECT_EQ(test, lkst_active_maskset_id(), TEST_MASKSET);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_SYSCALL_EXIT]));
	KUNIT_EXPECT_EQ(test, lkst_maskset_delete(TEST_MASKSET), -EBUSY);

	KUNIT_ASSERT_EQ(test, lkst_maskset_select(LKST_MASKSET_RNOTHING), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	KUNIT_EXPECT_EQ(test, lkst_maskset_delete(TEST_MASKSET), 0);
	KUNIT_EXPECT_EQ(test, lkst_maskset_select(TEST_MASKSET), -ENOENT);
	KUNIT_EXPECT_EQ(test, lkst_maskset_select(LKST_MAX_MASKSETS), -EINVAL);
}

static atomic_t test_handler_calls;

static void test_handle(struct lkst_handler *h, unsigned int event,
			const u64 args[LKST_NR_ARGS])
{
	if ((event == LKST_EV_PROCESS_CONTEXTSWITCH ||
	     event == LKST_EV_USER_MARK) && args[0] == 0x1234)
		atomic_inc(&test_handler_calls);
}

static void test_unregister(void *handler)
{
	lkst_handler_unregister(handler);
}

/*
 * A registered handler that lives as long as the test and is unregistered
 * when it ends, however it ends: a failed assertion leaves nothing behind.
 */
static struct lkst_handler *test_handler(struct kunit *test)
{
	struct lkst_handler *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->name = "kunit";
	h->handle = test_handle;
	KUNIT_ASSERT_EQ(test, lkst_handler_register(h), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_unregister,
							h), 0);
	return h;
}

static void lkst_ms_handler_lifecycle(struct kunit *test)
{
	struct lkst_handler *handler = test_handler(test);
	struct lkst_handler_desc info = { 0 };
	struct lkst_maskset_desc *desc;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_EXPECT_GT(test, handler->id, LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_LT(test, handler->id, LKST_HANDLER_NOTHING);
	info.id = handler->id;
	KUNIT_ASSERT_EQ(test, lkst_handler_info(&info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "kunit");

	test_desc_fill(desc, TEST_MASKSET, handler->id);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);
	atomic_set(&test_handler_calls, 0);
	lkst_hook_dispatch(LKST_EV_PROCESS_CONTEXTSWITCH, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);

	/* Unregistered while routed: no call, and its key goes off. */
	kunit_release_action(test, test_unregister, handler);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	lkst_hook_dispatch(LKST_EV_PROCESS_CONTEXTSWITCH, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);
	KUNIT_EXPECT_EQ(test, lkst_handler_info(&info), -ENOENT);
}

/* Counts hits as deltas: the real statistics are not the test's to reset. */
static void lkst_ms_counts_hits(struct kunit *test)
{
	struct lkst_handler *handler = test_handler(test);
	struct lkst_event_stat before = { .event = LKST_EV_USER_MARK };
	struct lkst_event_stat stat = { .event = LKST_EV_USER_MARK };
	struct lkst_maskset_entry entry = {
		.id = TEST_MASKSET,
		.event = LKST_EV_USER_MARK,
	};
	struct lkst_maskset_desc *desc;
	int i;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	entry.handler = handler->id;
	KUNIT_ASSERT_EQ(test, lkst_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);

	KUNIT_ASSERT_EQ(test, lkst_event_stat(&before), 0);
	for (i = 0; i < 3; i++)	/* only this test marks while it runs */
		lkst_hook_dispatch(LKST_EV_USER_MARK, i, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, lkst_event_stat(&stat), 0);
	KUNIT_EXPECT_EQ(test, stat.hits - before.hits, 3);
	KUNIT_EXPECT_EQ(test, stat.dropped - before.dropped, 0);
	stat.event = 0xff;
	KUNIT_EXPECT_EQ(test, lkst_event_stat(&stat), -EINVAL);

	KUNIT_ASSERT_EQ(test, lkst_maskset_select(saved_active), 0);
}

static unsigned int test_pass_target;

static void test_pass_handle(struct lkst_handler *h, unsigned int event,
			     const u64 args[LKST_NR_ARGS])
{
	lkst_handler_pass(test_pass_target, event, args);
}

static int test_control(struct lkst_handler *h, unsigned int cmd,
			void __user *data, u32 size)
{
	return cmd == 7 && !data && size == 3 ? 42 : -EINVAL;
}

/*
 * A handler that passes events on reaches the handler it names, never one
 * that passes on itself (no cycle), and NOTHING quietly; HANDLER_CTL
 * reaches a handler's control.
 */
static void lkst_ms_handler_pass_and_control(struct kunit *test)
{
	struct lkst_handler *counter = test_handler(test);
	struct lkst_handler *passer = test_handler(test);
	struct lkst_event_stat before = { .event = LKST_EV_USER_MARK };
	struct lkst_event_stat stat = { .event = LKST_EV_USER_MARK };
	struct lkst_handler_ctl ctl = { .cmd = 7, .size = 3 };
	struct lkst_maskset_entry entry = {
		.id = TEST_MASKSET,
		.event = LKST_EV_USER_MARK,
	};
	struct lkst_maskset_desc *desc;

	passer->handle = test_pass_handle;
	passer->passes_on = true;
	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	/* USER_MARK: only this test marks while it runs. */
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	entry.handler = passer->id;
	KUNIT_ASSERT_EQ(test, lkst_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);
	atomic_set(&test_handler_calls, 0);

	test_pass_target = counter->id;
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);

	KUNIT_ASSERT_EQ(test, lkst_event_stat(&before), 0);
	test_pass_target = passer->id;		/* refused: it passes on */
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	test_pass_target = LKST_HANDLER_NOTHING;	/* quietly nothing */
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, lkst_event_stat(&stat), 0);
	KUNIT_EXPECT_EQ(test, stat.dropped - before.dropped, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(saved_active), 0);

	ctl.handler = counter->id;
	KUNIT_EXPECT_EQ(test, lkst_handler_ctl(&ctl), -EOPNOTSUPP);
	counter->control = test_control;
	KUNIT_EXPECT_EQ(test, lkst_handler_ctl(&ctl), 42);
	ctl.__pad = 1;
	KUNIT_EXPECT_EQ(test, lkst_handler_ctl(&ctl), -EINVAL);
	ctl.__pad = 0;
	ctl.handler = LKST_MAX_HANDLERS;
	KUNIT_EXPECT_EQ(test, lkst_handler_ctl(&ctl), -EINVAL);
	kunit_release_action(test, test_unregister, counter);
	ctl.handler = counter->id;
	KUNIT_EXPECT_EQ(test, lkst_handler_ctl(&ctl), -ENOENT);
}

/*
 * A call for a hook argument may clobber the scratch registers, r8 and r9
 * among them: a site must evaluate every argument before it loads them.
 * This one does clobber them, as a function that needs them would.
 */
static noinline __noclone u64 test_hook_arg(const u64 *row, int j)
{
#ifdef CONFIG_X86_64
	asm volatile("mov %0, %%r8\n\tmov %0, %%r9" : : "r" (~0ull)
		     : "r8", "r9");
#endif
	return READ_ONCE(row[j]);
}

/*
 * Each copy of the dispatcher (lkst.h picks it by the constant zeros a
 * site passes) records through DEFAULT the arguments it takes, narrow and
 * wide, into this CPU's buffer, with the PID and the context of the task.
 */
static void lkst_ms_dispatch_copies_record(struct kunit *test)
{
	static const u64 want[5][LKST_NR_ARGS] = {
		{ 0x11, 0xffff888000000012ull },
		{ 0x21, 0, 0xffffffff81000023ull },
		{ 0x31, 0x32, 0x33, 0x100000034ull },
		{ 0x41, 0x42, 0x43, 0x44, 0xffffffffffffff45ull },
		{ 0x51, 0x52, 0x53, 0x54, 0x55, 0x5600000056ull },
	};
	struct lkst_maskset_entry entry = {
		.id = TEST_MASKSET,
		.event = LKST_EV_USER_MARK,
		.handler = LKST_HANDLER_DEFAULT,
	};
	struct lkst_record *out = test_page_records(test);
	struct lkst_maskset_desc *desc;
	struct lkst_cpu_buffer *cb;
	struct lkst_block *blk;
	int n = -1, fill, i, j;
	bool stop_mode;
	u64 pos, first;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	/* USER_MARK alone: nothing else lands in the buffer meanwhile. */
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);

	preempt_disable();
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	/* lkst.mode=stop: the buffer may be full since boot. */
	stop_mode = READ_ONCE(cb->mode) == LKST_MODE_STOP;
	if (stop_mode)
		goto out;
	/* All five in one page: when it has not the room, move on first. */
	for (fill = 0; fill < 100 &&
	     lkst_pos_offset(local64_read(&cb->pos)) >
	     LKST_PAGE_SIZE - 5 * LKST_BREC_MAX_SIZE; fill++)
		lkst_hook_dispatch(LKST_EV_USER_MARK, ~0ull, ~0ull, ~0ull,
				   ~0ull, ~0ull, ~0ull);
	/* Through the hook macro, which picks the copy by the zeros. */
	LKST_HOOK(USER_MARK, test_hook_arg(want[0], 0),
		  test_hook_arg(want[0], 1), 0, 0, 0, 0);
	LKST_HOOK(USER_MARK, test_hook_arg(want[1], 0),
		  test_hook_arg(want[1], 1), test_hook_arg(want[1], 2),
		  0, 0, 0);
	LKST_HOOK(USER_MARK, test_hook_arg(want[2], 0),
		  test_hook_arg(want[2], 1), test_hook_arg(want[2], 2),
		  test_hook_arg(want[2], 3), 0, 0);
	/* A load, then a call: the order that once clobbered r8. */
	LKST_HOOK(USER_MARK, test_hook_arg(want[3], 0),
		  test_hook_arg(want[3], 1), test_hook_arg(want[3], 2),
		  READ_ONCE(want[3][3]), test_hook_arg(want[3], 4), 0);
	LKST_HOOK(USER_MARK, test_hook_arg(want[4], 0),
		  test_hook_arg(want[4], 1), test_hook_arg(want[4], 2),
		  test_hook_arg(want[4], 3), test_hook_arg(want[4], 4),
		  test_hook_arg(want[4], 5));
	pos = local64_read(&cb->pos);
	blk = rcu_dereference_sched(cb->blocks[lkst_pos_block(pos)]);
	if (blk)
		n = lkst_page_read(lkst_block_page(blk, lkst_pos_page(pos)),
				   out, &first);
out:
	preempt_enable();
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(saved_active), 0);
	if (stop_mode)
		kunit_skip(test, "the buffer is in STOP mode");
	KUNIT_ASSERT_GE(test, n, 5);
	for (i = 0; i < 5; i++) {
		const struct lkst_record *rec = &out[n - 5 + i];

		KUNIT_EXPECT_EQ(test, rec->event, LKST_EV_USER_MARK);
		KUNIT_EXPECT_EQ(test, rec->pid, current->pid);
		KUNIT_EXPECT_EQ(test, rec->context, LKST_CTX_TASK);
		for (j = 0; j < LKST_NR_ARGS; j++)
			KUNIT_EXPECT_EQ(test, rec->arg[j], want[i][j]);
	}
}

/*
 * lkst_record_event() is exported: an event ID past the table is refused
 * (time 0) and counted dropped, never recorded nor used to index a counter.
 */
static void lkst_ms_record_event_refuses_bad_id(struct kunit *test)
{
	static const u64 args[LKST_NR_ARGS] = { 0x42 };
	struct lkst_maskset_desc *desc;
	struct lkst_cpu_buffer *cb;
	u64 pos, dropped;
	unsigned long flags;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	/* Nothing routed: nothing else lands in the buffer meanwhile. */
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);
	local_irq_save(flags);
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	pos = local64_read(&cb->pos);
	dropped = local64_read(&cb->dropped);
	KUNIT_EXPECT_EQ(test, lkst_record_event(LKST_NR_EVENT_IDS + 44, args), 0);
	KUNIT_EXPECT_EQ(test, lkst_record_event(U32_MAX, args), 0);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->pos), pos);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), dropped + 2);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(saved_active), 0);
}

static void lkst_ms_dynamic_events(struct kunit *test)
{
	struct lkst_maskset_entry entry = {
		.id = TEST_MASKSET, .handler = LKST_HANDLER_DEFAULT,
	};
	struct lkst_maskset_desc *ms;
	struct lkst_event_desc *desc;
	int ids[LKST_EV_PROBE_LAST - LKST_EV_PROBE_FIRST + 1], id, i;

	ms = kunit_kzalloc(test, sizeof(*ms), GFP_KERNEL);
	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ms);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	strscpy(desc->mnemonic, "kunit_probe", sizeof(desc->mnemonic));
	strscpy(desc->description, "a probe", sizeof(desc->description));
	desc->arg_type[0] = LKST_ARG_HEX;
	strscpy(desc->arg_desc[0], "ret", sizeof(desc->arg_desc[0]));
	id = lkst_event_add_dynamic(desc);
	KUNIT_ASSERT_GE(test, id, LKST_EV_PROBE_FIRST);
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EEXIST);
	strscpy(desc->mnemonic, "SYSCALL_EXIT", sizeof(desc->mnemonic));
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EEXIST);
	strscpy(desc->mnemonic, "9lives", sizeof(desc->mnemonic));
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EINVAL);
	strscpy(desc->mnemonic, "a-b", sizeof(desc->mnemonic));
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EINVAL);
	strscpy(desc->mnemonic, "", sizeof(desc->mnemonic));
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EINVAL);
	strscpy(desc->mnemonic, "typed", sizeof(desc->mnemonic));
	desc->arg_type[1] = LKST_NR_ARG_TYPES;
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -EINVAL);

	memset(desc, 0, sizeof(*desc));
	desc->id = id;
	KUNIT_ASSERT_EQ(test, lkst_event_desc(desc), 0);
	KUNIT_EXPECT_STREQ(test, desc->mnemonic, "kunit_probe");
	KUNIT_EXPECT_EQ(test, desc->category, LKST_CAT_PROBE);
	KUNIT_EXPECT_EQ(test, desc->flags, LKST_EVENT_DYNAMIC);
	KUNIT_EXPECT_EQ(test, desc->arg_type[0], LKST_ARG_HEX);
	KUNIT_EXPECT_STREQ(test, desc->arg_desc[0], "ret");
	desc->id = LKST_EV_SYSCALL_EXIT;
	KUNIT_ASSERT_EQ(test, lkst_event_desc(desc), 0);
	KUNIT_EXPECT_STREQ(test, desc->mnemonic, "SYSCALL_EXIT");
	KUNIT_EXPECT_EQ(test, desc->flags, 0);

	/* Routed in the active maskset, then removed: unrouted, key off. */
	test_desc_fill(ms, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkst_maskset_write(ms), 0);
	entry.event = id;
	KUNIT_ASSERT_EQ(test, lkst_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkst_maskset_select(TEST_MASKSET), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&lkst_event_keys[id]));
	lkst_event_remove_dynamic(id);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&lkst_event_keys[id]));
	ms->id = TEST_MASKSET;
	KUNIT_ASSERT_EQ(test, lkst_maskset_read(ms), 0);
	KUNIT_EXPECT_EQ(test, ms->handler[id], LKST_HANDLER_NOTHING);
	desc->id = id;
	KUNIT_EXPECT_EQ(test, lkst_event_desc(desc), -ENOENT);
	KUNIT_EXPECT_EQ(test, lkst_maskset_config(&entry), -EINVAL);

	/* Every ID of the range once, then none is left. */
	memset(desc, 0, sizeof(*desc));
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		snprintf(desc->mnemonic, sizeof(desc->mnemonic), "kunit_%d", i);
		ids[i] = lkst_event_add_dynamic(desc);
		KUNIT_EXPECT_EQ(test, ids[i], LKST_EV_PROBE_FIRST + i);
	}
	strscpy(desc->mnemonic, "one_too_many", sizeof(desc->mnemonic));
	KUNIT_EXPECT_EQ(test, lkst_event_add_dynamic(desc), -ENOSPC);
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		if (ids[i] >= LKST_EV_PROBE_FIRST)
			lkst_event_remove_dynamic(ids[i]);
}

#ifdef CONFIG_KPROBES
/* Probe fetch specs: what PROBE_ADD refuses, their text, their values. */
static void lkst_probe_fetch_specs(struct kunit *test)
{
	static const u64 inner[3] = { 1, 2, 0x11223344fffefdfcULL };
	static const struct {
		u64 pad;
		const u64 *p;
	} outer = { 0x55, inner };
	struct lkst_fetch *f;
	struct lkst_probe *req;
	struct pt_regs regs = { };
	char text[LKST_ARG_DESC_LEN];

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	strscpy(req->name, "p", sizeof(req->name));
	strscpy(req->symbol, "ksys_lseek", sizeof(req->symbol));
	req->nr_args = 3;
	req->fetch[0] = (struct lkst_fetch){ .kind = LKST_FETCH_ARG,
		.index = 1, .size = 4, .type = LKST_ARG_UDEC, .name = "fd" };
	req->fetch[1] = (struct lkst_fetch){ .kind = LKST_FETCH_COMM,
		.size = 8, .type = LKST_ARG_COMM };
	req->fetch[2] = (struct lkst_fetch){ .kind = LKST_FETCH_COMM2,
		.size = 8, .type = LKST_ARG_COMM2 };
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), 0);
	req->fetch[0].index = 7;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0].index = 0;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0] = (struct lkst_fetch){ .kind = LKST_FETCH_REG,
		.index = LKST_NR_REGS, .size = 8, .type = LKST_ARG_HEX };
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0].index = LKST_REG_DI;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), 0);
	req->fetch[0].size = 3;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0].size = 8;
	req->fetch[0].nr_deref = LKST_PROBE_MAX_DEREF + 1;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0].nr_deref = 1;
	req->fetch[0].offset[1] = 8;	/* beyond nr_deref */
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[0].offset[1] = 0;
	req->fetch[0].kind = LKST_FETCH_RETVAL;
	req->fetch[0].index = 0;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->flags = LKST_PROBE_RETURN;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), 0);
	req->offset = 4;	/* a return probe sits on the entry */
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->offset = 0;
	req->nr_args = 2;	/* COMM without its COMM2 */
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[2] = (struct lkst_fetch){ };
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->nr_args = 1;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);
	req->fetch[1] = (struct lkst_fetch){ };
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), 0);
	req->fetch[0].type = LKST_ARG_COMM;
	KUNIT_EXPECT_EQ(test, lkst_probe_check(req), -EINVAL);

	/* Text as kprobe_events writes it, and the values read. */
	f = &req->fetch[0];
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_REG, .index = LKST_REG_DI,
		.nr_deref = 2, .offset = { 8, 16 }, .size = 8,
		.type = LKST_ARG_HEX, .name = "v" };
	lkst_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "v=+16(+8(%di)):x64");
	regs.di = (unsigned long)&outer;
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL),
			0x11223344fffefdfcULL);
	f->size = 4;
	f->type = LKST_ARG_UDEC;
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL), 0xfffefdfcULL);
	f->size = 2;
	f->type = LKST_ARG_DEC;
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL), (u64)-516);
	lkst_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "v=+16(+8(%di)):s16");
	regs.di = 0;	/* a load that faults gives 0 */
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL), 0);
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_ARG, .index = 2,
		.nr_deref = 1, .offset = { -8 }, .size = 8,
		.type = LKST_ARG_UDEC };
	regs.si = (unsigned long)&outer.p;
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL), 0x55);
	lkst_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "-8($arg2):u64");
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_RETVAL, .size = 4,
		.type = LKST_ARG_RETVAL };
	regs.ax = 0xfffffff2;
	KUNIT_EXPECT_EQ(test, (s64)lkst_probe_fetch(f, &regs, NULL), -14);
	lkst_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "$retval:errno");
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_COMM, .size = 8,
		.type = LKST_ARG_COMM };
	KUNIT_EXPECT_EQ(test, lkst_probe_fetch(f, &regs, NULL),
			lkst_comm_arg(current->comm, 0));
	lkst_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "$comm");
}
#endif

static struct kunit_case lkst_ms_cases[] = {
	KUNIT_CASE(lkst_ms_system_read_only),
	KUNIT_CASE(lkst_ms_validates_routes),
	KUNIT_CASE(lkst_ms_select_drives_keys),
	KUNIT_CASE(lkst_ms_handler_lifecycle),
	KUNIT_CASE(lkst_ms_counts_hits),
	KUNIT_CASE(lkst_ms_handler_pass_and_control),
	KUNIT_CASE(lkst_ms_dispatch_copies_record),
	KUNIT_CASE(lkst_ms_record_event_refuses_bad_id),
	KUNIT_CASE(lkst_ms_dynamic_events),
#ifdef CONFIG_KPROBES
	KUNIT_CASE(lkst_probe_fetch_specs),
#endif
	{}
};

static struct kunit_suite lkst_ms_suite = {
	.name = "lkst_maskset",
	.init = lkst_ms_test_init,
	.exit = lkst_ms_test_exit,
	.test_cases = lkst_ms_cases,
};

kunit_test_suites(&lkst_buf_suite, &lkst_ms_suite);

MODULE_DESCRIPTION("KUnit tests for the lkst kernel state tracer");
MODULE_LICENSE("GPL");
