// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_errpath: a flight recorder of errors.  Routed the system call and
 * page fault events, it records only what failed, so a buffer holds hours
 * of errors instead of seconds of everything:
 *
 *  - SYSCALL_ERROR for a system call that returned -4095..-1 (-MAX_ERRNO,
 *    the errors libc turns into errno): number and ABI as SYSCALL_EXIT
 *    gives them, the return value, the time from its entry to its exit in
 *    ns, and its first three arguments as the entry saw them;
 *  - EXCEPTION_FAULT_SIGNAL for a page fault from user mode that ended in
 *    SIGSEGV or SIGBUS: address, error code and ip of the fault, signal
 *    and si_code.
 *
 * Successful calls and faults that were resolved cost no buffer space.
 *
 *   insmod lkst_errpath.ko [pass_on=1]
 *   lkm config -m 3 SYSCALL_ENTRY errpath SYSCALL_EXIT errpath \
 *       EXCEPTION_PAGEFAULT_ENTRY errpath EXCEPTION_PAGEFAULT_EXIT errpath \
 *       PROCESS_SIGSEND errpath
 *
 * What a call's exit needs of its entry (time, number, arguments, user ip
 * and sp) is kept in a table indexed by pid, not on the task's stack: the
 * task may sleep and migrate between the two, so a per-CPU store would
 * lose it.  A slot is tagged with its task's task_struct address; the low
 * bits of the tag say which parts are valid (an entry waiting for its
 * exit, a user fault being handled) and whether the slot is busy.  Only
 * task context (lkst_event_context() 0) uses the table: system calls
 * and user-mode faults only happen there, and a fault can end in a signal
 * only from user mode.  IRQs and NMIs that nest in a handler's update
 * (their own faults, signals sent from them) are ignored, so they cannot
 * mix with it.
 *
 * An update claims the slot with one cmpxchg, setting the busy bit, and
 * releases it with a store: nothing ever waits, so this is safe in any
 * context.  A slot busy on another CPU, or taken by another task of the
 * same pid hash since the entry, means the entry is lost: the error is
 * still recorded, with DURATION_UNKNOWN (~0, all ones) as its duration
 * and zeros as its arguments, never with another call's.  So is an exit
 * whose entry was not seen (the handler loaded, or the maskset switched,
 * during the call), or whose user ip, sp or number differ from the
 * entry's.  Every exit clears the entry, so an entry is left over only
 * when its exit was not routed to errpath (a maskset switched away and
 * back): even then it is taken only by the same call from the same ip and
 * stack pointer (a retry loop), whose duration then starts too early.
 * Exits with number -1 are not recorded: that
 * is rt_sigreturn (its "return value" is the interrupted user rax) or a
 * call a tracer cancelled.  A call that seccomp or a tracer skipped
 * (entry number -1) is matched with its exit by ip and sp.
 *
 * A user fault's entry is kept in the same slot until its exit; a
 * PROCESS_SIGSEND in between, from task context, of SIGSEGV or SIGBUS to
 * the faulting thread itself while its user ip is still the fault's, is
 * the fault's signal (force_sig_fault() in arch/x86/mm/fault.c, called
 * between EXCEPTION_PAGEFAULT_ENTRY and _EXIT).  A kernel-mode fault that
 * the exception table fixes up (copy_from_user() of a bad pointer) is not
 * a signal: it shows as the failing call instead.
 */
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/err.h>
#include <linux/lkst.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/timekeeping.h>

/* The duration of an error whose entry was not kept. */
#define DURATION_UNKNOWN	(~0ULL)

/* Low bits of a slot's owner word; task_structs are cacheline aligned. */
#define SLOT_BUSY	1UL	/* being updated by its owner */
#define SLOT_SYSCALL	2UL	/* a system call's entry waits for its exit */
#define SLOT_FAULT	4UL	/* a user-mode page fault is being handled */
#define SLOT_FLAGS	(SLOT_BUSY | SLOT_SYSCALL | SLOT_FAULT)

struct errpath_slot {
	atomic_long_t owner;		/* task_struct address | SLOT_* */
	u64 time;			/* entry: ktime_get_mono_fast_ns() */
	u64 nr;				/* entry: number | ABI << 32 */
	u64 arg[3];
	unsigned long ip, sp;		/* entry: the user's registers */
	unsigned long fault_addr, fault_error, fault_ip;
};

static unsigned int slots = 1024;
module_param(slots, uint, 0444);
MODULE_PARM_DESC(slots, "entries kept, one per pid modulo slots (a power of two, 16..1048576)");

static bool pass_on;
module_param(pass_on, bool, 0644);
MODULE_PARM_DESC(pass_on, "also hand every routed event on to DEFAULT (default: no)");

