// SPDX-License-Identifier: GPL-2.0
/*
 * lkst core, the hot path: hook dispatch and the writing of records.
 *
 * A hook calls lkst_hook_dispatch() only while its static key is on.  The
 * dispatcher looks up the active maskset's handler for the event and calls
 * it; DEFAULT is called directly (no indirect call), NOTHING never.  Here
 * too: the recursion guard and the context level of an event,
 * lkst_record_event() and lkst_handler_pass() for extended handlers, the
 * DEFAULT and NOTHING handlers and the per-event counters of `lkm stat`.
 *
 * The keys follow the active maskset (lkc_sync_keys()): masksets and
 * handlers are in maskset.c, the events by ID and dynamic events in
 * event_table.c, the boot options, init and exit in boot.c.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <linux/context_tracking.h>
#include <linux/cpumask.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include "clock.h"
#include "internal.h"

/*
 * Exported only for the hook sites of modules (in namespace LKST); the keys
 * belong to the core, which sets them from the active maskset.  A key
 * flipped by anyone else is harmless: dispatch still follows the maskset.
 */
struct static_key_false lkst_event_keys[LKST_NR_EVENT_IDS] = {
	[0 ... LKST_NR_EVENT_IDS - 1] = STATIC_KEY_FALSE_INIT,
};
EXPORT_SYMBOL_NS_GPL(lkst_event_keys, LKST);

/* Set with the keys of SYSCALL_ENTRY and SYSCALL_ENTRY_ARG5 (lkst.h). */
DEFINE_STATIC_KEY_FALSE(lkst_syscall_entry_key);

/*
 * One bit per context level, to cut off a handler re-entering a hook.  A
 * handler that oopses never clears its bit: lkst_die_notify() does.
 */
static DEFINE_PER_CPU(unsigned int, lkst_recursion);

/* What `lkm stat` shows (struct lkst_event_counters, internal.h). */
#ifdef MODULE
/*
 * Allocated by lkc_init(): a module's static per-CPU data comes from a
 * small reserve (PERCPU_MODULE_RESERVE) that the handlers need too.
 */
struct lkst_event_counters __percpu *lkst_counters_ptr;
#define lkst_counters (*lkst_counters_ptr)
#else
static DEFINE_PER_CPU(struct lkst_event_counters, lkst_counters);
#endif

/*
 * RCU neither watches a CPU before it is marked online nor after it is
 * marked offline (the last hooks of a dying CPU run from the idle task
 * after rcutree_report_cpu_dead()), so blocks found through RCU could be
 * freed under such a CPU: it records nothing, counting the events dropped.
 * An idle CPU in an extended quiescent state is not watched either.
 * Callers have preemption off, so the inline per-CPU test is enough.
 */
static __always_inline bool lkst_cpu_may_record(void)
{
	if (unlikely(!cpu_online(raw_smp_processor_id())))
		return false;
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	return likely(rcu_is_watching_curr_cpu());
#else
	return likely(rcu_is_watching());
#endif
}

/*
 * The NMI count of the trap (an x86 int3) whose kprobe this CPU is
 * dispatching, or 0.  Such a trap enters NMI context over the probed
 * code's (irqentry_nmi_enter()): the probe's event, and whatever its
 * handler does, belong to the probed code's context.  A real NMI that
 * comes meanwhile counts one more, and stays an NMI.
 */
static DEFINE_PER_CPU(unsigned int, lkst_trap_nmi);

unsigned int lkc_trap_enter(void)
{
	unsigned int outer = this_cpu_read(lkst_trap_nmi);

	this_cpu_write(lkst_trap_nmi, preempt_count() & NMI_MASK);
	return outer;
}

void lkc_trap_exit(unsigned int outer)
{
	this_cpu_write(lkst_trap_nmi, outer);
}

static __always_inline unsigned int lkst_context_level_slow(void)
{
	unsigned int pc = preempt_count();

	if ((pc & NMI_MASK) && (pc & NMI_MASK) == this_cpu_read(lkst_trap_nmi))
		pc -= NMI_OFFSET + HARDIRQ_OFFSET;
	/* As interrupt_context_level() counts them. */
	return !!(pc & NMI_MASK) + !!(pc & (NMI_MASK | HARDIRQ_MASK)) +
	       !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}

/*
 * interrupt_context_level() of the traced code, with one test for task
 * context, where most events come from, instead of three.
 */
static __always_inline unsigned int lkst_context_level(void)
{
	if (likely(!(preempt_count() &
		     (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET))))
		return 0;
	return lkst_context_level_slow();
}

