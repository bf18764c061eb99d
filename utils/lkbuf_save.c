// SPDX-License-Identifier: GPL-2.0
/*
 * What lkbuf read, record and extract share: draining a CPU's buffer to
 * the end of what is settled, and writing a log that is removed when
 * lkbuf exits before committing it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "lkbuf_cmds.h"
#include "lkst_ksym.h"

static void drain_buf_grow(struct lkbuf_drain_buf *b, size_t cap, unsigned int cpu)
{
	free(b->records);
	free(b->seqs);
	b->records = calloc(cap ? cap : 1, sizeof(*b->records));
	b->seqs = calloc(cap ? cap : 1, sizeof(*b->seqs));
	if (!b->records || !b->seqs)
		lkst_die(LKST_EXIT_DEVICE, "out of memory for %zu records of cpu %u; free some memory",
			 cap, cpu);
	b->cap = cap;
}

void lkbuf_drain_buf_free(struct lkbuf_drain_buf *b)
{
	free(b->records);
	free(b->seqs);
	memset(b, 0, sizeof(*b));
}

/*
 * One DRAIN of @cpu from @cursor, settled (see lkst_drain.h): the kept
 * records are first in b, in order.  req keeps the kernel's counters.
 * cmd is BUFFER_DRAIN, or PREVIOUS_DRAIN for the previous boot's trace,
 * which takes the same struct with the same semantics.
 */
void lkbuf_drain_cpu(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
		     unsigned int flags, struct lkbuf_drain_buf *b,
		     struct lkst_buffer_drain *req, struct lkst_drain_result *res)
{
	char what[64];
	int ret;

	for (;;) {
		memset(req, 0, sizeof(*req));
		req->cpu = cpu;
		req->cursor = cursor;
		req->records = (__u64)(uintptr_t)b->records;
		req->seqs = (__u64)(uintptr_t)b->seqs;
		req->max_records = b->cap > UINT32_MAX ? UINT32_MAX : b->cap;
		ret = lkst_dev_ioctl(fd, cmd, req);
		if (ret == -ENOENT && cmd == LKST_IOC_PREVIOUS_DRAIN)
			lkst_die(LKST_EXIT_DEVICE, "the previous boot's trace was released while cpu %u was read; nothing was saved",
				 cpu);
		if (ret) {
			snprintf(what, sizeof(what), "reading the %sbuffer of cpu %u",
				 cmd == LKST_IOC_PREVIOUS_DRAIN ? "previous boot's " : "", cpu);
			lkst_die_errno(-ret, what);
		}
		if (!(req->flags & LKST_DRAIN_TRUNCATED))
			break;
		/* Blocks were added meanwhile: make room for all they hold. */
		drain_buf_grow(b, req->capacity + 64, cpu);
	}
	if (lkst_drain_settle(b->records, b->seqs, req->nr_records, cursor, req->next_seq,
			      req->busy_seqs,
			      (req->flags & LKST_DRAIN_BUSY_OVERFLOW) ||
			      req->nr_busy > LKST_DRAIN_MAX_BUSY ? -1 : (int)req->nr_busy,
			      flags, res))
		lkst_die(LKST_EXIT_DEVICE, "out of memory sorting %u records of cpu %u; free some memory",
			 req->nr_records, cpu);
}

void lkbuf_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Drains until no gap can still be a record being written (a writer holds
 * a slot for well under a millisecond), then once more counting such gaps
 * as lost.
 */
void lkbuf_drain_cpu_settled(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
			     unsigned int flags, struct lkbuf_drain_buf *b,
			     struct lkst_buffer_drain *req, struct lkst_drain_result *res)
{
	int tries;

	for (tries = 0; tries < LKBUF_STALL_RETRIES; tries++) {
		lkbuf_drain_cpu(fd, cmd, cpu, cursor, flags, b, req, res);
		if (!res->stalled)
			return;
		lkbuf_sleep_ms(1);
	}
	lkbuf_drain_cpu(fd, cmd, cpu, cursor, flags | LKST_DRAIN_FINAL, b, req, res);
}

/* The log being written, removed if lkbuf exits before committing it. */
static struct lkst_log_writer *unfinished_log;

void lkbuf_abort_unfinished_log(void)
{
	lkst_log_abort(unfinished_log);
	unfinished_log = NULL;
}

/* source: where the records come from, kept in the log (LKST_META_SOURCE). */
struct lkst_log_writer *lkbuf_create_log(const char *path, const struct lkst_log_header *h,
					 const char *source)
{
	struct lkst_log_writer *w;
	struct lkst_err err;

	w = lkst_log_create(path, h, &err);
	if (!w)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	unfinished_log = w;
	if (lkst_log_add_meta(w, LKST_META_SOURCE, source, strlen(source) + 1, &err))
		lkst_die(LKST_EXIT_DEVICE, "%s", err.msg);
	return w;
}

