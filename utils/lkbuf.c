// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf: manage lkst's per-CPU buffer blocks, save them to a log file and
 * print log files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lkbuf_mark.h"
#include "lkst_format.h"
#include "lkst_logio.h"
#include "lkst_util.h"

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
	printf("cpu %u (%s): %u blocks; written %llu, overwritten %llu, dropped %llu\n",
	       cpu, info.online ? "online" : "offline", info.nr_blocks,
	       (unsigned long long)info.written,
	       (unsigned long long)info.overwritten,
	       (unsigned long long)info.dropped);
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (block_info(fd, cpu, id, &block))
			continue;
		printf("  block %u: size %u, %u slots, next ", id, block.size,
		       block.nr_slots);
		if (block.next == LKST_NO_NEXT)
			printf("wrap");
		else
			printf("%u", block.next);
		if (id == info.current_block)
			printf(" [current: %llu/%u filled]",
			       (unsigned long long)info.current_slot, block.nr_slots);
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

/* All committed records of a CPU's blocks; returns the count. */
static struct lkst_record *read_cpu_records(int fd, unsigned int cpu, __u64 *count)
{
	struct lkst_block_info info[LKST_MAX_BLOCKS];
	struct lkst_record *records;
	struct lkst_block_read req;
	unsigned int id;
	__u64 slots = 0;
	int present[LKST_MAX_BLOCKS], ret;

	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		present[id] = !block_info(fd, cpu, id, &info[id]);
		if (present[id])
			slots += info[id].nr_slots;
	}
	records = calloc(slots ? slots : 1, sizeof(*records));
	if (!records)
		lkst_die(LKST_EXIT_DEVICE, "out of memory for %llu records of cpu %u; free some memory",
			 (unsigned long long)slots, cpu);
	*count = 0;
	for (id = 0; id < LKST_MAX_BLOCKS; id++) {
		if (!present[id])
			continue;
		memset(&req, 0, sizeof(req));
		req.cpu = cpu;
		req.block = id;
		req.records = (__u64)(uintptr_t)(records + *count);
		req.max_records = info[id].nr_slots;
		ret = lkst_dev_ioctl(fd, LKST_IOC_BLOCK_READ, &req);
		if (ret == -ENOENT)	/* deleted meanwhile: nothing to save */
			continue;
		if (ret)
			die_block(-ret, cpu, id, "reading");
		*count += req.nr_records < req.max_records ? req.nr_records : req.max_records;
	}
	return records;
}

struct save_totals {
	unsigned long long records, overwritten, dropped;
	unsigned int cpus;
};

static void save_cpu(int fd, unsigned int cpu, struct lkst_log_writer *w,
		     struct save_totals *totals)
{
	struct lkst_log_cpu section;
	struct lkst_cpu_info info;
	struct lkst_record *records;
	struct lkst_err err;
	__u64 count;

