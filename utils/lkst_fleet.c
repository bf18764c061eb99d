// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet schema and the walk that turns a log into its rows
 * (lkst_fleet.h, docs/fleet.md).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lkst_fleet.h"
#include "lkst_sysnames.h"

#define T(n)	{ n, LKST_FT_TEXT }
#define U8(n)	{ n, LKST_FT_U8 }
#define U16(n)	{ n, LKST_FT_U16 }
#define U32(n)	{ n, LKST_FT_U32 }
#define U64(n)	{ n, LKST_FT_U64 }
#define I64(n)	{ n, LKST_FT_I64 }

static const struct lkst_fleet_col records_cols[] = {
	T("host"), T("boot"), U32("cpu"), U64("seq"), U64("time_ns"), I64("realtime_ns"),
	U32("pid"), U8("context"), U16("event"),
	I64("arg1"), I64("arg2"), I64("arg3"), I64("arg4"), I64("arg5"), I64("arg6"),
	T("arg_text"),
};
static const struct lkst_fleet_col losses_cols[] = {
	T("host"), T("boot"), U32("cpu"), T("file"), U64("seq_start"), U64("seq_end"),
	U64("records"), U64("lost"), U64("lost_before"), U64("written"),
	U64("overwritten"), U64("dropped"),
};
static const struct lkst_fleet_col gaps_cols[] = {
	T("host"), T("boot"), U32("cpu"), U64("first_seq"), U64("last_seq"), U64("count"),
};
static const struct lkst_fleet_col files_cols[] = {
	T("host"), T("boot"), T("file"), T("boot_origin"), T("source"), T("kernel"),
	U64("bytes"), U64("records"), U32("cpus"), U64("first_ns"), U64("last_ns"),
	T("shipped_by"), I64("shipped_at_ns"),
};
static const struct lkst_fleet_col events_cols[] = {
	T("host"), T("boot"), U16("event"), T("mnemonic"), T("category"), T("description"),
	T("arg1_name"), T("arg2_name"), T("arg3_name"), T("arg4_name"), T("arg5_name"),
	T("arg6_name"),
	T("arg1_type"), T("arg2_type"), T("arg3_type"), T("arg4_type"), T("arg5_type"),
	T("arg6_type"),
};
static const struct lkst_fleet_col syscalls_cols[] = {
	U64("nr"), T("name"),
};
static const struct lkst_fleet_col tasks_cols[] = {
	T("host"), T("boot"), U32("pid"), U32("tgid"), T("comm"),
};

#define TABLE(n, c, k)	{ n, c, sizeof(c) / sizeof(c[0]), k }
const struct lkst_fleet_table lkst_fleet_tables[LKST_FLEET_NR_TABLES] = {
	[LKST_FLEET_RECORDS] = TABLE("records", records_cols, "host, boot, cpu, seq"),
	[LKST_FLEET_LOSSES] = TABLE("losses", losses_cols, "host, boot, file, cpu"),
	[LKST_FLEET_GAPS] = TABLE("gaps", gaps_cols, "host, boot, cpu, first_seq"),
	[LKST_FLEET_FILES] = TABLE("files", files_cols, "host, boot, file"),
	[LKST_FLEET_EVENTS] = TABLE("events", events_cols, "host, boot, event"),
	[LKST_FLEET_SYSCALLS] = TABLE("syscalls", syscalls_cols, "nr"),
	[LKST_FLEET_TASKS] = TABLE("tasks", tasks_cols, "host, boot, pid"),
};

static const char *const arg_type_names[LKST_NR_ARG_TYPES] = {
	"none", "dec", "udec", "hex", "pid", "state", "sysnr", "retval", "comm", "comm2",
	"text", "stackpos", "ksym", "uaddr",
};

int lkst_fleet_wrap(struct lkst_fleet_log *fl, struct lkst_trace *trace, const char *name,
		    struct lkst_err *err)
{
	const struct lkst_log_header *h;
	struct stat st;
	int ret;

