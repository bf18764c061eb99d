// SPDX-License-Identifier: GPL-2.0
/*
 * Single-threaded exact tests of lkst_buf.c: slot order, wrapping, block
 * links, drops, the reader's copy, oldest_slot and jump.  Prints one
 * "PASS name" or "FAIL name" line per test; exit status 1 if any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf_fixture.h"

_Static_assert(sizeof(struct lkst_record) == LKST_RECORD_SIZE,
	       "record is one 64-byte line");

static int failures_in_test;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		failures_in_test++;					\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	if (_a != _b) {							\
		fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
			__FILE__, __LINE__, #a, _a, #b, _b);		\
		failures_in_test++;					\
	}								\
} while (0)

/* A buffer of up to LKST_MAX_BLOCKS blocks, all slots zero (never used). */
/* Record number n: arg[0] = n, time = 1000 + n (never 0 or BUSY). */
static void make_content(struct lkst_record *r, u64 n)
{
	memset(r, 0, sizeof(*r));
	r->pid = 100 + n;
	r->event = 7;
	r->context = LKST_CTX_TASK;
	for (int i = 0; i < LKST_NR_ARGS; i++)
		r->arg[i] = n * 10 + i;
}

/* Reserve and commit record n; returns the slot used or NULL if dropped. */
static struct lkst_record *write_one(struct lkst_cpu_buffer *cb, u64 n)
{
	struct lkst_record content, *rec = lkst_buf_reserve(cb);

	if (!rec)
		return NULL;
	make_content(&content, n);
	lkst_buf_commit(cb, rec, &content, 1000 + n);
	return rec;
}

/* The slot holds exactly record n. */
static bool slot_holds(const struct lkst_block *blk, u32 slot, u64 n)
{
	struct lkst_record got, want;

	if (!lkst_buf_copy_record(blk, slot, &got))
		return false;
	make_content(&want, n);
	want.time_ns = 1000 + n;
	return memcmp(&got, &want, sizeof(got)) == 0;
}

static void test_fill_in_order(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 8, LKST_NO_NEXT);

	for (u64 n = 0; n < 8; n++)
		CHECK(write_one(cb, n) == &b->records[n]);
	for (u64 n = 0; n < 8; n++)
		CHECK(slot_holds(b, n, n));
	CHECK_EQ(local64_read(&cb->written), 8);
	CHECK_EQ(local64_read(&cb->overwritten), 0);
	CHECK_EQ(local64_read(&cb->dropped), 0);
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(0, 8));
	free_buffer(cb);
}

static void test_wrap_counts_overwritten(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 8, LKST_NO_NEXT);

	for (u64 n = 0; n < 8 + 5; n++)
		CHECK(write_one(cb, n) == &b->records[n % 8]);
	CHECK_EQ(local64_read(&cb->written), 13);
	CHECK_EQ(local64_read(&cb->overwritten), 5);
	CHECK_EQ(local64_read(&cb->dropped), 0);
	/* Slots 0..4 hold 8..12, slots 5..7 still hold 5..7. */
	for (u64 s = 0; s < 8; s++)
		CHECK(slot_holds(b, s, s < 5 ? s + 8 : s));
	free_buffer(cb);
}

static void test_linked_blocks_move_to_next(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 4, 1);
	struct lkst_block *b1 = add_block(cb, 1, 4, LKST_NO_NEXT);

	for (u64 n = 0; n < 4; n++)
		CHECK(write_one(cb, n) == &b0->records[n]);
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(0, 4));
	for (u64 n = 4; n < 8; n++)
		CHECK(write_one(cb, n) == &b1->records[n - 4]);
	/* The last block has no next: it wraps onto itself, b0 is kept. */
	CHECK(write_one(cb, 8) == &b1->records[0]);
	CHECK(slot_holds(b0, 0, 0));
	CHECK_EQ(local64_read(&cb->overwritten), 1);
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(1, 1));
	free_buffer(cb);
}

static void test_ring_of_blocks(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b[3];

	for (u32 i = 0; i < 3; i++)
		b[i] = add_block(cb, i, 2, (i + 1) % 3);
	for (u64 n = 0; n < 2 * 3 * 2; n++)	/* twice round the ring */
		CHECK(write_one(cb, n) == &b[(n / 2) % 3]->records[n % 2]);
	CHECK_EQ(local64_read(&cb->written), 12);
	CHECK_EQ(local64_read(&cb->overwritten), 6);
	free_buffer(cb);
}

