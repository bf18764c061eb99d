// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkm agg's pure half (utils/lkm_agg.c) and of the quantize
 * buckets the kernel handler shares with it (handlers/lkst_agg.h): option
 * parsing and the configuration sent to the kernel, key decoding, DTrace's
 * quantize art, and the text and CSV of `lkm agg print` on known entries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lkm_agg.h"

/* What stmt printed on fp, into text (which the caller frees). */
#define CAPTURE(text, stmt)						\
	do {								\
		size_t _len;						\
		FILE *fp = open_memstream(&(text), &_len);		\
		stmt;							\
		fclose(fp);						\
	} while (0)

static void test_buckets(void)
{
	static const struct { int64_t v; int64_t lo, hi, label; } cases[] = {
		{ 0, 0, 0, 0 },
		{ 1, 1, 1, 1 },
		{ 2, 2, 3, 2 },
		{ 3, 2, 3, 2 },
		{ 4, 4, 7, 4 },
		{ 7, 4, 7, 4 },
		{ 100, 64, 127, 64 },
		{ 4096, 4096, 8191, 4096 },
		{ 10000000, 8388608, 16777215, 8388608 },
		{ INT64_MAX, INT64_C(1) << 62, INT64_MAX, INT64_C(1) << 62 },
		{ -1, -1, -1, -1 },
		{ -2, -3, -2, -2 },
		{ -3, -3, -2, -2 },
		{ -4, -7, -4, -4 },
		{ -1000, -1023, -512, -512 },
		{ -INT64_MAX, -INT64_MAX, -(INT64_C(1) << 62), -(INT64_C(1) << 62) },
		{ INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN },
	};
	unsigned int i, b;
	int contiguous = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b = lkst_agg_bucket(cases[i].v);
		CHECK(b < LKST_AGG_NR_BUCKETS);
		CHECK(lkst_agg_bucket_min(b) == cases[i].lo);
		CHECK(lkst_agg_bucket_max(b) == cases[i].hi);
		CHECK(lkst_agg_bucket_label(b) == cases[i].label);
	}
	CHECK(lkst_agg_bucket(0) == LKST_AGG_BUCKET_ZERO);
	CHECK(lkst_agg_bucket(INT64_MIN) == 0);
	CHECK(lkst_agg_bucket(INT64_MAX) == LKST_AGG_NR_BUCKETS - 1);
	/* The buckets cover every value once, in order. */
	for (b = 0; b < LKST_AGG_NR_BUCKETS; b++) {
		if (lkst_agg_bucket(lkst_agg_bucket_min(b)) != b ||
		    lkst_agg_bucket(lkst_agg_bucket_max(b)) != b ||
		    lkst_agg_bucket_min(b) > lkst_agg_bucket_max(b))
			contiguous = 0;
		if (b + 1 < LKST_AGG_NR_BUCKETS &&
		    lkst_agg_bucket_max(b) + 1 != lkst_agg_bucket_min(b + 1))
			contiguous = 0;
	}
	CHECK(contiguous);
}