	memset(fl, 0, sizeof(*fl));
	fl->trace = trace;
	fl->log = lkst_trace_log(fl->trace);
	h = lkst_log_get_header(fl->log);
	snprintf(fl->host, sizeof(fl->host), "%.*s",
		 (int)strnlen(h->nodename, sizeof(h->nodename)), h->nodename);
	ret = lkst_log_boot(fl->log, &fl->boot, err);
	if (ret < 0)
		return -1;
	fl->boot_saved = ret;
	fl->file = name;
	if (stat(name, &st) == 0 && S_ISREG(st.st_mode))
		fl->bytes = st.st_size;
	return 0;
}

void lkst_fleet_close(struct lkst_fleet_log *fl)
{
	if (fl->trace)
		lkst_trace_close(fl->trace);
	fl->trace = NULL;
}

/*
 * The built-in event a log's event is (same ID and mnemonic: IDs are never
 * renumbered), whose names come from events.def, or NULL (a probe).
 */
static const struct lkst_event_info *builtin_of(const struct lkst_event_info *ev)
{
	const struct lkst_event_info *b;
	unsigned int nr, i;

	b = lkst_events_builtin(&nr);
	for (i = 0; i < nr; i++)
		if (b[i].id == ev->id && !strcmp(b[i].mnemonic, ev->mnemonic))
			return &b[i];
	return NULL;
}

void lkst_fleet_arg_name(const struct lkst_event_info *ev, unsigned int arg, char *buf,
			 size_t len)
{
	const struct lkst_event_info *b = builtin_of(ev);
	const char *src;

	/* Views and the events table name a log's arguments as ship --create does. */
	if (b && b->args[arg].type == ev->args[arg].type && b->args[arg].name &&
	    *b->args[arg].name)
		ev = b;
	src = ev->args[arg].name;
	unsigned int a;
	size_t o = 0;
	char other[64];

	if (!src || !*src)
		src = ev->args[arg].desc;
	for (; src && *src && o + 1 < len; src++) {
		char c = tolower((unsigned char)*src);

		if (!isalnum((unsigned char)c))
			c = '_';
		if (c == '_' && (!o || buf[o - 1] == '_'))
			continue;
		buf[o++] = c;
	}
	while (o && buf[o - 1] == '_')
		o--;
	buf[o] = '\0';
	/* Unnamed, starting with a digit or named like an earlier one: argN. */
	if (!o || isdigit((unsigned char)buf[0]))
		goto positional;
	for (a = 0; a < arg; a++) {
		lkst_fleet_arg_name(ev, a, other, sizeof(other));
		if (!strcmp(other, buf))
			goto positional;
	}
	/* Named like a column of every record (pid, cpu): argN_NAME. */
	for (a = 0; a < lkst_fleet_tables[LKST_FLEET_RECORDS].nr_cols; a++) {
		if (strcmp(buf, lkst_fleet_tables[LKST_FLEET_RECORDS].cols[a].name))
			continue;
		snprintf(other, sizeof(other), "arg%u_%s", arg + 1, buf);
		snprintf(buf, len, "%s", other);
		return;
	}
	return;
positional:
	snprintf(buf, len, "arg%u", arg + 1);
}

#define SET_I(k, x)	(v[k].s = NULL, v[k].i = (long long)(x))
#define SET_S(k, x)	(v[k].s = (x), v[k].i = 0)

