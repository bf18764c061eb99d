/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkst_agg's internals, shared by its three files: the tables and latency
 * start stores the hooks write (lkst_agg_hook.c), the state that holds
 * them and how a new one is built and published (lkst_agg_state.c), and
 * the commands that change and read it (lkst_agg_ctl.c).  The design is
 * described at the top of each of those files; the ABI is in lkst_agg.h.
 */
#ifndef _LKST_AGG_INT_H
#define _LKST_AGG_INT_H

#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/lkst.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <asm/local64.h>
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

extern struct agg_state __rcu *agg_state;
/* Serializes control commands; hooks never take it. */
extern struct mutex agg_mutex;

static __always_inline u32 agg_hash(const u64 key[LKST_AGG_KEY_WORDS])
{
	u64 h = key[0] * GOLDEN_RATIO_64;

	h = (rol64(h, 27) ^ key[1]) * GOLDEN_RATIO_64;
	h = (rol64(h, 27) ^ key[2]) * GOLDEN_RATIO_64;
	return h >> 32;
}

/* lkst_agg_hook.c: the handlers' hooks */
void agg_handle(struct lkst_handler *handler, unsigned int event,
		const u64 args[LKST_NR_ARGS]);
void agg_record_handle(struct lkst_handler *handler, unsigned int event,
		       const u64 args[LKST_NR_ARGS]);

/* lkst_agg_state.c: tables, states and their publication */
/*
 * Tables are sized by the user, per possible CPU, and a server may report
 * hundreds: refuse what the machine cannot give without reclaiming hard
 * or waking the OOM killer, as the core's buffers do.
 */
#define AGG_GFP (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
bool agg_memory_available(u64 bytes);
struct agg *agg_alloc(const struct lkst_agg_config *cfg);
void agg_free(struct agg *a);
struct agg_state *agg_current(void);
struct agg_state *agg_state_dup(void);
int agg_state_build(struct agg_state *st, bool fresh);
void agg_state_free(struct agg_state *st, const struct agg_state *keep);
void agg_commit(struct agg_state *st);
void agg_abort(struct agg_state *st);

#endif /* _LKST_AGG_INT_H */
