// SPDX-License-Identifier: GPL-2.0
/*
 * Single-threaded exact tests of lkst_buf.c (one file over 800 lines: the
 * cases share its page helpers; the read-hook cases are in
 * test_buf_unit_hooked.c): pages of variable-size
 * records, page switches and their numbering, wraps, links, STOP mode,
 * drops (no block, nested in a switch, lapping a writer in flight), jumps
 * and the switch a resize makes, and the readers (page copy under the
 * page's generation, page listing, walks from a cursor).  Interrupts are
 * played by calls made while a reservation is held; a reader's load can
 * be hooked (LKST_HOST_READ_HOOK) to change a page in the middle of a
 * copy.  Prints one "PASS name" or "FAIL name" line per test; exit
 * status 1 if any failed.
 *
 * The tests that act in the middle of another step through the load hook
 * are in test_buf_unit_hooked.c; what both use is in buf_unit.h.
 */
#include "buf_unit.h"

void (*lkst_host_read_hook)(const void *addr);

int failures_in_test;

struct lkst_record tmp[LKST_PAGE_MAX_RECORDS];

/*
 * Block A (1 page) -> block B (1 page, wraps onto itself).  Once B has
 * lapped, A is never reset again: A holds 0..253, B 508..761, and 254..507
 * were overwritten.  A drain must count that gap lost and go on; taking it
 * for a record in flight stalls it at 254 for good.
 */
static void test_walk_past_overwritten_gap(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 1, 1);
	struct sink s = { 0 };
	u64 cursor;

	add_block(cb, 1, 1, LKST_NO_NEXT);
	start_buffer(cb, a);
	write_n(cb, 3 * PER_PAGE_MIN, 0);
	CHECK_EQ(lkst_buf_next_seq(cb, cb->blocks), 3 * PER_PAGE_MIN);
	CHECK_EQ(local64_read(&cb->overwritten), PER_PAGE_MIN);
	cursor = drain(cb, 0, &s);
	cursor = drain(cb, cursor, &s);		/* a second drain: no stall */
	CHECK_EQ(cursor, 3 * PER_PAGE_MIN);
	CHECK_EQ(s.nr, 2 * PER_PAGE_MIN);
	CHECK_EQ(s.bad_order, false);
	free_buffer(cb);
}

/* A record in flight in a page its writer left stops the drain there. */
static void test_walk_stops_at_record_in_flight(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 4, LKST_NO_NEXT);
	struct lkst_slot held;
	struct sink s = { 0 };
	u64 cursor;

	start_buffer(cb, b);
	write_n(cb, 10, 0);
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0), &held), true);
	write_n(cb, 300, 0);			/* nested: on into page 1 */
	cursor = drain(cb, 0, &s);
	CHECK_EQ(cursor, 10);
	CHECK_EQ(s.nr, 10);
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 0, 0, 0));
	cursor = drain(cb, cursor, &s);
	CHECK_EQ(cursor, 311);
	CHECK_EQ(s.nr, 311);
	free_buffer(cb);
}


/* Each size lies where the previous ended; the ones past nr_args read 0. */
static void test_variable_sizes_exact_offsets(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	u32 offset = LKST_PAGE_HEAD, at[14], pid = 0;
	u64 first = 99;
	int n;

	start_buffer(cb, b);
	for (u32 i = 0; i < 14; i++) {
		at[i] = offset;
		CHECK_EQ(write_tagged(cb, i, i % 7), true);
		offset += LKST_BREC_SIZE(i % 7, i % 7);
		CHECK_EQ(lkst_pos_offset(pos(cb)), offset);
		CHECK_EQ(lkst_pos_count(pos(cb)), i + 1);
	}
	for (u32 i = 0; i < 14; i++) {
		struct lkst_brec *r = (struct lkst_brec *)((char *)pg + at[i]);

		CHECK_EQ(r->info, LKST_BREC_INFO(1, 2, i % 7, (1u << i % 7) - 1) |
				  LKST_BREC_TIME_NS);
		CHECK_EQ(r->time_lo, 1000 + i);
		CHECK_EQ(r->time_hi, 0);
	}
	n = lkst_page_read(pg, tmp, &first);
	CHECK_EQ(n, 14);
	CHECK_EQ(first, 0);
	for (int i = 0; i < n; i++)
		CHECK_EQ(is_tagged(&tmp[i], i, i % 7), true);
	CHECK_EQ(lkst_page_count(pg), 14);
	CHECK_EQ(next_seq(cb), 14);
	/* lkst_page_next steps record by record, by each one's size. */
	offset = LKST_PAGE_HEAD;
	for (u32 i = 0; i < 14; i++) {
		CHECK_EQ(lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &tmp[0]), true);
		CHECK_EQ(offset, i < 13 ? at[i + 1] : at[13] + LKST_BREC_SIZE(6, 6));
	}
	CHECK_EQ(lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &tmp[0]), false);
	free_buffer(cb);
}

/* Trailing zero arguments are left out and read back as 0. */
static void test_trailing_zero_args(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_record rec = { .time_ns = 5, .pid = 6, .event = 7,
				   .context = 3, .arg = { 0, 9 } };
	u64 first;

	start_buffer(cb, b);
	lkst_buf_write(cb, &rec, 2);		/* arg[1] is the last non-zero */
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_HEAD + LKST_BREC_SIZE(2, 0));
	memset(&tmp[0], 0xff, sizeof(tmp[0]));
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), 1);
	CHECK_EQ(memcmp(&tmp[0], &rec, sizeof(rec)), 0);
	free_buffer(cb);
}

