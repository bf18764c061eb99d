// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which records a tool shows: command names of pids learned in time order
 * (struct lkst_comm_map) and the record selection of -e -p -n -t -c
 * (struct lkst_select).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lkst_format.h"
#include "lkst_format_int.h"
#include "lkst_ksym.h"

/* ---- Command names of pids ------------------------------------------ */

#define COMM_TEXT_LEN	(16 * 4 + 1)

struct comm_slot {
	unsigned long long key;		/* pid + 1, or (cpu + 1) << 32 for pid 0 */
	unsigned char raw[16];
	char name[COMM_TEXT_LEN];
};

struct lkst_comm_map {
	struct comm_slot *slots;
	size_t cap, used;		/* cap is a power of two */
};

struct lkst_comm_map *lkst_comm_map_new(void)
{
	struct lkst_comm_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 1024;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void lkst_comm_map_free(struct lkst_comm_map *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static unsigned long long comm_key(__u32 pid, unsigned int cpu)
{
	return pid ? (unsigned long long)pid + 1 : ((unsigned long long)cpu + 1) << 32;
}

static struct comm_slot *comm_find(struct comm_slot *slots, size_t cap,
				   unsigned long long key)
{
	size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int comm_grow(struct lkst_comm_map *m)
{
	struct comm_slot *slots = calloc(m->cap * 2, sizeof(*slots));
	size_t i;

	if (!slots)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*comm_find(slots, m->cap * 2, m->slots[i].key) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap *= 2;
	return 0;
}

static void comm_set(struct lkst_comm_map *m, unsigned long long key,
		     const __u64 *comm_args)
{
	struct comm_slot *s;

	if (m->used * 2 >= m->cap && comm_grow(m))
		return;			/* out of memory: the name stays unknown */
	s = comm_find(m->slots, m->cap, key);
	if (s->key && !memcmp(s->raw, comm_args, 16))
		return;
	if (!s->key)
		m->used++;
	s->key = key;
	memcpy(s->raw, comm_args, 16);
	lkst_format_comm(comm_args[0], comm_args[1], s->name, sizeof(s->name));
}

void lkst_comm_map_learn(struct lkst_comm_map *m, const struct lkst_record *rec,
			 unsigned int cpu)
{
	if (rec->event == LKST_EV_PROCESS_CONTEXTSWITCH)
		comm_set(m, comm_key(rec->arg[1], cpu), &rec->arg[4]);
	else if (rec->event == LKST_EV_PROCESS_WAKEUP)
		comm_set(m, comm_key(rec->arg[0], rec->arg[2]), &rec->arg[4]);
}

void lkst_comm_map_save(struct lkst_comm_map *m, __u32 pid, const char comm[16])
{
	struct comm_slot *s;
	__u64 raw[2];

	if (!pid || (m->used * 2 >= m->cap && comm_grow(m)))
		return;
	s = comm_find(m->slots, m->cap, comm_key(pid, 0));
	if (s->key)
		return;			/* learned from a record: exact in time */
	memcpy(raw, comm, sizeof(raw));
	comm_set(m, comm_key(pid, 0), raw);
}

const char *lkst_comm_map_name(const struct lkst_comm_map *m, __u32 pid,
			       unsigned int cpu)
{
	const struct comm_slot *s = comm_find(m->slots, m->cap, comm_key(pid, cpu));

	return s->key ? s->name : NULL;
}

/* ---- Record selection ----------------------------------------------- */

/* Calls fn for each comma-separated item (empty items are errors). */
static int each_item(const char *list, const char *what,
		     int (*fn)(struct lkst_select *, const char *, struct lkst_err *),
		     struct lkst_select *f, struct lkst_err *err)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!list || !*list || list[strlen(list) - 1] == ',' || strstr(list, ",,") ||
	    list[0] == ',') {
		lkst_seterr(err, "empty item in %s list '%s'; give a comma-separated list",
			    what, list ? list : "");
		return -1;
	}
	copy = strdup(list);
	if (!copy) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save))
		ret = fn(f, item, err);
	free(copy);
	return ret;
}

int lkst_select_events(struct lkst_select *f, const char *list, struct lkst_err *err)
{
	f->by_event = 1;
	return lkst_parse_event_list(list, f->event, err) < 0 ? -1 : 0;
}

