/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lkst log file format, written by `lkbuf read` and `lkbuf record` and read
 * by `lkbuf print` and the visualizers.
 *
 *   struct lkst_log_header
 *   then nr_cpus times: struct lkst_log_cpu, nr_records * struct lkst_record,
 *                       nr_records * __u64 sequence numbers
 *
 * All integers are in the byte order of the machine that saved the file;
 * byte_order tells a reader on another machine that it cannot use it.
 * Records of a CPU are stored in the order they were written, each with
 * the sequence number the kernel gave it (strictly increasing).  A section
 * accounts for every number in [seq_start, seq_end): nr_records records
 * and `lost` numbers whose records were overwritten before they were read,
 * so nr_records + lost == seq_end - seq_start.  The files `lkbuf record`
 * writes follow each other: a file's seq_start is the previous seq_end.
 *
 * Version 3 describes itself: the header grows by the place of metadata
 * sections that follow the last CPU section (struct lkst_log_meta, each
 * padded to 8 bytes), among them the event table the records were made
 * with (LKST_META_EVENTS, the kernel's own struct lkst_event_desc per
 * event, dynamic probes included), so that a log decodes by its own
 * table on any machine; where it came from (LKST_META_SOURCE); and the
 * kernel symbols its stack records need (LKST_META_SYMBOLS,
 * lkst_ksym.h); the names of the tasks that ran (LKST_META_TASKS);
 * the boot the records belong to (LKST_META_BOOT).
 * A reader skips types it does not know (lkst_logload.c's parse_meta()
 * keeps them unread), so a section added later leaves older readers
 * working: they only miss what it says.
 *
 * Version 2 (no metadata) and version 1 (before sequence numbers, with
 * struct lkst_log_cpu_v1 sections) are still read; they decode by the
 * reader's built-in event table, as event IDs are never renumbered.
 */
#ifndef LKST_LOG_H
#define LKST_LOG_H

#include <linux/types.h>
#include <linux/lkst_record.h>
#include <linux/lkst_ioctl.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LKST_LOG_MAGIC		"LKSTLOG\n"
#define LKST_LOG_MAGIC_LEN	8
#define LKST_LOG_VERSION	3
#define LKST_LOG_VERSION_MIN	1
#define LKST_LOG_BYTE_ORDER	0x01020304u
#define LKST_LOG_LAYOUT \
	"time_ns:u64 pid:u32 event:u16 context:u8 flags:u8 arg:u64[6]"

struct lkst_log_header {
	char magic[LKST_LOG_MAGIC_LEN];
	__u32 byte_order;		/* LKST_LOG_BYTE_ORDER as written */
	__u32 version;			/* LKST_LOG_VERSION */
	__u32 header_size;		/* sizeof(struct lkst_log_header) */
	__u32 record_size;		/* sizeof(struct lkst_record) */
	__u32 nr_cpus;			/* CPU sections that follow */
	__u32 clock;			/* LKST_CLOCK_* of time_ns */
	__u32 abi_version;		/* the kernel's LKST_ABI_VERSION */
	__u32 nr_event_ids;		/* LKST_NR_EVENT_IDS */
	__u64 anchor_trace_ns;		/* trace clock ... */
	__u64 anchor_realtime_ns;	/* ... and CLOCK_REALTIME, read together */
	char layout[96];		/* LKST_LOG_LAYOUT, NUL padded */
	char nodename[65];		/* uname -n of the traced machine */
	char release[65];		/* uname -r of the traced machine */
	char __pad[6];
	/* Version 3 on; a version 1 or 2 header ends before them. */
	__u64 meta_offset;		/* of the first metadata section */
	__u64 meta_size;		/* bytes of metadata, to the file's end */
	__u32 nr_meta;			/* metadata sections */
	__u32 __pad2;
};

/* The header of versions 1 and 2. */
#define LKST_LOG_HEADER_V2_SIZE	offsetof(struct lkst_log_header, meta_offset)

/* Metadata section types. */
#define LKST_META_EVENTS	1	/* struct lkst_log_events + events */
#define LKST_META_SOURCE	2	/* text: where the records came from */
#define LKST_META_SYMBOLS	3	/* kernel symbols, lkst_ksym.h */
#define LKST_META_TASKS		4	/* struct lkst_log_tasks + tasks */
#define LKST_META_BOOT		5	/* struct lkst_log_boot */

