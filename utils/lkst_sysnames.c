// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * System call and errno names, flag bits of a few arguments: lookups in
 * the tables gen-sysnames.py made from the kernel's (lkst_sysnames_gen.h).
 */
#include <stdio.h>
#include <string.h>

#include <linux/lkst_events.h>

#include "lkst_sysnames.h"

/* A flag (value == mask) or a value of a field (mask covers the field). */
struct lkst_flag_name {
	unsigned long long mask, value;
	const char *name;
};

/* Argument arg of call nr of ABI abi has flag set set. */
struct lkst_syscall_flags {
	unsigned int abi;
	int nr;
	unsigned int arg;
	const char *name;
	enum lkst_flagset set;
};

#include "lkst_sysnames_gen.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *lookup(const char *const *names, size_t n, long long i)
{
	return i >= 0 && (size_t)i < n ? names[i] : NULL;
}

const char *lkst_syscall_name(unsigned int abi, int nr)
{
	switch (abi) {
	case LKST_SYSCALL_ABI_NATIVE:
		if (nr >= 0 && (nr & LKST_X32_SYSCALL_BIT))
			return lookup(lkst_syscalls_x32, ARRAY_SIZE(lkst_syscalls_x32),
				      nr & ~LKST_X32_SYSCALL_BIT);
		return lookup(lkst_syscalls_x86_64, ARRAY_SIZE(lkst_syscalls_x86_64), nr);
	case LKST_SYSCALL_ABI_IA32:
		return lookup(lkst_syscalls_ia32, ARRAY_SIZE(lkst_syscalls_ia32), nr);
	}
	return NULL;
}

int lkst_format_syscall(unsigned long long sysnr, char *buf, size_t len)
{
	unsigned int abi = LKST_SYSCALL_ABI(sysnr);
	int nr = LKST_SYSCALL_NR(sysnr);
	const char *name = lkst_syscall_name(abi, nr);
	const char *prefix = abi == LKST_SYSCALL_ABI_IA32 ? "ia32:" : "";

	if (!name)
		return snprintf(buf, len, "%s%d", prefix, nr);
	if (abi == LKST_SYSCALL_ABI_NATIVE && (nr & LKST_X32_SYSCALL_BIT))
		prefix = "x32:";
	return snprintf(buf, len, "%s%s", prefix, name);
}

const char *lkst_errno_name(long long ret)
{
	if (ret >= 0 || ret < -4095)
		return NULL;
	if (-ret >= LKST_ERRNO_KERNEL_BASE)
		return lookup(lkst_errnos_kernel, ARRAY_SIZE(lkst_errnos_kernel),
			      -ret - LKST_ERRNO_KERNEL_BASE);
	return lookup(lkst_errnos, ARRAY_SIZE(lkst_errnos), -ret);
}

enum lkst_flagset lkst_syscall_arg_flags(unsigned long long sysnr, unsigned int arg,
					 const char **name)
{
	unsigned int abi = LKST_SYSCALL_ABI(sysnr);
	int nr = LKST_SYSCALL_NR(sysnr);
	size_t i;

	/* The decoded x32 calls are common ones: the native number's. */
	if (abi == LKST_SYSCALL_ABI_NATIVE && nr >= 0 && (nr & LKST_X32_SYSCALL_BIT)) {
		const char *x32 = lkst_syscall_name(abi, nr);

		nr &= ~LKST_X32_SYSCALL_BIT;
		if (!x32 || !lkst_syscall_name(abi, nr) || strcmp(x32, lkst_syscall_name(abi, nr)))
			return LKST_FLAGS_NONE;
	}
	for (i = 0; i < ARRAY_SIZE(lkst_syscall_flags); i++) {
		const struct lkst_syscall_flags *f = &lkst_syscall_flags[i];

		if (f->abi == abi && f->nr == nr && f->arg == arg) {
			if (name)
				*name = f->name;
			return f->set;
		}
	}
	return LKST_FLAGS_NONE;
}

int lkst_format_flags(enum lkst_flagset set, unsigned long long value, char *buf, size_t len)
{
	static const struct lkst_flag_name *const sets[] = {
		[LKST_FLAGS_OPEN] = lkst_flags_open,
		[LKST_FLAGS_PROT] = lkst_flags_prot,
		[LKST_FLAGS_MAP] = lkst_flags_map,
	};
	const struct lkst_flag_name *f = (unsigned int)set < ARRAY_SIZE(sets) ? sets[set] : NULL;
	unsigned long long rest = value;
	size_t n = 0;
	int w;

	if (len)
		buf[0] = '\0';
	/*
	 * A name matches the value and what earlier names left of it (O_DSYNC
	 * is part of O_SYNC), and takes its whole field (O_ACCMODE, MAP_TYPE).
	 */
	for (; f && f->name; f++) {
		if ((value & f->mask) != f->value || (rest & f->value) != f->value)
			continue;
		w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
			     n ? "|" : "", f->name);
		n += w;
		rest &= ~f->mask;
	}
	if (rest || !n) {
		w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			     n ? "|0x%llx" : "0x%llx", rest);
		n += w;
	}
	return (int)n;
}