static int losses_rows(struct lkst_fleet_log *fl, enum lkst_fleet_table_id t,
		       lkst_fleet_row_fn fn, void *ctx)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	const struct lkst_log_section *sec;
	struct lkst_log_gap gap;
	unsigned int s;
	__u64 pos;
	int ret;

	SET_S(0, fl->host);
	SET_S(1, fl->boot.id);
	for (s = 0; s < lkst_log_nr_sections(fl->log); s++) {
		sec = lkst_log_get_section(fl->log, s);
		SET_I(2, sec->info.cpu);
		if (t == LKST_FLEET_LOSSES) {
			SET_S(3, fl->file);
			SET_I(4, sec->info.seq_start);
			SET_I(5, sec->info.seq_end);
			SET_I(6, sec->info.nr_records);
			SET_I(7, sec->info.lost);
			SET_I(8, lkst_log_lost_before(sec));
			SET_I(9, sec->info.written);
			SET_I(10, sec->info.overwritten);
			SET_I(11, sec->info.dropped);
			if ((ret = fn(ctx, t, v)))
				return ret;
			continue;
		}
		pos = 0;
		while (lkst_log_next_gap(sec, &pos, &gap)) {
			SET_I(3, gap.first);
			SET_I(4, gap.last);
			SET_I(5, gap.last - gap.first + 1);
			if ((ret = fn(ctx, t, v)))
				return ret;
		}
	}
	return 0;
}

static int events_rows(struct lkst_fleet_log *fl, lkst_fleet_row_fn fn, void *ctx)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	char names[LKST_NR_ARGS][64];
	unsigned int i, a;
	int ret;

	SET_S(0, fl->host);
	SET_S(1, fl->boot.id);
	for (i = 0; i < lkst_nr_events; i++) {
		const struct lkst_event_info *ev = &lkst_events[i];

		SET_I(2, ev->id);
		SET_S(3, ev->mnemonic);
		SET_S(4, lkst_category_name(ev->category));
		SET_S(5, ev->description ? ev->description : "");
		for (a = 0; a < LKST_NR_ARGS; a++) {
			unsigned int type = ev->args[a].type;

			if (type == LKST_ARG_NONE)
				names[a][0] = '\0';
			else
				lkst_fleet_arg_name(ev, a, names[a], sizeof(names[a]));
			SET_S(6 + a, names[a]);
			SET_S(6 + LKST_NR_ARGS + a,
			      type < LKST_NR_ARG_TYPES ? arg_type_names[type] : "unknown");
		}
		if ((ret = fn(ctx, LKST_FLEET_EVENTS, v)))
			return ret;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* The names of the system call numbers the log's entries and exits carry. */
static int syscalls_rows(struct lkst_fleet_log *fl, lkst_fleet_row_fn fn, void *ctx,
			 struct lkst_err *err)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	__u64 *nrs = NULL, nr;
	size_t n = 0, cap = 0, i, u = 0;
	const struct lkst_record *r;
	const char *name;
	unsigned int s;
	__u64 k;
	int ret = 0;

	for (s = 0; s < lkst_log_nr_sections(fl->log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(fl->log, s);

		for (k = 0; k < sec->info.nr_records; k++) {
			r = &sec->records[k];
			if (r->event != LKST_EV_SYSCALL_ENTRY && r->event != LKST_EV_SYSCALL_EXIT)
				continue;
			if (n == cap && lkst_grow((void **)&nrs, &cap, n, sizeof(*nrs), 256)) {
				free(nrs);
				lkst_seterr(err, "out of memory; free some memory");
				return -1;
			}
			nrs[n++] = r->arg[0];
		}
	}
	if (n)
		qsort(nrs, n, sizeof(*nrs), cmp_u64);
	for (i = 0; i < n; i++)
		if (!u || nrs[u - 1] != nrs[i])
			nrs[u++] = nrs[i];
	for (i = 0; i < u && !ret; i++) {
		nr = nrs[i];
		name = lkst_syscall_name(LKST_SYSCALL_ABI(nr), LKST_SYSCALL_NR(nr));
		if (!name)
			continue;
		SET_I(0, nr);
		SET_S(1, name);
		ret = fn(ctx, LKST_FLEET_SYSCALLS, v);
	}
	free(nrs);
	return ret;
}

static int files_row(struct lkst_fleet_log *fl, const char *shipped_by, lkst_fleet_row_fn fn,
		     void *ctx)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	const struct lkst_log_header *h = lkst_log_get_header(fl->log);
	__u64 first = ~0ull, last = 0, records = 0;
	const char *source = lkst_log_source(fl->log);
	char release[66];
	struct timespec now;
	unsigned int s;

	for (s = 0; s < lkst_log_nr_sections(fl->log); s++) {
		const struct lkst_log_section *sec = lkst_log_get_section(fl->log, s);
		__u64 k;

		records += sec->info.nr_records;
		for (k = 0; k < sec->info.nr_records; k++) {
			if (sec->records[k].time_ns < first)
				first = sec->records[k].time_ns;
			if (sec->records[k].time_ns > last)
				last = sec->records[k].time_ns;
		}
	}
	if (!records)
		first = 0;
	snprintf(release, sizeof(release), "%.*s",
		 (int)strnlen(h->release, sizeof(h->release)), h->release);
	clock_gettime(CLOCK_REALTIME, &now);
	SET_S(0, fl->host);
	SET_S(1, fl->boot.id);
	SET_S(2, fl->file);
	SET_S(3, !fl->boot_saved ? "none" :
	      fl->boot.how == LKST_BOOT_ID_KERNEL ? "kernel" : "derived");
	SET_S(4, source ? source : "");
	SET_S(5, release);
	SET_I(6, fl->bytes);
	SET_I(7, records);
	SET_I(8, lkst_log_nr_sections(fl->log));
	SET_I(9, first);
	SET_I(10, last);
	SET_S(11, shipped_by);
	SET_I(12, (long long)now.tv_sec * 1000000000ll + now.tv_nsec);
	return fn(ctx, LKST_FLEET_FILES, v);
}

