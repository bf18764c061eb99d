// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests that act in the middle of another step (part of
 * test_buf_unit, which runs them): a reader's load hook
 * (LKST_HOST_READ_HOOK) plays the writer that resets a page during a
 * copy or a listing, the interrupt or NMI that writes, jumps or laps
 * between a writer's reserve, claim and commit, and the resize that
 * replaces a block between its loads; and the PID word a record leaves
 * out, decided again after a nested writer.
 */
#include "buf_unit.h"

/* A reset in the middle of a copy: the hook plays the writer. */
static const void *hook_at;
static struct lkst_page *hook_page;
static struct lkst_block **hook_blocks;
static int hook_fired;

static void reset_in_copy(const void *addr)
{
	if (addr != hook_at || hook_fired++)
		return;
	/* What lkst_page_reset() leaves: gen + 2, a new number, zeroes. */
	WRITE_ONCE(hook_page->gen, hook_page->gen + 2);
	WRITE_ONCE(hook_page->first_seq, hook_page->first_seq + 1000);
}

void test_page_read_generation(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_page_ref refs[2];
	struct sink s = { 0 };
	u64 first, next;

	start_buffer(cb, b);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 0);	/* empty, in use */
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 1), tmp, &first), -1);
	CHECK_EQ(lkst_page_count(lkst_block_page(b, 1)), 0);
	write_full(cb, 0, 5);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 5);
	/* Odd: being reset. */
	pg->gen++;
	CHECK_EQ(lkst_page_read(pg, tmp, &first), -1);
	pg->gen++;
	/* Reset while the third record's arguments are copied. */
	hook_page = pg;
	hook_at = &((struct lkst_brec *)((char *)pg + LKST_PAGE_HEAD +
					 2 * LKST_BREC_SIZE(FULL, FULL)))->word[6];
	hook_fired = 0;
	lkst_host_read_hook = reset_in_copy;
	CHECK_EQ(lkst_page_read(pg, tmp, &first), -1);
	CHECK_EQ(hook_fired, 1);
	/* A walk skips the page the same way. */
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 2), 1);
	hook_fired = 0;
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 1, 0, true, tmp, count_emit,
			       &s, &next), 0);
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(s.nr, 0);
	lkst_host_read_hook = NULL;
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 5);
	CHECK_EQ(first, 2000);
	free_buffer(cb);
}

/* A reader that runs while a writer resets the page gets nothing of it. */
static int read_in_reset, listed_in_reset, in_hook;

static void read_in_the_middle_of_reset(const void *addr)
{
	struct lkst_page_ref refs[1];
	u64 first;

	if (addr != hook_at || in_hook)
		return;
	in_hook = 1;
	hook_fired++;
	read_in_reset = lkst_page_read(hook_page, tmp, &first);
	listed_in_reset = lkst_buf_list_pages(hook_blocks, -1, refs, 1);
	in_hook = 0;
}

void test_reader_during_reset(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	u64 first;

	start_buffer(cb, b);
	for (u64 i = 0; i < PER_PAGE_MIN; i++)
		CHECK_EQ(write_tagged(cb, i, 0), true);
	hook_page = lkst_block_page(b, 0);
	hook_blocks = cb->blocks;
	hook_at = &hook_page->nr_records;	/* read to count it overwritten */
	hook_fired = 0;
	read_in_reset = listed_in_reset = 99;
	lkst_host_read_hook = read_in_the_middle_of_reset;
	CHECK_EQ(write_tagged(cb, PER_PAGE_MIN, 0), true);	/* wraps */
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(read_in_reset, -1);
	CHECK_EQ(listed_in_reset, 0);
	CHECK_EQ(lkst_page_read(hook_page, tmp, &first), 1);
	CHECK_EQ(first, PER_PAGE_MIN);
	free_buffer(cb);
}

