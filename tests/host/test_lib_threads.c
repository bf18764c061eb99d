// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * liblkst is thread-safe per handle: two threads, each reading its own log
 * through its own trace handle, print exactly what one thread prints
 * reading the logs one after the other.  The two logs carry different
 * event tables (an event and an argument renamed in each), so a table
 * shared between the threads would name one log's records by the other's
 * table.  And the library prints nothing itself: messages go to the
 * handler of the thread that works (lkst_set_msg_handler()), and to none
 * on a thread without one.
 *
 * test_lib_threads [DIR]: writes its logs in DIR (default: a temporary
 * directory, removed after).  test_lib.sh runs it under helgrind too.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkst.h"
#include "check.h"

#define RECORDS		3000
#define CPUS		2
#define ROUNDS		8

struct reader {
	const char *path;
	const char *want;		/* what one thread printed */
	int mismatches;
	int failures;
	/* Messages the thread's handler got: progress and ends. */
	int handler;
	int progress, ends, last_percent;
	int warnings;
	char warning[256];
	pthread_barrier_t *start;
};

static void make_record(struct lkst_record *r, unsigned int i, unsigned int cpu)
{
	memset(r, 0, sizeof(*r));
	r->time_ns = 1000000000ull + i * 1000ull + cpu * 3;
	r->pid = 100 + (i * 7 + cpu) % 20;
	switch (i % 3) {
	case 0:
		r->event = LKST_EV_PROCESS_CONTEXTSWITCH;
		r->arg[0] = r->pid;
		r->arg[1] = r->pid + 1;
		memcpy(&r->arg[4], "worker", 6);
		break;
	case 1:
		r->event = LKST_EV_SYSCALL_ENTRY;
		r->arg[0] = i % 300;
		r->arg[1] = 0x7ffc0000ull + i;
		break;
	default:
		r->event = LKST_EV_SYSCALL_EXIT;
		r->arg[0] = i % 300;
		r->arg[1] = i % 5 ? i % 4096 : (unsigned long long)-2;
		break;
	}
}

/* A log whose own event table names the context switch and an argument by tag. */
static int write_log(const char *path, const char *tag)
{
	static struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
	static struct lkst_record recs[RECORDS / CPUS];
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct lkst_log_cpu c;
	struct lkst_err err;
	unsigned int n, i, cpu;

	lkst_events_use_builtin();
	n = lkst_events_describe(descs);
	for (i = 0; i < n; i++) {
		if (descs[i].id == LKST_EV_PROCESS_CONTEXTSWITCH)
			snprintf(descs[i].mnemonic, sizeof(descs[i].mnemonic), "SWITCH_%s", tag);
		if (descs[i].id == LKST_EV_SYSCALL_ENTRY)
			snprintf(descs[i].arg_desc[1], sizeof(descs[i].arg_desc[1]), "arg_%s", tag);
	}
	if (lkst_events_use(descs, n, sizeof(descs[0]), &err))
		goto fail;
	lkst_log_header_init(&h);
	h.nr_cpus = CPUS;
	if (!(w = lkst_log_create(path, &h, &err)))
		goto fail;
	for (cpu = 0; cpu < CPUS; cpu++) {
		for (i = 0; i < RECORDS / CPUS; i++)
			make_record(&recs[i], i * CPUS + cpu, cpu);
		memset(&c, 0, sizeof(c));
		c.cpu = cpu;
		c.nr_records = c.written = RECORDS / CPUS;
		if (lkst_log_write_cpu(w, &c, recs, &err)) {
			lkst_log_abort(w);
			goto fail;
		}
	}
	if (lkst_log_commit(w, &err))
		goto fail;
	lkst_events_use_builtin();
	return 0;
fail:
	fprintf(stderr, "%s: %s\n", path, err.msg);
	lkst_events_use_builtin();
	return -1;
}

/* Every record of path as text then CSV, as lkbuf print shows them; NULL on failure. */
static char *print_log(const char *path)
{
	static const struct lkst_format_opts text = { .seconds = 1 }, csv = { .csv = 1 };
	const struct lkst_format_opts *opts[] = { &text, &csv };
	struct lkst_outbuf *o = lkst_outbuf_new(NULL);
	struct lkst_trace_iter *it = NULL;
	struct lkst_trace_rec r;
	struct lkst_trace *t;
	struct lkst_err err;
	char *out = NULL;
	size_t len = 0;
	unsigned int k;
	FILE *fp;

	t = lkst_trace_open(path, 0, &err);
	if (!o || !t || !(it = lkst_trace_iter_new(t, 0, &err))) {
		lkst_outbuf_free(o);
		lkst_trace_close(t);
		return NULL;
	}
	fp = open_memstream(&out, &len);
	if (fp) {
		for (k = 0; k < 2; k++) {
			lkst_trace_rewind(it);
			lkst_outbuf_init(o, fp);
			if (opts[k]->csv)
				lkst_format_csv_header(fp, opts[k]);
			while (lkst_trace_next(it, &r))
				lkst_format_record_buf(o, r.rec, r.cpu, opts[k]);
			lkst_outbuf_flush(o);
		}
		fclose(fp);
	}
	lkst_trace_iter_free(it);
	lkst_trace_close(t);
	lkst_outbuf_free(o);
	return out;
}

static void on_msg(void *arg, enum lkst_msg_kind kind, unsigned int percent, const char *text)
{
	struct reader *rd = arg;

	(void)text;
	if (kind == LKST_MSG_PROGRESS) {
		rd->progress++;
		rd->last_percent = (int)percent;
	} else if (kind == LKST_MSG_PROGRESS_END) {
		rd->ends++;
	} else if (kind == LKST_MSG_WARNING) {
		rd->warnings++;
		snprintf(rd->warning, sizeof(rd->warning), "%s", text);
	}
}

