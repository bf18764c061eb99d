/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblkst's base: errors returned as messages (struct lkst_err), the
 * active event table and number and name parsing against it.  Pure: never
 * exits, never touches /dev/lkst (that is lkst_cli.h, outside the library).
 */
#ifndef LKST_UTIL_H
#define LKST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/lkst_ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes, documented in every --help. */
#define LKST_EXIT_OK		0
#define LKST_EXIT_USAGE		1	/* bad usage, input, or output that cannot be written */
#define LKST_EXIT_DEVICE	2	/* device or kernel error */

/* A one-line message "what is wrong; what to do", filled by pure code. */
struct lkst_err {
	char msg[512];
};

void lkst_seterr(struct lkst_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The library prints nothing: what a program would tell its user as it
 * goes (an exporter's progress, a warning) goes to the message handler
 * the calling thread installed, and nowhere without one.  kind says what
 * it is; percent is a progress message's (0-100); text is one line, no
 * newline (a progress message's what is being done, "converting";
 * LKST_MSG_PROGRESS_END's and a warning's, the warning).  Per thread, like
 * the active event table: set it on each thread that calls the library.
 * lkst_set_msg_handler(NULL, NULL) removes it.
 */
enum lkst_msg_kind {
	LKST_MSG_WARNING,		/* something left out; the work goes on */
	LKST_MSG_PROGRESS,		/* percent of the work done */
	LKST_MSG_PROGRESS_END,		/* the work is over (clear a progress line) */
};
typedef void lkst_msg_fn(void *arg, enum lkst_msg_kind kind, unsigned int percent,
			 const char *text);
void lkst_set_msg_handler(lkst_msg_fn *fn, void *arg);
/* Whether the calling thread has a handler (no progress is counted without). */
int lkst_msg_wanted(void);
/* Sends a message to the thread's handler, if it has one. */
void lkst_msg(enum lkst_msg_kind kind, unsigned int percent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Room for one more of an array of @elem-byte items holding @used of *cap:
 * doubles it (first: @first items).  0, or -1 when out of memory.
 */
int lkst_grow(void **array, size_t *cap, size_t used, size_t elem, size_t first);

/* ---- Event table ---------------------------------------------------- */

/*
 * The active event table, in ID order: the built-in lkst_event_table[] of
 * <linux/lkst_events.h> until a log's own table or the running kernel's
 * replaces it.  lkst_dev_open() (lkst_cli.h) loads the kernel's (dynamic
 * probes included); a trace handle (lkst_trace_open(), lkst_logio.h) owns
 * its log's and makes it the active one on the thread that calls it.  One
 * per thread: threads never see each other's, and the caches derived from
 * it (the index by ID, the formatters' per-event text) are per thread too.
 */
extern __thread const struct lkst_event_info *lkst_events;
extern __thread unsigned int lkst_nr_events;

/* NULL for an ID that is not in the table. */
const struct lkst_event_info *lkst_event_by_id(unsigned int id);

/*
 * Descriptions (struct lkst_event_desc, desc_size bytes apart, IDs
 * increasing) checked: names and texts terminated, names of letters,
 * digits and '_' only (as the kernel gives them), argument types known.
 * _use() also makes them the active table (copied).  0, or -1 with err.
 */
int lkst_events_check(const void *descs, unsigned int nr, size_t desc_size,
		      struct lkst_err *err);
int lkst_events_use(const void *descs, unsigned int nr, size_t desc_size,
		    struct lkst_err *err);
void lkst_events_use_builtin(void);
/* The built-in table (<linux/lkst_events.h>) and its count. */
const struct lkst_event_info *lkst_events_builtin(unsigned int *nr);
/*
 * Makes events (nr entries, IDs increasing) the calling thread's active
 * table, as it is: the caller keeps it valid while it is active.  Always
 * a change (what is derived from the table is worked out again), except
 * with the tag (not 0) of the table active already: an owner of a table
 * (a trace handle) takes a tag from lkst_events_new_tag(), unique in the
 * process, and makes its table active cheaply before each use.
 */
void lkst_events_set(const struct lkst_event_info *events, unsigned int nr);
void lkst_events_set_tagged(const struct lkst_event_info *events, unsigned int nr,
			    unsigned long long tag);
unsigned long long lkst_events_new_tag(void);
/* Whether the thread's active table is the one set with tag. */
int lkst_events_tagged(unsigned long long tag);
/*
 * Fills events[0..nr) from checked descriptions (lkst_events_check()),
 * their strings pointing into descs, which must outlive them.
 */
void lkst_events_decode(const struct lkst_event_desc *descs, unsigned int nr,
			struct lkst_event_info *events);
/* Changes with every change of the thread's active table (for caches of it). */
unsigned int lkst_events_generation(void);
/* The active table as descriptions, as a log stores it; the count. */
unsigned int lkst_events_describe(struct lkst_event_desc descs[LKST_NR_EVENT_IDS]);
const char *lkst_category_name(enum lkst_category cat);

/* ---- Parsing (pure) --------------------------------------------------- */

/* Decimal or 0x hex, no sign, no trailing junk, at most max. */
int lkst_parse_u64(const char *s, uint64_t max, uint64_t *out);
int lkst_parse_u32(const char *s, uint32_t max, uint32_t *out);

/* A byte count with an optional K or M suffix (binary units). */
int lkst_parse_size(const char *s, uint64_t *out);

/* Event by number or by mnemonic (case-insensitive); must be in the table. */
int lkst_parse_event(const char *s, unsigned int *id, struct lkst_err *err);

/* Category by name (case-insensitive): first and last event ID. */
int lkst_parse_category(const char *s, enum lkst_category *cat,
			unsigned int *first, unsigned int *last,
			struct lkst_err *err);

/*
 * Event selections: sel[id] is set for each chosen event.  An item is an
 * event (as lkst_parse_event) or a category name, which stands for every
 * event of the table in its range; a category with no event yet is an
 * error, so a selection never silently means nothing.  Both return the
 * number of events the item or list added.
 */
int lkst_parse_event_item(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err);
/* Comma-separated items, e.g. "process,SYSCALL_EXIT,0xe0". */
int lkst_parse_event_list(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err);

/*
 * The words of `lkbuf mark` joined by single spaces into mark->text, NUL
 * padded.  Refuses an empty text and one longer than the 48 bytes a
 * USER_MARK record holds.
 */
int lkst_mark_text(const char *const *words, struct lkst_mark *mark,
		   struct lkst_err *err);

/*
 * Registered handler names by ID, "" when not registered.  default (1) and
 * nothing (255) are always known, even if the kernel does not list them.
 */
struct lkst_handler_names {
	char name[LKST_MAX_HANDLERS][LKST_NAME_LEN];
	char module[LKST_MAX_HANDLERS][LKST_NAME_LEN];
};

void lkst_handler_names_init(struct lkst_handler_names *h);
const char *lkst_handler_name(const struct lkst_handler_names *h,
			      unsigned int id);
/* Handler by number (must be known) or name (case-insensitive). */
int lkst_parse_handler(const char *s, const struct lkst_handler_names *h,
		       unsigned int *id, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_UTIL_H */
