// SPDX-License-Identifier: GPL-2.0
/*
 * Stress test of the lockless per-CPU buffer (lkst_buf.c).
 *
 * Each writer thread plays one CPU and is the only thread writing its
 * buffer.  Signals play interrupts: two per-thread POSIX timers (SIGRTMIN,
 * SIGRTMIN+1, both SA_NODEFER so any handler can interrupt any other) fire
 * at arbitrary instructions, and the writer itself sometimes raise()s one
 * between reserve and commit, so a nested writer surely runs while a slot
 * is held.  The nesting level (0 task, 1 softirq, 2 irq, 3 NMI) is the
 * handler depth; deeper signals return at once.  Reader threads copy every
 * slot of every block of every buffer meanwhile, and one drainer thread
 * per buffer reads it as `lkbuf record` does: records numbered from its
 * cursor, settled by lkst_drain_settle() (utils/lkst_drain.c).
 *
 * Every record is derived from (writer, level, seq, time) so a reader can
 * tell a whole record from a half-written or mixed one; time is a unique
 * per-buffer counter so a slot never gets the same commit word twice.
 *
 * Afterwards, with everything quiet: written/dropped match what writers
 * counted, no slot is BUSY, overwritten == written - slots in use (each
 * claim of a slot is followed by one commit, and only the first claim of a
 * slot finds it empty), each (writer, level, seq) is in at most one slot;
 * then a single-threaded phase checks that reading the current block
 * cycle from lkst_buf_oldest_slot() gives the newest records in order
 * (in STOP mode: that an emptied chain from block 0 fills once, then
 * drops, and that nothing was ever overwritten).
 * The drainer's records are whole, carry the number they were drained
 * with, come strictly in order, and with the numbers it counted lost they
 * account for every number the buffer gave; no number counted lost is
 * still in a slot at the end (it was not in flight after all).
 *
 * Usage: test_buf_stress [-t ms_per_config] [-n] [config...]
 *   -n  no signals (no nesting), for sanitizers that cannot cope with them
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
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
#define MISSING		0		/* slots of a block that does not exist */

struct config {
	const char *name;
	u32 nr_slots[MAX_CFG_BLOCKS];	/* per block ID; MISSING: no block */
	u32 next[MAX_CFG_BLOCKS];
	u32 max_burst;			/* records per interrupt, 1..max_burst */
	bool jumps;			/* owner jumps to random block IDs */
	bool stop;			/* LKST_MODE_STOP */
	/*
	 * A clock that rarely ticks: a lapped slot is recommitted with the
	 * time it had, so only the sequence number tells the records apart.
	 */
	bool coarse_clock;
};

#define N LKST_NO_NEXT
static const struct config configs[] = {
	{ "one_block_wraps",  { 256 },		{ N },		8, false, false, false },
	{ "ring_of_3",	      { 64, 64, 64 },	{ 1, 2, 0 },	8, false, false, false },
	{ "chain_A_B_C_B",    { 32, 32, 32 },	{ 1, 2, 1 },	8, false, false, false },
	/* 4 slots, bursts up to 12: nested writers lap the interrupted one. */
	{ "tiny_wraps",	      { 4 },		{ N },		12, false, false, false },
	{ "tiny_ring_of_2",   { 4, 4 },		{ 1, 0 },	12, false, false, false },
	{ "large_ring_of_2",  { 16384, 16384 },	{ 1, 0 },	8, false, false, false },
	/* Block 1 missing: 2 -> 1 wraps onto 2; jumps to 1 and 4 drop. */
	{ "jumps",	      { 16, MISSING, 16, 16 }, { 2, 2, 1, 0 }, 8, true, false, false },
	/* STOP mode: a chain fills once and never overwrites, jumps or not. */
	{ "stop_chain",	      { 64, 64 },	{ 1, N },	8, false, true, false },
	{ "stop_jumps",	      { 16, MISSING, 16, 16 }, { 2, 2, 1, 0 }, 8, true, true, false },
	{ "tiny_coarse_clock", { 4 },		{ N },		12, false, false, true },
};
#undef N
#define NR_CONFIGS (sizeof(configs) / sizeof(configs[0]))
#define NR_JUMP_TARGETS 5