/* One more number of a pid or CPU list; the message names the list. */
static int add_u32(__u32 **list, size_t *n, const char *item, uint32_t max,
		   const char *what, struct lkst_err *err)
{
	__u32 *grown;
	uint32_t v;

	if (lkst_parse_u32(item, max, &v)) {
		lkst_seterr(err, "bad %s '%s' in the %s filter; give %ss 0-%u, decimal or 0x hex",
			    what, item, what, what, max);
		return -1;
	}
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	*list = grown;
	grown[(*n)++] = v;
	return 0;
}

static int add_pid(struct lkst_select *f, const char *item, struct lkst_err *err)
{
	return add_u32(&f->pids, &f->nr_pids, item, UINT32_MAX, "pid", err);
}

int lkst_select_pids(struct lkst_select *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "pid", add_pid, f, err);
}

static int add_comm(struct lkst_select *f, const char *item, struct lkst_err *err)
{
	char **comms;

	if (strlen(item) >= COMM_TEXT_LEN) {
		lkst_seterr(err, "command name '%s' is too long to match (at most %d characters as printed); check the name",
			    item, COMM_TEXT_LEN - 1);
		return -1;
	}
	comms = realloc(f->comms, (f->nr_comms + 1) * sizeof(*comms));
	if (!comms || !(comms[f->nr_comms] = strdup(item))) {
		if (comms)
			f->comms = comms;
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	f->comms = comms;
	f->nr_comms++;
	return 0;
}

int lkst_select_comms(struct lkst_select *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "command name", add_comm, f, err);
}

#define CPU_FILTER_MAX	65535u

/* A CPU, or a range FIRST-LAST of them (0-3), as the kernel's cpu lists. */
static int add_cpu(struct lkst_select *f, const char *item, struct lkst_err *err)
{
	const char *dash = strchr(item, '-');
	uint32_t first, last, cpu;
	char low[32];

	if (!dash)
		return add_u32(&f->cpus, &f->nr_cpus, item, CPU_FILTER_MAX, "CPU", err);
	snprintf(low, sizeof(low), "%.*s", (int)(dash - item), item);
	if ((size_t)(dash - item) >= sizeof(low) ||
	    lkst_parse_u32(low, CPU_FILTER_MAX, &first) ||
	    lkst_parse_u32(dash + 1, CPU_FILTER_MAX, &last) || last < first) {
		lkst_seterr(err, "bad CPU range '%s' in the CPU filter; give FIRST-LAST with FIRST <= LAST, CPUs 0-%u (0-3,6)",
			    item, CPU_FILTER_MAX);
		return -1;
	}
	for (cpu = first; cpu <= last; cpu++) {
		char one[16];

		snprintf(one, sizeof(one), "%u", cpu);
		if (add_u32(&f->cpus, &f->nr_cpus, one, CPU_FILTER_MAX, "CPU", err))
			return -1;
	}
	return 0;
}

int lkst_select_cpus(struct lkst_select *f, const char *list, struct lkst_err *err)
{
	return each_item(list, "CPU", add_cpu, f, err);
}

/* An optional ".digits" (1 to 9 of them) as nanoseconds; advances *s. */
static int parse_frac_ns(const char **s, unsigned long long *ns)
{
	int digits = 0;

	*ns = 0;
	if (**s != '.')
		return 0;
	for ((*s)++; **s >= '0' && **s <= '9'; (*s)++, digits++) {
		if (digits >= 9)
			return -1;
		*ns = *ns * 10 + (**s - '0');
	}
	if (!digits)
		return -1;
	while (digits++ < 9)
		*ns *= 10;
	return 0;
}

