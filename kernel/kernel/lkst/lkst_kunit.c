// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lkst: the block write path on private buffers, and
 * maskset and handler management on the live tables (each test puts the
 * active maskset back as it found it).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "internal.h"

#define TEST_MASKSET	(LKST_MAX_MASKSETS - 1)

static struct lkst_block *test_block(struct kunit *test, u32 id, u32 slots,
				     u32 next)
{
	struct lkst_block *blk = kunit_kzalloc(test, sizeof(*blk), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, blk);
	blk->records = kunit_kcalloc(test, slots, sizeof(struct lkst_record),
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blk->records);
	blk->seqs = kunit_kcalloc(test, slots, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blk->seqs);
	blk->id = id;
	blk->nr_slots = slots;
	blk->next = next;
	return blk;
}

static struct lkst_cpu_buffer *test_buffer(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = kunit_kzalloc(test, sizeof(*cb),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cb);
	return cb;
}

/* Write one record whose first argument is @seq. */
static bool test_write(struct lkst_cpu_buffer *cb, u64 seq)
{
	struct lkst_record content = { .pid = 42, .event = 1 };
	struct lkst_record *rec;

	content.arg[0] = seq;
	rcu_read_lock_sched();
	rec = lkst_buf_reserve(cb);
	if (rec)
		lkst_buf_commit(cb, rec, &content, 1000 + seq);
	rcu_read_unlock_sched();
	return rec;
}

static void lkst_buf_fills_in_order(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *blk = test_block(test, 0, 8, LKST_NO_NEXT);
	struct lkst_record out;
	u64 seq;

	RCU_INIT_POINTER(cb->blocks[0], blk);
	for (seq = 0; seq < 5; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq));
	for (seq = 0; seq < 5; seq++) {
		KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(blk, seq,
							     &out));
		KUNIT_EXPECT_EQ(test, out.arg[0], seq);
		KUNIT_EXPECT_EQ(test, out.time_ns, 1000 + seq);
		KUNIT_EXPECT_EQ(test, out.pid, 42);
	}
	KUNIT_EXPECT_FALSE(test, lkst_buf_copy_record(blk, 5, &out));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->written), 5);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
}

static void lkst_buf_wraps_keeping_newest(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *blk = test_block(test, 0, 8, LKST_NO_NEXT);
	struct lkst_record out;
	u32 start, i;
	u64 seq;

	RCU_INIT_POINTER(cb->blocks[0], blk);
	for (seq = 0; seq < 20; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 12);
	start = lkst_buf_oldest_slot(cb, blk);
	KUNIT_EXPECT_EQ(test, start, 4);
	for (i = 0; i < 8; i++) {
		KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(
			blk, (start + i) % 8, &out));
		KUNIT_EXPECT_EQ(test, out.arg[0], 12 + i);
	}
}

static void lkst_buf_follows_links(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *a = test_block(test, 0, 4, 1);
	struct lkst_block *b = test_block(test, 1, 4, LKST_NO_NEXT);
	struct lkst_record out;
	u64 seq;

	RCU_INIT_POINTER(cb->blocks[0], a);
	RCU_INIT_POINTER(cb->blocks[1], b);
	for (seq = 0; seq < 10; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq));
	/* a holds 0-3, b held 4-7 and, wrapping onto itself, now 8 and 9 */
	KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(a, 3, &out));
	KUNIT_EXPECT_EQ(test, out.arg[0], 3);
	KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(b, 1, &out));
	KUNIT_EXPECT_EQ(test, out.arg[0], 9);
	KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(b, 2, &out));
	KUNIT_EXPECT_EQ(test, out.arg[0], 6);
	KUNIT_EXPECT_EQ(test, lkst_pos_block(local64_read(&cb->pos)), 1);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 2);
}

static void lkst_buf_never_takes_busy_slot(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *blk = test_block(test, 0, 4, LKST_NO_NEXT);
	struct lkst_record content = { .event = 2 }, out, *held;

	RCU_INIT_POINTER(cb->blocks[0], blk);
	rcu_read_lock_sched();
	held = lkst_buf_reserve(cb);	/* an interrupted writer's slot */
	rcu_read_unlock_sched();
	KUNIT_ASSERT_PTR_EQ(test, held, &blk->records[0]);
	KUNIT_EXPECT_FALSE(test, lkst_buf_copy_record(blk, 0, &out));
	lkst_buf_jump(cb, 0);		/* make the next writer land on it */
	KUNIT_EXPECT_FALSE(test, test_write(cb, 7));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 1);
	lkst_buf_commit(cb, held, &content, 5);
	KUNIT_ASSERT_TRUE(test, lkst_buf_copy_record(blk, 0, &out));
	KUNIT_EXPECT_EQ(test, out.event, 2);
	KUNIT_EXPECT_EQ(test, out.time_ns, 5);
}

static void lkst_buf_drops_without_block(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);

	KUNIT_EXPECT_FALSE(test, test_write(cb, 1));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 1);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->written), 0);
}

