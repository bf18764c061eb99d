// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkbuf report's tables (utils/lkst_report.c) on records
 * with known answers: the counts, and the latency pairs handlers/lkst_agg_hook.c
 * makes (a task's entry to its next exit, exit and exit_group starting
 * nothing, rt_sigreturn's -1, mismatched exits dropped; wakeup to
 * switch-in keyed by the task switched in, self-wakeups and runnable
 * switch-outs; an IRQ handler's entry to its exit on one CPU and context)
 * in lkst_agg_bucket()'s buckets.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lkst_report.h"

static struct lkst_report r;
static struct lkst_err err;

static void add(unsigned int event, __u32 pid, unsigned int cpu, unsigned int ctx,
		__u64 t, __u64 a1, __u64 a2, __u64 a3, const char *comm)
{
	struct lkst_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.event = event;
	rec.pid = pid;
	rec.context = ctx;
	rec.time_ns = t;
	rec.arg[0] = a1;
	rec.arg[1] = a2;
	rec.arg[2] = a3;
	if (event == LKST_EV_PROCESS_CONTEXTSWITCH)
		memcpy(&rec.arg[4], "rsleep\0\0\0\0\0\0\0\0\0\0", 16);
	CHECK(!lkst_report_add(&r, &rec, cpu, comm, &err));
}

/* The entry of @section with key words k0, k1, or NULL. */
static const struct lkst_agg_entry *entry(unsigned int section, __u64 k0, __u64 k1,
					  const __u64 **buckets)
{
	const struct lkst_report_table *t = &r.table[section];
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		if (t->entries[i].key[0] != k0 || t->entries[i].key[1] != k1)
			continue;
		if (buckets)
			*buckets = t->buckets ? &t->buckets[(size_t)i * LKST_AGG_NR_BUCKETS] : NULL;
		return &t->entries[i];
	}
	return NULL;
}

static unsigned long long count(unsigned int section, __u64 k0, __u64 k1)
{
	const struct lkst_agg_entry *e = entry(section, k0, k1, NULL);

	return e ? e->count : 0;
}

/* A latency table's one sample of key k0: whether it is v, in v's bucket. */
static int one_sample(unsigned int section, __u64 k0, __s64 v)
{
	const __u64 *b = NULL;
	const struct lkst_agg_entry *e = entry(section, k0, 0, &b);
	unsigned long long n = 0;
	unsigned int i;

	if (!e || !b)
		return 0;
	for (i = 0; i < LKST_AGG_NR_BUCKETS; i++)
		n += b[i];
	return e->count == 1 && e->sum == v && e->min == v && e->max == v &&
	       b[lkst_agg_bucket(v)] == 1 && n == 1;
}

#define NR(n)		LKST_SYSCALL_NR_ABI(n, LKST_SYSCALL_ABI_NATIVE)

