// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events -> per-task state intervals.  See procstate.h for the rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_util.h"
#include "procstate.h"

const char *ps_state_name(enum ps_state s)
{
	static const char *const names[] = { "running", "ready", "blocked" };

	return s < PS_NR_STATES ? names[s] : "unknown";
}

void ps_init(struct ps_machine *m)
{
	memset(m, 0, sizeof(*m));
}

void ps_free(struct ps_machine *m)
{
	size_t i;

	for (i = 0; i < m->nr_tasks; i++)
		free(m->tasks[i].intervals);
	free(m->tasks);
	free(m->cpus);
	ps_init(m);
}

static struct ps_task *find_task(const struct ps_machine *m, uint32_t pid,
				 unsigned int idle_cpu)
{
	size_t i;

	for (i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].pid == pid && m->tasks[i].idle_cpu == idle_cpu)
			return &m->tasks[i];
	return NULL;
}

const struct ps_task *ps_find(const struct ps_machine *m, uint32_t pid,
			      unsigned int cpu)
{
	return find_task(m, pid, pid ? PS_NO_CPU : cpu);
}

/* The task of pid as seen on cpu, created in state UNKNOWN if new. */
static struct ps_task *get_task(struct ps_machine *m, uint32_t pid, unsigned int cpu)
{
	unsigned int idle_cpu = pid ? PS_NO_CPU : cpu;	/* one idle per CPU */
	struct ps_task *t = find_task(m, pid, idle_cpu);

