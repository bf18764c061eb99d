// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkbuf extract (utils/lkst_vmcore.c), one file over 800
 * lines because each case builds on the one synthetic machine: buffers
 * written by the kernel's writer (lkst_buf.c) are laid out in the
 * physical memory of a synthetic x86_64 machine (page tables with 4 KiB,
 * 2 MiB and 1 GiB pages, per-CPU areas, KASLR), saved as a kdump-style
 * ELF vmcore with a VMCOREINFO note next to a vmlinux with a symbol
 * table; the records must come out exactly.  Then the same with a page
 * filtered out of the dump, a page being emptied, and corrupt or
 * truncated files, which must be refused with a message, never crash.
 *
 *   test_vmcore [--cases]          the library tests (--cases: a PASS or
 *                                  FAIL line per case)
 *   test_vmcore --lkbuf ./lkbuf    also lkbuf extract itself, whose log
 *                                  must equal the one expected, byte for byte
 *                                  (or LKBUF=./lkbuf in the environment)
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf_fixture.h"
#include "check.h"
#include "lkst_logboot.h"
#include "lkst_logio.h"
#include "lkst_vmcore.h"

#define PAGE		4096u
#define START_KERNEL	0xffffffff80000000ULL
#define PAGE_OFFSET	0xffff888000000000ULL	/* linear map, 1 GiB pages */
#define KASLR		0x1e000000ULL
#define PHYS_BASE	0x0d000000ULL
#define RELEASE		"6.12.0-lkst-test"
#define BANNER		"Linux version " RELEASE " (test@host) #1 SMP PREEMPT_DYNAMIC\n"
#define NR_CPU_IDS	4		/* 0, 1 traced; 2 no blocks; 3 not possible */
#define CB_OFFSET	0x2a840ULL	/* lkst_cpu_buffers: a per-CPU offset */

/* vmlinux link addresses (KASLR is added at run time). */
#define SYM_PGT		0xffffffff82a0e000ULL
#define SYM_BANNER	0xffffffff82200000ULL
#define SYM_DATA	0xffffffff82b00000ULL	/* .data: the symbols below */
#define SYM_PCPU_OFF	(SYM_DATA + 0x0)
#define SYM_NR_CPU_IDS	(SYM_DATA + 0x1000)
#define SYM_UTS		(SYM_DATA + 0x2000)
#define SYM_POSSIBLE	(SYM_DATA + 0x3000)

/* ---- Physical memory of the synthetic machine ------------------------- */

#define VMCORE_TABLE_BASE	0x30000000ULL
#include "vmcore_mem.h"

static u64 kphys(u64 link)	/* a vmlinux address's physical one */
{
	return link + KASLR - START_KERNEL + PHYS_BASE;
}

/* Maps va to pa with a page of 1 << shift bytes (12, 21 or 30). */
static void map(u64 va, u64 pa, unsigned int shift)
{
	u64 table = kphys(SYM_PGT), slot, e;
	unsigned int s;

	for (s = 39;; s -= 9) {
		slot = table + ((va >> s) & 511) * 8;
		if (s == shift) {
			pwrite64_(slot, pa | 0x3 | (s > 12 ? 0x80 : 0));
			return;
		}
		e = pread64_(slot);
		if (!(e & 1)) {
			e = next_table | 0x3;
			ppage(next_table);
			next_table += PAGE;
			pwrite64_(slot, e);
		}
		table = e & 0x000ffffffffff000ULL;
	}
}

/* ---- Buffers written by the kernel's writer ----------------------------- */

static struct lkst_cpu_buffer *cbs[2];

/* Record number @seq of @cpu: its fields tell where it came from. */
static void gen_record(unsigned int cpu, u64 seq, struct lkst_record *r, u32 *nr_args)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	*nr_args = seq % 7;
	r->time_ns = 1000000 + seq * 1000 + cpu;
	r->pid = 100 + cpu * 10 + seq % 5;
	r->event = 1 + seq % 200;
	r->context = seq % 4;
	for (i = 0; i < *nr_args; i++)
		r->arg[i] = (seq << 8) | (i + 1) | (u64)cpu << 60;
}

static void write_records(unsigned int cpu, u64 n)
{
	struct lkst_record r;
	u32 nr_args;
	u64 seq;

	for (seq = 0; seq < n; seq++) {
		gen_record(cpu, seq, &r, &nr_args);
		lkst_buf_write(cbs[cpu], &r, nr_args);
	}
}

#define CPU0_RECORDS	600	/* about 6 of 8 pages: no wrap */
#define CPU1_RECORDS	5000	/* around 4 + 4 pages many times */

/* CPU 0: one block of 8 pages; CPU 1: blocks 0 and 1 in a ring. */
static void build_buffers(void)
{
	struct lkst_block *b;

	cbs[0] = new_buffer();
	b = add_block(cbs[0], 0, 8, LKST_NO_NEXT);
	start_buffer(cbs[0], b);
	write_records(0, CPU0_RECORDS);

	cbs[1] = new_buffer();
	b = add_block(cbs[1], 0, 4, 1);
	add_block(cbs[1], 1, 4, 0);
	start_buffer(cbs[1], b);
	write_records(1, CPU1_RECORDS);
	local64_set(&cbs[1]->dropped, 7);
	cbs[1]->discarded = 5;
}

