// SPDX-License-Identifier: GPL-2.0
/*
 * Everything that changes the tracer, at once, under load:
 *
 *   lkst_torture [-c CYCLES] [-s SEED] -o LOG
 *
 * In each cycle these run concurrently, each in its own thread:
 *  - masksets: user masksets 3-6 written with varied routes (some events
 *    to the handler "trigger" while it is loaded), switched between them,
 *    RALL and RDEFAULT, entries changed, 5 and 6 deleted and written again;
 *  - resize: every block of every CPU to 16-256 KiB;
 *  - blocks, one thread per CPU: create, link, jump, delete, mode, and
 *    reads (BLOCK_READ, BUFFER_DRAIN) of the blocks being changed;
 *  - handler: insmod lkst_trigger (firing on getpid() entries: it jumps
 *    to block 1, and in odd cycles also switches to maskset 5 from hook
 *    context), then rmmod while masksets route events to it;
 *  - hotplug: CPU 1 offline and online again;
 * while load processes make system calls, pipe round trips and forks.
 * The slow threads (handler, hotplug) do one round per cycle; the others
 * repeat theirs until those are done.  Every request must succeed or fail
 * only in the ways the race allows (EBUSY deleting the block being
 * written, ENOENT routing to a handler just removed, ...).
 *
 * Then it stops tracing (RNOTHING), saves the buffers with
 * `lkbuf read -f LOG` and counts, per CPU from the kernel's own figures,
 * the records neither held in a block nor counted as overwritten:
 * written - held - overwritten, held being what a drain from 0 returns.
 * Last it puts the tracer back as it found it.  Prints torture_cycles,
 * hotplug_cycles, handler_calls, records_unaccounted; exits non-zero if
 * a request failed unexpectedly or something could not be done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>

#define MAX_CPUS	64
#define NR_LOAD		3
#define MAX_EXTRA	4		/* blocks per CPU besides block 0 */
#define READ_RECS	4096		/* the largest block: 256 KiB */
#define TRIGGER_KO	"/lib/lkst/lkst_trigger.ko"
#define TRIGGER_PARAMS	"/sys/module/lkst_trigger/parameters/"
#define HOTPLUG_FILE	"/sys/devices/system/cpu/cpu1/online"
#define FIRST_MS	3
#define LAST_MS		6
#define SWITCH_MS	5		/* the trigger switches here in odd cycles */

static int fd;
static unsigned int nr_cpus, cycles = 10;
static uint64_t seed = 0x70127e;
static unsigned char known_list[LKST_NR_EVENT_IDS];
static unsigned int nr_known;
static pthread_barrier_t cycle_start, cycle_end;
static atomic_uint slow_done;		/* slow threads through this cycle */
static unsigned int nr_slow;
static atomic_ulong failures;
static unsigned long hotplug_cycles, handler_calls, handler_fired;
static unsigned long rounds[4];		/* maskset, resize, blocks 0 and 1 */
static int have_hotplug;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (atomic_fetch_add(&failures, 1) >= 40)
		return;
	va_start(ap, fmt);
	printf("FAIL ");
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* ioctl that must succeed, or fail with one of the errnos in @ok (0-ended). */
static int req(unsigned long cmd, void *arg, const char *what, const int *ok)
{
	int e;

	if (!ioctl(fd, cmd, arg))
		return 0;
	e = errno;
	for (; ok && *ok; ok++)
		if (*ok == e)
			return -e;
	fail("%s: %s", what, strerrorname_np(e));
	return -e;
}

static const int ok_busy[] = { EBUSY, 0 };
static const int ok_noent[] = { ENOENT, 0 };
static const int ok_busy_noent[] = { EBUSY, ENOENT, 0 };

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(uint64_t *rng, unsigned int n)
{
	return splitmix(rng) % n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Run a program (busybox applets), 0 if it exited 0. */
static int run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static long read_param(const char *name)
{
	char path[128], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), TRIGGER_PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return atol(buf);
}

