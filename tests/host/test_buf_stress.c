// SPDX-License-Identifier: GPL-2.0
/*
 * Stress test of the lockless per-CPU buffer (lkst_buf.c): blocks of 4 KiB
 * pages holding records of 16 + 8 * nr_args bytes.  One file over 800
 * lines: the writers, interrupts, readers, drainers and their final
 * accounting share one set of globals and run as one program.
 *
 * Each writer thread plays one CPU and is the only thread writing its
 * buffer.  Signals play interrupts: two per-thread POSIX timers (SIGRTMIN,
 * SIGRTMIN+1, both SA_NODEFER so any handler can interrupt any other) fire
 * at arbitrary instructions, and the writer itself sometimes raise()s one
 * between reserve and commit, so a nested writer surely runs while a
 * record is reserved.  The nesting level (0 task, 1 softirq, 2 irq, 3 NMI)
 * is the handler depth; deeper signals return at once.  Records have 0 to
 * 6 arguments (some zero, the trailing zero ones left out), so records
 * straddle nothing but pages end at any offset.
 *
 * Every record follows from (writer, level, per-level counter), which the
 * low half of its time_ns carries, and its buffer sequence number, which
 * the high half carries.  All levels of a writer write with one PID, as the
 * kernel's writers interrupting each other do with current's: records
 * after the first of a page leave the PID word out where the record before
 * has the same, and a reader must read it back from that record:
 * a reader tells a whole record from a half-written, zeroed or mixed one,
 * and a record from one given another's number.  The writer learns its
 * record's number from the position it reserved at (when an interrupt
 * came between, it cannot: the record says so and its number goes
 * unchecked).
 *
 * Reader threads copy every page of every buffer meanwhile
 * (lkst_page_read), and one drainer thread per run reads every buffer as
 * LKST_IOC_BUFFER_DRAIN and `lkbuf record` do: lkst_buf_list_pages +
 * lkst_buf_walk(stop_at_hole) from its cursor, settled by
 * lkst_drain_settle() (utils/lkst_drain.c) with no number in flight.
 * Owners jump between blocks (lkst_buf_jump_pos) or replace all their blocks
 * (lkst_buf_begin_switch/end_switch, as a resize does) in some configs;
 * in irq_resize, interrupts replace them, as a resize's IPI does, also
 * between an owner's lookup of its jump target and the jump, but not
 * twice while a writer the first interrupted runs (the kernel's grace
 * period keeps a second resize away).  Records a resize's old blocks hold
 * are counted discarded once all is quiet, as the kernel counts them
 * after a grace period.
 *
 * Afterwards, with everything quiet: dropped matches the writers' own
 * drops, and only writers that interrupted one holding or moving the
 * position dropped (or a full STOP buffer); records held in pages +
 * overwritten + discarded (resize) + erased (by the test) == next_seq;
 * every record at rest is whole and none is there twice; the drainer got
 * whole records in order with their numbers, and with the numbers it
 * counted lost accounts for every number, reaches next_seq and counted
 * none lost that is still in a page.  Then a single-threaded phase jumps
 * to block 0 and writes twice what the buffer holds: walking all pages
 * from 0 gives strictly increasing numbers ending in the newest records,
 * in order (in STOP mode: an emptied chain fills exactly as a model of its
 * pages says, then drops, and nothing was overwritten).
 *
 * Usage: test_buf_stress [-t ms_per_config] [-n] [config...]
 *   -n  no signals (no nesting), for sanitizers that cannot cope with them
 *
 * One file of about 1,300 lines on purpose: it is one experiment, not a
 * list of tests.  The writers, their signal handlers, the readers, the
 * drainer and the checks afterwards share one record encoding and one
 * state (per-writer counters, the erased and discarded counts) that each
 * side must read exactly as the other wrote it; split, that state would
 * become globals read across files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "buf_fixture.h"
#include "lkst_drain.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid	/* glibc < 2.35 */
#endif

#define NR_WRITERS	3
#define NR_READERS	2
#define NR_LEVELS	4		/* task, softirq, irq, NMI */
#define MAX_CFG_BLOCKS	8
#define MISSING		0		/* pages of a block that does not exist */
#define MAX_GRAVE	4096		/* blocks replaced by resizes */
#define IRQ_RESIZES	128		/* resizes by interrupts, at most */
/* Fewest records a page holds: all of the largest size. */
#define MIN_PER_PAGE	((LKST_PAGE_SIZE - LKST_PAGE_HEAD) / LKST_BREC_MAX_SIZE)

struct config {
	const char *name;
	u32 nr_pages[MAX_CFG_BLOCKS];	/* per block ID; MISSING: no block */
	u32 next[MAX_CFG_BLOCKS];
	u32 max_burst;			/* records per interrupt, 1..max_burst */
	bool jumps;			/* owner jumps to random blocks */
	bool stop;			/* LKST_MODE_STOP */
	bool resize;			/* owner replaces all its blocks */
	bool irq_resize;		/* interrupts replace them */
	bool nmi_jumps;			/* NMI handlers jump, as lkst_trigger may */
	bool relinks;			/* NMIs relink, as another CPU may */
};

#define N LKST_NO_NEXT
static const struct config configs[] = {
	/* One page wrapping onto itself: every page switch resets it. */
	{ "one_page_wraps",  { 1 },		{ N },		32, false, false, false, false, false, false },
	{ "odd_pages_3",     { 3 },		{ N },		12, false, false, false, false, false, false },
	{ "ring_3_5",	     { 3, 5 },		{ 1, 0 },	12, false, false, false, false, false, false },
	/* Block 0 is never reused: 0 -> 1 -> 2 -> 1 -> 2 ... */
	{ "chain_1_3_5_3",   { 1, 3, 5 },	{ 1, 2, 1 },	12, false, false, false, false, false, false },
	{ "ring_of_1_pages", { 1, 1 },		{ 1, 0 },	32, false, false, false, false, false, false },
	{ "large_ring",	     { 64, 64 },	{ 1, 0 },	12, false, false, false, false, false, false },
	/* Block 1 missing: 2 -> 1 wraps onto 2. */
	{ "jumps",	     { 3, MISSING, 5, 1 }, { 2, 2, 1, 0 }, 12, true, false, false, false, false, false },
	/* STOP mode: a chain fills once and never overwrites but by jumps. */
	{ "stop_chain",	     { 3, 5 },		{ 1, N },	12, false, true, false, false, false, false },
	{ "stop_jumps",	     { 3, MISSING, 5, 1 }, { 2, 2, 1, 0 }, 12, true, true, false, false, false, false },
	{ "resize",	     { 3, 2 },		{ 1, 0 },	12, false, false, true, false, false, false },
	{ "irq_resize",	     { 3, 2 },		{ 1, 0 },	12, true, false, false, true, false, false },
	/* NMIs jump too, also while the writer they interrupt claims a page. */
	{ "nmi_jumps",	     { 3, MISSING, 5, 1 }, { 2, 2, 1, 0 }, 12, true, false, false, false, true, false },
	/*
	 * And the links change under them, as another CPU's BLOCK_LINK
	 * changes them without an IPI: the page after the current one is
	 * then not the page a writer interrupted there is claiming.
	 */
	{ "nmi_relinks",     { 3, MISSING, 5, 1 }, { 2, 2, 1, 0 }, 12, true, false, false, false, true, true },
};
#undef N
#define NR_CONFIGS (sizeof(configs) / sizeof(configs[0]))

