// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lkst_maskset: maskset and handler management on the live
 * tables (each test puts the active maskset back as it found it), the
 * hook dispatcher's copies, dynamic events and probe fetch specs.  The
 * buffer suite is in lkst_kunit_buffer.c.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "internal.h"
#include "lkst_kunit.h"

#define TEST_MASKSET	(LKST_MAX_MASKSETS - 1)

static unsigned int saved_active;

static int lkst_ms_test_init(struct kunit *test)
{
	saved_active = lkc_active_maskset_id();
	return 0;
}

static void lkst_ms_test_exit(struct kunit *test)
{
	lkc_ioc_maskset_set(saved_active);
	lkc_ioc_maskset_delete(TEST_MASKSET);
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
		KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_write(desc), -EROFS);
		entry.id = id;
		KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_config(&entry), -EROFS);
		KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_delete(id), -EROFS);
	}
	desc->id = LKST_MASKSET_RDEFAULT;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_read(desc), 0);
	KUNIT_EXPECT_TRUE(test, desc->flags & LKST_MS_SYSTEM);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_SYSCALL_ENTRY],
			LKST_HANDLER_DEFAULT);
	KUNIT_EXPECT_EQ(test, desc->handler[LKST_EV_PROCESS_WAKEUP],
			LKST_HANDLER_DEFAULT);
	desc->id = LKST_MASKSET_RNOTHING;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_read(desc), 0);
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
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_write(desc), -ENOENT);
	test_desc_fill(desc, TEST_MASKSET, 0);
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_write(desc), -EINVAL);
	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_DEFAULT);
	desc->handler[0xff] = LKST_HANDLER_DEFAULT;	/* not an event */
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_write(desc), -EINVAL);
	desc->id = LKST_MAX_MASKSETS;
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_write(desc), -EINVAL);

	test_desc_fill(desc, TEST_MASKSET, LKST_HANDLER_DEFAULT);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	entry.event = LKST_NR_EVENT_IDS;
	entry.handler = LKST_HANDLER_DEFAULT;
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_config(&entry), -EINVAL);
	entry.event = LKST_EV_PROCESS_WAKEUP;
	entry.handler = LKST_MAX_HANDLERS;
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_config(&entry), -EINVAL);
	entry.handler = LKST_HANDLER_DEFAULT;
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_config(&entry), 0);

	memset(desc, 0, sizeof(*desc));
	desc->id = TEST_MASKSET;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_read(desc), 0);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);
	KUNIT_EXPECT_EQ(test, lkc_active_maskset_id(), TEST_MASKSET);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_SYSCALL_EXIT]));
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_delete(TEST_MASKSET), -EBUSY);

	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(LKST_MASKSET_RNOTHING), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_delete(TEST_MASKSET), 0);
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), -ENOENT);
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_set(LKST_MAX_MASKSETS), -EINVAL);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_handler_info(&info), 0);
	KUNIT_EXPECT_STREQ(test, info.name, "kunit");

	test_desc_fill(desc, TEST_MASKSET, handler->id);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);
	atomic_set(&test_handler_calls, 0);
	lkst_hook_dispatch(LKST_EV_PROCESS_CONTEXTSWITCH, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);

	/* Unregistered while routed: no call, and its key goes off. */
	kunit_release_action(test, test_unregister, handler);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(
		&lkst_event_keys[LKST_EV_PROCESS_CONTEXTSWITCH]));
	lkst_hook_dispatch(LKST_EV_PROCESS_CONTEXTSWITCH, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_info(&info), -ENOENT);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	entry.handler = handler->id;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);

	KUNIT_ASSERT_EQ(test, lkc_ioc_event_stat(&before), 0);
	for (i = 0; i < 3; i++)	/* only this test marks while it runs */
		lkst_hook_dispatch(LKST_EV_USER_MARK, i, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_event_stat(&stat), 0);
	KUNIT_EXPECT_EQ(test, stat.hits - before.hits, 3);
	KUNIT_EXPECT_EQ(test, stat.dropped - before.dropped, 0);
	stat.event = 0xff;
	KUNIT_EXPECT_EQ(test, lkc_ioc_event_stat(&stat), -EINVAL);

	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(saved_active), 0);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	entry.handler = passer->id;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);
	atomic_set(&test_handler_calls, 0);

	test_pass_target = counter->id;
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);

	KUNIT_ASSERT_EQ(test, lkc_ioc_event_stat(&before), 0);
	test_pass_target = passer->id;		/* refused: it passes on */
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	test_pass_target = LKST_HANDLER_NOTHING;	/* quietly nothing */
	lkst_hook_dispatch(LKST_EV_USER_MARK, 0x1234, 0, 0, 0, 0, 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_event_stat(&stat), 0);
	KUNIT_EXPECT_EQ(test, stat.dropped - before.dropped, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_handler_calls), 1);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(saved_active), 0);

	ctl.handler = counter->id;
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_ctl(&ctl), -EOPNOTSUPP);
	counter->control = test_control;
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_ctl(&ctl), 42);
	ctl.__pad = 1;
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_ctl(&ctl), -EINVAL);
	ctl.__pad = 0;
	ctl.handler = LKST_MAX_HANDLERS;
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_ctl(&ctl), -EINVAL);
	kunit_release_action(test, test_unregister, counter);
	ctl.handler = counter->id;
	KUNIT_EXPECT_EQ(test, lkc_ioc_handler_ctl(&ctl), -ENOENT);
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
	struct lkst_record *out = lkst_kunit_page_records(test);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);

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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(saved_active), 0);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(desc), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);
	local_irq_save(flags);
	cb = this_cpu_ptr(&lkst_cpu_buffers);
	pos = local64_read(&cb->pos);
	dropped = local64_read(&cb->dropped);
	KUNIT_EXPECT_EQ(test, lkst_record_event(LKST_NR_EVENT_IDS + 44, args), 0);
	KUNIT_EXPECT_EQ(test, lkst_record_event(U32_MAX, args), 0);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->pos), pos);
	KUNIT_EXPECT_EQ(test, local64_read(&cb->dropped), dropped + 2);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(saved_active), 0);
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
	KUNIT_ASSERT_EQ(test, lkc_ioc_event_desc(desc), 0);
	KUNIT_EXPECT_STREQ(test, desc->mnemonic, "kunit_probe");
	KUNIT_EXPECT_EQ(test, desc->category, LKST_CAT_PROBE);
	KUNIT_EXPECT_EQ(test, desc->flags, LKST_EVENT_DYNAMIC);
	KUNIT_EXPECT_EQ(test, desc->arg_type[0], LKST_ARG_HEX);
	KUNIT_EXPECT_STREQ(test, desc->arg_desc[0], "ret");
	desc->id = LKST_EV_SYSCALL_EXIT;
	KUNIT_ASSERT_EQ(test, lkc_ioc_event_desc(desc), 0);
	KUNIT_EXPECT_STREQ(test, desc->mnemonic, "SYSCALL_EXIT");
	KUNIT_EXPECT_EQ(test, desc->flags, 0);

	/* Routed in the active maskset, then removed: unrouted, key off. */
	test_desc_fill(ms, TEST_MASKSET, LKST_HANDLER_NOTHING);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_write(ms), 0);
	entry.event = id;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_config(&entry), 0);
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_set(TEST_MASKSET), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&lkst_event_keys[id]));
	lkst_event_remove_dynamic(id);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&lkst_event_keys[id]));
	ms->id = TEST_MASKSET;
	KUNIT_ASSERT_EQ(test, lkc_ioc_maskset_read(ms), 0);
	KUNIT_EXPECT_EQ(test, ms->handler[id], LKST_HANDLER_NOTHING);
	desc->id = id;
	KUNIT_EXPECT_EQ(test, lkc_ioc_event_desc(desc), -ENOENT);
	KUNIT_EXPECT_EQ(test, lkc_ioc_maskset_config(&entry), -EINVAL);

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
/* The first argument's register, its name, and the return value's. */
#ifdef CONFIG_X86
#define KT_REG		LKST_REG_DI
#define KT_REG_NAME	"%di"
#define KT_ARG1(r)	((r).di)
#define KT_ARG2(r)	((r).si)
#define KT_RET(r)	((r).ax)
#define KT_OTHER_REG	LKST_REG_X0
#else
#define KT_REG		LKST_REG_X0
#define KT_REG_NAME	"%x0"
#define KT_ARG1(r)	((r).regs[0])
#define KT_ARG2(r)	((r).regs[1])
#define KT_RET(r)	((r).regs[0])
#define KT_OTHER_REG	LKST_REG_DI
#endif
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
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), 0);
	req->fetch[0].index = 7;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].index = 0;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0] = (struct lkst_fetch){ .kind = LKST_FETCH_REG,
		.index = LKST_NR_REGS, .size = 8, .type = LKST_ARG_HEX };
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].index = KT_OTHER_REG;	/* another architecture's */
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].index = KT_REG;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), 0);
	req->fetch[0].size = 3;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].size = 8;
	req->fetch[0].nr_deref = LKST_PROBE_MAX_DEREF + 1;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].nr_deref = 1;
	req->fetch[0].offset[1] = 8;	/* beyond nr_deref */
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[0].offset[1] = 0;
	req->fetch[0].kind = LKST_FETCH_RETVAL;
	req->fetch[0].index = 0;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->flags = LKST_PROBE_RETURN;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), 0);
	req->offset = 4;	/* a return probe sits on the entry */
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->offset = 0;
	req->nr_args = 2;	/* COMM without its COMM2 */
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[2] = (struct lkst_fetch){ };
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->nr_args = 1;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);
	req->fetch[1] = (struct lkst_fetch){ };
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), 0);
	req->fetch[0].type = LKST_ARG_COMM;
	KUNIT_EXPECT_EQ(test, lkc_probe_check(req), -EINVAL);

	/* Text as kprobe_events writes it, and the values read. */
	f = &req->fetch[0];
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_REG, .index = KT_REG,
		.nr_deref = 2, .offset = { 8, 16 }, .size = 8,
		.type = LKST_ARG_HEX, .name = "v" };
	lkc_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "v=+16(+8(" KT_REG_NAME ")):x64");
	KT_ARG1(regs) = (unsigned long)&outer;
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL),
			0x11223344fffefdfcULL);
	f->size = 4;
	f->type = LKST_ARG_UDEC;
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL), 0xfffefdfcULL);
	f->size = 2;
	f->type = LKST_ARG_DEC;
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL), (u64)-516);
	lkc_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "v=+16(+8(" KT_REG_NAME ")):s16");
	KT_ARG1(regs) = 0;	/* a load that faults gives 0 */
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL), 0);
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_ARG, .index = 2,
		.nr_deref = 1, .offset = { -8 }, .size = 8,
		.type = LKST_ARG_UDEC };
	KT_ARG2(regs) = (unsigned long)&outer.p;
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL), 0x55);
	lkc_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "-8($arg2):u64");
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_RETVAL, .size = 4,
		.type = LKST_ARG_RETVAL };
	KT_RET(regs) = 0xfffffff2;
	KUNIT_EXPECT_EQ(test, (s64)lkc_probe_fetch(f, &regs, NULL), -14);
	lkc_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "$retval:errno");
	*f = (struct lkst_fetch){ .kind = LKST_FETCH_COMM, .size = 8,
		.type = LKST_ARG_COMM };
	KUNIT_EXPECT_EQ(test, lkc_probe_fetch(f, &regs, NULL),
			lkst_comm_arg(current->comm, 0));
	lkc_probe_format(f, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "$comm");
}

