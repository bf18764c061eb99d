// SPDX-License-Identifier: GPL-2.0
/*
 * Memory events (pageinput.h).  Only the MEM_PAGE_* records are kept.
 * Their arguments are numbers whether lkbuf printed them raw (hex) or
 * decoded (hex addresses and PFNs, decimal orders and PIDs).
 */
#include <stddef.h>
#include <string.h>

#include "csv.h"
#include "pageinput.h"

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

static void event_from_record(const struct lkst_record *r, unsigned int cpu, void *out)
{
	struct pm_event *ev = out;
	uint64_t arg[LKST_NR_ARGS];
	unsigned int a;

	memset(ev, 0, sizeof(*ev));
	ev->time_ns = r->time_ns;
	ev->cpu = cpu;
	ev->pid = r->pid;
	mem_type(r->event, &ev->type);
	for (a = 0; a < LKST_NR_ARGS; a++)
		arg[a] = r->arg[a];
	fill_args(ev, arg);
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
	return viz_events_push(ctx, &ev, sizeof(ev));
}

static const unsigned int memory_ids[] = {
	LKST_EV_MEM_PAGE_ALLOC, LKST_EV_MEM_PAGE_FREE, LKST_EV_MEM_PAGE_SNAPSHOT,
};

const struct viz_kind pm_kind = {
	.size = sizeof(struct pm_event),
	.time_off = offsetof(struct pm_event, time_ns),
	.cpu_off = offsetof(struct pm_event, cpu),
	.ids = memory_ids,
	.nr_ids = 3,
	.what = "a memory event",
	.from_record = event_from_record,
	.csv_row = csv_row,
};
