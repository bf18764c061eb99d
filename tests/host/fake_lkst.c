// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD stand-in for /dev/lkst, so the device verbs of lkm and lkbuf
 * can be tested on the host: masksets, handlers, two CPUs with blocks,
 * per-event counters and marks (the last mark's 48 bytes are copied to
 * $FAKE_LKST_STATE.mark for the tests to inspect).
 * State lives in the file named by $FAKE_LKST_STATE, so it persists
 * across commands of one test.
 *
 * Each CPU's buffer holds the newest records numbered below next_seq, as
 * many as its blocks' nr say; record n has time 1000 * (n + 1) + cpu and
 * arg[0] n.  Every BUFFER_DRAIN first writes $FAKE_LKST_RATE more records
 * (default 0), so `lkbuf record` sees a buffer that fills and overwrites.
 *
 * A previous boot's trace (PREVIOUS_*) of 3 CPUs is kept until released:
 * see prev_* below.  $FAKE_LKST_PREVIOUS: unset, kept without saved
 * counts; "panic", with them; "none", none kept (ENOENT).
 * $FAKE_LKST_PREVIOUS_FAIL=CPU makes that CPU's PREVIOUS_DRAIN fail with
 * EIO.  RELEASE writes to $FAKE_LKST_STATE.release whether the files
 * $FAKE_LKST_LOG and $FAKE_LKST_LOG.tmp exist at that moment.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LKST_EVENT_TABLES
#include <linux/lkst_ioctl.h>

#define NR_CPUS 2

struct fake_block {
	int used;
	__u32 size, next;
	__u64 nr;			/* records in it */
};

struct fake_state {
	int initialized;
	__u32 active;
	struct lkst_maskset_desc ms[LKST_MAX_MASKSETS];
	int ms_used[LKST_MAX_MASKSETS];
	struct fake_block blocks[NR_CPUS][LKST_MAX_BLOCKS];
	__u64 hits[LKST_NR_EVENT_IDS], dropped[LKST_NR_EVENT_IDS];
	__u64 next_seq[NR_CPUS];
	__u32 mode[NR_CPUS];
	int prev_released;
};

static struct fake_state st;
static int fake_fd = -1;

static const char *state_path(void)
{
	const char *p = getenv("FAKE_LKST_STATE");

	return p ? p : "/tmp/fake_lkst.state";
}

static void load(void)
{
	FILE *f = fopen(state_path(), "rb");

	if (f) {
		if (fread(&st, sizeof(st), 1, f) != 1)
			memset(&st, 0, sizeof(st));
		fclose(f);
	}
	if (st.initialized)
		return;
	memset(&st, 0, sizeof(st));
	st.initialized = 1;
	for (int i = 0; i < 3; i++) {
		st.ms_used[i] = 1;
		st.ms[i].id = i;
		st.ms[i].flags = LKST_MS_SYSTEM;
		memset(st.ms[i].handler, LKST_HANDLER_NOTHING, LKST_NR_EVENT_IDS);
	}
	strcpy(st.ms[0].name, "rnothing");
	strcpy(st.ms[1].name, "rdefault");
	strcpy(st.ms[2].name, "rall");
	st.ms[1].handler[1] = st.ms[1].handler[2] = 1;
	st.ms[2].handler[1] = st.ms[2].handler[2] = st.ms[2].handler[0x30] =
		st.ms[2].handler[0x31] = 1;
	st.blocks[0][0] = (struct fake_block){ 1, 4096, LKST_NO_NEXT, 3 };
	st.blocks[1][0] = (struct fake_block){ 1, 8192, 1, 2 };
	st.blocks[1][1] = (struct fake_block){ 1, 8192, 0, 0 };
	st.next_seq[0] = 3;
	st.next_seq[1] = 2;
	st.hits[0x01] = 12;
	st.hits[0x30] = 50;
	st.dropped[0x30] = 2;
}

static void save(void)
{
	FILE *f = fopen(state_path(), "wb");

	fwrite(&st, sizeof(st), 1, f);
	fclose(f);
}

static int handler_ok(unsigned int h)
{
	return h == 1 || h == 7 || h == LKST_HANDLER_NOTHING;
}