/* The task names the log saved (lkbuf record and read save them). */
static int tasks_rows(struct lkst_fleet_log *fl, lkst_fleet_row_fn fn, void *ctx,
		      struct lkst_err *err)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	struct lkst_tasks *t = lkst_tasks_new(err);
	const struct lkst_log_task *e;
	size_t i;
	int ret = 0;

	if (!t)
		return -1;
	if (lkst_log_tasks(fl->log, t, err)) {
		lkst_tasks_free(t);
		return -1;
	}
	SET_S(0, fl->host);
	SET_S(1, fl->boot.id);
	for (i = 0; !ret && (e = lkst_tasks_get(t, i)); i++) {
		SET_I(2, e->pid);
		SET_I(3, e->tgid);
		SET_S(4, e->comm);
		ret = fn(ctx, LKST_FLEET_TASKS, v);
	}
	lkst_tasks_free(t);
	return ret;
}

int lkst_fleet_meta_rows(struct lkst_fleet_log *fl, enum lkst_fleet_table_id t,
			 const char *shipped_by, lkst_fleet_row_fn fn, void *ctx,
			 struct lkst_err *err)
{
	switch (t) {
	case LKST_FLEET_LOSSES:
	case LKST_FLEET_GAPS:
		return losses_rows(fl, t, fn, ctx);
	case LKST_FLEET_FILES:
		return files_row(fl, shipped_by, fn, ctx);
	case LKST_FLEET_EVENTS:
		return events_rows(fl, fn, ctx);
	case LKST_FLEET_SYSCALLS:
		return syscalls_rows(fl, fn, ctx, err);
	case LKST_FLEET_TASKS:
		return tasks_rows(fl, fn, ctx, err);
	default:
		lkst_seterr(err, "table %d has no such rows", (int)t);
		return -1;
	}
}

/*
 * A record's time on the anchor's clock.  A damaged or crafted log may
 * hold any time: the sum is clamped to what the column holds rather than
 * overflowing.
 */
static long long realtime_ns(__u64 t, long long offset)
{
	unsigned long long m;
	long long r;

	if (t > (__u64)LLONG_MAX) {
		if (offset >= 0)
			return LLONG_MAX;
		m = 0ull - (unsigned long long)offset;
		return t - m > (__u64)LLONG_MAX ? LLONG_MAX : (long long)(t - m);
	}
	if (__builtin_add_overflow((long long)t, offset, &r))
		return offset > 0 ? LLONG_MAX : LLONG_MIN;
	return r;
}