/* What a drain of the live buffer gives: the expected records. */
struct expect {
	struct lkst_record *records;
	u64 *seqs;
	u64 nr, next_seq, cap;
};

static int expect_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct expect *e = ctx;

	if (e->nr == e->cap)
		return -1;
	e->records[e->nr] = *rec;
	e->seqs[e->nr++] = seq;
	return 0;
}

static void expect_of(unsigned int cpu, struct expect *e)
{
	struct lkst_block *const *blocks = cbs[cpu]->blocks;
	struct lkst_page_ref refs[16];
	struct lkst_record tmp[LKST_PAGE_MAX_RECORDS];
	u64 nr = lkst_buf_list_pages(blocks, -1, refs, 16);

	e->cap = 16 * LKST_PAGE_MAX_RECORDS;
	e->records = calloc(e->cap, sizeof(*e->records));
	e->seqs = calloc(e->cap, sizeof(*e->seqs));
	e->nr = 0;
	lkst_buf_walk(blocks, refs, nr, 0, false, tmp, expect_emit, e, &e->next_seq);
}

/* ---- The vmcore and vmlinux files --------------------------------------- */

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

/* What a variant changes in the machine or the files. */
struct variant {
	int omit_used_page;	/* CPU 1's page holding the median record */
	int odd_page;		/* ... being emptied instead */
	int l5;
	int no_vmcoreinfo;
	int other_build;	/* the banner in memory differs */
	int other_build_id;	/* VMCOREINFO's BUILD-ID differs */
	int huge_block;		/* a block claims 2^31 pages */
	int bad_pte;		/* CPU 1's block 0 page 1 not mapped */
	const char *release;	/* OSRELEASE, else RELEASE */
	const char *cb_name;	/* the per-CPU symbol's name */
	u16 machine;
};

static u64 median_page_pa;	/* CPU 1's page holding the median record */
static u32 median_page_records;

static void put_block_struct(u64 pa, u32 id, u32 nr_pages, u32 next, u64 pages_va)
{
	unsigned char raw[LKST_X86_BLOCK_SIZE] = { 0 };

	memcpy(raw, &id, 4);
	memcpy(raw + 4, &nr_pages, 4);
	memcpy(raw + 8, &next, 4);
	memcpy(raw + 16, &pages_va, 8);
	pwrite_(pa, raw, sizeof(raw));
}

/* A block's pages at @va: 4 KiB pages scattered backwards, or in one 2 MiB page. */
static void place_pages(const struct lkst_block *blk, u64 va, u64 pa, int huge,
			const struct variant *v)
{
	u64 page_pa;
	u32 i;

	if (huge)
		map(va & ~0x1fffffULL, pa & ~0x1fffffULL, 21);
	for (i = 0; i < blk->nr_pages; i++) {
		page_pa = huge ? pa + i * PAGE : pa + (blk->nr_pages - i) * 0x2000;
		if (!huge && !(v->bad_pte && va == 0xffffc90000200000ULL && i == 1))
			map(va + i * PAGE, page_pa, 12);
		pwrite_(page_pa, lkst_block_page(blk, i), PAGE);
	}
}

/* CPU 1's page whose records are in the middle by number. */
static void find_median_page(void)
{
	struct lkst_block *const *blocks = cbs[1]->blocks;
	struct lkst_page_ref refs[16];
	u64 nr = lkst_buf_list_pages(blocks, -1, refs, 16);
	const struct lkst_page_ref *mid = &refs[nr / 2];
	u64 base = mid->block ? 0x60010000ULL : 0x51000000ULL;

	median_page_pa = mid->block ? base + mid->page * PAGE : base + (4 - mid->page) * 0x2000;
	median_page_records = lkst_page_count(lkst_block_page(blocks[mid->block], mid->page));
}

static void put_cpu_buffer(unsigned int cpu, const u64 *block_va)
{
	unsigned char raw[LKST_X86_CB_SIZE] = { 0 };
	struct lkst_cpu_buffer *cb = cbs[cpu];
	u64 v;
	u32 id;

	memcpy(raw, &cb->pos.counter, 8);
	memcpy(raw + 8, &cb->mode, 4);
	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		memcpy(raw + LKST_X86_CB_BLOCKS + 8 * id, &block_va[id], 8);
	memcpy(raw + LKST_X86_CB_OVERWRITTEN, &cb->overwritten.counter, 8);
	memcpy(raw + LKST_X86_CB_DROPPED, &cb->dropped.counter, 8);
	v = cb->discarded;
	memcpy(raw + LKST_X86_CB_DISCARDED, &v, 8);
	pwrite_(0x100000000ULL + cpu * 0x200000ULL + CB_OFFSET, raw, sizeof(raw));
}

