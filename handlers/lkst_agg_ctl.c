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
 * Files: lkst_agg_hook.c (the hooks), lkst_agg_state.c (tables and the
 * published state), this one (commands, reading, the module).
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
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "lkst_agg_int.h"
#include "lkst_handler_ctl.h"

static u64 agg_known_events[LKST_NR_EVENT_IDS / 64];

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

static int agg_set(void __user *data, u32 size)
{
	struct lkst_agg_config cfg;
	struct agg_state *st;
	struct agg *a;
	int idx, ret;

	ret = lkst_ctl_copy_in(&cfg, sizeof(cfg), data, size);
	if (ret)
		return ret;
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
	int ret = lkst_ctl_copy_in(n, sizeof(*n), data, size);

	return ret ? ret : agg_check_name(n->name, true);
}

/*
 * Delete and clear: @change edits a copy of the state for the aggregation
 * the request names (@idx; "" names all of them, @idx 0), which is then
 * published, or dropped when @change fails.
 */
static int agg_change(void __user *data, u32 size,
		      int (*change)(struct agg_state *st,
				    const struct lkst_agg_name *n, int idx))
{
	struct lkst_agg_name n;
	struct agg_state *st;
	int idx, ret;

	ret = agg_get_name(&n, data, size);
	if (ret)
		return ret;
	mutex_lock(&agg_mutex);
	idx = n.name[0] ? agg_find(agg_current(), n.name) : 0;
	if (idx < 0) {
		ret = idx;
		goto out;
	}
	st = agg_state_dup();
	if (!st) {
		ret = -ENOMEM;
		goto out;
	}
	ret = change(st, &n, idx);
	if (ret)
		agg_abort(st);
	else
		agg_commit(st);
out:
	mutex_unlock(&agg_mutex);
	return ret;
}

static int agg_delete_one(struct agg_state *st, const struct lkst_agg_name *n,
			  int idx)
{
	if (n->name[0])
		st->aggs[idx] = NULL;
	else
		memset(st->aggs, 0, sizeof(st->aggs));
	return agg_state_build(st, false);	/* allocates nothing */
}

static int agg_delete(void __user *data, u32 size)
{
	return agg_change(data, size, agg_delete_one);
}

/* New, empty tables; "" also renews the latencies' start stores. */
static int agg_clear_one(struct agg_state *st, const struct lkst_agg_name *n,
			 int idx)
{
	unsigned int i;

	for (i = 0; i < LKST_AGG_MAX; i++) {
		if (!st->aggs[i] || (n->name[0] && i != idx))
			continue;
		st->aggs[i] = agg_alloc(&st->aggs[i]->cfg);
		if (!st->aggs[i])
			return -ENOMEM;
	}
	return agg_state_build(st, !n->name[0]);
}

static int agg_clear(void __user *data, u32 size)
{
	return agg_change(data, size, agg_clear_one);
}

/*
 * For INFO and READ: the aggregation at @index (its request's padding
 * @pad zero) with agg_mutex held, or NULL with *ret set.
 */
static const struct agg *agg_lock_index(u32 index, u32 pad, int *ret)
{
	const struct agg_state *st;
	const struct agg *a;

	if (index >= LKST_AGG_MAX || pad) {
		*ret = -EINVAL;
		return NULL;
	}
	mutex_lock(&agg_mutex);
	st = agg_current();
	a = st ? st->aggs[array_index_nospec(index, LKST_AGG_MAX)] : NULL;
	if (!a) {
		mutex_unlock(&agg_mutex);
		*ret = -ENOENT;
	}
	return a;
}

static int agg_info(void __user *data, u32 size)
{
	__u64 start[LKST_NR_EVENT_IDS / 64];
	struct lkst_agg_info info;
	const struct agg_state *st;
	const struct agg_lat *lat = NULL;
	const struct agg *a;
	unsigned int cpu, i;
	int ret;

	ret = lkst_ctl_copy_in(&info, sizeof(info), data, size);
	if (ret)
		return ret;
	a = agg_lock_index(info.index, info.__pad, &ret);
	if (!a)
		return ret;
	st = agg_current();
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
	mutex_unlock(&agg_mutex);
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
	const struct agg *a;
	unsigned int cpu, tries;
	u64 used, most;
	bool quantize;
	int ret;

	ret = lkst_ctl_copy_in(&rd, sizeof(rd), data, size);
	if (ret)
		return ret;
	a = agg_lock_index(rd.index, rd.__pad, &ret);
	if (!a)
		return ret;
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

/* READ's keys and values are arguments: handler addresses, objects. */
static const struct lkst_ctl_cmd agg_cmds[] = {
	[LKST_AGG_SET] = { .fn = agg_set },
	[LKST_AGG_DELETE] = { .fn = agg_delete },
	[LKST_AGG_CLEAR] = { .fn = agg_clear },
	[LKST_AGG_INFO] = { .fn = agg_info },
	[LKST_AGG_READ] = { .fn = agg_read, .reads_args = true },
};

static int agg_control(struct lkst_handler *handler, unsigned int cmd,
		       void __user *data, u32 size)
{
	return lkst_ctl_run(agg_cmds, ARRAY_SIZE(agg_cmds), cmd, data, size);
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