/*
 * A record's task name (its COMM argument and the COMM2 after it) or text
 * (its TEXT arguments), as the bytes the kernel packed them in, up to the
 * first NUL; "" for an event without one.  By the log's own event table.
 */
static void record_text(const struct lkst_record *rec, char *out)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	unsigned int a, b, n = 0;
	char bytes[8];

	out[0] = '\0';
	if (!ev)
		return;
	for (a = 0; a < LKST_NR_ARGS; a++) {
		unsigned int type = ev->args[a].type;

		if (!(type == LKST_ARG_COMM || type == LKST_ARG_TEXT ||
		      (type == LKST_ARG_COMM2 && a && ev->args[a - 1].type == LKST_ARG_COMM)))
			continue;
		memcpy(bytes, &rec->arg[a], sizeof(bytes));
		for (b = 0; b < sizeof(bytes); b++) {
			if (!bytes[b])
				goto done;
			out[n++] = bytes[b];
		}
	}
done:
	out[n] = '\0';
}

int lkst_fleet_records(struct lkst_fleet_log *fl, lkst_fleet_row_fn fn, void *ctx,
		       struct lkst_err *err)
{
	struct lkst_fleet_val v[LKST_FLEET_MAX_COLS];
	long long offset = lkst_trace_realtime_offset(fl->trace);
	const struct lkst_log_section *sec;
	struct lkst_trace_iter *it;
	struct lkst_trace_rec r;
	char text[LKST_NR_ARGS * 8 + 1];
	unsigned int a;
	int ret = 0;

	it = lkst_trace_iter_new(fl->trace, LKST_ITER_ALL, err);
	if (!it)
		return -1;
	SET_S(0, fl->host);
	SET_S(1, fl->boot.id);
	while (!ret && lkst_trace_next(it, &r)) {
		sec = lkst_log_get_section(fl->log, r.section);
		SET_I(2, r.cpu);
		SET_I(3, sec->seqs ? sec->seqs[r.index] : sec->info.seq_start + r.index);
		SET_I(4, r.rec->time_ns);
		SET_I(5, realtime_ns(r.rec->time_ns, offset));
		SET_I(6, r.rec->pid);
		SET_I(7, r.rec->context);
		SET_I(8, r.rec->event);
		for (a = 0; a < LKST_NR_ARGS; a++)
			SET_I(9 + a, r.rec->arg[a]);
		record_text(r.rec, text);
		SET_S(9 + LKST_NR_ARGS, text);
		ret = fn(ctx, LKST_FLEET_RECORDS, v);
	}
	lkst_trace_iter_free(it);
	return ret;
}

static const char *ch_type(enum lkst_fleet_type t)
{
	static const char *const names[] = { "String", "UInt8", "UInt16", "UInt32", "UInt64",
					     "Int64" };
	return names[t];
}

int lkst_fleet_ch_ddl(enum lkst_fleet_table_id t, const char *db, const char *cluster,
		      int distributed, char *buf, size_t len)
{
	const struct lkst_fleet_table *tab = &lkst_fleet_tables[t];
	size_t o = 0;
	unsigned int c;

	if (distributed)
		return snprintf(buf, len,
				"CREATE TABLE IF NOT EXISTS %s.%s AS %s.%s_local ENGINE = Distributed(%s, %s, %s_local, %s)",
				db, tab->name, db, tab->name, cluster, db, tab->name,
				t == LKST_FLEET_SYSCALLS ? "nr" : "cityHash64(host, boot)");
	o += snprintf(buf + o, len - o, "CREATE TABLE IF NOT EXISTS %s.%s%s (", db, tab->name,
		      cluster ? "_local" : "");
	for (c = 0; c < tab->nr_cols && o < len; c++)
		o += snprintf(buf + o, len - o, "%s%s %s", c ? ", " : "", tab->cols[c].name,
			      ch_type(tab->cols[c].type));
	if (o < len)
		o += snprintf(buf + o, len - o, ") ENGINE = ReplacingMergeTree() ORDER BY (%s)",
			      tab->key);
	return (int)o;
}