static void build_kernel_data(const struct variant *v)
{
	char uts[6][65] = { "Linux", "crashbox", RELEASE, "#1", "x86_64", "(none)" };
	u64 pcpu;
	u32 nr = NR_CPU_IDS, i;
	unsigned char possible = 0x7;

	for (i = 0; i < 8; i++) {
		/* CPU 3 is not possible: its offset is the boot one, unmapped. */
		pcpu = i < 3 ? PAGE_OFFSET + 0x100000000ULL + i * 0x200000ULL : 0xffffffff83000000ULL;
		pwrite64_(kphys(SYM_PCPU_OFF) + 8 * i, pcpu);
	}
	pwrite_(kphys(SYM_NR_CPU_IDS), &nr, 4);
	pwrite_(kphys(SYM_UTS), uts, sizeof(uts));
	pwrite_(kphys(SYM_POSSIBLE), &possible, 1);
	pwrite_(kphys(SYM_BANNER), BANNER, sizeof(BANNER));
	if (v->other_build)
		pwrite_(kphys(SYM_BANNER) + (strstr(BANNER, "#1") - BANNER), "#2", 2);
	for (i = 0; i < 8; i++)		/* the linear map: 1 GiB pages, 0..8 GiB */
		map(PAGE_OFFSET + ((u64)i << 30), (u64)i << 30, 30);
	ppage(0x100000000ULL + 2 * 0x200000ULL + CB_OFFSET);	/* CPU 2: no blocks */
}

static void build_memory(const struct variant *v)
{
	u64 va0[LKST_MAX_BLOCKS] = { 0 }, va1[LKST_MAX_BLOCKS] = { 0 };
	struct lkst_block *const *b1 = cbs[1]->blocks;

	mem_reset();
	ppage(kphys(SYM_PGT));
	build_kernel_data(v);
	/* CPU 0: vmalloc'ed, 4 KiB pages; page 7 (never used) not in the dump. */
	va0[0] = PAGE_OFFSET + 0x140000000ULL;
	put_block_struct(0x140000000ULL, 0, v->huge_block ? 1u << 31 : 8, LKST_NO_NEXT,
			 0xffffc90000100000ULL);
	place_pages(cbs[0]->blocks[0], 0xffffc90000100000ULL, 0x50000000ULL, 0, v);
	ppage(0x50000000ULL + 0x2000)->omit = 1;
	put_cpu_buffer(0, va0);
	/* CPU 1: block 0 in 4 KiB pages, block 1 in a 2 MiB page. */
	va1[0] = PAGE_OFFSET + 0x140001000ULL;
	va1[1] = PAGE_OFFSET + 0x140001040ULL;
	put_block_struct(0x140001000ULL, 0, 4, 1, 0xffffc90000200000ULL);
	put_block_struct(0x140001040ULL, 1, 4, 0, 0xffffc90000610000ULL);
	place_pages(b1[0], 0xffffc90000200000ULL, 0x51000000ULL, 0, v);
	place_pages(b1[1], 0xffffc90000610000ULL, 0x60010000ULL, 1, v);
	put_cpu_buffer(1, va1);
	find_median_page();
	if (v->omit_used_page)
		ppage(median_page_pa)->omit = 1;
	if (v->odd_page)
		pwrite64_(median_page_pa, pread64_(median_page_pa) | 1);
}

static int ppage_cmp(const void *a, const void *b)
{
	const struct ppage *x = *(struct ppage *const *)a, *y = *(struct ppage *const *)b;

	return x->pa < y->pa ? -1 : x->pa > y->pa;
}

static size_t put_note(struct buf *b, const char *name, u32 type, const void *desc, u32 descsz)
{
	u32 head[3] = { (u32)strlen(name) + 1, descsz, type };
	size_t at = put(b, head, sizeof(head));

	put(b, name, head[0]);
	align(b, 4);
	put(b, desc, descsz);
	align(b, 4);
	return at;
}

static void vmcoreinfo(const struct variant *v, char *text, size_t size)
{
	snprintf(text, size,
		 "OSRELEASE=%s\nBUILD-ID=%s00000000000000000000000000000000\nPAGESIZE=4096\nSYMBOL(init_top_pgt)=%llx\n"
		 "SYMBOL(_stext)=ffffffff81000000\nNUMBER(phys_base)=%llu\n"
		 "KERNELOFFSET=%llx\nNUMBER(pgtable_l5_enabled)=%d\nCRASHTIME=1700000000\n",
		 v->release ? v->release : RELEASE, v->other_build_id ? "01234568" : "01234567",
		 (unsigned long long)(SYM_PGT + KASLR),
		 (unsigned long long)PHYS_BASE, (unsigned long long)KASLR, v->l5);
}

/* One PT_LOAD per run of contiguous pages in the dump. */
static size_t count_runs(void)
{
	size_t i, n = 0;

	for (i = 0; i < nr_mem; i++)
		if (!mem[i]->omit && (!i || mem[i - 1]->omit || mem[i - 1]->pa + PAGE != mem[i]->pa))
			n++;
	return n;
}