struct writer {
	int id;
	pid_t tid;
	struct lkst_cpu_buffer *cb;
	const struct config *cfg;
	u64 next_counter[NR_LEVELS];	/* also read by readers */
	/* Each level touches only its own entries: no lost updates. */
	u64 commits[NR_LEVELS];
	u64 drops[NR_LEVELS];
	/* In lkst_buf_reserve() or holding a reservation, or moving pos. */
	bool busy[NR_LEVELS];
	bool holding[NR_LEVELS];
	u64 bad_drops;			/* with nobody below busy, not STOP */
	u64 nested_while_holding;	/* interrupts that hit that window */
	u64 lapping_drops;		/* drops while a level below held */
	u64 unknown_seq;		/* records whose number went unchecked */
	u64 too_deep;
	u64 jumps, resizes, busy_switches;
	u64 jump_overwritten;		/* counted by jumps, in STOP mode */
	u64 erased;			/* records the test cleared */
	int depth;			/* current level */
	u64 rng[NR_LEVELS];
	timer_t timers[2];
	bool timers_armed;
	struct lkst_block *grave[MAX_GRAVE];	/* replaced, read meanwhile */
	u32 nr_grave;
	/* Blocks for interrupts' resizes, allocated beforehand: no malloc there. */
	struct lkst_block *pool[IRQ_RESIZES][MAX_CFG_BLOCKS];
	u32 pool_next;
	/*
	 * An interrupt resized: no other may until the writers it interrupted
	 * are done, as synchronize_rcu() keeps a second resize from coming
	 * while a hook that saw the first is still running.
	 */
	bool resize_grace;
	/*
	 * lkst_buf_mutex: a drain and a resize exclude each other, as in the
	 * kernel (buffers_read.c, buffers_layout.c), where a resize's IPI runs
	 * while its caller holds the mutex.  Without it a drain could take
	 * one block from before a resize and another from after it, and count
	 * lost the records of the new block it missed.  Interrupts only try.
	 */
	bool buf_mutex;
	u64 stale_jumps;		/* refused: a resize replaced the target */
	u64 nmi_jumps, nmi_jumps_refused;
};

static struct writer writers[NR_WRITERS];
static __thread struct writer *this_cpu;	/* for the signal handler */
static bool use_signals = true;
static int stop_writers, stop_readers;
static u64 reader_copies, reader_refusals, reader_errors, reader_pages;

static u64 mix(u64 x)			/* splitmix64 finalizer */
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 next_random(u64 *state)
{
	*state += 0x9e3779b97f4a7c15ULL;
	return mix(*state);
}

#define UNKNOWN_SEQ	(1ULL << 7)
#define WRITER_PID(writer)	(1000u + (writer))

/*
 * The whole record, from (writer, level, counter) in the low half of
 * time_ns and its number @seq in the high half (or a hash, if the writer
 * could not tell its number); the writer's PID.
 * Its arguments: nr_args() of them, some zero, the last one not.
 */
static u32 nr_args_of(u64 key)
{
	return mix(key ^ 0x77) % (LKST_NR_ARGS + 1);
}

/*
 * The arguments of record @key (without UNKNOWN_SEQ): known before the
 * reservation, which they size.  Some are zero, a third of the others
 * narrow (one word, half of them with its top bit set), the rest wide.
 */
static void make_args(u64 key, u64 args[LKST_NR_ARGS])
{
	u32 n = nr_args_of(key);

	memset(args, 0, LKST_NR_ARGS * sizeof(args[0]));
	for (u32 i = 0; i < n; i++) {
		u64 v = mix(key * 8 + i);

		if (i + 1 < n && v % 5 == 0)
			args[i] = 0;
		else if (v % 3 == 0)
			args[i] = (u32)(v >> 8) | 1;
		else
			args[i] = v | 1ull << 40;
	}
}

/* The bytes the record of @key takes in a page. */
static u32 record_len_of(u64 key)
{
	u64 args[LKST_NR_ARGS];
	u32 wide;

	make_args(key, args);
	return lkst_brec_layout(args, nr_args_of(key), &wide);
}

static void make_record(struct lkst_record *r, int writer, int level,
			u64 counter, u64 seq, bool unknown)
{
	u64 key = counter << 8 | (unknown ? UNKNOWN_SEQ : 0) |
		  (u64)writer << 2 | level;

	memset(r, 0, sizeof(*r));
	r->time_ns = (u64)(unknown ? (u32)mix(key) : (u32)seq) << 32 | (u32)key;
	r->pid = WRITER_PID(writer);
	r->event = (u16)(mix(key + 1) % LKST_NR_EVENT_IDS);
	r->context = level;
	make_args(key & ~UNKNOWN_SEQ, r->arg);
}

static int record_level(const struct lkst_record *r)
{
	return r->time_ns & 3;
}

static u64 record_counter(const struct lkst_record *r)
{
	return (u32)r->time_ns >> 8;
}

/* A copied record numbered @seq is whole and belongs to @writer. */
static bool record_is_consistent(const struct lkst_record *r, int writer,
				 u64 seq)
{
	struct lkst_record want;

	if ((r->time_ns >> 2 & 3) != (u64)writer || (r->time_ns & 0x70))
		return false;
	make_record(&want, writer, record_level(r), record_counter(r), seq,
		    r->time_ns & UNKNOWN_SEQ);
	return memcmp(r, &want, sizeof(want)) == 0;
}

static void maybe_interrupt(struct writer *w, int level);
static void irq_resize_buffer(struct writer *w, int level);

/* A writer this one interrupted is reserving, holding or moving pos. */
static bool lower_level_busy(struct writer *w, int level)
{
	for (int l = 0; l < level; l++)
		if (__atomic_load_n(&w->busy[l], __ATOMIC_RELAXED))
			return true;
	return false;
}

