// SPDX-License-Identifier: GPL-2.0
/*
 * The hostile load of t95_hostile where stress-ng is not in the guest (the
 * arm64 initramfs): the same kinds of work as its stressors, each in a
 * child of its own for SECONDS, and how many operations each did.
 *
 *   lkst_hostile SECONDS     prints "stressor NAME ops N" for fork, exec,
 *                            sigq, kill, fault, mmap, pipe, futex, msg,
 *                            sem-sysv, shm-sysv and timer, then
 *                            "hostile: done"; exit 1 when one failed
 *   lkst_hostile --exit      what the exec stressor executes
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAP_BYTES	(1 << 20)

static time_t deadline;

static void die(const char *what)
{
	perror(what);
	_exit(2);
}

static int running(void)
{
	return time(NULL) < deadline;
}

static long st_fork(void)
{
	long n = 0;

	while (running()) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (!p)
			_exit(0);
		if (waitpid(p, NULL, 0) != p)
			die("waitpid");
		n++;
	}
	return n;
}

static long st_exec(void)
{
	long n = 0;

	while (running()) {
		int status;
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (!p) {
			execl("/proc/self/exe", "lkst_hostile", "--exit", (char *)NULL);
			_exit(3);
		}
		if (waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status))
			die("exec");
		n++;
	}
	return n;
}

static long st_sigq(void)
{
	union sigval v = { .sival_int = 1 };
	sigset_t set;
	long n = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (running()) {
		if (sigqueue(getpid(), SIGRTMIN, v) || sigwaitinfo(&set, NULL) != SIGRTMIN)
			die("sigqueue");
		n++;
	}
	return n;
}

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static long st_kill(void)
{
	long n = 0;

	signal(SIGUSR1, on_usr1);
	while (running()) {
		if (kill(getpid(), SIGUSR1))
			die("kill");
		n++;
	}
	return caught ? n : 0;
}

/* Page faults: touch fresh anonymous pages, give them back, again. */
static long st_fault(void)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	char *p = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	while (running()) {
		for (int i = 0; i < 16; i++)
			p[i * page] = (char)i;
		if (madvise(p, 16 * page, MADV_DONTNEED))
			die("madvise");
		n += 16;
	}
	return n;
}

static long st_mmap(void)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;

	while (running()) {
		char *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (long off = 0; off < MAP_BYTES; off += page)
			p[off] = 1;
		if (mprotect(p, MAP_BYTES, PROT_READ) || munmap(p, MAP_BYTES))
			die("munmap");
		n++;
	}
	return n;
}

static long st_pipe(void)
{
	char buf[4096] = { 0 };
	int fd[2];
	long n = 0;

	if (pipe(fd))
		die("pipe");
	while (running()) {
		if (write(fd[1], buf, sizeof(buf)) != sizeof(buf) ||
		    read(fd[0], buf, sizeof(buf)) != sizeof(buf))
			die("pipe");
		n++;
	}
	return n;
}

/* A waiter thread's worth of futex calls: waits that time out, wakes. */
static long st_futex(void)
{
	struct timespec ts = { 0, 100000 };
	int word = 0;
	long n = 0;

	while (running()) {
		if (syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0) != -1 ||
		    errno != ETIMEDOUT)
			die("futex wait");
		if (syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
			die("futex wake");
		n++;
	}
	return n;
}

static long st_msg(void)
{
	struct { long type; char text[64]; } m = { 1, "lkst" };
	int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	long n = 0;

	if (q < 0)
		die("msgget");
	while (running()) {
		if (msgsnd(q, &m, sizeof(m.text), 0) ||
		    msgrcv(q, &m, sizeof(m.text), 0, 0) != sizeof(m.text))
			die("msg");
		n++;
	}
	msgctl(q, IPC_RMID, NULL);
	return n;
}

static long st_sem(void)
{
	struct sembuf up = { 0, 1, 0 }, down = { 0, -1, 0 };
	int s = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	long n = 0;

	if (s < 0)
		die("semget");
	while (running()) {
		if (semop(s, &up, 1) || semop(s, &down, 1))
			die("semop");
		n++;
	}
	semctl(s, 0, IPC_RMID);
	return n;
}

static long st_shm(void)
{
	long n = 0;

	while (running()) {
		for (int seg = 0; seg < 2; seg++) {
			int id = shmget(IPC_PRIVATE, MAP_BYTES, IPC_CREAT | 0600);
			char *p;

			if (id < 0)
				die("shmget");
			p = shmat(id, NULL, 0);
			if (p == (void *)-1)
				die("shmat");
			memset(p, seg, MAP_BYTES);
			if (shmdt(p) || shmctl(id, IPC_RMID, NULL))
				die("shmdt");
		}
		n++;
	}
	return n;
}

/* A 1 ms POSIX timer: every expiry a signal, taken synchronously. */
static long st_timer(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { { 0, 1000000 }, { 0, 1000000 } };
	sigset_t set;
	timer_t t;
	long n = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) || timer_settime(t, 0, &its, NULL))
		die("timer_create");
	while (running()) {
		if (sigwaitinfo(&set, NULL) != SIGALRM)
			die("sigwaitinfo");
		n += 1 + timer_getoverrun(t);
	}
	timer_delete(t);
	return n;
}

static const struct {
	const char *name;
	long (*run)(void);
} stressors[] = {
	{ "fork", st_fork }, { "exec", st_exec }, { "sigq", st_sigq },
	{ "kill", st_kill }, { "fault", st_fault }, { "mmap", st_mmap },
	{ "pipe", st_pipe }, { "futex", st_futex }, { "msg", st_msg },
	{ "sem-sysv", st_sem }, { "shm-sysv", st_shm }, { "timer", st_timer },
};
#define NR_STRESSORS (sizeof(stressors) / sizeof(stressors[0]))

int main(int argc, char **argv)
{
	long *ops;
	pid_t pids[NR_STRESSORS];
	int failed = 0;

	if (argc == 2 && !strcmp(argv[1], "--exit"))
		return 0;
	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: lkst_hostile SECONDS\n");
		return 2;
	}
	deadline = time(NULL) + atoi(argv[1]);
	/* Each child writes its count here: a shared page survives its exit. */
	ops = mmap(NULL, sizeof(long) * NR_STRESSORS, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ops == MAP_FAILED)
		die("mmap");
	for (size_t i = 0; i < NR_STRESSORS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			ops[i] = stressors[i].run();
			_exit(0);
		}
	}
	for (size_t i = 0; i < NR_STRESSORS; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("stressor %s failed: status 0x%x\n", stressors[i].name, status);
			failed = 1;
			continue;
		}
		printf("stressor %s ops %ld\n", stressors[i].name, ops[i]);
		failed |= !ops[i];
	}
	printf("hostile: done\n");
	return failed;
}
