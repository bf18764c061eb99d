// SPDX-License-Identifier: GPL-2.0
/*
 * Log and CSV input of lkst-procstate.  Only PROCESS_CONTEXTSWITCH and
 * PROCESS_WAKEUP records are kept; everything else is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "evarray.h"
#include "input.h"
#include "lkst_format.h"
#include "lkst_logio.h"

static int push_event(struct ps_events *e, const struct ps_event *ev,
		      struct lkst_err *err)
{
	struct ps_event *p = viz_grow(e->ev, e->count, &e->cap, sizeof(*p));

	if (!p) {
		lkst_seterr(err, "out of memory after %zu events", e->count);
		return -1;
	}
	e->ev = p;
	e->ev[e->count++] = *ev;
	return 0;
}

static int sort_events(struct ps_events *e, struct lkst_err *err)
{
	return VIZ_SORT_EVENTS(e->ev, e->count, struct ps_event, err);
}

void ps_events_free(struct ps_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}

/* ---- Log file ------------------------------------------------------- */

static void event_from_record(const struct lkst_record *r, unsigned int cpu,
			      struct ps_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->time_ns = r->time_ns;
	ev->cpu = cpu;
	ev->cur_pid = r->pid;
	if (r->event == LKST_EV_PROCESS_CONTEXTSWITCH) {
		ev->type = PS_EV_SWITCH;
		ev->prev_pid = (uint32_t)r->arg[0];
		ev->pid = (uint32_t)r->arg[1];
		ev->prev_state = r->arg[2];
	} else {
		ev->type = PS_EV_WAKEUP;
		ev->pid = (uint32_t)r->arg[0];
	}
	lkst_format_comm(r->arg[4], r->arg[5], ev->comm, sizeof(ev->comm));
}

static int is_process_event(unsigned int id)
{
	return id == LKST_EV_PROCESS_CONTEXTSWITCH || id == LKST_EV_PROCESS_WAKEUP;
}

struct walk {
	ps_event_fn fn;
	void *ctx;
};

/* viz_log_walk() callback: hands on the process events, skips the rest. */
static int log_record(const struct lkst_record *r, unsigned int cpu, void *ctx,
		      struct lkst_err *err)
{
	const struct walk *w = ctx;
	struct ps_event ev;

	if (!is_process_event(r->event))
		return 0;
	event_from_record(r, cpu, &ev);
	return w->fn(&ev, w->ctx, err);
}

int ps_walk(struct ps_input *in, ps_event_fn fn, void *ctx, struct lkst_err *err)
{
	struct walk w = { fn, ctx };
	size_t i;

	if (in->log)
		return viz_log_walk(in->log, log_record, &w, err);
	if (!in->read) {
		if (ps_read_csv(in->csv_file, in->partial_ok, &in->csv, err))
			return -1;
		in->read = 1;
	}
	for (i = 0; i < in->csv.count; i++)
		if (fn(&in->csv.ev[i], ctx, err))
			return -1;
	return 0;
}

void ps_input_free(struct ps_input *in)
{
	ps_events_free(&in->csv);
	in->read = 0;
}

/* ---- CSV ------------------------------------------------------------ */

/* Raw ("0x2001") or decoded ("TASK_INTERRUPTIBLE|TASK_FREEZABLE") state. */
static int parse_state(const char *s, uint64_t *state)
{
	if (!lkst_parse_u64(s, UINT64_MAX, state))
		return 0;
	if (!strncmp(s, "TASK_RUNNING", 13)) {
		*state = 0;
		return 0;
	}
	if (!*s)
		return -1;
	/* Only zero, non-zero and TASK_DEAD matter to the rules. */
	*state = strstr(s, "TASK_DEAD") ? PS_TASK_DEAD : 1;
	return 0;
}

/* With -r the comm is two hex words in arg5/arg6; else arg5 is the text. */
static int parse_comm(const char *a5, const char *a6, char *buf, size_t len)
{
	uint64_t lo, hi;

	if (!*a6) {
		snprintf(buf, len, "%s", a5);
		return 0;
	}
	if (lkst_parse_u64(a5, UINT64_MAX, &lo) || lkst_parse_u64(a6, UINT64_MAX, &hi))
		return -1;
	lkst_format_comm(lo, hi, buf, len);
	return 0;
}

static int parse_row(char **f, const int *col, struct ps_event *ev)
{
	const char *const *a = (const char *const *)f;
	uint32_t id;
	uint64_t v;

	memset(ev, 0, sizeof(*ev));
	if (csv_parse_time(a[col[CSV_TIME]], &ev->time_ns) ||
	    lkst_parse_u32(a[col[CSV_CPU]], 65535, &ev->cpu) ||
	    lkst_parse_u32(a[col[CSV_PID]], UINT32_MAX, &ev->cur_pid) ||
	    lkst_parse_u32(a[col[CSV_ID]], 0xffff, &id))
		return -1;
	if (!is_process_event(id))
		return 1;
	ev->type = id == LKST_EV_PROCESS_CONTEXTSWITCH ? PS_EV_SWITCH : PS_EV_WAKEUP;
	if (ev->type == PS_EV_SWITCH) {
		if (lkst_parse_u64(a[col[CSV_ARG1]], UINT32_MAX, &v) ||
		    parse_state(a[col[CSV_ARG1 + 2]], &ev->prev_state))
			return -1;
		ev->prev_pid = (uint32_t)v;
	}
	if (lkst_parse_u64(a[col[ev->type == PS_EV_SWITCH ? CSV_ARG1 + 1 : CSV_ARG1]],
			   UINT32_MAX, &v))
		return -1;
	ev->pid = (uint32_t)v;
	return parse_comm(a[col[CSV_ARG1 + 4]], a[col[CSV_ARG1 + 5]], ev->comm,
			  sizeof(ev->comm));
}

/* csv_read() callback: keeps the process events, skips the rest. */
static int csv_row(char **f, const int *col, void *ctx)
{
	struct lkst_err ignored;
	struct ps_event ev;
	int rc = parse_row(f, col, &ev);

	if (rc)
		return rc < 0 ? -1 : 0;
	return push_event(ctx, &ev, &ignored);
}

int ps_read_csv(const char *path, int partial_ok, struct ps_events *out,
		struct lkst_err *err)
{
	memset(out, 0, sizeof(*out));
	if (csv_read(path, "a process event", partial_ok, csv_row, out, err))
		return -1;
	return sort_events(out, err);
}
