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
 *
 * Never stuck: a try that sends and receives nothing for --timeout is
 * given up like a refused one, so a server that accepts and never
 * answers costs a bounded time (LKST_SHIP_GIVE_UP_BOUND with the
 * defaults).  SIGINT and SIGTERM let the insert in flight finish, then
 * stop without marking the unfinished file.  A file that cannot be read
 * is quarantined: reported once, listed as such in the state file, and
 * the files after it are shipped.
 *
 * Credentials go in ClickHouse's X-ClickHouse-User and X-ClickHouse-Key
 * headers, from an owner-only file or the environment, never the command
 * line; a URL is printed with its passwords hidden.
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
static char *timeout_arg, *connect_timeout_arg, *credentials_path, *cacert, *cert, *cert_key;
static const char **files;
static int create, follow, force, delete_after;

static struct poptOption ship_options[] = {
	{ "url", '\0', POPT_ARG_STRING, &url, 0,
	  "ClickHouse's HTTP interface, as http://HOST:PORT or https://HOST:PORT", "URL" },
	{ "credentials", '\0', POPT_ARG_STRING, &credentials_path, 0,
	  "a file only its owner may read holding USER:PASSWORD, sent as ClickHouse's "
	  "X-ClickHouse-User and X-ClickHouse-Key headers (default: the environment's "
	  "LKST_CLICKHOUSE_CREDENTIALS, else none)", "FILE" },
	{ "cacert", '\0', POPT_ARG_STRING, &cacert, 0,
	  "https: the CA certificates (PEM) to check the server's certificate with, "
	  "instead of the system's", "FILE" },
	{ "cert", '\0', POPT_ARG_STRING, &cert, 0,
	  "https: a client certificate (PEM) to present to the server", "FILE" },
	{ "cert-key", '\0', POPT_ARG_STRING, &cert_key, 0,
	  "https: the client certificate's private key (PEM, unencrypted; default: in --cert's file)",
	  "FILE" },
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
	  "tries of an insert before giving up with exit status 2 (default 12; the waits double "
	  "from 0.25 s to 10 s)", "N" },
	{ "timeout", '\0', POPT_ARG_STRING, &timeout_arg, 0,
	  "seconds a try may send and receive nothing, connecting included, before it counts as "
	  "failed (default 15: a server that never answers is given up within 5 minutes)",
	  "SECONDS" },
	{ "connect-timeout", '\0', POPT_ARG_STRING, &connect_timeout_arg, 0,
	  "seconds to connect (TCP and TLS) before a try counts as failed (default 10)",
	  "SECONDS" },
	LKST_POPT_TAIL
};

static void check_ship(struct lkst_cmd *cmd)
{
	(void)cmd;
	lkst_require(url, "--url URL", "ship");
	/* Not echoed: it may hold a password. */
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		lkst_die(LKST_EXIT_USAGE, "ship --url: give ClickHouse's HTTP interface as an http:// or https:// URL");
	if (!create && !dir && !files)
		lkst_die(LKST_EXIT_USAGE, "ship: nothing to do; give --create, -f FILE or --dir DIR");
	if (cluster && !create)
		lkst_die(LKST_EXIT_USAGE, "ship --cluster names the shards of the tables --create makes; give --create");
	if (follow && !dir)
		lkst_die(LKST_EXIT_USAGE, "ship --follow watches a directory; give --dir DIR");
	if (dir && files)
		lkst_die(LKST_EXIT_USAGE, "ship: give -f FILE or --dir DIR, not both");
	if (cacert && access(cacert, R_OK))
		lkst_die(LKST_EXIT_USAGE, "ship --cacert: cannot read %s: %s", cacert, strerror(errno));
	if (cert && access(cert, R_OK))
		lkst_die(LKST_EXIT_USAGE, "ship --cert: cannot read %s: %s", cert, strerror(errno));
	if (cert_key && access(cert_key, R_OK))
		lkst_die(LKST_EXIT_USAGE, "ship --cert-key: cannot read %s: %s", cert_key,
			 strerror(errno));
	if (cert_key && !cert)
		lkst_die(LKST_EXIT_USAGE, "ship --cert-key is the key of a client certificate; give --cert FILE too");
	if ((cacert || cert) && strncmp(url, "https://", 8))
		lkst_die(LKST_EXIT_USAGE, "ship --cacert and --cert are for TLS; give an https:// URL");
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
	struct curl_slist *headers;
	char *user, *password;
	char shown[1024];		/* the URL as it may be printed */
	char curl_err[CURL_ERROR_SIZE];
	unsigned long long batch, retries, timeout, connect_timeout;
	/* The try in flight: when it last sent or received, what it answered. */
	long long last_ms;
	curl_off_t dl, ul;
	int stalled;
	long code;
	char answer[400];
	/* The batch being filled: TabSeparated rows of one table. */
	char *buf;
	size_t len;
	FILE *out;
	enum lkst_fleet_table_id table;
	unsigned long long rows;
	/* Totals. */
	unsigned long long records, inserts, nr_files, failed_tries, nr_bad;
	/* Shipped files: "SIZE MTIME_NS PATH"; quarantined ones "quarantined " before it. */
	char **done;
	size_t nr_done, cap_done;
	FILE *state;
};

