// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_lock - contend a kernel mutex and an rw_semaphore from user space,
 * for the t54_lock scenario.
 *
 * Phase 1 (mutex): writer threads push 16 KiB writes into one pipe while a
 * reader thread drains it; pipe_write() and pipe_read() hold the pipe's
 * mutex while they copy, so the threads queue on it.
 * Phase 2 (rw_semaphore): in one process, mapper threads mmap(), touch and
 * munmap() anonymous memory (mmap_lock taken for writing) while query
 * threads call mincore() (mmap_lock taken for reading).
 *
 * Prints "pid PID" and the thread IDs of each role as
 * "mutex_tids T...", "rwsem_writer_tids T..." and "rwsem_reader_tids T...".
 *
 * usage: lkst_lock [-m MS] [-r MS]   (phase durations, default 1500 each)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PIPE_WRITERS	4
#define MAPPERS		2
#define QUERIERS	3
#define CHUNK		16384

static int pipefd[2];
static volatile int stop;
static char *query_area;
static size_t page;

static void die(const char *what)
{
	fprintf(stderr, "lkst_lock: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *pipe_writer(void *arg)
{
	static char chunk[CHUNK];

	*(int *)arg = gettid();
	while (!stop)
		if (write(pipefd[1], chunk, sizeof(chunk)) < 0)
			die("pipe write");
	return NULL;
}

static void *pipe_reader(void *arg)
{
	static char sink[CHUNK];
	ssize_t n;

	*(int *)arg = gettid();
	while ((n = read(pipefd[0], sink, sizeof(sink))) > 0)
		;
	if (n < 0)
		die("pipe read");
	return NULL;
}

static void *mapper(void *arg)
{
	size_t len = 16 * page, i;
	char *p;

	*(int *)arg = gettid();
	while (!stop) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (i = 0; i < len; i += page)
			p[i] = 1;
		if (munmap(p, len))
			die("munmap");
	}
	return NULL;
}

static void *querier(void *arg)
{
	unsigned char vec[16];

	*(int *)arg = gettid();
	while (!stop)
		if (mincore(query_area, 16 * page, vec))
			die("mincore");
	return NULL;
}

/*
 * Run @n threads for @ms milliseconds, the first @split of them @a and
 * the rest @b, then stop and join them.  Each stores its TID in @tids.
 */
static void run(void *(*a)(void *), void *(*b)(void *), int split, int n,
		int *tids, unsigned int ms)
{
	pthread_t t[8];
	double end;
	int i;

	stop = 0;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, i < split ? a : b, &tids[i]))
			die("pthread_create");
	end = now() + ms / 1000.0;
	while (now() < end)
		usleep(20000);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static void print_tids(const char *key, const int *tids, int n)
{
	int i;

	printf("%s", key);
	for (i = 0; i < n; i++)
		printf(" %d", tids[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned int mutex_ms = 1500, rwsem_ms = 1500;
	int mutex_tids[PIPE_WRITERS + 1], map_tids[MAPPERS];
	int query_tids[QUERIERS], both_tids[MAPPERS + QUERIERS];
	pthread_t reader;
	int opt;

	while ((opt = getopt(argc, argv, "m:r:")) != -1) {
		if (opt == 'm')
			mutex_ms = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			rwsem_ms = strtoul(optarg, NULL, 0);
		else {
			fprintf(stderr, "usage: lkst_lock [-m MS] [-r MS]\n");
			return 1;
		}
	}
	page = sysconf(_SC_PAGESIZE);
	printf("pid %d\n", (int)getpid());

	/* Phase 1: the pipe mutex. */
	if (pipe(pipefd))
		die("pipe");
	if (pthread_create(&reader, NULL, pipe_reader, &mutex_tids[PIPE_WRITERS]))
		die("pthread_create");
	run(pipe_writer, NULL, PIPE_WRITERS, PIPE_WRITERS, mutex_tids, mutex_ms);
	close(pipefd[1]);
	pthread_join(reader, NULL);
	close(pipefd[0]);
	print_tids("mutex_tids", mutex_tids, PIPE_WRITERS + 1);

	/* Phase 2: mmap_lock, writers and readers in one address space. */
	query_area = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (query_area == MAP_FAILED)
		die("mmap");
	memset(query_area, 1, 16 * page);
	run(mapper, querier, MAPPERS, MAPPERS + QUERIERS, both_tids, rwsem_ms);
	memcpy(map_tids, both_tids, sizeof(map_tids));
	memcpy(query_tids, both_tids + MAPPERS, sizeof(query_tids));
	print_tids("rwsem_writer_tids", map_tids, MAPPERS);
	print_tids("rwsem_reader_tids", query_tids, QUERIERS);
	printf("done\n");
	return 0;
}
