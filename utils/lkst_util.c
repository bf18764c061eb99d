// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * liblkst's base: error messages, the active event table, parsing.
 * The exiting and device half is lkst_cli.c.
 */
#include <ctype.h>
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define LKST_EVENT_TABLES
#include "lkst_log.h"
#include "lkst_util.h"

void lkst_seterr(struct lkst_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

static __thread lkst_msg_fn *msg_fn;
static __thread void *msg_arg;

void lkst_set_msg_handler(lkst_msg_fn *fn, void *arg)
{
	msg_fn = fn;
	msg_arg = arg;
}

int lkst_msg_wanted(void)
{
	return msg_fn != NULL;
}

void lkst_msg(enum lkst_msg_kind kind, unsigned int percent, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (!msg_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	msg_fn(msg_arg, kind, percent, text);
}

int lkst_grow(void **array, size_t *cap, size_t used, size_t elem, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *p;

	if (used < *cap)
		return 0;
	if (n < *cap || n > SIZE_MAX / elem)
		return -1;
	p = realloc(*array, n * elem);
	if (!p)
		return -1;
	*array = p;
	*cap = n;
	return 0;
}

/* ---- Event table ---------------------------------------------------- */

/*
 * The active table starts as the built-in one; a log's own table or the
 * running kernel's replaces it (lkst_events_use(), lkst_events_set()), so
 * that every lookup below answers for the records at hand, dynamic probes
 * included.  Per thread: two threads reading two logs never share it.
 */
__thread const struct lkst_event_info *lkst_events = lkst_event_table;
__thread unsigned int lkst_nr_events = LKST_NR_EVENTS;

static __thread const struct lkst_event_info *events_by_id[LKST_NR_EVENT_IDS];
static __thread int events_indexed;
/* Counts table changes, for caches derived from the table (lkst_format.c). */
static __thread unsigned int events_generation = 1;

/*
 * A table lkst_events_use() loaded from descriptions, its entries and their
 * strings: allocated the first time a thread loads one, freed when that
 * thread ends.
 */
struct loaded_table {
	struct lkst_event_info events[LKST_NR_EVENT_IDS];
	struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
};
static __thread struct loaded_table *loaded;
static pthread_key_t loaded_key;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;

static void loaded_key_init(void)
{
	/* Its destructor frees a thread's table; without a key, it is kept. */
	(void)pthread_key_create(&loaded_key, free);
}

static void index_events(void)
{
	unsigned int i;

	memset(events_by_id, 0, sizeof(events_by_id));
	for (i = lkst_nr_events; i-- > 0;)	/* the first of an ID wins */
		if ((unsigned int)lkst_events[i].id < LKST_NR_EVENT_IDS)
			events_by_id[lkst_events[i].id] = &lkst_events[i];
	events_indexed = 1;
}

/* Looked up for every record printed: an index by ID. */
const struct lkst_event_info *lkst_event_by_id(unsigned int id)
{
	if (!events_indexed)
		index_events();
	return id < LKST_NR_EVENT_IDS ? events_by_id[id] : NULL;
}

unsigned int lkst_events_generation(void)
{
	return events_generation;
}

/* The owner's tag of the thread's active table; 0: none (always replaced). */
static __thread unsigned long long events_tag;

void lkst_events_set_tagged(const struct lkst_event_info *events, unsigned int nr,
			    unsigned long long tag)
{
	if (tag && tag == events_tag)
		return;
	lkst_events = events;
	lkst_nr_events = nr;
	events_indexed = 0;
	events_generation++;
	events_tag = tag;
}

void lkst_events_set(const struct lkst_event_info *events, unsigned int nr)
{
	lkst_events_set_tagged(events, nr, 0);
}

int lkst_events_tagged(unsigned long long tag)
{
	return tag && tag == events_tag;
}

unsigned long long lkst_events_new_tag(void)
{
	/* Atomic: the one counter threads share, never reused. */
	static unsigned long long last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

const struct lkst_event_info *lkst_events_builtin(unsigned int *nr)
{
	*nr = LKST_NR_EVENTS;
	return lkst_event_table;
}

void lkst_events_use_builtin(void)
{
	lkst_events_set(lkst_event_table, LKST_NR_EVENTS);
}

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * The kernel names events with letters, digits and '_' only: anything else
 * is damage, and would break what quotes names (TSDL, filters, CSV).
 */
static int check_name(const struct lkst_event_desc *d, struct lkst_err *err)
{
	char shown[sizeof(d->mnemonic)];
	size_t i, bad = sizeof(d->mnemonic);

	for (i = 0; d->mnemonic[i]; i++) {
		shown[i] = is_name_char(d->mnemonic[i]) ? d->mnemonic[i] : '?';
		if (shown[i] == '?' && bad == sizeof(d->mnemonic))
			bad = i;
	}
	shown[i] = '\0';
	if (bad == sizeof(d->mnemonic))
		return 0;
	lkst_seterr(err, "event 0x%02x: name \"%s\" has byte 0x%02x at %zu, but event names are letters, digits and '_' only; the file is damaged",
		    d->id, shown, (unsigned char)d->mnemonic[bad], bad);
	return -1;
}

int lkst_events_check(const void *descs, unsigned int nr, size_t desc_size,
		      struct lkst_err *err)
{
	const struct lkst_event_desc *d;
	unsigned int i, a, prev = 0;

	if (desc_size < sizeof(*d)) {
		lkst_seterr(err, "event descriptions of %zu bytes, at least %zu expected; the file is damaged",
			    desc_size, sizeof(*d));
		return -1;
	}
	if (nr > LKST_NR_EVENT_IDS) {
		lkst_seterr(err, "%u events described, at most %u exist; the file is damaged",
			    nr, LKST_NR_EVENT_IDS);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		d = (const void *)((const char *)descs + (size_t)i * desc_size);
		if (d->id >= LKST_NR_EVENT_IDS || (i && d->id <= prev)) {
			lkst_seterr(err, "event description %u has ID %u, out of order or range; the file is damaged",
				    i, d->id);
			return -1;
		}
		prev = d->id;
		if (!d->mnemonic[0] || !memchr(d->mnemonic, 0, sizeof(d->mnemonic)) ||
		    !memchr(d->description, 0, sizeof(d->description))) {
			lkst_seterr(err, "event 0x%02x: name or description not terminated; the file is damaged",
				    d->id);
			return -1;
		}
		if (check_name(d, err))
			return -1;
		for (a = 0; a < LKST_NR_ARGS; a++) {
			if (d->arg_type[a] >= LKST_NR_ARG_TYPES) {
				lkst_seterr(err, "event 0x%02x (%s): argument %u has type %u, unknown to this version; use a newer lkbuf",
					    d->id, d->mnemonic, a + 1, d->arg_type[a]);
				return -1;
			}
			if (!memchr(d->arg_desc[a], 0, sizeof(d->arg_desc[a]))) {
				lkst_seterr(err, "event 0x%02x: argument %u description not terminated; the file is damaged",
					    d->id, a + 1);
				return -1;
			}
		}
	}
	return 0;
}

void lkst_events_decode(const struct lkst_event_desc *descs, unsigned int nr,
			struct lkst_event_info *events)
{
	unsigned int i, a;

	for (i = 0; i < nr; i++) {
		const struct lkst_event_desc *d = &descs[i];
		struct lkst_event_info *ev = &events[i];

		memset(ev, 0, sizeof(*ev));
		ev->id = d->id;
		ev->mnemonic = d->mnemonic;
		ev->category = d->category;
		ev->description = d->description;
		for (a = 0; a < LKST_NR_ARGS; a++) {
			ev->args[a].type = d->arg_type[a];
			ev->args[a].desc = d->arg_desc[a];
		}
	}
}

int lkst_events_use(const void *descs, unsigned int nr, size_t desc_size,
		    struct lkst_err *err)
{
	unsigned int i;

	if (lkst_events_check(descs, nr, desc_size, err))
		return -1;
	if (!loaded) {
		if (!(loaded = malloc(sizeof(*loaded)))) {
			lkst_seterr(err, "out of memory; free some memory");
			return -1;
		}
		pthread_once(&loaded_once, loaded_key_init);
		(void)pthread_setspecific(loaded_key, loaded);
	}
	for (i = 0; i < nr; i++)
		memcpy(&loaded->descs[i], (const char *)descs + (size_t)i * desc_size,
		       sizeof(loaded->descs[i]));
	lkst_events_decode(loaded->descs, nr, loaded->events);
	lkst_events_set(loaded->events, nr);	/* new contents: a change */
	return 0;
}

unsigned int lkst_events_describe(struct lkst_event_desc descs[LKST_NR_EVENT_IDS])
{
	unsigned int i, a, n = 0;

	for (i = 0; i < LKST_NR_EVENT_IDS; i++) {
		const struct lkst_event_info *ev = lkst_event_by_id(i);
		struct lkst_event_desc *d = &descs[n];

		if (!ev)
			continue;
		memset(d, 0, sizeof(*d));
		d->id = i;
		d->category = ev->category;
		d->flags = i >= LKST_EV_PROBE_FIRST ? LKST_EVENT_DYNAMIC : 0;
		snprintf(d->mnemonic, sizeof(d->mnemonic), "%s", ev->mnemonic);
		snprintf(d->description, sizeof(d->description), "%s",
			 ev->description ? ev->description : "");
		for (a = 0; a < LKST_NR_ARGS; a++) {
			d->arg_type[a] = ev->args[a].type;
			snprintf(d->arg_desc[a], sizeof(d->arg_desc[a]), "%s",
				 ev->args[a].desc ? ev->args[a].desc : "");
		}
		n++;
	}
	return n;
}

const char *lkst_category_name(enum lkst_category cat)
{
	if ((unsigned int)cat >= LKST_NR_CATEGORIES)
		return "unknown";
	return lkst_category_table[cat].name;
}

/* ---- Parsing -------------------------------------------------------- */

int lkst_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t value = 0;
	unsigned int base = 10;
	const char *p = s;

	if (!s || !*s)
		return -1;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return -1;
	}
	/* By hand: strtoull accepts signs, spaces and octal. */
	for (; *p; p++) {
		unsigned int digit;

		if (isdigit((unsigned char)*p))
			digit = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			digit = tolower((unsigned char)*p) - 'a' + 10;
		else
			return -1;
		if (value > (UINT64_MAX - digit) / base)
			return -1;
		value = value * base + digit;
	}
	if (value > max)
		return -1;
	*out = value;
	return 0;
}

int lkst_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t value;

	if (lkst_parse_u64(s, max, &value))
		return -1;
	*out = (uint32_t)value;
	return 0;
}

