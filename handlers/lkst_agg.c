// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_agg: an extended lkst handler that aggregates the events routed to
 * it in the kernel, DTrace style: count, sum, min, max, avg and quantize
 * of an argument or of a latency between two events, by a key of event,
 * pid, command name, CPU or argument values.  lkm agg configures, reads
 * and clears them; the ABI is in lkst_agg.h.
 *
 *   insmod lkst_agg.ko
 *   lkm agg set -N calls -m 3 -F count -K comm,arg1 SYSCALL_ENTRY
 *   lkm agg set -N slat -m 3 -F quantize -L syscall -K comm
 *   lkm agg print
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
 *
 * Control side (process context, agg_mutex): the configuration, every
 * table and start store hang off one struct agg_state published with RCU.
 * Set, delete and clear build a new state (new tables for what changed),
 * swap it in, wait with synchronize_rcu() for every hook that may still
 * use the old one (preempt-off regions and NMIs alike) and free what only
 * the old state used.  A read merges the tables of all CPUs under the
 * mutex: user space gets one entry per key and never sees the tables'
 * layout, and the copy grows with the keys, not with the CPUs.
 */
#define LKST_EVENT_TABLES
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/limits.h>
#include <linux/lkst.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/local64.h>
#include <asm/unistd.h>
#include "lkst_agg.h"

#ifndef CONFIG_64BIT
#error "lkst_agg needs 64-bit local and atomic operations that are NMI safe"
#endif

#define AGG_MAX_PROBES		64
#define AGG_LAT_PROBES		4
#define AGG_NR_LEVELS		4	/* task, softirq, hardirq, NMI */

#define LAT_BUSY		(1ULL << 31)
#define LAT_PID_MASK		(LAT_BUSY - 1)
#define LAT_SEQ_ONE		(1ULL << 32)
#define LAT_SEQ_MASK		(~0ULL << 32)

enum { AGG_EMPTY, AGG_CLAIMING, AGG_READY };

struct agg_entry {
	local64_t state;
	u64 key[LKST_AGG_KEY_WORDS];
	local64_t count;
	local64_t sum;
	local64_t min;
	local64_t max;
};

/* One CPU's table; its entries and buckets follow it in one allocation. */
struct agg_cpu {
	local64_t drops;
	local64_t used;
	struct agg_entry *entries;
	local64_t *buckets;		/* quantize: [slots][NR_BUCKETS] */
} ____cacheline_aligned;

struct agg {
	struct lkst_agg_config cfg;
	unsigned int mask;		/* slots - 1 */
	struct agg_cpu *cpu[];		/* by CPU ID; NULL if not possible */
};

struct agg_lat_counts {
	local64_t unmatched;
	local64_t evicted;
	local64_t busy;
	local64_t mismatch;
	local64_t negative;
};

struct agg_lat_slot {
	atomic64_t key;
	u64 t;
	u64 aux;
};

struct agg_irq_start {
	u64 t;
	u64 irq;
	u64 handler;
	bool valid;
};

struct agg_irq_starts {
	struct agg_irq_start level[AGG_NR_LEVELS];
};

/* The start times of one latency and its lost-sample counters. */
struct agg_lat {
	struct agg_lat_counts __percpu *counts;
	struct agg_irq_starts __percpu *irq;	/* IRQ */
	struct agg_lat_slot *slots;		/* SYSCALL, SCHED */
};

struct agg_route {
	u8 direct;			/* aggregations of its arguments */
	u8 starts;			/* latencies it starts (bit per kind) */
	u8 ends;			/* latencies it ends */
};

struct agg_state {
	struct agg *aggs[LKST_AGG_MAX];
	struct agg_lat *lat[LKST_AGG_NR_LAT];
	u8 lat_aggs[LKST_AGG_NR_LAT];	/* aggregations of each latency */
	struct agg_route route[LKST_NR_EVENT_IDS];
};

/* Whose pid and comm a latency's key takes; NULL: current. */
struct agg_subject {
	u64 pid;
	u64 comm[2];
};

static struct agg_state __rcu *agg_state;
/* Serializes control commands; hooks never take it. */
static DEFINE_MUTEX(agg_mutex);
static u64 agg_known_events[LKST_NR_EVENT_IDS / 64];

