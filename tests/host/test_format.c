// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of record formatting: state and comm decoding, CSV quoting,
 * and exact lines for every combination of -C, -r, -S and -V.
 */
#include <stdlib.h>
#include <time.h>

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
	struct lkst_format_opts opts = { .csv = csv, .raw = raw, .seconds = seconds, .verbose = verbose };
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

	/* The ABI in the high half of the number: i386 getpid, and -1. */
	x.arg[0] = LKST_SYSCALL_NR_ABI(20, LKST_SYSCALL_ABI_IA32);
	CHECK_FORMAT(&x, 0, 1, 0, 0, 0, "5,0,7,irq,SYSCALL_EXIT,0x31,ia32:20,-2,,,,\n");
	CHECK_FORMAT(&x, 0, 1, 1, 0, 0,
		     "5,0,7,irq,SYSCALL_EXIT,0x31,0x100000014,0xfffffffffffffffe,,,,\n");
	x.arg[0] = LKST_SYSCALL_NR_ABI(-1, LKST_SYSCALL_ABI_NATIVE);
	CHECK_FORMAT(&x, 0, 1, 0, 0, 0, "5,0,7,irq,SYSCALL_EXIT,0x31,-1,-2,,,,\n");
	x.arg[0] = 60;

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
		     "5 cpu=3 pid=7 ctx=irq !SYSCALL_EXIT syscall_number=exit return_value=-2(ENOENT)\n");
	CHECK_FORMAT(&x, 3, 0, 1, 1, 0,
		     "0.000000005 cpu=3 pid=7 ctx=irq !SYSCALL_EXIT syscall_number=0x3c "
		     "return_value=0xfffffffffffffffe\n");
}

/*
 * Errors stand out in the text: a negative return value with its errno
 * name, a '!' on the mnemonic of SYSCALL_ERROR, EXCEPTION_FAULT_SIGNAL
 * and a failed SYSCALL_EXIT; CSV stays numbers.
 */
