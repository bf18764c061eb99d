// SPDX-License-Identifier: GPL-2.0
/*
 * Known failing system calls mixed with successful ones, and two children
 * killed by page faults, for the error-path scenario (lkst_errpath.ko).
 *
 * Each of ROUNDS rounds makes four calls that fail, in this order:
 *   open(PATH, O_RDONLY, 0)                   -ENOENT  (a missing path;
 *                                                       openat(AT_FDCWD, ..)
 *                                                       where there is no open)
 *   close(-1)                                 -EBADF
 *   read(/dev/zero, PROT_NONE page, 16)       -EFAULT  (a kernel fault the
 *                                                       exception table fixes)
 *   rt_sigtimedwait({SIGUSR2}, NULL, 20 ms, 8) -EAGAIN (after 20 ms)
 * and SUCCESSES calls that succeed (getppid, write to /dev/null, lseek on
 * it, in turn), each checked.  Then one child reads an unmapped address
 * (SIGSEGV, SEGV_MAPERR) and one reads a shared mapping of a 100-byte
 * tmpfs file one page beyond its end (SIGBUS, BUS_ADRERR).
 *
 * Prints what the checker needs, times from CLOCK_MONOTONIC (the clock of
 * the records):
 *   pid P start T end T successes M
 *   call I nr N ret R a0 X a1 Y a2 Z before T after T
 *   child sig S pid C addr A func F
 * "start" is taken first in main(), "end" after the children were reaped;
 * "before" and "after" bracket each failing call; F is the function that
 * faults, so the fault's ip lies just past it.
 *
 *   lkst_errload [-r ROUNDS] [-s SUCCESSES] [-n]   (-n: no children)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MISSING_PATH	"/nonexistent/lkst-errpath"
#define WAIT_NS		20000000L
#define MAX_CALLS	4096
#define BUS_FILE	"/tmp/lkst-errload-bus"

struct call {
	long nr, ret;
	uint64_t a[3];
	uint64_t before, after;
};

static struct call calls[MAX_CALLS];
static unsigned int nr_calls;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/*
 * One call that must fail with -expect; a0..a2 as the kernel sees them
 * (recorded), a3 the fourth (not recorded).
 */
static void fail_call(long nr, uint64_t a0, uint64_t a1, uint64_t a2,
		      uint64_t a3, int expect)
{
	struct call *c = &calls[nr_calls++];
	long ret;

	c->nr = nr;
	c->a[0] = a0;
	c->a[1] = a1;
	c->a[2] = a2;
	c->before = now_ns();
	ret = syscall(nr, a0, a1, a2, a3);
	c->after = now_ns();
	if (ret != -1 || errno != expect) {
		fprintf(stderr, "lkst_errload: syscall %ld returned %ld errno %d, expected -%d\n",
			nr, ret, errno, expect);
		exit(1);
	}
	c->ret = -expect;
}

/* The i-th successful call, checked. */
static void ok_call(unsigned long i, int devnull)
{
	static const char byte = 'x';

	switch (i % 3) {
	case 0:
		if (syscall(SYS_getppid) <= 0)
			die("getppid");
		break;
	case 1:
		if (syscall(SYS_write, devnull, &byte, 1L) != 1)
			die("write /dev/null");
		break;
	default:
		if (syscall(SYS_lseek, devnull, 0L, (long)SEEK_SET) != 0)
			die("lseek /dev/null");
		break;
	}
}

/* Read from p in a child: the fault's ip is in here. */
static __attribute__((noinline)) void touch(volatile const char *p)
{
	(void)*p;
}

/* Forks a child that reads addr and must die of sig; prints the line. */
static void fault_child(int sig, const void *addr)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		touch(addr);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
		fprintf(stderr, "lkst_errload: child %d ended with status 0x%x, expected signal %d\n",
			pid, status, sig);
		exit(1);
	}
	printf("child sig %d pid %d addr 0x%lx func 0x%lx\n", sig, pid,
	       (unsigned long)addr, (unsigned long)touch);
}

int main(int argc, char **argv)
{
	uint64_t start = now_ns(), end;
	long rounds = 5, successes = 20, page = sysconf(_SC_PAGESIZE), r, i, done = 0;
	struct timespec wait = { 0, WAIT_NS };
	int opt, devnull, zero, bus, children = 1;
	char *none, *gone, *map;
	sigset_t set;

	while ((opt = getopt(argc, argv, "r:s:n")) != -1) {
		switch (opt) {
		case 'r': rounds = atol(optarg); break;
		case 's': successes = atol(optarg); break;
		case 'n': children = 0; break;
		default: return 2;
		}
	}
	if (rounds < 0 || rounds * 4 > MAX_CALLS || successes < 0)
		return 2;
	devnull = open("/dev/null", O_WRONLY);
	zero = open("/dev/zero", O_RDONLY);
	if (devnull < 0 || zero < 0)
		die("open /dev/null, /dev/zero");
	none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gone = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED || gone == MAP_FAILED || munmap(gone, page))
		die("mmap");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		die("sigprocmask");

	for (r = 0; r < rounds; r++) {
#ifdef SYS_open
		fail_call(SYS_open, (uintptr_t)MISSING_PATH, O_RDONLY, 0, 0, ENOENT);
#else
		fail_call(SYS_openat, (uint64_t)AT_FDCWD, (uintptr_t)MISSING_PATH,
			  O_RDONLY, 0, ENOENT);
#endif
		for (i = 0; i < successes / 2; i++)
			ok_call(done++, devnull);
		fail_call(SYS_close, (uint64_t)-1L, 0, 0, 0, EBADF);
		fail_call(SYS_read, zero, (uintptr_t)none, 16, 0, EFAULT);
		for (; i < successes; i++)
			ok_call(done++, devnull);
		fail_call(SYS_rt_sigtimedwait, (uintptr_t)&set, 0, (uintptr_t)&wait,
			  _NSIG / 8, EAGAIN);
	}

	if (children) {
		fault_child(SIGSEGV, gone + 0x123);
		bus = open(BUS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (bus < 0 || ftruncate(bus, 100))
			die(BUS_FILE);
		map = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, bus, 0);
		if (map == MAP_FAILED)
			die("mmap " BUS_FILE);
		fault_child(SIGBUS, map + page + 0x40);
		if (munmap(map, 2 * page) || close(bus) || unlink(BUS_FILE))
			die(BUS_FILE);
	}
	end = now_ns();

	printf("pid %d start %llu end %llu successes %ld\n", getpid(),
	       (unsigned long long)start, (unsigned long long)end, done);
	for (i = 0; i < (long)nr_calls; i++)
		printf("call %ld nr %ld ret %ld a0 0x%llx a1 0x%llx a2 0x%llx before %llu after %llu\n",
		       i, calls[i].nr, calls[i].ret, (unsigned long long)calls[i].a[0],
		       (unsigned long long)calls[i].a[1], (unsigned long long)calls[i].a[2],
		       (unsigned long long)calls[i].before, (unsigned long long)calls[i].after);
	return 0;
}
