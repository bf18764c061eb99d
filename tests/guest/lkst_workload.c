// SPDX-License-Identifier: GPL-2.0
/*
 * A small process-trace workload: sleepers that sleep and wake, pipe
 * readers woken by a writer, and spinners that only get preempted.  Each
 * child names itself so the trace shows who is who, and the PIDs go to the
 * file given with -o as "role pid" lines for the checkers.
 *
 *   lkst_workload [-o pids.txt] [-t milliseconds]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleeper(long long end)
{
	struct timespec nap = { 0, 3 * 1000 * 1000 };

	while (now_ms() < end)
		nanosleep(&nap, NULL);
}

static void spinner(long long end)
{
	volatile unsigned long n = 0;

	while (now_ms() < end)
		n++;
}

static void reader(int fd)
{
	char c;

	while (read(fd, &c, 1) == 1)
		;
}

static void writer(int fd, long long end)
{
	struct timespec nap = { 0, 5 * 1000 * 1000 };

	while (now_ms() < end) {
		if (write(fd, "x", 1) != 1)
			break;
		nanosleep(&nap, NULL);
	}
}

static pid_t spawn(const char *name, FILE *pids, void (*run)(long long),
		   long long end)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("lkst_workload: fork");
		exit(1);
	}
	if (pid == 0) {
		prctl(PR_SET_NAME, name);
		run(end);
		_exit(0);
	}
	fprintf(pids, "%s %d\n", name, pid);
	return pid;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/stdout";
	long long end, duration = 400;
	pid_t reader_pid;
	int opt, pipefd[2];
	FILE *pids;

	while ((opt = getopt(argc, argv, "o:t:")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 't')
			duration = atoll(optarg);
		else
			return 2;
	}
	pids = fopen(out, "w");
	if (!pids || pipe(pipefd)) {
		perror("lkst_workload");
		return 1;
	}
	end = now_ms() + duration;

	reader_pid = fork();
	if (reader_pid == 0) {
		prctl(PR_SET_NAME, "lkw-reader");
		close(pipefd[1]);
		reader(pipefd[0]);
		_exit(0);
	}
	fprintf(pids, "lkw-reader %d\n", reader_pid);
	close(pipefd[0]);

	spawn("lkw-sleep1", pids, sleeper, end);
	spawn("lkw-sleep2", pids, sleeper, end);
	spawn("lkw-spin1", pids, spinner, end);
	spawn("lkw-spin2", pids, spinner, end);
	spawn("lkw-spin3", pids, spinner, end);
	fflush(pids);

	prctl(PR_SET_NAME, "lkw-writer");
	fprintf(pids, "lkw-writer %d\n", getpid());
	fclose(pids);
	writer(pipefd[1], end);
	close(pipefd[1]);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
