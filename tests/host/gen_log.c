// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a synthetic lkst log for the print benchmark and the fuzz seed:
 * gen_log FILE RECORDS [CPUS [NAMES]].  Each CPU gets a time-ordered mix of
 * context switches, wakeups, system call entries and exits, and a few
 * USER_MARKs.  NAMES 1: saved task names (LKST_META_TASKS) for pids 100-109.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_logio.h"

static void set_comm(struct lkst_record *r, unsigned int index, const char *comm)
{
	char bytes[16] = { 0 };

	memcpy(bytes, comm, strnlen(comm, 16));
	memcpy(&r->arg[index], bytes, 8);
	memcpy(&r->arg[index + 1], bytes + 8, 8);
}

static void make_record(struct lkst_record *r, unsigned long long i, unsigned int cpu)
{
	static const char *const comms[] = { "bash", "lkw-spin1", "kworker/0:1", "sshd" };
	unsigned int pid = 100 + (i * 7 + cpu) % 50;

	memset(r, 0, sizeof(*r));
	r->time_ns = 1000000000ull + i * 1000 + cpu * 3;
	r->pid = pid;
	r->context = i % 11 == 0 ? LKST_CTX_IRQ : LKST_CTX_TASK;
	switch (i % 8) {
	case 0:
		r->event = LKST_EV_PROCESS_CONTEXTSWITCH;
		r->arg[0] = pid;
		r->arg[1] = pid + 1;
		r->arg[2] = i % 3 ? 0x2001 : 0;
		r->arg[3] = 120;
		set_comm(r, 4, comms[i % 4]);
		break;
	case 1:
		r->event = LKST_EV_PROCESS_WAKEUP;
		r->arg[0] = pid + 2;
		r->arg[1] = 1;
		r->arg[2] = cpu;
		r->arg[3] = 120;
		set_comm(r, 4, comms[(i / 8) % 4]);
		break;
	case 7:
		if (i % 1024 == 7) {
			r->event = LKST_EV_USER_MARK;
			memcpy(r->arg, "benchmark mark, 8 bytes per argument", 37);
			break;
		}
		/* fall through */
	case 2: case 4: case 6:
		r->event = LKST_EV_SYSCALL_ENTRY;
		r->arg[0] = i % 300;
		r->arg[1] = 0x7ffc12345678ull + i;
		r->arg[2] = 4096;
		r->arg[3] = 3;
		break;
	default:
		r->event = LKST_EV_SYSCALL_EXIT;
		r->arg[0] = i % 300;
		r->arg[1] = i % 5 ? i % 4096 : (unsigned long long)-11;
		break;
	}
}

int main(int argc, char **argv)
{
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_log_cpu c;
	struct lkst_record *recs;
	struct lkst_err err;
	unsigned long long n, per, i;
	unsigned int cpus, cpu, pid;
	struct lkst_tasks *names = lkst_tasks_new(NULL);
	char name[16];

	if (argc < 3) {
		fprintf(stderr, "usage: gen_log FILE RECORDS [CPUS [NAMES]]\n");
		return 1;
	}
	n = strtoull(argv[2], NULL, 0);
	cpus = argc > 3 ? strtoul(argv[3], NULL, 0) : 2;
	if (!cpus)
		cpus = 1;
	per = n / cpus;
	recs = calloc(per ? per : 1, sizeof(*recs));
	if (!recs)
		return 1;
	lkst_log_header_init(&h);
	h.nr_cpus = cpus;
	h.anchor_trace_ns = 1000000000ull;
	h.anchor_realtime_ns = 1700000000ull * 1000000000ull;	/* 2023-11-14 22:13:20 UTC */
	if (!(w = lkst_log_create(argv[1], &h, &err))) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (cpu = 0; cpu < cpus; cpu++) {
		for (i = 0; i < per; i++)
			make_record(&recs[i], i * cpus + cpu, cpu);
		memset(&c, 0, sizeof(c));
		c.cpu = cpu;
		c.nr_records = per;
		c.written = per;
		if (lkst_log_write_cpu(w, &c, recs, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
	}
	for (pid = 100; argc > 4 && atoi(argv[4]) && pid < 110; pid++) {
		snprintf(name, sizeof(name), "gen-%u", pid);
		if (lkst_tasks_put(names, pid, 100, name, 0, &err))
			break;
	}
	if (lkst_log_add_tasks(w, names, &err) || lkst_log_commit(w, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	lkst_tasks_free(names);
	free(recs);
	return 0;
}