static void test_chain_to_missing_block_wraps(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, 5);	/* 5 does not exist */

	for (u64 n = 0; n < 6; n++)
		CHECK(write_one(cb, n) == &b->records[n % 4]);
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(0, 2));
	CHECK_EQ(local64_read(&cb->overwritten), 2);
	CHECK_EQ(local64_read(&cb->dropped), 0);
	free_buffer(cb);
}

static void test_missing_block_drops(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();

	/* No block at all: the initial pos (block 0) drops. */
	CHECK(lkst_buf_reserve(cb) == NULL);
	add_block(cb, 0, 4, LKST_NO_NEXT);
	lkst_buf_jump(cb, 7);			/* missing */
	CHECK(lkst_buf_reserve(cb) == NULL);
	CHECK(lkst_buf_reserve(cb) == NULL);
	lkst_buf_jump(cb, LKST_NO_NEXT);	/* out of range */
	CHECK(lkst_buf_reserve(cb) == NULL);
	CHECK_EQ(local64_read(&cb->dropped), 4);
	CHECK_EQ(local64_read(&cb->written), 0);
	/* Dropping leaves pos alone. */
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(LKST_NO_NEXT, 0));
	lkst_buf_jump(cb, 0);
	CHECK(write_one(cb, 0) == &cb->blocks[0]->records[0]);
	free_buffer(cb);
}

static void test_copy_refuses_empty_and_busy(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_record out, content, *rec;

	memset(&out, 0x5a, sizeof(out));
	CHECK(!lkst_buf_copy_record(b, 0, &out));	/* empty */
	rec = lkst_buf_reserve(cb);
	CHECK(rec == &b->records[0]);
	CHECK_EQ(rec->time_ns, LKST_TIME_BUSY);
	CHECK(!lkst_buf_copy_record(b, 0, &out));		/* busy */
	make_content(&content, 3);
	lkst_buf_commit(cb, rec, &content, 1003);
	CHECK(slot_holds(b, 0, 3));
	/* Reclaiming a committed slot makes it BUSY again: refused. */
	lkst_buf_jump(cb, 0);
	rec = lkst_buf_reserve(cb);
	CHECK(rec == &b->records[0]);
	CHECK(!lkst_buf_copy_record(b, 0, &out));
	CHECK_EQ(local64_read(&cb->overwritten), 1);
	lkst_buf_commit(cb, rec, &content, 1003);
	free_buffer(cb);
}

/*
 * The states a reader can meet while a writer replaces a record: the
 * replaced record's number must never be reported, neither as a record
 * (the slot is CLAIMED but still shows its old time) nor as a number in
 * flight (BUSY before the new number is stored).
 */
static void test_copy_sees_claim_before_busy(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_record out, content;
	u64 seq = 0;

	make_content(&content, 3);
	lkst_buf_commit(cb, lkst_buf_reserve(cb), &content, 1003);
	CHECK_EQ(lkst_buf_copy_record_seq(b, 0, &out, &seq), LKST_COPY_OK);
	CHECK_EQ(seq, 0);
	b->seqs[0] = LKST_SEQ_CLAIMED;		/* writer between claim and BUSY */
	CHECK_EQ(lkst_buf_copy_record_seq(b, 0, &out, &seq), LKST_COPY_CHANGED);
	b->records[0].time_ns = LKST_TIME_BUSY;	/* BUSY, no number yet */
	seq = 0;
	CHECK_EQ(lkst_buf_copy_record_seq(b, 0, &out, &seq), LKST_COPY_BUSY);
	CHECK_EQ(seq, LKST_SEQ_CLAIMED);
	free_buffer(cb);
}

