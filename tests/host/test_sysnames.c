// SPDX-License-Identifier: GPL-2.0
/*
 * System call and errno names and the decoded flags (lkst_sysnames.h,
 * generated from the kernel's tables), and how lkbuf print shows them:
 * names in the text, numbers in CSV.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lkst_format.h"

static void test_syscall_names(void)
{
	const unsigned int native = LKST_SYSCALL_ABI_NATIVE, ia32 = LKST_SYSCALL_ABI_IA32;

	CHECK_STR(lkst_syscall_name(native, 0), "read");
	CHECK_STR(lkst_syscall_name(native, 8), "lseek");
	CHECK_STR(lkst_syscall_name(native, 39), "getpid");
	CHECK_STR(lkst_syscall_name(native, 110), "getppid");
	CHECK_STR(lkst_syscall_name(native, 257), "openat");
	CHECK_STR(lkst_syscall_name(ia32, 20), "getpid");
	CHECK_STR(lkst_syscall_name(ia32, 64), "getppid");
	CHECK_STR(lkst_syscall_name(ia32, 3), "read");
	/* x32: native numbers with __X32_SYSCALL_BIT, the x32 table's rows. */
	CHECK_STR(lkst_syscall_name(native, LKST_X32_SYSCALL_BIT + 515), "readv");
	CHECK_STR(lkst_syscall_name(native, LKST_X32_SYSCALL_BIT + 0), "read");
	CHECK(lkst_syscall_name(native, LKST_X32_SYSCALL_BIT + 13) == NULL);	/* "64" only */
	CHECK(lkst_syscall_name(native, 512) == NULL);		/* x32 row, not x86-64 */
	/* Unknown: gaps, past the end, negative (-1 is rt_sigreturn's), ABIs. */
	CHECK(lkst_syscall_name(native, 5000) == NULL);
	CHECK(lkst_syscall_name(native, -1) == NULL);
	CHECK(lkst_syscall_name(native, 336) == NULL);		/* 335-423 unused */
	CHECK(lkst_syscall_name(ia32, 9999) == NULL);
	CHECK(lkst_syscall_name(2, 0) == NULL);
}

static void test_format_syscall(void)
{
	char buf[64];

	CHECK(lkst_format_syscall(8, buf, sizeof(buf)) == 5);
	CHECK_STR(buf, "lseek");
	lkst_format_syscall(LKST_SYSCALL_NR_ABI(20, LKST_SYSCALL_ABI_IA32), buf, sizeof(buf));
	CHECK_STR(buf, "ia32:getpid");
	lkst_format_syscall(LKST_X32_SYSCALL_BIT + 515, buf, sizeof(buf));
	CHECK_STR(buf, "x32:readv");
	lkst_format_syscall(999, buf, sizeof(buf));
	CHECK_STR(buf, "999");
	lkst_format_syscall(LKST_SYSCALL_NR_ABI(9999, LKST_SYSCALL_ABI_IA32), buf, sizeof(buf));
	CHECK_STR(buf, "ia32:9999");
	lkst_format_syscall(LKST_SYSCALL_NR_ABI(-1, LKST_SYSCALL_ABI_NATIVE), buf, sizeof(buf));
	CHECK_STR(buf, "-1");
	CHECK(lkst_format_syscall(257, buf, 4) == 6);		/* cut, terminated */
	CHECK_STR(buf, "ope");
}

static void test_errno_names(void)
{
	CHECK_STR(lkst_errno_name(-2), "ENOENT");
	CHECK_STR(lkst_errno_name(-11), "EAGAIN");		/* not EWOULDBLOCK */
	CHECK_STR(lkst_errno_name(-35), "EDEADLK");		/* not EDEADLOCK */
	CHECK_STR(lkst_errno_name(-133), "EHWPOISON");
	CHECK_STR(lkst_errno_name(-512), "ERESTARTSYS");
	CHECK_STR(lkst_errno_name(-524), "ENOTSUPP");
	CHECK_STR(lkst_errno_name(-531), "ENOGRACE");
	CHECK(lkst_errno_name(-134) == NULL);
	CHECK(lkst_errno_name(-520) == NULL);			/* a gap */
	CHECK(lkst_errno_name(-532) == NULL);
	CHECK(lkst_errno_name(0) == NULL);
	CHECK(lkst_errno_name(-4096) == NULL);
}