/* ---- Hook side --------------------------------------------------------- */

static __always_inline u32 agg_hash(const u64 key[LKST_AGG_KEY_WORDS])
{
	u64 h = key[0] * GOLDEN_RATIO_64;

	h = (rol64(h, 27) ^ key[1]) * GOLDEN_RATIO_64;
	h = (rol64(h, 27) ^ key[2]) * GOLDEN_RATIO_64;
	return h >> 32;
}

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

static void agg_handle(struct lkst_handler *handler, unsigned int event,
		       const u64 args[LKST_NR_ARGS])
{
	agg_account(event, args, 0);
}

/*
 * Recorded first, and measured at the time the record carries, so that a
 * summary of the log (lkbuf report) gives the same histograms as the
 * live aggregation.  A dropped record (0) falls back to the clock.
 */
static void agg_record_handle(struct lkst_handler *handler,
			      unsigned int event,
			      const u64 args[LKST_NR_ARGS])
{
	agg_account(event, args, lkst_record_event(event, args));
}

/* ---- Control side ------------------------------------------------------ */

static void agg_free(struct agg *a)
{
	unsigned int cpu;

	if (!a)
		return;
	for_each_possible_cpu(cpu)
		kvfree(a->cpu[cpu]);
	kfree(a);
}

/*
 * Tables are sized by the user, per possible CPU, and a server may report
 * hundreds: refuse what the machine cannot give without reclaiming hard
 * or waking the OOM killer, as the core's buffers do.
 */
#define AGG_GFP (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static bool agg_memory_available(u64 bytes)
{
	return (bytes >> PAGE_SHIFT) <= si_mem_available();
}

static struct agg *agg_alloc(const struct lkst_agg_config *cfg)
{
	bool quantize = cfg->func == LKST_AGG_F_QUANTIZE;
	size_t entries = array_size(cfg->slots, sizeof(struct agg_entry));
	size_t buckets = quantize ? array3_size(cfg->slots, LKST_AGG_NR_BUCKETS,
						sizeof(local64_t)) : 0;
	struct agg *a;
	unsigned int cpu;

	if (!agg_memory_available((u64)(sizeof(struct agg_cpu) + entries +
					buckets) * num_possible_cpus()))
		return NULL;
	a = kzalloc(struct_size(a, cpu, nr_cpu_ids), GFP_KERNEL_ACCOUNT);
	if (!a)
		return NULL;
	a->cfg = *cfg;
	a->mask = cfg->slots - 1;
	for_each_possible_cpu(cpu) {
		struct agg_cpu *c;

		c = kvzalloc_node(sizeof(*c) + entries + buckets, AGG_GFP,
				  cpu_to_node(cpu));
		if (!c) {
			agg_free(a);
			return NULL;
		}
		c->entries = (struct agg_entry *)(c + 1);
		if (quantize)
			c->buckets = (local64_t *)(c->entries + cfg->slots);
		a->cpu[cpu] = c;
	}
	return a;
}

static void agg_lat_free(struct agg_lat *lat)
{
	if (!lat)
		return;
	free_percpu(lat->counts);
	free_percpu(lat->irq);
	kvfree(lat->slots);
	kfree(lat);
}

static struct agg_lat *agg_lat_alloc(unsigned int kind)
{
	struct agg_lat *lat = kzalloc(sizeof(*lat), GFP_KERNEL_ACCOUNT);

	if (!lat)
		return NULL;
	lat->counts = alloc_percpu_gfp(struct agg_lat_counts,
				       GFP_KERNEL_ACCOUNT);
	if (!lat->counts)
		goto fail;
	if (kind + LKST_AGG_VAL_LAT_SYSCALL == LKST_AGG_VAL_LAT_IRQ) {
		lat->irq = alloc_percpu_gfp(struct agg_irq_starts,
					    GFP_KERNEL_ACCOUNT);
		if (!lat->irq)
			goto fail;
	} else {
		lat->slots = kvcalloc(LKST_AGG_LAT_SLOTS, sizeof(*lat->slots),
				      GFP_KERNEL_ACCOUNT);
		if (!lat->slots)
			goto fail;
	}
	return lat;
fail:
	agg_lat_free(lat);
	return NULL;
}