int lkst_parse_size(const char *s, uint64_t *out)
{
	char digits[32];
	size_t len = s ? strlen(s) : 0;
	unsigned int shift = 0;
	uint64_t value;

	if (len == 0 || len >= sizeof(digits))
		return -1;
	memcpy(digits, s, len + 1);
	switch (digits[len - 1]) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	}
	if (shift)
		digits[len - 1] = '\0';
	if (lkst_parse_u64(digits, UINT64_MAX >> shift, &value))
		return -1;
	*out = value << shift;
	return 0;
}

static int looks_numeric(const char *s)
{
	return isdigit((unsigned char)s[0]);
}

int lkst_parse_event(const char *s, unsigned int *id, struct lkst_err *err)
{
	unsigned int i;
	uint64_t value;

	if (!s || !*s) {
		lkst_seterr(err, "empty event; give an event ID or mnemonic (see lkm events)");
		return -1;
	}
	if (looks_numeric(s)) {
		if (lkst_parse_u64(s, LKST_NR_EVENT_IDS - 1, &value)) {
			lkst_seterr(err, "bad event number '%s'; use decimal or 0x hex below 0x%x",
				    s, LKST_NR_EVENT_IDS);
			return -1;
		}
		if (!lkst_event_by_id(value)) {
			lkst_seterr(err, "event 0x%02x is not in the event table; see lkm events",
				    (unsigned int)value);
			return -1;
		}
		*id = value;
		return 0;
	}
	for (i = 0; i < lkst_nr_events; i++) {
		if (!strcasecmp(s, lkst_events[i].mnemonic)) {
			*id = lkst_events[i].id;
			return 0;
		}
	}
	lkst_seterr(err, "unknown event '%s'; see lkm events for the event names", s);
	return -1;
}