static void test_commit_time_0_and_busy_store_1(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_record content, out;

	make_content(&content, 1);
	lkst_buf_commit(cb, lkst_buf_reserve(cb), &content, 0);
	lkst_buf_commit(cb, lkst_buf_reserve(cb), &content, LKST_TIME_BUSY);
	lkst_buf_commit(cb, lkst_buf_reserve(cb), &content, 2);
	CHECK_EQ(b->records[0].time_ns, 1);
	CHECK_EQ(b->records[1].time_ns, 1);
	CHECK_EQ(b->records[2].time_ns, 2);
	CHECK(lkst_buf_copy_record(b, 1, &out));
	CHECK_EQ(out.time_ns, 1);
	CHECK_EQ(local64_read(&cb->written), 3);
	free_buffer(cb);
}

static void test_oldest_slot(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_block *b1 = add_block(cb, 1, 4, LKST_NO_NEXT);

	CHECK_EQ(lkst_buf_oldest_slot(cb, b0), 0);
	write_one(cb, 0);
	CHECK_EQ(lkst_buf_oldest_slot(cb, b0), 1);
	for (u64 n = 1; n < 4; n++)
		write_one(cb, n);
	CHECK_EQ(lkst_buf_oldest_slot(cb, b0), 0);	/* full: pos slot 4 */
	for (u64 n = 4; n < 7; n++)
		write_one(cb, n);
	CHECK_EQ(lkst_buf_oldest_slot(cb, b0), 3);
	/* Reading from there, circularly, gives 3,4,5,6 oldest first. */
	for (u32 i = 0; i < 4; i++)
		CHECK(slot_holds(b0, (3 + i) % 4, 3 + i));
	CHECK_EQ(lkst_buf_oldest_slot(cb, b1), 0);	/* not current */
	free_buffer(cb);
}

static void test_jump(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 4, 1);
	struct lkst_block *b1 = add_block(cb, 1, 4, 0);

	write_one(cb, 0);
	write_one(cb, 1);
	lkst_buf_jump(cb, 1);
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(1, 0));
	CHECK(write_one(cb, 2) == &b1->records[0]);
	lkst_buf_jump(cb, 0);	/* back to slot 0: overwrites record 0 */
	CHECK(write_one(cb, 3) == &b0->records[0]);
	CHECK(slot_holds(b0, 1, 1));
	CHECK_EQ(local64_read(&cb->written), 4);
	CHECK_EQ(local64_read(&cb->overwritten), 1);
	CHECK_EQ(local64_read(&cb->dropped), 0);
	free_buffer(cb);
}

/*
 * A nested writer (IRQ) that laps the writer it interrupted must drop at
 * the slot that writer still owns, then carry on with the next slot.
 */
static void test_nested_lap_drops_at_busy_slot(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_record content, *interrupted;

	interrupted = lkst_buf_reserve(cb);		/* slot 0, BUSY */
	CHECK(interrupted == &b->records[0]);
	for (u64 n = 1; n < 4; n++)
		CHECK(write_one(cb, n) == &b->records[n]);
	CHECK(write_one(cb, 4) == NULL);		/* slot 0 is BUSY */
	CHECK(write_one(cb, 5) == &b->records[1]);	/* overwrites 1 */
	make_content(&content, 0);
	lkst_buf_commit(cb, interrupted, &content, 1000);
	CHECK(slot_holds(b, 0, 0));
	CHECK(slot_holds(b, 1, 5));
	CHECK_EQ(local64_read(&cb->written), 5);
	CHECK_EQ(local64_read(&cb->dropped), 1);
	CHECK_EQ(local64_read(&cb->overwritten), 1);
	free_buffer(cb);
}

/*
 * An interrupt inside lkst_buf_reserve(): at @irq_point it jumps to block
 * 0 and writes record @irq_record there, in the slot the interrupted
 * writer is claiming.
 */
static int irq_point = -1;
static u64 irq_record;

static void irq_jumps_and_writes(struct lkst_cpu_buffer *cb, int point)
{
	if (point != irq_point)
		return;
	irq_point = -1;			/* once, and not in its own reserve */
	lkst_buf_jump(cb, 0);
	CHECK(write_one(cb, irq_record) != NULL);
}

/*
 * The interrupted writer drops its record and leaves the interrupt's
 * whole: its number too, or a reader takes the slot for one being
 * replaced forever (a committed time with CLAIMED as its number).
 */