static void lkst_buf_numbers_records(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *blk = test_block(test, 0, 4, LKST_NO_NEXT);
	struct lkst_record out;
	u64 seq, got;
	u32 slot;

	RCU_INIT_POINTER(cb->blocks[0], blk);
	KUNIT_EXPECT_EQ(test, lkst_buf_copy_record_seq(blk, 0, &out, &got),
			LKST_COPY_EMPTY);
	for (seq = 0; seq < 6; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->next_seq), 6);
	/* Slots 0 and 1 were overwritten by records 4 and 5. */
	for (slot = 0; slot < 4; slot++) {
		KUNIT_ASSERT_EQ(test, lkst_buf_copy_record_seq(blk, slot, &out,
							       &got),
				LKST_COPY_OK);
		KUNIT_EXPECT_EQ(test, got, out.arg[0]);
		KUNIT_EXPECT_EQ(test, got, slot < 2 ? slot + 4 : slot);
	}
}

static void lkst_buf_stop_mode_keeps_oldest(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *a = test_block(test, 0, 4, 1);
	struct lkst_block *b = test_block(test, 1, 4, LKST_NO_NEXT);
	struct lkst_record out;
	u64 seq, got;

	RCU_INIT_POINTER(cb->blocks[0], a);
	RCU_INIT_POINTER(cb->blocks[1], b);
	cb->mode = LKST_MODE_STOP;
	for (seq = 0; seq < 8; seq++)
		KUNIT_ASSERT_TRUE(test, test_write(cb, seq));
	/* The chain is full: nothing is overwritten, the rest is dropped. */
	KUNIT_EXPECT_FALSE(test, test_write(cb, 8));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 9));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 2);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->next_seq), 8);
	KUNIT_ASSERT_EQ(test, lkst_buf_copy_record_seq(b, 0, &out, &got),
			LKST_COPY_OK);
	KUNIT_EXPECT_EQ(test, out.arg[0], 4);
	/* Back to overwriting: the last block wraps onto itself. */
	WRITE_ONCE(cb->mode, LKST_MODE_OVERWRITE);
	KUNIT_ASSERT_TRUE(test, test_write(cb, 10));
	KUNIT_ASSERT_EQ(test, lkst_buf_copy_record_seq(b, 0, &out, &got),
			LKST_COPY_OK);
	KUNIT_EXPECT_EQ(test, out.arg[0], 10);
	KUNIT_EXPECT_EQ(test, got, 8);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 1);
}

static void lkst_buf_stop_mode_never_overwrites(struct kunit *test)
{
	struct lkst_cpu_buffer *cb = test_buffer(test);
	struct lkst_block *a = test_block(test, 0, 2, 5);	/* 5: none */
	struct lkst_block *b = test_block(test, 1, 2, 0);	/* back to a */

	RCU_INIT_POINTER(cb->blocks[0], a);
	cb->mode = LKST_MODE_STOP;
	KUNIT_EXPECT_TRUE(test, test_write(cb, 0));
	KUNIT_EXPECT_TRUE(test, test_write(cb, 1));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 2));
	/* Nor at the start of a used block after a jump. */
	lkst_buf_jump(cb, 0);
	KUNIT_EXPECT_FALSE(test, test_write(cb, 3));
	/* An empty block gives room; its link leads back to a used one. */
	RCU_INIT_POINTER(cb->blocks[1], b);
	lkst_buf_jump(cb, 1);
	KUNIT_EXPECT_TRUE(test, test_write(cb, 4));
	KUNIT_EXPECT_TRUE(test, test_write(cb, 5));
	KUNIT_EXPECT_FALSE(test, test_write(cb, 6));
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), 3);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->overwritten), 0);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->written), 4);
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

static struct kunit_case lkst_buf_cases[] = {
	KUNIT_CASE(lkst_buf_fills_in_order),
	KUNIT_CASE(lkst_buf_wraps_keeping_newest),
	KUNIT_CASE(lkst_buf_follows_links),
	KUNIT_CASE(lkst_buf_never_takes_busy_slot),
	KUNIT_CASE(lkst_buf_drops_without_block),
	KUNIT_CASE(lkst_buf_numbers_records),
	KUNIT_CASE(lkst_buf_stop_mode_keeps_oldest),
	KUNIT_CASE(lkst_buf_stop_mode_never_overwrites),
	KUNIT_CASE(lkst_buf_control_rejects_bad_requests),
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

static struct kunit_case lkst_ms_cases[] = {
	KUNIT_CASE(lkst_ms_system_read_only),
	KUNIT_CASE(lkst_ms_validates_routes),
	KUNIT_CASE(lkst_ms_select_drives_keys),
	KUNIT_CASE(lkst_ms_handler_lifecycle),
	KUNIT_CASE(lkst_ms_counts_hits),
	KUNIT_CASE(lkst_ms_handler_pass_and_control),
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
