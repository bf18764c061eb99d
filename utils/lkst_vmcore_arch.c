// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf extract: a crashed kernel's virtual addresses to physical ones,
 * per architecture (see lkst_vmcore.h).
 *
 * x86_64: a kernel image address (a vmlinux symbol plus the KASLR offset)
 * is physical v - __START_KERNEL_map + phys_base; any other (per-CPU
 * areas, kmalloc'ed blocks, vmalloc'ed pages, the persistent region in the
 * linear map) is found by walking init_top_pgt, 4 levels.
 *
 * arm64: an image address is physical v - kimage_voffset; any other is
 * found by walking swapper_pg_dir, the TTBR1 table, as the MMU does with a
 * 4 KiB granule: TCR_EL1.T1SZ gives the virtual address bits, and they
 * the number of levels (3 for 39 bits, 4 for 48).  A kernel built for 52
 * bits on a CPU without LPA2 runs with 48 and folds its fifth level, so
 * the walk is the MMU's, not the configuration's.
 */
#include <elf.h>

#include "lkst_vmcore_int.h"

#define START_KERNEL_MAP	0xffffffff80000000ULL
#define X86_PTE_PRESENT		(1ULL << 0)
#define X86_PTE_LARGE		(1ULL << 7)	/* a 1 GiB or 2 MiB page */
#define X86_PTE_PFN_MASK	0x000ffffffffff000ULL
/* arm64 stage 1 descriptors, 4 KiB granule, 48-bit output addresses. */
#define ARM64_DESC_VALID	(1ULL << 0)
#define ARM64_DESC_TABLE	(1ULL << 1)	/* above level 3: table, not block */
#define ARM64_DESC_OA_MASK	0x0000fffffffff000ULL

const char *lkst_vc_arch_name(unsigned int machine)
{
	return machine == EM_AARCH64 ? "arm64" : "x86_64";
}

/* ---- VMCOREINFO --------------------------------------------------------- */

static int x86_info(struct lkst_vmcore *vc, const char *info, size_t len,
		    lkst_vc_info_fn number, struct lkst_err *err)
{
	u64 l5 = 0, top_pgt;

	if (!number(info, len, "SYMBOL(init_top_pgt)", 16, &top_pgt) ||
	    !number(info, len, "NUMBER(phys_base)", 10, &vc->phys_base)) {
		lkst_seterr(err, "VMCORE's VMCOREINFO lacks SYMBOL(init_top_pgt) or NUMBER(phys_base); give the vmcore of an x86_64 kernel");
		return LKST_VMCORE_BAD;
	}
	number(info, len, "NUMBER(pgtable_l5_enabled)", 10, &l5);
	number(info, len, "NUMBER(sme_mask)", 10, &vc->sme_mask);
	if (l5) {
		lkst_seterr(err, "VMCORE's kernel uses 5-level page tables, which lkbuf extract cannot walk; boot the kernel with no5lvl to take dumps it can read");
		return LKST_VMCORE_BAD;
	}
	if (top_pgt < START_KERNEL_MAP) {
		lkst_seterr(err, "VMCORE's init_top_pgt 0x%llx is not a kernel image address; the vmcore is corrupt",
			    (unsigned long long)top_pgt);
		return LKST_VMCORE_BAD;
	}
	vc->pgd = top_pgt - START_KERNEL_MAP + vc->phys_base;
	return 0;
}

