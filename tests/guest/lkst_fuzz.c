// SPDX-License-Identifier: GPL-2.0
/*
 * An ioctl fuzzer for /dev/lkst: CALLS random and mutated requests from
 * THREADS threads at once, while another thread takes CPU 1 offline and
 * online, then puts the tracer back as it found it.
 *
 *   lkst_fuzz [-s SEED] [-n CALLS] [-t THREADS] [-H]     (-H: no hotplug)
 *
 * Every LKST_IOC_* command gets plausible arguments with boundary values,
 * bit flips or random bytes, at a normal, misaligned or read-only address,
 * cut off by an inaccessible page, or as a bad pointer (NULL, unmapped,
 * kernel, non-canonical); unknown commands and wrong _IOC sizes too.  The
 * kernel must never crash (the console is scanned on the host), and the
 * answers must follow the ABI: only the documented errnos, EFAULT for every
 * argument the kernel cannot read, ENOTTY for unknown commands.  Requests
 * that succeed slowly (resize, maskset switch, deletes, full scans) are
 * let through at a bounded rate, and sizes stay small, so that the run is
 * bounded in time and memory.  Prints per-command and per-errno counts and
 * "fuzz_calls N"; exits 0 only if every answer was as documented and the
 * state was restored.  Persistent buffers (lkst.persist=) and lockdown
 * raised by another process during the run are states it knows: their
 * EPERMs are counted, not failures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include "lkst_cmds.h"

#define PAGE		4096UL
#define MAX_THREADS	64
#define MAX_ERRNO	134
#define SMALL_SIZE	(64u << 10)	/* largest block a fuzzed request may allocate */
#define REC_PAGES	16		/* 256 records before a guard page */
#define NR_RECS		(REC_PAGES * PAGE / sizeof(struct lkst_record))
#define HOTPLUG_FILE	"/sys/devices/system/cpu/cpu1/online"
#define REOPEN_EVERY	20000

/* Per thread: let one slow-if-valid request through every so many calls. */
enum gate {
	G_RESIZE, G_CREATE, G_SET, G_MS_DELETE, G_MS_ACTIVE, G_BLK_DELETE,
	G_JUMP, G_SCAN, NR_GATES
};
static const unsigned int gate_every[NR_GATES] = {
	[G_RESIZE] = 20000, [G_CREATE] = 2000, [G_SET] = 10000,
	[G_MS_DELETE] = 5000, [G_MS_ACTIVE] = 5000, [G_BLK_DELETE] = 2000,
	[G_JUMP] = 200, [G_SCAN] = 2000,
};

#define CMD_UNKNOWN NR_CMDS		/* a number no command has */

enum place { P_NORMAL, P_MISALIGN, P_READONLY, P_TRUNC, P_BAD, NR_PLACES };
static const char *const place_name[] = {
	"normal", "misaligned", "read-only", "truncated", "bad-pointer"
};

struct fuzzer {
	pthread_t thread;
	unsigned int id;
	uint64_t rng;
	unsigned long calls, todo;
	int fd;
	unsigned long gate_last[NR_GATES];
	unsigned char *arena;		/* a page, then an inaccessible page */
	unsigned char *ro_view;		/* a read-only view of ... */
	unsigned char *rw_view;		/* ... this page */
	unsigned char *recs_end;	/* 256 records end at a guard page */
	unsigned char *seqs_end;	/* 512 numbers end at a guard page */
	/* results */
	unsigned long cmd_calls[NR_CMDS + 1], cmd_ok[NR_CMDS + 1];
	unsigned long err[MAX_ERRNO + 1];
	unsigned long unexpected;
};

static uint64_t seed = 0x1c57f022;
static unsigned int nr_cpu_ids;
static unsigned int nr_known;
static unsigned char known_list[LKST_NR_EVENT_IDS];
static uintptr_t unmapped_addr;
static atomic_uint active_maskset;	/* as last set by a fuzzer, for the gates */
static atomic_int stop_hotplug;
static atomic_ulong unexpected_printed;
static struct fuzzer fuzzers[MAX_THREADS];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct fuzzer *f)
{
	return splitmix(&f->rng);
}

static unsigned int below(struct fuzzer *f, unsigned int n)
{
	return n ? rnd(f) % n : 0;
}

static int chance(struct fuzzer *f, unsigned int percent)
{
	return below(f, 100) < percent;
}

static void fill_random(struct fuzzer *f, void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = rnd(f);
}

