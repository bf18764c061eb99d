// SPDX-License-Identifier: GPL-2.0
/*
 * Do maskset requests wait for a buffer reader?  One thread drains CPU 0's
 * buffer into memory registered with userfaultfd, so the drain stops inside
 * its copy to user space, holding the buffer lock, until this program lets
 * it go.  While it is stopped there, the main thread reads masksets and
 * switches them (which also updates static keys): every one of those
 * requests must complete, and the drain must still be stopped after them.
 * A request that shared a lock with the drain would hang here, so the
 * program gives up after a time limit and says so.  Prints the figures:
 *
 *   lkst_switchdrain [-r READS] [-t SECONDS]
 *   drain stopped in its copy: maskset_reads R, switches S completed
 *   inside it, read_ms_max X, switch_ms_max Y
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include <linux/lkst_record.h>
#include "lkst_cpu0.h"

#define NR_SWITCHES 6

static int fd;
static void *trap;		/* the drain's destination, never populated */
static size_t trap_len;
static int drain_returned;
static int drain_error;
static unsigned int time_limit_s = 120;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *drainer(void *arg)
{
	struct lkst_buffer_drain req;

	(void)arg;
	memset(&req, 0, sizeof(req));
	req.cpu = 0;
	req.records = (unsigned long)trap;
	req.max_records = trap_len / sizeof(struct lkst_record);
	if (ioctl(fd, LKST_IOC_BUFFER_DRAIN, &req))
		__atomic_store_n(&drain_error, errno, __ATOMIC_SEQ_CST);
	__atomic_store_n(&drain_returned, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *watchdog(void *arg)
{
	int sysrq;

	(void)arg;
	sleep(time_limit_s);
	printf("FAIL: a maskset request still waits after %u s: it shares a lock with the drain\n",
	       time_limit_s);
	fflush(stdout);
	/* Where each of this program's threads waits, and the blocked tasks. */
	if (system("for t in /proc/$PPID/task/*; do echo \"thread ${t##*/}: $(cat $t/wchan)\"; cat $t/stack; done"))
		printf("lkst_switchdrain: could not show the threads' stacks\n");
	sysrq = open("/proc/sysrq-trigger", O_WRONLY);
	if (sysrq >= 0 && write(sysrq, "w", 1) == 1)
		sleep(5);
	_exit(1);
}

static int trap_drain(int uffd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	if (ioctl(uffd, UFFDIO_API, &api)) {
		perror("lkst_switchdrain: UFFDIO_API");
		return -1;
	}
	trap_len = 64 * sizeof(struct lkst_record);
	trap = mmap(NULL, trap_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (trap == MAP_FAILED) {
		perror("lkst_switchdrain: mmap");
		return -1;
	}
	reg.range.start = (unsigned long)trap;
	reg.range.len = trap_len;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		perror("lkst_switchdrain: UFFDIO_REGISTER");
		return -1;
	}
	return 0;
}

/*
 * Wait until the drain faults on the trap: it is then inside its copy.
 * The descriptor is non-blocking: poll() on a blocking userfaultfd
 * returns POLLERR at once (the kernel cannot promise a read will not
 * block), and the read would then wait for ever on a drain that never
 * faults.
 */
static int wait_for_fault(int uffd, struct uffd_msg *msg)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };

	if (poll(&pfd, 1, 60 * 1000) != 1 || !(pfd.revents & POLLIN)) {
		printf("FAIL: the drain never copied a record (is CPU 0's buffer empty?)\n");
		return -1;
	}
	if (read(uffd, msg, sizeof(*msg)) != sizeof(*msg) ||
	    msg->event != UFFD_EVENT_PAGEFAULT) {
		perror("lkst_switchdrain: reading the fault");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct lkst_maskset_desc desc;
	struct uffdio_zeropage zero;
	struct lkst_version ver;
	unsigned int reads_wanted = 2000, reads, switches;
	double t, read_ms_max = 0, switch_ms_max = 0;
	pthread_t drain_thread, watchdog_thread;
	struct uffd_msg msg;
	__u32 maskset, restore;
	int uffd, opt;

	while ((opt = getopt(argc, argv, "r:t:")) != -1) {
		switch (opt) {
		case 'r': reads_wanted = strtoul(optarg, NULL, 0); break;
		case 't': time_limit_s = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: lkst_switchdrain [-r READS] [-t SECONDS]\n");
			return 2;
		}
	}
	fd = open("/dev/lkst", O_RDWR);
	if (fd < 0 || ioctl(fd, LKST_IOC_GET_VERSION, &ver)) {
		perror("lkst_switchdrain: /dev/lkst");
		return 1;
	}
	/* The drain must have records to copy, or it never stops in its copy. */
	if (lkst_fill_cpu0(fd, "lkst_switchdrain", &restore))
		return 1;
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		perror("lkst_switchdrain: userfaultfd");
		return 1;
	}
	if (trap_drain(uffd))
		return 1;
	pthread_create(&watchdog_thread, NULL, watchdog, NULL);
	pthread_create(&drain_thread, NULL, drainer, NULL);
	if (wait_for_fault(uffd, &msg))
		return 1;

	for (reads = 0; reads < reads_wanted; reads++) {
		desc.id = reads % LKST_MASKSET_FIRST_USER;
		t = now_ms();
		if (ioctl(fd, LKST_IOC_MASKSET_READ, &desc)) {
			perror("lkst_switchdrain: MASKSET_READ");
			return 1;
		}
		t = now_ms() - t;
		if (t > read_ms_max)
			read_ms_max = t;
	}
	for (switches = 0; switches < NR_SWITCHES; switches++) {
		maskset = switches % 2 ? LKST_MASKSET_RDEFAULT : LKST_MASKSET_RNOTHING;
		t = now_ms();
		if (ioctl(fd, LKST_IOC_MASKSET_SET, &maskset)) {
			perror("lkst_switchdrain: MASKSET_SET");
			return 1;
		}
		t = now_ms() - t;
		if (t > switch_ms_max)
			switch_ms_max = t;
	}
	if (ioctl(fd, LKST_IOC_MASKSET_SET, &restore)) {
		perror("lkst_switchdrain: MASKSET_SET (restore)");
		return 1;
	}
	if (__atomic_load_n(&drain_returned, __ATOMIC_SEQ_CST)) {
		printf("FAIL: the drain returned before it was let go\n");
		return 1;
	}

	/* Let the drain go: zero pages under the whole destination. */
	zero.range.start = (unsigned long)trap;
	zero.range.len = trap_len;
	zero.mode = 0;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero)) {
		perror("lkst_switchdrain: UFFDIO_ZEROPAGE");
		return 1;
	}
	pthread_join(drain_thread, NULL);
	if (drain_error) {
		errno = drain_error;
		perror("lkst_switchdrain: BUFFER_DRAIN");
		return 1;
	}
	printf("drain stopped in its copy: maskset_reads %u, switches %u "
	       "completed inside it, read_ms_max %.1f, switch_ms_max %.1f\n",
	       reads, switches, read_ms_max, switch_ms_max);
	return 0;
}
