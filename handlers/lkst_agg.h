/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst_agg's control ABI, shared by the handler module, lkm (lkm agg) and
 * the tests: aggregations kept in the kernel, per CPU, DTrace style.
 *
 * An aggregation applies a function (count, sum, min, max, avg, quantize)
 * to a value, grouped by a key of up to three fields.  The value is an
 * argument of the events the aggregation is given, or the latency between
 * the two events of a pair:
 *   SYSCALL  SYSCALL_ENTRY -> SYSCALL_EXIT of the same task
 *   SCHED    PROCESS_WAKEUP or PROCESS_WAKEUP_NEW of a task -> the
 *            PROCESS_CONTEXTSWITCH that runs it (its next pid); a task
 *            woken by itself, or switched out still runnable, has none
 *   IRQ      INT_HARDWARE_ENTRY -> INT_HARDWARE_EXIT of the same irq, on
 *            the same CPU and at the same context level
 * in nanoseconds of the tracer's clock (ktime_get_mono_fast_ns()).  For a
 * latency, the key's fields are taken at the second event: its arguments,
 * and as pid and comm the task the latency belongs to (the woken task for
 * SCHED, the interrupted one for IRQ).
 *
 * Two handlers take the events: "agg" aggregates them and nothing else
 * (lkst_filter can hand events to it), "agg-record" also hands each one
 * on to DEFAULT, which records it.  An event routed to either with no
 * aggregation that wants it is dropped (or only recorded).
 *
 * Commands of LKST_IOC_HANDLER_CTL (to either handler; data and size are
 * the structure named, size exactly its size):
 *   LKST_AGG_SET     struct lkst_agg_config: create the aggregation, or
 *                    replace the one of that name (its data are reset);
 *                    returns its index.  ENOSPC when LKST_AGG_MAX exist.
 *   LKST_AGG_DELETE  struct lkst_agg_name: remove it; "" removes all
 *   LKST_AGG_CLEAR   struct lkst_agg_name: empty it (keys, counts and
 *                    drops); "" empties all, and the latencies' pending
 *                    start times and counters
 *   LKST_AGG_INFO    struct lkst_agg_info, index in: its configuration
 *                    and counters; ENOENT for an unused index
 *   LKST_AGG_READ    struct lkst_agg_read: the entries, merged over CPUs
 *                    (one per key); returns how many keys there are, of
 *                    which at most max_entries were copied.  EPERM under
 *                    lockdown=confidentiality, also on a descriptor opened
 *                    before: keys and values are arguments, addresses
 *                    among them
 * Unknown commands, fields, functions, keys or events, sizes out of range
 * and non-zero padding are EINVAL; ENOENT names no aggregation.
 *
 * quantize counts values in power-of-two buckets, like DTrace's: index
 * LKST_AGG_BUCKET_ZERO holds 0, the one n above it [2^(n-1), 2^n - 1] and
 * the one n below it [-(2^n - 1), -2^(n-1)]; bucket 0 holds -2^63 alone.
 * Negative values thus have buckets of their own; latencies never are.
 * Sums wrap at 64 bits like DTrace's; avg is sum / count, truncated.
 */
#ifndef _LKST_AGG_H
#define _LKST_AGG_H

#include <linux/types.h>
#include <linux/lkst_events.h>

#define LKST_AGG_MAX		8	/* aggregations at a time */
#define LKST_AGG_NAME_LEN	16	/* [A-Za-z0-9_], NUL terminated */
#define LKST_AGG_KEY_WORDS	3	/* a COMM key takes two */
#define LKST_AGG_MAX_KEYS	3
#define LKST_AGG_NR_BUCKETS	128
#define LKST_AGG_BUCKET_ZERO	64
/* Slots of the hash table each CPU keeps: a power of two in range. */
#define LKST_AGG_MIN_SLOTS	16
#define LKST_AGG_MAX_SLOTS	65536
#define LKST_AGG_MAX_QSLOTS	8192	/* quantize: 1 KiB of buckets per slot */
#define LKST_AGG_DEFAULT_SLOTS	1024
/* Pending start times of SYSCALL and SCHED latencies, over all tasks. */
#define LKST_AGG_LAT_SLOTS	16384