/*
 * A page the listing finds in the middle of its reset (odd generation),
 * which its writer then fills and leaves before the listing reaches the
 * next page: its records must not be skipped and counted lost while they
 * are in the buffer.  The hook plays the writer: odd when the listing
 * reads the page's generation, then (at the listing's next load) the
 * reset done, the page filled and the next page begun.
 */
static struct lkst_cpu_buffer *race_cb;
static int race_step;

/* The read hook @fn acts on @cb once a load or cmpxchg reaches @at. */
static void arm_hook(struct lkst_cpu_buffer *cb, const void *at,
		     void (*fn)(const void *addr))
{
	race_cb = cb;
	hook_at = at;
	hook_fired = 0;
	lkst_host_read_hook = fn;
}

static void reset_during_listing(const void *addr)
{
	if (in_hook)
		return;
	in_hook = 1;
	if (race_step == 0 && addr == hook_at) {
		race_step = 1;
		hook_page->gen++;		/* the writer began the reset */
	} else if (race_step == 1) {
		race_step = 2;
		hook_page->gen--;		/* ... as the real one will */
		write_full(race_cb, 4 * PER_PAGE, PER_PAGE + 1);
	}
	in_hook = 0;
}

void test_list_pages_during_reset(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_page_ref refs[3];
	struct sink s = { 0 };
	u64 nr, next;

	start_buffer(cb, b);
	write_full(cb, 0, 4 * PER_PAGE);	/* p0 189..251, p1 63.., p2 126.. */
	race_cb = cb;
	race_step = 0;
	hook_page = lkst_block_page(b, 1);
	hook_at = &hook_page->gen;
	lkst_host_read_hook = reset_during_listing;
	nr = lkst_buf_list_pages(cb->blocks, -1, refs, 3);
	lkst_host_read_hook = NULL;
	CHECK_EQ(race_step, 2);
	/* p1 now holds 252..314 and p2 315: all of them there. */
	CHECK_EQ(lkst_block_page(b, 1)->first_seq, 4 * PER_PAGE);
	CHECK_EQ(lkst_page_count(lkst_block_page(b, 1)), PER_PAGE);
	lkst_buf_walk(cb->blocks, refs, nr, 3 * PER_PAGE, true, tmp, count_emit,
		      &s, &next);
	/* Every number from the cursor to next was there: none is lost. */
	CHECK_EQ(s.nr, next - 3 * PER_PAGE);
	/* And the next drain gets the rest. */
	next = drain(cb, next, &s);
	CHECK_EQ(next, 5 * PER_PAGE + 1);
	CHECK_EQ(s.nr, 2 * PER_PAGE + 1);
	CHECK_EQ(s.bad_order, false);
	free_buffer(cb);
}

/*
 * An interrupt between a writer's count of itself in the page and its
 * reservation fills the page and moves on; the writer's reservation
 * fails and it uncounts itself: all the page's records are readable.
 */
static void fill_before_reserve(const void *addr)
{
	if (addr != hook_at || in_hook || hook_fired)
		return;
	in_hook = 1;
	hook_fired = 1;
	write_full(race_cb, 10, PER_PAGE - 10 + 1);	/* on into page 1 */
	in_hook = 0;
}