static bool lower_level_holds(struct writer *w, int level)
{
	for (int l = 0; l < level; l++)
		if (__atomic_load_n(&w->holding[l], __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * Reserve for @len bytes and tell the record's number: the page's
 * first_seq plus the count pos had, when the record went where pos said
 * (no interrupt moved it between).  Returns false on a drop.
 */
static bool reserve_numbered(struct writer *w, u32 len, struct lkst_slot *slot,
			     u64 *seq, bool *unknown)
{
	struct lkst_cpu_buffer *cb = w->cb;
	struct lkst_block *blk;
	struct lkst_page *pg = NULL;
	u64 p0, p1, g0 = 0;
	u32 id;

	do {
		p0 = local64_read(&cb->pos);
		id = lkst_pos_block(p0);
		blk = id < LKST_MAX_BLOCKS ?
			rcu_dereference_sched(cb->blocks[id]) : NULL;
		pg = blk && lkst_pos_page(p0) < blk->nr_pages ?
			lkst_block_page(blk, lkst_pos_page(p0)) : NULL;
		if (pg)
			g0 = READ_ONCE(pg->gen);
		barrier();
		p1 = local64_read(&cb->pos);
	} while (p1 != p0);
	if (!lkst_buf_reserve_pid(cb, len, WRITER_PID(w->id), slot))
		return false;
	*unknown = false;
	if ((char *)slot->rec == (char *)slot->page + LKST_PAGE_HEAD) {
		*seq = READ_ONCE(slot->page->first_seq);
	} else if (slot->page == pg && !(p0 & LKST_POS_SWITCHING) &&
		   READ_ONCE(pg->gen) == g0 &&
		   (char *)slot->rec == (char *)pg + lkst_pos_offset(p0)) {
		*seq = READ_ONCE(pg->first_seq) + lkst_pos_count(p0);
	} else {
		*unknown = true;
		*seq = 0;
		w->unknown_seq++;
	}
	return true;
}

/* One event at @level: reserve, (maybe be interrupted), fill, commit. */
static void write_record(struct writer *w, int level)
{
	struct lkst_record content;
	struct lkst_slot slot;
	u64 counter = w->next_counter[level], seq;
	u64 key = counter << 8 | (u64)w->id << 2 | level;
	bool unknown;
	u32 n, len, wide;
	u32 *end, *low;

	__atomic_store_n(&w->next_counter[level], counter + 1, __ATOMIC_RELAXED);
	n = nr_args_of(key);
	make_args(key, content.arg);
	len = lkst_brec_layout(content.arg, n, &wide);
	__atomic_store_n(&w->busy[level], true, __ATOMIC_RELAXED);
	barrier();
	if (!reserve_numbered(w, len, &slot, &seq, &unknown)) {
		w->drops[level]++;
		if (lower_level_holds(w, level))
			w->lapping_drops++;
		else if (!w->cfg->stop && !lower_level_busy(w, level))
			w->bad_drops++;
		barrier();
		__atomic_store_n(&w->busy[level], false, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&w->holding[level], true, __ATOMIC_RELAXED);
	make_record(&content, w->id, level, counter, seq, unknown);
	end = lkst_slot_put_pid(&slot, content.pid);
	maybe_interrupt(w, level);
	for (u32 i = n; i-- > 0;)
		end = lkst_brec_put_high_before(end, content.arg[i]);
	low = lkst_slot_args(&slot);
	for (u32 i = 0; i < n; i++)
		WRITE_ONCE(low[i], (u32)content.arg[i]);
	lkst_slot_put_time(&slot, content.time_ns);
	lkst_buf_commit(&slot,
			LKST_BREC_INFO(content.event, content.context, n, wide));
	barrier();
	__atomic_store_n(&w->holding[level], false, __ATOMIC_RELAXED);
	__atomic_store_n(&w->busy[level], false, __ATOMIC_RELAXED);
	w->commits[level]++;
}

/* Sometimes raise an interrupt right inside the reserve..commit window. */
static void maybe_interrupt(struct writer *w, int level)
{
	if (use_signals && level < NR_LEVELS - 1 &&
	    next_random(&w->rng[level]) % 8 == 0)
		raise(SIGRTMIN);
}

/*
 * A handler's jump from NMI context: refused (-EBUSY) when it interrupted
 * a writer moving the position or one still writing in the target page,
 * which nothing below an NMI can be doing while it runs.
 */
static void nmi_jump(struct writer *w, int level)
{
	struct lkst_block *target =
		w->cb->blocks[next_random(&w->rng[level]) % MAX_CFG_BLOCKS];

	if (!target)
		return;
	if (lkst_buf_jump_pos(w->cb, target))
		w->nmi_jumps_refused++;
	else
		w->nmi_jumps++;
}

/* A block's next changed, as by BLOCK_LINK on another CPU. */
static void relink(struct writer *w, int level)
{
	u32 id = next_random(&w->rng[level]) % MAX_CFG_BLOCKS;
	u32 next = next_random(&w->rng[level]) % (MAX_CFG_BLOCKS + 1);

	if (w->cb->blocks[id])
		WRITE_ONCE(w->cb->blocks[id]->next,
			   next < MAX_CFG_BLOCKS ? next : LKST_NO_NEXT);
}

/* The nested writer: whatever the signal, it runs one level deeper. */
static void interrupt_handler(int sig)
{
	struct writer *w = this_cpu;
	int saved_errno = errno, level;
	u32 burst;

	(void)sig;
	if (!w)
		return;
	level = __atomic_add_fetch(&w->depth, 1, __ATOMIC_RELAXED);
	if (level >= NR_LEVELS) {
		w->too_deep++;		/* only one handler can be this deep */
		goto out;
	}
	if (__atomic_load_n(&w->holding[level - 1], __ATOMIC_RELAXED))
		__atomic_fetch_add(&w->nested_while_holding, 1,
				   __ATOMIC_RELAXED);
	/* An IPI, not an NMI, resizes. */
	if (w->cfg->irq_resize && level < NR_LEVELS - 1 &&
	    next_random(&w->rng[level]) % 4 == 0)
		irq_resize_buffer(w, level);
	if (w->cfg->relinks && level == NR_LEVELS - 1 &&
	    next_random(&w->rng[level]) % 2 == 0)
		relink(w, level);
	burst = 1 + next_random(&w->rng[level]) % w->cfg->max_burst;
	while (burst--)
		write_record(w, level);
	if (w->cfg->nmi_jumps && level == NR_LEVELS - 1 &&
	    next_random(&w->rng[level]) % 4 == 0)
		nmi_jump(w, level);
out:
	__atomic_sub_fetch(&w->depth, 1, __ATOMIC_RELAXED);
	errno = saved_errno;
}

static void arm_timers(struct writer *w)
{
	static const long period_ns[2] = { 47000, 71000 };
	struct sigevent sev;
	struct itimerspec its;

	for (int i = 0; i < 2; i++) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGRTMIN + i;
		sev.sigev_notify_thread_id = w->tid;
		if (timer_create(CLOCK_MONOTONIC, &sev, &w->timers[i])) {
			perror("timer_create");
			exit(2);
		}
		memset(&its, 0, sizeof(its));
		its.it_value.tv_nsec = period_ns[i];
		its.it_interval.tv_nsec = period_ns[i];
		timer_settime(w->timers[i], 0, &its, NULL);
	}
	w->timers_armed = true;
}

/* Stop interrupts for good: delete the timers, then block what is queued. */
static void disarm_timers(struct writer *w)
{
	sigset_t set;

	if (!w->timers_armed)
		return;
	for (int i = 0; i < 2; i++)
		timer_delete(w->timers[i]);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGRTMIN + 1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/*
 * What a resize does on the owning CPU: new blocks of other sizes with the
 * same IDs and links in place of all the old ones, the old ones' records
 * discarded, writing on at the first page of the current block's
 * replacement, numbered on.  The old blocks stay allocated for the
 * readers that may be copying them (RCU in the kernel).  Here: put @fresh
 * (by ID) in place at @level; false when the position is held by a writer
 * this one interrupted (the kernel's IPI then tries again later).
 */
static bool buf_mutex_trylock(struct writer *w)
{
	return !__atomic_exchange_n(&w->buf_mutex, true, __ATOMIC_ACQUIRE);
}

static void buf_mutex_lock(struct writer *w)
{
	while (!buf_mutex_trylock(w))
		sched_yield();
}

static void buf_mutex_unlock(struct writer *w)
{
	__atomic_store_n(&w->buf_mutex, false, __ATOMIC_RELEASE);
}

static bool switch_blocks(struct writer *w, int level, struct lkst_block **fresh)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 pos, first_seq;
	bool done = false;

	__atomic_store_n(&w->busy[level], true, __ATOMIC_RELAXED);
	barrier();
	if (!lkst_buf_begin_switch(cb, &pos, &first_seq)) {
		for (u32 id = 0; id < MAX_CFG_BLOCKS; id++) {
			if (!fresh[id])
				continue;
			w->grave[__atomic_fetch_add(&w->nr_grave, 1,
						    __ATOMIC_RELAXED)] = cb->blocks[id];
			rcu_assign_pointer(cb->blocks[id], fresh[id]);
		}
		lkst_buf_end_switch(cb, cb->blocks[lkst_pos_block(pos)], first_seq);
		__atomic_fetch_add(&w->resizes, 1, __ATOMIC_RELAXED);
		done = true;
	}
	barrier();
	__atomic_store_n(&w->busy[level], false, __ATOMIC_RELAXED);
	return done;
}

static void resize_buffer(struct writer *w, u64 *rnd)
{
	struct lkst_block *fresh[MAX_CFG_BLOCKS] = { 0 };

	if (w->nr_grave + MAX_CFG_BLOCKS > MAX_GRAVE)
		return;
	for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
		if (w->cfg->nr_pages[id] != MISSING)
			fresh[id] = new_block(id, 1 + next_random(rnd) % 5,
					     w->cfg->next[id]);
	buf_mutex_lock(w);
	if (switch_blocks(w, 0, fresh)) {
		buf_mutex_unlock(w);
		return;
	}
	buf_mutex_unlock(w);
	w->busy_switches++;	/* cannot be: nobody below the owner */
	for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
		if (fresh[id])
			free_block(fresh[id]);
}

/* From an interrupt: the blocks come from the pool (a failed try wastes them). */
static void irq_resize_buffer(struct writer *w, int level)
{
	u32 set = __atomic_fetch_add(&w->pool_next, 1, __ATOMIC_RELAXED);

	if (set >= IRQ_RESIZES || !buf_mutex_trylock(w))
		return;
	if (__atomic_exchange_n(&w->resize_grace, true, __ATOMIC_RELAXED)) {
		buf_mutex_unlock(w);
		return;
	}
	if (switch_blocks(w, level, w->pool[set]))
		memset(w->pool[set], 0, sizeof(w->pool[set]));
	else
		__atomic_store_n(&w->resize_grace, false, __ATOMIC_RELAXED);
	buf_mutex_unlock(w);
}

/*
 * Count what the blocks replaced by resizes hold, once no writer can
 * still be in one, as the kernel does after a grace period.
 */
static void discard_graves(struct writer *w)
{
	u64 held = 0;

	for (u32 i = 0; i < w->nr_grave; i++)
		for (u32 p = 0; p < w->grave[i]->nr_pages; p++)
			held += lkst_page_count(lkst_block_page(w->grave[i], p));
	WRITE_ONCE(w->cb->discarded, w->cb->discarded + held);
}

static void jump_buffer(struct writer *w, u64 *rnd)
{
	struct lkst_cpu_buffer *cb = w->cb;
	struct lkst_block *target = cb->blocks[next_random(rnd) % MAX_CFG_BLOCKS];
	u64 before = local64_read(&cb->overwritten);

	if (!target)
		return;		/* the kernel says ENOENT */
	__atomic_store_n(&w->busy[0], true, __ATOMIC_RELAXED);
	barrier();
	/* A resize's IPI between the handler's lookup and its jump. */
	if (w->cfg->irq_resize && use_signals && next_random(rnd) % 4 == 0)
		raise(SIGRTMIN);
	if (!lkst_buf_jump_pos(cb, target))
		w->jumps++;
	else if (READ_ONCE(cb->blocks[target->id]) != target)
		w->stale_jumps++;	/* refused, as it must be */
	else
		w->busy_switches++;
	/* In STOP mode only jumps overwrite, and no interrupt does. */
	w->jump_overwritten += local64_read(&cb->overwritten) - before;
	barrier();
	__atomic_store_n(&w->busy[0], false, __ATOMIC_RELAXED);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	u64 rnd = w->id * 1000003ULL;

	w->tid = syscall(SYS_gettid);
	this_cpu = w;
	if (use_signals)
		arm_timers(w);
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 64; i++) {
			write_record(w, 0);
			/* No writer an interrupt's resize saw is running. */
			__atomic_store_n(&w->resize_grace, false, __ATOMIC_RELAXED);
		}
		/* Jumps and resizes run on the owning CPU, between events. */
		if (w->cfg->jumps && next_random(&rnd) % 2)
			jump_buffer(w, &rnd);
		__atomic_store_n(&w->resize_grace, false, __ATOMIC_RELAXED);
		if (w->cfg->resize && next_random(&rnd) % 8 == 0)
			resize_buffer(w, &rnd);
	}
	disarm_timers(w);
	this_cpu = NULL;
	return NULL;
}

static void report_reader_error(const char *what, int writer, u32 block,
				u32 page, u64 seq, const struct lkst_record *r)
{
	if (__atomic_fetch_add(&reader_errors, 1, __ATOMIC_RELAXED) < 5)
		fprintf(stderr, "reader: %s: cpu %d block %u page %u seq %llu "
			"time %#llx pid %u arg0 %#llx\n", what, writer,
			block, page, seq, r->time_ns, r->pid, r->arg[0]);
}

/* Copy every page of every block of every buffer, checking each record. */
static void *reader_main(void *arg)
{
	u64 copies = 0, refusals = 0, pages = 0, first;
	struct lkst_record *out = calloc(LKST_PAGE_MAX_RECORDS, sizeof(*out));

	(void)arg;
	while (!__atomic_load_n(&stop_readers, __ATOMIC_RELAXED)) {
		for (int c = 0; c < NR_WRITERS; c++) {
			struct writer *w = &writers[c];

			for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
				struct lkst_block *blk =
					rcu_dereference_sched(w->cb->blocks[id]);

				for (u32 p = 0; blk && p < blk->nr_pages; p++) {
					int n = lkst_page_read(lkst_block_page(blk, p),
							       out, &first);

					if (n < 0) {
						refusals++;
						continue;
					}
					pages++;
					copies += n;
					for (int k = 0; k < n; k++) {
						struct lkst_record *r = &out[k];

						if (!record_is_consistent(r, c, first + k))
							report_reader_error("torn, mixed or misnumbered record",
									    c, id, p, first + k, r);
						else if (record_counter(r) >= __atomic_load_n(
							 &w->next_counter[record_level(r)],
							 __ATOMIC_RELAXED))
							report_reader_error("record from the future",
									    c, id, p, first + k, r);
					}
				}
			}
		}
	}
	free(out);
	__atomic_fetch_add(&reader_copies, copies, __ATOMIC_RELAXED);
	__atomic_fetch_add(&reader_refusals, refusals, __ATOMIC_RELAXED);
	__atomic_fetch_add(&reader_pages, pages, __ATOMIC_RELAXED);
	return NULL;
}

