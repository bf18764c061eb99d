// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tasks of a trace for the exporters in kernel-tracer layouts
 * (lkst_export_kernel.h): LTTng's and ftrace's events name the task
 * switched out, the parent of a fork and a process's tgid, which lkst's
 * records leave to the records around them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_export_kernel.h"
#include "lkst_format.h"
#include "lkst_logio_int.h"

#define KX_DEFAULT_PRIO	120	/* MAX_RT_PRIO + 20: nice 0 */

static __u32 hash_pid(__u32 pid)
{
	return pid * 0x9e3779b1u;
}

const struct kx_task *kx_task_find(const struct kx_tasks *t, __u32 pid)
{
	size_t mask = t->nr_slots - 1, i;

	if (!t->nr_slots)
		return NULL;
	for (i = hash_pid(pid) & mask; t->slot[i]; i = (i + 1) & mask)
		if (t->ent[t->slot[i] - 1].pid == pid)
			return &t->ent[t->slot[i] - 1];
	return NULL;
}

static int grow_slots(struct kx_tasks *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 1024, i, j;
	__u32 *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < t->nr; i++) {
		for (j = hash_pid(t->ent[i].pid) & (n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

/* pid's entry, made when missing; NULL when out of memory. */
static struct kx_task *get_task(struct kx_tasks *t, __u32 pid)
{
	struct kx_task *e = (struct kx_task *)kx_task_find(t, pid);
	size_t j;

	if (e)
		return e;
	if ((t->nr + 1) * 2 > t->nr_slots && grow_slots(t))
		return NULL;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct kx_task *p = realloc(t->ent, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->ent = p;
		t->cap = cap;
	}
	e = &t->ent[t->nr++];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->prio = KX_PRIO_UNKNOWN;
	for (j = hash_pid(pid) & (t->nr_slots - 1); t->slot[j]; j = (j + 1) & (t->nr_slots - 1))
		;
	t->slot[j] = t->nr;
	return e;
}

/* Records naming a task: the argument of its pid, tgid, prio and comm (-1: none). */
static const struct {
	__u16 event;
	signed char pid, tgid, prio, comm;
} namers[] = {
	{ LKST_EV_PROCESS_CONTEXTSWITCH, 1, -1, 3, 4 },
	{ LKST_EV_PROCESS_WAKEUP, 0, -1, 3, 4 },
	{ LKST_EV_PROCESS_WAKEUP_NEW, 0, -1, 2, 3 },
	{ LKST_EV_PROCESS_LTHREADGEN, 0, 0, -1, 4 },	/* a kernel thread is its own process */
	{ LKST_EV_PROCESS_FORK, 1, 2, -1, 4 },
	{ LKST_EV_PROCESS_EXEC, 0, -1, -1, 2 },
	{ LKST_EV_PROCESS_EXIT, 0, 1, -1, 4 },
	{ LKST_EV_PROCESS_MIGRATE, 0, -1, 3, -1 },
	{ LKST_EV_PROCESS_SETPRIO, 0, -1, 2, -1 },
	{ LKST_EV_MEM_OOM_KILL, 0, 1, -1, 4 },
};

static int learn(struct kx_tasks *t, const struct lkst_record *r)
{
	struct kx_task *e;
	unsigned int i;
	__u64 pid;

	for (i = 0; i < sizeof(namers) / sizeof(namers[0]); i++)
		if (namers[i].event == r->event)
			break;
	if (i == sizeof(namers) / sizeof(namers[0]))
		return 0;
	pid = r->arg[namers[i].pid];
	/* Pid 0 is a task per CPU: kx_comm() names it. */
	if (!pid || pid > UINT32_MAX)
		return 0;
	e = get_task(t, pid);
	if (!e)
		return -1;
	if (namers[i].comm >= 0 && !e->named)
		e->named = ++t->nr_named;
	if (namers[i].comm >= 0)
		lkst_format_comm(r->arg[namers[i].comm], r->arg[namers[i].comm + 1],
				 e->comm, sizeof(e->comm));
	if (namers[i].tgid >= 0 && r->arg[namers[i].tgid] &&
	    r->arg[namers[i].tgid] <= UINT32_MAX)
		e->tgid = r->arg[namers[i].tgid];
	if (namers[i].prio >= 0)
		e->prio = (int)(__s64)r->arg[namers[i].prio];
	return 0;
}

int kx_tasks_build(struct kx_tasks *t, struct lkst_trace *trace, struct lkst_err *err)
{
	struct lkst_trace_iter *it;
	struct lkst_trace_rec r;
	struct lkst_tasks saved = { NULL, 0, 0 };
	size_t i;

	memset(t, 0, sizeof(*t));
	t->syms = lkst_ksym_table_from_log(lkst_trace_log(trace), err);
	if (!t->syms)
		return -1;
	it = lkst_trace_iter_new(trace, LKST_ITER_ALL, err);
	if (!it)
		goto fail;
	while (lkst_trace_next(it, &r))
		if (learn(t, r.rec)) {
			lkst_trace_iter_free(it);
			goto oom;
		}
	lkst_trace_iter_free(it);
	if (lkst_log_tasks(lkst_trace_log(trace), &saved, err))
		goto fail;
	/* The records' names win: they are the names at the time. */
	for (i = 0; i < saved.nr; i++) {
		const struct lkst_log_task *s = &saved.ent[i];
		struct kx_task *e;
		__u64 comm[2];

		if (!s->pid)
			continue;
		e = get_task(t, s->pid);
		if (!e) {
			logio_tasks_clear(&saved);
			goto oom;
		}
		if (!e->named)
			e->named = ++t->nr_named;
		if (!e->comm[0]) {
			memcpy(comm, s->comm, sizeof(comm));
			lkst_format_comm(comm[0], comm[1], e->comm, sizeof(e->comm));
		}
		if (!e->tgid)
			e->tgid = s->tgid;
	}
	logio_tasks_clear(&saved);
	return 0;
oom:
	lkst_seterr(err, "out of memory for the trace's tasks; free some memory");
fail:
	kx_tasks_free(t);
	return -1;
}

void kx_tasks_free(struct kx_tasks *t)
{
	free(t->ent);
	free(t->slot);
	lkst_ksym_table_free(t->syms);
	memset(t, 0, sizeof(*t));
}

void kx_cpu_init(struct kx_cpu *c, unsigned int cpu)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
}

void kx_cpu_record(struct kx_cpu *c, const struct lkst_record *r)
{
	if (r->event == LKST_EV_PROCESS_CONTEXTSWITCH) {
		c->known = 1;
		c->pid = r->arg[1];
		c->prio = (int)(__s64)r->arg[3];
		lkst_format_comm(r->arg[4], r->arg[5], c->comm, sizeof(c->comm));
	} else if (r->event == LKST_EV_PROCESS_EXEC && c->known && c->pid == r->arg[0]) {
		lkst_format_comm(r->arg[2], r->arg[3], c->comm, sizeof(c->comm));
	}
}

const char *kx_comm(const struct kx_tasks *t, const struct kx_cpu *c, __u32 pid)
{
	static __thread char idle[KX_COMM_LEN];
	const struct kx_task *e;

	if (c && c->known && c->pid == pid && c->comm[0])
		return c->comm;
	if (!pid) {
		/* The idle task: one per CPU, named as the kernel names it. */
		snprintf(idle, sizeof(idle), "swapper/%u", c ? c->cpu : 0);
		return idle;
	}
	e = kx_task_find(t, pid);
	return e ? e->comm : "";
}

int kx_prio(const struct kx_tasks *t, const struct kx_cpu *c, __u32 pid)
{
	const struct kx_task *e;

	if (c && c->known && c->pid == pid)
		return c->prio;
	e = kx_task_find(t, pid);
	return e && e->prio != KX_PRIO_UNKNOWN ? e->prio : KX_DEFAULT_PRIO;
}

__u32 kx_tgid(const struct kx_tasks *t, __u32 pid)
{
	const struct kx_task *e = kx_task_find(t, pid);

	return e && e->tgid ? e->tgid : pid;
}

unsigned int kx_report_state(__u64 state)
{
	unsigned int s;

	if (state == 0x402)		/* TASK_IDLE: UNINTERRUPTIBLE|NOLOAD */
		return 0x80;		/* TASK_REPORT_IDLE */
	if (state == 0x1000)		/* TASK_RTLOCK_WAIT */
		return 0x2;
	s = state & 0x7f;		/* TASK_REPORT */
	if (!s)
		return state & 0x80 ? 0x10 : 0;	/* TASK_DEAD: EXIT_DEAD */
	return 1u << (31 - __builtin_clz(s));
}

void kx_irq_name(const struct kx_tasks *t, __u64 handler, char *buf, size_t len)
{
	const struct lkst_ksym_entry *e = lkst_ksym_table_find(t->syms, handler);

	if (e)
		snprintf(buf, len, "%s", lkst_ksym_table_name(t->syms, e));
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)handler);
}

/* Numbers missing between a record and the one stored before it. */
static __u64 gap_before(const struct lkst_log_section *sec, __u64 i)
{
	if (!sec->seqs)
		return 0;
	return sec->seqs[i] - (i ? sec->seqs[i - 1] + 1 : sec->info.seq_start);
}

/*
 * Lost numbers between the records handed on before (stored index prev,
 * or none: ~0) and i, when a selection skips records in between: the
 * numbers missing, not the records skipped.  A section sorted by time
 * (stored out of order) has only its gap right before i counted.
 */
__u64 kx_gaps_since(const struct lkst_log_section *sec, __u64 prev, __u64 i)
{
	if (!sec->seqs)
		return 0;
	if (prev == ~0ull)
		return sec->seqs[i] - sec->info.seq_start - i;
	if (prev >= i)
		return gap_before(sec, i);
	return sec->seqs[i] - sec->seqs[prev] - (i - prev);
}