struct writer {
	int id;
	pid_t tid;
	struct lkst_cpu_buffer *cb;
	const struct config *cfg;
	u64 clock;			/* per-buffer timestamps, never reused */
	u64 next_seq[NR_LEVELS];	/* also read by readers */
	/* Each level touches only its own entries: no lost updates. */
	u64 commits[NR_LEVELS];
	u64 drops[NR_LEVELS];
	bool holding[NR_LEVELS];	/* reserved, not yet committed */
	u64 nested_while_holding;	/* interrupts that hit that window */
	u64 too_deep;
	/*
	 * Drops with no block missing and no interrupted writer holding a
	 * slot: a nested lap took the slot between this writer's move of pos
	 * and its claim of the slot, so the claim failed.
	 */
	u64 lapped_self_drops;
	u64 jumps;
	u64 erased;			/* committed records the test cleared */
	int depth;			/* current level */
	u64 rng[NR_LEVELS];
	timer_t timers[2];
	bool timers_armed;
};

static struct writer writers[NR_WRITERS];
static __thread struct writer *this_cpu;	/* for the signal handler */
static bool use_signals = true;
static int stop_writers, stop_readers;
static u64 reader_copies, reader_refusals, reader_errors;

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

/*
 * The whole record follows from arg[0] (writer, level), arg[1], time and
 * the buffer's sequence number for it, which arg[5] carries.
 */
static void make_record(struct lkst_record *r, int writer, int level,
			u64 seq, u64 time, u64 buf_seq)
{
	memset(r, 0, sizeof(*r));
	r->time_ns = time;
	r->arg[0] = (u64)writer << 8 | level;
	r->arg[1] = seq;
	r->arg[2] = mix(r->arg[0] ^ mix(seq));
	r->arg[3] = mix(r->arg[2] ^ time);
	r->arg[4] = mix(r->arg[3] + 1);
	r->arg[5] = buf_seq ^ mix(r->arg[4] + 2);
	r->pid = (u32)r->arg[3];
	r->event = (u16)(r->arg[4] % LKST_NR_EVENT_IDS);
	r->context = level;
}

static int record_level(const struct lkst_record *r)
{
	return r->arg[0] & 0xff;
}

static u64 record_buf_seq(const struct lkst_record *r)
{
	return r->arg[5] ^ mix(r->arg[4] + 2);
}

/* A copied record is whole and belongs to this writer's buffer. */
static bool record_is_consistent(const struct lkst_record *r, int writer)
{
	struct lkst_record want;
	int level = record_level(r);

	if (r->arg[0] >> 8 != (u64)writer || level >= NR_LEVELS)
		return false;
	make_record(&want, writer, level, r->arg[1], r->time_ns, record_buf_seq(r));
	return memcmp(r, &want, sizeof(want)) == 0;
}

static void maybe_interrupt(struct writer *w, int level);

/* The number lkst_buf_reserve() gave the slot this writer holds. */
static u64 slot_seq(struct lkst_cpu_buffer *cb, const struct lkst_record *rec)
{
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = cb->blocks[id];

		if (blk && rec >= blk->records && rec < blk->records + blk->nr_slots)
			return __atomic_load_n(&blk->seqs[rec - blk->records],
					       __ATOMIC_RELAXED);
	}
	abort();
}

/* A writer this one interrupted holds a slot: the one a lap must skip. */
static bool lower_level_holds_slot(struct writer *w, int level)
{
	for (int l = 0; l < level; l++)
		if (__atomic_load_n(&w->holding[l], __ATOMIC_RELAXED))
			return true;
	return false;
}