static int maskset_ioctl(unsigned long cmd, void *arg)
{
	struct lkst_maskset_desc *d = arg;
	struct lkst_maskset_entry *e = arg;
	__u32 id = *(__u32 *)arg;

	if (id >= LKST_MAX_MASKSETS)
		return EINVAL;
	switch (cmd) {
	case LKST_IOC_MASKSET_READ:
		if (!st.ms_used[id])
			return ENOENT;
		*d = st.ms[id];
		d->flags |= id == st.active ? LKST_MS_ACTIVE : 0;
		return 0;
	case LKST_IOC_MASKSET_WRITE:
		if (id < 3)
			return EROFS;
		for (int i = 0; i < LKST_NR_EVENT_IDS; i++)
			if (!handler_ok(d->handler[i]))
				return EINVAL;
		st.ms[id] = *d;
		st.ms_used[id] = 1;
		return 0;
	case LKST_IOC_MASKSET_CONFIG:
		if (id < 3)
			return EROFS;
		if (!st.ms_used[id])
			return ENOENT;
		if (e->event >= LKST_NR_EVENT_IDS || !handler_ok(e->handler))
			return EINVAL;
		st.ms[id].handler[e->event] = e->handler;
		return 0;
	case LKST_IOC_MASKSET_SET:
		if (!st.ms_used[id])
			return ENOENT;
		st.active = id;
		return 0;
	case LKST_IOC_MASKSET_DELETE:
		if (id < 3)
			return EROFS;
		if (!st.ms_used[id])
			return ENOENT;
		if (id == st.active)
			return EBUSY;
		st.ms_used[id] = 0;
		return 0;
	}
	return ENOTTY;
}

static int is_event(__u32 id)
{
	for (unsigned int i = 0; i < LKST_NR_EVENTS; i++)
		if (lkst_event_table[i].id == id)
			return 1;
	return 0;
}

/* Like the kernel: counted only when the active maskset routes USER_MARK. */
static int mark_ioctl(const struct lkst_mark *m)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.mark", state_path());
	f = fopen(path, "wb");
	if (!f)
		return EIO;
	fwrite(m->text, sizeof(m->text), 1, f);
	fclose(f);
	if (st.ms[st.active].handler[LKST_EV_USER_MARK] != LKST_HANDLER_NOTHING)
		st.hits[LKST_EV_USER_MARK]++;
	return 0;
}

/* FAKE_LKST_PIDS=A,B: records by these pids in turn (a live one's name is read). */
static __u32 fake_pid(__u64 seq)
{
	const char *list = getenv("FAKE_LKST_PIDS");
	unsigned long pids[8];
	unsigned int n = 0;
	char *end;

	while (list && *list && n < 8) {
		pids[n++] = strtoul(list, &end, 10);
		list = *end == ',' ? end + 1 : end + strlen(end);
	}
	return n ? pids[seq % n] : 100 + seq % 50;
}

/*
 * FAKE_LKST_STACKS=N: every Nth record is a STACK_KERNEL whose 5 frames
 * are 5 new addresses in turn of FAKE_LKST_STACK_SYMS (default 4096)
 * functions 0x100 apart from 0xffffffff81000000, into a kallsyms given as
 * FAKE_LKST_KALLSYMS (see fopen below).
 */
#define FAKE_STACK_BASE	0xffffffff81000000ull

static void fake_stack(struct lkst_record *r, __u64 seq)
{
	const char *every = getenv("FAKE_LKST_STACKS");
	const char *syms = getenv("FAKE_LKST_STACK_SYMS");
	__u64 n = every ? strtoull(every, NULL, 0) : 0;
	__u64 nr_syms = syms ? strtoull(syms, NULL, 0) : 4096;

	if (!n || seq % n || !nr_syms)
		return;
	r->event = LKST_EV_STACK_KERNEL;
	for (int i = 1; i < LKST_NR_ARGS; i++)
		r->arg[i] = FAKE_STACK_BASE + ((seq / n * 5 + i) % nr_syms) * 0x100 + 0x10;
}

static void fake_record(struct lkst_record *r, __u64 seq, __u32 cpu)
{
	memset(r, 0, sizeof(*r));
	r->time_ns = 1000 * (seq + 1) + cpu;
	r->pid = fake_pid(seq);
	r->event = 0x31;
	r->context = cpu;
	r->arg[0] = seq;
	r->arg[1] = -(__s64)seq;
	fake_stack(r, seq);
}