/*
 * An argument takes one word when its high word is 0, two otherwise: the
 * low words of all come first, in order, then the high words of the wide
 * ones, in order, then the PID.
 */
static void test_narrow_and_wide_args(void)
{
	static const struct {
		u64 arg;
		bool wide;
	} cases[] = {
		{ 1, false }, { 0x7fffffff, false }, { 0x80000000, false },
		{ 0xffffffff, false }, { (u64)-1, true }, { (u64)-14, true },
		{ 0xffffffff80000000ull, true }, { 0x1ffffffffull, true },
		{ 0xffffffff81234560ull, true }, { 0xffff888003a41c00ull, true },
		{ 0x100000000ull, true }, { 0x7ffd12345678ull, true },
	};
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_record rec = { .time_ns = 0x123456789abull, .pid = 3,
				   .event = 9, .context = 1 };
	u32 offset = LKST_PAGE_HEAD, nr = 0, words, wide;
	u64 first;

	start_buffer(cb, b);
	/* Two records of six: cases 0-5, then 6-11. */
	for (u32 r = 0; r < 2; r++) {
		struct lkst_brec *brec = (struct lkst_brec *)((char *)pg + offset);

		words = 0;
		wide = 0;
		for (u32 i = 0; i < LKST_NR_ARGS; i++) {
			rec.arg[i] = cases[r * 6 + i].arg;
			wide |= (u32)cases[r * 6 + i].wide << i;
			words += cases[r * 6 + i].wide ? 2 : 1;
		}
		CHECK_EQ(lkst_brec_layout(rec.arg, LKST_NR_ARGS, &nr), 16 + 4 * words);
		CHECK_EQ(nr, wide);
		lkst_buf_write(cb, &rec, LKST_NR_ARGS);
		offset += 16 + 4 * words;
		CHECK_EQ(lkst_pos_offset(pos(cb)), offset);
		CHECK_EQ(LKST_BREC_WIDE(brec->info), wide);
		CHECK_EQ(brec->time_hi, 0x123);
		CHECK_EQ(brec->time_lo, 0x456789ab);
		/* The low words in order, then the high words of the wide ones. */
		words = LKST_NR_ARGS;
		for (u32 i = 0; i < LKST_NR_ARGS; i++) {
			CHECK_EQ(brec->word[i], (u32)rec.arg[i]);
			if (cases[r * 6 + i].wide)
				CHECK_EQ(brec->word[words++], (u32)(rec.arg[i] >> 32));
		}
		CHECK_EQ(brec->word[words], 3);	/* the PID, last */
	}
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 2);
	for (u32 r = 0; r < 2; r++) {
		CHECK_EQ(tmp[r].time_ns, 0x123456789abull);
		for (u32 i = 0; i < LKST_NR_ARGS; i++)
			CHECK_EQ(tmp[r].arg[i], cases[r * 6 + i].arg);
	}
	free_buffer(cb);
}

/*
 * The kernel's writer (lkst_write() in core.c: lkst_brec_layout_args(),
 * lkst_slot_put_args(), the PID left out when unchanged) against the
 * reader, on random arguments: narrow, wide, negative, zeros between and
 * trailing; the layout agrees with lkst_brec_layout() on the arguments up
 * to the last non-zero one.
 */
static void test_kernel_writer_random_args(void)
{
	static const u64 values[] = {
		0, 0, 1, 0x7fffffff, 0xffffffff, 0x100000000ull, (u64)-1,
		(u64)-14, 0xffff888003a41c00ull, 0x7ffd12345678ull,
	};
	enum { NR = 3000, PAGES = 64 };
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, PAGES, LKST_NO_NEXT);
	static struct lkst_record want[NR];
	u64 rng = 0x9e3779b97f4a7c15ull, first;
	u32 nr_args, wide, len, n = 0;

	start_buffer(cb, b);
	for (u32 r = 0; r < NR; r++) {
		struct lkst_record *w = &want[r];
		struct lkst_slot slot;
		u32 keep, layout_wide;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		keep = rng % (LKST_NR_ARGS + 1);
		for (u32 i = 0; i < LKST_NR_ARGS; i++)
			w->arg[i] = i < keep ?
				values[(rng >> (8 + 4 * i)) %
				       (sizeof(values) / sizeof(values[0]))] : 0;
		w->pid = (rng >> 40) % 4 ? 3 : 7;
		w->time_ns = 1000 + r;
		w->event = 1 + r % 200;
		w->context = (rng >> 50) % 4;
		len = lkst_brec_layout_args(w->arg[0], w->arg[1], w->arg[2],
					    w->arg[3], w->arg[4], w->arg[5],
					    &nr_args, &wide);
		keep = LKST_NR_ARGS;
		while (keep && !w->arg[keep - 1])
			keep--;
		CHECK_EQ(nr_args, keep);
		CHECK_EQ(len, lkst_brec_layout(w->arg, keep, &layout_wide));
		CHECK_EQ(wide, layout_wide);
		CHECK_EQ(lkst_buf_reserve_pid(cb, len, w->pid, &slot), true);
		lkst_slot_put_args(&slot, w->pid, nr_args, w->arg[0], w->arg[1],
				   w->arg[2], w->arg[3], w->arg[4], w->arg[5]);
		lkst_slot_put_time(&slot, w->time_ns);
		lkst_buf_commit(&slot, LKST_BREC_INFO(w->event, w->context,
							  nr_args, wide));
	}
	CHECK_EQ(lkst_pos_block(pos(cb)), 0);
	for (u32 p = 0; p < PAGES && n < NR; p++) {
		int got = lkst_page_read(lkst_block_page(b, p), tmp, &first);

		CHECK_EQ(got > 0, true);
		CHECK_EQ(first, n);
		for (int k = 0; k < got && n < NR; k++, n++)
			CHECK_EQ(memcmp(&tmp[k], &want[n], sizeof(tmp[k])), 0);
	}
	CHECK_EQ(n, NR);
	free_buffer(cb);
}

