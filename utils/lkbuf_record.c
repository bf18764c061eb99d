// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf record: drains the buffers into rotating log files (-o DIR), each
 * covering about the same span of time, or into one log (-f FILE), until
 * SIGINT or SIGTERM, a duration (-d) or the end of a command.  With -e it
 * records what it chose in a maskset of its own (lkbuf_record_session.c).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lkbuf_cmds.h"
#include "lkbuf_record.h"
#include "lkst_format.h"
#include "lkst_ksym.h"
#include "lkst_logboot.h"
#include "lkst_logio_int.h"

#define RECORD_SOURCE "the running kernel's buffers (lkbuf record)"
#define RECORD_NAME_FMT		"%s/lkst-%06u.log"
#define RECORD_SLOT_BYTES	(sizeof(struct lkst_record) + sizeof(__u64))
/* A task name in a file; the first also brings its section's headers. */
#define RECORD_TASK_BYTES	sizeof(struct lkst_log_task)
#define RECORD_TASKS_FIRST	(lkst_log_meta_bytes(sizeof(struct lkst_log_tasks)) + \
				 RECORD_TASK_BYTES)

static volatile sig_atomic_t record_signal;
/* -f FILE: the records are spilled to temporary files beside it. */
static const char *record_file_path;

static void record_on_signal(int sig)
{
	record_signal = sig;
}

/* Only ends the sleep between drains when the command exits. */
static void record_on_child(int sig)
{
	(void)sig;
}

/* Records drained but not yet in a file, in order, from head. */
struct record_cpu {
	unsigned int cpu;
	int started;
	__u64 cursor;		/* next number to drain */
	__u64 file_start;	/* first number the next file accounts for */
	struct lkst_record *records;
	__u64 *seqs;
	size_t head, n, cap;
	/*
	 * -f: the records and their numbers go to two unnamed temporary files
	 * as they are drained, mapped at the end to write the log, so that a
	 * long recording holds no more memory than a drain's.
	 */
	int spill_rec, spill_seq;
	int mapped;			/* records and seqs map the spill files */
	__u64 first_seq, saved, lost, dropped_start, dropped_now, written, overwritten;
};

struct recorder {
	int fd;
	const char *dir;
	const char *file;	/* -f: one log, written at the end from the spill files */
	int from_now;		/* -e: from the switch, not the oldest records */
	struct lkst_version version;
	struct record_cpu *cpus;
	unsigned int nr_cpus;
	size_t per_file;	/* records that fit a file of the rotate size */
	uint64_t room;		/* bytes a file has for records and task names */
	unsigned int files, keep, kept;
	struct lkbuf_drain_buf buf;
	/*
	 * Names of the pids records carried, read from /proc when first seen
	 * (a file saves those of its records), and the pids found gone in
	 * the current drain, not looked for again in it.
	 */
	struct lkst_tasks *tasks;
	__u32 *gone;
	size_t nr_gone, cap_gone;
};

static void record_oom(const struct lkst_err *err)
{
	lkst_die(LKST_EXIT_DEVICE, "%s", err->msg);
}

/* Whether pid was found gone in this drain; else notes it (sorted). */
static int record_gone(struct recorder *r, __u32 pid, int add)
{
	size_t lo = 0, hi = r->nr_gone, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->gone[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nr_gone && r->gone[lo] == pid)
		return 1;
	if (!add)
		return 0;
	if (r->nr_gone == r->cap_gone) {
		r->cap_gone = r->cap_gone ? r->cap_gone * 2 : 64;
		r->gone = realloc(r->gone, r->cap_gone * sizeof(*r->gone));
		if (!r->gone)
			lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	}
	memmove(&r->gone[lo + 1], &r->gone[lo], (r->nr_gone - lo) * sizeof(*r->gone));
	r->gone[lo] = pid;
	r->nr_gone++;
	return 0;
}

/*
 * The names of pids the drained records carry that are not known yet:
 * one /proc read per new pid, so a task that lived between two drains is
 * named if it still runs at the second.
 */
