// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf sql -f LOG -o DB: a log (a rotated set, a previous boot's or a
 * vmcore's log alike: the trace reader opens them) as a SQLite database
 * of the fleet schema (lkst_fleet.h, docs/fleet.md), with ready views
 * pairing events by the rules lkbuf report and lkm agg use
 * (lkst_report.h): system calls, scheduling latency, IRQ durations, and
 * per-process state intervals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"
#include "lkst_fleet.h"
#include "lkst_format_int.h"
#include "lkst_outfile.h"

static char *out_path;

static struct poptOption sql_options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
	{ "output", 'o', POPT_ARG_STRING, &out_path, 0,
	  "the SQLite database to write (replaced whole, atomically; a link's target is; not a device or FIFO)", "DB" },
	LKST_POPT_TAIL
};

#ifdef LKST_FLEET_ABSENT
/* lkbuf.static (a guest's): no SQLite in it. */
static int run_sql(struct lkst_cmd *cmd)
{
	(void)cmd;
	lkst_die(LKST_EXIT_USAGE, "sql is not in this static lkbuf (it has no SQLite); copy the log to a machine with the dynamic lkbuf and run lkbuf sql there (docs/fleet.md)");
}
#else
#include <sqlite3.h>

/*
 * Numbers of the events the views pair, spelled out for the SQL text;
 * checked against the event table's (IDs are never renumbered).
 */
#define EV_SYSCALL_ENTRY	48
#define EV_SYSCALL_EXIT		49
#define EV_PROCESS_CONTEXTSWITCH 1
#define EV_PROCESS_WAKEUP	2
#define EV_PROCESS_WAKEUP_NEW	14
#define EV_INT_HARDWARE_ENTRY	16
#define EV_INT_HARDWARE_EXIT	17
_Static_assert(EV_SYSCALL_ENTRY == LKST_EV_SYSCALL_ENTRY &&
	       EV_SYSCALL_EXIT == LKST_EV_SYSCALL_EXIT &&
	       EV_PROCESS_CONTEXTSWITCH == LKST_EV_PROCESS_CONTEXTSWITCH &&
	       EV_PROCESS_WAKEUP == LKST_EV_PROCESS_WAKEUP &&
	       EV_PROCESS_WAKEUP_NEW == LKST_EV_PROCESS_WAKEUP_NEW &&
	       EV_INT_HARDWARE_ENTRY == LKST_EV_INT_HARDWARE_ENTRY &&
	       EV_INT_HARDWARE_EXIT == LKST_EV_INT_HARDWARE_EXIT,
	       "the views' event numbers are the event table's");
#define S(x)	#x
#define S2(x)	S(x)

/*
 * The pairing rules of lkst_report.c, as window functions over the
 * records in the reader's merged order (time, then CPU, then sequence):
 * syscall: a task's SYSCALL_ENTRY (not exit/exit_group) and its next
 * SYSCALL_EXIT, the entry's number or rt_sigreturn's -1; sched: a wakeup
 * of a task (not of current) and its next switch-in, a switch-out while
 * runnable forgetting the wakeup; irq: a handler's entry and the first
 * matching exit at that CPU and context.  Pids 1..0x7fffffff, as agg.
 */
