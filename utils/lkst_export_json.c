// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf convert --to json: a log as Chrome trace JSON, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing.
 *
 * Tracks (Chrome JSON has processes of threads, each thread a track):
 *   pid = tgid, tid = pid      running / ready / blocked slices of the
 *                              task, by lkst-procstate's rules (its state
 *                              machine, tools/visualize/procstate.c);
 *                              USER_MARK records as instants
 *   pid = tgid, tid = B + pid  "COMM syscalls": entry to exit of each call
 *   pid = 2B, tid = 2B + cpu   "CPU n": hardware IRQs, system vectors,
 *                              softirqs, tasklets and NMIs, nested
 * B is a power of ten above every pid, so no track takes a task's ID.
 * Wakeups are flows from the waker (its running slice, or the interrupt
 * that woke it) to the ready slice they start.  Tgids come from fork and
 * exit records; a task without one is its own process.  Idle (pid 0)
 * gets no track, as in lkst-procstate.
 *
 * Everything is collected first, then written in an order that makes
 * Perfetto bind each flow to the right slice when timestamps tie: flow
 * ends, then slices, then flow starts (a start binds to the slice open
 * at its time, an end to the next slice that begins).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkst_export.h"
#include "lkst_format.h"
#include "../tools/visualize/procstate.h"

#define COMM_LEN	(16 * 4 + 1)	/* an escaped command name */
#define PID_BASE_MIN	10000000ull	/* above PID_MAX_LIMIT (4194304) */
#define IRQ_DEPTH_MAX	32

/* A new element at the end of arr, or NULL when out of memory. */
#define PUSH(arr, n, cap) \
	(lkst_grow((void **)&(arr), &(cap), (n), sizeof(*(arr)), 256) ? NULL : &(arr)[(n)++])

/* ---- Threads -------------------------------------------------------- */

enum { USED_STATES = 1, USED_SYSCALLS = 2, USED_MARKS = 4 };

struct thread {
	__u32 tid, tgid;		/* tgid 0: not known, its own process */
	char comm[COMM_LEN];		/* the latest name seen, "" if none */
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

static size_t thread_hash(__u32 tid, size_t nr_slots)
{
	return (tid * 0x9e3779b97f4a7c15ull >> 20) & (nr_slots - 1);
}

static struct thread *find_thread(const struct thread_map *m, __u32 tid)
{
	size_t i;

	if (!m->nr_slots)
		return NULL;
	for (i = thread_hash(tid, m->nr_slots); m->slots[i]; i = (i + 1) & (m->nr_slots - 1))
		if (m->threads[m->slots[i] - 1].tid == tid)
			return &m->threads[m->slots[i] - 1];
	return NULL;
}

static void slot_insert(size_t *slots, size_t nr_slots, __u32 tid, size_t index)
{
	size_t i;

	for (i = thread_hash(tid, nr_slots); slots[i]; i = (i + 1) & (nr_slots - 1))
		;
	slots[i] = index + 1;
}

/* The thread of tid (never 0), added if new; NULL when out of memory. */
static struct thread *get_thread(struct thread_map *m, __u32 tid)
{
	struct thread *t = find_thread(m, tid);
	size_t i;

