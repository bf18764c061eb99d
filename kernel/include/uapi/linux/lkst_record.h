/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst trace record: the fixed-size unit written into buffer blocks, copied
 * out by the LKST_IOC_BLOCK_READ ioctl and stored as is in log files.
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

/*
 * One cache line per record.  time_ns doubles as the commit word: 0 means
 * the slot never held a record, LKST_TIME_BUSY that a writer owns it, any
 * other value that the record is complete.  A reader copies a record only
 * if time_ns is the same committed value before and after the copy.
 */
struct lkst_record {
	__u64 time_ns;		/* CLOCK_MONOTONIC (ktime_get_mono_fast_ns) */
	__u32 pid;		/* current task's pid, 0 for idle */
	__u16 event;		/* enum lkst_event_id */
	__u8  context;		/* enum lkst_context */
	__u8  flags;		/* reserved, 0 */
	__u64 arg[LKST_NR_ARGS];
};

#define LKST_RECORD_SIZE	64
#define LKST_TIME_BUSY		(~(__u64)0)

/* The clock records are stamped with, named in log files. */
#define LKST_CLOCK_MONOTONIC	1

#endif /* _UAPI_LINUX_LKST_RECORD_H */
