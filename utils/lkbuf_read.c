// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf read: the live buffers, or the previous boot's trace kept across a
 * warm reboot, saved to a log file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkbuf_cmds.h"
#include "lkst_format.h"
#include "lkst_logboot.h"

static char *file, *cpu_arg;
static int previous, release, zstd;
static struct lkst_select *cpus;	/* -c, parsed; NULL without it */

static struct poptOption read_options[] = {
	{ "file", 'f', POPT_ARG_STRING, &file, 0,
	  "log file to write; a name ending in .zst is zstd-compressed; - for "
	  "standard output", "FILE" },
	{ "zstd", 'z', POPT_ARG_NONE, &zstd, 0,
	  "compress the log with zstd whatever its name (zstd -d gives the plain log)",
	  NULL },
	{ "cpu", 'c', POPT_ARG_STRING, &cpu_arg, 0, "save only these CPUs, or ranges of them (0-3,6)",
	  "CPU,..." },
	{ "previous-boot", '\0', POPT_ARG_NONE, &previous, 0,
	  "save the previous boot's trace, kept across a warm reboot "
	  "(lkst.persist=), instead of the live buffers", NULL },
	{ "release", '\0', POPT_ARG_NONE, &release, 0,
	  "with --previous-boot: free the kept trace once the log is saved", NULL },
	LKST_POPT_TAIL
};

struct save_totals {
	unsigned long long records, overwritten, dropped, lost;
	unsigned int cpus;
};

/* cmd and flags: see lkbuf_drain_cpu(). */
static void save_cpu(int fd, unsigned long cmd, unsigned int cpu, unsigned int flags,
		     struct lkst_log_writer *w, struct save_totals *totals)
{
	struct lkst_buffer_drain req;
	struct lkst_drain_result res;
	struct lkst_log_cpu section;
	struct lkbuf_drain_buf b = { NULL, NULL, 0 };
	struct lkst_err err;

	lkbuf_drain_cpu_settled(fd, cmd, cpu, 0, flags, &b, &req, &res);
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
		lkbuf_abort_unfinished_log();
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	}
	if (cmd == LKST_IOC_BUFFER_DRAIN)
		lkbuf_collect_ksyms(b.records, res.nr);
	lkbuf_drain_buf_free(&b);
	totals->records += res.nr;
	totals->overwritten += req.overwritten;
	totals->dropped += req.dropped;
	totals->lost += res.lost;
	totals->cpus++;
}

/* whose: "" or "the previous boot's "; lost: what became of the lost records. */
static void commit_and_report(struct lkst_log_writer *w, const struct save_totals *t,
			      const char *whose, const char *when, const char *lost)
{
	lkbuf_commit_log(w);
	fprintf(stderr, "lkbuf: saved %llu records of %s%u CPUs to %s; %llu overwritten, %llu dropped %s\n",
		t->records, whose, t->cpus, strcmp(file, "-") ? file : "standard output",
		t->overwritten, t->dropped, when);
	if (t->lost)
		fprintf(stderr, "lkbuf: %llu records between the oldest and the newest saved %s\n",
			t->lost, lost);
}

/*
 * Every thread's name now (LKST_META_TASKS), so that a log without
 * scheduler records still names its tasks; the records matter more.
 */