struct lkst_log_meta {
	__u32 type;			/* LKST_META_* */
	__u32 __pad;
	__u64 size;			/* payload bytes that follow, unpadded */
};

/*
 * LKST_META_EVENTS: nr events in increasing ID order, each a struct
 * lkst_log_event and text_size bytes of exactly 2 + LKST_NR_ARGS
 * NUL-terminated strings: mnemonic, description, the arguments'
 * descriptions (the fields of struct lkst_event_desc, packed).
 */
struct lkst_log_events {
	__u32 nr;
	__u32 __pad;
};

struct lkst_log_event {
	__u16 id;
	__u8 category;			/* enum lkst_category */
	__u8 flags;			/* LKST_EVENT_* */
	__u8 arg_type[LKST_NR_ARGS];	/* enum lkst_arg_type */
	__u16 text_size;
};

/*
 * LKST_META_TASKS: the command names of tasks (threads) as /proc showed
 * them while the log was saved (lkbuf read: every thread at that time;
 * lkbuf record: those whose pids its records carry, read when first
 * seen), like trace-cmd's saved_cmdlines, so that a log of system calls
 * alone names its tasks.  A reader names a pid by it only where the
 * records themselves (PROCESS_CONTEXTSWITCH, PROCESS_WAKEUP) have not
 * named it yet: those are exact in time, this is one name per pid.
 *
 * nr entries, pids strictly increasing, none 0 (the idle tasks are named
 * per CPU by the records), nr at most LKST_LOG_TASKS_MAX; comm is the
 * kernel's task comm, 1 to 15 bytes, NUL padded (comm[15] is NUL).  The
 * section is exactly 8 + 24 * nr bytes; one that breaks any of this is
 * refused with the log.  Optional: lkbuf extract and --previous-boot
 * logs have none.
 */
struct lkst_log_tasks {
	__u32 nr;
	__u32 __pad;
};

struct lkst_log_task {
	__u32 pid;			/* the thread's (what records carry) */
	__u32 tgid;			/* its process's */
	char comm[16];
};

#define LKST_LOG_TASKS_MAX	(1u << 22)	/* the kernel's PID_MAX_LIMIT */

/*
 * LKST_META_BOOT: which boot of its host recorded the log, so that a
 * host's reboots stay apart when logs of many machines are put together
 * (docs/fleet.md).  id is a UUID in its 36-character text form, NUL
 * padded.  how says where it came from: LKST_BOOT_ID_KERNEL, the
 * recording boot's own /proc/sys/kernel/random/boot_id (lkbuf read,
 * record); LKST_BOOT_ID_DERIVED, a UUID (version 8) hashed from the
 * header's host name and clock anchor, for a boot that can no longer be
 * asked (lkbuf read --previous-boot: the anchor is the one the previous
 * boot wrote into its persistent region; lkbuf extract: the vmcore's),
 * the same for every log of that boot's saved trace and never the current
 * boot's.  Exactly sizeof(struct lkst_log_boot) bytes.
 */
#define LKST_BOOT_ID_KERNEL	1
#define LKST_BOOT_ID_DERIVED	2
#define LKST_BOOT_ID_LEN	36

struct lkst_log_boot {
	char id[40];			/* LKST_BOOT_ID_LEN chars, NUL padded */
	__u32 how;			/* LKST_BOOT_ID_* */
	__u32 __pad;
};

struct lkst_log_cpu {
	__u32 cpu;
	__u32 __pad;
	__u64 nr_records;		/* records stored after this header */
	__u64 written;			/* committed since boot */
	__u64 overwritten;		/* lost to wrapping since boot */
	__u64 dropped;			/* lost without a slot since boot */
	__u64 seq_start;		/* first sequence number accounted for */
	__u64 seq_end;			/* one past the last */
	__u64 lost;			/* numbers in the range with no record */
};

/* Version 1 sections: the first six fields, no sequence numbers. */
struct lkst_log_cpu_v1 {
	__u32 cpu;
	__u32 __pad;
	__u64 nr_records;
	__u64 written;
	__u64 overwritten;
	__u64 dropped;
};

#ifdef __cplusplus
}
#endif

#endif /* LKST_LOG_H */