int lkst_fleet_arg_shown(const struct lkst_event_info *ev, unsigned int arg)
{
	unsigned int type = ev->args[arg].type, a;

	if (type == LKST_ARG_NONE)
		return 0;
	if (type == LKST_ARG_COMM2)
		return !arg || ev->args[arg - 1].type != LKST_ARG_COMM;
	if (type != LKST_ARG_TEXT)
		return 1;
	for (a = 0; a < arg; a++)
		if (ev->args[a].type == LKST_ARG_TEXT)
			return 0;
	return 1;
}

/* The record's text column stands for a task name or a text argument. */
static int arg_is_text(const struct lkst_event_info *ev, unsigned int arg)
{
	return ev->args[arg].type == LKST_ARG_COMM || ev->args[arg].type == LKST_ARG_TEXT;
}

int lkst_fleet_event_view(const struct lkst_event_info *ev, const char *db, char *buf,
			  size_t len)
{
	char name[64], q = db ? '`' : '"';
	size_t o = 0;
	unsigned int a;

	o += snprintf(buf + o, len - o,
		      "CREATE VIEW IF NOT EXISTS %s%s%cev_%s%c AS SELECT host, boot, cpu, seq, time_ns, realtime_ns, pid, context",
		      db ? db : "", db ? "." : "", q, ev->mnemonic, q);
	for (a = 0; a < LKST_NR_ARGS && o < len; a++) {
		if (!lkst_fleet_arg_shown(ev, a))
			continue;
		lkst_fleet_arg_name(ev, a, name, sizeof(name));
		if (arg_is_text(ev, a))
			o += snprintf(buf + o, len - o, ", arg_text AS %c%s%c", q, name, q);
		else
			o += snprintf(buf + o, len - o, ", arg%u AS %c%s%c", a + 1, q, name, q);
	}
	if (o < len)
		o += snprintf(buf + o, len - o, " FROM %s%srecords%s WHERE event = %u",
			      db ? db : "", db ? "." : "", db ? " FINAL" : "", ev->id);
	return (int)o;
}

int lkst_fleet_sqlite_ddl(enum lkst_fleet_table_id t, char *buf, size_t len)
{
	const struct lkst_fleet_table *tab = &lkst_fleet_tables[t];
	size_t o = 0;
	unsigned int c;

	o += snprintf(buf + o, len - o, "CREATE TABLE %s (", tab->name);
	for (c = 0; c < tab->nr_cols && o < len; c++)
		o += snprintf(buf + o, len - o, "%s%s %s", c ? ", " : "", tab->cols[c].name,
			      tab->cols[c].type == LKST_FT_TEXT ? "TEXT" : "INTEGER");
	if (o < len)
		o += snprintf(buf + o, len - o, ", PRIMARY KEY (%s)) WITHOUT ROWID", tab->key);
	return (int)o;
}

void lkst_fleet_tsv_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': fputs("\\\\", f); break;
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\0': break;
		default: fputc(*s, f);
		}
	}
}

long lkst_ship_backoff_ms(unsigned long long i)
{
	/* 250 << 6 already passes the 10 s cap; no shift overflows. */
	return i >= 6 ? 10000 : (250L << i) > 10000 ? 10000 : 250L << i;
}

unsigned long long lkst_ship_give_up_ms(unsigned long long tries, unsigned long long timeout_s)
{
	unsigned long long ms = 0, i;

	for (i = 0; i < tries; i++) {
		ms += timeout_s * 1000 + LKST_SHIP_CHECK_MS;
		if (i + 1 < tries)
			ms += lkst_ship_backoff_ms(i);
	}
	return ms;
}

char *lkst_ship_url(const char *base, const char *params)
{
	size_t n = strcspn(base, "#");
	const char *auth = strstr(base, "://");
	const char *sep;
	char *out;

	auth = auth && auth < base + n ? auth + 3 : base;
	if (memchr(base, '?', n))
		sep = base[n - 1] == '?' || base[n - 1] == '&' ? "" : "&";
	else if (memchr(auth, '/', base + n - auth))
		sep = "?";
	else
		sep = "/?";
	if (asprintf(&out, "%.*s%s%s", (int)n, base, sep, params) < 0)
		return NULL;
	return out;
}

