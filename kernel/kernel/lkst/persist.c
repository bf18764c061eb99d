// SPDX-License-Identifier: GPL-2.0
/*
 * lkst buffers that outlive a warm reboot.
 *
 * With reserve_mem=SIZE:ALIGN:NAME lkst.persist=NAME, every CPU's first
 * block lives in that region, which the next boot of the same kernel finds
 * at the same place.  The region holds a head (what wrote it, the clock
 * anchor, per-CPU counters saved at panic, a checksum), then each CPU's
 * pages in the layout the writers use (lkst_buf.h); it holds no pointer,
 * so KASLR does not matter.
 *
 * At boot, before anything traces into it, the region is validated: the
 * head first, then each page on its own (generation, commit, every record
 * parsed to the commit, numbers that do not overlap).  What passes is
 * copied aside, read-only, for `lkbuf read --previous-boot`; what fails is
 * counted and reported, never decoded.  Then the region is emptied for
 * this boot.
 */
#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/utsname.h>
#include <linux/panic_notifier.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include "internal.h"

#define LKST_PERSIST_MAGIC	0x5352455054534b4cULL	/* "LKSTPERS" */
#define LKST_PERSIST_LAYOUT	4	/* of the head and of the pages */
/* The pages' words are pinned in lkst_buf.h: a change there bumps it. */

/* What the pages cannot tell; written is where their numbers end. */
struct lkst_persist_cpu {
	u64 overwritten;
	u64 dropped;
};

struct lkst_persist_head {
	u64 magic;
	u32 layout;
	u32 head_crc;		/* crc32 of the head pages, this field 0 */
	u32 build_crc;		/* crc32 of linux_banner: the same build */
	u32 page_size;
	u32 record_size;	/* LKST_BREC_MAX_SIZE */
	u32 nr_event_ids;
	u32 clock;
	u32 nr_cpus;
	u32 head_pages;
	u32 pages_per_cpu;
	u32 flags;		/* LKST_PREVIOUS_COUNTS_SAVED */
	u32 __pad;
	u64 anchor_trace_ns;
	u64 anchor_realtime_ns;
	struct lkst_persist_cpu cpus[];
};

static char lkst_persist_name[32];
static struct lkst_persist_head *lkst_region;	/* NULL: not persisting */

/* The previous boot's trace, copied aside; freed by release. */
static struct lkst_previous {
	struct lkst_persist_head *head;		/* a copy */
	struct lkst_block *blocks;		/* one per CPU, pages copied */
	u64 nr_records;
	u32 refused_pages;
} lkst_prev;

static int __init lkst_set_persist(char *str)
{
	strscpy(lkst_persist_name, str, sizeof(lkst_persist_name));
	return 1;
}
lkst_setup(persist, lkst_set_persist);

/*
 * Most pages a CPU's share can have: the write position's page field
 * addresses 2^LKST_POS_PAGE_BITS (I3), and struct lkst_block_info gives a
 * block's size in a u32 of bytes, which is the tighter bound.
 */
#define LKST_PERSIST_MAX_CPU_PAGES	(U32_MAX / LKST_PAGE_SIZE)
static_assert(LKST_PERSIST_MAX_CPU_PAGES < 1ULL << LKST_POS_PAGE_BITS);

static u32 lkst_head_pages(u32 nr_cpus)
{
	return DIV_ROUND_UP(struct_size_t(struct lkst_persist_head, cpus,
					  nr_cpus), LKST_PAGE_SIZE);
}

static u32 lkst_head_crc(struct lkst_persist_head *head)
{
	u32 saved = head->head_crc, crc;

	head->head_crc = 0;
	crc = crc32_le(~0, (const u8 *)head,
		       (size_t)head->head_pages * LKST_PAGE_SIZE);
	head->head_crc = saved;
	return crc;
}

static u32 lkst_build_crc(void)
{
#ifdef MODULE
	/* linux_banner is not exported; the build's uts strings say as much. */
	const struct new_utsname *uts = init_utsname();

	return crc32_le(crc32_le(~0, uts->release, strlen(uts->release)),
			uts->version, strlen(uts->version));
#else
	return crc32_le(~0, linux_banner, strlen(linux_banner));
#endif
}

static void *lkst_region_cpu_pages(const struct lkst_persist_head *head,
				   unsigned int cpu)
{
	return (char *)head + ((size_t)head->head_pages +
			       (size_t)cpu * head->pages_per_cpu) *
			      LKST_PAGE_SIZE;
}