enum lkst_agg_cmd {
	LKST_AGG_SET = 1,
	LKST_AGG_DELETE,
	LKST_AGG_CLEAR,
	LKST_AGG_INFO,
	LKST_AGG_READ,
};

enum lkst_agg_func {
	LKST_AGG_F_COUNT = 1,
	LKST_AGG_F_SUM,
	LKST_AGG_F_MIN,
	LKST_AGG_F_MAX,
	LKST_AGG_F_AVG,
	LKST_AGG_F_QUANTIZE,
	LKST_AGG_NR_FUNCS,
};

/* What the function is applied to; COUNT takes NONE, the others not. */
enum lkst_agg_value {
	LKST_AGG_VAL_NONE,
	LKST_AGG_VAL_ARG1,		/* ARG1..ARG6: the event's argument */
	LKST_AGG_VAL_ARG6 = LKST_AGG_VAL_ARG1 + 5,
	LKST_AGG_VAL_LAT_SYSCALL,	/* latencies, in ns */
	LKST_AGG_VAL_LAT_SCHED,
	LKST_AGG_VAL_LAT_IRQ,
	LKST_AGG_NR_VALUES,
};

#define LKST_AGG_NR_LAT		3
#define LKST_AGG_IS_LAT(v)	((v) >= LKST_AGG_VAL_LAT_SYSCALL &&	\
				 (v) < LKST_AGG_NR_VALUES)

/* Key fields, in keys[] up to the first NONE. */
enum lkst_agg_key {
	LKST_AGG_KEY_NONE,
	LKST_AGG_KEY_EVENT,		/* event ID */
	LKST_AGG_KEY_PID,		/* the task's thread ID */
	LKST_AGG_KEY_COMM,		/* its command name: two words */
	LKST_AGG_KEY_CPU,
	LKST_AGG_KEY_ARG1,		/* ARG1..ARG6: an argument's value */
	LKST_AGG_KEY_ARG6 = LKST_AGG_KEY_ARG1 + 5,
	LKST_AGG_NR_KEYS,
};

struct lkst_agg_config {
	char name[LKST_AGG_NAME_LEN];	/* NUL padded */
	__u32 func;			/* enum lkst_agg_func */
	__u32 value;			/* enum lkst_agg_value */
	__u8 keys[LKST_AGG_MAX_KEYS + 1];	/* enum lkst_agg_key; keys[3] 0 */
	__u32 slots;			/* per CPU */
	/*
	 * Bit (id % 64) of word (id / 64): the events whose argument feeds
	 * it.  Zero in for a latency; out, the events of its pair.
	 */
	__u64 events[LKST_NR_EVENT_IDS / 64];
};

struct lkst_agg_name {
	char name[LKST_AGG_NAME_LEN];	/* NUL padded; "" for all */
};

struct lkst_agg_info {
	__u32 index;			/* in: 0..LKST_AGG_MAX-1 */
	__u32 __pad;
	struct lkst_agg_config config;	/* out */
	__u64 entries;			/* out: slots in use, summed over CPUs */
	__u64 drops;			/* out: events that found no free slot */
	/*
	 * Out, for a latency: samples lost, never wrong.  Counted for the
	 * pair, so aggregations of one latency share them.
	 */
	__u64 unmatched;		/* an end with no start (SYSCALL, IRQ) */
	__u64 evicted;			/* a start overwritten before its end */
	__u64 busy;			/* a start's slot was being written */
	__u64 mismatch;			/* SYSCALL: the exit is another call's */
	__u64 negative;			/* the clock went back */
};

struct lkst_agg_entry {
	__u64 key[LKST_AGG_KEY_WORDS];	/* the fields in order, 0 padded */
	__u64 count;
	__s64 sum;
	__s64 min;
	__s64 max;
};