	if (t)
		return t;
	if ((m->nr + 1) * 2 > m->nr_slots) {
		size_t n = m->nr_slots ? m->nr_slots * 2 : 1024;
		size_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return NULL;
		for (i = 0; i < m->nr; i++)
			slot_insert(slots, n, m->threads[i].tid, i);
		free(m->slots);
		m->slots = slots;
		m->nr_slots = n;
	}
	t = PUSH(m->threads, m->nr, m->cap);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	slot_insert(m->slots, m->nr_slots, tid, m->nr - 1);
	return t;
}

/* ---- What is collected ---------------------------------------------- */

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

static const struct irq_kind irq_kinds[] = {
	{ LKST_EV_INT_HARDWARE_ENTRY, LKST_EV_INT_HARDWARE_EXIT, "irq", { 0, 1 }, { 0, 2 } },
	{ LKST_EV_INT_VECTOR_ENTRY, LKST_EV_INT_VECTOR_EXIT, "vector", { 0, -1 }, { 0, -1 } },
	{ LKST_EV_INT_SOFTIRQ_ENTRY, LKST_EV_INT_SOFTIRQ_EXIT, "softirq", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_INT_TASKLETHI_ENTRY, LKST_EV_INT_TASKLETHI_EXIT, "tasklet_hi", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_INT_TASKLET_ENTRY, LKST_EV_INT_TASKLET_EXIT, "tasklet", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_NMI_ENTRY, LKST_EV_NMI_EXIT, "nmi", { 0, -1 }, { 0, -1 } },
};

/* Softirq vectors as the kernel names them (include/linux/interrupt.h). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
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

static int out_of_memory(struct json_export *j)
{
	lkst_seterr(j->err, "out of memory converting %llu records; free some memory",
		    j->x->records);
	return -1;
}

static __u32 tgid_of(const struct json_export *j, __u32 tid)
{
	const struct thread *t = find_thread(&j->threads, tid);

	return t && t->tgid ? t->tgid : tid;
}

/* ---- Pass 1: names and processes ------------------------------------ */

/* Records that name a task: which argument is its pid, its tgid, its comm. */
static const struct {
	__u16 event;
	int pid, tgid, comm;
} namers[] = {
	{ LKST_EV_PROCESS_CONTEXTSWITCH, 1, -1, 4 },
	{ LKST_EV_PROCESS_WAKEUP, 0, -1, 4 },
	{ LKST_EV_PROCESS_WAKEUP_NEW, 0, -1, 3 },
	{ LKST_EV_PROCESS_LTHREADGEN, 0, -1, 4 },
	{ LKST_EV_PROCESS_FORK, 1, 2, 4 },
	{ LKST_EV_PROCESS_EXEC, 0, -1, 2 },
	{ LKST_EV_PROCESS_EXIT, 0, 1, 4 },
	{ LKST_EV_MEM_OOM_KILL, 0, 1, 4 },
};

static int learn(struct json_export *j, const struct lkst_record *r)
{
	struct thread *t;
	unsigned int i;
	__u64 pid;

	for (i = 0; i < sizeof(namers) / sizeof(namers[0]); i++)
		if (namers[i].event == r->event)
			break;
	if (i == sizeof(namers) / sizeof(namers[0]))
		return 0;
	pid = r->arg[namers[i].pid];
	if (!pid || pid > UINT32_MAX)
		return 0;
	t = get_thread(&j->threads, pid);
	if (!t)
		return out_of_memory(j);
	/* Tasks rename themselves (exec, prctl): the latest name is the telling one. */
	lkst_format_comm(r->arg[namers[i].comm], r->arg[namers[i].comm + 1],
			 t->comm, sizeof(t->comm));
	if (namers[i].tgid >= 0 && r->arg[namers[i].tgid] &&
	    r->arg[namers[i].tgid] <= UINT32_MAX)
		t->tgid = r->arg[namers[i].tgid];
	return 0;
}

/*
 * After the records: the names the log saved (LKST_META_TASKS) for the
 * threads no record named, and their processes; the records' win.
 */
static int learn_saved(struct json_export *j)
{
	struct lkst_tasks tasks;
	struct thread *t;
	size_t i;

	if (lkst_log_tasks(lkst_trace_log(j->x->trace), &tasks, j->err))
		return -1;
	for (i = 0; i < tasks.nr; i++) {
		const struct lkst_log_task *e = &tasks.ent[i];
		__u64 comm[2];

		t = get_thread(&j->threads, e->pid);
		if (!t) {
			lkst_tasks_free(&tasks);
			return out_of_memory(j);
		}
		if (!t->comm[0]) {
			memcpy(comm, e->comm, sizeof(comm));
			lkst_format_comm(comm[0], comm[1], t->comm, sizeof(t->comm));
		}
		if (!t->tgid && e->tgid != e->pid)
			t->tgid = e->tgid;
	}
	lkst_tasks_free(&tasks);
	return 0;
}

/* ---- Pass 2: states, system calls, interrupts, marks, flows ---------- */

static struct slice *new_slice(struct json_export *j)
{
	struct slice *s = PUSH(j->slices, j->nr_slices, j->cap_slices);

	if (s)
		memset(s, 0, sizeof(*s));
	return s;
}

static int add_instant(struct json_export *j, __u64 ts, __u32 pid, int on_cpu,
		       struct instant **out)
{
	struct instant *in = PUSH(j->instants, j->nr_instants, j->cap_instants);