static void test_parse(void)
{
	__u8 keys[LKST_AGG_MAX_KEYS + 1];
	char name[LKST_AGG_NAME_LEN];
	struct lkst_err err;
	__u32 v;

	CHECK(!lkm_agg_parse_func("QuAnTiZe", &v, &err) && v == LKST_AGG_F_QUANTIZE);
	CHECK(!lkm_agg_parse_func("avg", &v, &err) && v == LKST_AGG_F_AVG);
	CHECK(lkm_agg_parse_func("median", &v, &err) == -1);
	CHECK_STR(err.msg, "unknown function 'median'; use count, sum, min, max, avg or quantize");
	CHECK(!lkm_agg_parse_value("arg1", &v, &err) && v == LKST_AGG_VAL_ARG1);
	CHECK(!lkm_agg_parse_value("ARG6", &v, &err) && v == LKST_AGG_VAL_ARG6);
	CHECK(lkm_agg_parse_value("arg0", &v, &err) == -1);
	CHECK(lkm_agg_parse_value("arg7", &v, &err) == -1);
	CHECK(lkm_agg_parse_value("arg12", &v, &err) == -1);
	CHECK(!lkm_agg_parse_latency("sched", &v, &err) && v == LKST_AGG_VAL_LAT_SCHED);
	CHECK(!lkm_agg_parse_latency("IRQ", &v, &err) && v == LKST_AGG_VAL_LAT_IRQ);
	CHECK(lkm_agg_parse_latency("disk", &v, &err) == -1);
	CHECK_HAS(err.msg, "unknown latency 'disk'");

	CHECK(!lkm_agg_parse_keys("comm,arg1", keys, &err));
	CHECK(keys[0] == LKST_AGG_KEY_COMM && keys[1] == LKST_AGG_KEY_ARG1 &&
	      !keys[2] && !keys[3]);
	CHECK(!lkm_agg_parse_keys("event,PID,cpu", keys, &err));
	CHECK(keys[0] == LKST_AGG_KEY_EVENT && keys[1] == LKST_AGG_KEY_PID &&
	      keys[2] == LKST_AGG_KEY_CPU && !keys[3]);
	CHECK(!lkm_agg_parse_keys("arg6", keys, &err) && keys[0] == LKST_AGG_KEY_ARG6);
	CHECK(lkm_agg_parse_keys("comm,pid,cpu", keys, &err) == -1);
	CHECK_STR(err.msg, "too many keys in 'comm,pid,cpu'; at most three, and comm counts as two");
	CHECK(lkm_agg_parse_keys("comm,comm", keys, &err) == -1);
	CHECK(lkm_agg_parse_keys("pid,pid,pid,pid", keys, &err) == -1);
	CHECK(lkm_agg_parse_keys("pid,,cpu", keys, &err) == -1);
	CHECK_HAS(err.msg, "unknown key '' in 'pid,,cpu'");
	CHECK(lkm_agg_parse_keys("color", keys, &err) == -1);
	CHECK(lkm_agg_parse_keys("", keys, &err) == -1);
	CHECK(lkm_agg_parse_keys("comm,", keys, &err) == -1);

	CHECK(!lkm_agg_parse_name("calls_2", name, &err) && !strcmp(name, "calls_2"));
	CHECK(!lkm_agg_parse_name("abcdefghijklmno", name, &err));
	CHECK(lkm_agg_parse_name("abcdefghijklmnop", name, &err) == -1);
	CHECK(lkm_agg_parse_name("", name, &err) == -1);
	CHECK(lkm_agg_parse_name("a-b", name, &err) == -1);
	CHECK(lkm_agg_parse_name("a b", name, &err) == -1);
}

static void test_config(void)
{
	const char *sys[] = { "SYSCALL_ENTRY", NULL };
	const char *two[] = { "syscall_entry", "0x31", NULL };
	const char *bad[] = { "NO_SUCH_EVENT", NULL };
	struct lkm_agg_args a;
	struct lkst_agg_config cfg, zero;
	struct lkst_err err;

	memset(&a, 0, sizeof(a));
	a.func = "count";
	a.keys = "comm";
	a.events = sys;
	CHECK(!lkm_agg_config(&a, &cfg, &err));
	CHECK_STR(cfg.name, "agg");
	CHECK(cfg.func == LKST_AGG_F_COUNT && cfg.value == LKST_AGG_VAL_NONE);
	CHECK(cfg.keys[0] == LKST_AGG_KEY_COMM && !cfg.keys[1]);
	CHECK(cfg.slots == LKST_AGG_DEFAULT_SLOTS);
	CHECK(cfg.events[0] == 1ULL << 0x30 && cfg.events[1] == 0 &&
	      cfg.events[2] == 0 && cfg.events[3] == 0);
	/* Nothing but the fields set: the name padded, the padding zero. */
	memset(&zero, 0, sizeof(zero));
	CHECK(!memcmp(cfg.name + 4, zero.name + 4, sizeof(cfg.name) - 4));

	a.name = "w";
	a.func = "quantize";
	a.value = "arg4";
	a.size = "100";
	a.events = two;
	CHECK(!lkm_agg_config(&a, &cfg, &err));
	CHECK(cfg.value == LKST_AGG_VAL_ARG1 + 3 && cfg.slots == 128);
	CHECK(lkst_agg_event_test(cfg.events, 0x30) && lkst_agg_event_test(cfg.events, 0x31));
	a.size = "8192";
	CHECK(!lkm_agg_config(&a, &cfg, &err) && cfg.slots == 8192);
	a.size = "8193";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "bad size '8193'; give 16..8192 slots per CPU for quantize");
	a.size = "15";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	a.size = "0x10";
	CHECK(!lkm_agg_config(&a, &cfg, &err) && cfg.slots == 16);
	a.size = "lots";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	a.size = NULL;

	a.value = NULL;
	a.latency = "syscall";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "a latency takes no EVENT: its events are the pair's (lkm agg list shows them)");
	a.events = NULL;
	CHECK(!lkm_agg_config(&a, &cfg, &err));
	CHECK(cfg.value == LKST_AGG_VAL_LAT_SYSCALL && !cfg.events[0]);
	a.value = "arg1";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "give either a value (-v argN) or a latency (-l), not both");
	a.value = NULL;
	a.latency = NULL;
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "quantize needs a value: -v arg1..arg6 or -L syscall|sched|irq");
	a.func = "count";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "no EVENT; name the events (or categories) to aggregate, e.g. SYSCALL_ENTRY");
	a.events = bad;
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_HAS(err.msg, "NO_SUCH_EVENT");
	a.events = sys;
	a.value = "arg2";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	CHECK_STR(err.msg, "count takes no value; drop -v/-l, or use sum, min, max, avg or quantize");
	a.value = NULL;
	a.func = NULL;
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	a.func = "count";
	a.name = "no-dash";
	CHECK(lkm_agg_config(&a, &cfg, &err) == -1);
	/* A category stands for its events. */
	a.name = NULL;
	a.events = (const char *[]){ "syscall", NULL };
	CHECK(!lkm_agg_config(&a, &cfg, &err));
	CHECK(lkst_agg_event_test(cfg.events, 0x30) && lkst_agg_event_test(cfg.events, 0x31) &&
	      lkst_agg_event_test(cfg.events, 0x32) && !lkst_agg_event_test(cfg.events, 0x01));
}