void test_interrupt_before_reserve(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page *p0 = lkst_block_page(b, 0);

	start_buffer(cb, b);
	write_full(cb, 0, 10);
	arm_hook(cb, &cb->pos.counter, fill_before_reserve);
	CHECK_EQ(write_tagged(cb, PER_PAGE + 1, 0), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(p0->writers, 0);
	CHECK_EQ(lkst_page_count(p0), PER_PAGE);
	CHECK_EQ(lkst_page_count(lkst_block_page(b, 1)), 2);
	CHECK_EQ(next_seq(cb), PER_PAGE + 2);
	free_buffer(cb);
}

/*
 * An interrupt between a writer's look at the position (its page full)
 * and its claim of the next page moves there first: that page is then
 * the current one, not one to empty.
 */
static void switch_before_claim(const void *addr)
{
	if (addr != hook_at || in_hook || hook_fired)
		return;
	in_hook = 1;
	hook_fired = 1;
	write_full(race_cb, PER_PAGE, 2);	/* into page 1 */
	in_hook = 0;
}

void test_interrupt_before_claim(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_page *p1 = lkst_block_page(b, 1);
	u64 first;

	start_buffer(cb, b);
	write_page_leaving_32(cb, 0);		/* page 0: 32 + TAIL bytes left */
	arm_hook(cb, &p1->gen, switch_before_claim);
	CHECK_EQ(write_tagged(cb, PER_PAGE + 2, FULL), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(overwritten(cb), 0);
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(lkst_page_read(p1, tmp, &first), 3);
	CHECK_EQ(first, PER_PAGE);
	CHECK_EQ(is_tagged(&tmp[2], PER_PAGE + 2, FULL), true);
	CHECK_EQ(next_seq(cb), PER_PAGE + 3);
	free_buffer(cb);
}

/* Records the pages of @cb's blocks hold. */
static u64 held(struct lkst_cpu_buffer *cb)
{
	u64 n = 0;

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++)
		for (u32 p = 0; cb->blocks[id] && p < cb->blocks[id]->nr_pages; p++)
			n += lkst_page_count(lkst_block_page(cb->blocks[id], p));
	return n;
}

/*
 * An NMI writes one small record into the current page, then its handler
 * jumps: refused while the writer it interrupted claims the next page.
 */
static int nmi_jump_ret;

static void nmi_jump_in_claim(const void *addr)
{
	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	CHECK_EQ(write_tagged(race_cb, PER_PAGE, 0), true);
	nmi_jump_ret = lkst_buf_jump_pos(race_cb, race_cb->blocks[1]);
}

/*
 * An NMI's handler jumps while this CPU's writer claims the next page,
 * after the claim read the position.  The jump used to go ahead and leave
 * the current page with the NMI's record counted, and the claim then
 * stored the count it had read over that one (the count the page's
 * records are charged to once it is overwritten): held + overwritten fell
 * one short of written.  Now the jump is refused (-EBUSY, as while a
 * writer switches), and the claim counts the NMI's record.  A jump before
 * the claim makes the claim retry (test_claim_after_resize_to_same_position
 * and the stress test's nmi_jumps).
 */
void test_nmi_jump_during_claim(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page *p0 = lkst_block_page(b0, 0);

	add_block(cb, 1, 1, 0);			/* block 1 -> block 0 */
	start_buffer(cb, b0);
	write_page_leaving_32(cb, 0);		/* page 0: 32 + TAIL bytes left */
	nmi_jump_ret = 1;
	arm_hook(cb, &p0->first_seq, nmi_jump_in_claim);
	CHECK_EQ(write_tagged(cb, PER_PAGE + 1, FULL), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(nmi_jump_ret, -EBUSY);
	CHECK_EQ(lkst_pos_block(pos(cb)), 0);
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(READ_ONCE(p0->nr_records), PER_PAGE + 1);
	CHECK_EQ(next_seq(cb), PER_PAGE + 2);
	/* Once the claim is done the jump goes ahead. */
	CHECK_EQ(lkst_buf_jump_pos(cb, cb->blocks[1]), 0);
	/* Around the ring: block 1, then block 0's pages are overwritten. */
	write_full(cb, PER_PAGE + 2, 3 * PER_PAGE);
	CHECK_EQ(held(cb) + overwritten(cb), next_seq(cb));
	CHECK_EQ(dropped(cb), 0);
	free_buffer(cb);
}

/*
 * Another CPU changes where the current block leads while this CPU's
 * writer claims the next page through the old link: a relink
 * (BLOCK_LINK) or a delete (BLOCK_DELETE unlinks and unpublishes the
 * block), neither of which interrupts the writer.  Then an NMI writes a
 * small record into the current page and either its handler jumps or it
 * writes a record that needs a page of its own.  Either would leave the
 * current page with the NMI's record counted, and the writer then stored
 * the count it had read over that one: the page's records were charged
 * one short once it was overwritten, and its end hid the NMI's record.
 * Finding the claim through the new link found none.  Now the jump is
 * refused (-EBUSY) and the second record dropped while the claim is under
 * way, and the claim counts the NMI's record.
 */
enum relink_how { RELINK_JUMP, DELETE_JUMP, RELINK_MOVE_ON };
static enum relink_how relink_how;
static int relink_nmi_ret, relink_nmi_wrote;

static void relink_in_claim(const void *addr)
{
	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	/* Another CPU: block 0 no longer leads to block 1. */
	if (relink_how == DELETE_JUMP) {
		WRITE_ONCE(race_cb->blocks[0]->next, LKST_NO_NEXT);
		rcu_assign_pointer(race_cb->blocks[1], NULL);
	} else {
		WRITE_ONCE(race_cb->blocks[0]->next, 2);
	}
	/* This CPU's NMI. */
	CHECK_EQ(write_tagged(race_cb, 2 * PER_PAGE, 0), true);
	if (relink_how == RELINK_MOVE_ON)
		relink_nmi_wrote = write_tagged(race_cb, 2 * PER_PAGE + 1, FULL);
	else
		relink_nmi_ret = lkst_buf_jump_pos(race_cb, race_cb->blocks[2]);
}

static void nmi_during_claim_after_relink(enum relink_how how)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 2, 1);	/* 0 -> 1 */
	struct lkst_block *b1 = add_block(cb, 1, 1, 0);	/* 1 -> 0 */
	struct lkst_page *p1 = lkst_block_page(b0, 1);
	u64 from;

	add_block(cb, 2, 1, 0);				/* 2 -> 0 */
	start_buffer(cb, b0);
	write_full(cb, 0, PER_PAGE);
	write_page_leaving_32(cb, PER_PAGE);	/* page 1: 32 + TAIL bytes left */
	relink_how = how;
	relink_nmi_ret = 1;
	relink_nmi_wrote = -1;
	arm_hook(cb, &p1->first_seq, relink_in_claim);
	/* Needs the next page: claims block 1's through the old link. */
	write_tagged(cb, 2 * PER_PAGE + 1, FULL);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	if (how == RELINK_MOVE_ON) {
		CHECK_EQ(relink_nmi_wrote, false);
		CHECK_EQ(dropped(cb), 1);
	} else {
		CHECK_EQ(relink_nmi_ret, -EBUSY);
		CHECK_EQ(dropped(cb), 0);
	}
	/* The writer's record went to block 1, where it claimed. */
	CHECK_EQ(lkst_pos_block(pos(cb)), 1);
	CHECK_EQ(lkst_page_read(lkst_block_page(b1, 0), tmp, &from), 1);
	CHECK_EQ(from, 2 * PER_PAGE + 1);
	CHECK_EQ(is_tagged(&tmp[0], 2 * PER_PAGE + 1, FULL), true);
	CHECK_EQ(READ_ONCE(p1->nr_records), PER_PAGE + 1);
	CHECK_EQ(READ_ONCE(p1->left_at),
		 LKST_PAGE_SIZE - 32 - TAIL + LKST_BREC_SIZE(0, 0));
	CHECK_EQ(lkst_page_count(p1), PER_PAGE + 1);
	/* A delete finds block 1 current and puts it back. */
	if (how == DELETE_JUMP)
		rcu_assign_pointer(cb->blocks[1], b1);
	CHECK_EQ(next_seq(cb), 2 * PER_PAGE + 2);
	/* Once the claim is done the jump goes ahead. */
	CHECK_EQ(lkst_buf_jump_pos(cb, cb->blocks[2]), 0);
	/* Around: block 2, then block 0's pages are overwritten. */
	from = next_seq(cb);
	write_full(cb, from, 3 * PER_PAGE);
	CHECK_EQ(next_seq(cb), from + 3 * PER_PAGE);
	CHECK_EQ(held(cb) + overwritten(cb), next_seq(cb));
	free_buffer(cb);
}