static void build_vmcore(const struct variant *v, struct buf *out)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { 0 };
	char info[512], prstatus[336] = { 0 };
	size_t nr_runs, notes, notes_end, i, ph_at;

	qsort(mem, nr_mem, sizeof(*mem), ppage_cmp);
	nr_runs = count_runs();
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = v->machine ? v->machine : EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1 + nr_runs;
	memset(out, 0, sizeof(*out));
	put(out, &eh, sizeof(eh));
	ph_at = put(out, NULL, eh.e_phnum * sizeof(ph));
	vmcoreinfo(v, info, sizeof(info));
	notes = put_note(out, "CORE", NT_PRSTATUS, prstatus, sizeof(prstatus));
	put_note(out, v->no_vmcoreinfo ? "VMCOREINFX" : "VMCOREINFO", 0, info, strlen(info));
	notes_end = out->len;
	ph.p_type = PT_NOTE;
	ph.p_offset = notes;
	ph.p_filesz = ph.p_memsz = notes_end - notes;
	memcpy(out->p + ph_at, &ph, sizeof(ph));
	align(out, PAGE);
	for (i = 0; i < nr_mem; i++) {
		if (mem[i]->omit)
			continue;
		if (!i || mem[i - 1]->omit || mem[i - 1]->pa + PAGE != mem[i]->pa) {
			memset(&ph, 0, sizeof(ph));
			ph.p_type = PT_LOAD;
			ph.p_offset = out->len;
			ph.p_paddr = mem[i]->pa;
			ph.p_vaddr = PAGE_OFFSET + mem[i]->pa;
			ph_at += sizeof(ph);
		}
		put(out, mem[i]->data, PAGE);
		ph.p_filesz += PAGE;
		ph.p_memsz += PAGE;
		memcpy(out->p + ph_at, &ph, sizeof(ph));
	}
	put(out, NULL, 3 * PAGE);	/* dd to a disk: zeros after the ELF data */
}

struct symdef {
	const char *name;
	u64 value, size;
	u16 shndx;
	unsigned char bind;
};

/*
 * Sections: null, .rodata (the banner), .data (nobits), .data..percpu,
 * .symtab, .strtab, .shstrtab, .notes (the build ID 01234567, which
 * VMCOREINFO gives padded to 20 bytes).
 */
static void build_vmlinux(const struct variant *v, struct buf *out)
{
	const struct symdef syms[] = {
		{ "init_uts_ns", SYM_BANNER, 8, 2, STB_LOCAL },	/* a decoy: the global wins */
		{ v->cb_name ? v->cb_name : "lkst_cpu_buffers", CB_OFFSET, LKST_X86_CB_SIZE, 3, STB_GLOBAL },
		{ "__per_cpu_offset", SYM_PCPU_OFF, 64, 2, STB_GLOBAL },
		{ "nr_cpu_ids", SYM_NR_CPU_IDS, 4, 2, STB_GLOBAL },
		{ "linux_banner", SYM_BANNER, sizeof(BANNER), 1, STB_GLOBAL },
		{ "init_uts_ns", SYM_UTS, 0x1b0, 2, STB_GLOBAL },
		{ "__cpu_possible_mask", SYM_POSSIBLE, 8, 2, STB_GLOBAL },
		{ "init_top_pgt", SYM_PGT, PAGE, 2, STB_GLOBAL },
	};
	static const char shstr[] =
		"\0.rodata\0.data\0.data..percpu\0.symtab\0.strtab\0.shstrtab\0.notes";
	static const unsigned char build_id[] = {
		4, 0, 0, 0, 4, 0, 0, 0, NT_GNU_BUILD_ID, 0, 0, 0, 'G', 'N', 'U', 0,
		0x01, 0x23, 0x45, 0x67,
	};
	Elf64_Shdr sh[8];
	Elf64_Ehdr eh = { 0 };
	Elf64_Sym sym;
	struct buf str = { NULL, 0 };
	size_t rodata, symtab, strtab, shstrtab, notes, i;

	memset(out, 0, sizeof(*out));
	memset(sh, 0, sizeof(sh));
	put(out, NULL, sizeof(eh));
	rodata = put(out, BANNER, sizeof(BANNER));
	align(out, 8);
	put(&str, NULL, 1);
	symtab = put(out, NULL, sizeof(sym));
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		memset(&sym, 0, sizeof(sym));
		sym.st_name = put(&str, syms[i].name, strlen(syms[i].name) + 1);
		sym.st_info = ELF64_ST_INFO(syms[i].bind, STT_OBJECT);
		sym.st_shndx = syms[i].shndx;
		sym.st_value = syms[i].value;
		sym.st_size = syms[i].size;
		put(out, &sym, sizeof(sym));
	}
	strtab = put(out, str.p, str.len);
	shstrtab = put(out, shstr, sizeof(shstr));
	align(out, 4);
	notes = put(out, build_id, sizeof(build_id));
	align(out, 8);
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_addr = SYM_BANNER,
			      .sh_offset = rodata, .sh_size = sizeof(BANNER) };
	sh[2] = (Elf64_Shdr){ .sh_name = 9, .sh_type = SHT_NOBITS, .sh_addr = SYM_DATA,
			      .sh_size = 0x4000 };
	sh[3] = (Elf64_Shdr){ .sh_name = 15, .sh_type = SHT_NOBITS, .sh_size = 0x30000 };
	sh[4] = (Elf64_Shdr){ .sh_name = 29, .sh_type = SHT_SYMTAB, .sh_offset = symtab,
			      .sh_size = strtab - symtab, .sh_link = 5, .sh_entsize = sizeof(sym) };
	sh[5] = (Elf64_Shdr){ .sh_name = 37, .sh_type = SHT_STRTAB, .sh_offset = strtab,
			      .sh_size = str.len };
	sh[6] = (Elf64_Shdr){ .sh_name = 45, .sh_type = SHT_STRTAB, .sh_offset = shstrtab,
			      .sh_size = sizeof(shstr) };
	sh[7] = (Elf64_Shdr){ .sh_name = 55, .sh_type = SHT_NOTE, .sh_offset = notes,
			      .sh_size = sizeof(build_id) };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 8;
	eh.e_shstrndx = 6;
	eh.e_shoff = put(out, sh, sizeof(sh));
	memcpy(out->p, &eh, sizeof(eh));
	free(str.p);
}