static int drain_ioctl(struct lkst_buffer_drain *d)
{
	const char *rate = getenv("FAKE_LKST_RATE");
	struct lkst_record *r = (void *)(unsigned long)d->records;
	__u64 *seqs = (void *)(unsigned long)d->seqs;
	__u64 held = 0, capacity = 0, seq, first;

	if (d->cpu >= NR_CPUS)
		return EINVAL;
	st.next_seq[d->cpu] += rate ? strtoull(rate, NULL, 0) : 0;
	for (int i = 0; i < LKST_MAX_BLOCKS; i++) {
		if (st.blocks[d->cpu][i].used) {
			held += st.blocks[d->cpu][i].nr;
			capacity += st.blocks[d->cpu][i].size / LKST_PAGE_SIZE *
				    ((LKST_PAGE_SIZE - 32) / 16);
		}
	}
	d->flags = 0;
	d->nr_busy = 0;
	d->nr_records = 0;
	d->next_seq = st.next_seq[d->cpu];
	d->capacity = capacity;
	/* $FAKE_LKST_HELD: a CPU holds that many (a big buffer, many records). */
	if (getenv("FAKE_LKST_HELD"))
		held = strtoull(getenv("FAKE_LKST_HELD"), NULL, 0);
	first = d->next_seq > held ? d->next_seq - held : 0;
	if (first < d->cursor)
		first = d->cursor;
	/* Newest first, as a wrapped block may hand them out. */
	for (seq = d->next_seq; seq-- > first;) {
		if (d->nr_records == d->max_records) {
			d->flags |= LKST_DRAIN_TRUNCATED;
			break;
		}
		fake_record(&r[d->nr_records], seq, d->cpu);
		seqs[d->nr_records++] = seq;
	}
	d->written = d->next_seq;
	d->overwritten = d->cpu ? 4 : 0;
	d->dropped = 0;
	return 0;
}

/*
 * The previous boot had 3 CPUs (this one has 2).  Bit n of prev_kept[cpu]:
 * record n is kept.  cpu 0 wrapped (0 and 1 overwritten), cpu 1 wrote
 * nothing, record 2 of cpu 2 was on the page refused at boot.
 */
#define PREV_CPUS	3
#define PREV_ANCHOR_TRACE_NS	123456789ull
#define PREV_ANCHOR_REALTIME_NS	1700000000987654321ull
static const __u64 prev_next_seq[PREV_CPUS] = { 5, 0, 4 };
static const unsigned int prev_kept[PREV_CPUS] = { 0x1c, 0, 0xb };
static const __u64 prev_saved_overwritten[PREV_CPUS] = { 2, 0, 0 };
static const __u64 prev_saved_dropped[PREV_CPUS] = { 3, 0, 1 };

/* 0 when kept and in the mode $FAKE_LKST_PREVIOUS says; else ENOENT. */
static int prev_mode(int *panic)
{
	const char *mode = getenv("FAKE_LKST_PREVIOUS");

	*panic = mode && !strcmp(mode, "panic");
	return (mode && !strcmp(mode, "none")) || st.prev_released ? ENOENT : 0;
}

static void prev_record(struct lkst_record *r, __u64 seq, __u32 cpu)
{
	memset(r, 0, sizeof(*r));
	r->time_ns = 7000000 + 1000 * seq + cpu;
	r->pid = 200 + seq;
	r->event = 0x31;
	r->context = cpu;
	r->arg[0] = seq;
	r->arg[1] = 0x5eed;
}

static int prev_info_ioctl(struct lkst_previous_info *pi)
{
	int panic, err = prev_mode(&panic);

	if (err)
		return err;
	memset(pi, 0, sizeof(*pi));
	pi->nr_cpus = PREV_CPUS;
	pi->flags = panic ? LKST_PREVIOUS_COUNTS_SAVED : 0;
	pi->clock = LKST_CLOCK_MONOTONIC;
	pi->refused_pages = 1;
	pi->anchor_trace_ns = PREV_ANCHOR_TRACE_NS;
	pi->anchor_realtime_ns = PREV_ANCHOR_REALTIME_NS;
	for (int c = 0; c < PREV_CPUS; c++)
		pi->nr_records += __builtin_popcount(prev_kept[c]);
	return 0;
}

