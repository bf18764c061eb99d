// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_stack: stack traces.  An event routed to the handler "stack" is
 * recorded, then its kernel stack as STACK_KERNEL records and, when asked
 * for (LKST_STACK_F_USER) and safe to take, its user stack as STACK_USER
 * records, five frames a record (see lkst_stack.h and lkst_events.h).
 *
 *   insmod lkst_stack.ko
 *   lkm stack --depth 24 --user
 *   lkm config -m 3 IPC_PIPE_READ stack
 *   lkm filter -m 3 SYSCALL_ENTRY 'pid == 42' --handler stack
 *
 * The kernel stack is taken with stack_trace_save() (the ORC unwinder,
 * lock-free and NMI-safe).  Its first frames are lkst's own: this handler,
 * lkst_call_handler() and a dispatcher, lkst_hook_dispatch() or, for hooks
 * whose last arguments are 0, lkst_hook_dispatch2() to _dispatch5()
 * (measured on the test kernel: three frames, also when lkst_filter passed
 * the event on, as its handle and lkst_handler_pass() end in tail calls;
 * another compiler may keep their frames).  So rather than a fixed count, the frames up to and
 * including the return address into a dispatcher are dropped, wherever it
 * is among the first STACK_LKST_FRAMES + 1: the first frame kept is the
 * hook site, in the hooked function (pipe_read+0x372 for IPC_PIPE_READ).
 * A dynamic probe's event is unwound from the probed function's registers
 * instead (lkst_probe_stack()): an optimized kprobe's trampoline has no
 * unwind data, so a trace taken here would stop there.  The dispatchers'
 * extents are looked up once at load time.  Should neither be found in a
 * trace (a caller that is not a hook), the trace is kept whole.
 *
 * The user stack is taken only from a user task (an mm, not a kthread)
 * whose saved user registers (task_pt_regs()) are user mode, 64-bit: the
 * first frame is the user ip, then the frame-pointer chain from the user
 * bp, read with copy_from_user_nofault() (no fault handling, NMI-aware:
 * it refuses while the CPU runs another mm, mid context switch); the walk
 * stops at a frame pointer that is unaligned, below the user sp, does not
 * grow, or cannot be read.  Code built without frame pointers gives a
 * short or partial chain.  A 32-bit task gets its ip alone.
 *
 * No locks, no allocation: the frames go to a per-CPU buffer, one for
 * each context level (task, softirq, hardirq, NMI).  The core's recursion
 * guard lets at most one dispatch of a level run on a CPU, and this
 * handler is only reached from a dispatch, so a buffer never has two
 * users.  A hook that the unwinder or a user read hits (a page fault of
 * copy_from_user_nofault(), fixed up) is cut off by that guard as well.
 */
#include <linux/atomic.h>
#include <linux/kallsyms.h>
#include <linux/lkst.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

#include "lkst_stack.h"

/* lkst's frames above the hook site, at most: see the comment at the top. */
#define STACK_LKST_FRAMES	8
#define STACK_BUF_FRAMES	(LKST_STACK_MAX_DEPTH + STACK_LKST_FRAMES)
#define STACK_LEVELS		4	/* lkst_event_context() 0..3 */

struct stack_buf {
	unsigned long frame[STACK_BUF_FRAMES];
};

static DEFINE_PER_CPU(struct stack_buf [STACK_LEVELS], stack_bufs);

/* depth | flags << 32: read once per event, so always consistent. */
static u64 stack_config = LKST_STACK_DEFAULT_DEPTH;
static DEFINE_MUTEX(stack_ctl_mutex);

/* The dispatchers' extents, for finding the hook site. */
static struct {
	unsigned long start, end;
} dispatchers[5];

static atomic_long_t nr_events = ATOMIC_LONG_INIT(0);
static atomic_long_t nr_kernel = ATOMIC_LONG_INIT(0);
static atomic_long_t nr_user = ATOMIC_LONG_INIT(0);
static atomic_long_t nr_user_skipped = ATOMIC_LONG_INIT(0);