/* One event at @level: reserve, (maybe be interrupted), commit. */
static void write_record(struct writer *w, int level)
{
	struct lkst_record content, *rec;
	u64 seq = w->next_seq[level];
	u64 time = __atomic_add_fetch(&w->clock, 1, __ATOMIC_RELAXED);

	if (w->cfg->coarse_clock)
		time = 1000 + (time >> 20);

	__atomic_store_n(&w->next_seq[level], seq + 1, __ATOMIC_RELAXED);
	rec = lkst_buf_reserve(w->cb);
	if (!rec) {
		w->drops[level]++;
		if (!w->cfg->jumps && !lower_level_holds_slot(w, level))
			w->lapped_self_drops++;
		return;
	}
	__atomic_store_n(&w->holding[level], true, __ATOMIC_RELAXED);
	make_record(&content, w->id, level, seq, time, slot_seq(w->cb, rec));
	maybe_interrupt(w, level);
	lkst_buf_commit(w->cb, rec, &content, time);
	__atomic_store_n(&w->holding[level], false, __ATOMIC_RELAXED);
	w->commits[level]++;
}

/* Sometimes raise an interrupt right inside the reserve..commit window. */
static void maybe_interrupt(struct writer *w, int level)
{
	if (use_signals && level < NR_LEVELS - 1 &&
	    next_random(&w->rng[level]) % 8 == 0)
		raise(SIGRTMIN);
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
	burst = 1 + next_random(&w->rng[level]) % w->cfg->max_burst;
	while (burst--)
		write_record(w, level);
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

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	u64 rnd = w->id * 1000003ULL;

	w->tid = syscall(SYS_gettid);
	this_cpu = w;
	if (use_signals)
		arm_timers(w);
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 64; i++)
			write_record(w, 0);
		/* lkst_buf_jump runs on the owning CPU, between events. */
		if (w->cfg->jumps && next_random(&rnd) % 2) {
			lkst_buf_jump(w->cb, next_random(&rnd) % NR_JUMP_TARGETS);
			w->jumps++;
		}
	}
	disarm_timers(w);
	this_cpu = NULL;
	return NULL;
}

static void report_reader_error(const char *what, int writer, u32 block,
				u32 slot, const struct lkst_record *r)
{
	if (__atomic_fetch_add(&reader_errors, 1, __ATOMIC_RELAXED) < 5)
		fprintf(stderr, "reader: %s: cpu %d block %u slot %u "
			"time %llu arg0 %#llx arg1 %llu\n", what, writer,
			block, slot, r->time_ns, r->arg[0], r->arg[1]);
}

/* Copy every slot of every block of every buffer, checking each record. */
static void *reader_main(void *arg)
{
	u64 copies = 0, refusals = 0;
	struct lkst_record r;

	(void)arg;
	while (!__atomic_load_n(&stop_readers, __ATOMIC_RELAXED)) {
		for (int c = 0; c < NR_WRITERS; c++) {
			struct writer *w = &writers[c];

			for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
				struct lkst_block *blk =
					rcu_dereference_sched(w->cb->blocks[id]);

				if (!blk)
					continue;
				(void)lkst_buf_oldest_slot(w->cb, blk);
				for (u32 s = 0; s < blk->nr_slots; s++) {
					if (!lkst_buf_copy_record(blk, s, &r)) {
						refusals++;
						continue;
					}
					copies++;
					if (!record_is_consistent(&r, c))
						report_reader_error("torn or mixed record",
								    c, id, s, &r);
					else if (r.arg[1] >= __atomic_load_n(
						 &w->next_seq[record_level(&r)],
						 __ATOMIC_RELAXED))
						report_reader_error("record from the future",
								    c, id, s, &r);
				}
			}
		}
	}
	__atomic_fetch_add(&reader_copies, copies, __ATOMIC_RELAXED);
	__atomic_fetch_add(&reader_refusals, refusals, __ATOMIC_RELAXED);
	return NULL;
}

