// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_trigger: an extended lkst handler that records events like DEFAULT
 * and, when a chosen event with a chosen first argument fires, switches the
 * tracer to another maskset and/or jumps this CPU's buffer to another
 * block, from hook context.  That keeps what led up to a failure intact in
 * the old block, or widens tracing once something interesting happened.
 *
 *   insmod lkst_trigger.ko trigger_event=0x30 trigger_arg=110 \
 *          switch_maskset=0 jump_block=1
 *   lkm config -m 3 0x30 trigger
 */
#include <linux/atomic.h>
#include <linux/lkst.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned int trigger_event = LKST_EV_SYSCALL_ENTRY;
module_param(trigger_event, uint, 0444);
MODULE_PARM_DESC(trigger_event, "event ID that may fire the trigger");

static unsigned long long trigger_arg;
module_param(trigger_arg, ullong, 0444);
MODULE_PARM_DESC(trigger_arg, "first argument the event must carry");

static int switch_maskset = -1;
module_param(switch_maskset, int, 0444);
MODULE_PARM_DESC(switch_maskset, "maskset to switch to when fired, -1: none");

static int jump_block = -1;
module_param(jump_block, int, 0444);
MODULE_PARM_DESC(jump_block, "block of this CPU to jump to when fired, -1: none");

static bool once = true;
module_param(once, bool, 0444);
MODULE_PARM_DESC(once, "fire only the first time (default: yes)");

static atomic_t fired = ATOMIC_INIT(0);
static atomic_long_t handled = ATOMIC_LONG_INIT(0);

static int get_fired(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&fired));
}

static int get_handled(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&handled));
}

static const struct kernel_param_ops fired_ops = { .get = get_fired };
static const struct kernel_param_ops handled_ops = { .get = get_handled };
module_param_cb(fired, &fired_ops, NULL, 0444);
MODULE_PARM_DESC(fired, "times the trigger fired");
module_param_cb(handled, &handled_ops, NULL, 0444);
MODULE_PARM_DESC(handled, "events this handler was called for");

static void lkst_trigger_handle(struct lkst_handler *handler,
				unsigned int event,
				const u64 args[LKST_NR_ARGS])
{
	atomic_long_inc(&handled);
	lkst_record_event(event, args);
	if (event != trigger_event || args[0] != trigger_arg)
		return;
	if (atomic_inc_return(&fired) > 1 && once)
		return;
	if (jump_block >= 0)
		lkst_jump_this_cpu(jump_block);
	if (switch_maskset >= 0)
		lkst_maskset_switch(switch_maskset);
}

static struct lkst_handler lkst_trigger_handler = {
	.name = "trigger",
	.owner = THIS_MODULE,
	.handle = lkst_trigger_handle,
};

static int __init lkst_trigger_init(void)
{
	if (trigger_event >= LKST_NR_EVENT_IDS)
		return -EINVAL;
	return lkst_handler_register(&lkst_trigger_handler);
}

static void __exit lkst_trigger_exit(void)
{
	lkst_handler_unregister(&lkst_trigger_handler);
}

module_init(lkst_trigger_init);
module_exit(lkst_trigger_exit);
MODULE_DESCRIPTION("lkst handler that switches masksets or blocks on an event");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