static struct agg_state *agg_current(void)
{
	return rcu_dereference_protected(agg_state,
					 lockdep_is_held(&agg_mutex));
}

/* A copy of the current state's aggregations and latencies, or empty. */
static struct agg_state *agg_state_dup(void)
{
	struct agg_state *old = agg_current(), *st;

	st = kzalloc(sizeof(*st), GFP_KERNEL_ACCOUNT);
	if (st && old) {
		memcpy(st->aggs, old->aggs, sizeof(st->aggs));
		memcpy(st->lat, old->lat, sizeof(st->lat));
	}
	return st;
}

/*
 * Give @st the latencies its aggregations use (new ones where @fresh or
 * missing), drop the others and derive the routes.
 */
static int agg_state_build(struct agg_state *st, bool fresh)
{
	__u64 start[LKST_NR_EVENT_IDS / 64], end[LKST_NR_EVENT_IDS / 64];
	unsigned int i, kind, ev;
	u8 used = 0;

	memset(st->route, 0, sizeof(st->route));
	memset(st->lat_aggs, 0, sizeof(st->lat_aggs));
	for (i = 0; i < LKST_AGG_MAX; i++) {
		const struct agg *a = st->aggs[i];

		if (!a)
			continue;
		if (!LKST_AGG_IS_LAT(a->cfg.value)) {
			for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++)
				if (lkst_agg_event_test(a->cfg.events, ev))
					st->route[ev].direct |= BIT(i);
			continue;
		}
		kind = a->cfg.value - LKST_AGG_VAL_LAT_SYSCALL;
		st->lat_aggs[kind] |= BIT(i);
		used |= BIT(kind);
	}
	for (kind = 0; kind < LKST_AGG_NR_LAT; kind++) {
		if (!(used & BIT(kind))) {
			st->lat[kind] = NULL;
			continue;
		}
		if (fresh || !st->lat[kind]) {
			st->lat[kind] = agg_lat_alloc(kind);
			if (!st->lat[kind])
				return -ENOMEM;
		}
		lkst_agg_lat_events(kind + LKST_AGG_VAL_LAT_SYSCALL, start, end);
		for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
			if (lkst_agg_event_test(start, ev))
				st->route[ev].starts |= BIT(kind);
			if (lkst_agg_event_test(end, ev))
				st->route[ev].ends |= BIT(kind);
		}
	}
	return 0;
}

static bool agg_in(struct agg *a, const struct agg_state *st)
{
	unsigned int i;

	for (i = 0; i < LKST_AGG_MAX; i++)
		if (st && st->aggs[i] == a)
			return true;
	return false;
}

static bool agg_lat_in(struct agg_lat *lat, const struct agg_state *st)
{
	unsigned int i;

	for (i = 0; i < LKST_AGG_NR_LAT; i++)
		if (st && st->lat[i] == lat)
			return true;
	return false;
}

/* Free what @st holds that @keep does not. */
static void agg_state_free(struct agg_state *st, const struct agg_state *keep)
{
	unsigned int i;

	if (!st)
		return;
	for (i = 0; i < LKST_AGG_MAX; i++)
		if (!agg_in(st->aggs[i], keep))
			agg_free(st->aggs[i]);
	for (i = 0; i < LKST_AGG_NR_LAT; i++)
		if (!agg_lat_in(st->lat[i], keep))
			agg_lat_free(st->lat[i]);
	kfree(st);
}

/*
 * Publish @st; when this returns no hook uses the old state, which is
 * freed.  Called with agg_mutex held.
 */
static void agg_commit(struct agg_state *st)
{
	struct agg_state *old;

	old = rcu_replace_pointer(agg_state, st, lockdep_is_held(&agg_mutex));
	synchronize_rcu();
	agg_state_free(old, st);
}

/* A failed build: free what @st got that the current state does not hold. */
static void agg_abort(struct agg_state *st)
{
	agg_state_free(st, agg_current());
}

static int agg_check_name(const char name[LKST_AGG_NAME_LEN], bool empty_ok)
{
	size_t len = strnlen(name, LKST_AGG_NAME_LEN), i;

	if (len == LKST_AGG_NAME_LEN || (!len && !empty_ok))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return -EINVAL;
	for (; i < LKST_AGG_NAME_LEN; i++)
		if (name[i])
			return -EINVAL;
	return 0;
}

