/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-ins for the kernel primitives lkst_buf.[ch] use, so the
 * buffer code can be tested in user space with threads (other CPUs) and
 * signal handlers (IRQ/NMI nesting on the same CPU), and so lkbuf extract
 * reads the pages it copies out of a vmcore with the kernel's own reader.
 *
 * Every access the kernel code marks as shared (READ_ONCE, WRITE_ONCE,
 * local64_*, cmpxchg_local) is a GCC __atomic builtin, so ThreadSanitizer
 * sees no plain racing access and signal handlers see whole values.
 */
#ifndef _LKST_HOST_COMPAT_H
#define _LKST_HOST_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>	/* __u64 is unsigned long long, as u64 in-kernel */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#define __rcu
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define ____cacheline_aligned	__attribute__((__aligned__(64)))
#define __uninitialized		/* the host builds do not zero the stack */
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * Relaxed atomics: no tearing, no ordering, like the kernel's.  The unit
 * test builds with LKST_HOST_READ_HOOK to act between two loads of a
 * reader (a writer's reset in the middle of a copy), deterministically.
 */
#ifdef LKST_HOST_READ_HOOK
extern void (*lkst_host_read_hook)(const void *addr);
#define READ_ONCE(x) ({							\
	if (lkst_host_read_hook)					\
		lkst_host_read_hook(&(x));				\
	__atomic_load_n(&(x), __ATOMIC_RELAXED);			\
})
#else
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#define U64_MAX		(~0ULL)

/* A spinning reader's pause, as the kernel's. */
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/* Compiler barrier: orders this thread against its own signal handlers. */
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/* smp_wmb orders stores before later stores; smp_rmb loads before loads. */
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)

/*
 * local64_t: in the kernel atomic only against this CPU's interrupts; here
 * fully atomic, since the same thread's signal handlers modify it and other
 * threads read it.
 */
typedef struct {
	u64 counter;
} local64_t;

static inline u64 local64_read(local64_t *l)
{
	return __atomic_load_n(&l->counter, __ATOMIC_RELAXED);
}

static inline void local64_set(local64_t *l, u64 v)
{
	__atomic_store_n(&l->counter, v, __ATOMIC_RELAXED);
}

/*
 * On x86-64 (outside TSan, which must see __atomic calls) the local
 * operations are what the kernel's are: one instruction with no lock
 * prefix.  That is atomic against this thread's signal handlers (the same
 * CPU's interrupts), which is all a per-CPU buffer needs, since other
 * threads only read it; and the benchmark then measures the kernel's code.
 */
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
static inline void local64_inc(local64_t *l)
{
	asm volatile("incq %0" : "+m"(l->counter) : : "memory");
}

static inline u64 lkst_host_cmpxchg64(u64 *p, u64 old, u64 new)
{
	asm volatile("cmpxchgq %2, %1"
		     : "+a"(old), "+m"(*p) : "r"(new) : "memory");
	return old;
}
#else
static inline void local64_inc(local64_t *l)
{
	__atomic_fetch_add(&l->counter, 1, __ATOMIC_RELAXED);
}

static inline u64 lkst_host_cmpxchg64(u64 *p, u64 old, u64 new)
{
	__atomic_compare_exchange_n(p, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}
#endif

static inline void local64_add(u64 i, local64_t *l)
{
	__atomic_fetch_add(&l->counter, i, __ATOMIC_RELAXED);
}

static inline u64 local64_add_return(u64 i, local64_t *l)
{
	return __atomic_add_fetch(&l->counter, i, __ATOMIC_RELAXED);
}

/*
 * Returns the value found, as the kernel's: equal to @old on success.  The
 * unit test's hook runs first, as an interrupt just before it.
 */
static inline u64 local64_cmpxchg(local64_t *l, u64 old, u64 new)
{
#ifdef LKST_HOST_READ_HOOK
	if (lkst_host_read_hook)
		lkst_host_read_hook(&l->counter);
#endif
	return lkst_host_cmpxchg64(&l->counter, old, new);
}

/* Same contract; every use is on a u64. */
static inline u32 lkst_host_cmpxchg32(u32 *p, u32 old, u32 new)
{
	__atomic_compare_exchange_n(p, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/* On a u64 (a page's generation) or a u32 (a page's commit). */
#define cmpxchg_local(ptr, old, new)					\
	_Generic(*(ptr),						\
		 u64: lkst_host_cmpxchg64((u64 *)(ptr), (old), (new)),	\
		 u32: lkst_host_cmpxchg32((u32 *)(ptr), (old), (new)))

/* Publishing and following block pointers: release/acquire. */
#ifdef LKST_HOST_READ_HOOK
#define rcu_dereference_sched(p) ({					\
	if (lkst_host_read_hook)					\
		lkst_host_read_hook(&(p));				\
	__atomic_load_n(&(p), __ATOMIC_ACQUIRE);			\
})
#else
#define rcu_dereference_sched(p)	__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#endif
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/*
 * Masking interrupts masks nothing here: the host tests' signals play
 * nested writers that can come anywhere, as an NMI's can in the kernel.
 */
#define raw_local_irq_save(flags)	((void)((flags) = 0))
#define raw_local_irq_restore(flags)	((void)(flags))

#endif /* _LKST_HOST_COMPAT_H */
