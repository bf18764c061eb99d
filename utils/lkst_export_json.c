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
 * exit records (lkst_export_kernel.c's task table, which the other
 * kernel-layout exporters use); a task without one is its own process.
 * Idle (pid 0) gets no track, as in lkst-procstate.
 *
 * This file collects everything; lkst_export_json_write.c writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_export_json_int.h"
#include "lkst_format.h"
#include "lkst_logio_int.h"

/* A new element at the end of arr, or NULL when out of memory. */
#define PUSH(arr, n, cap) \
	(lkst_grow((void **)&(arr), &(cap), (n), sizeof(*(arr)), 256) ? NULL : &(arr)[(n)++])

/* ---- Threads -------------------------------------------------------- */

static size_t thread_hash(__u32 tid, size_t nr_slots)
{
	return (tid * 0x9e3779b97f4a7c15ull >> 20) & (nr_slots - 1);
}

struct thread *json_find_thread(const struct thread_map *m, __u32 tid)
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
	struct thread *t = json_find_thread(m, tid);
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

/* ---- Interrupts and what is collected -------------------------------- */

static const struct irq_kind irq_kinds[] = {
	{ LKST_EV_INT_HARDWARE_ENTRY, LKST_EV_INT_HARDWARE_EXIT, "irq", { 0, 1 }, { 0, 2 } },
	{ LKST_EV_INT_VECTOR_ENTRY, LKST_EV_INT_VECTOR_EXIT, "vector", { 0, -1 }, { 0, -1 } },
	{ LKST_EV_INT_SOFTIRQ_ENTRY, LKST_EV_INT_SOFTIRQ_EXIT, "softirq", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_INT_TASKLETHI_ENTRY, LKST_EV_INT_TASKLETHI_EXIT, "tasklet_hi", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_INT_TASKLET_ENTRY, LKST_EV_INT_TASKLET_EXIT, "tasklet", { 0, 1 }, { 0, 1 } },
	{ LKST_EV_NMI_ENTRY, LKST_EV_NMI_EXIT, "nmi", { 0, -1 }, { 0, -1 } },
};

static int out_of_memory(struct json_export *j)
{
	lkst_seterr(j->err, "out of memory converting %llu records; free some memory",
		    j->x->records);
	return -1;
}


/* ---- States, system calls, interrupts, marks, flows ---------------- */

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
	struct thread *t = pid && pid <= UINT32_MAX ? json_find_thread(&j->threads, pid) : NULL;

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
		__u32 tgid = json_tgid(j, j->threads.threads[i].tid);

		if (j->threads.threads[i].used && !get_thread(&j->threads, tgid))
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
	{
		struct lkst_log_gap gap = { first, last, index };

		in->missing_file = lkst_log_gap_in_missing_file(j->x->log, sec, &gap);
	}
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

/* A power of ten above every pid and tgid, at least PID_BASE_MIN. */
static __u64 pid_base(const struct json_export *j)
{
	__u64 base = PID_BASE_MIN, max = 0;
	size_t i;

	for (i = 0; i < j->threads.nr; i++) {
		if (j->threads.threads[i].tid > max)
			max = j->threads.threads[i].tid;
		if (json_tgid(j, j->threads.threads[i].tid) > max)
			max = json_tgid(j, j->threads.threads[i].tid);
	}
	while (base <= max)
		base *= 10;
	return base;
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
 * The names and processes from every record (selected or not) and the
 * log's saved names (kx_tasks_build()), the threads in the order they
 * were first named; then the selected records fed in time order (all
 * without a selection).
 */
static int run(struct json_export *j)
{
	struct lkst_trace_rec r;
	__u32 *order;
	__u64 n = 1;
	size_t i;

	if (kx_tasks_build(&j->tasks, j->x->trace, j->err))
		return -1;
	order = calloc(j->tasks.nr_named ? j->tasks.nr_named : 1, sizeof(*order));
	if (!order)
		return out_of_memory(j);
	for (i = 0; i < j->tasks.nr; i++)
		if (j->tasks.ent[i].named)
			order[j->tasks.ent[i].named - 1] = j->tasks.ent[i].pid;
	for (i = 0; i < j->tasks.nr_named; i++) {
		if (!get_thread(&j->threads, order[i])) {
			free(order);
			return out_of_memory(j);
		}
	}
	free(order);
	j->x->work = j->x->records;
	lkst_trace_rewind(j->x->iter);
	for (; lkst_trace_next(j->x->iter, &r); n++) {
		if (feed(j, r.rec, j->slot_of[r.section]))
			return -1;
		j->x->written++;
		if (!(n & 0xffff))
			lkst_export_step(j->x, 0x10000);
	}
	lkst_export_step(j->x, (n - 1) & 0xffff);
	return finish(j);
}

static void free_export(struct json_export *j)
{
	ps_free(&j->ps);
	kx_tasks_free(&j->tasks);
	free(j->threads.threads);
	free(j->threads.slots);
	free(j->slot_of);
	free(j->cpus);
	free(j->slices);
	free(j->flows);
	free(j->instants);
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
		ret = run(&j);
	if (!ret)
		ret = add_losses(&j);
	if (!ret) {
		j.base = pid_base(&j);
		ret = json_write(&j, path);
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