static int agg_check_config(const struct lkst_agg_config *c)
{
	unsigned int i, words = 0, max_slots;
	u64 any = 0;

	if (agg_check_name(c->name, false))
		return -EINVAL;
	if (c->func < LKST_AGG_F_COUNT || c->func >= LKST_AGG_NR_FUNCS ||
	    c->value >= LKST_AGG_NR_VALUES)
		return -EINVAL;
	if ((c->func == LKST_AGG_F_COUNT) != (c->value == LKST_AGG_VAL_NONE))
		return -EINVAL;
	for (i = 0; i < LKST_AGG_MAX_KEYS && c->keys[i]; i++) {
		if (c->keys[i] >= LKST_AGG_NR_KEYS)
			return -EINVAL;
		words += lkst_agg_key_words(c->keys[i]);
	}
	for (; i <= LKST_AGG_MAX_KEYS; i++)
		if (c->keys[i])
			return -EINVAL;
	if (words > LKST_AGG_KEY_WORDS)
		return -EINVAL;
	max_slots = c->func == LKST_AGG_F_QUANTIZE ? LKST_AGG_MAX_QSLOTS :
						     LKST_AGG_MAX_SLOTS;
	if (c->slots < LKST_AGG_MIN_SLOTS || c->slots > max_slots ||
	    !is_power_of_2(c->slots))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(c->events); i++) {
		if (c->events[i] & ~agg_known_events[i])
			return -EINVAL;
		any |= c->events[i];
	}
	/* A latency's events are its pair's; an argument needs events. */
	if (LKST_AGG_IS_LAT(c->value) ? any : !any)
		return -EINVAL;
	return 0;
}

static int agg_find(const struct agg_state *st, const char *name)
{
	unsigned int i;

	for (i = 0; st && i < LKST_AGG_MAX; i++)
		if (st->aggs[i] && !strncmp(st->aggs[i]->cfg.name, name,
					    LKST_AGG_NAME_LEN))
			return i;
	return -ENOENT;
}

static int agg_set(const void __user *data, u32 size)
{
	struct lkst_agg_config cfg;
	struct agg_state *st;
	struct agg *a;
	int idx, ret;

	if (size != sizeof(cfg))
		return -EINVAL;
	if (copy_from_user(&cfg, data, sizeof(cfg)))
		return -EFAULT;
	ret = agg_check_config(&cfg);
	if (ret)
		return ret;
	a = agg_alloc(&cfg);
	if (!a)
		return -ENOMEM;
	mutex_lock(&agg_mutex);
	idx = agg_find(agg_current(), cfg.name);
	if (idx < 0) {
		for (idx = 0; idx < LKST_AGG_MAX; idx++)
			if (!agg_current() || !agg_current()->aggs[idx])
				break;
		if (idx == LKST_AGG_MAX) {
			ret = -ENOSPC;
			goto fail;
		}
	}
	st = agg_state_dup();
	if (!st) {
		ret = -ENOMEM;
		goto fail;
	}
	st->aggs[idx] = a;
	ret = agg_state_build(st, false);
	if (ret) {
		agg_abort(st);	/* frees a too */
		mutex_unlock(&agg_mutex);
		return ret;
	}
	agg_commit(st);
	mutex_unlock(&agg_mutex);
	return idx;
fail:
	mutex_unlock(&agg_mutex);
	agg_free(a);
	return ret;
}

static int agg_get_name(struct lkst_agg_name *n, const void __user *data,
			u32 size)
{
	if (size != sizeof(*n))
		return -EINVAL;
	if (copy_from_user(n, data, sizeof(*n)))
		return -EFAULT;
	return agg_check_name(n->name, true);
}

/*
 * For delete and clear, with agg_mutex held: the index of the aggregation
 * @n names (0 for "", all of them) and a copy of the state to change, or
 * NULL with *ret set.
 */
static struct agg_state *agg_change_named(const struct lkst_agg_name *n,
					  int *idx, int *ret)
{
	struct agg_state *st;

	*idx = n->name[0] ? agg_find(agg_current(), n->name) : 0;
	if (*idx < 0) {
		*ret = *idx;
		return NULL;
	}
	st = agg_state_dup();
	*ret = st ? 0 : -ENOMEM;
	return st;
}