/* The handler ID of "trigger", or 0 if it is not registered now. */
static unsigned int trigger_id(void)
{
	struct lkst_handler_desc h;
	unsigned int id;

	for (id = LKST_HANDLER_DEFAULT + 1; id < LKST_HANDLER_NOTHING; id++) {
		memset(&h, 0, sizeof(h));
		h.id = id;
		if (!ioctl(fd, LKST_IOC_HANDLER_INFO, &h) && !strcmp(h.name, "trigger"))
			return id;
	}
	return 0;
}

/* The fast threads repeat their round until the slow ones are through. */
static int cycle_going(void)
{
	return atomic_load(&slow_done) < nr_slow;
}

/* ---- masksets ---- */

/* 0, or -ENOENT: the handler went away and the maskset was not written. */
static int write_maskset(uint64_t *rng, unsigned int id, unsigned int trig)
{
	struct lkst_maskset_desc d;
	unsigned int i, n;

	memset(&d, 0, sizeof(d));
	d.id = id;
	snprintf(d.name, sizeof(d.name), "torture%u", id);
	memset(d.handler, LKST_HANDLER_NOTHING, sizeof(d.handler));
	switch (id) {
	case 3:		/* the primary events */
		d.handler[LKST_EV_PROCESS_CONTEXTSWITCH] = LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_PROCESS_WAKEUP] = LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_SYSCALL_ENTRY] = LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_SYSCALL_EXIT] = LKST_HANDLER_DEFAULT;
		break;
	case 4:		/* busy events through the handler while it exists */
		d.handler[LKST_EV_SYSCALL_ENTRY] = trig ? trig : LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_SYSCALL_EXIT] = trig ? trig : LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_PROCESS_CONTEXTSWITCH] = trig ? trig : LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_PROCESS_WAKEUP] = LKST_HANDLER_DEFAULT;
		break;
	default:	/* a random mixture */
		n = 1 + below(rng, 24);
		for (i = 0; i < n; i++)
			d.handler[known_list[below(rng, nr_known)]] =
				trig && below(rng, 3) == 0 ? trig : LKST_HANDLER_DEFAULT;
		d.handler[LKST_EV_SYSCALL_ENTRY] = trig ? trig : LKST_HANDLER_DEFAULT;
		break;
	}
	/* The handler may go between looking it up and this write. */
	return req(LKST_IOC_MASKSET_WRITE, &d, "MASKSET_WRITE", trig ? ok_noent : NULL);
}

static void *maskset_main(void *arg)
{
	static const unsigned int order[] = { 4, LKST_MASKSET_RALL, 3, 5, 4,
					      LKST_MASKSET_RDEFAULT, 6, 4 };
	uint64_t rng = seed ^ 0x3a5c;
	unsigned int c, trig, last_trig = 0;
	uint32_t ms, del;
	char what[48];
	int written;

	(void)arg;
	for (c = 0; c < cycles; c++) {
		pthread_barrier_wait(&cycle_start);
		do {
			/* One switch a round: each flips many static keys. */
			ms = order[below(&rng, 8)];
			trig = trigger_id();
			if (trig != last_trig) {	/* route to it as soon as it is loaded */
				last_trig = trig;
				ms = 4;
			}
			written = ms >= FIRST_MS ? write_maskset(&rng, ms, trig) : 0;
			write_maskset(&rng, FIRST_MS + below(&rng, LAST_MS - FIRST_MS + 1), trig);
			/*
			 * A maskset deleted in an earlier round whose rewrite the
			 * vanishing handler refused does not exist: ENOENT.
			 */
			snprintf(what, sizeof(what), "MASKSET_SET %u", ms);
			req(LKST_IOC_MASKSET_SET, &ms, what, written ? ok_noent : NULL);
			if (trig) {	/* one entry onto and off the handler; 6 may be gone */
				struct lkst_maskset_entry e = {
					.id = 6, .event = LKST_EV_PROCESS_WAKEUP,
					.handler = below(&rng, 2) ? trig : LKST_HANDLER_NOTHING,
				};

				req(LKST_IOC_MASKSET_CONFIG, &e, "MASKSET_CONFIG", ok_noent);
			}
			/*
			 * Active, or the trigger just switched to it: EBUSY;
			 * deleted in an earlier round: ENOENT.
			 */
			del = 5 + below(&rng, 2);
			snprintf(what, sizeof(what), "MASKSET_DELETE %u", del);
			req(LKST_IOC_MASKSET_DELETE, &del, what, ok_busy_noent);
			rounds[0]++;
		} while (cycle_going());
		pthread_barrier_wait(&cycle_end);
	}
	return NULL;
}

