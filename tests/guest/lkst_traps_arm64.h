/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkst_traps' arm64 traps (included by lkst_traps.c, the harness):
 *   ud   udf #0: undefined instruction, ESR class 0x00, SIGILL
 *   bp   brk #0: BRK64, class 0x3c, SIGTRAP
 *   mrs  mrs x0, midr_el1: undefined at EL0, emulated (class 0x00, no signal)
 *   pc   br to a misaligned address: PC alignment, class 0x22, SIGBUS
 *   pf   write to an unmapped page: data abort, class 0x24, SIGSEGV
 * expect is the class the instruction raises, trapno the class of the
 * frame's ESR when it has one (page faults) and expect otherwise, err that
 * ESR (0 without one).
 */
#include <asm/sigcontext.h>

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

static int arch_setup(void)
{
	return 0;
}

static void arch_on_signal(struct result *r, const ucontext_t *uc)
{
	uint64_t esr = frame_esr(&uc->uc_mcontext);

	r->err = esr;
	r->trapno = esr ? (long)(esr >> 26) & 0x3f : r->expect;
	r->ip = uc->uc_mcontext.pc;
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

static const struct trap traps[] = {
	{ "ud", 0x00, do_ud }, { "bp", 0x3c, do_bp }, { "mrs", 0x00, do_mrs },
	{ "pc", 0x22, do_pc }, { "pf", 0x24, do_pf },
};