static void record_learn_tasks(struct recorder *r, const struct lkst_record *recs, size_t n)
{
	struct lkst_err err;
	__u32 last = 0;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		__u32 pid = recs[i].pid;

		if (!pid || pid == last || lkst_tasks_find(r->tasks, pid) || record_gone(r, pid, 0))
			continue;
		last = pid;
		ret = lkst_tasks_read_pid(r->tasks, "/proc", pid, &err);
		if (ret < 0)
			record_oom(&err);
		if (!ret)
			record_gone(r, pid, 1);
	}
}

static size_t record_pending(const struct recorder *r)
{
	size_t total = 0;
	unsigned int i;

	for (i = 0; i < r->nr_cpus; i++)
		total += r->cpus[i].n - r->cpus[i].head;
	return total;
}

static void record_spill(struct record_cpu *c, const struct lkbuf_drain_buf *b, size_t n)
{
	struct lkst_err err;

	if (c->spill_rec < 0) {
		c->spill_rec = logio_tmpfile(record_file_path, &err);
		c->spill_seq = c->spill_rec < 0 ? -1 : logio_tmpfile(record_file_path, &err);
		if (c->spill_seq < 0)
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
	if (logio_write_tmp(c->spill_rec, b->records, n * sizeof(*b->records), &err) ||
	    logio_write_tmp(c->spill_seq, b->seqs, n * sizeof(*b->seqs), &err))
		lkst_die(LKST_EXIT_USAGE, "cpu %u: %s", c->cpu, err.msg);
	c->n += n;
}

/* -f: the spilled records mapped, for the log to be written from them. */
static void record_map_spill(struct record_cpu *c)
{
	void *rec, *seq;

	if (c->spill_rec < 0 || !c->n)
		return;
	rec = mmap(NULL, c->n * sizeof(*c->records), PROT_READ, MAP_SHARED, c->spill_rec, 0);
	seq = mmap(NULL, c->n * sizeof(*c->seqs), PROT_READ, MAP_SHARED, c->spill_seq, 0);
	if (rec == MAP_FAILED || seq == MAP_FAILED)
		lkst_die(LKST_EXIT_DEVICE, "cpu %u: cannot map %zu recorded records: %s; free some memory",
			 c->cpu, c->n, strerror(errno));
	madvise(rec, c->n * sizeof(*c->records), MADV_SEQUENTIAL);
	madvise(seq, c->n * sizeof(*c->seqs), MADV_SEQUENTIAL);
	c->records = rec;
	c->seqs = seq;
	c->mapped = 1;
}

static void record_append(struct record_cpu *c, const struct lkbuf_drain_buf *b, size_t n)
{
	size_t need = c->n - c->head + n;

	if (record_file_path) {
		record_spill(c, b, n);
		return;
	}
	if (c->head) {		/* drop what earlier files took */
		memmove(c->records, c->records + c->head,
			(c->n - c->head) * sizeof(*c->records));
		memmove(c->seqs, c->seqs + c->head, (c->n - c->head) * sizeof(*c->seqs));
		c->n -= c->head;
		c->head = 0;
	}
	if (need > c->cap) {
		size_t cap = need * 2;
		struct lkst_record *records = realloc(c->records, cap * sizeof(*records));
		__u64 *seqs = records ? realloc(c->seqs, cap * sizeof(*seqs)) : NULL;

		if (!records || !seqs)
			lkst_die(LKST_EXIT_DEVICE, "out of memory for %zu records of cpu %u; use a smaller --rotate",
				 need, c->cpu);
		c->records = records;
		c->seqs = seqs;
		c->cap = cap;
	}
	memcpy(c->records + c->n, b->records, n * sizeof(*b->records));
	memcpy(c->seqs + c->n, b->seqs, n * sizeof(*b->seqs));
	c->n += n;
}

/* Drains every CPU once; returns how many stopped at a possible in-flight record. */
static unsigned int record_drain(struct recorder *r, unsigned int flags)
{
	struct lkst_buffer_drain req;
	struct lkst_drain_result res;
	unsigned int i, stalled = 0;

	for (i = 0; i < r->nr_cpus; i++) {
		struct record_cpu *c = &r->cpus[i];

		lkbuf_drain_cpu(r->fd, LKST_IOC_BUFFER_DRAIN, c->cpu, c->cursor,
			  flags | (c->started || r->from_now ? 0 : LKST_DRAIN_FROM_LAST_GAP),
			  &r->buf, &req, &res);
		if (!c->started) {
			c->started = 1;
			c->file_start = res.seq_start;
			c->first_seq = res.seq_start;
			c->dropped_start = req.dropped;
		}
		record_append(c, &r->buf, res.nr);
		record_learn_tasks(r, r->buf.records, res.nr);
		c->cursor = res.seq_end;
		c->lost += res.lost;
		c->dropped_now = req.dropped;
		c->written = req.written;
		c->overwritten = req.overwritten;
		stalled += res.stalled;
	}
	r->nr_gone = 0;
	return stalled;
}

static void record_remove_old(struct recorder *r)
{
	char path[4096];

	while (r->keep && r->kept > r->keep) {
		snprintf(path, sizeof(path), RECORD_NAME_FMT, r->dir, r->files - r->kept + 1);
		if (unlink(path) && errno != ENOENT)
			lkst_die(LKST_EXIT_USAGE, "cannot remove %s: %s; check the directory",
				 path, strerror(errno));
		r->kept--;
	}
}

/*
 * The kernel-symbol section of the file being written (LKST_META_SYMBOLS,
 * lkst_ksym.h): the symbols kallsyms, read once for the file, gives the
 * KSYM arguments of the records taken (stack frames), counted as records
 * are taken and then written from the same kallsyms, so that the file
 * holds exactly what was counted.
 */
struct record_syms {
	int read;			/* kallsyms read for this file */
	struct lkst_ksym_kallsyms *ks;	/* NULL: no symbols to save */
	struct lkst_ksym_set *addrs;	/* to symbolize: of the records taken */
	const struct lkst_ksym **used;	/* the section's symbols, by address */
	size_t nr, cap;
	size_t payload;			/* the section's bytes; 0: none */
};

static uint64_t record_syms_bytes(size_t payload)
{
	return payload ? lkst_log_meta_bytes(payload) : 0;
}

/* Where k is in the section's symbols, or goes (sorted by address). */
static size_t record_syms_find(const struct record_syms *s, const struct lkst_ksym *k, int *found)
{
	size_t lo = 0, hi = s->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->used[mid]->addr < k->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < s->nr && s->used[lo] == k;
	return lo;
}

/*
 * The symbols rec would add to the section, into add (distinct, none
 * there yet); returns how many.
 */
static unsigned int record_syms_new(struct record_syms *s, const struct lkst_record *rec,
				    const struct lkst_ksym *add[LKST_NR_ARGS])
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	const struct lkst_ksym *k;
	unsigned int i, j, n = 0;
	int found;

	for (i = 0; ev && i < LKST_NR_ARGS; i++) {
		if (ev->args[i].type != LKST_ARG_KSYM || !rec->arg[i])
			continue;
		if (!s->read) {
			s->read = 1;
			s->ks = lkbuf_read_kallsyms();
		}
		if (!s->ks || !(k = lkst_ksym_kallsyms_find(s->ks, rec->arg[i])))
			continue;
		record_syms_find(s, k, &found);
		for (j = 0; j < n && add[j] != k; j++)
			;
		if (!found && j == n)
			add[n++] = k;
	}
	return n;
}

