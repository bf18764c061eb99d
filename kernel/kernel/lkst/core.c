// SPDX-License-Identifier: GPL-2.0
/*
 * lkst core: hook dispatch, masksets and handlers.
 *
 * A hook calls lkst_hook_dispatch() only while its static key is on.  The
 * dispatcher looks up the active maskset's handler for the event and calls
 * it; DEFAULT is called directly (no indirect call), NOTHING never.  Keys
 * follow the active maskset: an event's key is on exactly when the active
 * maskset routes it to a registered handler other than NOTHING.
 */
#define pr_fmt(fmt) "lkst: " fmt
#define LKST_EVENT_TABLES

#include <linux/context_tracking.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
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

DEFINE_MUTEX(lkst_mutex);

/* lkst_event_table[] indexed by event ID, NULL where no event is. */
static const struct lkst_event_info *lkst_events_by_id[LKST_NR_EVENT_IDS];

bool lkst_event_known(unsigned int event)
{
	if (event >= LKST_NR_EVENT_IDS)
		return false;
	return READ_ONCE(lkst_events_by_id[array_index_nospec(event,
							      LKST_NR_EVENT_IDS)]);
}

const struct lkst_event_info *lkst_event_info(unsigned int event)
{
	return lkst_event_known(event) ? READ_ONCE(lkst_events_by_id[event]) :
					 NULL;
}

unsigned int lkst_nr_events(void)
{
	return LKST_NR_EVENTS;
}

/*
 * Dynamic events live here, not with the probes that fire them, so that a
 * description stays valid wherever it is read (the panic dump takes no
 * lock): a slot is only ever rewritten while its ID is unused.
 */
struct lkst_dynamic_event {
	struct lkst_event_info info;
	char mnemonic[LKST_NAME_LEN];
	char description[LKST_DESC_LEN];
	char arg_desc[LKST_NR_ARGS][LKST_ARG_DESC_LEN];
};

#define LKST_NR_DYNAMIC	(LKST_EV_PROBE_LAST - LKST_EV_PROBE_FIRST + 1)
static struct lkst_dynamic_event lkst_dynamic_events[LKST_NR_DYNAMIC];
/* Taken from creation until a grace period after removal, under lkst_mutex. */
static DECLARE_BITMAP(lkst_dynamic_taken, LKST_NR_DYNAMIC);

static struct lkst_maskset lkst_masksets[LKST_MAX_MASKSETS];
static struct lkst_maskset __rcu *lkst_active;
static struct lkst_handler __rcu *lkst_handlers[LKST_MAX_HANDLERS];

/*
 * One bit per context level, to cut off a handler re-entering a hook.  A
 * handler that oopses never clears its bit: lkst_die_notify() does.
 */
static DEFINE_PER_CPU(unsigned int, lkst_recursion);

/* What `lkm stat` shows; this_cpu_inc() is one instruction, NMI-safe. */
struct lkst_event_counters {
	u64 hits[LKST_NR_EVENT_IDS];
	u64 dropped[LKST_NR_EVENT_IDS];
};
#ifdef MODULE
/*
 * Allocated: a module's static per-CPU data comes from a small reserve
 * (PERCPU_MODULE_RESERVE) that the handlers need too.
 */
static struct lkst_event_counters __percpu *lkst_counters_ptr;
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

unsigned int lkst_trap_enter(void)
{
	unsigned int outer = this_cpu_read(lkst_trap_nmi);

	this_cpu_write(lkst_trap_nmi, preempt_count() & NMI_MASK);
	return outer;
}

void lkst_trap_exit(unsigned int outer)
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
 * clock is read last, right before the record is completed.
 */
static __always_inline u64 lkst_write(unsigned int event, unsigned int ctx,
				      u64 a1, u64 a2, u64 a3, u64 a4,
				      u64 a5, u64 a6)
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
	now = lkst_clock_ns();
	lkst_slot_put_time(&slot, now);
	lkst_buf_commit(&slot, info);
	return now;
}

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
			  args[2], args[3], args[4], args[5]);
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

static struct lkst_handler lkst_default_handler = {
	.id = LKST_HANDLER_DEFAULT,
	.name = "default",
	.handle = lkst_default_handle,
};

