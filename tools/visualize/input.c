// SPDX-License-Identifier: GPL-2.0
/*
 * Log and CSV input of lkst-procstate.  Only PROCESS_CONTEXTSWITCH and
 * PROCESS_WAKEUP records are kept; everything else is skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "lkst_format.h"
#include "lkst_logio.h"

/* Input position, so that sorting keeps records of equal time in order. */
struct keyed {
	struct ps_event ev;
	size_t seq;
};

static int compare_events(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->ev.time_ns != y->ev.time_ns)
		return x->ev.time_ns < y->ev.time_ns ? -1 : 1;
	if (x->ev.cpu != y->ev.cpu)
		return x->ev.cpu < y->ev.cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Per-CPU sections (or a hand-edited CSV) are not in global time order. */
static int sort_events(struct ps_events *e, struct lkst_err *err)
{
	struct keyed *k = calloc(e->count ? e->count : 1, sizeof(*k));
	size_t i;

	if (!k) {
		lkst_seterr(err, "out of memory sorting %zu events", e->count);
		return -1;
	}
	for (i = 0; i < e->count; i++) {
		k[i].ev = e->ev[i];
		k[i].seq = i;
	}
	qsort(k, e->count, sizeof(*k), compare_events);
	for (i = 0; i < e->count; i++)
		e->ev[i] = k[i].ev;
	free(k);
	return 0;
}

static int push_event(struct ps_events *e, const struct ps_event *ev,
		      struct lkst_err *err)
{
	if (e->count == e->cap) {
		size_t n = e->cap ? e->cap * 2 : 256;
		struct ps_event *p = realloc(e->ev, n * sizeof(*p));

		if (!p) {
			lkst_seterr(err, "out of memory after %zu events", e->count);
			return -1;
		}
		e->ev = p;
		e->cap = n;
	}
	e->ev[e->count++] = *ev;
	return 0;
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

int ps_read_log(const char *path, struct ps_events *out, struct lkst_err *err)
{
	struct lkst_log log;
	struct ps_event ev;
	unsigned int s;
	__u64 i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (lkst_log_load(path, &log, err))
		return -1;
	for (s = 0; s < log.nr_sections && !rc; s++) {
		const struct lkst_log_section *sec = &log.sections[s];

		for (i = 0; i < sec->info.nr_records && !rc; i++) {
			if (!is_process_event(sec->records[i].event))
				continue;
			event_from_record(&sec->records[i], sec->info.cpu, &ev);
			rc = push_event(out, &ev, err);
		}
	}
	lkst_log_free(&log);
	return rc ? rc : sort_events(out, err);
}

/* ---- CSV ------------------------------------------------------------ */

#define CSV_MAX_FIELDS	32

enum col { C_TIME, C_CPU, C_PID, C_ID, C_ARG1, C_NR = C_ARG1 + LKST_NR_ARGS };

/* Splits one RFC 4180 line in place; quotes never span lines in lkbuf output. */
static int split_csv(char *line, char **field, int max)
{
	char *r = line, *w = line;
	int n = 0;

	for (;;) {
		int quoted = *r == '"';

		if (n == max)
			return -1;
		field[n++] = w;
		if (quoted)
			r++;
		while (*r && (quoted || *r != ',')) {
			if (quoted && *r == '"') {
				if (r[1] != '"') {
					quoted = 0;
					r++;
					continue;
				}
				r++;		/* "" is one quote */
			}
			*w++ = *r++;
		}
		if (quoted)
			return -1;	/* unterminated quote */
		if (!*r) {
			*w = '\0';
			return n;
		}
		*w++ = '\0';
		r++;
		/* w <= r always: the field is rewritten in place, never longer. */
	}
}

/* Maps the header names to column positions; argN_desc columns are skipped. */
static int parse_header(char **field, int n, int *col, struct lkst_err *err)
{
	static const char *const names[C_NR] = {
		"time", "cpu", "pid", "id", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6"
	};
	int i, c;

	for (c = 0; c < C_NR; c++)
		col[c] = -1;
	for (i = 0; i < n; i++)
		for (c = 0; c < C_NR; c++)
			if (!strcmp(field[i], names[c]))
				col[c] = i;
	for (c = 0; c < C_NR; c++) {
		if (col[c] < 0) {
			lkst_seterr(err, "CSV header has no '%s' column; give the output of lkbuf print -C",
				    names[c]);
			return -1;
		}
	}
	return 0;
}

int ps_parse_seconds(const char *s, uint64_t *ns)
{
	char whole[24], frac[10] = "000000000";
	const char *dot = strchr(s, '.');
	size_t wl = dot ? (size_t)(dot - s) : strlen(s);
	size_t fl = dot ? strlen(dot + 1) : 0;
	uint64_t sec, nsec;
	size_t i;

	if (!wl || wl >= sizeof(whole) || fl > 9)
		return -1;
	memcpy(whole, s, wl);
	whole[wl] = '\0';
	for (i = 0; i < fl; i++) {
		if (!isdigit((unsigned char)dot[1 + i]))
			return -1;
		frac[i] = dot[1 + i];
	}
	if (!isdigit((unsigned char)whole[0]) || lkst_parse_u64(whole, UINT64_MAX / 1000000000ull, &sec) ||
	    lkst_parse_u64(frac, 999999999, &nsec))
		return -1;
	*ns = sec * 1000000000ull + nsec;
	return 0;
}

/* lkbuf -S prints seconds.nanoseconds, without it plain nanoseconds. */
static int parse_time(const char *s, uint64_t *ns)
{
	if (strchr(s, '.'))
		return ps_parse_seconds(s, ns);
	return lkst_parse_u64(s, UINT64_MAX, ns);
}

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
	if (parse_time(a[col[C_TIME]], &ev->time_ns) ||
	    lkst_parse_u32(a[col[C_CPU]], 65535, &ev->cpu) ||
	    lkst_parse_u32(a[col[C_PID]], UINT32_MAX, &ev->cur_pid) ||
	    lkst_parse_u32(a[col[C_ID]], 0xffff, &id))
		return -1;
	if (!is_process_event(id))
		return 1;
	ev->type = id == LKST_EV_PROCESS_CONTEXTSWITCH ? PS_EV_SWITCH : PS_EV_WAKEUP;
	if (ev->type == PS_EV_SWITCH) {
		if (lkst_parse_u64(a[col[C_ARG1]], UINT32_MAX, &v) ||
		    parse_state(a[col[C_ARG1 + 2]], &ev->prev_state))
			return -1;
		ev->prev_pid = (uint32_t)v;
	}
	if (lkst_parse_u64(a[col[ev->type == PS_EV_SWITCH ? C_ARG1 + 1 : C_ARG1]],
			   UINT32_MAX, &v))
		return -1;
	ev->pid = (uint32_t)v;
	return parse_comm(a[col[C_ARG1 + 4]], a[col[C_ARG1 + 5]], ev->comm,
			  sizeof(ev->comm));
}