	if (t)
		return t;
	if (lkst_grow((void **)&m->tasks, &m->cap_tasks, m->nr_tasks, sizeof(*t), 16))
		return NULL;
	t = &m->tasks[m->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->idle_cpu = idle_cpu;
	t->state = PS_UNKNOWN;
	t->cpu = PS_NO_CPU;
	return t;
}

static void set_comm(struct ps_task *t, const char *comm)
{
	/* Tasks rename themselves (prctl): the latest name is the telling one. */
	if (comm && comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/*
 * Ends the current state at now; nothing is recorded for UNKNOWN or 0 ns.
 * The interval is kept by the task, or handed to the machine's sink.
 */
static int close_state(struct ps_machine *m, struct ps_task *t, uint64_t now)
{
	struct ps_interval one, *iv = &one;

	if (t->state == PS_UNKNOWN || now <= t->since_ns)
		return 0;
	if (!m->sink) {
		if (lkst_grow((void **)&t->intervals, &t->cap_intervals,
			      t->nr_intervals, sizeof(*iv), 16))
			return -1;
		iv = &t->intervals[t->nr_intervals++];
	}
	iv->start_ns = t->since_ns;
	iv->end_ns = now;
	iv->state = t->state;
	iv->cpu = t->state == PS_RUNNING ? t->cpu : PS_NO_CPU;
	iv->switched_in = t->state == PS_RUNNING && t->since_switch;
	return m->sink ? m->sink(m->sink_arg, (size_t)(t - m->tasks), iv) : 0;
}

static int set_state(struct ps_machine *m, struct ps_task *t, enum ps_state state,
		     unsigned int cpu, uint64_t now, int switched_in)
{
	/* Same state (and CPU while running): one continuous interval. */
	if (t->state == state && (state != PS_RUNNING || t->cpu == cpu))
		return 0;
	if (close_state(m, t, now))
		return -1;
	t->state = state;
	t->cpu = state == PS_RUNNING ? cpu : PS_NO_CPU;
	t->since_ns = now;
	t->since_switch = switched_in;
	return 0;
}

static struct ps_cpu *get_cpu(struct ps_machine *m, unsigned int cpu)
{
	if (cpu >= m->nr_cpus) {
		size_t n = (size_t)cpu + 1;
		struct ps_cpu *p = realloc(m->cpus, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + m->nr_cpus, 0, (n - m->nr_cpus) * sizeof(*p));
		m->cpus = p;
		m->nr_cpus = n;
	}
	return &m->cpus[cpu];
}

/*
 * The task cpu was believed to run has vanished from it (records lost):
 * end its RUNNING where it was last seen, and know nothing until its next
 * event.
 */
static int lost_track(struct ps_machine *m, unsigned int cpu)
{
	struct ps_cpu *c = &m->cpus[cpu];
	struct ps_task *t;

	if (!c->known)
		return 0;
	c->known = 0;
	t = find_task(m, c->pid, c->pid ? PS_NO_CPU : cpu);
	if (!t || t->state != PS_RUNNING || t->cpu != cpu)
		return 0;
	if (close_state(m, t, c->seen_ns))
		return -1;
	t->state = PS_UNKNOWN;
	return 0;
}

/* A switch on cpu: checks it continues what we know, then records next. */
static int track_cpu(struct ps_machine *m, const struct ps_event *ev)
{
	struct ps_cpu *c = get_cpu(m, ev->cpu);
	const struct ps_task *next;

	if (!c)
		return -1;
	if (c->known && c->pid != ev->prev_pid && lost_track(m, ev->cpu))
		return -1;
	/* next still RUNNING elsewhere: its switch-out there was lost. */
	next = find_task(m, ev->pid, ev->pid ? PS_NO_CPU : ev->cpu);
	if (next && next->state == PS_RUNNING && next->cpu != ev->cpu &&
	    next->cpu < m->nr_cpus && m->cpus[next->cpu].known &&
	    m->cpus[next->cpu].pid == ev->pid && lost_track(m, next->cpu))
		return -1;
	c->known = 1;
	c->pid = ev->pid;
	c->seen_ns = ev->time_ns;
	return 0;
}

/* Any record shows which task was running on its CPU at that moment. */
static void saw_running(struct ps_machine *m, const struct ps_event *ev)
{
	struct ps_cpu *c = ev->cpu < m->nr_cpus ? &m->cpus[ev->cpu] : NULL;

	if (c && c->known && c->pid == ev->cur_pid)
		c->seen_ns = ev->time_ns;
}

static int feed_switch(struct ps_machine *m, const struct ps_event *ev)
{
	struct ps_task *prev, *next;
	enum ps_state out;

	if (track_cpu(m, ev))
		return -1;
	prev = get_task(m, ev->prev_pid, ev->cpu);
	if (!prev)
		return -1;
	if (ev->prev_state & PS_TASK_DEAD)
		out = PS_UNKNOWN;	/* exited: its lane ends here */
	else
		out = ev->prev_state ? PS_BLOCKED : PS_READY;
	if (set_state(m, prev, out, ev->cpu, ev->time_ns, 0))
		return -1;
	next = get_task(m, ev->pid, ev->cpu);	/* after prev: may move tasks */
	if (!next)
		return -1;
	set_comm(next, ev->comm);
	return set_state(m, next, PS_RUNNING, ev->cpu, ev->time_ns, 1);
}

static int feed_wakeup(struct ps_machine *m, const struct ps_event *ev)
{
	struct ps_task *t = get_task(m, ev->pid, ev->cpu);

	if (!t)
		return -1;
	set_comm(t, ev->comm);
	if (t->state == PS_RUNNING)	/* woken before it got off the CPU */
		return 0;
	return set_state(m, t, PS_READY, PS_NO_CPU, ev->time_ns, 0);
}

int ps_feed(struct ps_machine *m, const struct ps_event *ev)
{
	int rc;

	if (m->seen && ev->time_ns < m->last_ns)
		return -1;		/* callers merge CPUs in time order */
	if (!m->seen)
		m->first_ns = ev->time_ns;
	m->seen = 1;
	m->last_ns = ev->time_ns;
	saw_running(m, ev);
	rc = ev->type == PS_EV_SWITCH ? feed_switch(m, ev) : feed_wakeup(m, ev);
	if (rc)
		m->failed = 1;
	return rc;
}

int ps_finish(struct ps_machine *m, uint64_t end_ns)
{
	size_t i;

	for (i = 0; i < m->nr_tasks; i++) {
		if (close_state(m, &m->tasks[i], end_ns)) {
			m->failed = 1;
			return -1;
		}
		m->tasks[i].state = PS_UNKNOWN;
	}
	return 0;
}

void ps_stats_add(struct ps_stats *st, const struct ps_interval *iv,
		  uint64_t from_ns, uint64_t to_ns)
{
	uint64_t start = iv->start_ns > from_ns ? iv->start_ns : from_ns;
	uint64_t end = iv->end_ns < to_ns ? iv->end_ns : to_ns;

	if (end <= start)
		return;
	st->time_ns[iv->state] += end - start;
	if (iv->switched_in && iv->start_ns >= from_ns)
		st->switches_in++;
	if (iv->state == PS_READY && end - start > st->longest_ready_ns) {
		st->longest_ready_ns = end - start;
		st->longest_ready_start_ns = start;
	}
}

void ps_stats(const struct ps_task *t, uint64_t from_ns, uint64_t to_ns,
	      struct ps_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < t->nr_intervals; i++)
		ps_stats_add(st, &t->intervals[i], from_ns, to_ns);
}
