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

/**
 * lkst_format_state() - a task state as text
 * @state: a task's state bits, as a STATE argument holds them
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes; 0 writes nothing
 *
 * Writes the names of the bits joined by '|' ("TASK_INTERRUPTIBLE"),
 * "TASK_RUNNING" for 0, and bits without a name in hexadecimal.
 */
void lkst_format_state(unsigned long long state, char *buf, size_t len);

/**
 * lkst_format_comm() - a command name held in two arguments
 * @a: the argument holding its first 8 bytes
 * @b: the argument holding the next 8
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes; 0 writes nothing
 *
 * Writes the name up to its first NUL, printable bytes as they are and
 * others (and a backslash) as \xNN, as lkbuf print shows it.
 */
void lkst_format_comm(unsigned long long a, unsigned long long b,
		      char *buf, size_t len);

/**
 * lkst_format_arg() - one argument of a record as text
 * @rec: the record; its event is looked up in the active table
 * @index: the argument, 0 to %LKST_NR_ARGS - 1
 * @opts: the options that change it: raw (every used argument in
 *        hexadecimal), csv (a system call as its number, flags not
 *        decoded), symbols (KSYM arguments as "name+0xOFF/0xSIZE")
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes; 0 writes nothing
 *
 * Writes the argument as lkbuf print shows it: decoded by its type
 * (numbers, states, command names, system call names and flags, text),
 * "" for a slot the event does not use, for the second half of a command
 * name and for a TEXT argument that continues the one before (its text
 * is shown in the first).
 */
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

/**
 * lkst_event_fields() - the typed fields of an event
 * @ev: the event (lkst_event_by_id()), or NULL for an event the table
 *      does not have (every argument an %LKST_FIELD_HEX field)
 * @fields: filled, at most %LKST_NR_ARGS entries
 *
 * The fields are the arguments lkbuf print shows without -r, each with a
 * name unique in the event and a type, for exporters.
 *
 * Return: how many fields were filled.
 */
unsigned int lkst_event_fields(const struct lkst_event_info *ev,
			       struct lkst_field fields[LKST_NR_ARGS]);

/**
 * lkst_field_text() - a TEXT field's value in a record
 * @rec: the record
 * @f: one of its event's fields (lkst_event_fields())
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes; 0 writes nothing
 *
 * Writes the text lkbuf print shows for the field (a decoded state, an
 * escaped name or text); %LKST_FIELD_TEXT_LEN bytes hold any.
 */
void lkst_field_text(const struct lkst_record *rec, const struct lkst_field *f,
		     char *buf, size_t len);

/*
 * Text (not CSV, not -r) shows a negative RETVAL with its errno name
 * (lkst_errno_name(), lkst_sysnames.h), "-2(ENOENT)", and marks the
 * mnemonic of an error record with a '!' ("!SYSCALL_ERROR"): a
 * SYSCALL_ERROR, an EXCEPTION_FAULT_SIGNAL, or a SYSCALL_EXIT returning
 * -4095..-1 (not number -1, rt_sigreturn).
 */

/**
 * lkst_record_is_error() - whether a record reports an error
 * @rec: the record
 *
 * Text output marks such a record's mnemonic with a '!'.
 *
 * Return: 1 for a SYSCALL_ERROR, an EXCEPTION_FAULT_SIGNAL, or a
 * SYSCALL_EXIT returning -4095..-1 (not number -1, rt_sigreturn); else 0.
 */
int lkst_record_is_error(const struct lkst_record *rec);

/**
 * lkst_csv_field() - write one CSV field
 * @out: the stream
 * @field: the text
 *
 * Writes @field as it is, or quoted with its quotes doubled (RFC 4180)
 * when it holds a comma, a quote or a line break.  Write errors show in
 * ferror(3) of @out.
 */
void lkst_csv_field(FILE *out, const char *field);

/**
 * lkst_format_text() - consecutive TEXT arguments as text
 * @args: the arguments holding the bytes, in native order
 * @nr_args: how many (at most %LKST_NR_ARGS are read)
 * @buf: where the text goes, always terminated (cut short to fit)
 * @len: the size of @buf in bytes; 0 writes nothing
 *
 * Writes the bytes up to the first NUL, printable ones as they are and
 * others (and a backslash) as \xNN.
 */
