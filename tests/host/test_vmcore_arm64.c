// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkbuf extract's arm64 side (utils/lkst_vmcore_arch.c):
 * buffers written by the kernel's writer are laid out in the physical
 * memory of a synthetic arm64 machine (RAM at 1 GiB as on QEMU virt,
 * swapper_pg_dir with 4 KiB pages, 2 MiB and 1 GiB blocks, per-CPU
 * symbols that are image addresses, kimage_voffset, KASLR, a KASAN tag in
 * a pointer), saved as a kdump ELF core of EM_AARCH64 with arm64's
 * VMCOREINFO beside an arm64 vmlinux; the records must come out exactly,
 * with 48-bit (4-level) and 39-bit (3-level) virtual addresses.  A 52-bit
 * kernel, a note without swapper_pg_dir and an x86_64 vmlinux are refused.
 *
 *   test_vmcore_arm64 [--cases]
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>

#include "buf_fixture.h"
#include "check.h"
#include "lkst_vmcore_int.h"	/* va_bits */

#define PAGE		4096u
#define PHYS_OFFSET	0x40000000ULL	/* QEMU virt's RAM */
#define IMAGE_PA	0x40200000ULL	/* where _text sits */
#define KASLR		0x1e00000ULL
#define RELEASE		"6.12.0-lkst-arm64"
#define NR_CPUS		2
#define RECORDS_0	600		/* no wrap */
#define RECORDS_1	5000		/* wraps blocks 0 and 1 many times */

/* Link-time offsets of the image's symbols from _text. */
#define OFF_PGDIR	0x7ea000ULL
#define OFF_PCPU_START	0x877000ULL	/* .data..percpu */
#define OFF_CPU_BUFS	0x884c80ULL	/* lkst_cpu_buffers, in it */
#define OFF_PCPU_OFF	0x9e8e50ULL	/* __per_cpu_offset[] */
#define OFF_NR_CPU_IDS	0x9e8940ULL
#define OFF_POSSIBLE	0x9e9000ULL

static unsigned int va_bits;
static u64 page_offset, text;	/* the linear map's start; _text as linked */

static u64 linear(u64 pa)
{
	return pa - PHYS_OFFSET + page_offset;
}

static u64 image_pa(u64 off)
{
	return IMAGE_PA + off;
}

static u64 vmalloc_va(u64 off)	/* the TTBR1 half's upper part */
{
	return page_offset + (1ULL << (va_bits - 1)) + 0x1000000ULL + off;
}

/* ---- Physical memory --------------------------------------------------- */

#define VMCORE_TABLE_BASE	0x70000000ULL
#include "vmcore_mem.h"

/*
 * Maps va to pa with a page (shift 12: descriptor 0b11 at level 3) or a
 * block (21 or 30: 0b01), as the MMU walks them with va_bits bits.
 */
static void map(u64 va, u64 pa, unsigned int shift)
{
	unsigned int levels = (va_bits - 12 + 8) / 9, s = 12 + 9 * (levels - 1);
	u64 table = image_pa(OFF_PGDIR), slot, e, bits;

	for (;; s -= 9) {
		bits = s == 12 + 9 * (levels - 1) ? va_bits - s : 9;
		slot = table + ((va >> s) & ((1ULL << bits) - 1)) * 8;
		if (s == shift) {
			/* Upper and lower attributes set, as a real entry has them. */
			pwrite64_(slot, pa | (s == 12 ? 0x3 : 0x1) | 0x700ULL | (1ULL << 54));
			return;
		}
		e = pread64_(slot);
		if (!(e & 1)) {
			e = next_table | 0x3;
			ppage(next_table);
			next_table += PAGE;
			pwrite64_(slot, e);
		}
		table = e & 0x0000fffffffff000ULL;
	}
}

/* ---- The buffers ------------------------------------------------------- */

static struct lkst_cpu_buffer *cbs[NR_CPUS];

static void gen_record(unsigned int cpu, u64 seq, struct lkst_record *r, u32 *nr_args)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	*nr_args = seq % 7;
	r->time_ns = 2000000 + seq * 1000 + cpu;
	r->pid = 200 + cpu * 10 + seq % 5;
	r->event = 1 + seq % 200;
	r->context = seq % 4;
	for (i = 0; i < *nr_args; i++)
		r->arg[i] = (seq << 8) | (i + 1) | (u64)cpu << 60;
}

