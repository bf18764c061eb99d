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
 *   0xc0-0xcf oops and panic       0xe0-0xfe tracer and user events
 * IDs reserved for LKST's numbering and not yet hooked: 0x03 PROCESS_SIGSEND,
 * 0x04 PROCESS_LTHREADGEN, 0x05-0x07 wait queues, 0x10 INT_HARDWARE_ENTRY,
 * 0x12 INT_TASKLETHI_ENTRY, 0x14 INT_TASKLET_ENTRY, 0x16 INT_BH_ENTRY,
 * 0x20 EXCEPTION_ENTRY, 0x21 EXCEPTION_EXIT.
 */
#ifndef _UAPI_LINUX_LKST_EVENTS_H
#define _UAPI_LINUX_LKST_EVENTS_H

#include <linux/types.h>

/* Event IDs are below this bound; masksets have one entry per ID. */
#define LKST_NR_EVENT_IDS	256

#define LKST_NR_ARGS		6

enum lkst_event_id {
	/* process management */
	LKST_EV_PROCESS_CONTEXTSWITCH	= 0x01,
	LKST_EV_PROCESS_WAKEUP		= 0x02,
	/* end of process management */

	/* interrupts */
	/* end of interrupts */

	/* exceptions */
	/* end of exceptions */

	/* system calls */
	LKST_EV_SYSCALL_ENTRY		= 0x30,
	LKST_EV_SYSCALL_EXIT		= 0x31,
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
	/* end of IPC */

	/* block I/O */
	/* end of block I/O */

	/* network */
	/* end of network */

	/* timers */
	/* end of timers */

	/* locks */
	/* end of locks */

	/* oops and panic */
	/* end of oops and panic */

	/* tracer and user events */
	LKST_EV_USER_MARK		= 0xe0,
	/* end of tracer and user events */
};

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
	[LKST_CAT_TRACER]	= { "tracer",    0xe0, 0xfe },
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
	/* ---- end of process management ---- */

	/* ---- interrupts ---- */
	/* ---- end of interrupts ---- */

	/* ---- exceptions ---- */
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
	/* ---- end of IPC ---- */

	/* ---- block I/O ---- */
	/* ---- end of block I/O ---- */

	/* ---- network ---- */
	/* ---- end of network ---- */

	/* ---- timers ---- */
	/* ---- end of timers ---- */

	/* ---- locks ---- */
	/* ---- end of locks ---- */

	/* ---- oops and panic ---- */
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
	/* ---- end of tracer and user events ---- */
};

#define LKST_NR_EVENTS \
	(sizeof(lkst_event_table) / sizeof(struct lkst_event_info))

#endif /* LKST_EVENT_TABLES */

#endif /* _UAPI_LINUX_LKST_EVENTS_H */
