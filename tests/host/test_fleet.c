// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of lkbuf ship's mechanics (lkst_fleet.c): how long it tries
 * before giving up with the default options, the URL it posts to and the
 * one it prints, credentials from a file or the environment, and a
 * record's realtime_ns on absurd times.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lkst_fleet.h"
#include "lkst_logio.h"

static char dir[] = "/tmp/lkst_test_fleet.XXXXXX";

/* The documented bound: a server that accepts and never answers. */
static void test_give_up(void)
{
	unsigned long long ms = lkst_ship_give_up_ms(LKST_SHIP_TRIES, LKST_SHIP_TIMEOUT);
	unsigned long long i, waits = 0;

	CHECK(ms <= LKST_SHIP_GIVE_UP_BOUND * 1000ull);
	CHECK(LKST_SHIP_GIVE_UP_BOUND == 300);
	/* Connecting is inside a try's timeout, and shorter. */
	CHECK(LKST_SHIP_CONNECT_TIMEOUT <= LKST_SHIP_TIMEOUT);
	/* The waits: 0.25 s doubling to 10 s (docs/fleet.md). */
	CHECK(lkst_ship_backoff_ms(0) == 250);
	CHECK(lkst_ship_backoff_ms(1) == 500);
	CHECK(lkst_ship_backoff_ms(5) == 8000);
	CHECK(lkst_ship_backoff_ms(6) == 10000);
	CHECK(lkst_ship_backoff_ms(63) == 10000);
	CHECK(lkst_ship_backoff_ms(~0ull) == 10000);
	for (i = 0; i + 1 < LKST_SHIP_TRIES; i++)
		waits += lkst_ship_backoff_ms(i);
	CHECK(ms == LKST_SHIP_TRIES * (LKST_SHIP_TIMEOUT * 1000ull + LKST_SHIP_CHECK_MS) + waits);
	CHECK(lkst_ship_give_up_ms(1, 2) == 2000 + LKST_SHIP_CHECK_MS);
	printf("give up with the defaults after at most %llu ms\n", ms);
}

static void check_url(const char *base, const char *want)
{
	char *u = lkst_ship_url(base, "insert_distributed_sync=1&query=X");

	CHECK_STR(u, want);
	free(u);
}

static void test_url(void)
{
	char buf[256];

	check_url("http://h:8123", "http://h:8123/?insert_distributed_sync=1&query=X");
	check_url("http://h:8123/", "http://h:8123/?insert_distributed_sync=1&query=X");
	/* ClickHouse's own way of naming the user: kept, ours appended. */
	check_url("http://h:8123/?user=u&password=p",
		  "http://h:8123/?user=u&password=p&insert_distributed_sync=1&query=X");
	check_url("http://h:8123?user=u", "http://h:8123?user=u&insert_distributed_sync=1&query=X");
	check_url("https://proxy/ch/", "https://proxy/ch/?insert_distributed_sync=1&query=X");
	check_url("http://h:8123/?", "http://h:8123/?insert_distributed_sync=1&query=X");
	check_url("http://h:8123/#top", "http://h:8123/?insert_distributed_sync=1&query=X");

	CHECK_STR(lkst_ship_redact_url("http://h:8123", buf, sizeof(buf)), "http://h:8123");
	CHECK_STR(lkst_ship_redact_url("http://u:s3cret@h:8123/", buf, sizeof(buf)),
		  "http://u:***@h:8123/");
	CHECK_STR(lkst_ship_redact_url("http://u@h:8123/", buf, sizeof(buf)), "http://u@h:8123/");
	CHECK_STR(lkst_ship_redact_url("http://h/?user=u&password=s3cret&x=1", buf, sizeof(buf)),
		  "http://h/?user=u&password=***&x=1");
	CHECK_STR(lkst_ship_redact_url("http://h?password=s3cret", buf, sizeof(buf)),
		  "http://h?password=***");
	CHECK_STR(lkst_ship_redact_url("https://a:b:c@h/p?password=x&password=y#f", buf, sizeof(buf)),
		  "https://a:***@h/p?password=***&password=***#f");
	CHECK_STR(lkst_ship_redact_url("http://a:p@ss@h/", buf, sizeof(buf)), "http://a:***@h/");
	/* Cut short, never past the buffer. */
	CHECK_STR(lkst_ship_redact_url("http://u:s3cret@h:8123/", buf, 12), "http://u:**");
	CHECK(!strstr(lkst_ship_redact_url("http://u:s3cret@h/?password=s3cret", buf, 20), "s3"));
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f;

	unlink(path);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return chmod(path, mode);
}