static void test_flags(void)
{
	char buf[128];

	/* O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, as the generic fcntl.h has them. */
	CHECK(lkst_format_flags(LKST_FLAGS_OPEN, 01 | 0100 | 01000 | 02000000, buf, sizeof(buf)) ==
	      (int)strlen("O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC"));
	CHECK_STR(buf, "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC");
	lkst_format_flags(LKST_FLAGS_OPEN, 0, buf, sizeof(buf));
	CHECK_STR(buf, "O_RDONLY");
	lkst_format_flags(LKST_FLAGS_OPEN, 2 | 04000000 | 010000, buf, sizeof(buf));
	CHECK_STR(buf, "O_RDWR|O_SYNC");			/* O_DSYNC is in O_SYNC */
	lkst_format_flags(LKST_FLAGS_OPEN, 010000, buf, sizeof(buf));
	CHECK_STR(buf, "O_RDONLY|O_DSYNC");
	lkst_format_flags(LKST_FLAGS_OPEN, 2 | 020000000 | 0200000, buf, sizeof(buf));
	CHECK_STR(buf, "O_RDWR|O_TMPFILE");
	lkst_format_flags(LKST_FLAGS_OPEN, 3 | 0x40000000, buf, sizeof(buf));
	CHECK_STR(buf, "0x40000003");				/* no name: the bits */
	lkst_format_flags(LKST_FLAGS_OPEN, 1 | 0x40000000, buf, sizeof(buf));
	CHECK_STR(buf, "O_WRONLY|0x40000000");
	lkst_format_flags(LKST_FLAGS_PROT, 0, buf, sizeof(buf));
	CHECK_STR(buf, "PROT_NONE");
	lkst_format_flags(LKST_FLAGS_PROT, 3, buf, sizeof(buf));
	CHECK_STR(buf, "PROT_READ|PROT_WRITE");
	lkst_format_flags(LKST_FLAGS_MAP, 0x22, buf, sizeof(buf));
	CHECK_STR(buf, "MAP_PRIVATE|MAP_ANONYMOUS");
	lkst_format_flags(LKST_FLAGS_MAP, 0x3 | 0x40, buf, sizeof(buf));
	CHECK_STR(buf, "MAP_SHARED_VALIDATE|MAP_32BIT");
	lkst_format_flags(LKST_FLAGS_MAP, 0, buf, sizeof(buf));
	CHECK_STR(buf, "0x0");
	CHECK(lkst_format_flags(LKST_FLAGS_PROT, 7, buf, 10) ==
	      (int)strlen("PROT_READ|PROT_WRITE|PROT_EXEC"));
	CHECK_STR(buf, "PROT_READ");				/* cut, terminated */
	lkst_format_flags(LKST_FLAGS_NONE, 5, buf, sizeof(buf));
	CHECK_STR(buf, "0x5");
}

static void test_arg_flags(void)
{
	const char *name = NULL;

	CHECK(lkst_syscall_arg_flags(257, 2, &name) == LKST_FLAGS_OPEN);
	CHECK_STR(name, "flags");
	CHECK(lkst_syscall_arg_flags(257, 1, NULL) == LKST_FLAGS_NONE);
	CHECK(lkst_syscall_arg_flags(2, 1, NULL) == LKST_FLAGS_OPEN);
	CHECK(lkst_syscall_arg_flags(9, 2, &name) == LKST_FLAGS_PROT);
	CHECK_STR(name, "prot");
	CHECK(lkst_syscall_arg_flags(9, 3, NULL) == LKST_FLAGS_MAP);
	CHECK(lkst_syscall_arg_flags(0, 2, NULL) == LKST_FLAGS_NONE);
	CHECK(lkst_syscall_arg_flags(LKST_SYSCALL_NR_ABI(192, LKST_SYSCALL_ABI_IA32), 3, NULL) ==
	      LKST_FLAGS_MAP);				/* mmap2 */
	CHECK(lkst_syscall_arg_flags(LKST_SYSCALL_NR_ABI(90, LKST_SYSCALL_ABI_IA32), 3, NULL) ==
	      LKST_FLAGS_NONE);				/* old_mmap takes a pointer */
	CHECK(lkst_syscall_arg_flags(LKST_SYSCALL_NR_ABI(257, LKST_SYSCALL_ABI_IA32), 2, NULL) ==
	      LKST_FLAGS_NONE);				/* ia32 257 is remap_file_pages */
	CHECK(lkst_syscall_arg_flags(LKST_X32_SYSCALL_BIT + 257, 2, NULL) == LKST_FLAGS_OPEN);
}

