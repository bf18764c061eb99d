// SPDX-License-Identifier: GPL-2.0
/*
 * The compat scenario's AArch32 program (compat32.sh), built with
 * arm-linux-gnueabihf-gcc without a C library so that every system call
 * it makes is one of these, through svc #0 with the number in r7 (ARM
 * state: in Thumb r7 is the frame pointer):
 *   N  lseek(1234, TAG + i, SEEK_SET)         19, -EBADF
 *   W  write(/dev/null, buf, 777 + i)          4, 777 + i
 *   1  futex(0x1111, 0x7f, 0x3333, 0x4444, 0x5555, 0x6666)
 *                                            240, -ENOSYS (six arguments)
 * after open("/dev/null") and one line on stdout, before exit(0):
 *   pid P devnull D
 *
 *   lkst_syscalls32 N W TAG      (decimal, TAG in hex)
 */
#define NR_EXIT		1
#define NR_WRITE	4
#define NR_OPEN		5
#define NR_LSEEK	19
#define NR_GETPID	20
#define NR_FUTEX	240

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r0 asm("r0") = a;
	register long r1 asm("r1") = b;
	register long r2 asm("r2") = c;
	register long r3 asm("r3") = d;
	register long r4 asm("r4") = e;
	register long r5 asm("r5") = f;
	register long r7 asm("r7") = nr;

	asm volatile("svc #0"
		     : "+r"(r0)
		     : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7)
		     : "memory");
	return r0;
}

static unsigned long parse(const char *s, unsigned int base)
{
	unsigned long v = 0;

	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		int d = *s >= 'a' ? *s - 'a' + 10 :
			*s >= 'A' ? *s - 'A' + 10 : *s - '0';

		if (d < 0 || (unsigned int)d >= base)
			return (unsigned long)-1;
		v = v * base + d;
	}
	return v;
}

static char *put_num(char *p, unsigned long v)
{
	char tmp[12];
	int n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static void __attribute__((noreturn)) leave(int code)
{
	for (;;)
		sys6(NR_EXIT, code, 0, 0, 0, 0, 0);
}

static char buf[1024];

void __attribute__((noreturn, used)) start_c(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	unsigned long n, w, tag, i;
	char line[64], *p;
	long fd;

	static const char usage[] = "usage: lkst_syscalls32 N W TAG\n";

	if (argc != 4) {
		sys6(NR_WRITE, 2, (long)usage, sizeof(usage) - 1, 0, 0, 0);
		leave(2);
	}
	n = parse(argv[1], 10);
	w = parse(argv[2], 10);
	tag = parse(argv[3], 16);
	if (n > 1000 || w > 200 || tag == (unsigned long)-1)
		leave(2);
	fd = sys6(NR_OPEN, (long)"/dev/null", 1 /* O_WRONLY */, 0, 0, 0, 0);
	if (fd < 0)
		leave(1);
	p = put_str(line, "pid ");
	p = put_num(p, sys6(NR_GETPID, 0, 0, 0, 0, 0, 0));
	p = put_str(p, " devnull ");
	p = put_num(p, fd);
	*p++ = '\n';
	sys6(NR_WRITE, 1, (long)line, p - line, 0, 0, 0);

	for (i = 0; i < n; i++)
		if (sys6(NR_LSEEK, 1234, tag + i, 0, 0, 0, 0) != -9 /* EBADF */)
			leave(1);
	for (i = 0; i < w; i++)
		if (sys6(NR_WRITE, fd, (long)buf, 777 + i, 0, 0, 0) != (long)(777 + i))
			leave(1);
	if (sys6(NR_FUTEX, 0x1111, 0x7f, 0x3333, 0x4444, 0x5555, 0x6666) != -38 /* ENOSYS */)
		leave(1);
	leave(0);
}

/* The kernel enters with sp at argc; start_c() never returns. */
asm(".text\n\t.global _start\n\t.type _start, %function\n"
    "_start:\n\tmov r0, sp\n\tbl start_c\n");