static void set_comm(__u64 *w, const char *comm)
{
	char b[16] = { 0 };

	memcpy(b, comm, strnlen(comm, sizeof(b)));
	memcpy(w, b, 16);
}

static void test_keys_and_describe(void)
{
	struct lkst_agg_config cfg;
	__u64 key[3] = { 0 };
	char buf[256];

	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.name, "k");
	cfg.func = LKST_AGG_F_COUNT;
	cfg.keys[0] = LKST_AGG_KEY_COMM;
	cfg.keys[1] = LKST_AGG_KEY_ARG1;
	lkst_agg_event_set(cfg.events, LKST_EV_SYSCALL_ENTRY);
	set_comm(key, "aggw");
	key[2] = LKST_SYSCALL_NR_ABI(4, LKST_SYSCALL_ABI_IA32);
	lkm_agg_format_key(&cfg, key, 0, buf, sizeof(buf));
	CHECK_STR(buf, "aggw");
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "ia32:write");
	key[2] = 110;
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "getppid");
	key[2] = 999;			/* no such call: its number */
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "999");
	lkm_agg_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "count() by comm, arg1 of SYSCALL_ENTRY");

	/* Events whose arg2 differ in type: raw hex. */
	cfg.keys[0] = LKST_AGG_KEY_ARG1 + 1;
	cfg.keys[1] = LKST_AGG_KEY_EVENT;
	cfg.keys[2] = LKST_AGG_KEY_CPU;
	lkst_agg_event_set(cfg.events, LKST_EV_SYSCALL_EXIT);
	key[0] = (__u64)-9;
	key[1] = LKST_EV_SYSCALL_EXIT;
	key[2] = 1;
	lkm_agg_format_key(&cfg, key, 0, buf, sizeof(buf));
	CHECK_STR(buf, "0xfffffffffffffff7");
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "SYSCALL_EXIT");
	lkm_agg_format_key(&cfg, key, 2, buf, sizeof(buf));
	CHECK_STR(buf, "1");
	key[1] = 0xfe;
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "0xfe");
	lkm_agg_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "count() by arg2, event, cpu of SYSCALL_ENTRY,SYSCALL_EXIT");

	/* A latency's args are its end event's: SYSCALL_EXIT's return value. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.func = LKST_AGG_F_MAX;
	cfg.value = LKST_AGG_VAL_LAT_SYSCALL;
	cfg.keys[0] = LKST_AGG_KEY_ARG1 + 1;
	cfg.keys[1] = LKST_AGG_KEY_PID;
	key[0] = (__u64)-9;
	key[1] = 77;
	lkm_agg_format_key(&cfg, key, 0, buf, sizeof(buf));
	CHECK_STR(buf, "-9");
	lkm_agg_format_key(&cfg, key, 1, buf, sizeof(buf));
	CHECK_STR(buf, "77");
	lkm_agg_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "max(latency syscall) by arg2, pid");
	/* SCHED's: the switch's next comm is arg5. */
	cfg.value = LKST_AGG_VAL_LAT_SCHED;
	cfg.keys[0] = LKST_AGG_KEY_ARG1 + 1;
	cfg.keys[1] = 0;
	key[0] = 1234;
	lkm_agg_format_key(&cfg, key, 0, buf, sizeof(buf));
	CHECK_STR(buf, "1234");

	/* Many events are counted, not listed. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.func = LKST_AGG_F_SUM;
	cfg.value = LKST_AGG_VAL_ARG1;
	cfg.events[0] = 0x3fe;		/* 0x01..0x09 */
	lkm_agg_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "sum(arg1) of 9 events");
	/* A name with a non-printable byte is escaped. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.keys[0] = LKST_AGG_KEY_COMM;
	set_comm(key, "a,b\n");
	lkm_agg_format_key(&cfg, key, 0, buf, sizeof(buf));
	CHECK_STR(buf, "a,b\\x0a");
}

static void test_quantize(void)
{
	__u64 b[LKST_AGG_NR_BUCKETS] = { 0 };
	char *out = NULL;

	CAPTURE(out, lkm_agg_print_quantize(fp, b));
	CHECK_STR(out, "");
	free(out);

	b[lkst_agg_bucket(0)] = 10;
	b[lkst_agg_bucket(1)] = 20;
	b[lkst_agg_bucket(3)] = 30;
	b[lkst_agg_bucket(100)] = 25;
	b[lkst_agg_bucket(4096)] = 15;
	CAPTURE(out, lkm_agg_print_quantize(fp, b));
	CHECK_STR(out,
		  "           value  ------------- Distribution ------------- count\n"
		  "              -1 |                                         0\n"
		  "               0 |@@@@                                     10\n"
		  "               1 |@@@@@@@@                                 20\n"
		  "               2 |@@@@@@@@@@@@                             30\n"
		  "               4 |                                         0\n"
		  "               8 |                                         0\n"
		  "              16 |                                         0\n"
		  "              32 |                                         0\n"
		  "              64 |@@@@@@@@@@                               25\n"
		  "             128 |                                         0\n"
		  "             256 |                                         0\n"
		  "             512 |                                         0\n"
		  "            1024 |                                         0\n"
		  "            2048 |                                         0\n"
		  "            4096 |@@@@@@                                   15\n"
		  "            8192 |                                         0\n");
	free(out);

	/* Negative values, and the extremes with no bucket beyond them. */
	memset(b, 0, sizeof(b));
	b[lkst_agg_bucket(INT64_MIN)] = 1;
	b[lkst_agg_bucket(-5)] = 2;
	b[lkst_agg_bucket(INT64_MAX)] = 1;
	CAPTURE(out, lkm_agg_print_quantize(fp, b));
	CHECK_HAS(out, "\n-9223372036854775808 |@@@@@@@@@@                               1\n"
		  "-4611686018427387904 |                                         0\n");
	CHECK_HAS(out, "\n              -8 |                                         0\n"
		  "              -4 |@@@@@@@@@@@@@@@@@@@@                     2\n"
		  "              -2 |                                         0\n");
	CHECK_HAS(out, "\n4611686018427387904 |@@@@@@@@@@                               1\n");
	free(out);
	/* One sample: the whole bar. */
	memset(b, 0, sizeof(b));
	b[lkst_agg_bucket(10000000)] = 1;
	CAPTURE(out, lkm_agg_print_quantize(fp, b));
	CHECK_STR(out,
		  "           value  ------------- Distribution ------------- count\n"
		  "         4194304 |                                         0\n"
		  "         8388608 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n"
		  "        16777216 |                                         0\n");
	free(out);
}

