/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkbuf record's parts: what -e and --filter chose (lkbuf_record_events.c,
 * pure, unit-tested), and the session that traces with it
 * (lkbuf_record_session.c: a private maskset, the command it runs).
 */
#ifndef LKBUF_RECORD_H
#define LKBUF_RECORD_H

#include "lkst_util.h"

/*
 * Events by pattern: "all", a glob of mnemonics ('SYSCALL_*', fnmatch,
 * case-insensitive, must match one), else an event or a category as
 * lkst_parse_event_item() takes them.  Sets sel[id] for each; the number
 * of events it chose, or -1 with err.
 */
int lkbuf_select_pattern(const char *pattern, unsigned char sel[LKST_NR_EVENT_IDS],
			 struct lkst_err *err);

/* One item of an -e list, "PATTERN[=HANDLER]", in the order given. */
struct lkbuf_rec_item {
	unsigned char sel[LKST_NR_EVENT_IDS];
	char *handler;		/* as given (name or ID); NULL: default */
	unsigned int option;	/* the -e option it came from: 0, 1, ... */
};

struct lkbuf_rec_events {
	struct lkbuf_rec_item *items;
	unsigned int nr, nr_options;
	/* --filter EXPR of each -e option (NULL: none), by option. */
	char **filters;
};

/* An -e option: comma-separated items; 0, or -1 with err. */
int lkbuf_rec_add_events(struct lkbuf_rec_events *e, const char *list,
			 struct lkst_err *err);
/* --filter EXPR for the -e option just before it; 0, or -1 with err. */
int lkbuf_rec_add_filter(struct lkbuf_rec_events *e, const char *expr,
			 struct lkst_err *err);

/*
 * The maskset's entries: handler[id] for each chosen event (a later item
 * overrides an earlier one), LKST_HANDLER_NOTHING for the rest; filter[id]
 * the --filter text of the -e option that chose it last, or NULL.  Handler
 * names resolve through h.  0, or -1 with err.
 */
int lkbuf_rec_resolve(const struct lkbuf_rec_events *e,
		      const struct lkst_handler_names *h,
		      unsigned char handler[LKST_NR_EVENT_IDS],
		      const char *filter[LKST_NR_EVENT_IDS], struct lkst_err *err);

void lkbuf_rec_events_free(struct lkbuf_rec_events *e);

/* ---- The session (lkbuf_record_session.c) ------------------------------ */

struct lkbuf_session_opts {
	const struct lkbuf_rec_events *events;	/* NULL: the current maskset */
	const char *size_arg;			/* -s, or NULL */
	const char *mode_arg;			/* --mode, or NULL */
	const char *const *command;		/* after --, or NULL */
};

/* Parses what it can without the device; usage errors exit. */
void lkbuf_session_check(const struct lkbuf_session_opts *o);

/*
 * Takes the recorder lock, resizes, sets the mode, installs predicates and
 * switches to a private maskset (what -e chose), and forks the command,
 * stopped until lkbuf_session_go().  Whatever it changed is undone by
 * lkbuf_session_end(), also at exit.  Returns whether the drain should
 * start at the switch (with -e) rather than at the oldest records.
 */
int lkbuf_session_start(int fd);
/* The command goes (a mark says so); -1 if it could not be executed. */
int lkbuf_session_go(void);
/* The command's pid, or 0 without one or once it has ended. */
int lkbuf_session_child(void);
/* Polls the command: 1 once it has ended (a mark says how). */
int lkbuf_session_reaped(void);
/* On SIGINT or SIGTERM: passed on to the command (a second one kills it). */
void lkbuf_session_signal(int sig);
/* Restores what start changed (once); the exit code: the command's. */
int lkbuf_session_end(void);

#endif /* LKBUF_RECORD_H */