/**
 * lkst_event_context() - the context level of the event being handled
 *
 * For extended handlers, in place of interrupt_context_level(): 0 task,
 * 1 softirq, 2 hardirq, 3 NMI, of the code that raised the event (for a
 * kprobe hit through a trap, the probed code's).  The dispatcher's
 * recursion guard uses the same level, so per-level state indexed by it
 * is never shared by two dispatches running at once.
 *
 * Context: any context, NMI included; never sleeps.
 * Return: the level, 0 to 3; it has no error.
 */
unsigned int lkst_event_context(void)
{
	return lkst_context_level();
}
EXPORT_SYMBOL_NS_GPL(lkst_event_context, LKST);

/*
 * Write one record into this CPU's buffer: the arguments go once, from the
 * caller's registers, into the record (lkst_brec_layout_args() and
 * lkst_slot_put_args(), shared with the host's benchmark and tests); the
 * clock is read last, right before the record is completed, and stored as
 * the counter while the page's anchor allows (lkst_clock_stamp(), I16).
 * Returns the record's time in nanoseconds when @want_ns (the DEFAULT
 * path does not), 0 when it was dropped.
 */
static __always_inline u64 lkst_write(unsigned int event, unsigned int ctx,
				      u64 a1, u64 a2, u64 a3, u64 a4,
				      u64 a5, u64 a6, bool want_ns)
{
	struct lkst_cpu_buffer *cb = this_cpu_ptr(&lkst_cpu_buffers);
	/* Filled by the reservation: not zeroed first (INIT_STACK_ALL_ZERO). */
	struct lkst_slot slot __uninitialized;
	u32 pid = current->pid;
	u32 nr_args, wide, len, info;
	u64 now;

	len = lkst_brec_layout_args(a1, a2, a3, a4, a5, a6, &nr_args, &wide);
	/* Packed first: one register, not four, lives across the reserve. */
	info = LKST_BREC_INFO(event, ctx, nr_args, wide);
	if (unlikely(!lkst_buf_reserve_inline(cb, len, pid, true, &slot))) {
		this_cpu_inc(lkst_counters.dropped[LKST_BREC_EVENT(info)]);
		return 0;
	}
	lkst_slot_put_args(&slot, pid, nr_args, a1, a2, a3, a4, a5, a6);
	now = lkst_clock_stamp(slot.page, &info);
	lkst_slot_put_time(&slot, now);
	/* The anchor is read before the commit: the page cannot be reset. */
	if (want_ns && !(info & LKST_BREC_TIME_NS))
		now = lkst_page_clock_ns(&slot.page->clock, now);
	lkst_buf_commit(&slot, info);
	return now;
}

/**
 * lkst_record_event() - write one record into this CPU's current block
 * @event: the event's ID
 * @args: its LKST_NR_ARGS arguments
 *
 * What the DEFAULT handler does, and the only way a handler records.  A
 * record that cannot be written is counted as dropped: no block or room
 * (STOP mode, or a writer of this CPU moving to another page), a CPU RCU
 * does not watch (offline, or idle), or @event LKST_NR_EVENT_IDS or more.
 *
 * Context: preemption off (hook context, NMI included); a preemptible
 * caller is refused with a warning, as it could move to another CPU
 * mid-record.  Never sleeps.
 * Return: the record's time (CLOCK_MONOTONIC ns), so that a handler which
 * also measures uses exactly the time the record carries; 0 when it was
 * dropped or refused (no error code: it has no caller to tell).
 */
u64 lkst_record_event(unsigned int event, const u64 args[LKST_NR_ARGS])
{
	/* Writers of a CPU's buffer must not migrate off it mid-record. */
	if (WARN_ON_ONCE(preemptible()))
		return 0;
	/* Exported: an ID past the table would index the counters. */
	if (unlikely(event >= LKST_NR_EVENT_IDS)) {
		local64_inc(&this_cpu_ptr(&lkst_cpu_buffers)->dropped);
		return 0;
	}
	if (unlikely(!lkst_cpu_may_record())) {
		local64_inc(&this_cpu_ptr(&lkst_cpu_buffers)->dropped);
		this_cpu_inc(lkst_counters.dropped[event]);
		return 0;
	}
	return lkst_write(event, lkst_context_level(), args[0], args[1],
			  args[2], args[3], args[4], args[5], true);
}
EXPORT_SYMBOL_NS_GPL(lkst_record_event, LKST);

static void lkst_default_handle(struct lkst_handler *handler,
				unsigned int event,
				const u64 args[LKST_NR_ARGS])
{
	lkst_record_event(event, args);
}

static void lkst_nothing_handle(struct lkst_handler *handler,
				unsigned int event,
				const u64 args[LKST_NR_ARGS])
{
}

struct lkst_handler lkst_default_handler = {
	.id = LKST_HANDLER_DEFAULT,
	.name = "default",
	.handle = lkst_default_handle,
};

