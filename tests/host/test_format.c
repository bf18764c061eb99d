// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of record formatting: state and comm decoding, CSV quoting,
 * and exact lines for every combination of -C, -r, -S and -V.
 */
#include <stdlib.h>

#include "check.h"
#include "lkst_format.h"

/* A comm as the kernel stores it: 16 bytes in two native-order args. */
static void set_comm(struct lkst_record *r, unsigned int index, const char *comm)
{
	char bytes[16] = { 0 };

	memcpy(bytes, comm, strnlen(comm, 16));
	memcpy(&r->arg[index], bytes, 8);
	memcpy(&r->arg[index + 1], bytes + 8, 8);
}

static struct lkst_record wakeup_record(void)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.time_ns = 1000000123ull;
	r.pid = 42;
	r.event = LKST_EV_PROCESS_WAKEUP;
	r.context = LKST_CTX_TASK;
	r.arg[0] = 43;
	r.arg[1] = 1;
	r.arg[2] = 1;
	r.arg[3] = 120;
	set_comm(&r, 4, "bash");
	return r;
}

static struct lkst_record exit_record(void)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.time_ns = 5;
	r.pid = 7;
	r.event = LKST_EV_SYSCALL_EXIT;
	r.context = LKST_CTX_IRQ;
	r.arg[0] = 60;
	r.arg[1] = (__u64)-2;
	return r;
}

/* Formats one record (with the CSV header when csv) into a string. */
static char *format(const struct lkst_record *r, unsigned int cpu, int csv,
		    int raw, int seconds, int verbose, int header)
{
	struct lkst_format_opts opts = { csv, raw, seconds, verbose };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (header)
		lkst_format_csv_header(mem, &opts);
	lkst_format_record(mem, r, cpu, &opts);
	fclose(mem);
	return text;
}

#define CHECK_FORMAT(rec, cpu, csv, raw, sec, verb, want)			\
	do {								\
		char *got_ = format(rec, cpu, csv, raw, sec, verb, 0);	\
		CHECK_STR(got_, want);					\
		free(got_);						\
	} while (0)

static void test_state(void)
{
	char buf[256];

	lkst_format_state(0, buf, sizeof(buf));
	CHECK_STR(buf, "TASK_RUNNING");
	lkst_format_state(1, buf, sizeof(buf));
	CHECK_STR(buf, "TASK_INTERRUPTIBLE");
	lkst_format_state(2, buf, sizeof(buf));
	CHECK_STR(buf, "TASK_UNINTERRUPTIBLE");
	lkst_format_state(0x102, buf, sizeof(buf));
	CHECK_STR(buf, "TASK_UNINTERRUPTIBLE|TASK_WAKEKILL");
	lkst_format_state(0x80 | 0x10 | 0x20, buf, sizeof(buf));
	CHECK_STR(buf, "EXIT_DEAD|EXIT_ZOMBIE|TASK_DEAD");
	lkst_format_state(0x8000 | 0x2000 | 0x1000 | 0x800 | 0x400 | 0x200 | 0x40 |
			  0x8 | 0x4, buf, sizeof(buf));
	CHECK_STR(buf, "__TASK_STOPPED|__TASK_TRACED|TASK_PARKED|TASK_WAKING|"
		  "TASK_NOLOAD|TASK_NEW|TASK_RTLOCK_WAIT|TASK_FREEZABLE|TASK_FROZEN");
	lkst_format_state(0x4000, buf, sizeof(buf));
	CHECK_STR(buf, "0x4000");
	lkst_format_state(0x10001, buf, sizeof(buf));
	CHECK_STR(buf, "TASK_INTERRUPTIBLE|0x10000");
	lkst_format_state(0x1, buf, 5);		/* truncates, stays terminated */
	CHECK_STR(buf, "TASK");
}

