// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf extract: lkst's buffers out of a kdump vmcore (see lkst_vmcore.h).
 *
 * Physical memory is what the PT_LOAD segments hold; a page they lack was
 * filtered out of the dump.  Virtual addresses: lkst_vmcore_arch.c; one
 * CPU's buffer: lkst_vmcore_cpu.c.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_vmcore_int.h"

#define MAX_CPUS		8192		/* x86_64's largest NR_CPUS, above arm64's */

/* f's bytes [off, off + len), or NULL when the file does not hold them all. */
static const unsigned char *file_at(const struct lkst_vmcore_file *f, u64 off, u64 len)
{
	if (off > f->size || len > f->size - off)
		return NULL;
	return f->data + off;
}

static bool file_copy(const struct lkst_vmcore_file *f, u64 off, u64 len, void *dst)
{
	const unsigned char *p = file_at(f, off, len);

	if (p)
		memcpy(dst, p, len);
	return p != NULL;
}

/* ---- Physical memory: the PT_LOAD segments ---------------------------- */

static int seg_cmp(const void *a, const void *b)
{
	const struct lkst_vmcore_seg *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* The segment holding @pa, or NULL; segments may overlap (the kernel's). */
static const struct lkst_vmcore_seg *seg_of(const struct lkst_vmcore *vc, u64 pa)
{
	size_t lo = 0, hi = vc->nr_segs;

	while (lo < hi) {		/* lo: the first segment above pa */
		size_t mid = lo + (hi - lo) / 2;

		if (vc->segs[mid].paddr <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && vc->segs[lo].max_end > pa)
		if (pa - vc->segs[lo].paddr < vc->segs[lo].size)
			return &vc->segs[lo];
	return NULL;
}

int lkst_vmcore_read_phys(const struct lkst_vmcore *vc, u64 pa, void *buf, size_t len)
{
	unsigned char *out = buf;
	int missing = 0;

	while (len) {
		const struct lkst_vmcore_seg *s = seg_of(vc, pa);
		size_t n = len;

		if (!s) {	/* zeros to the next page: kdump's segments are pages */
			n = LKST_PAGE_SIZE - (pa & (LKST_PAGE_SIZE - 1));
			n = n < len ? n : len;
			memset(out, 0, n);
			missing = 1;
		} else {
			if (s->size - (pa - s->paddr) < n)
				n = s->size - (pa - s->paddr);
			memcpy(out, vc->core.data + s->offset + (pa - s->paddr), n);
		}
		out += n;
		pa += n;
		len -= n;
	}
	return missing;
}

/* ---- The vmcore's ELF headers ------------------------------------------ */

static int check_ehdr(const struct lkst_vmcore_file *f, const char *what,
		      Elf64_Ehdr *eh, struct lkst_err *err)
{
	if (!file_copy(f, 0, sizeof(*eh), eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		lkst_seterr(err, "%s is not an ELF file; give %s", what,
			    !strcmp(what, "VMCORE") ? "the kdump vmcore (/proc/vmcore)" :
			    "the crashed kernel's vmlinux");
		return LKST_VMCORE_BAD;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh->e_machine != EM_X86_64 && eh->e_machine != EM_AARCH64)) {
		lkst_seterr(err, "%s is not a 64-bit little-endian x86_64 or arm64 ELF file; lkbuf extract reads x86_64 and arm64 kernels only",
			    what);
		return LKST_VMCORE_BAD;
	}
	return 0;
}

/* The vmlinux must be of the vmcore's architecture. */
static int check_machine(const struct lkst_vmcore *vc, struct lkst_err *err)
{
	Elf64_Ehdr eh;
	int ret = check_ehdr(&vc->vmlinux, "VMLINUX", &eh, err);

	if (!ret && eh.e_machine != vc->machine) {
		lkst_seterr(err, "VMLINUX is an %s kernel, VMCORE the dump of an %s one; give the crashed kernel's vmlinux",
			    lkst_vc_arch_name(eh.e_machine), lkst_vc_arch_name(vc->machine));
		return LKST_VMCORE_BAD;
	}
	return ret;
}

/* The program header table: its offset and entry count. */
static int core_phdrs(const struct lkst_vmcore *vc, const Elf64_Ehdr *eh,
		      u64 *nr, struct lkst_err *err)
{
	Elf64_Shdr sh0;

	*nr = eh->e_phnum;
	/* More than 65534 segments: the count is in section 0. */
	if (*nr == PN_XNUM && eh->e_shentsize == sizeof(sh0) &&
	    file_copy(&vc->core, eh->e_shoff, sizeof(sh0), &sh0))
		*nr = sh0.sh_info;
	if (eh->e_type != ET_CORE || eh->e_phentsize != sizeof(Elf64_Phdr) || !*nr ||
	    !file_at(&vc->core, eh->e_phoff, *nr * sizeof(Elf64_Phdr))) {
		lkst_seterr(err, "VMCORE is not an ELF core file with program headers, or they are cut off; give the whole kdump vmcore");
		return LKST_VMCORE_BAD;
	}
	return 0;
}

/* The VMCOREINFO note's text in a PT_NOTE segment, or NULL. */
static const char *find_vmcoreinfo(const struct lkst_vmcore *vc, const Elf64_Phdr *ph,
				   size_t *len)
{
	const unsigned char *notes = file_at(&vc->core, ph->p_offset, ph->p_filesz);
	u64 pos = 0, name, desc, next;

	while (notes && ph->p_filesz - pos >= 12) {
		u32 namesz = lkst_vc_get32(notes + pos), descsz = lkst_vc_get32(notes + pos + 4);

		name = pos + 12;
		desc = name + ((namesz + 3ULL) & ~3ULL);
		next = desc + ((descsz + 3ULL) & ~3ULL);
		if (next > ph->p_filesz)
			break;
		if (namesz == sizeof("VMCOREINFO") &&
		    !memcmp(notes + name, "VMCOREINFO", sizeof("VMCOREINFO"))) {
			*len = descsz;
			return (const char *)notes + desc;
		}
		pos = next;
	}
	return NULL;
}

/* Physical memory segments; those cut off by the end of the file shrink. */
static int add_segment(struct lkst_vmcore *vc, const Elf64_Phdr *ph, struct lkst_err *err)
{
	struct lkst_vmcore_seg *s = &vc->segs[vc->nr_segs];
	u64 present = 0;

	if (ph->p_paddr + ph->p_memsz < ph->p_paddr || ph->p_filesz > ph->p_memsz) {
		lkst_seterr(err, "VMCORE has a corrupt memory segment (physical 0x%llx, %llu bytes); give an intact vmcore",
			    (unsigned long long)ph->p_paddr, (unsigned long long)ph->p_memsz);
		return LKST_VMCORE_BAD;
	}
	if (ph->p_offset < vc->core.size)
		present = vc->core.size - ph->p_offset;
	if (present > ph->p_filesz)
		present = ph->p_filesz;
	vc->cut_bytes += ph->p_filesz - present;
	vc->phys_pages += ph->p_memsz / LKST_PAGE_SIZE;
	if (!present)
		return 0;
	s->paddr = ph->p_paddr;
	s->size = present;
	s->offset = ph->p_offset;
	vc->nr_segs++;
	return 0;
}

static void index_segments(struct lkst_vmcore *vc)
{
	u64 max_end = 0;
	size_t i;

	qsort(vc->segs, vc->nr_segs, sizeof(*vc->segs), seg_cmp);
	for (i = 0; i < vc->nr_segs; i++) {
		if (vc->segs[i].paddr + vc->segs[i].size > max_end)
			max_end = vc->segs[i].paddr + vc->segs[i].size;
		vc->segs[i].max_end = max_end;
	}
}

/* PT_LOAD segments into vc->segs, the VMCOREINFO text into *info. */
static int parse_core(struct lkst_vmcore *vc, const char **info, size_t *info_len,
		      struct lkst_err *err)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	u64 nr, i;
	int ret;

	*info = NULL;
	if ((ret = check_ehdr(&vc->core, "VMCORE", &eh, err)) ||
	    (ret = core_phdrs(vc, &eh, &nr, err)))
		return ret;
	vc->machine = eh.e_machine;
	vc->segs = calloc(nr, sizeof(*vc->segs));
	if (!vc->segs) {
		lkst_seterr(err, "out of memory for %llu segments; free some memory",
			    (unsigned long long)nr);
		return LKST_VMCORE_NOMEM;
	}
	for (i = 0; i < nr; i++) {
		file_copy(&vc->core, eh.e_phoff + i * sizeof(ph), sizeof(ph), &ph);
		if (ph.p_type == PT_LOAD && (ret = add_segment(vc, &ph, err)))
			return ret;
		if (ph.p_type == PT_NOTE && !*info)
			*info = find_vmcoreinfo(vc, &ph, info_len);
	}
	index_segments(vc);
	if (!*info) {
		lkst_seterr(err, "VMCORE has no VMCOREINFO note, or it is cut off; give the vmcore the kdump kernel's /proc/vmcore gave");
		return LKST_VMCORE_BAD;
	}
	return 0;
}

/* ---- VMCOREINFO ------------------------------------------------------- */

/* The value of KEY=value in the note's lines, NUL-terminated in buf. */
static bool info_value(const char *info, size_t len, const char *key, char *buf,
		       size_t size)
{
	size_t klen = strlen(key), pos = 0, end, n;

	while (pos < len) {
		const char *nl = memchr(info + pos, '\n', len - pos);

		end = nl ? (size_t)(nl - info) : len;
		if (end - pos > klen && !memcmp(info + pos, key, klen) &&
		    info[pos + klen] == '=') {
			n = end - pos - klen - 1;
			if (n >= size || memchr(info + pos + klen + 1, '\0', n))
				return false;
			memcpy(buf, info + pos + klen + 1, n);
			buf[n] = '\0';
			return true;
		}
		pos = end + 1;
	}
	return false;
}

/*
 * A number of VMCOREINFO: hex (SYMBOL, KERNELOFFSET) or signed decimal;
 * *out is left alone unless it is one.
 */
static bool info_number(const char *info, size_t len, const char *key, int base,
			u64 *out)
{
	char buf[32], *end;
	u64 v;

	if (!info_value(info, len, key, buf, sizeof(buf)) || !buf[0])
		return false;
	errno = 0;
	v = base == 16 ? strtoull(buf, &end, 16) : (u64)strtoll(buf, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static int parse_vmcoreinfo(struct lkst_vmcore *vc, const char *info, size_t len,
			    struct lkst_err *err)
{
	u64 page_size = LKST_PAGE_SIZE;

	if (!info_value(info, len, "OSRELEASE", vc->release, sizeof(vc->release))) {
		lkst_seterr(err, "VMCORE's VMCOREINFO lacks OSRELEASE; give the vmcore of an %s kernel",
			    lkst_vc_arch_name(vc->machine));
		return LKST_VMCORE_BAD;
	}
	info_value(info, len, "BUILD-ID", vc->build_id, sizeof(vc->build_id));
	info_number(info, len, "PAGESIZE", 10, &page_size);
	info_number(info, len, "KERNELOFFSET", 16, &vc->kernel_offset);
	if (page_size != LKST_PAGE_SIZE) {
		lkst_seterr(err, "VMCORE's kernel has %llu-byte pages; lkbuf extract reads kernels with 4 KiB pages only",
			    (unsigned long long)page_size);
		return LKST_VMCORE_BAD;
	}
	return lkst_vc_arch_info(vc, info, len, info_number, err);
}

/* ---- The vmlinux's symbols -------------------------------------------- */

enum {
	SYM_CPU_BUFFERS, SYM_PER_CPU_OFFSET, SYM_NR_CPU_IDS,	/* needed */
	SYM_BANNER, SYM_UTS, SYM_POSSIBLE, SYM_ANCHOR,		/* optional */
	NR_SYMS
};

static const char *const sym_names[NR_SYMS] = {
	"lkst_cpu_buffers", "__per_cpu_offset", "nr_cpu_ids",
	"linux_banner", "init_uts_ns", "__cpu_possible_mask",
	"lkst_saved_clock_anchor",
};

struct vmlinux {
	Elf64_Ehdr eh;
	u64 nr_sections;
	Elf64_Sym syms[NR_SYMS];	/* st_name 0: not found */
};

static bool section(const struct vmlinux *vl, const struct lkst_vmcore_file *f,
		    u64 index, Elf64_Shdr *sh)
{
	return index < vl->nr_sections &&
	       file_copy(f, vl->eh.e_shoff + index * sizeof(*sh), sizeof(*sh), sh);
}

/* Is the symbol at @off of @strtab named @name? */
static bool sym_is(const unsigned char *strtab, u64 size, u64 off, const char *name)
{
	size_t len = strlen(name);

	return off < size && size - off > len && !memcmp(strtab + off, name, len + 1);
}

/* Keeps the wanted symbols, a global one before a local of the same name. */
static void match_symbol(struct vmlinux *vl, const Elf64_Sym *sym,
			 const unsigned char *strtab, u64 size)
{
	unsigned int i;

	for (i = 0; i < NR_SYMS; i++) {
		if (!sym_is(strtab, size, sym->st_name, sym_names[i]))
			continue;
		if (!vl->syms[i].st_name ||
		    (ELF64_ST_BIND(sym->st_info) == STB_GLOBAL &&
		     ELF64_ST_BIND(vl->syms[i].st_info) != STB_GLOBAL))
			vl->syms[i] = *sym;
	}
}

static int find_symbols(struct vmlinux *vl, const struct lkst_vmcore_file *f,
			struct lkst_err *err)
{
	const unsigned char *strtab = NULL;
	Elf64_Shdr sh, strsh;
	Elf64_Sym sym;
	u64 i, n;

	for (i = 1; i < vl->nr_sections && section(vl, f, i, &sh); i++)
		if (sh.sh_type == SHT_SYMTAB)
			break;
	if (i >= vl->nr_sections || sh.sh_entsize != sizeof(sym) ||
	    !file_at(f, sh.sh_offset, sh.sh_size) || !section(vl, f, sh.sh_link, &strsh) ||
	    !(strtab = file_at(f, strsh.sh_offset, strsh.sh_size))) {
		lkst_seterr(err, "VMLINUX has no readable symbol table (stripped, or cut off?); give the vmlinux the kernel was built with");
		return LKST_VMCORE_BAD;
	}
	n = sh.sh_size / sizeof(sym);
	for (i = 1; i < n; i++) {
		file_copy(f, sh.sh_offset + i * sizeof(sym), sizeof(sym), &sym);
		match_symbol(vl, &sym, strtab, strsh.sh_size);
	}
	return 0;
}

static int parse_vmlinux(struct vmlinux *vl, const struct lkst_vmcore_file *f,
			 struct lkst_err *err)
{
	Elf64_Shdr sh0;
	int ret;

	memset(vl, 0, sizeof(*vl));
	if ((ret = check_ehdr(f, "VMLINUX", &vl->eh, err)))
		return ret;
	vl->nr_sections = vl->eh.e_shnum;
	if (vl->eh.e_shentsize != sizeof(Elf64_Shdr)) {
		lkst_seterr(err, "VMLINUX has no section headers; give the vmlinux the kernel was built with");
		return LKST_VMCORE_BAD;
	}
	/* 65280 sections or more: the count is in section 0. */
	if (!vl->nr_sections && file_copy(f, vl->eh.e_shoff, sizeof(sh0), &sh0))
		vl->nr_sections = sh0.sh_size;
	ret = find_symbols(vl, f, err);
	if (!ret && !vl->syms[SYM_CPU_BUFFERS].st_name)
		lkst_seterr(err, "VMLINUX has no symbol lkst_cpu_buffers: it is not a kernel with lkst; give the crashed kernel's vmlinux");
	else if (!ret && (!vl->syms[SYM_PER_CPU_OFFSET].st_name || !vl->syms[SYM_NR_CPU_IDS].st_name))
		lkst_seterr(err, "VMLINUX has no symbol __per_cpu_offset or nr_cpu_ids: not an SMP kernel; give the crashed kernel's vmlinux");
	else
		return ret;
	return LKST_VMCORE_BAD;
}

/* The bytes of a symbol's object in the vmlinux file (its initial value). */
static const unsigned char *sym_bytes(const struct vmlinux *vl, const struct lkst_vmcore_file *f,
				      const Elf64_Sym *sym)
{
	Elf64_Shdr sh;

	if (!section(vl, f, sym->st_shndx, &sh) || sh.sh_type != SHT_PROGBITS ||
	    sym->st_value < sh.sh_addr || sym->st_size > sh.sh_size ||
	    sym->st_value - sh.sh_addr > sh.sh_size - sym->st_size)
		return NULL;
	return file_at(f, sh.sh_offset + (sym->st_value - sh.sh_addr), sym->st_size);
}

/* ---- Does the vmlinux belong to the vmcore? ----------------------------- */

/* The GNU build ID note in a SHT_NOTE section, as hex into @hex. */
static bool note_build_id(const struct lkst_vmcore_file *f, const Elf64_Shdr *sh,
			  char *hex, size_t size)
{
	const unsigned char *notes = file_at(f, sh->sh_offset, sh->sh_size);
	u64 pos = 0, desc, next, i;

	while (notes && sh->sh_size - pos >= 12) {
		u32 namesz = lkst_vc_get32(notes + pos), descsz = lkst_vc_get32(notes + pos + 4);

		desc = pos + 12 + ((namesz + 3ULL) & ~3ULL);
		next = desc + ((descsz + 3ULL) & ~3ULL);
		if (next > sh->sh_size)
			break;
		if (lkst_vc_get32(notes + pos + 8) == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(notes + pos + 12, "GNU", 4) && descsz * 2ULL < size) {
			for (i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", notes[desc + i]);
			hex[2 * descsz] = '\0';
			return true;
		}
		pos = next;
	}
	return false;
}

/*
 * VMCOREINFO's BUILD-ID (20 bytes, zero padded) names the exact build:
 * the vmlinux's build ID must be it.
 */
static int check_build_id(const struct lkst_vmcore *vc, const struct vmlinux *vl,
			  struct lkst_err *err)
{
	char hex[2 * 64 + 1];
	Elf64_Shdr sh;
	size_t n;
	u64 i;

	if (!vc->build_id[0])
		return 0;
	for (i = 1; section(vl, &vc->vmlinux, i, &sh); i++) {
		if (sh.sh_type != SHT_NOTE || !note_build_id(&vc->vmlinux, &sh, hex, sizeof(hex)))
			continue;
		n = strlen(hex);
		if (!strncasecmp(vc->build_id, hex, n) &&
		    strspn(vc->build_id + n, "0") == strlen(vc->build_id + n))
			return 0;
		lkst_seterr(err, "VMLINUX has build ID %s, the crashed kernel %s; give the crashed kernel's vmlinux",
			    hex, vc->build_id);
		return LKST_VMCORE_BAD;
	}
	return 0;	/* no build ID to compare: the banner decides */
}

/*
 * linux_banner names the release and the build ("#1 SMP ... date"): the
 * vmlinux's must be that release, and the same as the one the crashed
 * kernel holds in memory, which also proves the KASLR offset right.
 */
static int check_banner(const struct lkst_vmcore *vc, const struct vmlinux *vl,
			struct lkst_err *err)
{
	const Elf64_Sym *sym = &vl->syms[SYM_BANNER];
	const unsigned char *file;
	char want[96], mem[512], shown[81];
	size_t n;

	if (!sym->st_name || !(file = sym_bytes(vl, &vc->vmlinux, sym)))
		return 0;	/* nothing to compare with */
	n = sym->st_size < sizeof(mem) ? sym->st_size : sizeof(mem);
	snprintf(want, sizeof(want), "Linux version %s ", vc->release);
	if (n < strlen(want) || memcmp(file, want, strlen(want))) {
		snprintf(shown, sizeof(shown), "%.*s", (int)(n < 80 ? n : 80), (const char *)file);
		shown[strcspn(shown, "\n")] = '\0';	/* one line */
		lkst_seterr(err, "VMLINUX is not of the crashed kernel's release %s (its banner: %s); give the crashed kernel's vmlinux",
			    vc->release, shown);
		return LKST_VMCORE_BAD;
	}
	if (lkst_vc_kernel_read(vc, sym->st_value + vc->kernel_offset, mem, n, "linux_banner", err))
		return 0;	/* not in the dump: the release matched */
	if (memcmp(mem, file, n)) {
		lkst_seterr(err, "VMLINUX is of release %s but not the build that crashed (its linux_banner differs from the one in the vmcore); give the crashed kernel's vmlinux",
			    vc->release);
		return LKST_VMCORE_BAD;
	}
	return 0;
}

/* uname -n of the crashed kernel, when init_uts_ns looks as expected. */
static void read_nodename(struct lkst_vmcore *vc, const struct vmlinux *vl)
{
	const Elf64_Sym *sym = &vl->syms[SYM_UTS];
	char uts[3][65];	/* sysname, nodename, release: the struct's head */
	struct lkst_err ignored;

	vc->nodename[0] = '\0';
	if (!sym->st_name || sym->st_size < sizeof(uts) ||
	    lkst_vc_kernel_read(vc, sym->st_value + vc->kernel_offset, uts, sizeof(uts),
			"init_uts_ns", &ignored))
		return;
	if (strcmp(uts[0], "Linux") || strncmp(uts[2], vc->release, sizeof(uts[2])) ||
	    !memchr(uts[1], '\0', sizeof(uts[1])))
		return;
	memcpy(vc->nodename, uts[1], sizeof(vc->nodename));
}

/*
 * The trace clock and CLOCK_REALTIME as the kernel read them together at
 * boot and again at panic (lkst_saved_clock_anchor, panic_dump.c); left
 * 0 when the kernel has no such symbol or the reading looks wrong.
 */
static void read_anchor(struct lkst_vmcore *vc, const struct vmlinux *vl)
{
	const Elf64_Sym *sym = &vl->syms[SYM_ANCHOR];
	struct lkst_clock_anchor a;
	struct lkst_err ignored;

	vc->anchor_trace_ns = vc->anchor_realtime_ns = 0;
	if (!sym->st_name || sym->st_size != sizeof(a) ||
	    lkst_vc_kernel_read(vc, sym->st_value + vc->kernel_offset, &a, sizeof(a),
			"lkst_saved_clock_anchor", &ignored))
		return;
	if (!a.realtime_ns || a.realtime_ns < a.trace_ns)
		return;
	vc->anchor_trace_ns = a.trace_ns;
	vc->anchor_realtime_ns = a.realtime_ns;
}

/* nr_cpu_ids and where the per-CPU areas and lkst_cpu_buffers are. */
static int read_cpus(struct lkst_vmcore *vc, const struct vmlinux *vl, struct lkst_err *err)
{
	const Elf64_Sym *cb = &vl->syms[SYM_CPU_BUFFERS], *off = &vl->syms[SYM_PER_CPU_OFFSET];
	u32 nr;
	int ret;

	if (cb->st_size && cb->st_size != LKST_X86_CB_SIZE) {
		lkst_seterr(err, "VMLINUX's struct lkst_cpu_buffer is %llu bytes, this lkbuf reads %u: another lkst version; use the lkbuf built with the crashed kernel",
			    (unsigned long long)cb->st_size, LKST_X86_CB_SIZE);
		return LKST_VMCORE_BAD;
	}
	/*
	 * x86_64's zero-based per-CPU symbols are offsets, not relocated by
	 * KASLR; arm64's are addresses in the image's .data..percpu.
	 */
	vc->cpu_buffers = cb->st_value + (lkst_vc_is_image_addr(vc, cb->st_value) ? vc->kernel_offset : 0);
	vc->per_cpu_offset = off->st_value + vc->kernel_offset;
	if (vl->syms[SYM_POSSIBLE].st_name)
		vc->possible_mask = vl->syms[SYM_POSSIBLE].st_value + vc->kernel_offset;
	ret = lkst_vc_kernel_read(vc, vl->syms[SYM_NR_CPU_IDS].st_value + vc->kernel_offset, &nr,
			  sizeof(nr), "nr_cpu_ids", err);
	if (ret)
		return ret;
	if (!nr || nr > MAX_CPUS || (off->st_size && nr > off->st_size / 8)) {
		lkst_seterr(err, "VMCORE's nr_cpu_ids is %u, out of range; the vmcore is corrupt or the vmlinux does not match it",
			    nr);
		return LKST_VMCORE_BAD;
	}
	vc->nr_cpu_ids = nr;
	return 0;
}

/* ---- Opening ------------------------------------------------------------ */

static int map_file(const char *path, const char *what, struct lkst_vmcore_file *f,
		    struct lkst_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	void *p;

	if (fd < 0) {
		lkst_seterr(err, "cannot open %s %s: %s; check the path", what, path, strerror(errno));
		return LKST_VMCORE_BAD;
	}
	size = lseek(fd, 0, SEEK_END);	/* a regular file or a disk */
	if (size <= 0) {
		lkst_seterr(err, "%s %s is empty or cannot be sized; give the file itself", what, path);
		close(fd);
		return LKST_VMCORE_BAD;
	}
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		lkst_seterr(err, "cannot map %s %s: %s; check the file", what, path, strerror(errno));
		return LKST_VMCORE_BAD;
	}
	f->data = p;
	f->size = size;
	return 0;
}

/* Fills vc, which close frees on a failure; 0 or LKST_VMCORE_*. */
static int open_checked(struct lkst_vmcore *vc, struct lkst_err *err)
{
	struct vmlinux vl;
	const char *info;
	size_t info_len = 0;
	int ret;

	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) {
		lkst_seterr(err, "lkbuf extract runs on little-endian hosts only; copy the vmcore to an x86_64 or arm64 machine");
		return LKST_VMCORE_BAD;
	}
	if ((ret = parse_core(vc, &info, &info_len, err)) ||
	    (ret = check_machine(vc, err)) ||
	    (ret = parse_vmcoreinfo(vc, info, info_len, err)) ||
	    (ret = parse_vmlinux(&vl, &vc->vmlinux, err)) ||
	    (ret = check_build_id(vc, &vl, err)) ||
	    (ret = check_banner(vc, &vl, err)) ||
	    (ret = read_cpus(vc, &vl, err)))
		return ret;
	read_nodename(vc, &vl);
	read_anchor(vc, &vl);
	return 0;
}

/*
 * A handle on core and vmlinux (unmapped at close when mapped is set, and
 * on a failure here); NULL with err and *why set.
 */
static struct lkst_vmcore *open_files(const struct lkst_vmcore_file *core,
				      const struct lkst_vmcore_file *vmlinux, int mapped,
				      int *why, struct lkst_err *err)
{
	struct lkst_vmcore *vc = calloc(1, sizeof(*vc));
	int ret;

	if (!vc) {
		lkst_seterr(err, "out of memory; free some memory");
		ret = LKST_VMCORE_NOMEM;
	} else {
		vc->core = *core;
		vc->vmlinux = *vmlinux;
		vc->mapped = mapped;
		ret = open_checked(vc, err);
	}
	if (!ret)
		return vc;
	if (vc)
		lkst_vmcore_close(vc);
	else if (mapped) {
		munmap((void *)core->data, core->size);
		munmap((void *)vmlinux->data, vmlinux->size);
	}
	if (why)
		*why = ret;
	return NULL;
}

struct lkst_vmcore *lkst_vmcore_open_mem(const struct lkst_vmcore_file *core,
					 const struct lkst_vmcore_file *vmlinux,
					 int *why, struct lkst_err *err)
{
	return open_files(core, vmlinux, 0, why, err);
}

struct lkst_vmcore *lkst_vmcore_open(const char *vmcore, const char *vmlinux,
				     int *why, struct lkst_err *err)
{
	struct lkst_vmcore_file core, lin;
	int ret;

	if ((ret = map_file(vmcore, "VMCORE", &core, err)))
		goto fail;
	if ((ret = map_file(vmlinux, "VMLINUX", &lin, err))) {
		munmap((void *)core.data, core.size);
		goto fail;
	}
	return open_files(&core, &lin, 1, why, err);
fail:
	if (why)
		*why = ret;
	return NULL;
}

void lkst_vmcore_close(struct lkst_vmcore *vc)
{
	if (!vc)
		return;
	free(vc->segs);
	if (vc->mapped) {
		munmap((void *)vc->core.data, vc->core.size);
		munmap((void *)vc->vmlinux.data, vc->vmlinux.size);
	}
	free(vc);
}

unsigned int lkst_vmcore_nr_cpu_ids(const struct lkst_vmcore *vc)
{
	return vc->nr_cpu_ids;
}

const char *lkst_vmcore_release(const struct lkst_vmcore *vc)
{
	return vc->release;
}

const char *lkst_vmcore_nodename(const struct lkst_vmcore *vc)
{
	return vc->nodename;
}

struct lkst_clock_anchor lkst_vmcore_anchor(const struct lkst_vmcore *vc)
{
	struct lkst_clock_anchor a = {
		.trace_ns = vc->anchor_trace_ns,
		.realtime_ns = vc->anchor_realtime_ns,
	};

	return a;
}

__u64 lkst_vmcore_cut_bytes(const struct lkst_vmcore *vc)
{
	return vc->cut_bytes;
}