/* A reader in the way of lkbuf record, one per buffer. */
struct drainer {
	struct writer *w;
	u64 cursor, drained, lost, drains, stalls, errors;
	u8 *lost_bits;			/* by sequence number */
	size_t lost_bytes;
	struct lkst_record *records;
	u64 *seqs;
	size_t cap;
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

/* What LKST_IOC_BUFFER_DRAIN does, then what lkbuf does with it. */
static struct lkst_drain_result drain_once(struct drainer *d, unsigned int flags)
{
	struct lkst_cpu_buffer *cb = d->w->cb;
	struct lkst_drain_result res;
	u64 next, seq = 0, want, busy[LKST_DRAIN_MAX_BUSY];
	size_t n = 0;
	int nr_busy = 0;

	next = local64_read(&cb->next_seq);
	smp_rmb();
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = rcu_dereference_sched(cb->blocks[id]);

		for (u32 slot = 0; blk && slot < blk->nr_slots; slot++) {
			int got = lkst_buf_copy_record_seq(blk, slot, &d->records[n], &seq);

			if ((got != LKST_COPY_OK && got != LKST_COPY_BUSY) ||
			    seq < d->cursor || seq >= next)
				continue;
			if (got == LKST_COPY_OK && n < d->cap)
				d->seqs[n++] = seq;
			else if (got == LKST_COPY_BUSY && nr_busy >= 0)
				nr_busy = nr_busy < LKST_DRAIN_MAX_BUSY ?
					(busy[nr_busy] = seq, nr_busy + 1) : -1;
		}
	}
	if (lkst_drain_settle(d->records, d->seqs, n, d->cursor, next, busy, nr_busy,
			      flags, &res))
		abort();
	if (res.seq_start != d->cursor)
		drainer_error(d, "settled from another number than the cursor", res.seq_start);
	want = d->cursor;
	for (size_t i = 0; i < res.nr; i++) {
		if (!record_is_consistent(&d->records[i], d->w->id))
			drainer_error(d, "torn or foreign record", d->seqs[i]);
		else if (record_buf_seq(&d->records[i]) != d->seqs[i])
			drainer_error(d, "record drained with another's number", d->seqs[i]);
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
	d->cursor = res.seq_end;
	d->drains++;
	d->stalls += res.stalled;
	return res;
}

static void *drainer_main(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_readers, __ATOMIC_RELAXED))
		for (int c = 0; c < NR_WRITERS; c++)
			drain_once(&drainers[c], 0);
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

/*
 * Quiet buffer: one more drain reaches the writer's next number without
 * stalling, drained + lost account for every number, and no record still
 * in a slot was counted lost.
 */
static void check_drainer(const struct config *cfg, struct drainer *d)
{
	struct lkst_cpu_buffer *cb = d->w->cb;
	struct lkst_drain_result res = drain_once(d, 0);
	u64 next = local64_read(&cb->next_seq), resurrected = 0, seq;
	struct lkst_record r;

	CHECK(!res.stalled, "cpu %d: final drain stalled", d->w->id);
	CHECK(d->cursor == next, "cpu %d: drained to %llu, next_seq %llu",
	      d->w->id, d->cursor, next);
	CHECK(d->drained + d->lost == next, "cpu %d: drained %llu + lost %llu != %llu",
	      d->w->id, d->drained, d->lost, next);
	CHECK(next == local64_read(&cb->written), "cpu %d: next_seq %llu, written %llu",
	      d->w->id, next, local64_read(&cb->written));
	CHECK(d->errors == 0, "cpu %d: %llu bad drained records", d->w->id, d->errors);
	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = cb->blocks[id];

		for (u32 slot = 0; blk && slot < blk->nr_slots; slot++)
			if (lkst_buf_copy_record_seq(blk, slot, &r, &seq) == LKST_COPY_OK &&
			    was_lost(d, seq))
				resurrected++;
	}
	CHECK(resurrected == 0, "cpu %d: %llu records counted lost are in slots",
	      d->w->id, resurrected);
}

