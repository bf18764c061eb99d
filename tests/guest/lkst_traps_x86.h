/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkst_traps' x86-64 traps (included by lkst_traps.c, the harness):
 *   de  divide by zero (#DE 0)          db  single step with EFLAGS.TF (#DB 1)
 *   bp  int3 (#BP 3)                    ud  ud2 (#UD 6)
 *   of  into with OF set, in 32-bit compatibility mode (#OF 4)
 *   br  bound out of range, in 32-bit compatibility mode (#BR 5)
 *   np  load DS from a not-present LDT segment (#NP 11)
 *   ss  load SS from a not-present LDT segment (#SS 12)
 *   gp  hlt at CPL 3 (#GP 13)           pf  write to an unmapped page (#PF 14)
 *   mf  x87 divide by zero, unmasked (#MF 16)
 *   ac  misaligned load with EFLAGS.AC (#AC 17; QEMU TCG does not check)
 *   xm  SSE divide by zero, unmasked (#XM 19)
 * expect is the vector; trapno and err are the frame's REG_TRAPNO and
 * REG_ERR.  The handlers run on an alternate stack: in compatibility mode
 * only the low half of the stack pointer counts.
 */
#include <asm/ldt.h>
#include <sys/syscall.h>

/* The 32-bit user code segment of the GDT (GDT_ENTRY_DEFAULT_USER32_CS). */
#define USER32_CS	0x23

/* LDT entry used for the segment-not-present faults. */
#define LDT_ENTRY_NP	1
#define LDT_SEL_NP	((LDT_ENTRY_NP << 3) | 4 | 3)	/* TI=LDT, RPL 3 */

static unsigned char *code32;	/* below 4 GiB, for compatibility mode */

static int arch_setup(void)
{
	code32 = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (code32 == MAP_FAILED) {
		perror("lkst_traps: mmap below 4 GiB");
		return -1;
	}
	return 0;
}

static void arch_on_signal(struct result *r, const ucontext_t *uc)
{
	/* The handler inherits EFLAGS.AC: clear it before touching memory. */
	asm volatile("pushf\n\tandl $~0x40000, (%%rsp)\n\tpopf" ::: "memory", "cc");
	r->trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
	r->err = uc->uc_mcontext.gregs[REG_ERR];
	r->ip = uc->uc_mcontext.gregs[REG_RIP];
}

static void do_de(void)
{
	volatile unsigned int zero = 0;
	unsigned int a = 1, d = 0, z = zero;

	asm volatile("divl %2" : "+a"(a), "+d"(d) : "r"(z));
}

static void do_db(void)
{
	asm volatile("pushf\n\torl $0x100, (%%rsp)\n\tpopf\n\tnop\n\t"
		     "pushf\n\tandl $~0x100, (%%rsp)\n\tpopf" ::: "memory", "cc");
}

static void do_bp(void)
{
	asm volatile("int3");
}

static void do_ud(void)
{
	asm volatile("ud2");
}

static int make_ldt_np(void)
{
	struct user_desc d;

	memset(&d, 0, sizeof(d));
	d.entry_number = LDT_ENTRY_NP;
	d.base_addr = 0;
	d.limit = 0xfffff;
	d.seg_32bit = 1;
	d.contents = 0;		/* data, read/write */
	d.limit_in_pages = 1;
	d.seg_not_present = 1;
	d.useable = 1;
	if (syscall(SYS_modify_ldt, 0x11, &d, sizeof(d))) {
		perror("lkst_traps: modify_ldt");
		return -1;
	}
	return 0;
}

static void do_np(void)
{
	if (make_ldt_np())
		_exit(3);
	asm volatile("mov %0, %%ds" : : "r"((unsigned short)LDT_SEL_NP));
}

static void do_ss(void)
{
	if (make_ldt_np())
		_exit(3);
	asm volatile("mov %0, %%ss" : : "r"((unsigned short)LDT_SEL_NP));
}

/* Far-return into @code, copied below 4 GiB; it ends in a fault. */
static void run32(const unsigned char *code, size_t len)
{
	memcpy(code32, code, len);
	asm volatile("pushq %0\n\tpushq %1\n\tlretq"
		     : : "i"(USER32_CS), "r"((uint64_t)(uintptr_t)code32) : "memory");
}

static void do_of(void)
{
	static const unsigned char code[] = {
		0xb0, 0x7f,		/* mov $0x7f, %al */
		0x04, 0x01,		/* add $1, %al: sets OF */
		0xce,			/* into */
		0x0f, 0x0b,		/* ud2, if into did not trap */
	};

	run32(code, sizeof(code));
}

static void do_br(void)
{
	unsigned char code[] = {
		0xb8, 100, 0, 0, 0,	/* mov $100, %eax */
		0xbb, 0, 0, 0, 0,	/* mov $bounds, %ebx */
		0x36, 0x62, 0x03,	/* bound %eax, %ss:(%ebx) */
		0x0f, 0x0b,		/* ud2, if bound did not fault */
	};
	uint32_t bounds = (uint32_t)(uintptr_t)(code32 + 64);

	memcpy(code + 6, &bounds, sizeof(bounds));
	memcpy(code32 + 64, (const int32_t[]){ 10, 20 }, 8);
	run32(code, sizeof(code));
}

static void do_gp(void)
{
	asm volatile("hlt");
}

static void do_mf(void)
{
	unsigned short cw;

	asm volatile("fnstcw %0" : "=m"(cw));
	cw &= ~0x04;		/* unmask zero divide */
	asm volatile("fldcw %0\n\tfld1\n\tfldz\n\tfdivrp\n\tfwait\n\tfstp %%st(0)"
		     : : "m"(cw) : "memory");
}

static void do_ac(void)
{
	static char buf[16] __attribute__((aligned(16)));
	volatile int *p = (volatile int *)(buf + 1);

	asm volatile("pushf\n\torl $0x40000, (%%rsp)\n\tpopf" ::: "memory", "cc");
	(void)*p;
	asm volatile("pushf\n\tandl $~0x40000, (%%rsp)\n\tpopf" ::: "memory", "cc");
}

static void do_xm(void)
{
	unsigned int mxcsr = 0x1f80 & ~0x200;	/* unmask zero divide */
	volatile float one = 1.0f, zero = 0.0f;
	float r = one;

	asm volatile("ldmxcsr %0" : : "m"(mxcsr));
	asm volatile("divss %1, %0" : "+x"(r) : "x"(zero));
	(void)r;
}

static const struct trap traps[] = {
	{ "de", 0, do_de }, { "db", 1, do_db }, { "bp", 3, do_bp },
	{ "ud", 6, do_ud }, { "of", 4, do_of }, { "br", 5, do_br },
	{ "np", 11, do_np }, { "ss", 12, do_ss },
	{ "gp", 13, do_gp }, { "pf", 14, do_pf }, { "mf", 16, do_mf },
	{ "ac", 17, do_ac }, { "xm", 19, do_xm },
};