	records = read_cpu_records(fd, cpu, &count);
	/* Counters read after the records also count what was lost meanwhile. */
	cpu_info(fd, cpu, &info);
	memset(&section, 0, sizeof(section));
	section.cpu = cpu;
	section.nr_records = count;
	section.written = info.written;
	section.overwritten = info.overwritten;
	section.dropped = info.dropped;
	if (lkst_log_write_cpu(w, &section, records, &err)) {
		lkst_log_abort(w);
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
	free(records);
	totals->records += count;
	totals->overwritten += info.overwritten;
	totals->dropped += info.dropped;
	totals->cpus++;
}

static void init_log_header(int fd, const struct lkst_version *version,
			    unsigned int nr_cpus, struct lkst_log_header *h)
{
	struct lkst_clock_anchor anchor;
	struct utsname uts;
	int ret;

	memset(&anchor, 0, sizeof(anchor));
	ret = lkst_dev_ioctl(fd, LKST_IOC_CLOCK_ANCHOR, &anchor);
	if (ret)
		lkst_die_errno(-ret, "reading the clock anchor");
	lkst_log_header_init(h);
	h->nr_cpus = nr_cpus;
	h->clock = version->clock;
	h->abi_version = version->abi_version;
	h->nr_event_ids = version->nr_event_ids;
	h->anchor_trace_ns = anchor.trace_ns;
	h->anchor_realtime_ns = anchor.realtime_ns;
	if (uname(&uts) == 0) {
		snprintf(h->nodename, sizeof(h->nodename), "%s", uts.nodename);
		snprintf(h->release, sizeof(h->release), "%s", uts.release);
	}
}

static int verb_read(int argc, const char **argv)
{
	char *file = NULL, *cpu_arg = NULL;
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to write", "FILE" },
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "save only this CPU", "CPU" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct save_totals totals = { 0, 0, 0, 0 };
	struct lkst_version version;
	struct lkst_log_header header;
	struct lkst_log_writer writer;
	struct lkst_cpu_info info;
	struct lkst_err err;
	unsigned int cpu, first = 0, last, nr_cpus = 0;
	unsigned char *wanted;
	int fd;

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "read");
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
	init_log_header(fd, &version, nr_cpus, &header);
	if (lkst_log_create(&writer, file, &header, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	for (cpu = first; cpu <= last; cpu++)
		if (wanted[cpu])
			save_cpu(fd, cpu, &writer, &totals);
	if (lkst_log_commit(&writer, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fprintf(stderr, "lkbuf: saved %llu records of %u CPUs to %s; %llu overwritten, %llu dropped\n",
		totals.records, totals.cpus, file, totals.overwritten, totals.dropped);
	free(wanted);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- print ---------------------------------------------------------- */

/*
 * A CPU section in time order: its records as stored when they already are
 * (the usual case), otherwise an index sorted by time, then position.
 */
struct print_run {
	const struct lkst_record *records;
	__u32 *order;			/* NULL: stored order */
	__u64 count, next;
	unsigned int cpu;
};

struct sort_key {
	__u64 time_ns;
	__u32 index;
};

static int compare_keys(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void init_run(const struct lkst_log_section *sec, struct print_run *run)
{
	struct sort_key *keys;
	__u64 i, n = sec->info.nr_records;

	run->records = sec->records;
	run->order = NULL;
	run->count = n;
	run->next = 0;
	run->cpu = sec->info.cpu;
	for (i = 1; i < n; i++)
		if (sec->records[i].time_ns < sec->records[i - 1].time_ns)
			break;
	if (i >= n)
		return;
	keys = malloc(n * sizeof(*keys));
	run->order = malloc(n * sizeof(*run->order));
	if (!keys || !run->order)
		lkst_die(LKST_EXIT_USAGE, "out of memory for %llu records; free some memory",
			 (unsigned long long)n);
	for (i = 0; i < n; i++) {
		keys[i].time_ns = sec->records[i].time_ns;
		keys[i].index = i;
	}
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (i = 0; i < n; i++)
		run->order[i] = keys[i].index;
	free(keys);
}

static inline const struct lkst_record *run_head(const struct print_run *run)
{
	if (run->next >= run->count)
		return NULL;
	return &run->records[run->order ? run->order[run->next] : run->next];
}

/*
 * The next record of all CPUs in time order; ties by CPU, then by section
 * (position in the file).  NULL at the end.
 */
static const struct lkst_record *next_record(struct print_run *runs, unsigned int nr,
					     unsigned int *cpu)
{
	const struct lkst_record *best = NULL, *r;
	unsigned int s, best_s = 0;

	for (s = 0; s < nr; s++) {
		r = run_head(&runs[s]);
		if (!r)
			continue;
		if (!best || r->time_ns < best->time_ns ||
		    (r->time_ns == best->time_ns && runs[s].cpu < runs[best_s].cpu)) {
			best = r;
			best_s = s;
		}
	}
	if (best) {
		runs[best_s].next++;
		*cpu = runs[best_s].cpu;
	}
	return best;
}

/* Lost events are never silent: report them after the records. */
static void print_losses(const struct lkst_log *log, size_t printed)
{
	unsigned int s;

	fprintf(stderr, "lkbuf: printed %zu records of %u CPUs\n", printed,
		log->nr_sections);
	for (s = 0; s < log->nr_sections; s++) {
		const struct lkst_log_cpu *c = &log->sections[s].info;

		if (c->overwritten)
			fprintf(stderr, "lkbuf: cpu%u: %llu records overwritten\n",
				c->cpu, (unsigned long long)c->overwritten);
		if (c->dropped)
			fprintf(stderr, "lkbuf: cpu%u: %llu events dropped\n",
				c->cpu, (unsigned long long)c->dropped);
	}
}

/* A filter option's value: given at most once (a list takes commas). */
static const char *filter_value(const char **values, const char *option)
{
	if (!values)
		return NULL;
	if (values[1])
		lkst_die(LKST_EXIT_USAGE, "%s given more than once; give it once with a comma-separated list",
			 option);
	return values[0];
}

static void free_values(const char **values)
{
	size_t i;

	for (i = 0; values && values[i]; i++)
		free((char *)values[i]);
	free(values);
}

static void parse_filters(const char **ev, const char **pid, const char **comm,
			  const char **time, struct lkst_filter *f)
{
	struct lkst_err err;
	const char *v;

	memset(f, 0, sizeof(*f));
	if ((v = filter_value(ev, "-e")) && lkst_filter_events(f, v, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if ((v = filter_value(pid, "-p")) && lkst_filter_pids(f, v, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if ((v = filter_value(comm, "-n")) && lkst_filter_comms(f, v, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if ((v = filter_value(time, "-t")) && lkst_filter_time(f, v, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int verb_print(int argc, const char **argv)
{
	char *file = NULL;
	const char **ev_arg = NULL, **pid_arg = NULL, **comm_arg = NULL, **time_arg = NULL;
	struct lkst_format_opts opts = { 0 };
	struct poptOption options[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to print", "FILE" },
		{ "raw", 'r', POPT_ARG_NONE, &opts.raw, 0, "arguments as raw hex", NULL },
		{ "csv", 'C', POPT_ARG_NONE, &opts.csv, 0, "CSV (RFC 4180) with a header row", NULL },
		{ "seconds", 'S', POPT_ARG_NONE, &opts.seconds, 0,
		  "time as seconds.nanoseconds of the trace clock; without -C also the "
		  "\"TIME cpu= pid= ctx= EVENT key=value\" text instead of the default "
		  "\"hh:mm:ss.uuuuuu  #CPU  PID  COMM  EVENT key=value\" (local time)", NULL },
		{ "verbose", 'V', POPT_ARG_NONE, &opts.verbose, 0,
		  "CSV: an argN_desc column before each argN", NULL },
		{ "event", 'e', POPT_ARG_ARGV, &ev_arg, 0,
		  "only these events: IDs, mnemonics or categories (process, syscall, ...)",
		  "EVENT,..." },
		{ "pid", 'p', POPT_ARG_ARGV, &pid_arg, 0,
		  "only records of these pids, and PROCESS_CONTEXTSWITCH and "
		  "PROCESS_WAKEUP records naming one as prev, next or target pid",
		  "PID,..." },
		{ "comm", 'n', POPT_ARG_ARGV, &comm_arg, 0,
		  "only records of tasks with these command names (exact, as printed; "
		  "names are learned from switches and wakeups), and switches to or "
		  "wakeups of them", "COMM,..." },
		{ "time", 't', POPT_ARG_ARGV, &time_arg, 0,
		  "only records in this window, in seconds of the trace clock; either "
		  "side may be empty", "START,END" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_comm_map *comms = NULL;
	struct lkst_outbuf *out;
	struct lkst_filter filter;
	struct print_run *runs;
	const struct lkst_record *rec;
	struct lkst_log log;
	struct lkst_err err;
	unsigned int s, cpu;
	size_t count = 0;
	int filtering;

	lkst_no_positional(ctx);
	lkst_require(file, "-f FILE", "print");
	parse_filters(ev_arg, pid_arg, comm_arg, time_arg, &filter);
	filtering = filter.by_event || filter.by_time || filter.nr_pids || filter.nr_comms;
	if (lkst_log_load(file, &log, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	opts.human = !opts.csv && !opts.seconds;
	opts.realtime_offset_ns = (long long)(log.header.anchor_realtime_ns -
					      log.header.anchor_trace_ns);
	if (opts.human || filter.nr_comms) {
		comms = lkst_comm_map_new();
		if (!comms)
			lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
		opts.comms = comms;
	}
	runs = calloc(log.nr_sections ? log.nr_sections : 1, sizeof(*runs));
	out = malloc(sizeof(*out));
	if (!runs || !out)
		lkst_die(LKST_EXIT_USAGE, "out of memory; free some memory");
	for (s = 0; s < log.nr_sections; s++)
		init_run(&log.sections[s], &runs[s]);
	if (opts.csv)
		lkst_format_csv_header(stdout, &opts);
	lkst_outbuf_init(out, stdout);
	while ((rec = next_record(runs, log.nr_sections, &cpu))) {
		if (comms)
			lkst_comm_map_learn(comms, rec, cpu);
		if (filtering && !lkst_filter_match(&filter, rec, cpu, comms))
			continue;
		lkst_format_record_buf(out, rec, cpu, &opts);
		count++;
	}
	lkst_outbuf_flush(out);
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the records: %s; check the output",
			 strerror(errno));
	print_losses(&log, count);
	for (s = 0; s < log.nr_sections; s++)
		free(runs[s].order);
	free(runs);
	free(out);
	lkst_comm_map_free(comms);
	lkst_filter_free(&filter);
	free_values(ev_arg);
	free_values(pid_arg);
	free_values(comm_arg);
	free_values(time_arg);
	free(file);
	lkst_log_free(&log);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* ---- create, link, delete, jump ------------------------------------- */

static unsigned int size_option(const char *value)
{
	uint64_t size;

	lkst_require(value, "-s SIZE", "create");
	if (lkst_parse_size(value, &size) || size < LKST_BLOCK_MIN_SIZE ||
	    size > LKST_BLOCK_MAX_SIZE)
		lkst_die(LKST_EXIT_USAGE, "bad block size '%s'; give %u..%u bytes, K and M suffixes allowed",
			 value, LKST_BLOCK_MIN_SIZE, LKST_BLOCK_MAX_SIZE);
	return size;
}

static int verb_create(int argc, const char **argv)
{
	char *cpu_arg = NULL, *size_arg = NULL, *next_arg = NULL;
	struct poptOption options[] = {
		{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "CPU of the block", "CPU" },
		{ "size", 's', POPT_ARG_STRING, &size_arg, 0, "bytes (K/M suffix)", "SIZE" },
		{ "next", 'n', POPT_ARG_STRING, &next_arg, 0,
		  "block written after this one (default none: wrap onto itself)", "NEXT" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_block_create req;
	struct lkst_version version;
	int fd, ret;

	lkst_no_positional(ctx);
	memset(&req, 0, sizeof(req));
	req.cpu = cpu_option(cpu_arg, "create");
	req.size = size_option(size_arg);
	req.next = next_option(next_arg);
	fd = open_checked_cpu(req.cpu, &version);
	ret = lkst_dev_ioctl(fd, LKST_IOC_BLOCK_CREATE, &req);
	if (ret == -EINVAL)
		lkst_die(LKST_EXIT_DEVICE, "creating a %u-byte block on cpu %u: the kernel rejected the size or next block; see lkbuf list",
			 req.size, req.cpu);
	if (ret)
		die_block(-ret, req.cpu, req.next, "creating");
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
		{ "next", 'n', POPT_ARG_STRING, &next_arg, 0,
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
		lkst_require(next_arg, "-n NEXT", verb);
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

static const struct lkst_verb verbs[] = {
	{ "list", verb_list, "list each CPU's blocks and counters" },
	{ "read", verb_read, "save the buffers to a log file (-f FILE [-c CPU])" },
	{ "print", verb_print, "print a log file (-f FILE [-r] [-C] [-S] [-V] [-e EVENTS] [-p PIDS] [-n COMMS] [-t START,END])" },
	{ "create", verb_create, "add a block (-c CPU -s SIZE [-n NEXT])" },
	{ "link", verb_link, "set a block's next block (-c CPU -b ID -n NEXT|none)" },
	{ "delete", verb_delete, "delete a block (-c CPU -b ID)" },
	{ "jump", verb_jump, "make the writer continue in a block (-c CPU -b ID)" },
	{ "mark", lkbuf_verb_mark, "record a USER_MARK event with TEXT (48 bytes at most)" },
	{ NULL, NULL, NULL }
};

int main(int argc, char **argv)
{
	lkst_progname = "lkbuf";
	return lkst_run_verb(argc, argv, verbs);
}
