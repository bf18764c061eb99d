// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkst_filter predicates: lkm's compiler
 * (utils/lkst_pred.c) together with the evaluator and the program
 * check the kernel handler runs (handlers/lkst_filter.h).
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lkst_pred.h"

/* The fields of one event: arguments, then the task and CPU. */
static void fields_of(uint64_t f[LKST_FF_NR], const uint64_t args[6],
		      uint64_t pid, const char *comm, uint64_t cpu)
{
	char name[16] = { 0 };
	int i;

	memset(f, 0, LKST_FF_NR * sizeof(f[0]));
	for (i = 0; i < 6; i++)
		f[LKST_FF_ARG1 + i] = args[i];
	f[LKST_FF_PID] = pid;
	f[LKST_FF_TGID] = pid;
	f[LKST_FF_CPU] = cpu;
	strncpy(name, comm, 15);
	memcpy(&f[LKST_FF_COMM_LO], name, 8);
	memcpy(&f[LKST_FF_COMM_HI], name + 8, 8);
}

static __u64 field_of(unsigned int id, const void *ctx)
{
	return ((const uint64_t *)ctx)[id];
}

/* 1 or 0 as the predicate holds, -1 when it does not compile. */
static int eval(const char *text, unsigned int event, const uint64_t *f)
{
	struct lkst_filter_prog prog;
	struct lkst_err err;
	size_t pos;

	if (lkst_pred_compile(text, event, &prog, &pos, &err))
		return -1;
	if (lkst_filter_check(prog.insns, prog.nr_insns) < 0)
		return -2;
	return lkst_filter_eval(prog.insns, prog.nr_insns, field_of, f);
}

/* Where the compiler puts the caret, or -1 when it compiles. */
static long error_at(const char *text, const char *msg_part)
{
	struct lkst_filter_prog prog;
	struct lkst_err err;
	size_t pos;

	if (!lkst_pred_compile(text, LKST_EV_SYSCALL_ENTRY, &prog, &pos, &err))
		return -1;
	CHECK_HAS(err.msg, msg_part);
	return (long)pos;
}

static void test_compare(void)
{
	const uint64_t args[6] = { 0, 3, 0x1234, (uint64_t)-2, 7, 0 };
	uint64_t f[LKST_FF_NR];
	unsigned int ev = LKST_EV_SYSCALL_ENTRY;

	fields_of(f, args, 123, "lkst_syscalls", 1);
	CHECK(eval("pid == 123", ev, f) == 1);
	CHECK(eval("pid == 124", ev, f) == 0);
	CHECK(eval("pid != 124", ev, f) == 1);
	CHECK(eval("pid == 123 && arg1 == 0", ev, f) == 1);
	CHECK(eval("pid == 123 && arg1 == 1", ev, f) == 0);
	CHECK(eval("pid == 1 || arg2 == 3", ev, f) == 1);
	CHECK(eval("!(pid == 123)", ev, f) == 0);
	CHECK(eval("!pid", ev, f) == 0);
	CHECK(eval("arg3 & 0x1000", ev, f) == 1);
	CHECK(eval("arg3 & 0x8000", ev, f) == 0);
	CHECK(eval("arg3 & 0xff == 0x34", ev, f) == 1);
	CHECK(eval("arg3 > 0x1233 && arg3 >= 0x1234 && arg3 < 0x1235 && arg3 <= 0x1234", ev, f) == 1);
	CHECK(eval("arg3 > 0x1234 || arg3 < 0x1234", ev, f) == 0);
	CHECK(eval("cpu == 1 && tgid == 123 && ctx == 0 && cgroup == 0", ev, f) == 1);
	/* arg4 of SYSCALL_ENTRY is hex: unsigned, unless the literal is negative. */
	CHECK(eval("arg4 > 0", ev, f) == 1);
	CHECK(eval("arg4 < 0", ev, f) == 0);
	CHECK(eval("arg4 == -2", ev, f) == 1);
	CHECK(eval("arg4 < -1", ev, f) == 1);
	/* Precedence: && binds tighter than ||. */
	CHECK(eval("pid == 1 && arg1 == 0 || arg2 == 3", ev, f) == 1);
	CHECK(eval("pid == 1 && (arg1 == 0 || arg2 == 3)", ev, f) == 0);
	CHECK(eval("  PID==123&&arg2==3  ", ev, f) == 1);
}

static void test_signed_args(void)
{
	/* SYSCALL_EXIT's return value is signed in the event table. */
	const uint64_t args[6] = { 2, (uint64_t)-2, 0, 0, 0, 0 };
	uint64_t f[LKST_FF_NR];

	fields_of(f, args, 5, "x", 0);
	CHECK(eval("arg2 < 0", LKST_EV_SYSCALL_EXIT, f) == 1);
	CHECK(eval("arg2 == -2", LKST_EV_SYSCALL_EXIT, f) == 1);
	CHECK(eval("arg2 >= 0", LKST_EV_SYSCALL_EXIT, f) == 0);
	/* The same bits as a hex argument compare unsigned. */
	CHECK(eval("arg2 < 0", LKST_EV_SYSCALL_ENTRY, f) == 0);
}

