/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst event table: the one list of every event the tracer knows.
 *
 * Kernel, utilities and tests all expand LKST_EVENT_TABLE() with their own
 * E() macro, so an event's ID, mnemonic, category and argument meanings are
 * written exactly once.  IDs are stable ABI: never renumber, only append.
 *
 * Category ranges (IDs follow Hitachi LKST where it published them):
 *   0x01-0x0f process management   0x10-0x1f interrupts
 *   0x20-0x2f exceptions           0x30-0x3f system calls
 *   0x40-0x5f memory               0x60-0x7f IPC
 *   0x80-0x8f block I/O            0x90-0x9f network
 *   0xa0-0xaf timers               0xb0-0xbf locks
 *   0xc0-0xcf oops and panic       0xe0-0xfe tracer and user events
 * IDs reserved for LKST's numbering and not yet hooked: 0x03 PROCESS_SIGSEND,
 * 0x04 PROCESS_LTHREADGEN, 0x05-0x07 wait queues, 0x10 INT_HARDWARE_ENTRY,
 * 0x12 INT_TASKLETHI_ENTRY, 0x14 INT_TASKLET_ENTRY, 0x16 INT_BH_ENTRY,
 * 0x20 EXCEPTION_ENTRY, 0x21 EXCEPTION_EXIT.
 */
#ifndef _UAPI_LINUX_LKST_EVENTS_H
#define _UAPI_LINUX_LKST_EVENTS_H

/* Event IDs are below this bound; masksets have one entry per ID. */
#define LKST_NR_EVENT_IDS	256

#define LKST_NR_ARGS		6

/* Categories, used for RDEFAULT and for selecting events by group. */
#define LKST_CATEGORY_TABLE(C)			\
	C(PROCESS,   "process",   0x01, 0x0f)	\
	C(INTERRUPT, "interrupt", 0x10, 0x1f)	\
	C(EXCEPTION, "exception", 0x20, 0x2f)	\
	C(SYSCALL,   "syscall",   0x30, 0x3f)	\
	C(MEMORY,    "memory",    0x40, 0x5f)	\
	C(IPC,       "ipc",       0x60, 0x7f)	\
	C(BLOCK,     "block",     0x80, 0x8f)	\
	C(NET,       "net",       0x90, 0x9f)	\
	C(TIMER,     "timer",     0xa0, 0xaf)	\
	C(LOCK,      "lock",      0xb0, 0xbf)	\
	C(OOPS,      "oops",      0xc0, 0xcf)	\
	C(TRACER,    "tracer",    0xe0, 0xfe)

enum lkst_category {
#define LKST_C_ENUM(sym, name, first, last) LKST_CAT_##sym,
	LKST_CATEGORY_TABLE(LKST_C_ENUM)
#undef LKST_C_ENUM
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
};

/*
 * E(id, MNEMONIC, CATEGORY, "what happened",
 *   type1, "arg1", ..., type6, "arg6")
 * An entry's hook passes its arguments in this order.
 */
#define LKST_EVENT_TABLE(E)						\
	E(0x01, PROCESS_CONTEXTSWITCH, PROCESS,				\
	  "context switch in __schedule()",				\
	  PID, "prev pid", PID, "next pid",				\
	  STATE, "prev state", DEC, "next prio",			\
	  COMM, "next comm", COMM2, "")					\
	E(0x02, PROCESS_WAKEUP, PROCESS,				\
	  "task woken in try_to_wake_up()",				\
	  PID, "target pid", STATE, "target state",			\
	  UDEC, "target cpu", DEC, "target prio",			\
	  COMM, "target comm", COMM2, "")				\
	E(0x30, SYSCALL_ENTRY, SYSCALL,					\
	  "system call entry",						\
	  SYSNR, "syscall number", HEX, "arg0", HEX, "arg1",		\
	  HEX, "arg2", HEX, "arg3", HEX, "arg4")			\
	E(0x31, SYSCALL_EXIT, SYSCALL,					\
	  "system call exit",						\
	  SYSNR, "syscall number", RETVAL, "return value",		\
	  NONE, "", NONE, "", NONE, "", NONE, "")

enum lkst_event_id {
#define LKST_E_ENUM(id, sym, ...) LKST_EV_##sym = (id),
	LKST_EVENT_TABLE(LKST_E_ENUM)
#undef LKST_E_ENUM
};

#define LKST_E_COUNT(...) + 1
#define LKST_NR_EVENTS (0 LKST_EVENT_TABLE(LKST_E_COUNT))

#endif /* _UAPI_LINUX_LKST_EVENTS_H */
