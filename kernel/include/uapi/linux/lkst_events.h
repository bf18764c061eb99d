/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst event table: the one list of every event the tracer knows.
 *
 * enum lkst_event_id gives each event its stable ID (ABI: never renumber,
 * only add).  lkst_event_table[] describes each event once: mnemonic,
 * category and the meaning of its arguments, in the order its hook passes
 * them.  The kernel, the utilities and the tests all read it from here; a
 * file that needs the table defines LKST_EVENT_TABLES before including.
 *
 * Category ranges (IDs follow Hitachi LKST where it published them):
 *   0x01-0x0f process management   0x10-0x1f interrupts
 *   0x20-0x2f exceptions           0x30-0x3f system calls
 *   0x40-0x5f memory               0x60-0x7f IPC
 *   0x80-0x8f block I/O            0x90-0x9f network
 *   0xa0-0xaf timers               0xb0-0xbf locks
 *   0xc0-0xcf oops and panic       0xe0-0xef tracer and user events
 *   0xf0-0xfe dynamic probes: no fixed event, named when a probe is
 *             created at run time (lkm probe add), so not in the table
 * LKST's own numbers are kept where it published them (0x01-0x07, 0x10-0x15,
 * 0x20-0x21); 0x16, its bottom-half entry, is the softirq entry now.  Each
 * category's events sit between its markers below, in the enum and in the
 * table; docs/events.md is generated from this file (make docs).
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
 * the number).
 */
#define LKST_SYSCALL_ABI_NATIVE	0	/* the kernel's own: x86-64 */
#define LKST_SYSCALL_ABI_IA32	1	/* i386: int $0x80, sysenter, compat syscall */
#define LKST_SYSCALL_NR_ABI(nr, abi)	((__u64)(abi) << 32 | (__u32)(nr))
#define LKST_SYSCALL_NR(arg)		((__s32)(__u32)(arg))
#define LKST_SYSCALL_ABI(arg)		((__u32)((arg) >> 32))

enum lkst_event_id {
	/* process management */
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
	/* end of process management */

	/* interrupts */
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
	/* end of interrupts */

	/* exceptions */
	LKST_EV_EXCEPTION_ENTRY		= 0x20,
	LKST_EV_EXCEPTION_EXIT		= 0x21,
	LKST_EV_EXCEPTION_PAGEFAULT_ENTRY = 0x22,
	LKST_EV_EXCEPTION_PAGEFAULT_EXIT = 0x23,
	LKST_EV_NMI_ENTRY		= 0x24,
	LKST_EV_NMI_EXIT		= 0x25,
	LKST_EV_EXCEPTION_FAULT_SIGNAL	= 0x26,
	/* end of exceptions */

	/* system calls */
	LKST_EV_SYSCALL_ENTRY		= 0x30,
	LKST_EV_SYSCALL_EXIT		= 0x31,
	LKST_EV_SYSCALL_ENTRY_ARG5	= 0x32,
	LKST_EV_SYSCALL_ERROR		= 0x33,
	/* end of system calls */

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

	/* IPC */
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
	/* end of IPC */

	/* block I/O */
	LKST_EV_BLOCK_BIO_SUBMIT	= 0x80,
	LKST_EV_BLOCK_RQ_ISSUE		= 0x81,
	LKST_EV_BLOCK_RQ_COMPLETE	= 0x82,
	/* end of block I/O */

	/* network */
	LKST_EV_NET_XMIT		= 0x90,
	LKST_EV_NET_RECEIVE		= 0x91,
	/* end of network */

	/* timers */
	LKST_EV_TIMER_ADD		= 0xa0,
	LKST_EV_TIMER_EXPIRE_ENTRY	= 0xa1,
	LKST_EV_TIMER_EXPIRE_EXIT	= 0xa2,
	LKST_EV_TIMER_CANCEL		= 0xa3,
	LKST_EV_HRTIMER_START		= 0xa4,
	LKST_EV_HRTIMER_EXPIRE_ENTRY	= 0xa5,
	LKST_EV_HRTIMER_EXPIRE_EXIT	= 0xa6,
	LKST_EV_HRTIMER_CANCEL		= 0xa7,
	/* end of timers */

	/* locks */
	LKST_EV_LOCK_MUTEX_CONTENDED	= 0xb0,
	LKST_EV_LOCK_MUTEX_ACQUIRED	= 0xb1,
	LKST_EV_LOCK_RWSEM_CONTENDED	= 0xb2,
	LKST_EV_LOCK_RWSEM_ACQUIRED	= 0xb3,
	/* end of locks */

	/* oops and panic */
	LKST_EV_OOPS_DIE		= 0xc0,
	LKST_EV_OOPS_PANIC		= 0xc1,
	/* end of oops and panic */

	/* tracer and user events */
	LKST_EV_USER_MARK		= 0xe0,
	LKST_EV_STACK_KERNEL		= 0xe1,
	LKST_EV_STACK_USER		= 0xe2,
	/* end of tracer and user events */
};

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
};

