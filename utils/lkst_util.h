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

/**
 * lkst_seterr() - fill a struct lkst_err with a message
 * @err: where the message goes; NULL: nowhere (a caller that does not
 *       want it)
 * @fmt: a printf(3) format: one line, "what is wrong; what to do"
 * @...: its arguments
 *
 * Formats the message into @err->msg, cut short at 511 bytes, always
 * terminated.  The library's functions report every failure this way;
 * a program's own code that calls them may use it too.
 */
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
/**
 * lkst_set_msg_handler() - receive the library's progress and warnings
 * @fn: the handler, called as fn(@arg, kind, percent, text); NULL
 *      removes the calling thread's handler
 * @arg: passed to @fn as it is
 *
 * Installs the calling thread's message handler (the library prints
 * nothing itself): warnings (%LKST_MSG_WARNING, something left out, the
 * work goes on), progress (%LKST_MSG_PROGRESS with a percent) and its end
 * (%LKST_MSG_PROGRESS_END).  text is one line without a newline, valid
 * during the call.  Per thread: set it on each thread that calls the
 * library.
 */
void lkst_set_msg_handler(lkst_msg_fn *fn, void *arg);
/**
 * lkst_msg_wanted() - whether the calling thread has a message handler
 *
 * Work that counts its progress only for a handler asks first.
 *
 * Return: 1 when the thread has a handler (lkst_set_msg_handler()), 0
 * when it has none.
 */
int lkst_msg_wanted(void);
/**
 * lkst_msg() - send a message to the thread's handler
 * @kind: %LKST_MSG_WARNING, %LKST_MSG_PROGRESS or %LKST_MSG_PROGRESS_END
 * @percent: a progress message's percent done (0-100); else 0
 * @fmt: a printf(3) format of the text, one line, no newline
 * @...: its arguments
 *
 * Formats the text (cut short at 511 bytes) and calls the handler the
 * calling thread installed with lkst_set_msg_handler(); nothing without
 * one.
 */