static const char *const views_sql[] = {
	"CREATE VIEW v_records AS SELECT r.*, e.mnemonic AS event_name FROM records r "
	"LEFT JOIN events e ON e.host = r.host AND e.boot = r.boot AND e.event = r.event",

	"CREATE VIEW v_syscalls AS WITH s AS ("
	" SELECT host, boot, cpu, time_ns, pid, event, arg1, arg2,"
	"  LAG(event) OVER w AS p_event, LAG(arg1) OVER w AS p_nr,"
	"  LAG(time_ns) OVER w AS p_time, LAG(cpu) OVER w AS p_cpu"
	" FROM records WHERE pid BETWEEN 1 AND 2147483647 AND (event = " S2(EV_SYSCALL_EXIT)
	"  OR (event = " S2(EV_SYSCALL_ENTRY)
	"   AND NOT ((arg1 >> 32) = 0 AND (arg1 & 4294967295) IN (60, 231))"
	"   AND NOT ((arg1 >> 32) = 1 AND (arg1 & 4294967295) IN (1, 252))))"
	" WINDOW w AS (PARTITION BY host, boot, pid ORDER BY time_ns, cpu, seq))"
	" SELECT s.host, s.boot, s.pid, s.p_cpu AS entry_cpu, s.cpu AS exit_cpu,"
	"  s.p_nr AS nr, n.name AS name, s.p_time AS entry_ns, s.time_ns AS exit_ns,"
	"  s.time_ns - s.p_time AS duration_ns, s.arg2 AS ret"
	" FROM s LEFT JOIN syscalls n ON n.nr = s.p_nr"
	" WHERE s.event = " S2(EV_SYSCALL_EXIT) " AND s.p_event = " S2(EV_SYSCALL_ENTRY)
	"  AND (s.p_nr = s.arg1 OR (s.arg1 & 4294967295) = 4294967295)",

	"CREATE VIEW v_sched_latency AS WITH i AS ("
	" SELECT host, boot, cpu, seq, time_ns, 0 AS sub, 'start' AS kind, arg1 AS target"
	"  FROM records WHERE event = " S2(EV_PROCESS_WAKEUP_NEW)
	"   OR (event = " S2(EV_PROCESS_WAKEUP) " AND arg1 != pid)"
	" UNION ALL SELECT host, boot, cpu, seq, time_ns, 0, 'cancel', arg1"
	"  FROM records WHERE event = " S2(EV_PROCESS_CONTEXTSWITCH) " AND arg3 = 0"
	" UNION ALL SELECT host, boot, cpu, seq, time_ns, 1, 'end', arg2"
	"  FROM records WHERE event = " S2(EV_PROCESS_CONTEXTSWITCH) "),"
	" p AS (SELECT *, LAG(kind) OVER w AS p_kind, LAG(time_ns) OVER w AS p_time"
	"  FROM i WHERE (target & 4294967295) BETWEEN 1 AND 2147483647"
	"  WINDOW w AS (PARTITION BY host, boot, target & 4294967295"
	"   ORDER BY time_ns, cpu, seq, sub))"
	" SELECT host, boot, target & 4294967295 AS pid, cpu, p_time AS wakeup_ns,"
	"  time_ns AS switch_ns, time_ns - p_time AS latency_ns"
	" FROM p WHERE kind = 'end' AND p_kind = 'start'",

	"CREATE VIEW v_irqs AS WITH i AS ("
	" SELECT host, boot, cpu, context & 3 AS ctx, time_ns, event, arg1 AS irq,"
	"  CASE WHEN event = " S2(EV_INT_HARDWARE_ENTRY) " THEN arg2 ELSE arg3 END AS handler,"
	"  ROW_NUMBER() OVER (PARTITION BY host, boot, cpu, context & 3"
	"   ORDER BY time_ns, cpu, seq) AS n"
	" FROM records WHERE event IN (" S2(EV_INT_HARDWARE_ENTRY) ", "
	S2(EV_INT_HARDWARE_EXIT) ")),"
	" l AS (SELECT *, MAX(CASE WHEN event = " S2(EV_INT_HARDWARE_ENTRY) " THEN n END)"
	"  OVER (PARTITION BY host, boot, cpu, ctx ORDER BY n) AS last_entry FROM i),"
	" m AS (SELECT x.*, e.time_ns AS entry_ns, ROW_NUMBER() OVER"
	"  (PARTITION BY x.host, x.boot, x.cpu, x.ctx, x.last_entry ORDER BY x.n) AS k"
	"  FROM l x JOIN i e ON e.host = x.host AND e.boot = x.boot AND e.cpu = x.cpu"
	"   AND e.ctx = x.ctx AND e.n = x.last_entry"
	"  WHERE x.event = " S2(EV_INT_HARDWARE_EXIT)
	"   AND e.irq = x.irq AND e.handler = x.handler)"
	" SELECT host, boot, cpu, ctx AS context, irq, handler, entry_ns, time_ns AS exit_ns,"
	"  time_ns - entry_ns AS duration_ns FROM m WHERE k = 1",

	/*
	 * A task's states between its scheduler events: running from a
	 * switch-in, then runnable (switched out runnable, or woken) or
	 * sleeping (S) or blocked (D) until its next one.
	 */
	"CREATE VIEW v_proc_states AS WITH i AS ("
	" SELECT host, boot, cpu, seq, time_ns, 1 AS sub, arg2 & 4294967295 AS pid,"
	"  'running' AS state FROM records WHERE event = " S2(EV_PROCESS_CONTEXTSWITCH)
	" UNION ALL SELECT host, boot, cpu, seq, time_ns, 0, arg1 & 4294967295,"
	"  CASE WHEN arg3 = 0 THEN 'runnable' WHEN arg3 & 2 THEN 'blocked'"
	"   ELSE 'sleeping' END"
	"  FROM records WHERE event = " S2(EV_PROCESS_CONTEXTSWITCH)
	" UNION ALL SELECT host, boot, cpu, seq, time_ns, 0, arg1 & 4294967295, 'runnable'"
	"  FROM records WHERE event IN (" S2(EV_PROCESS_WAKEUP) ", "
	S2(EV_PROCESS_WAKEUP_NEW) ")),"
	" n AS (SELECT *, LEAD(time_ns) OVER (PARTITION BY host, boot, pid"
	"  ORDER BY time_ns, cpu, seq, sub) AS end_ns FROM i WHERE pid != 0)"
	" SELECT host, boot, pid, state, time_ns AS start_ns, end_ns,"
	"  end_ns - time_ns AS duration_ns FROM n WHERE end_ns IS NOT NULL",
};

struct sql_out {
	sqlite3 *db;
	sqlite3_stmt *ins[LKST_FLEET_NR_TABLES];
	const char *path;
};

static void sql_die(struct sql_out *o, const char *what)
{
	lkst_die(LKST_EXIT_USAGE, "%s: %s: %s", o->path, what, sqlite3_errmsg(o->db));
}

