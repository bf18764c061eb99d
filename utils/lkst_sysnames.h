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

/**
 * lkst_syscall_name() - the name of a system call
 * @abi: its ABI, as LKST_SYSCALL_ABI() gives it (native or ia32)
 * @nr: its number in that ABI
 *
 * Native numbers are x86-64's; a native number with __X32_SYSCALL_BIT
 * (0x40000000) set is an x32 call, named from the x32 table as
 * do_syscall_x32() indexes it ("readv" for 0x40000000 + 515).
 *
 * Return: the name ("lseek"), static, or NULL for an unknown ABI or
 * number.
 */
const char *lkst_syscall_name(unsigned int abi, int nr);

/* The kernel's __X32_SYSCALL_BIT (the generated tables check it). */
#define LKST_X32_SYSCALL_BIT	0x40000000

/**
 * lkst_format_syscall() - a SYSNR argument as text
 * @sysnr: the argument: a number and its ABI packed by
 *         LKST_SYSCALL_NR_ABI()
 * @buf: where the text goes, terminated when @len is not 0
 * @len: the size of @buf in bytes
 *
 * Writes it as lkbuf print shows it: "lseek", "ia32:lseek", "x32:readv",
 * or the number ("999", "ia32:999") when it has no name.
 *
 * Return: what snprintf(3) returns: the length of the whole text, which
 * was cut short when it is @len or more.
 */
int lkst_format_syscall(unsigned long long sysnr, char *buf, size_t len);

/**
 * lkst_errno_name() - the errno name of a system call's return value
 * @ret: the return value
 *
 * Knows the kernel's internal codes too (-512 ERESTARTSYS, ...).
 *
 * Return: the name ("ENOENT" for -2), static, or NULL for a value outside
 * -4095..-1 or a number without a name.
 */
const char *lkst_errno_name(long long ret);

/* The flag sets decoded, and which argument of which call has one. */
enum lkst_flagset {
	LKST_FLAGS_NONE,
	LKST_FLAGS_OPEN,	/* O_*: open, openat */
	LKST_FLAGS_PROT,	/* PROT_*: mmap, mmap2, mprotect, pkey_mprotect */
	LKST_FLAGS_MAP,		/* MAP_*: mmap, mmap2 */
};

/**
 * lkst_syscall_arg_flags() - which flags a system call argument holds
 * @sysnr: the call, as a SYSNR argument holds it
 * @arg: the argument, 0 to 5
 * @name: when not NULL, set to the argument's name ("flags", "prot") when
 *        it has a flag set
 *
 * Return: the flag set the argument's bits are decoded with
 * (%LKST_FLAGS_OPEN, %LKST_FLAGS_PROT, %LKST_FLAGS_MAP), or
 * %LKST_FLAGS_NONE when it is not decoded.
 */
enum lkst_flagset lkst_syscall_arg_flags(unsigned long long sysnr, unsigned int arg,
					 const char **name);

/**
 * lkst_format_flags() - flag bits as their names
 * @set: the flag set (lkst_syscall_arg_flags())
 * @value: the argument's value
 * @buf: where the text goes, terminated when @len is not 0
 * @len: the size of @buf in bytes
 *
 * Writes the names of the flags joined by '|' ("O_WRONLY|O_CREAT"), bits
 * without a name as a last "0x..." part, "0x0" for no flag at all.
 *
 * Return: as snprintf(3): the length of the whole text, which was cut
 * short when it is @len or more.
 */
int lkst_format_flags(enum lkst_flagset set, unsigned long long value, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LKST_SYSNAMES_H */
