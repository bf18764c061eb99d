// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf ship: logs into ClickHouse over its HTTP interface, in the fleet
 * schema (lkst_fleet.h, docs/fleet.md).
 *
 *   --create [--cluster NAME]   the tables (Distributed over NAME's shards)
 *   -f LOG...                   these logs, each on its own
 *   --dir DIR [--follow]        the closed files lkbuf record -o DIR wrote
 *
 * At least once: a file's rows go in batches of --batch records, each
 * insert retried with a doubling backoff until ClickHouse acknowledges it
 * (insert_distributed_sync: a Distributed table answers only when every
 * shard has its part), and the file is marked shipped in the state file
 * (fsync'd) only after its last insert, its files row, is acknowledged.
 * A file shipped again, after a crash of the shipper or with --force,
 * repeats rows with the same (host, boot, cpu, seq), which the
 * ReplacingMergeTree tables keep once.  --delete removes a file only
 * after that.  Memory: one batch.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lkbuf_cmds.h"
#include "lkst_fleet.h"

static char *url, *database = "lkst", *cluster, *dir, *state_path, *batch_arg, *retries_arg;
static const char **files;
static int create, follow, force, delete_after;

static struct poptOption ship_options[] = {
	{ "url", '\0', POPT_ARG_STRING, &url, 0,
	  "ClickHouse's HTTP interface, as http://HOST:PORT", "URL" },
	{ "database", '\0', POPT_ARG_STRING, &database, 0,
	  "the database of the tables (default lkst)", "DB" },
	{ "create", '\0', POPT_ARG_NONE, &create, 0,
	  "create the database and tables first (on this server)", NULL },
	{ "cluster", '\0', POPT_ARG_STRING, &cluster, 0,
	  "with --create: TABLE_local on this server and TABLE a Distributed table over "
	  "this cluster's shards (remote_servers in its config)", "NAME" },
	{ "file", 'f', POPT_ARG_ARGV, &files, 0,
	  "a log to ship (.zst too); -f given again: more logs, each shipped on its own", "FILE" },
	{ "dir", '\0', POPT_ARG_STRING, &dir, 0,
	  "ship the closed lkst-*.log[.zst] files lkbuf record -o DIR wrote, in order", "DIR" },
	{ "follow", '\0', POPT_ARG_NONE, &follow, 0,
	  "with --dir: go on shipping new files until SIGINT or SIGTERM", NULL },
	{ "state", '\0', POPT_ARG_STRING, &state_path, 0,
	  "the files already shipped, to resume after a restart (default DIR/.lkst-ship.state "
	  "with --dir)", "FILE" },
	{ "force", '\0', POPT_ARG_NONE, &force, 0,
	  "ship again the files the state file lists", NULL },
	{ "delete", '\0', POPT_ARG_NONE, &delete_after, 0,
	  "delete each file once ClickHouse has acknowledged all of it", NULL },
	{ "batch", '\0', POPT_ARG_STRING, &batch_arg, 0,
	  "records per insert (default 100000): the memory the shipper uses", "N" },
	{ "retries", '\0', POPT_ARG_STRING, &retries_arg, 0,
	  "tries of an insert before giving up (default 12; the waits double from 0.25 s to 10 s)",
	  "N" },
	LKST_POPT_TAIL
};

static void check_ship(struct lkst_cmd *cmd)
{
	(void)cmd;
	lkst_require(url, "--url URL", "ship");
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		lkst_die(LKST_EXIT_USAGE, "ship --url: \"%s\" is not an http:// or https:// URL", url);
	if (!create && !dir && !files)
		lkst_die(LKST_EXIT_USAGE, "ship: nothing to do; give --create, -f FILE or --dir DIR");
	if (cluster && !create)
		lkst_die(LKST_EXIT_USAGE, "ship --cluster names the shards of the tables --create makes; give --create");
	if (follow && !dir)
		lkst_die(LKST_EXIT_USAGE, "ship --follow watches a directory; give --dir DIR");
	if (dir && files)
		lkst_die(LKST_EXIT_USAGE, "ship: give -f FILE or --dir DIR, not both");
	if (strspn(database, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
	    strlen(database) || (cluster && strspn(cluster,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(cluster)))
		lkst_die(LKST_EXIT_USAGE, "ship: a database or cluster name is letters, digits and _");
}

#ifdef LKST_FLEET_ABSENT
/* lkbuf.static (a guest's): no libcurl in it. */
static int run_ship(struct lkst_cmd *cmd)
{
	(void)cmd;
	lkst_die(LKST_EXIT_USAGE, "ship is not in this static lkbuf (it has no libcurl); ship the logs from a machine with the dynamic lkbuf (docs/fleet.md)");
}
#else
#include <curl/curl.h>

struct shipper {
	CURL *curl;
	unsigned long long batch, retries;
	/* The batch being filled: TabSeparated rows of one table. */
	char *buf;
	size_t len;
	FILE *out;
	enum lkst_fleet_table_id table;
	unsigned long long rows;
	/* Totals. */
	unsigned long long records, inserts, nr_files, failed_tries;
	/* Shipped files: "SIZE MTIME_NS PATH" lines. */
	char **done;
	size_t nr_done, cap_done;
	FILE *state;
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
	struct lkst_err *err = ctx;
	size_t len = strlen(err->msg), k = size * n;

	/* The first line of ClickHouse's answer, for the message. */
	if (len + 1 < sizeof(err->msg)) {
		size_t room = sizeof(err->msg) - len - 1;

		memcpy(err->msg + len, p, k < room ? k : room);
		err->msg[len + (k < room ? k : room)] = '\0';
		err->msg[strcspn(err->msg, "\n")] = '\0';
	}
	return k;
}

/* One POST; 0 when ClickHouse answered 200, else -1 with err. */
static int post(struct shipper *s, const char *query, const char *body, size_t len,
		struct lkst_err *err)
{
	char *q, *full;
	long code = 0;
	CURLcode rc;

	q = curl_easy_escape(s->curl, query, 0);
	if (!q || asprintf(&full, "%s/?insert_distributed_sync=1&query=%s", url, q) < 0)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	curl_free(q);
	err->msg[0] = '\0';
	curl_easy_setopt(s->curl, CURLOPT_URL, full);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(s->curl, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, err);
	rc = curl_easy_perform(s->curl);
	free(full);
	if (rc != CURLE_OK) {
		lkst_seterr(err, "%s: %s", url, curl_easy_strerror(rc));
		return -1;
	}
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code == 200)
		return 0;
	if (!err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "HTTP %ld", code);
	return -1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stopping)
		;
}

/* post() until acknowledged; exits when every try failed. */
static void post_retrying(struct shipper *s, const char *query, const char *body, size_t len)
{
	struct lkst_err err;
	unsigned long long i;
	long wait = 250;

	for (i = 0; i < s->retries; i++) {
		if (!post(s, query, body, len, &err))
			return;
		s->failed_tries++;
		if (i + 1 == s->retries)
			break;
		fprintf(stderr, "lkbuf: ship: %s (try %llu of %llu; again in %ld ms)\n",
			err.msg, i + 1, s->retries, wait);
		sleep_ms(wait);
		wait = wait * 2 > 10000 ? 10000 : wait * 2;
	}
	lkst_die(LKST_EXIT_DEVICE, "ship: ClickHouse did not take the request after %llu tries: %s; nothing is marked shipped that it did not take, run it again later",
		 s->retries, err.msg);
}

static void flush_batch(struct shipper *s)
{
	char query[256];

	if (!s->rows)
		return;
	if (fflush(s->out))
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	snprintf(query, sizeof(query), "INSERT INTO %s.%s FORMAT TabSeparated", database,
		 lkst_fleet_tables[s->table].name);
	post_retrying(s, query, s->buf, s->len);
	s->inserts++;
	s->rows = 0;
	rewind(s->out);
	s->len = 0;
}

/* Decimal digits of v ending at end; their start.  printf costs more. */
static char *put_u64(char *end, unsigned long long v)
{
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

static int ship_row(void *ctx, enum lkst_fleet_table_id t, const struct lkst_fleet_val *v)
{
	const struct lkst_fleet_table *tab = &lkst_fleet_tables[t];
	struct shipper *s = ctx;
	char num[24], *p;
	unsigned int c;

	if (s->rows && (t != s->table || s->rows >= s->batch))
		flush_batch(s);
	s->table = t;
	for (c = 0; c < tab->nr_cols; c++) {
		if (c)
			putc_unlocked('\t', s->out);
		if (v[c].s) {
			lkst_fleet_tsv_text(s->out, v[c].s);
			continue;
		}
		if (tab->cols[c].type == LKST_FT_I64 && v[c].i < 0) {
			p = put_u64(num + sizeof(num), -(unsigned long long)v[c].i);
			*--p = '-';
		} else {
			p = put_u64(num + sizeof(num), (unsigned long long)v[c].i);
		}
		fwrite_unlocked(p, 1, num + sizeof(num) - p, s->out);
	}
	putc_unlocked('\n', s->out);
	s->rows++;
	s->records += t == LKST_FLEET_RECORDS;
	return 0;
}

/* "SIZE MTIME_NS" of a file: what the state file compares. */
static int file_stamp(const char *path, char *buf, size_t len)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	snprintf(buf, len, "%lld %lld", (long long)st.st_size,
		 (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
	return 0;
}

static int is_done(struct shipper *s, const char *line)
{
	size_t i;

	for (i = 0; i < s->nr_done; i++)
		if (!strcmp(s->done[i], line))
			return 1;
	return 0;
}

static void add_done(struct shipper *s, const char *line)
{
	if (lkst_grow((void **)&s->done, &s->cap_done, s->nr_done, sizeof(char *), 64) ||
	    !(s->done[s->nr_done] = strdup(line)))
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	s->nr_done++;
}

static void state_open(struct shipper *s)
{
	char line[PATH_MAX + 64];
	FILE *f;

	if (!state_path)
		return;
	f = fopen(state_path, "r");
	if (!f && errno != ENOENT)
		lkst_die(LKST_EXIT_USAGE, "cannot read the state file %s: %s", state_path,
			 strerror(errno));
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			add_done(s, line);
	}
	if (f)
		fclose(f);
	s->state = fopen(state_path, "a");
	if (!s->state)
		lkst_die(LKST_EXIT_USAGE, "cannot write the state file %s: %s", state_path,
			 strerror(errno));
}

/* After the last insert of the file was acknowledged. */
static void state_mark(struct shipper *s, const char *line)
{
	add_done(s, line);
	if (!s->state)
		return;
	if (fprintf(s->state, "%s\n", line) < 0 || fflush(s->state) ||
	    fsync(fileno(s->state)))
		lkst_die(LKST_EXIT_USAGE, "cannot write the state file %s: %s", state_path,
			 strerror(errno));
}

static void ship_file(struct shipper *s, const char *path)
{
	static const enum lkst_fleet_table_id order[] = {
		LKST_FLEET_EVENTS, LKST_FLEET_SYSCALLS, LKST_FLEET_LOSSES, LKST_FLEET_GAPS,
		LKST_FLEET_TASKS,
	};
	char real[PATH_MAX], stamp[64], line[PATH_MAX + 64];
	struct lkst_fleet_log fl;
	struct lkst_trace *trace;
	struct lkst_err err;
	unsigned int i;

	if (!realpath(path, real) || file_stamp(real, stamp, sizeof(stamp)))
		lkst_die(LKST_EXIT_USAGE, "ship: %s: %s", path, strerror(errno));
	snprintf(line, sizeof(line), "%s %s", stamp, real);
	if (!force && is_done(s, line))
		return;
	trace = lkst_trace_open(real, 0, &err);
	if (!trace)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (lkst_fleet_wrap(&fl, trace, real, &err))
		lkst_die(LKST_EXIT_USAGE, "%s: %s", real, err.msg);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (lkst_fleet_meta_rows(&fl, order[i], "lkbuf ship", ship_row, s, &err))
			lkst_die(LKST_EXIT_USAGE, "%s: %s", real, err.msg);
	if (lkst_fleet_records(&fl, ship_row, s, &err))
		lkst_die(LKST_EXIT_USAGE, "%s: %s", real, err.msg);
	/* The files row last: it says the whole file is in. */
	if (lkst_fleet_meta_rows(&fl, LKST_FLEET_FILES, "lkbuf ship", ship_row, s, &err))
		lkst_die(LKST_EXIT_USAGE, "%s: %s", real, err.msg);
	flush_batch(s);
	lkst_fleet_close(&fl);
	state_mark(s, line);
	s->nr_files++;
	fprintf(stderr, "lkbuf: shipped %s\n", real);
	if (delete_after && unlink(real))
		lkst_die(LKST_EXIT_USAGE, "cannot delete %s (it is shipped): %s", real,
			 strerror(errno));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* lkst-*.log and lkst-*.log.zst: lkbuf record renames them so when closed. */
static int closed_log(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "lkst-", 5) &&
	       ((n > 9 && !strcmp(name + n - 4, ".log")) ||
		(n > 13 && !strcmp(name + n - 8, ".log.zst")));
}

static void ship_dir(struct shipper *s)
{
	char **names = NULL, path[PATH_MAX];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		lkst_die(LKST_EXIT_USAGE, "ship: cannot read %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (!closed_log(de->d_name))
			continue;
		if (lkst_grow((void **)&names, &cap, n, sizeof(char *), 64) ||
		    !(names[n] = strdup(de->d_name)))
			lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!stopping)
			ship_file(s, path);
		free(names[i]);
	}
	free(names);
}

static void create_tables(struct shipper *s)
{
	char sql[4096];
	unsigned int t;

	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS %s", database);
	post_retrying(s, sql, "", 0);
	for (t = 0; t < LKST_FLEET_NR_TABLES; t++) {
		lkst_fleet_ch_ddl(t, database, cluster, 0, sql, sizeof(sql));
		post_retrying(s, sql, "", 0);
		if (!cluster)
			continue;
		lkst_fleet_ch_ddl(t, database, cluster, 1, sql, sizeof(sql));
		post_retrying(s, sql, "", 0);
	}
	/*
	 * A view per event of this lkbuf's table (a log's dynamic probes
	 * are named in the events table), as lkbuf sql makes them.
	 */
	for (t = 0; t < lkst_nr_events; t++) {
		lkst_fleet_event_view(&lkst_events[t], database, sql, sizeof(sql));
		post_retrying(s, sql, "", 0);
	}
}

static unsigned long long number(const char *arg, const char *opt, unsigned long long def)
{
	uint64_t v;

	if (!arg)
		return def;
	if (lkst_parse_u64(arg, 1ull << 32, &v) || !v)
		lkst_die(LKST_EXIT_USAGE, "ship %s: \"%s\" is not a number from 1 to 2^32", opt, arg);
	return v;
}

static int run_ship(struct lkst_cmd *cmd)
{
	struct shipper s = { 0 };
	struct sigaction sa;
	struct rusage ru;
	char *state_buf = NULL;
	double cpu;
	unsigned int i;

	(void)cmd;
	s.batch = number(batch_arg, "--batch", 100000);
	s.retries = number(retries_arg, "--retries", 12);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(s.curl = curl_easy_init()))
		lkst_die(LKST_EXIT_USAGE, "ship: cannot start libcurl");
	s.out = open_memstream(&s.buf, &s.len);
	if (!s.out)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (create)
		create_tables(&s);
	if (dir && !state_path) {
		if (asprintf(&state_buf, "%s/.lkst-ship.state", dir) < 0)
			lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
		state_path = state_buf;
	}
	state_open(&s);
	for (i = 0; files && files[i] && !stopping; i++)
		ship_file(&s, files[i]);
	while (dir && !stopping) {
		ship_dir(&s);
		if (!follow)
			break;
		sleep_ms(1000);
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (s.nr_files)
		fprintf(stderr, "lkbuf: shipped %llu records of %llu files in %llu inserts (%llu failed tries); CPU %.3f s, %.3f s per million records\n",
			s.records, s.nr_files, s.inserts, s.failed_tries, cpu,
			s.records ? cpu * 1e6 / s.records : 0.0);
	if (s.state && fclose(s.state))
		lkst_die(LKST_EXIT_USAGE, "cannot write the state file %s: %s", state_path,
			 strerror(errno));
	for (i = 0; i < s.nr_done; i++)
		free(s.done[i]);
	free(s.done);
	free(state_buf);
	fclose(s.out);
	free(s.buf);
	curl_easy_cleanup(s.curl);
	curl_global_cleanup();
	return LKST_EXIT_OK;
}

#endif /* LKST_FLEET_ABSENT */

const struct lkst_verb_ops lkbuf_ship_ops = { ship_options, NULL, check_ship, run_ship, NULL };
