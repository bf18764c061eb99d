// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads with known answers for the lkst_agg scenario (t62_agg), and
 * the kernel's validation of lkst_agg's control commands.
 *
 *   lkst_aggload writes -N NAME [-c CPU] [-g GETPPIDS]
 *       Prints "pid P", pins itself to CPU, renames itself NAME, then
 *       makes exactly: GETPPIDS getppid(), the lseek()s of LSEEKS[] (their
 *       whence, the 3rd argument, is the value: fd 1234 is bad so each
 *       fails with EBADF), the write()s of WRITES[] to /dev/null (the
 *       count, also the 3rd argument, is the value), then exit_group().
 *       It prints the tables first as "lseek WHENCE N" and "write SIZE N".
 *   lkst_aggload sleep -N NAME -n COUNT -d MS
 *       Renamed NAME, COUNT nanosleep(MS ms) system calls (the syscall
 *       itself, not glibc's clock_nanosleep).
 *   lkst_aggload spin -t MS
 *       getppid() in a loop for MS milliseconds.
 *   lkst_aggload bad
 *       Sends malformed commands to the "agg" handler and checks each is
 *       refused with its documented errno; prints "ok" lines, "FAIL" lines
 *       and exits 1 on any surprise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/lkst_ioctl.h>
#include "../../handlers/lkst_agg.h"

#define BAD_FD 1234

static const struct { long value, n; } LSEEKS[] = {
	{ -1, 1 }, { -2, 1 }, { -3, 1 }, { -4, 1 }, { -1000, 1 }, { 5, 1 },
};

static const struct { long value, n; } WRITES[] = {
	{ 0, 10 }, { 1, 20 }, { 3, 30 }, { 100, 25 }, { 4096, 15 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void rename_self(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0)) {
		perror("lkst_aggload: prctl");
		exit(1);
	}
}

static int do_writes(const char *name, int cpu, long getppids)
{
	static char buf[4096];
	unsigned int i;
	long j;
	int devnull = open("/dev/null", O_WRONLY);

	if (devnull < 0) {
		perror("lkst_aggload: /dev/null");
		return 1;
	}
	for (i = 0; i < N(LSEEKS); i++)
		printf("lseek %ld %ld\n", LSEEKS[i].value, LSEEKS[i].n);
	for (i = 0; i < N(WRITES); i++)
		printf("write %ld %ld\n", WRITES[i].value, WRITES[i].n);
	printf("getppid %ld\npid %d\n", getppids, getpid());
	fflush(stdout);
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("lkst_aggload: sched_setaffinity");
			return 1;
		}
	}
	/* From here on, exactly the system calls the header says. */
	rename_self(name);
	for (j = 0; j < getppids; j++)
		syscall(SYS_getppid);
	for (i = 0; i < N(LSEEKS); i++)
		for (j = 0; j < LSEEKS[i].n; j++)
			if (syscall(SYS_lseek, BAD_FD, 0L, LSEEKS[i].value) != -1)
				_exit(1);
	for (i = 0; i < N(WRITES); i++)
		for (j = 0; j < WRITES[i].n; j++)
			if (syscall(SYS_write, devnull, buf, WRITES[i].value) !=
			    WRITES[i].value)
				_exit(1);
	syscall(SYS_exit_group, 0);
	return 1;
}

static int do_sleep(const char *name, long count, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long i;

	rename_self(name);
	for (i = 0; i < count; i++)
		if (syscall(SYS_nanosleep, &ts, NULL))
			return 1;
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int do_spin(long ms)
{
	long long end = now_ms() + ms;

	while (now_ms() < end)
		syscall(SYS_getppid);
	return 0;
}

/* ---- bad ---- */

static int fd, agg_id, failures, oks;

static int ctl(unsigned int cmd, void *data, unsigned int size)
{
	struct lkst_handler_ctl c = {
		.handler = agg_id, .cmd = cmd,
		.data = (unsigned long)data, .size = size,
	};

	return ioctl(fd, LKST_IOC_HANDLER_CTL, &c) < 0 ? -errno : 0;
}

static void expect(const char *what, int got, int want)
{
	if (got == -want) {
		oks++;
		printf("ok %s\n", what);
	} else {
		failures++;
		printf("FAIL %s: got %d (%s), want -%d (%s)\n", what, got,
		       got < 0 ? strerror(-got) : "success", want, strerror(want));
	}
}

/* A valid count of SYSCALL_ENTRY by comm, each test breaking one thing. */
static void good_config(struct lkst_agg_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->name, "badtest");
	c->func = LKST_AGG_F_COUNT;
	c->keys[0] = LKST_AGG_KEY_COMM;
	c->slots = 64;
	lkst_agg_event_set(c->events, LKST_EV_SYSCALL_ENTRY);
}