char *lkst_ship_redact_url(const char *url, char *buf, size_t len)
{
	const char *auth = strstr(url, "://"), *end, *at, *colon, *p;
	size_t o = 0;

#define PUT(s, n) do { size_t k_ = (n); if (o + k_ >= len) k_ = o + 1 < len ? len - o - 1 : 0; \
		       memcpy(buf + o, (s), k_); o += k_; } while (0)
	if (!len)
		return buf;
	auth = auth ? auth + 3 : url;
	PUT(url, auth - url);
	end = auth + strcspn(auth, "/?#");
	at = NULL;
	for (p = auth; p < end; p++)
		if (*p == '@')
			at = p;
	if (at) {
		colon = memchr(auth, ':', at - auth);
		if (colon) {
			PUT(auth, colon + 1 - auth);
			PUT("***", 3);
			auth = at;
		}
	}
	PUT(auth, end - auth);
	p = end + strcspn(end, "?#");
	PUT(end, p - end);
	while (*p && *p != '#') {
		/* Each parameter of the query string: password=VALUE hidden. */
		size_t k = strcspn(p + 1, "&#");

		if (!strncmp(p + 1, "password=", 9)) {
			PUT(p, 10);
			PUT("***", 3);
		} else {
			PUT(p, k + 1);
		}
		p += k + 1;
	}
	PUT(p, strlen(p));
	buf[o] = '\0';
#undef PUT
	return buf;
}

int lkst_ship_parse_credentials(const char *text, const char *from, char **user,
				char **password, struct lkst_err *err)
{
	size_t n = strcspn(text, "\n");
	const char *colon = memchr(text, ':', n);
	size_t i;

	if (n && text[n - 1] == '\r')
		n--;
	if (!colon || colon == text) {
		lkst_seterr(err, "%s does not begin with USER:PASSWORD; write the ClickHouse user, a colon and the password on its first line",
			    from);
		return -1;
	}
	/* A header line ends at CR or LF: a control character could add headers. */
	for (i = 0; i < n; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f) {
			lkst_seterr(err, "%s: the user or password holds a control character; ClickHouse's headers cannot carry it",
				    from);
			return -1;
		}
	*user = strndup(text, colon - text);
	*password = strndup(colon + 1, text + n - colon - 1);
	if (!*user || !*password) {
		free(*user);
		free(*password);
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	return 0;
}

int lkst_ship_read_credentials(const char *path, char **user, char **password,
			       struct lkst_err *err)
{
	char text[4097];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st)) {
		lkst_seterr(err, "cannot read the credentials file %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		lkst_seterr(err, "the credentials file %s is not a regular file; give a file holding USER:PASSWORD",
			    path);
		close(fd);
		return -1;
	}
	if (st.st_mode & 077) {
		lkst_seterr(err, "the credentials file %s may be read or written by others (mode %04o); make it its owner's only: chmod 600 %s",
			    path, (unsigned int)(st.st_mode & 07777), path);
		close(fd);
		return -1;
	}
	while (got < sizeof(text) - 1 && (n = read(fd, text + got, sizeof(text) - 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			lkst_seterr(err, "cannot read the credentials file %s: %s", path,
				    strerror(errno));
			close(fd);
			explicit_bzero(text, sizeof(text));
			return -1;
		}
		got += n;
	}
	close(fd);
	text[got] = '\0';
	if (strlen(text) != got) {
		lkst_seterr(err, "the credentials file %s holds a NUL byte; write USER:PASSWORD as text",
			    path);
		explicit_bzero(text, sizeof(text));
		return -1;
	}
	ret = lkst_ship_parse_credentials(text, path, user, password, err);
	explicit_bzero(text, sizeof(text));
	return ret;
}
