// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --where EXPR over a log's records: lkm filter's compiler, the kernel's
 * evaluator (lkst_filter.h), fields from the record.  See lkst_where.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkst_pred.h"
#include "lkst_where.h"

struct where_prog {
	__u32 nr_insns;
	struct lkst_filter_insn insns[LKST_FILTER_MAX_INSNS];
};

struct lkst_where {
	int needs_comm;
	struct where_prog prog[LKST_NR_EVENT_IDS];
};

/* What lkst_filter_field() reads in the kernel, read from a record. */
struct where_ctx {
	const struct lkst_record *rec;
	unsigned int cpu;
	__u64 comm[2];
};

static __u64 where_field(unsigned int id, const void *p)
{
	const struct where_ctx *c = p;

	switch (id) {
	case LKST_FF_PID:
		return c->rec->pid;
	case LKST_FF_CPU:
		return c->cpu;
	case LKST_FF_CONTEXT:
		return c->rec->context;
	case LKST_FF_COMM_LO:
		return c->comm[0];
	case LKST_FF_COMM_HI:
		return c->comm[1];
	default:	/* lkst_where_new() refused TGID and CGROUP */
		return c->rec->arg[id - LKST_FF_ARG1];
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The inverse of lkst_format_comm(): "\xNN" is byte NN, the rest as is. */
void lkst_where_comm_bytes(const char *escaped, unsigned char bytes[16])
{
	size_t n = 0;
	int hi, lo;

	memset(bytes, 0, 16);
	while (escaped && *escaped && n < 16) {
		if (escaped[0] == '\\' && escaped[1] == 'x' &&
		    (hi = hexval(escaped[2])) >= 0 && (lo = hexval(escaped[3])) >= 0) {
			bytes[n++] = (unsigned char)(hi << 4 | lo);
			escaped += 4;
		} else {
			bytes[n++] = (unsigned char)*escaped++;
		}
	}
}

struct lkst_where *lkst_where_new(const char *text, struct lkst_err *err)
{
	struct lkst_filter_prog *prog = malloc(sizeof(*prog));
	struct lkst_where *w;
	unsigned int ev, i;
	size_t errpos;

	w = calloc(1, sizeof(*w));
	if (!w || !prog) {
		lkst_seterr(err, "out of memory; free some memory");
		goto fail;
	}
	/* Only signedness depends on the event: an error is any event's. */
	for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
		if (lkst_pred_compile(text, ev, prog, &errpos, err)) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			lkst_seterr(err, "--where '%s': %s at offset %zu", text, msg, errpos);
			goto fail;
		}
		for (i = 0; i < prog->nr_insns; i++) {
			const struct lkst_filter_insn *in = &prog->insns[i];

			if (in->op != LKST_FOP_TEST)
				continue;
			if (in->field == LKST_FF_TGID || in->field == LKST_FF_CGROUP) {
				lkst_seterr(err, "--where '%s': %s is not in a log (records keep the thread's pid, not its process ID or cgroup); use pid, comm, cpu, ctx or arg1..arg6",
					    text, in->field == LKST_FF_TGID ? "tgid" : "cgroup");
				goto fail;
			}
			if (in->field == LKST_FF_COMM_LO || in->field == LKST_FF_COMM_HI)
				w->needs_comm = 1;
		}
		w->prog[ev].nr_insns = prog->nr_insns;
		memcpy(w->prog[ev].insns, prog->insns, sizeof(prog->insns));
	}
	free(prog);
	return w;
fail:
	free(prog);
	free(w);
	return NULL;
}

void lkst_where_free(struct lkst_where *w)
{
	free(w);
}

int lkst_where_needs_comm(const struct lkst_where *w)
{
	return w && w->needs_comm;
}

int lkst_where_match(const struct lkst_where *w, const struct lkst_record *rec,
		     unsigned int cpu, const char *comm)
{
	struct where_ctx c = { .rec = rec, .cpu = cpu };
	const struct where_prog *p;
	unsigned char bytes[16];

	if (rec->event >= LKST_NR_EVENT_IDS)
		return 0;
	p = &w->prog[rec->event];
	if (w->needs_comm) {
		lkst_where_comm_bytes(comm, bytes);
		memcpy(c.comm, bytes, sizeof(c.comm));
	}
	return lkst_filter_eval(p->insns, p->nr_insns, where_field, &c);
}
