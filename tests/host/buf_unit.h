/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What test_buf_unit.c and test_buf_unit_hooked.c share: the check that
 * counts a test's failures, the drain and the tagged records the tests
 * write and read back.  One program: test_buf_unit.c runs them all.
 */
#ifndef LKST_BUF_UNIT_H
#define LKST_BUF_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "buf_fixture.h"

/* A reader's load hook (LKST_HOST_READ_HOOK), set by the hooked tests. */
extern void (*lkst_host_read_hook)(const void *addr);

/* A copy of a page's records, for the walks and reads. */
extern struct lkst_record tmp[LKST_PAGE_MAX_RECORDS];

extern int failures_in_test;

#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	if (_a != _b) {							\
		fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
			__FILE__, __LINE__, #a, _a, #b, _b);		\
		failures_in_test++;					\
	}								\
} while (0)

/* Counts what a walk hands on; checks the numbers come in order. */
struct sink {
	u64 nr, last;
	bool bad_order;
};

static inline int count_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct sink *s = ctx;

	(void)rec;
	if (s->nr && seq <= s->last)
		s->bad_order = true;
	s->last = seq;
	s->nr++;
	return 0;
}

/* One drain as LKST_IOC_BUFFER_DRAIN makes it: list, walk, stop at holes. */
static inline u64 drain(struct lkst_cpu_buffer *cb, u64 cursor, struct sink *s)
{
	struct lkst_page_ref refs[64];
	u64 nr, next;

	nr = lkst_buf_list_pages(cb->blocks, -1, refs, 64);
	lkst_buf_walk(cb->blocks, refs, nr, cursor, true, tmp, count_emit, s,
		      &next);
	return next;
}

static inline void write_n(struct lkst_cpu_buffer *cb, u32 n, u32 nr_args)
{
	struct lkst_record rec = { .time_ns = 1, .pid = 1, .event = 1 };

	while (n--)
		lkst_buf_write(cb, &rec, nr_args);
}

/* Records of six wide arguments, and of none, each with its PID word. */
#define FULL		LKST_NR_ARGS
#define PER_PAGE	((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / LKST_BREC_SIZE(FULL, FULL))
#define PER_PAGE_MIN	((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / LKST_BREC_SIZE(0, 0))
/*
 * 64-byte records (six arguments): 63 fill a page's 4032 bytes of records
 * and leave TAIL (0); FIT_FULL(used): how many fit after @used bytes of
 * others, LEFT_AFTER(used) what they leave.  The tests hold for any head.
 */
#define TAIL		LEFT_AFTER(0)
#define FIT_FULL(used)	((LKST_PAGE_SIZE - LKST_PAGE_HEAD - (used)) / \
			 LKST_BREC_SIZE(FULL, FULL))
#define LEFT_AFTER(used) ((LKST_PAGE_SIZE - LKST_PAGE_HEAD - (used)) % \
			  LKST_BREC_SIZE(FULL, FULL))

static inline u64 dropped(struct lkst_cpu_buffer *cb)
{
	return local64_read(&cb->dropped);
}

static inline u64 overwritten(struct lkst_cpu_buffer *cb)
{
	return local64_read(&cb->overwritten);
}

static inline u64 next_seq(struct lkst_cpu_buffer *cb)
{
	return lkst_buf_next_seq(cb, cb->blocks);
}

static inline u64 pos(struct lkst_cpu_buffer *cb)
{
	return local64_read(&cb->pos);
}

/*
 * Write a record tagged @tag with @nr_args of its six arguments, all six
 * set (the ones past nr_args must read as 0).  False if it was dropped.
 */
/*
 * The arguments of a tagged record: 100 + tag, then 7 + their index, all
 * wide (two words each), so that a record of n arguments takes 16 + 8n
 * bytes and FULL ones 64.
 */
#define TAGGED_WIDE		(1ull << 40)
#define TAGGED_ARG(i, tag)	(TAGGED_WIDE + ((i) ? 7 + (i) : 100 + (tag)))

static inline bool write_tagged(struct lkst_cpu_buffer *cb, u64 tag, u32 nr_args)
{
	struct lkst_record rec = { .pid = 42, .event = 1, .context = 2 };
	u64 before = dropped(cb);

	rec.time_ns = 1000 + tag;
	for (u32 i = 0; i < LKST_NR_ARGS; i++)
		rec.arg[i] = TAGGED_ARG(i, tag);
	lkst_buf_write(cb, &rec, nr_args);
	return dropped(cb) == before;
}

static inline void write_full(struct lkst_cpu_buffer *cb, u64 from, u64 n)
{
	for (u64 tag = from; tag < from + n; tag++)
		CHECK_EQ(write_tagged(cb, tag, FULL), true);
}

/*
 * PER_PAGE records from @from into an empty page, the last of two wide
 * arguments (32 bytes): the page keeps 32 + TAIL bytes, room for small
 * records.
 */
static inline void write_page_leaving_32(struct lkst_cpu_buffer *cb, u64 from)
{
	write_full(cb, from, PER_PAGE - 1);
	CHECK_EQ(write_tagged(cb, from + PER_PAGE - 1, 2), true);
}

/* @rec is the one write_tagged(tag, nr_args) wrote. */
static inline bool is_tagged(const struct lkst_record *rec, u64 tag, u32 nr_args)
{
	if (rec->time_ns != 1000 + tag || rec->pid != 42 || rec->event != 1 ||
	    rec->context != 2 || rec->flags)
		return false;
	for (u32 i = 0; i < LKST_NR_ARGS; i++)
		if (rec->arg[i] != (i >= nr_args ? 0 : TAGGED_ARG(i, tag)))
			return false;
	return true;
}

/* The tests of test_buf_unit_hooked.c. */
void test_page_read_generation(void);
void test_reader_during_reset(void);
void test_list_pages_during_reset(void);
void test_interrupt_before_reserve(void);
void test_interrupt_before_claim(void);
void test_nmi_jump_during_claim(void);
void test_nmi_jump_during_claim_after_relink(void);
void test_nmi_jump_during_claim_after_delete(void);
void test_nmi_moves_on_during_claim_after_relink(void);
void test_block_unpublished_during_switch(void);
void test_jump_after_resize_replaced_target(void);
void test_claim_after_resize_to_same_position(void);
void test_switch_after_resize_to_same_page(void);
void test_reserve_after_resize_between_loads(void);
void test_pid_left_out_when_unchanged(void);
void test_pid_decided_again_after_nested_writer(void);
void test_no_pid_at_page_head_is_refused(void);

#endif /* LKST_BUF_UNIT_H */