void test_nmi_jump_during_claim_after_relink(void)
{
	nmi_during_claim_after_relink(RELINK_JUMP);
}

void test_nmi_jump_during_claim_after_delete(void)
{
	nmi_during_claim_after_relink(DELETE_JUMP);
}

void test_nmi_moves_on_during_claim_after_relink(void)
{
	nmi_during_claim_after_relink(RELINK_MOVE_ON);
}

/*
 * A delete on another CPU unpublishes a block that a writer has just made
 * current (and puts it back once it sees so): here between a jump's check
 * that the current block is published and its claim of the position.  The
 * switch must number on from the block it checked; reading the published
 * pointer again found none and numbered the next page from 0.
 */
static void unpublish_before_claim(const void *addr)
{
	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	rcu_assign_pointer(race_cb->blocks[0], NULL);
}

void test_block_unpublished_during_switch(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	u64 old, first_seq = 0;

	start_buffer(cb, b);
	write_full(cb, 0, 10);
	arm_hook(cb, &cb->pos.counter, unpublish_before_claim);
	CHECK_EQ(lkst_buf_begin_switch(cb, &old, &first_seq), 0);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(first_seq, 10);
	rcu_assign_pointer(cb->blocks[0], b);	/* the delete puts it back */
	lkst_buf_end_switch(cb, b, first_seq);
	CHECK_EQ(next_seq(cb), 10);
	write_full(cb, 10, 1);
	CHECK_EQ(next_seq(cb), 11);
	CHECK_EQ(overwritten(cb), 10);
	free_buffer(cb);
}