/* A reader in the way of lkbuf record, one per buffer. */
struct drainer {
	struct writer *w;
	u64 cursor, drained, lost, drains, still, errors;
	u8 *lost_bits;			/* by sequence number */
	size_t lost_bytes;
	struct lkst_record *records;
	u64 *seqs;
	size_t cap, n;
	u64 last_level_counter[NR_LEVELS];
	struct lkst_page_ref *refs;
	size_t nr_refs;
	struct lkst_record tmp[LKST_PAGE_MAX_RECORDS];
};

static struct drainer drainers[NR_WRITERS];

static void drainer_error(struct drainer *d, const char *what, u64 seq)
{
	if (d->errors++ < 5)
		fprintf(stderr, "drainer of cpu %d: %s: seq %llu\n", d->w->id, what, seq);
}

static void mark_lost(struct drainer *d, u64 from, u64 to)
{
	if (to / 8 >= d->lost_bytes) {
		size_t bytes = (to / 8 + 1) * 2;

		d->lost_bits = realloc(d->lost_bits, bytes);
		memset(d->lost_bits + d->lost_bytes, 0, bytes - d->lost_bytes);
		d->lost_bytes = bytes;
	}
	for (u64 seq = from; seq < to; seq++)
		d->lost_bits[seq / 8] |= 1 << (seq % 8);
}

