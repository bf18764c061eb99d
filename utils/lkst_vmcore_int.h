/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the pieces of lkbuf extract's vmcore reader share (lkst_vmcore.c,
 * lkst_vmcore_arch.c, lkst_vmcore_cpu.c); not part of liblkst's API.
 */
#ifndef LKST_VMCORE_INT_H
#define LKST_VMCORE_INT_H

#include <stdbool.h>
#include <string.h>

#include "lkst_buf.h"
#include "lkst_vmcore.h"

/* Physical memory [paddr, paddr + size) at file offset offset. */
struct lkst_vmcore_seg {
	__u64 paddr;
	__u64 size;		/* bytes present in the file */
	__u64 offset;
	__u64 max_end;		/* highest end among this and earlier segments */
};

/* An opened vmcore and its vmlinux (lkst_vmcore.h). */
struct lkst_vmcore {
	struct lkst_vmcore_file core, vmlinux;
	struct lkst_vmcore_seg *segs;	/* by paddr */
	size_t nr_segs;
	__u64 phys_pages;		/* pages the dump holds */
	__u64 cut_bytes;		/* segment bytes past the end of the file */
	__u16 machine;			/* EM_X86_64 or EM_AARCH64 */
	/* From VMCOREINFO. */
	char release[65];
	char build_id[65];		/* hex, "" when not given */
	__u64 kernel_offset;		/* KASLR: added to vmlinux addresses */
	__u64 phys_base;		/* x86_64 */
	__u64 pgd;			/* physical: init_top_pgt, swapper_pg_dir */
	__u64 sme_mask;			/* x86_64: memory encryption bit */
	__u64 kimage_voffset;		/* arm64: image virtual - physical */
	unsigned int va_bits;		/* arm64: kernel virtual address bits */
	/* From the vmlinux, relocated. */
	__u64 cpu_buffers;		/* lkst_cpu_buffers: per-CPU offset */
	__u64 per_cpu_offset;		/* address of __per_cpu_offset[] */
	__u64 possible_mask;		/* of __cpu_possible_mask, 0: unknown */
	unsigned int nr_cpu_ids;
	char nodename[65];		/* "" when init_uts_ns was not usable */
	__u64 anchor_trace_ns;		/* lkst_saved_clock_anchor, 0: none */
	__u64 anchor_realtime_ns;
	int mapped;			/* core and vmlinux to unmap at close */
};

/* Shared by the reader's files, not exported by liblkst. */
#define LKST_VC_HIDDEN __attribute__((visibility("hidden")))

static inline u64 lkst_vc_get64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32 lkst_vc_get32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* What to do about memory the dump lacks: its end was cut, or it was filtered. */
static inline const char *lkst_vc_missing_hint(const struct lkst_vmcore *vc)
{
	return vc->cut_bytes ? "the vmcore is cut short; give the whole file" :
	       "give a dump with the kernel's data (makedumpfile -d 31 keeps it)";
}

/* The machine's name in messages: "x86_64" or "arm64". */
LKST_VC_HIDDEN const char *lkst_vc_arch_name(unsigned int machine);

/*
 * The architecture's VMCOREINFO numbers (page table root, where the image
 * sits), from the note's text, each read with @number.
 */
typedef bool (*lkst_vc_info_fn)(const char *info, size_t len, const char *key,
				int base, u64 *out);
LKST_VC_HIDDEN int lkst_vc_arch_info(struct lkst_vmcore *vc, const char *info,
				     size_t len, lkst_vc_info_fn number,
				     struct lkst_err *err);

/* Is @va a kernel image address (a vmlinux symbol's, KASLR applied)? */
LKST_VC_HIDDEN bool lkst_vc_is_image_addr(const struct lkst_vmcore *vc, u64 va);

/* Kernel image memory at @va (runtime, KASLR applied), which must be in the dump. */
LKST_VC_HIDDEN int lkst_vc_kernel_read(const struct lkst_vmcore *vc, u64 va,
				       void *buf, size_t len, const char *what,
				       struct lkst_err *err);
/* Kernel memory at any mapped address, which must be in the dump. */
LKST_VC_HIDDEN int lkst_vc_virt_read(const struct lkst_vmcore *vc, u64 va,
				     void *buf, size_t len, const char *what,
				     struct lkst_err *err);

/* One CPU's buffer read (lkst_vmcore_cpu.c), a handle to callers. */
struct lkst_vmcore_cpu {
	struct lkst_log_cpu info;
	struct lkst_record *records;
	__u64 *seqs;
	size_t cap;
	unsigned int nr_blocks;		/* 0: the CPU has no buffer */
	__u64 missing_pages;		/* not in the dump: read as unused */
	__u64 emptying_pages;		/* a writer was emptying them */
};

#endif /* LKST_VMCORE_INT_H */