struct lkst_event_info {
	enum lkst_event_id id;
	const char *mnemonic;
	enum lkst_category category;
	const char *description;
	struct lkst_event_arg args[LKST_NR_ARGS];
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

static const struct lkst_event_info lkst_event_table[] = {
	/* ---- process management ---- */
	{
		LKST_EVENT(PROCESS_CONTEXTSWITCH),
		.category = LKST_CAT_PROCESS,
		.description = "context switch in __schedule()",
		.args = {
			{ LKST_ARG_PID, "prev pid" },
			{ LKST_ARG_PID, "next pid" },
			{ LKST_ARG_STATE, "prev state" },
			{ LKST_ARG_DEC, "next prio" },
			{ LKST_ARG_COMM, "next comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_WAKEUP),
		.category = LKST_CAT_PROCESS,
		.description = "try_to_wake_up() wakes a task",
		.args = {
			{ LKST_ARG_PID, "target pid" },
			{ LKST_ARG_STATE, "target state" },
			{ LKST_ARG_UDEC, "last cpu" },
			{ LKST_ARG_DEC, "target prio" },
			{ LKST_ARG_COMM, "target comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_SIGSEND),
		.category = LKST_CAT_PROCESS,
		.description = "a signal is generated for a task",
		.args = {
			{ LKST_ARG_DEC, "signal" },
			{ LKST_ARG_PID, "target pid" },
			{ LKST_ARG_DEC, "si_code" },
			{ LKST_ARG_UDEC, "to the whole group" },
			{ LKST_ARG_UDEC, "result: 0 ok 1 ignored 2 pending 3 overflow 4 lost" },
		},
	},
	{
		LKST_EVENT(PROCESS_LTHREADGEN),
		.category = LKST_CAT_PROCESS,
		.description = "a kernel thread is created (kernel_thread, user_mode_thread)",
		.args = {
			{ LKST_ARG_PID, "new pid" },
			{ LKST_ARG_HEX, "thread function" },
			{ LKST_ARG_HEX, "clone flags" },
			{ LKST_ARG_PID, "creator pid" },
			{ LKST_ARG_COMM, "name" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_WAITQ_INIT),
		.category = LKST_CAT_PROCESS,
		.description = "a wait queue head is initialized",
		.args = {
			{ LKST_ARG_HEX, "wait queue head" },
			{ LKST_ARG_HEX, "caller" },
		},
	},
	{
		LKST_EVENT(PROCESS_WAITQ_ADD),
		.category = LKST_CAT_PROCESS,
		.description = "an entry is added to a wait queue",
		.args = {
			{ LKST_ARG_HEX, "wait queue head" },
			{ LKST_ARG_HEX, "wait entry" },
			{ LKST_ARG_PID, "waiter pid, 0 for a callback entry" },
			{ LKST_ARG_UDEC, "exclusive" },
		},
	},
	{
		LKST_EVENT(PROCESS_WAITQ_REMOVE),
		.category = LKST_CAT_PROCESS,
		.description = "an entry is removed from a wait queue",
		.args = {
			{ LKST_ARG_HEX, "wait queue head, 0 when the waker removes it" },
			{ LKST_ARG_HEX, "wait entry" },
			{ LKST_ARG_PID, "waiter pid, 0 for a callback entry" },
		},
	},
	{
		LKST_EVENT(PROCESS_FORK),
		.category = LKST_CAT_PROCESS,
		.description = "kernel_clone() created a process or thread",
		.args = {
			{ LKST_ARG_PID, "parent pid" },
			{ LKST_ARG_PID, "child pid" },
			{ LKST_ARG_PID, "child tgid" },
			{ LKST_ARG_HEX, "clone flags" },
			{ LKST_ARG_COMM, "child comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_EXEC),
		.category = LKST_CAT_PROCESS,
		.description = "a successful execve() replaced the program",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_PID, "pid before exec" },
			{ LKST_ARG_COMM, "new comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_EXIT),
		.category = LKST_CAT_PROCESS,
		.description = "a task exits (do_exit)",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_PID, "tgid" },
			{ LKST_ARG_HEX, "exit code" },
			{ LKST_ARG_UDEC, "last of its group" },
			{ LKST_ARG_COMM, "comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_MIGRATE),
		.category = LKST_CAT_PROCESS,
		.description = "a task moves to another CPU",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_UDEC, "from cpu" },
			{ LKST_ARG_UDEC, "to cpu" },
			{ LKST_ARG_DEC, "prio" },
		},
	},
	{
		LKST_EVENT(PROCESS_SETPRIO),
		.category = LKST_CAT_PROCESS,
		.description = "a task's priority changes: nice, sched_setscheduler, PI boost",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_DEC, "old prio" },
			{ LKST_ARG_DEC, "new prio" },
			{ LKST_ARG_UDEC, "policy" },
			{ LKST_ARG_DEC, "nice" },
		},
	},
	{
		LKST_EVENT(PROCESS_SLEEP),
		.category = LKST_CAT_PROCESS,
		.description = "a task dequeued to sleep, or kept running by a pending signal",
		.args = {
			{ LKST_ARG_STATE, "state" },
			{ LKST_ARG_UDEC, "kept running by a pending signal" },
		},
	},
	{
		LKST_EVENT(PROCESS_WAKEUP_NEW),
		.category = LKST_CAT_PROCESS,
		.description = "wake_up_new_task() first enqueues a new task",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_UDEC, "cpu" },
			{ LKST_ARG_DEC, "prio" },
			{ LKST_ARG_COMM, "comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(PROCESS_SIGDELIVER),
		.category = LKST_CAT_PROCESS,
		.description = "get_signal() delivers a signal to the current task",
		.args = {
			{ LKST_ARG_DEC, "signal" },
			{ LKST_ARG_DEC, "si_code" },
			{ LKST_ARG_HEX, "handler: 0 default, 1 ignore" },
			{ LKST_ARG_HEX, "sa_flags" },
		},
	},
	/* ---- end of process management ---- */

	/* ---- interrupts ---- */
	{
		LKST_EVENT(INT_HARDWARE_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IRQ action handler is called (__handle_irq_event_percpu)",
		.args = {
			{ LKST_ARG_UDEC, "irq" },
			{ LKST_ARG_HEX, "handler" },
			{ LKST_ARG_HEX, "dev_id" },
		},
	},
	{
		LKST_EVENT(INT_HARDWARE_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IRQ action handler returned (0 none, 1 handled, 2 wake thread)",
		.args = {
			{ LKST_ARG_UDEC, "irq" },
			{ LKST_ARG_HEX, "irqreturn" },
			{ LKST_ARG_HEX, "handler" },
		},
	},
	{
		LKST_EVENT(INT_TASKLETHI_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "a HI_SOFTIRQ tasklet function is called",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "tasklet" },
		},
	},
	{
		LKST_EVENT(INT_TASKLETHI_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a HI_SOFTIRQ tasklet function returned",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "tasklet" },
		},
	},
	{
		LKST_EVENT(INT_TASKLET_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "a TASKLET_SOFTIRQ tasklet function is called",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "tasklet" },
		},
	},
	{
		LKST_EVENT(INT_TASKLET_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a TASKLET_SOFTIRQ tasklet function returned",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "tasklet" },
		},
	},
	{
		LKST_EVENT(INT_SOFTIRQ_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "softirq action called (1 TIMER, 3 NET_RX, 6 TASKLET, 9 RCU...)",
		.args = {
			{ LKST_ARG_UDEC, "vector" },
			{ LKST_ARG_HEX, "action" },
		},
	},
	{
		LKST_EVENT(INT_SOFTIRQ_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "a softirq action returned",
		.args = {
			{ LKST_ARG_UDEC, "vector" },
			{ LKST_ARG_HEX, "action" },
		},
	},
	{
		LKST_EVENT(INT_SOFTIRQ_RAISE),
		.category = LKST_CAT_INTERRUPT,
		.description = "a softirq is marked pending on this CPU",
		.args = {
			{ LKST_ARG_UDEC, "vector" },
		},
	},
	{
		LKST_EVENT(INT_IPI_SEND),
		.category = LKST_CAT_INTERRUPT,
		.description = "an IPI is sent (callback 0: reschedule)",
		.args = {
			{ LKST_ARG_DEC, "target cpu, -1 for a mask" },
			{ LKST_ARG_HEX, "cpu mask" },
			{ LKST_ARG_HEX, "callback" },
			{ LKST_ARG_HEX, "call site" },
		},
	},
	{
		LKST_EVENT(INT_VECTOR_ENTRY),
		.category = LKST_CAT_INTERRUPT,
		.description = "x86 system vector: 0xec timer, 0xf6 irq_work, 0xfb-0xfd IPI",
		.args = {
			{ LKST_ARG_HEX, "vector" },
		},
	},
	{
		LKST_EVENT(INT_VECTOR_EXIT),
		.category = LKST_CAT_INTERRUPT,
		.description = "an x86 system vector handler is done",
		.args = {
			{ LKST_ARG_HEX, "vector" },
		},
	},
	{
		LKST_EVENT(INT_WORKQUEUE_QUEUE),
		.category = LKST_CAT_INTERRUPT,
		.description = "work item queued by __queue_work() (cpu -1: unbound)",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "work" },
			{ LKST_ARG_DEC, "requested cpu" },
			{ LKST_ARG_DEC, "pool cpu" },
		},
	},
	{
		LKST_EVENT(INT_WORKQUEUE_START),
		.category = LKST_CAT_INTERRUPT,
		.description = "a worker calls a work function (process_one_work)",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "work" },
		},
	},
	{
		LKST_EVENT(INT_WORKQUEUE_END),
		.category = LKST_CAT_INTERRUPT,
		.description = "a work function returned",
		.args = {
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_HEX, "work" },
		},
	},
	/* ---- end of interrupts ---- */

	/* ---- exceptions ---- */
	{
		LKST_EVENT(EXCEPTION_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "x86 trap (0 #DE, 1 #DB, 3 #BP, 6 #UD, 13 #GP, 16 #MF, 19 #XM...)",
		.args = {
			{ LKST_ARG_UDEC, "vector" },
			{ LKST_ARG_HEX, "error code" },
			{ LKST_ARG_HEX, "ip" },
			{ LKST_ARG_UDEC, "user mode" },
			{ LKST_ARG_HEX, "fault address" },
		},
	},
	{
		LKST_EVENT(EXCEPTION_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "x86 trap handled (signal 0: none, fixed up)",
		.args = {
			{ LKST_ARG_UDEC, "vector" },
			{ LKST_ARG_DEC, "signal" },
		},
	},
	{
		LKST_EVENT(EXCEPTION_PAGEFAULT_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "page fault (error 1 present, 2 write, 4 user, 16 fetch)",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_HEX, "error code" },
			{ LKST_ARG_HEX, "ip" },
			{ LKST_ARG_UDEC, "user mode" },
		},
	},
	{
		LKST_EVENT(EXCEPTION_PAGEFAULT_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "a page fault handler is done",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_HEX, "error code" },
		},
	},
	{
		LKST_EVENT(NMI_ENTRY),
		.category = LKST_CAT_EXCEPTION,
		.description = "a non-maskable interrupt reaches default_do_nmi()",
		.args = {
			{ LKST_ARG_UDEC, "cpu" },
			{ LKST_ARG_HEX, "ip" },
			{ LKST_ARG_UDEC, "user mode" },
			{ LKST_ARG_UDEC, "back to back" },
		},
	},
	{
		LKST_EVENT(NMI_EXIT),
		.category = LKST_CAT_EXCEPTION,
		.description = "default_do_nmi() done (reason: port 0x61, read when unclaimed)",
		.args = {
			{ LKST_ARG_UDEC, "cpu" },
			{ LKST_ARG_UDEC, "handled" },
			{ LKST_ARG_HEX, "reason" },
		},
	},
	{
		LKST_EVENT(EXCEPTION_FAULT_SIGNAL),
		.category = LKST_CAT_EXCEPTION,
		.description = "user page fault that ended in SIGSEGV or SIGBUS (lkst_errpath)",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_HEX, "error code" },
			{ LKST_ARG_HEX, "ip" },
			{ LKST_ARG_DEC, "signal" },
			{ LKST_ARG_DEC, "si_code" },
		},
	},
	/* ---- end of exceptions ---- */

	/* ---- system calls ---- */
	{
		LKST_EVENT(SYSCALL_ENTRY),
		.category = LKST_CAT_SYSCALL,
		.description = "system call entry",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number" },
			{ LKST_ARG_HEX, "arg0" },
			{ LKST_ARG_HEX, "arg1" },
			{ LKST_ARG_HEX, "arg2" },
			{ LKST_ARG_HEX, "arg3" },
			{ LKST_ARG_HEX, "arg4" },
		},
	},
	{
		LKST_EVENT(SYSCALL_EXIT),
		.category = LKST_CAT_SYSCALL,
		.description = "system call exit",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number" },
			{ LKST_ARG_RETVAL, "return value" },
		},
	},
	{
		LKST_EVENT(SYSCALL_ENTRY_ARG5),
		.category = LKST_CAT_SYSCALL,
		.description = "the sixth argument of the system call just entered",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number" },
			{ LKST_ARG_HEX, "arg5" },
		},
	},
	{
		LKST_EVENT(SYSCALL_ERROR),
		.category = LKST_CAT_SYSCALL,
		.description = "failed system call, from entry to exit (lkst_errpath)",
		.args = {
			{ LKST_ARG_SYSNR, "syscall number" },
			{ LKST_ARG_RETVAL, "return value" },
			{ LKST_ARG_UDEC, "duration ns" },
			{ LKST_ARG_HEX, "arg0" },
			{ LKST_ARG_HEX, "arg1" },
			{ LKST_ARG_HEX, "arg2" },
		},
	},
	/* ---- end of system calls ---- */

	/* ---- memory ---- */
	{
		LKST_EVENT(MEM_PAGE_ALLOC),
		.category = LKST_CAT_MEMORY,
		.description = "pages allocated from the buddy allocator",
		.args = {
			{ LKST_ARG_HEX, "pfn" },
			{ LKST_ARG_UDEC, "order" },
			{ LKST_ARG_HEX, "gfp flags" },
			{ LKST_ARG_UDEC, "migratetype" },
		},
	},
	{
		LKST_EVENT(MEM_PAGE_FREE),
		.category = LKST_CAT_MEMORY,
		.description = "pages freed to the buddy allocator",
		.args = {
			{ LKST_ARG_HEX, "pfn" },
			{ LKST_ARG_UDEC, "order" },
		},
	},
	{
		LKST_EVENT(MEM_SLAB_ALLOC),
		.category = LKST_CAT_MEMORY,
		.description = "kmalloc() or kmem_cache_alloc() returns an object",
		.args = {
			{ LKST_ARG_HEX, "object address (0: failed)" },
			{ LKST_ARG_UDEC, "bytes requested" },
			{ LKST_ARG_UDEC, "bytes allocated" },
			{ LKST_ARG_HEX, "gfp flags" },
			{ LKST_ARG_HEX, "call site" },
			{ LKST_ARG_DEC, "node (-1: any)" },
		},
	},
	{
		LKST_EVENT(MEM_SLAB_FREE),
		.category = LKST_CAT_MEMORY,
		.description = "kfree() or kmem_cache_free() of an object",
		.args = {
			{ LKST_ARG_HEX, "object address" },
			{ LKST_ARG_HEX, "call site" },
		},
	},
	{
		LKST_EVENT(MEM_MMAP),
		.category = LKST_CAT_MEMORY,
		.description = "mmap() (vm_mmap_pgoff) maps a region",
		.args = {
			{ LKST_ARG_RETVAL, "address or negative errno" },
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_HEX, "prot" },
			{ LKST_ARG_HEX, "flags" },
			{ LKST_ARG_HEX, "page offset" },
			{ LKST_ARG_HEX, "address hint" },
		},
	},
	{
		LKST_EVENT(MEM_MUNMAP),
		.category = LKST_CAT_MEMORY,
		.description = "munmap() or an in-kernel unmap (do_vmi_munmap)",
		.args = {
			{ LKST_ARG_HEX, "start" },
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_RETVAL, "result" },
		},
	},
	{
		LKST_EVENT(MEM_MPROTECT),
		.category = LKST_CAT_MEMORY,
		.description = "mprotect() or pkey_mprotect()",
		.args = {
			{ LKST_ARG_HEX, "start" },
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_HEX, "prot" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_DEC, "pkey (-1: none)" },
		},
	},
	{
		LKST_EVENT(MEM_BRK),
		.category = LKST_CAT_MEMORY,
		.description = "brk() moves (or fails to move) the heap end",
		.args = {
			{ LKST_ARG_HEX, "requested brk" },
			{ LKST_ARG_HEX, "old brk" },
			{ LKST_ARG_HEX, "resulting brk" },
		},
	},
	{
		LKST_EVENT(MEM_FAULT_MINOR),
		.category = LKST_CAT_MEMORY,
		.description = "page fault handled without I/O (handle_mm_fault)",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_HEX, "fault flags" },
			{ LKST_ARG_HEX, "vm_fault_t result" },
			{ LKST_ARG_HEX, "user ip (0 for kernel access)" },
		},
	},
	{
		LKST_EVENT(MEM_FAULT_MAJOR),
		.category = LKST_CAT_MEMORY,
		.description = "page fault that needed I/O (VM_FAULT_MAJOR)",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_HEX, "fault flags" },
			{ LKST_ARG_HEX, "vm_fault_t result" },
			{ LKST_ARG_HEX, "user ip (0 for kernel access)" },
		},
	},
	{
		LKST_EVENT(MEM_SWAP_OUT),
		.category = LKST_CAT_MEMORY,
		.description = "a folio is written out to swap",
		.args = {
			{ LKST_ARG_UDEC, "swap type" },
			{ LKST_ARG_HEX, "swap offset" },
			{ LKST_ARG_HEX, "pfn" },
			{ LKST_ARG_UDEC, "pages" },
			{ LKST_ARG_UDEC, "how (0 I/O, 1 zero page, 2 zswap)" },
		},
	},
	{
		LKST_EVENT(MEM_SWAP_IN),
		.category = LKST_CAT_MEMORY,
		.description = "a folio is read in from swap",
		.args = {
			{ LKST_ARG_UDEC, "swap type" },
			{ LKST_ARG_HEX, "swap offset" },
			{ LKST_ARG_HEX, "pfn" },
			{ LKST_ARG_UDEC, "pages" },
			{ LKST_ARG_UDEC, "how (0 I/O, 1 zero page, 2 zswap)" },
		},
	},
	{
		LKST_EVENT(MEM_RECLAIM_START),
		.category = LKST_CAT_MEMORY,
		.description = "page reclaim starts (direct, kswapd or memcg)",
		.args = {
			{ LKST_ARG_UDEC, "order" },
			{ LKST_ARG_HEX, "gfp flags" },
			{ LKST_ARG_UDEC, "who (0 direct, 1 kswapd, 2 memcg)" },
			{ LKST_ARG_UDEC, "memcg cgroup inode (0: global)" },
		},
	},
	{
		LKST_EVENT(MEM_RECLAIM_END),
		.category = LKST_CAT_MEMORY,
		.description = "page reclaim ends",
		.args = {
			{ LKST_ARG_UDEC, "pages reclaimed" },
			{ LKST_ARG_UDEC, "who (0 direct, 1 kswapd, 2 memcg)" },
			{ LKST_ARG_UDEC, "memcg cgroup inode (0: global)" },
		},
	},
	{
		LKST_EVENT(MEM_OOM_KILL),
		.category = LKST_CAT_MEMORY,
		.description = "the OOM killer kills a process",
		.args = {
			{ LKST_ARG_PID, "victim pid" },
			{ LKST_ARG_PID, "victim tgid" },
			{ LKST_ARG_UDEC, "victim rss pages" },
			{ LKST_ARG_DEC, "oom_score_adj" },
			{ LKST_ARG_COMM, "victim comm" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(MEM_PAGE_SNAPSHOT),
		.category = LKST_CAT_MEMORY,
		.description = "a run of physical pages a process maps (lkst_pagewalk.ko)",
		.args = {
			{ LKST_ARG_PID, "pid" },
			{ LKST_ARG_HEX, "virtual address" },
			{ LKST_ARG_HEX, "pfn" },
			{ LKST_ARG_UDEC, "pages in the run" },
			{ LKST_ARG_UDEC, "snapshot number" },
		},
	},
	/* ---- end of memory ---- */

	/* ---- IPC ---- */
	{
		LKST_EVENT(IPC_MSGSND),
		.category = LKST_CAT_IPC,
		.description = "msgsnd() to a System V message queue returns",
		.args = {
			{ LKST_ARG_DEC, "msqid" },
			{ LKST_ARG_DEC, "message type" },
			{ LKST_ARG_UDEC, "size" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_HEX, "msgflg" },
		},
	},
	{
		LKST_EVENT(IPC_MSGRCV),
		.category = LKST_CAT_IPC,
		.description = "msgrcv() from a System V message queue returns",
		.args = {
			{ LKST_ARG_DEC, "msqid" },
			{ LKST_ARG_DEC, "requested type" },
			{ LKST_ARG_UDEC, "buffer size" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_HEX, "msgflg" },
		},
	},
	{
		LKST_EVENT(IPC_SEMOP),
		.category = LKST_CAT_IPC,
		.description = "semop()/semtimedop() on a System V semaphore set returns",
		.args = {
			{ LKST_ARG_DEC, "semid" },
			{ LKST_ARG_UDEC, "nsops" },
			{ LKST_ARG_UDEC, "first sem_num" },
			{ LKST_ARG_DEC, "first sem_op" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_HEX, "first sem_flg" },
		},
	},
	{
		LKST_EVENT(IPC_SHMAT),
		.category = LKST_CAT_IPC,
		.description = "shmat() of a System V shared memory segment returns",
		.args = {
			{ LKST_ARG_DEC, "shmid" },
			{ LKST_ARG_HEX, "attach address" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_HEX, "shmflg" },
			{ LKST_ARG_HEX, "requested address" },
		},
	},
	{
		LKST_EVENT(IPC_SHMDT),
		.category = LKST_CAT_IPC,
		.description = "shmdt() returns",
		.args = {
			{ LKST_ARG_HEX, "address" },
			{ LKST_ARG_RETVAL, "result" },
		},
	},
	{
		LKST_EVENT(IPC_PIPE_READ),
		.category = LKST_CAT_IPC,
		.description = "read from a pipe or FIFO returns",
		.args = {
			{ LKST_ARG_UDEC, "bytes requested" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_UDEC, "pipe inode" },
		},
	},
	{
		LKST_EVENT(IPC_PIPE_WRITE),
		.category = LKST_CAT_IPC,
		.description = "write to a pipe or FIFO returns",
		.args = {
			{ LKST_ARG_UDEC, "bytes requested" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_UDEC, "pipe inode" },
		},
	},
	{
		LKST_EVENT(IPC_FUTEX_WAIT),
		.category = LKST_CAT_IPC,
		.description = "futex wait returns (woken, timed out, value changed)",
		.args = {
			{ LKST_ARG_HEX, "uaddr" },
			{ LKST_ARG_HEX, "expected value" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_HEX, "bitset" },
		},
	},
	{
		LKST_EVENT(IPC_FUTEX_WAKE),
		.category = LKST_CAT_IPC,
		.description = "futex wake returns",
		.args = {
			{ LKST_ARG_HEX, "uaddr" },
			{ LKST_ARG_DEC, "nr to wake" },
			{ LKST_ARG_RETVAL, "woken" },
			{ LKST_ARG_HEX, "bitset" },
		},
	},
	{
		LKST_EVENT(IPC_MQ_SEND),
		.category = LKST_CAT_IPC,
		.description = "mq_timedsend() to a POSIX message queue returns",
		.args = {
			{ LKST_ARG_DEC, "mqdes" },
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_UDEC, "priority" },
			{ LKST_ARG_RETVAL, "result" },
		},
	},
	{
		LKST_EVENT(IPC_MQ_RECEIVE),
		.category = LKST_CAT_IPC,
		.description = "mq_timedreceive() from a POSIX message queue returns",
		.args = {
			{ LKST_ARG_DEC, "mqdes" },
			{ LKST_ARG_UDEC, "buffer length" },
			{ LKST_ARG_UDEC, "priority received" },
			{ LKST_ARG_RETVAL, "result" },
		},
	},
	{
		LKST_EVENT(IPC_UNIX_SEND),
		.category = LKST_CAT_IPC,
		.description = "sendmsg on a UNIX domain socket returns",
		.args = {
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_UDEC, "socket type" },
			{ LKST_ARG_UDEC, "socket inode" },
			{ LKST_ARG_UDEC, "peer inode, 0 for a datagram socket" },
		},
	},
	{
		LKST_EVENT(IPC_UNIX_RECV),
		.category = LKST_CAT_IPC,
		.description = "recvmsg on a UNIX domain socket returns",
		.args = {
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_RETVAL, "result" },
			{ LKST_ARG_UDEC, "socket type" },
			{ LKST_ARG_UDEC, "socket inode" },
			{ LKST_ARG_UDEC, "peer inode, 0 for a datagram socket" },
		},
	},
	/* ---- end of IPC ---- */

	/* ---- block I/O ---- */
	{
		LKST_EVENT(BLOCK_BIO_SUBMIT),
		.category = LKST_CAT_BLOCK,
		.description = "a bio enters the block layer (submit_bio_noacct)",
		.args = {
			{ LKST_ARG_HEX, "dev" },
			{ LKST_ARG_UDEC, "sector" },
			{ LKST_ARG_UDEC, "bytes" },
			{ LKST_ARG_HEX, "op and flags" },
		},
	},
	{
		LKST_EVENT(BLOCK_RQ_ISSUE),
		.category = LKST_CAT_BLOCK,
		.description = "a request is handed to the driver (blk_mq_start_request)",
		.args = {
			{ LKST_ARG_HEX, "dev" },
			{ LKST_ARG_UDEC, "sector" },
			{ LKST_ARG_UDEC, "bytes" },
			{ LKST_ARG_HEX, "op and flags" },
		},
	},
	{
		LKST_EVENT(BLOCK_RQ_COMPLETE),
		.category = LKST_CAT_BLOCK,
		.description = "bytes of a request complete",
		.args = {
			{ LKST_ARG_HEX, "dev" },
			{ LKST_ARG_UDEC, "sector" },
			{ LKST_ARG_UDEC, "bytes" },
			{ LKST_ARG_RETVAL, "error" },
			{ LKST_ARG_UDEC, "start time ns (latency: record time minus it)" },
		},
	},
	/* ---- end of block I/O ---- */

	/* ---- network ---- */
	{
		LKST_EVENT(NET_XMIT),
		.category = LKST_CAT_NET,
		.description = "a packet is handed to a device driver (xmit_one)",
		.args = {
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_HEX, "protocol" },
			{ LKST_ARG_DEC, "ifindex" },
			{ LKST_ARG_RETVAL, "driver result" },
			{ LKST_ARG_COMM, "device" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	{
		LKST_EVENT(NET_RECEIVE),
		.category = LKST_CAT_NET,
		.description = "a packet enters the receive path (__netif_receive_skb_core)",
		.args = {
			{ LKST_ARG_UDEC, "length" },
			{ LKST_ARG_HEX, "protocol" },
			{ LKST_ARG_DEC, "ifindex" },
			{ LKST_ARG_UDEC, "packet type" },
			{ LKST_ARG_COMM, "device" },
			{ LKST_ARG_COMM2, "" },
		},
	},
	/* ---- end of network ---- */

	/* ---- timers ---- */
	{
		LKST_EVENT(TIMER_ADD),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list timer is put on the wheel (times in jiffies)",
		.args = {
			{ LKST_ARG_HEX, "timer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "expires" },
			{ LKST_ARG_UDEC, "now" },
			{ LKST_ARG_UDEC, "wheel cpu" },
		},
	},
	{
		LKST_EVENT(TIMER_EXPIRE_ENTRY),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list function is called",
		.args = {
			{ LKST_ARG_HEX, "timer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "now" },
		},
	},
	{
		LKST_EVENT(TIMER_EXPIRE_EXIT),
		.category = LKST_CAT_TIMER,
		.description = "a timer_list function returned",
		.args = {
			{ LKST_ARG_HEX, "timer" },
			{ LKST_ARG_HEX, "function" },
		},
	},
	{
		LKST_EVENT(TIMER_CANCEL),
		.category = LKST_CAT_TIMER,
		.description = "a pending timer_list timer is deleted or re-armed",
		.args = {
			{ LKST_ARG_HEX, "timer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "expires" },
			{ LKST_ARG_UDEC, "now" },
		},
	},
	{
		LKST_EVENT(HRTIMER_START),
		.category = LKST_CAT_TIMER,
		.description = "hrtimer enqueued (mode 1 rel, 2 pinned, 4 soft, 8 hard)",
		.args = {
			{ LKST_ARG_HEX, "hrtimer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "soft expires" },
			{ LKST_ARG_HEX, "mode" },
			{ LKST_ARG_UDEC, "hard expires" },
			{ LKST_ARG_UDEC, "clock id" },
		},
	},
	{
		LKST_EVENT(HRTIMER_EXPIRE_ENTRY),
		.category = LKST_CAT_TIMER,
		.description = "an hrtimer function is called",
		.args = {
			{ LKST_ARG_HEX, "hrtimer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "now" },
		},
	},
	{
		LKST_EVENT(HRTIMER_EXPIRE_EXIT),
		.category = LKST_CAT_TIMER,
		.description = "an hrtimer function returned",
		.args = {
			{ LKST_ARG_HEX, "hrtimer" },
			{ LKST_ARG_HEX, "function" },
			{ LKST_ARG_UDEC, "restart" },
		},
	},
	{
		LKST_EVENT(HRTIMER_CANCEL),
		.category = LKST_CAT_TIMER,
		.description = "an active hrtimer is cancelled (hrtimer_try_to_cancel)",
		.args = {
			{ LKST_ARG_HEX, "hrtimer" },
			{ LKST_ARG_HEX, "function" },
		},
	},
	/* ---- end of timers ---- */

	/* ---- locks ---- */
	{
		LKST_EVENT(LOCK_MUTEX_CONTENDED),
		.category = LKST_CAT_LOCK,
		.description = "a task queues to wait for a mutex",
		.args = {
			{ LKST_ARG_HEX, "lock address" },
			{ LKST_ARG_PID, "owner pid" },
		},
	},
	{
		LKST_EVENT(LOCK_MUTEX_ACQUIRED),
		.category = LKST_CAT_LOCK,
		.description = "a task that waited for a mutex takes it",
		.args = {
			{ LKST_ARG_HEX, "lock address" },
			{ LKST_ARG_UDEC, "wait ns" },
		},
	},
	{
		LKST_EVENT(LOCK_RWSEM_CONTENDED),
		.category = LKST_CAT_LOCK,
		.description = "a task queues to wait for an rw_semaphore",
		.args = {
			{ LKST_ARG_HEX, "lock address" },
			{ LKST_ARG_UDEC, "write" },
		},
	},
	{
		LKST_EVENT(LOCK_RWSEM_ACQUIRED),
		.category = LKST_CAT_LOCK,
		.description = "a task that waited for an rw_semaphore takes it",
		.args = {
			{ LKST_ARG_HEX, "lock address" },
			{ LKST_ARG_UDEC, "write" },
			{ LKST_ARG_UDEC, "wait ns" },
		},
	},
	/* ---- end of locks ---- */

	/* ---- oops and panic ---- */
	{
		LKST_EVENT(OOPS_DIE),
		.category = LKST_CAT_OOPS,
		.description = "the kernel oopses (__die), before the report is printed",
		.args = {
			{ LKST_ARG_UDEC, "trap number" },
			{ LKST_ARG_HEX, "error code" },
			{ LKST_ARG_HEX, "instruction pointer" },
			{ LKST_ARG_UDEC, "die counter" },
			{ LKST_ARG_TEXT, "message" },
			{ LKST_ARG_TEXT, "" },
		},
	},
	{
		LKST_EVENT(OOPS_PANIC),
		.category = LKST_CAT_OOPS,
		.description = "panic(), before other CPUs are stopped",
		.args = {
			{ LKST_ARG_TEXT, "message" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
		},
	},
	/* ---- end of oops and panic ---- */

	/* ---- tracer and user events ---- */
	{
		LKST_EVENT(USER_MARK),
		.category = LKST_CAT_TRACER,
		.description = "annotation written by lkbuf mark",
		.args = {
			{ LKST_ARG_TEXT, "text" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
			{ LKST_ARG_TEXT, "" },
		},
	},
	{
		LKST_EVENT(STACK_KERNEL),
		.category = LKST_CAT_TRACER,
		.description = "kernel stack of an event, by the lkst_stack handler",
		.args = {
			{ LKST_ARG_STACKPOS, "event, first frame, frames" },
			{ LKST_ARG_KSYM, "frame" },
			{ LKST_ARG_KSYM, "frame" },
			{ LKST_ARG_KSYM, "frame" },
			{ LKST_ARG_KSYM, "frame" },
			{ LKST_ARG_KSYM, "frame" },
		},
	},
	{
		LKST_EVENT(STACK_USER),
		.category = LKST_CAT_TRACER,
		.description = "user stack of an event, by the lkst_stack handler",
		.args = {
			{ LKST_ARG_STACKPOS, "event, first frame, frames" },
			{ LKST_ARG_UADDR, "frame" },
			{ LKST_ARG_UADDR, "frame" },
			{ LKST_ARG_UADDR, "frame" },
			{ LKST_ARG_UADDR, "frame" },
			{ LKST_ARG_UADDR, "frame" },
		},
	},
	/* ---- end of tracer and user events ---- */
};

#define LKST_NR_EVENTS \
	(sizeof(lkst_event_table) / sizeof(struct lkst_event_info))

#endif /* LKST_EVENT_TABLES */

#endif /* _UAPI_LINUX_LKST_EVENTS_H */