static void test_error_marks(void)
{
	struct lkst_record x = exit_record(), e, f;

	CHECK_STR(lkst_errno_name(-1), "EPERM");
	CHECK_STR(lkst_errno_name(-14), "EFAULT");
	CHECK_STR(lkst_errno_name(-133), "EHWPOISON");
	CHECK_STR(lkst_errno_name(-512), "ERESTARTSYS");
	CHECK_STR(lkst_errno_name(-516), "ERESTART_RESTARTBLOCK");
	CHECK(lkst_errno_name(0) == NULL);
	CHECK(lkst_errno_name(2) == NULL);
	CHECK(lkst_errno_name(-4000) == NULL);
	CHECK(lkst_errno_name(-4096) == NULL);

	/* Exits: errno range only, number -1 (rt_sigreturn) never marked. */
	x.arg[1] = (__u64)-516;
	CHECK_FORMAT(&x, 0, 0, 0, 0, 0, "5 cpu=0 pid=7 ctx=irq !SYSCALL_EXIT syscall_number=exit "
		     "return_value=-516(ERESTART_RESTARTBLOCK)\n");
	x.arg[1] = (__u64)-4096;
	CHECK_FORMAT(&x, 0, 0, 0, 0, 0,
		     "5 cpu=0 pid=7 ctx=irq SYSCALL_EXIT syscall_number=exit return_value=-4096\n");
	x.arg[1] = 0;
	CHECK_FORMAT(&x, 0, 0, 0, 0, 0,
		     "5 cpu=0 pid=7 ctx=irq SYSCALL_EXIT syscall_number=exit return_value=0\n");
	x.arg[0] = LKST_SYSCALL_NR_ABI(-1, LKST_SYSCALL_ABI_NATIVE);
	x.arg[1] = (__u64)-4;
	CHECK_FORMAT(&x, 0, 0, 0, 0, 0,
		     "5 cpu=0 pid=7 ctx=irq SYSCALL_EXIT syscall_number=-1 return_value=-4(EINTR)\n");
	x.arg[0] = LKST_SYSCALL_NR_ABI(3, LKST_SYSCALL_ABI_IA32);
	x.arg[1] = (__u64)-9;
	CHECK_FORMAT(&x, 0, 0, 0, 0, 0, "5 cpu=0 pid=7 ctx=irq !SYSCALL_EXIT "
		     "syscall_number=ia32:read return_value=-9(EBADF)\n");
	CHECK_FORMAT(&x, 0, 1, 0, 0, 0, "5,0,7,irq,SYSCALL_EXIT,0x31,ia32:3,-9,,,,\n");
	CHECK_FORMAT(&x, 0, 0, 1, 0, 0, "5 cpu=0 pid=7 ctx=irq !SYSCALL_EXIT "
		     "syscall_number=0x100000003 return_value=0xfffffffffffffff7\n");

	/* What lkst_errpath writes. */
	memset(&e, 0, sizeof(e));
	e.time_ns = 2000000000ull;
	e.pid = 99;
	e.event = LKST_EV_SYSCALL_ERROR;
	e.arg[0] = 2;
	e.arg[1] = (__u64)-2;
	e.arg[2] = 12345;
	e.arg[3] = 0x47c06a;
	CHECK_FORMAT(&e, 1, 0, 0, 1, 0, "2.000000000 cpu=1 pid=99 ctx=task !SYSCALL_ERROR "
		     "syscall_number=open return_value=-2(ENOENT) duration_ns=12345 arg0=0x47c06a "
		     "arg1=0x0(O_RDONLY) arg2=0x0\n");
	CHECK_FORMAT(&e, 1, 1, 0, 1, 0,
		     "2.000000000,1,99,task,SYSCALL_ERROR,0x33,2,-2,12345,0x47c06a,0x0,0x0\n");
	e.arg[2] = ~0ull;		/* duration unknown */
	CHECK_FORMAT(&e, 1, 1, 0, 0, 1, "2000000000,1,99,task,SYSCALL_ERROR,0x33,"
		     "syscall number,2,return value,-2,duration ns,18446744073709551615,"
		     "arg0,0x47c06a,arg1,0x0,arg2,0x0\n");
	memset(&f, 0, sizeof(f));
	f.time_ns = 3;
	f.pid = 100;
	f.event = LKST_EV_EXCEPTION_FAULT_SIGNAL;
	f.arg[0] = 0x7f0000001123ull;
	f.arg[1] = 4;
	f.arg[2] = 0x401b10;
	f.arg[3] = 11;
	f.arg[4] = 1;
	CHECK_FORMAT(&f, 0, 0, 0, 0, 0, "3 cpu=0 pid=100 ctx=task !EXCEPTION_FAULT_SIGNAL "
		     "address=0x7f0000001123 error_code=0x4 ip=0x401b10 signal=11 si_code=1\n");
	CHECK_FORMAT(&f, 0, 1, 0, 0, 0,
		     "3,0,100,task,EXCEPTION_FAULT_SIGNAL,0x26,0x7f0000001123,0x4,0x401b10,11,1,\n");
	/* A negative DEC argument is a number, not an errno. */
	f.event = LKST_EV_PROCESS_SIGSEND;
	f.arg[0] = 10;
	f.arg[1] = 100;
	f.arg[2] = (__u64)-6;
	f.arg[3] = 0;
	f.arg[4] = 0;
	CHECK_FORMAT(&f, 0, 0, 0, 0, 0, "3 cpu=0 pid=100 ctx=task PROCESS_SIGSEND signal=10 "
		     "target_pid=100 si_code=-6 to_the_whole_group=0 "
		     "result:_0_ok_1_ignored_2_pending_3_overflow_4_lost=0\n");
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

static struct lkst_record mark_record(const char *text)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.time_ns = 3000000000ull;
	r.pid = 9;
	r.event = LKST_EV_USER_MARK;
	memcpy(r.arg, text, strnlen(text, sizeof(r.arg)));
	return r;
}

