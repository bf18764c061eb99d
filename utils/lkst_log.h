/* SPDX-License-Identifier: GPL-2.0 */
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
 * Version 1 (before sequence numbers) had struct lkst_log_cpu_v1 sections
 * and no sequence numbers; it is still read.
 */
#ifndef LKST_LOG_H
#define LKST_LOG_H

#include <linux/types.h>
#include <linux/lkst_record.h>

#define LKST_LOG_MAGIC		"LKSTLOG\n"
#define LKST_LOG_MAGIC_LEN	8
#define LKST_LOG_VERSION	2
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

#endif /* LKST_LOG_H */
