/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * lkst control ABI: ioctls on /dev/lkst (CAP_SYS_ADMIN only; open fails
 * with EPERM under lockdown=confidentiality, as tracefs does).
 *
 * Every structure has fixed-width fields and explicit padding; padding and
 * reserved fields must be zero on input.  LKST_IOC_GET_VERSION tells the
 * utilities which ABI they talk to; a change that is not an append bumps
 * LKST_ABI_VERSION.
 *
 * Errors: EPERM without CAP_SYS_ADMIN; EINVAL for an ID, size or value out
 * of range or non-zero padding; ENOENT for a maskset, handler or block that
 * does not exist; EROFS for writing a system maskset; EBUSY for deleting
 * the active maskset or the block being written; ENOSPC when no maskset or
 * block ID is free; ENOMEM; EFAULT; ENOTTY for an unknown command;
 * EOPNOTSUPP for a command to a handler that takes none (HANDLER_CTL).
 *
 * MASKSET_WRITE creates or replaces a user maskset (ID >= 3); every
 * handler[] entry must be NOTHING or a registered handler, and entries of
 * IDs that are not events must be NOTHING.  MASKSET_READ of an unused ID
 * is ENOENT.  MASKSET_SET makes a maskset active; when it returns, no hook
 * still runs with the previous one.
 *
 * BLOCK_LINK, BLOCK_DELETE and BLOCK_JUMP each take their own struct
 * (lkst_block_link, lkst_block_delete, lkst_block_jump), all three of the
 * same size and layout: DELETE and JUMP took a struct lkst_block_link whose
 * next was 0 before, and their ioctl numbers, which encode the size, are
 * the same, so the ABI is.  Deleting clears the links that pointed to the
 * block; the block being written cannot be deleted (EBUSY), nor a
 * persistent one (EPERM: the reserve_mem region of lkst.persist=).  JUMP
 * makes the writer continue at the block's first page, which it empties.
 * A CPU whose buffer is persistent keeps writing there: LINK of its
 * persistent block to another block and JUMP to another block are EPERM
 * too, as BUFFER_RESIZE is.
 *
 * Lockdown (confidentiality) is asked at open, and again by every request
 * that copies records out (BLOCK_READ, BUFFER_DRAIN, PREVIOUS_DRAIN), by
 * a handler's command that copies out values of events' arguments (such
 * as lkst_agg's READ) and by PROBE_ADD (LOCKDOWN_KPROBES): EPERM once it
 * is raised, also on a descriptor opened before.
 *
 * HANDLER_CTL passes a command to an extended handler that takes them
 * (struct lkst_handler's control): the handler defines its commands and
 * their data, and returns a count or a negative errno; EOPNOTSUPP when the
 * handler takes no commands, ENOENT when no handler has the ID.
 *
 * PROBE_ADD makes a dynamic event fired by a kprobe (or, with
 * LKST_PROBE_RETURN, a kretprobe) on @symbol+@offset and returns its ID,
 * which no maskset routes yet; its arguments are fetched as @fetch[]
 * says, one spec per argument slot, and its argument descriptions are
 * the specs written back as text.  EINVAL for an offset past 32 bits, a
 * bad name or spec ($retval
 * on an entry probe, an argument number or register out of range, more
 * than LKST_PROBE_MAX_DEREF dereferences, a COMM not followed by COMM2),
 * EEXIST for a name an event has, ENOSPC when every probe ID is taken,
 * and kprobes' own error (ENOENT for an unknown symbol, EINVAL or EILSEQ
 * for an address it cannot probe).  PROBE_DEL removes the probe with
 * @id, or with @name when @id is 0: its handlers have finished and no
 * maskset routes its ID when it returns (ENOENT when there is no such
 * probe).
 *
 * Version 2 added sequence numbers (BUFFER_DRAIN), buffer modes
 * (BUFFER_MODE) and BUFFER_RESIZE, and the mode and next_seq fields of
 * struct lkst_cpu_info, which changed its size.  Version 3 stores records
 * packed in pages (struct lkst_brec): blocks are counted in pages, the
 * write position in bytes, and DRAIN returns records in order and stops
 * before the first one still being written.
 */
#ifndef _UAPI_LINUX_LKST_IOCTL_H
#define _UAPI_LINUX_LKST_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <linux/lkst_record.h>

#define LKST_ABI_VERSION	3
#define LKST_DEVICE		"/dev/lkst"

/* Masksets: 0..2 are the read-only system masksets, user ones from 3. */
#define LKST_MASKSET_RNOTHING	0
#define LKST_MASKSET_RDEFAULT	1
#define LKST_MASKSET_RALL	2
#define LKST_MASKSET_FIRST_USER	3
#define LKST_MAX_MASKSETS	32
#define LKST_NAME_LEN		32

/* Handlers: IDs 1..255 fit a maskset entry's byte; 0 is never used. */
#define LKST_HANDLER_DEFAULT	1
#define LKST_HANDLER_NOTHING	255
#define LKST_MAX_HANDLERS	256

/* Buffer blocks, numbered per CPU. */
#define LKST_MAX_BLOCKS		64
#define LKST_NO_NEXT		0xffffffffu
#define LKST_BLOCK_MIN_SIZE	4096u
#define LKST_BLOCK_MAX_SIZE	(256u << 20)
#define LKST_ALL_CPUS		0xffffffffu

/*
 * What the writer does when the next page holds records, as at the end
 * of a block with no next block that wraps onto itself: OVERWRITE empties
 * it (a flight recorder, the default); STOP keeps it, stops writing and
 * counts every further event as dropped until a jump, a link to an empty
 * block, a resize or a switch back to OVERWRITE gives room.
 */
#define LKST_MODE_OVERWRITE	0
#define LKST_MODE_STOP		1

struct lkst_version {
	__u32 abi_version;		/* out: LKST_ABI_VERSION */
	__u32 record_size;		/* out: sizeof(struct lkst_record) */
	__u32 nr_event_ids;		/* out: LKST_NR_EVENT_IDS */
	__u32 nr_events;		/* out: events in the kernel's table */
	__u32 nr_cpu_ids;		/* out: CPUs that may have buffers */
	__u32 active_maskset;		/* out */
	__u32 clock;			/* out: LKST_CLOCK_* */
	__u32 __pad;
};

/* Flags of struct lkst_maskset_desc. */
#define LKST_MS_SYSTEM		(1u << 0)	/* read-only system maskset */
#define LKST_MS_ACTIVE		(1u << 1)	/* the maskset hooks use now */

struct lkst_maskset_desc {
	__u32 id;			/* in */
	__u32 flags;			/* out on read, 0 on write */
	char name[LKST_NAME_LEN];	/* NUL terminated */
	__u8 handler[LKST_NR_EVENT_IDS];	/* event ID -> handler ID */
};

struct lkst_maskset_entry {
	__u32 id;			/* maskset */
	__u32 event;			/* event ID */
	__u32 handler;			/* handler ID */
	__u32 __pad;
};

struct lkst_handler_desc {
	__u32 id;			/* in */
	__u32 __pad;
	char name[LKST_NAME_LEN];	/* out */
	char module[LKST_NAME_LEN];	/* out: owner, "" when built in */
};

struct lkst_handler_ctl {
	__u32 handler;			/* handler ID */
	__u32 cmd;			/* the handler's own command number */
	__u64 data;			/* user pointer to the command's data */
	__u32 size;			/* bytes at data */
	__u32 __pad;
};

struct lkst_cpu_info {
	__u32 cpu;			/* in */
	__u32 online;			/* out: 1 if the CPU is online */
	__u32 nr_blocks;		/* out */
	__u32 current_block;		/* out: block the writer fills */
	__u64 current_offset;		/* out: bytes of that block used */
	__u64 written;			/* out: records committed */
	__u64 overwritten;		/* out: replaced, resized or deleted */
	__u64 dropped;			/* out: events that found no room */
	__u64 next_seq;			/* out: sequence number of the next record */
	__u32 mode;			/* out: LKST_MODE_* */
	__u32 __pad;
};

struct lkst_block_info {
	__u32 cpu;			/* in */
	__u32 block;			/* in */
	__u32 size;			/* out: bytes of record space */
	__u32 nr_pages;			/* out: size / LKST_PAGE_SIZE */
	__u32 next;			/* out: next block, LKST_NO_NEXT wraps */
	__u32 __pad;
};

struct lkst_block_create {
	__u32 cpu;			/* in */
	__u32 size;			/* in: bytes, rounded down to pages */
	__u32 next;			/* in: next block or LKST_NO_NEXT */
	__u32 block;			/* out: new block's ID */
};

/* BLOCK_LINK: the block a block's writer moves to when it is full. */
struct lkst_block_link {
	__u32 cpu;			/* in */
	__u32 block;			/* in */
	__u32 next;			/* in: next block or LKST_NO_NEXT */
	__u32 __pad;
};

/*
 * BLOCK_DELETE and BLOCK_JUMP name one block of one CPU.  __pad[0] is
 * where struct lkst_block_link has next: both are 16 bytes, as the ioctl
 * numbers say, and zero there is what callers of the shared struct sent.
 */
struct lkst_block_delete {
	__u32 cpu;			/* in */
	__u32 block;			/* in */
	__u32 __pad[2];
};

struct lkst_block_jump {
	__u32 cpu;			/* in */
	__u32 block;			/* in */
	__u32 __pad[2];
};

/*
 * Copies the block's committed records, oldest first, into records[];
 * records that are being written are skipped, never half copied.
 */
struct lkst_block_read {
	__u32 cpu;			/* in */
	__u32 block;			/* in */
	__u64 records;			/* in: user pointer to lkst_record[] */
	__u32 max_records;		/* in: room in records[] */
	__u32 nr_records;		/* out: records copied */
};

/*
 * Each CPU numbers its records 0, 1, 2, ... in the order they take their
 * place.  DRAIN copies the committed records of a CPU numbered from cursor
 * on, in order, with their numbers in seqs[], starting at the page that
 * holds cursor, and stops before the first record still being written:
 * every number below next_seq belongs to a record that was copied or was
 * overwritten (lost to the reader).  nr_busy is 0; busy_seqs[] and
 * BUSY_OVERFLOW are kept for readers of ABI 2.  TRUNCATED means records[]
 * was too small (capacity tells how many the CPU's blocks hold at most);
 * ask again with room for capacity.  The kernel keeps no reader state.
 */
#define LKST_DRAIN_BUSY_OVERFLOW (1u << 0)
#define LKST_DRAIN_TRUNCATED	(1u << 1)
#define LKST_DRAIN_MAX_BUSY	8

struct lkst_buffer_drain {
	__u32 cpu;			/* in */
	__u32 flags;			/* out: LKST_DRAIN_* */
	__u64 cursor;			/* in: lowest sequence number wanted */
	__u64 records;			/* in: user pointer to lkst_record[] */
	__u64 seqs;			/* in: user pointer to __u64[] */
	__u32 max_records;		/* in: room in records[] and seqs[] */
	__u32 nr_records;		/* out: records copied */
	__u64 next_seq;			/* out: numbers below it are covered */
	__u64 capacity;			/* out: most records the blocks hold */
	__u64 written;			/* out: the CPU's counters, read */
	__u64 overwritten;		/*      after the scan */
	__u64 dropped;
	__u32 nr_busy;			/* out: entries of busy_seqs[] */
	__u32 __pad;
	__u64 busy_seqs[LKST_DRAIN_MAX_BUSY];	/* out: numbers in flight */
};

/*
 * The previous boot's trace, found at boot in the persistent region
 * (lkst.persist=NAME with reserve_mem=SIZE:ALIGN:NAME) and validated, then
 * kept read-only while this boot traces into the region afresh.  All three
 * fail with ENOENT when no previous trace is kept.
 *
 * PREVIOUS_INFO describes it.  PREVIOUS_DRAIN copies one CPU's records as
 * BUFFER_DRAIN does (cpu below nr_cpus, in; cursor, records, seqs,
 * max_records as there); written, overwritten and dropped are the
 * previous boot's counters: saved at panic (LKST_PREVIOUS_COUNTS_SAVED),
 * otherwise written is next_seq, overwritten the numbers held by no kept
 * record and dropped 0.  PREVIOUS_RELEASE frees the copy.
 */
#define LKST_PREVIOUS_COUNTS_SAVED	(1u << 0)	/* saved at panic */

struct lkst_previous_info {
	__u32 nr_cpus;			/* out: CPUs the previous boot had */
	__u32 flags;			/* out: LKST_PREVIOUS_* */
	__u32 clock;			/* out: LKST_CLOCK_* of its records */
	__u32 refused_pages;		/* out: pages that failed validation */
	__u64 anchor_trace_ns;		/* out: its trace clock and */
	__u64 anchor_realtime_ns;	/*      CLOCK_REALTIME, read together */
	__u64 nr_records;		/* out: records kept, all CPUs */
};

/* cpu may be LKST_ALL_CPUS; mode is LKST_MODE_*. */
struct lkst_buffer_mode {
	__u32 cpu;			/* in */
	__u32 mode;			/* in */
};

/*
 * Replaces every block of every CPU that has blocks by an empty block of
 * @size bytes with the same ID and next link, and makes each writer
 * continue at the first page of its current block.  All new blocks are
 * allocated first: on ENOMEM nothing changed, and a size the machine's
 * available memory cannot hold is refused with ENOMEM up front.  The
 * records the old blocks held are discarded and counted as overwritten (a
 * draining reader sees them as lost).  A CPU with no block yet (never
 * online) is left alone: its first block will have the new size.  EPERM
 * while the buffers are persistent (lkst.persist=): their size is the
 * reserve_mem region's, which the next boot finds them by.
 */
struct lkst_buffer_resize {
	__u32 size;			/* in: bytes, LKST_BLOCK_MIN/MAX_SIZE */
	__u32 __pad;
};

/*
 * Per-event counters since boot or the last reset, summed over CPUs: hits
 * are the times the event reached a handler, dropped the times it was
 * lost (no room, or a handler re-entering a hook).
 */
struct lkst_event_stat {
	__u32 event;			/* in */
	__u32 __pad;
	__u64 hits;			/* out */
	__u64 dropped;			/* out */
};

/*
 * A user annotation, recorded as event USER_MARK on the caller's CPU with
 * the tracer's clock, if the active maskset routes USER_MARK.  Up to 48
 * bytes, NUL padded; it need not be NUL terminated.
 */
struct lkst_mark {
	char text[LKST_NR_ARGS * 8];
};

/*
 * The kernel's description of one event ID, static or a dynamic probe, so
 * that a saved log carries the table it was recorded with.  ENOENT for an
 * ID with no event.  Strings are NUL terminated and cut to fit.
 */
#define LKST_EVENT_DYNAMIC	(1u << 0)	/* a probe made at run time */
/*
 * lkst.ko on a kernel without the lkst patch (docs/stock.md): ABSENT, never
 * recorded here, because NO_TWIN (lkst.ko feeds it from no tracepoint) or
 * TWIN_MISSING (this kernel lacks its tracepoints); TWIN_PARTIAL,
 * recorded from a tracepoint that carries less, the missing arguments 0.
 */
#define LKST_EVENT_ABSENT	(1u << 1)
#define LKST_EVENT_NO_TWIN	(1u << 2)
#define LKST_EVENT_TWIN_MISSING	(1u << 3)
#define LKST_EVENT_TWIN_PARTIAL	(1u << 4)
#define LKST_DESC_LEN		128
#define LKST_ARG_DESC_LEN	64

struct lkst_event_desc {
	__u32 id;			/* in */
	__u32 category;			/* out: enum lkst_category */
	__u32 flags;			/* out: LKST_EVENT_* */
	__u32 __pad;
	__u8 arg_type[8];		/* out: enum lkst_arg_type, 6 used */
	char mnemonic[LKST_NAME_LEN];	/* out */
	char description[LKST_DESC_LEN];
	char arg_desc[LKST_NR_ARGS][LKST_ARG_DESC_LEN];
};

/*
 * Dynamic probes.  A fetch spec says how one argument of a probe's event
 * is read, as kprobe_events' fetch arguments do: a register, a function
 * argument (argument registers at entry; a return probe saves them at
 * entry), the return value or the task's command name (two slots, COMM
 * then COMM2), then up to LKST_PROBE_MAX_DEREF loads of 8 bytes at
 * value + offset[i], innermost first, the last one @size bytes wide
 * (kprobe_events' +OFF(+OFF(FETCH))); a load that faults gives 0.  The
 * value is then cut to @size bytes, sign-extended when @type is DEC.
 */
#define LKST_PROBE_RETURN	(1u << 0)	/* a kretprobe */
#define LKST_PROBE_MAX_DEREF	2
#define LKST_SYM_LEN		128

enum lkst_fetch_kind {
	LKST_FETCH_NONE,	/* unused slot */
	LKST_FETCH_REG,		/* @index: enum lkst_reg */
	LKST_FETCH_ARG,		/* @index: argument number 1..6 */
	LKST_FETCH_RETVAL,	/* return probes only */
	LKST_FETCH_COMM,	/* first 8 bytes of current->comm */
	LKST_FETCH_COMM2,	/* the last 8, in the slot after COMM */
	LKST_NR_FETCH_KINDS
};

/*
 * Registers by their kprobe_events names: x86-64's (%ax ...), then
 * arm64's (%x0 ... %x30, %pc, %pstate; %sp is shared).  A kernel takes
 * only its own architecture's.
 */
enum lkst_reg {
	LKST_REG_AX, LKST_REG_BX, LKST_REG_CX, LKST_REG_DX,
	LKST_REG_SI, LKST_REG_DI, LKST_REG_BP, LKST_REG_SP,
	LKST_REG_R8, LKST_REG_R9, LKST_REG_R10, LKST_REG_R11,
	LKST_REG_R12, LKST_REG_R13, LKST_REG_R14, LKST_REG_R15,
	LKST_REG_IP, LKST_REG_FLAGS,
	LKST_REG_X0,
	LKST_REG_X30 = LKST_REG_X0 + 30,
	LKST_REG_PC, LKST_REG_PSTATE,
	LKST_NR_REGS
};

struct lkst_fetch {
	__u8 kind;		/* enum lkst_fetch_kind */
	__u8 index;		/* register or argument number */
	__u8 nr_deref;		/* 0..LKST_PROBE_MAX_DEREF */
	__u8 size;		/* 1, 2, 4 or 8 bytes; 8 for COMM, COMM2 */
	__u8 type;		/* enum lkst_arg_type the value is shown as */
	__u8 __pad[3];
	__s32 offset[LKST_PROBE_MAX_DEREF];
	char name[16];		/* optional; NUL terminated, [A-Za-z0-9_] */
};

struct lkst_probe {
	__u32 id;		/* PROBE_DEL's, or 0 (ADD returns it) */
	__u32 flags;		/* LKST_PROBE_* */
	__u64 offset;		/* bytes into @symbol */
	char name[LKST_NAME_LEN];
	char symbol[LKST_SYM_LEN];
	__u32 nr_args;		/* slots of @fetch used, from the first */
	__u32 __pad;
	struct lkst_fetch fetch[LKST_NR_ARGS];
};

/*
 * EVENT_TABLE describes every event at once, in increasing ID order, so
 * that a utility learns the table with one system call (a trace that
 * records system calls is not flooded by its reader): up to max_descs
 * into descs[]; nr_descs is how many events there are, which may be more.
 */
struct lkst_event_table {
	__u64 descs;			/* in: user pointer to lkst_event_desc[] */
	__u32 max_descs;		/* in: room in descs[] */
	__u32 desc_size;		/* in: sizeof(struct lkst_event_desc) */
	__u32 nr_descs;			/* out: events the kernel has */
	__u32 __pad;
};

/* A pair of readings of the trace clock and of CLOCK_REALTIME. */
struct lkst_clock_anchor {
	__u64 trace_ns;			/* out */
	__u64 realtime_ns;		/* out */
};

#define LKST_IOC_MAGIC		0xB9

#define LKST_IOC_GET_VERSION	_IOR(LKST_IOC_MAGIC, 0x00, struct lkst_version)
#define LKST_IOC_CLOCK_ANCHOR	_IOR(LKST_IOC_MAGIC, 0x01, struct lkst_clock_anchor)
#define LKST_IOC_MASKSET_READ	_IOWR(LKST_IOC_MAGIC, 0x10, struct lkst_maskset_desc)
#define LKST_IOC_MASKSET_WRITE	_IOW(LKST_IOC_MAGIC, 0x11, struct lkst_maskset_desc)
#define LKST_IOC_MASKSET_CONFIG	_IOW(LKST_IOC_MAGIC, 0x12, struct lkst_maskset_entry)
#define LKST_IOC_MASKSET_SET	_IOW(LKST_IOC_MAGIC, 0x13, __u32)
#define LKST_IOC_MASKSET_DELETE	_IOW(LKST_IOC_MAGIC, 0x14, __u32)
#define LKST_IOC_HANDLER_INFO	_IOWR(LKST_IOC_MAGIC, 0x20, struct lkst_handler_desc)
#define LKST_IOC_EVENT_STAT	_IOWR(LKST_IOC_MAGIC, 0x21, struct lkst_event_stat)
#define LKST_IOC_EVENT_STAT_RESET _IO(LKST_IOC_MAGIC, 0x22)
#define LKST_IOC_HANDLER_CTL	_IOW(LKST_IOC_MAGIC, 0x23, struct lkst_handler_ctl)
#define LKST_IOC_EVENT_DESC	_IOWR(LKST_IOC_MAGIC, 0x24, struct lkst_event_desc)
#define LKST_IOC_EVENT_TABLE	_IOWR(LKST_IOC_MAGIC, 0x27, struct lkst_event_table)
#define LKST_IOC_PROBE_ADD	_IOW(LKST_IOC_MAGIC, 0x25, struct lkst_probe)
#define LKST_IOC_PROBE_DEL	_IOW(LKST_IOC_MAGIC, 0x26, struct lkst_probe)
#define LKST_IOC_CPU_INFO	_IOWR(LKST_IOC_MAGIC, 0x30, struct lkst_cpu_info)
#define LKST_IOC_BLOCK_INFO	_IOWR(LKST_IOC_MAGIC, 0x31, struct lkst_block_info)
#define LKST_IOC_BLOCK_READ	_IOWR(LKST_IOC_MAGIC, 0x32, struct lkst_block_read)
#define LKST_IOC_BLOCK_CREATE	_IOWR(LKST_IOC_MAGIC, 0x33, struct lkst_block_create)
#define LKST_IOC_BLOCK_LINK	_IOW(LKST_IOC_MAGIC, 0x34, struct lkst_block_link)
#define LKST_IOC_BLOCK_DELETE	_IOW(LKST_IOC_MAGIC, 0x35, struct lkst_block_delete)
#define LKST_IOC_BLOCK_JUMP	_IOW(LKST_IOC_MAGIC, 0x36, struct lkst_block_jump)
#define LKST_IOC_BUFFER_DRAIN	_IOWR(LKST_IOC_MAGIC, 0x37, struct lkst_buffer_drain)
#define LKST_IOC_BUFFER_MODE	_IOW(LKST_IOC_MAGIC, 0x38, struct lkst_buffer_mode)
#define LKST_IOC_BUFFER_RESIZE	_IOW(LKST_IOC_MAGIC, 0x39, struct lkst_buffer_resize)
#define LKST_IOC_MARK		_IOW(LKST_IOC_MAGIC, 0x40, struct lkst_mark)
#define LKST_IOC_PREVIOUS_INFO	_IOR(LKST_IOC_MAGIC, 0x50, struct lkst_previous_info)
#define LKST_IOC_PREVIOUS_DRAIN	_IOWR(LKST_IOC_MAGIC, 0x51, struct lkst_buffer_drain)
#define LKST_IOC_PREVIOUS_RELEASE _IO(LKST_IOC_MAGIC, 0x52)

#endif /* _UAPI_LINUX_LKST_IOCTL_H */
