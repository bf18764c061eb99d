// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of task names saved with a log (LKST_META_TASKS,
 * lkst_logtasks.c): the table and its bound, reading a proc tree, the
 * section written and read back, every kind of bad section refused with
 * its message, the reader naming pids by it where no record has named
 * them (a record's name wins), -n and --where comm over it, the JSON
 * export's thread names, and a rotated set's tables merged.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lkst_export.h"
#include "lkst_format.h"
#include "lkst_logio.h"

/* Frees t (NULL: none) and returns a new empty table. */
static struct lkst_tasks *renew(struct lkst_tasks *t)
{
	struct lkst_err err;

	lkst_tasks_free(t);
	t = lkst_tasks_new(&err);
	if (!t)
		abort();
	return t;
}

static char dir[] = "/tmp/lkst_test_logtasks.XXXXXX";

static void test_table(void)
{
	struct lkst_tasks *t = renew(NULL);
	struct lkst_err err;
	__u32 pid;

	CHECK(!lkst_tasks_put(t, 30, 30, "thirty", 0, &err));
	CHECK(!lkst_tasks_put(t, 10, 9, "ten", 0, &err));
	CHECK(!lkst_tasks_put(t, 20, 20, "a-name-longer-than-15", 0, &err));
	CHECK(!lkst_tasks_put(t, 10, 10, "other", 0, &err));	/* kept */
	CHECK(!lkst_tasks_put(t, 30, 30, "replaced", 1, &err));
	CHECK(!lkst_tasks_put(t, 0, 0, "idle", 0, &err));	/* never pid 0 */
	CHECK(!lkst_tasks_put(t, 40, 40, "", 0, &err));	/* nor no name */
	CHECK(lkst_tasks_nr(t) == 3);
	CHECK(lkst_tasks_get(t, 0)->pid == 10 && lkst_tasks_get(t, 1)->pid == 20 && lkst_tasks_get(t, 2)->pid == 30);
	CHECK_STR(lkst_tasks_find(t, 10)->comm, "ten");
	CHECK(lkst_tasks_find(t, 10)->tgid == 9);
	CHECK_STR(lkst_tasks_find(t, 20)->comm, "a-name-longer-t");
	CHECK(lkst_tasks_find(t, 20)->comm[15] == 0);
	CHECK_STR(lkst_tasks_find(t, 30)->comm, "replaced");
	CHECK(!lkst_tasks_find(t, 15) && !lkst_tasks_find(t, 0) && !lkst_tasks_find(t, 40));
	t = renew(t);

	/* Bounded: a full table takes no more. */
	for (pid = 1; pid <= LKST_LOG_TASKS_MAX + 5; pid++)
		if (lkst_tasks_put(t, pid, pid, "x", 0, &err))
			break;
	CHECK(lkst_tasks_nr(t) == LKST_LOG_TASKS_MAX);
	CHECK(!lkst_tasks_find(t, LKST_LOG_TASKS_MAX + 1));
	lkst_tasks_free(t);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A proc tree: process 7 with threads 7 and 9, process 12, a stray name. */
static void test_proc(void)
{
	char proc[256], p[512];
	struct lkst_tasks *t = renew(NULL);
	struct lkst_err err;
	static const char *const dirs[] = { "", "/7", "/7/task", "/7/task/7", "/7/task/9",
					    "/12", "/12/task", "/12/task/12", "/self", "/9" };
	unsigned int i;

	snprintf(proc, sizeof(proc), "%s/proc", dir);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", proc, dirs[i]);
		mkdir(p, 0755);
	}
	snprintf(p, sizeof(p), "%s/7/task/7/comm", proc);
	write_file(p, "main\n");
	snprintf(p, sizeof(p), "%s/7/task/9/comm", proc);
	write_file(p, "worker:9\n");
	snprintf(p, sizeof(p), "%s/12/task/12/comm", proc);
	write_file(p, "twelve-is-a-long-name\n");
	snprintf(p, sizeof(p), "%s/9/comm", proc);
	write_file(p, "worker:9\n");
	snprintf(p, sizeof(p), "%s/9/status", proc);
	write_file(p, "Name:\tworker:9\nUmask:\t0022\nState:\tS\nTgid:\t7\nNgid:\t0\nPid:\t9\n");

	CHECK(!lkst_tasks_scan(t, proc, &err));
	CHECK(lkst_tasks_nr(t) == 3);
	CHECK(lkst_tasks_find(t, 7) && lkst_tasks_find(t, 7)->tgid == 7);
	CHECK_STR(lkst_tasks_find(t, 7)->comm, "main");
	CHECK(lkst_tasks_find(t, 9) && lkst_tasks_find(t, 9)->tgid == 7);
	CHECK_STR(lkst_tasks_find(t, 9)->comm, "worker:9");
	CHECK_STR(lkst_tasks_find(t, 12)->comm, "twelve-is-a-lon");
	t = renew(t);

	/* One pid: its comm and the Tgid its status gives; a gone one is 0. */
	CHECK(lkst_tasks_read_pid(t, proc, 9, &err) == 1);
	CHECK(lkst_tasks_nr(t) == 1 && lkst_tasks_get(t, 0)->pid == 9 && lkst_tasks_get(t, 0)->tgid == 7);
	CHECK_STR(lkst_tasks_get(t, 0)->comm, "worker:9");
	CHECK(lkst_tasks_read_pid(t, proc, 9, &err) == 1 && lkst_tasks_nr(t) == 1);
	CHECK(lkst_tasks_read_pid(t, proc, 5, &err) == 0 && lkst_tasks_nr(t) == 1);
	t = renew(t);

	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(lkst_tasks_scan(t, p, &err) == -1);
	CHECK_HAS(err.msg, "cannot read");
	t = renew(t);

	/* The real one has this process, by its name. */
	CHECK(!lkst_tasks_scan(t, "/proc", &err));
	CHECK(lkst_tasks_find(t, getpid()) &&
	      !strncmp(lkst_tasks_find(t, getpid())->comm, "test_logtasks", 15));
	lkst_tasks_free(t);
}

static void set_comm(struct lkst_record *r, unsigned int index, const char *comm)
{
	char bytes[16] = { 0 };

	memcpy(bytes, comm, strnlen(comm, 16));
	memcpy(&r->arg[index], bytes, 16);
}

/*
 * One CPU: system calls of pids 300 and 301, a switch to 301 named
 * "learned" at time 30, then 301 and 302 again.  Numbers from base.
 */
#define NR_RECS 5
static void fill(struct lkst_record *r, __u64 *seqs, __u64 base)
{
	static const __u32 pids[NR_RECS] = { 300, 301, 5, 301, 302 };
	unsigned int i;

	memset(r, 0, NR_RECS * sizeof(*r));
	for (i = 0; i < NR_RECS; i++) {
		r[i].time_ns = 10 * (i + 1) + base * 100;
		r[i].pid = pids[i];
		r[i].event = LKST_EV_SYSCALL_ENTRY;
		seqs[i] = base + i;
	}
	r[2].event = LKST_EV_PROCESS_CONTEXTSWITCH;
	r[2].arg[0] = 5;
	r[2].arg[1] = 301;
	set_comm(&r[2], 4, "learned");
}

/*
 * A log of those records and the given names ("pid:comm", ...; NULL none),
 * numbered from base; extra: raw bytes of a second tasks section.
 */
static int write_log(const char *path, const char *const *names, __u64 base,
		     const void *extra, size_t extra_len)
{
	struct lkst_record r[NR_RECS];
	__u64 seqs[NR_RECS];
	struct lkst_log_cpu c = { .cpu = 0, .nr_records = NR_RECS };
	struct lkst_tasks *t = renew(NULL);
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_err err;
	int ret;

	fill(r, seqs, base);
	c.written = c.seq_end = base + NR_RECS;
	c.seq_start = base;
	lkst_log_header_init(&h);
	h.nr_cpus = 1;
	h.anchor_trace_ns = 1000;
	h.anchor_realtime_ns = 5000000000ull;
	strcpy(h.nodename, "testhost");
	strcpy(h.release, "6.12.0-lkst");
	while (names && *names) {
		char *colon = strchr(*names, ':');

		lkst_tasks_put(t, atoi(*names), atoi(*names), colon + 1, 0, &err);
		names++;
	}
	ret = !(w = lkst_log_create(path, &h, &err)) ||
	      lkst_log_write_cpu_seqs(w, &c, r, seqs, &err) ||
	      lkst_log_add_tasks(w, t, &err) ||
	      (extra && lkst_log_add_meta(w, LKST_META_TASKS, extra, extra_len, &err)) ||
	      lkst_log_commit(w, &err);
	if (ret)
		fprintf(stderr, "write_log %s: %s\n", path, err.msg);
	lkst_tasks_free(t);
	return ret ? -1 : 0;
}

static const char *const saved[] = { "300:saved300", "301:old301", NULL };

/* Names handed on with each record, the selection applied. */
static void names_of(struct lkst_trace *tr, const struct lkst_trace_select *sel,
		     char *out, size_t len)
{
	struct lkst_trace_iter *it;
	struct lkst_trace_rec rec;
	struct lkst_err err;
	const char *name;
	size_t used = 0;

	out[0] = 0;
	CHECK(!lkst_trace_select(tr, sel, &err));
	it = lkst_trace_iter_new(tr, LKST_ITER_COMMS, &err);
	CHECK(it != NULL);
	while (it && lkst_trace_next(it, &rec)) {
		name = lkst_comm_map_name(lkst_trace_comms(it), rec.rec->pid, rec.cpu);
		used += snprintf(out + used, len - used, "%u=%s ", rec.rec->pid,
				 name ? name : "?");
	}
	lkst_trace_iter_free(it);
}

static void test_reader(void)
{
	char path[256], plain[256], names[256];
	struct lkst_trace_select all = { 0 }, by_name = { 0 }, where = { 0 }, learned = { 0 };
	struct lkst_trace *tr;
	struct lkst_tasks *t = renew(NULL);
	struct lkst_log *log;
	struct lkst_err err;

	snprintf(path, sizeof(path), "%s/named.log", dir);
	snprintf(plain, sizeof(plain), "%s/plain.log", dir);
	CHECK(!write_log(path, saved, 0, NULL, 0));
	CHECK(!write_log(plain, NULL, 0, NULL, 0));

	CHECK((log = lkst_log_load(path, &err)));
	CHECK(!lkst_log_tasks(log, t, &err));
	CHECK(lkst_tasks_nr(t) == 2 && lkst_tasks_get(t, 0)->pid == 300 && lkst_tasks_get(t, 1)->pid == 301);
	CHECK_STR(lkst_tasks_get(t, 0)->comm, "saved300");
	lkst_log_free(log);
	CHECK((log = lkst_log_load(plain, &err)));
	CHECK(!lkst_log_tasks(log, t, &err) && lkst_tasks_nr(t) == 0);
	lkst_tasks_free(t);
	lkst_log_free(log);

	/* Saved names until a record names the pid; then the record's. */
	tr = lkst_trace_open(path, 0, &err);
	CHECK(tr != NULL);
	if (!tr)
		return;
	names_of(tr, &all, names, sizeof(names));
	CHECK_STR(names, "300=saved300 301=old301 5=? 301=learned 302=? ");
	by_name.comms = "saved300";
	names_of(tr, &by_name, names, sizeof(names));
	CHECK_STR(names, "300=saved300 ");
	learned.comms = "learned,old*";
	names_of(tr, &learned, names, sizeof(names));
	/* The switch to "learned" is selected too: it names that task. */
	CHECK_STR(names, "301=old301 5=? 301=learned ");
	where.where = "comm == \"saved300\"";
	names_of(tr, &where, names, sizeof(names));
	CHECK_STR(names, "300=saved300 ");
	lkst_trace_close(tr);

	/* Without the section: only what the records say. */
	tr = lkst_trace_open(plain, 0, &err);
	CHECK(tr != NULL);
	if (!tr)
		return;
	names_of(tr, &all, names, sizeof(names));
	CHECK_STR(names, "300=? 301=? 5=? 301=learned 302=? ");
	names_of(tr, &by_name, names, sizeof(names));
	CHECK_STR(names, "");
	lkst_trace_close(tr);
}

static unsigned char *read_image(const char *path, size_t *len);

/* The JSON export names threads as print does: records first, then saved names. */
static void test_json(void)
{
	char path[256], out[256];
	struct lkst_export *x;
	struct lkst_log *log;
	struct lkst_err err;
	unsigned char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/named.log", dir);
	snprintf(out, sizeof(out), "%s/named.json", dir);
	CHECK((log = lkst_log_load(path, &err)));
	x = lkst_export_new_log(log, &err);
	CHECK(x != NULL);
	CHECK(x && !lkst_export_json(x, out, &err));
	lkst_export_free(x);
	lkst_log_free(log);
	text = read_image(out, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	text[len - 1] = 0;
	CHECK_HAS((char *)text, "\"thread_name\",\"pid\":300,\"tid\":300,\"args\":{\"name\":\"saved300\"}");
	CHECK_HAS((char *)text, "\"thread_name\",\"pid\":301,\"tid\":301,\"args\":{\"name\":\"learned\"}");
	CHECK_HAS((char *)text, "{\"name\":\"saved300 syscalls\"}");
	free(text);
}

static unsigned char *read_image(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc(n);
	if (b && fread(b, 1, n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = n;
	return b;
}

/* The payload of the image's tasks section. */
static unsigned char *tasks_payload(unsigned char *image)
{
	struct lkst_log_header h;
	struct lkst_log_meta m;
	size_t off;
	unsigned int i;

	memcpy(&h, image, sizeof(h));
	off = h.meta_offset;
	for (i = 0; i < h.nr_meta; i++) {
		memcpy(&m, image + off, sizeof(m));
		if (m.type == LKST_META_TASKS)
			return image + off + sizeof(m);
		off += lkst_log_meta_bytes(m.size);
	}
	return NULL;
}

#define ENT(p, i)	((struct lkst_log_task *)((p) + 8 + 24 * (i)))

static void nr_huge(unsigned char *p) { ((struct lkst_log_tasks *)p)->nr = 1u << 23; }
static void nr_more(unsigned char *p) { ((struct lkst_log_tasks *)p)->nr = 3; }
static void nr_fewer(unsigned char *p) { ((struct lkst_log_tasks *)p)->nr = 1; }
static void pid_zero(unsigned char *p) { ENT(p, 0)->pid = 0; }
static void pid_twice(unsigned char *p) { ENT(p, 1)->pid = ENT(p, 0)->pid; }
static void pid_order(unsigned char *p) { ENT(p, 0)->pid = 400; }
static void comm_full(unsigned char *p) { memset(ENT(p, 0)->comm, 'a', 16); }
static void comm_empty(unsigned char *p) { memset(ENT(p, 1)->comm, 0, 16); }
static void comm_tail(unsigned char *p) { ENT(p, 1)->comm[14] = 'z'; }

static void test_refused(void)
{
	static const struct {
		const char *what;
		void (*spoil)(unsigned char *p);
		const char *msg;
	} cases[] = {
		{ "too many", nr_huge, "do not fill" },
		{ "more than fit", nr_more, "do not fill" },
		{ "fewer than fill", nr_fewer, "do not fill" },
		{ "pid 0", pid_zero, "entry 0 (pid 0) is pid 0" },
		{ "a pid twice", pid_twice, "entry 1 (pid 300) is out of order" },
		{ "out of order", pid_order, "entry 1 (pid 301) is out of order" },
		{ "16 bytes", comm_full, "entry 0 (pid 300) is not a NUL-padded name" },
		{ "empty", comm_empty, "entry 1 (pid 301) is not a NUL-padded name" },
		{ "bytes after the NUL", comm_tail, "entry 1 (pid 301) is not a NUL-padded name" },
	};
	char path[256], two[256];
	struct lkst_log *log;
	struct lkst_err err;
	unsigned char *good, *copy, *p;
	size_t len, i;
	struct {
		struct lkst_log_tasks head;
		struct lkst_log_task e;
	} second = { { 1, 0 }, { 77, 77, "seventy-seven" } };

	snprintf(path, sizeof(path), "%s/named.log", dir);
	good = read_image(path, &len);
	CHECK(good != NULL && tasks_payload(good) != NULL);
	if (!good || !tasks_payload(good))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		copy = malloc(len);
		memcpy(copy, good, len);
		p = tasks_payload(copy);
		cases[i].spoil(p);
		err.msg[0] = 0;
		if (!(log = lkst_log_parse(copy, len, &err))) {
			free(copy);
			CHECK_HAS(err.msg, "task names: ");
			CHECK_HAS(err.msg, cases[i].msg);
			CHECK_HAS(err.msg, "the file is damaged");
		} else {
			fprintf(stderr, "a section with %s was taken\n", cases[i].what);
			CHECK(0);
			lkst_log_free(log);
		}
	}
	free(good);

	/* Two tables: which one would be meant? */
	snprintf(two, sizeof(two), "%s/two.log", dir);
	CHECK(!write_log(two, saved, 0, &second, sizeof(second)));
	CHECK(!(log = lkst_log_load(two, &err)));
	CHECK_HAS(err.msg, "two task name tables");
	/* One alone (the same bytes as the second) is fine. */
	CHECK(!write_log(two, NULL, 0, &second, sizeof(second)));
	CHECK((log = lkst_log_load(two, &err)));
	lkst_log_free(log);
}

/* A rotated set: every file's names, the first file to name a pid wins. */
static void test_set(void)
{
	static const char *const a[] = { "300:a300", "400:a400", NULL };
	static const char *const b[] = { "300:b300", "500:b500", NULL };
	char pa[256], pb[256], pc[256];
	const char *paths[3] = { pa, pb, pc };
	struct lkst_tasks *t = renew(NULL);
	struct lkst_log *log;
	struct lkst_err err;

	snprintf(pa, sizeof(pa), "%s/lkst-000001.log", dir);
	snprintf(pb, sizeof(pb), "%s/lkst-000002.log", dir);
	snprintf(pc, sizeof(pc), "%s/lkst-000003.log", dir);
	CHECK(!write_log(pa, a, 0, NULL, 0));
	CHECK(!write_log(pb, NULL, NR_RECS, NULL, 0));
	CHECK(!write_log(pc, b, 2 * NR_RECS, NULL, 0));
	CHECK((log = lkst_log_load_files(paths, 3, &err)));
	CHECK(!lkst_log_tasks(log, t, &err));
	CHECK(lkst_tasks_nr(t) == 3);
	if (lkst_tasks_nr(t) == 3) {
		CHECK(lkst_tasks_get(t, 0)->pid == 300 && lkst_tasks_get(t, 1)->pid == 400 && lkst_tasks_get(t, 2)->pid == 500);
		CHECK_STR(lkst_tasks_get(t, 0)->comm, "a300");
		CHECK_STR(lkst_tasks_get(t, 1)->comm, "a400");
		CHECK_STR(lkst_tasks_get(t, 2)->comm, "b500");
	}
	t = renew(t);
	CHECK(lkst_log_get_section(log, 0)->info.nr_records == 3 * NR_RECS);
	lkst_log_free(log);

	/* Only a later file has names: the set has them. */
	CHECK((log = lkst_log_load_files(paths + 1, 2, &err)));
	CHECK(!lkst_log_tasks(log, t, &err) && lkst_tasks_nr(t) == 2);
	lkst_tasks_free(t);
	lkst_log_free(log);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_table();
	test_proc();
	test_reader();
	test_json();
	test_refused();
	test_set();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return check_report();
}
