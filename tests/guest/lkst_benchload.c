// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads of the benchmark suite (make bench, tests/scenarios/bench_suite.sh):
 * each repeats one operation OPS times, pinned to one CPU, and prints the
 * guest nanoseconds per operation.  Under QEMU's -icount shift=0 a guest
 * nanosecond is one executed instruction, so the figures repeat from run
 * to run and compare between tracer configurations of the same kernel.
 *
 *   getppid    one null system call
 *   pipe       a one-byte round trip between two processes over two pipes
 *   forkexit   fork, the child exits, the parent reaps it
 *   forkexec   fork, the child execs /bin/true, the parent reaps it
 *   mmap       mmap 16 anonymous pages, touch each, munmap
 *   hackbench  4 senders and 4 receivers over UNIX sockets, 100-byte
 *              messages (one operation: one message sent and received)
 *   udp        a 64-byte UDP datagram to itself over lo (softirqs)
 *
 *   lkst_benchload WORKLOAD [-n OPS] [-c CPU]
 *   prints "WORKLOAD OPS NS_PER_OP"
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MMAP_PAGES	16
#define HB_PAIRS	4
#define HB_MSG		100

static void die(const char *what)
{
	fprintf(stderr, "lkst_benchload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("child failed");
}

static void run_getppid(long ops)
{
	for (long i = 0; i < ops; i++)
		syscall(SYS_getppid);
}

static void run_pipe(long ops)
{
	int ping[2], pong[2];
	char c = 0;
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (long i = 0; i < ops; i++)
			if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (long i = 0; i < ops; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			die("pipe round trip");
	reap(pid);
	close(ping[0]), close(ping[1]), close(pong[0]), close(pong[1]);
}

static void run_fork(long ops, int exec)
{
	for (long i = 0; i < ops; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			if (exec)
				execl("/bin/true", "true", (char *)NULL);
			_exit(exec ? 127 : 0);
		}
		reap(pid);
	}
}

static void run_mmap(long ops)
{
	long page = sysconf(_SC_PAGESIZE);

	for (long i = 0; i < ops; i++) {
		char *p = mmap(NULL, MMAP_PAGES * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (int j = 0; j < MMAP_PAGES; j++)
			p[j * page] = 1;
		if (munmap(p, MMAP_PAGES * page))
			die("munmap");
	}
}

/* ops messages in all: each sender sends ops / HB_PAIRS to its receiver. */
static void run_hackbench(long ops)
{
	pid_t pids[2 * HB_PAIRS];
	long per = ops / HB_PAIRS;
	char msg[HB_MSG] = { 0 };
	int n = 0;

	for (int p = 0; p < HB_PAIRS; p++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			die("socketpair");
		for (int side = 0; side < 2; side++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				close(sv[!side]);
				for (long i = 0; i < per; i++) {
					long done = 0, r;

					if (side == 0) {
						if (write(sv[0], msg, HB_MSG) != HB_MSG)
							_exit(1);
						continue;
					}
					while (done < HB_MSG) {
						r = read(sv[1], msg, HB_MSG - done);
						if (r <= 0)
							_exit(1);
						done += r;
					}
				}
				_exit(0);
			}
			pids[n++] = pid;
		}
		close(sv[0]);
		close(sv[1]);
	}
	for (int i = 0; i < n; i++)
		reap(pids[i]);
}

static void run_udp(long ops)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	char buf[64] = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		die("socket");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(s, (struct sockaddr *)&addr, &len))
		die("bind");
	for (long i = 0; i < ops; i++) {
		if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&addr,
			   sizeof(addr)) != sizeof(buf))
			die("sendto");
		if (recv(s, buf, sizeof(buf), 0) != sizeof(buf))
			die("recv");
	}
	close(s);
}

int main(int argc, char **argv)
{
	long ops = 1000;
	long long start, ns;
	const char *w;
	int opt, cpu = 1;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		if (opt == 'n')
			ops = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else
			goto usage;
	}
	if (optind != argc - 1 || ops <= 0)
		goto usage;
	w = argv[optind];
	/* Children inherit it: the whole workload runs on one CPU. */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	start = now_ns();
	if (!strcmp(w, "getppid"))
		run_getppid(ops);
	else if (!strcmp(w, "pipe"))
		run_pipe(ops);
	else if (!strcmp(w, "forkexit"))
		run_fork(ops, 0);
	else if (!strcmp(w, "forkexec"))
		run_fork(ops, 1);
	else if (!strcmp(w, "mmap"))
		run_mmap(ops);
	else if (!strcmp(w, "hackbench"))
		run_hackbench(ops);
	else if (!strcmp(w, "udp"))
		run_udp(ops);
	else
		goto usage;
	ns = now_ns() - start;
	printf("%s %ld %.1f\n", w, ops, (double)ns / ops);
	return 0;
usage:
	fprintf(stderr, "usage: lkst_benchload getppid|pipe|forkexit|forkexec|mmap|hackbench|udp [-n OPS] [-c CPU]\n");
	return 2;
}
