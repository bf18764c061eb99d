// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_agg's state: the per-CPU tables of an aggregation and the start
 * stores of a latency, allocated when configured, and the one struct
 * agg_state that holds them, which control commands rebuild and publish
 * with RCU while the hooks (lkst_agg_hook.c) read it.
 */
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "lkst_agg_int.h"

struct agg_state __rcu *agg_state;
DEFINE_MUTEX(agg_mutex);

void agg_free(struct agg *a)
{
	unsigned int cpu;

	if (!a)
		return;
	for_each_possible_cpu(cpu)
		kvfree(a->cpu[cpu]);
	kfree(a);
}

/*
 * Tables are refused unless what the machine could still give leaves a
 * sixteenth of its memory over: sized to fit what is available, the last
 * table takes the pages the next fork or page fault needs, and the OOM
 * killer then picks a process for the tracer's sake.
 */
bool agg_memory_available(u64 bytes)
{
	unsigned long avail = si_mem_available();
	unsigned long keep = totalram_pages() / 16;

	return avail > keep && (bytes >> PAGE_SHIFT) <= avail - keep;
}

struct agg *agg_alloc(const struct lkst_agg_config *cfg)
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

struct agg_state *agg_current(void)
{
	return rcu_dereference_protected(agg_state,
					 lockdep_is_held(&agg_mutex));
}

/* A copy of the current state's aggregations and latencies, or empty. */
struct agg_state *agg_state_dup(void)
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
int agg_state_build(struct agg_state *st, bool fresh)
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

/* Whether @st holds @p, an aggregation or a latency's start store. */
static bool agg_state_holds(const struct agg_state *st, const void *p)
{
	unsigned int i;

	for (i = 0; st && i < LKST_AGG_MAX; i++)
		if (st->aggs[i] == p)
			return true;
	for (i = 0; st && i < LKST_AGG_NR_LAT; i++)
		if (st->lat[i] == p)
			return true;
	return false;
}

/* Free what @st holds that @keep does not. */
void agg_state_free(struct agg_state *st, const struct agg_state *keep)
{
	unsigned int i;

	if (!st)
		return;
	for (i = 0; i < LKST_AGG_MAX; i++)
		if (!agg_state_holds(keep, st->aggs[i]))
			agg_free(st->aggs[i]);
	for (i = 0; i < LKST_AGG_NR_LAT; i++)
		if (!agg_state_holds(keep, st->lat[i]))
			agg_lat_free(st->lat[i]);
	kfree(st);
}

/*
 * Publish @st; when this returns no hook uses the old state, which is
 * freed.  Called with agg_mutex held.
 */
void agg_commit(struct agg_state *st)
{
	struct agg_state *old;

	old = rcu_replace_pointer(agg_state, st, lockdep_is_held(&agg_mutex));
	synchronize_rcu();
	agg_state_free(old, st);
}

/* A failed build: free what @st got that the current state does not hold. */
void agg_abort(struct agg_state *st)
{
	agg_state_free(st, agg_current());
}
