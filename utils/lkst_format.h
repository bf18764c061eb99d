/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text forms: trace records as human text or CSV, and masksets as the
 * line-per-event text that `lkm read` prints and `lkm write` parses.
 */
#ifndef LKST_FORMAT_H
#define LKST_FORMAT_H

#include <stdio.h>

#include "lkst_util.h"
#include "lkst_sysnames.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lkst_comm_map;
struct lkst_ksym_table;

struct lkst_format_opts {
	int csv;		/* -C: CSV instead of text */
	int raw;		/* -r: every used argument as hex */
	int seconds;		/* -S: time as seconds.nanoseconds */
	int verbose;		/* -V: argument descriptions in CSV */
	/*
	 * Text only: "hh:mm:ss.uuuuuu  #CPU  PID  COMM  EVENT args", the time
	 * of day in local time (time_ns + realtime_offset_ns is CLOCK_REALTIME)
	 * and COMM the pid's name from comms ("?" when unknown or no map).
	 */
	int human;
	long long realtime_offset_ns;
	const struct lkst_comm_map *comms;
	/*
	 * Kernel symbols (lkst_ksym.h), or NULL: without -r, a KSYM
	 * argument shows as "name+0xOFF/0xSIZE" (text and CSV) when one
	 * covers it, else as hex; a STACKPOS as "EVENT frames 0-4 of 12";
	 * the unused frame slots of a stack's last record are left out.
	 */
	const struct lkst_ksym_table *symbols;
	/*
	 * Text only: a STACK_KERNEL or STACK_USER record shows as one line per
	 * frame under its event, "    kernel #N  FRAME" / "    user   #N  FRAME".
	 */
	int stacks;
};

/* Task state bits as names joined by '|'; "TASK_RUNNING" for 0. */
void lkst_format_state(unsigned long long state, char *buf, size_t len);

/* 16 bytes of a command name held in two arguments, escaped printable. */
void lkst_format_comm(unsigned long long a, unsigned long long b,
		      char *buf, size_t len);

/* One argument as the options want it; "" for an unused slot. */
void lkst_format_arg(const struct lkst_record *rec, unsigned int index,
		     const struct lkst_format_opts *opts, char *buf, size_t len);

/*
 * Typed fields, for exporters (lkbuf convert): the arguments lkbuf print
 * shows for an event without -r, one field each (a command name's two
 * arguments and a run of TEXT arguments are one field), with a name and a
 * type.  Numbers are the argument's value; TEXT fields hold exactly the
 * text lkbuf print shows (decoded states, escaped names and text).
 */
enum lkst_field_type {
	LKST_FIELD_S64,		/* DEC, RETVAL */
	LKST_FIELD_U64,		/* UDEC, PID */
	LKST_FIELD_HEX,		/* HEX, and every argument of an unknown event */
	LKST_FIELD_SYSNR,	/* LKST_SYSCALL_NR() and LKST_SYSCALL_ABI() */
	LKST_FIELD_TEXT,	/* STATE, COMM, TEXT */
};

#define LKST_FIELD_NAME_LEN	48
#define LKST_FIELD_TEXT_LEN	256	/* room for any TEXT field's value */

struct lkst_field {
	unsigned int arg;		/* index of its (first) argument */
	enum lkst_field_type type;
	/*
	 * [a-z0-9_], not starting with a digit, unique in the event: the
	 * description up to a ',', ':' or '(' ("target cpu, -1 for a mask"
	 * is target_cpu), else argN.
	 */
	char name[LKST_FIELD_NAME_LEN];
};

/* Fills fields (LKST_NR_ARGS at most) for ev, NULL for an unknown ID; the count. */
unsigned int lkst_event_fields(const struct lkst_event_info *ev,
			       struct lkst_field fields[LKST_NR_ARGS]);

/* A TEXT field's value in rec, as lkbuf print shows it. */
void lkst_field_text(const struct lkst_record *rec, const struct lkst_field *f,
		     char *buf, size_t len);

