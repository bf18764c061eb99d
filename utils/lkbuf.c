// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf: manage lkst's per-CPU buffer blocks, save them to a log file and
 * print log files.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lkbuf_mark.h"
#include "lkbuf_print.h"
#include "lkst_symbols.h"
#include "lkst_drain.h"
#include "lkbuf_convert.h"
#include "lkst_export.h"
#include "lkst_format.h"
#include "lkst_logio.h"
#include "lkst_cli.h"
#include "lkst_vmcore.h"

#define CPU_OPTION_MAX	65535u

/* Exits with the message for an errno of a block request. */
static void __attribute__((noreturn))
die_block(int err, unsigned int cpu, unsigned int block, const char *what)
{
	char context[96];

	switch (err) {
	case ENOENT:
		lkst_die(LKST_EXIT_DEVICE, "block %u does not exist on cpu %u; see lkbuf list",
			 block, cpu);
	case EBUSY:
		lkst_die(LKST_EXIT_DEVICE, "block %u on cpu %u is being written; jump to another block first (lkbuf jump)",
			 block, cpu);
	case EPERM:
		lkst_die(LKST_EXIT_DEVICE, "block %u on cpu %u is the persistent buffer (lkst.persist=), kept for the next boot: it cannot be %s",
			 block, cpu, strcmp(what, "deleting") ? "changed" : "deleted");
	case ENOSPC:
		lkst_die(LKST_EXIT_DEVICE, "cpu %u has no free block ID (at most %u); delete a block first",
			 cpu, LKST_MAX_BLOCKS);
	case EINVAL:
		lkst_die(LKST_EXIT_DEVICE, "%s block %u on cpu %u: the kernel rejected a value; check lkbuf list and sizes (%u..%u bytes)",
			 what, block, cpu, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE);
	}
	snprintf(context, sizeof(context), "%s block %u on cpu %u", what, block, cpu);
	lkst_die_errno(err, context);
}

static unsigned int cpu_option(const char *value, const char *verb)
{
	lkst_require(value, "-c CPU", verb);
	return lkst_option_u32(value, CPU_OPTION_MAX, "CPU number");
}

static unsigned int block_option(const char *value, const char *verb)
{
	lkst_require(value, "-b ID", verb);
	return lkst_option_u32(value, LKST_MAX_BLOCKS - 1, "block ID");
}

/* "none" means the block wraps onto itself. */
static unsigned int next_option(const char *value)
{
	if (!value || !strcmp(value, "none"))
		return LKST_NO_NEXT;
	return lkst_option_u32(value, LKST_MAX_BLOCKS - 1, "next block ID");
}

static int open_checked_cpu(unsigned int cpu, struct lkst_version *version)
{
	int fd = lkst_dev_open(version);

	if (cpu >= version->nr_cpu_ids)
		lkst_die(LKST_EXIT_USAGE, "cpu %u does not exist; this machine has CPUs 0..%u",
			 cpu, version->nr_cpu_ids - 1);
	return fd;
}

static void cpu_info(int fd, unsigned int cpu, struct lkst_cpu_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	ret = lkst_dev_ioctl(fd, LKST_IOC_CPU_INFO, info);
	if (ret) {
		char what[48];

		snprintf(what, sizeof(what), "reading the state of cpu %u", cpu);
		lkst_die_errno(-ret, what);
	}
}

/* 0, or -ENOENT for an unused block ID; other errors exit. */
static int block_info(int fd, unsigned int cpu, unsigned int block,
		      struct lkst_block_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->cpu = cpu;
	info->block = block;
	ret = lkst_dev_ioctl(fd, LKST_IOC_BLOCK_INFO, info);
	if (ret && ret != -ENOENT)
		die_block(-ret, cpu, block, "reading");
	return ret;
}

/* ---- list ----------------------------------------------------------- */

static void list_cpu(int fd, unsigned int cpu)
{
	struct lkst_block_info block;
	struct lkst_cpu_info info;
	unsigned int id;

	cpu_info(fd, cpu, &info);
	if (!info.nr_blocks)
		return;
	printf("cpu %u (%s, %s): %u blocks; written %llu, overwritten %llu, dropped %llu\n",
	       cpu, info.online ? "online" : "offline",
	       info.mode == LKST_MODE_STOP ? "stop" : "overwrite", info.nr_blocks,
	       (unsigned long long)info.written,
	       (unsigned long long)info.overwritten,
	       (unsigned long long)info.dropped);
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (block_info(fd, cpu, id, &block))
			continue;
		printf("  block %u: size %u, %u pages, next ", id, block.size,
		       block.nr_pages);
		if (block.next == LKST_NO_NEXT)
			printf("wrap");
		else
			printf("%u", block.next);
		if (id == info.current_block)
			printf(" [current: %llu of %u bytes used]",
			       (unsigned long long)info.current_offset, block.size);
		putchar('\n');
	}
}