/* Publish the changed state, or drop it when @ret says the change failed. */
static int agg_change_end(struct agg_state *st, int ret)
{
	if (ret)
		agg_abort(st);
	else
		agg_commit(st);
	return ret;
}

static int agg_delete(const void __user *data, u32 size)
{
	struct lkst_agg_name n;
	struct agg_state *st;
	int idx, ret;

	ret = agg_get_name(&n, data, size);
	if (ret)
		return ret;
	mutex_lock(&agg_mutex);
	st = agg_change_named(&n, &idx, &ret);
	if (st) {
		if (n.name[0])
			st->aggs[idx] = NULL;
		else
			memset(st->aggs, 0, sizeof(st->aggs));
		/* allocates nothing */
		ret = agg_change_end(st, agg_state_build(st, false));
	}
	mutex_unlock(&agg_mutex);
	return ret;
}

static int agg_clear(const void __user *data, u32 size)
{
	struct lkst_agg_name n;
	struct agg_state *st;
	unsigned int i;
	int idx, ret;

	ret = agg_get_name(&n, data, size);
	if (ret)
		return ret;
	mutex_lock(&agg_mutex);
	st = agg_change_named(&n, &idx, &ret);
	if (st) {
		for (i = 0; i < LKST_AGG_MAX && !ret; i++) {
			if (!st->aggs[i] || (n.name[0] && i != idx))
				continue;
			st->aggs[i] = agg_alloc(&st->aggs[i]->cfg);
			if (!st->aggs[i])
				ret = -ENOMEM;
		}
		if (!ret)
			ret = agg_state_build(st, !n.name[0]);
		ret = agg_change_end(st, ret);
	}
	mutex_unlock(&agg_mutex);
	return ret;
}

static int agg_info(void __user *data, u32 size)
{
	__u64 start[LKST_NR_EVENT_IDS / 64];
	struct lkst_agg_info info;
	const struct agg_state *st;
	const struct agg_lat *lat = NULL;
	const struct agg *a;
	unsigned int cpu, i;
	int ret = 0;

	if (size != sizeof(info))
		return -EINVAL;
	if (copy_from_user(&info, data, sizeof(info)))
		return -EFAULT;
	if (info.index >= LKST_AGG_MAX || info.__pad)
		return -EINVAL;
	mutex_lock(&agg_mutex);
	st = agg_current();
	a = st ? st->aggs[array_index_nospec(info.index, LKST_AGG_MAX)] : NULL;
	if (!a) {
		ret = -ENOENT;
		goto out;
	}
	i = info.index;
	memset(&info, 0, sizeof(info));
	info.index = i;
	info.config = a->cfg;
	if (LKST_AGG_IS_LAT(a->cfg.value)) {
		lkst_agg_lat_events(a->cfg.value, start, info.config.events);
		for (i = 0; i < ARRAY_SIZE(start); i++)
			info.config.events[i] |= start[i];
		lat = st->lat[a->cfg.value - LKST_AGG_VAL_LAT_SYSCALL];
	}
	for_each_possible_cpu(cpu) {
		info.entries += local64_read(&a->cpu[cpu]->used);
		info.drops += local64_read(&a->cpu[cpu]->drops);
		if (lat) {
			const struct agg_lat_counts *c =
				per_cpu_ptr(lat->counts, cpu);

			info.unmatched += local64_read(&c->unmatched);
			info.evicted += local64_read(&c->evicted);
			info.busy += local64_read(&c->busy);
			info.mismatch += local64_read(&c->mismatch);
			info.negative += local64_read(&c->negative);
		}
	}
out:
	mutex_unlock(&agg_mutex);
	if (ret)
		return ret;
	return copy_to_user(data, &info, sizeof(info)) ? -EFAULT : 0;
}

/* The per-CPU tables merged by key, built by agg_merge(). */
struct agg_merged {
	unsigned int nr, cap, hmask;
	u32 *hash;			/* index + 1 of an entry, 0 free */
	struct lkst_agg_entry *entries;
	u64 *buckets;			/* quantize: [cap][NR_BUCKETS] */
};

