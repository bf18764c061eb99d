// SPDX-License-Identifier: GPL-2.0
/*
 * lkst clock: the copy of the timekeeper's readout base that
 * lkst_clock_ns() computes CLOCK_MONOTONIC from (clock.h says why).
 */
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#include <linux/timekeeper_internal.h>
#include "clock.h"

/*
 * No anchor: a counter then never passes lkst_clock_stamp()'s test (it
 * would have to be within LKST_CLOCK_RAW_SPAN of 2^64).
 */
static void lkst_clock_no_anchor(struct lkst_page_clock *anchor)
{
	lkst_page_clock_set(anchor, -(LKST_CLOCK_RAW_SPAN + 1), 0, 0, 0, 0);
}

#ifdef LKST_CLOCK_INLINE_TSC

struct lkst_clock lkst_clock = {
	.seq = SEQCNT_LATCH_ZERO(lkst_clock.seq),
};

/* The clocksources lkst_clock_counter() reads as the timekeeper does. */
static bool lkst_clock_counter_mode(int mode)
{
#ifdef CONFIG_X86
	return mode == VDSO_CLOCKMODE_TSC;
#else
	/* Not when an erratum needs another read (arm_arch_timer.c). */
	return mode == VDSO_CLOCKMODE_ARCHTIMER ||
	       mode == VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT;
#endif
}

static void lkst_clock_copy(struct lkst_clock_base *b,
			    const struct timekeeper *tk)
{
	const struct tk_read_base *tkr = &tk->tkr_mono;

	b->xtime_nsec = tkr->xtime_nsec;
	b->base_ns = ktime_to_ns(tkr->base);
	b->mult = tkr->mult;
	b->shift = tkr->shift;
	/*
	 * TSC and tsc-early read with rdtsc_ordered(), the arch timer as
	 * lkst_clock_counter() reads it.  Suspended, the
	 * timekeeper freezes its fast readers on a dummy clock; so do we.
	 */
	if (lkst_clock_counter_mode(tkr->clock->vdso_clock_mode) &&
	    !timekeeping_suspended) {
		b->cycle_last = tkr->cycle_last;
		b->max_cycles = tkr->clock->max_cycles;
	} else {
		b->cycle_last = 0;
		b->max_cycles = 0;
	}
}

/*
 * Called on every timekeeper update, with timekeeper_lock held and
 * interrupts off: the updates are serialized, the readers never wait.
 */
static int lkst_clock_update(struct notifier_block *nb, unsigned long was_set,
			     void *data)
{
	const struct timekeeper *tk = data;

	raw_write_seqcount_latch(&lkst_clock.seq);
	lkst_clock_copy(&lkst_clock.base[0], tk);
	raw_write_seqcount_latch(&lkst_clock.seq);
	lkst_clock_copy(&lkst_clock.base[1], tk);
	return NOTIFY_OK;
}

static struct notifier_block lkst_clock_nb = {
	.notifier_call = lkst_clock_update,
};

/* Registering calls the notifier once, under the timekeeper's lock. */
int lkc_clock_init(void)
{
	return pvclock_gtod_register_notifier(&lkst_clock_nb);
}

#ifdef MODULE
void lkc_clock_exit(void)
{
	pvclock_gtod_unregister_notifier(&lkst_clock_nb);
}
#endif

/**
 * lkc_clock_anchor() - this CPU's clock anchor for a page being reset
 * @anchor: the page's, written with its generation odd
 *
 * The counter now and CLOCK_MONOTONIC at that count, read from one copy
 * of the readout base (I16); none while the counter is not the
 * timekeeper's clock or the timekeeper would not convert its delta.
 *
 * Context: any context, NMI included; never sleeps.
 */
void lkc_clock_anchor(struct lkst_page_clock *anchor)
{
	struct lkst_clock_base b;
	u64 counter, delta, shifted;
	unsigned int seq;

	do {
		seq = raw_read_seqcount_latch(&lkst_clock.seq);
		/* Racy by design, as in lkst_clock_ns(): the retry decides. */
		b = data_race(lkst_clock.base[seq & 1]);
		counter = lkst_clock_counter();
	} while (unlikely(raw_read_seqcount_latch_retry(&lkst_clock.seq, seq)));
	delta = counter - b.cycle_last;
	/* The fraction fits its 32 bits: clocksources shift by 32 at most. */
	if (unlikely(delta > b.max_cycles || b.shift > 32)) {
		lkst_clock_no_anchor(anchor);
		return;
	}
	shifted = delta * b.mult + b.xtime_nsec;
	lkst_page_clock_set(anchor, counter, b.base_ns + (shifted >> b.shift),
			    shifted & ((1ULL << b.shift) - 1), b.mult, b.shift);
}

/* Whether records are being timed from the TSC inline (KUnit). */
bool lkc_clock_is_inline(void)
{
	unsigned int seq;
	bool tsc;

	do {
		seq = raw_read_seqcount_latch(&lkst_clock.seq);
		/* A copy being written is read again (see lkst_clock_ns()). */
		tsc = data_race(lkst_clock.base[seq & 1].max_cycles) != 0;
	} while (raw_read_seqcount_latch_retry(&lkst_clock.seq, seq));
	return tsc;
}
#else
/* Records are timed in nanoseconds, by ktime_get_mono_fast_ns(). */
void lkc_clock_anchor(struct lkst_page_clock *anchor)
{
	lkst_clock_no_anchor(anchor);
}
#endif /* LKST_CLOCK_INLINE_TSC */