/* Signals seen: the first stops after the insert in flight, a second aborts it. */
static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	if (stopping < 2)
		stopping++;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct shipper *s = ctx;
	size_t len = strlen(s->answer), k = size * n;

	s->last_ms = now_ms();
	/* The first line of ClickHouse's answer, for the message. */
	if (len + 1 < sizeof(s->answer)) {
		size_t room = sizeof(s->answer) - len - 1;

		memcpy(s->answer + len, p, k < room ? k : room);
		s->answer[len + (k < room ? k : room)] = '\0';
		s->answer[strcspn(s->answer, "\r\n")] = '\0';
	}
	return k;
}

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
	struct shipper *s = ctx;

	(void)p;
	s->last_ms = now_ms();
	return size * n;
}

/*
 * Called at least once a second while a try lasts: ends a try that has
 * moved no byte for --timeout (connecting included), or on a second signal.
 */
static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	struct shipper *s = ctx;
	long long now = now_ms();

	(void)dltotal;
	(void)ultotal;
	if (dlnow != s->dl || ulnow != s->ul) {
		s->dl = dlnow;
		s->ul = ulnow;
		s->last_ms = now;
	}
	if (now - s->last_ms >= (long long)s->timeout * 1000) {
		s->stalled = 1;
		return 1;
	}
	return stopping > 1;
}

/* One POST; 0 when ClickHouse answered 200, else -1 with err. */
static int post(struct shipper *s, const char *query, const char *body, size_t len,
		struct lkst_err *err)
{
	char *q, *params = NULL, *full = NULL;
	CURLcode rc;

	q = curl_easy_escape(s->curl, query, 0);
	if (!q || asprintf(&params, "insert_distributed_sync=1&query=%s", q) < 0 ||
	    !(full = lkst_ship_url(url, params)))
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	curl_free(q);
	free(params);
	s->answer[0] = '\0';
	s->curl_err[0] = '\0';
	s->code = 0;
	s->stalled = 0;
	s->dl = s->ul = 0;
	s->last_ms = now_ms();
	curl_easy_setopt(s->curl, CURLOPT_URL, full);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	rc = curl_easy_perform(s->curl);
	free(full);
	if (rc == CURLE_ABORTED_BY_CALLBACK && s->stalled) {
		lkst_seterr(err, "%s: no answer for %llu s (--timeout)", s->shown, s->timeout);
		return -1;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		lkst_seterr(err, "%s: not connected within %llu s (--connect-timeout)", s->shown,
			    s->connect_timeout);
		return -1;
	}
	if (rc == CURLE_ABORTED_BY_CALLBACK) {
		lkst_seterr(err, "%s: stopped by a second signal", s->shown);
		return -1;
	}
	if (rc != CURLE_OK) {
		lkst_seterr(err, "%s: %s", s->shown,
			    s->curl_err[0] ? s->curl_err : curl_easy_strerror(rc));
		return -1;
	}
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &s->code);
	if (s->code == 200)
		return 0;
	lkst_seterr(err, "%s: HTTP %ld%s%s", s->shown, s->code, s->answer[0] ? ": " : "",
		    s->answer);
	return -1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stopping)
		;
}

/*
 * post() until acknowledged: 0; 1 when a signal came and the try in
 * flight failed (nothing more is tried); exits when every try failed.
 */
