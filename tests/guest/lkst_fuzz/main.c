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
 *
 * Files: gen.c (the requests), state.c (the tracer's state saved and put
 * back), this one (the calls and the answers' checks, the threads, CPU
 * hotplug, the report).
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

static const char *const place_name[] = {
	"normal", "misaligned", "read-only", "truncated", "bad-pointer"
};

uint64_t seed = 0x1c57f022;
unsigned int nr_cpu_ids;
unsigned int nr_known;
unsigned char known_list[LKST_NR_EVENT_IDS];
uintptr_t unmapped_addr;
atomic_uint active_maskset;	/* as last set by a fuzzer, for the gates */
static atomic_int stop_hotplug;
static atomic_ulong unexpected_printed;
static struct fuzzer fuzzers[MAX_THREADS];

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
 * line), whose resize and delete the kernel refuses, as links and jumps
 * that would move a writer off them, and lockdown raised
 * by another process mid-run, after which reading records and adding
 * probes are refused on descriptors already open, and opening fails.
 */
int persistent;
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
	if (persistent && (nr == LKST_IOC_BUFFER_RESIZE || nr == LKST_IOC_BLOCK_DELETE ||
			   nr == LKST_IOC_BLOCK_LINK || nr == LKST_IOC_BLOCK_JUMP)) {
		atomic_fetch_add(&persistent_refusals, 1);
		return 1;
	}
	/* HANDLER_CTL: a handler's command that reads arguments (agg READ). */
	if ((nr == LKST_IOC_BLOCK_READ || nr == LKST_IOC_BUFFER_DRAIN ||
	     nr == LKST_IOC_PREVIOUS_DRAIN || nr == LKST_IOC_PROBE_ADD ||
	     nr == LKST_IOC_HANDLER_CTL) && locked_down()) {
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