static void test_comm(void)
{
	struct lkst_record r;
	char buf[128];

	memset(&r, 0, sizeof(r));
	set_comm(&r, 0, "bash");
	lkst_format_comm(r.arg[0], r.arg[1], buf, sizeof(buf));
	CHECK_STR(buf, "bash");
	set_comm(&r, 0, "kworker/0:1H-kbl");	/* 16 bytes, no NUL */
	lkst_format_comm(r.arg[0], r.arg[1], buf, sizeof(buf));
	CHECK_STR(buf, "kworker/0:1H-kbl");
	set_comm(&r, 0, "a\tb\x7f\\c");
	lkst_format_comm(r.arg[0], r.arg[1], buf, sizeof(buf));
	CHECK_STR(buf, "a\\x09b\\x7f\\x5cc");
	set_comm(&r, 0, "\xff\xfe");
	lkst_format_comm(r.arg[0], r.arg[1], buf, sizeof(buf));
	CHECK_STR(buf, "\\xff\\xfe");
	lkst_format_comm(0, 0, buf, sizeof(buf));
	CHECK_STR(buf, "");
	set_comm(&r, 0, "12345678");		/* NUL exactly at the 2nd arg */
	lkst_format_comm(r.arg[0], r.arg[1], buf, sizeof(buf));
	CHECK_STR(buf, "12345678");
}

static void test_csv_quoting(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "line\nbreak", "\"line\nbreak\"" },
		{ "cr\rhere", "\"cr\rhere\"" },
		{ "\"", "\"\"\"\"" },
		{ "spaces ok", "spaces ok" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		lkst_csv_field(mem, cases[i].in);
		fclose(mem);
		CHECK_STR(text, cases[i].out);
		free(text);
	}
}

static void test_csv_records(void)
{
	struct lkst_record w = wakeup_record(), x = exit_record();
	char comm_hex[32], want[512];
	char *got;

	snprintf(comm_hex, sizeof(comm_hex), "0x%llx", (unsigned long long)w.arg[4]);

	got = format(&w, 1, 1, 0, 0, 0, 1);
	CHECK_STR(got, "time,cpu,pid,context,event,id,arg1,arg2,arg3,arg4,arg5,arg6\n"
		  "1000000123,1,42,task,PROCESS_WAKEUP,0x02,43,TASK_INTERRUPTIBLE,1,120,bash,\n");
	free(got);
	got = format(&w, 1, 1, 0, 0, 1, 1);
	CHECK_STR(got, "time,cpu,pid,context,event,id,arg1_desc,arg1,arg2_desc,arg2,"
		  "arg3_desc,arg3,arg4_desc,arg4,arg5_desc,arg5,arg6_desc,arg6\n"
		  "1000000123,1,42,task,PROCESS_WAKEUP,0x02,target pid,43,target state,"
		  "TASK_INTERRUPTIBLE,last cpu,1,target prio,120,target comm,bash,,\n");
	free(got);

	CHECK_FORMAT(&w, 1, 1, 0, 1, 0,
		     "1.000000123,1,42,task,PROCESS_WAKEUP,0x02,43,TASK_INTERRUPTIBLE,1,120,bash,\n");
	snprintf(want, sizeof(want),
		 "1000000123,1,42,task,PROCESS_WAKEUP,0x02,0x2b,0x1,0x1,0x78,%s,0x0\n", comm_hex);
	CHECK_FORMAT(&w, 1, 1, 1, 0, 0, want);
	snprintf(want, sizeof(want),
		 "1.000000123,1,42,task,PROCESS_WAKEUP,0x02,0x2b,0x1,0x1,0x78,%s,0x0\n", comm_hex);
	CHECK_FORMAT(&w, 1, 1, 1, 1, 0, want);
	snprintf(want, sizeof(want),
		 "1000000123,1,42,task,PROCESS_WAKEUP,0x02,target pid,0x2b,target state,0x1,"
		 "last cpu,0x1,target prio,0x78,target comm,%s,,0x0\n", comm_hex);
	CHECK_FORMAT(&w, 1, 1, 1, 0, 1, want);
	snprintf(want, sizeof(want),
		 "1.000000123,1,42,task,PROCESS_WAKEUP,0x02,target pid,0x2b,target state,0x1,"
		 "last cpu,0x1,target prio,0x78,target comm,%s,,0x0\n", comm_hex);
	CHECK_FORMAT(&w, 1, 1, 1, 1, 1, want);
	CHECK_FORMAT(&w, 1, 1, 0, 1, 1,
		     "1.000000123,1,42,task,PROCESS_WAKEUP,0x02,target pid,43,target state,"
		     "TASK_INTERRUPTIBLE,last cpu,1,target prio,120,target comm,bash,,\n");

	/* Signed return value, NONE arguments empty, irq context. */
	CHECK_FORMAT(&x, 0, 1, 0, 0, 0, "5,0,7,irq,SYSCALL_EXIT,0x31,60,-2,,,,\n");
	CHECK_FORMAT(&x, 0, 1, 0, 1, 0, "0.000000005,0,7,irq,SYSCALL_EXIT,0x31,60,-2,,,,\n");
	CHECK_FORMAT(&x, 0, 1, 1, 0, 0,
		     "5,0,7,irq,SYSCALL_EXIT,0x31,0x3c,0xfffffffffffffffe,,,,\n");
	CHECK_FORMAT(&x, 0, 1, 0, 0, 1,
		     "5,0,7,irq,SYSCALL_EXIT,0x31,syscall number,60,return value,-2,,,,,,,,\n");

	/* A comm that needs CSV quoting. */
	set_comm(&w, 4, "a,\"b\"");
	w.context = LKST_CTX_SOFTIRQ;
	CHECK_FORMAT(&w, 2, 1, 0, 0, 0,
		     "1000000123,2,42,softirq,PROCESS_WAKEUP,0x02,43,TASK_INTERRUPTIBLE,1,120,"
		     "\"a,\"\"b\"\"\",\n");
}

