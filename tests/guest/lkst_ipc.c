// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_ipc - known IPC operations for the t51_ipc scenario.
 *
 * Each mechanism is exercised with sizes, types, priorities and values the
 * checker (tests/check/t51_ipc.py) knows, including one failing call each
 * where an error is cheap to provoke.  What the checker cannot know in
 * advance (PIDs, IPC ids, addresses, inode numbers) is printed as
 * "key value" lines on stdout.
 *
 * usage: lkst_ipc
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "lkst_ipc: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* A call expected to succeed; the message names the call. */
static long ok(long ret, const char *what)
{
	if (ret < 0)
		die("%s failed: %s", what, strerror(errno));
	return ret;
}

/* A call expected to fail with errno @err. */
static void fails(long ret, int err, const char *what)
{
	if (ret != -1 || errno != err)
		die("%s: expected -1/%s, got %ld/%s", what, strerror(err), ret,
		    strerror(errno));
}

static void expect(long got, long want, const char *what)
{
	if (got != want)
		die("%s returned %ld, expected %ld", what, got, want);
}

static char buf[8192];

struct msgbuf_big {
	long mtype;
	char mtext[1000];
};

static void sysv_msg(void)
{
	struct msgbuf_big m;
	int id = ok(msgget(IPC_PRIVATE, 0600), "msgget");

	printf("msqid %d\n", id);
	m.mtype = 7;
	ok(msgsnd(id, &m, 111, 0), "msgsnd 7");
	m.mtype = 8;
	ok(msgsnd(id, &m, 222, 0), "msgsnd 8");
	m.mtype = 9;
	ok(msgsnd(id, &m, 333, 0), "msgsnd 9");
	expect(ok(msgrcv(id, &m, sizeof(m.mtext), 8, 0), "msgrcv 8"), 222, "msgrcv 8");
	expect(ok(msgrcv(id, &m, sizeof(m.mtext), 0, 0), "msgrcv 0"), 111, "msgrcv 0");
	expect(ok(msgrcv(id, &m, sizeof(m.mtext), -9, 0), "msgrcv -9"), 333, "msgrcv -9");
	fails(msgrcv(id, &m, sizeof(m.mtext), 5, IPC_NOWAIT), ENOMSG, "msgrcv empty");
	m.mtype = 0;
	fails(msgsnd(id, &m, 10, 0), EINVAL, "msgsnd type 0");
	ok(msgctl(id, IPC_RMID, NULL), "msgctl IPC_RMID");
}

static void sysv_sem(void)
{
	struct sembuf two[2] = { { 3, 5, 0 }, { 1, 1, 0 } };
	struct sembuf take = { 3, -2, IPC_NOWAIT };
	struct sembuf busy = { 2, -1, IPC_NOWAIT };
	int id = ok(semget(IPC_PRIVATE, 4, 0600), "semget");

	printf("semid %d\n", id);
	ok(semop(id, two, 2), "semop +5/+1");
	ok(semop(id, &take, 1), "semop -2");
	fails(semop(id, &busy, 1), EAGAIN, "semop on zero");
	ok(semctl(id, 0, IPC_RMID), "semctl IPC_RMID");
}

static void sysv_shm(void)
{
	int id = ok(shmget(IPC_PRIVATE, 16384, 0600), "shmget");
	void *a, *b;

	printf("shmid %d\n", id);
	a = shmat(id, NULL, 0);
	if (a == (void *)-1)
		die("shmat: %s", strerror(errno));
	b = shmat(id, NULL, SHM_RDONLY);
	if (b == (void *)-1)
		die("shmat rdonly: %s", strerror(errno));
	printf("shmaddr %p\nshmaddr_ro %p\n", a, b);
	((char *)a)[0] = 1;
	ok(shmdt(a), "shmdt");
	ok(shmdt(b), "shmdt rdonly");
	fails(shmdt(a), EINVAL, "shmdt twice");
	ok(shmctl(id, IPC_RMID, NULL), "shmctl IPC_RMID");
	fails((long)shmat(id, NULL, 0), EINVAL, "shmat removed");
}

