/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Chrome trace JSON exporter's state, shared by its two halves:
 * lkst_export_json.c collects the tracks from the records,
 * lkst_export_json_write.c writes them.  Private (not installed; no name
 * is lkst_*, so liblkst.so keeps them local).
 */
#ifndef LKST_EXPORT_JSON_INT_H
#define LKST_EXPORT_JSON_INT_H

#include <stdio.h>

#include "lkst_export_int.h"
#include "lkst_export_kernel.h"
#include "../tools/visualize/procstate.h"

#define PID_BASE_MIN	10000000ull	/* above PID_MAX_LIMIT (4194304) */
#define IRQ_DEPTH_MAX	32

enum { USED_STATES = 1, USED_SYSCALLS = 2, USED_MARKS = 4 };

/* A track's task; its name and process are the trace's (kx_tasks). */
struct thread {
	__u32 tid;
	unsigned int used;
	int process_named;		/* its process_name is written */
	/* The open system call. */
	int in_syscall, has_arg5;
	__u64 sc_start, sc_nr, sc_args[5], sc_arg5;
};

struct thread_map {
	struct thread *threads;
	size_t nr, cap;
	size_t *slots;			/* thread index + 1, 0 if empty */
	size_t nr_slots;		/* a power of two, at least twice nr */
};

/* A complete ("X") slice on a syscall or CPU track. */
struct slice {
	__u64 start, end;
	__u32 track;		/* tid for syscalls, CPU slot for interrupts */
	unsigned int depth;	/* nesting on a CPU track */
	__u64 serial;		/* interrupts: numbered as they enter */
	const struct irq_kind *kind;	/* NULL: a system call */
	int unfinished;		/* 1 exit not in the trace, 2 task exited */
	__u64 args[6];		/* the entry's arguments; syscall: nr, arg0-4 */
	__u64 arg5, result;	/* syscall: sixth argument, return value */
	int has_arg5, has_result;
};

/*
 * A wakeup, kept as a flow only if both ends have a slice to bind to
 * when everything has ended: a slice with no duration is never drawn.
 */
struct flow {
	__u64 ts;
	int from_cpu;		/* from the CPU track of slot, else from pid's */
	int bound;
	__u32 from, to;		/* waker pid or CPU slot; woken pid */
	size_t waker, woken;	/* their ps_machine task indexes */
	__u64 irq;		/* from_cpu: serial of the waking interrupt */
};

/*
 * An instant: a USER_MARK, half a system call, whose other half is not
 * in the trace (or never came: a forked child's first return), or records
 * lost on a CPU.
 */
struct instant {
	__u64 ts;
	__u32 pid;
	int on_cpu;		/* pid is a CPU slot (a mark by idle) */
	const struct lkst_record *mark;	/* NULL: a system call's entry or exit */
	int exit;
	__u64 sc_nr, result;
	__u64 lost;		/* not 0: a loss, of sequence numbers first..last */
	int numbered;		/* first and last known (not a version 1 log) */
	int missing_file;	/* between two files of a set: a file is missing */
	__u64 first, last;
};

/*
 * Interrupt entries and exits that pair on a CPU.  An exit matches the
 * innermost open entry of its kind whose key arguments are equal.
 */
struct irq_kind {
	__u16 entry, exit;
	const char *cat;
	int entry_key[2], exit_key[2];	/* argument indexes, -1 for none */
};

struct cpu_state {
	unsigned int cpu;		/* the CPU number of the slot */
	__u64 last_ns;			/* its last record */
	unsigned int depth;		/* open interrupt entries */
	struct slice open[IRQ_DEPTH_MAX];
	int used;
};

struct json_export {
	struct lkst_export *x;
	struct kx_tasks tasks;		/* names and processes */
	struct thread_map threads;
	struct ps_machine ps;
	unsigned int *slot_of;		/* section -> CPU slot */
	struct cpu_state *cpus;		/* by slot */
	unsigned int nr_cpus;
	struct slice *slices;
	size_t nr_slices, cap_slices, nr_syscalls;
	struct flow *flows;
	size_t nr_flows, cap_flows, nr_bound;	/* bound: both ends have slices */
	__u64 nr_irqs;		/* interrupt entries so far */
	struct instant *instants;
	size_t nr_instants, cap_instants, nr_marks;
	unsigned long long nr_lost;	/* records, in loss instants */
	__u64 last_ns, base;
	size_t nr_events;		/* written so far */
	struct lkst_err *err;
};

struct thread *json_find_thread(const struct thread_map *m, __u32 tid);

static inline __u32 json_tgid(const struct json_export *j, __u32 tid)
{
	return kx_tgid(&j->tasks, tid);
}

/* tid's latest name, "" if none. */
static inline const char *json_comm(const struct json_export *j, __u32 tid)
{
	const struct kx_task *e = kx_task_find(&j->tasks, tid);

	return e ? e->comm : "";
}

/* Writes the collected trace to path ("-": standard output); 0 or -1. */
int json_write(struct json_export *j, const char *path);

#endif /* LKST_EXPORT_JSON_INT_H */