static void build(const struct variant *v, struct buf *core, struct buf *vmlinux)
{
	build_memory(v);
	build_vmcore(v, core);
	build_vmlinux(v, vmlinux);
}

/* *vc opened on the two buffers: 0, or LKST_VMCORE_* with *vc NULL. */
static int open_bufs(struct lkst_vmcore **vc, const struct buf *core, const struct buf *lin,
		     struct lkst_err *err)
{
	struct lkst_vmcore_file c = { core->p, core->len }, l = { lin->p, lin->len };
	int why = 0;

	err->msg[0] = '\0';
	*vc = lkst_vmcore_open_mem(&c, &l, &why, err);
	return *vc ? 0 : why;
}

/* ---- Tests ------------------------------------------------------------- */

static struct expect want[2];

/* Every record is the one written with its number, and the drain's. */
static int same_records(const struct lkst_vmcore_cpu *c, const struct expect *e,
			unsigned int cpu)
{
	struct lkst_record r;
	u32 nr_args;
	u64 i, j = 0;

	for (i = 0; i < lkst_vmcore_cpu_info(c)->nr_records; i++) {
		gen_record(cpu, lkst_vmcore_cpu_seqs(c)[i], &r, &nr_args);
		if (memcmp(&r, &lkst_vmcore_cpu_records(c)[i], sizeof(r)))
			return 0;
		while (j < e->nr && e->seqs[j] < lkst_vmcore_cpu_seqs(c)[i])
			j++;
		if (j == e->nr || e->seqs[j] != lkst_vmcore_cpu_seqs(c)[i])
			return 0;
	}
	return 1;
}

static void test_extract(void)
{
	struct variant v = { 0 };
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_vmcore_cpu *c = NULL;
	struct lkst_err err;

	build(&v, &core, &lin);
	CHECK_STR(open_bufs(&vc, &core, &lin, &err) ? err.msg : "", "");
	if (err.msg[0])
		return;	/* nothing to read */
	CHECK_STR(lkst_vmcore_release(vc), RELEASE);
	CHECK_STR(lkst_vmcore_nodename(vc), "crashbox");
	CHECK(lkst_vmcore_nr_cpu_ids(vc) == NR_CPU_IDS);
	CHECK(lkst_vmcore_cut_bytes(vc) == 0);

	CHECK(lkst_vmcore_read_cpu(vc, 0, &c, &err) == 0);
	CHECK(lkst_vmcore_cpu_nr_blocks(c) == 1 && lkst_vmcore_cpu_missing_pages(c) == 1 && lkst_vmcore_cpu_emptying_pages(c) == 0);
	CHECK(lkst_vmcore_cpu_info(c)->nr_records == CPU0_RECORDS && lkst_vmcore_cpu_info(c)->written == CPU0_RECORDS);
	CHECK(lkst_vmcore_cpu_info(c)->seq_start == 0 && lkst_vmcore_cpu_info(c)->seq_end == CPU0_RECORDS && lkst_vmcore_cpu_info(c)->lost == 0);
	CHECK(lkst_vmcore_cpu_info(c)->overwritten == 0 && lkst_vmcore_cpu_info(c)->dropped == 0);
	CHECK(same_records(c, &want[0], 0) && lkst_vmcore_cpu_info(c)->nr_records == want[0].nr);
	lkst_vmcore_cpu_free(c);

	CHECK(lkst_vmcore_read_cpu(vc, 1, &c, &err) == 0);
	CHECK(lkst_vmcore_cpu_nr_blocks(c) == 2 && lkst_vmcore_cpu_missing_pages(c) == 0);
	CHECK(lkst_vmcore_cpu_info(c)->written == CPU1_RECORDS && want[1].next_seq == CPU1_RECORDS);
	CHECK(lkst_vmcore_cpu_info(c)->nr_records == want[1].nr && same_records(c, &want[1], 1));
	CHECK(lkst_vmcore_cpu_info(c)->seq_end == CPU1_RECORDS && lkst_vmcore_cpu_info(c)->seq_start == want[1].seqs[0]);
	CHECK(lkst_vmcore_cpu_info(c)->lost == 0 && lkst_vmcore_cpu_seqs(c)[lkst_vmcore_cpu_info(c)->nr_records - 1] == CPU1_RECORDS - 1);
	CHECK(lkst_vmcore_cpu_info(c)->overwritten == local64_read(&cbs[1]->overwritten) + 5);
	CHECK(lkst_vmcore_cpu_info(c)->overwritten - 5 + lkst_vmcore_cpu_info(c)->nr_records == CPU1_RECORDS);
	CHECK(lkst_vmcore_cpu_info(c)->dropped == 7);
	lkst_vmcore_cpu_free(c);

	CHECK(lkst_vmcore_read_cpu(vc, 2, &c, &err) == 0 && lkst_vmcore_cpu_nr_blocks(c) == 0);
	lkst_vmcore_cpu_free(c);
	CHECK(lkst_vmcore_read_cpu(vc, 3, &c, &err) == 0 && lkst_vmcore_cpu_nr_blocks(c) == 0);
	CHECK(lkst_vmcore_cpu_info(c)->nr_records == 0);
	lkst_vmcore_cpu_free(c);
	CHECK(lkst_vmcore_read_cpu(vc, 4, &c, &err) == LKST_VMCORE_BAD && c == NULL);
	CHECK_HAS(err.msg, "does not exist");
	lkst_vmcore_close(vc);
	free(core.p);
	free(lin.p);
}