/*
 * Text (not CSV, not -r) shows a negative RETVAL with its errno name
 * (lkst_errno_name(), lkst_sysnames.h), "-2(ENOENT)", and marks the
 * mnemonic of an error record with a '!' ("!SYSCALL_ERROR"): a
 * SYSCALL_ERROR, an EXCEPTION_FAULT_SIGNAL, or a SYSCALL_EXIT returning
 * -4095..-1 (not number -1, rt_sigreturn).
 */
int lkst_record_is_error(const struct lkst_record *rec);

/* Writes a CSV field, quoted per RFC 4180 when it must be. */
void lkst_csv_field(FILE *out, const char *field);

/* Escaped text of consecutive TEXT arguments, up to the first NUL. */
void lkst_format_text(const __u64 *args, unsigned int nr_args, char *buf, size_t len);

void lkst_format_csv_header(FILE *out, const struct lkst_format_opts *opts);
void lkst_format_record(FILE *out, const struct lkst_record *rec, unsigned int cpu,
			const struct lkst_format_opts *opts);

/*
 * Buffered output for many records: the same text as lkst_format_record,
 * written with few library calls.  Write errors show in ferror(fp).  An
 * opaque handle: new (NULL when out of memory) writes to fp, init points
 * it at another fp and forgets what it kept from the records before (the
 * output's own, so that formatting is reentrant); flush writes what it
 * holds; free frees it without flushing.
 */
struct lkst_outbuf;
struct lkst_outbuf *lkst_outbuf_new(FILE *fp);
void lkst_outbuf_free(struct lkst_outbuf *o);
void lkst_outbuf_init(struct lkst_outbuf *o, FILE *fp);
void lkst_outbuf_flush(struct lkst_outbuf *o);
void lkst_format_record_buf(struct lkst_outbuf *o, const struct lkst_record *rec,
			    unsigned int cpu, const struct lkst_format_opts *opts);

/* ---- Command names of pids (learned in time order) ------------------ */

/*
 * From PROCESS_CONTEXTSWITCH (next pid, next comm) and PROCESS_WAKEUP
 * (target pid, target comm).  Pid 0, the idle tasks, is kept per CPU.
 */
struct lkst_comm_map *lkst_comm_map_new(void);
void lkst_comm_map_free(struct lkst_comm_map *m);
void lkst_comm_map_learn(struct lkst_comm_map *m, const struct lkst_record *rec,
			 unsigned int cpu);
/*
 * A name saved with the log (LKST_META_TASKS) for a pid (not 0) that no
 * record has named yet; a name learned later replaces it.
 */
void lkst_comm_map_save(struct lkst_comm_map *m, __u32 pid, const char comm[16]);
/* The escaped name, or NULL if not known yet. */
const char *lkst_comm_map_name(const struct lkst_comm_map *m, __u32 pid,
			       unsigned int cpu);

/* ---- Record selection (lkbuf print -e -p -n -t -c) ---------------- */

/*
 * One meaning in every tool (lkbuf print and the visualizers):
 *   -p PID,...     decimal or 0x hex pids
 *   -n NAME,...    command names as printed (escaped): NAME matches exactly,
 *                  PREFIX* every name that starts with PREFIX ("*" any name)
 *   -t START,END   a window, see lkst_parse_window()
 *   -c CPU,...     CPU numbers, decimal or 0x hex
 *
 * A selection is an opaque handle: lkst_select_new(), the parsers below
 * add to it, lkst_select_match() applies it, lkst_select_free() frees it.
 * It is what the trace reader's lkst_trace_select() makes of a struct
 * lkst_trace_select (the same lists as text, lkst_logio.h); a program
 * holding records of its own may use one directly.
 */
struct lkst_select;

/* A selection that passes every record; NULL with err set when out of memory. */
struct lkst_select *lkst_select_new(struct lkst_err *err);