static int verb_list(int argc, const char **argv)
{
	struct poptOption options[] = { LKST_POPT_TAIL };
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_version version;
	unsigned int cpu;
	int fd;

	lkst_no_positional(ctx);
	fd = lkst_dev_open(&version);
	for (cpu = 0; cpu < version.nr_cpu_ids; cpu++)
		list_cpu(fd, cpu);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- read ----------------------------------------------------------- */

/* Room for one CPU's records and their sequence numbers. */
struct drain_buf {
	struct lkst_record *records;
	__u64 *seqs;
	size_t cap;
};

static void drain_buf_grow(struct drain_buf *b, size_t cap, unsigned int cpu)
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

static void drain_buf_free(struct drain_buf *b)
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
static void drain_cpu(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
		      unsigned int flags, struct drain_buf *b,
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Tries before a gap that may be a record in flight counts as lost. */
#define STALL_RETRIES	50

/*
 * Drains until no gap can still be a record being written (a writer holds
 * a slot for well under a millisecond), then once more counting such gaps
 * as lost.
 */
static void drain_cpu_settled(int fd, unsigned long cmd, unsigned int cpu, __u64 cursor,
			      unsigned int flags, struct drain_buf *b,
			      struct lkst_buffer_drain *req, struct lkst_drain_result *res)
{
	int tries;

	for (tries = 0; tries < STALL_RETRIES; tries++) {
		drain_cpu(fd, cmd, cpu, cursor, flags, b, req, res);
		if (!res->stalled)
			return;
		sleep_ms(1);
	}
	drain_cpu(fd, cmd, cpu, cursor, flags | LKST_DRAIN_FINAL, b, req, res);
}

#define RECORD_SOURCE "the running kernel's buffers (lkbuf record)"

/* The log being written, removed if lkbuf exits before committing it. */
static struct lkst_log_writer *unfinished_log;

static void abort_unfinished_log(void)
{
	if (unfinished_log)
		lkst_log_abort(unfinished_log);
}

/* source: where the records come from, kept in the log (LKST_META_SOURCE). */
static void create_log(struct lkst_log_writer *w, const char *path,
		       const struct lkst_log_header *h, const char *source)
{
	struct lkst_err err;

	if (lkst_log_create(w, path, h, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	unfinished_log = w;
	if (lkst_log_add_meta(w, LKST_META_SOURCE, source, strlen(source) + 1, &err))
		lkst_die(LKST_EXIT_DEVICE, "%s", err.msg);
}

/* KSYM arguments of the records saved so far, symbolized at the commit. */
static struct lkst_ksym_set saved_ksyms;

static void collect_ksyms(const struct lkst_record *recs, size_t n)
{
	if (lkst_ksym_set_add_records(&saved_ksyms, recs, n))
		lkst_die(LKST_EXIT_DEVICE, "out of memory collecting kernel addresses; free some memory");
}

/* The kernel symbols the saved records need (lkst_symbols.h), into w. */
static void save_ksyms(struct lkst_log_writer *w)
{
	struct lkst_err err;

	/* The records matter more: they are saved all the same. */
	if (lkst_symbols_save(w, &saved_ksyms, "/proc/kallsyms", &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without kernel symbols\n",
			err.msg);
	lkst_ksym_set_free(&saved_ksyms);
}

static void commit_log(struct lkst_log_writer *w)
{
	struct lkst_err err;

	unfinished_log = NULL;	/* a failed commit removes the file itself */
	if (lkst_log_commit(w, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

struct save_totals {
	unsigned long long records, overwritten, dropped, lost;
	unsigned int cpus;
};

/* cmd and flags: see drain_cpu(). */
static void save_cpu(int fd, unsigned long cmd, unsigned int cpu, unsigned int flags,
		     struct lkst_log_writer *w, struct save_totals *totals)
{
	struct lkst_buffer_drain req;
	struct lkst_drain_result res;
	struct lkst_log_cpu section;
	struct drain_buf b = { NULL, NULL, 0 };
	struct lkst_err err;

	drain_cpu_settled(fd, cmd, cpu, 0, flags, &b, &req, &res);
	memset(&section, 0, sizeof(section));
	section.cpu = cpu;
	section.nr_records = res.nr;
	/* Counters read after the records also count what was lost meanwhile. */
	section.written = req.written;
	section.overwritten = req.overwritten;
	section.dropped = req.dropped;
	section.seq_start = res.seq_start;
	section.seq_end = res.seq_end;
	section.lost = res.lost;
	if (lkst_log_write_cpu_seqs(w, &section, b.records, b.seqs, &err)) {
		lkst_log_abort(w);
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
	if (cmd == LKST_IOC_BUFFER_DRAIN)
		collect_ksyms(b.records, res.nr);
	drain_buf_free(&b);
	totals->records += res.nr;
	totals->overwritten += req.overwritten;
	totals->dropped += req.dropped;
	totals->lost += res.lost;
	totals->cpus++;
}

/*
 * prev: the previous boot's trace, whose clock and anchor the header takes
 * (its trace clock started at that boot); NULL for this boot's.
 */
static void init_log_header(int fd, const struct lkst_version *version,
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

/* The live buffers of every CPU that has blocks, or of cpu_arg only. */
static void read_current(const char *file, const char *cpu_arg)
{
	struct save_totals totals = { 0, 0, 0, 0, 0 };
	struct lkst_version version;
	struct lkst_log_header header;
	struct lkst_log_writer writer;
	struct lkst_cpu_info info;
	unsigned int cpu, first = 0, last, nr_cpus = 0;
	unsigned char *wanted;
	int fd;

	if (cpu_arg) {
		first = cpu_option(cpu_arg, "read");
		fd = open_checked_cpu(first, &version);
		last = first;
	} else {
		fd = lkst_dev_open(&version);
		last = version.nr_cpu_ids ? version.nr_cpu_ids - 1 : 0;
	}
	/* Choose the CPUs first: the header's nr_cpus precedes the sections. */
	wanted = calloc(last + 1, 1);
	if (!wanted)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (cpu = first; cpu <= last && version.nr_cpu_ids; cpu++) {
		cpu_info(fd, cpu, &info);
		wanted[cpu] = info.nr_blocks || cpu_arg;
		nr_cpus += wanted[cpu];
	}
	init_log_header(fd, &version, NULL, nr_cpus, &header);
	create_log(&writer, file, &header, "the running kernel's buffers (lkbuf read)");
	for (cpu = first; cpu <= last; cpu++)
		if (wanted[cpu])
			save_cpu(fd, LKST_IOC_BUFFER_DRAIN, cpu, LKST_DRAIN_FROM_OLDEST,
				 &writer, &totals);
	save_ksyms(&writer);
	commit_log(&writer);
	fprintf(stderr, "lkbuf: saved %llu records of %u CPUs to %s; %llu overwritten, %llu dropped since boot\n",
		totals.records, totals.cpus, file, totals.overwritten, totals.dropped);
	if (totals.lost)
		fprintf(stderr, "lkbuf: %llu records between the oldest and the newest saved were overwritten\n",
			totals.lost);
	free(wanted);
	close(fd);
}

/*
 * The previous boot's trace (lkst.persist=), every CPU it had, drained as
 * the live buffers are; released (release) only once the log is
 * committed, so a failed save loses nothing.
 */
static void read_previous(const char *file, int release)
{
	struct save_totals totals = { 0, 0, 0, 0, 0 };
	struct lkst_previous_info prev;
	struct lkst_version version;
	struct lkst_log_header header;
	struct lkst_log_writer writer;
	unsigned int cpu;
	int fd, ret;

	fd = lkst_dev_open(&version);
	memset(&prev, 0, sizeof(prev));
	ret = lkst_dev_ioctl(fd, LKST_IOC_PREVIOUS_INFO, &prev);
	if (ret == -ENOENT)
		lkst_die(LKST_EXIT_DEVICE, "no previous boot's trace is kept (boot with reserve_mem=SIZE:ALIGN:NAME lkst.persist=NAME; see dmesg for why)");
	if (ret)
		lkst_die_errno(-ret, "reading the previous boot's trace");
	init_log_header(fd, &version, &prev, prev.nr_cpus, &header);
	create_log(&writer, file, &header,
		   "the previous boot's persistent buffers (lkbuf read --previous-boot)");
	/* Nothing is in flight in a stopped boot's trace: no waiting for it. */
	for (cpu = 0; cpu < prev.nr_cpus; cpu++)
		save_cpu(fd, LKST_IOC_PREVIOUS_DRAIN, cpu,
			 LKST_DRAIN_FROM_OLDEST | LKST_DRAIN_FINAL, &writer, &totals);
	commit_log(&writer);
	fprintf(stderr, "lkbuf: saved %llu records of the previous boot's %u CPUs to %s; %llu overwritten, %llu dropped in that boot\n",
		totals.records, totals.cpus, file, totals.overwritten, totals.dropped);
	if (totals.lost)
		fprintf(stderr, "lkbuf: %llu records between the oldest and the newest saved are missing (overwritten, or on pages refused at boot)\n",
			totals.lost);
	if (prev.refused_pages)
		fprintf(stderr, "lkbuf: %u %s failed validation at boot and %s left out\n",
			prev.refused_pages, prev.refused_pages == 1 ? "page" : "pages",
			prev.refused_pages == 1 ? "was" : "were");
	if (!(prev.flags & LKST_PREVIOUS_COUNTS_SAVED))
		fprintf(stderr, "lkbuf: the previous boot did not panic, so its counts of dropped events were not saved: dropped is 0\n");
	if (release) {
		ret = lkst_dev_ioctl(fd, LKST_IOC_PREVIOUS_RELEASE, NULL);
		if (ret == -ENOENT)
			fprintf(stderr, "lkbuf: the previous boot's trace was already released by someone else\n");
		else if (ret)
			lkst_die_errno(-ret, "releasing the previous boot's trace (the log is saved)");
		else
			fprintf(stderr, "lkbuf: released the previous boot's trace\n");
	}
	close(fd);
}

static int verb_read(int argc, const char **argv)
{
	char *file = NULL, *cpu_arg = NULL;
	int previous = 0, release = 0;
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to write", "FILE" },
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "save only this CPU", "CPU" },
		{ "previous-boot", '\0', POPT_ARG_NONE, &previous, 0,
		  "save the previous boot's trace, kept across a warm reboot "
		  "(lkst.persist=), instead of the live buffers", NULL },
		{ "release", '\0', POPT_ARG_NONE, &release, 0,
		  "with --previous-boot: free the kept trace once the log is saved", NULL },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "read");
	if (previous && cpu_arg)
		lkst_die(LKST_EXIT_USAGE, "read --previous-boot saves every CPU the previous boot had; leave out -c");
	if (release && !previous)
		lkst_die(LKST_EXIT_USAGE, "--release frees the previous boot's trace; give it with --previous-boot");
	if (previous)
		read_previous(file, release);
	else
		read_current(file, cpu_arg);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- extract --------------------------------------------------------- */

static void __attribute__((noreturn)) die_vmcore(int ret, const struct lkst_err *err)
{
	lkst_die(ret == LKST_VMCORE_NOMEM ? LKST_EXIT_DEVICE : LKST_EXIT_USAGE, "%s", err->msg);
}

/* The log replaces FILE by a rename: never let it be the dump itself. */
static void refuse_same_file(const char *file, const char *vmcore)
{
	struct stat a, b;

	if (!stat(file, &a) && !stat(vmcore, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		lkst_die(LKST_EXIT_USAGE, "-f %s is the vmcore itself; give another file for the log",
			 file);
}

/* The buffers of every CPU that has blocks, in CPU order; returns how many. */
static unsigned int extract_cpus(const struct lkst_vmcore *vc, struct lkst_vmcore_cpu *cpus)
{
	struct lkst_err err;
	unsigned int cpu, n = 0;
	int ret;

	for (cpu = 0; cpu < vc->nr_cpu_ids; cpu++) {
		ret = lkst_vmcore_read_cpu(vc, cpu, &cpus[n], &err);
		if (ret)
			die_vmcore(ret, &err);
		if (cpus[n].nr_blocks)
			n++;
	}
	return n;
}

/*
 * The anchor is the one the kernel saved at panic (or at boot); without
 * it (0), print shows times since boot.
 */
static void vmcore_log_header(const struct lkst_vmcore *vc, unsigned int nr_cpus,
			      struct lkst_log_header *h)
{
	lkst_log_header_init(h);
	h->nr_cpus = nr_cpus;
	h->clock = LKST_CLOCK_MONOTONIC;
	h->anchor_trace_ns = vc->anchor_trace_ns;
	h->anchor_realtime_ns = vc->anchor_realtime_ns;
	snprintf(h->nodename, sizeof(h->nodename), "%s", vc->nodename);
	snprintf(h->release, sizeof(h->release), "%s", vc->release);
}

static void report_extract(const char *file, const struct lkst_vmcore *vc,
			   const struct lkst_vmcore_cpu *cpus, unsigned int n)
{
	unsigned long long records = 0, overwritten = 0, dropped = 0, lost = 0;
	unsigned long long missing = 0, emptying = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		records += cpus[i].info.nr_records;
		overwritten += cpus[i].info.overwritten;
		dropped += cpus[i].info.dropped;
		lost += cpus[i].info.lost;
		missing += cpus[i].missing_pages;
		emptying += cpus[i].emptying_pages;
	}
	fprintf(stderr, "lkbuf: extracted %llu records of %u CPUs to %s; %llu overwritten, %llu dropped since boot\n",
		records, n, file, overwritten, dropped);
	if (lost)
		fprintf(stderr, "lkbuf: %llu records between the oldest and the newest saved were overwritten or are missing from the dump\n",
			lost);
	if (missing)
		fprintf(stderr, "lkbuf: %llu buffer pages are not in the vmcore (filtered out of the dump) and were read as unused\n",
			missing);
	if (emptying)
		fprintf(stderr, "lkbuf: %llu pages were being emptied by a writer when the machine stopped; their records are left out\n",
			emptying);
	if (vc->cut_bytes)
		fprintf(stderr, "lkbuf: the vmcore is cut short: %llu bytes of memory are missing from it\n",
			(unsigned long long)vc->cut_bytes);
	if (!vc->anchor_realtime_ns)
		fprintf(stderr, "lkbuf: the crashed kernel's clock cannot be anchored: times are since its boot\n");
}

static void extract_vmcore(const char *vmcore, const char *vmlinux, const char *file)
{
	char source[PATH_MAX + 64];
	struct lkst_log_header header;
	struct lkst_log_writer writer;
	struct lkst_vmcore_cpu *cpus;
	struct lkst_vmcore vc;
	struct lkst_err err;
	unsigned int n, i;
	int ret;

	refuse_same_file(file, vmcore);
	ret = lkst_vmcore_open(&vc, vmcore, vmlinux, &err);
	if (ret)
		die_vmcore(ret, &err);
	cpus = calloc(vc.nr_cpu_ids, sizeof(*cpus));
	if (!cpus)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	n = extract_cpus(&vc, cpus);
	vmcore_log_header(&vc, n, &header);
	snprintf(source, sizeof(source), "a kdump vmcore, %s (lkbuf extract)", vmcore);
	create_log(&writer, file, &header, source);
	for (i = 0; i < n; i++)
		if (lkst_log_write_cpu_seqs(&writer, &cpus[i].info, cpus[i].records,
					    cpus[i].seqs, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	commit_log(&writer);
	report_extract(file, &vc, cpus, n);
	for (i = 0; i < n; i++)
		lkst_vmcore_cpu_free(&cpus[i]);
	free(cpus);
	lkst_vmcore_close(&vc);
}

static int verb_extract(int argc, const char **argv)
{
	char *file = NULL, *vmcore = NULL, *vmlinux = NULL;
	struct poptOption options[] = {
		{ "vmcore", '\0', POPT_ARG_STRING, &vmcore, 0,
		  "kdump dump of the crashed x86_64 kernel (its /proc/vmcore)", "VMCORE" },
		{ "vmlinux", '\0', POPT_ARG_STRING, &vmlinux, 0,
		  "that kernel's vmlinux, with its symbol table", "VMLINUX" },
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to write", "FILE" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);

	lkst_no_positional(ctx);
	lkst_require(vmcore, "--vmcore VMCORE", "extract");
	lkst_require(vmlinux, "--vmlinux VMLINUX", "extract");
	lkst_require(file, "-f FILE", "extract");
	extract_vmcore(vmcore, vmlinux, file);
	free(file);
	free(vmcore);
	free(vmlinux);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- info -------------------------------------------------------- */

/* A header string field, which need not end in a NUL in a hostile file. */
static void print_field(const char *label, const char *field, size_t size)
{
	printf("%-9s %.*s\n", label, (int)strnlen(field, size), field);
}

/*
 * What a log holds without printing its records: where and when it was
 * taken (host, kernel, clock and its anchor to the time of day) and each
 * CPU's accounting.
 */
static int verb_info(int argc, const char **argv)
{
	char *file = NULL;
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to describe", "FILE" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	unsigned long long records = 0, lost = 0;
	const struct lkst_log_header *h;
	struct lkst_log log;
	struct lkst_err err;
	unsigned int dynamic = 0;
	char when[64] = "?";
	struct tm tm;
	time_t secs;
	unsigned int s;

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "info");
	if (lkst_log_load(file, &log, &err) || lkst_log_use_events(&log, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	h = &log.header;
	secs = (time_t)(h->anchor_realtime_ns / 1000000000ULL);
	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%-9s %s\n", "file", file);
	printf("%-9s version %u, %u-byte records\n", "format", h->version, h->record_size);
	print_field("layout", h->layout, sizeof(h->layout));
	print_field("host", h->nodename, sizeof(h->nodename));
	print_field("kernel", h->release, sizeof(h->release));
	printf("%-9s lkst ABI %u, %u event IDs\n", "tracer", h->abi_version, h->nr_event_ids);
	printf("%-9s %s\n", "source", lkst_log_source(&log) ? lkst_log_source(&log) :
	       h->version >= 3 ? "not said" : "not said (log format before version 3)");
	for (s = 0; s < lkst_nr_events; s++)
		dynamic += lkst_events[s].id >= LKST_EV_PROBE_FIRST;
	printf("%-9s %u, %s", "events", lkst_nr_events,
	       h->version >= 3 ? "the log's own table" :
	       "this lkbuf's built-in table (the log has none)");
	if (dynamic)
		printf(", %u of them dynamic probes", dynamic);
	printf("\n");
	printf("%-9s %s\n", "clock",
	       h->clock == LKST_CLOCK_MONOTONIC ? "CLOCK_MONOTONIC" : "unknown");
	printf("%-9s trace time %llu.%09llu was %s.%09llu UTC\n", "anchor",
	       (unsigned long long)(h->anchor_trace_ns / 1000000000ULL),
	       (unsigned long long)(h->anchor_trace_ns % 1000000000ULL), when,
	       (unsigned long long)(h->anchor_realtime_ns % 1000000000ULL));
	for (s = 0; s < log.nr_sections; s++) {
		const struct lkst_log_cpu *c = &log.sections[s].info;

		records += c->nr_records;
		printf("cpu %-5u %llu records", c->cpu, (unsigned long long)c->nr_records);
		if (log.sections[s].seqs && c->seq_end > c->seq_start)
			printf(", numbers %llu..%llu",
			       (unsigned long long)c->seq_start,
			       (unsigned long long)c->seq_end - 1);
		if (log.sections[s].seqs) {
			lost += c->lost;
			printf(", %llu lost", (unsigned long long)c->lost);
		}
		printf("; %s: written %llu, overwritten %llu, dropped %llu\n",
		       log.sections[s].seqs ? "since boot" : "kernel counters",
		       (unsigned long long)c->written,
		       (unsigned long long)c->overwritten,
		       (unsigned long long)c->dropped);
	}
	printf("%-9s %llu records of %u CPUs", "total", records, log.nr_sections);
	if (h->version >= 2)
		printf(", %llu lost", lost);
	printf("\n");
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the description: %s; check the output",
			 strerror(errno));
	free(file);
	lkst_log_free(&log);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- create, link, delete, jump, mode, resize ----------------------- */

static unsigned int mode_value(const char *value)
{
	if (!strcmp(value, "overwrite"))
		return LKST_MODE_OVERWRITE;
	if (!strcmp(value, "stop"))
		return LKST_MODE_STOP;
	lkst_die(LKST_EXIT_USAGE, "unknown buffer mode '%s'; give overwrite or stop", value);
}

/* cpu may be LKST_ALL_CPUS. */
static void set_mode(int fd, unsigned int cpu, unsigned int mode)
{
	struct lkst_buffer_mode req = { cpu, mode };
	char what[48];
	int ret;

	ret = lkst_dev_ioctl(fd, LKST_IOC_BUFFER_MODE, &req);
	if (ret) {
		if (cpu == LKST_ALL_CPUS)
			snprintf(what, sizeof(what), "setting the mode of all CPUs");
		else
			snprintf(what, sizeof(what), "setting the mode of cpu %u", cpu);
		lkst_die_errno(-ret, what);
	}
}

static unsigned int size_option(const char *value, const char *verb)
{
	uint64_t size;

	lkst_require(value, "-s SIZE", verb);
	if (lkst_parse_size(value, &size) || size < LKST_BLOCK_MIN_SIZE ||
	    size > LKST_BLOCK_MAX_SIZE)
		lkst_die(LKST_EXIT_USAGE, "bad block size '%s'; give %u..%u bytes, K and M suffixes allowed",
			 value, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE);
	return size;
}

static int verb_create(int argc, const char **argv)
{
	char *cpu_arg = NULL, *size_arg = NULL, *next_arg = NULL, *mode_arg = NULL;
	struct poptOption options[] = {
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "CPU of the block", "CPU" },
		{ "size", 's', POPT_ARG_STRING, &size_arg, 0, "bytes (K/M suffix)", "SIZE" },
		{ "next", '\0', POPT_ARG_STRING, &next_arg, 0,
		  "block written after this one (default none: wrap onto itself)", "NEXT" },
		{ "mode", 'm', POPT_ARG_STRING, &mode_arg, 0,
		  "also set the CPU's buffer mode: overwrite or stop", "MODE" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_block_create req;
	struct lkst_version version;
	unsigned int mode;
	int fd, ret;

	lkst_no_positional(ctx);
	memset(&req, 0, sizeof(req));
	req.cpu = cpu_option(cpu_arg, "create");
	req.size = size_option(size_arg, "create");
	req.next = next_option(next_arg);
	mode = mode_arg ? mode_value(mode_arg) : 0;
	fd = open_checked_cpu(req.cpu, &version);
	ret = lkst_dev_ioctl(fd, LKST_IOC_BLOCK_CREATE, &req);
	if (ret == -EINVAL)
		lkst_die(LKST_EXIT_DEVICE, "creating a %u-byte block on cpu %u: the kernel rejected the size or next block; see lkbuf list",
			 req.size, req.cpu);
	if (ret)
		die_block(-ret, req.cpu, req.next, "creating");
	if (mode_arg)
		set_mode(fd, req.cpu, mode);
	printf("%u\n", req.block);	/* the new ID, for scripts */
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* link, delete and jump take a struct lkst_block_link. */
static int block_link_verb(int argc, const char **argv, const char *verb,
			   unsigned long cmd, const char *what, int wants_next)
{
	char *cpu_arg = NULL, *block_arg = NULL, *next_arg = NULL;
	struct poptOption options[] = {
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "CPU of the block", "CPU" },
		{ "block", 'b', POPT_ARG_STRING, &block_arg, 0, "block ID", "ID" },
		{ "next", '\0', POPT_ARG_STRING, &next_arg, 0,
		  "next block, or none to wrap onto itself", "NEXT" },
		LKST_POPT_TAIL
	};
	poptContext ctx;
	struct lkst_block_link req;
	struct lkst_version version;
	int fd, ret;

	/* Verbs without -n: drop it by shifting the table tail over it. */
	if (!wants_next)
		memmove(&options[2], &options[3], 3 * sizeof(options[0]));
	ctx = lkst_parse_options(argc, argv, options, NULL);
	lkst_no_positional(ctx);
	memset(&req, 0, sizeof(req));
	req.cpu = cpu_option(cpu_arg, verb);
	req.block = block_option(block_arg, verb);
	if (wants_next) {
		lkst_require(next_arg, "--next NEXT", verb);
		req.next = next_option(next_arg);
	}
	fd = open_checked_cpu(req.cpu, &version);
	ret = lkst_dev_ioctl(fd, cmd, &req);
	if (ret)
		die_block(-ret, req.cpu, req.block, what);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_link(int argc, const char **argv)
{
	return block_link_verb(argc, argv, "link", LKST_IOC_BLOCK_LINK, "linking", 1);
}

static int verb_delete(int argc, const char **argv)
{
	return block_link_verb(argc, argv, "delete", LKST_IOC_BLOCK_DELETE, "deleting", 0);
}

static int verb_jump(int argc, const char **argv)
{
	return block_link_verb(argc, argv, "jump", LKST_IOC_BLOCK_JUMP, "jumping to", 0);
}

static int verb_mode(int argc, const char **argv)
{
	char *cpu_arg = NULL;
	int all = 0;
	struct poptOption options[] = {
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "this CPU's buffer", "CPU" },
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "every CPU's buffer", NULL },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, "overwrite|stop");
	struct lkst_version version;
	const char **args = poptGetArgs(ctx);
	unsigned int cpu = LKST_ALL_CPUS, mode;
	int fd;

	if (!args || !args[0] || args[1])
		lkst_die(LKST_EXIT_USAGE, "mode: give one mode, overwrite or stop (see lkbuf mode --help)");
	mode = mode_value(args[0]);
	if (!!cpu_arg == !!all)
		lkst_die(LKST_EXIT_USAGE, "mode: give either -c CPU or -a (all CPUs)");
	if (cpu_arg) {
		cpu = cpu_option(cpu_arg, "mode");
		fd = open_checked_cpu(cpu, &version);
	} else {
		fd = lkst_dev_open(&version);
	}
	set_mode(fd, cpu, mode);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_resize(int argc, const char **argv)
{
	char *size_arg = NULL;
	struct poptOption options[] = {
		{ "size", 's', POPT_ARG_STRING, &size_arg, 0,
		  "new size of every block of every CPU, bytes (K/M suffix)", "SIZE" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_buffer_resize req;
	struct lkst_version version;
	int fd, ret;

	lkst_no_positional(ctx);
	memset(&req, 0, sizeof(req));
	req.size = size_option(size_arg, "resize");
	fd = lkst_dev_open(&version);
	ret = lkst_dev_ioctl(fd, LKST_IOC_BUFFER_RESIZE, &req);
	if (ret == -ENOMEM)
		lkst_die(LKST_EXIT_DEVICE, "not enough kernel memory for %u-byte blocks; nothing was changed; give a smaller size",
			 req.size);
	if (ret == -EPERM)
		lkst_die(LKST_EXIT_DEVICE, "the buffers are persistent (lkst.persist=): their size is the reserve_mem region's, which the next boot finds them by; nothing was changed");
	if (ret)
		lkst_die_errno(-ret, "resizing the buffers");
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- record --------------------------------------------------------- */

#define RECORD_NAME_FMT		"%s/lkst-%06u.log"
#define RECORD_SLOT_BYTES	(sizeof(struct lkst_record) + sizeof(__u64))

static volatile sig_atomic_t record_stop;

static void record_on_signal(int sig)
{
	(void)sig;
	record_stop = 1;
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
	__u64 first_seq, saved, lost, dropped_start, dropped_now, written, overwritten;
};

struct recorder {
	int fd;
	const char *dir;
	struct lkst_version version;
	struct record_cpu *cpus;
	unsigned int nr_cpus;
	size_t per_file;	/* records that fit a file of the rotate size */
	unsigned int files, keep, kept;
	struct drain_buf buf;
};

static size_t record_pending(const struct recorder *r)
{
	size_t total = 0;
	unsigned int i;

	for (i = 0; i < r->nr_cpus; i++)
		total += r->cpus[i].n - r->cpus[i].head;
	return total;
}

static void record_append(struct record_cpu *c, const struct drain_buf *b, size_t n)
{
	size_t need = c->n - c->head + n;

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

		drain_cpu(r->fd, LKST_IOC_BUFFER_DRAIN, c->cpu, c->cursor,
			  flags | (c->started ? 0 : LKST_DRAIN_FROM_LAST_GAP), &r->buf, &req, &res);
		if (!c->started) {
			c->started = 1;
			c->file_start = res.seq_start;
			c->first_seq = res.seq_start;
			c->dropped_start = req.dropped;
		}
		record_append(c, &r->buf, res.nr);
		c->cursor = res.seq_end;
		c->lost += res.lost;
		c->dropped_now = req.dropped;
		c->written = req.written;
		c->overwritten = req.overwritten;
		stalled += res.stalled;
	}
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
 * Writes the next file with up to per_file pending records, taken from the
 * CPUs in time order, so that every file covers about the same span.
 */
static void record_write_file(struct recorder *r)
{
	struct lkst_log_header header;
	struct lkst_log_writer w;
	struct lkst_log_cpu section;
	struct lkst_err err;
	size_t *take, total = 0;
	char path[4096];
	unsigned int i, best;

	take = calloc(r->nr_cpus, sizeof(*take));
	if (!take)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	while (total < r->per_file) {
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
		take[best]++;
		total++;
	}
	r->files++;
	snprintf(path, sizeof(path), RECORD_NAME_FMT, r->dir, r->files);
	init_log_header(r->fd, &r->version, NULL, r->nr_cpus, &header);
	create_log(&w, path, &header, RECORD_SOURCE);
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
		if (lkst_log_write_cpu_seqs(&w, &section, c->records + c->head,
					    c->seqs + c->head, &err)) {
			lkst_log_abort(&w);
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
		}
		collect_ksyms(c->records + c->head, take[i]);
		c->saved += take[i];
		c->head = at;
		c->file_start = section.seq_end;
	}
	save_ksyms(&w);
	commit_log(&w);
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

static int verb_record(int argc, const char **argv)
{
	char *dir = NULL, *rotate_arg = NULL, *keep_arg = NULL, *interval_arg = NULL;
	struct poptOption options[] = {
		{ "output", 'o', POPT_ARG_STRING, &dir, 0,
		  "directory for the log files lkst-NNNNNN.log (created if missing)", "DIR" },
		{ "rotate", '\0', POPT_ARG_STRING, &rotate_arg, 0,
		  "start a new file before one grows past SIZE bytes (K/M suffix; default 16M)",
		  "SIZE" },
		{ "keep", 'k', POPT_ARG_STRING, &keep_arg, 0,
		  "keep only the newest N files (default 0: keep all)", "N" },
		{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
		  "drain the buffers every MS milliseconds (default 200)", "MS" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct recorder r;
	struct lkst_cpu_info info;
	struct sigaction sa;
	unsigned long long saved = 0, lost = 0, dropped = 0;
	uint64_t rotate = 16u << 20, fixed;
	unsigned int cpu, interval = 200, tries;

	lkst_no_positional(ctx);
	lkst_require(dir, "-o DIR", "record");
	memset(&r, 0, sizeof(r));
	r.dir = dir;
	if (rotate_arg && (lkst_parse_size(rotate_arg, &rotate) || rotate < 4096 ||
			   rotate > (1ull << 40)))
		lkst_die(LKST_EXIT_USAGE, "bad rotate size '%s'; give 4K..1T bytes, K and M suffixes allowed",
			 rotate_arg);
	if (keep_arg)
		r.keep = lkst_option_u32(keep_arg, 1000000, "number of files to keep");
	if (interval_arg)
		interval = lkst_option_u32(interval_arg, 3600000, "interval in milliseconds");
	if (!interval)
		interval = 1;

	r.fd = lkst_dev_open(&r.version);
	r.cpus = calloc(r.version.nr_cpu_ids ? r.version.nr_cpu_ids : 1, sizeof(*r.cpus));
	if (!r.cpus)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (cpu = 0; cpu < r.version.nr_cpu_ids; cpu++) {
		cpu_info(r.fd, cpu, &info);
		if (info.nr_blocks)
			r.cpus[r.nr_cpus++].cpu = cpu;
	}
	/* Each file carries the event table and where it came from. */
	fixed = sizeof(struct lkst_log_header) + r.nr_cpus * sizeof(struct lkst_log_cpu) +
		lkst_log_event_table_bytes() + lkst_log_meta_bytes(sizeof(RECORD_SOURCE));
	if (rotate < fixed + RECORD_SLOT_BYTES)
		lkst_die(LKST_EXIT_USAGE, "rotate size %llu cannot hold a record of %u CPUs; give at least %llu",
			 (unsigned long long)rotate, r.nr_cpus,
			 (unsigned long long)(fixed + RECORD_SLOT_BYTES));
	r.per_file = (rotate - fixed) / RECORD_SLOT_BYTES;
	record_prepare_dir(dir);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: the sleep ends at once */
	sigaction(SIGTERM, &sa, NULL);

	while (!record_stop) {
		record_drain(&r, 0);
		while (record_pending(&r) >= r.per_file)
			record_write_file(&r);
		if (!record_stop)
			sleep_ms(interval);
	}
	/* Everything committed so far, waiting out records being written. */
	for (tries = 0; record_drain(&r, 0) && tries < STALL_RETRIES; tries++)
		sleep_ms(1);
	record_drain(&r, LKST_DRAIN_FINAL);
	while (record_pending(&r) >= r.per_file)
		record_write_file(&r);
	if (record_pending(&r) || !r.files)
		record_write_file(&r);
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
		free(c->records);
		free(c->seqs);
	}
	fprintf(stderr, "lkbuf: recorded %llu records of %u CPUs in %u files, %u kept in %s; %llu lost in the kernel (overwritten before they were drained), %llu dropped\n",
		saved, r.nr_cpus, r.files, r.kept, dir, lost, dropped);
	drain_buf_free(&r.buf);
	free(r.cpus);
	close(r.fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static const struct lkst_verb verbs[] = {
	{ "list", verb_list, "list each CPU's blocks and counters" },
	{ "read", verb_read, "save the buffers, or the previous boot's trace, to a log file (-f FILE [-c CPU] | --previous-boot -f FILE [--release])" },
	{ "extract", verb_extract, "save the buffers of a crashed kernel from its kdump vmcore to a log file (--vmcore VMCORE --vmlinux VMLINUX -f FILE)" },
	{ "print", lkbuf_verb_print, "print a log file (-f FILE [-r] [-C] [-S] [-V] [-e EVENTS] [-p PIDS] [-n COMMS] [-t START,END] [-c CPUS])" },
	{ "info", verb_info, "describe a log file: host, kernel, clock, per-CPU counts (-f FILE)" },
	{ "record", verb_record, "drain the buffers into rotating log files until SIGINT or SIGTERM (-o DIR [--rotate SIZE] [--keep N] [--interval MS])" },
	{ "create", verb_create, "add a block (-c CPU -s SIZE [--next NEXT] [-m MODE])" },
	{ "link", verb_link, "set a block's next block (-c CPU -b ID --next NEXT|none)" },
	{ "delete", verb_delete, "delete a block (-c CPU -b ID)" },
	{ "jump", verb_jump, "make the writer continue in a block (-c CPU -b ID)" },
	{ "resize", verb_resize, "replace every block of every CPU by an empty one of SIZE bytes (-s SIZE)" },
	{ "mode", verb_mode, "when full, overwrite the oldest records or stop and drop new ones (-c CPU|-a overwrite|stop)" },
	{ "mark", lkbuf_verb_mark, "record a USER_MARK event with TEXT (48 bytes at most)" },
	{ "convert", lkbuf_verb_convert, "convert a log file for other tools: CTF for babeltrace2 and Trace Compass, Chrome trace JSON for Perfetto (-f FILE --to ctf|json -o OUT)" },
	{ NULL, NULL, NULL }
};

int main(int argc, char **argv)
{
	lkst_progname = "lkbuf";
	lkst_log_exit_on_sigbus();
	atexit(abort_unfinished_log);
	return lkst_run_verb(argc, argv, verbs);
}
