/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records' clock: CLOCK_MONOTONIC as ktime_get_mono_fast_ns() reads
 * it, computed inline from the TSC while the timekeeper reads the TSC.
 *
 * ktime_get_mono_fast_ns() costs about 40 instructions per record (bench
 * kernel, icount): an exported call, a seqcount latch, and an indirect call
 * to the clocksource's read_tsc().  lkst keeps its own latched copy of the
 * same readout base, taken from every timekeeper update through the
 * pvclock_gtod notifier (as KVM does), and applies the timekeeper's own
 * formula to RDTSC.  Same data, same TSC value: the same nanoseconds.
 * Any other clocksource, a suspended timekeeper, or a delta the timekeeper
 * would clamp goes to ktime_get_mono_fast_ns() itself.
 *
 * arm64 does the same with the arch timer's virtual counter, read as
 * the vDSO reads it, while the clocksource is the arch timer and the
 * vDSO may read the counter directly: arm_arch_timer.c takes that mode
 * away when an erratum needs another read (and the read used applies the
 * kernel's errata workarounds anyway).
 */
#ifndef _KERNEL_LKST_CLOCK_H
#define _KERNEL_LKST_CLOCK_H

#include <linux/compiler.h>
#include <linux/seqlock.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include "lkst_buf.h"

/* lkst.ko (MODULE) cannot see timekeeping_suspended: the fast read. */
#if defined(CONFIG_X86_TSC) && defined(CONFIG_GENERIC_GETTIMEOFDAY) && \
	!defined(MODULE)
#include <asm/msr.h>
#define LKST_CLOCK_INLINE_TSC 1
#define lkst_clock_counter()	rdtsc_ordered()
#elif defined(CONFIG_ARM64) && defined(CONFIG_ARM_ARCH_TIMER) && \
	defined(CONFIG_GENERIC_GETTIMEOFDAY) && !defined(MODULE)
#include <asm/arch_timer.h>
#define LKST_CLOCK_INLINE_TSC 1
#define lkst_clock_counter()	__arch_counter_get_cntvct_stable()
#endif

/*
 * How far past its page's clock anchor a record's time is the counter
 * (I16): 2^24 counts, 16.8 ms at 1 GHz, 5.6 ms at 3 GHz, 268 ms for
 * arm64's 62.5 MHz.  A page written faster than that (where the cost
 * counts) stores its records' counter values, some 20 instructions less
 * than converting each.  Readers convert them with the anchor's mult: a
 * timekeeper correction since (mult +-1 in about 2^23) moves such a time
 * by 2 ns at most against CLOCK_MONOTONIC.  An idle page's later records,
 * a suspend or a counter that went back are stamped in nanoseconds.
 */
#define LKST_CLOCK_RAW_SPAN	(1ULL << 24)

#ifdef LKST_CLOCK_INLINE_TSC

/* tk_read_base's fields the readout needs, as of the last update. */
struct lkst_clock_base {
	u64 cycle_last;
	/*
	 * Larger deltas go to the timekeeper.  While it reads another clock
	 * or is suspended, cycle_last and max_cycles are 0: RDTSC works on
	 * every CPU CONFIG_X86_TSC runs on, and a TSC counting since power-on
	 * is never 0, so every delta is too large (arm64's counter: the same).
	 * One test instead of two.
	 */
	u64 max_cycles;
	u64 xtime_nsec;		/* shifted nanoseconds */
	u64 base_ns;
	u32 mult;
	u32 shift;
};

struct lkst_clock {
	seqcount_latch_t seq;
	struct lkst_clock_base base[2];
};

extern struct lkst_clock lkst_clock;

/* NMI-safe: a writer interrupted mid-update leaves the other copy whole. */
static __always_inline u64 lkst_clock_ns(void)
{
	const struct lkst_clock_base *b;
	unsigned int seq;
	u64 delta, now;

	/*
	 * The copy read may be the one an update is writing (a latch reader
	 * that began before the flip): the retry throws such a read away, so
	 * the race is intended, and marked for KCSAN.
	 */
	do {
		seq = raw_read_seqcount_latch(&lkst_clock.seq);
		b = &lkst_clock.base[seq & 1];
		/* Racy by design: a copy being written fails the retry. */
		delta = lkst_clock_counter() - data_race(b->cycle_last);
		/* Not the TSC, backwards, overflowing: the timekeeper decides. */
		if (unlikely(delta > data_race(b->max_cycles)))
			return ktime_get_mono_fast_ns();
		/* Racy by design, as cycle_last above. */
		now = data_race(b->base_ns + ((delta * b->mult + b->xtime_nsec) >>
					      b->shift));
	} while (unlikely(raw_read_seqcount_latch_retry(&lkst_clock.seq, seq)));
	return now;
}

/*
 * The time a record of page @pg stores: the counter, or nanoseconds with
 * LKST_BREC_TIME_NS added to *@info.
 */
static __always_inline u64 lkst_clock_stamp(const struct lkst_page *pg,
					    u32 *info)
{
	u64 counter = lkst_clock_counter();

	if (likely(counter - READ_ONCE(pg->clock.cycles) <= LKST_CLOCK_RAW_SPAN))
		return counter;
	*info |= LKST_BREC_TIME_NS;
	return lkst_clock_ns();
}

int lkc_clock_init(void);
void lkc_clock_exit(void);	/* lkst.ko's unload */
bool lkc_clock_is_inline(void);
#else
static __always_inline u64 lkst_clock_ns(void)
{
	return ktime_get_mono_fast_ns();
}

static __always_inline u64 lkst_clock_stamp(const struct lkst_page *pg,
					    u32 *info)
{
	*info |= LKST_BREC_TIME_NS;
	return ktime_get_mono_fast_ns();
}

static inline int lkc_clock_init(void)
{
	return 0;
}

static inline void lkc_clock_exit(void)
{
}

static inline bool lkc_clock_is_inline(void)
{
	return false;
}
#endif

#endif /* _KERNEL_LKST_CLOCK_H */