static void test_credentials(void)
{
	char path[300], *user = NULL, *pw = NULL;
	struct lkst_err err;

	CHECK(lkst_ship_parse_credentials("lkst:pa:ss word\n", "ENV", &user, &pw, &err) == 0);
	CHECK_STR(user, "lkst");
	CHECK_STR(pw, "pa:ss word");
	free(user);
	free(pw);
	CHECK(lkst_ship_parse_credentials("u:\r\nsecond line", "ENV", &user, &pw, &err) == 0);
	CHECK_STR(user, "u");
	CHECK_STR(pw, "");
	free(user);
	free(pw);
	CHECK(lkst_ship_parse_credentials("nocolon", "ENV", &user, &pw, &err) == -1);
	CHECK_HAS(err.msg, "ENV does not begin with USER:PASSWORD");
	CHECK(lkst_ship_parse_credentials(":pw", "ENV", &user, &pw, &err) == -1);
	/* A header cannot be smuggled in through the password. */
	CHECK(lkst_ship_parse_credentials("u:p\rX-Evil: 1", "ENV", &user, &pw, &err) == -1);
	CHECK_HAS(err.msg, "control character");
	CHECK(!strstr(err.msg, "Evil"));

	snprintf(path, sizeof(path), "%s/cred", dir);
	CHECK(write_file(path, "lkst:s3cret\n", 0600) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == 0);
	CHECK_STR(user, "lkst");
	CHECK_STR(pw, "s3cret");
	free(user);
	free(pw);
	CHECK(chmod(path, 0400) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == 0);
	free(user);
	free(pw);
	CHECK(chmod(path, 0640) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == -1);
	CHECK_HAS(err.msg, "may be read or written by others (mode 0640)");
	CHECK_HAS(err.msg, "chmod 600");
	CHECK(!strstr(err.msg, "s3cret"));
	CHECK(chmod(path, 0604) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == -1);
	CHECK(chmod(path, 0620) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == -1);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == -1);
	CHECK_HAS(err.msg, "cannot read the credentials file");
	CHECK(lkst_ship_read_credentials(dir, &user, &pw, &err) == -1);
	snprintf(path, sizeof(path), "%s/empty", dir);
	CHECK(write_file(path, "", 0600) == 0);
	CHECK(lkst_ship_read_credentials(path, &user, &pw, &err) == -1);
	CHECK_HAS(err.msg, "USER:PASSWORD");
}

struct rt {
	long long v[4];
	unsigned int n;
};

static int keep_rt(void *ctx, enum lkst_fleet_table_id t, const struct lkst_fleet_val *v)
{
	struct rt *rt = ctx;

	if (t == LKST_FLEET_RECORDS && rt->n < 4)
		rt->v[rt->n++] = v[5].i;
	return 0;
}

/* realtime_ns of records at absurd times: clamped, not overflowed. */
static void check_realtime(__u64 anchor_trace, __u64 anchor_real, const __u64 *times,
			   const long long *want)
{
	struct lkst_log_cpu c = { .cpu = 0, .nr_records = 4, .written = 4 };
	struct lkst_record r[4];
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_fleet_log fl;
	struct lkst_trace *trace;
	struct lkst_err err;
	struct rt rt = { { 0 }, 0 };
	char path[300];
	unsigned int i;

	memset(r, 0, sizeof(r));
	for (i = 0; i < 4; i++) {
		r[i].time_ns = times[i];
		r[i].event = LKST_EV_SYSCALL_ENTRY;
	}
	lkst_log_header_init(&h);
	h.nr_cpus = 1;
	h.anchor_trace_ns = anchor_trace;
	h.anchor_realtime_ns = anchor_real;
	strcpy(h.nodename, "absurd");
	snprintf(path, sizeof(path), "%s/absurd.log", dir);
	w = lkst_log_create(path, &h, &err);
	CHECK(w && !lkst_log_write_cpu(w, &c, r, &err) && !lkst_log_commit(w, &err));
	trace = lkst_trace_open(path, 0, &err);
	CHECK(trace != NULL);
	if (!trace)
		return;
	CHECK(lkst_fleet_wrap(&fl, trace, path, &err) == 0);
	CHECK(lkst_fleet_records(&fl, keep_rt, &rt, &err) == 0);
	lkst_fleet_close(&fl);
	CHECK(rt.n == 4);
	for (i = 0; i < rt.n; i++) {
		if (rt.v[i] != want[i])
			fprintf(stderr, "record %u at %llu: realtime_ns %lld, want %lld\n", i,
				(unsigned long long)times[i], rt.v[i], want[i]);
		CHECK(rt.v[i] == want[i]);
	}
}

static void test_realtime(void)
{
	/* Offset +1e9: the latest times pass what Int64 holds. */
	static const __u64 late[4] = { 5, (__u64)LLONG_MAX - 10, (__u64)LLONG_MAX + 10, ~0ull };
	static const long long late_want[4] = { 1000000005, LLONG_MAX, LLONG_MAX, LLONG_MAX };
	/* Offset -(2^63 - 1): above it comes back into range. */
	static const __u64 big[4] = { 0, 1, (__u64)LLONG_MAX + 5, ~0ull };
	static const long long big_want[4] = { -LLONG_MAX, -LLONG_MAX + 1, 5, LLONG_MAX };

	check_realtime(0, 1000000000ull, late, late_want);
	check_realtime((__u64)LLONG_MAX, 0, big, big_want);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_give_up();
	test_url();
	test_credentials();
	test_realtime();
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return check_report();
}
