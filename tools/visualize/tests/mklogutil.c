// SPDX-License-Identifier: GPL-2.0
/*
 * Record builders and the writer of the test log makers (mklogutil.h).
 */
#include <string.h>

#include "mklogutil.h"

void set_comm(struct lkst_record *r, const char *comm)
{
	char bytes[16] = { 0 };

	memcpy(bytes, comm, strnlen(comm, sizeof(bytes)));
	memcpy(&r->arg[4], bytes, 8);
	memcpy(&r->arg[5], bytes + 8, 8);
}

struct lkst_record sw(unsigned long long t, unsigned int prev,
		      unsigned int next, unsigned long long state,
		      const char *comm)
{
	struct lkst_record r = { .time_ns = t, .pid = prev,
				 .event = LKST_EV_PROCESS_CONTEXTSWITCH };

	r.arg[0] = prev;
	r.arg[1] = next;
	r.arg[2] = state;
	r.arg[3] = 120;
	set_comm(&r, comm);
	return r;
}

int write_two_cpus(const char *progname, int argc, char **argv,
		   struct lkst_record *cpu0, size_t n0,
		   struct lkst_record *cpu1, size_t n1)
{
	struct lkst_log_cpu c0 = { .cpu = 0, .nr_records = n0, .written = n0 };
	struct lkst_log_cpu c1 = { .cpu = 1, .nr_records = n1, .written = n1 };
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_err err;

	lkst_progname = progname;
	if (argc != 2)
		lkst_die(1, "usage: %s FILE", progname);
	lkst_log_header_init(&h);
	h.nr_cpus = 2;
	if (!(w = lkst_log_create(argv[1], &h, &err)) ||
	    lkst_log_write_cpu(w, &c1, cpu1, &err) ||
	    lkst_log_write_cpu(w, &c0, cpu0, &err) ||
	    lkst_log_commit(w, &err))
		lkst_die(1, "%s", err.msg);
	return 0;
}