/* ---- resize ---- */

static void *resize_main(void *arg)
{
	uint64_t rng = seed ^ 0x9e51;
	struct lkst_buffer_resize r;
	unsigned int c;

	(void)arg;
	for (c = 0; c < cycles; c++) {
		pthread_barrier_wait(&cycle_start);
		do {
			memset(&r, 0, sizeof(r));
			r.size = (4 + below(&rng, 61)) << 12;	/* 16 KiB .. 256 KiB */
			req(LKST_IOC_BUFFER_RESIZE, &r, "BUFFER_RESIZE", NULL);
			rounds[1]++;
			sleep_ms(10);
		} while (cycle_going());
		pthread_barrier_wait(&cycle_end);
	}
	return NULL;
}

/* ---- blocks ---- */

static struct lkst_record read_buf[2][READ_RECS];	/* one per block thread */
static __u64 seq_buf[2][READ_RECS];

static void block_round(unsigned int cpu, uint64_t *rng, int *exists)
{
	struct lkst_block_create bc;
	struct lkst_block_link l;
	struct lkst_block_jump j;
	struct lkst_block_delete d;
	struct lkst_buffer_mode m;
	struct lkst_block_info bi;
	struct lkst_block_read rd;
	struct lkst_buffer_drain dr;
	struct lkst_cpu_info ci;
	unsigned int ids[MAX_EXTRA + 1], n = 0, b;
	char what[64];

	for (b = 0; b <= MAX_EXTRA * 2; b++)
		if (exists[b])
			ids[n++] = b;
	if (n < MAX_EXTRA + 1) {
		memset(&bc, 0, sizeof(bc));
		bc.cpu = cpu;
		bc.size = (4 + below(rng, 13)) << 12;	/* 16 KiB .. 64 KiB */
		bc.next = below(rng, 2) ? LKST_NO_NEXT : ids[below(rng, n)];
		snprintf(what, sizeof(what), "cpu %u BLOCK_CREATE", cpu);
		if (!req(LKST_IOC_BLOCK_CREATE, &bc, what, NULL)) {
			if (bc.block > MAX_EXTRA * 2) {
				fail("cpu %u: new block %u, expected the lowest free ID", cpu, bc.block);
			} else {
				exists[bc.block] = 1;
				ids[n++] = bc.block;
			}
		}
	}
	memset(&l, 0, sizeof(l));
	l.cpu = cpu;
	l.block = ids[below(rng, n)];
	l.next = below(rng, 3) ? ids[below(rng, n)] : LKST_NO_NEXT;
	snprintf(what, sizeof(what), "cpu %u BLOCK_LINK %u -> %d", cpu, l.block, (int)l.next);
	req(LKST_IOC_BLOCK_LINK, &l, what, NULL);

	memset(&j, 0, sizeof(j));
	j.cpu = cpu;
	j.block = ids[below(rng, n)];
	snprintf(what, sizeof(what), "cpu %u BLOCK_JUMP %u", cpu, j.block);
	req(LKST_IOC_BLOCK_JUMP, &j, what, NULL);

	/* Block 0 stays, so that the end state is easy to restore. */
	if (n > 1) {
		memset(&d, 0, sizeof(d));
		d.cpu = cpu;
		d.block = ids[1 + below(rng, n - 1)];
		snprintf(what, sizeof(what), "cpu %u BLOCK_DELETE %u", cpu, d.block);
		if (!req(LKST_IOC_BLOCK_DELETE, &d, what, ok_busy))
			exists[d.block] = 0;
	}

	m.cpu = cpu;
	m.mode = below(rng, 4) ? LKST_MODE_OVERWRITE : LKST_MODE_STOP;
	req(LKST_IOC_BUFFER_MODE, &m, "BUFFER_MODE", NULL);

	/* Read a block while it may be written, resized or jumped to. */
	memset(&bi, 0, sizeof(bi));
	bi.cpu = cpu;
	bi.block = 0;
	req(LKST_IOC_BLOCK_INFO, &bi, "BLOCK_INFO 0", NULL);
	memset(&rd, 0, sizeof(rd));
	rd.cpu = cpu;
	rd.block = 0;
	rd.records = (uintptr_t)read_buf[cpu];
	rd.max_records = READ_RECS;
	req(LKST_IOC_BLOCK_READ, &rd, "BLOCK_READ 0", NULL);
	if (rd.nr_records > READ_RECS)
		fail("cpu %u: BLOCK_READ returned %u records for room for %u", cpu,
		     rd.nr_records, READ_RECS);

	memset(&ci, 0, sizeof(ci));
	ci.cpu = cpu;
	req(LKST_IOC_CPU_INFO, &ci, "CPU_INFO", NULL);
	memset(&dr, 0, sizeof(dr));
	dr.cpu = cpu;
	dr.cursor = ci.next_seq > 200 ? ci.next_seq - 200 : 0;
	dr.records = (uintptr_t)read_buf[cpu];
	dr.seqs = (uintptr_t)seq_buf[cpu];
	dr.max_records = READ_RECS;
	if (!req(LKST_IOC_BUFFER_DRAIN, &dr, "BUFFER_DRAIN", NULL)) {
		unsigned int i;

		for (i = 0; i < dr.nr_records && i < READ_RECS; i++)
			if (seq_buf[cpu][i] < dr.cursor || seq_buf[cpu][i] >= dr.next_seq) {
				fail("cpu %u: drained number %llu outside [%llu, %llu)", cpu,
				     (unsigned long long)seq_buf[cpu][i],
				     (unsigned long long)dr.cursor,
				     (unsigned long long)dr.next_seq);
				break;
			}
	}
}

