// SPDX-License-Identifier: GPL-2.0
/*
 * Process-management workload for the process events scenario.  Each step
 * does something the kernel records as one of the process events and
 * prints what the checker needs to find it ("key value" lines):
 *
 *   pid P                 this process
 *   thread T              a pthread (fork with CLONE_THREAD, exit)
 *   exec_child C          forked, execs "/bin/sh -c 'exit 7'"
 *   sig_child S handler H forked, gets SIGUSR1 with handler H, exits 3
 *   nice_prio             setpriority(0, 5): prio 120 -> 125
 *   fifo_prio             SCHED_FIFO 10: prio 89, then back to normal
 *   migrate               pinned to CPU 0, then 1, then 0
 *   pipe_wait             blocked reading a pipe a child writes later
 *
 *   lkst_procev > facts.txt
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "lkst_procev: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *thread_main(void *arg)
{
	(void)arg;
	printf("thread %d\n", gettid());
	return NULL;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	int status, fds[2];
	pid_t child;
	pthread_t thread;
	struct sched_param param = { .sched_priority = 10 };
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());

	/* fork with CLONE_THREAD: a thread of this process */
	if (pthread_create(&thread, NULL, thread_main, NULL))
		die("pthread_create");
	pthread_join(thread, NULL);

	/* fork, exec and an exit code */
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(127);
	}
	printf("exec_child %d\n", child);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 7)
		die("exec child did not exit 7");

	/* a signal sent, delivered to a handler; SIGCHLD comes back */
	if (pipe(fds))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		sigaction(SIGUSR1, &sa, NULL);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(3);
	}
	if (read(fds[0], &c, 1) != 1)
		die("sig child never got ready");
	sleep_ms(50);	/* let it reach pause() */
	printf("sig_child %d handler %#lx\n", child, (unsigned long)on_usr1);
	if (kill(child, SIGUSR1))
		die("kill");
	if (waitpid(child, &status, 0) != child || WEXITSTATUS(status) != 3)
		die("sig child did not exit 3");

	/* priority changes */
	if (setpriority(PRIO_PROCESS, 0, 5))
		die("setpriority");
	printf("nice_prio 125\n");
	if (sched_setscheduler(0, SCHED_FIFO, &param))
		die("sched_setscheduler FIFO");
	param.sched_priority = 0;
	if (sched_setscheduler(0, SCHED_OTHER, &param))
		die("sched_setscheduler OTHER");
	printf("fifo_prio 89\n");

	/* migration between the two CPUs: to 0 first, so 0 -> 1 must follow */
	pin(0);
	sleep_ms(10);
	pin(1);
	sleep_ms(10);
	pin(0);
	sleep_ms(10);
	printf("migrate 1\n");

	/* block on a pipe until a child writes: wait queue add and remove */
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		sleep_ms(100);
		if (write(fds[1], "w", 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(fds[0], &c, 1) != 1)
		die("pipe read");
	printf("pipe_wait %d\n", child);
	waitpid(child, &status, 0);
	return 0;
}
