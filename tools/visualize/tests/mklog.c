// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a small, realistic two-CPU lkst log with the utils' log writer,
 * for the render tests.  The answers run_tests.sh expects are in the
 * comments; CPU 1's section is written first, as lkbuf may do
 * (write_two_cpus()).
 */
#include "mklogutil.h"

static struct lkst_record wk(unsigned long long t, unsigned int cur,
			     unsigned int target, const char *comm)
{
	struct lkst_record r = { .time_ns = t, .pid = cur, .context = 2,
				 .event = LKST_EV_PROCESS_WAKEUP };

	r.arg[0] = target;
	r.arg[1] = 0x1;
	r.arg[3] = 120;
	set_comm(&r, comm);
	return r;
}

/*
 * t-writer 100: run 0-20, ready 20-50, run 50-60, blocked 60-70, ready 70-80,
 *   run on CPU 1 80-100, exits: 50 run, 40 ready, 10 blocked, 3 in, max 30 @20
 * t-reader 101: first seen woken at 10: ready 10-30, run 30-40, blocked
 *   40-100: 10 run, 20 ready, 60 blocked, 1 in, max 20 @10
 * t-spin 102: run 20-50, ready 50-61, run 61-100: 69, 11, 0, 2 in, max 11 @50
 * other 103: run 5-30, blocked 30-100 (not selected by -c t-)
 */
int main(int argc, char **argv)
{
	struct lkst_record cpu0[] = {
		sw(T(0), 0, 100, 0, "t-writer"),
		wk(T(10), 100, 101, "t-reader"),
		sw(T(20), 100, 102, 0, "t-spin"),
		sw(T(50), 102, 100, 0, "t-writer"),
		sw(T(60), 100, 0, 0x1, "swapper/0"),
		sw(T(61), 0, 102, 0, "t-spin"),
		{ .time_ns = T(90), .pid = 102, .event = LKST_EV_SYSCALL_ENTRY },
	};
	struct lkst_record cpu1[] = {
		sw(T(5), 0, 103, 0, "other"),
		sw(T(30), 103, 101, 0x1, "t-reader"),
		sw(T(40), 101, 0, 0x1, "swapper/1"),
		wk(T(70), 0, 100, "t-writer"),
		sw(T(80), 0, 100, 0, "t-writer"),
		sw(T(100), 100, 0, 0x80, "swapper/1"),
	};

	return write_two_cpus("mklog", argc, argv, cpu0, NR(cpu0), cpu1, NR(cpu1));
}
