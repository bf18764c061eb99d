// SPDX-License-Identifier: GPL-2.0
/*
 * Workload of t64_stack: reads from a pipe through a known chain of
 * functions, with frame pointers, so that the stack handler's user and
 * kernel stacks of IPC_PIPE_READ can be checked exactly.
 *
 *   lkst_stackload chain FILE N   N times: stack_a() -> stack_b() ->
 *                                 stack_c(), which reads one byte from a
 *                                 pipe with its own syscall (svc on
 *                                 arm64) instruction;
 *                                 FILE gets "pid PID" and the addresses a
 *                                 user stack of that read must show:
 *                                 "ip IP" (right after the syscall), "ret_b
 *                                 R", "ret_a R", "ret_main R" (the return
 *                                 addresses into stack_b, stack_a and
 *                                 main), and "func NAME START END" for
 *                                 stack_a, stack_b, stack_c (END: the
 *                                 function after it in the text)
 *   lkst_stackload load SECONDS   pipe reads and writes in a loop, for
 *                                 unloading the handler under load
 *   lkst_stackload ctl            control requests to the "stack" handler
 *                                 that must be refused, and two that must
 *                                 not: one line "NAME ERRNO" each (0: done)
 *
 * The functions are kept out of line, unclonable and with frame pointers
 * whatever the build's flags are; each does work after its call so that no
 * call becomes a tail call.
 */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>

#include "../../handlers/lkst_stack.h"

#define FUNC __attribute__((noinline, noclone, used))

static int pipefd[2];
static unsigned long ret_b, ret_a, ret_main;
static volatile int sink;

extern char stack_after_syscall[];
FUNC int stack_a(void);
FUNC int stack_b(void);
FUNC int stack_c(void);
FUNC void stack_end(void);

/*
 * The read by the arch's own system call instruction, the label right after
 * it (the user ip the kernel saves).  On arm64 stack_c keeps a frame record
 * although it calls nothing, so that ret_b is on the fp chain as on x86.
 */
