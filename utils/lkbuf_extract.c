// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf extract: the buffers of a crashed kernel, read from its kdump
 * vmcore with its vmlinux, saved to a log file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "lkbuf_cmds.h"
#include "lkst_logboot.h"
#include "lkst_vmcore.h"

static char *file, *vmcore, *vmlinux;

static struct poptOption extract_options[] = {
	{ "vmcore", '\0', POPT_ARG_STRING, &vmcore, 0,
	  "kdump dump of the crashed x86_64 or arm64 kernel (its /proc/vmcore)", "VMCORE" },
	{ "vmlinux", '\0', POPT_ARG_STRING, &vmlinux, 0,
	  "that kernel's vmlinux, with its symbol table", "VMLINUX" },
	{ "file", 'f', POPT_ARG_STRING, &file, 0, "log file to write", "FILE" },
	LKST_POPT_TAIL
};

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
static unsigned int extract_cpus(const struct lkst_vmcore *vc, struct lkst_vmcore_cpu **cpus)
{
	struct lkst_err err;
	unsigned int cpu, n = 0;
	int ret;

	for (cpu = 0; cpu < lkst_vmcore_nr_cpu_ids(vc); cpu++) {
		ret = lkst_vmcore_read_cpu(vc, cpu, &cpus[n], &err);
		if (ret)
			die_vmcore(ret, &err);
		if (lkst_vmcore_cpu_nr_blocks(cpus[n]))
			n++;
		else
			lkst_vmcore_cpu_free(cpus[n]);
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
	struct lkst_clock_anchor anchor = lkst_vmcore_anchor(vc);

	lkst_log_header_init(h);
	h->nr_cpus = nr_cpus;
	h->clock = LKST_CLOCK_MONOTONIC;
	h->anchor_trace_ns = anchor.trace_ns;
	h->anchor_realtime_ns = anchor.realtime_ns;
	snprintf(h->nodename, sizeof(h->nodename), "%s", lkst_vmcore_nodename(vc));
	snprintf(h->release, sizeof(h->release), "%s", lkst_vmcore_release(vc));
}

static void report_extract(const char *file, const struct lkst_vmcore *vc,
			   struct lkst_vmcore_cpu *const *cpus, unsigned int n)
{
	unsigned long long records = 0, overwritten = 0, dropped = 0, lost = 0;
	unsigned long long missing = 0, emptying = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct lkst_log_cpu *info = lkst_vmcore_cpu_info(cpus[i]);

		records += info->nr_records;
		overwritten += info->overwritten;
		dropped += info->dropped;
		lost += info->lost;
		missing += lkst_vmcore_cpu_missing_pages(cpus[i]);
		emptying += lkst_vmcore_cpu_emptying_pages(cpus[i]);
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
	if (lkst_vmcore_cut_bytes(vc))
		fprintf(stderr, "lkbuf: the vmcore is cut short: %llu bytes of memory are missing from it\n",
			(unsigned long long)lkst_vmcore_cut_bytes(vc));
	if (!lkst_vmcore_anchor(vc).realtime_ns)
		fprintf(stderr, "lkbuf: the crashed kernel's clock cannot be anchored: times are since its boot\n");
}

static void extract_vmcore(const char *vmcore, const char *vmlinux, const char *file)
{
	char source[PATH_MAX + 64];
	struct lkst_log_header header;
	struct lkst_log_writer *writer;
	struct lkst_vmcore_cpu **cpus;
	struct lkst_vmcore *vc;
	struct lkst_err err;
	unsigned int n, i;
	int ret;

	refuse_same_file(file, vmcore);
	vc = lkst_vmcore_open(vmcore, vmlinux, &ret, &err);
	if (!vc)
		die_vmcore(ret, &err);
	cpus = calloc(lkst_vmcore_nr_cpu_ids(vc), sizeof(*cpus));
	if (!cpus)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	n = extract_cpus(vc, cpus);
	vmcore_log_header(vc, n, &header);
	snprintf(source, sizeof(source), "a kdump vmcore, %s (lkbuf extract)", vmcore);
	writer = lkbuf_create_log(file, &header, source);
	/* The crashed boot cannot be asked: an ID its saved anchor names. */
	if (lkst_log_add_boot_of(writer, &header, 1, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	for (i = 0; i < n; i++)
		if (lkst_log_write_cpu_seqs(writer, lkst_vmcore_cpu_info(cpus[i]),
					    lkst_vmcore_cpu_records(cpus[i]),
					    lkst_vmcore_cpu_seqs(cpus[i]), &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	lkbuf_commit_log(writer);
	report_extract(file, vc, cpus, n);
	for (i = 0; i < n; i++)
		lkst_vmcore_cpu_free(cpus[i]);
	free(cpus);
	lkst_vmcore_close(vc);
}

static int run_extract(struct lkst_cmd *cmd)
{
	(void)cmd;
	lkst_require(vmcore, "--vmcore VMCORE", "extract");
	lkst_require(vmlinux, "--vmlinux VMLINUX", "extract");
	lkst_require(file, "-f FILE", "extract");
	extract_vmcore(vmcore, vmlinux, file);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_extract_ops = { extract_options, NULL, NULL, run_extract, NULL };
