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

/**
 * lkst_vmcore_open(), lkst_vmcore_open_mem() - open a kdump vmcore and its vmlinux
 * @vmcore: the vmcore's path (an ELF core as /proc/vmcore gives it)
 * @vmlinux: the crashed kernel's vmlinux, with its symbols: a path, or
 *           for lkst_vmcore_open_mem() the file in memory
 * @core: the vmcore in memory, which lkst_vmcore_close() leaves alone
 * @why: when not NULL, set on failure to %LKST_VMCORE_BAD (bad input) or
 *       %LKST_VMCORE_NOMEM (out of memory)
 * @err: the message, when it fails
 *
 * Maps both files read-only (lkst_vmcore_open()) and checks them: the
 * ELF headers, the VMCOREINFO note (the release, the page table root,
 * where the kernel sits in physical memory, the KASLR offset), and the
 * symbols lkst's buffers are found by.  Both are untrusted: every size,
 * offset and address read from them is checked before use.
 *
 * Return: a new handle, to close with lkst_vmcore_close(); NULL with @err
 * set and *@why set, nothing left to close.
 */
struct lkst_vmcore *lkst_vmcore_open(const char *vmcore, const char *vmlinux,
				     int *why, struct lkst_err *err);
struct lkst_vmcore *lkst_vmcore_open_mem(const struct lkst_vmcore_file *core,
					 const struct lkst_vmcore_file *vmlinux,
					 int *why, struct lkst_err *err);
/**
 * lkst_vmcore_close() - close a vmcore
 * @vc: the handle; NULL does nothing
 *
 * Unmaps the files lkst_vmcore_open() mapped (not those given to
 * lkst_vmcore_open_mem()) and frees @vc.
 */
void lkst_vmcore_close(struct lkst_vmcore *vc);

/**
 * lkst_vmcore_nr_cpu_ids(), lkst_vmcore_release(), lkst_vmcore_nodename(), lkst_vmcore_anchor(), lkst_vmcore_cut_bytes() - what a dump tells of the crashed kernel
 * @vc: an opened vmcore
 *
 * Return: lkst_vmcore_nr_cpu_ids(): the number of its CPU IDs (0 to nr -
 * 1).  lkst_vmcore_release(): its release, as "uname -r" gave it.
 * lkst_vmcore_nodename(): its host name, "" when unknown.  Both strings
 * are valid until lkst_vmcore_close().  lkst_vmcore_anchor(): the clock
 * anchor lkst saved in it (zeros: none).  lkst_vmcore_cut_bytes(): how
 * many bytes of its memory the file lacks (a vmcore cut short; 0 when
 * whole).
 */
unsigned int lkst_vmcore_nr_cpu_ids(const struct lkst_vmcore *vc);
const char *lkst_vmcore_release(const struct lkst_vmcore *vc);
const char *lkst_vmcore_nodename(const struct lkst_vmcore *vc);
struct lkst_clock_anchor lkst_vmcore_anchor(const struct lkst_vmcore *vc);
__u64 lkst_vmcore_cut_bytes(const struct lkst_vmcore *vc);

/**
 * lkst_vmcore_virt_to_phys() - translate a kernel virtual address
 * @vc: an opened vmcore
 * @vaddr: a kernel virtual address
 * @paddr: set to the physical address
 * @err: the message, when it fails
 *
 * Walks the crashed kernel's page tables from init_top_pgt (x86_64) or
 * swapper_pg_dir (arm64): 4 KiB pages, 2 MiB and 1 GiB pages or blocks.
 *
 * Return: 0 with *@paddr set, or %LKST_VMCORE_BAD with @err set: the
 * address is not mapped, or a table is not in the dump or corrupt.
 */
int lkst_vmcore_virt_to_phys(const struct lkst_vmcore *vc, __u64 vaddr,
			     __u64 *paddr, struct lkst_err *err);
/**
 * lkst_vmcore_read_phys() - read the crashed kernel's physical memory
 * @vc: an opened vmcore
 * @paddr: the physical address to read from
 * @buf: filled with @len bytes
 * @len: how many
 *
 * Copies from the vmcore's PT_LOAD segments; a page the dump does not
 * hold (filtered out by makedumpfile) reads as zeros.
 *
 * Return: 0, or 1 when some of the bytes were not in the dump (zeroed).
 */
int lkst_vmcore_read_phys(const struct lkst_vmcore *vc, __u64 paddr,
			  void *buf, size_t len);

/*
 * One CPU's buffer, as `lkbuf read` saves it: a handle that owns its
 * records.  Opaque: lkst_vmcore_read_cpu(), the accessors below,
 * lkst_vmcore_cpu_free().
 */
struct lkst_vmcore_cpu;

/**
 * lkst_vmcore_read_cpu(), lkst_vmcore_cpu_free() - one CPU's lkst buffer out of a vmcore
 * @vc: an opened vmcore
 * @cpu: the CPU, below lkst_vmcore_nr_cpu_ids()
 * @out: set to the new buffer's handle, or NULL when it fails
 * @err: the message, when it fails
 * @c: a handle; lkst_vmcore_cpu_free() of NULL does nothing
 *
 * Finds the CPU's struct lkst_cpu_buffer through __per_cpu_offset, copies
 * its blocks' pages out through the page tables and reads them with the
 * kernel's own reader into records with their sequence numbers, as
 * `lkbuf read` would have saved them.  A CPU without a buffer gives a
 * handle without blocks or records.
 *
 * Return: lkst_vmcore_read_cpu(): 0 with *@out set, to free with
 * lkst_vmcore_cpu_free(); %LKST_VMCORE_BAD (no such CPU, or a buffer that
 * cannot be read) or %LKST_VMCORE_NOMEM with @err set and *@out NULL.
 */
int lkst_vmcore_read_cpu(const struct lkst_vmcore *vc, unsigned int cpu,
			 struct lkst_vmcore_cpu **out, struct lkst_err *err);
void lkst_vmcore_cpu_free(struct lkst_vmcore_cpu *c);
/**
 * lkst_vmcore_cpu_info(), lkst_vmcore_cpu_records(), lkst_vmcore_cpu_seqs(), lkst_vmcore_cpu_nr_blocks(), lkst_vmcore_cpu_missing_pages(), lkst_vmcore_cpu_emptying_pages() - what a CPU's buffer held
 * @c: a CPU's buffer (lkst_vmcore_read_cpu())
 *
 * Return: lkst_vmcore_cpu_info(): its log section header, for
 * lkst_log_write_cpu_seqs() (written: the number after the newest record
 * found; overwritten and dropped: the kernel's counters; nr_records).
 * lkst_vmcore_cpu_records() and lkst_vmcore_cpu_seqs(): its records and
 * their sequence numbers, in order, nr_records of each.
 * lkst_vmcore_cpu_nr_blocks(): the blocks of the buffer, 0 when the CPU
 * has none.  lkst_vmcore_cpu_missing_pages(): pages not in the dump (read
 * as unused).  lkst_vmcore_cpu_emptying_pages(): pages a writer was
 * emptying when the kernel crashed.  All valid until
 * lkst_vmcore_cpu_free().
 */
const struct lkst_log_cpu *lkst_vmcore_cpu_info(const struct lkst_vmcore_cpu *c);
const struct lkst_record *lkst_vmcore_cpu_records(const struct lkst_vmcore_cpu *c);
const __u64 *lkst_vmcore_cpu_seqs(const struct lkst_vmcore_cpu *c);
unsigned int lkst_vmcore_cpu_nr_blocks(const struct lkst_vmcore_cpu *c);
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
