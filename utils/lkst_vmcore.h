/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lkst's per-CPU buffers out of a kdump vmcore of a crashed x86_64 or arm64
 * kernel (an ELF core as /proc/vmcore gives it, maybe with trailing bytes
 * after the ELF data, as a dd copy to a disk has), with the kernel's
 * vmlinux for the symbols: `lkbuf extract`.
 *
 * The vmcore's VMCOREINFO note gives the kernel release, the page table
 * root, where the kernel image sits in physical memory and the KASLR
 * offset; its PT_LOAD segments hold physical memory.  lkst_vmcore.c reads
 * the files, lkst_vmcore_arch.c translates each architecture's addresses,
 * lkst_vmcore_cpu.c copies and walks one CPU's buffer.  Each CPU's struct lkst_cpu_buffer is found through
 * __per_cpu_offset, its blocks' pages are copied out through the page
 * tables, and the kernel's own reader (lkst_buf.c, built for the host)
 * turns them into records with their sequence numbers.
 *
 * Both files are untrusted: every size, offset and address read from them
 * is checked before use; a file that does not hold what is needed is
 * refused with a one-line message ("what is wrong; what to do").
 */
#ifndef LKST_VMCORE_H
#define LKST_VMCORE_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/lkst_record.h>

#include "lkst_log.h"
#include "lkst_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return values besides 0: bad input (exit 1), out of memory (exit 2). */
#define LKST_VMCORE_BAD		(-1)
#define LKST_VMCORE_NOMEM	(-2)

/* A file mapped read-only. */
struct lkst_vmcore_file {
	const unsigned char *data;
	size_t size;
};

/* Physical memory [paddr, paddr + size) at file offset offset. */
struct lkst_vmcore_seg {
	__u64 paddr;
	__u64 size;		/* bytes present in the file */
	__u64 offset;
	__u64 max_end;		/* highest end among this and earlier segments */
};

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

/*
 * Opens and checks both files; 0, or LKST_VMCORE_* with err set and
 * nothing left to close.
 */
int lkst_vmcore_open(struct lkst_vmcore *vc, const char *vmcore,
		     const char *vmlinux, struct lkst_err *err);
/* The same on files already in memory (which close leaves alone). */
int lkst_vmcore_open_mem(struct lkst_vmcore *vc,
			 const struct lkst_vmcore_file *core,
			 const struct lkst_vmcore_file *vmlinux,
			 struct lkst_err *err);
void lkst_vmcore_close(struct lkst_vmcore *vc);

/*
 * Kernel virtual address -> physical, through init_top_pgt or swapper_pg_dir
 * (4 KiB pages; 2 MiB and 1 GiB pages or blocks).  Reading: 0, 1 when a physical page is not in the
 * dump (filtered out by makedumpfile: the buffer zeroed), LKST_VMCORE_BAD.
 */
int lkst_vmcore_virt_to_phys(const struct lkst_vmcore *vc, __u64 vaddr,
			     __u64 *paddr, struct lkst_err *err);
int lkst_vmcore_read_phys(const struct lkst_vmcore *vc, __u64 paddr,
			  void *buf, size_t len);

/*
 * One CPU's buffer, as `lkbuf read` saves it: info is the log section
 * (written: the number after the newest record found; overwritten and
 * dropped: the kernel's counters), records and seqs in order.
 */
struct lkst_vmcore_cpu {
	struct lkst_log_cpu info;
	struct lkst_record *records;
	__u64 *seqs;
	size_t cap;
	unsigned int nr_blocks;		/* 0: the CPU has no buffer */
	__u64 missing_pages;		/* not in the dump: read as unused */
	__u64 emptying_pages;		/* a writer was emptying them */
};

int lkst_vmcore_read_cpu(const struct lkst_vmcore *vc, unsigned int cpu,
			 struct lkst_vmcore_cpu *out, struct lkst_err *err);
void lkst_vmcore_cpu_free(struct lkst_vmcore_cpu *c);

/*
 * The layout of x86_64's struct lkst_cpu_buffer and struct lkst_block
 * (kernel/kernel/lkst/lkst_buf.h), which the vmcore holds.  arm64's is the
 * same: LP64, and 64-byte cache lines (L1_CACHE_SHIFT 6) for the
 * ____cacheline_aligned members.
 */
#define LKST_X86_CB_SIZE		640
#define LKST_X86_CB_BLOCKS		16
#define LKST_X86_CB_OVERWRITTEN		576
#define LKST_X86_CB_DROPPED		584
#define LKST_X86_CB_DISCARDED		592
#define LKST_X86_BLOCK_SIZE		24
#define LKST_X86_BLOCK_NR_PAGES		4
#define LKST_X86_BLOCK_PAGES		16

#ifdef __cplusplus
}
#endif

#endif /* LKST_VMCORE_H */
