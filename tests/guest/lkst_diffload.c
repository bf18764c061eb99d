// SPDX-License-Identifier: GPL-2.0
/*
 * Workload of the differential test (t99_differential): a little of every
 * category the hooks and the upstream tracepoints both see, run by this
 * process and the children it forks, all of which it reaps before it
 * exits, so that every event of the process tree falls inside the window
 * where both tracers are on.
 *
 *   processes  fork + exec of /bin/true, fork + exit, a pthread; a vfork
 *              child that sleeps first, so that the parent waits for it
 *              on a completion (a simple wait queue)
 *   pipes      a ping-pong between two processes (switches, wakeups)
 *   signals    SIGUSR1 to a handler, SIGTERM to the default action, each
 *              ending a pipe read it blocks in
 *   memory     mmap, touch, munmap; a read() into untouched pages (a
 *              fault taken in the kernel on a user address)
 *   syscalls   the 64-bit entry, and int $0x80 (the 32-bit entry)
 *   timers     nanosleep (hrtimers), an interval timer
 *   IPC        System V message queue, a UNIX socket pair
 *   network    UDP datagrams over lo
 *   block      O_DIRECT writes and reads on the scratch disk, if given
 *   workqueue  a work item queued on each CPU, run by the kworkers
 *   migration  pinned to CPU 0, then to CPU 1
 *
 *   lkst_diffload [-d /dev/vdb] > facts.txt   (prints "root PID")
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "lkst_diffload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void reap(pid_t pid, int want_status, int want_signal)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (want_signal ? !(WIFSIGNALED(status) && WTERMSIG(status) == want_signal)
			: !(WIFEXITED(status) && WEXITSTATUS(status) == want_status)) {
		fprintf(stderr, "lkst_diffload: child %d ended with status 0x%x\n",
			pid, status);
		exit(1);
	}
}

static void processes(void)
{
	pid_t pid;

	for (int i = 0; i < 3; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		reap(pid, 0, 0);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(5);
		reap(pid, 5, 0);
	}
}

static char vfork_stack[64 * 1024] __attribute__((aligned(16)));

static int vfork_child(void *arg)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };

	(void)arg;
	nanosleep(&nap, NULL);
	_exit(6);
}

/*
 * clone(CLONE_VFORK) suspends the parent in wait_for_vfork_done() until
 * the child exits; the child's exit completes it (swake_up_locked()).
 */
static void vfork_wait(void)
{
	pid_t pid = clone(vfork_child, vfork_stack + sizeof(vfork_stack),
			  CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);

	if (pid < 0)
		die("clone(CLONE_VFORK)");
	printf("vfork_child %d\n", pid);
	reap(pid, 6, 0);
}

static void *thread_body(void *arg)
{
	return arg;
}

static void threads(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_body, NULL) || pthread_join(t, NULL))
		die("pthread");
}

static void pipes(void)
{
	int to_child[2], to_parent[2];
	char buf[64] = "ping";
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (int i = 0; i < 30; i++) {
			if (read(to_child[0], buf, sizeof(buf)) <= 0 ||
			    write(to_parent[1], buf, 17) != 17)
				_exit(1);
		}
		_exit(0);
	}
	for (int i = 0; i < 30; i++) {
		if (write(to_child[1], buf, 13) != 13 ||
		    read(to_parent[0], buf, sizeof(buf)) != 17)
			die("ping-pong");
	}
	reap(pid, 0, 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/* Wait until @pid sleeps (it blocks in nothing but the read we want). */
static void wait_until_sleeping(pid_t pid)
{
	char path[64], stat[256], *state;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (;;) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open /proc/PID/stat");
		n = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (n <= 0)
			die("read /proc/PID/stat");
		stat[n] = 0;
		state = strrchr(stat, ')');
		if (state && state[1] == ' ' && state[2] == 'S')
			return;
		usleep(1000);
	}
}

/*
 * A child blocked in read() on an empty pipe: SIGUSR1 interrupts that
 * wait (a handler without SA_RESTART: EINTR), SIGTERM ends the next one
 * (the default action).  Both leave the wait queue through
 * prepare_to_wait_event()'s signal path.
 */
static void signals(void)
{
	int ready[2], block[2];
	char c;
	pid_t pid;

	if (pipe(ready) || pipe(block))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		if (sigaction(SIGUSR1, &sa, NULL))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		while (!usr1_seen)
			if (read(block[0], &c, 1) >= 0 || errno != EINTR)
				_exit(1);
		if (write(ready[1], "u", 1) != 1)
			_exit(1);
		for (;;)
			if (read(block[0], &c, 1) >= 0)
				_exit(1);
	}
	if (read(ready[0], &c, 1) != 1)
		die("signals");
	wait_until_sleeping(pid);
	if (kill(pid, SIGUSR1) || read(ready[0], &c, 1) != 1)
		die("signals");
	wait_until_sleeping(pid);
	if (kill(pid, SIGTERM))
		die("signals");
	reap(pid, 0, SIGTERM);
	close(ready[0]);
	close(ready[1]);
	close(block[0]);
	close(block[1]);
}

