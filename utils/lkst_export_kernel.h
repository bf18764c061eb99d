/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the exporters in kernel-tracer layouts (the LTTng-layout CTF,
 * lkst_export_ctf_lttng.c, and the Perfetto trace, lkst_export_perfetto.c)
 * need beyond a record: the names, processes and priorities of the tasks
 * it names, the task each CPU runs, and states as the kernel's
 * tracepoints report them.  The Chrome JSON exporter (lkst_export_json.c)
 * takes its task names and processes from here too.  Private to those
 * files (not installed; the names are not lkst_*, so liblkst.so keeps
 * them local).
 */
#ifndef LKST_EXPORT_KERNEL_H
#define LKST_EXPORT_KERNEL_H

#include "lkst_export_int.h"
#include "lkst_ksym.h"

#define KX_COMM_LEN	(16 * 4 + 1)	/* an escaped command name */
#define KX_PRIO_UNKNOWN	(-1000)

struct kx_task {
	__u32 pid, tgid;		/* tgid 0: not known */
	int prio;			/* the kernel's (120 for nice 0), or KX_PRIO_UNKNOWN */
	char comm[KX_COMM_LEN];		/* the latest name, "" if none */
	/*
	 * 1 + its rank in the order records carrying a name (or else the
	 * saved names) first named the tasks; 0: never named.  The JSON
	 * exporter lists its threads in this order.
	 */
	__u32 named;
};

struct kx_tasks {
	struct kx_task *ent;
	size_t nr, cap;
	__u32 *slot;			/* open addressing by pid: index + 1 */
	size_t nr_slots;
	__u32 nr_named;			/* tasks with .named set */
	struct lkst_ksym_table *syms;	/* the log's kernel symbols (IRQ names) */
};

/*
 * Learns every task of the trace: from all its records in time order
 * (selected or not), then the names saved with the log for the rest.  0,
 * or -1 with err set.
 */
int kx_tasks_build(struct kx_tasks *t, struct lkst_trace *trace, struct lkst_err *err);
const struct kx_task *kx_task_find(const struct kx_tasks *t, __u32 pid);
void kx_tasks_free(struct kx_tasks *t);

/* The task a CPU runs, from the switches seen on it so far. */
struct kx_cpu {
	unsigned int cpu;
	int known;
	__u32 pid;
	int prio;
	char comm[KX_COMM_LEN];
};

void kx_cpu_init(struct kx_cpu *c, unsigned int cpu);
/*
 * After each record of the CPU: a PROCESS_CONTEXTSWITCH runs its next
 * task, a PROCESS_EXEC of the running task renames it.
 */
void kx_cpu_record(struct kx_cpu *c, const struct lkst_record *r);
/*
 * pid's name: the CPU's current task's when it is pid, else the table's
 * ("swapper/N" for pid 0); "" when nothing names it.
 */
const char *kx_comm(const struct kx_tasks *t, const struct kx_cpu *c, __u32 pid);
/* pid's priority likewise; 120 (nice 0) when no record gives it. */
int kx_prio(const struct kx_tasks *t, const struct kx_cpu *c, __u32 pid);
/* pid's process (tgid); pid itself when no record or saved name gives it. */
__u32 kx_tgid(const struct kx_tasks *t, __u32 pid);
/*
 * A switched-out task's recorded state word as sched_switch's prev_state
 * reports it (the kernel's __trace_sched_switch_state()): the highest
 * TASK_REPORT bit, TASK_IDLE as 0x80, TASK_RTLOCK_WAIT as
 * TASK_UNINTERRUPTIBLE, TASK_DEAD as EXIT_DEAD (0x10).
 */
unsigned int kx_report_state(__u64 state);
/* An IRQ handler's name: its symbol, else its address in hex. */
void kx_irq_name(const struct kx_tasks *t, __u64 handler, char *buf, size_t len);

/*
 * Records lost (numbers missing) in section sec between the records handed
 * on before (stored index prev, ~0 for none) and stored index i.
 */
__u64 kx_gaps_since(const struct lkst_log_section *sec, __u64 prev, __u64 i);

#endif /* LKST_EXPORT_KERNEL_H */