/* One data line: 0 kept or skipped, -1 with err set. */
static int csv_line(char *line, int *col, int *have_header, unsigned long lineno,
		    struct ps_events *out, struct lkst_err *err)
{
	char *field[CSV_MAX_FIELDS];
	struct ps_event ev;
	int n, c, rc;

	line[strcspn(line, "\r\n")] = '\0';
	if (!*line)
		return 0;
	n = split_csv(line, field, CSV_MAX_FIELDS);
	if (n < 0) {
		lkst_seterr(err, "line %lu: malformed CSV; give the output of lkbuf print -C", lineno);
		return -1;
	}
	if (!*have_header) {
		*have_header = 1;
		return parse_header(field, n, col, err);
	}
	for (c = 0; c < C_NR; c++) {
		if (col[c] >= n) {
			lkst_seterr(err, "line %lu: %d fields, the header has more", lineno, n);
			return -1;
		}
	}
	rc = parse_row(field, col, &ev);
	if (rc < 0) {
		lkst_seterr(err, "line %lu: cannot read a process event; check the file", lineno);
		return -1;
	}
	return rc ? 0 : push_event(out, &ev, err);
}

int ps_read_csv(const char *path, struct ps_events *out, struct lkst_err *err)
{
	FILE *fp = fopen(path, "r");
	unsigned long lineno = 0;
	int col[C_NR], have_header = 0, rc = 0;
	char *line = NULL;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!fp) {
		lkst_seterr(err, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc && getline(&line, &cap, fp) >= 0)
		rc = csv_line(line, col, &have_header, ++lineno, out, err);
	if (!rc && ferror(fp)) {
		lkst_seterr(err, "cannot read %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (!rc && !have_header) {
		lkst_seterr(err, "%s is empty; give the output of lkbuf print -C", path);
		rc = -1;
	}
	free(line);
	fclose(fp);
	return rc ? rc : sort_events(out, err);
}
