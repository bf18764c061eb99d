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
#include <linux/security.h>
#include <linux/types.h>
#include <linux/uaccess.h>

typedef int (*lkst_ctl_fn)(void __user *data, u32 size);

/*
 * One command of a handler.  @reads_args: it copies out values taken from
 * the events' arguments, which are kernel addresses as often as not, as
 * records are.  Lockdown may be raised after the descriptor was opened, so
 * such a command asks each time, as the core's reads of records do.
 * Commands that only configure, count or return what user space gave are
 * left to run.
 */
struct lkst_ctl_cmd {
	lkst_ctl_fn fn;
	bool reads_args;
};

/* Command @cmd of @cmds (@nr of them, by number); EINVAL for no command. */
static inline int lkst_ctl_run(const struct lkst_ctl_cmd *cmds,
			       unsigned int nr, unsigned int cmd,
			       void __user *data, u32 size)
{
	const struct lkst_ctl_cmd *c;
	int ret;

	if (cmd >= nr)
		return -EINVAL;
	c = &cmds[array_index_nospec(cmd, nr)];
	if (!c->fn)
		return -EINVAL;
	if (c->reads_args) {
		ret = security_locked_down(LOCKDOWN_TRACEFS);
		if (ret)
			return ret;
	}
	return c->fn(data, size);
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