int lkst_parse_seconds(const char *s, unsigned long long *ns)
{
	unsigned long long sec = 0, frac;
	int digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > (UINT64_MAX / 1000000000ull - 9) / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (parse_frac_ns(&s, &frac) || *s || !digits)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* n digits (min..max of them) as a number at most limit; advances *s. */
static int parse_digits(const char **s, int min, int max, int limit, int *out)
{
	int n = 0, v = 0;

	while (n < max && **s >= '0' && **s <= '9') {
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	if (n < min || (**s >= '0' && **s <= '9') || v > limit)
		return -1;
	*out = v;
	return 0;
}

/* "hh:mm:ss[.frac]": seconds since midnight and nanoseconds. */
static int parse_time_of_day(const char *s, int *hms, unsigned long long *frac_ns)
{
	int h, m, sec;

	if (parse_digits(&s, 1, 2, 23, &h) || *s++ != ':' ||
	    parse_digits(&s, 2, 2, 59, &m) || *s++ != ':' ||
	    parse_digits(&s, 2, 2, 59, &sec) ||
	    parse_frac_ns(&s, frac_ns) || *s)
		return -1;
	*hms = h * 3600 + m * 60 + sec;
	return 0;
}

/*
 * A time of day on the anchor's local day (plus extra_days) as trace-clock
 * ns: 0, -1 if that is not a time the trace clock can hold.
 */
static int time_of_day_to_trace(int hms, unsigned long long frac_ns, int extra_days,
				const struct lkst_clock_anchor *a, unsigned long long *ns)
{
	time_t t = (time_t)(a->realtime_ns / 1000000000ull);
	long long offset = (long long)(a->realtime_ns - a->trace_ns);
	long long real;
	struct tm tm;
	time_t day;

	tzset();
	if (!localtime_r(&t, &tm))
		return -1;
	tm.tm_mday += extra_days;
	tm.tm_hour = hms / 3600;
	tm.tm_min = hms / 60 % 60;
	tm.tm_sec = hms % 60;
	tm.tm_isdst = -1;
	day = mktime(&tm);
	if (day == (time_t)-1 || day < 0 || (unsigned long long)day > UINT64_MAX / 2000000000ull)
		return -1;
	real = (long long)day * 1000000000ll + (long long)frac_ns;
	if (real < offset)
		return -1;	/* before the trace clock's zero */
	*ns = (unsigned long long)(real - offset);
	return 0;
}

/* One side of a window; empty sides are the caller's. */
static int window_side(const char *side, const char *range, const char *which,
		       const struct lkst_clock_anchor *anchor, int *is_tod, int *hms,
		       unsigned long long *frac_ns, unsigned long long *ns,
		       struct lkst_err *err)
{
	*is_tod = strchr(side, ':') != NULL;
	if (!*is_tod) {
		if (lkst_parse_seconds(side, ns)) {
			lkst_seterr(err, "bad %s '%s' in time window '%s'; give seconds of the trace clock (12.5) or a time of day (hh:mm:ss[.frac]), either side may be empty",
				    which, side, range);
			return -1;
		}
		return 0;
	}
	if (parse_time_of_day(side, hms, frac_ns)) {
		lkst_seterr(err, "bad time of day '%s' in time window '%s'; give hh:mm:ss[.frac] with hours 0-23, as the default text prints it",
			    side, range);
		return -1;
	}
	if (!anchor) {
		lkst_seterr(err, "time of day '%s' in time window '%s' needs a log's clock anchor; with CSV input give seconds of the trace clock",
			    side, range);
		return -1;
	}
	return 0;
}

/* A side's time of day on the anchor's day (+ days) to *ns, or an error. */
static int window_tod(const char *range, int hms, unsigned long long frac_ns, int days,
		      const struct lkst_clock_anchor *anchor, unsigned long long *ns,
		      struct lkst_err *err)
{
	if (!time_of_day_to_trace(hms, frac_ns, days, anchor, ns))
		return 0;
	lkst_seterr(err, "time window '%s' starts or ends before the trace clock's start (on the day of the log's clock anchor); give seconds of the trace clock",
		    range);
	return -1;
}

int lkst_parse_window(const char *range, const struct lkst_clock_anchor *anchor,
		      unsigned long long *start_ns, unsigned long long *end_ns,
		      struct lkst_err *err)
{
	const char *comma = range ? strchr(range, ',') : NULL;
	int start_tod = 0, end_tod = 0, start_hms = 0, end_hms = 0;
	unsigned long long start_frac = 0, end_frac = 0;
	unsigned long long start = 0, end = UINT64_MAX;
	char first[64];
	size_t len;

	if (!comma || strchr(comma + 1, ',') || (size_t)(comma - range) >= sizeof(first)) {
		lkst_seterr(err, "bad time window '%s'; give START,END, each seconds of the trace clock (12.5) or a time of day (hh:mm:ss[.frac]), either may be empty",
			    range ? range : "");
		return -1;
	}
	len = comma - range;
	memcpy(first, range, len);
	first[len] = '\0';
	if (len && window_side(first, range, "START", anchor, &start_tod, &start_hms,
			       &start_frac, &start, err))
		return -1;
	if (comma[1] && window_side(comma + 1, range, "END", anchor, &end_tod, &end_hms,
				    &end_frac, &end, err))
		return -1;
	if (start_tod && window_tod(range, start_hms, start_frac, 0, anchor, &start, err))
		return -1;
	/* hh:mm:ss,hh:mm:ss ending earlier in the day: it crosses midnight. */
	if (end_tod && window_tod(range, end_hms, end_frac,
				  start_tod && (end_hms < start_hms ||
						(end_hms == start_hms && end_frac < start_frac)),
				  anchor, &end, err))
		return -1;
	if (start > end) {
		lkst_seterr(err, "time window '%s' ends before it starts; give START <= END", range);
		return -1;
	}
	*start_ns = start;
	*end_ns = end;
	return 0;
}

int lkst_select_window(struct lkst_select *f, const char *range,
		       const struct lkst_clock_anchor *anchor, struct lkst_err *err)
{
	if (lkst_parse_window(range, anchor, &f->start_ns, &f->end_ns, err))
		return -1;
	f->by_time = 1;
	return 0;
}

int lkst_select_time(struct lkst_select *f, const char *range, struct lkst_err *err)
{
	return lkst_select_window(f, range, NULL, err);
}

int lkst_select_pid_wanted(const struct lkst_select *f, unsigned long long pid)
{
	size_t i;

	for (i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == pid)
			return 1;
	return 0;
}

int lkst_comm_match(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);

	if (len && pattern[len - 1] == '*')
		return !strncmp(pattern, name, len - 1);
	return !strcmp(pattern, name);
}

int lkst_select_comm_wanted(const struct lkst_select *f, const char *name)
{
	size_t i;

	for (i = 0; name && i < f->nr_comms; i++)
		if (lkst_comm_match(f->comms[i], name))
			return 1;
	return 0;
}

static int cpu_wanted(const struct lkst_select *f, unsigned int cpu)
{
	size_t i;

	for (i = 0; i < f->nr_cpus; i++)
		if (f->cpus[i] == cpu)
			return 1;
	return 0;
}

int lkst_select_match(const struct lkst_select *f, const struct lkst_record *rec,
		      unsigned int cpu, const struct lkst_comm_map *comms)
{
	int is_switch = rec->event == LKST_EV_PROCESS_CONTEXTSWITCH;
	int is_wakeup = rec->event == LKST_EV_PROCESS_WAKEUP;

	if (f->by_event && (rec->event >= LKST_NR_EVENT_IDS || !f->event[rec->event]))
		return 0;
	if (f->by_time && (rec->time_ns < f->start_ns || rec->time_ns > f->end_ns))
		return 0;
	if (f->nr_cpus && !cpu_wanted(f, cpu))
		return 0;
	if (f->nr_pids && !lkst_select_pid_wanted(f, rec->pid) &&
	    !(is_switch && (lkst_select_pid_wanted(f, rec->arg[0]) ||
			    lkst_select_pid_wanted(f, rec->arg[1]))) &&
	    !(is_wakeup && lkst_select_pid_wanted(f, rec->arg[0])))
		return 0;
	if (f->nr_comms) {
		char name[COMM_TEXT_LEN];

		if (comms && lkst_select_comm_wanted(f, lkst_comm_map_name(comms, rec->pid, cpu)))
			return 1;
		if (!is_switch && !is_wakeup)
			return 0;
		lkst_format_comm(rec->arg[4], rec->arg[5], name, sizeof(name));
		return lkst_select_comm_wanted(f, name);
	}
	return 1;
}

struct lkst_select *lkst_select_new(struct lkst_err *err)
{
	struct lkst_select *f = calloc(1, sizeof(*f));

	if (!f)
		lkst_seterr(err, "out of memory; free some memory");
	return f;
}

void lkst_select_reset(struct lkst_select *f)
{
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->cpus);
	memset(f, 0, sizeof(*f));
}

void lkst_select_free(struct lkst_select *f)
{
	if (!f)
		return;
	lkst_select_reset(f);
	free(f);
}

const __u32 *lkst_select_pid_list(const struct lkst_select *f, size_t *nr)
{
	*nr = f->nr_pids;
	return f->pids;
}

const char *const *lkst_select_comm_list(const struct lkst_select *f, size_t *nr)
{
	*nr = f->nr_comms;
	return (const char *const *)f->comms;
}

const __u32 *lkst_select_cpu_list(const struct lkst_select *f, size_t *nr)
{
	*nr = f->nr_cpus;
	return f->cpus;
}