/* A wide bit for an argument the record does not hold makes it invalid. */
static void test_wide_bit_past_args_is_refused(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_record rec = { .time_ns = 1, .pid = 1, .event = 1,
				   .arg = { 5, 6 } };
	struct lkst_brec *brec = (struct lkst_brec *)((char *)pg + LKST_PAGE_HEAD);
	u32 offset = LKST_PAGE_HEAD, pid = 0;

	start_buffer(cb, b);
	lkst_buf_write(cb, &rec, 2);
	lkst_buf_write(cb, &rec, 2);
	CHECK_EQ(lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &tmp[0]), true);
	offset = LKST_PAGE_HEAD;
	brec->info |= 1u << (8 + 2);
	CHECK_EQ(lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid, &tmp[0]), false);
	CHECK_EQ(offset, LKST_PAGE_HEAD);
	free_buffer(cb);
}

/*
 * A record's counter value reads as CLOCK_MONOTONIC through its page's
 * clock anchor (I16), the anchor's fraction of a nanosecond included; a
 * record stamped in nanoseconds (LKST_BREC_TIME_NS) reads as it is.
 */
static void test_time_from_clock_anchor(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	struct lkst_slot slot;
	u64 first;

	start_buffer(cb, b);
	/* A 3 GHz counter: 2^24 / 3 at shift 24, and 7/8 ns of fraction. */
	pg->clock = (struct lkst_page_clock){
		.cycles = 1000000, .base_ns = 5000000000ull,
		.frac = 7u << 21, .mult = (1u << 24) / 3, .shift = 24,
	};
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0), &slot), true);
	lkst_slot_put_pid(&slot, 1);
	/* 2999 counts: 999.67 ns, 1000.55 with the fraction */
	lkst_slot_put_time(&slot, 1000000 + 2999);
	lkst_buf_commit(&slot, LKST_BREC_INFO(1, 0, 0, 0));
	CHECK_EQ(write_tagged(cb, 7, 1), true);	/* at 1007 ns */
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 2);
	CHECK_EQ(tmp[0].time_ns, 5000001000ull);
	CHECK_EQ(tmp[1].time_ns, 1007);
	free_buffer(cb);
}

/* A record that does not fit the page's tail starts the next page, numbered on. */
static void test_page_switch_numbering(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_page_ref refs[3];
	u64 first;

	start_buffer(cb, b);
	write_page_leaving_32(cb, 0);
	/* fits exactly */
	CHECK_EQ(write_tagged(cb, PER_PAGE, (16 + TAIL) / 8), true);
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_SIZE);
	CHECK_EQ(lkst_pos_page(pos(cb)), 0);
	CHECK_EQ(write_tagged(cb, PER_PAGE + 1, 0), true);
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_HEAD + LKST_BREC_SIZE(0, 0));
	CHECK_EQ(lkst_pos_count(pos(cb)), 1);
	CHECK_EQ(lkst_block_page(b, 0)->nr_records, PER_PAGE + 1);
	CHECK_EQ(lkst_block_page(b, 1)->first_seq, PER_PAGE + 1);
	CHECK_EQ(next_seq(cb), PER_PAGE + 2);
	/* Page 1: the small one and as many full ones as fit, then on. */
	write_full(cb, PER_PAGE + 2, FIT_FULL(16));
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_SIZE - LEFT_AFTER(16));
	write_full(cb, PER_PAGE + 2 + FIT_FULL(16), 1);
	CHECK_EQ(lkst_pos_page(pos(cb)), 2);
	CHECK_EQ(lkst_block_page(b, 1)->nr_records, FIT_FULL(16) + 1);
	CHECK_EQ(lkst_block_page(b, 2)->first_seq, PER_PAGE + 2 + FIT_FULL(16));
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 3), 3);
	for (u32 p = 0; p < 3; p++) {
		int n = lkst_page_read(lkst_block_page(b, p), tmp, &first);

		CHECK_EQ(refs[p].page, p);
		CHECK_EQ(first, refs[p].first_seq);
		/* each page's numbers follow the previous page's */
		if (p < 2)
			CHECK_EQ(first + n, lkst_block_page(b, p + 1)->first_seq);
		CHECK_EQ(is_tagged(&tmp[0], first, p == 1 ? 0 : FULL), true);
	}
	CHECK_EQ(overwritten(cb), 0);
	free_buffer(cb);
}

/* A one-page block wraps onto itself: the page's records are lost together. */
static void test_wrap_one_page_block(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	u64 first;

	start_buffer(cb, b);
	CHECK_EQ(pg->gen, 2);
	for (u64 i = 0; i < PER_PAGE_MIN; i++)
		CHECK_EQ(write_tagged(cb, i, 0), true);
	CHECK_EQ(lkst_pos_offset(pos(cb)), LKST_PAGE_SIZE);	/* exactly full */
	CHECK_EQ(overwritten(cb), 0);
	CHECK_EQ(write_tagged(cb, PER_PAGE_MIN, 0), true);
	CHECK_EQ(overwritten(cb), PER_PAGE_MIN);
	CHECK_EQ(pg->gen, 4);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 1);
	CHECK_EQ(first, PER_PAGE_MIN);
	CHECK_EQ(is_tagged(&tmp[0], PER_PAGE_MIN, 0), true);
	/* 1 small + as many full as fit, then the next full one wraps again. */
	write_full(cb, PER_PAGE_MIN + 1, FIT_FULL(16) + 1);
	CHECK_EQ(overwritten(cb), PER_PAGE_MIN + FIT_FULL(16) + 1);
	CHECK_EQ(next_seq(cb), PER_PAGE_MIN + FIT_FULL(16) + 2);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 1);
	CHECK_EQ(first, PER_PAGE_MIN + FIT_FULL(16) + 1);
	CHECK_EQ(dropped(cb), 0);
	free_buffer(cb);
}

