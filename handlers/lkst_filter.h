/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR LGPL-2.1-or-later */
/*
 * lkst_filter's control ABI and its predicate evaluator, shared by the
 * handler module, lkm (which compiles expressions into programs) and the
 * host tests.
 *
 * A predicate is a postfix program of at most LKST_FILTER_MAX_INSNS
 * instructions over one event's fields.  TEST pushes
 *   (field & mask) CMP value
 * (signed or unsigned as the instruction says); AND, OR and NOT combine the
 * top of the stack.  The kernel checks that a program can never underflow
 * or overflow its stack and leaves exactly one result, so evaluation needs
 * no checks: it runs in hook context, NMI included.
 *
 * Commands of LKST_IOC_HANDLER_CTL for the handler named "filter":
 *   LKST_FILTER_SET    struct lkst_filter_prog: install the event's
 *                      predicate (replacing any), returns 0
 *   LKST_FILTER_CLEAR  __u32 event, or LKST_FILTER_ALL: remove predicates
 *   LKST_FILTER_GET    struct lkst_filter_prog with event in, the rest out;
 *                      ENOENT when the event has none
 *   LKST_FILTER_STAT   struct lkst_filter_stat with event in
 * Without a predicate an event routed to the filter is dropped: routing
 * alone never records everything by accident.
 */
#ifndef _LKST_FILTER_H
#define _LKST_FILTER_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LKST_FILTER_MAX_INSNS	32
#define LKST_FILTER_TEXT_LEN	256
#define LKST_FILTER_ALL		0xffffffffU

enum lkst_filter_cmd {
	LKST_FILTER_SET = 1,
	LKST_FILTER_CLEAR,
	LKST_FILTER_GET,
	LKST_FILTER_STAT,
};

/* What TEST reads; COMM_LO/HI are bytes 0-7 and 8-15 of current->comm. */
enum lkst_filter_field {
	LKST_FF_ARG1,		/* ARG1..ARG6: the event's arguments */
	LKST_FF_ARG6 = LKST_FF_ARG1 + 5,
	LKST_FF_PID,		/* current's thread ID */
	LKST_FF_TGID,		/* current's process ID */
	LKST_FF_CPU,
	LKST_FF_CONTEXT,	/* enum lkst_context */
	LKST_FF_COMM_LO,
	LKST_FF_COMM_HI,
	LKST_FF_CGROUP,		/* ID of current's cgroup v2 (its inode number) */
	LKST_FF_NR,
};

enum lkst_filter_op {
	LKST_FOP_TEST = 1,
	LKST_FOP_AND,
	LKST_FOP_OR,
	LKST_FOP_NOT,
};

enum lkst_filter_cmp {
	LKST_FCMP_EQ,
	LKST_FCMP_NE,
	LKST_FCMP_LT,
	LKST_FCMP_LE,
	LKST_FCMP_GT,
	LKST_FCMP_GE,
	LKST_FCMP_NR,
};

#define LKST_FILTER_SIGNED	0x1	/* insn flags: compare as __s64 */

struct lkst_filter_insn {
	__u8 op;			/* enum lkst_filter_op */
	__u8 field;			/* TEST: enum lkst_filter_field */
	__u8 cmp;			/* TEST: enum lkst_filter_cmp */
	__u8 flags;			/* TEST: LKST_FILTER_SIGNED */
	__u32 __pad;
	__u64 mask;			/* TEST: ANDed into the field first */
	__u64 value;			/* TEST */
};

struct lkst_filter_prog {
	__u32 event;			/* event ID the predicate is for */
	__u32 target;			/* handler a matching event goes to */
	__u32 nr_insns;
	__u32 __pad;
	struct lkst_filter_insn insns[LKST_FILTER_MAX_INSNS];
	char text[LKST_FILTER_TEXT_LEN];	/* the source, for lkm filter -l */
};

struct lkst_filter_stat {
	__u32 event;			/* in */
	__u32 __pad;
	__u64 tested;			/* out: events the predicate ran on */
	__u64 passed;			/* out: of those, handed on to target */
};

