// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_fuzz's requests: random numbers, values picked near the ABI's
 * boundaries, an argument made for each command and then mutated, the
 * bounds that keep slow requests rare and small, and command numbers the
 * driver does not know.
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
#include "fuzz.h"

static const unsigned int gate_every[NR_GATES] = {
	[G_RESIZE] = 20000, [G_CREATE] = 2000, [G_SET] = 10000,
	[G_MS_DELETE] = 5000, [G_MS_ACTIVE] = 5000, [G_BLK_DELETE] = 2000,
	[G_JUMP] = 200, [G_SCAN] = 2000,
};

uint64_t splitmix(uint64_t *x)
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

unsigned int below(struct fuzzer *f, unsigned int n)
{
	return n ? rnd(f) % n : 0;
}

int chance(struct fuzzer *f, unsigned int percent)
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
atomic_ulong offline_cpu_requests;

void read_offline_cpus(void)
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

uint64_t bad_pointer(struct fuzzer *f)
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
void gen_struct(struct fuzzer *f, unsigned int c, void *buf, size_t size)
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
	case LKST_IOC_BLOCK_LINK: {
		struct lkst_block_link *l = buf;

		l->cpu = pick_cpu(f);
		l->block = pick_block(f);
		l->next = chance(f, 40) ? LKST_NO_NEXT : pick_block(f);
		l->__pad = chance(f, 90) ? 0 : interesting_u32(f);
		break;
	}
	case LKST_IOC_BLOCK_DELETE:
	case LKST_IOC_BLOCK_JUMP: {
		/* struct lkst_block_jump: the same words */
		struct lkst_block_delete *d = buf;

		d->cpu = pick_cpu(f);
		d->block = pick_block(f);
		d->__pad[0] = chance(f, 85) ? 0 : interesting_u32(f);
		d->__pad[1] = chance(f, 90) ? 0 : interesting_u32(f);
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
void bound_struct(struct fuzzer *f, unsigned int c, void *buf)
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
		struct lkst_block_delete *l = buf;	/* or _jump: same words */

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
unsigned long unknown_cmd(struct fuzzer *f)
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