/* Each parses a comma-separated list; 0, or -1 with err set. */
int lkst_select_events(struct lkst_select *f, const char *list, struct lkst_err *err);
int lkst_select_pids(struct lkst_select *f, const char *list, struct lkst_err *err);
int lkst_select_comms(struct lkst_select *f, const char *list, struct lkst_err *err);
int lkst_select_cpus(struct lkst_select *f, const char *list, struct lkst_err *err);

/*
 * "START,END", inclusive, as trace-clock nanoseconds; either side may be
 * empty (0, or ~0 for END).  Each side is seconds of the trace clock
 * ("12.5", up to 9 decimals) or, given an anchor, a time of day as the
 * default text of lkbuf print shows it ("hh:mm:ss[.frac]", local time,
 * TZ honoured) on the day of the anchor's CLOCK_REALTIME, converted with
 * realtime_offset = anchor realtime - anchor trace time.  When both sides
 * are times of day and END is earlier than START, the window crosses
 * midnight: END is on the next day.  The anchor (struct lkst_clock_anchor
 * of the uapi: trace time trace_ns was CLOCK_REALTIME realtime_ns) is a
 * log header's anchor_trace_ns and anchor_realtime_ns.  A time of day
 * without an anchor (CSV input), or a window that ends before it starts,
 * is an error.
 */
int lkst_parse_window(const char *range, const struct lkst_clock_anchor *anchor,
		      unsigned long long *start_ns, unsigned long long *end_ns,
		      struct lkst_err *err);
/* "12.5": seconds with up to 9 decimals, as ns; 0, or -1 if it is not. */
int lkst_parse_seconds(const char *s, unsigned long long *ns);
/* lkst_parse_window() into f; anchor may be NULL (seconds only). */
int lkst_select_window(struct lkst_select *f, const char *range,
		       const struct lkst_clock_anchor *anchor, struct lkst_err *err);
/* lkst_select_window(f, range, NULL, err): seconds of the trace clock. */
int lkst_select_time(struct lkst_select *f, const char *range, struct lkst_err *err);

/* Whether a command name (as printed) matches a -n pattern (see above). */
int lkst_comm_match(const char *pattern, const char *name);
/* Whether f's -n names match name (NULL: no), f's -p pids hold pid. */
int lkst_select_comm_wanted(const struct lkst_select *f, const char *name);
int lkst_select_pid_wanted(const struct lkst_select *f, unsigned long long pid);

/*
 * Whether a record passes every list given.  The pid list also matches
 * the prev/next pid of a PROCESS_CONTEXTSWITCH and the target pid of a
 * PROCESS_WAKEUP; the comm list the record's own pid's name in comms and
 * those events' comm argument; the CPU list the CPU that recorded it.
 */
int lkst_select_match(const struct lkst_select *f, const struct lkst_record *rec,
		      unsigned int cpu, const struct lkst_comm_map *comms);
/* Frees f (NULL: nothing). */
void lkst_select_free(struct lkst_select *f);

/*
 * What the lists hold, in the order given (a CPU range expanded): *nr
 * items, none when the list was not given.
 */
const __u32 *lkst_select_pid_list(const struct lkst_select *f, size_t *nr);
const char *const *lkst_select_comm_list(const struct lkst_select *f, size_t *nr);
const __u32 *lkst_select_cpu_list(const struct lkst_select *f, size_t *nr);

const char *lkst_context_name(unsigned int context);

/* ---- Maskset text ----------------------------------------------------- */

/* Writes the text form: a name comment, then one line per table event. */
void lkst_maskset_format(FILE *out, const struct lkst_maskset_desc *desc,
			 const struct lkst_handler_names *handlers);

/*
 * Parses the text form into desc->handler[] (unlisted events: NOTHING) and
 * the name from the "# lkst maskset N "name"" comment into name_out ("" if
 * none).  Errors name the line.
 */
int lkst_maskset_parse(FILE *in, struct lkst_maskset_desc *desc,
		       char name_out[LKST_NAME_LEN],
		       const struct lkst_handler_names *handlers,
		       struct lkst_err *err);

/* Checks a maskset name given by the user. */
int lkst_maskset_check_name(const char *name, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_FORMAT_H */