static void test_text_records(void)
{
	struct lkst_record w = wakeup_record(), x = exit_record();
	char want[512];

	CHECK_FORMAT(&w, 1, 0, 0, 0, 0,
		     "1000000123 cpu=1 pid=42 ctx=task PROCESS_WAKEUP target_pid=43 "
		     "target_state=TASK_INTERRUPTIBLE last_cpu=1 target_prio=120 "
		     "target_comm=bash\n");
	CHECK_FORMAT(&w, 1, 0, 0, 1, 0,
		     "1.000000123 cpu=1 pid=42 ctx=task PROCESS_WAKEUP target_pid=43 "
		     "target_state=TASK_INTERRUPTIBLE last_cpu=1 target_prio=120 "
		     "target_comm=bash\n");
	snprintf(want, sizeof(want),
		 "1000000123 cpu=1 pid=42 ctx=task PROCESS_WAKEUP target_pid=0x2b "
		 "target_state=0x1 last_cpu=0x1 target_prio=0x78 target_comm=0x%llx "
		 "arg6=0x0\n", (unsigned long long)w.arg[4]);
	CHECK_FORMAT(&w, 1, 0, 1, 0, 0, want);
	CHECK_FORMAT(&x, 3, 0, 0, 0, 0,
		     "5 cpu=3 pid=7 ctx=irq SYSCALL_EXIT syscall_number=60 return_value=-2\n");
	CHECK_FORMAT(&x, 3, 0, 1, 1, 0,
		     "0.000000005 cpu=3 pid=7 ctx=irq SYSCALL_EXIT syscall_number=0x3c "
		     "return_value=0xfffffffffffffffe\n");
}

static void test_unknown_event(void)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.time_ns = 2000000000ull;
	r.pid = 1;
	r.event = 0x99;
	r.context = LKST_CTX_NMI;
	r.arg[0] = 0xdead;
	r.arg[5] = 1;
	CHECK_FORMAT(&r, 0, 1, 0, 0, 0,
		     "2000000000,0,1,nmi,UNKNOWN_0x99,0x99,0xdead,0x0,0x0,0x0,0x0,0x1\n");
	CHECK_FORMAT(&r, 0, 1, 0, 1, 1,
		     "2.000000000,0,1,nmi,UNKNOWN_0x99,0x99,,0xdead,,0x0,,0x0,,0x0,,0x0,,0x1\n");
	CHECK_FORMAT(&r, 0, 0, 0, 0, 0,
		     "2000000000 cpu=0 pid=1 ctx=nmi UNKNOWN_0x99 arg1=0xdead arg2=0x0 "
		     "arg3=0x0 arg4=0x0 arg5=0x0 arg6=0x1\n");
	CHECK_STR(lkst_context_name(0), "task");
	CHECK_STR(lkst_context_name(3), "nmi");
}

int main(void)
{
	test_state();
	test_comm();
	test_csv_quoting();
	test_csv_records();
	test_text_records();
	test_unknown_event();
	return check_report();
}
