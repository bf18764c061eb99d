/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst_stack's control ABI, shared by the handler module, lkm (lkm stack)
 * and the tests.
 *
 * The handler named "stack" records each event routed to it, followed by
 * its kernel stack in STACK_KERNEL records and, when asked for and safe to
 * take, its user stack in STACK_USER records (five frames a record; arg1
 * is LKST_STACK_POS(event, first frame, frames), see lkst_events.h).
 *
 * Commands of LKST_IOC_HANDLER_CTL (data and size: the structure named,
 * size exactly its size):
 *   LKST_STACK_SET  struct lkst_stack_config: depth 1..LKST_STACK_MAX_DEPTH,
 *                   flags LKST_STACK_F_*; takes effect for the next event
 *   LKST_STACK_GET  struct lkst_stack_config: the current configuration
 *   LKST_STACK_STAT struct lkst_stack_stat: counters since the load
 * Unknown commands or flags, a depth out of range, a wrong size and
 * non-zero padding are EINVAL.
 */
#ifndef _LKST_STACK_H
#define _LKST_STACK_H

#include <linux/types.h>

#define LKST_STACK_MAX_DEPTH		64	/* frames of each stack */
#define LKST_STACK_DEFAULT_DEPTH	16

enum lkst_stack_cmd {
	LKST_STACK_SET = 1,
	LKST_STACK_GET,
	LKST_STACK_STAT,
};

#define LKST_STACK_F_USER	0x1	/* also take the user stack */
#define LKST_STACK_F_ALL	LKST_STACK_F_USER

struct lkst_stack_config {
	__u32 depth;			/* frames, kernel and user each */
	__u32 flags;			/* LKST_STACK_F_* */
};

struct lkst_stack_stat {
	__u64 events;			/* events recorded by the handler */
	__u64 kernel_stacks;		/* kernel stacks recorded */
	__u64 user_stacks;		/* user stacks recorded */
	__u64 user_skipped;		/* asked for, but not safe to take */
};

#endif /* _LKST_STACK_H */