static struct errpath_slot *errpath_table;
static atomic_long_t nr_errors = ATOMIC_LONG_INIT(0);
static atomic_long_t nr_fault_signals = ATOMIC_LONG_INIT(0);
static atomic_long_t nr_unknown = ATOMIC_LONG_INIT(0);

static int get_counter(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(kp->arg));
}

static const struct kernel_param_ops counter_ops = { .get = get_counter };
module_param_cb(errors, &counter_ops, &nr_errors, 0444);
MODULE_PARM_DESC(errors, "records written: SYSCALL_ERROR and EXCEPTION_FAULT_SIGNAL");
module_param_cb(fault_signals, &counter_ops, &nr_fault_signals, 0444);
MODULE_PARM_DESC(fault_signals, "EXCEPTION_FAULT_SIGNAL records written");
module_param_cb(unknown_duration, &counter_ops, &nr_unknown, 0444);
MODULE_PARM_DESC(unknown_duration, "SYSCALL_ERROR records whose entry was not kept");

static inline unsigned long errpath_me(void)
{
	return (unsigned long)current;
}

static inline struct errpath_slot *errpath_slot(void)
{
	return &errpath_table[current->pid & (slots - 1)];
}

/* Whether current owns s, s is not busy and has all of flags set. */
static inline bool errpath_holds(struct errpath_slot *s, unsigned long flags)
{
	unsigned long owner = atomic_long_read(&s->owner);

	return (owner & ~SLOT_FLAGS) == errpath_me() &&
	       (owner & (SLOT_BUSY | flags)) == flags;
}

/*
 * Claims s for current with one cmpxchg: returns the flags it held for
 * current (none if it was another task's), or -1 if it is busy.
 */
static long errpath_claim(struct errpath_slot *s)
{
	long old = atomic_long_read(&s->owner);

	if (old & SLOT_BUSY)
		return -1;
	if (!atomic_long_try_cmpxchg(&s->owner, &old,
				     errpath_me() | SLOT_BUSY))
		return -1;
	return (old & ~SLOT_FLAGS) == errpath_me() ?
		(old & (SLOT_SYSCALL | SLOT_FAULT)) : 0;
}

static void errpath_release(struct errpath_slot *s, unsigned long flags)
{
	atomic_long_set_release(&s->owner, errpath_me() | flags);
}

static void errpath_syscall_entry(const u64 args[LKST_NR_ARGS])
{
	u64 now = ktime_get_mono_fast_ns();
	struct pt_regs *regs = task_pt_regs(current);
	struct errpath_slot *s = errpath_slot();
	long flags = errpath_claim(s);

	if (flags < 0)
		return;
	s->time = now;
	s->nr = args[0];
	s->arg[0] = args[1];
	s->arg[1] = args[2];
	s->arg[2] = args[3];
	s->ip = instruction_pointer(regs);
	s->sp = user_stack_pointer(regs);
	/* A system call is entered from user mode: no fault is under way. */
	errpath_release(s, SLOT_SYSCALL);
}

/* Whether the entry in s (claimed, SLOT_SYSCALL) is this exit's call's. */
static bool errpath_same_call(struct errpath_slot *s, u64 nr)
{
	struct pt_regs *regs = task_pt_regs(current);

	if (LKST_SYSCALL_ABI(s->nr) != LKST_SYSCALL_ABI(nr))
		return false;
	if (s->nr != nr && LKST_SYSCALL_NR(s->nr) != -1)
		return false;
	return s->ip == instruction_pointer(regs) &&
	       s->sp == user_stack_pointer(regs);
}

static void errpath_syscall_exit(const u64 args[LKST_NR_ARGS])
{
	u64 now = ktime_get_mono_fast_ns();
	struct errpath_slot *s = errpath_slot();
	u64 rec[LKST_NR_ARGS] = { args[0], args[1], DURATION_UNKNOWN };
	s64 ret = args[1];
	long flags;

	if (!IS_ERR_VALUE((unsigned long)ret) ||
	    LKST_SYSCALL_NR(args[0]) == -1) {
		/* Done with the entry, so that no later exit takes it. */
		long old = atomic_long_read(&s->owner);

		if ((old & ~SLOT_FLAGS) == errpath_me() &&
		    (old & (SLOT_BUSY | SLOT_SYSCALL)) == SLOT_SYSCALL)
			atomic_long_cmpxchg(&s->owner, old, old & ~SLOT_SYSCALL);
		return;
	}
	flags = errpath_claim(s);
	if (flags >= 0) {
		if ((flags & SLOT_SYSCALL) && errpath_same_call(s, args[0])) {
			rec[2] = now - s->time;
			rec[3] = s->arg[0];
			rec[4] = s->arg[1];
			rec[5] = s->arg[2];
		}
		errpath_release(s, flags & ~SLOT_SYSCALL);
	}
	if (rec[2] == DURATION_UNKNOWN)
		atomic_long_inc(&nr_unknown);
	atomic_long_inc(&nr_errors);
	lkst_record_event(LKST_EV_SYSCALL_ERROR, rec);
}