static void check_irq_took_slot_0(int point, u64 records_before)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_record got;
	u64 seq;

	for (u64 n = 0; n < records_before; n++)
		write_one(cb, n);
	lkst_buf_jump(cb, 0);
	irq_record = 99;
	irq_point = point;
	lkst_buf_test_hook = irq_jumps_and_writes;
	CHECK(lkst_buf_reserve(cb) == NULL);
	lkst_buf_test_hook = NULL;
	CHECK_EQ(irq_point, -1);
	CHECK(slot_holds(b, 0, 99));
	CHECK_EQ(lkst_buf_copy_record_seq(b, 0, &got, &seq), LKST_COPY_OK);
	CHECK_EQ(seq, records_before);
	CHECK_EQ(local64_read(&cb->written), records_before + 1);
	CHECK_EQ(local64_read(&cb->dropped), 1);
	CHECK_EQ(local64_read(&cb->next_seq), records_before + 1);
	free_buffer(cb);
}

/* The interrupt comes after the slot's time was read: a used slot ... */
static void test_irq_fills_slot_after_it_was_read(void)
{
	check_irq_took_slot_0(LKST_BUF_AT_SLOT_READ, 4);
}

/* ... and an unused one, whose number 0 the interrupt's record takes too. */
static void test_irq_fills_unused_slot_after_it_was_read(void)
{
	check_irq_took_slot_0(LKST_BUF_AT_SLOT_READ, 0);
}

/* The interrupt comes after CLAIMED was stored: it stores its own number. */
static void test_irq_fills_slot_after_claimed(void)
{
	check_irq_took_slot_0(LKST_BUF_AT_CLAIMED, 4);
	check_irq_took_slot_0(LKST_BUF_AT_CLAIMED, 0);
}

/* STOP: the writer keeps every record, dropping where one would go. */
static void test_stop_mode_never_overwrites(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b0 = add_block(cb, 0, 2, 1);
	struct lkst_block *b1 = add_block(cb, 1, 2, 0);	/* a ring */

	cb->mode = LKST_MODE_STOP;
	for (u64 n = 0; n < 4; n++)
		CHECK(write_one(cb, n) != NULL);
	CHECK(write_one(cb, 4) == NULL);	/* back at b0[0]: kept */
	CHECK_EQ(local64_read(&cb->pos), lkst_make_pos(1, 2));
	lkst_buf_jump(cb, 1);
	CHECK(write_one(cb, 5) == NULL);	/* used block: kept */
	CHECK(slot_holds(b0, 0, 0) && slot_holds(b1, 1, 3));
	cb->mode = LKST_MODE_OVERWRITE;
	CHECK(write_one(cb, 6) == &b1->records[0]);
	CHECK_EQ(local64_read(&cb->written), 5);
	CHECK_EQ(local64_read(&cb->dropped), 2);
	CHECK_EQ(local64_read(&cb->overwritten), 1);
	CHECK_EQ(local64_read(&cb->next_seq), 5);
	CHECK_EQ(b1->seqs[0], 4);
	free_buffer(cb);
}

struct unit_test {
	const char *name;
	void (*fn)(void);
};

#define TEST(fn) { #fn, fn }

static const struct unit_test tests[] = {
	TEST(test_fill_in_order),
	TEST(test_wrap_counts_overwritten),
	TEST(test_linked_blocks_move_to_next),
	TEST(test_ring_of_blocks),
	TEST(test_chain_to_missing_block_wraps),
	TEST(test_missing_block_drops),
	TEST(test_copy_refuses_empty_and_busy),
	TEST(test_copy_sees_claim_before_busy),
	TEST(test_commit_time_0_and_busy_store_1),
	TEST(test_oldest_slot),
	TEST(test_jump),
	TEST(test_nested_lap_drops_at_busy_slot),
	TEST(test_stop_mode_never_overwrites),
	TEST(test_irq_fills_slot_after_it_was_read),
	TEST(test_irq_fills_unused_slot_after_it_was_read),
	TEST(test_irq_fills_slot_after_claimed),
};

int main(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		failures_in_test = 0;
		tests[i].fn();
		printf("%s unit/%s\n", failures_in_test ? "FAIL" : "PASS",
		       tests[i].name);
		failed += !!failures_in_test;
	}
	return failed ? 1 : 0;
}