static void save_tasks(struct lkst_log_writer *w)
{
	struct lkst_tasks *tasks;
	struct lkst_err err;

	if (!(tasks = lkst_tasks_new(&err)) || lkst_tasks_scan(tasks, "/proc", &err) ||
	    lkst_log_add_tasks(w, tasks, &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without task names\n", err.msg);
	lkst_tasks_free(tasks);
}

/* The live buffers of every CPU that has blocks, or of the -c CPUs only. */
static void read_current(const struct lkst_cmd *cmd)
{
	struct lkst_err err;
	struct save_totals totals = { 0, 0, 0, 0, 0 };
	const struct lkst_version *version = &cmd->version;
	struct lkst_log_header header;
	struct lkst_log_writer *writer;
	struct lkst_cpu_info info;
	unsigned int cpu, last = 0, nr_cpus = 0;
	unsigned char *wanted;
	const __u32 *list = NULL;
	size_t i, nr = 0;
	int fd = cmd->fd;

	if (cpus)
		list = lkst_select_cpu_list(cpus, &nr);
	if (cpu_arg) {
		for (i = 0; i < nr; i++) {
			lkbuf_check_cpu(cmd, list[i]);
			if (list[i] > last)
				last = list[i];
		}
	} else {
		last = version->nr_cpu_ids ? version->nr_cpu_ids - 1 : 0;
	}
	/* Choose the CPUs first: the header's nr_cpus precedes the sections. */
	wanted = calloc(last + 1, 1);
	if (!wanted)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	for (i = 0; i < nr; i++)
		wanted[list[i]] = 1;
	for (cpu = 0; cpu <= last && version->nr_cpu_ids; cpu++) {
		if (cpu_arg) {
			nr_cpus += wanted[cpu];
			continue;
		}
		lkbuf_cpu_info(fd, cpu, &info);
		wanted[cpu] = !!info.nr_blocks;
		nr_cpus += wanted[cpu];
	}
	lkbuf_init_log_header(fd, version, NULL, nr_cpus, &header);
	writer = lkbuf_create_log(file, &header, "the running kernel's buffers (lkbuf read)");
	if (lkst_log_add_boot_of(writer, &header, 0, &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without its boot ID\n", err.msg);
	if (zstd)
		lkst_log_set_zstd(writer, 1);
	for (cpu = 0; cpu <= last; cpu++)
		if (wanted[cpu])
			save_cpu(fd, LKST_IOC_BUFFER_DRAIN, cpu, LKST_DRAIN_FROM_OLDEST,
				 writer, &totals);
	lkbuf_save_ksyms(writer);
	save_tasks(writer);
	commit_and_report(writer, &totals, "", "since boot", "were overwritten");
	free(wanted);
	lkst_select_free(cpus);
}

/*
 * The previous boot's trace (lkst.persist=), every CPU it had, drained as
 * the live buffers are; released (release) only once the log is
 * committed, so a failed save loses nothing.
 */
static void read_previous(const struct lkst_cmd *cmd)
{
	struct lkst_err err;
	struct save_totals totals = { 0, 0, 0, 0, 0 };
	struct lkst_previous_info prev;
	struct lkst_log_header header;
	struct lkst_log_writer *writer;
	unsigned int cpu;
	int fd = cmd->fd, ret;

	memset(&prev, 0, sizeof(prev));
	ret = lkst_dev_ioctl(fd, LKST_IOC_PREVIOUS_INFO, &prev);
	if (ret == -ENOENT)
		lkst_die(LKST_EXIT_DEVICE, "no previous boot's trace is kept (boot with reserve_mem=SIZE:ALIGN:NAME lkst.persist=NAME; see dmesg for why)");
	if (ret)
		lkst_die_errno(-ret, "reading the previous boot's trace");
	lkbuf_init_log_header(fd, &cmd->version, &prev, prev.nr_cpus, &header);
	writer = lkbuf_create_log(file, &header,
		   "the previous boot's persistent buffers (lkbuf read --previous-boot)");
	/* Not this boot's ID: one that boot's saved anchor names. */
	if (lkst_log_add_boot_of(writer, &header, 1, &err))
		fprintf(stderr, "lkbuf: %s; the log is saved without its boot ID\n", err.msg);
	if (zstd)
		lkst_log_set_zstd(writer, 1);
	/* Nothing is in flight in a stopped boot's trace: no waiting for it. */
	for (cpu = 0; cpu < prev.nr_cpus; cpu++)
		save_cpu(fd, LKST_IOC_PREVIOUS_DRAIN, cpu,
			 LKST_DRAIN_FROM_OLDEST | LKST_DRAIN_FINAL, writer, &totals);
	commit_and_report(writer, &totals, "the previous boot's ", "in that boot",
			  "are missing (overwritten, or on pages refused at boot)");
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
}

static void check_read(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	(void)cmd;
	lkst_require(file, "-f FILE", "read");
	if (previous && cpu_arg)
		lkst_die(LKST_EXIT_USAGE, "read --previous-boot saves every CPU the previous boot had; leave out -c");
	if (release && !previous)
		lkst_die(LKST_EXIT_USAGE, "--release frees the previous boot's trace; give it with --previous-boot");
	if (cpu_arg && (!(cpus = lkst_select_new(&err)) ||
			lkst_select_cpus(cpus, cpu_arg, &err)))
		lkst_die(LKST_EXIT_USAGE, "read -c: %s", err.msg);
}

static int run_read(struct lkst_cmd *cmd)
{
	if (previous)
		read_previous(cmd);
	else
		read_current(cmd);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_read_ops = { read_options, NULL, check_read, run_read, NULL };
