// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkbuf record -e and --filter (lkbuf_record_events.c):
 * mnemonics, globs, categories and all; =HANDLER; --filter per -e; the
 * maskset entries they resolve to, later items overriding earlier ones.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lkbuf_record.h"
#include "lkst_util.h"

static unsigned int count(const unsigned char sel[LKST_NR_EVENT_IDS])
{
	unsigned int i, n = 0;

	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		n += sel[i] != 0;
	return n;
}

/* Events of the table whose mnemonic starts with prefix. */
static unsigned int with_prefix(const char *prefix)
{
	unsigned int i, n = 0;

	for (i = 0; i < lkst_nr_events; i++)
		n += !strncmp(lkst_events[i].mnemonic, prefix, strlen(prefix));
	return n;
}

static void test_patterns(void)
{
	unsigned char sel[LKST_NR_EVENT_IDS];
	struct lkst_err err;
	unsigned int n;

	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("SYSCALL_ENTRY", sel, &err) == 1);
	CHECK(sel[LKST_EV_SYSCALL_ENTRY] && count(sel) == 1);

	/* A glob, case-insensitive: every SYSCALL_* event and only those. */
	n = with_prefix("SYSCALL_");
	CHECK(n >= 3);
	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("syscall_*", sel, &err) == (int)n);
	CHECK(count(sel) == n && sel[LKST_EV_SYSCALL_ENTRY] && sel[LKST_EV_SYSCALL_EXIT]);
	CHECK(!sel[LKST_EV_USER_MARK]);
	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("SYSCALL_EX?T", sel, &err) == 1 && sel[LKST_EV_SYSCALL_EXIT]);

	/* Categories through lkst_parse_event_item: the same set as the range. */
	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("process", sel, &err) > 0);
	CHECK(sel[LKST_EV_PROCESS_CONTEXTSWITCH] && !sel[LKST_EV_SYSCALL_ENTRY]);

	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("ALL", sel, &err) == (int)lkst_nr_events);
	CHECK(count(sel) == lkst_nr_events);

	memset(sel, 0, sizeof(sel));
	CHECK(lkbuf_select_pattern("NOSUCH_*", sel, &err) < 0);
	CHECK_HAS(err.msg, "'NOSUCH_*' matches no event");
	CHECK(count(sel) == 0);
	CHECK(lkbuf_select_pattern("NOSUCH", sel, &err) < 0);
	CHECK_HAS(err.msg, "unknown event or category 'NOSUCH'");
}

static struct lkst_handler_names names;

static void test_lists(void)
{
	struct lkbuf_rec_events e;
	unsigned char handler[LKST_NR_EVENT_IDS];
	const char *filter[LKST_NR_EVENT_IDS];
	struct lkst_err err;
	unsigned int i;

	lkst_handler_names_init(&names);
	strcpy(names.name[5], "stack");

	memset(&e, 0, sizeof(e));
	CHECK(lkbuf_rec_add_filter(&e, "pid == 1", &err) < 0);
	CHECK_HAS(err.msg, "needs an -e EVENTS before it");
	CHECK(lkbuf_rec_add_events(&e, "SYSCALL_*,PROCESS_WAKEUP=stack", &err) == 0);
	CHECK(lkbuf_rec_add_filter(&e, "arg1 == 8", &err) == 0);
	CHECK(lkbuf_rec_add_filter(&e, "arg1 == 9", &err) < 0);
	CHECK_HAS(err.msg, "two --filter options after one -e");
	/* A later -e overrides: SYSCALL_EXIT to handler 5, unfiltered. */
	CHECK(lkbuf_rec_add_events(&e, "SYSCALL_EXIT=5", &err) == 0);
	CHECK(e.nr == 3 && e.nr_options == 2);
	CHECK(lkbuf_rec_resolve(&e, &names, handler, filter, &err) == 0);
	CHECK(handler[LKST_EV_SYSCALL_ENTRY] == LKST_HANDLER_DEFAULT);
	CHECK_STR(filter[LKST_EV_SYSCALL_ENTRY], "arg1 == 8");
	CHECK(handler[LKST_EV_PROCESS_WAKEUP] == 5);
	CHECK_STR(filter[LKST_EV_PROCESS_WAKEUP], "arg1 == 8");
	CHECK(handler[LKST_EV_SYSCALL_EXIT] == 5 && !filter[LKST_EV_SYSCALL_EXIT]);
	/* Everything else is off. */
	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		if (i != LKST_EV_PROCESS_WAKEUP && !(lkst_event_by_id(i) &&
		    !strncmp(lkst_event_by_id(i)->mnemonic, "SYSCALL_", 8)))
			CHECK(handler[i] == LKST_HANDLER_NOTHING && !filter[i]);
	lkbuf_rec_events_free(&e);
	CHECK(e.nr == 0 && !e.items);

	/* Errors name what is wrong; an unknown handler shows at resolve. */
	CHECK(lkbuf_rec_add_events(&e, "", &err) < 0);
	CHECK(lkbuf_rec_add_events(&e, "SYSCALL_ENTRY,,USER_MARK", &err) < 0);
	CHECK_HAS(err.msg, "empty item");
	CHECK(lkbuf_rec_add_events(&e, "SYSCALL_ENTRY=", &err) < 0);
	CHECK_HAS(err.msg, "no handler after '='");
	CHECK(lkbuf_rec_add_events(&e, "=stack", &err) < 0);
	CHECK_HAS(err.msg, "no event before '='");
	lkbuf_rec_events_free(&e);
	CHECK(lkbuf_rec_add_events(&e, "USER_MARK=nosuch", &err) == 0);
	CHECK(lkbuf_rec_resolve(&e, &names, handler, filter, &err) < 0);
	CHECK_HAS(err.msg, "unknown handler 'nosuch'");
	lkbuf_rec_events_free(&e);
	CHECK(lkbuf_rec_add_events(&e, "USER_MARK=nothing", &err) == 0);
	CHECK(lkbuf_rec_resolve(&e, &names, handler, filter, &err) < 0);
	CHECK_HAS(err.msg, "handler nothing records nothing");
	lkbuf_rec_events_free(&e);
}

int main(void)
{
	lkst_events_use_builtin();
	test_patterns();
	test_lists();
	return check_report();
}