static void *block_main(void *arg)
{
	unsigned int cpu = (uintptr_t)arg, c;
	uint64_t rng = seed ^ (0xb10c + cpu);
	int exists[MAX_EXTRA * 2 + 1] = { 1 };

	for (c = 0; c < cycles; c++) {
		pthread_barrier_wait(&cycle_start);
		do {
			block_round(cpu, &rng, exists);
			rounds[2 + cpu]++;
			sleep_ms(5);
		} while (cycle_going());
		pthread_barrier_wait(&cycle_end);
	}
	return NULL;
}

/* ---- handler module ---- */

static void *handler_main(void *arg)
{
	char ev[32], targ[32], sw[32];
	char *insmod[] = { "/bin/insmod", TRIGGER_KO, ev, targ, "once=0", "jump_block=1",
			   NULL, NULL };
	char *rmmod[] = { "/bin/rmmod", "lkst_trigger", NULL };
	unsigned int c, t;
	long n;
	int rc;

	(void)arg;
	snprintf(ev, sizeof(ev), "trigger_event=%u", LKST_EV_SYSCALL_ENTRY);
	snprintf(targ, sizeof(targ), "trigger_arg=%u", (unsigned int)SYS_getpid);
	snprintf(sw, sizeof(sw), "switch_maskset=%u", SWITCH_MS);
	for (c = 0; c < cycles; c++) {
		pthread_barrier_wait(&cycle_start);
		insmod[6] = c % 2 ? sw : NULL;
		rc = run(insmod);
		if (rc) {
			fail("cycle %u: insmod lkst_trigger exited %d", c, rc);
		} else {
			/* Until the masksets route events to it, for up to 3 s. */
			for (t = 0; t < 150 && read_param("handled") <= 0; t++)
				sleep_ms(20);
			sleep_ms(20);
			n = read_param("handled");
			if (n > 0)
				handler_calls += n;
			n = read_param("fired");
			if (n > 0)
				handler_fired += n;
			rc = run(rmmod);
			if (rc)
				fail("cycle %u: rmmod lkst_trigger exited %d", c, rc);
		}
		atomic_fetch_add(&slow_done, 1);
		pthread_barrier_wait(&cycle_end);
	}
	return NULL;
}