static void agg_merged_free(struct agg_merged *m)
{
	kvfree(m->hash);
	kvfree(m->entries);
	kvfree(m->buckets);
}

/* 0, or -ENOSPC when more keys than @m's room showed up meanwhile. */
static int agg_merge(const struct agg *a, struct agg_merged *m)
{
	bool quantize = a->cfg.func == LKST_AGG_F_QUANTIZE;
	unsigned int cpu, slot, i, b;

	for_each_possible_cpu(cpu) {
		const struct agg_cpu *c = a->cpu[cpu];

		for (slot = 0; slot <= a->mask; slot++) {
			const struct agg_entry *e = &c->entries[slot];
			struct lkst_agg_entry *me = NULL;
			u64 key[LKST_AGG_KEY_WORDS];
			s64 min, max;
			u32 h;

			if (local64_read(&e->state) != AGG_READY)
				continue;
			smp_rmb();	/* the key was written before READY */
			memcpy(key, e->key, sizeof(key));
			h = agg_hash(key);
			for (i = 0; i <= m->hmask; i++) {
				u32 *hp = &m->hash[(h + i) & m->hmask];

				if (!*hp) {
					if (m->nr == m->cap)
						return -ENOSPC;
					me = &m->entries[m->nr++];
					memcpy(me->key, key, sizeof(key));
					me->min = S64_MAX;
					me->max = S64_MIN;
					*hp = m->nr;
					break;
				}
				me = &m->entries[*hp - 1];
				if (!memcmp(me->key, key, sizeof(key)))
					break;
				me = NULL;
			}
			if (WARN_ON_ONCE(!me))	/* the hash has twice the room */
				return -ENOSPC;
			me->count += local64_read(&e->count);
			me->sum += local64_read(&e->sum);
			min = local64_read(&e->min);
			max = local64_read(&e->max);
			me->min = min < me->min ? min : me->min;
			me->max = max > me->max ? max : me->max;
			if (!quantize)
				continue;
			for (b = 0; b < LKST_AGG_NR_BUCKETS; b++)
				m->buckets[(me - m->entries) * LKST_AGG_NR_BUCKETS + b] +=
					local64_read(&c->buckets[slot * LKST_AGG_NR_BUCKETS + b]);
		}
	}
	return 0;
}

static int agg_read(void __user *data, u32 size)
{
	struct agg_merged m = { };
	struct lkst_agg_read rd;
	const struct agg_state *st;
	const struct agg *a;
	unsigned int cpu, tries;
	u64 used, most;
	bool quantize;
	int ret;

	if (size != sizeof(rd))
		return -EINVAL;
	if (copy_from_user(&rd, data, sizeof(rd)))
		return -EFAULT;
	if (rd.index >= LKST_AGG_MAX || rd.__pad)
		return -EINVAL;
	mutex_lock(&agg_mutex);
	st = agg_current();
	a = st ? st->aggs[array_index_nospec(rd.index, LKST_AGG_MAX)] : NULL;
	if (!a) {
		ret = -ENOENT;
		goto out;
	}
	quantize = a->cfg.func == LKST_AGG_F_QUANTIZE;
	if (quantize ? rd.max_entries && !rd.buckets : !!rd.buckets) {
		ret = -EINVAL;
		goto out;
	}
	/*
	 * Keys keep arriving: make room for the slots used now, and retry;
	 * never for more keys than the CPUs' tables can hold between them.
	 */
	most = (u64)a->cfg.slots * num_possible_cpus();
	for (tries = 0; tries < 4; tries++) {
		used = 0;
		for_each_possible_cpu(cpu)
			used += local64_read(&a->cpu[cpu]->used);
		m.cap = min(used + 64 + (used << tries), most);
		m.hmask = roundup_pow_of_two(2 * m.cap) - 1;
		if (!agg_memory_available((u64)(m.hmask + 1) * sizeof(*m.hash) +
					  (u64)m.cap * (sizeof(*m.entries) +
					  (quantize ? LKST_AGG_NR_BUCKETS *
					   sizeof(*m.buckets) : 0)))) {
			ret = -ENOMEM;
			goto out;
		}
		m.hash = kvcalloc(m.hmask + 1, sizeof(*m.hash), AGG_GFP);
		m.entries = kvcalloc(m.cap, sizeof(*m.entries), AGG_GFP);
		if (quantize)
			m.buckets = kvcalloc(array_size(m.cap, LKST_AGG_NR_BUCKETS),
					     sizeof(*m.buckets), AGG_GFP);
		if (!m.hash || !m.entries || (quantize && !m.buckets)) {
			ret = -ENOMEM;
			goto out;
		}
		ret = agg_merge(a, &m);
		if (ret != -ENOSPC)
			break;
		agg_merged_free(&m);
		memset(&m, 0, sizeof(m));
	}
	if (ret) {
		ret = -EAGAIN;
		goto out;
	}
	rd.nr_entries = min(m.nr, rd.max_entries);
	if (copy_to_user(u64_to_user_ptr(rd.entries), m.entries,
			 array_size(rd.nr_entries, sizeof(*m.entries))) ||
	    (quantize && copy_to_user(u64_to_user_ptr(rd.buckets), m.buckets,
				      array3_size(rd.nr_entries,
						  LKST_AGG_NR_BUCKETS,
						  sizeof(*m.buckets)))) ||
	    copy_to_user(data, &rd, sizeof(rd)))
		ret = -EFAULT;
	else
		ret = m.nr;
out:
	mutex_unlock(&agg_mutex);
	agg_merged_free(&m);
	return ret;
}

