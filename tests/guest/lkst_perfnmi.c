// SPDX-License-Identifier: GPL-2.0
/*
 * Perf-like NMIs for the torture run: a sampling CPU-cycles counter on
 * every online CPU (kernel included), whose overflow interrupt the PMU
 * driver requests as an NMI where the interrupt controller has them (arm64
 * booted with irqchip.gicv3_pseudo_nmi=1, x86's perf NMI).  Landing while
 * interrupts are masked, it runs its handler, and lkst's hooks there, in
 * NMI context.  Samples go nowhere (no ring buffer): the interrupts are
 * the point.  Runs until SIGTERM or SIGINT, then prints
 *   perf_cpus N           counters opened
 *   perf_overflows N      counted cycles / period: interrupts raised
 *
 *   lkst_perfnmi [-p PERIOD]     (cycles between interrupts, default 100000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CPUS	64

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long long period = 100000, total = 0;
	int fds[MAX_CPUS], n = 0, cpu, opt;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	sigset_t block, wait_mask;
	char *end;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		switch (opt) {
		case 'p':
			errno = 0;
			period = strtoull(optarg, &end, 0);
			if (errno || *end || !period) {
				fprintf(stderr, "lkst_perfnmi: bad period '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: lkst_perfnmi [-p PERIOD]\n");
			return 2;
		}
	}
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.sample_period = period;
	attr.pinned = 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		int fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);

		if (fd < 0) {
			/* A CPU offline now (the torture's CPU 1) has no counter. */
			if (errno == ENODEV)
				continue;
			fprintf(stderr, "lkst_perfnmi: perf_event_open cpu %d: %s\n",
				cpu, strerror(errno));
			return 1;
		}
		fds[n++] = fd;
	}
	if (!n) {
		fprintf(stderr, "lkst_perfnmi: no CPU counter opened\n");
		return 1;
	}
	/* Blocked but while waiting: a signal cannot slip in before it. */
	sigemptyset(&wait_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, NULL);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	printf("perf_cpus %d\n", n);
	fflush(stdout);
	while (!stop)
		sigsuspend(&wait_mask);
	for (cpu = 0; cpu < n; cpu++) {
		uint64_t count;

		if (read(fds[cpu], &count, sizeof(count)) == sizeof(count))
			total += count;
		close(fds[cpu]);
	}
	printf("perf_overflows %llu\n", total / period);
	return 0;
}