static void test_text_args(void)
{
	struct lkst_record r = mark_record("hello, \"world\"\n and more than 16 bytes");
	struct lkst_record full = mark_record("0123456789abcdef0123456789abcdef0123456789abcdef");
	char want[512], buf[256];

	CHECK_FORMAT(&r, 0, 1, 0, 0, 0,
		     "3000000000,0,9,task,USER_MARK,0xe0,"
		     "\"hello, \"\"world\"\"\\x0a and more than 16 bytes\",,,,,\n");
	CHECK_FORMAT(&r, 0, 1, 0, 1, 1,
		     "3.000000000,0,9,task,USER_MARK,0xe0,text,"
		     "\"hello, \"\"world\"\"\\x0a and more than 16 bytes\",,,,,,,,,,\n");
	CHECK_FORMAT(&r, 0, 0, 0, 1, 0,
		     "3.000000000 cpu=0 pid=9 ctx=task USER_MARK "
		     "text=hello, \"world\"\\x0a and more than 16 bytes\n");
	/* All 48 bytes, no NUL. */
	CHECK_FORMAT(&full, 1, 1, 0, 0, 0,
		     "3000000000,1,9,task,USER_MARK,0xe0,"
		     "0123456789abcdef0123456789abcdef0123456789abcdef,,,,,\n");
	/* -r: every argument in hex. */
	snprintf(want, sizeof(want),
		 "3000000000,0,9,task,USER_MARK,0xe0,0x%llx,0x%llx,0x%llx,0x%llx,0x%llx,0x%llx\n",
		 (unsigned long long)r.arg[0], (unsigned long long)r.arg[1],
		 (unsigned long long)r.arg[2], (unsigned long long)r.arg[3],
		 (unsigned long long)r.arg[4], (unsigned long long)r.arg[5]);
	CHECK_FORMAT(&r, 0, 1, 1, 0, 0, want);
	lkst_format_arg(&r, 0, &(struct lkst_format_opts){ 0 }, buf, sizeof(buf));
	CHECK_STR(buf, "hello, \"world\"\\x0a and more than 16 bytes");
	lkst_format_arg(&r, 1, &(struct lkst_format_opts){ 0 }, buf, sizeof(buf));
	CHECK_STR(buf, "");
	r = mark_record("");
	CHECK_FORMAT(&r, 0, 1, 0, 0, 0, "3000000000,0,9,task,USER_MARK,0xe0,,,,,,\n");
	lkst_format_text(full.arg, 1, buf, sizeof(buf));
	CHECK_STR(buf, "01234567");
	lkst_format_text(full.arg, 6, buf, 5);
	CHECK_STR(buf, "0123");
}

static struct lkst_record switch_record(unsigned long long t, unsigned int prev,
					unsigned int next, const char *comm)
{
	struct lkst_record r;

	memset(&r, 0, sizeof(r));
	r.time_ns = t;
	r.pid = prev;
	r.event = LKST_EV_PROCESS_CONTEXTSWITCH;
	r.arg[0] = prev;
	r.arg[1] = next;
	r.arg[3] = 120;
	set_comm(&r, 4, comm);
	return r;
}