#ifdef __aarch64__
__attribute__((target("no-omit-leaf-frame-pointer")))
#endif
FUNC int stack_c(void)
{
	char byte;
	long ret;

	ret_b = (unsigned long)__builtin_return_address(0);
#if defined(__x86_64__)
	ret = SYS_read;
	asm volatile("syscall\n\t"
		     ".globl stack_after_syscall\n"
		     "stack_after_syscall:"
		     : "+a" (ret)
		     : "D" ((long)pipefd[0]), "S" (&byte), "d" (1L)
		     : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	{
		register long x0 asm("x0") = pipefd[0];
		register long x1 asm("x1") = (long)&byte;
		register long x2 asm("x2") = 1;
		register long x8 asm("x8") = SYS_read;

		asm volatile("svc #0\n\t"
			     ".globl stack_after_syscall\n"
			     "stack_after_syscall:"
			     : "+r" (x0)
			     : "r" (x1), "r" (x2), "r" (x8)
			     : "memory");
		ret = x0;
	}
#else
#error "lkst_stackload: no system call instruction for this architecture"
#endif
	return ret == 1 ? byte : -1;
}

FUNC int stack_b(void)
{
	int r;

	ret_a = (unsigned long)__builtin_return_address(0);
	r = stack_c();

	sink = r;
	return r + 1;
}

FUNC int stack_a(void)
{
	int r;

	ret_main = (unsigned long)__builtin_return_address(0);
	r = stack_b();

	sink = r;
	return r + 1;
}

FUNC void stack_end(void)
{
	sink = 0;
}

static int chain(const char *file, int n)
{
	FILE *out = fopen(file, "w");
	int i;

	if (!out || pipe(pipefd)) {
		perror("lkst_stackload");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (write(pipefd[1], "x", 1) != 1 || stack_a() != 'x' + 2) {
			fprintf(stderr, "lkst_stackload: the pipe read failed\n");
			return 1;
		}
	}
	fprintf(out, "pid %d\nip 0x%lx\nret_b 0x%lx\nret_a 0x%lx\nret_main 0x%lx\n",
		getpid(), (unsigned long)stack_after_syscall, ret_b, ret_a, ret_main);
	/* Each function's extent: up to the next function's start. */
	fprintf(out, "func stack_c 0x%lx\nfunc stack_b 0x%lx\nfunc stack_a 0x%lx\nfunc stack_end 0x%lx\n",
		(unsigned long)stack_c, (unsigned long)stack_b,
		(unsigned long)stack_a, (unsigned long)stack_end);
	return fclose(out) ? 1 : 0;
}

static int load(int seconds)
{
	time_t end = time(NULL) + seconds;
	char buf[64];

	if (pipe(pipefd)) {
		perror("lkst_stackload");
		return 1;
	}
	while (time(NULL) < end) {
		if (write(pipefd[1], buf, sizeof(buf)) != sizeof(buf) ||
		    read(pipefd[0], buf, sizeof(buf)) != sizeof(buf))
			return 1;
	}
	return 0;
}

static int ctl_fd;
static unsigned int ctl_id;

static void ctl(const char *name, unsigned int cmd, void *data, unsigned int size)
{
	struct lkst_handler_ctl c = {
		.handler = ctl_id, .cmd = cmd, .data = (unsigned long)data, .size = size,
	};

	printf("%s %d\n", name, ioctl(ctl_fd, LKST_IOC_HANDLER_CTL, &c) < 0 ? errno : 0);
}

static int ctl_tests(void)
{
	struct lkst_handler_desc desc;
	struct lkst_stack_config cfg = { 16, 0 }, saved;
	struct lkst_stack_stat st;
	char big[64] = { 0 };

	ctl_fd = open("/dev/lkst", O_RDWR);
	if (ctl_fd < 0)
		return 1;
	for (ctl_id = 1; ctl_id < 255; ctl_id++) {
		memset(&desc, 0, sizeof(desc));
		desc.id = ctl_id;
		if (!ioctl(ctl_fd, LKST_IOC_HANDLER_INFO, &desc) && !strcmp(desc.name, "stack"))
			break;
	}
	if (ctl_id == 255)
		return 1;
	ctl("get", LKST_STACK_GET, &saved, sizeof(saved));
	ctl("get_short", LKST_STACK_GET, &cfg, sizeof(cfg) - 1);
	ctl("set_short", LKST_STACK_SET, &cfg, sizeof(cfg) - 1);
	ctl("set_long", LKST_STACK_SET, big, sizeof(big));
	ctl("set_zero_size", LKST_STACK_SET, &cfg, 0);
	ctl("set_null", LKST_STACK_SET, NULL, sizeof(cfg));
	ctl("set_badptr", LKST_STACK_SET, (void *)16, sizeof(cfg));
	cfg.depth = 0;
	ctl("set_depth0", LKST_STACK_SET, &cfg, sizeof(cfg));
	cfg.depth = LKST_STACK_MAX_DEPTH + 1;
	ctl("set_depth65", LKST_STACK_SET, &cfg, sizeof(cfg));
	cfg.depth = 8;
	cfg.flags = 0x2;
	ctl("set_badflags", LKST_STACK_SET, &cfg, sizeof(cfg));
	ctl("stat_long", LKST_STACK_STAT, big, sizeof(st) + 8);
	ctl("badcmd", 99, &cfg, sizeof(cfg));
	ctl("stat", LKST_STACK_STAT, &st, sizeof(st));
	ctl("set_saved", LKST_STACK_SET, &saved, sizeof(saved));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ctl"))
		return ctl_tests();
	if (argc == 4 && !strcmp(argv[1], "chain"))
		return chain(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "load"))
		return load(atoi(argv[2]));
	fprintf(stderr, "usage: lkst_stackload chain FILE N | load SECONDS | ctl\n");
	return 2;
}
