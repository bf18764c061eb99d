// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf report's tables, computed from records the way handlers/lkst_agg.c
 * computes them from events (see lkst_report.h).  Where the handler keeps
 * a bounded store and may lose a sample (a start evicted from a full
 * probe window, a busy slot), this keeps every start: with no loss on
 * either side, the numbers are equal.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_report.h"
#include "lkst_where.h"

static const char *const section_names[LKST_REPORT_NR] = {
	"events", "tasks", "cpus", "syscalls", "task_syscalls",
	"syscall_lat", "sched_lat", "irq_lat", "errors",
};

const char *lkst_report_section_name(unsigned int section)
{
	return section < LKST_REPORT_NR ? section_names[section] : "?";
}

int lkst_report_parse_sections(const char *list, unsigned int *sections,
			       struct lkst_err *err)
{
	const char *p = list, *end;
	unsigned int s;
	size_t len;

	*sections = 0;
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 3 && !strncmp(p, "all", 3)) {
			*sections = LKST_REPORT_ALL;
		} else {
			for (s = 0; s < LKST_REPORT_NR; s++)
				if (strlen(section_names[s]) == len && !strncmp(p, section_names[s], len))
					break;
			if (s == LKST_REPORT_NR) {
				lkst_seterr(err, "unknown section '%.*s' in '%s'; use all or a comma-separated list of events, tasks, cpus, syscalls, task_syscalls, syscall_lat, sched_lat, irq_lat, errors",
					    (int)len, p, list);
				return -1;
			}
			*sections |= 1u << s;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

/* ---- Tables: lkst_agg's update, into one merged table --------------- */

static unsigned int key_hash(const __u64 key[LKST_AGG_KEY_WORDS])
{
	__u64 h = key[0] * 0x9e3779b97f4a7c15ull;

	h = ((h << 27 | h >> 37) ^ key[1]) * 0x9e3779b97f4a7c15ull;
	h = ((h << 27 | h >> 37) ^ key[2]) * 0x9e3779b97f4a7c15ull;
	return (unsigned int)(h >> 32);
}

static int table_rehash(struct lkst_report_table *t, size_t cap)
{
	unsigned int *index = calloc(cap, sizeof(*index)), i;
	size_t j;

	if (!index)
		return -1;
	for (i = 0; i < t->n; i++) {
		for (j = key_hash(t->entries[i].key) & (cap - 1); index[j]; j = (j + 1) & (cap - 1))
			;
		index[j] = i + 1;
	}
	free(t->index);
	t->index = index;
	t->index_cap = cap;
	return 0;
}

/* The entry of @key, made (min and max as the handler starts them) if new. */
static int table_entry(struct lkst_report_table *t, const __u64 key[LKST_AGG_KEY_WORDS],
		       unsigned int *out)
{
	int quantize = t->cfg.func == LKST_AGG_F_QUANTIZE;
	struct lkst_agg_entry *e;
	size_t j, cap;

	if ((t->n + 1) * 2 >= t->index_cap &&
	    table_rehash(t, t->index_cap ? t->index_cap * 2 : 64))
		return -1;
	for (j = key_hash(key) & (t->index_cap - 1); t->index[j]; j = (j + 1) & (t->index_cap - 1)) {
		e = &t->entries[t->index[j] - 1];
		if (!memcmp(e->key, key, sizeof(e->key))) {
			*out = t->index[j] - 1;
			return 0;
		}
	}
	if (t->n == t->cap) {
		cap = t->cap;
		if (lkst_grow((void **)&t->entries, &cap, t->n, sizeof(*t->entries), 64))
			return -1;
		if (quantize) {
			__u64 *b = realloc(t->buckets, cap * LKST_AGG_NR_BUCKETS * sizeof(*b));

			if (!b)
				return -1;
			t->buckets = b;
		}
		t->cap = cap;
	}
	e = &t->entries[t->n];
	memset(e, 0, sizeof(*e));
	memcpy(e->key, key, sizeof(e->key));
	e->min = INT64_MAX;
	e->max = INT64_MIN;
	if (quantize)
		memset(&t->buckets[(size_t)t->n * LKST_AGG_NR_BUCKETS], 0,
		       LKST_AGG_NR_BUCKETS * sizeof(*t->buckets));
	t->index[j] = t->n + 1;
	*out = t->n++;
	return 0;
}

/* Whose pid and comm a latency's key takes; NULL: the record's own. */
struct subject {
	__u64 pid;
	__u64 comm[2];
};

/* agg_key(): the configured fields in order, 0 padded. */
static void make_key(const struct lkst_agg_config *cfg, const struct lkst_record *rec,
		     unsigned int cpu, const __u64 comm[2], const struct subject *subj,
		     __u64 key[LKST_AGG_KEY_WORDS])
{
	unsigned int i, w = 0, k;

	memset(key, 0, LKST_AGG_KEY_WORDS * sizeof(*key));
	for (i = 0; i < LKST_AGG_MAX_KEYS && w < LKST_AGG_KEY_WORDS; i++) {
		k = cfg->keys[i];
		switch (k) {
		case LKST_AGG_KEY_NONE:
			return;
		case LKST_AGG_KEY_EVENT:
			key[w++] = rec->event;
			break;
		case LKST_AGG_KEY_PID:
			key[w++] = subj ? subj->pid : rec->pid;
			break;
		case LKST_AGG_KEY_COMM:
			if (w + 2 > LKST_AGG_KEY_WORDS)
				return;
			key[w++] = subj ? subj->comm[0] : comm[0];
			key[w++] = subj ? subj->comm[1] : comm[1];
			break;
		case LKST_AGG_KEY_CPU:
			key[w++] = cpu;
			break;
		default:
			key[w++] = rec->arg[k - LKST_AGG_KEY_ARG1];
		}
	}
}

/* agg_update(): count, sum, min, max and the quantize bucket of @v. */
static int feed(struct lkst_report_table *t, const struct lkst_record *rec,
		unsigned int cpu, const __u64 comm[2], const struct subject *subj,
		__s64 v)
{
	__u64 key[LKST_AGG_KEY_WORDS];
	struct lkst_agg_entry *e;
	unsigned int i;

	make_key(&t->cfg, rec, cpu, comm, subj, key);
	if (table_entry(t, key, &i))
		return -1;
	e = &t->entries[i];
	e->count++;
	e->sum = (__s64)((__u64)e->sum + (__u64)v);	/* wraps, as DTrace's */
	if (v < e->min)
		e->min = v;
	if (v > e->max)
		e->max = v;
	if (t->buckets)
		t->buckets[(size_t)i * LKST_AGG_NR_BUCKETS + lkst_agg_bucket(v)]++;
	return 0;
}

/* ---- Latency starts --------------------------------------------------- */

struct pid_start {
	__u32 pid;			/* 0: empty */
	__u64 t, aux;
};

struct irq_start {
	int valid;
	__u64 t, irq, handler;
};

/* Per latency: starts by pid (SYSCALL, SCHED), by CPU and context (IRQ). */
struct lkst_report_starts {
	struct pid_start *pids;
	size_t cap, used;		/* cap a power of two */
	struct irq_start (*irq)[4];	/* [cpu][enum lkst_context] */
	size_t nr_cpus;
};

static struct pid_start *pid_find(struct pid_start *slots, size_t cap, __u32 pid)
{
	size_t i = (pid * 0x9e3779b1u) & (cap - 1);

	while (slots[i].pid && slots[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Deleting from linear probing: the run after the hole moves back. */
static void pid_remove(struct lkst_report_starts *s, struct pid_start *slot)
{
	size_t i = slot - s->pids, j = i, home;

	s->pids[i].pid = 0;
	s->used--;
	for (;;) {
		j = (j + 1) & (s->cap - 1);
		if (!s->pids[j].pid)
			return;
		home = (s->pids[j].pid * 0x9e3779b1u) & (s->cap - 1);
		/* Stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		s->pids[i] = s->pids[j];
		s->pids[j].pid = 0;
		i = j;
	}
}

/* lat_start(): @pid's start, replacing (evicting) one that never ended. */
static int lat_start(struct lkst_report_starts *s, struct lkst_report_lost *lost,
		     __u32 pid, __u64 t, __u64 aux)
{
	struct pid_start *slot;
	size_t i;

	if (!pid || pid > 0x7fffffffu)	/* LAT_PID_MASK */
		return 0;
	if ((s->used + 1) * 2 >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct pid_start *pids = calloc(cap, sizeof(*pids));

		if (!pids)
			return -1;
		for (i = 0; i < s->cap; i++)
			if (s->pids[i].pid)
				*pid_find(pids, cap, s->pids[i].pid) = s->pids[i];
		free(s->pids);
		s->pids = pids;
		s->cap = cap;
	}
	slot = pid_find(s->pids, s->cap, pid);
	if (slot->pid)
		lost->evicted++;
	else
		s->used++;
	slot->pid = pid;
	slot->t = t;
	slot->aux = aux;
	return 0;
}

/* lat_end(): takes @pid's start; whether it had one. */
static int lat_end(struct lkst_report_starts *s, __u32 pid, __u64 *t, __u64 *aux)
{
	struct pid_start *slot;

	if (!pid || pid > 0x7fffffffu || !s->cap)
		return 0;
	slot = pid_find(s->pids, s->cap, pid);
	if (!slot->pid)
		return 0;
	*t = slot->t;
	*aux = slot->aux;
	pid_remove(s, slot);
	return 1;
}

static struct irq_start *irq_level(struct lkst_report_starts *s, unsigned int cpu,
				   unsigned int context)
{
	size_t n;
	void *p;

	if (cpu >= s->nr_cpus) {
		n = cpu + 1 > 2 * s->nr_cpus ? cpu + 1 : 2 * s->nr_cpus;
		p = realloc(s->irq, n * sizeof(*s->irq));

		if (!p)
			return NULL;
		s->irq = p;
		memset(s->irq + s->nr_cpus, 0, (n - s->nr_cpus) * sizeof(*s->irq));
		s->nr_cpus = n;
	}
	return &s->irq[cpu][context & 3];
}

/*
 * agg_syscall_noreturn(): exit and exit_group start nothing.  SYSCALL_ENTRY
 * is an x86-64 event (events.def): x86-64's and i386's numbers.
 */
static int syscall_noreturn(__u64 nr_abi)
{
	int nr = LKST_SYSCALL_NR(nr_abi);

	switch (LKST_SYSCALL_ABI(nr_abi)) {
	case LKST_SYSCALL_ABI_NATIVE:
		return nr == 60 || nr == 231;
	case LKST_SYSCALL_ABI_IA32:
		return nr == 1 || nr == 252;
	default:
		return 0;
	}
}

/* ---- Records ----------------------------------------------------------- */

static struct lkst_report_table *want(struct lkst_report *r, unsigned int section)
{
	return r->sections & (1u << section) ? &r->table[section] : NULL;
}

/* agg_lat_end() then agg_lat_start(), as agg_handle() orders them. */
static int latencies(struct lkst_report *r, const struct lkst_record *rec,
		     unsigned int cpu, const __u64 comm[2])
{
	struct lkst_report_table *t;
	struct lkst_report_starts *s;
	struct lkst_report_lost *lost;
	struct subject next, *subj = NULL;
	struct irq_start *irq;
	__u64 start, aux, now = rec->time_ns;
	const __u64 *args = rec->arg;

	switch (rec->event) {
	case LKST_EV_SYSCALL_EXIT:
		if (!(t = want(r, LKST_REPORT_SYSCALL_LAT)))
			return 0;
		s = r->starts[0];
		lost = &r->lost[0];
		if (!lat_end(s, rec->pid, &start, &aux)) {
			lost->unmatched++;
			return 0;
		}
		/* rt_sigreturn's exit says -1, whatever its entry said. */
		if (aux != args[0] && LKST_SYSCALL_NR(args[0]) != -1) {
			lost->mismatch++;
			return 0;
		}
		break;
	case LKST_EV_SYSCALL_ENTRY:
		if ((t = want(r, LKST_REPORT_SYSCALL_LAT)) && !syscall_noreturn(args[0]))
			return lat_start(r->starts[0], &r->lost[0], rec->pid, now, args[0]);
		return 0;
	case LKST_EV_PROCESS_CONTEXTSWITCH:
		if (!(t = want(r, LKST_REPORT_SCHED_LAT)))
			return 0;
		s = r->starts[1];
		/* Switched out runnable: a start it had is not its next wait. */
		if (args[2] == 0)
			lat_end(s, (__u32)args[0], &start, &aux);
		if (!lat_end(s, (__u32)args[1], &start, &aux))
			return 0;
		next.pid = args[1];
		next.comm[0] = args[4];
		next.comm[1] = args[5];
		subj = &next;
		lost = &r->lost[1];
		break;
	case LKST_EV_PROCESS_WAKEUP:
	case LKST_EV_PROCESS_WAKEUP_NEW:
		if (!want(r, LKST_REPORT_SCHED_LAT))
			return 0;
		/* A wakeup of current: it never left the CPU. */
		if (rec->event == LKST_EV_PROCESS_WAKEUP && args[0] == rec->pid)
			return 0;
		return lat_start(r->starts[1], &r->lost[1], (__u32)args[0], now, 0);
	case LKST_EV_INT_HARDWARE_ENTRY:
		if (!want(r, LKST_REPORT_IRQ_LAT))
			return 0;
		irq = irq_level(r->starts[2], cpu, rec->context);
		if (!irq)
			return -1;
		if (irq->valid)
			r->lost[2].evicted++;	/* its exit was missed */
		irq->t = now;
		irq->irq = args[0];
		irq->handler = args[1];
		irq->valid = 1;
		return 0;
	case LKST_EV_INT_HARDWARE_EXIT:
		if (!(t = want(r, LKST_REPORT_IRQ_LAT)))
			return 0;
		lost = &r->lost[2];
		irq = irq_level(r->starts[2], cpu, rec->context);
		if (!irq)
			return -1;
		if (!irq->valid || irq->irq != args[0] || irq->handler != args[2]) {
			lost->unmatched++;
			return 0;
		}
		irq->valid = 0;
		start = irq->t;
		break;
	default:
		return 0;
	}
	if ((__s64)(now - start) < 0) {
		lost->negative++;
		return 0;
	}
	return feed(t, rec, cpu, comm, subj, (__s64)(now - start));
}

int lkst_report_add(struct lkst_report *r, const struct lkst_record *rec,
		    unsigned int cpu, const char *comm, struct lkst_err *err)
{
	struct lkst_report_table *t;
	unsigned char bytes[16];
	__u64 words[2];
	int ret = 0;

	r->records++;
	lkst_where_comm_bytes(comm, bytes);
	memcpy(words, bytes, sizeof(words));
	if ((t = want(r, LKST_REPORT_EVENTS)))
		ret |= feed(t, rec, cpu, words, NULL, 0);
	if ((t = want(r, LKST_REPORT_TASKS)))
		ret |= feed(t, rec, cpu, words, NULL, 0);
	if ((t = want(r, LKST_REPORT_CPUS)))
		ret |= feed(t, rec, cpu, words, NULL, 0);
	if (rec->event == LKST_EV_SYSCALL_ENTRY) {
		if ((t = want(r, LKST_REPORT_SYSCALLS)))
			ret |= feed(t, rec, cpu, words, NULL, 0);
		if ((t = want(r, LKST_REPORT_TASK_SYSCALLS)))
			ret |= feed(t, rec, cpu, words, NULL, 0);
	}
	if (rec->event == LKST_EV_SYSCALL_EXIT && (__s64)rec->arg[1] < 0 &&
	    (t = want(r, LKST_REPORT_ERRORS)))
		ret |= feed(t, rec, cpu, words, NULL, 0);
	ret |= latencies(r, rec, cpu, words);
	if (ret)
		lkst_seterr(err, "out of memory; free some memory");
	return ret ? -1 : 0;
}

/* ---- Set-up ------------------------------------------------------------ */

static void config(struct lkst_agg_config *cfg, unsigned int section)
{
	static const struct {
		__u32 func, value;
		__u8 keys[LKST_AGG_MAX_KEYS + 1];
		int event;		/* the only event, or -1: all */
	} c[LKST_REPORT_NR] = {
		[LKST_REPORT_EVENTS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
					 { LKST_AGG_KEY_EVENT }, -1 },
		[LKST_REPORT_TASKS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
					{ LKST_AGG_KEY_PID, LKST_AGG_KEY_COMM }, -1 },
		[LKST_REPORT_CPUS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
				       { LKST_AGG_KEY_CPU }, -1 },
		[LKST_REPORT_SYSCALLS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
					   { LKST_AGG_KEY_ARG1 }, LKST_EV_SYSCALL_ENTRY },
		[LKST_REPORT_TASK_SYSCALLS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
						{ LKST_AGG_KEY_PID, LKST_AGG_KEY_ARG1 },
						LKST_EV_SYSCALL_ENTRY },
		[LKST_REPORT_SYSCALL_LAT] = { LKST_AGG_F_QUANTIZE, LKST_AGG_VAL_LAT_SYSCALL,
					      { LKST_AGG_KEY_PID }, -1 },
		[LKST_REPORT_SCHED_LAT] = { LKST_AGG_F_QUANTIZE, LKST_AGG_VAL_LAT_SCHED,
					    { LKST_AGG_KEY_PID }, -1 },
		[LKST_REPORT_IRQ_LAT] = { LKST_AGG_F_QUANTIZE, LKST_AGG_VAL_LAT_IRQ,
					  { LKST_AGG_KEY_ARG1 }, -1 },
		[LKST_REPORT_ERRORS] = { LKST_AGG_F_COUNT, LKST_AGG_VAL_NONE,
					 { LKST_AGG_KEY_ARG1, LKST_AGG_KEY_ARG1 + 1 },
					 LKST_EV_SYSCALL_EXIT },
	};
	unsigned int ev;

	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->name, section_names[section]);
	cfg->func = c[section].func;
	cfg->value = c[section].value;
	memcpy(cfg->keys, c[section].keys, sizeof(cfg->keys));
	/* What lkm agg shows: a latency's pair, the events counted. */
	if (LKST_AGG_IS_LAT(cfg->value)) {
		__u64 start[LKST_NR_EVENT_IDS / 64];

		lkst_agg_lat_events(cfg->value, start, cfg->events);
		for (ev = 0; ev < LKST_NR_EVENT_IDS / 64; ev++)
			cfg->events[ev] |= start[ev];
	} else if (c[section].event >= 0) {
		lkst_agg_event_set(cfg->events, c[section].event);
	} else {
		for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++)
			if (lkst_event_by_id(ev))
				lkst_agg_event_set(cfg->events, ev);
	}
}

int lkst_report_init(struct lkst_report *r, unsigned int sections, struct lkst_err *err)
{
	unsigned int s;

	memset(r, 0, sizeof(*r));
	r->sections = sections;
	for (s = 0; s < LKST_REPORT_NR; s++)
		config(&r->table[s].cfg, s);
	for (s = 0; s < LKST_AGG_NR_LAT; s++) {
		r->starts[s] = calloc(1, sizeof(*r->starts[s]));
		if (!r->starts[s]) {
			lkst_report_free(r);
			lkst_seterr(err, "out of memory; free some memory");
			return -1;
		}
	}
	return 0;
}

void lkst_report_free(struct lkst_report *r)
{
	unsigned int s;

	for (s = 0; s < LKST_REPORT_NR; s++) {
		free(r->table[s].entries);
		free(r->table[s].buckets);
		free(r->table[s].index);
	}
	for (s = 0; s < LKST_AGG_NR_LAT; s++) {
		if (!r->starts[s])
			continue;
		free(r->starts[s]->pids);
		free(r->starts[s]->irq);
		free(r->starts[s]);
	}
	memset(r, 0, sizeof(*r));
}
