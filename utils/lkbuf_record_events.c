// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf record -e and --filter: which events the private maskset routes,
 * to which handler, behind which predicate.  Pure: no device, no exits.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkbuf_record.h"

int lkbuf_select_pattern(const char *pattern, unsigned char sel[LKST_NR_EVENT_IDS],
			 struct lkst_err *err)
{
	unsigned int i;
	int n = 0;

	if (!strcasecmp(pattern, "all") || strpbrk(pattern, "*?[")) {
		int all = !strcasecmp(pattern, "all");

		for (i = 0; i < lkst_nr_events; i++)
			if (all || !fnmatch(pattern, lkst_events[i].mnemonic, FNM_CASEFOLD)) {
				sel[lkst_events[i].id] = 1;
				n++;
			}
		if (!n)
			lkst_seterr(err, "'%s' matches no event; see lkm events for the names",
				    pattern);
		return n ? n : -1;
	}
	/* Events and categories: the one resolver lkm config and print use. */
	return lkst_parse_event_item(pattern, sel, err);
}

static int add_item(struct lkbuf_rec_events *e, const char *text, size_t len,
		    struct lkst_err *err)
{
	struct lkbuf_rec_item *items, *it;
	char *copy = strndup(text, len), *eq;

	if (!copy) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	items = realloc(e->items, (e->nr + 1) * sizeof(*items));
	if (!items) {
		free(copy);
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	e->items = items;
	it = &items[e->nr];
	memset(it, 0, sizeof(*it));
	it->option = e->nr_options;
	eq = strchr(copy, '=');
	if (eq) {
		*eq = '\0';
		if (!eq[1]) {
			lkst_seterr(err, "no handler after '=' in '%.*s'; give EVENT=HANDLER (see lkm handlers)",
				    (int)len, text);
			free(copy);
			return -1;
		}
	}
	if (!*copy) {
		lkst_seterr(err, "no event before '=' in '%.*s'; give EVENT=HANDLER", (int)len, text);
		free(copy);
		return -1;
	}
	if (lkbuf_select_pattern(copy, it->sel, err) < 0) {
		free(copy);
		return -1;
	}
	if (eq) {
		it->handler = strdup(eq + 1);
		if (!it->handler) {
			free(copy);
			lkst_seterr(err, "out of memory; free some memory");
			return -1;
		}
	}
	free(copy);
	e->nr++;
	return 0;
}

int lkbuf_rec_add_events(struct lkbuf_rec_events *e, const char *list,
			 struct lkst_err *err)
{
	const char *p = list, *end;
	char **filters;

	if (!list || !*list) {
		lkst_seterr(err, "empty event list; give events, globs or categories separated by commas");
		return -1;
	}
	for (;;) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p) {
			lkst_seterr(err, "empty item in event list '%s'; give events, globs or categories separated by commas",
				    list);
			return -1;
		}
		if (add_item(e, p, end - p, err))
			return -1;
		if (!*end)
			break;
		p = end + 1;
	}
	filters = realloc(e->filters, (e->nr_options + 1) * sizeof(*filters));
	if (!filters) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	e->filters = filters;
	filters[e->nr_options++] = NULL;
	return 0;
}

int lkbuf_rec_add_filter(struct lkbuf_rec_events *e, const char *expr,
			 struct lkst_err *err)
{
	char **f;

	if (!e->nr_options) {
		lkst_seterr(err, "--filter '%s' needs an -e EVENTS before it: the events it filters",
			    expr);
		return -1;
	}
	f = &e->filters[e->nr_options - 1];
	if (*f) {
		lkst_seterr(err, "two --filter options after one -e; join them with && in one expression");
		return -1;
	}
	*f = strdup(expr);
	if (!*f) {
		lkst_seterr(err, "out of memory; free some memory");
		return -1;
	}
	return 0;
}

int lkbuf_rec_resolve(const struct lkbuf_rec_events *e,
		      const struct lkst_handler_names *h,
		      unsigned char handler[LKST_NR_EVENT_IDS],
		      const char *filter[LKST_NR_EVENT_IDS], struct lkst_err *err)
{
	unsigned int i, ev, id;

	memset(handler, LKST_HANDLER_NOTHING, LKST_NR_EVENT_IDS);
	for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++)
		filter[ev] = NULL;
	for (i = 0; i < e->nr; i++) {
		const struct lkbuf_rec_item *it = &e->items[i];

		id = LKST_HANDLER_DEFAULT;
		if (it->handler && lkst_parse_handler(it->handler, h, &id, err))
			return -1;
		if (id == LKST_HANDLER_NOTHING) {
			lkst_seterr(err, "handler nothing records nothing; leave the event out of -e instead");
			return -1;
		}
		for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++)
			if (it->sel[ev]) {
				handler[ev] = id;
				filter[ev] = e->filters[it->option];
			}
	}
	return 0;
}

void lkbuf_rec_events_free(struct lkbuf_rec_events *e)
{
	unsigned int i;

	for (i = 0; i < e->nr; i++)
		free(e->items[i].handler);
	for (i = 0; i < e->nr_options; i++)
		free(e->filters[i]);
	free(e->items);
	free(e->filters);
	memset(e, 0, sizeof(*e));
}
