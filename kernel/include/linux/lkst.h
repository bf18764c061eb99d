/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkst - Linux kernel state tracer: hook macro and handler API.
 *
 * A hook site is LKST_HOOK(EVENT, args...), EVENT being a mnemonic of
 * kernel/lkst/events.def without its LKST_EV_ prefix, args as many as
 * that entry lists.  Each event has a static key that is on only while
 * the active maskset routes the event to a handler other than NOTHING, so
 * a disabled site is a single NOP and its arguments are never evaluated.
 *
 * The symbols below are exported in namespace LKST: a module with hook
 * sites or a handler says MODULE_IMPORT_NS(LKST).
 */
#ifndef _LINUX_LKST_H
#define _LINUX_LKST_H

#include <linux/args.h>
#include <linux/build_bug.h>
#include <linux/types.h>
#include <uapi/linux/lkst_events.h>
#include <uapi/linux/lkst_record.h>
#include <uapi/linux/lkst_ioctl.h>

struct module;

#ifdef CONFIG_LKST

#include <linux/jump_label.h>

extern struct static_key_false lkst_event_keys[LKST_NR_EVENT_IDS];

/*
 * For hook sites only, through LKST_HOOK*(); an ID beyond the table is
 * refused with a warning.  Called from a handler, it records nothing (see
 * struct lkst_handler).  On a CPU that RCU does not watch (not yet online,
 * already offline, idle) nothing is recorded and the event counts as
 * dropped.
 */
void lkst_hook_dispatch(unsigned int event, u64 a1, u64 a2, u64 a3,
			u64 a4, u64 a5, u64 a6);

/*
 * Whether EVENT is routed now: for a site that must prepare something only
 * while its event is traced (a start time for a later hook, say).  Costs
 * the same NOP as a hook while it is not.
 */