void lkst_format_text(const __u64 *args, unsigned int nr_args, char *buf, size_t len);

/**
 * lkst_format_csv_header(), lkst_format_record() - write records as lkbuf print does
 * @out: the stream; write errors show in ferror(3)
 * @opts: the output's form (struct lkst_format_opts: csv, raw, seconds,
 *        verbose, human with its realtime_offset_ns and comms, symbols,
 *        stacks)
 * @rec: the record, of the active event table
 * @cpu: the CPU that recorded it
 *
 * lkst_format_csv_header() writes the CSV header line for @opts.
 * lkst_format_record() writes one record as a line of text or CSV (or,
 * with stacks, a stack record's frames one per line); for many records
 * lkst_format_record_buf() is faster.  A record is left out when memory
 * for its buffer cannot be had.
 */
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
/**
 * lkst_outbuf_new(), lkst_outbuf_free(), lkst_outbuf_init(), lkst_outbuf_flush() - buffered output of records
 * @fp: the stream the buffer writes to
 * @o: a buffer; lkst_outbuf_free() of NULL does nothing
 *
 * lkst_outbuf_new() makes a buffer writing to @fp.  lkst_outbuf_init()
 * points @o at another stream and forgets what it kept of the records
 * before (its own caches, so that formatting is reentrant), dropping what
 * it holds unwritten.  lkst_outbuf_flush() writes what @o holds to its
 * stream.  lkst_outbuf_free() frees @o without flushing.  Write errors
 * show in ferror(3) of the stream.
 *
 * Return: lkst_outbuf_new(): a new buffer, or NULL when out of memory.
 * The others return nothing.
 * Errors: lkst_outbuf_new(): %ENOMEM from malloc(3).
 */
struct lkst_outbuf *lkst_outbuf_new(FILE *fp);
void lkst_outbuf_free(struct lkst_outbuf *o);
void lkst_outbuf_init(struct lkst_outbuf *o, FILE *fp);
void lkst_outbuf_flush(struct lkst_outbuf *o);
/**
 * lkst_format_record_buf() - format a record into an output buffer
 * @o: the buffer (lkst_outbuf_new())
 * @rec: the record, of the active event table
 * @cpu: the CPU that recorded it
 * @opts: the output's form, as for lkst_format_record()
 *
 * Adds the same text as lkst_format_record() to @o, which writes it to
 * its stream when it fills (and at lkst_outbuf_flush()).
 */
void lkst_format_record_buf(struct lkst_outbuf *o, const struct lkst_record *rec,
			    unsigned int cpu, const struct lkst_format_opts *opts);

/* ---- Command names of pids (learned in time order) ------------------ */

/*
 * From PROCESS_CONTEXTSWITCH (next pid, next comm) and PROCESS_WAKEUP
 * (target pid, target comm).  Pid 0, the idle tasks, is kept per CPU.
 */
/**
 * lkst_comm_map_new(), lkst_comm_map_free(), lkst_comm_map_learn() - learn command names from records
 * @m: a map; lkst_comm_map_free() of NULL does nothing
 * @rec: a record, in time order with the others
 * @cpu: the CPU that recorded it
 *
 * A map learns the names of pids from PROCESS_CONTEXTSWITCH (next pid,
 * next comm) and PROCESS_WAKEUP (target pid, target comm) records as
 * lkst_comm_map_learn() is given them; other records teach nothing.  Pid
 * 0, the idle tasks, is kept per CPU.  An iterator learns them for its
 * caller (lkst_trace_comms()).
 *
 * Return: lkst_comm_map_new(): an empty map, or NULL when out of memory.
 * The others return nothing.
 * Errors: lkst_comm_map_new(): %ENOMEM from calloc(3).
 */
struct lkst_comm_map *lkst_comm_map_new(void);
void lkst_comm_map_free(struct lkst_comm_map *m);
void lkst_comm_map_learn(struct lkst_comm_map *m, const struct lkst_record *rec,
			 unsigned int cpu);
/**
 * lkst_comm_map_save() - give a map a name saved with a log
 * @m: the map
 * @pid: the pid; 0 is left out
 * @comm: its name, 16 bytes (NUL padded), as %LKST_META_TASKS holds it
 *
 * Kept only when no record has named @pid yet; a name learned from a
 * record later replaces it.  Left out when memory runs out.
 */