	if (!in)
		return out_of_memory(j);
	memset(in, 0, sizeof(*in));
	in->ts = ts;
	in->pid = pid;
	in->on_cpu = on_cpu;
	*out = in;
	return 0;
}

/* Ends t's open system call at ts as a slice; unfinished says why if not by its exit. */
static int close_syscall(struct json_export *j, struct thread *t, __u64 ts,
			 int unfinished, int has_result, __u64 result)
{
	struct slice *s = new_slice(j);

	if (!s)
		return out_of_memory(j);
	s->start = t->sc_start;
	s->end = ts;
	s->track = t->tid;
	s->args[0] = t->sc_nr;
	memcpy(&s->args[1], t->sc_args, sizeof(t->sc_args));
	s->arg5 = t->sc_arg5;
	s->has_arg5 = t->has_arg5;
	s->result = result;
	s->has_result = has_result;
	s->unfinished = unfinished;
	t->in_syscall = 0;
	t->used |= USED_SYSCALLS;
	j->nr_syscalls++;
	return 0;
}

static int feed_syscall(struct json_export *j, const struct lkst_record *r)
{
	struct instant *in;
	struct thread *t;

	if (!r->pid)
		return 0;
	t = get_thread(&j->threads, r->pid);
	if (!t)
		return out_of_memory(j);
	switch (r->event) {
	case LKST_EV_SYSCALL_ENTRY:
		if (t->in_syscall) {
			/* Its exit was lost: keep the entry as an instant. */
			if (add_instant(j, t->sc_start, t->tid, 0, &in))
				return -1;
			in->sc_nr = t->sc_nr;
			t->used |= USED_SYSCALLS;
		}
		t->in_syscall = 1;
		t->has_arg5 = 0;
		t->sc_start = r->time_ns;
		t->sc_nr = r->arg[0];
		memcpy(t->sc_args, &r->arg[1], sizeof(t->sc_args));
		break;
	case LKST_EV_SYSCALL_ENTRY_ARG5:
		if (t->in_syscall && t->sc_nr == r->arg[0]) {
			t->sc_arg5 = r->arg[1];
			t->has_arg5 = 1;
		}
		break;
	case LKST_EV_SYSCALL_EXIT:
		if (t->in_syscall && t->sc_nr == r->arg[0])
			return close_syscall(j, t, r->time_ns, 0, 1, r->arg[1]);
		if (add_instant(j, r->time_ns, t->tid, 0, &in))
			return -1;
		in->exit = 1;
		in->sc_nr = r->arg[0];
		in->result = r->arg[1];
		t->used |= USED_SYSCALLS;
		break;
	}
	return 0;
}

/* A task's end also ends the system call it never returned from (exit). */
static int task_gone(struct json_export *j, __u64 pid, __u64 ts)
{
	struct thread *t = pid && pid <= UINT32_MAX ? find_thread(&j->threads, pid) : NULL;

	if (t && t->in_syscall)
		return close_syscall(j, t, ts, 2, 0, 0);
	return 0;
}

static const struct irq_kind *irq_kind_of(__u16 event, int *is_entry)
{
	unsigned int i;

	for (i = 0; i < sizeof(irq_kinds) / sizeof(irq_kinds[0]); i++) {
		if (irq_kinds[i].entry == event || irq_kinds[i].exit == event) {
			*is_entry = irq_kinds[i].entry == event;
			return &irq_kinds[i];
		}
	}
	return NULL;
}

/* Closes the open entry at depth d and everything inside it at ts. */
static int close_irqs(struct json_export *j, struct cpu_state *c, unsigned int d,
		      __u64 ts, int unfinished)
{
	while (c->depth > d) {
		struct slice *s = new_slice(j);

		if (!s)
			return out_of_memory(j);
		c->depth--;
		*s = c->open[c->depth];
		s->end = ts;
		/* Inner entries closed by an outer exit lost their own exits. */
		s->unfinished = c->depth > d || unfinished;
	}
	return 0;
}

static int feed_irq(struct json_export *j, const struct lkst_record *r,
		    const struct irq_kind *k, int is_entry, unsigned int slot)
{
	struct cpu_state *c = &j->cpus[slot];
	struct slice *s;
	unsigned int d;

	if (is_entry) {
		if (c->depth == IRQ_DEPTH_MAX)
			return 0;	/* deeper than real nesting: a corrupt log */
		s = &c->open[c->depth];
		memset(s, 0, sizeof(*s));
		s->start = r->time_ns;
		s->track = slot;
		s->depth = c->depth++;
		s->kind = k;
		s->serial = j->nr_irqs++;
		memcpy(s->args, r->arg, sizeof(s->args));
		c->used = 1;
		return 0;
	}
	for (d = c->depth; d-- > 0;) {
		s = &c->open[d];
		if (s->kind == k &&
		    (k->exit_key[0] < 0 || s->args[k->entry_key[0]] == r->arg[k->exit_key[0]]) &&
		    (k->exit_key[1] < 0 || s->args[k->entry_key[1]] == r->arg[k->exit_key[1]])) {
			s->result = r->arg[1];
			s->has_result = k->entry == LKST_EV_INT_HARDWARE_ENTRY;
			return close_irqs(j, c, d, r->time_ns, 0);
		}
	}
	return 0;	/* its entry is before the trace */
}

static void ps_event_of(const struct lkst_record *r, unsigned int slot, struct ps_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->time_ns = r->time_ns;
	ev->cpu = slot;
	ev->cur_pid = r->pid;
	if (r->event == LKST_EV_PROCESS_CONTEXTSWITCH) {
		ev->type = PS_EV_SWITCH;
		ev->prev_pid = r->arg[0];
		ev->pid = r->arg[1];
		ev->prev_state = r->arg[2];
	} else {
		ev->type = PS_EV_WAKEUP;
		ev->pid = r->arg[0];
	}
	lkst_format_comm(r->arg[4], r->arg[5], ev->comm, sizeof(ev->comm));
}

/*
 * A switch or wakeup through lkst-procstate's machine.  A wakeup that
 * starts a ready slice becomes a flow if its waker has a slice open: the
 * interrupt it came from, or the waker's running slice.
 */
static int feed_state(struct json_export *j, const struct lkst_record *r, unsigned int slot)
{
	const struct cpu_state *c = &j->cpus[slot];
	const struct ps_task *waker = NULL, *woken;
	struct ps_event ev;
	struct flow *f;
	int from_cpu;

	/* A pid beyond 32 bits is corrupt: it must not stand for another task. */
	if (r->arg[0] > UINT32_MAX ||
	    (r->event == LKST_EV_PROCESS_CONTEXTSWITCH && r->arg[1] > UINT32_MAX))
		return 0;
	ps_event_of(r, slot, &ev);
	from_cpu = r->context != LKST_CTX_TASK && c->depth;
	if (ps_feed(&j->ps, &ev))
		return out_of_memory(j);
	if (ev.type == PS_EV_SWITCH)
		return (ev.prev_state & PS_TASK_DEAD) ? task_gone(j, ev.prev_pid, r->time_ns) : 0;
	if (!from_cpu && r->pid)
		waker = ps_find(&j->ps, r->pid, slot);
	if (!ev.pid || (!from_cpu && (!waker || waker->state != PS_RUNNING)))
		return 0;
	woken = ps_find(&j->ps, ev.pid, slot);
	if (!woken || woken->state != PS_READY || woken->since_ns != r->time_ns)
		return 0;
	f = PUSH(j->flows, j->nr_flows, j->cap_flows);
	if (!f)
		return out_of_memory(j);
	f->ts = r->time_ns;
	f->from_cpu = from_cpu;
	f->from = from_cpu ? slot : r->pid;
	f->to = ev.pid;
	f->woken = woken - j->ps.tasks;
	if (from_cpu)
		f->irq = c->open[c->depth - 1].serial;
	else
		f->waker = waker - j->ps.tasks;
	return 0;
}

static int feed(struct json_export *j, const struct lkst_record *r, unsigned int slot)
{
	const struct irq_kind *k;
	struct instant *in;
	int is_entry;

	j->cpus[slot].last_ns = r->time_ns;
	j->last_ns = r->time_ns;
	switch (r->event) {
	case LKST_EV_PROCESS_CONTEXTSWITCH:
	case LKST_EV_PROCESS_WAKEUP:
		return feed_state(j, r, slot);
	case LKST_EV_PROCESS_EXIT:
		return task_gone(j, r->arg[0], r->time_ns);
	case LKST_EV_SYSCALL_ENTRY:
	case LKST_EV_SYSCALL_ENTRY_ARG5:
	case LKST_EV_SYSCALL_EXIT:
		return feed_syscall(j, r);
	case LKST_EV_USER_MARK:
		if (add_instant(j, r->time_ns, r->pid ? r->pid : slot, !r->pid, &in))
			return -1;
		in->mark = r;		/* the log stays loaded until the end */
		j->nr_marks++;
		if (!r->pid) {
			j->cpus[slot].used = 1;
		} else {
			struct thread *t = get_thread(&j->threads, r->pid);

			if (!t)
				return out_of_memory(j);
			t->used |= USED_MARKS;
		}
		return 0;
	}
	k = irq_kind_of(r->event, &is_entry);
	return k ? feed_irq(j, r, k, is_entry, slot) : 0;
}

/* The interval of t that holds ts, if any. */
static const struct ps_interval *interval_at(const struct ps_task *t, __u64 ts)
{
	size_t lo = 0, hi = t->nr_intervals;

	while (lo < hi) {		/* the first interval starting after ts */
		size_t mid = lo + (hi - lo) / 2;

		if (t->intervals[mid].start_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ts >= t->intervals[lo - 1].end_ns)
		return NULL;
	return &t->intervals[lo - 1];
}

/*
 * Keeps the flows whose ends bind without doubt: the start inside a slice
 * that lasts past it (the waker's running one or the interrupt's), the
 * end where the woken task's ready slice begins.  Ties of a coarse clock
 * leave slices of no duration, which are not drawn.
 */
static int bind_flows(struct json_export *j)
{
	__u64 *irq_end = calloc(j->nr_irqs ? j->nr_irqs : 1, sizeof(*irq_end));
	const struct ps_interval *iv;
	size_t i;

	if (!irq_end)
		return out_of_memory(j);
	for (i = 0; i < j->nr_slices; i++)
		if (j->slices[i].kind)
			irq_end[j->slices[i].serial] = j->slices[i].end;
	for (i = 0; i < j->nr_flows; i++) {
		struct flow *f = &j->flows[i];

		if (f->from_cpu) {
			f->bound = irq_end[f->irq] > f->ts;
		} else {
			iv = interval_at(&j->ps.tasks[f->waker], f->ts);
			f->bound = iv && iv->state == PS_RUNNING;
		}
		iv = interval_at(&j->ps.tasks[f->woken], f->ts);
		f->bound &= iv && iv->state == PS_READY && iv->start_ns == f->ts;
		j->nr_bound += f->bound;
	}
	free(irq_end);
	return 0;
}

/* What the trace leaves open ends with it, marked unfinished. */
static int finish(struct json_export *j)
{
	unsigned int s;
	size_t i;

	for (i = 0; i < j->threads.nr; i++)
		if (j->threads.threads[i].in_syscall &&
		    close_syscall(j, &j->threads.threads[i], j->last_ns, 1, 0, 0))
			return -1;
	for (s = 0; s < j->nr_cpus; s++)
		if (close_irqs(j, &j->cpus[s], 0, j->cpus[s].last_ns, 1))
			return -1;
	/* States last to the trace's end, not just to its last switch or wakeup. */
	if (ps_finish(&j->ps, j->last_ns))
		return out_of_memory(j);
	for (i = 0; i < j->ps.nr_tasks; i++) {
		const struct ps_task *t = &j->ps.tasks[i];
		struct thread *th;

		if (!t->pid || !t->nr_intervals)
			continue;
		th = get_thread(&j->threads, t->pid);
		if (!th)
			return out_of_memory(j);
		th->used |= USED_STATES;
	}
	/* Every process gets its leader's entry, to be named once after it. */
	for (i = 0; i < j->threads.nr; i++) {
		__u32 tgid = j->threads.threads[i].tgid;

		if (j->threads.threads[i].used && tgid && !get_thread(&j->threads, tgid))
			return out_of_memory(j);
	}
	return bind_flows(j);
}

/* ---- Losses --------------------------------------------------------- */

/*
 * count records lost on the CPU of slot before stored record index of sec
 * (nr_records: after its last), as an instant at that record's time: the
 * place where the trace resumes, or ends.
 */
static int add_loss(struct json_export *j, unsigned int slot,
		    const struct lkst_log_section *sec, __u64 index, __u64 count,
		    __u64 first, __u64 last)
{
	__u64 n = sec->info.nr_records, ts = j->last_ns;
	struct instant *in;

	if (index < n)
		ts = sec->records[index].time_ns;
	else if (n)
		ts = sec->records[n - 1].time_ns;
	if (add_instant(j, ts, slot, 1, &in))
		return -1;
	in->lost = count;
	in->numbered = sec->seqs != NULL;
	in->first = first;
	in->last = last;
	j->cpus[slot].used = 1;
	j->nr_lost += count;
	return 0;
}

/*
 * Every loss in its place, as the CTF trace's discarded events: the
 * numbers before a section (lkst_log_lost_before()) and each gap in its
 * numbers.  Dropped events have no number or time: the counts only.
 */
static int add_losses(struct json_export *j)
{
	const struct lkst_log *log = j->x->log;
	struct lkst_log_gap gap;
	unsigned int s;

	for (s = 0; s < log->nr_sections; s++) {
		const struct lkst_log_section *sec = &log->sections[s];
		__u64 before = lkst_log_lost_before(sec), left = sec->info.lost, pos = 0;
		__u64 start = sec->info.seq_start;

		while (left && lkst_log_next_gap(sec, &pos, &gap)) {
			left -= gap.last - gap.first + 1;
			/* The numbers before the section go on into a gap at its start. */
			if (before && gap.first == start) {
				gap.first -= before;
				before = 0;
			}
			if (before && add_loss(j, j->slot_of[s], sec, 0, before, start - before,
					       start - 1))
				return -1;
			before = 0;
			if (add_loss(j, j->slot_of[s], sec, gap.index, gap.last - gap.first + 1,
				     gap.first, gap.last))
				return -1;
		}
		if (before && add_loss(j, j->slot_of[s], sec, 0, before, start - before, start - 1))
			return -1;
	}
	return 0;
}

/* ---- Output --------------------------------------------------------- */

/* Bytes of the well-formed UTF-8 sequence at s (RFC 3629), 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int lo = 0x80, hi = 0xbf, n, i;

	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return 0;
	/* No overlong forms, surrogates or code points past U+10FFFF. */
	if (*s == 0xe0)
		lo = 0xa0;
	else if (*s == 0xed)
		hi = 0x9f;
	else if (*s == 0xf0)
		lo = 0x90;
	else if (*s == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/*
 * A JSON string from untrusted text (the log's header): UTF-8 as it is,
 * any other byte that is not printable ASCII as its \u00XX escape.
 */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p >= 0x20 && *p < 0x7f) {
			fputc(*p++, out);
		} else if ((n = utf8_len(p))) {
			fwrite(p, n, 1, out);
			p += n;
		} else {
			fprintf(out, "\\u%04x", *p++);
		}
	}
	fputc('"', out);
}

