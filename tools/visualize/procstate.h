/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Process-state machine of lkst-procstate: context switches and wakeups, fed
 * in time order, become per-task intervals of RUNNING, READY and BLOCKED.
 * Pure (no I/O), so it is unit tested on crafted event sequences.
 *
 * Rules (LKST ProcessTrace): the next task of a switch runs; the previous
 * one is READY if its recorded state is TASK_RUNNING (preempted), BLOCKED
 * otherwise, and gone if it was TASK_DEAD.  A woken task becomes READY
 * unless it is already RUNNING.  A task's state before its first event is
 * unknown, so its intervals start at that event.  Records lost on a CPU
 * show as a switch whose prev is not the task that CPU was running: that
 * task's RUNNING then ends at the last record it was seen running in, and
 * it is UNKNOWN until its next event, rather than running for invented time.
 */
#ifndef LKST_PROCSTATE_H
#define LKST_PROCSTATE_H

#include <stddef.h>
#include <stdint.h>

enum ps_state {
	PS_RUNNING,
	PS_READY,
	PS_BLOCKED,
	PS_NR_STATES,
	PS_UNKNOWN = PS_NR_STATES,	/* before the first event, after exit */
};

#define PS_TASK_DEAD	0x0080ull	/* task __state bit of an exiting task */
#define PS_COMM_LEN	64		/* escaped command name, as lkbuf prints it */
#define PS_NO_CPU	(~0u)

enum ps_event_type {
	PS_EV_SWITCH,
	PS_EV_WAKEUP,
};

/* One record, reduced to what the rules need. */
struct ps_event {
	uint64_t time_ns;
	unsigned int cpu;
	uint32_t cur_pid;	/* the record's pid: running when it fired */
	enum ps_event_type type;
	uint32_t pid;		/* switch: next pid; wakeup: target pid */
	uint32_t prev_pid;	/* switch only */
	uint64_t prev_state;	/* switch only: prev task's __state */
	char comm[PS_COMM_LEN];	/* of pid ("" if unknown) */
};

struct ps_interval {
	uint64_t start_ns, end_ns;
	enum ps_state state;
	unsigned int cpu;	/* RUNNING: where; else PS_NO_CPU */
	int switched_in;	/* RUNNING started by a switch to this task */
};

/* Idle (pid 0) is one task per CPU: idle_cpu tells them apart. */
struct ps_task {
	uint32_t pid;
	unsigned int idle_cpu;	/* PS_NO_CPU unless pid is 0 */
	char comm[PS_COMM_LEN];
	enum ps_state state;	/* current */
	unsigned int cpu;	/* current CPU while RUNNING */
	uint64_t since_ns;	/* start of the current state */
	int since_switch;	/* current RUNNING began with a switch-in */
	struct ps_interval *intervals;
	size_t nr_intervals, cap_intervals;
};

/* What a CPU is believed to run, from its switches. */
struct ps_cpu {
	int known;
	uint32_t pid;
	uint64_t seen_ns;	/* last record while pid ran there */
};

struct ps_machine {
	struct ps_task *tasks;	/* in order of first appearance */
	size_t nr_tasks, cap_tasks;
	struct ps_cpu *cpus;	/* indexed by CPU number */
	size_t nr_cpus;
	uint64_t first_ns, last_ns;
	int seen;		/* any event fed */
	int failed;		/* out of memory: results incomplete */
	/*
	 * NULL: each task keeps its intervals.  Else each interval, as it
	 * closes (in time order per task), goes to sink with the task's index
	 * in tasks instead, and tasks keep none: memory is bounded by the
	 * tasks, not the events.  Non-zero from sink fails the feed.
	 */
	int (*sink)(void *arg, size_t task, const struct ps_interval *iv);
	void *sink_arg;
};

/* Figures of one task over a time window, from its intervals. */
struct ps_stats {
	uint64_t time_ns[PS_NR_STATES];
	unsigned long switches_in;
	uint64_t longest_ready_ns;
	uint64_t longest_ready_start_ns;	/* valid if longest_ready_ns */
};

void ps_init(struct ps_machine *m);
/* Events must come in time order; returns -1 if out of memory. */
int ps_feed(struct ps_machine *m, const struct ps_event *ev);
/* Closes every open state at end_ns (normally m->last_ns). */
int ps_finish(struct ps_machine *m, uint64_t end_ns);
void ps_free(struct ps_machine *m);

/* A task by pid (and CPU for idle); NULL if never seen. */
const struct ps_task *ps_find(const struct ps_machine *m, uint32_t pid,
			      unsigned int cpu);

/* Intervals clipped to [from_ns, to_ns). */
void ps_stats_add(struct ps_stats *st, const struct ps_interval *iv,
		  uint64_t from_ns, uint64_t to_ns);	/* one more, in time order */
void ps_stats(const struct ps_task *t, uint64_t from_ns, uint64_t to_ns,
	      struct ps_stats *st);

const char *ps_state_name(enum ps_state s);

#endif /* LKST_PROCSTATE_H */