static void test_page_walk(void)
{
	struct variant v = { 0 };
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_err err;
	u64 pa = 0;

	build(&v, &core, &lin);
	CHECK(open_bufs(&vc, &core, &lin, &err) == 0);
	CHECK(lkst_vmcore_virt_to_phys(vc, 0xffffc90000100123ULL, &pa, &err) == 0 &&
	      pa == 0x50000000ULL + 8 * 0x2000 + 0x123);		/* 4 KiB */
	CHECK(lkst_vmcore_virt_to_phys(vc, 0xffffc90000612345ULL, &pa, &err) == 0 &&
	      pa == 0x60012345ULL);					/* 2 MiB */
	CHECK(lkst_vmcore_virt_to_phys(vc, PAGE_OFFSET + 0x123456789ULL, &pa, &err) == 0 &&
	      pa == 0x123456789ULL);					/* 1 GiB */
	CHECK(lkst_vmcore_virt_to_phys(vc, 0xffffc90000300000ULL, &pa, &err) == LKST_VMCORE_BAD);
	CHECK_HAS(err.msg, "0xffffc90000300000 is not mapped");
	CHECK(lkst_vmcore_virt_to_phys(vc, 0xffffea0000000000ULL, &pa, &err) == LKST_VMCORE_BAD);
	CHECK_HAS(err.msg, "PGD entry is not present");
	CHECK(lkst_vmcore_virt_to_phys(vc, 0x0000900000000000ULL, &pa, &err) == LKST_VMCORE_BAD);
	CHECK_HAS(err.msg, "not a canonical");
	lkst_vmcore_close(vc);
	free(core.p);
	free(lin.p);
}

/* CPU 1 with its median page filtered out, or being emptied. */
static void test_lost_page(int odd)
{
	struct variant v = { 0 };
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_vmcore_cpu *c = NULL;
	struct lkst_err err;

	v.omit_used_page = !odd;
	v.odd_page = odd;
	build(&v, &core, &lin);
	CHECK(open_bufs(&vc, &core, &lin, &err) == 0);
	CHECK(lkst_vmcore_read_cpu(vc, 1, &c, &err) == 0);
	CHECK(lkst_vmcore_cpu_missing_pages(c) == (u64)!odd && lkst_vmcore_cpu_emptying_pages(c) == (u64)odd);
	CHECK(median_page_records > 0);
	CHECK(lkst_vmcore_cpu_info(c)->nr_records == want[1].nr - median_page_records);
	CHECK(lkst_vmcore_cpu_info(c)->lost == median_page_records);
	CHECK(lkst_vmcore_cpu_info(c)->seq_start == want[1].seqs[0] && lkst_vmcore_cpu_info(c)->seq_end == CPU1_RECORDS);
	CHECK(same_records(c, &want[1], 1));
	lkst_vmcore_cpu_free(c);
	lkst_vmcore_close(vc);
	free(core.p);
	free(lin.p);
}

/* A variant that must be refused with a message naming the problem. */
static void expect_refused(const struct variant *v, unsigned int cpu, const char *part)
{
	struct buf core, lin;
	struct lkst_vmcore *vc;
	struct lkst_vmcore_cpu *c = NULL;
	struct lkst_err err;
	int ret;

	build(v, &core, &lin);
	ret = open_bufs(&vc, &core, &lin, &err);
	if (!ret) {
		ret = lkst_vmcore_read_cpu(vc, cpu, &c, &err);
		lkst_vmcore_cpu_free(c);
		lkst_vmcore_close(vc);
	}
	CHECK(ret == LKST_VMCORE_BAD);
	CHECK_HAS(err.msg, part);
	CHECK_HAS(err.msg, "; ");
	free(core.p);
	free(lin.p);
}

static void test_refusals(void)
{
	struct variant v;

	memset(&v, 0, sizeof(v));
	v.l5 = 1;
	expect_refused(&v, 0, "5-level");
	memset(&v, 0, sizeof(v));
	v.no_vmcoreinfo = 1;
	expect_refused(&v, 0, "no VMCOREINFO");
	memset(&v, 0, sizeof(v));
	v.release = "6.12.1-other";
	expect_refused(&v, 0, "not of the crashed kernel's release 6.12.1-other");
	memset(&v, 0, sizeof(v));
	v.other_build = 1;
	expect_refused(&v, 0, "not the build that crashed");
	memset(&v, 0, sizeof(v));
	v.other_build_id = 1;
	expect_refused(&v, 0, "VMLINUX has build ID 01234567, the crashed kernel 01234568");
	memset(&v, 0, sizeof(v));
	v.cb_name = "lkst_cpu_buffer";
	expect_refused(&v, 0, "no symbol lkst_cpu_buffers");
	memset(&v, 0, sizeof(v));
	v.machine = EM_AARCH64;
	expect_refused(&v, 0, "x86_64");
	memset(&v, 0, sizeof(v));
	v.huge_block = 1;
	expect_refused(&v, 0, "cpu 0: block 0 claims 2147483648 pages");
	memset(&v, 0, sizeof(v));
	v.bad_pte = 1;
	expect_refused(&v, 1, "cpu 1: address 0xffffc90000201000 is not mapped (its PTE entry");
}