/* ---- CPU hotplug ---- */

static int set_cpu1_online(int online)
{
	int f = open(HOTPLUG_FILE, O_WRONLY), ret = 0;

	if (f < 0)
		return -errno;
	if (write(f, online ? "1\n" : "0\n", 2) != 2)
		ret = -errno;
	close(f);
	return ret;
}

static void *hotplug_main(void *arg)
{
	unsigned int c;
	int ret;

	(void)arg;
	for (c = 0; c < cycles; c++) {
		pthread_barrier_wait(&cycle_start);
		ret = set_cpu1_online(0);
		if (!ret) {
			sleep_ms(50);
			ret = set_cpu1_online(1);
		}
		if (ret)
			fail("cycle %u: cpu1 offline/online: %s", c, strerrorname_np(-ret));
		else
			hotplug_cycles++;
		atomic_fetch_add(&slow_done, 1);
		pthread_barrier_wait(&cycle_end);
	}
	return NULL;
}

/* ---- load ---- */

static void load_main(unsigned int i)
{
	int p[2];
	char b = 0;
	unsigned long n;
	pid_t pid;

	if (pipe(p))
		_exit(1);
	for (n = 0;; n++) {
		syscall(SYS_getpid);	/* fires the trigger */
		if (write(p[1], &b, 1) != 1 || read(p[0], &b, 1) != 1)
			_exit(1);
		if (n % 50 == i) {
			pid = fork();
			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
		if (n % 200 == 0)
			sleep_ms(1);
	}
}

/* ---- before and after ---- */

struct saved {
	unsigned int active;
	uint32_t size, mode[MAX_CPUS];
	int ms_used[LAST_MS + 1];
	struct lkst_maskset_desc ms[LAST_MS + 1];
};

static struct saved saved;

static int save_state(void)
{
	struct lkst_version v = { 0 };
	struct lkst_block_info bi = { .cpu = 0, .block = 0 };
	unsigned int cpu, id;

	if (ioctl(fd, LKST_IOC_GET_VERSION, &v) || ioctl(fd, LKST_IOC_BLOCK_INFO, &bi))
		return -1;
	saved.active = v.active_maskset;
	saved.size = bi.size;
	nr_cpus = v.nr_cpu_ids < MAX_CPUS ? v.nr_cpu_ids : MAX_CPUS;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct lkst_cpu_info ci = { .cpu = cpu };

		if (!ioctl(fd, LKST_IOC_CPU_INFO, &ci))
			saved.mode[cpu] = ci.mode;
	}
	for (id = FIRST_MS; id <= LAST_MS; id++) {
		saved.ms[id].id = id;
		saved.ms_used[id] = !ioctl(fd, LKST_IOC_MASKSET_READ, &saved.ms[id]);
		saved.ms[id].flags = 0;
	}
	return 0;
}

/* Each CPU back to block 0 alone, wrapping, at @size; no user masksets of ours. */
static void reset_blocks(uint32_t size)
{
	struct lkst_buffer_resize r = { .size = size };
	struct lkst_block_link l;
	struct lkst_block_jump j;
	struct lkst_block_delete d;
	unsigned int cpu, b;
	struct lkst_cpu_info ci;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		memset(&ci, 0, sizeof(ci));
		ci.cpu = cpu;
		if (ioctl(fd, LKST_IOC_CPU_INFO, &ci) || !ci.nr_blocks)
			continue;
		memset(&j, 0, sizeof(j));
		j.cpu = cpu;
		req(LKST_IOC_BLOCK_JUMP, &j, "reset: BLOCK_JUMP 0", NULL);
		memset(&d, 0, sizeof(d));
		d.cpu = cpu;
		for (b = 1; b < LKST_MAX_BLOCKS; b++) {
			d.block = b;
			req(LKST_IOC_BLOCK_DELETE, &d, "reset: BLOCK_DELETE", ok_noent);
		}
		memset(&l, 0, sizeof(l));
		l.cpu = cpu;
		l.block = 0;
		l.next = LKST_NO_NEXT;
		req(LKST_IOC_BLOCK_LINK, &l, "reset: BLOCK_LINK 0", NULL);
	}
	if (size)
		req(LKST_IOC_BUFFER_RESIZE, &r, "reset: BUFFER_RESIZE", NULL);
}