static struct lkst_cpu_buffer *build_buffer(const struct config *cfg)
{
	struct lkst_cpu_buffer *cb = new_buffer();

	cb->mode = cfg->stop ? LKST_MODE_STOP : LKST_MODE_OVERWRITE;

	for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
		if (cfg->nr_slots[id] != MISSING)
			add_block(cb, id, cfg->nr_slots[id], cfg->next[id]);
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
 * Quiet buffer: counters match the writers' own counts, slots are all
 * committed or empty, and no record is in two slots.
 */
static void check_accounting(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 written = local64_read(&cb->written);
	u64 overwritten = local64_read(&cb->overwritten);
	u64 dropped = local64_read(&cb->dropped);
	u64 used = 0, nr_keys = 0, busy = 0, torn = 0, dups = 0, total_slots = 0;
	u64 *keys;

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++)
		if (cb->blocks[id])
			total_slots += cb->blocks[id]->nr_slots;
	keys = calloc(total_slots, sizeof(*keys));

	for (u32 id = 0; id < LKST_MAX_BLOCKS; id++) {
		struct lkst_block *blk = cb->blocks[id];
		struct lkst_record r;

		for (u32 s = 0; blk && s < blk->nr_slots; s++) {
			u64 t = blk->records[s].time_ns;

			if (t == LKST_TIME_BUSY) {
				busy++;
			} else if (t) {
				used++;
				if (!lkst_buf_copy_record(blk, s, &r) ||
				    !record_is_consistent(&r, w->id)) {
					torn++;
					continue;
				}
				/* level in the top bits, seq below */
				keys[nr_keys++] = (u64)record_level(&r) << 56 | r.arg[1];
			}
		}
	}
	qsort(keys, nr_keys, sizeof(*keys), compare_u64);
	for (u64 i = 1; i < nr_keys; i++)
		dups += keys[i] == keys[i - 1];
	free(keys);

	CHECK(written == sum(w->commits), "cpu %d written %llu, commits %llu",
	      w->id, written, sum(w->commits));
	CHECK(dropped == sum(w->drops), "cpu %d dropped %llu, NULL reserves %llu",
	      w->id, dropped, sum(w->drops));
	CHECK(busy == 0, "cpu %d: %llu slots left BUSY", w->id, busy);
	CHECK(torn == 0, "cpu %d: %llu bad records at rest", w->id, torn);
	CHECK(dups == 0, "cpu %d: %llu records in two slots", w->id, dups);
	CHECK(overwritten == written - used - w->erased,
	      "cpu %d overwritten %llu, written %llu - slots used %llu - erased %llu",
	      w->id, overwritten, written, used, w->erased);
}

/* The block a full block moves on to: its next if that exists, else itself. */
static u32 effective_next(struct lkst_cpu_buffer *cb, u32 id)
{
	u32 next = cb->blocks[id]->next;

	return next < LKST_MAX_BLOCKS && cb->blocks[next] ? next : id;
}

/*
 * Single-threaded: jump to block 0 and write twice as many records as the
 * buffer holds.  The writer then goes round a cycle of blocks (one block
 * wrapping onto itself, or a ring); reading that cycle oldest first --
 * the current block from lkst_buf_oldest_slot(), the other blocks of the
 * cycle, then the current block's first slots -- gives exactly the newest
 * records, in order.
 */