int lkst_parse_category(const char *s, enum lkst_category *cat,
			unsigned int *first, unsigned int *last,
			struct lkst_err *err)
{
	unsigned int i;

	for (i = 0; s && i < LKST_NR_CATEGORIES; i++) {
		if (!strcasecmp(s, lkst_category_table[i].name)) {
			*cat = (enum lkst_category)i;
			*first = lkst_category_table[i].first;
			*last = lkst_category_table[i].last;
			return 0;
		}
	}
	lkst_seterr(err, "unknown category '%s'; see lkm events for the categories",
		    s ? s : "");
	return -1;
}

int lkst_parse_event_item(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err)
{
	enum lkst_category cat;
	unsigned int id, first, last, i, n = 0;

	if (!lkst_parse_event(s, &id, err)) {
		sel[id] = 1;
		return 1;
	}
	/* A number is never a category: keep lkst_parse_event's message. */
	if (looks_numeric(s) || !*s)
		return -1;
	if (lkst_parse_category(s, &cat, &first, &last, NULL)) {
		lkst_seterr(err, "unknown event or category '%s'; see lkm events for the names",
			    s);
		return -1;
	}
	for (i = 0; i < lkst_nr_events; i++) {
		if (lkst_events[i].id >= first && lkst_events[i].id <= last) {
			sel[lkst_events[i].id] = 1;
			n++;
		}
	}
	if (!n) {
		lkst_seterr(err, "category '%s' has no events in this version; see lkm events",
			    s);
		return -1;
	}
	return n;
}

