// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace reader (lkst_logio.h): an opened log with its event table,
 * symbols and record selection, and iterators over it built on the
 * time-ordered merge of lkst_logio.c.
 */
#include <stdlib.h>
#include <string.h>

#include "lkst_format.h"
#include "lkst_format_int.h"
#include "lkst_logio.h"
#include "lkst_logio_int.h"
#include "lkst_ksym.h"
#include "lkst_where.h"

struct lkst_trace {
	struct lkst_log log;		/* owned, when opened here */
	const struct lkst_log *use;	/* the log read: &log or the caller's */
	struct lkst_ksym_table *symbols;	/* NULL: not asked for */
	struct lkst_select sel;
	struct lkst_where *where;	/* --where, or NULL */
	int selecting;
	/*
	 * Its log's event table (built-in for a version 1 or 2 log), made the
	 * active one of the thread that calls it; NULL: lkst_trace_wrap()'s,
	 * which uses the thread's active one.
	 */
	const struct lkst_event_info *events;
	unsigned int nr_events;
	struct lkst_event_info *own_events;
	unsigned long long tag;		/* lkst_events_new_tag()'s */
};

struct lkst_trace_iter {
	struct lkst_trace *t;
	struct lkst_log_merge *merge;
	int all;			/* LKST_ITER_ALL */
	int one;			/* only section sec, at position pos */
	unsigned int sec;
	__u64 pos;
	struct lkst_comm_map *comms;
};

static struct lkst_trace *trace_alloc(struct lkst_err *err)
{
	struct lkst_trace *t = calloc(1, sizeof(*t));

	if (!t)
		lkst_seterr(err, "out of memory; free some memory");
	return t;
}

/* The log's own table (strings in the log's image), else the built-in one. */
static int trace_events(struct lkst_trace *t, struct lkst_err *err)
{
	const struct lkst_log *log = t->use;

	t->events = lkst_events_builtin(&t->nr_events);
	t->tag = lkst_events_new_tag();
	if (!log->events)
		return 0;
	t->own_events = calloc(log->nr_events ? log->nr_events : 1, sizeof(*t->own_events));
	if (!t->own_events) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	lkst_events_decode(log->events, log->nr_events, t->own_events);
	t->events = t->own_events;
	t->nr_events = log->nr_events;
	return 0;
}

/* Makes the trace's table the calling thread's active one (cheap when it is). */
static inline void trace_activate(const struct lkst_trace *t)
{
	if (t->events)
		lkst_events_set_tagged(t->events, t->nr_events, t->tag);
}

void lkst_trace_use_events(const struct lkst_trace *t)
{
	trace_activate(t);
}

struct lkst_trace *lkst_trace_open(const char *path, unsigned int flags,
				   struct lkst_err *err)
{
	return lkst_trace_open_files(&path, 1, flags, err);
}

struct lkst_trace *lkst_trace_open_files(const char *const *paths, unsigned int n,
					 unsigned int flags, struct lkst_err *err)
{
	struct lkst_trace *t = trace_alloc(err);
	const char *path = n ? paths[0] : "";
	struct lkst_err e;

	if (!t)
		return NULL;
	if (logio_load_files(paths, n, &t->log, err)) {
		free(t);
		return NULL;
	}
	t->use = &t->log;
	if (trace_events(t, err))
		goto fail;
	trace_activate(t);
	if (flags & LKST_TRACE_SYMBOLS) {
		/* lkbuf's message: the file, then what is wrong with its symbols. */
		t->symbols = lkst_ksym_table_from_log(&t->log, &e);
		if (!t->symbols) {
			lkst_seterr(err, "%s: %s", path, e.msg);
			goto fail;
		}
	}
	return t;
fail:
	logio_release(&t->log);
	free(t->own_events);
	free(t);
	return NULL;
}

struct lkst_trace *lkst_trace_wrap(const struct lkst_log *log, struct lkst_err *err)
{
	struct lkst_trace *t = trace_alloc(err);

	if (t)
		t->use = log;
	return t;
}