static void test_syscalls(void)
{
	CHECK(!lkst_report_init(&r, LKST_REPORT_ALL, &err));
	/* pid 10: read took 100 ns, then exit_group (no start, no exit). */
	add(LKST_EV_SYSCALL_ENTRY, 10, 0, 0, 1000, NR(0), 3, 0, "cat");
	add(LKST_EV_SYSCALL_EXIT, 10, 0, 0, 1100, NR(0), 5, 0, "cat");
	add(LKST_EV_SYSCALL_ENTRY, 10, 0, 0, 1200, NR(231), 0, 0, "cat");
	/* pid 11: an exit without entry, an exit of another call. */
	add(LKST_EV_SYSCALL_EXIT, 11, 1, 0, 2000, NR(1), 1, 0, "sh");
	add(LKST_EV_SYSCALL_ENTRY, 11, 1, 0, 3000, NR(1), 1, 0, "sh");
	add(LKST_EV_SYSCALL_EXIT, 11, 1, 0, 3050, NR(2), 1, 0, "sh");
	/* pid 12: rt_sigreturn's exit says -1; lseek fails twice, EBADF. */
	add(LKST_EV_SYSCALL_ENTRY, 12, 1, 0, 4000, NR(15), 0, 0, "w");
	add(LKST_EV_SYSCALL_EXIT, 12, 1, 0, 4003, NR(-1), 0, 0, "w");
	add(LKST_EV_SYSCALL_ENTRY, 12, 1, 0, 5000, NR(8), 0, 0, "w");
	add(LKST_EV_SYSCALL_ENTRY, 12, 1, 0, 5010, NR(8), 0, 0, "w");	/* evicts */
	add(LKST_EV_SYSCALL_EXIT, 12, 1, 0, 6034, NR(8), (__u64)-9, 0, "w");
	add(LKST_EV_SYSCALL_ENTRY, 12, 1, 0, 7000, NR(8), 0, 0, "w");
	add(LKST_EV_SYSCALL_EXIT, 12, 1, 0, 7001, NR(8), (__u64)-9, 0, "w");

	CHECK(r.records == 13);
	CHECK(count(LKST_REPORT_EVENTS, LKST_EV_SYSCALL_ENTRY, 0) == 7);
	CHECK(count(LKST_REPORT_EVENTS, LKST_EV_SYSCALL_EXIT, 0) == 6);
	CHECK(count(LKST_REPORT_CPUS, 0, 0) == 3 && count(LKST_REPORT_CPUS, 1, 0) == 10);
	CHECK(count(LKST_REPORT_SYSCALLS, NR(8), 0) == 3);
	CHECK(count(LKST_REPORT_SYSCALLS, NR(231), 0) == 1);
	CHECK(count(LKST_REPORT_TASK_SYSCALLS, 12, NR(8)) == 3);
	CHECK(count(LKST_REPORT_TASK_SYSCALLS, 10, NR(8)) == 0);
	/* tasks: pid and the 16 bytes of its name. */
	CHECK(count(LKST_REPORT_TASKS, 10, 0x746163) == 3);		/* "cat" */
	CHECK(count(LKST_REPORT_ERRORS, NR(8), (__u64)-9) == 2);
	CHECK(r.table[LKST_REPORT_ERRORS].n == 1);
	/* Latencies: 100 ns for pid 10; 3 for rt_sigreturn and 1024 + 1 for pid 12. */
	CHECK(one_sample(LKST_REPORT_SYSCALL_LAT, 10, 100));
	CHECK(count(LKST_REPORT_SYSCALL_LAT, 12, 0) == 3);
	CHECK(!entry(LKST_REPORT_SYSCALL_LAT, 11, 0, NULL));
	CHECK(r.lost[0].unmatched == 1 && r.lost[0].mismatch == 1 && r.lost[0].evicted == 1);
	{
		const __u64 *b = NULL;
		const struct lkst_agg_entry *e = entry(LKST_REPORT_SYSCALL_LAT, 12, 0, &b);

		CHECK(e && e->sum == 3 + 1024 + 1 && e->min == 1 && e->max == 1024);
		CHECK(b && b[lkst_agg_bucket(3)] == 1 && b[lkst_agg_bucket(1024)] == 1 &&
		      b[lkst_agg_bucket(1)] == 1);
		CHECK(lkst_agg_bucket(1024) == LKST_AGG_BUCKET_ZERO + 11);
	}
	lkst_report_free(&r);
}