static void build_buffers(void)
{
	struct lkst_record r;
	struct lkst_block *b;
	u32 nr_args;
	u64 seq;

	cbs[0] = new_buffer();
	start_buffer(cbs[0], add_block(cbs[0], 0, 8, LKST_NO_NEXT));
	for (seq = 0; seq < RECORDS_0; seq++) {
		gen_record(0, seq, &r, &nr_args);
		lkst_buf_write(cbs[0], &r, nr_args);
	}
	cbs[1] = new_buffer();
	b = add_block(cbs[1], 0, 4, 1);
	add_block(cbs[1], 1, 4, 0);
	start_buffer(cbs[1], b);
	for (seq = 0; seq < RECORDS_1; seq++) {
		gen_record(1, seq, &r, &nr_args);
		lkst_buf_write(cbs[1], &r, nr_args);
	}
	local64_set(&cbs[1]->dropped, 3);
}

/* What the live buffer's walk gives: the record numbers expected. */
static u64 want_nr[NR_CPUS], want_first[NR_CPUS];

static int count_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	unsigned int cpu = *(unsigned int *)ctx;

	(void)rec;
	if (!want_nr[cpu]++)
		want_first[cpu] = seq;
	return 0;
}

static void expect_of(unsigned int cpu)
{
	struct lkst_page_ref refs[16];
	struct lkst_record tmp[LKST_PAGE_MAX_RECORDS];
	u64 nr = lkst_buf_list_pages(cbs[cpu]->blocks, -1, refs, 16), next;

	lkst_buf_walk(cbs[cpu]->blocks, refs, nr, 0, false, tmp, count_emit, &cpu, &next);
}

/* ---- The machine ------------------------------------------------------- */

/* A block's struct at linear @pa, its pages at @va: 4 KiB pages, or a 2 MiB block. */
static void put_block(const struct lkst_block *blk, u64 struct_pa, u64 va, u64 pa, int huge)
{
	unsigned char raw[LKST_X86_BLOCK_SIZE] = { 0 };
	u32 i;

	memcpy(raw, &blk->id, 4);
	memcpy(raw + LKST_X86_BLOCK_NR_PAGES, &blk->nr_pages, 4);
	memcpy(raw + 8, &blk->next, 4);
	memcpy(raw + LKST_X86_BLOCK_PAGES, &va, 8);
	pwrite_(struct_pa, raw, sizeof(raw));
	if (huge)
		map(va & ~0x1fffffULL, pa & ~0x1fffffULL, 21);
	for (i = 0; i < blk->nr_pages; i++) {
		/* 4 KiB pages scattered backwards, as vmalloc may give them. */
		u64 page_pa = huge ? pa + i * PAGE : pa + (blk->nr_pages - i) * 0x2000;

		if (!huge)
			map(va + i * PAGE, page_pa, 12);
		pwrite_(page_pa, lkst_block_page(blk, i), PAGE);
	}
}

/* CPU @cpu's per-CPU area: __per_cpu_offset[cpu] from the runtime .data..percpu. */
static u64 pcpu_area_pa(unsigned int cpu)
{
	return 0x7f000000ULL + cpu * 0x100000ULL;
}

static void put_cpu_buffer(unsigned int cpu, const u64 *block_va)
{
	unsigned char raw[LKST_X86_CB_SIZE] = { 0 };
	struct lkst_cpu_buffer *cb = cbs[cpu];
	u64 area = pcpu_area_pa(cpu), v;

	memcpy(raw, &cb->pos.counter, 8);
	memcpy(raw + 8, &cb->mode, 4);
	memcpy(raw + LKST_X86_CB_BLOCKS, block_va, 8 * LKST_MAX_BLOCKS);
	memcpy(raw + LKST_X86_CB_OVERWRITTEN, &cb->overwritten.counter, 8);
	memcpy(raw + LKST_X86_CB_DROPPED, &cb->dropped.counter, 8);
	v = cb->discarded;
	memcpy(raw + LKST_X86_CB_DISCARDED, &v, 8);
	pwrite_(area + (OFF_CPU_BUFS - OFF_PCPU_START), raw, sizeof(raw));
	pwrite64_(image_pa(OFF_PCPU_OFF) + 8 * cpu,
		  linear(area) - (text + KASLR + OFF_PCPU_START));
}

