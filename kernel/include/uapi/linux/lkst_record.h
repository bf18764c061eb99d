/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst trace records: struct lkst_record, copied out by the drain and
 * block-read ioctls and stored as is in log files, and struct lkst_brec,
 * the packed form in the kernel's buffers.
 */
#ifndef _UAPI_LINUX_LKST_RECORD_H
#define _UAPI_LINUX_LKST_RECORD_H

#include <linux/types.h>
#include <linux/lkst_events.h>

/* Where the hook fired; the order is that of interrupt_context_level(). */
enum lkst_context {
	LKST_CTX_TASK,
	LKST_CTX_SOFTIRQ,
	LKST_CTX_IRQ,
	LKST_CTX_NMI,
};

/* A record as LKST_IOC_BUFFER_DRAIN copies it out, all six arguments. */
struct lkst_record {
	__u64 time_ns;		/* CLOCK_MONOTONIC, as ktime_get_mono_fast_ns() */
	__u32 pid;		/* current task's pid, 0 for idle */
	__u16 event;		/* enum lkst_event_id */
	__u8  context;		/* enum lkst_context */
	__u8  flags;		/* reserved, 0 */
	__u64 arg[LKST_NR_ARGS];
};

#define LKST_RECORD_SIZE	64

/*
 * A record as it lies in the kernel's per-CPU buffers, in 32-bit words:
 * info, the time (low word first: the CPU's counter, which readers turn
 * into CLOCK_MONOTONIC with the clock anchor in the page's head, or with
 * LKST_BREC_TIME_NS the nanoseconds themselves), the low words of the arguments up to
 * the last non-zero one (those left out read as 0), the high words of
 * those whose high word is not 0, in the same order (bit i of
 * LKST_BREC_WIDE() set for argument i), then the PID.  A record with
 * LKST_BREC_NO_PID has no PID word: its PID is that of the record before
 * it in the page, which the first one of a page always stores.  A record
 * takes 12 to 64 bytes (16 to 64 with its PID word, 12 to 60 without) and
 * is 4-byte aligned.  Records follow each other in 4 KiB pages
 * (LKST_PAGE_SIZE), after the page's head, up to an info word of 0; the
 * copies user space gets are struct lkst_record.  The words, the info
 * word's bits and the invariants the writers and readers keep are drawn in
 * docs/buffer-design.md.
 */
struct lkst_brec {
	__u32 info;
	__u32 time_lo;
	__u32 time_hi;
	__u32 word[];
};

#define LKST_PAGE_SIZE		4096u
/* With its PID word; without it, 4 bytes less. */
#define LKST_BREC_SIZE(nr_args, nr_wide) (16u + 4u * ((nr_args) + (nr_wide)))
#define LKST_BREC_MIN_SIZE	(LKST_BREC_SIZE(0, 0) - 4u)
#define LKST_BREC_MAX_SIZE	LKST_BREC_SIZE(LKST_NR_ARGS, LKST_NR_ARGS)

/*
 * The info word, from bit 0 up (see docs/buffer-design.md): the number of
 * arguments stored, the context, TIME_NS, NO_PID, VALID, the wide
 * mask (one bit per argument), two reserved bits, the event.  Reserved
 * bits are written 0.  Each field is its width and its shift; a _MASK is
 * the field's value mask, before the shift.
 */
#define LKST_BREC_NR_ARGS_BITS	3
#define LKST_BREC_NR_ARGS_SHIFT	0
#define LKST_BREC_CONTEXT_BITS	2
#define LKST_BREC_CONTEXT_SHIFT	\
	(LKST_BREC_NR_ARGS_SHIFT + LKST_BREC_NR_ARGS_BITS)
#define LKST_BREC_TIME_NS_SHIFT	5
#define LKST_BREC_NO_PID_SHIFT	6
#define LKST_BREC_VALID_SHIFT	7
#define LKST_BREC_WIDE_BITS	LKST_NR_ARGS
#define LKST_BREC_WIDE_SHIFT	(LKST_BREC_VALID_SHIFT + 1)
#define LKST_BREC_EVENT_BITS	16
#define LKST_BREC_EVENT_SHIFT	(32 - LKST_BREC_EVENT_BITS)

#define LKST_BREC_NR_ARGS_MASK	((1u << LKST_BREC_NR_ARGS_BITS) - 1)
#define LKST_BREC_CONTEXT_MASK	((1u << LKST_BREC_CONTEXT_BITS) - 1)
#define LKST_BREC_WIDE_MASK	((1u << LKST_BREC_WIDE_BITS) - 1)
#define LKST_BREC_EVENT_MASK	((1u << LKST_BREC_EVENT_BITS) - 1)

#define LKST_BREC_VALID		(1u << LKST_BREC_VALID_SHIFT)
#define LKST_BREC_NO_PID	(1u << LKST_BREC_NO_PID_SHIFT)
/* The time is nanoseconds, not a counter value to convert. */
#define LKST_BREC_TIME_NS	(1u << LKST_BREC_TIME_NS_SHIFT)
#define LKST_BREC_NR_ARGS(info)	\
	(((info) >> LKST_BREC_NR_ARGS_SHIFT) & LKST_BREC_NR_ARGS_MASK)
#define LKST_BREC_CONTEXT(info)	\
	(((info) >> LKST_BREC_CONTEXT_SHIFT) & LKST_BREC_CONTEXT_MASK)
#define LKST_BREC_WIDE(info)	\
	(((info) >> LKST_BREC_WIDE_SHIFT) & LKST_BREC_WIDE_MASK)
#define LKST_BREC_EVENT(info)	\
	(((info) >> LKST_BREC_EVENT_SHIFT) & LKST_BREC_EVENT_MASK)
#define LKST_BREC_INFO(event, context, nr_args, wide) \
	((__u32)(event) << LKST_BREC_EVENT_SHIFT | \
	 (__u32)(wide) << LKST_BREC_WIDE_SHIFT | LKST_BREC_VALID | \
	 (context) << LKST_BREC_CONTEXT_SHIFT | \
	 (nr_args) << LKST_BREC_NR_ARGS_SHIFT)

/* An argument that takes two words: its high word is not 0. */
#define LKST_ARG_IS_WIDE(arg)	(((__u64)(arg) >> 32) != 0)

/* The clock records are stamped with, named in log files. */
#define LKST_CLOCK_MONOTONIC	1

#endif /* _UAPI_LINUX_LKST_RECORD_H */
