// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/lkst: the control and read interface used by lkm and lkbuf.
 * Every command copies its argument in, lets the core validate it, and
 * copies the result back; see uapi/linux/lkst_ioctl.h for the ABI.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include "internal.h"

/*
 * BLOCK_DELETE and BLOCK_JUMP took a struct lkst_block_link (next 0)
 * before each had its own struct: same size, so the same ioctl numbers,
 * and the same offsets keep the binaries built then working.
 */
static_assert(LKST_IOC_BLOCK_DELETE ==
	      _IOW(LKST_IOC_MAGIC, 0x35, struct lkst_block_link));
static_assert(LKST_IOC_BLOCK_JUMP ==
	      _IOW(LKST_IOC_MAGIC, 0x36, struct lkst_block_link));
#define LKST_LAYOUT_AS_LINK(type)					\
	static_assert(sizeof(struct type) ==				\
		      sizeof(struct lkst_block_link) &&			\
		      offsetof(struct type, cpu) ==			\
		      offsetof(struct lkst_block_link, cpu) &&		\
		      offsetof(struct type, block) ==			\
		      offsetof(struct lkst_block_link, block) &&	\
		      offsetof(struct type, __pad) ==			\
		      offsetof(struct lkst_block_link, next))
LKST_LAYOUT_AS_LINK(lkst_block_delete);
LKST_LAYOUT_AS_LINK(lkst_block_jump);

/*
 * Records carry kernel addresses (instruction pointers, objects), so the
 * device is closed under lockdown=confidentiality, as tracefs is.
 */
static int lkst_dev_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return security_locked_down(LOCKDOWN_TRACEFS);
}

static long lkst_get_version(void __user *arg)
{
	struct lkst_version v = {
		.abi_version = LKST_ABI_VERSION,
		.record_size = sizeof(struct lkst_record),
		.nr_event_ids = LKST_NR_EVENT_IDS,
		.nr_events = lkc_nr_events(),
		.nr_cpu_ids = nr_cpu_ids,
		.active_maskset = lkc_active_maskset_id(),
		.clock = LKST_CLOCK_MONOTONIC,
	};

	return copy_to_user(arg, &v, sizeof(v)) ? -EFAULT : 0;
}

static long lkst_clock_anchor(void __user *arg)
{
	struct lkst_clock_anchor a;

	a.trace_ns = ktime_get_mono_fast_ns();
	a.realtime_ns = ktime_get_real_ns();
	return copy_to_user(arg, &a, sizeof(a)) ? -EFAULT : 0;
}

/* A hook site like any other: recorded only if USER_MARK is routed. */
static long lkst_mark(void __user *arg)
{
	u64 words[LKST_NR_ARGS];

	BUILD_BUG_ON(sizeof(words) != sizeof(struct lkst_mark));
	if (copy_from_user(words, arg, sizeof(words)))
		return -EFAULT;
	LKST_HOOK(USER_MARK, words[0], words[1], words[2], words[3],
		  words[4], words[5]);
	return 0;
}

/*
 * Commands taking a struct: copy in, run @op, copy back if @out.  A result
 * that cannot be copied back is found out before @op acts: a block created
 * for a read-only argument would be one its caller never learns about.
 */
#define LKST_STRUCT_CMD(type, op, out)					\
	({								\
		type *_s = kmalloc(sizeof(type), GFP_KERNEL);		\
		long _ret;						\
									\
		if (!_s)						\
			_ret = -ENOMEM;					\
		else if (copy_from_user(_s, argp, sizeof(type)))	\
			_ret = -EFAULT;					\
		else if ((out) && copy_to_user(argp, _s, sizeof(type)))	\
			_ret = -EFAULT;					\
		else							\
			_ret = op(_s);					\
		if (!_ret && (out) &&					\
		    copy_to_user(argp, _s, sizeof(type)))		\
			_ret = -EFAULT;					\
		kfree(_s);						\
		_ret;							\
	})

/*
 * Lockdown may be raised after a descriptor was opened: a request that
 * hands out records (kernel addresses) asks again each time, as tracefs
 * asks at each open.  Probes ask for LOCKDOWN_KPROBES when they are added.
 */
static bool lkst_reads_records(unsigned int cmd)
{
	return cmd == LKST_IOC_BLOCK_READ || cmd == LKST_IOC_BUFFER_DRAIN ||
	       cmd == LKST_IOC_PREVIOUS_DRAIN;
}

static long lkst_u32_cmd(void __user *argp, int (*op)(unsigned int))
{
	u32 id;

	if (get_user(id, (u32 __user *)argp))
		return -EFAULT;
	return op(id);
}