static void restore_state(void)
{
	uint32_t id, sys = saved.active < LKST_MASKSET_FIRST_USER ? saved.active :
					       LKST_MASKSET_RDEFAULT;
	unsigned int cpu;

	reset_blocks(saved.size);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct lkst_buffer_mode m = { .cpu = cpu, .mode = saved.mode[cpu] };

		req(LKST_IOC_BUFFER_MODE, &m, "restore: BUFFER_MODE", NULL);
	}
	req(LKST_IOC_MASKSET_SET, &sys, "restore: MASKSET_SET", NULL);
	for (id = FIRST_MS; id <= LAST_MS; id++) {
		if (saved.ms_used[id])
			req(LKST_IOC_MASKSET_WRITE, &saved.ms[id], "restore: MASKSET_WRITE", NULL);
		else
			req(LKST_IOC_MASKSET_DELETE, &id, "restore: MASKSET_DELETE", ok_noent);
	}
	if (saved.active >= LKST_MASKSET_FIRST_USER)
		req(LKST_IOC_MASKSET_SET, &saved.active, "restore: MASKSET_SET user", NULL);
}

/*
 * With tracing stopped: per CPU, written - held - overwritten, held being
 * the records a drain of every number from 0 finds.
 */
static unsigned long long unaccounted(void)
{
	struct lkst_record *recs;
	unsigned long long sum = 0;
	struct lkst_buffer_drain dr;
	unsigned int cpu;
	long long d;
	__u64 *seqs;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		memset(&dr, 0, sizeof(dr));
		dr.cpu = cpu;		/* first only for capacity */
		if (req(LKST_IOC_BUFFER_DRAIN, &dr, "final BUFFER_DRAIN (size)", NULL))
			continue;
		recs = calloc(dr.capacity + 1, sizeof(*recs));
		seqs = calloc(dr.capacity + 1, sizeof(*seqs));
		if (!recs || !seqs) {
			fail("cpu %u: no memory for %llu records", cpu,
			     (unsigned long long)dr.capacity);
			return 0;
		}
		dr.records = (uintptr_t)recs;
		dr.seqs = (uintptr_t)seqs;
		dr.max_records = dr.capacity;
		d = req(LKST_IOC_BUFFER_DRAIN, &dr, "final BUFFER_DRAIN", NULL);
		free(recs);
		free(seqs);
		if (d)
			continue;
		if (dr.flags || dr.nr_busy)
			fail("cpu %u: final drain flags 0x%x, %u busy", cpu, dr.flags, dr.nr_busy);
		d = (long long)(dr.written - dr.nr_records - dr.overwritten);
		if (d < 0)
			d = -d;
		printf("cpu %u: written %llu held %u overwritten %llu dropped %llu next_seq %llu unaccounted %lld\n",
		       cpu, (unsigned long long)dr.written, dr.nr_records,
		       (unsigned long long)dr.overwritten, (unsigned long long)dr.dropped,
		       (unsigned long long)dr.next_seq, d);
		sum += d;
	}
	return sum;
}

static void read_known_events(void)
{
	struct lkst_maskset_desc d = { .id = LKST_MASKSET_RALL };
	unsigned int e;

	if (ioctl(fd, LKST_IOC_MASKSET_READ, &d))
		return;
	for (e = 0; e < LKST_NR_EVENT_IDS; e++)
		if (d.handler[e] != LKST_HANDLER_NOTHING)
			known_list[nr_known++] = e;
}