void lkst_comm_map_save(struct lkst_comm_map *m, __u32 pid, const char comm[16]);
/**
 * lkst_comm_map_name() - a pid's command name
 * @m: the map
 * @pid: the pid
 * @cpu: the CPU, which tells the idle tasks (pid 0) apart
 *
 * Return: the name, escaped as lkbuf print shows it and valid until @m
 * changes, or NULL when it is not known yet.
 */
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

/**
 * lkst_select_new() - a record selection
 * @err: the message, when it fails
 *
 * Return: a new selection that passes every record, to free with
 * lkst_select_free(); NULL with @err set when out of memory.
 */
struct lkst_select *lkst_select_new(struct lkst_err *err);

/**
 * lkst_select_events(), lkst_select_pids(), lkst_select_comms(), lkst_select_cpus() - add lists to a selection
 * @f: the selection
 * @list: a comma-separated list, no empty item: events or categories
 *        (lkst_parse_event_list()); pids (decimal or 0x hex); command
 *        names as printed, NAME exactly or PREFIX* (lkst_comm_match());
 *        CPUs or ranges of them ("0-3,6")
 * @err: the message, when it fails
 *
 * Each adds the list's items to what @f selects by; a record must then
 * match one item of each list given (lkst_select_match()).
 *
 * Return: 0, or -1 with @err naming the bad item (or out of memory); the
 * items before it may have been added.
 */
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

/**
 * lkst_parse_window() - parse a time window
 * @range: "START,END", either side maybe empty: seconds of the trace
 *         clock ("12.5") or, with @anchor, a time of day ("hh:mm:ss[.frac]")
 * @anchor: the log's clock anchor, or NULL (seconds only)
 * @start_ns: set to the window's start, trace-clock nanoseconds (0 when
 *            empty)
 * @end_ns: set to its end, inclusive (~0 when empty)
 * @err: the message, when it fails
 *
 * A time of day is local time (TZ honoured) on the day of the anchor's
 * CLOCK_REALTIME, as lkbuf print's default text shows times; when both
 * sides are times of day and END is earlier than START, the window
 * crosses midnight.
 *
 * Return: 0, or -1 with @err set: malformed, a time of day without an
 * anchor, or a window that ends before it starts.
 */
int lkst_parse_window(const char *range, const struct lkst_clock_anchor *anchor,
		      unsigned long long *start_ns, unsigned long long *end_ns,
		      struct lkst_err *err);
/**
 * lkst_parse_seconds() - parse seconds of the trace clock
 * @s: "12" or "12.5": digits, then up to 9 decimals after a '.'
 * @ns: set to the time in nanoseconds
 *
 * Return: 0, or -1 when @s is not such a time or overflows.
 */
int lkst_parse_seconds(const char *s, unsigned long long *ns);
/**
 * lkst_select_window(), lkst_select_time() - select records by time
 * @f: the selection
 * @range: "START,END", as lkst_parse_window() takes it
 * @anchor: the log's clock anchor, or NULL (seconds only)
 * @err: the message, when it fails
 *
 * Sets @f's window, replacing one set before: a record passes when its
 * time is in it.  lkst_select_time() takes seconds of the trace clock
 * only (lkst_select_window() without an anchor).
 *
 * Return: 0, or -1 with @err set (lkst_parse_window()).
 */
int lkst_select_window(struct lkst_select *f, const char *range,
		       const struct lkst_clock_anchor *anchor, struct lkst_err *err);
int lkst_select_time(struct lkst_select *f, const char *range, struct lkst_err *err);

/**
 * lkst_comm_match() - whether a command name matches a pattern
 * @pattern: NAME (matches exactly) or PREFIX* (every name that starts
 *           with PREFIX; "*" any name)
 * @name: a command name as printed (escaped)
 *
 * Return: 1 when it matches, else 0.
 */
int lkst_comm_match(const char *pattern, const char *name);
/**
 * lkst_select_comm_wanted(), lkst_select_pid_wanted() - whether a selection's lists hold a name or pid
 * @f: the selection
 * @name: a command name as printed, or NULL (never wanted)
 * @pid: a pid
 *
 * Return: 1 when a pattern of @f's command name list matches @name
 * (lkst_comm_match()), or @f's pid list holds @pid; else 0 (also when the
 * list is not given).
 */
