// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the state machine (procstate.c) on crafted event sequences
 * whose intervals are known.  Times are in ms (x 1,000,000 ns).
 */
#include <stdio.h>
#include <string.h>

#include "procstate.h"
#include "unit.h"

#define MS 1000000ull

static struct ps_machine m;

static void sw(unsigned int cpu, uint64_t ms, uint32_t prev, uint32_t next,
	       uint64_t prev_state)
{
	struct ps_event ev = {
		.time_ns = ms * MS, .cpu = cpu, .cur_pid = prev,
		.type = PS_EV_SWITCH, .pid = next, .prev_pid = prev,
		.prev_state = prev_state,
	};

	snprintf(ev.comm, sizeof(ev.comm), "task%u", next);
	CHECK(ps_feed(&m, &ev) == 0, "switch at %llu ms fed", (unsigned long long)ms);
}

static void wake(unsigned int cpu, uint64_t ms, uint32_t cur, uint32_t target)
{
	struct ps_event ev = {
		.time_ns = ms * MS, .cpu = cpu, .cur_pid = cur,
		.type = PS_EV_WAKEUP, .pid = target,
	};

	CHECK(ps_feed(&m, &ev) == 0, "wakeup at %llu ms fed", (unsigned long long)ms);
}

static void finish(uint64_t ms)
{
	CHECK(ps_finish(&m, ms * MS) == 0, "finish");
}

/* Whole-trace figures of pid, in ms. */
static struct ps_stats stats_of(uint32_t pid)
{
	const struct ps_task *t = ps_find(&m, pid, 0);
	struct ps_stats st;

	memset(&st, 0, sizeof(st));
	CHECK(t != NULL, "pid %u seen", pid);
	if (t)
		ps_stats(t, 0, UINT64_MAX, &st);
	return st;
}

static void check_times(uint32_t pid, uint64_t run, uint64_t ready, uint64_t blocked,
			unsigned long switches)
{
	struct ps_stats st = stats_of(pid);
	char what[64];

	snprintf(what, sizeof(what), "pid %u running ns", pid);
	CHECK_EQ(st.time_ns[PS_RUNNING], run * MS, what);
	snprintf(what, sizeof(what), "pid %u ready ns", pid);
	CHECK_EQ(st.time_ns[PS_READY], ready * MS, what);
	snprintf(what, sizeof(what), "pid %u blocked ns", pid);
	CHECK_EQ(st.time_ns[PS_BLOCKED], blocked * MS, what);
	snprintf(what, sizeof(what), "pid %u switches in", pid);
	CHECK_EQ(st.switches_in, switches, what);
}

static void check_interval(uint32_t pid, size_t i, uint64_t start, uint64_t end,
			   enum ps_state state, unsigned int cpu)
{
	const struct ps_task *t = ps_find(&m, pid, 0);
	const struct ps_interval *iv;

	CHECK(t && i < t->nr_intervals, "pid %u has interval %zu", pid, i);
	if (!t || i >= t->nr_intervals)
		return;
	iv = &t->intervals[i];
	CHECK(iv->start_ns == start * MS && iv->end_ns == end * MS &&
	      iv->state == state && iv->cpu == cpu,
	      "pid %u interval %zu: got %llu-%llu %s cpu %d, want %llu-%llu %s cpu %d",
	      pid, i, (unsigned long long)(iv->start_ns / MS),
	      (unsigned long long)(iv->end_ns / MS), ps_state_name(iv->state),
	      (int)iv->cpu, (unsigned long long)start, (unsigned long long)end,
	      ps_state_name(state), (int)cpu);
}

static void check_nr_intervals(uint32_t pid, size_t n)
{
	const struct ps_task *t = ps_find(&m, pid, 0);

	CHECK(t && t->nr_intervals == n, "pid %u: %zu intervals, want %zu", pid,
	      t ? t->nr_intervals : 0, n);
}

/* Switched out sleeping, woken, switched in: blocked, ready, running. */
static void test_sleep_wake(void)
{
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	sw(0, 200, 10, 0, 0x1);		/* TASK_INTERRUPTIBLE */
	wake(0, 300, 0, 10);
	sw(0, 350, 0, 10, 0);
	finish(400);
	check_interval(10, 0, 100, 200, PS_RUNNING, 0);
	check_interval(10, 1, 200, 300, PS_BLOCKED, PS_NO_CPU);
	check_interval(10, 2, 300, 350, PS_READY, PS_NO_CPU);
	check_interval(10, 3, 350, 400, PS_RUNNING, 0);
	check_nr_intervals(10, 4);
	check_times(10, 150, 50, 100, 2);
	CHECK(!strcmp(ps_find(&m, 10, 0)->comm, "task10"), "comm from the switch");
	ps_free(&m);
}

/* Switched out with TASK_RUNNING: preempted, so ready, not blocked. */
static void test_preempt(void)
{
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	sw(0, 200, 10, 11, 0);
	sw(0, 260, 11, 10, 0);
	finish(300);
	check_times(10, 140, 60, 0, 2);
	check_times(11, 60, 40, 0, 1);
	check_interval(10, 1, 200, 260, PS_READY, PS_NO_CPU);
	ps_free(&m);
}