static void pipes(void)
{
	struct stat st;
	int fd[2];

	ok(pipe(fd), "pipe");
	ok(fstat(fd[0], &st), "fstat pipe");
	printf("pipe_ino %lu\n", (unsigned long)st.st_ino);
	expect(ok(write(fd[1], buf, 100), "write 100"), 100, "write 100");
	expect(ok(write(fd[1], buf, 2000), "write 2000"), 2000, "write 2000");
	expect(ok(write(fd[1], buf, 4096), "write 4096"), 4096, "write 4096");
	expect(ok(read(fd[0], buf, 50), "read 50"), 50, "read 50");
	expect(ok(read(fd[0], buf, 8000), "read 8000"), 6146, "read 8000");
	ok(fcntl(fd[0], F_SETFL, O_NONBLOCK), "O_NONBLOCK");
	fails(read(fd[0], buf, 300), EAGAIN, "read empty pipe");
	close(fd[0]);
	close(fd[1]);
}

static uint32_t futex_word;
static volatile int waiter_tid;

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void *futex_waiter(void *arg)
{
	(void)arg;
	waiter_tid = gettid();
	/* Retried only if woken with the word unchanged (spurious). */
	while (__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE) == 0)
		if (futex(&futex_word, FUTEX_WAIT, 0) && errno != EAGAIN &&
		    errno != EINTR)
			die("futex wait: %s", strerror(errno));
	return NULL;
}

