/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fleet schema (docs/fleet.md): the tables a log becomes, in SQLite
 * (lkbuf sql) and in ClickHouse (lkbuf ship), defined once here, and the
 * walk that turns a log into their rows.  Every row carries the host and
 * boot of its log (LKST_META_BOOT, lkst_logboot.h), so that the logs of
 * many machines and reboots can share one table; (host, boot, cpu, seq)
 * names a record uniquely, which is what makes shipping a file twice
 * harmless (ClickHouse: ReplacingMergeTree ordered by that key).
 */
#ifndef LKST_FLEET_H
#define LKST_FLEET_H

#include <stdio.h>

#include "lkst_logboot.h"
#include "lkst_logio.h"

enum lkst_fleet_type { LKST_FT_TEXT, LKST_FT_U8, LKST_FT_U16, LKST_FT_U32, LKST_FT_U64, LKST_FT_I64 };

struct lkst_fleet_col {
	const char *name;
	enum lkst_fleet_type type;
};

struct lkst_fleet_table {
	const char *name;
	const struct lkst_fleet_col *cols;
	unsigned int nr_cols;
	const char *key;		/* what names a row: the ORDER BY of ClickHouse */
};

enum lkst_fleet_table_id {
	LKST_FLEET_RECORDS,		/* one row per record */
	LKST_FLEET_LOSSES,		/* per CPU section: counts of lost records */
	LKST_FLEET_GAPS,		/* exact runs of lost sequence numbers */
	LKST_FLEET_FILES,		/* the logs converted or shipped */
	LKST_FLEET_EVENTS,		/* the log's event table, arguments named */
	LKST_FLEET_SYSCALLS,		/* system call names of the numbers seen */
	LKST_FLEET_TASKS,		/* the log's saved task names */
	LKST_FLEET_NR_TABLES,
};

extern const struct lkst_fleet_table lkst_fleet_tables[LKST_FLEET_NR_TABLES];

/* A column value: text (s) or an integer (i, a u64 stored as its bits). */
struct lkst_fleet_val {
	const char *s;
	long long i;
};

#define LKST_FLEET_MAX_COLS	20

/*
 * One row of table t; returns 0 to go on, non-zero to stop the walk
 * (which then returns that value).
 */
typedef int (*lkst_fleet_row_fn)(void *ctx, enum lkst_fleet_table_id t,
				 const struct lkst_fleet_val *v);

/* An opened log and what every row of it says. */
struct lkst_fleet_log {
	struct lkst_trace *trace;
	const struct lkst_log *log;
	char host[66];
	struct lkst_log_boot boot;
	int boot_saved;			/* the log has LKST_META_BOOT */
	const char *file;		/* its name in the files table */
	unsigned long long bytes;	/* its size, 0 if unknown */
};

/*
 * Takes an opened trace (closed by lkst_fleet_close(), even when this
 * fails); name: the files row's, whose size it tells when it is a file.
 */
int lkst_fleet_wrap(struct lkst_fleet_log *fl, struct lkst_trace *trace, const char *name,
		    struct lkst_err *err);
void lkst_fleet_close(struct lkst_fleet_log *fl);

/* The rows of one table (not LKST_FLEET_RECORDS: lkst_fleet_records()). */
int lkst_fleet_meta_rows(struct lkst_fleet_log *fl, enum lkst_fleet_table_id t,
			 const char *shipped_by, lkst_fleet_row_fn fn, void *ctx,
			 struct lkst_err *err);
/* Every record, CPU by CPU in sequence order; 0, fn's value, or -1 with err. */
int lkst_fleet_records(struct lkst_fleet_log *fl, lkst_fleet_row_fn fn, void *ctx,
		       struct lkst_err *err);

/*
 * An argument's column name, unique in the event: the name events.def
 * gives it (the built-in table's) for an event this lkbuf knows by that
 * ID and mnemonic, else its description made a column name (a dynamic
 * probe's), else "argN".
 */
void lkst_fleet_arg_name(const struct lkst_event_info *ev, unsigned int arg, char *buf,
			 size_t len);

/*
 * ClickHouse's DDL for table t in database db: cluster NULL, one table
 * named t; else t_local on this server and t, a Distributed table over
 * cluster's shards, sharded by host and boot (a boot's rows on one shard,
 * where ReplacingMergeTree finds their duplicates).  Into buf; the length.
 */
int lkst_fleet_ch_ddl(enum lkst_fleet_table_id t, const char *db, const char *cluster,
		      int distributed, char *buf, size_t len);
/*
 * Whether an argument is a column of ev_MNEMONIC: a task name (COMM, with
 * the COMM2 after it) and a text (its TEXT arguments) are one column, the
 * record's text; the others are their own.
 */
int lkst_fleet_arg_shown(const struct lkst_event_info *ev, unsigned int arg);
/*
 * ev_MNEMONIC, a view of one event's records with its arguments named
 * (lkst_fleet_arg_name()), a task name or text as text: db NULL and no FINAL for SQLite, else
 * ClickHouse's, over db.records FINAL.  Into buf; the length.
 */
int lkst_fleet_event_view(const struct lkst_event_info *ev, const char *db, char *buf,
			  size_t len);
/* SQLite's CREATE TABLE of t. */
int lkst_fleet_sqlite_ddl(enum lkst_fleet_table_id t, char *buf, size_t len);

/* Appends v as a TabSeparated field (escaped) to f. */
void lkst_fleet_tsv_text(FILE *f, const char *s);

/*
 * How lkbuf ship gives up (docs/fleet.md).  A try ends when nothing is
 * sent or received for its timeout, counted from its start, so connecting
 * is inside it too; the waits between tries double.  With the defaults a
 * server that accepts and never answers is given up within
 * LKST_SHIP_GIVE_UP_BOUND seconds: tries x (timeout + the check's
 * granularity) + the waits.
 */
#define LKST_SHIP_TRIES			12
#define LKST_SHIP_CONNECT_TIMEOUT	10	/* seconds */
#define LKST_SHIP_TIMEOUT		15	/* seconds of silence */
#define LKST_SHIP_CHECK_MS		1000	/* how late a silent try may be noticed */
#define LKST_SHIP_GIVE_UP_BOUND		300	/* seconds */

/* The wait after failed try i (from 0), in milliseconds: 250 doubling to 10000. */
long lkst_ship_backoff_ms(unsigned long long i);
/*
 * The longest tries tries of timeout_s seconds each take against a server
 * that never answers, waits included, in milliseconds.
 */
unsigned long long lkst_ship_give_up_ms(unsigned long long tries, unsigned long long timeout_s);

/*
 * base (as --url gives it) with params added to its query string, its
 * fragment dropped: http://h:8123/?user=u&password=p keeps its user.
 * NULL when out of memory; freed by the caller.
 */
char *lkst_ship_url(const char *base, const char *params);
/*
 * url as it may be printed: a password in its user info or its query
 * string (password=) replaced by ***.  Into buf; buf.
 */
char *lkst_ship_redact_url(const char *url, char *buf, size_t len);

/*
 * "USER:PASSWORD" (the first line of text, split at its first colon) into
 * user and password, both malloc'd; from names the source for messages.
 * 0, or -1 with err (which never holds the password).
 */
int lkst_ship_parse_credentials(const char *text, const char *from, char **user,
				char **password, struct lkst_err *err);
/*
 * The same from a file that only its owner may read or write (refused
 * otherwise, with what to do).
 */
int lkst_ship_read_credentials(const char *path, char **user, char **password,
			       struct lkst_err *err);

#endif /* LKST_FLEET_H */
