/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Mostly generated from kernel/lkst/events.def by lkst's
 * tools/build/gen-event-table.py (make events), and long because it
 * holds every event's table entry, which the kernel and the tools
 * compile in.
 *
 * lkst events: IDs, categories, argument types and the event table.
 *
 * Every event is defined once, in the kernel's kernel/lkst/events.def; the
 * parts of this header marked as generated are made from it (make events):
 * enum lkst_event_id (stable IDs, ABI: never renumbered, only added to),
 * the argument counts LKST_HOOK() checks a site against, and
 * lkst_event_table[], which describes each event: mnemonic, category,
 * arguments in the order its hook passes them, upstream twin, the
 * architectures that have its sites and the locks a site may hold.  The
 * kernel, the utilities and the tests all read them from here; a file that
 * needs the tables defines LKST_EVENT_TABLES before including.
 *
 * An event's category is the range of IDs it lies in (lkst_category_table[]
 * below); IDs follow Hitachi LKST where it published them (0x01-0x07,
 * 0x10-0x15, 0x20-0x21; 0x16, its bottom-half entry, is the softirq entry
 * now).  0xf0-0xfe belong to dynamic probes: no fixed event, named when a
 * probe is created at run time (lkm probe add), so not in the table.
 */
#ifndef _UAPI_LINUX_LKST_EVENTS_H
#define _UAPI_LINUX_LKST_EVENTS_H

#include <linux/types.h>

/* Event IDs are below this bound; masksets have one entry per ID. */
#define LKST_NR_EVENT_IDS	256

#define LKST_NR_ARGS		6

/*
 * The first argument of the SYSCALL_* events: the system call number as
 * the entry code passed it on, in the low 32 bits, and the ABI it came
 * through in the high 32 bits (x32 calls are NATIVE, with bit 30 set in
 * the number).  arm64 has ABIs of its own: numbers of another table.
 */
#define LKST_SYSCALL_ABI_NATIVE	0	/* the kernel's own: x86-64 */
#define LKST_SYSCALL_ABI_IA32	1	/* i386: int $0x80, sysenter, compat syscall */
#define LKST_SYSCALL_ABI_ARM64	2	/* arm64 kernel: AArch64, number from x8 */
#define LKST_SYSCALL_ABI_ARM32	3	/* arm64 kernel: AArch32 compat, number from x7 */
#define LKST_SYSCALL_NR_ABI(nr, abi)	((__u64)(abi) << 32 | (__u32)(nr))
#define LKST_SYSCALL_NR(arg)		((__s32)(__u32)(arg))
#define LKST_SYSCALL_ABI(arg)		((__u32)((arg) >> 32))

/* BEGIN generated from events.def by gen-event-table.py (make events) */
enum lkst_event_id {
	/* process */
	LKST_EV_PROCESS_CONTEXTSWITCH	= 0x01,
	LKST_EV_PROCESS_WAKEUP		= 0x02,
	LKST_EV_PROCESS_SIGSEND		= 0x03,
	LKST_EV_PROCESS_LTHREADGEN	= 0x04,
	LKST_EV_PROCESS_WAITQ_INIT	= 0x05,
	LKST_EV_PROCESS_WAITQ_ADD	= 0x06,
	LKST_EV_PROCESS_WAITQ_REMOVE	= 0x07,
	LKST_EV_PROCESS_FORK		= 0x08,
	LKST_EV_PROCESS_EXEC		= 0x09,
	LKST_EV_PROCESS_EXIT		= 0x0a,
	LKST_EV_PROCESS_MIGRATE		= 0x0b,
	LKST_EV_PROCESS_SETPRIO		= 0x0c,
	LKST_EV_PROCESS_SLEEP		= 0x0d,
	LKST_EV_PROCESS_WAKEUP_NEW	= 0x0e,
	LKST_EV_PROCESS_SIGDELIVER	= 0x0f,
	/* end of process */

	/* interrupt */
	LKST_EV_INT_HARDWARE_ENTRY	= 0x10,
	LKST_EV_INT_HARDWARE_EXIT	= 0x11,
	LKST_EV_INT_TASKLETHI_ENTRY	= 0x12,
	LKST_EV_INT_TASKLETHI_EXIT	= 0x13,
	LKST_EV_INT_TASKLET_ENTRY	= 0x14,
	LKST_EV_INT_TASKLET_EXIT	= 0x15,
	LKST_EV_INT_SOFTIRQ_ENTRY	= 0x16,
	LKST_EV_INT_SOFTIRQ_EXIT	= 0x17,
	LKST_EV_INT_SOFTIRQ_RAISE	= 0x18,
	LKST_EV_INT_IPI_SEND		= 0x19,
	LKST_EV_INT_VECTOR_ENTRY	= 0x1a,
	LKST_EV_INT_VECTOR_EXIT		= 0x1b,
	LKST_EV_INT_WORKQUEUE_QUEUE	= 0x1c,
	LKST_EV_INT_WORKQUEUE_START	= 0x1d,
	LKST_EV_INT_WORKQUEUE_END	= 0x1e,
	/* end of interrupt */

	/* exception */
	LKST_EV_EXCEPTION_ENTRY		= 0x20,
	LKST_EV_EXCEPTION_EXIT		= 0x21,
	LKST_EV_EXCEPTION_PAGEFAULT_ENTRY	= 0x22,
	LKST_EV_EXCEPTION_PAGEFAULT_EXIT	= 0x23,
	LKST_EV_NMI_ENTRY		= 0x24,
	LKST_EV_NMI_EXIT		= 0x25,
	LKST_EV_EXCEPTION_FAULT_SIGNAL	= 0x26,
	/* end of exception */

	/* syscall */
	LKST_EV_SYSCALL_ENTRY		= 0x30,
	LKST_EV_SYSCALL_EXIT		= 0x31,
	LKST_EV_SYSCALL_ENTRY_ARG5	= 0x32,
	LKST_EV_SYSCALL_ERROR		= 0x33,
	/* end of syscall */

	/* memory */
	LKST_EV_MEM_PAGE_ALLOC		= 0x40,
	LKST_EV_MEM_PAGE_FREE		= 0x41,
	LKST_EV_MEM_SLAB_ALLOC		= 0x42,
	LKST_EV_MEM_SLAB_FREE		= 0x43,
	LKST_EV_MEM_MMAP		= 0x44,
	LKST_EV_MEM_MUNMAP		= 0x45,
	LKST_EV_MEM_MPROTECT		= 0x46,
	LKST_EV_MEM_BRK			= 0x47,
	LKST_EV_MEM_FAULT_MINOR		= 0x48,
	LKST_EV_MEM_FAULT_MAJOR		= 0x49,
	LKST_EV_MEM_SWAP_OUT		= 0x4a,
	LKST_EV_MEM_SWAP_IN		= 0x4b,
	LKST_EV_MEM_RECLAIM_START	= 0x4c,
	LKST_EV_MEM_RECLAIM_END		= 0x4d,
	LKST_EV_MEM_OOM_KILL		= 0x4e,
	LKST_EV_MEM_PAGE_SNAPSHOT	= 0x50,
	/* end of memory */

	/* ipc */
	LKST_EV_IPC_MSGSND		= 0x60,
	LKST_EV_IPC_MSGRCV		= 0x61,
	LKST_EV_IPC_SEMOP		= 0x62,
	LKST_EV_IPC_SHMAT		= 0x63,
	LKST_EV_IPC_SHMDT		= 0x64,
	LKST_EV_IPC_PIPE_READ		= 0x65,
	LKST_EV_IPC_PIPE_WRITE		= 0x66,
	LKST_EV_IPC_FUTEX_WAIT		= 0x67,
	LKST_EV_IPC_FUTEX_WAKE		= 0x68,
	LKST_EV_IPC_MQ_SEND		= 0x69,
	LKST_EV_IPC_MQ_RECEIVE		= 0x6a,
	LKST_EV_IPC_UNIX_SEND		= 0x6b,
	LKST_EV_IPC_UNIX_RECV		= 0x6c,
	/* end of ipc */

	/* block */
	LKST_EV_BLOCK_BIO_SUBMIT	= 0x80,
	LKST_EV_BLOCK_RQ_ISSUE		= 0x81,
	LKST_EV_BLOCK_RQ_COMPLETE	= 0x82,
	/* end of block */

	/* net */
	LKST_EV_NET_XMIT		= 0x90,
	LKST_EV_NET_RECEIVE		= 0x91,
	LKST_EV_NET_NAPI_POLL		= 0x92,
	/* end of net */

	/* timer */
	LKST_EV_TIMER_ADD		= 0xa0,
	LKST_EV_TIMER_EXPIRE_ENTRY	= 0xa1,
	LKST_EV_TIMER_EXPIRE_EXIT	= 0xa2,
	LKST_EV_TIMER_CANCEL		= 0xa3,
	LKST_EV_HRTIMER_START		= 0xa4,
	LKST_EV_HRTIMER_EXPIRE_ENTRY	= 0xa5,
	LKST_EV_HRTIMER_EXPIRE_EXIT	= 0xa6,
	LKST_EV_HRTIMER_CANCEL		= 0xa7,
	/* end of timer */