int lkst_parse_event_list(const char *s, unsigned char sel[LKST_NR_EVENT_IDS],
			  struct lkst_err *err)
{
	char item[64];
	const char *p = s, *end;
	int n = 0, ret;

	if (!s || !*s) {
		lkst_seterr(err, "empty event list; give events or categories separated by commas");
		return -1;
	}
	for (;;) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p || (size_t)(end - p) >= sizeof(item)) {
			lkst_seterr(err, "bad item in event list '%s'; give event or category names separated by commas, no empty items",
				    s);
			return -1;
		}
		memcpy(item, p, end - p);
		item[end - p] = '\0';
		ret = lkst_parse_event_item(item, sel, err);
		if (ret < 0)
			return -1;
		n += ret;
		if (!*end)
			return n;
		p = end + 1;
	}
}

int lkst_mark_text(const char *const *words, struct lkst_mark *mark,
		   struct lkst_err *err)
{
	size_t len = 0, w;
	unsigned int i;

	memset(mark, 0, sizeof(*mark));
	for (i = 0; words && words[i]; i++) {
		w = strlen(words[i]);
		/* Count without writing past the text, so the message can say how long. */
		if (i && len < sizeof(mark->text))
			mark->text[len] = ' ';
		len += i > 0;
		if (len < sizeof(mark->text))
			memcpy(mark->text + len, words[i],
			       w < sizeof(mark->text) - len ? w : sizeof(mark->text) - len);
		len += w;
	}
	if (len == 0) {
		lkst_seterr(err, "no mark text given; give the text to record, e.g. lkbuf mark before-the-test");
		memset(mark, 0, sizeof(*mark));
		return -1;
	}
	if (len > sizeof(mark->text)) {
		lkst_seterr(err, "mark text is %zu bytes, the limit is %zu; shorten it",
			    len, sizeof(mark->text));
		memset(mark, 0, sizeof(*mark));
		return -1;
	}
	return 0;
}

void lkst_handler_names_init(struct lkst_handler_names *h)
{
	memset(h, 0, sizeof(*h));
	strcpy(h->name[LKST_HANDLER_DEFAULT], "default");
	strcpy(h->name[LKST_HANDLER_NOTHING], "nothing");
}

const char *lkst_handler_name(const struct lkst_handler_names *h,
			      unsigned int id)
{
	if (id >= LKST_MAX_HANDLERS || !h->name[id][0])
		return NULL;
	return h->name[id];
}

int lkst_parse_handler(const char *s, const struct lkst_handler_names *h,
		       unsigned int *id, struct lkst_err *err)
{
	unsigned int i;
	uint64_t value;

	if (!s || !*s) {
		lkst_seterr(err, "empty handler; give a handler ID or name (see lkm handlers)");
		return -1;
	}
	if (looks_numeric(s)) {
		if (lkst_parse_u64(s, LKST_MAX_HANDLERS - 1, &value) || value == 0) {
			lkst_seterr(err, "bad handler number '%s'; use 1..255 (see lkm handlers)", s);
			return -1;
		}
		if (!lkst_handler_name(h, value)) {
			lkst_seterr(err, "handler %u is not registered; see lkm handlers",
				    (unsigned int)value);
			return -1;
		}
		*id = value;
		return 0;
	}
	for (i = 1; i < LKST_MAX_HANDLERS; i++) {
		if (h->name[i][0] && !strcasecmp(s, h->name[i])) {
			*id = i;
			return 0;
		}
	}
	lkst_seterr(err, "unknown handler '%s'; see lkm handlers for the handler names", s);
	return -1;
}