static int post_retrying(struct shipper *s, const char *query, const char *body, size_t len)
{
	struct lkst_err err;
	unsigned long long i;
	long long start = now_ms();
	long wait;

	for (i = 0; i < s->retries; i++) {
		if (!post(s, query, body, len, &err))
			return 0;
		s->failed_tries++;
		if (stopping) {
			fprintf(stderr, "lkbuf: ship: %s; stopping on the signal without trying again\n",
				err.msg);
			return 1;
		}
		/* A wrong user or password stays wrong: no use waiting. */
		if (s->code == 401 || s->code == 403)
			lkst_die(LKST_EXIT_DEVICE, "ship: ClickHouse refused the credentials: %s; check the user and password (--credentials or LKST_CLICKHOUSE_CREDENTIALS)",
				 err.msg);
		if (i + 1 == s->retries)
			break;
		wait = lkst_ship_backoff_ms(i);
		fprintf(stderr, "lkbuf: ship: %s (try %llu of %llu; again in %ld ms)\n",
			err.msg, i + 1, s->retries, wait);
		sleep_ms(wait);
		if (stopping)
			return 1;
	}
	lkst_die(LKST_EXIT_DEVICE, "ship: ClickHouse did not take the request after %llu tries in %lld s: %s; nothing is marked shipped that it did not take, run it again later",
		 s->retries, (now_ms() - start + 500) / 1000, err.msg);
}

/* Drops the rows not sent. */
static void drop_batch(struct shipper *s)
{
	rewind(s->out);
	s->len = 0;
	s->rows = 0;
}