static struct lkst_handler lkst_nothing_handler = {
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
		lkst_write(event, ctx, a1, a2, a3, a4, a5, a6);
	} else if (id != LKST_HANDLER_NOTHING) {
		lkst_call_handler(id, event, a1, a2, a3, a4, a5, a6);
	}

	this_cpu_write(lkst_recursion, nesting);
out:
	preempt_enable_notrace();
}

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
notrace void __lkst_dispatcher lkst_hook_dispatch2(unsigned int event,
						   u64 a1, u64 a2)
{
	lkst_dispatch(event, a1, a2, 0, 0, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch2, LKST);

notrace void __lkst_dispatcher lkst_hook_dispatch3(unsigned int event,
						   u64 a1, u64 a2, u64 a3)
{
	lkst_dispatch(event, a1, a2, a3, 0, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch3, LKST);

notrace void __lkst_dispatcher lkst_hook_dispatch4(unsigned int event,
						   u64 a1, u64 a2, u64 a3,
						   u64 a4)
{
	lkst_dispatch(event, a1, a2, a3, a4, 0, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch4, LKST);

notrace void __lkst_dispatcher lkst_hook_dispatch5(unsigned int event,
						   u64 a1, u64 a2, u64 a3,
						   u64 a4, u64 a5)
{
	lkst_dispatch(event, a1, a2, a3, a4, a5, 0);
}
EXPORT_SYMBOL_NS_GPL(lkst_hook_dispatch5, LKST);

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

static struct notifier_block lkst_die_nb = {
	.notifier_call = lkst_die_notify,
};

int lkst_event_stat(struct lkst_event_stat *stat)
{
	unsigned int cpu;

	unsigned int event;

	if (!lkst_event_known(stat->event) || stat->__pad)
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
void lkst_event_stat_reset(void)
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

static bool lkst_routes_to_handler(const struct lkst_maskset *ms,
				   unsigned int event)
{
	u8 id = READ_ONCE(ms->handler[event]);

	return id != LKST_HANDLER_NOTHING &&
		rcu_access_pointer(lkst_handlers[id]);
}

/* Bring every event's static key in line with the active maskset. */
static void lkst_sync_keys(void)
{
	struct lkst_maskset *ms;
	unsigned int event;
	bool want;

	lockdep_assert_held(&lkst_mutex);
	/* Handlers may switch the pointer without the mutex: load it once. */
	ms = rcu_dereference_check(lkst_active, lockdep_is_held(&lkst_mutex));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		if (!lkst_event_known(event))
			continue;
		want = lkst_routes_to_handler(ms, event);
		if (want == static_key_enabled(&lkst_event_keys[event]))
			continue;
		if (want)
			static_branch_enable(&lkst_event_keys[event]);
		else
			static_branch_disable(&lkst_event_keys[event]);
	}
	want = lkst_routes_to_handler(ms, LKST_EV_SYSCALL_ENTRY) ||
	       lkst_routes_to_handler(ms, LKST_EV_SYSCALL_ENTRY_ARG5);
	if (want != static_key_enabled(&lkst_syscall_entry_key)) {
		if (want)
			static_branch_enable(&lkst_syscall_entry_key);
		else
			static_branch_disable(&lkst_syscall_entry_key);
	}
	/* Without the patch, tracepoint probes follow the keys. */
	lkst_tracepoints_sync();
}

static void lkst_sync_keys_work_fn(struct work_struct *work)
{
	mutex_lock(&lkst_mutex);
	lkst_sync_keys();
	mutex_unlock(&lkst_mutex);
}

static DECLARE_WORK(lkst_sync_keys_work, lkst_sync_keys_work_fn);

static void lkst_sync_keys_irq_work_fn(struct irq_work *work)
{
	schedule_work(&lkst_sync_keys_work);
}

static DEFINE_IRQ_WORK(lkst_sync_keys_irq_work, lkst_sync_keys_irq_work_fn);

unsigned int lkst_active_maskset_id(void)
{
	struct lkst_maskset *ms;
	unsigned int id;

	rcu_read_lock();
	ms = rcu_dereference(lkst_active);
	id = ms - lkst_masksets;
	rcu_read_unlock();
	return id;
}

/*
 * Switch masksets from any context, hooks included: the pointer changes at
 * once; static keys, which can only change in process context, follow from
 * a work item, so events newly routed are recorded a moment later.
 */
int lkst_maskset_switch(unsigned int id)
{
	/*
	 * lkst_maskset_delete() waits for a grace period to know no switch to
	 * a maskset it is deleting is under way: only a caller that cannot be
	 * preempted between the check and the switch is covered by it.
	 */
	if (WARN_ON_ONCE(preemptible()))
		return -EPERM;
	if (id >= LKST_MAX_MASKSETS)
		return -ENOENT;
	id = array_index_nospec(id, LKST_MAX_MASKSETS);
	if (!READ_ONCE(lkst_masksets[id].in_use))
		return -ENOENT;
	rcu_assign_pointer(lkst_active, &lkst_masksets[id]);
	irq_work_queue(&lkst_sync_keys_irq_work);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(lkst_maskset_switch, LKST);

/*
 * Route everything to NOTHING at once, from a context that must not queue
 * work (panic); the static keys stay as they are.
 */
void lkst_stop_recording(void)
{
	rcu_assign_pointer(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);
}

int lkst_maskset_select(unsigned int id)
{
	if (id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	id = array_index_nospec(id, LKST_MAX_MASKSETS);
	mutex_lock(&lkst_mutex);
	if (!lkst_masksets[id].in_use) {
		mutex_unlock(&lkst_mutex);
		return -ENOENT;
	}
	rcu_assign_pointer(lkst_active, &lkst_masksets[id]);
	lkst_sync_keys();
	mutex_unlock(&lkst_mutex);
	/* No hook runs with the previous maskset after this returns. */
	synchronize_rcu();
	return 0;
}

int lkst_maskset_read(struct lkst_maskset_desc *desc)
{
	struct lkst_maskset *ms;
	unsigned int event;

	if (desc->id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(desc->id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		mutex_unlock(&lkst_mutex);
		return -ENOENT;
	}
	desc->flags = (ms->system ? LKST_MS_SYSTEM : 0) |
		(rcu_access_pointer(lkst_active) == ms ? LKST_MS_ACTIVE : 0);
	strscpy(desc->name, ms->name, sizeof(desc->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		desc->handler[event] = READ_ONCE(ms->handler[event]);
	mutex_unlock(&lkst_mutex);
	return 0;
}

/* IDs of maskset entries a user may write: system masksets are read-only. */
static int lkst_check_user_maskset(unsigned int id)
{
	if (id >= LKST_MAX_MASKSETS)
		return -EINVAL;
	if (id < LKST_MASKSET_FIRST_USER)
		return -EROFS;
	return 0;
}

static int lkst_check_route(unsigned int event, unsigned int handler)
{
	if (event >= LKST_NR_EVENT_IDS || !handler ||
	    handler >= LKST_MAX_HANDLERS)
		return -EINVAL;
	if (handler == LKST_HANDLER_NOTHING)
		return 0;
	if (!lkst_event_known(event))
		return -EINVAL;
	handler = array_index_nospec(handler, LKST_MAX_HANDLERS);
	if (!rcu_access_pointer(lkst_handlers[handler]))
		return -ENOENT;
	return 0;
}

static bool lkst_active_is(const struct lkst_maskset *ms)
{
	return rcu_access_pointer(lkst_active) == ms;
}

int lkst_maskset_write(const struct lkst_maskset_desc *desc)
{
	struct lkst_maskset *ms;
	unsigned int event;
	int ret;

	ret = lkst_check_user_maskset(desc->id);
	if (ret)
		return ret;
	if (desc->flags || !memchr(desc->name, 0, sizeof(desc->name)))
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		ret = lkst_check_route(event, desc->handler[event]);
		if (ret)
			goto unlock;
	}
	ms = &lkst_masksets[array_index_nospec(desc->id, LKST_MAX_MASKSETS)];
	strscpy(ms->name, desc->name, sizeof(ms->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		WRITE_ONCE(ms->handler[event], desc->handler[event]);
	WRITE_ONCE(ms->in_use, true);
	if (lkst_active_is(ms))
		lkst_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

int lkst_maskset_config(const struct lkst_maskset_entry *entry)
{
	struct lkst_maskset *ms;
	int ret;

	ret = lkst_check_user_maskset(entry->id);
	if (ret)
		return ret;
	if (entry->__pad)
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(entry->id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		ret = -ENOENT;
		goto unlock;
	}
	ret = lkst_check_route(entry->event, entry->handler);
	if (ret)
		goto unlock;
	WRITE_ONCE(ms->handler[array_index_nospec(entry->event,
						  LKST_NR_EVENT_IDS)],
		   entry->handler);
	if (lkst_active_is(ms))
		lkst_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

int lkst_maskset_delete(unsigned int id)
{
	struct lkst_maskset *ms;
	int ret;

	ret = lkst_check_user_maskset(id);
	if (ret)
		return ret;

	mutex_lock(&lkst_mutex);
	ms = &lkst_masksets[array_index_nospec(id, LKST_MAX_MASKSETS)];
	if (!ms->in_use) {
		ret = -ENOENT;
		goto unlock;
	}
	if (lkst_active_is(ms)) {
		ret = -EBUSY;
		goto unlock;
	}
	WRITE_ONCE(ms->in_use, false);
	/* A handler may have switched to it from hook context meanwhile. */
	synchronize_rcu();
	if (lkst_active_is(ms)) {
		WRITE_ONCE(ms->in_use, true);
		ret = -EBUSY;
	}
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}

int lkst_handler_register(struct lkst_handler *handler)
{
	unsigned int id = handler->id;
	int ret = 0;

	if (!handler->handle || !handler->name ||
	    id == LKST_HANDLER_DEFAULT || id >= LKST_HANDLER_NOTHING)
		return -EINVAL;

	mutex_lock(&lkst_mutex);
	if (!id) {
		for (id = LKST_HANDLER_DEFAULT + 1; id < LKST_HANDLER_NOTHING; id++)
			if (!rcu_access_pointer(lkst_handlers[id]))
				break;
		if (id == LKST_HANDLER_NOTHING) {
			ret = -ENOSPC;
			goto unlock;
		}
	} else if (rcu_access_pointer(lkst_handlers[id])) {
		ret = -EBUSY;
		goto unlock;
	}
	handler->id = id;
	rcu_assign_pointer(lkst_handlers[id], handler);
	lkst_sync_keys();
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_handler_register, LKST);

/*
 * After this returns no CPU runs @handler any more.  Maskset entries that
 * name its ID stay and act as NOTHING until a handler takes the ID again.
 */
void lkst_handler_unregister(struct lkst_handler *handler)
{
	unsigned int id = handler->id;

	mutex_lock(&lkst_mutex);
	if (WARN_ON_ONCE(id >= LKST_MAX_HANDLERS ||
			 rcu_access_pointer(lkst_handlers[id]) != handler)) {
		mutex_unlock(&lkst_mutex);
		return;
	}
	RCU_INIT_POINTER(lkst_handlers[id], NULL);
	lkst_sync_keys();
	mutex_unlock(&lkst_mutex);
	synchronize_rcu();
}
EXPORT_SYMBOL_NS_GPL(lkst_handler_unregister, LKST);

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
 * The module reference keeps the handler registered while its control
 * runs: unregistering happens in the module's exit, which cannot start
 * while a reference is held.
 */
int lkst_handler_ctl(struct lkst_handler_ctl *ctl)
{
	struct lkst_handler *h;
	unsigned int id;
	int ret;

	if (ctl->handler >= LKST_MAX_HANDLERS || ctl->__pad)
		return -EINVAL;
	id = array_index_nospec(ctl->handler, LKST_MAX_HANDLERS);
	mutex_lock(&lkst_mutex);
	h = rcu_dereference_protected(lkst_handlers[id],
				      lockdep_is_held(&lkst_mutex));
	if (!h)
		ret = -ENOENT;
	else if (!h->control)
		ret = -EOPNOTSUPP;
	else if (!try_module_get(h->owner))
		ret = -ENOENT;	/* on its way out */
	else
		ret = 0;
	mutex_unlock(&lkst_mutex);
	if (ret)
		return ret;
	ret = h->control(h, ctl->cmd, u64_to_user_ptr(ctl->data), ctl->size);
	module_put(h->owner);
	return ret;
}

int lkst_handler_info(struct lkst_handler_desc *desc)
{
	struct lkst_handler *h;
	unsigned int id;
	int ret = 0;

	if (desc->id >= LKST_MAX_HANDLERS || desc->__pad)
		return -EINVAL;
	id = array_index_nospec(desc->id, LKST_MAX_HANDLERS);
	mutex_lock(&lkst_mutex);
	h = rcu_dereference_protected(lkst_handlers[id],
				      lockdep_is_held(&lkst_mutex));
	if (h) {
		strscpy(desc->name, h->name, sizeof(desc->name));
		strscpy(desc->module, h->owner ? module_name(h->owner) : "",
			sizeof(desc->module));
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&lkst_mutex);
	return ret;
}

static void lkst_fill_event_desc(struct lkst_event_desc *desc,
				 const struct lkst_event_info *info)
{
	unsigned int i;

	lockdep_assert_held(&lkst_mutex);
	desc->category = info->category;
	desc->flags = desc->id >= LKST_EV_PROBE_FIRST ? LKST_EVENT_DYNAMIC : 0;
	desc->flags |= lkst_event_site_flags(desc->id);
	memset(desc->arg_type, 0, sizeof(desc->arg_type));
	memset(desc->arg_desc, 0, sizeof(desc->arg_desc));
	strscpy_pad(desc->mnemonic, info->mnemonic, sizeof(desc->mnemonic));
	strscpy_pad(desc->description, info->description ?: "",
		    sizeof(desc->description));
	for (i = 0; i < LKST_NR_ARGS; i++) {
		desc->arg_type[i] = info->args[i].type;
		strscpy_pad(desc->arg_desc[i], info->args[i].desc ?: "",
			    sizeof(desc->arg_desc[i]));
	}
}

int lkst_event_desc(struct lkst_event_desc *desc)
{
	const struct lkst_event_info *info;
	int ret = 0;

	if (desc->__pad)
		return -EINVAL;
	mutex_lock(&lkst_mutex);
	info = lkst_event_info(desc->id);
	if (info)
		lkst_fill_event_desc(desc, info);
	else
		ret = -ENOENT;
	mutex_unlock(&lkst_mutex);
	return ret;
}

/*
 * The table is copied under the mutex into memory of our own and copied
 * out after, so that a slow user page never holds up masksets.
 */
int lkst_describe_events(struct lkst_event_table *table)
{
	struct lkst_event_desc *descs;
	const struct lkst_event_info *info;
	unsigned int event, n = 0;
	int ret = 0;

	if (table->__pad || table->desc_size != sizeof(*descs))
		return -EINVAL;
	descs = kvcalloc(LKST_NR_EVENT_IDS, sizeof(*descs), GFP_KERNEL);
	if (!descs)
		return -ENOMEM;
	mutex_lock(&lkst_mutex);
	for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
		info = lkst_event_info(event);
		if (!info)
			continue;
		descs[n].id = event;
		lkst_fill_event_desc(&descs[n++], info);
	}
	mutex_unlock(&lkst_mutex);
	table->nr_descs = n;
	if (copy_to_user(u64_to_user_ptr(table->descs), descs,
			 array_size(min(n, table->max_descs), sizeof(*descs))))
		ret = -EFAULT;
	kvfree(descs);
	return ret;
}

/* Letters, digits and '_', a letter first, and no event named so yet. */
static int lkst_check_dynamic_name(const char *name)
{
	unsigned int event;
	size_t len = strnlen(name, LKST_NAME_LEN), i;

	if (!len || len == LKST_NAME_LEN || !isalpha(name[0]))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return -EINVAL;
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		if (lkst_event_known(event) &&
		    !strcasecmp(lkst_events_by_id[event]->mnemonic, name))
			return -EEXIST;
	return 0;
}

int lkst_event_add_dynamic(const struct lkst_event_desc *desc)
{
	struct lkst_dynamic_event *dyn;
	unsigned int event, i;
	int ret;

	for (i = 0; i < LKST_NR_ARGS; i++)
		if (desc->arg_type[i] >= LKST_NR_ARG_TYPES)
			return -EINVAL;
	mutex_lock(&lkst_mutex);
	ret = lkst_check_dynamic_name(desc->mnemonic);
	if (ret)
		goto unlock;
	ret = -ENOSPC;
	for (event = LKST_EV_PROBE_FIRST; event <= LKST_EV_PROBE_LAST; event++) {
		if (__test_and_set_bit(event - LKST_EV_PROBE_FIRST,
				       lkst_dynamic_taken))
			continue;
		dyn = &lkst_dynamic_events[event - LKST_EV_PROBE_FIRST];
		strscpy_pad(dyn->mnemonic, desc->mnemonic, sizeof(dyn->mnemonic));
		strscpy_pad(dyn->description, desc->description,
			    sizeof(dyn->description));
		dyn->info.id = event;
		dyn->info.mnemonic = dyn->mnemonic;
		dyn->info.category = LKST_CAT_PROBE;
		dyn->info.description = dyn->description;
		for (i = 0; i < LKST_NR_ARGS; i++) {
			strscpy_pad(dyn->arg_desc[i], desc->arg_desc[i],
				    sizeof(dyn->arg_desc[i]));
			dyn->info.args[i].type = desc->arg_type[i];
			dyn->info.args[i].desc = dyn->arg_desc[i];
		}
		/* No maskset routes a new ID: every entry is NOTHING. */
		WRITE_ONCE(lkst_events_by_id[event], &dyn->info);
		ret = event;
		break;
	}
unlock:
	mutex_unlock(&lkst_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(lkst_event_add_dynamic, LKST);

void lkst_event_remove_dynamic(unsigned int event)
{
	unsigned int id;

	if (WARN_ON_ONCE(event < LKST_EV_PROBE_FIRST ||
			 event > LKST_EV_PROBE_LAST))
		return;
	mutex_lock(&lkst_mutex);
	for (id = 0; id < LKST_MAX_MASKSETS; id++)
		WRITE_ONCE(lkst_masksets[id].handler[event],
			   LKST_HANDLER_NOTHING);
	/* Its key goes off while it is still known; then nothing routes it. */
	lkst_sync_keys();
	WRITE_ONCE(lkst_events_by_id[event], NULL);
	mutex_unlock(&lkst_mutex);
	/* A dispatch that read the old entry ends within a grace period. */
	synchronize_rcu();
	mutex_lock(&lkst_mutex);
	__clear_bit(event - LKST_EV_PROBE_FIRST, lkst_dynamic_taken);
	mutex_unlock(&lkst_mutex);
}
EXPORT_SYMBOL_NS_GPL(lkst_event_remove_dynamic, LKST);

static void __init lkst_init_system_maskset(unsigned int id, const char *name,
					    bool (*routed)(unsigned int event))
{
	struct lkst_maskset *ms = &lkst_masksets[id];
	unsigned int event;

	ms->in_use = true;
	ms->system = true;
	strscpy(ms->name, name, sizeof(ms->name));
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		ms->handler[event] = routed(event) ? LKST_HANDLER_DEFAULT :
						     LKST_HANDLER_NOTHING;
}

static bool __init lkst_route_none(unsigned int event)
{
	return false;
}

/* The primary events, as in LKST's RDEFAULT, and user marks. */
static bool __init lkst_route_primary(unsigned int event)
{
	if (!lkst_event_known(event))
		return false;
	switch (lkst_events_by_id[event]->category) {
	case LKST_CAT_PROCESS:
	case LKST_CAT_INTERRUPT:
	case LKST_CAT_EXCEPTION:
	case LKST_CAT_SYSCALL:
	case LKST_CAT_TRACER:
		return true;
	default:
		return false;
	}
}

static bool __init lkst_route_all(unsigned int event)
{
	return lkst_event_known(event);
}

static unsigned int lkst_boot_maskset __initdata = LKST_MASKSET_RNOTHING;
static unsigned int lkst_boot_bufsize __initdata = 256 << 10;

static int __init lkst_set_boot_maskset(char *str)
{
	if (!strcmp(str, "rnothing"))
		lkst_boot_maskset = LKST_MASKSET_RNOTHING;
	else if (!strcmp(str, "rdefault"))
		lkst_boot_maskset = LKST_MASKSET_RDEFAULT;
	else if (!strcmp(str, "rall"))
		lkst_boot_maskset = LKST_MASKSET_RALL;
	else if (kstrtouint(str, 0, &lkst_boot_maskset) ||
		 lkst_boot_maskset >= LKST_MASKSET_FIRST_USER)
		pr_warn("lkst.maskset=%s: use rnothing, rdefault, rall or 0-2\n",
			str);
	if (lkst_boot_maskset >= LKST_MASKSET_FIRST_USER)
		lkst_boot_maskset = LKST_MASKSET_RNOTHING;
	return 1;
}
lkst_setup(maskset, lkst_set_boot_maskset);

static int __init lkst_set_boot_bufsize(char *str)
{
	unsigned long long size = memparse(str, NULL);

	if (size < LKST_BLOCK_MIN_SIZE || size > LKST_BLOCK_MAX_SIZE)
		pr_warn("lkst.bufsize=%s: must be %u to %u bytes; using %u\n",
			str, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE,
			lkst_boot_bufsize);
	else
		lkst_boot_bufsize = size;
	return 1;
}
lkst_setup(bufsize, lkst_set_boot_bufsize);

static unsigned int lkst_boot_mode __initdata = LKST_MODE_OVERWRITE;

static int __init lkst_set_boot_mode(char *str)
{
	if (!strcmp(str, "overwrite"))
		lkst_boot_mode = LKST_MODE_OVERWRITE;
	else if (!strcmp(str, "stop"))
		lkst_boot_mode = LKST_MODE_STOP;
	else
		pr_warn("lkst.mode=%s: use overwrite or stop\n", str);
	return 1;
}
lkst_setup(mode, lkst_set_boot_mode);

/* Kept as given; parsed by lkst_init(), once the event table is indexed. */
static char *lkst_boot_events __initdata;

static int __init lkst_set_boot_events(char *str)
{
	lkst_boot_events = str;
	return 1;
}
lkst_setup(events, lkst_set_boot_events);

/* Route @name (an event mnemonic or a category), @len bytes, in @ms. */
static bool __init lkst_route_boot_item(struct lkst_maskset *ms,
					const char *name, size_t len)
{
	unsigned int i, event;
	bool found = false;

	for (i = 0; i < LKST_NR_EVENTS; i++) {
		const char *mnemonic = lkst_event_table[i].mnemonic;

		if (strlen(mnemonic) == len && !strncasecmp(mnemonic, name, len)) {
			ms->handler[lkst_event_table[i].id] =
				LKST_HANDLER_DEFAULT;
			return true;
		}
	}
	for (i = 0; i < ARRAY_SIZE(lkst_category_table); i++) {
		const char *cat = lkst_category_table[i].name;

		if (!cat || strlen(cat) != len || strncasecmp(cat, name, len))
			continue;
		for (event = 0; event < LKST_NR_EVENT_IDS; event++) {
			if (lkst_event_known(event) &&
			    lkst_events_by_id[event]->category == i) {
				ms->handler[event] = LKST_HANDLER_DEFAULT;
				found = true;
			}
		}
		return found;
	}
	return false;
}

/*
 * lkst.events=NAME[,NAME...]: a user maskset "boot" that routes exactly
 * these events (mnemonics such as SYSCALL_ENTRY, or categories such as
 * process) to DEFAULT.  Handler modules load too late to be named here.
 * Returns whether the maskset routes anything.
 */
static bool __init lkst_init_boot_events(const char *list)
{
	struct lkst_maskset *ms = &lkst_masksets[LKST_MASKSET_FIRST_USER];
	unsigned int event, routed = 0;
	const char *item = list;
	size_t len;

	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		ms->handler[event] = LKST_HANDLER_NOTHING;
	while (*item) {
		len = strcspn(item, ",");
		if (len && !lkst_route_boot_item(ms, item, len))
			pr_warn("lkst.events: no event or category '%.*s'\n",
				(int)len, item);
		item += len;
		if (*item == ',')
			item++;
	}
	for (event = 0; event < LKST_NR_EVENT_IDS; event++)
		routed += ms->handler[event] == LKST_HANDLER_DEFAULT;
	if (!routed) {
		pr_warn("lkst.events=%s routes no event; ignored\n", list);
		return false;
	}
	ms->in_use = true;
	strscpy(ms->name, "boot", sizeof(ms->name));
	return true;
}

/* Early, so that tracing selected on the command line starts before init. */
int __init lkst_init(void)
{
	unsigned int i, first_kib = lkst_boot_bufsize >> 10;
	u32 first_pages;
	int ret;

#ifdef MODULE
	lkst_counters_ptr = alloc_percpu(struct lkst_event_counters);
	if (!lkst_counters_ptr)
		return -ENOMEM;
#endif
	/* Without it, records are timed by ktime_get_mono_fast_ns(). */
	if (lkst_clock_init())
		pr_warn("no timekeeper notifier: the slower clock read\n");
	for (i = 0; i < LKST_NR_EVENTS; i++)
		lkst_events_by_id[lkst_event_table[i].id] = &lkst_event_table[i];
	lkst_init_system_maskset(LKST_MASKSET_RNOTHING, "RNOTHING",
				 lkst_route_none);
	lkst_init_system_maskset(LKST_MASKSET_RDEFAULT, "RDEFAULT",
				 lkst_route_primary);
	lkst_init_system_maskset(LKST_MASKSET_RALL, "RALL", lkst_route_all);
	RCU_INIT_POINTER(lkst_handlers[LKST_HANDLER_DEFAULT],
			 &lkst_default_handler);
	RCU_INIT_POINTER(lkst_handlers[LKST_HANDLER_NOTHING],
			 &lkst_nothing_handler);
	RCU_INIT_POINTER(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);

	ret = lkst_buffers_init(lkst_boot_bufsize);
	if (ret) {
		pr_err("cannot allocate buffers (%d); tracing stays off\n", ret);
		return ret;
	}
	register_die_notifier(&lkst_die_nb);
	lkst_buffer_mode(&(struct lkst_buffer_mode){
		.cpu = LKST_ALL_CPUS, .mode = lkst_boot_mode });
	if (lkst_boot_events && lkst_init_boot_events(lkst_boot_events))
		lkst_boot_maskset = LKST_MASKSET_FIRST_USER;

	mutex_lock(&lkst_mutex);
	rcu_assign_pointer(lkst_active, &lkst_masksets[lkst_boot_maskset]);
	lkst_sync_keys();
	mutex_unlock(&lkst_mutex);
	/* A persistent region gives each CPU its share instead. */
	if (lkst_persist_pages(0, &first_pages))
		first_kib = first_pages * (LKST_PAGE_SIZE >> 10);
	pr_info("%u events, records of %u-%u bytes, %u KiB per CPU, %s mode, maskset %s\n",
		lkst_nr_events(), LKST_BREC_MIN_SIZE,
		LKST_BREC_MAX_SIZE, first_kib,
		lkst_boot_mode == LKST_MODE_STOP ? "stop" : "overwrite",
		lkst_masksets[lkst_boot_maskset].name);
	return 0;
}
#ifdef MODULE
/* Route nothing: every key off and every probe unregistered. */
void lkst_exit(void)
{
	mutex_lock(&lkst_mutex);
	rcu_assign_pointer(lkst_active, &lkst_masksets[LKST_MASKSET_RNOTHING]);
	lkst_sync_keys();
	mutex_unlock(&lkst_mutex);
	irq_work_sync(&lkst_sync_keys_irq_work);
	cancel_work_sync(&lkst_sync_keys_work);
	unregister_die_notifier(&lkst_die_nb);
	/* No probe runs once this returns: then the counters can go. */
	lkst_tracepoints_exit();
	free_percpu(lkst_counters_ptr);
	lkst_counters_ptr = NULL;
}
#else
early_initcall(lkst_init);
#endif