static int arm64_info(struct lkst_vmcore *vc, const char *info, size_t len,
		      lkst_vc_info_fn number, struct lkst_err *err)
{
	u64 pgdir, va_bits = 0, t1sz = 0;

	if (!number(info, len, "SYMBOL(swapper_pg_dir)", 16, &pgdir) ||
	    !number(info, len, "NUMBER(kimage_voffset)", 16, &vc->kimage_voffset) ||
	    (!number(info, len, "NUMBER(TCR_EL1_T1SZ)", 16, &t1sz) &&
	     !number(info, len, "NUMBER(VA_BITS)", 10, &va_bits))) {
		lkst_seterr(err, "VMCORE's VMCOREINFO lacks SYMBOL(swapper_pg_dir), NUMBER(kimage_voffset) or NUMBER(TCR_EL1_T1SZ); give the vmcore of an arm64 kernel");
		return LKST_VMCORE_BAD;
	}
	if (t1sz)	/* what the MMU used; VA_BITS is the build's most */
		va_bits = 64 - t1sz;
	if (va_bits < 25 || va_bits > 48) {
		lkst_seterr(err, "VMCORE's kernel runs with %llu-bit virtual addresses; lkbuf extract walks arm64 page tables of 25 to 48 bits with 4 KiB pages (not LPA2's 52)",
			    (unsigned long long)va_bits);
		return LKST_VMCORE_BAD;
	}
	vc->va_bits = va_bits;
	if (!lkst_vc_is_image_addr(vc, pgdir)) {
		lkst_seterr(err, "VMCORE's swapper_pg_dir 0x%llx is not a kernel address; the vmcore is corrupt",
			    (unsigned long long)pgdir);
		return LKST_VMCORE_BAD;
	}
	vc->pgd = pgdir - vc->kimage_voffset;
	return 0;
}

int lkst_vc_arch_info(struct lkst_vmcore *vc, const char *info, size_t len,
		      lkst_vc_info_fn number, struct lkst_err *err)
{
	return vc->machine == EM_AARCH64 ? arm64_info(vc, info, len, number, err) :
	       x86_info(vc, info, len, number, err);
}

/* ---- The kernel image ------------------------------------------------- */

bool lkst_vc_is_image_addr(const struct lkst_vmcore *vc, u64 va)
{
	if (vc->machine == EM_AARCH64)	/* the TTBR1 half, above the physical one */
		return (va >> vc->va_bits) == (~0ULL >> vc->va_bits) &&
		       va - vc->kimage_voffset < va;
	return va >= START_KERNEL_MAP;
}

int lkst_vc_kernel_read(const struct lkst_vmcore *vc, u64 va, void *buf, size_t len,
			const char *what, struct lkst_err *err)
{
	u64 pa = vc->machine == EM_AARCH64 ? va - vc->kimage_voffset :
		 va - START_KERNEL_MAP + vc->phys_base;

	if (!lkst_vc_is_image_addr(vc, va)) {
		lkst_seterr(err, "%s at 0x%llx is not a kernel image address; the vmlinux does not match the vmcore",
			    what, (unsigned long long)va);
		return LKST_VMCORE_BAD;
	}
	if (lkst_vmcore_read_phys(vc, pa, buf, len)) {
		lkst_seterr(err, "%s (physical 0x%llx) is not in the vmcore; %s",
			    what, (unsigned long long)pa, lkst_vc_missing_hint(vc));
		return LKST_VMCORE_BAD;
	}
	return 0;
}

/* ---- Page tables ------------------------------------------------------- */

static int table_missing(const struct lkst_vmcore *vc, const char *name, u64 table,
			 u64 va, struct lkst_err *err)
{
	lkst_seterr(err, "the %s table at physical 0x%llx that maps 0x%llx is not in the vmcore; %s",
		    name, (unsigned long long)table, (unsigned long long)va,
		    lkst_vc_missing_hint(vc));
	return LKST_VMCORE_BAD;
}

static int not_mapped(u64 va, const char *name, struct lkst_err *err)
{
	lkst_seterr(err, "address 0x%llx is not mapped (its %s entry is not present); the vmcore is corrupt or the vmlinux does not match it",
		    (unsigned long long)va, name);
	return LKST_VMCORE_BAD;
}

static int x86_virt_to_phys(const struct lkst_vmcore *vc, u64 va, u64 *pa,
			    struct lkst_err *err)
{
	static const char *const names[] = { "PGD", "PUD", "PMD", "PTE" };
	u64 table = vc->pgd, entry, mask, top = va >> 47;
	unsigned int level, shift;

