// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf convert --to ctf --layout lttng: the CTF trace in the layout of
 * lttng-modules, which Trace Compass's LTTng kernel analysis reads (its
 * Control Flow, Resources and CPU usage views).
 *
 * Trace Compass takes a CTF trace of env domain "kernel" as an LTTng
 * kernel trace and picks its event layout by env tracer_name and
 * tracer_major/minor (LttngKernelTrace): lttng-modules 2.9 on is
 * Lttng29EventLayout, whose names these are (sched_waking from 2.8,
 * irq_softirq_* and syscall_entry_<name> from 2.6/2.7).  Fields carry
 * lttng-modules' names and meanings (include/instrumentation/events/
 * sched.h and irq.h there): tids, priorities as p->prio - MAX_RT_PRIO,
 * prev_state as __trace_sched_switch_state() reports it.  The event
 * context is LTTng's _tid and _pid (the tgid), which Trace Compass's
 * ContextTidAspect and ContextPidAspect read (not _procname: no view
 * reads it, and a name per event made the trace a fifth bigger), and
 * lkst's _context.  Events LTTng has no name for keep lkst's class.
 *
 * What lkst's records do not carry comes from the records around them
 * (lkst_export_kernel.c): a switched-out task's name and priority are the
 * ones it was switched in with on that CPU (the trace's knowledge of it
 * before its first switch there), a parent's tgid and an IRQ's name (its
 * handler's symbol) likewise; an exec's filename is the new command name.
 */
#include "lkst_export_ctf_int.h"
#include "lkst_export_kernel.h"
#include "lkst_sysnames.h"
#include "lkst_logio_int.h"

#define LTTNG_PRIO(p)		((p) - 100)	/* MAX_RT_PRIO */
#define SYSCALL_ID_BASE		0x10000u	/* after every record event ID */

/* A system call seen: its number and ABI (lkst's SYSNR argument). */
struct lt_syscall {
	__u64 key;			/* abi << 32 | (u32)nr */
};

struct ctf_lttng {
	struct kx_tasks tasks;
	struct kx_cpu cpu;		/* of the stream being written */
	struct lt_syscall *sys;		/* sorted by key */
	size_t nr_sys;
};

/* The events LTTng names: their class in the metadata. */
static const struct lt_class {
	__u16 event;
	const char *name;
	const char *fields;
} classes[] = {
	{ LKST_EV_PROCESS_CONTEXTSWITCH, "sched_switch",
	  "string _prev_comm; int32_t _prev_tid; int32_t _prev_prio; int64_t _prev_state; "
	  "string _next_comm; int32_t _next_tid; int32_t _next_prio;" },
	{ LKST_EV_PROCESS_WAKEUP, "sched_waking",
	  "string _comm; int32_t _tid; int32_t _prio; int32_t _target_cpu;" },
	{ LKST_EV_PROCESS_WAKEUP_NEW, "sched_wakeup_new",
	  "string _comm; int32_t _tid; int32_t _prio; int32_t _target_cpu;" },
	{ LKST_EV_PROCESS_FORK, "sched_process_fork",
	  "string _parent_comm; int32_t _parent_tid; int32_t _parent_pid; "
	  "string _child_comm; int32_t _child_tid; int32_t _child_pid;" },
	{ LKST_EV_PROCESS_EXEC, "sched_process_exec",
	  "string _filename; int32_t _tid; int32_t _old_tid;" },
	{ LKST_EV_PROCESS_EXIT, "sched_process_exit",
	  "string _comm; int32_t _tid; int32_t _prio;" },
	{ LKST_EV_INT_HARDWARE_ENTRY, "irq_handler_entry", "int32_t _irq; string _name;" },
	{ LKST_EV_INT_HARDWARE_EXIT, "irq_handler_exit", "int32_t _irq; int32_t _ret;" },
	{ LKST_EV_INT_SOFTIRQ_ENTRY, "irq_softirq_entry", "uint32_t _vec;" },
	{ LKST_EV_INT_SOFTIRQ_EXIT, "irq_softirq_exit", "uint32_t _vec;" },
	{ LKST_EV_INT_SOFTIRQ_RAISE, "irq_softirq_raise", "uint32_t _vec;" },
};

#define NR_CLASSES	(sizeof(classes) / sizeof(classes[0]))

static const struct lt_class *lt_class_of(unsigned int event)
{
	unsigned int i;

	for (i = 0; i < NR_CLASSES; i++)
		if (classes[i].event == event)
			return &classes[i];
	return NULL;
}

static __u64 sys_key(__u64 value)
{
	return (__u64)LKST_SYSCALL_ABI(value) << 32 | (__u32)LKST_SYSCALL_NR(value);
}

static int cmp_key(const void *a, const void *b)
{
	__u64 x = ((const struct lt_syscall *)a)->key, y = ((const struct lt_syscall *)b)->key;

	return x < y ? -1 : x > y;
}

static int is_syscall(unsigned int event)
{
	return event == LKST_EV_SYSCALL_ENTRY || event == LKST_EV_SYSCALL_EXIT;
}

/* The system calls the records name, each once, sorted. */
static int find_syscalls(struct ctf_lttng *lt, const struct lkst_log *log)
{
	size_t cap = 0;
	unsigned int s;

	for (s = 0; s < log->nr_sections; s++) {
		const struct lkst_log_section *sec = &log->sections[s];
		__u64 j;

		for (j = 0; j < sec->info.nr_records; j++) {
			const struct lkst_record *r = &sec->records[j];
			struct lt_syscall key;
			size_t lo = 0, hi = lt->nr_sys, mid;

			if (!is_syscall(r->event))
				continue;
			key.key = sys_key(r->arg[0]);
			while (lo < hi) {
				mid = (lo + hi) / 2;
				if (lt->sys[mid].key < key.key)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < lt->nr_sys && lt->sys[lo].key == key.key)
				continue;
			if (lt->nr_sys == cap) {
				struct lt_syscall *p;

				cap = cap ? cap * 2 : 256;
				p = realloc(lt->sys, cap * sizeof(*p));
				if (!p)
					return -1;
				lt->sys = p;
			}
			memmove(lt->sys + lo + 1, lt->sys + lo, (lt->nr_sys - lo) * sizeof(*lt->sys));
			lt->sys[lo] = key;
			lt->nr_sys++;
		}
	}
	return 0;
}

/* The class ID of system call value's entry (+1: exit). */
static unsigned int syscall_id(const struct ctf_lttng *lt, __u64 value)
{
	struct lt_syscall key = { sys_key(value) }, *e;

	e = bsearch(&key, lt->sys, lt->nr_sys, sizeof(*lt->sys), cmp_key);
	return SYSCALL_ID_BASE + 2 * (e ? e - lt->sys : 0);
}

int ctf_lttng_new(struct ctf_writer *w)
{
	struct ctf_lttng *lt = calloc(1, sizeof(*lt));

	if (!lt || find_syscalls(lt, w->x->log)) {
		if (lt)
			free(lt->sys);
		free(lt);
		lkst_seterr(w->err, "out of memory; free some memory");
		return -1;
	}
	if (kx_tasks_build(&lt->tasks, w->x->trace, w->err)) {
		free(lt->sys);
		free(lt);
		return -1;
	}
	w->lttng = lt;
	return 0;
}

void ctf_lttng_free(struct ctf_writer *w)
{
	if (!w->lttng)
		return;
	kx_tasks_free(&w->lttng->tasks);
	free(w->lttng->sys);
	free(w->lttng);
	w->lttng = NULL;
}

void ctf_lttng_stream(struct ctf_writer *w, unsigned int cpu)
{
	kx_cpu_init(&w->lttng->cpu, cpu);
}

static void put_comm(struct ctf_stream *s, __u64 a, __u64 b)
{
	char comm[KX_COMM_LEN];

	lkst_format_comm(a, b, comm, sizeof(comm));
	put_string(s, comm);
}

void ctf_lttng_event(struct ctf_writer *w, struct ctf_stream *s, const struct lkst_record *r)
{
	struct ctf_lttng *lt = w->lttng;
	const struct kx_tasks *t = &lt->tasks;
	struct kx_cpu *c = &lt->cpu;
	char name[KX_COMM_LEN];
	const __u64 *a = r->arg;
	unsigned int i;

	/* Event header and context. */
	if (r->event == LKST_EV_SYSCALL_ENTRY)
		PUT(s, __u32, syscall_id(lt, a[0]));
	else if (r->event == LKST_EV_SYSCALL_EXIT)
		PUT(s, __u32, syscall_id(lt, a[0]) + 1);
	else
		PUT(s, __u32, r->event);
	PUT(s, __u64, r->time_ns);
	PUT(s, __s32, r->pid);
	PUT(s, __s32, kx_tgid(t, r->pid));
	PUT(s, __u8, r->context);

	switch (r->event) {
	case LKST_EV_PROCESS_CONTEXTSWITCH:
		put_string(s, kx_comm(t, c, a[0]));
		PUT(s, __s32, a[0]);
		PUT(s, __s32, LTTNG_PRIO(kx_prio(t, c, a[0])));
		PUT(s, __s64, kx_report_state(a[2]));
		put_comm(s, a[4], a[5]);
		PUT(s, __s32, a[1]);
		PUT(s, __s32, LTTNG_PRIO((int)(__s64)a[3]));
		break;
	case LKST_EV_PROCESS_WAKEUP:
		put_comm(s, a[4], a[5]);
		PUT(s, __s32, a[0]);
		PUT(s, __s32, LTTNG_PRIO((int)(__s64)a[3]));
		PUT(s, __s32, a[2]);
		break;
	case LKST_EV_PROCESS_WAKEUP_NEW:
		put_comm(s, a[3], a[4]);
		PUT(s, __s32, a[0]);
		PUT(s, __s32, LTTNG_PRIO((int)(__s64)a[2]));
		PUT(s, __s32, a[1]);
		break;
	case LKST_EV_PROCESS_FORK:
		put_string(s, kx_comm(t, c, a[0]));
		PUT(s, __s32, a[0]);
		PUT(s, __s32, kx_tgid(t, a[0]));
		put_comm(s, a[4], a[5]);
		PUT(s, __s32, a[1]);
		PUT(s, __s32, a[2]);
		break;
	case LKST_EV_PROCESS_EXEC:
		put_comm(s, a[2], a[3]);
		PUT(s, __s32, a[0]);
		PUT(s, __s32, a[1]);
		break;
	case LKST_EV_PROCESS_EXIT:
		put_comm(s, a[4], a[5]);
		PUT(s, __s32, a[0]);
		PUT(s, __s32, LTTNG_PRIO(kx_prio(t, c, a[0])));
		break;
	case LKST_EV_INT_HARDWARE_ENTRY:
		PUT(s, __s32, a[0]);
		kx_irq_name(t, a[1], name, sizeof(name));
		put_string(s, name);
		break;
	case LKST_EV_INT_HARDWARE_EXIT:
		PUT(s, __s32, a[0]);
		PUT(s, __s32, a[1]);
		break;
	case LKST_EV_INT_SOFTIRQ_ENTRY:
	case LKST_EV_INT_SOFTIRQ_EXIT:
	case LKST_EV_INT_SOFTIRQ_RAISE:
		PUT(s, __u32, a[0]);
		break;
	case LKST_EV_SYSCALL_ENTRY:
		/* A call without a name is syscall_entry_unknown: its number first. */
		if (!lkst_syscall_name(LKST_SYSCALL_ABI(a[0]), LKST_SYSCALL_NR(a[0])))
			PUT(s, __s32, LKST_SYSCALL_NR(a[0]));
		for (i = 1; i < LKST_NR_ARGS; i++)
			PUT(s, __u64, a[i]);
		break;
	case LKST_EV_SYSCALL_EXIT:
		if (!lkst_syscall_name(LKST_SYSCALL_ABI(a[0]), LKST_SYSCALL_NR(a[0])))
			PUT(s, __s32, LKST_SYSCALL_NR(a[0]));
		PUT(s, __s64, a[1]);
		break;
	default:
		ctf_put_fields(s, ctf_class_of(w, r->event), r);
		break;
	}
	kx_cpu_record(c, r);
}

/* ---- Metadata ------------------------------------------------------- */

void ctf_lttng_env(FILE *out, const struct ctf_writer *w)
{
	(void)w;
	/* What Trace Compass reads to pick Lttng29EventLayout. */
	fprintf(out, "\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n"
		"\ttracer_minor = 13;\n\ttracer_patchlevel = 0;\n"
		"\tsysname = \"Linux\";\n"
		"\tlkst_converted_by = \"lkbuf convert --layout lttng\";\n");
}

static void put_lt_class(FILE *out, const char *name, const char *desc, unsigned int id,
			 const char *fields)
{
	fprintf(out, "\nevent {\n");
	if (desc)
		ctf_put_comment(out, desc);
	fprintf(out, "\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n", name, id);
	if (fields[0])
		fprintf(out, "\tfields := struct { %s };\n", fields);
	fprintf(out, "};\n");
}

int ctf_lttng_class(FILE *out, const struct ctf_writer *w, unsigned int id)
{
	const struct lt_class *c = lt_class_of(id);
	unsigned int i;

	(void)w;
	if (is_syscall(id))
		return 1;	/* a class per call: ctf_lttng_syscall_classes() */
	if (!c)
		return 0;
	for (i = 0; i < lkst_nr_events; i++)
		if (lkst_events[i].id == id)
			break;
	put_lt_class(out, c->name, i < lkst_nr_events ? lkst_events[i].description : NULL,
		     id, c->fields);
	return 1;
}

void ctf_lttng_syscall_classes(FILE *out, const struct ctf_writer *w)
{
	const struct ctf_lttng *lt = w->lttng;
	char name[96];
	size_t i;

	for (i = 0; i < lt->nr_sys; i++) {
		unsigned int abi = lt->sys[i].key >> 32;
		int nr = (__s32)(__u32)lt->sys[i].key;
		const char *call = lkst_syscall_name(abi, nr);
		const char *compat = abi == LKST_SYSCALL_ABI_IA32 ? "compat_" : "";
		unsigned int id = SYSCALL_ID_BASE + 2 * i;

		snprintf(name, sizeof(name), "%ssyscall_entry_%s", compat, call ? call : "unknown");
		/* Calls without a name share their ABI's unknown class name, each with its id. */
		put_lt_class(out, name, NULL, id, call ?
			     "hex64_t _arg0; hex64_t _arg1; hex64_t _arg2; hex64_t _arg3; hex64_t _arg4;" :
			     "int32_t _id; hex64_t _arg0; hex64_t _arg1; hex64_t _arg2; hex64_t _arg3; hex64_t _arg4;");
		snprintf(name, sizeof(name), "%ssyscall_exit_%s", compat, call ? call : "unknown");
		put_lt_class(out, name, NULL, id + 1, call ? "int64_t _ret;" : "int32_t _id; int64_t _ret;");
	}
}