static void sql_exec(struct sql_out *o, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(o->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "lkbuf: %s\n", sql);
		lkst_die(LKST_EXIT_USAGE, "%s: %s", o->path, msg ? msg : "SQLite failed");
	}
}

static int sql_row(void *ctx, enum lkst_fleet_table_id t, const struct lkst_fleet_val *v)
{
	struct sql_out *o = ctx;
	sqlite3_stmt *st = o->ins[t];
	unsigned int c;
	int rc;

	for (c = 0; c < lkst_fleet_tables[t].nr_cols; c++) {
		if (v[c].s)
			rc = sqlite3_bind_text(st, c + 1, v[c].s, -1, SQLITE_STATIC);
		else
			rc = sqlite3_bind_int64(st, c + 1, v[c].i);
		if (rc != SQLITE_OK)
			sql_die(o, "binding a value");
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		sql_die(o, lkst_fleet_tables[t].name);
	sqlite3_reset(st);
	return 0;
}

/* ev_MNEMONIC: an event's records, arguments named by the log's table. */
static void event_views(struct sql_out *o)
{
	char sql[2048];
	unsigned int i;

	for (i = 0; i < lkst_nr_events; i++) {
		lkst_fleet_event_view(&lkst_events[i], NULL, sql, sizeof(sql));
		sql_exec(o, sql);
	}
}

static int run_sql(struct lkst_cmd *cmd)
{
	struct lkst_fleet_log fl;
	struct sql_out o = { 0 };
	struct outfile of;
	struct lkst_err err;
	char sql[2048], host[4 * sizeof(fl.host) + 1];
	unsigned int t, c;
	size_t k;
	int fd;

	(void)cmd;
	lkst_require(out_path, "-o DB", "sql");
	if (lkst_fleet_wrap(&fl, lkbuf_open_input("sql", 0), lkbuf_input_name(), &err))
		lkst_die(LKST_EXIT_USAGE, "%s: %s", lkbuf_input_name(), err.msg);
	/* SQLite seeks in its file: not standard output, a device or a FIFO. */
	if (!strcmp(out_path, "-"))
		lkst_die(LKST_EXIT_USAGE, "-o -: a SQLite database is written by seeking in a file, not to standard output; give a file name");
	if (outfile_resolve(&of, out_path, "a SQLite database", OUTFILE_SEEKS, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	o.path = out_path;
	fd = outfile_create_tmp(&of, &err);
	if (fd < 0)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	close(fd);
	if (sqlite3_open_v2(of.tmp, &o.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW,
			    NULL) != SQLITE_OK)
		sql_die(&o, "cannot create it");
	/* A half-written database is never renamed into place: no journal. */
	sql_exec(&o, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
	for (t = 0; t < LKST_FLEET_NR_TABLES; t++) {
		lkst_fleet_sqlite_ddl(t, sql, sizeof(sql));
		sql_exec(&o, sql);
		k = snprintf(sql, sizeof(sql), "INSERT OR REPLACE INTO %s VALUES (",
			     lkst_fleet_tables[t].name);
		for (c = 0; c < lkst_fleet_tables[t].nr_cols; c++)
			k += snprintf(sql + k, sizeof(sql) - k, "%s?", c ? ", " : "");
		snprintf(sql + k, sizeof(sql) - k, ")");
		if (sqlite3_prepare_v2(o.db, sql, -1, &o.ins[t], NULL) != SQLITE_OK)
			sql_die(&o, sql);
	}
	if (lkst_fleet_records(&fl, sql_row, &o, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	for (t = LKST_FLEET_LOSSES; t < LKST_FLEET_NR_TABLES; t++)
		if (lkst_fleet_meta_rows(&fl, t, "lkbuf sql", sql_row, &o, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	for (k = 0; k < sizeof(views_sql) / sizeof(views_sql[0]); k++)
		sql_exec(&o, views_sql[k]);
	event_views(&o);
	sql_exec(&o, "COMMIT");
	for (t = 0; t < LKST_FLEET_NR_TABLES; t++)
		sqlite3_finalize(o.ins[t]);
	if (sqlite3_close(o.db) != SQLITE_OK)
		sql_die(&o, "cannot close it");
	if (outfile_commit(&of, &err)) {
		outfile_discard(&of);
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
	/* The log's host name may hold terminal escapes. */
	lkst_fmt_escape_bytes((const unsigned char *)fl.host, sizeof(fl.host), host, sizeof(host));
	printf("lkbuf: %s: %llu records of %s (host %s, boot %s)\n", out_path,
	       lkst_trace_nr_records(fl.trace), lkbuf_input_name(),
	       host[0] ? host : "?", fl.boot.id);
	outfile_free(&of);
	lkst_fleet_close(&fl);
	lkbuf_select_free();
	return LKST_EXIT_OK;
}

#endif /* LKST_FLEET_ABSENT */

const struct lkst_verb_ops lkbuf_sql_ops = { sql_options, NULL, NULL, run_sql, NULL };