void lkst_trace_close(struct lkst_trace *t)
{
	if (!t)
		return;
	/* Not left active, freed, on this thread. */
	if (lkst_events_tagged(t->tag))
		lkst_events_use_builtin();
	lkst_select_reset(&t->sel);
	lkst_where_free(t->where);
	lkst_ksym_table_free(t->symbols);
	if (t->use == &t->log)
		logio_release(&t->log);
	free(t->own_events);
	free(t);
}

const struct lkst_log *lkst_trace_log(const struct lkst_trace *t)
{
	return t->use;
}

const struct lkst_ksym_table *lkst_trace_symbols(const struct lkst_trace *t)
{
	return t->symbols;
}

unsigned long long lkst_trace_nr_records(const struct lkst_trace *t)
{
	unsigned long long n = 0;
	unsigned int s;

	for (s = 0; s < t->use->nr_sections; s++)
		n += t->use->sections[s].info.nr_records;
	return n;
}

struct lkst_clock_anchor lkst_trace_anchor(const struct lkst_trace *t)
{
	struct lkst_clock_anchor a = {
		.trace_ns = t->use->header.anchor_trace_ns,
		.realtime_ns = t->use->header.anchor_realtime_ns,
	};

	return a;
}

long long lkst_trace_realtime_offset(const struct lkst_trace *t)
{
	return (long long)(t->use->header.anchor_realtime_ns - t->use->header.anchor_trace_ns);
}

/* ---- Selection ------------------------------------------------------- */

/*
 * A CPU filter none of whose CPUs the log has would select nothing,
 * silently: a mistyped CPU is told, with the CPUs there are.
 */
static int check_cpus(const struct lkst_trace *t, const char *list, struct lkst_err *err)
{
	const struct lkst_log *log = t->use;
	const __u32 *cpus;
	size_t nr, i, used = 0;
	unsigned int s;
	char have[160] = "";

	cpus = lkst_select_cpu_list(&t->sel, &nr);
	for (s = 0; s < log->nr_sections; s++)
		for (i = 0; i < nr; i++)
			if (cpus[i] == log->sections[s].info.cpu)
				return 0;
	for (s = 0; s < log->nr_sections && used + 16 < sizeof(have); s++)
		used += snprintf(have + used, sizeof(have) - used, "%s%u", s ? "," : "",
				 log->sections[s].info.cpu);
	if (s < log->nr_sections)
		snprintf(have + used, sizeof(have) - used, ",...");
	lkst_seterr(err, "the log has no CPU of the CPU filter '%s'; it has CPU%s %s",
		    list, log->nr_sections == 1 ? "" : "s", log->nr_sections ? have : "none");
	return -1;
}

int lkst_trace_select(struct lkst_trace *t, const struct lkst_trace_select *sel,
		      struct lkst_err *err)
{
	struct lkst_clock_anchor anchor = lkst_trace_anchor(t);
	struct lkst_select *f = &t->sel;
	unsigned int i;

	trace_activate(t);	/* events are named by the trace's table */
	lkst_select_reset(f);
	lkst_where_free(t->where);
	t->where = NULL;
	t->selecting = 0;
	if ((sel->events && lkst_select_events(f, sel->events, err)) ||
	    (sel->pids && lkst_select_pids(f, sel->pids, err)) ||
	    (sel->comms && lkst_select_comms(f, sel->comms, err)) ||
	    (sel->window && lkst_select_window(f, sel->window, &anchor, err)) ||
	    (sel->cpus && (lkst_select_cpus(f, sel->cpus, err) ||
			   check_cpus(t, sel->cpus, err))))
		return -1;
	if (sel->where && !(t->where = lkst_where_new(sel->where, err)))
		return -1;
	for (i = 0; i < sel->nr_ids; i++) {
		f->by_event = 1;
		if (sel->ids[i] < LKST_NR_EVENT_IDS)
			f->event[sel->ids[i]] = 1;
	}
	t->selecting = f->by_event || f->by_time || f->nr_pids || f->nr_comms || f->nr_cpus ||
		       t->where;
	return 0;
}

int lkst_trace_selecting(const struct lkst_trace *t)
{
	return t->selecting;
}

