/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the handler modules share to answer LKST_IOC_HANDLER_CTL: a table
 * of their commands by number, and the copy of a request whose size must
 * be exactly its structure's.
 */
#ifndef _LKST_HANDLER_CTL_H
#define _LKST_HANDLER_CTL_H

#include <linux/errno.h>
#include <linux/nospec.h>
#include <linux/types.h>
#include <linux/uaccess.h>

typedef int (*lkst_ctl_fn)(void __user *data, u32 size);

/* Command @cmd of @cmds (@nr of them, by number); EINVAL for no command. */
static inline int lkst_ctl_run(const lkst_ctl_fn *cmds, unsigned int nr,
			       unsigned int cmd, void __user *data, u32 size)
{
	lkst_ctl_fn fn;

	if (cmd >= nr)
		return -EINVAL;
	fn = cmds[array_index_nospec(cmd, nr)];
	return fn ? fn(data, size) : -EINVAL;
}

/* Copy the request at @data, which must be @len bytes: EINVAL otherwise. */
static inline int lkst_ctl_copy_in(void *dst, size_t len,
				   const void __user *data, u32 size)
{
	if (size != len)
		return -EINVAL;
	return copy_from_user(dst, data, len) ? -EFAULT : 0;
}

#endif /* _LKST_HANDLER_CTL_H */