/**
 * lkst_filter_check() - check a filter program
 * @insns: the program, postfix (lkst_pred_compile() makes one)
 * @n: its length, 1 to %LKST_FILTER_MAX_INSNS
 *
 * Checks what the kernel checks before it installs a program: known
 * operations, fields and comparisons, no stray bits, each operator with
 * its operands, one result left.
 *
 * Return: the stack depth the program needs, or -1 when it is not valid.
 */
static inline int lkst_filter_check(const struct lkst_filter_insn *insns,
				    __u32 n)
{
	int depth = 0, max = 0;
	__u32 i;

	if (n < 1 || n > LKST_FILTER_MAX_INSNS)
		return -1;
	for (i = 0; i < n; i++) {
		const struct lkst_filter_insn *in = &insns[i];

		if (in->__pad)
			return -1;
		switch (in->op) {
		case LKST_FOP_TEST:
			if (in->field >= LKST_FF_NR || in->cmp >= LKST_FCMP_NR ||
			    (in->flags & ~LKST_FILTER_SIGNED))
				return -1;
			depth++;
			break;
		case LKST_FOP_AND:
		case LKST_FOP_OR:
			if (in->field || in->cmp || in->flags || in->mask ||
			    in->value || depth < 2)
				return -1;
			depth--;
			break;
		case LKST_FOP_NOT:
			if (in->field || in->cmp || in->flags || in->mask ||
			    in->value || depth < 1)
				return -1;
			break;
		default:
			return -1;
		}
		if (depth > max)
			max = depth;
	}
	return depth == 1 ? max : -1;
}

/**
 * lkst_filter_test() - one test of a filter program
 * @in: an %LKST_FOP_TEST instruction
 * @field: the value of the field it tests
 *
 * Masks @field with @in->mask and compares it with @in->value, signed
 * when @in->flags has %LKST_FILTER_SIGNED.
 *
 * Return: 1 when the comparison holds, else 0.
 */
static inline int lkst_filter_test(const struct lkst_filter_insn *in,
				   __u64 field)
{
	__u64 v = field & in->mask;
	int lt, eq = v == in->value;

	if (in->flags & LKST_FILTER_SIGNED)
		lt = (__s64)v < (__s64)in->value;
	else
		lt = v < in->value;
	switch (in->cmp) {
	case LKST_FCMP_EQ:
		return eq;
	case LKST_FCMP_NE:
		return !eq;
	case LKST_FCMP_LT:
		return lt;
	case LKST_FCMP_LE:
		return lt || eq;
	case LKST_FCMP_GT:
		return !lt && !eq;
	default:
		return !lt;
	}
}

/**
 * lkst_filter_eval() - run a filter program
 * @insns: a program lkst_filter_check() accepted
 * @n: its length
 * @field: called as field(id, @ctx) to read a field of enum
 *         lkst_filter_field, only when a test needs it
 * @ctx: passed to @field
 *
 * Runs the postfix program: each test pushes its result (lkst_filter_test()
 * of the field it names), each && or || pops two and pushes one, a ! flips
 * the top.  The stack is a word of bits: at most 32 deep.  Inlined with a
 * constant @field, the handler reads only the fields its program tests.
 *
 * Return: 1 when the predicate holds, else 0.
 */
static inline int lkst_filter_eval(const struct lkst_filter_insn *insns,
				   __u32 n,
				   __u64 (*field)(unsigned int id, const void *ctx),
				   const void *ctx)
{
	__u64 stack = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		const struct lkst_filter_insn *in = &insns[i];

		switch (in->op) {
		case LKST_FOP_TEST:
			stack = stack << 1 |
				lkst_filter_test(in, field(in->field, ctx));
			break;
		case LKST_FOP_AND:
			stack = (stack >> 1) & (stack | ~1ULL);
			break;
		case LKST_FOP_OR:
			stack = (stack >> 1) | (stack & 1);
			break;
		default:
			stack ^= 1;
		}
	}
	return stack & 1;
}

#ifdef __cplusplus
}
#endif

#endif /* _LKST_FILTER_H */