	/* lock */
	LKST_EV_LOCK_MUTEX_CONTENDED	= 0xb0,
	LKST_EV_LOCK_MUTEX_ACQUIRED	= 0xb1,
	LKST_EV_LOCK_RWSEM_CONTENDED	= 0xb2,
	LKST_EV_LOCK_RWSEM_ACQUIRED	= 0xb3,
	/* end of lock */

	/* oops */
	LKST_EV_OOPS_DIE		= 0xc0,
	LKST_EV_OOPS_PANIC		= 0xc1,
	/* end of oops */

	/* tracer */
	LKST_EV_USER_MARK		= 0xe0,
	LKST_EV_STACK_KERNEL		= 0xe1,
	LKST_EV_STACK_USER		= 0xe2,
	/* end of tracer */
};

/* A hook site of each event passes exactly this many arguments. */
enum lkst_event_nr_args {
	LKST_NR_ARGS_PROCESS_CONTEXTSWITCH = 6,
	LKST_NR_ARGS_PROCESS_WAKEUP = 6,
	LKST_NR_ARGS_PROCESS_SIGSEND = 5,
	LKST_NR_ARGS_PROCESS_LTHREADGEN = 6,
	LKST_NR_ARGS_PROCESS_WAITQ_INIT = 2,
	LKST_NR_ARGS_PROCESS_WAITQ_ADD = 4,
	LKST_NR_ARGS_PROCESS_WAITQ_REMOVE = 3,
	LKST_NR_ARGS_PROCESS_FORK = 6,
	LKST_NR_ARGS_PROCESS_EXEC = 4,
	LKST_NR_ARGS_PROCESS_EXIT = 6,
	LKST_NR_ARGS_PROCESS_MIGRATE = 4,
	LKST_NR_ARGS_PROCESS_SETPRIO = 5,
	LKST_NR_ARGS_PROCESS_SLEEP = 2,
	LKST_NR_ARGS_PROCESS_WAKEUP_NEW = 5,
	LKST_NR_ARGS_PROCESS_SIGDELIVER = 4,
	LKST_NR_ARGS_INT_HARDWARE_ENTRY = 3,
	LKST_NR_ARGS_INT_HARDWARE_EXIT = 3,
	LKST_NR_ARGS_INT_TASKLETHI_ENTRY = 2,
	LKST_NR_ARGS_INT_TASKLETHI_EXIT = 2,
	LKST_NR_ARGS_INT_TASKLET_ENTRY = 2,
	LKST_NR_ARGS_INT_TASKLET_EXIT = 2,
	LKST_NR_ARGS_INT_SOFTIRQ_ENTRY = 2,
	LKST_NR_ARGS_INT_SOFTIRQ_EXIT = 2,
	LKST_NR_ARGS_INT_SOFTIRQ_RAISE = 1,
	LKST_NR_ARGS_INT_IPI_SEND = 4,
	LKST_NR_ARGS_INT_VECTOR_ENTRY = 1,
	LKST_NR_ARGS_INT_VECTOR_EXIT = 1,
	LKST_NR_ARGS_INT_WORKQUEUE_QUEUE = 4,
	LKST_NR_ARGS_INT_WORKQUEUE_START = 2,
	LKST_NR_ARGS_INT_WORKQUEUE_END = 2,
	LKST_NR_ARGS_EXCEPTION_ENTRY = 5,
	LKST_NR_ARGS_EXCEPTION_EXIT = 2,
	LKST_NR_ARGS_EXCEPTION_PAGEFAULT_ENTRY = 4,
	LKST_NR_ARGS_EXCEPTION_PAGEFAULT_EXIT = 2,
	LKST_NR_ARGS_NMI_ENTRY = 4,
	LKST_NR_ARGS_NMI_EXIT = 3,
	LKST_NR_ARGS_EXCEPTION_FAULT_SIGNAL = 5,
	LKST_NR_ARGS_SYSCALL_ENTRY = 6,
	LKST_NR_ARGS_SYSCALL_EXIT = 2,
	LKST_NR_ARGS_SYSCALL_ENTRY_ARG5 = 2,
	LKST_NR_ARGS_SYSCALL_ERROR = 6,
	LKST_NR_ARGS_MEM_PAGE_ALLOC = 4,
	LKST_NR_ARGS_MEM_PAGE_FREE = 2,
	LKST_NR_ARGS_MEM_SLAB_ALLOC = 6,
	LKST_NR_ARGS_MEM_SLAB_FREE = 2,
	LKST_NR_ARGS_MEM_MMAP = 6,
	LKST_NR_ARGS_MEM_MUNMAP = 3,
	LKST_NR_ARGS_MEM_MPROTECT = 5,
	LKST_NR_ARGS_MEM_BRK = 3,
	LKST_NR_ARGS_MEM_FAULT_MINOR = 4,
	LKST_NR_ARGS_MEM_FAULT_MAJOR = 4,
	LKST_NR_ARGS_MEM_SWAP_OUT = 5,
	LKST_NR_ARGS_MEM_SWAP_IN = 5,
	LKST_NR_ARGS_MEM_RECLAIM_START = 4,
	LKST_NR_ARGS_MEM_RECLAIM_END = 3,
	LKST_NR_ARGS_MEM_OOM_KILL = 6,
	LKST_NR_ARGS_MEM_PAGE_SNAPSHOT = 5,
	LKST_NR_ARGS_IPC_MSGSND = 5,
	LKST_NR_ARGS_IPC_MSGRCV = 5,
	LKST_NR_ARGS_IPC_SEMOP = 6,
	LKST_NR_ARGS_IPC_SHMAT = 5,
	LKST_NR_ARGS_IPC_SHMDT = 2,
	LKST_NR_ARGS_IPC_PIPE_READ = 3,
	LKST_NR_ARGS_IPC_PIPE_WRITE = 3,
	LKST_NR_ARGS_IPC_FUTEX_WAIT = 4,
	LKST_NR_ARGS_IPC_FUTEX_WAKE = 4,
	LKST_NR_ARGS_IPC_MQ_SEND = 4,
	LKST_NR_ARGS_IPC_MQ_RECEIVE = 4,
	LKST_NR_ARGS_IPC_UNIX_SEND = 5,
	LKST_NR_ARGS_IPC_UNIX_RECV = 5,
	LKST_NR_ARGS_BLOCK_BIO_SUBMIT = 4,
	LKST_NR_ARGS_BLOCK_RQ_ISSUE = 4,
	LKST_NR_ARGS_BLOCK_RQ_COMPLETE = 5,
	LKST_NR_ARGS_NET_XMIT = 6,
	LKST_NR_ARGS_NET_RECEIVE = 6,
	LKST_NR_ARGS_NET_NAPI_POLL = 4,
	LKST_NR_ARGS_TIMER_ADD = 5,
	LKST_NR_ARGS_TIMER_EXPIRE_ENTRY = 3,
	LKST_NR_ARGS_TIMER_EXPIRE_EXIT = 2,
	LKST_NR_ARGS_TIMER_CANCEL = 4,
	LKST_NR_ARGS_HRTIMER_START = 6,
	LKST_NR_ARGS_HRTIMER_EXPIRE_ENTRY = 3,
	LKST_NR_ARGS_HRTIMER_EXPIRE_EXIT = 3,
	LKST_NR_ARGS_HRTIMER_CANCEL = 2,
	LKST_NR_ARGS_LOCK_MUTEX_CONTENDED = 2,
	LKST_NR_ARGS_LOCK_MUTEX_ACQUIRED = 2,
	LKST_NR_ARGS_LOCK_RWSEM_CONTENDED = 2,
	LKST_NR_ARGS_LOCK_RWSEM_ACQUIRED = 3,
	LKST_NR_ARGS_OOPS_DIE = 6,
	LKST_NR_ARGS_OOPS_PANIC = 6,
	LKST_NR_ARGS_USER_MARK = 6,
	LKST_NR_ARGS_STACK_KERNEL = 6,
	LKST_NR_ARGS_STACK_USER = 6,
};
/* END generated */

/* IDs that dynamic probes take, in the order they are created. */
#define LKST_EV_PROBE_FIRST	0xf0
#define LKST_EV_PROBE_LAST	0xfe

/*
 * arg1 of the STACK_* events: the event the stack was taken for, the
 * index in the stack of this record's first frame (arg2), and the number
 * of frames taken; a stack longer than five frames takes several records.
 */
#define LKST_STACK_POS(event, first, total) \
	((__u64)(total) << 32 | (__u64)(first) << 16 | (__u16)(event))
#define LKST_STACK_POS_EVENT(arg)	((unsigned int)((arg) & 0xffff))
#define LKST_STACK_POS_FIRST(arg)	((unsigned int)((arg) >> 16 & 0xffff))
#define LKST_STACK_POS_TOTAL(arg)	((unsigned int)((arg) >> 32 & 0xffff))
#define LKST_STACK_FRAMES_PER_RECORD	5