int main(int argc, char **argv)
{
	pthread_t threads[8];
	pid_t load[NR_LOAD];
	unsigned int i, n = 0;
	const char *log = NULL;
	uint32_t rnothing = LKST_MASKSET_RNOTHING;
	unsigned long long lost;
	int opt, rc;
	double t0, longest = 0;

	while ((opt = getopt(argc, argv, "c:s:o:")) != -1) {
		switch (opt) {
		case 'c': cycles = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'o': log = optarg; break;
		default: log = NULL; optind = argc + 1; break;
		}
	}
	if (!log || optind != argc) {
		fprintf(stderr, "usage: lkst_torture [-c CYCLES] [-s SEED] -o LOG\n");
		return 2;
	}
	fd = open(LKST_DEVICE, O_RDWR);
	if (fd < 0 || save_state()) {
		perror("lkst_torture: " LKST_DEVICE);
		return 2;
	}
	if (access(TRIGGER_KO, R_OK)) {
		perror("lkst_torture: " TRIGGER_KO);
		return 2;
	}
	if (nr_cpus < 2) {
		fprintf(stderr, "lkst_torture: needs 2 CPUs, has %u\n", nr_cpus);
		return 2;
	}
	read_known_events();
	have_hotplug = !access(HOTPLUG_FILE, W_OK);
	printf("seed 0x%llx cycles %u cpus %u hotplug %s\n", (unsigned long long)seed, cycles,
	       nr_cpus, have_hotplug ? "on" : "off");
	fflush(stdout);
	reset_blocks(0);	/* begin from block 0 alone on each CPU */

	for (i = 0; i < NR_LOAD; i++) {
		load[i] = fork();
		if (load[i] == 0)
			load_main(i);
	}
	nr_slow = 1 + have_hotplug;
	/* maskset, resize, 2 block threads, the slow ones and this one */
	pthread_barrier_init(&cycle_start, NULL, 5 + nr_slow);
	pthread_barrier_init(&cycle_end, NULL, 5 + nr_slow);
	pthread_create(&threads[n++], NULL, maskset_main, NULL);
	pthread_create(&threads[n++], NULL, resize_main, NULL);
	pthread_create(&threads[n++], NULL, block_main, (void *)0);
	pthread_create(&threads[n++], NULL, block_main, (void *)1);
	pthread_create(&threads[n++], NULL, handler_main, NULL);
	if (have_hotplug)
		pthread_create(&threads[n++], NULL, hotplug_main, NULL);

	/* The main thread starts each cycle once the previous one is over. */
	t0 = now();
	for (i = 0; i < cycles; i++) {
		double t = now();

		atomic_store(&slow_done, 0);
		pthread_barrier_wait(&cycle_start);
		pthread_barrier_wait(&cycle_end);
		if (now() - t > longest)
			longest = now() - t;
	}
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	printf("torture_seconds %.1f longest_cycle %.2f\n", now() - t0, longest);
	printf("rounds maskset %lu resize %lu blocks0 %lu blocks1 %lu\n",
	       rounds[0], rounds[1], rounds[2], rounds[3]);
	for (i = 0; i < NR_LOAD; i++) {
		kill(load[i], SIGKILL);
		waitpid(load[i], NULL, 0);
	}
	if (have_hotplug && set_cpu1_online(1))
		fail("cpu1 back online: %s", strerror(errno));

	/* Nothing is recorded from here on: the counters stand still. */
	req(LKST_IOC_MASKSET_SET, &rnothing, "MASKSET_SET RNOTHING", NULL);
	{
		char *lkbuf[] = { "/bin/lkbuf", "read", "-f", (char *)log, NULL };

		rc = run(lkbuf);
		if (rc)
			fail("lkbuf read -f %s exited %d", log, rc);
	}
	lost = unaccounted();
	restore_state();
	close(fd);

	printf("handler_calls %lu\n", handler_calls);
	printf("handler_fired %lu\n", handler_fired);
	printf("torture_cycles %u\n", cycles);
	printf("hotplug_cycles %lu\n", hotplug_cycles);
	printf("records_unaccounted %llu\n", lost);
	printf("failures %lu\n", atomic_load(&failures));
	return atomic_load(&failures) ? 1 : 0;
}
