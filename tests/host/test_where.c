// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of --where (utils/lkst_where.c): lkm filter's expressions over
 * log records give the verdict the kernel's lkst_filter gives the same
 * event (its evaluator, handlers/lkst_filter.h, over the fields the
 * handler reads), operator by operator; tgid and cgroup are refused.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lkst_pred.h"
#include "lkst_where.h"

/* What lkst_filter_field() reads in the kernel for one event. */
struct kernel_event {
	uint64_t f[LKST_FF_NR];
};

static __u64 kernel_field(unsigned int id, const void *ctx)
{
	return ((const struct kernel_event *)ctx)->f[id];
}

static void kernel_of(struct kernel_event *k, const struct lkst_record *r,
		      unsigned int cpu, const char *comm)
{
	char name[16] = { 0 };
	int i;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < 6; i++)
		k->f[LKST_FF_ARG1 + i] = r->arg[i];
	k->f[LKST_FF_PID] = r->pid;
	k->f[LKST_FF_CPU] = cpu;
	k->f[LKST_FF_CONTEXT] = r->context;
	strncpy(name, comm, 15);
	memcpy(&k->f[LKST_FF_COMM_LO], name, 8);
	memcpy(&k->f[LKST_FF_COMM_HI], name + 8, 8);
}

/* The verdict lkst_filter gives: compiled for the event, as lkm filter does. */
static int kernel_verdict(const char *text, const struct lkst_record *r,
			  unsigned int cpu, const char *comm)
{
	struct lkst_filter_prog prog;
	struct kernel_event k;
	struct lkst_err err;
	size_t pos;

	if (lkst_pred_compile(text, r->event, &prog, &pos, &err))
		return -1;
	kernel_of(&k, r, cpu, comm);
	return lkst_filter_eval(prog.insns, prog.nr_insns, kernel_field, &k);
}

/* --where's verdict on a record of cpu whose task is named comm (escaped). */
static int where(const char *text, const struct lkst_record *r, unsigned int cpu,
		 const char *comm)
{
	struct lkst_err err;
	struct lkst_where *w = lkst_where_new(text, &err);
	int v;

	if (!w)
		return -1;
	v = lkst_where_match(w, r, cpu, comm);
	lkst_where_free(w);
	return v;
}

static struct lkst_record rec(unsigned int event, __u32 pid, unsigned int context,
			      uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.event = event;
	r.pid = pid;
	r.context = context;
	r.arg[0] = a1;
	r.arg[1] = a2;
	r.arg[2] = a3;
	return r;
}

static void test_verdicts(void)
{
	/* lseek(fd, -5, SEEK_SET) = -EBADF by pid 42 "aggw" on CPU 1. */
	struct lkst_record exitr = rec(LKST_EV_SYSCALL_EXIT, 42, LKST_CTX_TASK, 8,
				       (uint64_t)-9, 0);
	struct lkst_record entry = rec(LKST_EV_SYSCALL_ENTRY, 42, LKST_CTX_TASK, 8,
				       1234, (uint64_t)-5);
	struct lkst_record irq = rec(LKST_EV_INT_HARDWARE_ENTRY, 0, LKST_CTX_IRQ, 11,
				     0xffffffff81234567ULL, 0);

	/* Each comparison, both ways. */
	CHECK(where("arg1 == 8", &exitr, 1, "aggw") == 1);
	CHECK(where("arg1 != 8", &exitr, 1, "aggw") == 0);
	CHECK(where("arg1 < 9", &exitr, 1, "aggw") == 1);
	CHECK(where("arg1 < 8", &exitr, 1, "aggw") == 0);
	CHECK(where("arg1 <= 8", &exitr, 1, "aggw") == 1);
	CHECK(where("arg1 > 8", &exitr, 1, "aggw") == 0);
	CHECK(where("arg1 >= 8", &exitr, 1, "aggw") == 1);
	CHECK(where("arg1", &exitr, 1, "aggw") == 1);		/* != 0 */
	CHECK(where("arg1 & 0x3 == 0", &exitr, 1, "aggw") == 1);
	/* Signed where the table says so (a return value), else unsigned. */
	CHECK(where("arg2 < 0", &exitr, 1, "aggw") == 1);
	CHECK(where("arg2 > 0", &exitr, 1, "aggw") == 0);
	CHECK(where("arg3 < 0", &entry, 1, "aggw") == 0);	/* HEX: 2^64 - 5 */
	CHECK(where("arg3 > 1000", &entry, 1, "aggw") == 1);
	CHECK(where("arg3 < -1", &entry, 1, "aggw") == 1);	/* a negative number: signed */
	CHECK(where("arg2 == -9", &exitr, 1, "aggw") == 1);
	/* The task, the CPU, the context. */
	CHECK(where("pid == 42 && cpu == 1 && ctx == 0", &exitr, 1, "aggw") == 1);
	CHECK(where("cpu == 1", &exitr, 0, "aggw") == 0);
	CHECK(where("ctx == 2 && arg1 == 11", &irq, 0, NULL) == 1);
	/* Command names: exact, prefix, negated; unknown reads as "". */
	CHECK(where("comm == \"aggw\"", &exitr, 1, "aggw") == 1);
	CHECK(where("comm == \"agg\"", &exitr, 1, "aggw") == 0);
	CHECK(where("comm == \"ag*\"", &exitr, 1, "aggw") == 1);
	CHECK(where("comm != \"ag*\"", &exitr, 1, "aggw") == 0);
	CHECK(where("comm == \"kworker/u8:0-ev\"", &exitr, 1, "kworker/u8:0-ev") == 1);
	CHECK(where("comm == \"kworker/u8:1*\"", &exitr, 1, "kworker/u8:0-ev") == 0);
	CHECK(where("comm == \"aggw\"", &exitr, 1, NULL) == 0);
	CHECK(where("comm == \"\"", &exitr, 1, NULL) == 1);
	/* An escaped name stands for its bytes. */
	CHECK(where("comm == \"a\\b\"", &exitr, 1, "a\\x5cb") == 1);
	/* Precedence: && binds tighter than ||; ! and parentheses. */
	CHECK(where("arg1 == 1 || arg1 == 8 && pid == 42", &exitr, 1, "aggw") == 1);
	CHECK(where("arg1 == 8 || arg1 == 1 && pid == 7", &exitr, 1, "aggw") == 1);
	CHECK(where("(arg1 == 8 || arg1 == 1) && pid == 7", &exitr, 1, "aggw") == 0);
	CHECK(where("!(arg1 == 8) || pid == 7", &exitr, 1, "aggw") == 0);
	CHECK(where("!!(arg1 == 8)", &exitr, 1, "aggw") == 1);
}