/* The waiter is blocked in the kernel once its state reads 'S'. */
static int thread_sleeping(int tid)
{
	char path[64], stat[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	p = strrchr(stat, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void futexes(void)
{
	pthread_t t;
	long woken = 0;
	int i;

	printf("futex_addr %p\n", (void *)&futex_word);
	fails(futex(&futex_word, FUTEX_WAIT, 12345), EAGAIN, "futex wait on other value");
	if (pthread_create(&t, NULL, futex_waiter, NULL))
		die("pthread_create failed");
	for (i = 0; i < 500 && !(waiter_tid && thread_sleeping(waiter_tid)); i++)
		usleep(10000);
	if (i == 500)
		die("futex waiter never slept");
	usleep(50000);
	__atomic_store_n(&futex_word, 1, __ATOMIC_RELEASE);
	woken = ok(futex(&futex_word, FUTEX_WAKE, 5), "futex wake");
	if (pthread_join(t, NULL))
		die("pthread_join failed");
	printf("futex_waiter %d\nfutex_woken %ld\n", waiter_tid, woken);
}

static void mqueues(void)
{
	struct mq_attr attr = { .mq_maxmsg = 8, .mq_msgsize = 512 };
	unsigned int prio;
	mqd_t q;

	mq_unlink("/lkst_ipc");
	q = mq_open("/lkst_ipc", O_CREAT | O_EXCL | O_RDWR, 0600, &attr);
	if (q == (mqd_t)-1)
		die("mq_open: %s", strerror(errno));
	printf("mqd %d\n", (int)q);
	ok(mq_send(q, buf, 100, 3), "mq_send 100");
	ok(mq_send(q, buf, 200, 7), "mq_send 200");
	ok(mq_send(q, buf, 300, 1), "mq_send 300");
	fails(mq_send(q, buf, 10, 40000), EINVAL, "mq_send bad priority");
	expect(ok(mq_receive(q, buf, 512, &prio), "mq_receive"), 200, "mq_receive 1");
	expect(prio, 7, "priority 1");
	expect(ok(mq_receive(q, buf, 600, &prio), "mq_receive"), 100, "mq_receive 2");
	expect(prio, 3, "priority 2");
	expect(ok(mq_receive(q, buf, 512, &prio), "mq_receive"), 300, "mq_receive 3");
	expect(prio, 1, "priority 3");
	fails(mq_receive(q, buf, 100, &prio), EMSGSIZE, "mq_receive small buffer");
	mq_close(q);
	ok(mq_unlink("/lkst_ipc"), "mq_unlink");
}

/* A socket's inode number: what lkst records for it and for its peer. */
static unsigned long socket_ino(int fd)
{
	struct stat st;

	ok(fstat(fd, &st), "fstat socket");
	return st.st_ino;
}

static void unix_pair(int type, size_t len)
{
	int sv[2];

	ok(socketpair(AF_UNIX, type, 0, sv), "socketpair");
	printf("unix_pair_%d %lu %lu\n", type, socket_ino(sv[0]), socket_ino(sv[1]));
	expect(ok(send(sv[0], buf, len, 0), "unix send"), len, "unix send");
	expect(ok(recv(sv[1], buf, sizeof(buf), 0), "unix recv"), len, "unix recv");
	close(sv[0]);
	close(sv[1]);
}

/* Block until the peer of stream socket @fd has shut down or closed. */
static void wait_peer_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	for (;;) {
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (p.revents & (POLLRDHUP | POLLHUP))
			return;
	}
}

/*
 * A connected stream socket between two processes.  The client sends
 * only once the server has accepted (and said so).  Neither closes before
 * the other's last hook has run, since a peer not yet accepted or already
 * closed has no socket and would be recorded as no peer inode: the hooks
 * read the peer after the send or recv returns.  So after the last
 * exchange the client shuts its sending side down, the server closes once
 * it sees that, and the client exits once it sees the close; shutdown()
 * and poll() record nothing.  The client sends its socket's inode number,
 * for the server to print.
 */
static void unix_connected(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned long client_ino, server_ino;
	socklen_t salen;
	int l, c, status;
	pid_t child;

	memcpy(sa.sun_path, "\0lkst_ipc", 9);
	salen = offsetof(struct sockaddr_un, sun_path) + 9;
	l = ok(socket(AF_UNIX, SOCK_STREAM, 0), "socket");
	ok(bind(l, (struct sockaddr *)&sa, salen), "bind");
	ok(listen(l, 1), "listen");
	child = ok(fork(), "fork");
	if (child == 0) {
		unsigned long ino;

		c = ok(socket(AF_UNIX, SOCK_STREAM, 0), "socket");
		ok(connect(c, (struct sockaddr *)&sa, salen), "connect");
		expect(ok(recv(c, buf, 1, 0), "client recv"), 1, "client recv");
		ino = socket_ino(c);
		memcpy(buf, &ino, sizeof(ino));
		expect(ok(send(c, buf, 321, 0), "client send"), 321, "client send");
		expect(ok(recv(c, buf, 1, 0), "client recv"), 1, "client recv");
		ok(shutdown(c, SHUT_WR), "shutdown");
		wait_peer_closed(c);
		_exit(0);
	}
	c = ok(accept(l, NULL, NULL), "accept");
	server_ino = socket_ino(c);
	expect(ok(send(c, buf, 1, 0), "server send"), 1, "server send");
	expect(ok(recv(c, buf, 4000, 0), "server recv"), 321, "server recv");
	memcpy(&client_ino, buf, sizeof(client_ino));
	expect(ok(send(c, buf, 1, 0), "server send"), 1, "server send");
	wait_peer_closed(c);
	close(c);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("client process failed");
	printf("unix_client %d\n", (int)child);
	printf("unix_connected %lu %lu\n", client_ino, server_ino);
	close(l);
}

static void unix_sockets(void)
{
	int sv[2];

	unix_pair(SOCK_STREAM, 123);
	unix_pair(SOCK_DGRAM, 77);
	unix_pair(SOCK_SEQPACKET, 55);
	ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	printf("unix_empty %lu %lu\n", socket_ino(sv[0]), socket_ino(sv[1]));
	fails(recv(sv[0], buf, 999, MSG_DONTWAIT), EAGAIN, "recv empty stream");
	close(sv[0]);
	close(sv[1]);
	unix_connected();
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		die("usage: lkst_ipc (no arguments)");
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", (int)getpid());
	sysv_msg();
	sysv_sem();
	sysv_shm();
	pipes();
	futexes();
	mqueues();
	unix_sockets();
	printf("done\n");
	return 0;
}