/* Groups of events, for RDEFAULT and for selecting events by group. */
enum lkst_category {
	LKST_CAT_PROCESS,
	LKST_CAT_INTERRUPT,
	LKST_CAT_EXCEPTION,
	LKST_CAT_SYSCALL,
	LKST_CAT_MEMORY,
	LKST_CAT_IPC,
	LKST_CAT_BLOCK,
	LKST_CAT_NET,
	LKST_CAT_TIMER,
	LKST_CAT_LOCK,
	LKST_CAT_OOPS,
	LKST_CAT_TRACER,
	LKST_CAT_PROBE,
	LKST_NR_CATEGORIES
};

/*
 * How a utility shows an argument.  COMM spans two arguments: 16 bytes of
 * a task's command name, NUL padded, in the machine's byte order.
 */
enum lkst_arg_type {
	LKST_ARG_NONE,		/* unused slot */
	LKST_ARG_DEC,		/* signed decimal */
	LKST_ARG_UDEC,		/* unsigned decimal */
	LKST_ARG_HEX,		/* address, flags, raw value */
	LKST_ARG_PID,		/* process (thread) ID */
	LKST_ARG_STATE,		/* task __state bits */
	LKST_ARG_SYSNR,		/* system call number */
	LKST_ARG_RETVAL,	/* signed return value, negative errno */
	LKST_ARG_COMM,		/* first 8 bytes of a command name */
	LKST_ARG_COMM2,		/* last 8 bytes of a command name */
	LKST_ARG_TEXT,		/* 8 bytes of text; consecutive TEXT args join */
	LKST_ARG_STACKPOS,	/* LKST_STACK_POS(): event, first frame, frames */
	LKST_ARG_KSYM,		/* kernel text address, shown as symbol+offset */
	LKST_ARG_UADDR,		/* user-space address */
	LKST_NR_ARG_TYPES
};

struct lkst_event_arg {
	enum lkst_arg_type type;
	const char *desc;
	const char *name;	/* a C identifier, for exporters */
};

/* Where an event has hook sites. */
#define LKST_ARCH_X86_64	(1u << 0)
#define LKST_ARCH_ARM64		(1u << 1)
#define LKST_ARCH_ALL		(LKST_ARCH_X86_64 | LKST_ARCH_ARM64)

struct lkst_event_info {
	enum lkst_event_id id;
	const char *mnemonic;
	enum lkst_category category;
	const char *description;
	struct lkst_event_arg args[LKST_NR_ARGS];
	unsigned int nr_args;	/* a hook site passes exactly these */
	unsigned int arches;	/* LKST_ARCH_*: where it has sites */
	const char *twin;	/* upstream tracepoints, "" for none */
	const char *locks;	/* what a site may hold, "" for none */
};

struct lkst_category_info {
	const char *name;
	unsigned int first, last;	/* range of IDs */
};

#ifdef LKST_EVENT_TABLES

static const struct lkst_category_info lkst_category_table[] = {
	[LKST_CAT_PROCESS]	= { "process",   0x01, 0x0f },
	[LKST_CAT_INTERRUPT]	= { "interrupt", 0x10, 0x1f },
	[LKST_CAT_EXCEPTION]	= { "exception", 0x20, 0x2f },
	[LKST_CAT_SYSCALL]	= { "syscall",   0x30, 0x3f },
	[LKST_CAT_MEMORY]	= { "memory",    0x40, 0x5f },
	[LKST_CAT_IPC]		= { "ipc",       0x60, 0x7f },
	[LKST_CAT_BLOCK]	= { "block",     0x80, 0x8f },
	[LKST_CAT_NET]		= { "net",       0x90, 0x9f },
	[LKST_CAT_TIMER]	= { "timer",     0xa0, 0xaf },
	[LKST_CAT_LOCK]		= { "lock",      0xb0, 0xbf },
	[LKST_CAT_OOPS]		= { "oops",      0xc0, 0xcf },
	[LKST_CAT_TRACER]	= { "tracer",    0xe0, 0xef },
	[LKST_CAT_PROBE]	= { "probe",     LKST_EV_PROBE_FIRST, LKST_EV_PROBE_LAST },
};

/* The ID and the mnemonic come from one name, so they cannot disagree. */
#define LKST_EVENT(sym)	.id = LKST_EV_##sym, .mnemonic = #sym