static void set_expect(const char *what, struct lkst_agg_config *c, int want)
{
	expect(what, ctl(LKST_AGG_SET, c, sizeof(*c)), want);
}

static int do_bad(void)
{
	struct lkst_agg_config c;
	struct lkst_agg_info info;
	struct lkst_agg_read rd;
	struct lkst_agg_name n;
	struct lkst_handler_desc d;
	struct lkst_agg_entry e[4];
	char big[256] = { 0 };
	unsigned int id;

	fd = open(LKST_DEVICE, O_RDWR);
	if (fd < 0) {
		perror("lkst_aggload: " LKST_DEVICE);
		return 1;
	}
	for (id = 2; id < LKST_HANDLER_NOTHING && !agg_id; id++) {
		memset(&d, 0, sizeof(d));
		d.id = id;
		if (!ioctl(fd, LKST_IOC_HANDLER_INFO, &d) && !strcmp(d.name, "agg"))
			agg_id = id;
	}
	if (!agg_id) {
		printf("FAIL no handler named agg\n");
		return 1;
	}

	expect("unknown command", ctl(99, big, sizeof(c)), EINVAL);
	good_config(&c);
	expect("SET of a short struct", ctl(LKST_AGG_SET, &c, sizeof(c) - 8), EINVAL);
	expect("SET of a long struct", ctl(LKST_AGG_SET, big, sizeof(c) + 8), EINVAL);
	good_config(&c);
	c.func = 0;
	set_expect("function 0", &c, EINVAL);
	c.func = LKST_AGG_NR_FUNCS;
	set_expect("unknown function", &c, EINVAL);
	good_config(&c);
	c.value = LKST_AGG_VAL_ARG1;
	set_expect("count with a value", &c, EINVAL);
	c.func = LKST_AGG_F_SUM;
	c.value = LKST_AGG_VAL_NONE;
	set_expect("sum without a value", &c, EINVAL);
	c.value = LKST_AGG_NR_VALUES;
	set_expect("unknown value", &c, EINVAL);
	good_config(&c);
	c.keys[0] = LKST_AGG_NR_KEYS;
	set_expect("unknown key", &c, EINVAL);
	good_config(&c);
	c.keys[0] = 0;
	c.keys[1] = LKST_AGG_KEY_PID;
	set_expect("key after the end of the keys", &c, EINVAL);
	good_config(&c);
	c.keys[1] = LKST_AGG_KEY_PID;
	c.keys[2] = LKST_AGG_KEY_CPU;
	set_expect("keys of four words", &c, EINVAL);
	good_config(&c);
	c.keys[3] = LKST_AGG_KEY_PID;
	set_expect("keys[3] not zero", &c, EINVAL);
	good_config(&c);
	c.slots = 0;
	set_expect("0 slots", &c, EINVAL);
	c.slots = 8;
	set_expect("8 slots", &c, EINVAL);
	c.slots = 100;
	set_expect("100 slots (not a power of two)", &c, EINVAL);
	c.slots = LKST_AGG_MAX_SLOTS * 2;
	set_expect("131072 slots", &c, EINVAL);
	c.slots = 0x80000000u;
	set_expect("2^31 slots", &c, EINVAL);
	c.func = LKST_AGG_F_QUANTIZE;
	c.value = LKST_AGG_VAL_ARG1;
	c.slots = LKST_AGG_MAX_QSLOTS * 2;
	set_expect("16384 quantize slots", &c, EINVAL);
	good_config(&c);
	memset(c.events, 0, sizeof(c.events));
	set_expect("no event", &c, EINVAL);
	lkst_agg_event_set(c.events, 0xff);
	set_expect("an event not in the table (0xff)", &c, EINVAL);
	good_config(&c);
	c.func = LKST_AGG_F_QUANTIZE;
	c.value = LKST_AGG_VAL_LAT_SYSCALL;
	set_expect("a latency with events", &c, EINVAL);
	good_config(&c);
	memset(c.name, 0, sizeof(c.name));
	set_expect("empty name", &c, EINVAL);
	memset(c.name, 'a', sizeof(c.name));
	set_expect("unterminated name", &c, EINVAL);
	good_config(&c);
	strcpy(c.name, "bad-name");
	set_expect("name with '-'", &c, EINVAL);
	good_config(&c);
	c.name[12] = 'x';
	set_expect("bytes after the name's NUL", &c, EINVAL);

	memset(&info, 0, sizeof(info));
	info.index = LKST_AGG_MAX;
	expect("INFO of index 8", ctl(LKST_AGG_INFO, &info, sizeof(info)), EINVAL);
	info.index = 0;
	info.__pad = 1;
	expect("INFO with padding", ctl(LKST_AGG_INFO, &info, sizeof(info)), EINVAL);
	expect("INFO of a short struct", ctl(LKST_AGG_INFO, &info, 8), EINVAL);
	memset(&rd, 0, sizeof(rd));
	rd.index = LKST_AGG_MAX;
	expect("READ of index 8", ctl(LKST_AGG_READ, &rd, sizeof(rd)), EINVAL);
	rd.index = 0;
	rd.__pad = 1;
	expect("READ with padding", ctl(LKST_AGG_READ, &rd, sizeof(rd)), EINVAL);
	memset(&n, 0, sizeof(n));
	strcpy(n.name, "no-such");
	expect("DELETE of a bad name", ctl(LKST_AGG_DELETE, &n, sizeof(n)), EINVAL);
	expect("CLEAR of a bad name", ctl(LKST_AGG_CLEAR, &n, sizeof(n)), EINVAL);
	strcpy(n.name, "nosuch");
	expect("DELETE of an unknown name", ctl(LKST_AGG_DELETE, &n, sizeof(n)), ENOENT);
	expect("CLEAR of an unknown name", ctl(LKST_AGG_CLEAR, &n, sizeof(n)), ENOENT);
	expect("DELETE of a short struct", ctl(LKST_AGG_DELETE, &n, 4), EINVAL);

	/* A real one to read with bad arguments, then removed. */
	good_config(&c);
	expect("SET of a valid count", ctl(LKST_AGG_SET, &c, sizeof(c)) >= 0 ? 0 : -1, 0);
	for (id = 0; id < LKST_AGG_MAX; id++) {
		memset(&info, 0, sizeof(info));
		info.index = id;
		if (!ctl(LKST_AGG_INFO, &info, sizeof(info)) &&
		    !strcmp(info.config.name, "badtest"))
			break;
	}
	expect("INFO finds it", id < LKST_AGG_MAX ? 0 : -1, 0);
	memset(&rd, 0, sizeof(rd));
	rd.index = id;
	rd.max_entries = 4;
	rd.entries = (unsigned long)e;
	rd.buckets = (unsigned long)big;
	expect("READ of a count with buckets", ctl(LKST_AGG_READ, &rd, sizeof(rd)), EINVAL);
	rd.buckets = 0;
	expect("READ of it", ctl(LKST_AGG_READ, &rd, sizeof(rd)), 0);
	strcpy(n.name, "badtest");
	expect("DELETE of it", ctl(LKST_AGG_DELETE, &n, sizeof(n)), 0);
	expect("INFO after DELETE", ctl(LKST_AGG_INFO, &info, sizeof(info)), ENOENT);

	printf("%d ok, %d failed\n", oks, failures);
	return failures != 0;
}

int main(int argc, char **argv)
{
	const char *name = "aggload";
	long g = 0, count = 0, ms = 0;
	int opt, cpu = -1;

	if (argc < 2) {
		fprintf(stderr, "usage: lkst_aggload writes|sleep|spin|bad [options]\n");
		return 2;
	}
	optind = 2;
	while ((opt = getopt(argc, argv, "N:c:g:n:d:t:")) != -1) {
		switch (opt) {
		case 'N': name = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		case 'g': g = atol(optarg); break;
		case 'n': count = atol(optarg); break;
		case 'd': ms = atol(optarg); break;
		case 't': ms = atol(optarg); break;
		default: return 2;
		}
	}
	if (!strcmp(argv[1], "writes"))
		return do_writes(name, cpu, g);
	if (!strcmp(argv[1], "sleep"))
		return do_sleep(name, count, ms);
	if (!strcmp(argv[1], "spin"))
		return do_spin(ms);
	if (!strcmp(argv[1], "bad"))
		return do_bad();
	fprintf(stderr, "lkst_aggload: unknown mode %s\n", argv[1]);
	return 2;
}