/* Why a region of @pages pages cannot be trusted, or NULL. */
const char *lkc_persist_refusal(void *region, u64 pages)
{
	struct lkst_persist_head *head = region;

	if (head->magic != LKST_PERSIST_MAGIC)
		return "no trace there (a cold boot, or never written)";
	if (head->layout != LKST_PERSIST_LAYOUT)
		return "written in another layout";
	if (head->head_pages == 0 || head->head_pages > pages)
		return "head size out of range";
	if (head->nr_cpus == 0 || head->nr_cpus > pages ||
	    head->head_pages != lkst_head_pages(head->nr_cpus))
		return "CPU count out of range";
	if (head->pages_per_cpu > LKST_PERSIST_MAX_CPU_PAGES)
		return "pages per CPU beyond what a block can hold";
	if (lkst_head_crc(head) != head->head_crc)
		return "head checksum mismatch";
	if (head->build_crc != lkst_build_crc())
		return "written by another kernel build";
	if (head->page_size != LKST_PAGE_SIZE ||
	    head->record_size != LKST_BREC_MAX_SIZE ||
	    head->nr_event_ids != LKST_NR_EVENT_IDS ||
	    head->clock != LKST_CLOCK_MONOTONIC)
		return "written with another page, record or event layout";
	if (head->pages_per_cpu == 0 ||
	    head->head_pages + (u64)head->nr_cpus * head->pages_per_cpu > pages)
		return "pages out of the region";
	return NULL;
}

/*
 * Number of records of a page copied from the previous boot, or -1 if it
 * fails validation.  0 for a page never used or being reset at the crash.
 * What a live page always satisfies is checked: records that parse from
 * the head up to a zero info word (one not complete at the crash, or the
 * rest the reset zeroed, I6) or the page's end, none past where its writer
 * left it (I14), no more than it reserved there.
 */
static int lkst_prev_page_check(struct lkst_page *pg)
{
	struct lkst_record rec;
	u32 offset = LKST_PAGE_HEAD, pid = 0, end = LKST_PAGE_SIZE;
	int n = 0;

	if (!pg->gen || (pg->gen & 1)) {
		pg->gen = 0;	/* what the readers skip (I5) */
		return 0;
	}
	if (pg->left_at)
		end = pg->left_at;
	if (pg->zero || end < LKST_PAGE_HEAD || end > LKST_PAGE_SIZE ||
	    pg->first_seq > (1ULL << 62))
		return -1;
	while (lkst_page_next(pg, end, &offset, &pid, &rec)) {
		if (rec.event >= LKST_NR_EVENT_IDS)
			return -1;
		n++;
	}
	if (pg->left_at && (u32)n > pg->nr_records)
		return -1;
	/* Stopped at the end, or at a record its writer had not completed. */
	if (offset + LKST_BREC_MIN_SIZE <= end &&
	    *(u32 *)((char *)pg + offset))
		return -1;
	return n;
}

struct lkst_prev_range {
	u64 first, end;
	struct lkst_page *pg;
};