static bool was_lost(const struct drainer *d, u64 seq)
{
	return seq / 8 < d->lost_bytes && (d->lost_bits[seq / 8] >> (seq % 8) & 1);
}

/* What the DRAIN ioctl copies out: the record and its number. */
static int drain_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct drainer *d = ctx;

	if (d->n >= d->cap)
		return -ENOSPC;
	if (d->n && seq <= d->seqs[d->n - 1])
		drainer_error(d, "walk handed numbers out of order", seq);
	d->records[d->n] = *rec;
	d->seqs[d->n++] = seq;
	return 0;
}

/* What LKST_IOC_BUFFER_DRAIN does, then what lkbuf does with it. */
static struct lkst_drain_result drain_once(struct drainer *d)
{
	struct lkst_cpu_buffer *cb = d->w->cb;
	struct lkst_block *blocks[LKST_MAX_BLOCKS];
	struct lkst_drain_result res;
	u64 nr_pages = 0, nr, next, want;
	int ret;

	buf_mutex_lock(d->w);
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		blocks[id] = rcu_dereference_sched(cb->blocks[id]);
		if (blocks[id])
			nr_pages += blocks[id]->nr_pages;
	}
	if (nr_pages > d->nr_refs) {
		d->refs = realloc(d->refs, nr_pages * sizeof(*d->refs));
		d->nr_refs = nr_pages;
	}
	if (nr_pages * LKST_PAGE_MAX_RECORDS > d->cap) {
		d->cap = nr_pages * LKST_PAGE_MAX_RECORDS;
		d->records = realloc(d->records, d->cap * sizeof(*d->records));
		d->seqs = realloc(d->seqs, d->cap * sizeof(*d->seqs));
	}
	d->n = 0;
	nr = lkst_buf_list_pages(blocks, -1, d->refs, nr_pages);
	ret = lkst_buf_walk(blocks, d->refs, nr < nr_pages ? nr : nr_pages,
			    d->cursor, true, d->tmp, drain_emit, d, &next);
	buf_mutex_unlock(d->w);
	if (ret)
		drainer_error(d, "walk failed", next);
	if (next < d->cursor)
		drainer_error(d, "next_seq went back", next);
	if (lkst_drain_settle(d->records, d->seqs, d->n, d->cursor, next, NULL, 0,
			      0, &res))
		abort();
	if (res.seq_start != d->cursor)
		drainer_error(d, "settled from another number than the cursor", res.seq_start);
	if (res.nr != d->n)
		drainer_error(d, "settle left records out", res.seq_end);
	want = d->cursor;
	for (size_t i = 0; i < res.nr; i++) {
		const struct lkst_record *r = &d->records[i];
		int level = record_level(r);

		if (!record_is_consistent(r, d->w->id, d->seqs[i])) {
			drainer_error(d, "torn, foreign or misnumbered record", d->seqs[i]);
		} else {
			/* A level's records take their numbers in order. */
			if (record_counter(r) < d->last_level_counter[level])
				drainer_error(d, "a level's records out of order", d->seqs[i]);
			d->last_level_counter[level] = record_counter(r) + 1;
		}
		if (d->seqs[i] < want)
			drainer_error(d, "number out of order or twice", d->seqs[i]);
		else
			mark_lost(d, want, d->seqs[i]);
		want = d->seqs[i] + 1;
	}
	if (want < res.seq_end)
		mark_lost(d, want, res.seq_end);
	d->drained += res.nr;
	d->lost += res.lost;
	d->still += res.seq_end == d->cursor;
	d->cursor = res.seq_end;
	d->drains++;
	return res;
}

static void *drainer_main(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_readers, __ATOMIC_RELAXED))
		for (int c = 0; c < NR_WRITERS; c++)
			drain_once(&drainers[c]);
	return NULL;
}

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s: check failed: %s: ", cfg->name, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		failures++;						\
	}								\
} while (0)

static u64 next_seq_of(struct lkst_cpu_buffer *cb)
{
	return lkst_buf_next_seq(cb, cb->blocks);
}

/*
 * Quiet buffer: one more drain reaches the buffer's next number, drained
 * + lost account for every number, and no record still in a page was
 * counted lost.
 */
static void check_drainer(const struct config *cfg, struct drainer *d)
{
	struct lkst_cpu_buffer *cb = d->w->cb;
	struct lkst_record *out = calloc(LKST_PAGE_MAX_RECORDS, sizeof(*out));
	u64 next = next_seq_of(cb), resurrected = 0, first;

	drain_once(d);
	CHECK(d->cursor == next, "cpu %d: drained to %llu, next_seq %llu",
	      d->w->id, d->cursor, next);
	CHECK(d->drained + d->lost == next, "cpu %d: drained %llu + lost %llu != %llu",
	      d->w->id, d->drained, d->lost, next);
	CHECK(d->errors == 0, "cpu %d: %llu bad drains", d->w->id, d->errors);
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = cb->blocks[id];

		for (u32 p = 0; blk && p < blk->nr_pages; p++) {
			int n = lkst_page_read(lkst_block_page(blk, p), out, &first);

			for (int k = 0; k < n; k++)
				resurrected += was_lost(d, first + k);
		}
	}
	CHECK(resurrected == 0, "cpu %d: %llu records counted lost are in pages",
	      d->w->id, resurrected);
	free(out);
}