/*
 * A resize on this CPU, as its IPI makes it: hold the position, put fresh
 * blocks in place of every old one, go on at page 0 of the current one.
 * The old blocks go to resized_out[] (the caller frees them after the
 * grace period).
 */
static struct lkst_block *resized_out[2];

static void resize_now(struct lkst_cpu_buffer *cb)
{
	struct lkst_block *old_blocks[2] = { cb->blocks[0], cb->blocks[1] };
	u64 old, first_seq;

	CHECK_EQ(lkst_buf_begin_switch(cb, &old, &first_seq), 0);
	for (u32 id = 0; id < 2; id++) {
		if (!old_blocks[id])
			continue;
		resized_out[id] = old_blocks[id];
		cb->blocks[id] = NULL;
		add_block(cb, id, old_blocks[id]->nr_pages, old_blocks[id]->next);
	}
	lkst_buf_end_switch(cb, cb->blocks[lkst_pos_block(old)], first_seq);
}

static void free_resized_out(void)
{
	for (u32 id = 0; id < 2; id++) {
		if (resized_out[id]) {
			free_block(resized_out[id]);
			resized_out[id] = NULL;
		}
	}
}

static void resize_before_claim(const void *addr)
{
	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	resize_now(race_cb);
}

/*
 * A handler's jump (lkst_jump_this_cpu()) looks its target block up, and a
 * resize's IPI replaces every block before the jump takes the position:
 * the target it holds is the old block.  Jumping there made the new
 * block's unused page 0 current, numbered from 0 (t98_torture: millions
 * of records unaccounted).  The jump must refuse, and numbering go on.
 */