/*
 * KSYM arguments of the records saved so far, symbolized at the commit;
 * one set for the process, so that a restricted kallsyms is told once
 * however many files a recording rotates through.
 */
static struct lkst_ksym_set *saved_ksyms;

void lkbuf_collect_ksyms(const struct lkst_record *recs, size_t n)
{
	struct lkst_err err;

	if (!saved_ksyms && !(saved_ksyms = lkst_ksym_set_new(&err)))
		lkst_die(LKST_EXIT_DEVICE, "%s", err.msg);
	if (lkst_ksym_set_add_records(saved_ksyms, recs, n))
		lkst_die(LKST_EXIT_DEVICE, "out of memory collecting kernel addresses; free some memory");
}

/* The kernel symbols the saved records need (lkst_ksym.h), into w. */
void lkbuf_save_ksyms(struct lkst_log_writer *w)
{
	struct lkst_err err;

	if (!saved_ksyms)
		return;
	/* The records matter more: they are saved all the same. */
	if (lkst_ksym_save(w, saved_ksyms, "/proc/kallsyms", &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without kernel symbols\n",
			err.msg);
}

/*
 * /proc/kallsyms for lkbuf record, which sizes a file by the symbols it
 * will hold and then writes those same symbols; NULL when it gives none
 * (a restricted one is told of once, like lkbuf_save_ksyms()).
 */
struct lkst_ksym_kallsyms *lkbuf_read_kallsyms(void)
{
	static int told_restricted;
	struct lkst_ksym_kallsyms *ks;
	struct lkst_err err;
	FILE *in = fopen("/proc/kallsyms", "r");

	if (!in) {
		fprintf(stderr, "lkbuf: cannot open /proc/kallsyms: %s; the stacks cannot be symbolized; the log is saved without kernel symbols\n",
			strerror(errno));
		return NULL;
	}
	ks = lkst_ksym_kallsyms_read(in, &err);
	fclose(in);
	if (!ks) {
		fprintf(stderr, "lkbuf: %s; the log is saved without kernel symbols\n", err.msg);
		return NULL;
	}
	if (lkst_ksym_kallsyms_restricted(ks)) {
		if (!told_restricted)
			lkst_msg(LKST_MSG_WARNING, 0,
				 "/proc/kallsyms shows no addresses (kptr_restrict); the log's kernel stacks are saved without symbols");
		told_restricted = 1;
		lkst_ksym_kallsyms_free(ks);
		return NULL;
	}
	return ks;
}

/* The symbols of s's addresses in ks, into w (s keeps them, sorted). */
void lkbuf_save_ksyms_of(struct lkst_log_writer *w, const struct lkst_ksym_kallsyms *ks,
			 struct lkst_ksym_set *s)
{
	struct lkst_err err;
	void *blob;
	size_t len;

	if (!ks || !lkst_ksym_set_nr(s))
		return;
	/* The records matter more: they are saved all the same. */
	if (lkst_ksym_build(ks, s, &blob, &len, &err) ||
	    (blob && lkst_log_add_meta(w, LKST_META_SYMBOLS, blob, len, &err)))
		fprintf(stderr, "lkbuf: %s; the log is saved without kernel symbols\n",
			err.msg);
	free(blob);
}

void lkbuf_commit_log(struct lkst_log_writer *w)
{
	struct lkst_err err;

	unfinished_log = NULL;	/* a failed commit removes the file itself */
	if (lkst_log_commit(w, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

/*
 * prev: the previous boot's trace, whose clock and anchor the header takes
 * (its trace clock started at that boot); NULL for this boot's.
 */
void lkbuf_init_log_header(int fd, const struct lkst_version *version,
			   const struct lkst_previous_info *prev,
			   unsigned int nr_cpus, struct lkst_log_header *h)
{
	struct lkst_clock_anchor anchor;
	struct utsname uts;
	int ret;

	memset(&anchor, 0, sizeof(anchor));
	if (prev) {
		anchor.trace_ns = prev->anchor_trace_ns;
		anchor.realtime_ns = prev->anchor_realtime_ns;
	} else {
		ret = lkst_dev_ioctl(fd, LKST_IOC_CLOCK_ANCHOR, &anchor);
		if (ret)
			lkst_die_errno(-ret, "reading the clock anchor");
	}
	lkst_log_header_init(h);
	h->nr_cpus = nr_cpus;
	h->clock = prev ? prev->clock : version->clock;
	h->abi_version = version->abi_version;
	h->nr_event_ids = version->nr_event_ids;
	h->anchor_trace_ns = anchor.trace_ns;
	h->anchor_realtime_ns = anchor.realtime_ns;
	if (uname(&uts) == 0) {
		snprintf(h->nodename, sizeof(h->nodename), "%s", uts.nodename);
		snprintf(h->release, sizeof(h->release), "%s", uts.release);
	}
}