/* Bytes the section grows by with the first n of add. */
static uint64_t record_syms_cost(const struct record_syms *s, const struct lkst_ksym **add,
				 unsigned int n)
{
	size_t payload = s->payload ? s->payload : LKST_KSYM_HEAD_SIZE;
	unsigned int i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		payload += sizeof(struct lkst_ksym_entry) + strlen(add[i]->name) + 1;
	return record_syms_bytes(payload) - record_syms_bytes(s->payload);
}

/* Takes rec with the first n of add: its frames whose symbol is then in the section. */
static void record_syms_take(struct record_syms *s, const struct lkst_record *rec,
			     const struct lkst_ksym **add, unsigned int n)
{
	const struct lkst_event_info *ev = lkst_event_by_id(rec->event);
	const struct lkst_ksym *k;
	struct lkst_err err;
	unsigned int i;
	size_t at;
	int found;

	if (!s->ks)
		return;
	for (i = 0; i < n; i++) {
		if (!s->payload)
			s->payload = LKST_KSYM_HEAD_SIZE;
		s->payload += sizeof(struct lkst_ksym_entry) + strlen(add[i]->name) + 1;
		if (s->nr == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 64;
			s->used = realloc(s->used, s->cap * sizeof(*s->used));
			if (!s->used)
				lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
		}
		at = record_syms_find(s, add[i], &found);
		memmove(&s->used[at + 1], &s->used[at], (s->nr - at) * sizeof(*s->used));
		s->used[at] = add[i];
		s->nr++;
	}
	if (!s->addrs && !(s->addrs = lkst_ksym_set_new(&err)))
		record_oom(&err);
	for (i = 0; ev && i < LKST_NR_ARGS; i++) {
		if (ev->args[i].type != LKST_ARG_KSYM || !rec->arg[i] ||
		    !(k = lkst_ksym_kallsyms_find(s->ks, rec->arg[i])))
			continue;
		record_syms_find(s, k, &found);
		if (found && lkst_ksym_set_add(s->addrs, rec->arg[i]))
			lkst_die(LKST_EXIT_DEVICE, "out of memory collecting kernel addresses; free some memory");
	}
}