static void errpath_fault_entry(const u64 args[LKST_NR_ARGS])
{
	struct errpath_slot *s;
	long flags;

	/* Only a fault from user mode can end in a signal. */
	if (!args[3])
		return;
	s = errpath_slot();
	flags = errpath_claim(s);
	if (flags < 0)
		return;
	s->fault_addr = args[0];
	s->fault_error = args[1];
	s->fault_ip = args[2];
	errpath_release(s, flags | SLOT_FAULT);
}

static void errpath_fault_exit(const u64 args[LKST_NR_ARGS])
{
	struct errpath_slot *s = errpath_slot();
	long flags;

	if (!errpath_holds(s, SLOT_FAULT))
		return;
	flags = errpath_claim(s);
	if (flags < 0)
		return;
	/* A kernel fault nested in the user fault's handling is not it. */
	if (s->fault_addr == args[0] && s->fault_error == args[1])
		flags &= ~SLOT_FAULT;
	errpath_release(s, flags);
}

static void errpath_sigsend(const u64 args[LKST_NR_ARGS])
{
	u64 rec[LKST_NR_ARGS] = { 0, 0, 0, args[0], args[2] };
	struct errpath_slot *s;
	long flags;

	if ((args[0] != SIGSEGV && args[0] != SIGBUS) ||
	    args[1] != task_pid_nr(current))
		return;
	s = errpath_slot();
	if (!errpath_holds(s, SLOT_FAULT))
		return;
	flags = errpath_claim(s);
	if (flags < 0)
		return;
	if (!(flags & SLOT_FAULT) ||
	    s->fault_ip != instruction_pointer(task_pt_regs(current))) {
		errpath_release(s, flags);
		return;
	}
	rec[0] = s->fault_addr;
	rec[1] = s->fault_error;
	rec[2] = s->fault_ip;
	errpath_release(s, flags & ~SLOT_FAULT);
	atomic_long_inc(&nr_fault_signals);
	atomic_long_inc(&nr_errors);
	lkst_record_event(LKST_EV_EXCEPTION_FAULT_SIGNAL, rec);
}

static void lkst_errpath_handle(struct lkst_handler *handler,
				unsigned int event,
				const u64 args[LKST_NR_ARGS])
{
	if (READ_ONCE(pass_on))
		lkst_handler_pass(LKST_HANDLER_DEFAULT, event, args);
	if (lkst_event_context())
		return;
	switch (event) {
	case LKST_EV_SYSCALL_ENTRY:
		errpath_syscall_entry(args);
		break;
	case LKST_EV_SYSCALL_EXIT:
		errpath_syscall_exit(args);
		break;
	case LKST_EV_EXCEPTION_PAGEFAULT_ENTRY:
		errpath_fault_entry(args);
		break;
	case LKST_EV_EXCEPTION_PAGEFAULT_EXIT:
		errpath_fault_exit(args);
		break;
	case LKST_EV_PROCESS_SIGSEND:
		errpath_sigsend(args);
		break;
	}
}

static struct lkst_handler lkst_errpath_handler = {
	.name = "errpath",
	.owner = THIS_MODULE,
	.handle = lkst_errpath_handle,
	.passes_on = true,
};

static int __init lkst_errpath_init(void)
{
	int ret;

	BUILD_BUG_ON(SLOT_FLAGS >= L1_CACHE_BYTES);
	if (slots < 16 || slots > (1U << 20) || !is_power_of_2(slots))
		return -EINVAL;
	errpath_table = kvcalloc(slots, sizeof(*errpath_table), GFP_KERNEL);
	if (!errpath_table)
		return -ENOMEM;
	ret = lkst_handler_register(&lkst_errpath_handler);
	if (ret)
		kvfree(errpath_table);
	return ret;
}

static void __exit lkst_errpath_exit(void)
{
	/* Returns once no CPU is in the handler any more. */
	lkst_handler_unregister(&lkst_errpath_handler);
	kvfree(errpath_table);
}

module_init(lkst_errpath_init);
module_exit(lkst_errpath_exit);
MODULE_DESCRIPTION("lkst handler recording failing system calls and faults that end in a signal");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