/* Every expression on every record: the kernel's verdict, exactly. */
static void test_same_as_kernel(void)
{
	static const char *const exprs[] = {
		"arg1 == 8", "arg2 < 0", "arg2 <= -9", "arg2 >= -9 && arg2 != 0",
		"arg3 > 100", "arg3 & 0xff == 0xfb", "arg1 > -1", "pid == 42 || cpu == 0",
		"ctx != 0", "comm == \"sh\"", "comm == \"s*\" && !(arg1 < 3)",
		"arg6 == 0 && arg1 >= 0", "!(pid > 10 && comm != \"aggw\") || ctx == 2",
	};
	struct lkst_record recs[] = {
		rec(LKST_EV_SYSCALL_EXIT, 42, LKST_CTX_TASK, 8, (uint64_t)-9, 0),
		rec(LKST_EV_SYSCALL_EXIT, 7, LKST_CTX_TASK, 1, 100, 0),
		rec(LKST_EV_SYSCALL_ENTRY, 42, LKST_CTX_TASK, 8, 3, (uint64_t)-5),
		rec(LKST_EV_PROCESS_CONTEXTSWITCH, 7, LKST_CTX_TASK, 7, 42, 1),
		rec(LKST_EV_PROCESS_WAKEUP, 0, LKST_CTX_IRQ, 42, 1, (uint64_t)-1),
		rec(LKST_EV_INT_HARDWARE_EXIT, 0, LKST_CTX_IRQ, 11, 1, 0x8123),
		rec(LKST_EV_MEM_PAGE_ALLOC, 3, LKST_CTX_SOFTIRQ, 0x1000, 0, 0xfb),
	};
	static const char *const comms[] = { "aggw", "sh", "swapper/0" };
	unsigned int e, r, c, cpu;

	for (e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++)
		for (r = 0; r < sizeof(recs) / sizeof(recs[0]); r++)
			for (c = 0; c < 3; c++)
				for (cpu = 0; cpu < 2; cpu++) {
					int k = kernel_verdict(exprs[e], &recs[r], cpu, comms[c]);
					int w = where(exprs[e], &recs[r], cpu, comms[c]);

					if (k != w)
						fprintf(stderr, "'%s' on record %u, comm %s, cpu %u: kernel %d, --where %d\n",
							exprs[e], r, comms[c], cpu, k, w);
					CHECK(k >= 0 && k == w);
				}
}

static void test_refused(void)
{
	struct lkst_err err;

	CHECK(!lkst_where_new("tgid == 1", &err));
	CHECK_HAS(err.msg, "tgid is not in a log");
	CHECK(!lkst_where_new("pid == 1 || cgroup == 5", &err));
	CHECK_HAS(err.msg, "cgroup is not in a log");
	CHECK(!lkst_where_new("pid = 1", &err));
	CHECK_HAS(err.msg, "--where 'pid = 1'");
	CHECK_HAS(err.msg, "at offset 4");
	CHECK(!lkst_where_new("colour == 1", &err));
	CHECK_HAS(err.msg, "unknown field");
}

static void test_comm_bytes(void)
{
	unsigned char b[16], want[16] = { 'a', 0x01, 'b', '\\' };

	lkst_where_comm_bytes("a\\x01b\\x5c", b);
	CHECK(!memcmp(b, want, 16));
	lkst_where_comm_bytes(NULL, b);
	CHECK(!memcmp(b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16));
	/* Never more than 16 bytes, however long the text. */
	lkst_where_comm_bytes("0123456789abcdefXYZ", b);
	CHECK(!memcmp(b, "0123456789abcdef", 16));
}

int main(void)
{
	test_verdicts();
	test_same_as_kernel();
	test_refused();
	test_comm_bytes();
	return check_report();
}