/* Ring of a one-page block and a three-page block. */
static void test_links_different_page_counts(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 1, 2);
	struct lkst_page_ref refs[4];
	static const u32 want_block[] = { 2, 0, 2, 2 }, want_page[] = { 2, 0, 0, 1 };

	add_block(cb, 2, 3, 0);
	start_buffer(cb, a);
	/* a0 0-62, b0 63-125, b1 126-188, b2 189-251, a0 252-314, b0 315-377, b1 378 */
	write_full(cb, 0, 6 * PER_PAGE + 1);
	CHECK_EQ(overwritten(cb), 3 * PER_PAGE);
	CHECK_EQ(lkst_pos_block(pos(cb)), 2);
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 4), 4);
	for (u32 i = 0; i < 4; i++) {
		CHECK_EQ(refs[i].first_seq, (3 + i) * PER_PAGE);
		CHECK_EQ(refs[i].block, want_block[i]);
		CHECK_EQ(refs[i].page, want_page[i]);
	}
	CHECK_EQ(next_seq(cb), 6 * PER_PAGE + 1);
	/* Only block 0's pages. */
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, 0, refs, 4), 1);
	CHECK_EQ(refs[0].first_seq, 4 * PER_PAGE);
	free_buffer(cb);
}

/*
 * STOP: a page never used is taken, one holding records is not: the
 * writer drops, never overwrites, and a small record still fits the tail.
 */
static void test_stop_mode(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 1, 1);
	u64 at;

	add_block(cb, 1, 2, LKST_NO_NEXT);
	start_buffer(cb, a);
	cb->mode = LKST_MODE_STOP;
	/* a0, b0, b1: all never used */
	write_full(cb, 0, 2 * PER_PAGE);
	write_page_leaving_32(cb, 2 * PER_PAGE);
	CHECK_EQ(dropped(cb), 0);
	at = pos(cb);
	CHECK_EQ(write_tagged(cb, 500, FULL), false);	/* b0 holds records */
	CHECK_EQ(dropped(cb), 1);
	CHECK_EQ(pos(cb), at);
	/* the small records that fit the rest of b1 */
	for (u64 i = 0; i < (32 + TAIL) / 16; i++)
		CHECK_EQ(write_tagged(cb, 3 * PER_PAGE + i, 0), true);
	CHECK_EQ(write_tagged(cb, 501, 0), false);
	CHECK_EQ(dropped(cb), 2);
	CHECK_EQ(overwritten(cb), 0);
	CHECK_EQ(next_seq(cb), 3 * PER_PAGE + (32 + TAIL) / 16);
	CHECK_EQ(lkst_page_count(lkst_block_page(cb->blocks[1], 0)), PER_PAGE);
	/* Overwriting again: b wraps onto itself. */
	WRITE_ONCE(cb->mode, LKST_MODE_OVERWRITE);
	CHECK_EQ(write_tagged(cb, 3 * PER_PAGE + (32 + TAIL) / 16, 0), true);
	CHECK_EQ(overwritten(cb), PER_PAGE);
	CHECK_EQ(lkst_block_page(cb->blocks[1], 0)->first_seq,
		 3 * PER_PAGE + (32 + TAIL) / 16);
	free_buffer(cb);
}

/* No block (or the position's block gone): every event is dropped. */
static void test_no_block_drops(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();

	CHECK_EQ(write_tagged(cb, 0, 1), false);
	CHECK_EQ(dropped(cb), 1);
	CHECK_EQ(next_seq(cb), 0);
	add_block(cb, 1, 1, LKST_NO_NEXT);	/* pos still says block 0 */
	CHECK_EQ(write_tagged(cb, 0, 0), false);
	CHECK_EQ(dropped(cb), 2);
	free_buffer(cb);
}

/* A writer that interrupts one moving pos (SWITCHING) drops; so do jumps. */
static void test_nested_inside_switch_drops(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	u64 at, old, first;

	start_buffer(cb, b);
	write_full(cb, 0, 3);
	at = pos(cb);
	local64_set(&cb->pos, at | LKST_POS_SWITCHING);
	CHECK_EQ(write_tagged(cb, 99, 0), false);
	CHECK_EQ(dropped(cb), 1);
	CHECK_EQ(pos(cb), at | LKST_POS_SWITCHING);
	CHECK_EQ(lkst_buf_begin_switch(cb, &old, &first), -EBUSY);
	CHECK_EQ(lkst_buf_jump_pos(cb, b), -EBUSY);
	/* At a page's end too: the switch is not taken twice. */
	local64_set(&cb->pos, lkst_make_pos(0, 0, LKST_PAGE_SIZE - 8, 3) |
			      LKST_POS_SWITCHING);
	CHECK_EQ(write_tagged(cb, 99, 0), false);
	CHECK_EQ(dropped(cb), 2);
	CHECK_EQ(lkst_block_page(b, 1)->gen, 0);
	local64_set(&cb->pos, at);
	CHECK_EQ(write_tagged(cb, 3, FULL), true);
	CHECK_EQ(next_seq(cb), 4);
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), 4);
	CHECK_EQ(is_tagged(&tmp[3], 3, FULL), true);
	free_buffer(cb);
}

