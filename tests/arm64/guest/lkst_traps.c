// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 build of lkst_traps (tests/guest/lkst_traps.c raises x86's
 * traps): raises arm64 exceptions from user mode for the exception
 * scenario, each in a forked child that catches the signal, records what
 * the kernel put in the signal frame (pc, fault address, the ESR when the
 * frame carries one) and exits:
 *   ud   udf #0: undefined instruction, ESR class 0x00, SIGILL
 *   bp   brk #0: BRK64, class 0x3c, SIGTRAP
 *   mrs  mrs x0, midr_el1: undefined at EL0, emulated (class 0x00, no signal)
 *   pc   br to a misaligned address: PC alignment, class 0x22, SIGBUS
 *   pf   write to an unmapped page: data abort, class 0x24, SIGSEGV
 * Also touches a fresh anonymous page (a fault that needs no signal).
 * Prints one line per trap, in lkst_traps' format:
 *   trap NAME pid P expect V signal S trapno T err E ip IP addr A
 * where V is the class the instruction raises, T the class of the frame's
 * ESR when it has one (page faults) and V otherwise, E that ESR (0 without
 * one); signal 0 when the child ran through (mrs: emulated), and
 * "touch pid P addr A" and "pid P" for the parent.
 *
 *   lkst_traps [NAME...]     (default: all)
 */
#define _GNU_SOURCE
#include <asm/sigcontext.h>
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
	long trapno, err;
	uint64_t ip, addr;
};

static struct result *shared;
static void *unmapped;
static long expected;

/* The ESR the kernel saved in the frame's records, 0 without one. */
static uint64_t frame_esr(const mcontext_t *mc)
{
	const unsigned char *p = (const unsigned char *)mc->__reserved;
	const unsigned char *end = p + sizeof(mc->__reserved);

	while (p + sizeof(struct _aarch64_ctx) <= end) {
		const struct _aarch64_ctx *h = (const void *)p;

		if (!h->magic || h->size < sizeof(*h))
			break;
		if (h->magic == ESR_MAGIC)
			return ((const struct esr_context *)h)->esr;
		p += h->size;
	}
	return 0;
}

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t esr = frame_esr(&uc->uc_mcontext);

	shared->signo = sig;
	shared->err = esr;
	shared->trapno = esr ? (long)(esr >> 26) & 0x3f : expected;
	shared->ip = uc->uc_mcontext.pc;
	shared->addr = (uint64_t)si->si_addr;
	_exit(0);
}

static void do_ud(void)
{
	asm volatile("udf #0");
}

static void do_bp(void)
{
	asm volatile("brk #0");
}

static void do_mrs(void)
{
	uint64_t midr;

	asm volatile("mrs %0, midr_el1" : "=r"(midr));
	(void)midr;
}

static void do_pc(void)
{
	asm volatile("adr x0, 1f\n\t"
		     "add x0, x0, #2\n\t"
		     "br x0\n"
		     "1:\tnop\n\tnop" ::: "x0", "memory");
}

static void do_pf(void)
{
	*(volatile int *)unmapped = 1;
}

static const struct trap {
	const char *name;
	int class;
	void (*fn)(void);
} traps[] = {
	{ "ud", 0x00, do_ud }, { "bp", 0x3c, do_bp }, { "mrs", 0x00, do_mrs },
	{ "pc", 0x22, do_pc }, { "pf", 0x24, do_pf },
};

static int run(const struct trap *t)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
	struct sigaction sa;
	int status;
	unsigned int i;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	expected = t->class;
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
	       t->name, pid, t->class, shared->signo, shared->trapno,
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