static int agg_control(struct lkst_handler *handler, unsigned int cmd,
		       void __user *data, u32 size)
{
	switch (cmd) {
	case LKST_AGG_SET:
		return agg_set(data, size);
	case LKST_AGG_DELETE:
		return agg_delete(data, size);
	case LKST_AGG_CLEAR:
		return agg_clear(data, size);
	case LKST_AGG_INFO:
		return agg_info(data, size);
	case LKST_AGG_READ:
		return agg_read(data, size);
	default:
		return -EINVAL;
	}
}

static struct lkst_handler agg_handler = {
	.name = "agg",
	.owner = THIS_MODULE,
	.handle = agg_handle,
	.control = agg_control,
};

/* The same aggregations; each event is then recorded by DEFAULT too. */
static struct lkst_handler agg_record_handler = {
	.name = "agg-record",
	.owner = THIS_MODULE,
	.handle = agg_record_handle,
	.control = agg_control,
	.passes_on = true,
};

static int __init lkst_agg_init(void)
{
	unsigned int i;
	int ret;

	BUILD_BUG_ON(sizeof(struct lkst_agg_config) != 64);
	BUILD_BUG_ON(sizeof(struct lkst_agg_info) != 128);
	BUILD_BUG_ON(sizeof(struct lkst_agg_entry) != 56);
	BUILD_BUG_ON(sizeof(struct lkst_agg_read) != 32);
	BUILD_BUG_ON(LKST_AGG_MAX > 8 || LKST_AGG_NR_LAT > 8);
	BUILD_BUG_ON(!is_power_of_2(LKST_AGG_LAT_SLOTS));
	BUILD_BUG_ON(PID_MAX_LIMIT > LAT_PID_MASK);
	BUILD_BUG_ON(ARRAY_SIZE(lkst_category_table) != LKST_NR_CATEGORIES);

	for (i = 0; i < ARRAY_SIZE(lkst_event_table); i++)
		lkst_agg_event_set(agg_known_events, lkst_event_table[i].id);
	ret = lkst_handler_register(&agg_handler);
	if (ret)
		return ret;
	ret = lkst_handler_register(&agg_record_handler);
	if (ret)
		lkst_handler_unregister(&agg_handler);
	return ret;
}

static void __exit lkst_agg_exit(void)
{
	/* Each waits for the CPUs in it: then no hook runs either handler. */
	lkst_handler_unregister(&agg_record_handler);
	lkst_handler_unregister(&agg_handler);
	agg_state_free(rcu_dereference_protected(agg_state, true), NULL);
}

module_init(lkst_agg_init);
module_exit(lkst_agg_exit);

MODULE_DESCRIPTION("lkst handler: in-kernel aggregations of events (count, sum, min, max, avg, quantize)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(LKST);