/* 0, or 1 when a signal stopped it before ClickHouse took the batch. */
static int flush_batch(struct shipper *s)
{
	char query[256];

	if (!s->rows)
		return 0;
	if (fflush(s->out))
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	snprintf(query, sizeof(query), "INSERT INTO %s.%s FORMAT TabSeparated", database,
		 lkst_fleet_tables[s->table].name);
	if (post_retrying(s, query, s->buf, s->len))
		return 1;
	s->inserts++;
	drop_batch(s);
	return 0;
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

	/* After a signal: no new batch; the walk stops here. */
	if (stopping)
		return 1;
	if (s->rows && (t != s->table || s->rows >= s->batch) && flush_batch(s))
		return 1;
	if (stopping)
		return 1;
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
	int ends_line = 1;
	size_t n;
	FILE *f;

	if (!state_path)
		return;
	f = fopen(state_path, "r");
	if (!f && errno != ENOENT)
		lkst_die(LKST_EXIT_USAGE, "cannot read the state file %s: %s", state_path,
			 strerror(errno));
	while (f && fgets(line, sizeof(line), f)) {
		n = strlen(line);
		ends_line = n && line[n - 1] == '\n';
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
	/* A line cut by a crash must not swallow the next one. */
	if (!ends_line && (fputc('\n', s->state) == EOF || fflush(s->state)))
		lkst_die(LKST_EXIT_USAGE, "cannot write the state file %s: %s", state_path,
			 strerror(errno));
}

/* After the last insert of the file was acknowledged (or it is quarantined). */
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

/*
 * A file that cannot be read as a log (cut short by a power loss,
 * damaged): said once, listed in the state file as quarantined so that
 * no later run tries it again while it is unchanged, left where it is.
 * What a lack of memory makes fail is no fault of the file.
 */
static void quarantine(struct shipper *s, const char *line, const char *real, const char *why)
{
	char qline[PATH_MAX + 80];

	if (strstr(why, "out of memory"))
		lkst_die(LKST_EXIT_USAGE, "%s", why);
	if (s->state)
		fprintf(stderr, "lkbuf: ship: %s%s%s; quarantined: left in place, not shipped, listed in %s and not tried again until it changes\n",
			strstr(why, real) ? "" : real, strstr(why, real) ? "" : ": ", why,
			state_path);
	else
		fprintf(stderr, "lkbuf: ship: %s%s%s; quarantined: left in place, not shipped\n",
			strstr(why, real) ? "" : real, strstr(why, real) ? "" : ": ", why);
	snprintf(qline, sizeof(qline), "quarantined %s", line);
	state_mark(s, qline);
	s->nr_bad++;
}

/* 0: shipped, quarantined or nothing to do; 1: a signal stopped it, not marked. */
static int ship_file(struct shipper *s, const char *path)
{
	static const enum lkst_fleet_table_id order[] = {
		LKST_FLEET_EVENTS, LKST_FLEET_SYSCALLS, LKST_FLEET_LOSSES, LKST_FLEET_GAPS,
		LKST_FLEET_TASKS,
	};
	char real[PATH_MAX], stamp[64], line[PATH_MAX + 64], qline[PATH_MAX + 80];
	struct lkst_fleet_log fl;
	struct lkst_trace *trace;
	struct lkst_err err;
	unsigned int i;
	int ret = 0;

	if (!realpath(path, real) || file_stamp(real, stamp, sizeof(stamp))) {
		/* Listed, then deleted (lkbuf record --keep): nothing to ship. */
		if (errno == ENOENT && dir)
			return 0;
		lkst_die(LKST_EXIT_USAGE, "ship: %s: %s", path, strerror(errno));
	}
	snprintf(line, sizeof(line), "%s %s", stamp, real);
	snprintf(qline, sizeof(qline), "quarantined %s", line);
	if (!force && (is_done(s, line) || is_done(s, qline)))
		return 0;
	/* Unreadable for want of permission is the machine's fault, mended by chmod. */
	if (access(real, R_OK))
		lkst_die(LKST_EXIT_USAGE, "ship: cannot read %s: %s", real, strerror(errno));
	trace = lkst_trace_open(real, 0, &err);
	if (!trace) {
		quarantine(s, line, real, err.msg);
		return 0;
	}
	if (lkst_fleet_wrap(&fl, trace, real, &err))
		goto bad;
	for (i = 0; i < sizeof(order) / sizeof(order[0]) && !ret; i++)
		ret = lkst_fleet_meta_rows(&fl, order[i], "lkbuf ship", ship_row, s, &err);
	if (!ret)
		ret = lkst_fleet_records(&fl, ship_row, s, &err);
	/* The files row last: it says the whole file is in. */
	if (!ret)
		ret = lkst_fleet_meta_rows(&fl, LKST_FLEET_FILES, "lkbuf ship", ship_row, s, &err);
	if (!ret)
		ret = flush_batch(s);
	if (ret < 0)
		goto bad;
	lkst_fleet_close(&fl);
	if (ret) {
		drop_batch(s);
		fprintf(stderr, "lkbuf: ship: stopped by a signal in %s; it is not marked shipped and is shipped again when restarted\n",
			real);
		return 1;
	}
	state_mark(s, line);
	s->nr_files++;
	fprintf(stderr, "lkbuf: shipped %s\n", real);
	if (delete_after && unlink(real))
		lkst_die(LKST_EXIT_USAGE, "cannot delete %s (it is shipped): %s", real,
			 strerror(errno));
	return 0;
bad:
	lkst_fleet_close(&fl);
	drop_batch(s);
	quarantine(s, line, real, err.msg);
	return 0;
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
	if (post_retrying(s, sql, "", 0))
		return;
	for (t = 0; t < LKST_FLEET_NR_TABLES; t++) {
		lkst_fleet_ch_ddl(t, database, cluster, 0, sql, sizeof(sql));
		if (post_retrying(s, sql, "", 0))
			return;
		if (!cluster)
			continue;
		lkst_fleet_ch_ddl(t, database, cluster, 1, sql, sizeof(sql));
		if (post_retrying(s, sql, "", 0))
			return;
	}
	/*
	 * A view per event of this lkbuf's table (a log's dynamic probes
	 * are named in the events table), as lkbuf sql makes them.
	 */
	for (t = 0; t < lkst_nr_events; t++) {
		lkst_fleet_event_view(&lkst_events[t], database, sql, sizeof(sql));
		if (post_retrying(s, sql, "", 0))
			return;
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

static void add_header(struct shipper *s, const char *name, const char *value)
{
	struct curl_slist *l;
	char *h;

	/* "Name;" is how curl sends a header with an empty value. */
	if ((*value ? asprintf(&h, "%s: %s", name, value) : asprintf(&h, "%s;", name)) < 0 ||
	    !(l = curl_slist_append(s->headers, h)))
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	explicit_bzero(h, strlen(h));
	free(h);
	s->headers = l;
}

/*
 * The user and password: --credentials, else LKST_CLICKHOUSE_CREDENTIALS,
 * else none (ClickHouse's default user, or what --url says).
 */
static void credentials(struct shipper *s)
{
	const char *env = getenv("LKST_CLICKHOUSE_CREDENTIALS");
	const char *auth = strstr(url, "://") + 3;
	const char *at = memrchr(auth, '@', strcspn(auth, "/?#"));
	struct lkst_err err;
	int in_url = at || strstr(url, "password=");
	int pw_in_url = (at && memchr(auth, ':', at - auth)) || strstr(url, "password=");

	if (credentials_path) {
		if (lkst_ship_read_credentials(credentials_path, &s->user, &s->password, &err))
			lkst_die(LKST_EXIT_USAGE, "ship --credentials: %s", err.msg);
	} else if (env && *env) {
		if (lkst_ship_parse_credentials(env, "LKST_CLICKHOUSE_CREDENTIALS", &s->user,
						&s->password, &err))
			lkst_die(LKST_EXIT_USAGE, "ship: %s", err.msg);
	} else {
		if (pw_in_url)
			fprintf(stderr, "lkbuf: ship: the password in --url can be read by every user of this machine (ps); put USER:PASSWORD in a file only you can read and give --credentials FILE\n");
		return;
	}
	if (in_url)
		lkst_die(LKST_EXIT_USAGE, "ship: --url names a user or password and so do the credentials; give them once, in --credentials or LKST_CLICKHOUSE_CREDENTIALS");
	add_header(s, "X-ClickHouse-User", s->user);
	add_header(s, "X-ClickHouse-Key", s->password);
}

static void curl_setup(struct shipper *s)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(s->curl = curl_easy_init()))
		lkst_die(LKST_EXIT_USAGE, "ship: cannot start libcurl");
	/* Timeouts are ours (on_progress); curl's SIGALRM would meet our handlers. */
	curl_easy_setopt(s->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(s->curl, CURLOPT_CONNECTTIMEOUT, (long)s->connect_timeout);
	curl_easy_setopt(s->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFODATA, s);
	curl_easy_setopt(s->curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, s);
	curl_easy_setopt(s->curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(s->curl, CURLOPT_HEADERDATA, s);
	curl_easy_setopt(s->curl, CURLOPT_ERRORBUFFER, s->curl_err);
	curl_easy_setopt(s->curl, CURLOPT_TCP_KEEPALIVE, 1L);
	if (s->headers)
		curl_easy_setopt(s->curl, CURLOPT_HTTPHEADER, s->headers);
	if (cacert)
		curl_easy_setopt(s->curl, CURLOPT_CAINFO, cacert);
	if (cert)
		curl_easy_setopt(s->curl, CURLOPT_SSLCERT, cert);
	if (cert_key)
		curl_easy_setopt(s->curl, CURLOPT_SSLKEY, cert_key);
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
	s.retries = number(retries_arg, "--retries", LKST_SHIP_TRIES);
	s.timeout = number(timeout_arg, "--timeout", LKST_SHIP_TIMEOUT);
	s.connect_timeout = number(connect_timeout_arg, "--connect-timeout",
				   LKST_SHIP_CONNECT_TIMEOUT);
	lkst_ship_redact_url(url, s.shown, sizeof(s.shown));
	credentials(&s);
	curl_setup(&s);
	s.out = open_memstream(&s.buf, &s.len);
	if (!s.out)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A server closing the connection is an error of the try, not the end of lkbuf. */
	signal(SIGPIPE, SIG_IGN);
	if (create)
		create_tables(&s);
	if (dir && !state_path) {
		if (asprintf(&state_buf, "%s/.lkst-ship.state", dir) < 0)
			lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
		state_path = state_buf;
	}
	if (!stopping)
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
	if (s.nr_files || s.nr_bad)
		fprintf(stderr, "lkbuf: shipped %llu records of %llu files in %llu inserts (%llu failed tries), %llu files quarantined; CPU %.3f s, %.3f s per million records\n",
			s.records, s.nr_files, s.inserts, s.failed_tries, s.nr_bad, cpu,
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
	curl_slist_free_all(s.headers);
	curl_global_cleanup();
	if (s.password)
		explicit_bzero(s.password, strlen(s.password));
	free(s.user);
	free(s.password);
	if (s.nr_bad) {
		fprintf(stderr, "lkbuf: ship: %llu files could not be read and are quarantined (above); the others are shipped\n",
			s.nr_bad);
		return LKST_EXIT_USAGE;
	}
	return LKST_EXIT_OK;
}

#endif /* LKST_FLEET_ABSENT */

const struct lkst_verb_ops lkbuf_ship_ops = { ship_options, NULL, check_ship, run_ship, NULL };