/* Like drain_ioctl: newest first, TRUNCATED when records[] is too small. */
static int prev_drain_ioctl(struct lkst_buffer_drain *d)
{
	const char *fail = getenv("FAKE_LKST_PREVIOUS_FAIL");
	struct lkst_record *r = (void *)(unsigned long)d->records;
	__u64 *seqs = (void *)(unsigned long)d->seqs;
	int panic, err = prev_mode(&panic);
	unsigned int kept;
	__u64 seq;

	if (err)
		return err;
	if (d->cpu >= PREV_CPUS)
		return EINVAL;
	if (fail && strtoul(fail, NULL, 0) == d->cpu)
		return EIO;
	kept = prev_kept[d->cpu];
	d->flags = 0;
	d->nr_busy = 0;
	d->nr_records = 0;
	d->next_seq = prev_next_seq[d->cpu];
	d->capacity = 8;
	for (seq = d->next_seq; seq-- > d->cursor;) {
		if (!(kept & (1u << seq)))
			continue;
		if (d->nr_records == d->max_records) {
			d->flags |= LKST_DRAIN_TRUNCATED;
			break;
		}
		prev_record(&r[d->nr_records], seq, d->cpu);
		seqs[d->nr_records++] = seq;
	}
	d->written = d->next_seq;
	d->overwritten = panic ? prev_saved_overwritten[d->cpu] :
		d->next_seq - __builtin_popcount(kept);
	d->dropped = panic ? prev_saved_dropped[d->cpu] : 0;
	return 0;
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static int prev_release_ioctl(void)
{
	const char *log = getenv("FAKE_LKST_LOG");
	char path[4096], tmp[4096];
	int panic, err = prev_mode(&panic);
	FILE *f;

	if (err)
		return err;
	snprintf(path, sizeof(path), "%s.release", state_path());
	f = fopen(path, "w");
	if (!f)
		return EIO;
	if (log) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", log);
		fprintf(f, "log %s, tmp %s\n", exists(log) ? "present" : "absent",
			exists(tmp) ? "present" : "absent");
	}
	fclose(f);
	st.prev_released = 1;
	return 0;
}

/*
 * BLOCK_DELETE and BLOCK_JUMP took a struct lkst_block_link before they had
 * structs of their own: the numbers binaries built then use (the x86-64
 * and arm64 encoding) must stay.
 */
#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(LKST_IOC_BLOCK_LINK == 0x4010b934, "BLOCK_LINK number");
_Static_assert(LKST_IOC_BLOCK_DELETE == 0x4010b935, "BLOCK_DELETE number");
_Static_assert(LKST_IOC_BLOCK_JUMP == 0x4010b936, "BLOCK_JUMP number");
#endif

static int block_ioctl(unsigned long cmd, void *arg)
{
	struct lkst_block_info *bi = arg;
	struct lkst_block_read *br = arg;
	struct lkst_block_create *bc = arg;
	struct lkst_block_link *bl = arg;
	struct lkst_block_delete *bd = arg;
	__u32 cpu = *(__u32 *)arg;
	struct fake_block *b;

	if (cmd == LKST_IOC_BUFFER_DRAIN)
		return drain_ioctl(arg);
	if (cmd == LKST_IOC_BUFFER_MODE) {
		struct lkst_buffer_mode *m = arg;

		if (m->mode > LKST_MODE_STOP || (cpu >= NR_CPUS && cpu != LKST_ALL_CPUS))
			return EINVAL;
		for (int c = 0; c < NR_CPUS; c++)
			if (cpu == LKST_ALL_CPUS || cpu == (__u32)c)
				st.mode[c] = m->mode;
		return 0;
	}
	if (cmd == LKST_IOC_BUFFER_RESIZE) {
		struct lkst_buffer_resize *rs = arg;

		if (rs->size < LKST_BLOCK_MIN_SIZE || rs->size > LKST_BLOCK_MAX_SIZE)
			return EINVAL;
		for (int c = 0; c < NR_CPUS; c++) {
			for (int i = 0; i < LKST_MAX_BLOCKS; i++) {
				if (st.blocks[c][i].used) {
					st.blocks[c][i].size = rs->size;
					st.blocks[c][i].nr = 0;
				}
			}
		}
		return 0;
	}
	if (cpu >= NR_CPUS)
		return EINVAL;
	switch (cmd) {
	case LKST_IOC_BLOCK_CREATE:
		for (int i = 0; i < LKST_MAX_BLOCKS; i++) {
			if (st.blocks[cpu][i].used)
				continue;
			st.blocks[cpu][i] = (struct fake_block){ 1, bc->size, bc->next, 0 };
			bc->block = i;
			return 0;
		}
		return ENOSPC;
	}
	if (bi->block >= LKST_MAX_BLOCKS)
		return EINVAL;
	b = &st.blocks[cpu][bi->block];
	if (!b->used)
		return ENOENT;
	switch (cmd) {
	case LKST_IOC_BLOCK_INFO:
		bi->size = b->size;
		bi->nr_pages = b->size / LKST_PAGE_SIZE;
		bi->next = b->next;
		return 0;
	case LKST_IOC_BLOCK_READ: {
		struct lkst_record *r = (void *)(unsigned long)br->records;

		br->nr_records = b->nr < br->max_records ? b->nr : br->max_records;
		for (__u32 i = 0; i < br->nr_records; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].time_ns = 1000 * (i + 1) + cpu;
			r[i].pid = 100 + i;
			r[i].event = 0x31;
			r[i].context = cpu;
			r[i].arg[0] = i;
			r[i].arg[1] = -(__s64)i;
		}
		return 0;
	}
	case LKST_IOC_BLOCK_LINK:
		b->next = bl->next;
		return 0;
	case LKST_IOC_BLOCK_DELETE:
		if (bd->block == 0)
			return EBUSY;
		b->used = 0;
		return 0;
	case LKST_IOC_BLOCK_JUMP:
		return 0;
	}
	return ENOTTY;
}