/* Boundary values of the ABI's ranges, and plain random ones. */
static uint32_t interesting_u32(struct fuzzer *f)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 31, 32, 33, 63, 64, 65, 127, 128, 254, 255,
		256, 4095, 4096, 4097, 65535, 65536, 0x7fffffff, 0x80000000,
		0xfffffffe, 0xffffffff, LKST_BLOCK_MAX_SIZE, LKST_BLOCK_MAX_SIZE + 1,
	};

	return chance(f, 80) ? v[below(f, sizeof(v) / sizeof(v[0]))] : (uint32_t)rnd(f);
}

/*
 * Without the hotplug thread, CPUs offline at the start stay so: requests
 * naming one (never online, in a maxcpus= boot) are counted.
 */
static unsigned char cpu_offline[MAX_THREADS];
static atomic_ulong offline_cpu_requests;

static void read_offline_cpus(void)
{
	char path[64], c;
	unsigned int cpu;
	FILE *fp;

	for (cpu = 1; cpu < nr_cpu_ids && cpu < MAX_THREADS; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		cpu_offline[cpu] = fread(&c, 1, 1, fp) == 1 && c == '0';
		fclose(fp);
	}
}

static uint32_t pick_cpu(struct fuzzer *f)
{
	uint32_t cpu = chance(f, 75) ? below(f, nr_cpu_ids + 1) : interesting_u32(f);

	if (cpu < MAX_THREADS && cpu_offline[cpu])
		atomic_fetch_add(&offline_cpu_requests, 1);
	return cpu;
}

static uint32_t pick_block(struct fuzzer *f)
{
	return chance(f, 70) ? below(f, 6) : interesting_u32(f);
}

static uint32_t pick_maskset(struct fuzzer *f)
{
	return chance(f, 75) ? below(f, 8) : interesting_u32(f);
}

static uint32_t pick_event(struct fuzzer *f)
{
	if (nr_known && chance(f, 70))
		return known_list[below(f, nr_known)];
	return chance(f, 50) ? below(f, LKST_NR_EVENT_IDS) : interesting_u32(f);
}

static uint32_t pick_handler(struct fuzzer *f)
{
	static const uint32_t v[] = { LKST_HANDLER_DEFAULT, LKST_HANDLER_NOTHING, 0, 2, 3, 200, 256 };

	return chance(f, 85) ? v[below(f, sizeof(v) / sizeof(v[0]))] : interesting_u32(f);
}

static uint32_t pick_size(struct fuzzer *f)
{
	if (chance(f, 60))
		return (1 + below(f, SMALL_SIZE / PAGE)) * PAGE - below(f, 2) * below(f, 64);
	return interesting_u32(f);
}

static uint32_t pick_count(struct fuzzer *f)
{
	static const uint32_t v[] = { 0, 1, 16, 64, 255, NR_RECS, NR_RECS + 1, 512 };

	return chance(f, 80) ? v[below(f, sizeof(v) / sizeof(v[0]))] : interesting_u32(f);
}

static const uint64_t bad_pointers[] = {
	0, 0x10, 0, /* unmapped_addr */ 0, /* guard page */
	0xffff888000000000ULL, 0xffffffff81000000ULL, 0x0000800000000000ULL,
	0xfffffffffffff000ULL, ~0ULL,
};

static uint64_t bad_pointer(struct fuzzer *f)
{
	unsigned int i = below(f, sizeof(bad_pointers) / sizeof(bad_pointers[0]));

	if (i == 2)
		return unmapped_addr;
	if (i == 3)
		return (uintptr_t)f->arena + PAGE;
	return bad_pointers[i];
}

/*
 * An array for BLOCK_READ or DRAIN with room for *room entries of @size
 * before a guard page, or a bad pointer (room 0).
 */
static uint64_t pick_array(struct fuzzer *f, unsigned char *end, size_t size,
			   size_t max, uint32_t *room)
{
	if (chance(f, 15)) {
		*room = 0;
		return bad_pointer(f);
	}
	*room = below(f, max + 1);
	if (chance(f, 50))
		*room = max;
	return (uintptr_t)(end - *room * size) + (chance(f, 5) ? 1 + below(f, 7) : 0);
}

/* May @g's slow request go through now?  Counted in this thread's calls. */
static int gate_open(struct fuzzer *f, enum gate g)
{
	if (f->calls - f->gate_last[g] < gate_every[g] && f->gate_last[g])
		return 0;
	f->gate_last[g] = f->calls ? f->calls : 1;
	return 1;
}

static int valid_cpu(uint32_t cpu)
{
	return cpu < nr_cpu_ids;
}

/* Make a request that would succeed slowly fail at once instead. */
static uint32_t bad_cpu(uint32_t cpu)
{
	return cpu | 0x10000;
}

