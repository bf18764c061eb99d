/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System call and errno names, and the flag bits of a few system call
 * arguments, from the kernel's own tables (tools/build/gen-sysnames.py
 * makes lkst_sysnames_gen.h of them: `make sysnames`).
 */
#ifndef LKST_SYSNAMES_H
#define LKST_SYSNAMES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The name of system call nr of ABI abi (as LKST_SYSCALL_ABI() gives it),
 * NULL when unknown.  Native numbers are x86-64's; a native number with
 * __X32_SYSCALL_BIT (0x40000000) set is an x32 call, named from the x32
 * table as do_syscall_x32() indexes it ("readv" for 0x40000000 + 515).
 */
const char *lkst_syscall_name(unsigned int abi, int nr);

/* The kernel's __X32_SYSCALL_BIT (the generated tables check it). */
#define LKST_X32_SYSCALL_BIT	0x40000000

/*
 * A SYSNR argument (LKST_SYSCALL_NR_ABI() packed) as lkbuf print shows
 * it: "lseek", "ia32:lseek", "x32:readv", or the number ("999",
 * "ia32:999") when it has no name.  snprintf's return.
 */
int lkst_format_syscall(unsigned long long sysnr, char *buf, size_t len);

/*
 * The errno name of a system call's return value in -4095..-1, also the
 * kernel's internal codes (-512 ERESTARTSYS ...); NULL for others and
 * unknown numbers.
 */
const char *lkst_errno_name(long long ret);

/* The flag sets decoded, and which argument of which call has one. */
enum lkst_flagset {
	LKST_FLAGS_NONE,
	LKST_FLAGS_OPEN,	/* O_*: open, openat */
	LKST_FLAGS_PROT,	/* PROT_*: mmap, mmap2, mprotect, pkey_mprotect */
	LKST_FLAGS_MAP,		/* MAP_*: mmap, mmap2 */
};

/*
 * The flag set of argument arg (0-5) of the call sysnr (a SYSNR
 * argument), with the argument's name ("flags", "prot") in *name;
 * LKST_FLAGS_NONE when it is not decoded.
 */
enum lkst_flagset lkst_syscall_arg_flags(unsigned long long sysnr, unsigned int arg,
					 const char **name);

/*
 * value as the names of its flags joined by '|' ("O_WRONLY|O_CREAT"),
 * bits without a name as a last "0x..." part, "0x0" for no flag at all.
 * snprintf's return (the length it wants; buf always terminated).
 */
int lkst_format_flags(enum lkst_flagset set, unsigned long long value, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LKST_SYSNAMES_H */