/*
 * An interrupt that laps the buffer drops instead of resetting the page a
 * writer it interrupted holds a record in, and readers stop before that
 * record until it is committed.
 */
static void test_lapping_writer_keeps_held_page(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_slot held;
	struct sink s = { 0 };
	u64 cursor, first;

	start_buffer(cb, b);
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0), &held), true);
	CHECK_EQ(lkst_block_page(b, 0)->writers, 1);
	write_full(cb, 1, FIT_FULL(16) + PER_PAGE);	/* the rest of page 0, page 1 */
	CHECK_EQ(write_tagged(cb, 999, FULL), false);	/* page 0: held */
	CHECK_EQ(dropped(cb), 1);
	CHECK_EQ(overwritten(cb), 0);
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), 0);
	cursor = drain(cb, 0, &s);
	CHECK_EQ(cursor, 0);
	CHECK_EQ(s.nr, 0);
	lkst_slot_put_pid(&held, 42);
	lkst_slot_put_time(&held, 1000);
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 2, 0, 0));
	CHECK_EQ(lkst_block_page(b, 0)->writers, 0);
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), FIT_FULL(16) + 1);
	CHECK_EQ(is_tagged(&tmp[0], 0, 0), true);
	cursor = drain(cb, cursor, &s);
	CHECK_EQ(cursor, FIT_FULL(16) + PER_PAGE + 1);
	CHECK_EQ(s.nr, FIT_FULL(16) + PER_PAGE + 1);
	CHECK_EQ(s.bad_order, false);
	/* Now the page can be reset. */
	CHECK_EQ(write_tagged(cb, FIT_FULL(16) + PER_PAGE + 1, FULL), true);
	CHECK_EQ(overwritten(cb), FIT_FULL(16) + 1);
	free_buffer(cb);
}

/* Jumps reset the target's first page, counting it overwritten. */
static void test_jump(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_block *b = add_block(cb, 1, 1, 0);
	struct lkst_slot held;
	u64 first, at;

	start_buffer(cb, a);
	for (u64 i = 0; i < 5; i++)
		CHECK_EQ(write_tagged(cb, i, 2), true);
	CHECK_EQ(lkst_buf_jump_pos(cb, b), 0);
	CHECK_EQ(overwritten(cb), 0);		/* b's page was never used */
	/* The epoch flipped: a claim prepared before the jump fails. */
	CHECK_EQ(pos(cb), lkst_make_pos(1, 0, LKST_PAGE_HEAD, 0) | LKST_POS_EPOCH);
	CHECK_EQ(lkst_block_page(a, 0)->nr_records, 5);
	CHECK_EQ(write_tagged(cb, 5, 2), true);
	CHECK_EQ(lkst_page_read(lkst_block_page(b, 0), tmp, &first), 1);
	CHECK_EQ(first, 5);
	/* Back to a's page 0, whose 5 records are lost, in STOP mode too. */
	cb->mode = LKST_MODE_STOP;
	CHECK_EQ(lkst_buf_jump_pos(cb, a), 0);
	CHECK_EQ(overwritten(cb), 5);
	CHECK_EQ(lkst_block_page(a, 0)->first_seq, 6);
	/* Not while a writer it interrupted writes in the target page. */
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(0, 0), &held), true);
	at = pos(cb);
	CHECK_EQ(lkst_buf_jump_pos(cb, a), -EBUSY);
	CHECK_EQ(pos(cb), at);
	CHECK_EQ(overwritten(cb), 5);
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 2, 0, 0));
	/* Not while pos is being moved. */
	local64_set(&cb->pos, at | LKST_POS_SWITCHING);
	CHECK_EQ(lkst_buf_jump_pos(cb, b), -EBUSY);
	local64_set(&cb->pos, at);
	CHECK_EQ(next_seq(cb), 7);
	/* To the current block from its page 1: page 0 reset, page 1 kept. */
	cb->mode = LKST_MODE_OVERWRITE;
	write_full(cb, 7, FIT_FULL(16) + 1);	/* page 0 full, 1 in page 1 */
	CHECK_EQ(lkst_pos_page(pos(cb)), 1);
	CHECK_EQ(lkst_buf_jump_pos(cb, a), 0);
	CHECK_EQ(overwritten(cb), 5 + 1 + FIT_FULL(16));
	CHECK_EQ(lkst_block_page(a, 0)->first_seq, 7 + FIT_FULL(16) + 1);
	CHECK_EQ(lkst_page_count(lkst_block_page(a, 1)), 1);
	CHECK_EQ(next_seq(cb), 7 + FIT_FULL(16) + 1);
	free_buffer(cb);
}