/*
 * The built-in table, and with FAKE_LKST_PROBE=NAME a dynamic probe NAME
 * at the first probe ID, as a kernel with `lkm probe add NAME ...` has.
 */
static int event_table_ioctl(struct lkst_event_table *t)
{
	struct lkst_event_desc *out = (struct lkst_event_desc *)(uintptr_t)t->descs;
	const char *probe = getenv("FAKE_LKST_PROBE");
	struct lkst_event_desc d;
	unsigned int i, a, n = 0;

	if (t->__pad || t->desc_size != sizeof(d))
		return EINVAL;
	for (i = 0; i <= LKST_NR_EVENTS; i++) {
		memset(&d, 0, sizeof(d));
		if (i < LKST_NR_EVENTS) {
			const struct lkst_event_info *e = &lkst_event_table[i];

			d.id = e->id;
			d.category = e->category;
			snprintf(d.mnemonic, sizeof(d.mnemonic), "%s", e->mnemonic);
			snprintf(d.description, sizeof(d.description), "%s", e->description);
			for (a = 0; a < LKST_NR_ARGS; a++) {
				d.arg_type[a] = e->args[a].type;
				snprintf(d.arg_desc[a], sizeof(d.arg_desc[a]), "%s",
					 e->args[a].desc ? e->args[a].desc : "");
			}
		} else if (probe) {
			d.id = LKST_EV_PROBE_FIRST;
			d.category = LKST_CAT_PROBE;
			d.flags = LKST_EVENT_DYNAMIC;
			snprintf(d.mnemonic, sizeof(d.mnemonic), "%s", probe);
			snprintf(d.description, sizeof(d.description), "kprobe on ksys_read");
			d.arg_type[0] = LKST_ARG_UDEC;
			snprintf(d.arg_desc[0], sizeof(d.arg_desc[0]), "fd=$arg1:u64");
			d.arg_type[1] = LKST_ARG_HEX;
			snprintf(d.arg_desc[1], sizeof(d.arg_desc[1]), "buf=%%si");
		} else {
			break;
		}
		if (n < t->max_descs)
			out[n] = d;
		n++;
	}
	t->nr_descs = n;
	return 0;
}