void test_jump_after_resize_replaced_target(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_block *b = add_block(cb, 1, 2, LKST_NO_NEXT);

	start_buffer(cb, a);
	write_full(cb, 0, 10);
	arm_hook(cb, &cb->pos.counter, resize_before_claim);
	CHECK_EQ(lkst_buf_jump_pos(cb, b), -EBUSY);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(pos(cb) & LKST_POS_SWITCHING, 0);
	CHECK_EQ(lkst_pos_block(pos(cb)), 0);
	CHECK_EQ(next_seq(cb), 10);
	write_full(cb, 10, 1);
	CHECK_EQ(next_seq(cb), 11);
	CHECK_EQ(lkst_page_count(lkst_block_page(cb->blocks[0], 0)), 1);
	/* Tried again with the block now published, it jumps. */
	CHECK_EQ(lkst_buf_jump_pos(cb, cb->blocks[1]), 0);
	write_full(cb, 11, 1);
	CHECK_EQ(next_seq(cb), 12);
	CHECK_EQ(lkst_block_page(cb->blocks[1], 0)->first_seq, 11);
	free_resized_out();
	free_buffer(cb);
}

/*
 * A writer fills page 0 and is about to claim page 1 when a resize goes on
 * at page 0 of the current block's replacement: the same block ID and
 * page as the writer's, another block.  The writer must start over in the
 * new block; taking it for its own page moved the position to the new
 * block's unused page 1, numbered from 0.
 */