/*
 * Open @core_len bytes of @core with @lin_len bytes of @lin and read every
 * CPU: 0, or -1 for a refusal, which *@bad_msgs counts when its message
 * lacks the "what is wrong; what to do" form.
 */
static int open_and_read(const unsigned char *core, size_t core_len,
			 const unsigned char *lin, size_t lin_len, size_t *bad_msgs)
{
	struct lkst_vmcore_file cf = { core, core_len }, lf = { lin, lin_len };
	struct lkst_vmcore *vc;
	struct lkst_vmcore_cpu *c = NULL;
	struct lkst_err err;
	unsigned int cpu;
	int ret;

	vc = lkst_vmcore_open_mem(&cf, &lf, &ret, &err);
	ret = vc ? 0 : ret;
	for (cpu = 0; !ret && cpu < lkst_vmcore_nr_cpu_ids(vc); cpu++) {
		ret = lkst_vmcore_read_cpu(vc, cpu, &c, &err);
		lkst_vmcore_cpu_free(c);
	}
	lkst_vmcore_close(vc);
	*bad_msgs += ret && !strstr(err.msg, "; ");
	return ret ? -1 : 0;
}

/* The dump with byte @at flipped by @mask (in @cut, a copy): as above. */
static int flipped(const struct buf *core, const struct buf *lin, unsigned char *cut,
		   size_t at, unsigned char mask, size_t *bad_msgs)
{
	memcpy(cut, core->p, core->len);
	cut[at] ^= mask;
	return open_and_read(cut, core->len, lin->p, lin->len, bad_msgs);
}

/* Any prefix, and any byte changed in the headers: a message, no crash. */
static void test_corrupt(void)
{
	struct variant v = { 0 };
	struct buf core, lin;
	unsigned char *cut;
	size_t len, i, refused = 0, tried = 0, bad_msgs = 0;

	build(&v, &core, &lin);
	for (len = 0; len <= core.len; len += len < 2 * PAGE ? 1 : 509) {
		refused += open_and_read(core.p, len, lin.p, lin.len, &bad_msgs) != 0;
		tried++;
	}
	CHECK(refused > 2 * PAGE && refused < tried);	/* the whole dump passes */
	CHECK(bad_msgs == 0);
	for (len = 0; len < lin.len; len++)
		open_and_read(core.p, core.len, lin.p, len, &bad_msgs);
	CHECK(bad_msgs == 0);
	cut = malloc(core.len);
	for (i = 0; i < 2 * PAGE; i++)
		flipped(&core, &lin, cut, i, i % 2 ? 0xff : 0x80, &bad_msgs);
	CHECK(bad_msgs == 0);
	/* Page heads and first records of every page: the reader's bounds. */
	for (i = PAGE; i < core.len; i += i % PAGE < 47 ? 1 : PAGE - 47)
		flipped(&core, &lin, cut, i, i % 3 ? 0xff : 0x10, &bad_msgs);
	CHECK(bad_msgs == 0);
	free(cut);
	free(core.p);
	free(lin.p);
}

/* ---- lkbuf extract itself ----------------------------------------------- */

static void write_file(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");

	CHECK(f && fwrite(b->p, 1, b->len, f) == b->len);
	if (f)
		fclose(f);
}

/* The log lkbuf extract must write, from the live buffers' drain; source as it says. */
static void write_expected_log(const char *path, const char *source)
{
	struct lkst_log_boot boot;
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_log_cpu sec;
	struct lkst_err err;
	unsigned int cpu;

	lkst_log_header_init(&h);
	h.nr_cpus = 2;
	strcpy(h.nodename, "crashbox");
	strcpy(h.release, RELEASE);
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	CHECK(lkst_log_add_meta(w, LKST_META_SOURCE, source, strlen(source) + 1, &err) == 0);
	/* The crashed boot's ID, derived from its host and anchor. */
	lkst_boot_id_derive(&h, &boot);
	CHECK(lkst_log_add_boot(w, &boot, &err) == 0);
	for (cpu = 0; cpu < 2; cpu++) {
		memset(&sec, 0, sizeof(sec));
		sec.cpu = cpu;
		sec.nr_records = want[cpu].nr;
		sec.written = want[cpu].next_seq;
		sec.overwritten = local64_read(&cbs[cpu]->overwritten) + cbs[cpu]->discarded;
		sec.dropped = local64_read(&cbs[cpu]->dropped);
		sec.seq_start = want[cpu].seqs[0];
		sec.seq_end = want[cpu].next_seq;
		CHECK(lkst_log_write_cpu_seqs(w, &sec, want[cpu].records, want[cpu].seqs, &err) == 0);
	}
	CHECK(lkst_log_commit(w, &err) == 0);
}

/* Runs a command; its exit status, its stderr in err (one line or more). */
static int run(const char *cmd, const char *dir, char *out, size_t size)
{
	char line[4096];
	FILE *f;
	int rc;

	snprintf(line, sizeof(line), "%s 2>%s/stderr >/dev/null", cmd, dir);
	rc = system(line);
	snprintf(line, sizeof(line), "%s/stderr", dir);
	out[0] = '\0';
	f = fopen(line, "r");
	if (f) {
		out[fread(out, 1, size - 1, f)] = '\0';
		fclose(f);
	}
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int same_file(const char *a, const char *b)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	return system(cmd) == 0;
}