static int fake_ioctl(unsigned long cmd, void *arg)
{
	switch (cmd) {
	case LKST_IOC_EVENT_TABLE:
		return event_table_ioctl(arg);
	case LKST_IOC_GET_VERSION: {
		struct lkst_version *v = arg;

		*v = (struct lkst_version){ LKST_ABI_VERSION, 64, 256, LKST_NR_EVENTS,
					    NR_CPUS, st.active, LKST_CLOCK_MONOTONIC, 0 };
		return 0;
	}
	case LKST_IOC_CLOCK_ANCHOR:
		((struct lkst_clock_anchor *)arg)->trace_ns = 5;
		((struct lkst_clock_anchor *)arg)->realtime_ns = 6;
		return 0;
	case LKST_IOC_HANDLER_INFO: {
		struct lkst_handler_desc *h = arg;

		if (h->id == 1)
			strcpy(h->name, "default");
		else if (h->id == 7) {
			strcpy(h->name, "counter");
			strcpy(h->module, "lkst_counter");
		} else
			return ENOENT;
		return 0;
	}
	case LKST_IOC_CPU_INFO: {
		struct lkst_cpu_info *c = arg;
		int n = 0;

		if (c->cpu >= NR_CPUS)
			return EINVAL;
		for (int i = 0; i < LKST_MAX_BLOCKS; i++)
			n += st.blocks[c->cpu][i].used;
		c->online = 1;
		c->nr_blocks = n;
		c->current_block = 0;
		/* 64-byte records after the first page's 32-byte head */
		c->current_offset = 32 + 64 * st.blocks[c->cpu][0].nr;
		c->written = 10;
		c->overwritten = c->cpu ? 4 : 0;
		c->dropped = 0;
		c->next_seq = st.next_seq[c->cpu];
		c->mode = st.mode[c->cpu];
		return 0;
	}
	case LKST_IOC_EVENT_STAT: {
		struct lkst_event_stat *es = arg;

		if (es->event >= LKST_NR_EVENT_IDS || es->__pad || !is_event(es->event))
			return EINVAL;
		es->hits = st.hits[es->event];
		es->dropped = st.dropped[es->event];
		return 0;
	}
	case LKST_IOC_EVENT_STAT_RESET:
		memset(st.hits, 0, sizeof(st.hits));
		memset(st.dropped, 0, sizeof(st.dropped));
		return 0;
	case LKST_IOC_MARK:
		return mark_ioctl(arg);
	case LKST_IOC_PREVIOUS_INFO:
		return prev_info_ioctl(arg);
	case LKST_IOC_PREVIOUS_DRAIN:
		return prev_drain_ioctl(arg);
	case LKST_IOC_PREVIOUS_RELEASE:
		return prev_release_ioctl();
	case LKST_IOC_MASKSET_READ: case LKST_IOC_MASKSET_WRITE:
	case LKST_IOC_MASKSET_CONFIG: case LKST_IOC_MASKSET_SET:
	case LKST_IOC_MASKSET_DELETE:
		return maskset_ioctl(cmd, arg);
	default:
		return block_ioctl(cmd, arg);
	}
}

static int is_change(unsigned long cmd)
{
	return cmd == LKST_IOC_MASKSET_WRITE || cmd == LKST_IOC_MASKSET_CONFIG ||
	       cmd == LKST_IOC_MASKSET_SET || cmd == LKST_IOC_MASKSET_DELETE ||
	       cmd == LKST_IOC_BLOCK_CREATE || cmd == LKST_IOC_BLOCK_LINK ||
	       cmd == LKST_IOC_BLOCK_DELETE || cmd == LKST_IOC_BLOCK_JUMP ||
	       cmd == LKST_IOC_EVENT_STAT_RESET || cmd == LKST_IOC_MARK ||
	       cmd == LKST_IOC_BUFFER_MODE || cmd == LKST_IOC_BUFFER_RESIZE ||
	       cmd == LKST_IOC_PREVIOUS_RELEASE ||
	       (cmd == LKST_IOC_BUFFER_DRAIN && getenv("FAKE_LKST_RATE"));
}

int ioctl(int fd, unsigned long cmd, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int err;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != fake_fd) {
		if (!real)
			real = dlsym(RTLD_NEXT, "ioctl");
		return real(fd, cmd, arg);
	}
	load();
	err = fake_ioctl(cmd, arg);
	/* Only changes are saved: a reader in a pipe must not undo a writer. */
	if (!err && is_change(cmd))
		save();
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static int fake_open(const char *path, int flags, mode_t mode, const char *sym)
{
	int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, sym);

	if (!strcmp(path, LKST_DEVICE)) {
		/*
		 * A file of the test's own, next to its state: lkbuf record's
		 * flock() on it then excludes that test's recorders only, not
		 * every test's on the machine, as a lock on /dev/null would.
		 */
		const char *state = getenv("FAKE_LKST_STATE");
		char dev[4096];

		if (state && (size_t)snprintf(dev, sizeof(dev), "%s.dev", state) < sizeof(dev))
			fake_fd = real(dev, O_RDWR | O_CREAT, 0600);
		else
			fake_fd = real("/dev/null", O_RDWR);
		return fake_fd;
	}
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	return fake_open(path, flags, mode, "open");
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	return fake_open(path, flags, mode, "open64");
}

/* FAKE_LKST_KALLSYMS=FILE stands in for /proc/kallsyms. */
static FILE *fake_fopen(const char *path, const char *mode, const char *sym)
{
	FILE *(*real)(const char *, const char *) = dlsym(RTLD_NEXT, sym);
	const char *kallsyms = getenv("FAKE_LKST_KALLSYMS");

	if (kallsyms && !strcmp(path, "/proc/kallsyms"))
		path = kallsyms;
	return real(path, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	return fake_fopen(path, mode, "fopen");
}

FILE *fopen64(const char *path, const char *mode)
{
	return fake_fopen(path, mode, "fopen64");
}