void test_switch_after_resize_to_same_page(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_block *fresh;
	u64 seq;

	start_buffer(cb, a);
	write_full(cb, 0, PER_PAGE);		/* page 0: no room for FULL */
	arm_hook(cb, &lkst_block_page(a, 1)->gen, resize_before_claim);
	CHECK_EQ(write_tagged(cb, PER_PAGE, FULL), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	fresh = cb->blocks[0];
	CHECK_EQ(lkst_pos_page(pos(cb)), 0);
	CHECK_EQ(next_seq(cb), PER_PAGE + 1);
	CHECK_EQ(lkst_page_read(lkst_block_page(fresh, 0), tmp, &seq), 1);
	CHECK_EQ(seq, PER_PAGE);
	CHECK_EQ(is_tagged(&tmp[0], PER_PAGE, FULL), true);
	CHECK_EQ(lkst_block_page(a, 1)->gen, 0);
	free_resized_out();
	free_buffer(cb);
}

/*
 * A resize's IPI between a writer's load of the position and its load of
 * the block: the block is the new one, smaller, and the position still
 * says page 2 of the old.  Indexing the new block with that page overran
 * it (a page fault in t98_torture): the writer must see the position
 * moved and start over.  The new block has memory behind its one page so
 * that an overrun is seen here, not only under ASan.
 */
static struct lkst_block *small_block;
static const char *overrun_lo, *overrun_hi;
static int overrun_touched;

static void watch_overrun(const void *addr)
{
	if ((const char *)addr >= overrun_lo && (const char *)addr < overrun_hi)
		overrun_touched = 1;
}

static void shrink_before_index(const void *addr)
{
	u64 old, first_seq;

	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	CHECK_EQ(lkst_buf_begin_switch(race_cb, &old, &first_seq), 0);
	resized_out[0] = race_cb->blocks[0];
	rcu_assign_pointer(race_cb->blocks[0], small_block);
	lkst_buf_end_switch(race_cb, small_block, first_seq);
	overrun_lo = (char *)small_block->pages + LKST_PAGE_SIZE;
	overrun_hi = (char *)small_block->pages + 4 * LKST_PAGE_SIZE;
	lkst_host_read_hook = watch_overrun;
}

void test_reserve_after_resize_between_loads(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 3, LKST_NO_NEXT);
	u64 seq;

	start_buffer(cb, a);
	write_full(cb, 0, 2 * PER_PAGE + 1);	/* one record in page 2 */
	CHECK_EQ(lkst_pos_page(pos(cb)), 2);
	small_block = new_block(0, 4, LKST_NO_NEXT);
	small_block->nr_pages = 1;	/* three more pages of memory behind */
	overrun_touched = 0;
	arm_hook(cb, &cb->blocks[0], shrink_before_index);
	CHECK_EQ(write_tagged(cb, 2 * PER_PAGE + 1, 1), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(overrun_touched, 0);
	CHECK_EQ(next_seq(cb), 2 * PER_PAGE + 2);
	CHECK_EQ(lkst_page_read(lkst_block_page(small_block, 0), tmp, &seq), 1);
	CHECK_EQ(seq, 2 * PER_PAGE + 1);
	CHECK_EQ(is_tagged(&tmp[0], 2 * PER_PAGE + 1, 1), true);
	free_resized_out();
	free_buffer(cb);
}

/* A record as the hooks write one: @pid, one narrow argument @arg. */
static bool write_as_hook(struct lkst_cpu_buffer *cb, u32 pid, u64 arg)
{
	u32 len = LKST_BREC_SIZE(1, 0);
	struct lkst_slot slot;

	if (!lkst_buf_reserve_pid(cb, len, pid, &slot))
		return false;
	lkst_brec_put_high_before(lkst_slot_put_pid(&slot, pid), arg);
	WRITE_ONCE(lkst_slot_args(&slot)[0], (u32)arg);
	lkst_slot_put_time(&slot, 2000 + arg);
	lkst_buf_commit(&slot, LKST_BREC_INFO(4, 0, 1, 0));
	return true;
}

/*
 * The PID word is left out where the record before in the page has the
 * same PID, and stored at the head of every page, after a record of
 * another PID and after one whose writer stored its PID itself.
 */
void test_pid_left_out_when_unchanged(void)
{
	static const u32 pids[] = { 5, 5, 5, 7, 7, 5, 0, 0 };
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_slot held;
	u32 offset = LKST_PAGE_HEAD, i, n;
	u64 first;

	start_buffer(cb, b);
	cb->last_pid = 5;	/* the page's head stores it all the same */
	for (i = 0; i < 8; i++) {
		bool same = i && pids[i] == pids[i - 1];

		CHECK_EQ(write_as_hook(cb, pids[i], i + 1), true);
		offset += LKST_BREC_SIZE(1, 0) - (same ? 4 : 0);
		CHECK_EQ(lkst_pos_offset(pos(cb)), offset);
	}
	/* After a record reserved without a PID, and after lkst_buf_write(). */
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0), &held), true);
	lkst_slot_put_pid(&held, 0);
	lkst_slot_put_time(&held, 2009);
	lkst_buf_commit(&held, LKST_BREC_INFO(4, 0, 0, 0));
	CHECK_EQ(write_as_hook(cb, 0, 10), true);
	offset += LKST_BREC_SIZE(0, 0) + LKST_BREC_SIZE(1, 0);
	CHECK_EQ(lkst_pos_offset(pos(cb)), offset);
	CHECK_EQ(write_tagged(cb, 11, 1), true);	/* PID 42, stored */
	CHECK_EQ(write_as_hook(cb, 42, 12), true);
	offset += LKST_BREC_SIZE(1, 1) + LKST_BREC_SIZE(1, 0) - 4;
	CHECK_EQ(lkst_pos_offset(pos(cb)), offset);
	n = lkst_page_read(pg, tmp, &first);
	CHECK_EQ(n, 12);
	for (i = 0; i < 8; i++) {
		CHECK_EQ(tmp[i].pid, pids[i]);
		CHECK_EQ(tmp[i].time_ns, 2000 + i + 1);
		CHECK_EQ(tmp[i].arg[0], i + 1);
	}
	CHECK_EQ(tmp[8].pid, 0);
	CHECK_EQ(tmp[9].pid, 0);
	CHECK_EQ(tmp[10].pid, 42);
	CHECK_EQ(tmp[11].pid, 42);
	CHECK_EQ(tmp[11].arg[0], 12);
	/* Fill the page: the first record of the next one has its PID. */
	while (lkst_pos_page(pos(cb)) == 0)
		CHECK_EQ(write_as_hook(cb, 42, 99), true);
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_HEAD + LKST_BREC_SIZE(1, 0));
	CHECK_EQ(write_as_hook(cb, 42, 100), true);
	n = lkst_page_read(lkst_block_page(b, 1), tmp, &first);
	CHECK_EQ(n, 2);
	CHECK_EQ(tmp[0].pid, 42);
	CHECK_EQ(tmp[1].pid, 42);
	CHECK_EQ(tmp[1].arg[0], 100);
	CHECK_EQ((int)lkst_page_count(pg), (int)first);
	free_buffer(cb);
}