static char *format(const struct lkst_record *r, int csv)
{
	struct lkst_format_opts opts = { .csv = csv, .seconds = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	lkst_format_record(mem, r, 0, &opts);
	fclose(mem);
	return text;
}

/* lkbuf print: the call's name and its decoded flags in the text only. */
static void test_print(void)
{
	struct lkst_format_opts text = { 0 }, csv = { .csv = 1 };
	struct lkst_record r;
	char buf[128];
	char *got;

	memset(&r, 0, sizeof(r));
	r.event = LKST_EV_SYSCALL_ENTRY;
	r.pid = 5;
	r.arg[0] = 257;
	r.arg[1] = (__u64)-100;
	r.arg[2] = 0x1000;
	r.arg[3] = 01 | 0100 | 01000 | 02000000;
	r.arg[4] = 0644;
	got = format(&r, 0);
	CHECK_STR(got, "0.000000000 cpu=0 pid=5 ctx=task SYSCALL_ENTRY syscall_number=openat "
		  "arg0=0xffffffffffffff9c arg1=0x1000 arg2=0x80241(O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC) "
		  "arg3=0x1a4 arg4=0x0\n");
	free(got);
	got = format(&r, 1);
	CHECK_STR(got, "0.000000000,0,5,task,SYSCALL_ENTRY,0x30,257,0xffffffffffffff9c,0x1000,"
		  "0x80241,0x1a4,0x0\n");
	free(got);
	lkst_format_arg(&r, 0, &text, buf, sizeof(buf));
	CHECK_STR(buf, "openat");
	lkst_format_arg(&r, 0, &csv, buf, sizeof(buf));
	CHECK_STR(buf, "257");
	lkst_format_arg(&r, 3, &text, buf, sizeof(buf));
	CHECK_STR(buf, "0x80241(O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC)");
	lkst_format_arg(&r, 3, &csv, buf, sizeof(buf));
	CHECK_STR(buf, "0x80241");
	lkst_format_arg(&r, 2, &text, buf, sizeof(buf));
	CHECK_STR(buf, "0x1000");

	/* ia32 mmap2's prot and flags; an exit names its call too. */
	r.arg[0] = LKST_SYSCALL_NR_ABI(192, LKST_SYSCALL_ABI_IA32);
	r.arg[1] = 0;
	r.arg[2] = 0x2000;
	r.arg[3] = 3;
	r.arg[4] = 0x22;
	r.arg[5] = ~0ull;
	got = format(&r, 0);
	CHECK_STR(got, "0.000000000 cpu=0 pid=5 ctx=task SYSCALL_ENTRY syscall_number=ia32:mmap2 "
		  "arg0=0x0 arg1=0x2000 arg2=0x3(PROT_READ|PROT_WRITE) "
		  "arg3=0x22(MAP_PRIVATE|MAP_ANONYMOUS) arg4=0xffffffffffffffff\n");
	free(got);
	r.event = LKST_EV_SYSCALL_EXIT;
	r.arg[0] = LKST_X32_SYSCALL_BIT + 515;
	r.arg[1] = (__u64)-512;
	got = format(&r, 0);
	CHECK_STR(got, "0.000000000 cpu=0 pid=5 ctx=task !SYSCALL_EXIT syscall_number=x32:readv "
		  "return_value=-512(ERESTARTSYS)\n");
	free(got);
	got = format(&r, 1);
	CHECK_STR(got, "0.000000000,0,5,task,SYSCALL_EXIT,0x31,1073742339,-512,,,,\n");
	free(got);
}

int main(void)
{
	test_syscall_names();
	test_format_syscall();
	test_errno_names();
	test_flags();
	test_arg_flags();
	test_print();
	return check_report();
}
