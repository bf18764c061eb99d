// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lkbuf convert --to json, the writing half: the tracks
 * lkst_export_json.c collected, as Chrome trace JSON.  The order makes
 * Perfetto bind each flow to the right slice when timestamps tie: flow
 * ends, then slices, then flow starts (a start binds to the slice open
 * at its time, an end to the next slice that begins).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst_export_json_int.h"
#include "lkst_format.h"
#include "lkst_logio_int.h"
#include "lkst_outfile.h"

/* Softirq vectors as the kernel names them (include/linux/interrupt.h). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

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
	char name[KX_COMM_LEN + 16];
	int cpus = 0;
	unsigned int s;
	size_t i;

	for (i = 0; i < j->threads.nr; i++) {
		struct thread *t = &j->threads.threads[i];
		__u32 tgid = json_tgid(j, t->tid);
		struct thread *leader = json_find_thread(&j->threads, tgid);
		const char *comm = json_comm(j, t->tid), *lcomm = json_comm(j, tgid);

		if (!t->used)
			continue;
		/*
		 * A process is named once, after its leader, else after this
		 * thread; the viewers name what has no name by its ID.
		 */
		if (leader && !leader->process_named &&
		    (lcomm[0] || comm[0])) {
			put_name(out, j, "process_name", tgid, tgid, lcomm[0] ? lcomm : comm);
			leader->process_named = 1;
		}
		if (comm[0])
			put_name(out, j, "thread_name", tgid, t->tid, comm);
		if (t->used & USED_SYSCALLS) {
			if (comm[0])
				snprintf(name, sizeof(name), "%s syscalls", comm);
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
			put_event(out, j, "f", "wakeup", "wakeup", json_tgid(j, f->to), f->to);
		else if (f->from_cpu)
			put_event(out, j, "s", "wakeup", "wakeup", cpu_pid(j),
				  cpu_pid(j) + j->cpus[f->from].cpu);
		else
			put_event(out, j, "s", "wakeup", "wakeup", json_tgid(j, f->from), f->from);
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
				  json_tgid(j, t->pid), t->pid);
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
	put_event(out, j, "X", name, "syscall", json_tgid(j, s->track), j->base + s->track);
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
		fputs(in->missing_file ? ",\"cause\":\"in no file given: a file of the set is missing\"}}" :
		      ",\"cause\":\"overwritten before they were read\"}}", out);
		return;
	}
	if (!in->mark) {
		syscall_name(in->sc_nr, text, sizeof(text));
		put_event(out, j, "i", text, "syscall", json_tgid(j, in->pid), j->base + in->pid);
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
		put_event(out, j, "i", text, "mark", json_tgid(j, in->pid), in->pid);
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


/*
 * Writes to path ("-": standard output).  A regular file left half
 * written by an error is removed; a device such as /dev/full is not.
 */
int json_write(struct json_export *j, const char *path)
{
	int to_stdout = !strcmp(path, "-"), failed, errnum;
	struct outfile of = { 0 };
	FILE *out;

	/* Written in order: a device or a FIFO is written through. */
	if (!to_stdout && outfile_resolve(&of, path, "the JSON trace", 0, j->err))
		return -1;
	out = to_stdout ? stdout : fopen(path, "we");
	if (!out) {
		lkst_seterr(j->err, "cannot create %s: %s; check the path and permissions",
			    path, strerror(errno));
		outfile_free(&of);
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
	if (failed) {
		/* The half-written file goes (a link's target, not the link). */
		if (!to_stdout && of.kind == OUTFILE_REPLACE)
			unlink(of.target);
		lkst_seterr(j->err, "cannot write %s: %s; check the space left there",
			    to_stdout ? "the JSON trace" : path, strerror(errnum ? errnum : EIO));
	}
	outfile_free(&of);
	return failed ? -1 : 0;
}
