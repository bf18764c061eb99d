// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_faulty: a handler that oopses, for the test that a crashing handler
 * does not stop the tracer on that CPU.  The first event routed to it
 * while "armed" is set writes through the address in "fault_addr" (NULL
 * by default: a kernel NULL pointer dereference in hook context); later
 * events are only counted.
 */
#include <linux/lkst.h>
#include <linux/module.h>

static bool armed = true;
module_param(armed, bool, 0644);
MODULE_PARM_DESC(armed, "oops on the next event routed here");

static unsigned long fault_addr;
module_param(fault_addr, ulong, 0444);
MODULE_PARM_DESC(fault_addr, "address written when armed (default NULL)");

static unsigned long handled;
module_param(handled, ulong, 0444);
MODULE_PARM_DESC(handled, "events handled without faulting");

static void lkst_faulty_handle(struct lkst_handler *handler,
			       unsigned int event,
			       const u64 args[LKST_NR_ARGS])
{
	if (READ_ONCE(armed)) {
		WRITE_ONCE(armed, false);
		/* a real store the compiler cannot drop or turn into a trap */
		WRITE_ONCE(*(unsigned long *)READ_ONCE(fault_addr), event);
	}
	WRITE_ONCE(handled, handled + 1);
}

static struct lkst_handler lkst_faulty_handler = {
	.name = "faulty",
	.owner = THIS_MODULE,
	.handle = lkst_faulty_handle,
};

static int __init lkst_faulty_init(void)
{
	return lkst_handler_register(&lkst_faulty_handler);
}

static void __exit lkst_faulty_exit(void)
{
	lkst_handler_unregister(&lkst_faulty_handler);
}

module_init(lkst_faulty_init);
module_exit(lkst_faulty_exit);
MODULE_DESCRIPTION("lkst test handler that oopses on purpose");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