struct lkst_agg_read {
	__u32 index;			/* in */
	__u32 max_entries;		/* in: room at entries and buckets */
	__u64 entries;			/* in: user pointer, lkst_agg_entry[] */
	/* in: quantize only (else 0): __u64[max_entries][NR_BUCKETS] */
	__u64 buckets;
	__u32 nr_entries;		/* out: entries copied */
	__u32 __pad;
};

/* Words a key field takes. */
static inline unsigned int lkst_agg_key_words(unsigned int key)
{
	return key == LKST_AGG_KEY_COMM ? 2 : 1;
}

static inline int lkst_agg_event_test(const __u64 *events, unsigned int id)
{
	return (events[id / 64] >> (id % 64)) & 1;
}

static inline void lkst_agg_event_set(__u64 *events, unsigned int id)
{
	events[id / 64] |= 1ULL << (id % 64);
}

/* The events that start and end latency @value (LKST_AGG_VAL_LAT_*). */
static inline void lkst_agg_lat_events(__u32 value,
				       __u64 start[LKST_NR_EVENT_IDS / 64],
				       __u64 end[LKST_NR_EVENT_IDS / 64])
{
	unsigned int i;

	for (i = 0; i < LKST_NR_EVENT_IDS / 64; i++) {
		start[i] = 0;
		end[i] = 0;
	}
	switch (value) {
	case LKST_AGG_VAL_LAT_SYSCALL:
		lkst_agg_event_set(start, LKST_EV_SYSCALL_ENTRY);
		lkst_agg_event_set(end, LKST_EV_SYSCALL_EXIT);
		break;
	case LKST_AGG_VAL_LAT_SCHED:
		lkst_agg_event_set(start, LKST_EV_PROCESS_WAKEUP);
		lkst_agg_event_set(start, LKST_EV_PROCESS_WAKEUP_NEW);
		lkst_agg_event_set(end, LKST_EV_PROCESS_CONTEXTSWITCH);
		break;
	case LKST_AGG_VAL_LAT_IRQ:
		lkst_agg_event_set(start, LKST_EV_INT_HARDWARE_ENTRY);
		lkst_agg_event_set(end, LKST_EV_INT_HARDWARE_EXIT);
		break;
	}
}

/* The quantize bucket of @v. */
static inline unsigned int lkst_agg_bucket(__s64 v)
{
	__u64 mag = v < 0 ? -(__u64)v : (__u64)v;
	unsigned int bits = mag ? 64 - __builtin_clzll(mag) : 0;

	return v < 0 ? LKST_AGG_BUCKET_ZERO - bits : LKST_AGG_BUCKET_ZERO + bits;
}

/* The lowest and highest value of bucket @b. */
static inline __s64 lkst_agg_bucket_min(unsigned int b)
{
	unsigned int n;

	if (b >= LKST_AGG_BUCKET_ZERO) {
		n = b - LKST_AGG_BUCKET_ZERO;
		return n ? (__s64)(1ULL << (n - 1)) : 0;
	}
	n = LKST_AGG_BUCKET_ZERO - b;
	/* -(2^n - 1), and -2^63 for n = 64: computed unsigned, no overflow */
	return n == 64 ? (__s64)(1ULL << 63) : (__s64)(0 - ((1ULL << n) - 1));
}

static inline __s64 lkst_agg_bucket_max(unsigned int b)
{
	unsigned int n;

	if (b >= LKST_AGG_BUCKET_ZERO) {
		n = b - LKST_AGG_BUCKET_ZERO;
		return n ? (__s64)((1ULL << (n - 1)) + ((1ULL << (n - 1)) - 1)) : 0;
	}
	n = LKST_AGG_BUCKET_ZERO - b;
	return (__s64)(0 - (1ULL << (n - 1)));
}

/*
 * DTrace's label of bucket @b: the bound nearest zero (0, 1, 2, 4, ...
 * and -1, -2, -4, ...).
 */
static inline __s64 lkst_agg_bucket_label(unsigned int b)
{
	return b >= LKST_AGG_BUCKET_ZERO ? lkst_agg_bucket_min(b) :
					   lkst_agg_bucket_max(b);
}

#endif /* _LKST_AGG_H */