/* Writes n frames as records of event ev, for event. */
static void stack_write(unsigned int ev, unsigned int event,
			const unsigned long *frame, unsigned int n)
{
	u64 args[LKST_NR_ARGS];
	unsigned int i, j;

	for (i = 0; i < n; i += LKST_STACK_FRAMES_PER_RECORD) {
		args[0] = LKST_STACK_POS(event, i, n);
		for (j = 0; j < LKST_STACK_FRAMES_PER_RECORD; j++)
			args[1 + j] = i + j < n ? frame[i + j] : 0;
		lkst_record_event(ev, args);
	}
}

/* A return address into a dispatcher: the frame after it is the site. */
static bool in_dispatcher(unsigned long addr)
{
	unsigned int d;

	for (d = 0; d < ARRAY_SIZE(dispatchers); d++)
		if (addr > dispatchers[d].start && addr <= dispatchers[d].end)
			return true;
	return false;
}

static unsigned int stack_kernel(unsigned long *frame, unsigned int depth,
				 unsigned long **first)
{
	unsigned int n, i;

	n = stack_trace_save(frame, STACK_BUF_FRAMES, 0);
	*first = frame;
	for (i = 0; i < n && i <= STACK_LKST_FRAMES; i++) {
		if (in_dispatcher(frame[i])) {
			*first = frame + i + 1;
			n -= i + 1;
			break;
		}
	}
	return min(n, depth);
}

static unsigned int stack_user(unsigned long *frame, unsigned int depth)
{
	struct pt_regs *regs;
	unsigned long fp, sp;
	unsigned int n = 0;
	struct {
		unsigned long next;
		unsigned long ret;
	} f;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	regs = task_pt_regs(current);
	if (!user_mode(regs))
		return 0;
	frame[n++] = instruction_pointer(regs);
#ifdef CONFIG_X86
	if (!user_64bit_mode(regs))
#else
	if (compat_user_mode(regs))
#endif
		return n;
	/* x86's rbp and arm64's x29 both point at {caller's fp, return}. */
	fp = frame_pointer(regs);
	sp = user_stack_pointer(regs);
	while (n < depth) {
		if (!fp || (fp & (sizeof(long) - 1)) || fp < sp)
			break;
		if (copy_from_user_nofault(&f, (const void __user *)fp,
					   sizeof(f)))
			break;
		if (!f.ret)
			break;
		frame[n++] = f.ret;
		if (f.next <= fp)
			break;
		sp = fp + sizeof(f);
		fp = f.next;
	}
	return n;
}

static void lkst_stack_handle(struct lkst_handler *handler,
			      unsigned int event,
			      const u64 args[LKST_NR_ARGS])
{
	u64 config = READ_ONCE(stack_config);
	unsigned int depth = (u32)config;
	unsigned int level = lkst_event_context();
	struct stack_buf *buf;
	unsigned long *first;
	unsigned int n;

	lkst_record_event(event, args);
	atomic_long_inc(&nr_events);
	/* The STACK_* records of a stack are never stacked themselves. */
	if (event == LKST_EV_STACK_KERNEL || event == LKST_EV_STACK_USER ||
	    level >= STACK_LEVELS)
		return;
	buf = this_cpu_ptr(&stack_bufs[level]);
	/* A probe's stack starts at the probed function, not in kprobes. */
	n = lkst_probe_stack(buf->frame, STACK_BUF_FRAMES);
	if (n) {
		first = buf->frame;
		n = min(n, depth);
	} else {
		n = stack_kernel(buf->frame, depth, &first);
	}
	if (n) {
		stack_write(LKST_EV_STACK_KERNEL, event, first, n);
		atomic_long_inc(&nr_kernel);
	}
	if (!((config >> 32) & LKST_STACK_F_USER))
		return;
	n = stack_user(buf->frame, depth);
	if (n) {
		stack_write(LKST_EV_STACK_USER, event, buf->frame, n);
		atomic_long_inc(&nr_user);
	} else {
		atomic_long_inc(&nr_user_skipped);
	}
}

