// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads with known interrupt, softirq, workqueue and timer activity for
 * the interrupt and timer scenarios.  Each prints what the checker needs.
 *
 *   lkst_irqload ipi -n N          a thread pinned to CPU 1 woken N times
 *                                  by a pipe from CPU 0, then N munmaps
 *                                  while a thread of the process spins on
 *                                  CPU 1 (TLB shootdown IPIs)
 *                                  prints "ipi pid P waker W sleeper S spinner C"
 *   lkst_irqload disk -d DEV       write 64 KiB at 60 MiB into DEV and sync()
 *                                  while it is open (the flusher work is queued
 *                                  by this process; the I/O completes by IRQ)
 *                                  prints "disk pid P"
 *   lkst_irqload led -d TTY        KDSETLED twice (the VT keyboard tasklet)
 *                                  prints "led pid P"
 *   lkst_irqload tone -d TTY -m MS KDMKTONE for MS ms, again at once (the first
 *                                  timer is cancelled), then waits for expiry
 *                                  prints "tone pid P ms MS"
 *   lkst_irqload hrtimer -m MS     clock_nanosleep to an absolute time, an
 *                                  ITIMER_REAL of MS ms that fires, and one that
 *                                  is cancelled; prints
 *                                  "nanosleep pid P target T",
 *                                  "itimer pid P before B after A value V" and
 *                                  "itimer-cancel pid P"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "lkst_irqload: cannot pin to CPU %d: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	return 0;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- ipi ---- */

static int ping[2], pong[2];
static volatile int spin_stop;
static volatile pid_t sleeper_tid, spinner_tid;

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	sleeper_tid = gettid_();
	if (pin(1))
		exit(1);
	while (read(ping[0], &c, 1) == 1 && c != 'q')
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	spinner_tid = gettid_();
	if (pin(1))
		exit(1);
	while (!spin_stop)
		;
	return NULL;
}

static int do_ipi(long n)
{
	pthread_t t;
	long i;
	char c = 'x';

	if (pin(0) || pipe(ping) || pipe(pong))
		return 1;
	if (pthread_create(&t, NULL, sleeper, NULL))
		return 1;
	for (i = 0; i < n; i++) {
		usleep(2000);	/* let CPU 1 go idle */
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
			perror("lkst_irqload: pipe");
			return 1;
		}
	}
	c = 'q';
	if (write(ping[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);

	if (pthread_create(&t, NULL, spinner, NULL))
		return 1;
	while (!spinner_tid)
		sched_yield();
	usleep(10000);
	for (i = 0; i < n; i++) {
		char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("lkst_irqload: mmap");
			return 1;
		}
		p[0] = 1;
		munmap(p, 4096);
	}
	spin_stop = 1;
	pthread_join(t, NULL);
	printf("ipi pid %d waker %d sleeper %d spinner %d\n", getpid(),
	       gettid_(), sleeper_tid, spinner_tid);
	return 0;
}

/* ---- disk ---- */

static int do_disk(const char *dev)
{
	static char buf[65536];
	int fd;

	memset(buf, 0x5a, sizeof(buf));
	fd = open(dev, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "lkst_irqload: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (pwrite(fd, buf, sizeof(buf), 60 << 20) != (ssize_t)sizeof(buf)) {
		fprintf(stderr, "lkst_irqload: write %s: %s\n", dev, strerror(errno));
		return 1;
	}
	/* Still open: the last close would write the pages back itself. */
	sync();
	close(fd);
	printf("disk pid %d\n", getpid());
	return 0;
}

/* ---- led, tone ---- */

static int open_tty(const char *tty)
{
	int fd = open(tty, O_RDWR | O_NOCTTY);

	if (fd < 0)
		fprintf(stderr, "lkst_irqload: %s: %s\n", tty, strerror(errno));
	return fd;
}

static int do_led(const char *tty)
{
	int fd = open_tty(tty);

	if (fd < 0)
		return 1;
	/* Light the LEDs by ioctl, then back to showing the flags. */
	if (ioctl(fd, KDSETLED, LED_SCR) || (usleep(20000), ioctl(fd, KDSETLED, 0xff))) {
		fprintf(stderr, "lkst_irqload: KDSETLED: %s\n", strerror(errno));
		return 1;
	}
	usleep(20000);
	close(fd);
	printf("led pid %d\n", getpid());
	return 0;
}

static int do_tone(const char *tty, long ms)
{
	unsigned long arg = ((unsigned long)ms << 16) | 1000;
	int fd = open_tty(tty);

	if (fd < 0)
		return 1;
	if (ioctl(fd, KDMKTONE, arg) || ioctl(fd, KDMKTONE, arg)) {
		fprintf(stderr, "lkst_irqload: KDMKTONE: %s\n", strerror(errno));
		return 1;
	}
	usleep(ms * 2000 + 20000);
	close(fd);
	printf("tone pid %d ms %ld\n", getpid(), ms);
	return 0;
}

/* ---- hrtimer ---- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static int do_hrtimer(long ms)
{
	struct itimerval it = { .it_value = { .tv_sec = ms / 1000,
					      .tv_usec = (ms % 1000) * 1000 } };
	struct itimerval off = { 0 };
	uint64_t target, before, after;
	struct timespec ts;

	target = now_ns() + ms * 1000000ull;
	ts.tv_sec = target / 1000000000ull;
	ts.tv_nsec = target % 1000000000ull;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	printf("nanosleep pid %d target %llu\n", getpid(),
	       (unsigned long long)target);

	signal(SIGALRM, on_alarm);
	before = now_ns();
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		perror("lkst_irqload: setitimer");
		return 1;
	}
	after = now_ns();
	while (!alarms)
		pause();
	printf("itimer pid %d before %llu after %llu value %llu\n", getpid(),
	       (unsigned long long)before, (unsigned long long)after,
	       (unsigned long long)ms * 1000000ull);

	it.it_value.tv_sec = 10;
	if (setitimer(ITIMER_REAL, &it, NULL) || setitimer(ITIMER_REAL, &off, NULL)) {
		perror("lkst_irqload: setitimer");
		return 1;
	}
	printf("itimer-cancel pid %d\n", getpid());
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: lkst_irqload ipi|disk|led|tone|hrtimer [-n N] [-d DEV] [-m MS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *cmd, *dev = NULL;
	long n = 20, ms = 40;
	int opt;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:d:m:")) != -1) {
		switch (opt) {
		case 'n': n = atol(optarg); break;
		case 'd': dev = optarg; break;
		case 'm': ms = atol(optarg); break;
		default: usage();
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "ipi"))
		return do_ipi(n);
	if (!strcmp(cmd, "hrtimer"))
		return do_hrtimer(ms);
	if (!dev)
		usage();
	if (!strcmp(cmd, "disk"))
		return do_disk(dev);
	if (!strcmp(cmd, "led"))
		return do_led(dev);
	if (!strcmp(cmd, "tone"))
		return do_tone(dev, ms);
	usage();
	return 2;
}
