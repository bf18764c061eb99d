// SPDX-License-Identifier: GPL-2.0
/*
 * Raises the CPU's exceptions from user mode for the exception scenario,
 * each in a forked child that catches the signal, records what the kernel
 * put in the signal frame and exits.  This is the harness; the traps and
 * how a frame is read are per architecture: lkst_traps_x86.h (vectors)
 * and lkst_traps_arm64.h (ESR classes), each a table of
 *   { name, expect, function }
 * plus arch_setup() and arch_on_signal().  Both have
 *   pf  write to an unmapped page (no VMA: SIGSEGV)
 * Also touches a fresh anonymous page (a fault that needs no signal).
 * Prints one line per trap:
 *   trap NAME pid P expect V signal S trapno T err E ip IP addr A
 * with signal 0 when the child ran through without a fault (an emulator
 * that does not raise that exception, an emulated instruction), and
 * "touch pid P addr A" and "pid P" for the parent.
 *
 *   lkst_traps [NAME...]     (default: all)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

struct result {
	int signo;
	long expect, trapno, err;
	uint64_t ip, addr;
};

struct trap {
	const char *name;
	int expect;
	void (*fn)(void);
};

static struct result *shared;
static void *unmapped;

static void do_pf(void)
{
	*(volatile int *)unmapped = 1;
}

#if defined(__x86_64__)
#include "lkst_traps_x86.h"
#elif defined(__aarch64__)
#include "lkst_traps_arm64.h"
#else
#error "lkst_traps: no trap table for this architecture"
#endif

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	arch_on_signal(shared, ctx);
	shared->signo = sig;
	shared->addr = (uint64_t)si->si_addr;
	_exit(0);
}

static int run(const struct trap *t)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
	struct sigaction sa;
	int status;
	unsigned int i;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	shared->expect = t->expect;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("lkst_traps: fork");
		return -1;
	}
	if (pid == 0) {
		static char altstack[65536];
		stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

		if (sigaltstack(&ss, NULL)) {
			perror("lkst_traps: sigaltstack");
			_exit(3);
		}
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
		t->fn();
		_exit(0);	/* no fault */
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "lkst_traps: %s: child %d ended with status 0x%x\n",
			t->name, pid, status);
		return -1;
	}
	printf("trap %s pid %d expect %d signal %d trapno %ld err 0x%lx ip 0x%llx addr 0x%llx\n",
	       t->name, pid, t->expect, shared->signo, shared->trapno,
	       shared->err, (unsigned long long)shared->ip,
	       (unsigned long long)shared->addr);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i;
	int a, failed = 0;
	char *page;

	printf("pid %d\n", getpid());
	fflush(stdout);
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || unmapped == MAP_FAILED || page == MAP_FAILED) {
		perror("lkst_traps: mmap");
		return 1;
	}
	if (arch_setup())
		return 1;
	/* Leave a hole where the page was: a fault there has no VMA. */
	unmapped = (char *)unmapped + 0x124;
	if (munmap((void *)((uintptr_t)unmapped & ~4095UL), 4096)) {
		perror("lkst_traps: munmap");
		return 1;
	}
	page[0x321] = 1;
	printf("touch pid %d addr %p\n", getpid(), (void *)(page + 0x321));

	for (i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
		if (argc > 1) {
			for (a = 1; a < argc; a++)
				if (!strcmp(argv[a], traps[i].name))
					break;
			if (a == argc)
				continue;
		}
		failed |= run(&traps[i]) != 0;
	}
	return failed;
}