/*
 * A nested writer of the same PID (an interrupt, with the same current)
 * claims the bytes between a writer's reading of last_pid and its claim:
 * the claim fails and is made again, leaving the PID out after the nested
 * writer's record, which the nested writer stored with its PID.
 */
static void nested_same_pid_writer(const void *addr)
{
	if (addr != hook_at || hook_fired)
		return;
	hook_fired = 1;
	CHECK_EQ(write_as_hook(race_cb, 8, 20), true);
}

void test_pid_decided_again_after_nested_writer(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	u64 first;

	start_buffer(cb, b);
	CHECK_EQ(write_as_hook(cb, 3, 1), true);
	arm_hook(cb, &cb->last_pid, nested_same_pid_writer);
	CHECK_EQ(write_as_hook(cb, 8, 21), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	CHECK_EQ(lkst_pos_offset(pos(cb)),
		 LKST_PAGE_HEAD + 3 * LKST_BREC_SIZE(1, 0) - 4);
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), 3);
	CHECK_EQ(tmp[0].pid, 3);
	CHECK_EQ(tmp[1].pid, 8);
	CHECK_EQ(tmp[1].arg[0], 20);
	CHECK_EQ(tmp[2].pid, 8);
	CHECK_EQ(tmp[2].arg[0], 21);
	free_buffer(cb);
}

/* A record without its PID word at the head of a page is refused. */
void test_no_pid_at_page_head_is_refused(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_brec *brec = (struct lkst_brec *)((char *)pg + LKST_PAGE_HEAD);
	u32 offset = LKST_PAGE_HEAD, pid = 77;
	u64 first;

	start_buffer(cb, b);
	CHECK_EQ(write_as_hook(cb, 3, 1), true);
	CHECK_EQ(write_as_hook(cb, 3, 2), true);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 2);
	brec->info |= LKST_BREC_NO_PID;
	CHECK_EQ(lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &tmp[0]), false);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 0);
	free_buffer(cb);
}

/*
 * A writer reads the position at page 0 with no record yet (right after a
 * jump or a resize) and is interrupted before its claim by a resize, which
 * goes on at page 0 of the new current block: the same position.  The
 * claim must fail and be made again in the new block; succeeding put the
 * record in the old block and counted it in the new page, whose first
 * record then read as garbage.
 */
void test_claim_after_resize_to_same_position(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_block *fresh;
	u64 seq;

	start_buffer(cb, a);
	arm_hook(cb, &cb->pos.counter, resize_before_claim);
	CHECK_EQ(write_tagged(cb, 0, 3), true);
	lkst_host_read_hook = NULL;
	CHECK_EQ(hook_fired, 1);
	fresh = cb->blocks[0];
	CHECK_EQ(fresh != a, true);
	CHECK_EQ(next_seq(cb), 1);
	CHECK_EQ(lkst_page_read(lkst_block_page(fresh, 0), tmp, &seq), 1);
	CHECK_EQ(seq, 0);
	CHECK_EQ(is_tagged(&tmp[0], 0, 3), true);
	CHECK_EQ(lkst_page_count(lkst_block_page(a, 0)), 0);
	CHECK_EQ(lkst_block_page(a, 0)->writers, 0);
	free_resized_out();
	free_buffer(cb);
}