#define LKST_HOOK_ENABLED(ev)						\
	static_branch_unlikely(&lkst_event_keys[LKST_EV_##ev])

/*
 * On while SYSCALL_ENTRY or SYSCALL_ENTRY_ARG5 is routed, so that the
 * system call entry tests both events with one NOP.
 */
extern struct static_key_false lkst_syscall_entry_key;

#define LKST_SYSCALL_ENTRY_ENABLED()					\
	static_branch_unlikely(&lkst_syscall_entry_key)

/* Whether hook argument @a is a 0 the compiler sees. */
#define __LKST_ZERO_ARG(a)	(__builtin_constant_p(a) && !(a))

/*
 * The same for a site whose last arguments are constant zeros (the
 * padding of an event with fewer than six): each copy of the write path
 * knows at compile time which arguments can be stored, so it tests and
 * keeps live only those.  Five arguments and the event also fit the six
 * argument registers, where a seventh goes on the stack, and a function
 * with an outgoing stack argument may need a frame, or a realigned stack's
 * argument pointer (the slab allocator's), on every call, traced or not.
 *
 * On x86-64 the copies also save every register they change, and a site
 * calls them from an asm statement that tells the compiler so: the hooked
 * function may keep its values in the argument and scratch registers
 * across the hook.  With an ordinary call it would keep them in
 * callee-saved registers, pushed and popped on every call, traced or not;
 * an event pays those pushes instead.  (The compiler reads the attribute
 * where the function is defined, not where it is called.)  Only where the
 * attribute exists: the asm call relies on it.
 */
#if defined(CONFIG_X86_64) && __has_attribute(__no_caller_saved_registers__)
#include <asm/asm.h>

#define __lkst_dispatcher __no_caller_saved_registers
#define __LKST_CALL(fn, ...)						\
	({ asm volatile("call " #fn : ASM_CALL_CONSTRAINT		\
			: __VA_ARGS__ : "memory"); })
#define __LKST_CALL2(ev, a1, a2)					\
	do {								\
		u64 __lkst_a1 = (a1), __lkst_a2 = (a2);			\
									\
		__LKST_CALL(lkst_hook_dispatch2, "D" (ev),		\
			    "S" (__lkst_a1), "d" (__lkst_a2));		\
	} while (0)
#define __LKST_CALL3(ev, a1, a2, a3)					\
	do {								\
		u64 __lkst_a1 = (a1), __lkst_a2 = (a2), __lkst_a3 = (a3); \
									\
		__LKST_CALL(lkst_hook_dispatch3, "D" (ev),		\
			    "S" (__lkst_a1), "d" (__lkst_a2),		\
			    "c" (__lkst_a3));				\
	} while (0)
/*
 * Every argument is evaluated before the first register variable is set:
 * one that calls a function would clobber r8 or r9.
 */
#define __LKST_CALL4(ev, a1, a2, a3, a4)				\
	do {								\
		u64 __lkst_a1 = (a1), __lkst_a2 = (a2), __lkst_a3 = (a3); \
		u64 __lkst_a4 = (a4);					\
		register u64 __lkst_r8 asm("r8") = __lkst_a4;		\
									\
		__LKST_CALL(lkst_hook_dispatch4, "D" (ev),		\
			    "S" (__lkst_a1), "d" (__lkst_a2),		\
			    "c" (__lkst_a3), "r" (__lkst_r8));		\
	} while (0)
#define __LKST_CALL5(ev, a1, a2, a3, a4, a5)				\
	do {								\
		u64 __lkst_a1 = (a1), __lkst_a2 = (a2), __lkst_a3 = (a3); \
		u64 __lkst_a4 = (a4), __lkst_a5 = (a5);			\
		register u64 __lkst_r8 asm("r8") = __lkst_a4;		\
		register u64 __lkst_r9 asm("r9") = __lkst_a5;		\
									\
		__LKST_CALL(lkst_hook_dispatch5, "D" (ev),		\
			    "S" (__lkst_a1), "d" (__lkst_a2),		\
			    "c" (__lkst_a3), "r" (__lkst_r8),		\
			    "r" (__lkst_r9));				\
	} while (0)
#else
#define __lkst_dispatcher
#define __LKST_CALL2 lkst_hook_dispatch2
#define __LKST_CALL3 lkst_hook_dispatch3
#define __LKST_CALL4 lkst_hook_dispatch4
#define __LKST_CALL5 lkst_hook_dispatch5
#endif

void __lkst_dispatcher lkst_hook_dispatch2(unsigned int event, u64 a1,
					   u64 a2);
void __lkst_dispatcher lkst_hook_dispatch3(unsigned int event, u64 a1,
					   u64 a2, u64 a3);
void __lkst_dispatcher lkst_hook_dispatch4(unsigned int event, u64 a1,
					   u64 a2, u64 a3, u64 a4);
void __lkst_dispatcher lkst_hook_dispatch5(unsigned int event, u64 a1,
					   u64 a2, u64 a3, u64 a4, u64 a5);

/* The copy of the dispatcher that knows which trailing arguments are 0. */
#define __LKST_DISPATCH(event, a1, a2, a3, a4, a5, a6)			\
	do {								\
		if (!__LKST_ZERO_ARG(a6))				\
			lkst_hook_dispatch(event, a1, a2, a3, a4, a5, a6); \
		else if (!__LKST_ZERO_ARG(a5))				\
			__LKST_CALL5(event, a1, a2, a3, a4, a5);	\
		else if (!__LKST_ZERO_ARG(a4))				\
			__LKST_CALL4(event, a1, a2, a3, a4);		\
		else if (!__LKST_ZERO_ARG(a3))				\
			__LKST_CALL3(event, a1, a2, a3);		\
		else							\
			__LKST_CALL2(event, a1, a2);			\
	} while (0)

/* A site of an event with N arguments, padded with zeros to six. */
#define __LKST_HOOK6(ev, a1, a2, a3, a4, a5, a6)			\
	do {								\
		if (LKST_HOOK_ENABLED(ev))				\
			__LKST_DISPATCH(LKST_EV_##ev, (u64)(a1), (u64)(a2), \
					(u64)(a3), (u64)(a4), (u64)(a5), \
					(u64)(a6));			\
	} while (0)
#define __LKST_HOOK5(ev, a1, a2, a3, a4, a5)				\
	__LKST_HOOK6(ev, a1, a2, a3, a4, a5, 0)
#define __LKST_HOOK4(ev, a1, a2, a3, a4)				\
	__LKST_HOOK6(ev, a1, a2, a3, a4, 0, 0)
#define __LKST_HOOK3(ev, a1, a2, a3)	__LKST_HOOK6(ev, a1, a2, a3, 0, 0, 0)
#define __LKST_HOOK2(ev, a1, a2)	__LKST_HOOK6(ev, a1, a2, 0, 0, 0, 0)
#define __LKST_HOOK1(ev, a1)		__LKST_HOOK6(ev, a1, 0, 0, 0, 0, 0)

/*
 * Handler context.  A handler runs inside the hook that fired: in task,
 * softirq, hardirq or NMI context, with preemption disabled, often with
 * interrupts disabled, and with the hooked code's locks held: rq->lock and
 * pi_lock, wait-queue, signal, timer and worker pool locks, mutex and rwsem
 * wait_lock, die_lock.  The locks column of each event's entry in
 * kernel/lkst/events.def names those its sites may hold.  Hooks also sit
 * inside the page and slab allocators, the scheduler and the timer code.
 * Anything that may deadlock on those locks or re-enter that code is out,
 * so a handler must not
 *  - sleep;
 *  - take any lock, raw spinlocks included: it may be held already, nest
 *    outside a held one, or be held by the code an NMI interrupted;
 *  - wake a task, queue work or arm a timer (a wakeup takes pi_lock and
 *    rq->lock);
 *  - printk (the console and the log wakeup take locks and wake tasks);
 *  - allocate or free memory;
 *  - call into any other traced subsystem.
 *
 * It records only with lkst_record_event() or lkst_handler_pass(): a hook
 * it hits is cut off as recursion and counted as dropped.  It may also call
 * lkst_maskset_switch() and lkst_jump_this_cpu().  All three are lock-free
 * and NMI-safe.  An IRQ or NMI may enter it again while it runs.  An oops
 * in a handler kills the task that hit the hook; the tracer goes on.
 */

/**
 * struct lkst_handler - an event handler a maskset can route events to
 * @id:      2..254; 0 asks lkst_handler_register() for a free ID
 * @name:    shown by `lkm handlers`
 * @owner:   THIS_MODULE, shown with the name
 * @handle:  called in hook context, under the rules above
 * @control: optional; LKST_IOC_HANDLER_CTL's commands, called in process
 *           context (it may sleep and allocate) with a reference on @owner;
 *           returns a count or a negative errno
 * @passes_on: set when @handle calls lkst_handler_pass(); such a handler
 *           is never passed to, so that handlers cannot pass in a cycle
 */
struct lkst_handler {
	unsigned int id;
	const char *name;
	struct module *owner;
	void (*handle)(struct lkst_handler *handler, unsigned int event,
		       const u64 args[LKST_NR_ARGS]);
	int (*control)(struct lkst_handler *handler, unsigned int cmd,
		       void __user *data, u32 size);
	bool passes_on;
};

int lkst_handler_register(struct lkst_handler *handler);
void lkst_handler_unregister(struct lkst_handler *handler);

/*
 * From a handler's @handle only: hand the event on to handler @id (DEFAULT
 * records it), as a filter or an aggregation that also records does.
 * NOTHING drops it quietly; a free ID or a handler that passes on itself
 * is refused, the event counted as dropped.
 */
void lkst_handler_pass(unsigned int id, unsigned int event,
		       const u64 args[LKST_NR_ARGS]);

/*
 * The only way to record: write one record into this CPU's current block
 * (what DEFAULT does).  Call with preemption off, as handlers are; a
 * preemptible caller is refused with a warning, as it could move to
 * another CPU mid-record.  Returns the record's time (CLOCK_MONOTONIC ns),
 * or 0 when it was dropped, so that a handler which also measures (lkst_agg)
 * uses exactly the time the record carries.
 */
u64 lkst_record_event(unsigned int event, const u64 args[LKST_NR_ARGS]);

/*
 * From a handler: the context level of the code that raised the event
 * (0 task, 1 softirq, 2 hardirq, 3 NMI), in place of
 * interrupt_context_level(), which a kprobe hit through an int3 sees as
 * NMI.  Per-level state indexed by it is never shared by two dispatches.
 */
unsigned int lkst_event_context(void);

/*
 * From hook context too, with preemption off (lkst_maskset_switch()
 * refuses a preemptible caller); lkst_jump_this_cpu() acts on this CPU, and
 * returns -EBUSY when the hook interrupted a writer of this CPU that is
 * moving to another page or still writes in the target's first page, or
 * when a resize or a delete of the target block is under way; -EPERM when
 * this CPU writes into the persistent region (lkst.persist=) and the
 * target is another block.
 */
int lkst_maskset_switch(unsigned int maskset);
int lkst_jump_this_cpu(unsigned int block);

/*
 * Dynamic events, for probes made at run time; process context only.
 * lkst_event_add_dynamic() gives the event described by @desc (mnemonic,
 * description, argument types and descriptions; the rest is ignored) a
 * free ID in LKST_EV_PROBE_FIRST..LAST and returns it, routed by no
 * maskset; -EINVAL for a name that is not [A-Za-z][A-Za-z0-9_]*, -EEXIST
 * when an event has that name, -ENOSPC when every ID is taken.  Fire it
 * with lkst_hook_dispatch() under its key, as a hook does.
 * lkst_event_remove_dynamic() unroutes the event from every maskset and
 * returns once no dispatch can still route it; its ID may then be reused.
 */
int lkst_event_add_dynamic(const struct lkst_event_desc *desc);
void lkst_event_remove_dynamic(unsigned int event);

/*
 * From a handler: when the event being handled is a dynamic probe's, its
 * kernel stack from the probed function's registers (the probed address
 * first) into @store; 0 for any other event.
 */
#ifdef CONFIG_KPROBES
unsigned int lkst_probe_stack(unsigned long *store, unsigned int size);
#else
static inline unsigned int lkst_probe_stack(unsigned long *store,
					    unsigned int size)
{
	return 0;
}
#endif

#else /* !CONFIG_LKST */

#define __LKST_HOOK6(...) do { } while (0)
#define __LKST_HOOK5(...) do { } while (0)
#define __LKST_HOOK4(...) do { } while (0)
#define __LKST_HOOK3(...) do { } while (0)
#define __LKST_HOOK2(...) do { } while (0)
#define __LKST_HOOK1(...) do { } while (0)
#define LKST_HOOK_ENABLED(ev) ((void)LKST_EV_##ev, false)
#define LKST_SYSCALL_ENTRY_ENABLED() false

#endif /* CONFIG_LKST */

/*
 * A hook site: LKST_HOOK(EVENT, args...) passes exactly the arguments
 * EVENT's entry in kernel/lkst/events.def lists, or the build fails.
 * COUNT_ARGS() only counts: no argument is evaluated for it.
 */
#define LKST_HOOK(ev, ...)						\
	do {								\
		static_assert(COUNT_ARGS(__VA_ARGS__) == LKST_NR_ARGS_##ev, \
			      "LKST_HOOK(" #ev "): events.def says "	\
			      "another number of arguments");		\
		CONCATENATE(__LKST_HOOK, COUNT_ARGS(__VA_ARGS__))	\
			(ev, __VA_ARGS__);				\
	} while (0)

/* Half @half (0 or 1) of a 16-byte command name, for a COMM argument pair. */
#define lkst_comm_arg(comm, half)					\
	({								\
		u64 _word;						\
		BUILD_BUG_ON(sizeof(comm) != 2 * sizeof(u64));		\
		memcpy(&_word, (comm) + (half) * sizeof(u64), sizeof(u64)); \
		_word;							\
	})

/*
 * Word @word (0, 1, ...) of the C string @str for a TEXT or COMM argument:
 * 8 bytes, NUL padded, never reading past the string's end.  NULL is "".
 */
static inline u64 lkst_str_arg(const char *str, unsigned int word)
{
	unsigned int i;
	u64 val = 0;

	if (!str)
		return 0;
	for (i = 0; i < word * sizeof(u64); i++)
		if (!str[i])
			return 0;
	str += word * sizeof(u64);
	for (i = 0; i < sizeof(u64) && str[i]; i++)
		((char *)&val)[i] = str[i];
	return val;
}

#endif /* _LINUX_LKST_H */
