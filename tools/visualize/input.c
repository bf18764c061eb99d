// SPDX-License-Identifier: GPL-2.0
/*
 * Process events (input.h): PROCESS_CONTEXTSWITCH and PROCESS_WAKEUP
 * records or CSV rows as struct ps_event; everything else is skipped.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "evarray.h"
#include "input.h"
#include "lkst_format.h"

/* ---- Log file ------------------------------------------------------- */

static void event_from_record(const struct lkst_record *r, unsigned int cpu, void *out)
{
	struct ps_event *ev = out;

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
	struct ps_event ev;
	int rc = parse_row(f, col, &ev);

	if (rc)
		return rc < 0 ? -1 : 0;
	return viz_events_push(ctx, &ev, sizeof(ev));
}

static const unsigned int process_ids[] = {
	LKST_EV_PROCESS_CONTEXTSWITCH, LKST_EV_PROCESS_WAKEUP,
};

const struct viz_kind ps_kind = {
	.size = sizeof(struct ps_event),
	.time_off = offsetof(struct ps_event, time_ns),
	.cpu_off = offsetof(struct ps_event, cpu),
	.ids = process_ids,
	.nr_ids = 2,
	.what = "a process event",
	.from_record = event_from_record,
	.csv_row = csv_row,
};
