// SPDX-License-Identifier: GPL-2.0
/*
 * lkst: on panic, print the newest records of each CPU's current block to
 * the console.  A flight recorder is read after the crash; without kdump
 * the console (a serial log, netconsole) is the only place left, so the
 * last events before the failure go there.  "lkst.panic_dump=N" sets the
 * number of records per CPU; 0, the default, prints nothing.
 */
#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "internal.h"

static unsigned int lkst_panic_dump_records;

static int __init lkst_set_panic_dump(char *str)
{
	if (kstrtouint(str, 0, &lkst_panic_dump_records)) {
		pr_warn("lkst.panic_dump=%s: not a number of records\n", str);
		lkst_panic_dump_records = 0;
	}
	return 1;
}
lkst_setup(panic_dump, lkst_set_panic_dump);

static bool lkst_arg_is_text(const struct lkst_event_info *info, int i)
{
	return info && (info->args[i].type == LKST_ARG_TEXT ||
			info->args[i].type == LKST_ARG_COMM ||
			info->args[i].type == LKST_ARG_COMM2);
}

/*
 * One line per record: the event's name, then each argument in hex, or as
 * a quoted string where the table says it holds text or a name (a run of
 * such slots is one string), so the console reads without the utilities.
 */
static void lkst_dump_record(unsigned int cpu, const struct lkst_record *rec)
{
	const struct lkst_event_info *info = lkc_event_info(rec->event);
	char line[256], text[LKST_NR_ARGS * sizeof(u64) + 1];
	int i, len, n;

	len = scnprintf(line, sizeof(line), "cpu%u %llu.%09llu pid %u %s 0x%02x",
			cpu, rec->time_ns / NSEC_PER_SEC,
			rec->time_ns % NSEC_PER_SEC, rec->pid,
			info ? info->mnemonic : "?", rec->event);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		if (!lkst_arg_is_text(info, i)) {
			len += scnprintf(line + len, sizeof(line) - len, " %llx",
					 rec->arg[i]);
			continue;
		}
		for (n = 0; i < LKST_NR_ARGS && lkst_arg_is_text(info, i); i++, n++)
			memcpy(text + n * sizeof(u64), &rec->arg[i], sizeof(u64));
		i--;
		text[n * sizeof(u64)] = '\0';
		/* User marks are user text: keep the console line intact. */
		for (n = 0; text[n]; n++)
			if (!isprint(text[n]) || text[n] == '"')
				text[n] = '?';
		len += scnprintf(line + len, sizeof(line) - len, " \"%s\"", text);
	}
	pr_emerg("lkst-dump: %s\n", line);
}

/*
 * The newest @max records of @cpu's current block, oldest first: back from
 * the current page through the pages written before it in the block, then
 * forward again.  Other CPUs are stopped; nothing is allocated.
 */
static void lkst_dump_cpu(unsigned int cpu, unsigned int max)
{
	struct lkst_cpu_buffer *cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);
	u64 pos = local64_read(&cb->pos), held = 0, newer = U64_MAX, first;
	const struct lkst_block *blk;
	const struct lkst_page *pg;
	struct lkst_record rec;
	u32 page, i, nr_pages = 0, offset, pid = 0;

	/* What a log of these buffers (a vmcore's) must count as lost. */
	pr_emerg("lkst-dump: cpu%u counts: overwritten %llu dropped %llu\n",
		 cpu, (u64)local64_read(&cb->overwritten) + READ_ONCE(cb->discarded),
		 (u64)local64_read(&cb->dropped));
	if (lkst_pos_block(pos) >= LKST_MAX_BLOCKS)
		return;
	blk = rcu_dereference_sched(cb->blocks[lkst_pos_block(pos)]);
	if (!blk || lkst_pos_page(pos) >= blk->nr_pages)
		return;
	page = lkst_pos_page(pos);
	for (i = 0; i < blk->nr_pages && held < max; i++) {
		pg = lkst_block_page(blk, (page + blk->nr_pages - i) %
					  blk->nr_pages);
		first = READ_ONCE(pg->first_seq);
		/* Unused, being reset, or older than the block's last lap. */
		if (!READ_ONCE(pg->gen) || (READ_ONCE(pg->gen) & 1) ||
		    first >= newer)
			break;
		newer = first;
		held += lkst_page_count(pg);
		nr_pages = i + 1;
	}
	held = held > max ? held - max : 0;	/* the older ones to skip */
	while (nr_pages--) {
		pg = lkst_block_page(blk, (page + blk->nr_pages - nr_pages) %
					  blk->nr_pages);
		offset = LKST_PAGE_HEAD;
		while (lkst_page_next(pg, LKST_PAGE_SIZE, &offset, &pid,
				      &rec)) {
			if (held) {
				held--;
				continue;
			}
			lkst_dump_record(cpu, &rec);
		}
	}
}

static int lkst_panic_notify(struct notifier_block *nb, unsigned long event,
			     void *msg)
{
	unsigned int cpu;

	lkc_save_clock_anchor();
	if (!lkst_panic_dump_records)
		return NOTIFY_DONE;
	/* Other CPUs are stopped; stop recording here so the dump holds still. */
	lkc_stop_recording();
	pr_emerg("lkst-dump: newest %u records per CPU, oldest first\n",
		 lkst_panic_dump_records);
	for_each_possible_cpu(cpu)
		lkst_dump_cpu(cpu, lkst_panic_dump_records);
	pr_emerg("lkst-dump: end\n");
	return NOTIFY_DONE;
}

static struct notifier_block lkst_panic_nb = {
	.notifier_call = lkst_panic_notify,
	/* Before notifiers that may stop the machine for good. */
	.priority = INT_MAX,
};

/*
 * The trace clock and CLOCK_REALTIME read together, for a log taken from a
 * vmcore (lkbuf extract reads it by its symbol): saved at boot and again
 * at panic, the later reading being the closer to the last records.
 */
struct lkst_clock_anchor lkst_saved_clock_anchor;

void lkc_save_clock_anchor(void)
{
	lkst_saved_clock_anchor.trace_ns = ktime_get_mono_fast_ns();
	lkst_saved_clock_anchor.realtime_ns = ktime_get_real_fast_ns();
}

int __init lkc_panic_dump_init(void)
{
	lkc_save_clock_anchor();
	atomic_notifier_chain_register(&panic_notifier_list, &lkst_panic_nb);
	return 0;
}
#ifdef MODULE
void lkc_panic_dump_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &lkst_panic_nb);
}
#else
early_initcall(lkc_panic_dump_init);
#endif