static int lkst_prev_range_cmp(const void *a, const void *b)
{
	const struct lkst_prev_range *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Validate the pages of one CPU in the copy: a page that fails, or whose
 * numbers overlap an earlier page's (I12), gets generation 0 so that no
 * reader decodes it (I5).  Returns the pages refused.
 */
u32 lkc_persist_check_pages(struct lkst_block *blk, u64 *nr_records)
{
	struct lkst_prev_range *ranges;
	u32 page, nr = 0, refused = 0, i;
	u64 end = 0;
	int n;

	ranges = kvmalloc_array(blk->nr_pages, sizeof(*ranges), GFP_KERNEL);
	if (!ranges) {
		/* Unchecked pages are refused, never decoded. */
		for (page = 0; page < blk->nr_pages; page++)
			lkst_block_page(blk, page)->gen = 0;
		return blk->nr_pages;
	}
	for (page = 0; page < blk->nr_pages; page++) {
		struct lkst_page *pg = lkst_block_page(blk, page);

		n = lkst_prev_page_check(pg);
		if (n < 0) {
			pg->gen = 0;
			refused++;
		} else if (n > 0) {
			ranges[nr++] = (struct lkst_prev_range){
				pg->first_seq, pg->first_seq + n, pg };
		}
	}
	sort(ranges, nr, sizeof(*ranges), lkst_prev_range_cmp, NULL);
	for (i = 0; i < nr; i++) {
		if (ranges[i].first < end) {
			ranges[i].pg->gen = 0;
			refused++;
			continue;
		}
		end = ranges[i].end;
		*nr_records += ranges[i].end - ranges[i].first;
	}
	kvfree(ranges);
	return refused;
}

/* Copy the previous boot's trace aside, validated; false if none. */
static bool __init lkst_keep_previous(struct lkst_persist_head *head)
{
	size_t head_bytes = (size_t)head->head_pages * LKST_PAGE_SIZE;
	size_t cpu_bytes = (size_t)head->pages_per_cpu * LKST_PAGE_SIZE;
	unsigned int cpu;

	lkst_prev.head = kvmalloc(head_bytes, GFP_KERNEL);
	lkst_prev.blocks = kcalloc(head->nr_cpus, sizeof(*lkst_prev.blocks),
				   GFP_KERNEL);
	if (!lkst_prev.head || !lkst_prev.blocks)
		goto nomem;
	memcpy(lkst_prev.head, head, head_bytes);
	for (cpu = 0; cpu < head->nr_cpus; cpu++) {
		struct lkst_block *blk = &lkst_prev.blocks[cpu];

		blk->nr_pages = head->pages_per_cpu;
		blk->next = LKST_NO_NEXT;
		blk->pages = vmalloc(cpu_bytes);
		if (!blk->pages)
			goto nomem;
		memcpy(blk->pages, lkst_region_cpu_pages(head, cpu), cpu_bytes);
		lkst_prev.refused_pages +=
			lkc_persist_check_pages(blk, &lkst_prev.nr_records);
	}
	return true;
nomem:
	pr_warn("lkst: persist: no memory to keep the previous boot's trace\n");
	lkc_previous_free();
	return false;
}

/* Under lkst_buf_mutex, or at boot. */
void lkc_previous_free(void)
{
	unsigned int cpu;

	if (lkst_prev.blocks && lkst_prev.head)
		for (cpu = 0; cpu < lkst_prev.head->nr_cpus; cpu++)
			vfree(lkst_prev.blocks[cpu].pages);
	kfree(lkst_prev.blocks);
	kvfree(lkst_prev.head);
	memset(&lkst_prev, 0, sizeof(lkst_prev));
}

/* The previous boot's block of @cpu, under lkst_buf_mutex; or NULL. */
struct lkst_block *lkc_previous_block(unsigned int cpu)
{
	if (!lkst_prev.head || cpu >= lkst_prev.head->nr_cpus)
		return NULL;
	return &lkst_prev.blocks[cpu];
}

/* One past the highest number a kept page of @blk holds. */
u64 lkc_previous_end(const struct lkst_block *blk)
{
	const struct lkst_page *pg;
	u64 end = 0;
	u32 page;

	for (page = 0; page < blk->nr_pages; page++) {
		pg = lkst_block_page(blk, page);
		if (pg->gen)
			end = max(end, pg->first_seq + lkst_page_count(pg));
	}
	return end;
}

/* Records the kept pages of @blk hold. */
u64 lkc_previous_held(const struct lkst_block *blk)
{
	u64 held = 0;
	u32 page;

	for (page = 0; page < blk->nr_pages; page++)
		held += lkst_page_count(lkst_block_page(blk, page));
	return held;
}

/* Under lkst_buf_mutex. */
int lkc_previous_info(struct lkst_previous_info *info)
{
	if (!lkst_prev.head)
		return -ENOENT;
	memset(info, 0, sizeof(*info));
	info->nr_cpus = lkst_prev.head->nr_cpus;
	info->flags = lkst_prev.head->flags & LKST_PREVIOUS_COUNTS_SAVED;
	info->clock = lkst_prev.head->clock;
	info->refused_pages = lkst_prev.refused_pages;
	info->anchor_trace_ns = lkst_prev.head->anchor_trace_ns;
	info->anchor_realtime_ns = lkst_prev.head->anchor_realtime_ns;
	info->nr_records = lkst_prev.nr_records;
	return 0;
}

/* The counters saved at panic, if they were: false otherwise. */
bool lkc_previous_counts(unsigned int cpu, u64 *overwritten, u64 *dropped)
{
	const struct lkst_persist_cpu *c;

	if (!lkst_prev.head || cpu >= lkst_prev.head->nr_cpus ||
	    !(lkst_prev.head->flags & LKST_PREVIOUS_COUNTS_SAVED))
		return false;
	c = &lkst_prev.head->cpus[cpu];
	*overwritten = c->overwritten;
	*dropped = c->dropped;
	return true;
}

/* Whether CPUs' first blocks live in the region (lkst.persist= found it). */
bool lkc_persisting(void)
{
	return lkst_region;
}

/*
 * The region's pages for @cpu's first block, or NULL when not persisting
 * (or the CPU has no share of the region).
 */
void *lkc_persist_pages(unsigned int cpu, u32 *nr_pages)
{
	if (!lkst_region || cpu >= lkst_region->nr_cpus)
		return NULL;
	return lkc_persist_cpu_pages(lkst_region, cpu, nr_pages);
}

/*
 * At panic, after the other CPUs stopped: stop recording so that the
 * region holds still, and save the counters the pages cannot tell.
 */
static int lkst_persist_panic(struct notifier_block *nb, unsigned long event,
			      void *msg)
{
	struct lkst_persist_head *head = lkst_region;
	unsigned int cpu;

	lkc_stop_recording();
	for (cpu = 0; cpu < head->nr_cpus; cpu++) {
		struct lkst_cpu_buffer *cb;

		if (!cpu_possible(cpu))
			continue;
		cb = per_cpu_ptr(&lkst_cpu_buffers, cpu);

		head->cpus[cpu].overwritten = local64_read(&cb->overwritten) +
					      READ_ONCE(cb->discarded);
		head->cpus[cpu].dropped = local64_read(&cb->dropped);
	}
	head->flags |= LKST_PREVIOUS_COUNTS_SAVED;
	/* A reading closer to the last records than the one at boot. */
	head->anchor_trace_ns = ktime_get_mono_fast_ns();
	head->anchor_realtime_ns = ktime_get_real_fast_ns();
	head->head_crc = lkst_head_crc(head);
	return NOTIFY_DONE;
}

static struct notifier_block lkst_persist_panic_nb = {
	.notifier_call = lkst_persist_panic,
	.priority = INT_MAX,
};

/*
 * Empty a region of @pages pages for this boot's writers (every page
 * generation 0, never used) and write its head for @nr_cpus CPUs.
 */
void lkc_persist_format(void *region, u64 pages, u32 nr_cpus)
{
	struct lkst_persist_head *head = region;
	u32 head_pages = lkst_head_pages(nr_cpus);

	memset(head, 0, pages * LKST_PAGE_SIZE);
	head->magic = LKST_PERSIST_MAGIC;
	head->layout = LKST_PERSIST_LAYOUT;
	head->build_crc = lkst_build_crc();
	head->page_size = LKST_PAGE_SIZE;
	head->record_size = LKST_BREC_MAX_SIZE;
	head->nr_event_ids = LKST_NR_EVENT_IDS;
	head->clock = LKST_CLOCK_MONOTONIC;
	head->nr_cpus = nr_cpus;
	head->head_pages = head_pages;
	head->pages_per_cpu = min_t(u64, (pages - head_pages) / nr_cpus,
				    LKST_PERSIST_MAX_CPU_PAGES);
	head->anchor_trace_ns = ktime_get_mono_fast_ns();
	head->anchor_realtime_ns = ktime_get_real_ns();
	head->head_crc = lkst_head_crc(head);
}

/* @cpu's pages in a formatted region. */
void *lkc_persist_cpu_pages(void *region, unsigned int cpu, u32 *nr_pages)
{
	struct lkst_persist_head *head = region;

	*nr_pages = head->pages_per_cpu;
	return lkst_region_cpu_pages(head, cpu);
}

/*
 * Find and validate the region named by lkst.persist=, keep the previous
 * boot's trace, and prepare the region for this boot.  Before any CPU's
 * first block exists.
 */
void __init lkc_persist_init(void)
{
	struct lkst_persist_head *head;
	phys_addr_t start, size;
	const char *why;
	u32 nr_cpus = nr_cpu_ids;
	u64 pages;

	if (!lkst_persist_name[0])
		return;
	if (!reserve_mem_find_by_name(lkst_persist_name, &start, &size)) {
		pr_warn("lkst: persist: no reserve_mem region named %s; buffers are not kept across reboots\n",
			lkst_persist_name);
		return;
	}
	pages = size / LKST_PAGE_SIZE;
	if (!IS_ALIGNED(start, LKST_PAGE_SIZE) ||
	    pages < lkst_head_pages(nr_cpus) + nr_cpus) {
		pr_warn("lkst: persist: region %s (%pa, %llu bytes) is unaligned or too small for %u CPUs\n",
			lkst_persist_name, &start, (u64)size, nr_cpus);
		return;
	}
	/* reserve_mem regions are memblock memory, in the linear map. */
	head = phys_to_virt(start);

	why = lkc_persist_refusal(head, pages);
	if (why)
		pr_info("lkst: persist: region %s holds no previous trace: %s\n",
			lkst_persist_name, why);
	else if (lkst_keep_previous(head))
		pr_info("lkst: persist: kept the previous boot's trace: %llu records of %u CPUs, %u pages refused\n",
			lkst_prev.nr_records, lkst_prev.head->nr_cpus,
			lkst_prev.refused_pages);

	lkc_persist_format(head, pages, nr_cpus);
	lkst_region = head;
	atomic_notifier_chain_register(&panic_notifier_list,
				       &lkst_persist_panic_nb);
	pr_info("lkst: persist: tracing into region %s: %u KiB per CPU\n",
		lkst_persist_name, head->pages_per_cpu * (LKST_PAGE_SIZE >> 10));
}

#ifdef MODULE
/* The region stays reserved: a later load of the module finds it again. */
void lkc_persist_exit(void)
{
	if (lkst_region)
		atomic_notifier_chain_unregister(&panic_notifier_list,
						 &lkst_persist_panic_nb);
	lkst_region = NULL;
	lkc_previous_free();
}
#endif