/* A resize's switch: hold pos, put new blocks in, go on numbered on. */
static void test_begin_end_switch(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *old_blk = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_block *fresh;
	u64 old, first = 0, seq;

	start_buffer(cb, old_blk);
	write_full(cb, 0, 10);
	CHECK_EQ(lkst_buf_begin_switch(cb, &old, &first), 0);
	CHECK_EQ(first, 10);
	CHECK_EQ(old & LKST_POS_SWITCHING, 0);
	CHECK_EQ(pos(cb), old | LKST_POS_SWITCHING);
	CHECK_EQ(old_blk->pages ? lkst_block_page(old_blk, 0)->nr_records : 0, 10);
	CHECK_EQ(write_tagged(cb, 99, 0), false);	/* an NMI meanwhile */
	CHECK_EQ(dropped(cb), 1);
	cb->blocks[0] = NULL;
	fresh = add_block(cb, 0, 3, LKST_NO_NEXT);
	lkst_buf_end_switch(cb, fresh, first);
	CHECK_EQ(pos(cb), lkst_make_pos(0, 0, LKST_PAGE_HEAD, 0) | LKST_POS_EPOCH);
	CHECK_EQ(next_seq(cb), 10);
	CHECK_EQ(write_tagged(cb, 10, 1), true);
	CHECK_EQ(lkst_page_read(lkst_block_page(fresh, 0), tmp, &seq), 1);
	CHECK_EQ(seq, 10);
	CHECK_EQ(is_tagged(&tmp[0], 10, 1), true);
	CHECK_EQ(overwritten(cb), 0);		/* the caller counts discards */
	free_block(old_blk);
	free_buffer(cb);
}

/* next_seq: how many numbers were given, across pages, wraps and jumps. */
static void test_next_seq(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 3, 1);
	u64 written = 0;

	add_block(cb, 1, 1, 0);
	start_buffer(cb, a);
	CHECK_EQ(next_seq(cb), 0);
	for (u64 i = 0; i < 3000; i++) {
		written += write_tagged(cb, i, i % 7);
		if (i % 700 == 699)
			CHECK_EQ(lkst_buf_jump_pos(cb, cb->blocks[i % 2]), 0);
		if (i % 97 == 0)
			CHECK_EQ(next_seq(cb), written);
	}
	CHECK_EQ(written, 3000);
	CHECK_EQ(next_seq(cb), 3000);
	free_buffer(cb);
}

/* Pages come sorted by number, whatever their place. */
static void test_list_pages_sorting(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_page_ref refs[3];

	start_buffer(cb, b);
	write_full(cb, 0, 4 * PER_PAGE + 5);	/* p0 189.., p1 252.., p2 126.. */
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 3), 3);
	CHECK_EQ(refs[0].page, 2);
	CHECK_EQ(refs[0].first_seq, 2 * PER_PAGE);
	CHECK_EQ(refs[1].page, 0);
	CHECK_EQ(refs[1].first_seq, 3 * PER_PAGE);
	CHECK_EQ(refs[2].page, 1);
	CHECK_EQ(refs[2].first_seq, 4 * PER_PAGE);
	/* Too little room: the count says how many there are. */
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 1), 3);
	free_buffer(cb);
}

/* A walk from a cursor in the middle of a page, and one refused by emit. */
static int refuse_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct sink *s = ctx;

	if (seq == 40)
		return -ENOSPC;
	if (!is_tagged(rec, seq, FULL))
		s->bad_order = true;
	return count_emit(ctx, rec, seq);
}

static void test_walk_from_cursor_mid_page(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page_ref refs[2];
	struct sink s = { 0 };
	u64 next;

	start_buffer(cb, b);
	write_full(cb, 0, PER_PAGE + 10);
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 2), 2);
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 2, 30, true, tmp, refuse_emit,
			       &s, &next), -ENOSPC);
	CHECK_EQ(next, 40);
	CHECK_EQ(s.nr, 10);
	s = (struct sink){ 0 };
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 2, 41, true, tmp, refuse_emit,
			       &s, &next), 0);
	CHECK_EQ(s.nr, PER_PAGE + 10 - 41);
	CHECK_EQ(s.last, PER_PAGE + 9);
	CHECK_EQ(s.bad_order, false);
	CHECK_EQ(next, PER_PAGE + 10);
	/* A cursor past the end: nothing, and the cursor stays. */
	s = (struct sink){ 0 };
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 2, 500, true, tmp, count_emit,
			       &s, &next), 0);
	CHECK_EQ(s.nr, 0);
	CHECK_EQ(next, 500);
	/* After a wrap, from 0: the overwritten page 0..62 is skipped. */
	write_full(cb, PER_PAGE + 10, PER_PAGE);
	s = (struct sink){ 0 };
	CHECK_EQ(drain(cb, 0, &s), 2 * PER_PAGE + 10);
	CHECK_EQ(s.nr, PER_PAGE + 10);
	CHECK_EQ(s.bad_order, false);
	free_buffer(cb);
}

/* Without stop_at_hole the walk goes on past the record in flight. */
static void test_walk_past_hole_without_stop(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 2, LKST_NO_NEXT);
	struct lkst_page_ref refs[2];
	struct lkst_slot held;
	struct sink s = { 0 };
	u64 next;

	start_buffer(cb, b);
	write_full(cb, 0, 5);
	CHECK_EQ(lkst_buf_reserve(cb, LKST_BREC_SIZE(FULL, FULL), &held), true);
	write_full(cb, 6, PER_PAGE);		/* on into page 1 */
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 2), 2);
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 2, 0, true, tmp, count_emit,
			       &s, &next), 0);
	CHECK_EQ(s.nr, 5);
	CHECK_EQ(next, 5);			/* stops before the one in flight */
	s = (struct sink){ 0 };
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 2, 0, false, tmp, count_emit,
			       &s, &next), 0);
	/* page 0: 5 (the rest hide behind the hole), page 1: 6 */
	CHECK_EQ(s.nr, 5 + 6);
	CHECK_EQ(next, PER_PAGE + 6);
	lkst_buf_commit(&held, LKST_BREC_INFO(1, 2, FULL, 0x3f));
	free_buffer(cb);
}

