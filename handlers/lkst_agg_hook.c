// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_agg's hook side: what the "agg" and "agg-record" handlers do with
 * each event routed to them (the module is described in lkst_agg_ctl.c).
 *
 * Hook side (any context, NMI included; nothing here sleeps, locks or
 * allocates):
 *  - Each aggregation has a hash table per CPU, open addressed with linear
 *    probing, allocated when it is configured.  Only its own CPU writes a
 *    table, so the only concurrency a writer meets is an interrupt or NMI
 *    nesting on that CPU, and every update is a local (CPU-atomic,
 *    unlocked) operation: a slot is claimed with local64_cmpxchg() from
 *    EMPTY to CLAIMING, its key written, then published as READY; counts,
 *    sums and buckets are local64_add(); min and max are local64_cmpxchg()
 *    loops.  A context that finds a slot CLAIMING (it interrupted the
 *    claim) probes past it: the same key may then take two slots of one
 *    CPU, which the read merges like the CPUs' tables.  A table with no
 *    free slot within AGG_MAX_PROBES of the key's hash counts a drop.
 *  - Start times of SYSCALL and SCHED latencies are kept per pid in one
 *    array for all CPUs (a task may end its system call on another CPU).
 *    A slot is {key, t, aux}, key = seq << 32 | BUSY | pid.  A start claims
 *    its slot with cmpxchg (seq + 1, BUSY), writes t and aux and stores
 *    the key without BUSY; an end reads the key (acquire), t and aux, and
 *    consumes them with cmpxchg(key, seq + 1, pid 0), which fails if any
 *    start touched the slot in between (the sequence rules out ABA).  On
 *    a collision a start evicts the older pid's start, whose end then
 *    finds none: a lost sample is counted (evicted, unmatched, busy),
 *    never a wrong one made.  IRQ starts are per CPU and context level,
 *    where handlers of one level never nest.
 *  - Pairing rules: an exit or exit_group entry starts nothing (it never
 *    returns); a SYSCALL_EXIT whose number is not its entry's is counted
 *    (mismatch) and dropped, rt_sigreturn's -1 excepted.  A wakeup of the
 *    current task starts nothing (it never left the CPU), and a task
 *    switched out runnable loses any start it has (it was woken while
 *    still running: that is not its next wait).  Pairs assume both events
 *    keep reaching the handler: after switching the routing maskset away
 *    and back, `lkm agg clear` renews the start times too.
 */
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/unistd.h>
#include "lkst_agg_int.h"

/* Whose pid and comm a latency's key takes; NULL: current. */
struct agg_subject {
	u64 pid;
	u64 comm[2];
};

static void agg_key(const struct agg *a, unsigned int event,
		    const u64 args[LKST_NR_ARGS],
		    const struct agg_subject *subj,
		    u64 key[LKST_AGG_KEY_WORDS])
{
	unsigned int i, w = 0;
	u64 comm[2];

	key[0] = 0;
	key[1] = 0;
	key[2] = 0;
	/* Checked when configured: the fields fit in the key's words. */
	for (i = 0; i < LKST_AGG_MAX_KEYS && w < LKST_AGG_KEY_WORDS; i++) {
		unsigned int k = a->cfg.keys[i];

		switch (k) {
		case LKST_AGG_KEY_NONE:
			return;
		case LKST_AGG_KEY_EVENT:
			key[w++] = event;
			break;
		case LKST_AGG_KEY_PID:
			key[w++] = subj ? subj->pid : current->pid;
			break;
		case LKST_AGG_KEY_COMM:
			if (w + 2 > LKST_AGG_KEY_WORDS)
				return;
			if (subj) {
				comm[0] = subj->comm[0];
				comm[1] = subj->comm[1];
			} else {
				/* A racing rename may mix two names. */
				BUILD_BUG_ON(sizeof(current->comm) != sizeof(comm));
				memcpy(comm, current->comm, sizeof(comm));
			}
			key[w++] = comm[0];
			key[w++] = comm[1];
			break;
		case LKST_AGG_KEY_CPU:
			key[w++] = raw_smp_processor_id();
			break;
		default:
			key[w++] = args[k - LKST_AGG_KEY_ARG1];
			break;
		}
	}
}

