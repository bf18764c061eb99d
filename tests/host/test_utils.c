// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkst_util (numbers, events, handlers, categories, event
 * selections, mark text) and of
 * the maskset text form (round trip, parse errors).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lkst_format.h"
#include "lkst_util.h"

static void test_numbers(void)
{
	uint64_t v = 0;
	uint32_t u = 0;

	CHECK(lkst_parse_u64("0", 10, &v) == 0 && v == 0);
	CHECK(lkst_parse_u64("42", 100, &v) == 0 && v == 42);
	CHECK(lkst_parse_u64("0x1f", 100, &v) == 0 && v == 31);
	CHECK(lkst_parse_u64("0XFF", 255, &v) == 0 && v == 255);
	CHECK(lkst_parse_u64("18446744073709551615", UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	CHECK(lkst_parse_u64("18446744073709551616", UINT64_MAX, &v) < 0);
	CHECK(lkst_parse_u64("0x10000000000000000", UINT64_MAX, &v) < 0);
	CHECK(lkst_parse_u64("256", 255, &v) < 0);
	CHECK(lkst_parse_u64("", 10, &v) < 0);
	CHECK(lkst_parse_u64(NULL, 10, &v) < 0);
	CHECK(lkst_parse_u64("0x", 10, &v) < 0);
	CHECK(lkst_parse_u64("-1", 10, &v) < 0);
	CHECK(lkst_parse_u64("+1", 10, &v) < 0);
	CHECK(lkst_parse_u64(" 1", 10, &v) < 0);
	CHECK(lkst_parse_u64("1 ", 10, &v) < 0);
	CHECK(lkst_parse_u64("12abc", 1000, &v) < 0);
	CHECK(lkst_parse_u64("1a", 1000, &v) < 0);
	CHECK(lkst_parse_u32("31", 31, &u) == 0 && u == 31);
	CHECK(lkst_parse_u32("32", 31, &u) < 0);

	CHECK(lkst_parse_size("4096", &v) == 0 && v == 4096);
	CHECK(lkst_parse_size("64K", &v) == 0 && v == 65536);
	CHECK(lkst_parse_size("64k", &v) == 0 && v == 65536);
	CHECK(lkst_parse_size("2M", &v) == 0 && v == 2u << 20);
	CHECK(lkst_parse_size("0x1000", &v) == 0 && v == 4096);
	CHECK(lkst_parse_size("K", &v) < 0);
	CHECK(lkst_parse_size("1G", &v) < 0);
	CHECK(lkst_parse_size("1KK", &v) < 0);
	CHECK(lkst_parse_size("", &v) < 0);
	CHECK(lkst_parse_size("99999999999999999999M", &v) < 0);
}

static void test_events(void)
{
	struct lkst_err err;
	unsigned int id = 0;

	CHECK(lkst_parse_event("1", &id, &err) == 0 && id == 0x01);
	CHECK(lkst_parse_event("0x02", &id, &err) == 0 && id == 0x02);
	CHECK(lkst_parse_event("48", &id, &err) == 0 && id == 0x30);
	CHECK(lkst_parse_event("PROCESS_WAKEUP", &id, &err) == 0 && id == 0x02);
	CHECK(lkst_parse_event("process_wakeup", &id, &err) == 0 && id == 0x02);
	CHECK(lkst_parse_event("Syscall_Exit", &id, &err) == 0 && id == 0x31);
	CHECK(lkst_parse_event("PROCESS_WAKEUPX", &id, &err) < 0);
	CHECK_HAS(err.msg, "unknown event 'PROCESS_WAKEUPX'");
	CHECK(lkst_parse_event("0x99", &id, &err) < 0);
	CHECK_HAS(err.msg, "0x99 is not in the event table");
	CHECK(lkst_parse_event("0", &id, &err) < 0);
	CHECK(lkst_parse_event("256", &id, &err) < 0);
	CHECK_HAS(err.msg, "bad event number");
	CHECK(lkst_parse_event("-1", &id, &err) < 0);
	CHECK(lkst_parse_event("", &id, &err) < 0);
	CHECK(lkst_parse_event("1x", &id, &err) < 0);

	CHECK(lkst_nr_events >= 4);
	CHECK(lkst_event_by_id(0x01) && !strcmp(lkst_event_by_id(0x01)->mnemonic,
						  "PROCESS_CONTEXTSWITCH"));
	CHECK(lkst_event_by_id(0x01)->args[4].type == LKST_ARG_COMM);
	CHECK_STR(lkst_event_by_id(0x02)->args[0].desc, "target pid");
	CHECK(lkst_event_by_id(0x99) == NULL);
	CHECK_STR(lkst_category_name(lkst_event_by_id(0x30)->category), "syscall");
}

static void test_categories(void)
{
	enum lkst_category cat;
	unsigned int first, last;
	struct lkst_err err;

	CHECK(lkst_parse_category("process", &cat, &first, &last, &err) == 0 &&
	      cat == LKST_CAT_PROCESS && first == 0x01 && last == 0x0f);
	CHECK(lkst_parse_category("SYSCALL", &cat, &first, &last, &err) == 0 &&
	      cat == LKST_CAT_SYSCALL && first == 0x30 && last == 0x3f);
	CHECK(lkst_parse_category("tracer", &cat, &first, &last, &err) == 0 &&
	      last == 0xef);
	CHECK(lkst_parse_category("probe", &cat, &first, &last, &err) == 0 &&
	      cat == LKST_CAT_PROBE && first == LKST_EV_PROBE_FIRST &&
	      last == LKST_EV_PROBE_LAST);
	CHECK(lkst_parse_category("proc", &cat, &first, &last, &err) < 0);
	CHECK_HAS(err.msg, "unknown category 'proc'");
	CHECK(lkst_parse_category("", &cat, &first, &last, &err) < 0);
}

static unsigned int selected(const unsigned char *sel)
{
	unsigned int i, n = 0;

	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		n += sel[i];
	return n;
}

/* How many events of the table are in @cat: the tests follow the table. */
static unsigned int in_category(enum lkst_category cat)
{
	unsigned int i, n = 0;

	for (i = 0; i < lkst_nr_events; i++)
		n += lkst_events[i].category == cat;
	return n;
}

static void test_event_selections(void)
{
	const unsigned int nproc = in_category(LKST_CAT_PROCESS);
	const unsigned int nsys = in_category(LKST_CAT_SYSCALL);
	static const char *const empty_cats[] = {
		"oops", "lock", "timer", "net", "block", "ipc", "memory",
	};
	unsigned char sel[LKST_NR_EVENT_IDS];
	struct lkst_err err;
	size_t i;

	memset(sel, 0, sizeof(sel));
	CHECK(nproc >= 2 && lkst_parse_event_item("PROCESS", sel, &err) == (int)nproc &&
	      sel[0x01] && sel[0x02] && selected(sel) == nproc && !sel[0x30]);
	CHECK(lkst_parse_event_item("0x30", sel, &err) == 1 && sel[0x30] &&
	      selected(sel) == nproc + 1);
	/* USER_MARK and the two STACK events. */
	CHECK(lkst_parse_event_item("tracer", sel, &err) == 3 && sel[0xe0] &&
	      sel[LKST_EV_STACK_KERNEL] && sel[LKST_EV_STACK_USER]);
	/* A category no event has reached yet, while there is one. */
	for (i = 0; i < sizeof(empty_cats) / sizeof(empty_cats[0]); i++) {
		unsigned char none[LKST_NR_EVENT_IDS] = { 0 };
		char want[80];

		if (lkst_parse_event_item(empty_cats[i], none, &err) > 0)
			continue;
		snprintf(want, sizeof(want), "category '%s' has no events in this version",
			 empty_cats[i]);
		CHECK_HAS(err.msg, want);
		CHECK(selected(none) == 0);
		break;
	}
	CHECK(lkst_parse_event_item("proc", sel, &err) < 0);
	CHECK_HAS(err.msg, "unknown event or category 'proc'");
	CHECK(lkst_parse_event_item("0x99", sel, &err) < 0);
	CHECK_HAS(err.msg, "event 0x99 is not in the event table");
	CHECK(selected(sel) == nproc + 4);

	memset(sel, 0, sizeof(sel));
	CHECK(nsys >= 2 && lkst_parse_event_list("syscall,USER_MARK,1", sel, &err) == (int)nsys + 2 &&
	      sel[0x01] && sel[0x30] && sel[0x31] && sel[0xe0] && selected(sel) == nsys + 2);
	CHECK(lkst_parse_event_list("process,process", sel, &err) == 2 * (int)nproc);
	CHECK(lkst_parse_event_list("process,", sel, &err) < 0);
	CHECK_HAS(err.msg, "bad item in event list 'process,'");
	CHECK(lkst_parse_event_list(",process", sel, &err) < 0);
	CHECK(lkst_parse_event_list("", sel, &err) < 0);
	CHECK_HAS(err.msg, "empty event list");
	CHECK(lkst_parse_event_list("process,nope", sel, &err) < 0);
	CHECK_HAS(err.msg, "'nope'");
}

static void test_mark_text(void)
{
	const char *two[] = { "before", "the burst", NULL };
	const char *none[] = { NULL };
	const char *max[] = { "0123456789abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJK", NULL };
	const char *over[] = { "0123456789abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKL", NULL };
	struct lkst_mark mark, zero;
	struct lkst_err err;

	memset(&zero, 0, sizeof(zero));
	CHECK(sizeof(mark.text) == 48);
	CHECK(lkst_mark_text(two, &mark, &err) == 0 &&
	      !memcmp(mark.text, "before the burst", 17) &&
	      !memcmp(mark.text + 16, zero.text, 32));
	CHECK(lkst_mark_text(max, &mark, &err) == 0 &&
	      !memcmp(mark.text, "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK", 48));
	CHECK(lkst_mark_text(over, &mark, &err) < 0 && !memcmp(&mark, &zero, sizeof(mark)));
	CHECK_HAS(err.msg, "mark text is 49 bytes, the limit is 48; shorten it");
	CHECK(lkst_mark_text(none, &mark, &err) < 0);
	CHECK_HAS(err.msg, "no mark text given");
	CHECK(lkst_mark_text(NULL, &mark, &err) < 0);
}

static struct lkst_handler_names *make_handlers(void)
{
	struct lkst_handler_names *h = malloc(sizeof(*h));

	lkst_handler_names_init(h);
	strcpy(h->name[7], "counter");
	strcpy(h->module[7], "lkst_counter");
	return h;
}

static void test_handlers(void)
{
	struct lkst_handler_names *h = make_handlers();
	struct lkst_err err;
	unsigned int id = 0;

	CHECK(lkst_parse_handler("default", h, &id, &err) == 0 && id == 1);
	CHECK(lkst_parse_handler("DEFAULT", h, &id, &err) == 0 && id == 1);
	CHECK(lkst_parse_handler("nothing", h, &id, &err) == 0 && id == 255);
	CHECK(lkst_parse_handler("1", h, &id, &err) == 0 && id == 1);
	CHECK(lkst_parse_handler("0xff", h, &id, &err) == 0 && id == 255);
	CHECK(lkst_parse_handler("counter", h, &id, &err) == 0 && id == 7);
	CHECK(lkst_parse_handler("7", h, &id, &err) == 0 && id == 7);
	CHECK(lkst_parse_handler("8", h, &id, &err) < 0);
	CHECK_HAS(err.msg, "handler 8 is not registered");
	CHECK(lkst_parse_handler("0", h, &id, &err) < 0);
	CHECK(lkst_parse_handler("256", h, &id, &err) < 0);
	CHECK_HAS(err.msg, "bad handler number");
	CHECK(lkst_parse_handler("bogus", h, &id, &err) < 0);
	CHECK_HAS(err.msg, "unknown handler 'bogus'");
	CHECK(lkst_parse_handler("", h, &id, &err) < 0);
	CHECK_STR(lkst_handler_name(h, 255), "nothing");
	CHECK(lkst_handler_name(h, 9) == NULL);
	free(h);
}

/* Parses text given as a string. */
static int parse_text(const char *text, struct lkst_maskset_desc *desc,
		      char name[LKST_NAME_LEN], const struct lkst_handler_names *h,
		      struct lkst_err *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret = lkst_maskset_parse(in, desc, name, h, err);

	fclose(in);
	return ret;
}

static void test_maskset_round_trip(void)
{
	struct lkst_handler_names *h = make_handlers();
	struct lkst_maskset_desc in, out;
	char name[LKST_NAME_LEN], *text = NULL;
	struct lkst_err err;
	size_t len = 0;
	FILE *mem;

	memset(&in, 0, sizeof(in));
	memset(in.handler, LKST_HANDLER_NOTHING, sizeof(in.handler));
	in.id = 3;
	in.flags = LKST_MS_ACTIVE;
	strcpy(in.name, "my set");
	in.handler[0x01] = 1;
	in.handler[0x30] = 7;
	mem = open_memstream(&text, &len);
	lkst_maskset_format(mem, &in, h);
	fclose(mem);
	CHECK_HAS(text, "# lkst maskset 3 \"my set\"\n");
	CHECK_HAS(text, "\n0x01 PROCESS_CONTEXTSWITCH 1 default\n");
	CHECK_HAS(text, "\n0x02 PROCESS_WAKEUP 255 nothing\n");
	CHECK_HAS(text, "\n0x30 SYSCALL_ENTRY 7 counter\n");
	CHECK_HAS(text, "# flags: active\n");

	memset(&out, 0, sizeof(out));
	CHECK(parse_text(text, &out, name, h, &err) == 0);
	CHECK(memcmp(in.handler, out.handler, sizeof(in.handler)) == 0);
	CHECK_STR(name, "my set");
	free(text);

	/* Short form, comments, blank lines; unlisted events become NOTHING. */
	CHECK(parse_text("# hand written\n\n  PROCESS_WAKEUP default\n0x31 counter # no\n",
			 &out, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 4:");
	CHECK(parse_text("# hand written\n\n  PROCESS_WAKEUP default\n0x31\tcounter\r\n",
			 &out, name, h, &err) == 0);
	CHECK(out.handler[0x02] == 1 && out.handler[0x31] == 7 &&
	      out.handler[0x01] == 255 && out.handler[0x00] == 255 &&
	      out.handler[0xff] == 255);
	CHECK_STR(name, "");
	free(h);
}

static void test_maskset_errors(void)
{
	struct lkst_handler_names *h = make_handlers();
	struct lkst_maskset_desc d;
	char name[LKST_NAME_LEN];
	struct lkst_err err;

	CHECK(parse_text("0x01 1\n0x02 1\nFOO 1\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 3: unknown event 'FOO'");
	CHECK(parse_text("0x01 1\n0x01 255\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 2: event 0x01 was already set on line 1");
	CHECK(parse_text("# x\n0x01 PROCESS_WAKEUP 1 default\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 2: event 0x01 is PROCESS_CONTEXTSWITCH, not PROCESS_WAKEUP");
	CHECK(parse_text("0x01 PROCESS_CONTEXTSWITCH 1 nothing\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 1: handler 1 is default, not nothing");
	CHECK(parse_text("0x01 1 default\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 1: expected");
	CHECK(parse_text("0x01\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 1:");
	CHECK(parse_text("0x01 9\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 1: handler 9 is not registered");
	CHECK(parse_text("0x01 1\n0x99 1\n", &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 2: event 0x99 is not in the event table");
	CHECK(parse_text("# lkst maskset 3 \"0123456789012345678901234567890123\"\n",
			 &d, name, h, &err) < 0);
	CHECK_HAS(err.msg, "line 1: maskset name");
	CHECK(parse_text("", &d, name, h, &err) == 0 && d.handler[1] == 255);

	CHECK(lkst_maskset_check_name("ok name", &err) == 0);
	CHECK(lkst_maskset_check_name("", &err) < 0);
	CHECK(lkst_maskset_check_name("bad\"quote", &err) < 0);
	CHECK(lkst_maskset_check_name("bad\nline", &err) < 0);
	CHECK(lkst_maskset_check_name("0123456789012345678901234567890123", &err) < 0);
	free(h);
}

int main(void)
{
	test_numbers();
	test_events();
	test_categories();
	test_event_selections();
	test_mark_text();
	test_handlers();
	test_maskset_round_trip();
	test_maskset_errors();
	return check_report();
}