static long lkst_dev_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	long ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (lkst_reads_records(cmd)) {
		ret = security_locked_down(LOCKDOWN_TRACEFS);
		if (ret)
			return ret;
	}

	switch (cmd) {
	case LKST_IOC_GET_VERSION:
		return lkst_get_version(argp);
	case LKST_IOC_CLOCK_ANCHOR:
		return lkst_clock_anchor(argp);
	case LKST_IOC_MASKSET_READ:
		return LKST_STRUCT_CMD(struct lkst_maskset_desc,
				       lkc_ioc_maskset_read, true);
	case LKST_IOC_MASKSET_WRITE:
		return LKST_STRUCT_CMD(struct lkst_maskset_desc,
				       lkc_ioc_maskset_write, false);
	case LKST_IOC_MASKSET_CONFIG:
		return LKST_STRUCT_CMD(struct lkst_maskset_entry,
				       lkc_ioc_maskset_config, false);
	case LKST_IOC_MASKSET_SET:
		return lkst_u32_cmd(argp, lkc_ioc_maskset_set);
	case LKST_IOC_MASKSET_DELETE:
		return lkst_u32_cmd(argp, lkc_ioc_maskset_delete);
	case LKST_IOC_HANDLER_INFO:
		return LKST_STRUCT_CMD(struct lkst_handler_desc,
				       lkc_ioc_handler_info, true);
	case LKST_IOC_HANDLER_CTL:
		return LKST_STRUCT_CMD(struct lkst_handler_ctl,
				       lkc_ioc_handler_ctl, false);
	case LKST_IOC_EVENT_STAT:
		return LKST_STRUCT_CMD(struct lkst_event_stat,
				       lkc_ioc_event_stat, true);
	case LKST_IOC_EVENT_DESC:
		return LKST_STRUCT_CMD(struct lkst_event_desc,
				       lkc_ioc_event_desc, true);
	case LKST_IOC_EVENT_TABLE:
		return LKST_STRUCT_CMD(struct lkst_event_table,
				       lkc_ioc_event_table, true);
	case LKST_IOC_PROBE_ADD:
		return LKST_STRUCT_CMD(struct lkst_probe, lkc_ioc_probe_add,
				       false);
	case LKST_IOC_PROBE_DEL:
		return LKST_STRUCT_CMD(struct lkst_probe, lkc_ioc_probe_del,
				       false);
	case LKST_IOC_EVENT_STAT_RESET:
		lkc_ioc_event_stat_reset();
		return 0;
	case LKST_IOC_MARK:
		return lkst_mark(argp);
	case LKST_IOC_CPU_INFO:
		return LKST_STRUCT_CMD(struct lkst_cpu_info,
				       lkc_ioc_cpu_info, true);
	case LKST_IOC_BLOCK_INFO:
		return LKST_STRUCT_CMD(struct lkst_block_info,
				       lkc_ioc_block_info, true);
	case LKST_IOC_BLOCK_READ:
		return LKST_STRUCT_CMD(struct lkst_block_read,
				       lkc_ioc_block_read, true);
	case LKST_IOC_BLOCK_CREATE:
		return LKST_STRUCT_CMD(struct lkst_block_create,
				       lkc_ioc_block_create, true);
	case LKST_IOC_BLOCK_LINK:
		return LKST_STRUCT_CMD(struct lkst_block_link,
				       lkc_ioc_block_link, false);
	case LKST_IOC_BLOCK_DELETE:
		return LKST_STRUCT_CMD(struct lkst_block_delete,
				       lkc_ioc_block_delete, false);
	case LKST_IOC_BLOCK_JUMP:
		return LKST_STRUCT_CMD(struct lkst_block_jump,
				       lkc_ioc_block_jump, false);
	case LKST_IOC_BUFFER_DRAIN:
		return LKST_STRUCT_CMD(struct lkst_buffer_drain,
				       lkc_ioc_buffer_drain, true);
	case LKST_IOC_BUFFER_MODE:
		return LKST_STRUCT_CMD(struct lkst_buffer_mode,
				       lkc_ioc_buffer_mode, false);
	case LKST_IOC_BUFFER_RESIZE:
		return LKST_STRUCT_CMD(struct lkst_buffer_resize,
				       lkc_ioc_buffer_resize, false);
	case LKST_IOC_PREVIOUS_INFO:
		return LKST_STRUCT_CMD(struct lkst_previous_info,
				       lkc_ioc_previous_info, true);
	case LKST_IOC_PREVIOUS_DRAIN:
		return LKST_STRUCT_CMD(struct lkst_buffer_drain,
				       lkc_ioc_previous_drain, true);
	case LKST_IOC_PREVIOUS_RELEASE:
		return lkc_ioc_previous_release();
	default:
		return -ENOTTY;
	}
}

static const struct file_operations lkst_dev_fops = {
	.owner = THIS_MODULE,
	.open = lkst_dev_open,
	.unlocked_ioctl = lkst_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice lkst_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "lkst",
	.fops = &lkst_dev_fops,
	.mode = 0600,
};

int __init lkc_dev_init(void)
{
	return misc_register(&lkst_miscdev);
}
#ifdef MODULE
void lkc_dev_exit(void)
{
	misc_deregister(&lkst_miscdev);
}
#else
device_initcall(lkc_dev_init);
#endif