	if (top != 0 && top != 0x1ffff) {
		lkst_seterr(err, "0x%llx is not a canonical x86_64 address; the vmcore is corrupt or the vmlinux does not match it",
			    (unsigned long long)va);
		return LKST_VMCORE_BAD;
	}
	for (level = 0; level < 4; level++) {
		shift = 39 - 9 * level;
		if (lkst_vmcore_read_phys(vc, table + ((va >> shift) & 511) * 8,
					  &entry, sizeof(entry)))
			return table_missing(vc, names[level], table, va, err);
		entry &= ~vc->sme_mask;
		if (!(entry & X86_PTE_PRESENT))
			return not_mapped(va, names[level], err);
		if ((level == 1 || level == 2) && (entry & X86_PTE_LARGE)) {
			mask = (1ULL << shift) - 1;
			*pa = (entry & X86_PTE_PFN_MASK & ~mask) | (va & mask);
			return 0;
		}
		table = entry & X86_PTE_PFN_MASK;
	}
	*pa = table | (va & (LKST_PAGE_SIZE - 1));
	return 0;
}

/*
 * The MMU's walk of a TTBR1 address: levels 0-3 (fewer for fewer bits),
 * blocks of 1 GiB at level 1 and 2 MiB at level 2.  A tag in the top byte
 * (KASAN's software or hardware tags) is not part of the address.
 */
static int arm64_virt_to_phys(const struct lkst_vmcore *vc, u64 va, u64 *pa,
			      struct lkst_err *err)
{
	static const char *const names[] = { "level 0", "level 1", "level 2", "level 3" };
	unsigned int levels = (vc->va_bits - 12 + 8) / 9, level, shift, bits;
	u64 table = vc->pgd, entry, mask;

	va |= 0xffULL << 56;
	if ((va >> vc->va_bits) != (~0ULL >> vc->va_bits)) {
		lkst_seterr(err, "0x%llx is not an arm64 kernel address of %u bits; the vmcore is corrupt or the vmlinux does not match it",
			    (unsigned long long)va, vc->va_bits);
		return LKST_VMCORE_BAD;
	}
	for (level = 4 - levels; level < 4; level++) {
		shift = 39 - 9 * level;
		bits = level == 4 - levels ? vc->va_bits - shift : 9;
		if (lkst_vmcore_read_phys(vc, table + ((va >> shift) & ((1ULL << bits) - 1)) * 8,
					  &entry, sizeof(entry)))
			return table_missing(vc, names[level], table, va, err);
		if (!(entry & ARM64_DESC_VALID) || (level == 3 && !(entry & ARM64_DESC_TABLE)))
			return not_mapped(va, names[level], err);
		if (level < 3 && !(entry & ARM64_DESC_TABLE)) {
			if (level == 0) {	/* no level 0 blocks with 4 KiB pages */
				lkst_seterr(err, "address 0x%llx has a level 0 block entry, which 4 KiB pages do not have; the vmcore is corrupt",
					    (unsigned long long)va);
				return LKST_VMCORE_BAD;
			}
			mask = (1ULL << shift) - 1;
			*pa = (entry & ARM64_DESC_OA_MASK & ~mask) | (va & mask);
			return 0;
		}
		table = entry & ARM64_DESC_OA_MASK;
	}
	*pa = table | (va & (LKST_PAGE_SIZE - 1));
	return 0;
}

int lkst_vmcore_virt_to_phys(const struct lkst_vmcore *vc, u64 va, u64 *pa,
			     struct lkst_err *err)
{
	return vc->machine == EM_AARCH64 ? arm64_virt_to_phys(vc, va, pa, err) :
	       x86_virt_to_phys(vc, va, pa, err);
}

int lkst_vc_virt_read(const struct lkst_vmcore *vc, u64 va, void *buf, size_t len,
		      const char *what, struct lkst_err *err)
{
	unsigned char *out = buf;
	u64 pa;

	while (len) {
		size_t n = LKST_PAGE_SIZE - (va & (LKST_PAGE_SIZE - 1));

		n = n < len ? n : len;
		if (lkst_vmcore_virt_to_phys(vc, va, &pa, err))
			return LKST_VMCORE_BAD;
		if (lkst_vmcore_read_phys(vc, pa, out, n)) {
			lkst_seterr(err, "%s at 0x%llx (physical 0x%llx) is not in the vmcore; %s",
				    what, (unsigned long long)va, (unsigned long long)pa,
				    lkst_vc_missing_hint(vc));
			return LKST_VMCORE_BAD;
		}
		out += n;
		va += n;
		len -= n;
	}
	return 0;
}