static void record_syms_free(struct record_syms *s)
{
	lkst_ksym_kallsyms_free(s->ks);
	lkst_ksym_set_free(s->addrs);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

/*
 * Writes the next file with the pending records that fit it, taken from
 * the CPUs in time order, so that every file covers about the same span,
 * and the names of their pids.
 */
static void record_write_file(struct recorder *r)
{
	struct lkst_log_header header;
	struct lkst_log_writer *w;
	struct lkst_log_cpu section;
	struct lkst_tasks *names;
	const struct lkst_log_task *t;
	struct lkst_err err;
	size_t *take;
	uint64_t used = 0, cost, task_cost;
	struct record_syms syms;
	const struct lkst_ksym *add[LKST_NR_ARGS];
	char path[4096];
	unsigned int i, best, nr_add, keep_add;
	static int told_syms;

	take = calloc(r->nr_cpus, sizeof(*take));
	if (!take)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	names = lkst_tasks_new(&err);
	if (!names)
		record_oom(&err);
	memset(&syms, 0, sizeof(syms));
	for (;;) {
		const struct lkst_record *rec;

		best = r->nr_cpus;
		for (i = 0; i < r->nr_cpus; i++) {
			struct record_cpu *c = &r->cpus[i];
			size_t at = c->head + take[i];

			if (at < c->n && (best == r->nr_cpus ||
					  c->records[at].time_ns <
					  r->cpus[best].records[r->cpus[best].head + take[best]].time_ns))
				best = i;
		}
		if (best == r->nr_cpus)
			break;
		rec = &r->cpus[best].records[r->cpus[best].head + take[best]];
		task_cost = 0;
		t = lkst_tasks_find(r->tasks, rec->pid);
		if (t && !lkst_tasks_find(names, rec->pid))
			task_cost = lkst_tasks_nr(names) ? RECORD_TASK_BYTES : RECORD_TASKS_FIRST;
		/* Its kernel symbols too (stack frames): the section grows with them. */
		nr_add = record_syms_new(&syms, rec, add);
		cost = RECORD_SLOT_BYTES + task_cost;
		keep_add = nr_add;
		if (used + cost + record_syms_cost(&syms, add, nr_add) > r->room) {
			if (used)
				break;	/* the next file takes it */
			/*
			 * Its symbols alone outgrow an empty file (the rotate
			 * size checks only a record and a name): it goes with
			 * the names that fit, its other frames saved as hex.
			 */
			while (keep_add && used + cost + record_syms_cost(&syms, add, keep_add) > r->room)
				keep_add--;
			if (!told_syms)
				fprintf(stderr, "lkbuf: a record's kernel symbols do not fit the rotate size; some of its frames are saved without names; give a larger --rotate\n");
			told_syms = 1;
		}
		cost += record_syms_cost(&syms, add, keep_add);
		if (t && lkst_tasks_put(names, t->pid, t->tgid, t->comm, 0, &err))
			record_oom(&err);
		record_syms_take(&syms, rec, add, keep_add);
		used += cost;
		take[best]++;
	}
	r->files++;
	if (r->file)
		snprintf(path, sizeof(path), "%s", r->file);
	else
		snprintf(path, sizeof(path), RECORD_NAME_FMT, r->dir, r->files);
	lkbuf_init_log_header(r->fd, &r->version, NULL, r->nr_cpus, &header);
	w = lkbuf_create_log(path, &header, RECORD_SOURCE);
	if (lkst_log_add_boot_of(w, &header, 0, &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without its boot ID\n", err.msg);
	for (i = 0; i < r->nr_cpus; i++) {
		struct record_cpu *c = &r->cpus[i];
		size_t at = c->head + take[i];

		memset(&section, 0, sizeof(section));
		section.cpu = c->cpu;
		section.nr_records = take[i];
		section.written = c->written;
		section.overwritten = c->overwritten;
		section.dropped = c->dropped_now;
		section.seq_start = c->file_start;
		/* Numbers lost before the first record left belong to this file. */
		section.seq_end = at < c->n ? c->seqs[at] : c->cursor;
		section.lost = section.seq_end - section.seq_start - take[i];
		if (lkst_log_write_cpu_seqs(w, &section, c->records + c->head,
					    c->seqs + c->head, &err)) {
			lkbuf_abort_unfinished_log();
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
		}
		c->saved += take[i];
		c->head = at;
		c->file_start = section.seq_end;
	}
	lkbuf_save_ksyms_of(w, syms.ks, syms.addrs);
	record_syms_free(&syms);
	if (lkst_log_add_tasks(w, names, &err))
		record_oom(&err);
	lkst_tasks_free(names);
	lkbuf_commit_log(w);
	free(take);
	r->kept++;
	record_remove_old(r);
}

/* A new directory, or one without lkst-*.log files of an earlier run. */
static void record_prepare_dir(const char *dir)
{
	struct dirent *e;
	DIR *d;

	if (mkdir(dir, 0755) && errno != EEXIST)
		lkst_die(LKST_EXIT_USAGE, "cannot create directory %s: %s; check the path",
			 dir, strerror(errno));
	d = opendir(dir);
	if (!d)
		lkst_die(LKST_EXIT_USAGE, "cannot open directory %s: %s; give a directory",
			 dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (!strncmp(e->d_name, "lkst-", 5) && len > 9 &&
		    !strcmp(e->d_name + len - 4, ".log"))
			lkst_die(LKST_EXIT_USAGE, "%s already holds %s from an earlier recording; give a new or empty directory",
				 dir, e->d_name);
	}
	closedir(d);
}

static char *dir, *file, *rotate_arg, *keep_arg, *interval_arg, *duration_arg;
static char *size_arg, *mode_arg;
static uint64_t rotate = 16u << 20;
static unsigned int keep, interval = 200;
static unsigned long long duration_ns;

/* -e and --filter in the order given: a --filter filters the -e before it. */
static struct { int kind; char *arg; } *ef_opts;
static unsigned int nr_ef_opts;
static struct lkbuf_rec_events events;

static void record_option(poptContext con, enum poptCallbackReason reason,
			  const struct poptOption *opt, const char *arg, const void *data)
{
	(void)con;
	(void)data;
	/* Called for every option of the table: only -e and --filter count. */
	if (reason != POPT_CALLBACK_REASON_OPTION || (opt->val != 'e' && opt->val != 'F'))
		return;
	ef_opts = realloc(ef_opts, (nr_ef_opts + 1) * sizeof(*ef_opts));
	if (!ef_opts || !(ef_opts[nr_ef_opts].arg = strdup(arg)))
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	ef_opts[nr_ef_opts++].kind = opt->val;
}

static struct poptOption record_options[] = {
	{ NULL, '\0', POPT_ARG_CALLBACK, (void *)record_option, 0, NULL, NULL },
	{ "event", 'e', POPT_ARG_STRING, NULL, 'e',
	  "record only these events, in a maskset of its own: mnemonics, globs ('SYSCALL_*'), categories or all, comma-separated, each optionally =HANDLER (repeatable)",
	  "LIST" },
	{ "filter", '\0', POPT_ARG_STRING, NULL, 'F',
	  "record the events of the -e before it only when EXPR holds (lkm filter's expressions; needs lkst_filter.ko)",
	  "EXPR" },
	{ "file", 'f', POPT_ARG_STRING, &file, 0,
	  "write one log FILE at the end (records are kept in memory until then)", "FILE" },
	{ "output", 'o', POPT_ARG_STRING, &dir, 0,
	  "directory for the log files lkst-NNNNNN.log (created if missing)", "DIR" },
	{ "rotate", '\0', POPT_ARG_STRING, &rotate_arg, 0,
	  "start a new file before one grows past SIZE bytes (K/M suffix; default 16M)",
	  "SIZE" },
	{ "keep", 'k', POPT_ARG_STRING, &keep_arg, 0,
	  "keep only the newest N files (default 0: keep all)", "N" },
	{ "duration", 'd', POPT_ARG_STRING, &duration_arg, 0,
	  "stop after SECONDS (e.g. 2.5), not at SIGINT or SIGTERM", "SECONDS" },
	{ "size", 's', POPT_ARG_STRING, &size_arg, 0,
	  "first resize every block to SIZE bytes (K/M suffix; stays afterwards)", "SIZE" },
	{ "mode", '\0', POPT_ARG_STRING, &mode_arg, 0,
	  "buffer mode while recording, overwrite or stop (the previous one is restored)",
	  "MODE" },
	{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
	  "drain the buffers every MS milliseconds (default 200)", "MS" },
	LKST_POPT_TAIL
};

static struct lkbuf_session_opts session;

static void check_record(struct lkst_cmd *cmd)
{
	struct lkst_err err;
	unsigned int i;

	lkst_require(dir || file ? "" : NULL, "-o DIR or -f FILE", "record");
	if (dir && file)
		lkst_die(LKST_EXIT_USAGE, "record: give -o DIR (rotating files) or -f FILE (one log), not both");
	if (file && (rotate_arg || keep_arg))
		lkst_die(LKST_EXIT_USAGE, "record: --rotate and --keep are for -o DIR, not -f FILE");
	if (rotate_arg && (lkst_parse_size(rotate_arg, &rotate) || rotate < 4096 ||
			   rotate > (1ull << 40)))
		lkst_die(LKST_EXIT_USAGE, "bad rotate size '%s'; give 4K..1T bytes, K and M suffixes allowed",
			 rotate_arg);
	if (keep_arg)
		keep = lkst_option_u32(keep_arg, 1000000, "number of files to keep");
	if (interval_arg)
		interval = lkst_option_u32(interval_arg, 3600000, "interval in milliseconds");
	if (!interval)
		interval = 1;
	if (duration_arg && (lkst_parse_seconds(duration_arg, &duration_ns) || !duration_ns))
		lkst_die(LKST_EXIT_USAGE, "bad duration '%s'; give seconds above 0, e.g. 10 or 2.5",
			 duration_arg);
	if (duration_arg && cmd->nr_args)
		lkst_die(LKST_EXIT_USAGE, "record: -d and a command exclude each other; the command's end ends the recording");
	/* Event names may be a running kernel's probes. */
	if (nr_ef_opts)
		lkst_events_use_running_kernel();
	for (i = 0; i < nr_ef_opts; i++)
		if ((ef_opts[i].kind == 'e' ? lkbuf_rec_add_events(&events, ef_opts[i].arg, &err) :
		     lkbuf_rec_add_filter(&events, ef_opts[i].arg, &err)))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	session.events = events.nr ? &events : NULL;
	session.size_arg = size_arg;
	session.mode_arg = mode_arg;
	session.command = cmd->nr_args ? cmd->args : NULL;
	lkbuf_session_check(&session);
}

/*
 * Every thread's name at the start, and the command's as exec will make
 * it (the basename of what it runs, cut to 15 bytes): until then /proc
 * shows it as lkbuf.
 */
static void record_known_tasks(struct recorder *r)
{
	const char *prog, *slash;
	struct lkst_err err;
	int child = lkbuf_session_child();

	r->tasks = lkst_tasks_new(&err);
	if (!r->tasks)
		record_oom(&err);
	if (lkst_tasks_scan(r->tasks, "/proc", &err))
		fprintf(stderr, "lkbuf: %s; tasks are named as they are first seen\n", err.msg);
	if (!child)
		return;
	prog = session.command[0];
	slash = strrchr(prog, '/');
	if (lkst_tasks_put(r->tasks, child, child, slash ? slash + 1 : prog, 1, &err))
		record_oom(&err);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Drains until the command ends, the duration passes or a signal comes. */
static void record_loop(struct recorder *r)
{
	unsigned long long end = duration_ns ? now_ns() + duration_ns : 0, now;
	long ms;

	for (;;) {
		record_drain(r, 0);
		while (record_pending(r) >= r->per_file)
			record_write_file(r);
		if (record_signal) {
			if (!lkbuf_session_child())
				break;
			/* The command gets it; its end ends the recording. */
			lkbuf_session_signal(record_signal);
			record_signal = 0;
		}
		if (session.command && lkbuf_session_reaped())
			break;
		ms = interval;
		if (end) {
			now = now_ns();
			if (now >= end)
				break;
			if ((end - now) / 1000000 < (unsigned long long)ms)
				ms = (end - now) / 1000000 + 1;
		}
		lkbuf_sleep_ms(ms);
	}
}

static int run_record(struct lkst_cmd *cmd)
{
	struct recorder r;
	struct lkst_cpu_info info;
	struct sigaction sa;
	unsigned long long saved = 0, lost = 0, dropped = 0;
	uint64_t fixed;
	unsigned int cpu, tries;
	int status;

	memset(&r, 0, sizeof(r));
	r.dir = dir;
	r.file = file;
	r.keep = keep;
	r.fd = cmd->fd;
	record_file_path = file;
	if (dir)
		record_prepare_dir(dir);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: the sleep ends at once */
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = record_on_child;
	sigaction(SIGCHLD, &sa, NULL);

	r.from_now = lkbuf_session_start(r.fd);
	r.version = cmd->version;
	r.cpus = calloc(r.version.nr_cpu_ids ? r.version.nr_cpu_ids : 1, sizeof(*r.cpus));
	if (!r.cpus)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (cpu = 0; cpu < r.version.nr_cpu_ids; cpu++) {
		lkbuf_cpu_info(r.fd, cpu, &info);
		if (!info.nr_blocks)
			continue;
		r.cpus[r.nr_cpus].cpu = cpu;
		r.cpus[r.nr_cpus].spill_rec = r.cpus[r.nr_cpus].spill_seq = -1;
		if (r.from_now)		/* the first record after the switch */
			r.cpus[r.nr_cpus].cursor = info.next_seq;
		r.nr_cpus++;
	}
	/* Each file carries the event table, where it came from and its boot. */
	fixed = sizeof(struct lkst_log_header) + r.nr_cpus * sizeof(struct lkst_log_cpu) +
		lkst_log_event_table_bytes() + lkst_log_meta_bytes(sizeof(RECORD_SOURCE)) +
		lkst_log_meta_bytes(sizeof(struct lkst_log_boot));
	if (file) {
		r.per_file = SIZE_MAX;
		r.room = UINT64_MAX;
	} else if (rotate < fixed + RECORD_SLOT_BYTES + RECORD_TASKS_FIRST) {
		lkst_die(LKST_EXIT_USAGE, "rotate size %llu cannot hold a record of %u CPUs; give at least %llu",
			 (unsigned long long)rotate, r.nr_cpus,
			 (unsigned long long)(fixed + RECORD_SLOT_BYTES + RECORD_TASKS_FIRST));
	} else {
		/* Task names take room too: a file may hold fewer records. */
		r.room = rotate - fixed;
		r.per_file = r.room / RECORD_SLOT_BYTES;
	}
	record_known_tasks(&r);

	if (!session.command || !lkbuf_session_go())
		record_loop(&r);
	/* Everything committed so far, waiting out records being written. */
	for (tries = 0; record_drain(&r, 0) && tries < LKBUF_STALL_RETRIES; tries++)
		lkbuf_sleep_ms(1);
	record_drain(&r, LKST_DRAIN_FINAL);
	/* What was switched is switched back before the files are written. */
	status = lkbuf_session_end();
	for (cpu = 0; cpu < r.nr_cpus; cpu++)
		record_map_spill(&r.cpus[cpu]);
	while (record_pending(&r) >= r.per_file)
		record_write_file(&r);
	/* Less than per_file may still need two files: their names take room. */
	if (record_pending(&r) || !r.files)
		do
			record_write_file(&r);
		while (record_pending(&r));
	else
		for (cpu = 0; cpu < r.nr_cpus; cpu++)
			if (r.cpus[cpu].file_start < r.cpus[cpu].cursor) {
				record_write_file(&r);	/* losses after the last record */
				break;
			}

	for (cpu = 0; cpu < r.nr_cpus; cpu++) {
		struct record_cpu *c = &r.cpus[cpu];
		unsigned long long d = c->dropped_now - c->dropped_start;

		fprintf(stderr, "lkbuf: cpu%u: %llu records saved of sequence numbers [%llu, %llu), %llu lost (overwritten before they were drained), %llu dropped\n",
			c->cpu, (unsigned long long)c->saved,
			(unsigned long long)c->first_seq, (unsigned long long)c->cursor,
			(unsigned long long)c->lost, d);
		saved += c->saved;
		lost += c->lost;
		dropped += d;
		if (c->mapped) {
			munmap(c->records, c->n * sizeof(*c->records));
			munmap(c->seqs, c->n * sizeof(*c->seqs));
		} else {
			free(c->records);
			free(c->seqs);
		}
		if (c->spill_rec >= 0)
			close(c->spill_rec);
		if (c->spill_seq >= 0)
			close(c->spill_seq);
	}
	if (file)
		fprintf(stderr, "lkbuf: recorded %llu records of %u CPUs in %s; %llu lost in the kernel (overwritten before they were drained), %llu dropped\n",
			saved, r.nr_cpus, file, lost, dropped);
	else
		fprintf(stderr, "lkbuf: recorded %llu records of %u CPUs in %u files, %u kept in %s; %llu lost in the kernel (overwritten before they were drained), %llu dropped\n",
			saved, r.nr_cpus, r.files, r.kept, dir, lost, dropped);
	lkbuf_drain_buf_free(&r.buf);
	lkst_tasks_free(r.tasks);
	free(r.gone);
	free(r.cpus);
	lkbuf_rec_events_free(&events);
	return status;
}

const struct lkst_verb_ops lkbuf_record_ops = {
	record_options, "[-- COMMAND [ARG...]]", check_record, run_record, NULL
};