/* Runs @cmd: exit status @rc, @part in its stderr, one line when it fails. */
static void expect_run(const char *cmd, const char *dir, int rc, const char *part)
{
	char err[4096];
	int got = run(cmd, dir, err, sizeof(err));

	CHECK(got == rc && (!rc || strchr(err, '\n') == err + strlen(err) - 1));
	CHECK_HAS(err, part);
	if (got != rc)
		fprintf(stderr, "  %s: exit %d, want %d; stderr: %s\n", cmd, got, rc, err);
}

static void test_cli(const char *lkbuf)
{
	char dir[] = "/tmp/lkst_test_vmcore.XXXXXX", cmd[2048], path[1100], part[100];
	struct variant v = { 0 };
	struct buf core, lin;

	CHECK(mkdtemp(dir) != NULL);
	build(&v, &core, &lin);
	snprintf(path, sizeof(path), "%s/vmcore", dir);
	write_file(path, &core);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	write_file(path, &lin);
	snprintf(path, sizeof(path), "%s/want.log", dir);
	snprintf(cmd, sizeof(cmd), "a kdump vmcore, %s/vmcore (lkbuf extract)", dir);
	write_expected_log(path, cmd);

	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/vmcore --vmlinux %s/vmlinux -f %s/out.log",
		 lkbuf, dir, dir, dir);
	snprintf(part, sizeof(part), "extracted %llu records of 2 CPUs",
		 (unsigned long long)(want[0].nr + want[1].nr));
	expect_run(cmd, dir, 0, part);
	expect_run(cmd, dir, 0, "1 buffer pages are not in the vmcore");
	snprintf(cmd, sizeof(cmd), "%s/out.log", dir);
	CHECK(same_file(cmd, path));
	snprintf(cmd, sizeof(cmd), "%s print -f %s/out.log", lkbuf, dir);
	expect_run(cmd, dir, 0, "lkbuf: printed");

	/* Refusals: exit 1, one line. */
	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/vmlinux --vmlinux %s/vmlinux -f %s/x.log",
		 lkbuf, dir, dir, dir);
	expect_run(cmd, dir, 1, "lkbuf: VMCORE is not an ELF core file");
	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/vmcore --vmlinux %s/vmcore -f %s/x.log",
		 lkbuf, dir, dir, dir);
	expect_run(cmd, dir, 1, "VMLINUX has no");
	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/vmcore --vmlinux %s/vmlinux -f %s/vmcore",
		 lkbuf, dir, dir, dir);
	expect_run(cmd, dir, 1, "is the vmcore itself");
	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/none --vmlinux %s/vmlinux -f %s/x.log",
		 lkbuf, dir, dir, dir);
	expect_run(cmd, dir, 1, "cannot open VMCORE");
	snprintf(cmd, sizeof(cmd), "%s extract --vmcore %s/vmcore -f %s/x.log", lkbuf, dir, dir);
	expect_run(cmd, dir, 1, "--vmlinux");
	snprintf(path, sizeof(path), "%s/x.log", dir);
	CHECK(access(path, F_OK) != 0);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	free(core.p);
	free(lin.p);
}

/*
 * With --cases, a "PASS name" or "FAIL name" line per case, as the tests
 * that make -C tests/host check counts print.
 */
static int print_cases;

static void run_case(const char *name, void (*fn)(void))
{
	int failed = checks_failed;

	fn();
	if (print_cases)
		printf("%s vmcore %s\n", checks_failed == failed ? "PASS" : "FAIL", name);
}

static void test_lost_filtered(void)
{
	test_lost_page(0);
}

static void test_lost_emptying(void)
{
	test_lost_page(1);
}

static const char *lkbuf_path;

static void test_lkbuf(void)
{
	test_cli(lkbuf_path);
}

int main(int argc, char **argv)
{
	unsigned int cpu;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cases"))
			print_cases = 1;
		else if (!strcmp(argv[i], "--lkbuf") && i + 1 < argc)
			lkbuf_path = argv[++i];
	}
	if (!lkbuf_path)
		lkbuf_path = getenv("LKBUF");
	build_buffers();
	for (cpu = 0; cpu < 2; cpu++)
		expect_of(cpu, &want[cpu]);
	/* The fixture is what the test says it is: CPU 1 wrapped, CPU 0 not. */
	CHECK(want[0].nr == CPU0_RECORDS && want[0].seqs[0] == 0);
	CHECK(local64_read(&cbs[1]->overwritten) > 0 && want[1].nr < CPU1_RECORDS);

	run_case("extract", test_extract);
	run_case("page walk", test_page_walk);
	run_case("page filtered out", test_lost_filtered);
	run_case("page being emptied", test_lost_emptying);
	run_case("refusals", test_refusals);
	run_case("corrupt and truncated files", test_corrupt);
	if (lkbuf_path)
		run_case("lkbuf extract", test_lkbuf);

	for (cpu = 0; cpu < 2; cpu++) {
		free(want[cpu].records);
		free(want[cpu].seqs);
		free_buffer(cbs[cpu]);
	}
	mem_reset();
	return check_report();
}