/* A page reset after the listing is skipped; its numbers are a gap. */
static void test_walk_skips_page_reset_after_listing(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 3, LKST_NO_NEXT);
	struct lkst_page_ref refs[3];
	struct sink s = { 0 };
	u64 next;

	start_buffer(cb, b);
	write_full(cb, 0, 3 * PER_PAGE);
	CHECK_EQ(lkst_buf_list_pages(cb->blocks, -1, refs, 3), 3);
	CHECK_EQ(refs[0].first_seq, 0);
	write_full(cb, 3 * PER_PAGE, 1);	/* resets page 0 */
	CHECK_EQ(lkst_buf_walk(cb->blocks, refs, 3, 0, true, tmp, count_emit,
			       &s, &next), 0);
	CHECK_EQ(s.nr, 2 * PER_PAGE);
	CHECK_EQ(next, 3 * PER_PAGE);		/* 0..62 lost, counted as a gap */
	CHECK_EQ(s.bad_order, false);
	/* The listed numbers it did hand on start after the gap. */
	s = (struct sink){ 0 };
	lkst_buf_walk(cb->blocks, refs, 1, 0, true, tmp, count_emit, &s, &next);
	CHECK_EQ(s.nr, 0);
	CHECK_EQ(next, 0);
	free_buffer(cb);
}

/*
 * One block's records, as LKST_IOC_BLOCK_READ reads them: its pages
 * listed, walked from 0 without stopping at holes.  Each record must be
 * the one written with its number, in order.
 */
static u64 first_read;

static int tagged_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct sink *s = ctx;

	if (!is_tagged(rec, seq, FULL))
		s->bad_order = true;
	if (!s->nr)
		first_read = seq;
	return count_emit(ctx, rec, seq);
}

static u64 read_block(struct lkst_cpu_buffer *cb, u32 id, struct sink *s)
{
	struct lkst_page_ref refs[8];
	u64 nr, next;

	*s = (struct sink){ 0 };
	first_read = ~0ull;
	nr = lkst_buf_list_pages(cb->blocks, id, refs, 8);
	CHECK_EQ(lkst_buf_walk_only(cb->blocks, id, refs, nr, 0, false, tmp,
				    tagged_emit, s, &next), 0);
	return first_read;
}

/*
 * A block read walks that block's pages alone: the pages of another
 * block, numbered below or between its own, are no page reset during the
 * listing.  Taking them for one stopped the walk at the lowest of them,
 * before the block's first record.
 */
static void test_block_read_among_other_blocks(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *a = add_block(cb, 0, 2, 1);
	struct sink s;

	add_block(cb, 1, 2, LKST_NO_NEXT);
	start_buffer(cb, a);
	/* Block 0 -> block 1, three pages: a0 0.., a1 63.., b0 126.. */
	write_full(cb, 0, 3 * PER_PAGE);
	CHECK_EQ(lkst_pos_block(pos(cb)), 1);
	CHECK_EQ(read_block(cb, 1, &s), 2 * PER_PAGE);
	CHECK_EQ(s.nr, PER_PAGE);
	CHECK_EQ(s.bad_order, false);
	CHECK_EQ(read_block(cb, 0, &s), 0);
	CHECK_EQ(s.nr, 2 * PER_PAGE);
	CHECK_EQ(s.bad_order, false);
	/*
	 * A ring 0 -> 1 -> 0, lapped: a0 252.. (newest), a1 63.. (oldest),
	 * b0 126.., b1 189..: each block's records lie on both sides of the
	 * other's.
	 */
	WRITE_ONCE(cb->blocks[1]->next, 0);
	write_full(cb, 3 * PER_PAGE, 2 * PER_PAGE);
	CHECK_EQ(lkst_pos_block(pos(cb)), 0);
	CHECK_EQ(read_block(cb, 0, &s), PER_PAGE);
	CHECK_EQ(s.nr, 2 * PER_PAGE);	/* 63..125, then 252..314 */
	CHECK_EQ(s.last, 5 * PER_PAGE - 1);
	CHECK_EQ(s.bad_order, false);
	CHECK_EQ(read_block(cb, 1, &s), 2 * PER_PAGE);
	CHECK_EQ(s.nr, 2 * PER_PAGE);
	CHECK_EQ(s.bad_order, false);
	/* A drain walks every block: all of them, from 63 on. */
	s = (struct sink){ 0 };
	CHECK_EQ(drain(cb, 0, &s), 5 * PER_PAGE);
	CHECK_EQ(s.nr, 4 * PER_PAGE);
	CHECK_EQ(s.bad_order, false);
	free_buffer(cb);
}

struct unit_test {
	const char *name;
	void (*fn)(void);
};

/*
 * Readers read a page up to its first zero info word (I6): a reset must
 * leave zeros where the page's old records were, or a reader takes them
 * for new ones.  A one-page block laps onto itself: after the lap the page
 * holds one record, and every byte after it is 0.
 */
static void test_reset_zeroes_records(void)
{
	struct lkst_cpu_buffer *cb = new_buffer();
	struct lkst_block *b = add_block(cb, 0, 1, LKST_NO_NEXT);
	struct lkst_page *pg = lkst_block_page(b, 0);
	u32 used = LKST_PAGE_HEAD + LKST_BREC_SIZE(FULL, FULL), i;
	u64 first;

	start_buffer(cb, b);
	write_full(cb, 0, PER_PAGE);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), (int)PER_PAGE);
	write_full(cb, PER_PAGE, 1);
	CHECK_EQ(lkst_pos_count(pos(cb)), 1);
	CHECK_EQ(lkst_page_read(pg, tmp, &first), 1);
	CHECK_EQ(first, PER_PAGE);
	for (i = used; i < LKST_PAGE_SIZE; i++)
		if (((const u8 *)pg)[i])
			break;
	CHECK_EQ(i, LKST_PAGE_SIZE);
	free_buffer(cb);
}