static void gen_maskset_desc(struct fuzzer *f, struct lkst_maskset_desc *d)
{
	unsigned int i, n;

	d->id = pick_maskset(f);
	d->flags = chance(f, 90) ? 0 : interesting_u32(f);
	snprintf(d->name, sizeof(d->name), "fuzz%u", f->id);
	if (chance(f, 5))
		memset(d->name, 'x', sizeof(d->name));	/* unterminated */
	memset(d->handler, LKST_HANDLER_NOTHING, sizeof(d->handler));
	n = below(f, 8);
	for (i = 0; i < n; i++)
		d->handler[pick_event(f) % LKST_NR_EVENT_IDS] = pick_handler(f);
}

/*
 * Fill @buf with an argument for command @c: plausible values with
 * boundary cases, then sometimes bit flips or random bytes.
 */
static void gen_struct(struct fuzzer *f, unsigned int c, void *buf, size_t size)
{
	unsigned long nr = c < NR_CMDS ? cmds[c].nr : 0;
	uint32_t room, room2;

	fill_random(f, buf, size);	/* output fields hold garbage */
	switch (nr) {
	case LKST_IOC_MASKSET_READ:
		((struct lkst_maskset_desc *)buf)->id = pick_maskset(f);
		break;
	case LKST_IOC_MASKSET_WRITE:
		gen_maskset_desc(f, buf);
		break;
	case LKST_IOC_MASKSET_CONFIG: {
		struct lkst_maskset_entry *e = buf;

		e->id = pick_maskset(f);
		e->event = pick_event(f);
		e->handler = pick_handler(f);
		e->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_MASKSET_SET:
	case LKST_IOC_MASKSET_DELETE:
		*(uint32_t *)buf = pick_maskset(f);
		break;
	case LKST_IOC_HANDLER_INFO: {
		struct lkst_handler_desc *h = buf;

		h->id = chance(f, 70) ? below(f, 4) : pick_handler(f);
		h->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_HANDLER_CTL: {
		struct lkst_handler_ctl *h = buf;

		/* Built-in handlers take no commands: EOPNOTSUPP or ENOENT. */
		h->handler = chance(f, 70) ? below(f, 4) : pick_handler(f);
		h->data = chance(f, 50) ? 0 : (uintptr_t)bad_pointer(f);
		h->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_EVENT_STAT: {
		struct lkst_event_stat *s = buf;

		s->event = pick_event(f);
		s->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_CPU_INFO:
		((struct lkst_cpu_info *)buf)->cpu = pick_cpu(f);
		break;
	case LKST_IOC_BLOCK_INFO: {
		struct lkst_block_info *b = buf;

		b->cpu = pick_cpu(f);
		b->block = pick_block(f);
		b->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_BLOCK_READ: {
		struct lkst_block_read *r = buf;

		r->cpu = pick_cpu(f);
		r->block = pick_block(f);
		r->records = pick_array(f, f->recs_end, sizeof(struct lkst_record),
					NR_RECS, &room);
		r->max_records = chance(f, 60) ? room : pick_count(f);
		break;
	}
	case LKST_IOC_BLOCK_CREATE: {
		struct lkst_block_create *b = buf;

		b->cpu = pick_cpu(f);
		b->size = pick_size(f);
		b->next = chance(f, 50) ? LKST_NO_NEXT : pick_block(f);
		break;
	}
	case LKST_IOC_BLOCK_LINK:
	case LKST_IOC_BLOCK_DELETE:
	case LKST_IOC_BLOCK_JUMP: {
		struct lkst_block_link *l = buf;

		l->cpu = pick_cpu(f);
		l->block = pick_block(f);
		if (nr == LKST_IOC_BLOCK_LINK)
			l->next = chance(f, 40) ? LKST_NO_NEXT : pick_block(f);
		else
			l->next = chance(f, 85) ? 0 : interesting_u32(f);
		l->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_BUFFER_DRAIN: {
		struct lkst_buffer_drain *d = buf;

		d->cpu = pick_cpu(f);
		d->cursor = chance(f, 50) ? 0 : chance(f, 50) ? rnd(f) % 100000 : rnd(f);
		d->records = pick_array(f, f->recs_end, sizeof(struct lkst_record),
					NR_RECS, &room);
		d->seqs = pick_array(f, f->seqs_end, sizeof(uint64_t), PAGE / 8, &room2);
		d->max_records = chance(f, 60) ? (room < room2 ? room : room2) : pick_count(f);
		break;
	}
	case LKST_IOC_BUFFER_MODE: {
		struct lkst_buffer_mode *m = buf;

		m->cpu = chance(f, 30) ? LKST_ALL_CPUS : pick_cpu(f);
		m->mode = chance(f, 80) ? below(f, 2) : interesting_u32(f);
		break;
	}
	case LKST_IOC_BUFFER_RESIZE: {
		struct lkst_buffer_resize *r = buf;

		r->size = pick_size(f);
		r->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	default:	/* out-only structs, MARK text, no argument: random */
		break;
	}
	if (chance(f, 10)) {
		unsigned int flips = 1 + below(f, 4);

		while (size && flips--)
			((unsigned char *)buf)[below(f, size)] ^= 1u << below(f, 8);
	} else if (chance(f, 5)) {
		fill_random(f, buf, size);
	}
}

/*
 * Applied last, whatever the generator and mutations made: no request may
 * allocate more than SMALL_SIZE per block, and requests that would succeed
 * slowly go through only when their gate is open.
 */
static void bound_struct(struct fuzzer *f, unsigned int c, void *buf)
{
	unsigned long nr = cmds[c].nr;

	switch (nr) {
	case LKST_IOC_BUFFER_RESIZE: {
		struct lkst_buffer_resize *r = buf;

		if (!r->__pad && r->size >= LKST_BLOCK_MIN_SIZE &&
		    r->size <= LKST_BLOCK_MAX_SIZE &&
		    (r->size > SMALL_SIZE || !gate_open(f, G_RESIZE)))
			r->size = r->size % LKST_BLOCK_MIN_SIZE;
		break;
	}
	case LKST_IOC_BLOCK_CREATE: {
		struct lkst_block_create *b = buf;

		if (b->size >= LKST_BLOCK_MIN_SIZE && b->size <= LKST_BLOCK_MAX_SIZE &&
		    (b->size > SMALL_SIZE || !gate_open(f, G_CREATE)))
			b->size = b->size % LKST_BLOCK_MIN_SIZE;
		break;
	}
	case LKST_IOC_MASKSET_SET:
		if (*(uint32_t *)buf < LKST_MAX_MASKSETS && !gate_open(f, G_SET))
			*(uint32_t *)buf += LKST_MAX_MASKSETS;
		break;
	case LKST_IOC_MASKSET_DELETE:
		if (*(uint32_t *)buf >= LKST_MASKSET_FIRST_USER &&
		    *(uint32_t *)buf < LKST_MAX_MASKSETS && !gate_open(f, G_MS_DELETE))
			*(uint32_t *)buf += LKST_MAX_MASKSETS;
		break;
	case LKST_IOC_MASKSET_WRITE:
	case LKST_IOC_MASKSET_CONFIG: {
		uint32_t *id = buf;	/* first field of both */

		/* Changing the active maskset flips static keys: slow. */
		if (*id >= LKST_MASKSET_FIRST_USER && *id == atomic_load(&active_maskset) &&
		    !gate_open(f, G_MS_ACTIVE))
			*id += LKST_MAX_MASKSETS;
		break;
	}
	case LKST_IOC_BLOCK_DELETE:
	case LKST_IOC_BLOCK_JUMP: {
		struct lkst_block_link *l = buf;

		if (valid_cpu(l->cpu) &&
		    !gate_open(f, nr == LKST_IOC_BLOCK_JUMP ? G_JUMP : G_BLK_DELETE))
			l->cpu = bad_cpu(l->cpu);
		break;
	}
	case LKST_IOC_BLOCK_READ:
	case LKST_IOC_BUFFER_DRAIN: {
		uint32_t *cpu = buf;	/* first field of both */

		if (valid_cpu(*cpu) && !gate_open(f, G_SCAN))
			*cpu = bad_cpu(*cpu);
		break;
	}
	default:
		break;
	}
}

/* A command number the driver does not know: ours with another size or
 * direction or number, or another type that no generic ioctl uses. */
static unsigned long unknown_cmd(struct fuzzer *f)
{
	static const unsigned char generic_types[] = { 0x00, 0x15, 'T', 'X', 'f', 0x94 };
	unsigned long nr;
	unsigned int i, type;

	for (;;) {
		type = LKST_IOC_MAGIC;
		if (chance(f, 20)) {
			type = below(f, 256);
			for (i = 0; i < sizeof(generic_types); i++)
				if (type == generic_types[i])
					type = LKST_IOC_MAGIC;
		}
		if (chance(f, 50))	/* a real command with another size/dir */
			nr = _IOC(below(f, 4), type, _IOC_NR(cmds[below(f, NR_CMDS)].nr),
				  below(f, 1u << _IOC_SIZEBITS));
		else
			nr = _IOC(below(f, 4), type, below(f, 256), below(f, 1u << _IOC_SIZEBITS));
		for (i = 0; i < NR_CMDS; i++)
			if (nr == cmds[i].nr)
				break;
		if (i == NR_CMDS)
			return nr;
	}
}

static int errno_documented(int e)
{
	switch (e) {
	case EINVAL: case ENOENT: case EROFS: case EBUSY: case ENOSPC:
	case ENOMEM: case EFAULT: case EOPNOTSUPP:
		return 1;
	default:
		return 0;
	}
}

/*
 * States a run may meet: persistent buffers (lkst.persist= on the command
 * line), whose resize and delete the kernel refuses, and lockdown raised
 * by another process mid-run, after which reading records and adding
 * probes are refused on descriptors already open, and opening fails.
 */
static int persistent;
static atomic_ulong lockdown_refusals, persistent_refusals;

/* Whether the first line of @path holds @what. */
static int first_line_has(const char *path, const char *what)
{
	char line[4096] = "";
	FILE *fp = fopen(path, "r");

	if (fp) {
		if (!fgets(line, sizeof(line), fp))
			line[0] = 0;
		fclose(fp);
	}
	return strstr(line, what) != NULL;
}

static int locked_down(void)
{
	return first_line_has("/sys/kernel/security/lockdown", "[confidentiality]");
}

static int read_persistent(void)
{
	return first_line_has("/proc/cmdline", "lkst.persist=");
}

/* EPERM as the state documents it (lkst_ioctl.h), counted. */
static int eperm_documented(unsigned long nr)
{
	if (persistent && (nr == LKST_IOC_BUFFER_RESIZE || nr == LKST_IOC_BLOCK_DELETE)) {
		atomic_fetch_add(&persistent_refusals, 1);
		return 1;
	}
	if ((nr == LKST_IOC_BLOCK_READ || nr == LKST_IOC_BUFFER_DRAIN ||
	     nr == LKST_IOC_PREVIOUS_DRAIN || nr == LKST_IOC_PROBE_ADD) && locked_down()) {
		atomic_fetch_add(&lockdown_refusals, 1);
		return 1;
	}
	return 0;
}

static void report_unexpected(struct fuzzer *f, const char *what, unsigned long nr,
			      enum place p, long ret, int e)
{
	f->unexpected++;
	if (atomic_fetch_add(&unexpected_printed, 1) < 30)
		printf("FAIL thread %u call %lu: %s (cmd 0x%lx, %s argument) returned %ld, %s\n",
		       f->id, f->calls, what, nr, place_name[p], ret, ret < 0 ? strerror(e) : "");
}

static void reopen(struct fuzzer *f)
{
	int fd = open(LKST_DEVICE, chance(f, 50) ? O_RDWR : O_RDONLY);

	/* Under lockdown the device no longer opens: go on with the old one. */
	if (fd < 0 && errno == EPERM && f->fd >= 0 && locked_down())
		return;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = fd;
	if (f->fd < 0) {
		printf("FAIL thread %u: open %s: %s\n", f->id, LKST_DEVICE, strerror(errno));
		f->unexpected++;
	}
}

static void one_call(struct fuzzer *f)
{
	/* Room for the largest argument: struct lkst_event_desc is 568 bytes. */
	unsigned char sbuf[2048];
	unsigned int c = below(f, NR_CMDS + 1);
	unsigned long nr = c < NR_CMDS ? cmds[c].nr : unknown_cmd(f);
	size_t size = c < NR_CMDS ? _IOC_SIZE(nr) : sizeof(sbuf) / 2;
	unsigned int r = below(f, 100);
	enum place p = r < 70 ? P_NORMAL : r < 76 ? P_MISALIGN : r < 82 ? P_READONLY :
		       r < 90 ? P_TRUNC : P_BAD;
	uintptr_t arg;
	long ret;
	int e;

	if (size > sizeof(sbuf)) {
		printf("FAIL: %s takes %zu bytes, the fuzzer has room for %zu\n",
		       cmds[c].name, size, sizeof(sbuf));
		f->unexpected++;
		return;
	}
	if (size < 2 && p == P_TRUNC)
		p = P_NORMAL;
	gen_struct(f, c, sbuf, size);
	if (c < NR_CMDS)
		bound_struct(f, c, sbuf);
	switch (p) {
	case P_MISALIGN: {
		size_t off = (1 + below(f, 7)) + 8 * below(f, (PAGE - size) / 8 - 1);

		memcpy(f->arena + off, sbuf, size);
		arg = (uintptr_t)f->arena + off;
		break;
	}
	case P_READONLY:
		memcpy(f->rw_view, sbuf, size);
		arg = (uintptr_t)f->ro_view;
		break;
	case P_TRUNC: {
		size_t keep = 1 + below(f, size - 1);	/* bytes before the guard page */

		memcpy(f->arena + PAGE - keep, sbuf, keep);
		arg = (uintptr_t)f->arena + PAGE - keep;
		break;
	}
	case P_BAD:
		arg = bad_pointer(f);
		break;
	default:
		memcpy(f->arena, sbuf, size);
		arg = (uintptr_t)f->arena;
		break;
	}

	ret = ioctl(f->fd, nr, arg);
	e = errno;
	f->calls++;
	f->cmd_calls[c]++;
	if (ret == 0)
		f->cmd_ok[c]++;
	else if (ret == -1 && e > 0 && e <= MAX_ERRNO)
		f->err[e]++;

	if (c == CMD_UNKNOWN) {
		if (ret != -1 || e != ENOTTY)
			report_unexpected(f, "unknown command", nr, p, ret, e);
		return;
	}
	/* Asked before the argument is read: it may come first. */
	if (ret == -1 && e == EPERM && eperm_documented(nr))
		return;
	if (ret != 0 && (ret != -1 || !errno_documented(e))) {
		report_unexpected(f, cmds[c].name, nr, p, ret, e);
		return;
	}
	/* Every command with an argument reads or writes all of it. */
	if ((p == P_BAD || p == P_TRUNC) && _IOC_SIZE(nr) &&
	    (ret != -1 || e != EFAULT)) {
		report_unexpected(f, cmds[c].name, nr, p, ret, e);
		return;
	}
	if (ret == 0 && nr == LKST_IOC_MASKSET_SET)
		atomic_store(&active_maskset, *(uint32_t *)sbuf);
	if (ret == 0 && nr == LKST_IOC_GET_VERSION && p == P_NORMAL) {
		struct lkst_version *v = (struct lkst_version *)f->arena;

		if (v->abi_version != LKST_ABI_VERSION || v->record_size != LKST_RECORD_SIZE ||
		    v->nr_cpu_ids != nr_cpu_ids || v->__pad)
			report_unexpected(f, "GET_VERSION contents", nr, p, ret, 0);
	}
}

static void *fuzz_main(void *arg)
{
	struct fuzzer *f = arg;

	f->fd = -1;
	reopen(f);
	while (f->calls < f->todo && f->fd >= 0) {
		one_call(f);
		if (f->calls % REOPEN_EVERY == 0)
			reopen(f);
	}
	if (f->fd >= 0)
		close(f->fd);
	return NULL;
}

static void *map_or_die(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("lkst_fuzz: mmap");
		exit(2);
	}
	return p;
}

/* A page of data, then a page that faults: structs cut off at its end. */
static unsigned char *guarded(size_t pages)
{
	unsigned char *p = map_or_die((pages + 1) * PAGE, PROT_READ | PROT_WRITE);

	if (mprotect(p + pages * PAGE, PAGE, PROT_NONE)) {
		perror("lkst_fuzz: mprotect");
		exit(2);
	}
	return p;
}

static void setup_fuzzer(struct fuzzer *f, unsigned int id, unsigned long todo)
{
	int memfd = memfd_create("lkst_fuzz", 0);

	f->id = id;
	f->todo = todo;
	f->rng = seed ^ ((uint64_t)(id + 1) << 40);
	splitmix(&f->rng);
	f->arena = guarded(1);
	f->recs_end = guarded(REC_PAGES) + REC_PAGES * PAGE;
	f->seqs_end = guarded(1) + PAGE;
	if (memfd < 0 || ftruncate(memfd, PAGE)) {
		perror("lkst_fuzz: memfd");
		exit(2);
	}
	f->rw_view = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	f->ro_view = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, memfd, 0);
	if (f->rw_view == MAP_FAILED || f->ro_view == MAP_FAILED) {
		perror("lkst_fuzz: mmap memfd");
		exit(2);
	}
	close(memfd);
}

static int set_cpu1_online(int online)
{
	int fd = open(HOTPLUG_FILE, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, online ? "1\n" : "0\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static unsigned long hotplug_cycles, hotplug_errors;

/* CPU 1 off and on while the fuzzers run; short pauses let them progress. */
static void *hotplug_main(void *arg)
{
	int ret;

	(void)arg;
	while (!atomic_load(&stop_hotplug)) {
		ret = set_cpu1_online(0);
		if (!ret) {
			sleep_ms(20);
			ret = set_cpu1_online(1);
		}
		if (ret) {
			printf("FAIL cpu1 hotplug: %s\n", strerror(-ret));
			hotplug_errors++;
			set_cpu1_online(1);
			break;
		}
		hotplug_cycles++;
		sleep_ms(100);
	}
	return NULL;
}

/* ---- the tracer's state before the run, put back after it ---- */

struct saved_state {
	unsigned int active;
	unsigned int nr_cpus;
	uint32_t block0_size[MAX_THREADS];
	uint32_t mode[MAX_THREADS];
	int has_blocks[MAX_THREADS];
	int ms_used[LKST_MAX_MASKSETS];
	struct lkst_maskset_desc ms[LKST_MAX_MASKSETS];
};

static struct saved_state saved;

static int save_state(int fd)
{
	struct lkst_version v = { 0 };
	unsigned int cpu, id;

	if (ioctl(fd, LKST_IOC_GET_VERSION, &v)) {
		perror("lkst_fuzz: GET_VERSION");
		return -1;
	}
	saved.active = v.active_maskset;
	saved.nr_cpus = v.nr_cpu_ids < MAX_THREADS ? v.nr_cpu_ids : MAX_THREADS;
	for (cpu = 0; cpu < saved.nr_cpus; cpu++) {
		struct lkst_cpu_info ci = { .cpu = cpu };
		struct lkst_block_info bi = { .cpu = cpu, .block = 0 };

		if (ioctl(fd, LKST_IOC_CPU_INFO, &ci) || !ci.nr_blocks)
			continue;
		saved.has_blocks[cpu] = 1;
		saved.mode[cpu] = ci.mode;
		saved.block0_size[cpu] = ioctl(fd, LKST_IOC_BLOCK_INFO, &bi) ? 512 << 10 : bi.size;
	}
	for (id = LKST_MASKSET_FIRST_USER; id < LKST_MAX_MASKSETS; id++) {
		saved.ms[id].id = id;
		saved.ms_used[id] = !ioctl(fd, LKST_IOC_MASKSET_READ, &saved.ms[id]);
		saved.ms[id].flags = 0;
	}
	return 0;
}

static int restore_failures;

static void restore_step(const char *what, int ret, int ok_errno)
{
	if (ret && errno != ok_errno) {
		printf("FAIL restore: %s: %s\n", what, strerror(errno));
		restore_failures++;
	}
}

/*
 * The saved maskset active (a system one first, the user ones as they
 * were), every CPU back to block 0 alone at its saved size and mode.
 */
static int restore_state(int fd)
{
	uint32_t id, sys = saved.active < LKST_MASKSET_FIRST_USER ? saved.active :
					       LKST_MASKSET_RDEFAULT;
	struct lkst_buffer_resize rs = { .size = 0 };
	unsigned int cpu, b;
	char what[64];

	restore_step("MASKSET_SET system", ioctl(fd, LKST_IOC_MASKSET_SET, &sys), 0);
	for (id = LKST_MASKSET_FIRST_USER; id < LKST_MAX_MASKSETS; id++) {
		snprintf(what, sizeof(what), "maskset %u", id);
		if (saved.ms_used[id])
			restore_step(what, ioctl(fd, LKST_IOC_MASKSET_WRITE, &saved.ms[id]), 0);
		else
			restore_step(what, ioctl(fd, LKST_IOC_MASKSET_DELETE, &id), ENOENT);
	}
	if (saved.active >= LKST_MASKSET_FIRST_USER)
		restore_step("MASKSET_SET user",
			     ioctl(fd, LKST_IOC_MASKSET_SET, &saved.active), 0);
	for (cpu = 0; cpu < saved.nr_cpus; cpu++) {
		struct lkst_block_info bi = { .cpu = cpu, .block = 0 };
		struct lkst_block_link l = { .cpu = cpu, .block = 0, .next = 0 };
		struct lkst_buffer_mode m = { .cpu = cpu, .mode = saved.mode[cpu] };

		if (!saved.has_blocks[cpu])
			continue;
		if (!rs.size)
			rs.size = saved.block0_size[cpu];
		if (ioctl(fd, LKST_IOC_BLOCK_INFO, &bi)) {
			/* deleted: the lowest free ID is 0 again */
			struct lkst_block_create bc = {
				.cpu = cpu, .size = saved.block0_size[cpu], .next = LKST_NO_NEXT,
			};

			restore_step("BLOCK_CREATE 0", ioctl(fd, LKST_IOC_BLOCK_CREATE, &bc), 0);
			if (bc.block != 0) {
				printf("FAIL restore: cpu %u: new block is %u, not 0\n", cpu, bc.block);
				restore_failures++;
			}
		}
		restore_step("BLOCK_JUMP 0", ioctl(fd, LKST_IOC_BLOCK_JUMP, &l), 0);
		for (b = 1; b < LKST_MAX_BLOCKS; b++) {
			l.block = b;
			restore_step("BLOCK_DELETE", ioctl(fd, LKST_IOC_BLOCK_DELETE, &l), ENOENT);
		}
		l.block = 0;
		l.next = LKST_NO_NEXT;
		restore_step("BLOCK_LINK 0", ioctl(fd, LKST_IOC_BLOCK_LINK, &l), 0);
		restore_step("BUFFER_MODE", ioctl(fd, LKST_IOC_BUFFER_MODE, &m), 0);
	}
	if (rs.size)
		restore_step("BUFFER_RESIZE", ioctl(fd, LKST_IOC_BUFFER_RESIZE, &rs),
			     persistent ? EPERM : 0);
	return restore_failures;
}

/* Which IDs are events: RALL routes exactly those. */
static void read_known_events(int fd)
{
	struct lkst_maskset_desc d = { .id = LKST_MASKSET_RALL };
	unsigned int e;

	if (ioctl(fd, LKST_IOC_MASKSET_READ, &d))
		return;
	for (e = 0; e < LKST_NR_EVENT_IDS; e++) {
		if (d.handler[e] != LKST_HANDLER_NOTHING)
			known_list[nr_known++] = e;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long calls = 1000000, total = 0, unexpected = 0, sum, ok;
	unsigned int threads = 4, i, c;
	int opt, hotplug = 1, fd, failed;
	pthread_t hp;
	double t0, t1;

	while ((opt = getopt(argc, argv, "s:n:t:H")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': calls = strtoul(optarg, NULL, 0); break;
		case 't': threads = atoi(optarg); break;
		case 'H': hotplug = 0; break;
		default:
			fprintf(stderr, "usage: lkst_fuzz [-s SEED] [-n CALLS] [-t THREADS] [-H]\n");
			return 2;
		}
	}
	if (!threads || threads > MAX_THREADS) {
		fprintf(stderr, "lkst_fuzz: -t must be 1 to %d\n", MAX_THREADS);
		return 2;
	}
	fd = open(LKST_DEVICE, O_RDWR);
	if (fd < 0 || save_state(fd)) {
		perror("lkst_fuzz: " LKST_DEVICE);
		return 2;
	}
	nr_cpu_ids = saved.nr_cpus;
	atomic_store(&active_maskset, saved.active);
	read_known_events(fd);
	/* An address that is certainly not mapped. */
	unmapped_addr = (uintptr_t)map_or_die(PAGE, PROT_READ);
	munmap((void *)unmapped_addr, PAGE);
	if (hotplug && access(HOTPLUG_FILE, W_OK)) {
		printf("no %s: fuzzing without CPU hotplug\n", HOTPLUG_FILE);
		hotplug = 0;
	}
	if (!hotplug)
		read_offline_cpus();
	persistent = read_persistent();
	printf("seed 0x%llx calls %lu threads %u hotplug %s cpus %u events %u\n",
	       (unsigned long long)seed, calls, threads, hotplug ? "on" : "off",
	       nr_cpu_ids, nr_known);
	fflush(stdout);

	t0 = now();
	for (i = 0; i < threads; i++) {
		setup_fuzzer(&fuzzers[i], i, calls / threads + (i == 0 ? calls % threads : 0));
		if (pthread_create(&fuzzers[i].thread, NULL, fuzz_main, &fuzzers[i])) {
			perror("lkst_fuzz: pthread_create");
			return 2;
		}
	}
	if (hotplug && pthread_create(&hp, NULL, hotplug_main, NULL)) {
		perror("lkst_fuzz: pthread_create");
		return 2;
	}
	for (i = 0; i < threads; i++)
		pthread_join(fuzzers[i].thread, NULL);
	atomic_store(&stop_hotplug, 1);
	if (hotplug)
		pthread_join(hp, NULL);
	t1 = now();

	for (c = 0; c <= NR_CMDS; c++) {
		for (i = sum = ok = 0; i < threads; i++) {
			sum += fuzzers[i].cmd_calls[c];
			ok += fuzzers[i].cmd_ok[c];
		}
		printf("cmd %-16s calls %8lu ok %8lu\n",
		       c < NR_CMDS ? cmds[c].name : "(unknown)", sum, ok);
	}
	for (c = 1; c <= MAX_ERRNO; c++) {
		for (i = sum = 0; i < threads; i++)
			sum += fuzzers[i].err[c];
		if (sum)
			printf("errno %-10s %8lu  %s\n", strerrorname_np(c) ? strerrorname_np(c) : "?",
			       sum, strerror(c));
	}
	for (i = 0; i < threads; i++) {
		total += fuzzers[i].calls;
		unexpected += fuzzers[i].unexpected;
	}
	failed = restore_state(fd);
	close(fd);
	printf("hotplug_cycles %lu\n", hotplug_cycles);
	printf("fuzz_seconds %.1f\n", t1 - t0);
	printf("fuzz_rate %.0f\n", t1 > t0 ? total / (t1 - t0) : 0.0);
	printf("unexpected_answers %lu\n", unexpected);
	printf("offline_cpu_requests %lu\n", atomic_load(&offline_cpu_requests));
	printf("persistent_refusals %lu\n", atomic_load(&persistent_refusals));
	printf("lockdown_refusals %lu\n", atomic_load(&lockdown_refusals));
	printf("fuzz_calls %lu\n", total);
	return unexpected || hotplug_errors || failed || total != calls;
}