static void test_comm(void)
{
	const uint64_t args[6] = { 0 };
	uint64_t f[LKST_FF_NR];
	unsigned int ev = LKST_EV_SYSCALL_ENTRY;

	fields_of(f, args, 9, "lkst_syscalls", 0);
	CHECK(eval("comm == \"lkst_syscalls\"", ev, f) == 1);
	CHECK(eval("comm == \"lkst_syscall\"", ev, f) == 0);
	CHECK(eval("comm == \"lkst_syscallsX\"", ev, f) == 0);
	CHECK(eval("comm != \"lkst_syscalls\"", ev, f) == 0);
	CHECK(eval("comm == \"lkst_*\"", ev, f) == 1);
	CHECK(eval("comm == \"lkst_sysc*\"", ev, f) == 1);
	CHECK(eval("comm == \"lkst_sysd*\"", ev, f) == 0);
	CHECK(eval("comm == \"*\"", ev, f) == 1);
	CHECK(eval("comm != \"lkw-*\"", ev, f) == 1);
	fields_of(f, args, 9, "sh", 0);
	CHECK(eval("comm == \"sh\"", ev, f) == 1);
	CHECK(eval("comm == \"s\"", ev, f) == 0);
	/* 15 characters, the longest a comm has. */
	fields_of(f, args, 9, "abcdefghijklmno", 0);
	CHECK(eval("comm == \"abcdefghijklmno\"", ev, f) == 1);
}

static void test_errors(void)
{
	struct lkst_filter_prog prog;
	struct lkst_err err;
	char longexpr[400];
	size_t pos, i;

	CHECK(error_at("pid == 12x3", "expected a number") == 9);
	CHECK(error_at("pid = 3", "expected && or ||") == 4);
	CHECK(error_at("pidd == 3", "unknown field") == 0);
	CHECK(error_at("pid == 3 && ", "expected a field") == 12);
	CHECK(error_at("(pid == 3", "expected ')'") == 0);
	CHECK(error_at("pid == 3)", "expected && or ||") == 8);
	CHECK(error_at("comm < \"x\"", "only with == or !=") == 5);
	CHECK(error_at("comm == x", "quoted") == 8);
	CHECK(error_at("comm == \"abc", "closing quote") == 8);
	CHECK(error_at("comm == \"a*c\"", "trailing *") == 8);
	CHECK(error_at("comm == \"abcdefghijklmnop\"", "15 characters") == 8);
	CHECK(error_at("arg1 == 99999999999999999999", "range") == 8);
	CHECK(error_at("", "expected a field") == 0);
	/* 16 tests and 15 ANDs fit in 32 instructions, 17 and 16 do not. */
	longexpr[0] = '\0';
	for (i = 0; i < 16; i++)
		strcat(longexpr, i ? " && cpu == 1" : "cpu == 1");
	CHECK(lkst_pred_compile(longexpr, 0x30, &prog, &pos, &err) == 0 &&
	      prog.nr_insns == 31);
	strcat(longexpr, " && cpu == 1");
	CHECK(error_at(longexpr, "too long") > 0);
	memset(longexpr, ' ', sizeof(longexpr) - 1);
	longexpr[sizeof(longexpr) - 1] = '\0';
	CHECK(error_at(longexpr, "longer than 255") == 255);
}

/* The kernel's check refuses what would break the evaluator's stack. */
static void test_check(void)
{
	struct lkst_filter_insn p[LKST_FILTER_MAX_INSNS + 1];
	unsigned int i;

	memset(p, 0, sizeof(p));
	p[0].op = LKST_FOP_TEST;
	p[0].mask = ~0ULL;
	CHECK(lkst_filter_check(p, 1) == 1);
	CHECK(lkst_filter_check(p, 0) < 0);
	p[1].op = LKST_FOP_AND;
	CHECK(lkst_filter_check(p, 2) < 0);		/* underflow */
	p[1] = p[0];
	CHECK(lkst_filter_check(p, 2) < 0);		/* two results */
	p[2].op = LKST_FOP_OR;
	CHECK(lkst_filter_check(p, 3) == 2);
	p[2].value = 1;					/* junk in an operator */
	CHECK(lkst_filter_check(p, 3) < 0);
	p[2].value = 0;
	p[2].op = 9;
	CHECK(lkst_filter_check(p, 3) < 0);
	p[2].op = LKST_FOP_OR;
	p[1].field = LKST_FF_NR;
	CHECK(lkst_filter_check(p, 3) < 0);
	p[1].field = 0;
	p[1].cmp = LKST_FCMP_NR;
	CHECK(lkst_filter_check(p, 3) < 0);
	p[1].cmp = 0;
	p[1].flags = 2;
	CHECK(lkst_filter_check(p, 3) < 0);
	p[1].flags = 0;
	p[1].__pad = 1;
	CHECK(lkst_filter_check(p, 3) < 0);
	for (i = 0; i <= LKST_FILTER_MAX_INSNS; i++)
		p[i] = p[0];
	CHECK(lkst_filter_check(p, LKST_FILTER_MAX_INSNS + 1) < 0);
}

int main(void)
{
	test_compare();
	test_signed_args();
	test_comm();
	test_errors();
	test_check();
	return check_report();
}
