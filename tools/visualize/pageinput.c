// SPDX-License-Identifier: GPL-2.0
/*
 * Log and CSV input of lkst-pagemap.  Only the MEM_PAGE_* records are kept.
 * Their arguments are numbers whether lkbuf printed them raw (hex) or
 * decoded (hex addresses and PFNs, decimal orders and PIDs).
 */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "evarray.h"
#include "lkst_logio.h"
#include "pageinput.h"

static int push_event(struct pm_events *e, const struct pm_event *ev)
{
	struct pm_event *p = viz_grow(e->ev, e->count, &e->cap, sizeof(*p));

	if (!p)
		return -1;
	e->ev = p;
	e->ev[e->count++] = *ev;
	return 0;
}

/* Per-CPU log sections are not in global time order. */
static int sort_events(struct pm_events *e, struct lkst_err *err)
{
	return VIZ_SORT_EVENTS(e->ev, e->count, struct pm_event, err);
}

void pm_events_free(struct pm_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}

static int mem_type(unsigned int id, enum pm_type *type)
{
	switch (id) {
	case LKST_EV_MEM_PAGE_ALLOC:
		*type = PM_ALLOC;
		return 1;
	case LKST_EV_MEM_PAGE_FREE:
		*type = PM_FREE;
		return 1;
	case LKST_EV_MEM_PAGE_SNAPSHOT:
		*type = PM_SNAPSHOT;
		return 1;
	}
	return 0;
}

/* The arguments as the hooks pass them (lkst_events.h). */
static void fill_args(struct pm_event *ev, const uint64_t *arg)
{
	if (ev->type == PM_SNAPSHOT) {
		ev->target = (uint32_t)arg[0];
		ev->vaddr = arg[1];
		ev->pfn = arg[2];
		ev->pages = arg[3];
		ev->snapshot = arg[4];
	} else {
		ev->pfn = arg[0];
		ev->order = arg[1] > UINT32_MAX ? UINT32_MAX : (uint32_t)arg[1];
		ev->gfp = arg[2];
	}
}

/* ---- Log file ------------------------------------------------------- */

struct walk {
	pm_event_fn fn;
	void *ctx;
};

/* viz_log_walk() callback: hands on the memory events, skips the rest. */
static int log_record(const struct lkst_record *r, unsigned int cpu, void *ctx,
		      struct lkst_err *err)
{
	const struct walk *w = ctx;
	struct pm_event ev = { .time_ns = r->time_ns, .cpu = cpu, .pid = r->pid };
	uint64_t arg[LKST_NR_ARGS];
	unsigned int a;

	if (!mem_type(r->event, &ev.type))
		return 0;
	for (a = 0; a < LKST_NR_ARGS; a++)
		arg[a] = r->arg[a];
	fill_args(&ev, arg);
	return w->fn(&ev, w->ctx, err);
}

int pm_walk(struct pm_input *in, pm_event_fn fn, void *ctx, struct lkst_err *err)
{
	struct walk w = { fn, ctx };
	size_t i;

	if (in->log)
		return viz_log_walk(in->log, log_record, &w, err);
	if (!in->read) {
		if (pm_read_csv(in->csv_file, in->partial_ok, &in->csv, err))
			return -1;
		in->read = 1;
	}
	for (i = 0; i < in->csv.count; i++)
		if (fn(&in->csv.ev[i], ctx, err))
			return -1;
	return 0;
}

void pm_input_free(struct pm_input *in)
{
	pm_events_free(&in->csv);
	in->read = 0;
}

/* ---- CSV ------------------------------------------------------------ */

/* The used arguments of each event: 4 for ALLOC (gfp is arg3), 2, 5. */
static unsigned int nr_args(enum pm_type type)
{
	return type == PM_ALLOC ? 4 : type == PM_FREE ? 2 : 5;
}

static int csv_row(char **f, const int *col, void *ctx)
{
	const char *const *a = (const char *const *)f;
	uint64_t arg[LKST_NR_ARGS] = { 0 };
	struct pm_event ev = { 0 };
	unsigned int i;
	uint32_t id;

	if (lkst_parse_u32(a[col[CSV_ID]], 0xffff, &id))
		return -1;
	if (!mem_type(id, &ev.type))
		return 0;
	if (csv_parse_time(a[col[CSV_TIME]], &ev.time_ns) ||
	    lkst_parse_u32(a[col[CSV_CPU]], 65535, &ev.cpu) ||
	    lkst_parse_u32(a[col[CSV_PID]], UINT32_MAX, &ev.pid))
		return -1;
	for (i = 0; i < nr_args(ev.type); i++)
		if (lkst_parse_u64(a[col[CSV_ARG1 + i]], UINT64_MAX, &arg[i]))
			return -1;
	fill_args(&ev, arg);
	return push_event(ctx, &ev);
}

int pm_read_csv(const char *path, int partial_ok, struct pm_events *out,
		struct lkst_err *err)
{
	memset(out, 0, sizeof(*out));
	if (csv_read(path, "a memory event", partial_ok, csv_row, out, err))
		return -1;
	return sort_events(out, err);
}