/*
 * The position and info words as docs/buffer-design.md draws them:
 * each field at its place, its largest value read back whole, none
 * spilling into another.
 */
static void test_word_layouts(void)
{
	u32 max_page = LKST_BLOCK_MAX_SIZE / LKST_PAGE_SIZE - 1;
	u64 p = lkst_make_pos(LKST_MAX_BLOCKS - 1, max_page, LKST_PAGE_SIZE,
			      LKST_PAGE_MAX_RECORDS);
	u32 info;

	CHECK_EQ(lkst_make_pos(1, 2, 3, 4),
		 1ULL << 48 | 2ULL << 24 | 4ULL << 13 | 3);
	CHECK_EQ(lkst_pos_block(p), LKST_MAX_BLOCKS - 1);
	CHECK_EQ(lkst_pos_page(p), max_page);
	CHECK_EQ(lkst_pos_offset(p), LKST_PAGE_SIZE);
	CHECK_EQ(lkst_pos_count(p), LKST_PAGE_MAX_RECORDS);
	CHECK_EQ(p & (LKST_POS_SWITCHING | LKST_POS_EPOCH), 0);
	p |= LKST_POS_SWITCHING | LKST_POS_EPOCH;
	CHECK_EQ(lkst_pos_page(p), max_page);
	CHECK_EQ(lkst_pos_count(p), LKST_PAGE_MAX_RECORDS);
	/* The widest fields, all ones, stay in their bits. */
	p = lkst_make_pos(0, LKST_POS_PAGE_MASK, LKST_POS_OFFSET_MASK,
			  LKST_POS_COUNT_MASK);
	CHECK_EQ(p, 0x0000ffffff3fffffULL);

	info = LKST_BREC_INFO(LKST_NR_EVENT_IDS - 1, LKST_CTX_NMI,
			      LKST_NR_ARGS, LKST_BREC_WIDE_MASK);
	CHECK_EQ(info, 0x00ff3f9eu);
	CHECK_EQ(LKST_BREC_EVENT(info), LKST_NR_EVENT_IDS - 1);
	CHECK_EQ(LKST_BREC_CONTEXT(info), LKST_CTX_NMI);
	CHECK_EQ(LKST_BREC_NR_ARGS(info), LKST_NR_ARGS);
	CHECK_EQ(LKST_BREC_WIDE(info), 0x3f);
	CHECK_EQ(info & LKST_BREC_VALID, LKST_BREC_VALID);
	CHECK_EQ(info & LKST_BREC_NO_PID, 0);
	info = LKST_BREC_INFO(0xffff, 0, 0, 0) | LKST_BREC_NO_PID;
	CHECK_EQ(info, 0xffff00c0u);
	CHECK_EQ(LKST_BREC_EVENT(info), 0xffff);
	CHECK_EQ(LKST_BREC_NR_ARGS(info) | LKST_BREC_CONTEXT(info) |
		 LKST_BREC_WIDE(info), 0);

	CHECK_EQ(LKST_BREC_MIN_SIZE, 12);
	CHECK_EQ(LKST_BREC_MAX_SIZE, 64);
}

#define TEST(fn) { #fn, fn }

static const struct unit_test tests[] = {
	TEST(test_walk_past_overwritten_gap),
	TEST(test_walk_stops_at_record_in_flight),
	TEST(test_variable_sizes_exact_offsets),
	TEST(test_time_from_clock_anchor),
	TEST(test_trailing_zero_args),
	TEST(test_narrow_and_wide_args),
	TEST(test_wide_bit_past_args_is_refused),
	TEST(test_page_switch_numbering),
	TEST(test_wrap_one_page_block),
	TEST(test_links_different_page_counts),
	TEST(test_stop_mode),
	TEST(test_no_block_drops),
	TEST(test_nested_inside_switch_drops),
	TEST(test_lapping_writer_keeps_held_page),
	TEST(test_jump),
	TEST(test_begin_end_switch),
	TEST(test_next_seq),
	TEST(test_list_pages_sorting),
	TEST(test_walk_from_cursor_mid_page),
	TEST(test_walk_past_hole_without_stop),
	TEST(test_walk_skips_page_reset_after_listing),
	TEST(test_block_read_among_other_blocks),
	TEST(test_page_read_generation),
	TEST(test_reader_during_reset),
	TEST(test_list_pages_during_reset),
	TEST(test_reset_zeroes_records),
	TEST(test_interrupt_before_reserve),
	TEST(test_interrupt_before_claim),
	TEST(test_nmi_jump_during_claim),
	TEST(test_nmi_jump_during_claim_after_relink),
	TEST(test_nmi_jump_during_claim_after_delete),
	TEST(test_nmi_moves_on_during_claim_after_relink),
	TEST(test_block_unpublished_during_switch),
	TEST(test_jump_after_resize_replaced_target),
	TEST(test_claim_after_resize_to_same_position),
	TEST(test_switch_after_resize_to_same_page),
	TEST(test_reserve_after_resize_between_loads),
	TEST(test_pid_left_out_when_unchanged),
	TEST(test_kernel_writer_random_args),
	TEST(test_pid_decided_again_after_nested_writer),
	TEST(test_no_pid_at_page_head_is_refused),
	TEST(test_word_layouts),
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