/*
 * Symbols saved from a kallsyms that shows no addresses (kptr_restrict):
 * a warning to the thread's handler, once per set of addresses however
 * often it is saved, and nothing printed.
 */
static void check_warning(const char *dir)
{
	char ksyms[4200], path[4200];
	struct lkst_ksym_set *set = lkst_ksym_set_new(&(struct lkst_err){ 0 });
	struct lkst_log_header h;
	struct lkst_log_writer *w;
	struct reader rd = { 0 };
	struct lkst_err err;
	unsigned int i;
	FILE *f;

	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(path, sizeof(path), "%s/w.log", dir);
	f = fopen(ksyms, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("0000000000000000 T _stext\n0000000000000000 t helper\n", f);
	fclose(f);
	lkst_log_header_init(&h);
	h.nr_cpus = 1;
	CHECK((w = lkst_log_create(path, &h, &err)) != NULL);
	lkst_set_msg_handler(on_msg, &rd);
	for (i = 0; i < 2; i++) {
		CHECK(lkst_ksym_set_add(set, 0xffffffff81000000ull + i) == 0);
		CHECK(lkst_ksym_save(w, set, ksyms, &err) == 0);
	}
	lkst_set_msg_handler(NULL, NULL);
	CHECK(rd.warnings == 1);
	CHECK_HAS(rd.warning, "kptr_restrict");
	lkst_ksym_set_free(set);
	lkst_log_abort(w);
	unlink(ksyms);
}

/* Exports the log as JSON to nowhere: progress for a thread's handler. */
static int export_log(const char *path)
{
	struct lkst_export *x;
	struct lkst_trace *t;
	struct lkst_err err;
	int ret;

	t = lkst_trace_open(path, 0, &err);
	if (!t)
		return -1;
	x = lkst_export_new(t, &err);
	ret = x ? 0 : -1;
	if (x) {
		ret = lkst_export_json(x, "/dev/null", &err);
		lkst_export_end_progress(x);
		lkst_export_free(x);
	}
	lkst_trace_close(t);
	return ret;
}

static void *read_rounds(void *arg)
{
	struct reader *rd = arg;
	unsigned int i;
	char *got;

	if (rd->handler)
		lkst_set_msg_handler(on_msg, rd);
	pthread_barrier_wait(rd->start);
	for (i = 0; i < ROUNDS; i++) {
		got = print_log(rd->path);
		if (!got)
			rd->failures++;
		else if (strcmp(got, rd->want))
			rd->mismatches++;
		free(got);
	}
	if (export_log(rd->path))
		rd->failures++;
	return NULL;
}

int main(int argc, char **argv)
{
	char path_a[4096], path_b[4096], tmp[] = "/tmp/test_lib_threads.XXXXXX";
	const char *dir = argc > 1 ? argv[1] : mkdtemp(tmp);
	char *want_a, *want_b;
	pthread_barrier_t start;
	struct reader rd[2];
	pthread_t th[2];
	unsigned int i;

	if (argc > 2 || !dir) {
		fprintf(stderr, "usage: test_lib_threads [DIR]\n");
		return 2;
	}
	snprintf(path_a, sizeof(path_a), "%s/a.log", dir);
	snprintf(path_b, sizeof(path_b), "%s/b.log", dir);
	if (write_log(path_a, "A") || write_log(path_b, "B"))
		return 1;

	/* One thread, one log after the other: each named by its own table. */
	want_a = print_log(path_a);
	want_b = print_log(path_b);
	CHECK(want_a && want_b);
	if (!want_a || !want_b)
		return check_report();
	CHECK(strstr(want_a, "SWITCH_A") && !strstr(want_a, "SWITCH_B"));
	CHECK(strstr(want_b, "SWITCH_B") && !strstr(want_b, "SWITCH_A"));
	CHECK(strstr(want_a, "arg_A=") && strstr(want_b, "arg_B="));

	/* The main thread has no handler: exporting tells it nothing, prints nothing. */
	CHECK(!lkst_msg_wanted());
	CHECK(export_log(path_a) == 0);

	check_warning(dir);

	/* Two threads at once, the first with a message handler. */
	memset(rd, 0, sizeof(rd));
	pthread_barrier_init(&start, NULL, 2);
	rd[0].path = path_a;
	rd[0].want = want_a;
	rd[0].handler = 1;
	rd[1].path = path_b;
	rd[1].want = want_b;
	for (i = 0; i < 2; i++) {
		rd[i].start = &start;
		CHECK(pthread_create(&th[i], NULL, read_rounds, &rd[i]) == 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++) {
		CHECK(rd[i].failures == 0);
		if (rd[i].mismatches)
			fprintf(stderr, "thread %u: %d of %d rounds differ from one thread's output\n",
				i, rd[i].mismatches, ROUNDS);
		CHECK(rd[i].mismatches == 0);
	}
	/* Progress reached the handler's thread only, up to 100%, then an end. */
	CHECK(rd[0].progress > 0 && rd[0].last_percent == 100 && rd[0].ends == 1);
	CHECK(rd[1].progress == 0 && rd[1].ends == 0);

	/*
	 * The main thread's table is the built-in one its last trace's close
	 * put back: the threads' tables never became its.
	 */
	CHECK(lkst_event_by_id(LKST_EV_PROCESS_CONTEXTSWITCH) &&
	      !strcmp(lkst_event_by_id(LKST_EV_PROCESS_CONTEXTSWITCH)->mnemonic,
		      "PROCESS_CONTEXTSWITCH"));
	free(want_a);
	free(want_b);
	if (argc < 2) {
		unlink(path_a);
		unlink(path_b);
		rmdir(dir);
	}
	return check_report();
}