/* A wakeup of a running task (woken before it got off the CPU). */
static void test_wake_running(void)
{
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	wake(1, 150, 20, 10);
	sw(0, 200, 10, 0, 0x2);
	finish(250);
	check_interval(10, 0, 100, 200, PS_RUNNING, 0);
	check_nr_intervals(10, 2);
	check_times(10, 100, 0, 50, 1);
	/* ... and of a ready one: still one continuous wait. */
	ps_free(&m);
	ps_init(&m);
	wake(0, 100, 0, 10);
	wake(1, 120, 0, 10);
	sw(0, 150, 0, 10, 0);
	finish(160);
	check_interval(10, 0, 100, 150, PS_READY, PS_NO_CPU);
	check_nr_intervals(10, 2);
	ps_free(&m);
}

/* First event is a switch-out: nothing is known (or counted) before it. */
static void test_first_switch_out(void)
{
	ps_init(&m);
	sw(0, 500, 10, 11, 0x1);
	finish(600);
	check_interval(10, 0, 500, 600, PS_BLOCKED, PS_NO_CPU);
	check_nr_intervals(10, 1);
	check_times(10, 0, 0, 100, 0);
	check_times(11, 100, 0, 0, 1);
	ps_free(&m);
}

/* Two CPUs interleaved; pid 10 runs on CPU 0, waits, then runs on CPU 1. */
static void test_migration(void)
{
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	sw(1, 110, 0, 11, 0);
	sw(0, 150, 10, 0, 0);		/* preempted on CPU 0 */
	sw(1, 170, 11, 10, 0x1);	/* pulled to CPU 1 */
	sw(1, 220, 10, 0, 0x1);
	finish(250);
	check_interval(10, 0, 100, 150, PS_RUNNING, 0);
	check_interval(10, 1, 150, 170, PS_READY, PS_NO_CPU);
	check_interval(10, 2, 170, 220, PS_RUNNING, 1);
	check_interval(10, 3, 220, 250, PS_BLOCKED, PS_NO_CPU);
	check_times(10, 100, 20, 30, 2);
	check_times(11, 60, 0, 80, 1);
	/* Idle is one task per CPU. */
	CHECK(ps_find(&m, 0, 0) != ps_find(&m, 0, 1) && ps_find(&m, 0, 1),
	      "idle of CPU 0 and CPU 1 are separate");
	CHECK(ps_feed(&m, &(struct ps_event){ .time_ns = 100 * MS }) == -1,
	      "out-of-order event refused");
	ps_free(&m);
}

/* Longest continuous READY wait, and its start; also clipped to a window. */
static void test_longest_ready(void)
{
	const struct ps_task *t;
	struct ps_stats st;

	ps_init(&m);
	sw(0, 0, 0, 10, 0);
	sw(0, 10, 10, 11, 0);		/* 10 waits 10 ms */
	sw(0, 20, 11, 10, 0x1);
	sw(0, 30, 10, 11, 0);		/* 10 waits 40 ms from 30 */
	sw(0, 70, 11, 10, 0x1);
	sw(0, 80, 10, 0, 0x1);
	wake(0, 100, 0, 10);		/* 10 waits 25 ms from 100 */
	sw(0, 125, 0, 10, 0);
	finish(130);
	st = stats_of(10);
	CHECK_EQ(st.longest_ready_ns, 40 * MS, "longest ready");
	CHECK_EQ(st.longest_ready_start_ns, 30 * MS, "longest ready start");
	CHECK_EQ(st.time_ns[PS_READY], 75 * MS, "total ready");
	t = ps_find(&m, 10, 0);
	ps_stats(t, 55 * MS, 130 * MS, &st);	/* cuts the 40 ms wait to 15 */
	CHECK_EQ(st.longest_ready_ns, 25 * MS, "longest ready in window");
	CHECK_EQ(st.longest_ready_start_ns, 100 * MS, "its start");
	CHECK_EQ(st.switches_in, 2, "switches in inside the window");
	ps_free(&m);
}

/* Lost records and exits must not turn into invented running time. */
static void test_lost_and_exit(void)
{
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	wake(0, 130, 10, 12);		/* 10 still seen running at 130 */
	sw(0, 500, 0, 11, 0);		/* prev is idle: 10's switch-out was lost */
	sw(0, 600, 11, 0, 0x80);	/* TASK_DEAD: 11 exited */
	finish(700);
	check_interval(10, 0, 100, 130, PS_RUNNING, 0);
	check_nr_intervals(10, 1);
	check_times(11, 100, 0, 0, 1);
	check_nr_intervals(11, 1);
	/* Switched in on CPU 1 while "running" on CPU 0: the same. */
	ps_free(&m);
	ps_init(&m);
	sw(0, 100, 0, 10, 0);
	sw(1, 200, 0, 10, 0);
	finish(250);
	check_times(10, 50, 0, 0, 1);
	check_interval(10, 0, 200, 250, PS_RUNNING, 1);
	ps_free(&m);
}

int main(void)
{
	test_sleep_wake();
	test_preempt();
	test_wake_running();
	test_first_switch_out();
	test_migration();
	test_longest_ready();
	test_lost_and_exit();
	return unit_report();
}