struct lkst_handler lkst_nothing_handler = {
	.id = LKST_HANDLER_NOTHING,
	.name = "nothing",
	.handle = lkst_nothing_handle,
};

/*
 * An extended handler takes the arguments as an array: built here, out of
 * the dispatcher, so that the DEFAULT path has no array on its stack (and
 * no stack-protector check).
 */
static noinline void lkst_call_handler(u8 id, unsigned int event, u64 a1,
				       u64 a2, u64 a3, u64 a4, u64 a5, u64 a6)
{
	const u64 args[LKST_NR_ARGS] = { a1, a2, a3, a4, a5, a6 };
	struct lkst_handler *h = rcu_dereference_sched(lkst_handlers[id]);

	if (h) {
		this_cpu_inc(lkst_counters.hits[event]);
		h->handle(h, event, args);
	}
}

static __always_inline void lkst_dispatch(unsigned int event, u64 a1, u64 a2,
					  u64 a3, u64 a4, u64 a5, u64 a6)
{
	unsigned int ctx, level_bit, nesting;
	struct lkst_maskset *ms;
	u8 id;

	/* Hooks pass constant IDs; a module calling in directly may not. */
	if (WARN_ON_ONCE(event >= LKST_NR_EVENT_IDS))
		return;
	preempt_disable_notrace();
	if (unlikely(!lkst_cpu_may_record())) {
		local64_inc(&this_cpu_ptr(&lkst_cpu_buffers)->dropped);
		this_cpu_inc(lkst_counters.dropped[event]);
		goto out;
	}
	/*
	 * An interrupt arriving between the read and the write below sets and
	 * clears its own bit, so the plain read-modify-write stays correct.
	 */
	ctx = lkst_context_level();
	level_bit = 1U << ctx;
	nesting = this_cpu_read(lkst_recursion);
	if (unlikely(nesting & level_bit)) {
		local64_inc(&this_cpu_ptr(&lkst_cpu_buffers)->dropped);
		this_cpu_inc(lkst_counters.dropped[event]);
		goto out;
	}
	this_cpu_write(lkst_recursion, nesting | level_bit);

	ms = rcu_dereference_sched(lkst_active);
	id = READ_ONCE(ms->handler[event]);
	if (likely(id == LKST_HANDLER_DEFAULT)) {
		this_cpu_inc(lkst_counters.hits[event]);
		lkst_write(event, ctx, a1, a2, a3, a4, a5, a6, false);
	} else if (id != LKST_HANDLER_NOTHING) {
		lkst_call_handler(id, event, a1, a2, a3, a4, a5, a6);
	}

	this_cpu_write(lkst_recursion, nesting);
out:
	preempt_enable_notrace();
}

/**
 * lkst_hook_dispatch() - route one event to the handler the active
 *	maskset names for it
 * @event: the event's ID
 * @a1: its first argument
 * @a2: its second argument
 * @a3: its third argument
 * @a4: its fourth argument
 * @a5: its fifth argument
 * @a6: its sixth argument
 *
 * What LKST_HOOK() calls when the event's key is on: DEFAULT writes the
 * record, NOTHING drops it, an extended handler gets the arguments as an
 * array.  A dispatch that would recurse in its context level, or on a CPU
 * that may not record, is counted as dropped; an ID of
 * LKST_NR_EVENT_IDS or more is refused with a warning.
 *
 * Context: any context, NMI included; never sleeps, takes no lock.
 */
notrace void lkst_hook_dispatch(unsigned int event, u64 a1, u64 a2, u64 a3,
				u64 a4, u64 a5, u64 a6)
{
	lkst_dispatch(event, a1, a2, a3, a4, a5, a6);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch, LKST);

/*
 * Copies for the sites whose last arguments are 0 (lkst.h): each knows
 * which arguments it may store, and keeps no others live.
 */

/**
 * lkst_hook_dispatch2() - lkst_hook_dispatch() of an event whose
 *	arguments past the second are 0
 * @event: the event's ID
 * @a1: its first argument
 * @a2: its second argument
 *
 * Context: any context, NMI included; never sleeps, takes no lock.
 */
