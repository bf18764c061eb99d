// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf convert --to perfetto: a log as Perfetto's native protobuf trace,
 * as its traced_probes writes one from ftrace, so ui.perfetto.dev and
 * trace_processor show per-CPU scheduling tracks, thread states, system
 * calls and interrupts.  The messages are perfetto/perfetto_trace.proto's
 * (a subset of Perfetto's protos with its field numbers), packed with
 * protobuf-c; the file is a Trace, one TracePacket after the other:
 *
 *   SystemInfo      the kernel's release (Perfetto reads prev_state by it)
 *                   and, with system calls, the machine (x86_64: their
 *                   numbers are named by it)
 *   ClockSnapshot   the log's clock anchor: its trace time as BOOTTIME (the
 *                   domain Perfetto reads ftrace timestamps in) and as
 *                   MONOTONIC (lkst's clock), with the time of day as
 *                   REALTIME, so the UI shows wall time
 *   ProcessTree     every thread the trace names (tid, tgid, name) and its
 *                   process, at the first record's time
 *   FtraceEventBundle  per CPU, up to BUNDLE_MAX events in time order;
 *                   lost_events set on the first bundle after records of
 *                   that CPU were lost
 *   FtraceStats     END_OF_TRACE: per CPU, the records lost in this log
 *                   (overrun), the kernel's drops and the records read
 *
 * Events, as ftrace names them: sched_switch, sched_waking,
 * sched_wakeup_new, sched_process_fork/exec/exit, sys_enter/sys_exit,
 * irq_handler_entry/exit, softirq_entry/exit/raise, and print for USER_MARK
 * (lkbuf mark: "I|PID|TEXT", an instant on the thread's track, the text
 * escaped as lkbuf print shows it).  Records of other
 * events have no ftrace twin here and are left out (the summary counts
 * them).  What the records leave to the ones around them (the name and
 * priority of a switched-out task, a parent's name) comes from
 * lkst_export_kernel.c, as in the LTTng-layout CTF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_export_perfetto.h"
#include "lkst_export_kernel.h"
#include "lkst_format.h"
#include "lkst_outfile.h"
#include "lkst_sysnames.h"
#include "perfetto/perfetto_trace.pb-c.h"

#define BUNDLE_MAX	2048	/* events in a bundle: packets of ~100 KiB */
#define SEQUENCE_ID	1	/* every packet is the one writer's */

typedef Perfetto__Protos__TracePacket Packet;
typedef Perfetto__Protos__FtraceEvent Event;

/* One event of a bundle with everything it points to. */
struct pf_slot {
	Event ev;
	union {
		Perfetto__Protos__SchedSwitchFtraceEvent sw;
		Perfetto__Protos__SchedWakingFtraceEvent waking;
		Perfetto__Protos__SchedWakeupNewFtraceEvent wnew;
		Perfetto__Protos__SchedProcessForkFtraceEvent fork;
		Perfetto__Protos__SchedProcessExecFtraceEvent exec;
		Perfetto__Protos__SchedProcessExitFtraceEvent exit;
		Perfetto__Protos__SysEnterFtraceEvent enter;
		Perfetto__Protos__SysExitFtraceEvent sysexit;
		Perfetto__Protos__IrqHandlerEntryFtraceEvent irq;
		Perfetto__Protos__IrqHandlerExitFtraceEvent irqexit;
		Perfetto__Protos__SoftirqEntryFtraceEvent softirq;
		Perfetto__Protos__SoftirqExitFtraceEvent softexit;
		Perfetto__Protos__SoftirqRaiseFtraceEvent raise;
		Perfetto__Protos__PrintFtraceEvent print;
	} u;
	uint64_t args[LKST_NR_ARGS - 1];
	char s1[KX_COMM_LEN], s2[KX_COMM_LEN];
	char text[4 * LKST_NR_ARGS * 8 + 32];	/* a mark's "I|PID|TEXT" */
};

struct pf_writer {
	struct lkst_export *x;
	const char *path;
	FILE *out;
	struct kx_tasks tasks;
	struct pf_slot *slots;		/* BUNDLE_MAX */
	Event **events;			/* the bundle's, pointing into slots */
	unsigned int n;
	unsigned char *buf;		/* a packed packet */
	size_t cap;
	unsigned long long sched, syscalls, irqs, marks, left_out, lost;
	int has_syscalls;
	__u64 first_ns;
	struct lkst_err *err;
};

#define SET(m, f, v)	do { (m).has_##f = 1; (m).f = (v); } while (0)

static int out_of_memory(struct pf_writer *w)
{
	lkst_seterr(w->err, "out of memory; free some memory");
	return -1;
}

/* One Trace.packet (field 1, length-delimited): its tag, length and bytes. */
static int put_packet(struct pf_writer *w, Packet *p)
{
	size_t n = protobuf_c_message_get_packed_size(&p->base), h = 0;
	unsigned char head[1 + 10];
	__u64 v = n;

	if (n > w->cap) {
		unsigned char *b = realloc(w->buf, n);

		if (!b)
			return out_of_memory(w);
		w->buf = b;
		w->cap = n;
	}
	protobuf_c_message_pack(&p->base, w->buf);
	head[h++] = 1 << 3 | 2;
	do {
		head[h] = v & 0x7f;
		v >>= 7;
		head[h++] |= v ? 0x80 : 0;
	} while (v);
	if (fwrite(head, h, 1, w->out) != 1 || (n && fwrite(w->buf, n, 1, w->out) != 1)) {
		lkst_seterr(w->err, "cannot write %s: %s; check the space and permissions there",
			    w->path, strerror(errno));
		return -1;
	}
	return 0;
}

static void packet_init(Packet *p)
{
	Packet init = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	*p = init;
	SET(*p, trusted_packet_sequence_id, SEQUENCE_ID);
}

static int flush_bundle(struct pf_writer *w, unsigned int cpu, int lost)
{
	Perfetto__Protos__FtraceEventBundle b = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Packet p;
	int ret;

	if (!w->n && !lost)
		return 0;
	SET(b, cpu, cpu);
	b.n_event = w->n;
	b.event = w->events;
	if (lost)
		SET(b, lost_events, 1);
	packet_init(&p);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
	p.ftrace_events = &b;
	ret = put_packet(w, &p);
	w->n = 0;
	return ret;
}


/* r as an ftrace event in slot; 0 when ftrace has no twin for it. */
static int fill_event(struct pf_writer *w, struct kx_cpu *c, struct pf_slot *sl,
		      const struct lkst_record *r)
{
	static const Event ev_init = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	const struct kx_tasks *t = &w->tasks;
	const __u64 *a = r->arg;
	Event *ev = &sl->ev;
	unsigned int i;

	*ev = ev_init;
	SET(*ev, timestamp, r->time_ns);
	SET(*ev, pid, r->pid);
	switch (r->event) {
	case LKST_EV_PROCESS_CONTEXTSWITCH: {
		Perfetto__Protos__SchedSwitchFtraceEvent m = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;

		snprintf(sl->s1, sizeof(sl->s1), "%s", kx_comm(t, c, a[0]));
		lkst_format_comm(a[4], a[5], sl->s2, sizeof(sl->s2));
		m.prev_comm = sl->s1;
		SET(m, prev_pid, a[0]);
		SET(m, prev_prio, kx_prio(t, c, a[0]));
		SET(m, prev_state, kx_report_state(a[2]));
		m.next_comm = sl->s2;
		SET(m, next_pid, a[1]);
		SET(m, next_prio, (int)(__s64)a[3]);
		sl->u.sw = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
		ev->sched_switch = &sl->u.sw;
		w->sched++;
		return 1;
	}
	case LKST_EV_PROCESS_WAKEUP: {
		Perfetto__Protos__SchedWakingFtraceEvent m = PERFETTO__PROTOS__SCHED_WAKING_FTRACE_EVENT__INIT;

		lkst_format_comm(a[4], a[5], sl->s1, sizeof(sl->s1));
		m.comm = sl->s1;
		SET(m, pid, a[0]);
		SET(m, prio, (int)(__s64)a[3]);
		SET(m, success, 1);
		SET(m, target_cpu, a[2]);
		sl->u.waking = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
		ev->sched_waking = &sl->u.waking;
		w->sched++;
		return 1;
	}
	case LKST_EV_PROCESS_WAKEUP_NEW: {
		Perfetto__Protos__SchedWakeupNewFtraceEvent m = PERFETTO__PROTOS__SCHED_WAKEUP_NEW_FTRACE_EVENT__INIT;

		lkst_format_comm(a[3], a[4], sl->s1, sizeof(sl->s1));
		m.comm = sl->s1;
		SET(m, pid, a[0]);
		SET(m, prio, (int)(__s64)a[2]);
		SET(m, success, 1);
		SET(m, target_cpu, a[1]);
		sl->u.wnew = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW;
		ev->sched_wakeup_new = &sl->u.wnew;
		w->sched++;
		return 1;
	}
	case LKST_EV_PROCESS_FORK: {
		Perfetto__Protos__SchedProcessForkFtraceEvent m = PERFETTO__PROTOS__SCHED_PROCESS_FORK_FTRACE_EVENT__INIT;

		snprintf(sl->s1, sizeof(sl->s1), "%s", kx_comm(t, c, a[0]));
		lkst_format_comm(a[4], a[5], sl->s2, sizeof(sl->s2));
		m.parent_comm = sl->s1;
		SET(m, parent_pid, a[0]);
		m.child_comm = sl->s2;
		SET(m, child_pid, a[1]);
		sl->u.fork = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK;
		ev->sched_process_fork = &sl->u.fork;
		w->sched++;
		return 1;
	}
	case LKST_EV_PROCESS_EXEC: {
		Perfetto__Protos__SchedProcessExecFtraceEvent m = PERFETTO__PROTOS__SCHED_PROCESS_EXEC_FTRACE_EVENT__INIT;

		/* lkst records the new command name, not the path. */
		lkst_format_comm(a[2], a[3], sl->s1, sizeof(sl->s1));
		m.filename = sl->s1;
		SET(m, pid, a[0]);
		SET(m, old_pid, a[1]);
		sl->u.exec = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXEC;
		ev->sched_process_exec = &sl->u.exec;
		w->sched++;
		return 1;
	}
	case LKST_EV_PROCESS_EXIT: {
		Perfetto__Protos__SchedProcessExitFtraceEvent m = PERFETTO__PROTOS__SCHED_PROCESS_EXIT_FTRACE_EVENT__INIT;

		lkst_format_comm(a[4], a[5], sl->s1, sizeof(sl->s1));
		m.comm = sl->s1;
		SET(m, pid, a[0]);
		SET(m, tgid, a[1]);
		SET(m, prio, kx_prio(t, c, a[0]));
		sl->u.exit = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT;
		ev->sched_process_exit = &sl->u.exit;
		w->sched++;
		return 1;
	}
	case LKST_EV_SYSCALL_ENTRY: {
		Perfetto__Protos__SysEnterFtraceEvent m = PERFETTO__PROTOS__SYS_ENTER_FTRACE_EVENT__INIT;

		SET(m, id, LKST_SYSCALL_NR(a[0]));
		/* arg5 comes in the SYSCALL_ENTRY_ARG5 record after it. */
		for (i = 1; i < LKST_NR_ARGS; i++)
			sl->args[i - 1] = a[i];
		m.n_args = LKST_NR_ARGS - 1;
		m.args = sl->args;
		sl->u.enter = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SYS_ENTER;
		ev->sys_enter = &sl->u.enter;
		w->syscalls++;
		return 1;
	}
	case LKST_EV_SYSCALL_EXIT: {
		Perfetto__Protos__SysExitFtraceEvent m = PERFETTO__PROTOS__SYS_EXIT_FTRACE_EVENT__INIT;

		SET(m, id, LKST_SYSCALL_NR(a[0]));
		SET(m, ret, (__s64)a[1]);
		sl->u.sysexit = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SYS_EXIT;
		ev->sys_exit = &sl->u.sysexit;
		w->syscalls++;
		return 1;
	}
	case LKST_EV_INT_HARDWARE_ENTRY: {
		Perfetto__Protos__IrqHandlerEntryFtraceEvent m = PERFETTO__PROTOS__IRQ_HANDLER_ENTRY_FTRACE_EVENT__INIT;

		kx_irq_name(t, a[1], sl->s1, sizeof(sl->s1));
		SET(m, irq, a[0]);
		m.name = sl->s1;
		sl->u.irq = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY;
		ev->irq_handler_entry = &sl->u.irq;
		w->irqs++;
		return 1;
	}
	case LKST_EV_INT_HARDWARE_EXIT: {
		Perfetto__Protos__IrqHandlerExitFtraceEvent m = PERFETTO__PROTOS__IRQ_HANDLER_EXIT_FTRACE_EVENT__INIT;

		SET(m, irq, a[0]);
		SET(m, ret, a[1]);
		sl->u.irqexit = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT;
		ev->irq_handler_exit = &sl->u.irqexit;
		w->irqs++;
		return 1;
	}
	case LKST_EV_INT_SOFTIRQ_ENTRY: {
		Perfetto__Protos__SoftirqEntryFtraceEvent m = PERFETTO__PROTOS__SOFTIRQ_ENTRY_FTRACE_EVENT__INIT;

		SET(m, vec, a[0]);
		sl->u.softirq = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY;
		ev->softirq_entry = &sl->u.softirq;
		w->irqs++;
		return 1;
	}
	case LKST_EV_INT_SOFTIRQ_EXIT: {
		Perfetto__Protos__SoftirqExitFtraceEvent m = PERFETTO__PROTOS__SOFTIRQ_EXIT_FTRACE_EVENT__INIT;

		SET(m, vec, a[0]);
		sl->u.softexit = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT;
		ev->softirq_exit = &sl->u.softexit;
		w->irqs++;
		return 1;
	}
	case LKST_EV_USER_MARK: {
		Perfetto__Protos__PrintFtraceEvent m = PERFETTO__PROTOS__PRINT_FTRACE_EVENT__INIT;
		char text[4 * LKST_NR_ARGS * 8 + 1];

		lkst_format_text(a, LKST_NR_ARGS, text, sizeof(text));
		snprintf(sl->text, sizeof(sl->text), "I|%u|%s\n", r->pid, text);
		m.buf = sl->text;
		sl->u.print = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
		ev->print = &sl->u.print;
		w->marks++;
		return 1;
	}
	case LKST_EV_INT_SOFTIRQ_RAISE: {
		Perfetto__Protos__SoftirqRaiseFtraceEvent m = PERFETTO__PROTOS__SOFTIRQ_RAISE_FTRACE_EVENT__INIT;

		SET(m, vec, a[0]);
		sl->u.raise = m;
		ev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_RAISE;
		ev->softirq_raise = &sl->u.raise;
		w->irqs++;
		return 1;
	}
	}
	return 0;
}

static int write_section(struct pf_writer *w, unsigned int index)
{
	const struct lkst_log_section *sec = lkst_log_get_section(w->x->log, index);
	unsigned int cpu = sec->info.cpu;
	struct lkst_trace_rec r;
	__u64 prev = ~0ull, lost, j, seen = 0;
	int pending = 0;
	struct kx_cpu c;

	kx_cpu_init(&c, cpu);
	lkst_trace_rewind_section(w->x->iter, index);
	for (j = 0; lkst_trace_next(w->x->iter, &r); j++) {
		lost = (j ? 0 : lkst_log_lost_before(sec)) + kx_gaps_since(sec, prev, r.index);
		prev = r.index;
		if (lost) {
			/* The bundle so far ends before the loss; the next one says it. */
			if (flush_bundle(w, cpu, pending))
				return -1;
			pending = 1;
			seen += lost;
		}
		if (!fill_event(w, &c, &w->slots[w->n], r.rec)) {
			w->left_out++;
		} else if (++w->n == BUNDLE_MAX) {
			if (flush_bundle(w, cpu, pending))
				return -1;
			pending = 0;
		}
		kx_cpu_record(&c, r.rec);
		if ((j & 0xffff) == 0xffff)
			lkst_export_step(w->x, 0x10000);
	}
	lkst_export_step(w->x, j & 0xffff);
	/* Lost after the last record: an empty bundle saying so ends the CPU's. */
	lost = lkst_log_lost_before(sec) + sec->info.lost;
	if (lost > seen) {
		if (flush_bundle(w, cpu, pending))
			return -1;
		pending = 1;
	}
	w->lost += lost;
	return flush_bundle(w, cpu, pending);
}

static int write_system_info(struct pf_writer *w)
{
	const struct lkst_log_header *h = lkst_log_get_header(w->x->log);
	Perfetto__Protos__SystemInfo info = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__Utsname uts = PERFETTO__PROTOS__UTSNAME__INIT;
	char release[sizeof(h->release) + 1];
	Packet p;

	snprintf(release, sizeof(release), "%.*s", (int)sizeof(h->release), h->release);
	uts.sysname = "Linux";
	uts.release = release;
	/* lkst's system-call events exist on x86-64 only. */
	if (w->has_syscalls)
		uts.machine = "x86_64";
	info.utsname = &uts;
	packet_init(&p);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO;
	p.system_info = &info;
	return put_packet(w, &p);
}

/* Without an anchor (a log that has none) there is no time of day to give. */
static int write_clock_snapshot(struct pf_writer *w)
{
	const struct lkst_log_header *h = lkst_log_get_header(w->x->log);
	Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__ClockSnapshot__Clock clocks[3], *ptrs[3];
	static const unsigned int ids[3] = { 6, 3, 1 };	/* BOOTTIME, MONOTONIC, REALTIME */
	unsigned int i;
	Packet p;

	if (!h->anchor_realtime_ns)
		return 0;
	for (i = 0; i < 3; i++) {
		Perfetto__Protos__ClockSnapshot__Clock c = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;

		SET(c, clock_id, ids[i]);
		SET(c, timestamp, i < 2 ? h->anchor_trace_ns : h->anchor_realtime_ns);
		clocks[i] = c;
		ptrs[i] = &clocks[i];
	}
	snap.n_clocks = 3;
	snap.clocks = ptrs;
	packet_init(&p);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
	p.clock_snapshot = &snap;
	return put_packet(w, &p);
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static int write_process_tree(struct pf_writer *w)
{
	Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Thread *th = NULL, **thp = NULL;
	Perfetto__Protos__ProcessTree__Process *pr = NULL, **prp = NULL;
	size_t nr = w->tasks.nr, i, np = 0;
	char **cmd = NULL;
	__u32 *tgids = NULL;
	Packet p;
	int ret = -1;

	th = calloc(nr + 1, sizeof(*th));
	thp = calloc(nr + 1, sizeof(*thp));
	pr = calloc(nr + 1, sizeof(*pr));
	prp = calloc(nr + 1, sizeof(*prp));
	cmd = calloc(nr + 1, sizeof(*cmd));
	tgids = calloc(nr + 1, sizeof(*tgids));
	if (!th || !thp || !pr || !prp || !cmd || !tgids) {
		out_of_memory(w);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		const struct kx_task *e = &w->tasks.ent[i];
		Perfetto__Protos__ProcessTree__Thread init = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;

		th[i] = init;
		SET(th[i], tid, e->pid);
		SET(th[i], tgid, kx_tgid(&w->tasks, e->pid));
		if (e->comm[0])
			th[i].name = (char *)e->comm;
		thp[i] = &th[i];
		tgids[i] = kx_tgid(&w->tasks, e->pid);
	}
	qsort(tgids, nr, sizeof(*tgids), cmp_u32);
	for (i = 0; i < nr; i++) {
		Perfetto__Protos__ProcessTree__Process init = PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
		const struct kx_task *leader;

		if (i && tgids[i] == tgids[i - 1])
			continue;
		pr[np] = init;
		SET(pr[np], pid, tgids[i]);
		/* Named by its main thread, as Perfetto names a process by its comm. */
		leader = kx_task_find(&w->tasks, tgids[i]);
		if (leader && leader->comm[0]) {
			cmd[np] = (char *)leader->comm;
			pr[np].n_cmdline = 1;
			pr[np].cmdline = &cmd[np];
			SET(pr[np], cmdline_is_comm, 1);
		}
		prp[np] = &pr[np];
		np++;
	}
	tree.n_threads = nr;
	tree.threads = thp;
	tree.n_processes = np;
	tree.processes = prp;
	packet_init(&p);
	SET(p, timestamp, w->first_ns);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	p.process_tree = &tree;
	ret = put_packet(w, &p);
out:
	free(th);
	free(thp);
	free(pr);
	free(prp);
	free(cmd);
	free(tgids);
	return ret;
}

static int write_stats(struct pf_writer *w)
{
	const struct lkst_log *log = w->x->log;
	Perfetto__Protos__FtraceStats stats = PERFETTO__PROTOS__FTRACE_STATS__INIT;
	Perfetto__Protos__FtraceCpuStats *cs, **csp;
	unsigned int s;
	Packet p;
	int ret;

	cs = calloc(lkst_log_nr_sections(log) + 1, sizeof(*cs));
	csp = calloc(lkst_log_nr_sections(log) + 1, sizeof(*csp));
	if (!cs || !csp) {
		free(cs);
		free(csp);
		return out_of_memory(w);
	}
	for (s = 0; s < lkst_log_nr_sections(log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(log, s);
		Perfetto__Protos__FtraceCpuStats init = PERFETTO__PROTOS__FTRACE_CPU_STATS__INIT;

		cs[s] = init;
		SET(cs[s], cpu, sec->info.cpu);
		SET(cs[s], entries, sec->info.nr_records);
		SET(cs[s], overrun, lkst_log_lost_before(sec) + sec->info.lost);
		SET(cs[s], dropped_events, sec->info.dropped);
		SET(cs[s], read_events, sec->info.nr_records);
		csp[s] = &cs[s];
	}
	SET(stats, phase, PERFETTO__PROTOS__FTRACE_STATS__PHASE__END_OF_TRACE);
	stats.n_cpu_stats = lkst_log_nr_sections(log);
	stats.cpu_stats = csp;
	packet_init(&p);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_STATS;
	p.ftrace_stats = &stats;
	ret = put_packet(w, &p);
	free(cs);
	free(csp);
	return ret;
}

/* The first record's time, and whether any is a system call. */
static void scan(struct pf_writer *w)
{
	const struct lkst_log *log = w->x->log;
	unsigned int s;
	__u64 j;

	w->first_ns = ~0ull;
	for (s = 0; s < lkst_log_nr_sections(log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(log, s);

		for (j = 0; j < sec->info.nr_records; j++) {
			const struct lkst_record *r = &sec->records[j];

			if (r->time_ns < w->first_ns)
				w->first_ns = r->time_ns;
			if (r->event == LKST_EV_SYSCALL_ENTRY || r->event == LKST_EV_SYSCALL_EXIT)
				w->has_syscalls = 1;
		}
	}
	if (w->first_ns == ~0ull)
		w->first_ns = 0;
}

int lkst_export_perfetto(struct lkst_export *x, const char *path, struct lkst_err *err)
{
	struct pf_writer w;
	unsigned int s, i;
	struct outfile of;
	int ret = -1;

	memset(&w, 0, sizeof(w));
	w.x = x;
	w.path = path;
	w.err = err;
	w.slots = calloc(BUNDLE_MAX, sizeof(*w.slots));
	w.events = calloc(BUNDLE_MAX, sizeof(*w.events));
	if (!w.slots || !w.events) {
		out_of_memory(&w);
		goto out;
	}
	for (i = 0; i < BUNDLE_MAX; i++)
		w.events[i] = &w.slots[i].ev;
	if (kx_tasks_build(&w.tasks, x->trace, err))
		goto out;
	scan(&w);
	x->work = x->records;
	/* Written in order: a device or a FIFO is written through. */
	if (strcmp(path, "-")) {
		if (outfile_resolve(&of, path, "the Perfetto trace", 0, err))
			goto out;
		outfile_free(&of);
	}
	w.out = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (!w.out) {
		lkst_seterr(err, "cannot create %s: %s; check the path", path, strerror(errno));
		goto out;
	}
	if (write_system_info(&w) || write_clock_snapshot(&w) || write_process_tree(&w))
		goto out;
	for (s = 0; s < lkst_log_nr_sections(x->log); s++)
		if (write_section(&w, s))
			goto out;
	if (write_stats(&w))
		goto out;
	if (fflush(w.out) || ferror(w.out)) {
		lkst_seterr(err, "cannot write %s: %s; check the space and permissions there",
			    path, strerror(errno ? errno : EIO));
		goto out;
	}
	x->written = w.sched + w.syscalls + w.irqs + w.marks;
	snprintf(x->summary, sizeof(x->summary),
		 "%llu scheduling events, %llu system calls, %llu interrupt events, %llu marks, "
		 "%zu threads; %llu records without an ftrace event left out; "
		 "%llu records lost (lost_events)",
		 w.sched, w.syscalls, w.irqs, w.marks, w.tasks.nr, w.left_out, w.lost);
	ret = 0;
out:
	if (w.out && w.out != stdout && fclose(w.out) && !ret) {
		lkst_seterr(err, "cannot write %s: %s; check the space and permissions there",
			    path, strerror(errno));
		ret = -1;
	}
	kx_tasks_free(&w.tasks);
	free(w.slots);
	free(w.events);
	free(w.buf);
	return ret;
}