static struct lkst_cpu_buffer *build_buffer(const struct config *cfg)
{
	struct lkst_cpu_buffer *cb = new_buffer();

	cb->mode = cfg->stop ? LKST_MODE_STOP : LKST_MODE_OVERWRITE;
	for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
		if (cfg->nr_pages[id] != MISSING)
			add_block(cb, id, cfg->nr_pages[id], cfg->next[id]);
	start_buffer(cb, cb->blocks[0]);
	return cb;
}

static int compare_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 sum(const u64 *v)
{
	u64 total = 0;

	for (int i = 0; i < NR_LEVELS; i++)
		total += v[i];
	return total;
}

/*
 * Quiet buffer: counters match the writers' own counts, every record is
 * whole, none is in two places, and every number given is held in a page,
 * overwritten, discarded by a resize or erased by the test.
 */
static void check_accounting(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 next = next_seq_of(cb), first;
	u64 overwritten = local64_read(&cb->overwritten);
	u64 dropped = local64_read(&cb->dropped);
	u64 held = 0, nr_keys = 0, torn = 0, dups = 0, total = 0, busy = 0;
	struct lkst_record *out = calloc(LKST_PAGE_MAX_RECORDS, sizeof(*out));
	u64 *keys;

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++)
		if (cb->blocks[id])
			total += cb->blocks[id]->nr_pages * LKST_PAGE_MAX_RECORDS;
	keys = calloc(total, sizeof(*keys));

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = cb->blocks[id];

		for (u32 p = 0; blk && p < blk->nr_pages; p++) {
			struct lkst_page *pg = lkst_block_page(blk, p);
			u32 count = lkst_page_count(pg);
			int n = lkst_page_read(pg, out, &first);

			busy += READ_ONCE(pg->writers) != 0;
			held += count;
			if (n != (int)count && !(n < 0 && count == 0))
				torn++;
			for (int k = 0; k < n; k++) {
				if (!record_is_consistent(&out[k], w->id, first + k)) {
					torn++;
					continue;
				}
				keys[nr_keys++] = (u32)out[k].time_ns & ~UNKNOWN_SEQ;
			}
		}
	}
	qsort(keys, nr_keys, sizeof(*keys), compare_u64);
	for (u64 i = 1; i < nr_keys; i++)
		dups += keys[i] == keys[i - 1];
	free(keys);
	free(out);

	CHECK(dropped == sum(w->drops), "cpu %d dropped %llu, writers' drops %llu",
	      w->id, dropped, sum(w->drops));
	CHECK(w->bad_drops == 0, "cpu %d: %llu drops with nobody to make way for",
	      w->id, w->bad_drops);
	CHECK(!cfg->stop ? w->drops[0] == 0 : true,
	      "cpu %d: the task level dropped %llu", w->id, w->drops[0]);
	CHECK(w->busy_switches == 0, "cpu %d: %llu jumps/resizes refused",
	      w->id, w->busy_switches);
	CHECK(busy == 0, "cpu %d: %llu pages with writers left", w->id, busy);
	CHECK(torn == 0, "cpu %d: %llu bad records at rest", w->id, torn);
	CHECK(dups == 0, "cpu %d: %llu records in two places", w->id, dups);
	CHECK(held + overwritten + cb->discarded + w->erased == next,
	      "cpu %d: held %llu + overwritten %llu + discarded %llu + erased %llu "
	      "!= next_seq %llu", w->id, held, overwritten, cb->discarded,
	      w->erased, next);
	CHECK(next >= sum(w->commits), "cpu %d: next_seq %llu < commits %llu",
	      w->id, next, sum(w->commits));
}

/* The block a full block moves on to: its next if that exists, else itself. */
static u32 effective_next(struct lkst_cpu_buffer *cb, u32 id)
{
	u32 next = cb->blocks[id]->next;

	return next < LKST_MAX_BLOCKS && cb->blocks[next] ? next : id;
}

struct collect {
	struct lkst_record *recs;
	u64 *seqs;
	u64 n, cap;
};

static int collect_emit(void *ctx, const struct lkst_record *rec, u64 seq)
{
	struct collect *c = ctx;

	if (c->n >= c->cap)
		return -ENOSPC;
	c->recs[c->n] = *rec;
	c->seqs[c->n++] = seq;
	return 0;
}

/* Every record of the buffer, walked from number 0; returns next_seq. */
static u64 walk_all(struct lkst_cpu_buffer *cb, struct collect *c)
{
	u64 nr_pages = 0, nr, next = 0;
	struct lkst_page_ref *refs;
	struct lkst_record *tmp = calloc(LKST_PAGE_MAX_RECORDS, sizeof(*tmp));

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++)
		if (cb->blocks[id])
			nr_pages += cb->blocks[id]->nr_pages;
	refs = calloc(nr_pages, sizeof(*refs));
	c->cap = nr_pages * LKST_PAGE_MAX_RECORDS;
	c->recs = calloc(c->cap, sizeof(*c->recs));
	c->seqs = calloc(c->cap, sizeof(*c->seqs));
	c->n = 0;
	nr = lkst_buf_list_pages(cb->blocks, -1, refs, nr_pages);
	if (lkst_buf_walk(cb->blocks, refs, nr, 0, true, tmp, collect_emit, c, &next))
		next = 0;
	free(refs);
	free(tmp);
	return next;
}

/*
 * Single-threaded: jump to block 0 and write twice as many records as the
 * buffer holds.  The writer then goes round a cycle of blocks; a walk from
 * 0 gives strictly increasing numbers, and its last records are the
 * newest task-level ones in order, at least all the cycle's pages but one
 * hold.
 */