/* BEGIN generated from events.def by gen-event-table.py (make events) */
static const struct lkst_event_info lkst_event_table[] = {
	{
		LKST_EVENT(PROCESS_CONTEXTSWITCH),
		.category = LKST_CAT_PROCESS,
		.description = "context switch in __schedule()",
		.args = {
			{ LKST_ARG_PID, "prev pid", "prev_pid" },
			{ LKST_ARG_PID, "next pid", "next_pid" },
			{ LKST_ARG_STATE, "prev state", "prev_state" },
			{ LKST_ARG_DEC, "next prio", "next_prio" },
			{ LKST_ARG_COMM, "next comm", "next_comm" },
			{ LKST_ARG_COMM2, "", "next_comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_CONTEXTSWITCH,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_switch",
		.locks = "rq->lock",
	},
	{
		LKST_EVENT(PROCESS_WAKEUP),
		.category = LKST_CAT_PROCESS,
		.description = "try_to_wake_up() wakes a task",
		.args = {
			{ LKST_ARG_PID, "target pid", "target_pid" },
			{ LKST_ARG_STATE, "target state", "target_state" },
			{ LKST_ARG_UDEC, "last cpu", "last_cpu" },
			{ LKST_ARG_DEC, "target prio", "target_prio" },
			{ LKST_ARG_COMM, "target comm", "target_comm" },
			{ LKST_ARG_COMM2, "", "target_comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_WAKEUP,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_waking",
		.locks = "p->pi_lock",
	},
	{
		LKST_EVENT(PROCESS_SIGSEND),
		.category = LKST_CAT_PROCESS,
		.description = "a signal is generated for a task",
		.args = {
			{ LKST_ARG_DEC, "signal", "signal" },
			{ LKST_ARG_PID, "target pid", "target_pid" },
			{ LKST_ARG_DEC, "si_code", "si_code" },
			{ LKST_ARG_UDEC, "to the whole group", "to_the_whole" },
			{ LKST_ARG_UDEC, "result: 0 ok 1 ignored 2 pending 3 overflow 4 lost",
			  "result" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_SIGSEND,
		.arches = LKST_ARCH_ALL,
		.twin = "signal:signal_generate",
		.locks = "sighand->siglock",
	},
	{
		LKST_EVENT(PROCESS_LTHREADGEN),
		.category = LKST_CAT_PROCESS,
		.description = "a kernel thread is created (kernel_thread, user_mode_thread)",
		.args = {
			{ LKST_ARG_PID, "new pid", "new_pid" },
			{ LKST_ARG_HEX, "thread function", "thread_function" },
			{ LKST_ARG_HEX, "clone flags", "clone_flags" },
			{ LKST_ARG_PID, "creator pid", "creator_pid" },
			{ LKST_ARG_COMM, "name", "name" },
			{ LKST_ARG_COMM2, "", "name2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_LTHREADGEN,
		.arches = LKST_ARCH_ALL,
		.twin = "task:task_newtask",
		.locks = "",
	},
	{
		LKST_EVENT(PROCESS_WAITQ_INIT),
		.category = LKST_CAT_PROCESS,
		.description = "a wait queue head is initialized",
		.args = {
			{ LKST_ARG_HEX, "wait queue head", "wait_queue_head" },
			{ LKST_ARG_HEX, "caller", "caller" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_WAITQ_INIT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(PROCESS_WAITQ_ADD),
		.category = LKST_CAT_PROCESS,
		.description = "an entry is added to a wait queue",
		.args = {
			{ LKST_ARG_HEX, "wait queue head", "wait_queue_head" },
			{ LKST_ARG_HEX, "wait entry", "wait_entry" },
			{ LKST_ARG_PID, "waiter pid, 0 for a callback entry", "waiter_pid" },
			{ LKST_ARG_UDEC, "exclusive", "exclusive" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_WAITQ_ADD,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "wait-queue head lock from prepare_to_wait*()",
	},
	{
		LKST_EVENT(PROCESS_WAITQ_REMOVE),
		.category = LKST_CAT_PROCESS,
		.description = "an entry is removed from a wait queue",
		.args = {
			{ LKST_ARG_HEX, "wait queue head, 0 when the waker removes it",
			  "wait_queue_head" },
			{ LKST_ARG_HEX, "wait entry", "wait_entry" },
			{ LKST_ARG_PID, "waiter pid, 0 for a callback entry", "waiter_pid" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_WAITQ_REMOVE,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "wait-queue head lock when a waker removes the entry",
	},
	{
		LKST_EVENT(PROCESS_FORK),
		.category = LKST_CAT_PROCESS,
		.description = "kernel_clone() created a process or thread",
		.args = {
			{ LKST_ARG_PID, "parent pid", "parent_pid" },
			{ LKST_ARG_PID, "child pid", "child_pid" },
			{ LKST_ARG_PID, "child tgid", "child_tgid" },
			{ LKST_ARG_HEX, "clone flags", "clone_flags" },
			{ LKST_ARG_COMM, "child comm", "child_comm" },
			{ LKST_ARG_COMM2, "", "child_comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_FORK,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_process_fork",
		.locks = "",
	},
	{
		LKST_EVENT(PROCESS_EXEC),
		.category = LKST_CAT_PROCESS,
		.description = "a successful execve() replaced the program",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_PID, "pid before exec", "pid_before_exec" },
			{ LKST_ARG_COMM, "new comm", "new_comm" },
			{ LKST_ARG_COMM2, "", "new_comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_EXEC,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_process_exec",
		.locks = "",
	},
	{
		LKST_EVENT(PROCESS_EXIT),
		.category = LKST_CAT_PROCESS,
		.description = "a task exits (do_exit)",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_PID, "tgid", "tgid" },
			{ LKST_ARG_HEX, "exit code", "exit_code" },
			{ LKST_ARG_UDEC, "last of its group", "last_of_its" },
			{ LKST_ARG_COMM, "comm", "comm" },
			{ LKST_ARG_COMM2, "", "comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_process_exit",
		.locks = "",
	},
	{
		LKST_EVENT(PROCESS_MIGRATE),
		.category = LKST_CAT_PROCESS,
		.description = "a task moves to another CPU",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_UDEC, "from cpu", "from_cpu" },
			{ LKST_ARG_UDEC, "to cpu", "to_cpu" },
			{ LKST_ARG_DEC, "prio", "prio" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_MIGRATE,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_migrate_task",
		.locks = "rq->lock or p->pi_lock",
	},
	{
		LKST_EVENT(PROCESS_SETPRIO),
		.category = LKST_CAT_PROCESS,
		.description = "a task's priority changes: nice, sched_setscheduler, PI boost",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_DEC, "old prio", "old_prio" },
			{ LKST_ARG_DEC, "new prio", "new_prio" },
			{ LKST_ARG_UDEC, "policy", "policy" },
			{ LKST_ARG_DEC, "nice", "nice" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_SETPRIO,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_pi_setprio",
		.locks = "rq->lock, p->pi_lock, rtmutex wait_lock from priority inheritance",
	},
	{
		LKST_EVENT(PROCESS_SLEEP),
		.category = LKST_CAT_PROCESS,
		.description = "a task dequeued to sleep, or kept running by a pending signal",
		.args = {
			{ LKST_ARG_STATE, "state", "state" },
			{ LKST_ARG_UDEC, "kept running by a pending signal", "kept_running_by" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_SLEEP,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_switch",
		.locks = "rq->lock",
	},
	{
		LKST_EVENT(PROCESS_WAKEUP_NEW),
		.category = LKST_CAT_PROCESS,
		.description = "wake_up_new_task() first enqueues a new task",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_UDEC, "cpu", "cpu" },
			{ LKST_ARG_DEC, "prio", "prio" },
			{ LKST_ARG_COMM, "comm", "comm" },
			{ LKST_ARG_COMM2, "", "comm2" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_WAKEUP_NEW,
		.arches = LKST_ARCH_ALL,
		.twin = "sched:sched_wakeup_new",
		.locks = "rq->lock, p->pi_lock",
	},
	{
		LKST_EVENT(PROCESS_SIGDELIVER),
		.category = LKST_CAT_PROCESS,
		.description = "get_signal() delivers a signal to the current task",
		.args = {
			{ LKST_ARG_DEC, "signal", "signal" },
			{ LKST_ARG_DEC, "si_code", "si_code" },
			{ LKST_ARG_HEX, "handler: 0 default, 1 ignore", "handler" },
			{ LKST_ARG_HEX, "sa_flags", "sa_flags" },
		},
		.nr_args = LKST_NR_ARGS_PROCESS_SIGDELIVER,
		.arches = LKST_ARCH_ALL,
		.twin = "signal:signal_deliver",
		.locks = "sighand->siglock",
	},
	{
		LKST_EVENT(INT_HARDWARE_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IRQ action handler is called (__handle_irq_event_percpu)",
		.args = {
			{ LKST_ARG_UDEC, "irq", "irq" },
			{ LKST_ARG_HEX, "handler", "handler" },
			{ LKST_ARG_HEX, "dev_id", "dev_id" },
		},
		.nr_args = LKST_NR_ARGS_INT_HARDWARE_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:irq_handler_entry",
		.locks = "",
	},
	{
		LKST_EVENT(INT_HARDWARE_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IRQ action handler returned (0 none, 1 handled, 2 wake thread)",
		.args = {
			{ LKST_ARG_UDEC, "irq", "irq" },
			{ LKST_ARG_HEX, "irqreturn", "irqreturn" },
			{ LKST_ARG_HEX, "handler", "handler" },
		},
		.nr_args = LKST_NR_ARGS_INT_HARDWARE_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:irq_handler_exit",
		.locks = "",
	},
	{
		LKST_EVENT(INT_TASKLETHI_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "a HI_SOFTIRQ tasklet function is called",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "tasklet", "tasklet" },
		},
		.nr_args = LKST_NR_ARGS_INT_TASKLETHI_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:tasklet_entry",
		.locks = "",
	},
	{
		LKST_EVENT(INT_TASKLETHI_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a HI_SOFTIRQ tasklet function returned",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "tasklet", "tasklet" },
		},
		.nr_args = LKST_NR_ARGS_INT_TASKLETHI_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:tasklet_exit",
		.locks = "",
	},
	{
		LKST_EVENT(INT_TASKLET_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "a TASKLET_SOFTIRQ tasklet function is called",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "tasklet", "tasklet" },
		},
		.nr_args = LKST_NR_ARGS_INT_TASKLET_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:tasklet_entry",
		.locks = "",
	},
	{
		LKST_EVENT(INT_TASKLET_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a TASKLET_SOFTIRQ tasklet function returned",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "tasklet", "tasklet" },
		},
		.nr_args = LKST_NR_ARGS_INT_TASKLET_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:tasklet_exit",
		.locks = "",
	},
	{
		LKST_EVENT(INT_SOFTIRQ_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "softirq action called (1 TIMER, 3 NET_RX, 6 TASKLET, 9 RCU...)",
		.args = {
			{ LKST_ARG_UDEC, "vector", "vector" },
			{ LKST_ARG_HEX, "action", "action" },
		},
		.nr_args = LKST_NR_ARGS_INT_SOFTIRQ_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:softirq_entry",
		.locks = "",
	},
	{
		LKST_EVENT(INT_SOFTIRQ_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a softirq action returned",
		.args = {
			{ LKST_ARG_UDEC, "vector", "vector" },
			{ LKST_ARG_HEX, "action", "action" },
		},
		.nr_args = LKST_NR_ARGS_INT_SOFTIRQ_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:softirq_exit",
		.locks = "",
	},
	{
		LKST_EVENT(INT_SOFTIRQ_RAISE),
		.category = LKST_CAT_INTERRUPT,
		.description = "a softirq is marked pending on this CPU",
		.args = {
			{ LKST_ARG_UDEC, "vector", "vector" },
		},
		.nr_args = LKST_NR_ARGS_INT_SOFTIRQ_RAISE,
		.arches = LKST_ARCH_ALL,
		.twin = "irq:softirq_raise",
		.locks = "",
	},
	{
		LKST_EVENT(INT_IPI_SEND),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IPI is sent (callback 0: reschedule)",
		.args = {
			{ LKST_ARG_DEC, "target cpu, -1 for a mask", "target_cpu" },
			{ LKST_ARG_HEX, "cpu mask", "cpu_mask" },
			{ LKST_ARG_HEX, "callback", "callback" },
			{ LKST_ARG_HEX, "call site", "call_site" },
		},
		.nr_args = LKST_NR_ARGS_INT_IPI_SEND,
		.arches = LKST_ARCH_ALL,
		.twin = "ipi:ipi_send_cpu ipi:ipi_send_cpumask",
		.locks = "",
	},
	{
		LKST_EVENT(INT_VECTOR_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "x86 system vector (0xec timer, 0xfb-0xfd IPI...), arm64 IPI",
		.args = {
			{ LKST_ARG_HEX, "vector", "vector" },
		},
		.nr_args = LKST_NR_ARGS_INT_VECTOR_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "irq_vectors:*_entry",
		.locks = "",
	},
	{
		LKST_EVENT(INT_VECTOR_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a system vector (arm64: IPI) handler is done",
		.args = {
			{ LKST_ARG_HEX, "vector", "vector" },
		},
		.nr_args = LKST_NR_ARGS_INT_VECTOR_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "irq_vectors:*_exit",
		.locks = "",
	},
	{
		LKST_EVENT(INT_WORKQUEUE_QUEUE),
		.category = LKST_CAT_INTERRUPT,
		.description = "work item queued by __queue_work() (cpu -1: unbound)",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "work", "work" },
			{ LKST_ARG_DEC, "requested cpu", "requested_cpu" },
			{ LKST_ARG_DEC, "pool cpu", "pool_cpu" },
		},
		.nr_args = LKST_NR_ARGS_INT_WORKQUEUE_QUEUE,
		.arches = LKST_ARCH_ALL,
		.twin = "workqueue:workqueue_queue_work",
		.locks = "worker pool lock",
	},
	{
		LKST_EVENT(INT_WORKQUEUE_START),
		.category = LKST_CAT_INTERRUPT,
		.description = "a worker calls a work function (process_one_work)",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "work", "work" },
		},
		.nr_args = LKST_NR_ARGS_INT_WORKQUEUE_START,
		.arches = LKST_ARCH_ALL,
		.twin = "workqueue:workqueue_execute_start",
		.locks = "",
	},
	{
		LKST_EVENT(INT_WORKQUEUE_END),
		.category = LKST_CAT_INTERRUPT,
		.description = "a work function returned",
		.args = {
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_HEX, "work", "work" },
		},
		.nr_args = LKST_NR_ARGS_INT_WORKQUEUE_END,
		.arches = LKST_ARCH_ALL,
		.twin = "workqueue:workqueue_execute_end",
		.locks = "",
	},
	{
		LKST_EVENT(EXCEPTION_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "x86 trap (6 #UD, 13 #GP...), arm64 ESR class (0 undef...)",
		.args = {
			{ LKST_ARG_UDEC, "vector", "vector" },
			{ LKST_ARG_HEX, "error code", "error_code" },
			{ LKST_ARG_HEX, "ip", "ip" },
			{ LKST_ARG_UDEC, "user mode", "user_mode" },
			{ LKST_ARG_HEX, "fault address", "fault_address" },
		},
		.nr_args = LKST_NR_ARGS_EXCEPTION_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(EXCEPTION_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "trap handled (signal 0: none, fixed up)",
		.args = {
			{ LKST_ARG_UDEC, "vector", "vector" },
			{ LKST_ARG_DEC, "signal", "signal" },
		},
		.nr_args = LKST_NR_ARGS_EXCEPTION_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(EXCEPTION_PAGEFAULT_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "page fault (x86 error 1 present, 2 write, 4 user; arm64 ESR)",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_HEX, "error code", "error_code" },
			{ LKST_ARG_HEX, "ip", "ip" },
			{ LKST_ARG_UDEC, "user mode", "user_mode" },
		},
		.nr_args = LKST_NR_ARGS_EXCEPTION_PAGEFAULT_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "exceptions:page_fault_user exceptions:page_fault_kernel",
		.locks = "",
	},
	{
		LKST_EVENT(EXCEPTION_PAGEFAULT_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "a page fault handler is done",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_HEX, "error code", "error_code" },
		},
		.nr_args = LKST_NR_ARGS_EXCEPTION_PAGEFAULT_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(NMI_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "a non-maskable interrupt reaches default_do_nmi()",
		.args = {
			{ LKST_ARG_UDEC, "cpu", "cpu" },
			{ LKST_ARG_HEX, "ip", "ip" },
			{ LKST_ARG_UDEC, "user mode", "user_mode" },
			{ LKST_ARG_UDEC, "back to back", "back_to_back" },
		},
		.nr_args = LKST_NR_ARGS_NMI_ENTRY,
		.arches = LKST_ARCH_X86_64,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(NMI_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "default_do_nmi() done (reason: port 0x61, read when unclaimed)",
		.args = {
			{ LKST_ARG_UDEC, "cpu", "cpu" },
			{ LKST_ARG_UDEC, "handled", "handled" },
			{ LKST_ARG_HEX, "reason", "reason" },
		},
		.nr_args = LKST_NR_ARGS_NMI_EXIT,
		.arches = LKST_ARCH_X86_64,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(EXCEPTION_FAULT_SIGNAL),
		.category = LKST_CAT_EXCEPTION,
		.description = "user page fault that ended in SIGSEGV or SIGBUS (lkst_errpath)",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_HEX, "error code", "error_code" },
			{ LKST_ARG_HEX, "ip", "ip" },
			{ LKST_ARG_DEC, "signal", "signal" },
			{ LKST_ARG_DEC, "si_code", "si_code" },
		},
		.nr_args = LKST_NR_ARGS_EXCEPTION_FAULT_SIGNAL,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(SYSCALL_ENTRY),
		.category = LKST_CAT_SYSCALL,
		.description = "system call entry",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number", "syscall_number" },
			{ LKST_ARG_HEX, "arg0", "arg0" },
			{ LKST_ARG_HEX, "arg1", "arg1" },
			{ LKST_ARG_HEX, "arg2", "arg2" },
			{ LKST_ARG_HEX, "arg3", "arg3" },
			{ LKST_ARG_HEX, "arg4", "arg4" },
		},
		.nr_args = LKST_NR_ARGS_SYSCALL_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "raw_syscalls:sys_enter",
		.locks = "",
	},
	{
		LKST_EVENT(SYSCALL_EXIT),
		.category = LKST_CAT_SYSCALL,
		.description = "system call exit",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number", "syscall_number" },
			{ LKST_ARG_RETVAL, "return value", "return_value" },
		},
		.nr_args = LKST_NR_ARGS_SYSCALL_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "raw_syscalls:sys_exit",
		.locks = "",
	},
	{
		LKST_EVENT(SYSCALL_ENTRY_ARG5),
		.category = LKST_CAT_SYSCALL,
		.description = "the sixth argument of the system call just entered",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number", "syscall_number" },
			{ LKST_ARG_HEX, "arg5", "arg5" },
		},
		.nr_args = LKST_NR_ARGS_SYSCALL_ENTRY_ARG5,
		.arches = LKST_ARCH_ALL,
		.twin = "raw_syscalls:sys_enter",
		.locks = "",
	},
	{
		LKST_EVENT(SYSCALL_ERROR),
		.category = LKST_CAT_SYSCALL,
		.description = "failed system call, from entry to exit (lkst_errpath)",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number", "syscall_number" },
			{ LKST_ARG_RETVAL, "return value", "return_value" },
			{ LKST_ARG_UDEC, "duration ns", "duration_ns" },
			{ LKST_ARG_HEX, "arg0", "arg0" },
			{ LKST_ARG_HEX, "arg1", "arg1" },
			{ LKST_ARG_HEX, "arg2", "arg2" },
		},
		.nr_args = LKST_NR_ARGS_SYSCALL_ERROR,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_PAGE_ALLOC),
		.category = LKST_CAT_MEMORY,
		.description = "pages allocated from the buddy allocator",
		.args = {
			{ LKST_ARG_HEX, "pfn", "pfn" },
			{ LKST_ARG_UDEC, "order", "order" },
			{ LKST_ARG_HEX, "gfp flags", "gfp_flags" },
			{ LKST_ARG_UDEC, "migratetype", "migratetype" },
		},
		.nr_args = LKST_NR_ARGS_MEM_PAGE_ALLOC,
		.arches = LKST_ARCH_ALL,
		.twin = "kmem:mm_page_alloc",
		.locks = "pcp lock of a bulk allocation",
	},
	{
		LKST_EVENT(MEM_PAGE_FREE),
		.category = LKST_CAT_MEMORY,
		.description = "pages freed to the buddy allocator",
		.args = {
			{ LKST_ARG_HEX, "pfn", "pfn" },
			{ LKST_ARG_UDEC, "order", "order" },
		},
		.nr_args = LKST_NR_ARGS_MEM_PAGE_FREE,
		.arches = LKST_ARCH_ALL,
		.twin = "kmem:mm_page_free",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_SLAB_ALLOC),
		.category = LKST_CAT_MEMORY,
		.description = "kmalloc() or kmem_cache_alloc() returns an object",
		.args = {
			{ LKST_ARG_HEX, "object address (0: failed)", "object_address" },
			{ LKST_ARG_UDEC, "bytes requested", "bytes_requested" },
			{ LKST_ARG_UDEC, "bytes allocated", "bytes_allocated" },
			{ LKST_ARG_HEX, "gfp flags", "gfp_flags" },
			{ LKST_ARG_HEX, "call site", "call_site" },
			{ LKST_ARG_DEC, "node (-1: any)", "node" },
		},
		.nr_args = LKST_NR_ARGS_MEM_SLAB_ALLOC,
		.arches = LKST_ARCH_ALL,
		.twin = "kmem:kmalloc kmem:kmem_cache_alloc",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_SLAB_FREE),
		.category = LKST_CAT_MEMORY,
		.description = "kfree() or kmem_cache_free() of an object",
		.args = {
			{ LKST_ARG_HEX, "object address", "object_address" },
			{ LKST_ARG_HEX, "call site", "call_site" },
		},
		.nr_args = LKST_NR_ARGS_MEM_SLAB_FREE,
		.arches = LKST_ARCH_ALL,
		.twin = "kmem:kfree kmem:kmem_cache_free",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_MMAP),
		.category = LKST_CAT_MEMORY,
		.description = "mmap() (vm_mmap_pgoff) maps a region",
		.args = {
			{ LKST_ARG_RETVAL, "address or negative errno", "address_or_negative" },
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_HEX, "prot", "prot" },
			{ LKST_ARG_HEX, "flags", "flags" },
			{ LKST_ARG_HEX, "page offset", "page_offset" },
			{ LKST_ARG_HEX, "address hint", "address_hint" },
		},
		.nr_args = LKST_NR_ARGS_MEM_MMAP,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_MUNMAP),
		.category = LKST_CAT_MEMORY,
		.description = "munmap() or an in-kernel unmap (do_vmi_munmap)",
		.args = {
			{ LKST_ARG_HEX, "start", "start" },
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_RETVAL, "result", "result" },
		},
		.nr_args = LKST_NR_ARGS_MEM_MUNMAP,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_MPROTECT),
		.category = LKST_CAT_MEMORY,
		.description = "mprotect() or pkey_mprotect()",
		.args = {
			{ LKST_ARG_HEX, "start", "start" },
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_HEX, "prot", "prot" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_DEC, "pkey (-1: none)", "pkey" },
		},
		.nr_args = LKST_NR_ARGS_MEM_MPROTECT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_BRK),
		.category = LKST_CAT_MEMORY,
		.description = "brk() moves (or fails to move) the heap end",
		.args = {
			{ LKST_ARG_HEX, "requested brk", "requested_brk" },
			{ LKST_ARG_HEX, "old brk", "old_brk" },
			{ LKST_ARG_HEX, "resulting brk", "resulting_brk" },
		},
		.nr_args = LKST_NR_ARGS_MEM_BRK,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_FAULT_MINOR),
		.category = LKST_CAT_MEMORY,
		.description = "page fault handled without I/O (handle_mm_fault)",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_HEX, "fault flags", "fault_flags" },
			{ LKST_ARG_HEX, "vm_fault_t result", "vm_fault_t" },
			{ LKST_ARG_HEX, "user ip (0 for kernel access)", "user_ip" },
		},
		.nr_args = LKST_NR_ARGS_MEM_FAULT_MINOR,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_FAULT_MAJOR),
		.category = LKST_CAT_MEMORY,
		.description = "page fault that needed I/O (VM_FAULT_MAJOR)",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_HEX, "fault flags", "fault_flags" },
			{ LKST_ARG_HEX, "vm_fault_t result", "vm_fault_t" },
			{ LKST_ARG_HEX, "user ip (0 for kernel access)", "user_ip" },
		},
		.nr_args = LKST_NR_ARGS_MEM_FAULT_MAJOR,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_SWAP_OUT),
		.category = LKST_CAT_MEMORY,
		.description = "a folio is written out to swap",
		.args = {
			{ LKST_ARG_UDEC, "swap type", "swap_type" },
			{ LKST_ARG_HEX, "swap offset", "swap_offset" },
			{ LKST_ARG_HEX, "pfn", "pfn" },
			{ LKST_ARG_UDEC, "pages", "pages" },
			{ LKST_ARG_UDEC, "how (0 I/O, 1 zero page, 2 zswap)", "how" },
		},
		.nr_args = LKST_NR_ARGS_MEM_SWAP_OUT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_SWAP_IN),
		.category = LKST_CAT_MEMORY,
		.description = "a folio is read in from swap",
		.args = {
			{ LKST_ARG_UDEC, "swap type", "swap_type" },
			{ LKST_ARG_HEX, "swap offset", "swap_offset" },
			{ LKST_ARG_HEX, "pfn", "pfn" },
			{ LKST_ARG_UDEC, "pages", "pages" },
			{ LKST_ARG_UDEC, "how (0 I/O, 1 zero page, 2 zswap)", "how" },
		},
		.nr_args = LKST_NR_ARGS_MEM_SWAP_IN,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_RECLAIM_START),
		.category = LKST_CAT_MEMORY,
		.description = "page reclaim starts (direct, kswapd or memcg)",
		.args = {
			{ LKST_ARG_UDEC, "order", "order" },
			{ LKST_ARG_HEX, "gfp flags", "gfp_flags" },
			{ LKST_ARG_UDEC, "who (0 direct, 1 kswapd, 2 memcg)", "who" },
			{ LKST_ARG_UDEC, "memcg cgroup inode (0: global)", "memcg_cgroup_inode" },
		},
		.nr_args = LKST_NR_ARGS_MEM_RECLAIM_START,
		.arches = LKST_ARCH_ALL,
		.twin = "vmscan:mm_vmscan_direct_reclaim_begin",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_RECLAIM_END),
		.category = LKST_CAT_MEMORY,
		.description = "page reclaim ends",
		.args = {
			{ LKST_ARG_UDEC, "pages reclaimed", "pages_reclaimed" },
			{ LKST_ARG_UDEC, "who (0 direct, 1 kswapd, 2 memcg)", "who" },
			{ LKST_ARG_UDEC, "memcg cgroup inode (0: global)", "memcg_cgroup_inode" },
		},
		.nr_args = LKST_NR_ARGS_MEM_RECLAIM_END,
		.arches = LKST_ARCH_ALL,
		.twin = "vmscan:mm_vmscan_direct_reclaim_end",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_OOM_KILL),
		.category = LKST_CAT_MEMORY,
		.description = "the OOM killer kills a process",
		.args = {
			{ LKST_ARG_PID, "victim pid", "victim_pid" },
			{ LKST_ARG_PID, "victim tgid", "victim_tgid" },
			{ LKST_ARG_UDEC, "victim rss pages", "victim_rss_pages" },
			{ LKST_ARG_DEC, "oom_score_adj", "oom_score_adj" },
			{ LKST_ARG_COMM, "victim comm", "victim_comm" },
			{ LKST_ARG_COMM2, "", "victim_comm2" },
		},
		.nr_args = LKST_NR_ARGS_MEM_OOM_KILL,
		.arches = LKST_ARCH_ALL,
		.twin = "oom:mark_victim",
		.locks = "",
	},
	{
		LKST_EVENT(MEM_PAGE_SNAPSHOT),
		.category = LKST_CAT_MEMORY,
		.description = "a run of physical pages a process maps (lkst_pagewalk.ko)",
		.args = {
			{ LKST_ARG_PID, "pid", "pid" },
			{ LKST_ARG_HEX, "virtual address", "virtual_address" },
			{ LKST_ARG_HEX, "pfn", "pfn" },
			{ LKST_ARG_UDEC, "pages in the run", "pages_in_the" },
			{ LKST_ARG_UDEC, "snapshot number", "snapshot_number" },
		},
		.nr_args = LKST_NR_ARGS_MEM_PAGE_SNAPSHOT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_MSGSND),
		.category = LKST_CAT_IPC,
		.description = "msgsnd() to a System V message queue returns",
		.args = {
			{ LKST_ARG_DEC, "msqid", "msqid" },
			{ LKST_ARG_DEC, "message type", "message_type" },
			{ LKST_ARG_UDEC, "size", "size" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_HEX, "msgflg", "msgflg" },
		},
		.nr_args = LKST_NR_ARGS_IPC_MSGSND,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_MSGRCV),
		.category = LKST_CAT_IPC,
		.description = "msgrcv() from a System V message queue returns",
		.args = {
			{ LKST_ARG_DEC, "msqid", "msqid" },
			{ LKST_ARG_DEC, "requested type", "requested_type" },
			{ LKST_ARG_UDEC, "buffer size", "buffer_size" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_HEX, "msgflg", "msgflg" },
		},
		.nr_args = LKST_NR_ARGS_IPC_MSGRCV,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_SEMOP),
		.category = LKST_CAT_IPC,
		.description = "semop()/semtimedop() on a System V semaphore set returns",
		.args = {
			{ LKST_ARG_DEC, "semid", "semid" },
			{ LKST_ARG_UDEC, "nsops", "nsops" },
			{ LKST_ARG_UDEC, "first sem_num", "first_sem_num" },
			{ LKST_ARG_DEC, "first sem_op", "first_sem_op" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_HEX, "first sem_flg", "first_sem_flg" },
		},
		.nr_args = LKST_NR_ARGS_IPC_SEMOP,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_SHMAT),
		.category = LKST_CAT_IPC,
		.description = "shmat() of a System V shared memory segment returns",
		.args = {
			{ LKST_ARG_DEC, "shmid", "shmid" },
			{ LKST_ARG_HEX, "attach address", "attach_address" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_HEX, "shmflg", "shmflg" },
			{ LKST_ARG_HEX, "requested address", "requested_address" },
		},
		.nr_args = LKST_NR_ARGS_IPC_SHMAT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_SHMDT),
		.category = LKST_CAT_IPC,
		.description = "shmdt() returns",
		.args = {
			{ LKST_ARG_HEX, "address", "address" },
			{ LKST_ARG_RETVAL, "result", "result" },
		},
		.nr_args = LKST_NR_ARGS_IPC_SHMDT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_PIPE_READ),
		.category = LKST_CAT_IPC,
		.description = "read from a pipe or FIFO returns",
		.args = {
			{ LKST_ARG_UDEC, "bytes requested", "bytes_requested" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_UDEC, "pipe inode", "pipe_inode" },
		},
		.nr_args = LKST_NR_ARGS_IPC_PIPE_READ,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_PIPE_WRITE),
		.category = LKST_CAT_IPC,
		.description = "write to a pipe or FIFO returns",
		.args = {
			{ LKST_ARG_UDEC, "bytes requested", "bytes_requested" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_UDEC, "pipe inode", "pipe_inode" },
		},
		.nr_args = LKST_NR_ARGS_IPC_PIPE_WRITE,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_FUTEX_WAIT),
		.category = LKST_CAT_IPC,
		.description = "futex wait returns (woken, timed out, value changed)",
		.args = {
			{ LKST_ARG_HEX, "uaddr", "uaddr" },
			{ LKST_ARG_HEX, "expected value", "expected_value" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_HEX, "bitset", "bitset" },
		},
		.nr_args = LKST_NR_ARGS_IPC_FUTEX_WAIT,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_FUTEX_WAKE),
		.category = LKST_CAT_IPC,
		.description = "futex wake returns",
		.args = {
			{ LKST_ARG_HEX, "uaddr", "uaddr" },
			{ LKST_ARG_DEC, "nr to wake", "nr_to_wake" },
			{ LKST_ARG_RETVAL, "woken", "woken" },
			{ LKST_ARG_HEX, "bitset", "bitset" },
		},
		.nr_args = LKST_NR_ARGS_IPC_FUTEX_WAKE,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_MQ_SEND),
		.category = LKST_CAT_IPC,
		.description = "mq_timedsend() to a POSIX message queue returns",
		.args = {
			{ LKST_ARG_DEC, "mqdes", "mqdes" },
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_UDEC, "priority", "priority" },
			{ LKST_ARG_RETVAL, "result", "result" },
		},
		.nr_args = LKST_NR_ARGS_IPC_MQ_SEND,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_MQ_RECEIVE),
		.category = LKST_CAT_IPC,
		.description = "mq_timedreceive() from a POSIX message queue returns",
		.args = {
			{ LKST_ARG_DEC, "mqdes", "mqdes" },
			{ LKST_ARG_UDEC, "buffer length", "buffer_length" },
			{ LKST_ARG_UDEC, "priority received", "priority_received" },
			{ LKST_ARG_RETVAL, "result", "result" },
		},
		.nr_args = LKST_NR_ARGS_IPC_MQ_RECEIVE,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_UNIX_SEND),
		.category = LKST_CAT_IPC,
		.description = "sendmsg on a UNIX domain socket returns",
		.args = {
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_UDEC, "socket type", "socket_type" },
			{ LKST_ARG_UDEC, "socket inode", "socket_inode" },
			{ LKST_ARG_UDEC, "peer inode, 0 for a datagram socket", "peer_inode" },
		},
		.nr_args = LKST_NR_ARGS_IPC_UNIX_SEND,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(IPC_UNIX_RECV),
		.category = LKST_CAT_IPC,
		.description = "recvmsg on a UNIX domain socket returns",
		.args = {
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_RETVAL, "result", "result" },
			{ LKST_ARG_UDEC, "socket type", "socket_type" },
			{ LKST_ARG_UDEC, "socket inode", "socket_inode" },
			{ LKST_ARG_UDEC, "peer inode, 0 for a datagram socket", "peer_inode" },
		},
		.nr_args = LKST_NR_ARGS_IPC_UNIX_RECV,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(BLOCK_BIO_SUBMIT),
		.category = LKST_CAT_BLOCK,
		.description = "a bio enters the block layer (submit_bio_noacct)",
		.args = {
			{ LKST_ARG_HEX, "dev", "dev" },
			{ LKST_ARG_UDEC, "sector", "sector" },
			{ LKST_ARG_UDEC, "bytes", "bytes" },
			{ LKST_ARG_HEX, "op and flags", "op_and_flags" },
		},
		.nr_args = LKST_NR_ARGS_BLOCK_BIO_SUBMIT,
		.arches = LKST_ARCH_ALL,
		.twin = "block:block_bio_queue",
		.locks = "",
	},
	{
		LKST_EVENT(BLOCK_RQ_ISSUE),
		.category = LKST_CAT_BLOCK,
		.description = "a request is handed to the driver (blk_mq_start_request)",
		.args = {
			{ LKST_ARG_HEX, "dev", "dev" },
			{ LKST_ARG_UDEC, "sector", "sector" },
			{ LKST_ARG_UDEC, "bytes", "bytes" },
			{ LKST_ARG_HEX, "op and flags", "op_and_flags" },
		},
		.nr_args = LKST_NR_ARGS_BLOCK_RQ_ISSUE,
		.arches = LKST_ARCH_ALL,
		.twin = "block:block_rq_issue",
		.locks = "",
	},
	{
		LKST_EVENT(BLOCK_RQ_COMPLETE),
		.category = LKST_CAT_BLOCK,
		.description = "bytes of a request complete",
		.args = {
			{ LKST_ARG_HEX, "dev", "dev" },
			{ LKST_ARG_UDEC, "sector", "sector" },
			{ LKST_ARG_UDEC, "bytes", "bytes" },
			{ LKST_ARG_RETVAL, "error", "error" },
			{ LKST_ARG_UDEC, "start time ns (latency: record time minus it)",
			  "start_time_ns" },
		},
		.nr_args = LKST_NR_ARGS_BLOCK_RQ_COMPLETE,
		.arches = LKST_ARCH_ALL,
		.twin = "block:block_rq_complete",
		.locks = "",
	},
	{
		LKST_EVENT(NET_XMIT),
		.category = LKST_CAT_NET,
		.description = "a packet is handed to a device driver (xmit_one)",
		.args = {
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_HEX, "protocol", "protocol" },
			{ LKST_ARG_DEC, "ifindex", "ifindex" },
			{ LKST_ARG_RETVAL, "driver result", "driver_result" },
			{ LKST_ARG_COMM, "device", "device" },
			{ LKST_ARG_COMM2, "", "device2" },
		},
		.nr_args = LKST_NR_ARGS_NET_XMIT,
		.arches = LKST_ARCH_ALL,
		.twin = "net:net_dev_xmit",
		.locks = "transmit queue lock (most devices)",
	},
	{
		LKST_EVENT(NET_RECEIVE),
		.category = LKST_CAT_NET,
		.description = "a packet enters the receive path (__netif_receive_skb_core)",
		.args = {
			{ LKST_ARG_UDEC, "length", "length" },
			{ LKST_ARG_HEX, "protocol", "protocol" },
			{ LKST_ARG_DEC, "ifindex", "ifindex" },
			{ LKST_ARG_UDEC, "packet type", "packet_type" },
			{ LKST_ARG_COMM, "device", "device" },
			{ LKST_ARG_COMM2, "", "device2" },
		},
		.nr_args = LKST_NR_ARGS_NET_RECEIVE,
		.arches = LKST_ARCH_ALL,
		.twin = "net:netif_receive_skb",
		.locks = "",
	},
	{
		LKST_EVENT(NET_NAPI_POLL),
		.category = LKST_CAT_NET,
		.description = "a NAPI instance was polled: receive softirq, busy poll or netpoll",
		.args = {
			{ LKST_ARG_HEX, "napi struct", "napi" },
			{ LKST_ARG_DEC, "packets processed", "work" },
			{ LKST_ARG_DEC, "budget, 0 from netpoll", "budget" },
			{ LKST_ARG_UDEC, "device ifindex, 0 for none (the backlog)", "ifindex" },
		},
		.nr_args = LKST_NR_ARGS_NET_NAPI_POLL,
		.arches = LKST_ARCH_ALL,
		.twin = "napi:napi_poll",
		.locks = "",
	},
	{
		LKST_EVENT(TIMER_ADD),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list timer is put on the wheel (times in jiffies)",
		.args = {
			{ LKST_ARG_HEX, "timer", "timer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "expires", "expires" },
			{ LKST_ARG_UDEC, "now", "now" },
			{ LKST_ARG_UDEC, "wheel cpu", "wheel_cpu" },
		},
		.nr_args = LKST_NR_ARGS_TIMER_ADD,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:timer_start",
		.locks = "timer base lock",
	},
	{
		LKST_EVENT(TIMER_EXPIRE_ENTRY),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list function is called",
		.args = {
			{ LKST_ARG_HEX, "timer", "timer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "now", "now" },
		},
		.nr_args = LKST_NR_ARGS_TIMER_EXPIRE_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:timer_expire_entry",
		.locks = "",
	},
	{
		LKST_EVENT(TIMER_EXPIRE_EXIT),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list function returned",
		.args = {
			{ LKST_ARG_HEX, "timer", "timer" },
			{ LKST_ARG_HEX, "function", "function" },
		},
		.nr_args = LKST_NR_ARGS_TIMER_EXPIRE_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:timer_expire_exit",
		.locks = "",
	},
	{
		LKST_EVENT(TIMER_CANCEL),
		.category = LKST_CAT_TIMER,
		.description = "a pending timer_list timer is deleted or re-armed",
		.args = {
			{ LKST_ARG_HEX, "timer", "timer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "expires", "expires" },
			{ LKST_ARG_UDEC, "now", "now" },
		},
		.nr_args = LKST_NR_ARGS_TIMER_CANCEL,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:timer_cancel",
		.locks = "timer base lock",
	},
	{
		LKST_EVENT(HRTIMER_START),
		.category = LKST_CAT_TIMER,
		.description = "hrtimer enqueued (mode 1 rel, 2 pinned, 4 soft, 8 hard)",
		.args = {
			{ LKST_ARG_HEX, "hrtimer", "hrtimer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "soft expires", "soft_expires" },
			{ LKST_ARG_HEX, "mode", "mode" },
			{ LKST_ARG_UDEC, "hard expires", "hard_expires" },
			{ LKST_ARG_UDEC, "clock id", "clock_id" },
		},
		.nr_args = LKST_NR_ARGS_HRTIMER_START,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:hrtimer_start",
		.locks = "hrtimer base lock",
	},
	{
		LKST_EVENT(HRTIMER_EXPIRE_ENTRY),
		.category = LKST_CAT_TIMER,
		.description = "an hrtimer function is called",
		.args = {
			{ LKST_ARG_HEX, "hrtimer", "hrtimer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "now", "now" },
		},
		.nr_args = LKST_NR_ARGS_HRTIMER_EXPIRE_ENTRY,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:hrtimer_expire_entry",
		.locks = "",
	},
	{
		LKST_EVENT(HRTIMER_EXPIRE_EXIT),
		.category = LKST_CAT_TIMER,
		.description = "an hrtimer function returned",
		.args = {
			{ LKST_ARG_HEX, "hrtimer", "hrtimer" },
			{ LKST_ARG_HEX, "function", "function" },
			{ LKST_ARG_UDEC, "restart", "restart" },
		},
		.nr_args = LKST_NR_ARGS_HRTIMER_EXPIRE_EXIT,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:hrtimer_expire_exit",
		.locks = "",
	},
	{
		LKST_EVENT(HRTIMER_CANCEL),
		.category = LKST_CAT_TIMER,
		.description = "an active hrtimer is cancelled (hrtimer_try_to_cancel)",
		.args = {
			{ LKST_ARG_HEX, "hrtimer", "hrtimer" },
			{ LKST_ARG_HEX, "function", "function" },
		},
		.nr_args = LKST_NR_ARGS_HRTIMER_CANCEL,
		.arches = LKST_ARCH_ALL,
		.twin = "timer:hrtimer_cancel",
		.locks = "hrtimer base lock",
	},
	{
		LKST_EVENT(LOCK_MUTEX_CONTENDED),
		.category = LKST_CAT_LOCK,
		.description = "a task queues to wait for a mutex",
		.args = {
			{ LKST_ARG_HEX, "lock address", "lock_address" },
			{ LKST_ARG_PID, "owner pid", "owner_pid" },
		},
		.nr_args = LKST_NR_ARGS_LOCK_MUTEX_CONTENDED,
		.arches = LKST_ARCH_ALL,
		.twin = "lock:contention_begin",
		.locks = "mutex wait_lock",
	},
	{
		LKST_EVENT(LOCK_MUTEX_ACQUIRED),
		.category = LKST_CAT_LOCK,
		.description = "a task that waited for a mutex takes it",
		.args = {
			{ LKST_ARG_HEX, "lock address", "lock_address" },
			{ LKST_ARG_UDEC, "wait ns", "wait_ns" },
		},
		.nr_args = LKST_NR_ARGS_LOCK_MUTEX_ACQUIRED,
		.arches = LKST_ARCH_ALL,
		.twin = "lock:contention_end",
		.locks = "mutex wait_lock",
	},
	{
		LKST_EVENT(LOCK_RWSEM_CONTENDED),
		.category = LKST_CAT_LOCK,
		.description = "a task queues to wait for an rw_semaphore",
		.args = {
			{ LKST_ARG_HEX, "lock address", "lock_address" },
			{ LKST_ARG_UDEC, "write", "write" },
		},
		.nr_args = LKST_NR_ARGS_LOCK_RWSEM_CONTENDED,
		.arches = LKST_ARCH_ALL,
		.twin = "lock:contention_begin",
		.locks = "rwsem wait_lock of a writer",
	},
	{
		LKST_EVENT(LOCK_RWSEM_ACQUIRED),
		.category = LKST_CAT_LOCK,
		.description = "a task that waited for an rw_semaphore takes it",
		.args = {
			{ LKST_ARG_HEX, "lock address", "lock_address" },
			{ LKST_ARG_UDEC, "write", "write" },
			{ LKST_ARG_UDEC, "wait ns", "wait_ns" },
		},
		.nr_args = LKST_NR_ARGS_LOCK_RWSEM_ACQUIRED,
		.arches = LKST_ARCH_ALL,
		.twin = "lock:contention_end",
		.locks = "",
	},
	{
		LKST_EVENT(OOPS_DIE),
		.category = LKST_CAT_OOPS,
		.description = "the kernel oopses (__die), before the report is printed",
		.args = {
			{ LKST_ARG_UDEC, "trap number", "trap_number" },
			{ LKST_ARG_HEX, "error code", "error_code" },
			{ LKST_ARG_HEX, "instruction pointer", "instruction_pointer" },
			{ LKST_ARG_UDEC, "die counter", "die_counter" },
			{ LKST_ARG_TEXT, "message", "message" },
			{ LKST_ARG_TEXT, "", "message2" },
		},
		.nr_args = LKST_NR_ARGS_OOPS_DIE,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "die_lock",
	},
	{
		LKST_EVENT(OOPS_PANIC),
		.category = LKST_CAT_OOPS,
		.description = "panic(), before other CPUs are stopped",
		.args = {
			{ LKST_ARG_TEXT, "message", "message" },
			{ LKST_ARG_TEXT, "", "message2" },
			{ LKST_ARG_TEXT, "", "message3" },
			{ LKST_ARG_TEXT, "", "message4" },
			{ LKST_ARG_TEXT, "", "message5" },
			{ LKST_ARG_TEXT, "", "message6" },
		},
		.nr_args = LKST_NR_ARGS_OOPS_PANIC,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(USER_MARK),
		.category = LKST_CAT_TRACER,
		.description = "annotation written by lkbuf mark",
		.args = {
			{ LKST_ARG_TEXT, "text", "text" },
			{ LKST_ARG_TEXT, "", "text2" },
			{ LKST_ARG_TEXT, "", "text3" },
			{ LKST_ARG_TEXT, "", "text4" },
			{ LKST_ARG_TEXT, "", "text5" },
			{ LKST_ARG_TEXT, "", "text6" },
		},
		.nr_args = LKST_NR_ARGS_USER_MARK,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(STACK_KERNEL),
		.category = LKST_CAT_TRACER,
		.description = "kernel stack of an event, by the lkst_stack handler",
		.args = {
			{ LKST_ARG_STACKPOS, "event, first frame, frames", "event" },
			{ LKST_ARG_KSYM, "frame", "frame" },
			{ LKST_ARG_KSYM, "frame", "frame2" },
			{ LKST_ARG_KSYM, "frame", "frame3" },
			{ LKST_ARG_KSYM, "frame", "frame4" },
			{ LKST_ARG_KSYM, "frame", "frame5" },
		},
		.nr_args = LKST_NR_ARGS_STACK_KERNEL,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
	{
		LKST_EVENT(STACK_USER),
		.category = LKST_CAT_TRACER,
		.description = "user stack of an event, by the lkst_stack handler",
		.args = {
			{ LKST_ARG_STACKPOS, "event, first frame, frames", "event" },
			{ LKST_ARG_UADDR, "frame", "frame" },
			{ LKST_ARG_UADDR, "frame", "frame2" },
			{ LKST_ARG_UADDR, "frame", "frame3" },
			{ LKST_ARG_UADDR, "frame", "frame4" },
			{ LKST_ARG_UADDR, "frame", "frame5" },
		},
		.nr_args = LKST_NR_ARGS_STACK_USER,
		.arches = LKST_ARCH_ALL,
		.twin = "",
		.locks = "",
	},
};
/* END generated */

#define LKST_NR_EVENTS \
	(sizeof(lkst_event_table) / sizeof(struct lkst_event_info))

#endif /* LKST_EVENT_TABLES */

#endif /* _UAPI_LINUX_LKST_EVENTS_H */