static __always_inline void agg_min(local64_t *m, s64 v)
{
	s64 old = local64_read(m), seen;

	while (v < old) {
		seen = local64_cmpxchg(m, old, v);
		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void agg_max(local64_t *m, s64 v)
{
	s64 old = local64_read(m), seen;

	while (v > old) {
		seen = local64_cmpxchg(m, old, v);
		if (seen == old)
			break;
		old = seen;
	}
}

static void agg_update(const struct agg *a, const u64 key[LKST_AGG_KEY_WORDS],
		       s64 v)
{
	struct agg_cpu *c = a->cpu[raw_smp_processor_id()];
	u32 h = agg_hash(key);
	struct agg_entry *e;
	unsigned int i, idx;
	long state;

	if (unlikely(!c))
		return;
	for (i = 0; i <= a->mask && i < AGG_MAX_PROBES; i++) {
		idx = (h + i) & a->mask;
		e = &c->entries[idx];
		state = local64_read(&e->state);
retry:
		if (state == AGG_READY) {
			if (e->key[0] == key[0] && e->key[1] == key[1] &&
			    e->key[2] == key[2])
				goto found;
			continue;
		}
		/* CLAIMING: a context this one interrupted is writing it. */
		if (state != AGG_EMPTY)
			continue;
		state = local64_cmpxchg(&e->state, AGG_EMPTY, AGG_CLAIMING);
		if (state != AGG_EMPTY)
			goto retry;	/* an interrupt claimed it meanwhile */
		e->key[0] = key[0];
		e->key[1] = key[1];
		e->key[2] = key[2];
		local64_set(&e->min, S64_MAX);
		local64_set(&e->max, S64_MIN);
		local64_inc(&c->used);
		/* A reader on another CPU sees the key before READY. */
		smp_wmb();
		local64_set(&e->state, AGG_READY);
		goto found;
	}
	local64_inc(&c->drops);
	return;
found:
	local64_inc(&e->count);
	local64_add(v, &e->sum);
	agg_min(&e->min, v);
	agg_max(&e->max, v);
	if (c->buckets)
		local64_inc(&c->buckets[idx * LKST_AGG_NR_BUCKETS +
					lkst_agg_bucket(v)]);
}

static void agg_feed(const struct agg *a, unsigned int event,
		     const u64 args[LKST_NR_ARGS], s64 v,
		     const struct agg_subject *subj)
{
	u64 key[LKST_AGG_KEY_WORDS];

	agg_key(a, event, args, subj, key);
	agg_update(a, key, v);
}

static void agg_feed_mask(const struct agg_state *st, unsigned int mask,
			  unsigned int event, const u64 args[LKST_NR_ARGS],
			  s64 v, const struct agg_subject *subj)
{
	unsigned int i;

	while (mask) {
		i = __ffs(mask);
		mask &= mask - 1;
		agg_feed(st->aggs[i], event, args, v, subj);
	}
}

#define lat_count(lat, field) local64_inc(&this_cpu_ptr((lat)->counts)->field)

static __always_inline struct agg_lat_slot *lat_slot(const struct agg_lat *lat,
						     u32 pid, unsigned int i)
{
	u32 h = hash_32(pid, ilog2(LKST_AGG_LAT_SLOTS));

	return &lat->slots[(h + i) & (LKST_AGG_LAT_SLOTS - 1)];
}

/* Keep @t and @aux as the start of @pid's latency. */
static void lat_start(struct agg_lat *lat, u32 pid, u64 t, u64 aux)
{
	struct agg_lat_slot *slot = NULL, *empty = NULL;
	u64 key, old = 0, empty_key = 0;
	unsigned int i;

	if (!pid || pid > LAT_PID_MASK)
		return;
	for (i = 0; i < AGG_LAT_PROBES; i++) {
		struct agg_lat_slot *s = lat_slot(lat, pid, i);

		key = atomic64_read(&s->key);
		if (key & LAT_BUSY)
			continue;
		if ((key & LAT_PID_MASK) == pid) {
			/* Its last start never ended (or a rewake, SCHED). */
			slot = s;
			old = key;
			lat_count(lat, evicted);
			break;
		}
		if (!empty && !(key & LAT_PID_MASK)) {
			empty = s;
			empty_key = key;
		}
	}
	if (!slot && empty) {
		slot = empty;
		old = empty_key;
	}
	if (!slot) {
		/* Every slot of the window is taken: the first one's start is lost. */
		slot = lat_slot(lat, pid, 0);
		old = atomic64_read(&slot->key);
		if (old & LAT_BUSY) {
			lat_count(lat, busy);
			return;
		}
		lat_count(lat, evicted);
	}
	key = ((old & LAT_SEQ_MASK) + LAT_SEQ_ONE) | LAT_BUSY | pid;
	if (!atomic64_try_cmpxchg(&slot->key, &old, key)) {
		lat_count(lat, busy);
		return;
	}
	WRITE_ONCE(slot->t, t);
	WRITE_ONCE(slot->aux, aux);
	atomic64_set_release(&slot->key, key & ~LAT_BUSY);
}

enum { LAT_NONE, LAT_FOUND, LAT_BUSY_SLOT };

/* Take @pid's start, if it has one, into @t and @aux. */
static int lat_end(struct agg_lat *lat, u32 pid, u64 *t, u64 *aux)
{
	unsigned int i;
	u64 key;

	if (!pid || pid > LAT_PID_MASK)
		return LAT_NONE;
	for (i = 0; i < AGG_LAT_PROBES; i++) {
		struct agg_lat_slot *s = lat_slot(lat, pid, i);

		key = atomic64_read_acquire(&s->key);
		if ((key & LAT_PID_MASK) != pid)
			continue;
		if (key & LAT_BUSY)
			return LAT_BUSY_SLOT;
		*t = READ_ONCE(s->t);
		*aux = READ_ONCE(s->aux);
		/* Fully ordered: t and aux were read while key was unchanged. */
		if (atomic64_try_cmpxchg(&s->key, &key,
					 (key & LAT_SEQ_MASK) + LAT_SEQ_ONE))
			return LAT_FOUND;
		return LAT_BUSY_SLOT;
	}
	return LAT_NONE;
}

/* System calls that never return: their entry starts nothing. */
static bool agg_syscall_noreturn(u64 nr_abi)
{
	int nr = LKST_SYSCALL_NR(nr_abi);

	switch (LKST_SYSCALL_ABI(nr_abi)) {
	case LKST_SYSCALL_ABI_NATIVE:
		return nr == __NR_exit || nr == __NR_exit_group;
#ifdef __NR_ia32_exit
	case LKST_SYSCALL_ABI_IA32:
		return nr == __NR_ia32_exit || nr == __NR_ia32_exit_group;
#endif
	default:
		return false;
	}
}

static void agg_lat_start(const struct agg_state *st, unsigned int kind,
			  unsigned int event, const u64 args[LKST_NR_ARGS],
			  u64 now)
{
	struct agg_lat *lat = st->lat[kind];
	struct agg_irq_start *s;

	switch (kind + LKST_AGG_VAL_LAT_SYSCALL) {
	case LKST_AGG_VAL_LAT_SYSCALL:
		if (!agg_syscall_noreturn(args[0]))
			lat_start(lat, current->pid, now, args[0]);
		break;
	case LKST_AGG_VAL_LAT_SCHED:
		/* try_to_wake_up() of current: it never left the CPU. */
		if (event == LKST_EV_PROCESS_WAKEUP && args[0] == current->pid)
			break;
		lat_start(lat, args[0], now, 0);
		break;
	case LKST_AGG_VAL_LAT_IRQ:
		s = &this_cpu_ptr(lat->irq)->level[lkst_event_context()];
		if (s->valid)
			lat_count(lat, evicted);	/* its exit was missed */
		s->t = now;
		s->irq = args[0];
		s->handler = args[1];
		s->valid = true;
		break;
	}
}

static void agg_lat_end(const struct agg_state *st, unsigned int kind,
			unsigned int event, const u64 args[LKST_NR_ARGS],
			u64 now)
{
	struct agg_lat *lat = st->lat[kind];
	struct agg_subject next, *subj = NULL;
	struct agg_irq_start *s;
	u64 t, aux;
	int found;

	switch (kind + LKST_AGG_VAL_LAT_SYSCALL) {
	case LKST_AGG_VAL_LAT_SYSCALL:
		found = lat_end(lat, current->pid, &t, &aux);
		if (found == LAT_NONE) {
			lat_count(lat, unmatched);
			return;
		}
		if (found != LAT_FOUND) {
			lat_count(lat, busy);
			return;
		}
		/* rt_sigreturn's exit says -1, whatever its entry said. */
		if (aux != args[0] && LKST_SYSCALL_NR(args[0]) != -1) {
			lat_count(lat, mismatch);
			return;
		}
		break;
	case LKST_AGG_VAL_LAT_SCHED:
		/*
		 * A task switched out runnable had a start only if it was woken
		 * while still running: that wakeup is not its next wait.
		 */
		if (args[2] == TASK_RUNNING)
			lat_end(lat, args[0], &t, &aux);
		found = lat_end(lat, args[1], &t, &aux);
		if (found == LAT_NONE)
			return;		/* preempted before, or idle */
		if (found != LAT_FOUND) {
			lat_count(lat, busy);
			return;
		}
		next.pid = args[1];
		next.comm[0] = args[4];
		next.comm[1] = args[5];
		subj = &next;
		break;
	case LKST_AGG_VAL_LAT_IRQ:
		s = &this_cpu_ptr(lat->irq)->level[lkst_event_context()];
		if (!s->valid || s->irq != args[0] || s->handler != args[2]) {
			lat_count(lat, unmatched);
			return;
		}
		s->valid = false;
		t = s->t;
		break;
	default:
		return;
	}
	if ((s64)(now - t) < 0) {
		lat_count(lat, negative);
		return;
	}
	agg_feed_mask(st, st->lat_aggs[kind], event, args, now - t, subj);
}

/* now: the event's time, or 0 to read the clock if a latency needs it. */
static void agg_account(unsigned int event, const u64 args[LKST_NR_ARGS],
			u64 now)
{
	const struct agg_state *st = rcu_dereference_sched(agg_state);
	const struct agg_route *r;
	unsigned int mask, kind;

	if (unlikely(!st) || event >= LKST_NR_EVENT_IDS)
		return;
	r = &st->route[event];
	if ((r->starts | r->ends) && !now)
		now = ktime_get_mono_fast_ns();
	for (mask = r->ends; mask; mask &= mask - 1) {
		kind = __ffs(mask);
		agg_lat_end(st, kind, event, args, now);
	}
	for (mask = r->starts; mask; mask &= mask - 1) {
		kind = __ffs(mask);
		agg_lat_start(st, kind, event, args, now);
	}
	for (mask = r->direct; mask; mask &= mask - 1) {
		const struct agg *a = st->aggs[__ffs(mask)];
		u32 v = a->cfg.value;

		agg_feed(a, event, args,
			 v == LKST_AGG_VAL_NONE ? 0 : args[v - LKST_AGG_VAL_ARG1],
			 NULL);
	}
}

void agg_handle(struct lkst_handler *handler, unsigned int event,
		       const u64 args[LKST_NR_ARGS])
{
	agg_account(event, args, 0);
}

/*
 * Recorded first, and measured at the time the record carries, so that a
 * summary of the log (lkbuf report) gives the same histograms as the
 * live aggregation.  A dropped record (0) falls back to the clock.
 */
void agg_record_handle(struct lkst_handler *handler,
			      unsigned int event,
			      const u64 args[LKST_NR_ARGS])
{
	agg_account(event, args, lkst_record_event(event, args));
}