static void check_final_order(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 before_dropped = local64_read(&cb->dropped), before_next;
	u64 total_pages = 0, nr_records, cycle_pages = 0, next, run;
	struct collect c;
	bool in_order = true;
	u32 cur, id;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (cb->blocks[id])
			total_pages += cb->blocks[id]->nr_pages;
	nr_records = 2 * total_pages * LKST_PAGE_MAX_RECORDS + 3;
	CHECK(lkst_buf_jump_pos(cb, cb->blocks[0]) == 0, "cpu %d: jump", w->id);
	before_next = next_seq_of(cb);
	w->depth = 0;
	for (u64 i = 0; i < nr_records; i++)
		write_record(w, 0);

	cur = lkst_pos_block(local64_read(&cb->pos));
	id = cur;
	do {
		cycle_pages += cb->blocks[id]->nr_pages;
		id = effective_next(cb, id);
	} while (id != cur);

	next = walk_all(cb, &c);
	CHECK(next == next_seq_of(cb), "cpu %d: walk ended at %llu, next_seq %llu",
	      w->id, next, next_seq_of(cb));
	CHECK(next == before_next + nr_records, "cpu %d: %llu numbered of %llu",
	      w->id, next - before_next, nr_records);
	for (u64 i = 1; i < c.n; i++)
		if (c.seqs[i] <= c.seqs[i - 1])
			in_order = false;
	CHECK(in_order, "cpu %d: walk numbers not increasing", w->id);
	/* The newest run without a gap: the last records written, in order. */
	run = 0;
	in_order = c.n && c.seqs[c.n - 1] == next - 1;
	for (u64 i = c.n; in_order && i-- > 0; run++) {
		const struct lkst_record *r = &c.recs[i];

		if (i + 1 < c.n && c.seqs[i] + 1 != c.seqs[i + 1])
			break;
		if (!record_is_consistent(r, w->id, c.seqs[i]) ||
		    record_level(r) != 0 ||
		    record_counter(r) != w->next_counter[0] - (c.n - i)) {
			fprintf(stderr, "%s: seq %llu: want counter %llu, got %llu\n",
				cfg->name, c.seqs[i], w->next_counter[0] - (c.n - i),
				record_counter(r));
			in_order = false;
		}
	}
	CHECK(in_order, "cpu %d: newest records not in order", w->id);
	CHECK(run >= (cycle_pages - 1) * MIN_PER_PAGE, "cpu %d: newest run %llu "
	      "records, cycle of %llu pages", w->id, run, cycle_pages);
	CHECK(local64_read(&cb->dropped) == before_dropped, "cpu %d dropped",
	      w->id);
	free(c.recs);
	free(c.seqs);
	check_accounting(cfg, w);	/* still exact after the final phase */
}

/*
 * STOP mode, single-threaded: after a jump to block 0 of an emptied chain
 * the writer fills the chain's pages once, in order, exactly as a model of
 * page offsets says (a small record still fits a page's tail after a large
 * one was dropped), then drops; nothing is overwritten.
 */
static void check_final_stop(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 before_dropped = local64_read(&cb->dropped);
	u64 before_over = local64_read(&cb->overwritten);
	u64 chain_pages = 0, nr_records, expect_written = 0, expect_dropped = 0;
	u64 start_seq, start_counter, next, pos, first_seq;
	u32 chain[MAX_CFG_BLOCKS], nr = 0, id = 0, page = 0, offset, pg_total;
	struct collect c;
	bool in_order = true;

	/* The chain: follow next links while they name a block not seen yet. */
	for (;;) {
		chain[nr++] = id;
		chain_pages += cb->blocks[id]->nr_pages;
		id = cb->blocks[id]->next;
		if (id >= LKST_MAX_BLOCKS || !cb->blocks[id])
			break;
		for (u32 i = 0; i < nr; i++)
			CHECK(chain[i] != id, "config has a ring; STOP needs a chain (block %u)", id);
	}
	/*
	 * Hold the position (as a resize does), empty the chain as fresh
	 * blocks are, then continue at block 0 numbered on: STOP never
	 * overwrites, so only emptied pages take records again.
	 */
	start_seq = next_seq_of(cb);
	CHECK(lkst_buf_begin_switch(cb, &pos, &first_seq) == 0, "cpu %d: begin_switch",
	      w->id);
	CHECK(first_seq == start_seq, "cpu %d: begin_switch numbers from %llu, "
	      "next_seq %llu", w->id, first_seq, start_seq);
	for (u32 i = 0; i < nr; i++) {
		struct lkst_block *blk = cb->blocks[chain[i]];

		for (u32 p = 0; p < blk->nr_pages; p++)
			w->erased += lkst_page_count(lkst_block_page(blk, p));
		memset(blk->pages, 0, (size_t)blk->nr_pages * LKST_PAGE_SIZE);
	}
	lkst_buf_end_switch(cb, cb->blocks[0], first_seq);
	CHECK(local64_read(&cb->overwritten) == before_over,
	      "cpu %d: a switch to an empty page overwrote", w->id);
	CHECK(next_seq_of(cb) == start_seq, "cpu %d: numbering went from %llu to %llu",
	      w->id, start_seq, next_seq_of(cb));
	start_counter = w->next_counter[0];
	w->depth = 0;
	nr_records = chain_pages * LKST_PAGE_MAX_RECORDS + 50;
	/*
	 * The model: pages of the chain in order, each from its head, where
	 * a record stores the PID word the others of the page leave out.
	 */
	pg_total = chain_pages;
	offset = LKST_PAGE_HEAD;
	for (u64 i = 0; i < nr_records; i++) {
		u32 len = record_len_of((start_counter + i) << 8 |
					(u64)w->id << 2);

		if (offset != LKST_PAGE_HEAD)
			len -= 4;
		if (offset + len > LKST_PAGE_SIZE && page + 1 < pg_total) {
			page++;
			offset = LKST_PAGE_HEAD;
			len += 4;
		}
		if (offset + len > LKST_PAGE_SIZE) {
			expect_dropped++;
			continue;
		}
		offset += len;
		expect_written++;
	}
	for (u64 i = 0; i < nr_records; i++)
		write_record(w, 0);
	next = next_seq_of(cb);
	CHECK(next - start_seq == expect_written, "cpu %d: written %llu, model %llu",
	      w->id, next - start_seq, expect_written);
	CHECK(local64_read(&cb->dropped) - before_dropped == expect_dropped,
	      "cpu %d: %llu dropped, model %llu", w->id,
	      local64_read(&cb->dropped) - before_dropped, expect_dropped);
	CHECK(local64_read(&cb->overwritten) == before_over,
	      "cpu %d: STOP mode overwrote records", w->id);
	/* The chain holds the records in order, numbered from start_seq. */
	walk_all(cb, &c);
	{
		u64 k = 0, counter = start_counter;

		for (u64 i = 0; i < c.n; i++) {
			if (c.seqs[i] < start_seq)
				continue;	/* other blocks' (stop_jumps) */
			while (counter < start_counter + nr_records &&
			       record_counter(&c.recs[i]) != counter)
				counter++;	/* dropped ones */
			if (c.seqs[i] != start_seq + k ||
			    !record_is_consistent(&c.recs[i], w->id, c.seqs[i]) ||
			    record_level(&c.recs[i]) != 0 ||
			    record_counter(&c.recs[i]) != counter)
				in_order = false;
			k++;
			counter++;
		}
		CHECK(k == expect_written, "cpu %d: walked %llu of %llu", w->id,
		      k, expect_written);
	}
	CHECK(in_order, "cpu %d: the chain does not hold the first records in order", w->id);
	free(c.recs);
	free(c.seqs);
	check_accounting(cfg, w);
}