static int stack_set(const void __user *data, u32 size)
{
	struct lkst_stack_config c;

	if (size != sizeof(c))
		return -EINVAL;
	if (copy_from_user(&c, data, sizeof(c)))
		return -EFAULT;
	if (!c.depth || c.depth > LKST_STACK_MAX_DEPTH ||
	    (c.flags & ~LKST_STACK_F_ALL))
		return -EINVAL;
	WRITE_ONCE(stack_config, c.depth | (u64)c.flags << 32);
	return 0;
}

static int stack_get(void __user *data, u32 size)
{
	u64 config = READ_ONCE(stack_config);
	struct lkst_stack_config c = {
		.depth = (u32)config,
		.flags = config >> 32,
	};

	if (size != sizeof(c))
		return -EINVAL;
	return copy_to_user(data, &c, sizeof(c)) ? -EFAULT : 0;
}

static int stack_stat(void __user *data, u32 size)
{
	struct lkst_stack_stat st = {
		.events = atomic_long_read(&nr_events),
		.kernel_stacks = atomic_long_read(&nr_kernel),
		.user_stacks = atomic_long_read(&nr_user),
		.user_skipped = atomic_long_read(&nr_user_skipped),
	};

	if (size != sizeof(st))
		return -EINVAL;
	return copy_to_user(data, &st, sizeof(st)) ? -EFAULT : 0;
}

static int lkst_stack_control(struct lkst_handler *handler, unsigned int cmd,
			      void __user *data, u32 size)
{
	int ret;

	mutex_lock(&stack_ctl_mutex);
	switch (cmd) {
	case LKST_STACK_SET:
		ret = stack_set(data, size);
		break;
	case LKST_STACK_GET:
		ret = stack_get(data, size);
		break;
	case LKST_STACK_STAT:
		ret = stack_stat(data, size);
		break;
	default:
		ret = -EINVAL;
	}
	mutex_unlock(&stack_ctl_mutex);
	return ret;
}

static struct lkst_handler lkst_stack_handler = {
	.name = "stack",
	.owner = THIS_MODULE,
	.handle = lkst_stack_handle,
	.control = lkst_stack_control,
};

/* Dispatcher @d's extent, @fn's size from "name+0x0/0xSIZE". */
static int __init stack_find_dispatcher(unsigned int d, void *fn)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long size;
	const char *p;

	dispatchers[d].start = (unsigned long)fn;
	sprint_symbol(sym, dispatchers[d].start);
	p = strrchr(sym, '/');
	if (!p || sscanf(p, "/0x%lx", &size) != 1 || !size) {
		pr_err("lkst_stack: cannot find %ps's size\n", fn);
		return -ENOENT;
	}
	dispatchers[d].end = dispatchers[d].start + size;
	return 0;
}

static int __init lkst_stack_init(void)
{
	void *fns[ARRAY_SIZE(dispatchers)] = {
		lkst_hook_dispatch, lkst_hook_dispatch2, lkst_hook_dispatch3,
		lkst_hook_dispatch4, lkst_hook_dispatch5,
	};
	unsigned int d;
	int ret;

	for (d = 0; d < ARRAY_SIZE(dispatchers); d++) {
		ret = stack_find_dispatcher(d, fns[d]);
		if (ret)
			return ret;
	}
	return lkst_handler_register(&lkst_stack_handler);
}

static void __exit lkst_stack_exit(void)
{
	/* Returns once no CPU is in the handler any more. */
	lkst_handler_unregister(&lkst_stack_handler);
}

module_init(lkst_stack_init);
module_exit(lkst_stack_exit);
MODULE_DESCRIPTION("lkst handler recording events with their kernel and user stacks");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