/* Microseconds with the nanoseconds as decimals. */
static void put_us(FILE *out, __u64 ns)
{
	fprintf(out, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

/* The start of an event object: a comma before all but the first. */
static void put_event(FILE *out, struct json_export *j, const char *ph, const char *name,
		      const char *cat, __u64 pid, __u64 tid)
{
	fprintf(out, "%s{\"ph\":\"%s\",\"name\":", j->nr_events++ ? ",\n" : "", ph);
	put_string(out, name);
	if (cat)
		fprintf(out, ",\"cat\":\"%s\"", cat);
	fprintf(out, ",\"pid\":%llu,\"tid\":%llu", (unsigned long long)pid,
		(unsigned long long)tid);
}

static void put_ts(FILE *out, __u64 start)
{
	fputs(",\"ts\":", out);
	put_us(out, start);
}

static void put_span(FILE *out, __u64 start, __u64 end)
{
	put_ts(out, start);
	fputs(",\"dur\":", out);
	put_us(out, end - start);
}

static void put_hex_arg(FILE *out, const char *key, __u64 v)
{
	fprintf(out, ",\"%s\":\"0x%llx\"", key, (unsigned long long)v);
}

static __u64 cpu_pid(const struct json_export *j)
{
	return 2 * j->base;
}

static void put_name(FILE *out, struct json_export *j, const char *what, __u64 pid,
		     __u64 tid, const char *name)
{
	put_event(out, j, "M", what, NULL, pid, tid);
	fputs(",\"args\":{\"name\":", out);
	put_string(out, name);
	fputs("}}", out);
}

static void put_metadata(FILE *out, struct json_export *j)
{
	char name[COMM_LEN + 16];
	int cpus = 0;
	unsigned int s;
	size_t i;

	for (i = 0; i < j->threads.nr; i++) {
		struct thread *t = &j->threads.threads[i];
		__u32 tgid = t->tgid ? t->tgid : t->tid;
		struct thread *leader = find_thread(&j->threads, tgid);

		if (!t->used)
			continue;
		/*
		 * A process is named once, after its leader, else after this
		 * thread; the viewers name what has no name by its ID.
		 */
		if (leader && !leader->process_named &&
		    (leader->comm[0] || t->comm[0])) {
			put_name(out, j, "process_name", tgid, tgid,
				 leader->comm[0] ? leader->comm : t->comm);
			leader->process_named = 1;
		}
		if (t->comm[0])
			put_name(out, j, "thread_name", tgid, t->tid, t->comm);
		if (t->used & USED_SYSCALLS) {
			if (t->comm[0])
				snprintf(name, sizeof(name), "%s syscalls", t->comm);
			else
				snprintf(name, sizeof(name), "%u syscalls", t->tid);
			put_name(out, j, "thread_name", tgid, j->base + t->tid, name);
		}
	}
	for (s = 0; s < j->nr_cpus; s++) {
		if (!j->cpus[s].used)
			continue;
		if (!cpus++)
			put_name(out, j, "process_name", cpu_pid(j), cpu_pid(j), "CPUs (interrupts)");
		snprintf(name, sizeof(name), "CPU %u", j->cpus[s].cpu);
		put_name(out, j, "thread_name", cpu_pid(j), cpu_pid(j) + j->cpus[s].cpu, name);
	}
}

static void put_flows(FILE *out, struct json_export *j, int starts)
{
	size_t i;

	for (i = 0; i < j->nr_flows; i++) {
		const struct flow *f = &j->flows[i];

		if (!f->bound)
			continue;
		if (!starts)
			put_event(out, j, "f", "wakeup", "wakeup", tgid_of(j, f->to), f->to);
		else if (f->from_cpu)
			put_event(out, j, "s", "wakeup", "wakeup", cpu_pid(j),
				  cpu_pid(j) + j->cpus[f->from].cpu);
		else
			put_event(out, j, "s", "wakeup", "wakeup", tgid_of(j, f->from), f->from);
		put_ts(out, f->ts);
		fprintf(out, ",\"id\":%zu}", i + 1);
	}
}

static void put_states(FILE *out, struct json_export *j)
{
	size_t i, k;

	for (i = 0; i < j->ps.nr_tasks; i++) {
		const struct ps_task *t = &j->ps.tasks[i];

		if (!t->pid || !t->nr_intervals)
			continue;
		for (k = 0; k < t->nr_intervals; k++) {
			const struct ps_interval *iv = &t->intervals[k];

			put_event(out, j, "X", ps_state_name(iv->state), "state",
				  tgid_of(j, t->pid), t->pid);
			put_span(out, iv->start_ns, iv->end_ns);
			if (iv->state == PS_RUNNING && iv->cpu < j->nr_cpus)
				fprintf(out, ",\"args\":{\"cpu\":%u}}", j->cpus[iv->cpu].cpu);
			else
				fputs("}", out);
		}
	}
}

/* Named by the call as lkbuf print shows it ("lseek", "ia32:getpid", "999"). */
static void syscall_name(__u64 nr, char *buf, size_t len)
{
	lkst_format_syscall(nr, buf, len);
}

static const char *const unfinished_why[] = {
	NULL, "exit not in the trace", "the task exited",
};

static void put_syscall(FILE *out, struct json_export *j, const struct slice *s)
{
	char name[32];
	unsigned int i;

	syscall_name(s->args[0], name, sizeof(name));
	put_event(out, j, "X", name, "syscall", tgid_of(j, s->track), j->base + s->track);
	put_span(out, s->start, s->end);
	fprintf(out, ",\"args\":{\"nr\":%d", LKST_SYSCALL_NR(s->args[0]));
	for (i = 0; i < 5; i++) {
		char key[8];

		snprintf(key, sizeof(key), "arg%u", i);
		put_hex_arg(out, key, s->args[i + 1]);
	}
	if (s->has_arg5)
		put_hex_arg(out, "arg5", s->arg5);
	if (s->has_result)
		fprintf(out, ",\"return\":%lld", (long long)s->result);
	if (s->unfinished)
		fprintf(out, ",\"unfinished\":\"%s\"", unfinished_why[s->unfinished]);
	fputs("}}", out);
}

static void put_irq(FILE *out, struct json_export *j, const struct slice *s)
{
	const struct irq_kind *k = s->kind;
	char name[48];

	switch (k->entry) {
	case LKST_EV_INT_HARDWARE_ENTRY:
		snprintf(name, sizeof(name), "irq %llu", (unsigned long long)s->args[0]);
		break;
	case LKST_EV_INT_VECTOR_ENTRY:
		snprintf(name, sizeof(name), "vector 0x%llx", (unsigned long long)s->args[0]);
		break;
	case LKST_EV_INT_SOFTIRQ_ENTRY:
		if (s->args[0] < sizeof(softirq_names) / sizeof(softirq_names[0]))
			snprintf(name, sizeof(name), "softirq %s", softirq_names[s->args[0]]);
		else
			snprintf(name, sizeof(name), "softirq %llu", (unsigned long long)s->args[0]);
		break;
	default:
		snprintf(name, sizeof(name), "%s", k->cat);
		break;
	}
	put_event(out, j, "X", name, k->cat, cpu_pid(j), cpu_pid(j) + j->cpus[s->track].cpu);
	put_span(out, s->start, s->end);
	fputs(",\"args\":{", out);
	switch (k->entry) {
	case LKST_EV_INT_HARDWARE_ENTRY:
		fprintf(out, "\"irq\":%llu", (unsigned long long)s->args[0]);
		put_hex_arg(out, "handler", s->args[1]);
		put_hex_arg(out, "dev_id", s->args[2]);
		if (s->has_result)
			put_hex_arg(out, "irqreturn", s->result);
		break;
	case LKST_EV_INT_VECTOR_ENTRY:
		fprintf(out, "\"vector\":%llu", (unsigned long long)s->args[0]);
		break;
	case LKST_EV_INT_SOFTIRQ_ENTRY:
		fprintf(out, "\"vector\":%llu", (unsigned long long)s->args[0]);
		put_hex_arg(out, "action", s->args[1]);
		break;
	case LKST_EV_NMI_ENTRY:
		fprintf(out, "\"cpu\":%llu", (unsigned long long)s->args[0]);
		put_hex_arg(out, "ip", s->args[1]);
		break;
	default:
		fputs("\"function\":", out);
		fprintf(out, "\"0x%llx\"", (unsigned long long)s->args[0]);
		put_hex_arg(out, "tasklet", s->args[1]);
		break;
	}
	if (s->unfinished)
		fputs(",\"unfinished\":\"exit not in the trace\"", out);
	fputs("}}", out);
}

/* A mark's text field, as lkbuf print shows it (escaped). */
static void mark_text(const struct lkst_record *r, char *buf, size_t len)
{
	struct lkst_field fields[LKST_NR_ARGS];
	unsigned int i, n = lkst_event_fields(lkst_event_by_id(r->event), fields);

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (fields[i].type == LKST_FIELD_TEXT) {
			lkst_field_text(r, &fields[i], buf, len);
			return;
		}
	}
}

static void put_instant(FILE *out, struct json_export *j, const struct instant *in)
{
	char text[LKST_FIELD_TEXT_LEN];

	if (in->lost) {
		snprintf(text, sizeof(text), "lkst: %llu records lost", (unsigned long long)in->lost);
		put_event(out, j, "i", text, "loss", cpu_pid(j), cpu_pid(j) + j->cpus[in->pid].cpu);
		put_ts(out, in->ts);
		fprintf(out, ",\"s\":\"t\",\"args\":{\"lost\":%llu", (unsigned long long)in->lost);
		if (in->numbered)
			fprintf(out, ",\"first_seq\":%llu,\"last_seq\":%llu",
				(unsigned long long)in->first, (unsigned long long)in->last);
		fputs(",\"cause\":\"overwritten before they were read\"}}", out);
		return;
	}
	if (!in->mark) {
		syscall_name(in->sc_nr, text, sizeof(text));
		put_event(out, j, "i", text, "syscall", tgid_of(j, in->pid), j->base + in->pid);
		put_ts(out, in->ts);
		fprintf(out, ",\"s\":\"t\",\"args\":{\"nr\":%d", LKST_SYSCALL_NR(in->sc_nr));
		if (in->exit)
			fprintf(out, ",\"return\":%lld,\"unfinished\":\"entry not in the trace\"}}",
				(long long)in->result);
		else
			fputs(",\"unfinished\":\"exit not in the trace\"}}", out);
		return;
	}
	mark_text(in->mark, text, sizeof(text));
	if (in->on_cpu)
		put_event(out, j, "i", text, "mark", cpu_pid(j), cpu_pid(j) + j->cpus[in->pid].cpu);
	else
		put_event(out, j, "i", text, "mark", tgid_of(j, in->pid), in->pid);
	put_ts(out, in->ts);
	fputs(",\"s\":\"t\",\"args\":{\"text\":", out);
	put_string(out, text);
	fputs("}}", out);
}

/* System calls first, then each CPU's interrupts by start, outer before inner. */
static int compare_slices(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (!x->kind != !y->kind)
		return !x->kind ? -1 : 1;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* A power of ten above every pid and tgid, at least PID_BASE_MIN. */
static __u64 pid_base(const struct json_export *j)
{
	__u64 base = PID_BASE_MIN, max = 0;
	size_t i;

	for (i = 0; i < j->threads.nr; i++) {
		if (j->threads.threads[i].tid > max)
			max = j->threads.threads[i].tid;
		if (j->threads.threads[i].tgid > max)
			max = j->threads.threads[i].tgid;
	}
	while (base <= max)
		base *= 10;
	return base;
}

static void put_trace(FILE *out, struct json_export *j)
{
	const struct lkst_log_header *h = &j->x->log->header;
	unsigned int s;
	size_t i;

	fputs("{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"source\":\"lkst\",\"host\":", out);
	put_string(out, h->nodename);
	fputs(",\"kernel\":", out);
	put_string(out, h->release);
	fprintf(out, ",\"clock\":\"CLOCK_MONOTONIC\",\"realtime_minus_trace_ns\":%lld",
		(long long)(h->anchor_realtime_ns - h->anchor_trace_ns));
	/* The losses' total, and the kernel's counters (dropped events are only there). */
	fprintf(out, ",\"records_lost\":%llu,\"kernel_counters\":[", j->nr_lost);
	for (s = 0; s < j->x->log->nr_sections; s++) {
		const struct lkst_log_cpu *c = &j->x->log->sections[s].info;

		fprintf(out, "%s{\"cpu\":%u,\"written\":%llu,\"overwritten\":%llu,\"dropped\":%llu}",
			s ? "," : "", c->cpu, (unsigned long long)c->written,
			(unsigned long long)c->overwritten, (unsigned long long)c->dropped);
	}
	fputs("]},\n\"traceEvents\":[\n", out);
	put_metadata(out, j);
	put_flows(out, j, 0);
	put_states(out, j);
	if (j->nr_slices)
		qsort(j->slices, j->nr_slices, sizeof(*j->slices), compare_slices);
	for (i = 0; i < j->nr_slices; i++) {
		if (j->slices[i].kind)
			put_irq(out, j, &j->slices[i]);
		else
			put_syscall(out, j, &j->slices[i]);
	}
	put_flows(out, j, 1);
	for (i = 0; i < j->nr_instants; i++)
		put_instant(out, j, &j->instants[i]);
	fputs("\n]}\n", out);
}

/* One CPU slot per CPU number: sections of one CPU share its track. */
static int init_cpus(struct json_export *j)
{
	const struct lkst_log *log = j->x->log;
	unsigned int s, k;

	j->slot_of = calloc(log->nr_sections ? log->nr_sections : 1, sizeof(*j->slot_of));
	j->cpus = calloc(log->nr_sections ? log->nr_sections : 1, sizeof(*j->cpus));
	if (!j->slot_of || !j->cpus)
		return out_of_memory(j);
	for (s = 0; s < log->nr_sections; s++) {
		for (k = 0; k < j->nr_cpus; k++)
			if (j->cpus[k].cpu == log->sections[s].info.cpu)
				break;
		if (k == j->nr_cpus)
			j->cpus[j->nr_cpus++].cpu = log->sections[s].info.cpu;
		j->slot_of[s] = k;
	}
	return 0;
}

/*
 * Two passes over the records in time order: learn names from every
 * record (and the log's saved ones), then feed the selected ones (all
 * without a selection).
 */
static int run_passes(struct json_export *j)
{
	struct lkst_trace_iter *all = lkst_trace_iter_new(j->x->trace, LKST_ITER_ALL, j->err);
	struct lkst_trace_iter *it;
	struct lkst_trace_rec r;
	__u64 n = 1;
	int pass;

	if (!all)
		return -1;
	j->x->work = 2 * j->x->records;
	for (pass = 0; pass < 2; pass++) {
		it = pass ? j->x->iter : all;
		lkst_trace_rewind(it);
		for (; lkst_trace_next(it, &r); n++) {
			if (pass ? feed(j, r.rec, j->slot_of[r.section]) : learn(j, r.rec)) {
				lkst_trace_iter_free(all);
				return -1;
			}
			j->x->written += pass;
			if (!(n & 0xffff))
				lkst_export_step(j->x, 0x10000);
		}
		if (!pass && learn_saved(j)) {
			lkst_trace_iter_free(all);
			return -1;
		}
	}
	lkst_trace_iter_free(all);
	lkst_export_step(j->x, (n - 1) & 0xffff);
	return finish(j);
}

static void free_export(struct json_export *j)
{
	ps_free(&j->ps);
	free(j->threads.threads);
	free(j->threads.slots);
	free(j->slot_of);
	free(j->cpus);
	free(j->slices);
	free(j->flows);
	free(j->instants);
}

/*
 * Writes to path ("-": standard output).  A regular file left half
 * written by an error is removed; a device such as /dev/full is not.
 */
static int write_file(struct json_export *j, const char *path)
{
	int to_stdout = !strcmp(path, "-"), regular = 1, failed, errnum;
	struct stat st;
	FILE *out;

	if (!to_stdout && !stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			lkst_seterr(j->err, "%s is a directory; give a file name for the JSON trace",
				    path);
			return -1;
		}
		regular = S_ISREG(st.st_mode);
	}
	out = to_stdout ? stdout : fopen(path, "we");
	if (!out) {
		lkst_seterr(j->err, "cannot create %s: %s; check the path and permissions",
			    path, strerror(errno));
		return -1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	put_trace(out, j);
	errno = 0;
	failed = fflush(out) || ferror(out);
	errnum = errno;
	if (!to_stdout && fclose(out) && !failed) {
		failed = 1;
		errnum = errno;
	}
	if (!failed)
		return 0;
	if (!to_stdout && regular)
		unlink(path);
	lkst_seterr(j->err, "cannot write %s: %s; check the space left there",
		    to_stdout ? "the JSON trace" : path, strerror(errnum ? errnum : EIO));
	return -1;
}

int lkst_export_json(struct lkst_export *x, const char *path, struct lkst_err *err)
{
	struct json_export j;
	int ret;

	memset(&j, 0, sizeof(j));
	j.x = x;
	j.err = err;
	ps_init(&j.ps);
	ret = init_cpus(&j);
	if (!ret)
		ret = run_passes(&j);
	if (!ret)
		ret = add_losses(&j);
	if (!ret) {
		j.base = pid_base(&j);
		ret = write_file(&j, path);
	}
	if (!ret) {
		size_t i, states = 0;

		for (i = 0; i < j.ps.nr_tasks; i++)
			if (j.ps.tasks[i].pid)
				states += j.ps.tasks[i].nr_intervals;
		snprintf(x->summary, sizeof(x->summary),
			 "%zu state slices, %zu system calls, %zu interrupt slices, %zu marks, %zu wakeup flows%s",
			 states, j.nr_syscalls, j.nr_slices - j.nr_syscalls, j.nr_marks,
			 j.nr_bound, j.nr_lost ? ", " : "");
		if (j.nr_lost)
			snprintf(x->summary + strlen(x->summary), sizeof(x->summary) - strlen(x->summary),
				 "%llu records lost as instants on their CPUs", j.nr_lost);
	}
	free_export(&j);
	return ret;
}