static void memory(void)
{
	const size_t len = 32 * 4096;
	int zero = open("/dev/zero", O_RDONLY);

	if (zero < 0)
		die("/dev/zero");
	for (int i = 0; i < 4; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (size_t off = 0; off < len / 2; off += 4096)
			p[off] = (char)off;
		/* The second half is first touched by the kernel's copy. */
		if (read(zero, p + len / 2, len / 2) != (ssize_t)(len / 2))
			die("read /dev/zero");
		if (munmap(p, len))
			die("munmap");
	}
	close(zero);
}

#ifdef __x86_64__
/* getpid() through the 32-bit entry: int $0x80 with the i386 number. */
static long getpid_int80(void)
{
	long ret = 20;

	asm volatile ("int $0x80" : "+a" (ret) : : "memory", "r8", "r9",
		      "r10", "r11");
	return ret;
}

static void syscalls(void)
{
	for (int i = 0; i < 5; i++) {
		if (getpid_int80() != getpid()) {
			fprintf(stderr, "lkst_diffload: int $0x80 getpid failed\n");
			exit(1);
		}
	}
}
#else
/*
 * The compat entry needs AArch32 code, which this static arm64 program has
 * none of: only the native calls of the other phases are compared.
 */
static void syscalls(void)
{
}
#endif

static void timers(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	struct itimerval it = { { 0, 3000 }, { 0, 3000 } };
	sigset_t alrm, old, pending;

	for (int i = 0; i < 4; i++)
		nanosleep(&ts, NULL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	if (setitimer(ITIMER_REAL, &it, NULL))
		die("setitimer");
	for (int i = 0; i < 3; i++) {
		int sig;

		sigwait(&alrm, &sig);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	/* Under load the timer may have expired again before it was
	 * disarmed: take that SIGALRM too, or unblocking kills us. */
	if (!sigpending(&pending) && sigismember(&pending, SIGALRM)) {
		int sig;

		sigwait(&alrm, &sig);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void ipc(void)
{
	struct { long type; char text[32]; } msg = { 1, "differential" };
	int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600), sv[2];
	char buf[64];

	if (q < 0)
		die("msgget");
	for (int i = 0; i < 3; i++) {
		if (msgsnd(q, &msg, sizeof(msg.text), 0) ||
		    msgrcv(q, &msg, sizeof(msg.text), 0, 0) < 0)
			die("msgsnd/msgrcv");
	}
	msgctl(q, IPC_RMID, NULL);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	for (int i = 0; i < 3; i++) {
		if (write(sv[0], "unix", 4) != 4 || read(sv[1], buf, sizeof(buf)) != 4)
			die("unix socket");
	}
	close(sv[0]);
	close(sv[1]);
}

static void network(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[256];

	if (rx < 0 || tx < 0)
		die("socket");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(rx, (struct sockaddr *)&addr, &alen))
		die("bind");
	memset(buf, 'n', sizeof(buf));
	for (int i = 0; i < 5; i++) {
		if (sendto(tx, buf, 100 + i, 0, (struct sockaddr *)&addr, sizeof(addr)) != 100 + i ||
		    recv(rx, buf, sizeof(buf), 0) != 100 + i)
			die("udp over lo");
	}
	close(rx);
	close(tx);
}

static void block(const char *disk)
{
	/* Far from the start, where the swap scenarios put their swap area. */
	const off_t base = 48 << 20;
	void *buf;
	int fd;

	if (!disk)
		return;
	fd = open(disk, O_RDWR | O_DIRECT);
	if (fd < 0)
		die(disk);
	if (posix_memalign(&buf, 4096, 8192))
		die("posix_memalign");
	memset(buf, 'b', 8192);
	for (int i = 0; i < 4; i++) {
		if (pwrite(fd, buf, 4096 * (i % 2 + 1), base + i * 8192) != 4096 * (i % 2 + 1) ||
		    pread(fd, buf, 4096, base + i * 8192) != 4096)
			die("direct I/O");
	}
	free(buf);
	close(fd);
}

/*
 * Work items this task queues, one per CPU (schedule_on_each_cpu() behind
 * /proc/sys/vm/stat_refresh), which kworkers run while it waits.
 */
static void work_items(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd < 0)
		die("open /proc/sys/vm/stat_refresh");
	/* EINVAL says a counter is negative: the work items ran anyway. */
	if (write(fd, "1", 1) < 0 && errno != EINVAL)
		die("write /proc/sys/vm/stat_refresh");
	close(fd);
}

static void migration(void)
{
	cpu_set_t set;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	for (int cpu = 0; cpu < 2 && cpu < ncpus; cpu++) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die("sched_setaffinity");
		sched_yield();
	}
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < ncpus; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	const char *disk = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd') {
			fprintf(stderr, "usage: lkst_diffload [-d DISK]\n");
			return 2;
		}
		disk = optarg;
	}
	printf("root %d\n", getpid());
	fflush(stdout);
	processes();
	vfork_wait();
	threads();
	pipes();
	signals();
	memory();
	syscalls();
	timers();
	ipc();
	network();
	block(disk);
	work_items();
	migration();
	return 0;
}