static void build_memory(void)
{
	u64 va0[LKST_MAX_BLOCKS] = { 0 }, va1[LKST_MAX_BLOCKS] = { 0 }, pa;
	u32 nr = NR_CPUS;
	unsigned char possible = 0x3;

	mem_reset();
	ppage(image_pa(OFF_PGDIR));
	for (pa = 0; pa < 4; pa++)	/* the linear map: 1 GiB blocks, 4 GiB of RAM */
		map(linear(PHYS_OFFSET + (pa << 30)), PHYS_OFFSET + (pa << 30), 30);
	pwrite_(image_pa(OFF_NR_CPU_IDS), &nr, 4);
	pwrite_(image_pa(OFF_POSSIBLE), &possible, 1);
	/* CPU 0: one block in vmalloc'ed 4 KiB pages. */
	va0[0] = linear(0x80000000ULL);
	put_block(cbs[0]->blocks[0], 0x80000000ULL, vmalloc_va(0x100000), 0x50000000ULL, 0);
	put_cpu_buffer(0, va0);
	/* CPU 1: block 0 in 4 KiB pages, block 1 in a 2 MiB block, tagged by KASAN. */
	va1[0] = linear(0x80001000ULL);
	va1[1] = (linear(0x80001040ULL) & ~(0xffULL << 56)) | (0xf3ULL << 56);
	put_block(cbs[1]->blocks[0], 0x80001000ULL, vmalloc_va(0x200000), 0x51000000ULL, 0);
	put_block(cbs[1]->blocks[1], 0x80001040ULL, vmalloc_va(0x610000), 0x60010000ULL, 1);
	put_cpu_buffer(1, va1);
}

/* ---- The files --------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t len;
};

static size_t put(struct buf *b, const void *src, size_t len)
{
	size_t at = b->len;

	b->p = realloc(b->p, b->len + len + 1);
	if (src)
		memcpy(b->p + b->len, src, len);
	else
		memset(b->p + b->len, 0, len);
	b->len += len;
	return at;
}

static void align(struct buf *b, size_t a)
{
	while (b->len % a)
		put(b, NULL, 1);
}

struct variant {
	unsigned int t1sz;	/* 0: 64 - va_bits */
	int no_pgdir;
	u16 vmlinux_machine;	/* 0: EM_AARCH64 */
};

static int ppage_cmp(const void *a, const void *b)
{
	const struct ppage *x = *(struct ppage *const *)a, *y = *(struct ppage *const *)b;

	return x->pa < y->pa ? -1 : x->pa > y->pa;
}

static void ehdr(Elf64_Ehdr *eh, u16 type, u16 machine)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = type;
	eh->e_machine = machine;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
}

/* A PT_NOTE with arm64's VMCOREINFO, then a PT_LOAD per page. */
static void build_vmcore(const struct variant *v, struct buf *out)
{
	u64 kimage_voffset = text + KASLR - IMAGE_PA;
	char info[1024];
	u32 head[3] = { sizeof("VMCOREINFO"), 0, 0 };
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t i, note;

	snprintf(info, sizeof(info),
		 "OSRELEASE=%s\nPAGESIZE=4096\n%s=%llx\nSYMBOL(_stext)=%llx\n"
		 "NUMBER(VA_BITS)=%u\nNUMBER(kimage_voffset)=0x%llx\nNUMBER(PHYS_OFFSET)=0x%llx\n"
		 "NUMBER(TCR_EL1_T1SZ)=0x%x\nKERNELOFFSET=%llx\nNUMBER(KERNELPACMASK)=0x0\n",
		 RELEASE, v->no_pgdir ? "SYMBOL(swapper_pg_di)" : "SYMBOL(swapper_pg_dir)",
		 (unsigned long long)(text + KASLR + OFF_PGDIR),
		 (unsigned long long)(text + KASLR), va_bits == 39 ? 39 : 52,
		 (unsigned long long)kimage_voffset, (unsigned long long)PHYS_OFFSET,
		 v->t1sz ? v->t1sz : 64 - va_bits, (unsigned long long)KASLR);
	head[1] = strlen(info);
	qsort(mem, nr_mem, sizeof(*mem), ppage_cmp);
	ehdr(&eh, ET_CORE, EM_AARCH64);
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1 + nr_mem;
	memset(out, 0, sizeof(*out));
	put(out, &eh, sizeof(eh));
	put(out, NULL, eh.e_phnum * sizeof(ph));
	note = put(out, head, sizeof(head));
	put(out, "VMCOREINFO", sizeof("VMCOREINFO"));
	align(out, 4);
	put(out, info, head[1]);
	align(out, 4);
	ph = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = note,
			   .p_filesz = out->len - note, .p_memsz = out->len - note };
	memcpy(out->p + sizeof(eh), &ph, sizeof(ph));
	align(out, PAGE);
	for (i = 0; i < nr_mem; i++) {
		ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = out->len,
				   .p_paddr = mem[i]->pa, .p_vaddr = linear(mem[i]->pa),
				   .p_filesz = PAGE, .p_memsz = PAGE };
		memcpy(out->p + sizeof(eh) + (1 + i) * sizeof(ph), &ph, sizeof(ph));
		put(out, mem[i]->data, PAGE);
	}
}