static void check_final_order(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 before_written = local64_read(&cb->written);
	u64 before_dropped = local64_read(&cb->dropped);
	u64 total_slots = 0, nr_records, cycle_slots = 0, expect_seq;
	u32 cur, oldest, id, slot;
	struct lkst_record r;
	bool in_order = true;

	for (id = 0; id < LKST_MAX_BLOCKS; id++)
		if (cb->blocks[id])
			total_slots += cb->blocks[id]->nr_slots;
	nr_records = 2 * total_slots + 3;
	lkst_buf_jump(cb, 0);
	w->depth = 0;
	for (u64 i = 0; i < nr_records; i++)
		write_record(w, 0);

	cur = lkst_pos_block(local64_read(&cb->pos));
	id = cur;
	do {
		cycle_slots += cb->blocks[id]->nr_slots;
		id = effective_next(cb, id);
	} while (id != cur);

	/* The newest cycle_slots task-level records, oldest first. */
	expect_seq = w->next_seq[0] - cycle_slots;
	oldest = lkst_buf_oldest_slot(cb, cb->blocks[cur]);
	/* cur[oldest..], the other blocks of the cycle, then cur[..oldest) */
	id = cur;
	slot = oldest;
	for (u64 i = 0; i < cycle_slots; i++, slot++, expect_seq++) {
		if (slot >= cb->blocks[id]->nr_slots) {
			id = effective_next(cb, id);
			slot = 0;
		}
		memset(&r, 0, sizeof(r));
		if (!lkst_buf_copy_record(cb->blocks[id], slot, &r) ||
		    !record_is_consistent(&r, w->id) ||
		    record_level(&r) != 0 || r.arg[1] != expect_seq) {
			if (in_order)
				fprintf(stderr, "%s: block %u slot %u: want seq "
					"%llu, got %llu\n", cfg->name, id, slot,
					expect_seq, r.arg[1]);
			in_order = false;
		}
	}
	CHECK(in_order, "cpu %d: newest %llu records not in order from "
	      "oldest_slot %u of block %u", w->id, cycle_slots, oldest, cur);
	CHECK(local64_read(&cb->written) == before_written + nr_records,
	      "cpu %d written", w->id);
	CHECK(local64_read(&cb->dropped) == before_dropped, "cpu %d dropped",
	      w->id);
	check_accounting(cfg, w);	/* still exact after the final phase */
}

/*
 * STOP mode, single-threaded: after a jump to block 0 of an emptied chain
 * the writer fills the chain once, in order, then drops everything.
 */
static void check_final_stop(const struct config *cfg, struct writer *w)
{
	struct lkst_cpu_buffer *cb = w->cb;
	u64 before_written = local64_read(&cb->written);
	u64 before_dropped = local64_read(&cb->dropped);
	u64 before_over = local64_read(&cb->overwritten);
	u64 chain_slots = 0, expect_seq;
	u32 chain[MAX_CFG_BLOCKS], nr = 0, id = 0;
	struct lkst_record r;
	bool in_order = true;

	/* The chain: follow next links while they name a block not seen yet. */
	for (;;) {
		chain[nr++] = id;
		chain_slots += cb->blocks[id]->nr_slots;
		id = cb->blocks[id]->next;
		if (id >= LKST_MAX_BLOCKS || !cb->blocks[id])
			break;
		for (u32 i = 0; i < nr; i++)
			CHECK(chain[i] != id, "config has a ring; STOP needs a chain (block %u)", id);
	}
	/* Empty the chain, as fresh blocks are: STOP never overwrites. */
	for (u32 i = 0; i < nr; i++) {
		struct lkst_block *blk = cb->blocks[chain[i]];

		for (u32 slot = 0; slot < blk->nr_slots; slot++)
			w->erased += blk->records[slot].time_ns != 0;
		memset(blk->records, 0, blk->nr_slots * sizeof(*blk->records));
	}
	lkst_buf_jump(cb, 0);
	w->depth = 0;
	for (u64 i = 0; i < chain_slots + 3; i++)
		write_record(w, 0);
	CHECK(local64_read(&cb->written) == before_written + chain_slots,
	      "cpu %d: written %llu, expected %llu more", w->id,
	      local64_read(&cb->written) - before_written, chain_slots);
	CHECK(local64_read(&cb->dropped) == before_dropped + 3,
	      "cpu %d: %llu dropped after the chain filled, expected 3", w->id,
	      local64_read(&cb->dropped) - before_dropped);
	CHECK(local64_read(&cb->overwritten) == before_over,
	      "cpu %d: STOP mode overwrote records", w->id);
	expect_seq = w->next_seq[0] - chain_slots - 3;
	for (u32 i = 0; i < nr; i++) {
		for (u32 slot = 0; slot < cb->blocks[chain[i]]->nr_slots; slot++, expect_seq++) {
			if (!lkst_buf_copy_record(cb->blocks[chain[i]], slot, &r) ||
			    r.arg[1] != expect_seq || record_level(&r) != 0)
				in_order = false;
		}
	}
	CHECK(in_order, "cpu %d: the chain does not hold the first records in order", w->id);
	check_accounting(cfg, w);
}

