/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkbuf's verbs, a file per concept (lkbuf.c holds the command table):
 *   lkbuf_buffers.c  list, create, link, delete, jump, resize, mode
 *   lkbuf_read.c     read (the live buffers or the previous boot's)
 *   lkbuf_record.c   record (rotating logs or one log, until a signal)
 *   lkbuf_record_session.c  record -e: its maskset, the command it runs
 *   lkbuf_extract.c  extract (a kdump vmcore)
 *   lkbuf_info.c     info;  lkbuf_print.c print;  lkbuf_convert.c convert
 *   lkbuf_mark.c     mark
 *   lkbuf_report.c   report (summaries of a log, lkst_report.c)
 *   lkbuf_sql.c      sql (a log as a SQLite database, lkst_fleet.h)
 *   lkbuf_ship.c     ship (logs into ClickHouse, lkst_fleet.h)
 * and what read, record and extract share (lkbuf_save.c).
 */
#ifndef LKBUF_CMDS_H
#define LKBUF_CMDS_H

#include "lkst_cli.h"
#include "lkst_drain.h"
#include "lkst_logio.h"

extern const struct lkst_verb_ops lkbuf_list_ops, lkbuf_create_ops, lkbuf_link_ops,
	lkbuf_delete_ops, lkbuf_jump_ops, lkbuf_resize_ops, lkbuf_mode_ops,
	lkbuf_read_ops, lkbuf_record_ops, lkbuf_extract_ops, lkbuf_info_ops,
	lkbuf_mark_ops, lkbuf_convert_ops, lkbuf_report_ops, lkbuf_sql_ops, lkbuf_ship_ops;

/* ---- CPUs and blocks (lkbuf_buffers.c) ---------------------------------- */

/* -c CPU, required by verb. */
unsigned int lkbuf_cpu_option(const char *value, const char *verb);
/* Exits with a usage error when the machine has no such CPU. */
void lkbuf_check_cpu(const struct lkst_cmd *cmd, unsigned int cpu);
void lkbuf_cpu_info(int fd, unsigned int cpu, struct lkst_cpu_info *info);
/* "overwrite" or "stop" as LKST_MODE_*, else a usage error. */
unsigned int lkbuf_mode_value(const char *value);
/* cpu may be LKST_ALL_CPUS. */
void lkbuf_set_mode(int fd, unsigned int cpu, unsigned int mode);
/* -s SIZE of a block, required by verb. */
unsigned int lkbuf_size_option(const char *value, const char *verb);
/* Every block of every CPU replaced by an empty one of size bytes. */
void lkbuf_resize(int fd, unsigned int size);

/* ---- Draining and saving (lkbuf_save.c) ------------------------------- */

/* Tries before a gap that may be a record in flight counts as lost. */
#define LKBUF_STALL_RETRIES	50

/* Room for one CPU's records and their sequence numbers. */
struct lkbuf_drain_buf {
	struct lkst_record *records;
	__u64 *seqs;
	size_t cap;
};

void lkbuf_drain_buf_free(struct lkbuf_drain_buf *b);
void lkbuf_drain_cpu(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
		     unsigned int flags, struct lkbuf_drain_buf *b,
		     struct lkst_buffer_drain *req, struct lkst_drain_result *res);
void lkbuf_drain_cpu_settled(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
			     unsigned int flags, struct lkbuf_drain_buf *b,
			     struct lkst_buffer_drain *req, struct lkst_drain_result *res);
void lkbuf_sleep_ms(long ms);

void lkbuf_init_log_header(int fd, const struct lkst_version *version,
			   const struct lkst_previous_info *prev,
			   unsigned int nr_cpus, struct lkst_log_header *h);
/* A new log, removed at exit unless lkbuf_commit_log() commits it. */
struct lkst_log_writer *lkbuf_create_log(const char *path, const struct lkst_log_header *h,
					 const char *source);
void lkbuf_collect_ksyms(const struct lkst_record *recs, size_t n);
void lkbuf_save_ksyms(struct lkst_log_writer *w);
struct lkst_ksym_kallsyms;
struct lkst_ksym_set;
struct lkst_ksym_kallsyms *lkbuf_read_kallsyms(void);
void lkbuf_save_ksyms_of(struct lkst_log_writer *w, const struct lkst_ksym_kallsyms *ks,
			 struct lkst_ksym_set *s);
void lkbuf_commit_log(struct lkst_log_writer *w);
/* At exit, or before exiting: removes a log created and not committed. */
void lkbuf_abort_unfinished_log(void);

#endif /* LKBUF_CMDS_H */