/* Sections: null, .data (nobits, the image), .symtab, .strtab. */
static void build_vmlinux(const struct variant *v, struct buf *out)
{
	static const struct { const char *name; u64 off, size; } syms[] = {
		{ "lkst_cpu_buffers", OFF_CPU_BUFS, LKST_X86_CB_SIZE },
		{ "__per_cpu_offset", OFF_PCPU_OFF, 8 * NR_CPUS },
		{ "nr_cpu_ids", OFF_NR_CPU_IDS, 4 },
		{ "__cpu_possible_mask", OFF_POSSIBLE, 8 },
	};
	Elf64_Shdr sh[4];
	Elf64_Ehdr eh;
	Elf64_Sym sym;
	struct buf str = { NULL, 0 };
	size_t symtab, strtab, i;

	memset(out, 0, sizeof(*out));
	memset(sh, 0, sizeof(sh));
	put(out, NULL, sizeof(eh));
	put(&str, NULL, 1);
	symtab = put(out, NULL, sizeof(sym));
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		sym = (Elf64_Sym){ .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
				   .st_shndx = 1, .st_value = text + syms[i].off,
				   .st_size = syms[i].size };
		sym.st_name = put(&str, syms[i].name, strlen(syms[i].name) + 1);
		put(out, &sym, sizeof(sym));
	}
	strtab = put(out, str.p, str.len);
	align(out, 8);
	sh[1] = (Elf64_Shdr){ .sh_type = SHT_NOBITS, .sh_addr = text, .sh_size = 0xa00000 };
	sh[2] = (Elf64_Shdr){ .sh_type = SHT_SYMTAB, .sh_offset = symtab,
			      .sh_size = strtab - symtab, .sh_link = 3, .sh_entsize = sizeof(sym) };
	sh[3] = (Elf64_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = strtab, .sh_size = str.len };
	ehdr(&eh, ET_EXEC, v->vmlinux_machine ? v->vmlinux_machine : EM_AARCH64);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 4;
	eh.e_shoff = put(out, sh, sizeof(sh));
	memcpy(out->p, &eh, sizeof(eh));
	free(str.p);
}

static void set_va_bits(unsigned int bits)
{
	va_bits = bits;
	page_offset = ~0ULL << bits;
	text = page_offset + (1ULL << (bits - 1)) + 0x80000000ULL;
	if (bits == 39)	/* a 512 GiB half: the image lower */
		text = page_offset + (1ULL << (bits - 1)) + 0x8000000ULL;
}

static int open_variant(const struct variant *v, struct buf *core, struct buf *lin,
			struct lkst_vmcore **vc, struct lkst_err *err)
{
	struct lkst_vmcore_file c, l;
	int why = 0;

	build_memory();
	build_vmcore(v, core);
	build_vmlinux(v, lin);
	c = (struct lkst_vmcore_file){ core->p, core->len };
	l = (struct lkst_vmcore_file){ lin->p, lin->len };
	err->msg[0] = '\0';
	*vc = lkst_vmcore_open_mem(&c, &l, &why, err);
	return *vc ? 0 : why;
}

/* ---- Tests ------------------------------------------------------------- */

static int same_records(const struct lkst_vmcore_cpu *c, unsigned int cpu)
{
	struct lkst_record r;
	u32 nr_args;
	u64 i;

	for (i = 0; i < lkst_vmcore_cpu_info(c)->nr_records; i++) {
		gen_record(cpu, lkst_vmcore_cpu_seqs(c)[i], &r, &nr_args);
		if (memcmp(&r, &lkst_vmcore_cpu_records(c)[i], sizeof(r)) || lkst_vmcore_cpu_seqs(c)[i] != want_first[cpu] + i)
			return 0;
	}
	return 1;
}