/* Formats with the human options: anchor maps trace 1 s to 2023-11-14 22:13:20 UTC. */
static char *format_human(const struct lkst_record *r, unsigned int cpu,
			  const struct lkst_comm_map *comms, int raw)
{
	struct lkst_format_opts opts = {
		.human = 1, .raw = raw, .comms = comms,
		.realtime_offset_ns = 1700000000ll * 1000000000ll - 1000000000ll,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	lkst_format_record(mem, r, cpu, &opts);
	fclose(mem);
	return text;
}

static void test_human_format(void)
{
	struct lkst_record x = exit_record(), w = wakeup_record();
	struct lkst_comm_map *m = lkst_comm_map_new();
	struct lkst_record sw;
	char *got;

	setenv("TZ", "UTC", 1);
	tzset();
	x.time_ns = 1000000000ull + 1234567890ull;	/* 2.23456789 s after the anchor */
	got = format_human(&x, 1, NULL, 0);
	CHECK_STR(got, "22:13:21.234567  #1  7  ?  !SYSCALL_EXIT syscall_number=exit "
		  "return_value=-2(ENOENT)\n");
	free(got);
	x.time_ns = 1000000000ull + 3600ull * 1000000000ull + 999999ull;
	got = format_human(&x, 0, m, 1);
	CHECK_STR(got, "23:13:20.000999  #0  7  ?  !SYSCALL_EXIT syscall_number=0x3c "
		  "return_value=0xfffffffffffffffe\n");
	free(got);
	/* Before the anchor, across midnight backwards is fine too. */
	x.time_ns = 0;
	got = format_human(&x, 0, NULL, 0);
	CHECK_HAS(got, "22:13:19.000000  #0  7  ?  ");
	free(got);

	/* Names learned from switches and wakeups, in order. */
	lkst_comm_map_learn(m, &w, 1);		/* pid 43 is bash */
	x.pid = 43;
	x.time_ns = 1000000000ull;
	got = format_human(&x, 0, m, 0);
	CHECK_STR(got, "22:13:20.000000  #0  43  bash  !SYSCALL_EXIT syscall_number=exit "
		  "return_value=-2(ENOENT)\n");
	free(got);
	sw = switch_record(2000000000ull, 43, 44, "lkw-spin1");
	got = format_human(&sw, 0, m, 0);
	CHECK_HAS(got, "  #0  43  bash  PROCESS_CONTEXTSWITCH prev_pid=43 next_pid=44 "
		  "prev_state=TASK_RUNNING next_prio=120 next_comm=lkw-spin1\n");
	free(got);
	CHECK(lkst_comm_map_name(m, 44, 0) == NULL);
	lkst_comm_map_learn(m, &sw, 0);
	CHECK_STR(lkst_comm_map_name(m, 44, 0), "lkw-spin1");
	CHECK_STR(lkst_comm_map_name(m, 44, 5), "lkw-spin1");
	/* A renamed task (exec) takes its new name. */
	sw = switch_record(3000000000ull, 1, 43, "a\tb");
	lkst_comm_map_learn(m, &sw, 0);
	CHECK_STR(lkst_comm_map_name(m, 43, 0), "a\\x09b");
	/* pid 0 is per CPU: each idle task has its own name. */
	sw = switch_record(4000000000ull, 43, 0, "swapper/0");
	lkst_comm_map_learn(m, &sw, 0);
	sw = switch_record(4000000000ull, 44, 0, "swapper/1");
	lkst_comm_map_learn(m, &sw, 1);
	CHECK_STR(lkst_comm_map_name(m, 0, 0), "swapper/0");
	CHECK_STR(lkst_comm_map_name(m, 0, 1), "swapper/1");
	CHECK(lkst_comm_map_name(m, 0, 2) == NULL);
	/* Many pids: the table grows and keeps them all. */
	for (sw.arg[1] = 1000; sw.arg[1] < 5000; sw.arg[1]++)
		lkst_comm_map_learn(m, &sw, 0);
	CHECK_STR(lkst_comm_map_name(m, 4999, 0), "swapper/1");
	CHECK_STR(lkst_comm_map_name(m, 43, 0), "a\\x09b");
	lkst_comm_map_free(m);
}

/* f emptied for the next case: freed, and a new one (parsers add to it). */
static struct lkst_select *renew(struct lkst_select *f)
{
	struct lkst_err err;

	lkst_select_free(f);
	f = lkst_select_new(&err);
	CHECK(f != NULL);
	return f;
}

static void test_filters(void)
{
	struct lkst_record x = exit_record(), w = wakeup_record();
	struct lkst_record sw = switch_record(10, 5, 6, "sshd");
	struct lkst_comm_map *m = lkst_comm_map_new();
	struct lkst_select *f;
	const char *const *names;
	const __u32 *list;
	size_t nr;
	struct lkst_err err;

	f = lkst_select_new(&err);
	CHECK(f != NULL);
	CHECK(lkst_select_match(f, &x, 0, NULL));
	CHECK(lkst_select_pid_list(f, &nr) == NULL && nr == 0);
	CHECK(lkst_select_comm_list(f, &nr) == NULL && nr == 0);
	CHECK(lkst_select_cpu_list(f, &nr) == NULL && nr == 0);
	/* Events: IDs, mnemonics, categories. */
	CHECK(lkst_select_events(f, "process,0x31", &err) == 0);
	CHECK(lkst_select_match(f, &x, 0, NULL));
	CHECK(lkst_select_match(f, &w, 0, NULL));
	x.event = LKST_EV_SYSCALL_ENTRY;
	CHECK(!lkst_select_match(f, &x, 0, NULL));
	x.event = LKST_EV_SYSCALL_EXIT;
	f = renew(f);
	CHECK(lkst_select_events(f, "syscall_entry", &err) == 0);
	CHECK(!lkst_select_match(f, &x, 0, NULL));
	f = renew(f);
	CHECK(lkst_select_events(f, "NOPE", &err) == -1);
	CHECK_HAS(err.msg, "unknown event or category 'NOPE'");
	f = renew(f);
	CHECK(lkst_select_events(f, "1,,2", &err) == -1);
	CHECK_HAS(err.msg, "no empty items");
	f = renew(f);
	CHECK(lkst_select_events(f, "0x99", &err) == -1);
	f = renew(f);

	/* Pids: own pid, and the pids a switch or wakeup names. */
	CHECK(lkst_select_pids(f, "6,43", &err) == 0);
	CHECK(!lkst_select_match(f, &x, 0, NULL));	/* pid 7 */
	CHECK(lkst_select_match(f, &w, 0, NULL));	/* wakes 43 */
	CHECK(lkst_select_match(f, &sw, 0, NULL));	/* switches to 6 */
	x.pid = 6;
	CHECK(lkst_select_match(f, &x, 0, NULL));
	x.pid = 7;
	x.arg[0] = 43;				/* not a pid argument */
	CHECK(!lkst_select_match(f, &x, 0, NULL));
	f = renew(f);
	CHECK(lkst_select_pids(f, "12x", &err) == -1);
	CHECK_HAS(err.msg, "bad pid '12x'");
	f = renew(f);
	CHECK(lkst_select_pids(f, "", &err) == -1);
	f = renew(f);

	/* Time window, inclusive, in seconds. */
	CHECK(lkst_select_time(f, "1.000000123,", &err) == 0);
	CHECK(lkst_select_match(f, &w, 0, NULL));	/* 1000000123 ns */
	CHECK(!lkst_select_match(f, &x, 0, NULL));	/* 5 ns */
	f = renew(f);
	CHECK(lkst_select_time(f, ",0.000000005", &err) == 0);
	CHECK(lkst_select_match(f, &x, 0, NULL));
	CHECK(!lkst_select_match(f, &w, 0, NULL));
	f = renew(f);
	CHECK(lkst_select_time(f, ",", &err) == 0);
	CHECK(lkst_select_match(f, &w, 0, NULL));
	f = renew(f);
	CHECK(lkst_select_time(f, "2,1", &err) == -1);
	CHECK_HAS(err.msg, "ends before it starts");
	CHECK(lkst_select_time(f, "1", &err) == -1);
	CHECK_HAS(err.msg, "give START,END");
	CHECK(lkst_select_time(f, "1.,2", &err) == -1);
	CHECK(lkst_select_time(f, "-1,2", &err) == -1);
	CHECK(lkst_select_time(f, "0.0000000001,2", &err) == -1);
	CHECK(lkst_select_time(f, "99999999999999999999,", &err) == -1);
	f = renew(f);

	/* Command names: the record's pid's name so far, or the comm argument. */
	CHECK(lkst_select_comms(f, "bash,sshd", &err) == 0);
	CHECK(!lkst_select_match(f, &x, 0, m));	/* pid 7 unknown */
	CHECK(lkst_select_match(f, &w, 0, m));	/* wakes bash */
	lkst_comm_map_learn(m, &w, 0);
	x.pid = 43;
	CHECK(lkst_select_match(f, &x, 0, m));	/* 43 is bash now */
	CHECK(lkst_select_match(f, &sw, 0, m));	/* to sshd */
	f = renew(f);
	CHECK(lkst_select_comms(f, "bas", &err) == 0);	/* exact */
	CHECK(!lkst_select_match(f, &x, 0, m));
	f = renew(f);
	CHECK(lkst_select_comms(f, "a,", &err) == -1);
	f = renew(f);

	/* Command names: PREFIX* matches a prefix, anything else exactly. */
	CHECK(lkst_comm_match("bash", "bash"));
	CHECK(!lkst_comm_match("bas", "bash"));
	CHECK(!lkst_comm_match("bash", "bas"));
	CHECK(lkst_comm_match("ba*", "bash"));
	CHECK(lkst_comm_match("ba*", "ba"));
	CHECK(!lkst_comm_match("ba*", "b"));
	CHECK(lkst_comm_match("*", "anything"));
	CHECK(lkst_comm_match("a\\x09*", "a\\x09b"));	/* escaped as printed */
	CHECK(lkst_select_comms(f, "zsh,ba*", &err) == 0);
	names = lkst_select_comm_list(f, &nr);
	CHECK(nr == 2 && !strcmp(names[0], "zsh") && !strcmp(names[1], "ba*"));
	CHECK(lkst_select_comm_wanted(f, "bash"));
	CHECK(lkst_select_comm_wanted(f, "zsh"));
	CHECK(!lkst_select_comm_wanted(f, "zsh2"));
	CHECK(!lkst_select_comm_wanted(f, NULL));
	CHECK(lkst_select_match(f, &x, 0, m));	/* 43 is bash */
	CHECK(!lkst_select_match(f, &sw, 0, m));	/* sshd */
	f = renew(f);

	/* Pids: decimal or hex, the same parser in every tool. */
	CHECK(lkst_select_pids(f, "0x2b", &err) == 0);
	CHECK(lkst_select_pids(f, "7", &err) == 0);	/* a second list adds */
	list = lkst_select_pid_list(f, &nr);
	CHECK(nr == 2 && list[0] == 43 && list[1] == 7);
	CHECK(lkst_select_pid_wanted(f, 43));
	CHECK(!lkst_select_pid_wanted(f, 42));
	f = renew(f);

	/* CPUs: the CPU that recorded the record. */
	CHECK(lkst_select_cpus(f, "1,0x3", &err) == 0);
	list = lkst_select_cpu_list(f, &nr);
	CHECK(nr == 2 && list[0] == 1 && list[1] == 3);
	CHECK(!lkst_select_match(f, &x, 0, NULL));
	CHECK(lkst_select_match(f, &x, 1, NULL));
	CHECK(lkst_select_match(f, &x, 3, NULL));
	CHECK(!lkst_select_match(f, &x, 2, NULL));
	f = renew(f);
	CHECK(lkst_select_cpus(f, "0-2,6", &err) == 0);		/* a range expanded */
	list = lkst_select_cpu_list(f, &nr);
	CHECK(nr == 4 && list[0] == 0 && list[2] == 2 && list[3] == 6);
	f = renew(f);
	CHECK(lkst_select_cpus(f, "1,x", &err) == -1);
	CHECK_HAS(err.msg, "bad CPU 'x'");
	f = renew(f);
	CHECK(lkst_select_cpus(f, "65536", &err) == -1);
	f = renew(f);
	CHECK(lkst_select_cpus(f, "1,", &err) == -1);
	f = renew(f);

	/* Filters combine with AND. */
	CHECK(lkst_select_comms(f, "bash", &err) == 0);
	CHECK(lkst_select_events(f, "process", &err) == 0);
	CHECK(!lkst_select_match(f, &x, 0, m));	/* bash, but a syscall */
	CHECK(lkst_select_match(f, &w, 0, m));
	lkst_select_free(f);
	lkst_comm_map_free(m);
}

/* A window as "start-end" in ns, or the error. */
static const char *window(const char *range, const struct lkst_clock_anchor *a)
{
	static char buf[sizeof(((struct lkst_err *)0)->msg) + 8];
	unsigned long long start = 1, end = 2;
	struct lkst_err err;

	if (lkst_parse_window(range, a, &start, &end, &err))
		snprintf(buf, sizeof(buf), "error: %s", err.msg);
	else
		snprintf(buf, sizeof(buf), "%llu-%llu", start, end);
	return buf;
}

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

/*
 * -t: seconds of the trace clock or a time of day as the default text
 * prints it, by the anchor of the README's example log: trace time
 * 49.930219874 was 2026-11-25 03:37:13.783770067 UTC.
 */
static void test_window(void)
{
	const struct lkst_clock_anchor a = {
		.trace_ns = 49930219874ull,
		.realtime_ns = 1795577833ull * 1000000000ull + 783770067ull,
	};
	const char *old_tz = getenv("TZ");
	char *saved = old_tz ? strdup(old_tz) : NULL;

	/* Seconds, either side empty; no anchor needed. */
	CHECK_STR(window("12.5,13", NULL), "12500000000-13000000000");
	CHECK_STR(window(",0.000000005", NULL), "0-5");
	CHECK_STR(window("1.000000123,", NULL), "1000000123-18446744073709551615");
	CHECK_STR(window(",", &a), "0-18446744073709551615");

	set_tz("UTC");
	CHECK_STR(window("03:37:13.783770067,", &a), "49930219874-18446744073709551615");
	CHECK_STR(window("03:37:00,03:37:13.783770067", &a), "36146449807-49930219874");
	CHECK_STR(window("3:37:13.78377,50", &a), "49930219807-50000000000");
	CHECK_STR(window(",03:37:13.8", &a), "0-49946449807");
	/* END before START: the next day. */
	CHECK_STR(window("23:59:59,00:00:01", &a), "73415146449807-73417146449807");
	CHECK_STR(window("03:37:14,03:37:13.9", &a), "50146449807-86450046449807");
	CHECK_HAS(window("03:00:00,", &a), "before the trace clock's start");

	/* Another zone, and one with summer time (November: winter). */
	set_tz("JST-9");
	CHECK_STR(window("12:37:13.783770067,12:37:14", &a), "49930219874-50146449807");
	set_tz("CET-1CEST,M3.5.0,M10.5.0/3");
	CHECK_STR(window("04:37:13.783770067,", &a), "49930219874-18446744073709551615");

	/* Refused, with what to give. */
	CHECK_HAS(window("25:00:00,", &a), "bad time of day '25:00:00'");
	CHECK_HAS(window("25:00:00,", &a), "hh:mm:ss[.frac]");
	CHECK_HAS(window("1:2,", &a), "bad time of day '1:2'");
	CHECK_HAS(window("12:60:00,", &a), "bad time of day");
	CHECK_HAS(window("12:00:61,", &a), "bad time of day");
	CHECK_HAS(window("12:00:00.,", &a), "bad time of day");
	CHECK_HAS(window("12:00:00.1234567891,", &a), "bad time of day");
	CHECK_HAS(window("123:00:00,", &a), "bad time of day");
	CHECK_HAS(window("abc,", &a), "bad START 'abc'");
	CHECK_HAS(window(",abc", &a), "bad END 'abc'");
	CHECK_HAS(window("abc", &a), "give START,END");
	CHECK_HAS(window("1,2,3", &a), "give START,END");
	CHECK_HAS(window("2,1", &a), "ends before it starts");
	CHECK_HAS(window("60,04:37:13", &a), "ends before it starts");	/* CET */
	CHECK_HAS(window("03:37:13,", NULL), "needs a log's clock anchor");

	if (saved) {
		set_tz(saved);
		free(saved);
	} else {
		unsetenv("TZ");
		tzset();
	}
}

int main(void)
{
	test_state();
	test_comm();
	test_csv_quoting();
	test_csv_records();
	test_text_records();
	test_error_marks();
	test_unknown_event();
	test_text_args();
	test_human_format();
	test_filters();
	test_window();
	return check_report();
}