int lkst_select_comm_wanted(const struct lkst_select *f, const char *name);
int lkst_select_pid_wanted(const struct lkst_select *f, unsigned long long pid);

/*
 * Whether a record passes every list given.  The pid list also matches
 * the prev/next pid of a PROCESS_CONTEXTSWITCH and the target pid of a
 * PROCESS_WAKEUP; the comm list the record's own pid's name in comms and
 * those events' comm argument; the CPU list the CPU that recorded it.
 */
/**
 * lkst_select_match() - whether a record passes a selection
 * @f: the selection
 * @rec: the record
 * @cpu: the CPU that recorded it
 * @comms: the names learned so far (lkst_comm_map_learn()), or NULL
 *
 * A record passes when it passes every list given: its event, its time
 * in the window, its CPU; its pid, or the prev or next pid of a
 * PROCESS_CONTEXTSWITCH or the target of a PROCESS_WAKEUP; its pid's name
 * in @comms, or the comm argument of those two events.
 *
 * Return: 1 when it passes, else 0.
 */
int lkst_select_match(const struct lkst_select *f, const struct lkst_record *rec,
		      unsigned int cpu, const struct lkst_comm_map *comms);
/**
 * lkst_select_free() - free a selection
 * @f: the selection; NULL does nothing
 *
 * Frees @f and its lists.
 */
void lkst_select_free(struct lkst_select *f);

/**
 * lkst_select_pid_list(), lkst_select_comm_list(), lkst_select_cpu_list() - what a selection's lists hold
 * @f: the selection
 * @nr: set to the number of items
 *
 * The items are in the order given, a CPU range expanded to its CPUs.
 *
 * Return: the items, valid until @f changes or is freed; *@nr 0 (and
 * maybe NULL) when the list was not given.
 */
const __u32 *lkst_select_pid_list(const struct lkst_select *f, size_t *nr);
const char *const *lkst_select_comm_list(const struct lkst_select *f, size_t *nr);
const __u32 *lkst_select_cpu_list(const struct lkst_select *f, size_t *nr);

/**
 * lkst_context_name() - the name of a record's context
 * @context: a record's context field
 *
 * Return: "task", "softirq", "irq" or "nmi", static; "corrupt" for any
 * other value.
 */
const char *lkst_context_name(unsigned int context);

/* ---- Maskset text ----------------------------------------------------- */

/**
 * lkst_maskset_format() - write a maskset as text
 * @out: the stream; write errors show in ferror(3)
 * @desc: the maskset, as the kernel gives it
 * @handlers: the registered handlers' names
 *
 * Writes what `lkm read` prints: a "# lkst maskset N "name"" comment, its
 * flags, then one line per event of the active table, "0xID MNEMONIC
 * HANDLER-ID HANDLER-NAME".  Characters of the name that could not be
 * read back are written as '?'.
 */
void lkst_maskset_format(FILE *out, const struct lkst_maskset_desc *desc,
			 const struct lkst_handler_names *handlers);

/**
 * lkst_maskset_parse() - read a maskset's text
 * @in: the stream, read to its end
 * @desc: its handler[] set from the lines (events not listed: the nothing
 *        handler)
 * @name_out: set to the name of the "# lkst maskset N "name"" comment, ""
 *            without one
 * @handlers: the registered handlers' names
 * @err: the message, when it fails
 *
 * Reads the text lkst_maskset_format() writes, as `lkm write` takes it:
 * each event of the active table at most once, each handler registered,
 * its ID and name agreeing.
 *
 * Return: 0, or -1 with @err naming the bad line (or a read error).
 */
int lkst_maskset_parse(FILE *in, struct lkst_maskset_desc *desc,
		       char name_out[LKST_NAME_LEN],
		       const struct lkst_handler_names *handlers,
		       struct lkst_err *err);

/**
 * lkst_maskset_check_name() - check a maskset name
 * @name: the name a user gave
 * @err: the message, when it is refused
 *
 * Return: 0 when @name is 1 to %LKST_NAME_LEN - 1 printable characters
 * without a '"'; else -1 with @err set.
 */
int lkst_maskset_check_name(const char *name, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_FORMAT_H */