static void run_config(const struct config *cfg, long duration_ms)
{
	pthread_t writer_threads[NR_WRITERS], reader_threads[NR_READERS], drainer_thread;
	u64 drained = 0, lost = 0, stalls = 0, drains = 0;
	struct timespec duration = {
		duration_ms / 1000, (duration_ms % 1000) * 1000000
	};
	u64 level_commits[NR_LEVELS] = { 0 }, drops = 0, overwritten = 0;
	u64 nested_holding = 0, jumps = 0, self_drops = 0;
	int failures_before = failures;

	stop_writers = stop_readers = 0;
	reader_copies = reader_refusals = reader_errors = 0;
	for (int c = 0; c < NR_WRITERS; c++) {
		struct writer *w = &writers[c];

		memset(w, 0, sizeof(*w));
		w->id = c;
		w->cfg = cfg;
		w->cb = build_buffer(cfg);
		w->clock = 1000;	/* timestamps never 0 nor BUSY */
		for (int l = 0; l < NR_LEVELS; l++)
			w->rng[l] = (u64)c << 32 | l;
		memset(&drainers[c], 0, sizeof(drainers[c]));
		drainers[c].w = w;
		for (u32 id = 0; id < MAX_CFG_BLOCKS; id++)
			drainers[c].cap += cfg->nr_slots[id];
		drainers[c].records = calloc(drainers[c].cap, sizeof(struct lkst_record));
		drainers[c].seqs = calloc(drainers[c].cap, sizeof(u64));
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
		self_drops += w->lapped_self_drops;
		jumps += w->jumps;
		check_accounting(cfg, w);
		check_drainer(cfg, &drainers[c]);
		drained += drainers[c].drained;
		lost += drainers[c].lost;
		stalls += drainers[c].stalls;
		drains += drainers[c].drains;
		if (cfg->stop)
			CHECK(local64_read(&w->cb->overwritten) == 0,
			      "cpu %d: STOP mode overwrote %llu records", w->id,
			      local64_read(&w->cb->overwritten));
	}
	for (int c = 0; c < NR_WRITERS; c++) {
		if (cfg->stop)
			check_final_stop(cfg, &writers[c]);
		else
			check_final_order(cfg, &writers[c]);
	}
	if (use_signals)
		CHECK(level_commits[1] && nested_holding,
		      "%s", "signals never nested a writer");

	printf("# %-16s commits task/softirq/irq/nmi %llu/%llu/%llu/%llu, "
	       "overwritten %llu, dropped %llu, nested in reserve..commit "
	       "%llu, drops by the lapped writer %llu, jumps %llu, "
	       "reader copies %llu, refused %llu\n",
	       cfg->name, level_commits[0], level_commits[1],
	       level_commits[2], level_commits[3], overwritten, drops,
	       nested_holding, self_drops, jumps, reader_copies, reader_refusals);
	printf("# %-16s drains %llu (stalled at a number in flight %llu): drained %llu, "
	       "lost %llu\n", cfg->name, drains, stalls, drained, lost);
	printf("%s stress/%s%s\n", failures == failures_before ? "PASS" : "FAIL",
	       cfg->name, use_signals ? "" : "(no signals)");
	fflush(stdout);
	for (int c = 0; c < NR_WRITERS; c++) {
		free_buffer(writers[c].cb);
		free(drainers[c].records);
		free(drainers[c].seqs);
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