static void test_extract(unsigned int bits)
{
	struct variant v = { 0 };
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_vmcore_cpu *c = NULL;
	struct lkst_err err;
	u64 pa = 0;

	set_va_bits(bits);
	CHECK_STR(open_variant(&v, &core, &lin, &vc, &err) ? err.msg : "", "");
	if (!err.msg[0]) {
		CHECK_STR(lkst_vmcore_release(vc), RELEASE);
		CHECK(lkst_vmcore_nr_cpu_ids(vc) == NR_CPUS && vc->va_bits == bits);
		CHECK(lkst_vmcore_read_cpu(vc, 0, &c, &err) == 0);
		CHECK(lkst_vmcore_cpu_nr_blocks(c) == 1 && lkst_vmcore_cpu_missing_pages(c) == 0);
		CHECK(lkst_vmcore_cpu_info(c)->nr_records == RECORDS_0 && lkst_vmcore_cpu_info(c)->written == RECORDS_0);
		CHECK(lkst_vmcore_cpu_info(c)->lost == 0 && same_records(c, 0));
		lkst_vmcore_cpu_free(c);
		CHECK(lkst_vmcore_read_cpu(vc, 1, &c, &err) == 0);
		CHECK(lkst_vmcore_cpu_nr_blocks(c) == 2 && lkst_vmcore_cpu_info(c)->written == RECORDS_1);
		CHECK(lkst_vmcore_cpu_info(c)->nr_records == want_nr[1] && same_records(c, 1));
		CHECK(lkst_vmcore_cpu_info(c)->seq_end == RECORDS_1 && lkst_vmcore_cpu_info(c)->lost == 0 && lkst_vmcore_cpu_info(c)->dropped == 3);
		CHECK(lkst_vmcore_cpu_info(c)->overwritten + lkst_vmcore_cpu_info(c)->nr_records == RECORDS_1);
		lkst_vmcore_cpu_free(c);
		/* A 4 KiB page, a 2 MiB block, a 1 GiB block of the linear map. */
		CHECK(lkst_vmcore_virt_to_phys(vc, vmalloc_va(0x100123), &pa, &err) == 0 &&
		      pa == 0x50000000ULL + 8 * 0x2000 + 0x123);
		CHECK(lkst_vmcore_virt_to_phys(vc, vmalloc_va(0x612345), &pa, &err) == 0 &&
		      pa == 0x60012345ULL);
		CHECK(lkst_vmcore_virt_to_phys(vc, linear(0x12345678ULL + PHYS_OFFSET), &pa,
					       &err) == 0 && pa == 0x12345678ULL + PHYS_OFFSET);
		CHECK(lkst_vmcore_virt_to_phys(vc, vmalloc_va(0x900000), &pa, &err) ==
		      LKST_VMCORE_BAD);
		CHECK_HAS(err.msg, "is not mapped (its level 2 entry");
		CHECK(lkst_vmcore_virt_to_phys(vc, 0x0000123400000000ULL, &pa, &err) ==
		      LKST_VMCORE_BAD);
		CHECK_HAS(err.msg, "is not an arm64 kernel address");
		lkst_vmcore_close(vc);
	}
	free(core.p);
	free(lin.p);
}

static void test_extract_48(void)
{
	test_extract(48);
}

static void test_extract_39(void)
{
	test_extract(39);
}

static void expect_refused(const struct variant *v, const char *part)
{
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_err err;

	set_va_bits(48);
	CHECK(open_variant(v, &core, &lin, &vc, &err) == LKST_VMCORE_BAD);
	CHECK_HAS(err.msg, part);
	CHECK_HAS(err.msg, "; ");
	free(core.p);
	free(lin.p);
}

static void test_refusals(void)
{
	struct variant v = { 0 };

	v.t1sz = 12;
	expect_refused(&v, "52-bit virtual addresses");
	v.t1sz = 0;
	v.no_pgdir = 1;
	expect_refused(&v, "lacks SYMBOL(swapper_pg_dir)");
	v.no_pgdir = 0;
	v.vmlinux_machine = EM_X86_64;
	expect_refused(&v, "VMLINUX is an x86_64 kernel, VMCORE the dump of an arm64 one");
}

static int print_cases;

static void run_case(const char *name, void (*fn)(void))
{
	int failed = checks_failed;

	fn();
	if (print_cases)
		printf("%s vmcore arm64 %s\n", checks_failed == failed ? "PASS" : "FAIL", name);
}

int main(int argc, char **argv)
{
	unsigned int cpu;

	print_cases = argc > 1 && !strcmp(argv[1], "--cases");
	build_buffers();
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		expect_of(cpu);
	/* The fixture is what the test says: CPU 1 wrapped, CPU 0 not. */
	CHECK(want_nr[0] == RECORDS_0 && want_nr[1] < RECORDS_1);
	run_case("extract, 48-bit addresses", test_extract_48);
	run_case("extract, 39-bit addresses", test_extract_39);
	run_case("refusals", test_refusals);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		free_buffer(cbs[cpu]);
	mem_reset();
	return check_report();
}