static void test_sched_irq(void)
{
	CHECK(!lkst_report_init(&r, LKST_REPORT_ALL, &err));
	/* 20 woken by 10 at 5000, switched in at 5500: 500 ns, keyed 20. */
	add(LKST_EV_PROCESS_WAKEUP, 10, 0, 0, 5000, 20, 1, 0, NULL);
	add(LKST_EV_PROCESS_CONTEXTSWITCH, 10, 1, 0, 5500, 10, 20, 1, NULL);
	/* A self-wakeup starts nothing; 30 switched out runnable loses its start. */
	add(LKST_EV_PROCESS_WAKEUP, 21, 0, 0, 6000, 21, 1, 0, NULL);
	add(LKST_EV_PROCESS_CONTEXTSWITCH, 30, 0, 0, 6100, 30, 21, 0, NULL);
	add(LKST_EV_PROCESS_WAKEUP_NEW, 21, 0, 0, 6200, 30, 0, 0, NULL);
	add(LKST_EV_PROCESS_CONTEXTSWITCH, 30, 0, 0, 6300, 30, 0, 0, NULL);
	add(LKST_EV_PROCESS_CONTEXTSWITCH, 0, 0, 0, 6400, 0, 30, 0, NULL);
	/* IRQ 11 on CPU 1, an exit of another handler, then its own: 7 ns. */
	add(LKST_EV_INT_HARDWARE_ENTRY, 0, 1, LKST_CTX_IRQ, 8000, 11, 0xabc, 0, NULL);
	add(LKST_EV_INT_HARDWARE_EXIT, 0, 1, LKST_CTX_IRQ, 8004, 11, 1, 0xdef, NULL);
	add(LKST_EV_INT_HARDWARE_EXIT, 0, 0, LKST_CTX_IRQ, 8005, 11, 1, 0xabc, NULL);
	add(LKST_EV_INT_HARDWARE_EXIT, 0, 1, LKST_CTX_IRQ, 8007, 11, 1, 0xabc, NULL);

	CHECK(one_sample(LKST_REPORT_SCHED_LAT, 20, 500));
	CHECK(!entry(LKST_REPORT_SCHED_LAT, 21, 0, NULL));
	CHECK(!entry(LKST_REPORT_SCHED_LAT, 30, 0, NULL));
	CHECK(r.table[LKST_REPORT_SCHED_LAT].n == 1);
	CHECK(one_sample(LKST_REPORT_IRQ_LAT, 11, 7));
	CHECK(r.lost[2].unmatched == 2);
	lkst_report_free(&r);

	/* Only the sections asked for. */
	CHECK(!lkst_report_init(&r, 1u << LKST_REPORT_CPUS, &err));
	add(LKST_EV_PROCESS_WAKEUP, 10, 0, 0, 5000, 20, 1, 0, NULL);
	add(LKST_EV_PROCESS_CONTEXTSWITCH, 10, 1, 0, 5500, 10, 20, 1, NULL);
	CHECK(r.table[LKST_REPORT_CPUS].n == 2 && !r.table[LKST_REPORT_EVENTS].n &&
	      !r.table[LKST_REPORT_SCHED_LAT].n);
	lkst_report_free(&r);
}

/* Thousands of keys: the table's index grows and finds every one. */
static void test_many_keys(void)
{
	unsigned int pid, ok = 1;

	CHECK(!lkst_report_init(&r, LKST_REPORT_ALL, &err));
	for (pid = 1; pid <= 5000; pid++) {
		add(LKST_EV_SYSCALL_ENTRY, pid, pid % 4, 0, pid * 10, NR(0), 0, 0, NULL);
		add(LKST_EV_SYSCALL_ENTRY, pid, pid % 4, 0, pid * 10, NR(pid % 7), 0, 0, NULL);
	}
	for (pid = 5000; pid >= 1; pid--)
		add(LKST_EV_SYSCALL_EXIT, pid, pid % 4, 0, 100000 + pid, NR(pid % 7), 0, 0, NULL);
	for (pid = 1; pid <= 5000; pid++)
		ok &= count(LKST_REPORT_SYSCALL_LAT, pid, 0) == 1 &&
		      count(LKST_REPORT_TASK_SYSCALLS, pid, NR(0)) == 1 + (pid % 7 == 0);
	CHECK(ok);
	CHECK(r.table[LKST_REPORT_TASKS].n == 5000 && r.lost[0].evicted == 5000);
	lkst_report_free(&r);
}

static void test_sections(void)
{
	unsigned int s;

	CHECK(!lkst_report_parse_sections("syscalls,errors", &s, &err));
	CHECK(s == (1u << LKST_REPORT_SYSCALLS | 1u << LKST_REPORT_ERRORS));
	CHECK(!lkst_report_parse_sections("all", &s, &err) && s == LKST_REPORT_ALL);
	CHECK(lkst_report_parse_sections("events,bogus", &s, &err));
	CHECK_HAS(err.msg, "unknown section 'bogus'");
	CHECK(lkst_report_parse_sections("events,", &s, &err));
	CHECK_HAS(err.msg, "unknown section ''");
	for (s = 0; s < LKST_REPORT_NR; s++)
		CHECK(strlen(lkst_report_section_name(s)) < LKST_AGG_NAME_LEN);
	CHECK_STR(lkst_report_section_name(LKST_REPORT_SYSCALL_LAT), "syscall_lat");
}

int main(void)
{
	test_syscalls();
	test_sched_irq();
	test_many_keys();
	test_sections();
	return check_report();
}
