// SPDX-License-Identifier: GPL-2.0
/*
 * lkst.ko: the patched kernel's initcalls in their order, and the way
 * out, which the patched kernel never takes (docs/stock.md).
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <linux/module.h>
#include "clock.h"
#include "internal.h"

static int __init lkst_module_init(void)
{
	int ret;

	/* Before the core, whose boot maskset may register probes. */
	lkc_tracepoints_init();
	lkc_panic_dump_init();
	ret = lkc_init();
	if (!ret)
		ret = lkc_dev_init();
	if (!ret)
		lkc_tracepoints_report();
	if (ret) {
		/* Each step undoes only what was done. */
		lkc_exit();
		lkc_buffers_exit();
		lkc_persist_exit();
		lkc_panic_dump_exit();
		lkc_clock_exit();
	}
	return ret;
}

/*
 * Handlers hold a reference on lkst.ko through its symbols, an open
 * /dev/lkst through its file operations: both are gone when this runs.
 * Every event is unrouted and every probe unregistered; once the
 * tracepoints' grace periods end, no writer can be in a buffer.
 */
static void __exit lkst_module_exit(void)
{
	lkc_dev_exit();
	lkc_exit();
	lkc_buffers_exit();
	lkc_persist_exit();
	lkc_panic_dump_exit();
	lkc_clock_exit();
}

module_init(lkst_module_init);
module_exit(lkst_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lkst, the Linux kernel state tracer, fed by tracepoints");
