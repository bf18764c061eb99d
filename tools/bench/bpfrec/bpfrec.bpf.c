// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side of bpfrec (make bench's libbpf peer): a program, attached
 * by bpfrec.c to each twin tracepoint with the event's index as its
 * attach cookie, writes a fixed record to a BPF ring buffer, as the
 * libbpf-tools do.  A record: the time, the pid, the CPU, the event and
 * up to 32 bytes of the tracepoint's fields (its arguments: the
 * syscall number and first three arguments of sys_enter, prev and next
 * of sched_switch...).  A reservation that fails (the ring is full) is
 * counted per CPU, not retried.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpfrec.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, BPFREC_RING_BYTES);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/*
 * The record of one hit, with the first @bytes bytes of the tracepoint's
 * fields (they follow its 8-byte common header).  The kernel refuses to
 * attach a program that reads past a tracepoint's record (-EACCES), and
 * one program reads at the offsets its code has: hence one program per
 * size, which bpfrec.c picks from the tracepoint's format.
 */
static __always_inline int record(void *ctx, const int bytes)
{
	const __u64 *fields = (const __u64 *)ctx + 1;
	struct bpfrec_rec *r;
	__u32 zero = 0;
	__u64 *n;

	r = bpf_ringbuf_reserve(&ring, sizeof(*r), 0);
	if (!r) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			(*n)++;
		return 0;
	}
	r->ns = bpf_ktime_get_ns();
	r->pid = (__u32)bpf_get_current_pid_tgid();
	r->cpu = (__u16)bpf_get_smp_processor_id();
	r->event = (__u16)bpf_get_attach_cookie(ctx);
	for (int i = 0; i < 4; i++)	/* unrolled: bytes is a constant */
		r->arg[i] = bytes >= 8 * i + 8 ? fields[i] :
			    bytes == 8 * i + 4 ? *(const __u32 *)&fields[i] : 0;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* The section names the program type; bpfrec.c attaches them itself. */
#define BPFREC_PROG(bytes)					\
	SEC("tracepoint/bpfrec/any")				\
	int bpfrec##bytes(void *ctx)				\
	{							\
		return record(ctx, bytes);			\
	}

BPFREC_PROG(0)
BPFREC_PROG(4)
BPFREC_PROG(8)
BPFREC_PROG(12)
BPFREC_PROG(16)
BPFREC_PROG(20)
BPFREC_PROG(24)
BPFREC_PROG(28)
BPFREC_PROG(32)

char LICENSE[] SEC("license") = "GPL";