void lkst_msg(enum lkst_msg_kind kind, unsigned int percent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * lkst_grow() - make room for one more item in a growing array
 * @array: the array (from malloc(3), or NULL), replaced when it moves
 * @cap: the items it has room for, updated
 * @used: the items it holds
 * @elem: the size of an item in bytes
 * @first: the room to make for an empty array (*@cap 0)
 *
 * Nothing when @used < *@cap; else the array is reallocated to twice its
 * room (@first items the first time).
 *
 * Return: 0, or -1 when the size overflows or memory runs out, the array
 * and *@cap untouched.
 * Errors: %ENOMEM from realloc(3) when memory runs out; an overflowing
 * size leaves errno as it was.
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

/**
 * lkst_event_by_id() - an event of the active table by ID
 * @id: the event ID (a record's event field)
 *
 * Looks @id up in the calling thread's active event table (an index,
 * built again after the table changes).
 *
 * Return: the event's description (its mnemonic, category and
 * arguments), valid while the table is active, or NULL when @id is not
 * in the table.
 */
const struct lkst_event_info *lkst_event_by_id(unsigned int id);

/**
 * lkst_events_check(), lkst_events_use() - check event descriptions, make them the active table
 * @descs: @nr struct lkst_event_desc, as the kernel or a log gives them
 * @nr: how many
 * @desc_size: the distance between two in bytes (the kernel's or the
 *             log's size of the struct, at least the library's)
 * @err: the message, when they are refused
 *
 * lkst_events_check() checks untrusted descriptions: IDs increasing,
 * names and texts terminated, names of letters, digits and '_' only (as
 * the kernel gives them), argument types known.  lkst_events_use() checks
 * them the same way and makes a copy of them the calling thread's active
 * event table.
 *
 * Return: 0, or -1 with @err saying which description is wrong (or, for
 * lkst_events_use(), that memory ran out); the active table is then
 * unchanged.
 */
int lkst_events_check(const void *descs, unsigned int nr, size_t desc_size,
		      struct lkst_err *err);
int lkst_events_use(const void *descs, unsigned int nr, size_t desc_size,
		    struct lkst_err *err);
/**
 * lkst_events_use_builtin(), lkst_events_builtin() - the built-in event table
 * @nr: set to the number of events in the table
 *
 * The built-in table is the one <linux/lkst_events.h> describes, the
 * events this library was built with (no dynamic probes).
 * lkst_events_use_builtin() makes it the calling thread's active table.
 *
 * Return: lkst_events_builtin(): the table, static, in ID order.
 * lkst_events_use_builtin() returns nothing.
 */
void lkst_events_use_builtin(void);
const struct lkst_event_info *lkst_events_builtin(unsigned int *nr);
/**
 * lkst_events_set(), lkst_events_set_tagged() - make a table of events the active one
 * @events: @nr events, IDs increasing, not copied
 * @nr: how many
 * @tag: the owner's tag (lkst_events_new_tag()), or 0
 *
 * Makes @events the calling thread's active table as it is: the caller
 * keeps it valid while it is active.  Each call is a change (the index by
 * ID and the formatters' caches are worked out again,
 * lkst_events_generation() moves), except lkst_events_set_tagged() with
 * the tag (not 0) of the table active already, which does nothing: the
 * owner of a table (a trace handle) makes its table active cheaply before
 * each use.
 */
void lkst_events_set(const struct lkst_event_info *events, unsigned int nr);
void lkst_events_set_tagged(const struct lkst_event_info *events, unsigned int nr,
			    unsigned long long tag);
/**
 * lkst_events_new_tag() - a tag for an owner of an event table
 *
 * Safe to call from any thread.
 *
 * Return: a tag never returned before in the process, never 0, for
 * lkst_events_set_tagged().
 */
unsigned long long lkst_events_new_tag(void);
/**
 * lkst_events_tagged() - whether a table is the active one
 * @tag: a tag from lkst_events_new_tag()
 *
 * Return: 1 when the calling thread's active table is the one last set
 * with @tag (not 0), else 0.
 */
int lkst_events_tagged(unsigned long long tag);
/**
 * lkst_events_decode() - events of checked descriptions
 * @descs: @nr descriptions lkst_events_check() accepted
 * @nr: how many
 * @events: filled, @nr entries; their strings point into @descs, which
 *          must outlive them
 *
 * Makes a table for lkst_events_set() of descriptions a program keeps
 * itself.
 */
void lkst_events_decode(const struct lkst_event_desc *descs, unsigned int nr,
			struct lkst_event_info *events);
/**
 * lkst_events_generation() - the active event table's generation
 *
 * A cache of what is derived from the active table keeps the generation
 * it was made for and is stale when it differs.
 *
 * Return: a number that changes with every change of the calling
 * thread's active table.
 */
unsigned int lkst_events_generation(void);
/**
 * lkst_events_describe() - the active table as descriptions
 * @descs: filled with one description per event, in ID order, as a log
 *         stores the table (%LKST_META_EVENTS)
 *
 * Return: how many descriptions were filled.
 */
unsigned int lkst_events_describe(struct lkst_event_desc descs[LKST_NR_EVENT_IDS]);
/**
 * lkst_category_name() - an event category's name
 * @cat: the category
 *
 * Return: its name ("process", "syscall", ...), static; "unknown" for a
 * value that is no category.
 */
const char *lkst_category_name(enum lkst_category cat);

/* ---- Parsing (pure) --------------------------------------------------- */

/**
 * lkst_parse_u64(), lkst_parse_u32() - parse an unsigned number
 * @s: the text: decimal, or hexadecimal after "0x" or "0X"
 * @max: the largest value accepted
 * @out: set to the value
 *
 * Stricter than strtoull(3): no sign, no space, no octal, no trailing
 * characters, no overflow.
 *
 * Return: 0 with *@out set, or -1 (@s NULL, empty, malformed or above
 * @max) with *@out untouched.
 */
int lkst_parse_u64(const char *s, uint64_t max, uint64_t *out);
int lkst_parse_u32(const char *s, uint32_t max, uint32_t *out);

/**
 * lkst_parse_size() - parse a byte count
 * @s: a number as lkst_parse_u64() takes it, with an optional K or M
 *     suffix (either case; binary units, 1024 and 1048576)
 * @out: set to the count in bytes
 *
 * Return: 0 with *@out set, or -1 when @s is not such a count or the
 * bytes overflow 64 bits.
 */
int lkst_parse_size(const char *s, uint64_t *out);

/**
 * lkst_parse_event() - parse an event of the active table
 * @s: an event ID (decimal or 0x hex) or mnemonic (any case)
 * @id: set to the event's ID
 * @err: the message, when it fails
 *
 * Return: 0 with *@id set, or -1 with @err set: empty, a bad number, or
 * an event the active table does not have.
 */
int lkst_parse_event(const char *s, unsigned int *id, struct lkst_err *err);

/**
 * lkst_parse_category() - parse an event category
 * @s: the category's name (any case), as lkst_category_name() gives it
 * @cat: set to the category
 * @first: set to the first event ID of its range
 * @last: set to the last event ID of its range
 * @err: the message, when it fails
 *
 * Return: 0 with the three set, or -1 with @err set for an unknown name.
 */
int lkst_parse_category(const char *s, enum lkst_category *cat,
			unsigned int *first, unsigned int *last,
			struct lkst_err *err);

/**
 * lkst_parse_event_item(), lkst_parse_event_list() - parse a selection of events
 * @s: an item: an event (as lkst_parse_event() takes it) or a category
 *     name, every event of the active table in its range; for
 *     lkst_parse_event_list(), items separated by commas,
 *     "process,SYSCALL_EXIT,0xe0", no empty one
 * @sel: sel[id] is set to 1 for each event chosen (others are left as
 *       they are)
 * @err: the message, when it fails
 *
 * A category with no event in the table is an error, so that a selection
 * never silently means nothing.  A list stops at its first bad item, the
 * items before it already marked in @sel.
 *
 * Return: how many events were marked (counting again one marked before),
 * or -1 with @err set.
 */
int lkst_parse_event_item(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err);
int lkst_parse_event_list(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err);

/**
 * lkst_mark_text() - the text of a user mark
 * @words: NULL-terminated words, as `lkbuf mark` takes them
 * @mark: cleared, then its text set to the words joined by single spaces,
 *        NUL padded (not terminated when it is full)
 * @err: the message, when it fails
 *
 * Return: 0, or -1 with @err set and @mark cleared when there is no text
 * or it is longer than the 48 bytes a USER_MARK record holds.
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

/**
 * lkst_handler_names_init(), lkst_handler_name() - names of registered handlers
 * @h: the table of names
 * @id: a handler ID
 *
 * lkst_handler_names_init() clears @h but for the handlers every kernel
 * has, default (1) and nothing (255); the caller fills in the ones the
 * kernel lists.
 *
 * Return: lkst_handler_name(): the name of handler @id, in @h, or NULL
 * when it is not registered.  lkst_handler_names_init() returns nothing.
 */
void lkst_handler_names_init(struct lkst_handler_names *h);
const char *lkst_handler_name(const struct lkst_handler_names *h,
			      unsigned int id);
/**
 * lkst_parse_handler() - parse a handler
 * @s: a handler ID (1-255, decimal or 0x hex) or name (any case)
 * @h: the registered handlers' names (lkst_handler_names_init())
 * @id: set to the handler's ID
 * @err: the message, when it fails
 *
 * Return: 0 with *@id set, or -1 with @err set: empty, a bad number, or a
 * handler @h does not have.
 */
int lkst_parse_handler(const char *s, const struct lkst_handler_names *h,
		       unsigned int *id, struct lkst_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LKST_UTIL_H */
