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

/* The two files opened and checked (lkst_vmcore_open()).  Opaque. */
struct lkst_vmcore;

/*
 * Opens and checks both files: a new handle, or NULL with err set and,
 * when why is not NULL, *why LKST_VMCORE_BAD or LKST_VMCORE_NOMEM;
 * nothing is left to close.
 */
struct lkst_vmcore *lkst_vmcore_open(const char *vmcore, const char *vmlinux,
				     int *why, struct lkst_err *err);
/* The same on files already in memory (which close leaves alone). */
struct lkst_vmcore *lkst_vmcore_open_mem(const struct lkst_vmcore_file *core,
					 const struct lkst_vmcore_file *vmlinux,
					 int *why, struct lkst_err *err);
/* Unmaps the files lkst_vmcore_open() mapped and frees vc (NULL: nothing). */
void lkst_vmcore_close(struct lkst_vmcore *vc);

/*
 * What the dump tells of the crashed kernel: its CPU IDs (0 to nr - 1),
 * release ("uname -r"), host name ("" when unknown), the clock anchor it
 * saved (zeros: none), and how many bytes of its memory the file lacks
 * (a vmcore cut short; 0 when whole).
 */
unsigned int lkst_vmcore_nr_cpu_ids(const struct lkst_vmcore *vc);
const char *lkst_vmcore_release(const struct lkst_vmcore *vc);
const char *lkst_vmcore_nodename(const struct lkst_vmcore *vc);
struct lkst_clock_anchor lkst_vmcore_anchor(const struct lkst_vmcore *vc);
__u64 lkst_vmcore_cut_bytes(const struct lkst_vmcore *vc);

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
 * One CPU's buffer, as `lkbuf read` saves it: a handle that owns its
 * records.  Opaque: lkst_vmcore_read_cpu(), the accessors below,
 * lkst_vmcore_cpu_free().
 */
struct lkst_vmcore_cpu;

/*
 * Reads CPU cpu's buffer into a new *out: 0 (a CPU without a buffer too:
 * no blocks, no records), or LKST_VMCORE_BAD or LKST_VMCORE_NOMEM with err
 * set and *out NULL.
 */
int lkst_vmcore_read_cpu(const struct lkst_vmcore *vc, unsigned int cpu,
			 struct lkst_vmcore_cpu **out, struct lkst_err *err);
/* Frees c (NULL: nothing). */
void lkst_vmcore_cpu_free(struct lkst_vmcore_cpu *c);
/*
 * The log section (written: the number after the newest record found;
 * overwritten and dropped: the kernel's counters; nr_records of them).
 */
const struct lkst_log_cpu *lkst_vmcore_cpu_info(const struct lkst_vmcore_cpu *c);
/* The records and their sequence numbers, in order (info's nr_records). */
const struct lkst_record *lkst_vmcore_cpu_records(const struct lkst_vmcore_cpu *c);
const __u64 *lkst_vmcore_cpu_seqs(const struct lkst_vmcore_cpu *c);
/* Blocks of the buffer; 0: the CPU has no buffer. */
unsigned int lkst_vmcore_cpu_nr_blocks(const struct lkst_vmcore_cpu *c);
/* Pages not in the dump (read as unused), pages a writer was emptying. */
__u64 lkst_vmcore_cpu_missing_pages(const struct lkst_vmcore_cpu *c);
__u64 lkst_vmcore_cpu_emptying_pages(const struct lkst_vmcore_cpu *c);

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