/*
 * Whether a probe's hit is taken for its int3's (whose NMI context is the
 * probed code's, not the event's) follows the way the probe machinery
 * came in, in NMI context only, whatever byte is at the probed address:
 * ftrace's or the optimizer's int3 while they patch the site, the
 * original byte once the probe is disarmed.  Each case runs in a
 * simulated NMI; the expectations are checked after it.
 */
static void lkst_probe_trap_from_machinery(struct kunit *test)
{
	static const u8 int3_byte = 0xcc, other_byte = 0x0f;
	struct kprobe *kp;
	struct pt_regs *regs;
	bool by_int3, by_jump, on_ftrace, disarmed, task;
	unsigned long flags;

	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	regs = kunit_kzalloc(test, sizeof(*regs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	KUNIT_ASSERT_NOT_NULL(test, regs);
	kp->addr = (kprobe_opcode_t *)&int3_byte;
#ifdef CONFIG_X86
	/* An int3 frame ends below the gap left to emulate a call. */
	regs->sp = (unsigned long)(regs + 1) + 6 * sizeof(long);
#endif
	task = lkc_kprobe_trapped(kp, regs);

	local_irq_save(flags);
	__nmi_enter();
	by_int3 = lkc_kprobe_trapped(kp, regs);
	kp->addr = (kprobe_opcode_t *)&other_byte;
	disarmed = lkc_kprobe_trapped(kp, regs);
	kp->addr = (kprobe_opcode_t *)&int3_byte;
	kp->flags = KPROBE_FLAG_FTRACE;
	on_ftrace = lkc_kprobe_trapped(kp, regs);
	kp->flags = 0;
#ifdef CONFIG_X86
	/* An optimized probe's detour: its regs end at the probed sp. */
	regs->sp = (unsigned long)(regs + 1);
#endif
	by_jump = lkc_kprobe_trapped(kp, regs);
	__nmi_exit();
	local_irq_restore(flags);

	KUNIT_EXPECT_FALSE(test, task);
	KUNIT_EXPECT_FALSE(test, on_ftrace);
	KUNIT_EXPECT_FALSE(test, by_jump);
	if (IS_ENABLED(CONFIG_X86)) {
		KUNIT_EXPECT_TRUE(test, by_int3);
		KUNIT_EXPECT_TRUE(test, disarmed);
	} else {
		/* arm64 takes its BRK outside NMI context. */
		KUNIT_EXPECT_FALSE(test, by_int3);
		KUNIT_EXPECT_FALSE(test, disarmed);
	}
}

/* Hits of lkst_kunit_probed()'s probe, by the way they came. */
static struct {
	unsigned int in_nmi, outside, wrong;
} lkst_kunit_hits;
static int lkst_kunit_sink;

static noinline int lkst_kunit_probed(int x)
{
	WRITE_ONCE(lkst_kunit_sink, READ_ONCE(lkst_kunit_sink) + x);
	return READ_ONCE(lkst_kunit_sink) ^ x;
}

/*
 * A probe taken in NMI context here was taken through its trap: the
 * function is called from a task only.  Reached outside NMI context (an
 * optimized probe's jump, arm64's BRK), it is asked as a real NMI would
 * ask, from NMI context: it must not be taken for a trap.
 */
static int lkst_kunit_trap_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long flags;
	bool trapped;

	if (in_nmi()) {
		lkst_kunit_hits.in_nmi++;
		trapped = lkc_kprobe_trapped(kp, regs);
		lkst_kunit_hits.wrong += !trapped;
		return 0;
	}
	lkst_kunit_hits.outside++;
	local_irq_save(flags);
	__nmi_enter();
	trapped = lkc_kprobe_trapped(kp, regs);
	__nmi_exit();
	local_irq_restore(flags);
	lkst_kunit_hits.wrong += trapped;
	return 0;
}

/*
 * The same with the registers the kernel's own probe machinery hands to
 * a pre-handler: its int3 first, then (x86, once the optimizer has run)
 * its jump.  A probe that is never optimized shows the int3 only.
 */
static void lkst_probe_trap_real_hits(struct kunit *test)
{
	int (*probed)(int) = lkst_kunit_probed;
	struct kprobe *kp;
	unsigned int i;
	int ret;

	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (kprobe_opcode_t *)lkst_kunit_probed;
	kp->pre_handler = lkst_kunit_trap_pre;
	memset(&lkst_kunit_hits, 0, sizeof(lkst_kunit_hits));
	/* Called by address: a clone of the function would not be probed. */
	OPTIMIZER_HIDE_VAR(probed);
	ret = register_kprobe(kp);
	if (ret)
		kunit_skip(test, "register_kprobe: %d", ret);
	for (i = 0; i < 50 && !READ_ONCE(lkst_kunit_hits.outside); i++) {
		probed(i);
		msleep(20);
	}
	unregister_kprobe(kp);
	kunit_info(test, "hits in NMI context %u, outside %u\n",
		   lkst_kunit_hits.in_nmi, lkst_kunit_hits.outside);
	KUNIT_EXPECT_EQ(test, lkst_kunit_hits.wrong, 0U);
	KUNIT_EXPECT_GT(test, lkst_kunit_hits.in_nmi + lkst_kunit_hits.outside,
			0U);
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
	KUNIT_CASE(lkst_probe_trap_from_machinery),
	KUNIT_CASE(lkst_probe_trap_real_hits),
#endif
	{}
};

static struct kunit_suite lkst_ms_suite = {
	.name = "lkst_maskset",
	.init = lkst_ms_test_init,
	.exit = lkst_ms_test_exit,
	.test_cases = lkst_ms_cases,
};

kunit_test_suites(&lkst_ms_suite);

MODULE_DESCRIPTION("KUnit tests for the lkst kernel state tracer: masksets and handlers");
MODULE_LICENSE("GPL");