/* ---- Iterators ------------------------------------------------------- */

/*
 * Names the log saved (LKST_META_TASKS) for pids its records never name;
 * the records' own names replace them as they are learned.
 */
static int seed_comms(struct lkst_comm_map *m, const struct lkst_log *log,
		      struct lkst_err *err)
{
	struct lkst_tasks tasks = { NULL, 0, 0 };
	size_t i;

	if (lkst_log_tasks(log, &tasks, err))
		return -1;
	for (i = 0; i < tasks.nr; i++)
		lkst_comm_map_save(m, tasks.ent[i].pid, tasks.ent[i].comm);
	logio_tasks_clear(&tasks);
	return 0;
}

struct lkst_trace_iter *lkst_trace_iter_new(struct lkst_trace *t, unsigned int flags,
					    struct lkst_err *err)
{
	struct lkst_trace_iter *it = calloc(1, sizeof(*it));

	if (!it) {
		lkst_seterr(err, "out of memory; free some memory");
		return NULL;
	}
	trace_activate(t);
	it->t = t;
	it->all = !!(flags & LKST_ITER_ALL);
	if ((flags & LKST_ITER_COMMS) || t->sel.nr_comms || lkst_where_needs_comm(t->where)) {
		it->comms = lkst_comm_map_new();
		if (!it->comms) {
			free(it);
			lkst_seterr(err, "out of memory; free some memory");
			return NULL;
		}
		if (seed_comms(it->comms, t->use, err)) {
			lkst_comm_map_free(it->comms);
			free(it);
			return NULL;
		}
	}
	it->merge = lkst_log_merge_new(t->use, err);
	if (!it->merge) {
		lkst_comm_map_free(it->comms);
		free(it);
		return NULL;
	}
	return it;
}

void lkst_trace_iter_free(struct lkst_trace_iter *it)
{
	if (!it)
		return;
	lkst_log_merge_free(it->merge);
	lkst_comm_map_free(it->comms);
	free(it);
}

void lkst_trace_rewind(struct lkst_trace_iter *it)
{
	it->one = 0;
	lkst_log_merge_rewind(it->merge);
}

void lkst_trace_rewind_section(struct lkst_trace_iter *it, unsigned int section)
{
	it->one = 1;
	it->sec = section;
	it->pos = 0;
}

/* The next record of the merge or of the one section, unselected. */
static const struct lkst_record *next_record(struct lkst_trace_iter *it, unsigned int *s)
{
	const struct lkst_log_run *run;

	if (!it->one)
		return lkst_log_merge_next(it->merge, s);
	if (it->sec >= it->t->use->nr_sections)
		return NULL;
	run = &it->merge->runs[it->sec];
	if (it->pos >= run->sec->info.nr_records)
		return NULL;
	*s = it->sec;
	return lkst_log_run_record(run, it->pos++);
}

int lkst_trace_next(struct lkst_trace_iter *it, struct lkst_trace_rec *out)
{
	const struct lkst_log *log = it->t->use;
	const struct lkst_record *rec;
	unsigned int s, cpu;

	trace_activate(it->t);	/* the caller formats what it hands on */
	while ((rec = next_record(it, &s))) {
		cpu = log->sections[s].info.cpu;
		/* Every record teaches names, selected or not: -n needs them. */
		if (it->comms)
			lkst_comm_map_learn(it->comms, rec, cpu);
		/* LKST_ITER_ALL: every record, the selection aside. */
		if (it->all)
			goto hand_on;
		if (it->t->selecting && !lkst_select_match(&it->t->sel, rec, cpu, it->comms))
			continue;
		if (it->t->where &&
		    !lkst_where_match(it->t->where, rec, cpu,
				      it->comms ? lkst_comm_map_name(it->comms, rec->pid, cpu) : NULL))
			continue;
hand_on:
		out->rec = rec;
		out->cpu = cpu;
		out->section = s;
		out->index = (__u64)(rec - log->sections[s].records);
		return 1;
	}
	return 0;
}

const struct lkst_comm_map *lkst_trace_comms(const struct lkst_trace_iter *it)
{
	return it->comms;
}