notrace void __lkst_dispatcher lkst_hook_dispatch2(unsigned int event,
						   u64 a1, u64 a2)
{
	lkst_dispatch(event, a1, a2, 0, 0, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch2, LKST);

/**
 * lkst_hook_dispatch3() - lkst_hook_dispatch() of an event whose
 *	arguments past the third are 0
 * @event: the event's ID
 * @a1: its first argument
 * @a2: its second argument
 * @a3: its third argument
 *
 * Context: any context, NMI included; never sleeps, takes no lock.
 */
notrace void __lkst_dispatcher lkst_hook_dispatch3(unsigned int event,
						   u64 a1, u64 a2, u64 a3)
{
	lkst_dispatch(event, a1, a2, a3, 0, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch3, LKST);

/**
 * lkst_hook_dispatch4() - lkst_hook_dispatch() of an event whose
 *	arguments past the fourth are 0
 * @event: the event's ID
 * @a1: its first argument
 * @a2: its second argument
 * @a3: its third argument
 * @a4: its fourth argument
 *
 * Context: any context, NMI included; never sleeps, takes no lock.
 */
notrace void __lkst_dispatcher lkst_hook_dispatch4(unsigned int event,
						   u64 a1, u64 a2, u64 a3,
						   u64 a4)
{
	lkst_dispatch(event, a1, a2, a3, a4, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch4, LKST);

/**
 * lkst_hook_dispatch5() - lkst_hook_dispatch() of an event whose
 *	arguments past the fifth are 0
 * @event: the event's ID
 * @a1: its first argument
 * @a2: its second argument
 * @a3: its third argument
 * @a4: its fourth argument
 * @a5: its fifth argument
 *
 * Context: any context, NMI included; never sleeps, takes no lock.
 */
notrace void __lkst_dispatcher lkst_hook_dispatch5(unsigned int event,
						   u64 a1, u64 a2, u64 a3,
						   u64 a4, u64 a5)
{
	lkst_dispatch(event, a1, a2, a3, a4, a5, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch5, LKST);

/**
 * lkst_handler_pass() - hand the event being handled on to another handler
 * @id: the handler's ID; DEFAULT records the event, NOTHING drops it
 * @event: the event's ID
 * @args: its LKST_NR_ARGS arguments
 *
 * From a handler's handle() only, as a filter or an aggregation that
 * also records does.  A free ID, or a handler that passes on itself
 * (passes_on), is refused: the event is counted as dropped, so that
 * handlers cannot pass in a cycle.
 *
 * Context: hook context (preemption off, NMI included); never sleeps.
 */
void lkst_handler_pass(unsigned int id, unsigned int event,
		       const u64 args[LKST_NR_ARGS])
{
	struct lkst_handler *h;

	if (id == LKST_HANDLER_DEFAULT) {
		lkst_record_event(event, args);
		return;
	}
	if (id == LKST_HANDLER_NOTHING)
		return;
	h = id < LKST_MAX_HANDLERS ?
		rcu_dereference_sched(lkst_handlers[id]) : NULL;
	if (h && !h->passes_on) {
		h->handle(h, event, args);
		return;
	}
	local64_inc(&this_cpu_ptr(&lkst_cpu_buffers)->dropped);
	if (event < LKST_NR_EVENT_IDS)
		this_cpu_inc(lkst_counters.dropped[event]);
}
EXPORT_SYMBOL_NS_GPL(lkst_handler_pass, LKST);

/*
 * An oops inside a handler leaves its context's recursion bit set, and the
 * task that dies never returns to clear it: every later event of that
 * context on this CPU would count as dropped.  At die time no dispatch of
 * this context or above can still be running on this CPU, so clear their
 * bits.  (The OOPS_DIE of such an oops itself is still cut off as
 * recursion: its hook runs before the die notifiers.)
 */
static int lkst_die_notify(struct notifier_block *nb, unsigned long val,
			   void *data)
{
	if (val == DIE_OOPS)
		this_cpu_and(lkst_recursion,
			     (1U << lkst_context_level()) - 1);
	return NOTIFY_DONE;
}

struct notifier_block lkst_die_nb = {
	.notifier_call = lkst_die_notify,
};

int lkc_ioc_event_stat(struct lkst_event_stat *stat)
{
	unsigned int cpu;

	unsigned int event;

	if (!lkc_event_known(stat->event) || stat->__pad)
		return -EINVAL;
	event = array_index_nospec(stat->event, LKST_NR_EVENT_IDS);
	stat->hits = 0;
	stat->dropped = 0;
	for_each_possible_cpu(cpu) {
		struct lkst_event_counters *c = per_cpu_ptr(&lkst_counters, cpu);

		stat->hits += READ_ONCE(c->hits[event]);
		stat->dropped += READ_ONCE(c->dropped[event]);
	}
	return 0;
}

/* Counts racing with the reset on other CPUs may survive it. */
void lkc_ioc_event_stat_reset(void)
{
	unsigned int cpu, event;

	for_each_possible_cpu(cpu) {
		struct lkst_event_counters *c = per_cpu_ptr(&lkst_counters, cpu);

		for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
			WRITE_ONCE(c->hits[event], 0);
			WRITE_ONCE(c->dropped[event], 0);
		}
	}
}