static void entry(struct lkst_agg_entry *e, const char *comm, __u64 nr,
		  __u64 count, __s64 sum, __s64 min, __s64 max)
{
	memset(e, 0, sizeof(*e));
	set_comm(e->key, comm);
	e->key[2] = nr;
	e->count = count;
	e->sum = sum;
	e->min = min;
	e->max = max;
}

static void test_print(void)
{
	struct lkst_agg_config cfg;
	struct lkst_agg_entry e[3];
	__u64 *b;
	char *out = NULL;

	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.name, "wavg");
	cfg.func = LKST_AGG_F_AVG;
	cfg.value = LKST_AGG_VAL_ARG1 + 3;
	cfg.keys[0] = LKST_AGG_KEY_COMM;
	cfg.keys[1] = LKST_AGG_KEY_ARG1;
	lkst_agg_event_set(cfg.events, LKST_EV_SYSCALL_ENTRY);
	entry(&e[0], "aggw", 1, 100, 64050, 0, 4096);
	entry(&e[1], "aggw", 8, 6, -1005, -1000, 5);
	entry(&e[2], "a_much_longer_n", 0, 1, 7, 7, 7);
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, NULL, 3, 0));
	CHECK_STR(out,
		  "wavg: avg(arg4) by comm, arg1 of SYSCALL_ENTRY\n"
		  "\n"
		  "  comm            arg1   avg\n"
		  "  aggw            lseek -167\n"
		  "  a_much_longer_n read     7\n"
		  "  aggw            write  640\n");
	free(out);
	CAPTURE(out, lkm_agg_csv_header(fp); lkm_agg_print(fp, &cfg, e, NULL, 3, 1));
	CHECK_STR(out,
		  "aggregation,function,key1,key2,key3,count,sum,min,max,value,bucket_min,bucket_max,bucket_count\n"
		  "wavg,avg,aggw,8,,6,-1005,-1000,5,-167,,,\n"
		  "wavg,avg,a_much_longer_n,0,,1,7,7,7,7,,,\n"
		  "wavg,avg,aggw,1,,100,64050,0,4096,640,,,\n");
	free(out);

	/* Ties in value sort by key; no keys is one bare value. */
	cfg.func = LKST_AGG_F_COUNT;
	cfg.value = 0;
	entry(&e[0], "b", 2, 5, 0, 0, 0);
	entry(&e[1], "b", 1, 5, 0, 0, 0);
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, NULL, 2, 1));
	CHECK_STR(out, "wavg,count,b,1,,5,0,0,0,5,,,\nwavg,count,b,2,,5,0,0,0,5,,,\n");
	free(out);
	cfg.keys[0] = 0;
	cfg.keys[1] = 0;
	memset(e, 0, sizeof(e));
	e[0].count = 1234;
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, NULL, 1, 0));
	CHECK_STR(out, "wavg: count() of SYSCALL_ENTRY\n\n  count\n   1234\n");
	free(out);
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, NULL, 0, 0));
	CHECK_STR(out, "wavg: count() of SYSCALL_ENTRY\n");
	free(out);

	/* quantize: sorted by count, the buckets follow their key. */
	cfg.func = LKST_AGG_F_QUANTIZE;
	cfg.value = LKST_AGG_VAL_LAT_SYSCALL;
	cfg.keys[0] = LKST_AGG_KEY_COMM;
	memset(cfg.events, 0, sizeof(cfg.events));
	b = calloc(2 * LKST_AGG_NR_BUCKETS, sizeof(*b));
	entry(&e[0], "many", 0, 3, 30, 10, 10);
	entry(&e[1], "one", 0, 1, 5, 5, 5);
	b[lkst_agg_bucket(10)] = 3;
	b[LKST_AGG_NR_BUCKETS + lkst_agg_bucket(5)] = 1;
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, b, 2, 0));
	CHECK_STR(out,
		  "wavg: quantize(latency syscall) by comm\n"
		  "\n"
		  "  one\n"
		  "           value  ------------- Distribution ------------- count\n"
		  "               2 |                                         0\n"
		  "               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n"
		  "               8 |                                         0\n"
		  "\n"
		  "  many\n"
		  "           value  ------------- Distribution ------------- count\n"
		  "               4 |                                         0\n"
		  "               8 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 3\n"
		  "              16 |                                         0\n"
		  "\n");
	free(out);
	CAPTURE(out, lkm_agg_print(fp, &cfg, e, b, 2, 1));
	CHECK_STR(out,
		  "wavg,quantize,one,,,1,5,5,5,,4,7,1\n"
		  "wavg,quantize,many,,,3,30,10,10,,8,15,3\n");
	free(out);
	free(b);
}

int main(void)
{
	test_buckets();
	test_parse();
	test_config();
	test_keys_and_describe();
	test_quantize();
	test_print();
	return check_report();
}
