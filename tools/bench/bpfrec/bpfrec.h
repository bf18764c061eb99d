/* SPDX-License-Identifier: GPL-2.0 */
/* The record bpfrec's BPF program writes and bpfrec.c saves. */
#ifndef BPFREC_H
#define BPFREC_H

#include <linux/types.h>

/* As ftrace's and perf's rings in make bench: 16 MiB (one ring, all CPUs). */
#define BPFREC_RING_BYTES	(16 << 20)

struct bpfrec_rec {
	__u64 ns;
	__u32 pid;
	__u16 cpu;
	__u16 event;	/* index of the tracepoint on bpfrec's command line */
	__u64 arg[4];
};

#endif