static void run_config(const struct config *cfg, long duration_ms)
{
	pthread_t writer_threads[NR_WRITERS], reader_threads[NR_READERS], drainer_thread;
	u64 drained = 0, lost = 0, still = 0, drains = 0;
	struct timespec duration = {
		duration_ms / 1000, (duration_ms % 1000) * 1000000
	};
	u64 level_commits[NR_LEVELS] = { 0 }, drops = 0, overwritten = 0;
	u64 nested_holding = 0, jumps = 0, resizes = 0, lapping = 0, unknown = 0;
	u64 stale_jumps = 0, nmi_jumps = 0, nmi_refused = 0;
	int failures_before = failures;

	stop_writers = stop_readers = 0;
	reader_copies = reader_refusals = reader_errors = reader_pages = 0;
	for (int c = 0; c < NR_WRITERS; c++) {
		struct writer *w = &writers[c];

		memset(w, 0, sizeof(*w));
		w->id = c;
		w->cfg = cfg;
		w->cb = build_buffer(cfg);
		for (u32 set = 0; cfg->irq_resize && set < IRQ_RESIZES; set++) {
			u64 rnd = (u64)c << 40 | set;

			for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
				if (cfg->nr_pages[id] != MISSING)
					w->pool[set][id] = new_block(id,
						1 + next_random(&rnd) % 5, cfg->next[id]);
		}
		for (int l = 0; l < NR_LEVELS; l++) {
			w->rng[l] = (u64)c << 32 | l;
			w->next_counter[l] = 1;
		}
		memset(&drainers[c], 0, sizeof(drainers[c]));
		drainers[c].w = w;
	}
	pthread_create(&drainer_thread, NULL, drainer_main, NULL);
	for (int i = 0; i < NR_READERS; i++)
		pthread_create(&reader_threads[i], NULL, reader_main, NULL);
	for (int c = 0; c < NR_WRITERS; c++)
		pthread_create(&writer_threads[c], NULL, writer_main, &writers[c]);
	nanosleep(&duration, NULL);
	__atomic_store_n(&stop_writers, 1, __ATOMIC_RELAXED);
	for (int c = 0; c < NR_WRITERS; c++)
		pthread_join(writer_threads[c], NULL);
	__atomic_store_n(&stop_readers, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NR_READERS; i++)
		pthread_join(reader_threads[i], NULL);
	pthread_join(drainer_thread, NULL);

	CHECK(reader_errors == 0, "%llu bad records seen by readers",
	      reader_errors);
	for (int c = 0; c < NR_WRITERS; c++) {
		struct writer *w = &writers[c];

		for (int l = 0; l < NR_LEVELS; l++)
			level_commits[l] += w->commits[l];
		drops += local64_read(&w->cb->dropped);
		overwritten += local64_read(&w->cb->overwritten);
		nested_holding += w->nested_while_holding;
		lapping += w->lapping_drops;
		unknown += w->unknown_seq;
		jumps += w->jumps;
		resizes += w->resizes;
		stale_jumps += w->stale_jumps;
		nmi_jumps += w->nmi_jumps;
		nmi_refused += w->nmi_jumps_refused;
		discard_graves(w);
		check_accounting(cfg, w);
		check_drainer(cfg, &drainers[c]);
		drained += drainers[c].drained;
		lost += drainers[c].lost;
		still += drainers[c].still;
		drains += drainers[c].drains;
		if (cfg->stop)
			CHECK(local64_read(&w->cb->overwritten) == w->jump_overwritten,
			      "cpu %d: STOP mode overwrote %llu records, jumps %llu",
			      w->id, local64_read(&w->cb->overwritten),
			      w->jump_overwritten);
	}
	for (int c = 0; c < NR_WRITERS; c++) {
		/* The configured links again: the final walk follows them. */
		for (u32 id = 0; cfg->relinks && id < MAX_CFG_BLOCKS; id++)
			if (writers[c].cb->blocks[id])
				writers[c].cb->blocks[id]->next = cfg->next[id];
		if (cfg->stop)
			check_final_stop(cfg, &writers[c]);
		else
			check_final_order(cfg, &writers[c]);
	}
	if (use_signals)
		CHECK(level_commits[1] && nested_holding,
		      "%s", "signals never nested a writer");
	/* TSan defers signals: NMI-deep nesting may be rare there. */
	if (use_signals && cfg->nmi_jumps && level_commits[3] >= 1000)
		CHECK(nmi_jumps, "%s", "no NMI ever jumped");

	printf("# %-16s commits task/softirq/irq/nmi %llu/%llu/%llu/%llu, "
	       "overwritten %llu, dropped %llu (nested laps %llu), nested in "
	       "reserve..commit %llu, jumps %llu (refused as stale %llu), "
	       "resizes %llu, numbers unchecked %llu, reader pages %llu "
	       "records %llu refused %llu\n",
	       cfg->name, level_commits[0], level_commits[1],
	       level_commits[2], level_commits[3], overwritten, drops, lapping,
	       nested_holding, jumps, stale_jumps, resizes, unknown, reader_pages,
	       reader_copies, reader_refusals);
	printf("# %-16s drains %llu (no progress %llu): drained %llu, lost %llu\n",
	       cfg->name, drains, still, drained, lost);
	if (cfg->nmi_jumps)
		printf("# %-16s NMI jumps %llu (refused %llu)\n", cfg->name,
		       nmi_jumps, nmi_refused);
	printf("%s stress/%s%s\n", failures == failures_before ? "PASS" : "FAIL",
	       cfg->name, use_signals ? "" : "(no signals)");
	fflush(stdout);
	for (int c = 0; c < NR_WRITERS; c++) {
		for (u32 i = 0; i < writers[c].nr_grave; i++)
			free_block(writers[c].grave[i]);
		for (u32 set = 0; set < IRQ_RESIZES; set++)
			for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
				if (writers[c].pool[set][id])
					free_block(writers[c].pool[set][id]);
		free_buffer(writers[c].cb);
		free(drainers[c].records);
		free(drainers[c].seqs);
		free(drainers[c].refs);
		free(drainers[c].lost_bits);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	long duration_ms = 1000;
	int opt, ran = 0;

	while ((opt = getopt(argc, argv, "t:n")) != -1) {
		switch (opt) {
		case 't':
			duration_ms = atol(optarg);
			break;
		case 'n':
			use_signals = false;
			break;
		default:
			fprintf(stderr, "usage: %s [-t ms] [-n] [config...]\n",
				argv[0]);
			return 2;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interrupt_handler;
	sa.sa_flags = SA_NODEFER | SA_RESTART;	/* handlers nest freely */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	sigaction(SIGRTMIN + 1, &sa, NULL);

	for (size_t i = 0; i < NR_CONFIGS; i++) {
		bool wanted = optind == argc;

		for (int a = optind; a < argc; a++)
			wanted |= !strcmp(argv[a], configs[i].name);
		if (wanted) {
			run_config(&configs[i], duration_ms);
			ran++;
		}
	}
	if (!ran) {
		fprintf(stderr, "no such config\n");
		return 2;
	}
	return failures ? 1 : 0;
}
