// SPDX-License-Identifier: GPL-2.0
/*
 * Memory workload for the t41_memory scenario.  Each mode does something
 * whose memory events are known exactly and writes the facts the checker
 * needs ("key value" lines) to the -o file:
 *
 *   basic  mmap an anonymous region, touch each page (faults, page
 *          allocations; their PFNs from /proc/self/pagemap), mprotect and
 *          munmap it in known pieces (plus calls that must fail), move brk,
 *          and send System V messages of known sizes (kmalloc'd and
 *          kfree'd by the kernel).
 *   swap   join the memory cgroup -c, fill -s MiB with non-zero data, then
 *          read it back and verify it: the cgroup's memory.max forces
 *          reclaim and swap-out, the read-back swaps in (major faults).
 *   oom    fork a child named lkst-oomvictim, oom_score_adj 345, that joins
 *          the memory cgroup -c and touches -s MiB until the OOM killer
 *          kills it.
 *   hog    outside any limit, touch memory in 1 MiB steps until kswapd has
 *          run and this process has reclaimed directly (/proc/vmstat's
 *          pageoutrun and allocstall_* grow), at most -s MiB.
 *
 *   lkst_mem MODE -o FACTS [-c CGROUP_DIR] [-s MIB]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE		4096UL
#define BASIC_PAGES	64
#define NR_MSGS		10
#define MSG_BASE	3000
#define MSG_STEP	7
#define OOM_ADJ		345

static FILE *facts;

static void die(const char *what)
{
	fprintf(stderr, "lkst_mem: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fail(const char *what)
{
	fprintf(stderr, "lkst_mem: %s\n", what);
	exit(1);
}

static void fact(const char *key, unsigned long value)
{
	fprintf(facts, "%s 0x%lx\n", key, value);
}

/* Raw system call so that the kernel's return value is seen as is. */
static long sys(long nr, long a, long b, long c)
{
	long ret = syscall(nr, a, b, c);

	return ret == -1 ? -errno : ret;
}

static void join_cgroup(const char *dir)
{
	char path[256], pid[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	len = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (write(fd, pid, len) != len)
		die(path);
	close(fd);
}

static unsigned long pfn_of(int pagemap, unsigned long addr)
{
	uint64_t entry;

	if (pread(pagemap, &entry, sizeof(entry), addr / PAGE * sizeof(entry)) !=
	    sizeof(entry))
		die("read /proc/self/pagemap");
	if (!(entry & (1ULL << 63)))
		fail("a touched page is not present in /proc/self/pagemap");
	entry &= (1ULL << 55) - 1;
	if (!entry)
		fail("/proc/self/pagemap hides PFNs (not root?)");
	return entry;
}

struct msg {
	long mtype;
	char mtext[MSG_BASE + NR_MSGS * MSG_STEP];
};

static void basic(void)
{
	long len = BASIC_PAGES * PAGE, brk0, want, ret;
	static struct msg m;
	int pagemap, q, i;
	char *a;

	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		die("mmap");
	fact("region", (unsigned long)a);
	fact("region_len", len);
	for (i = 0; i < BASIC_PAGES; i++)
		a[i * PAGE] = i + 1;
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		die("/proc/self/pagemap");
	for (i = 0; i < BASIC_PAGES; i++)
		fprintf(facts, "pfn 0x%lx 0x%lx\n", (unsigned long)(a + i * PAGE),
			pfn_of(pagemap, (unsigned long)(a + i * PAGE)));
	close(pagemap);

	/* mmap that must fail in the kernel: zero length. */
	if (syscall(SYS_mmap, 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != -1 ||
	    errno != EINVAL)
		fail("mmap(len 0) did not fail with EINVAL");

	if (sys(SYS_mprotect, (long)a, 16 * PAGE, PROT_READ))
		fail("mprotect of 16 pages failed");
	if (sys(SYS_mprotect, (long)a + 1, PAGE, PROT_READ) != -EINVAL)
		fail("unaligned mprotect did not fail with EINVAL");
	if (sys(SYS_munmap, (long)a + 16 * PAGE, 16 * PAGE, 0))
		fail("munmap of pages 16-31 failed");
	if (sys(SYS_munmap, (long)a + 1, PAGE, 0) != -EINVAL)
		fail("unaligned munmap did not fail with EINVAL");
	if (sys(SYS_munmap, (long)a, len, 0))
		fail("munmap of the whole region failed");

	brk0 = sys(SYS_brk, 0, 0, 0);
	want = brk0 + 5 * PAGE + 123;
	fact("brk0", brk0);
	fact("brk_want", want);
	if (sys(SYS_brk, want, 0, 0) != want)
		fail("brk did not grow");
	((char *)brk0)[PAGE] = 1;	/* a fault in a new page of the heap */
	if (sys(SYS_brk, brk0, 0, 0) != brk0)
		fail("brk did not shrink back");

	/* load_msg() kmallocs each message, free_msg() kfrees it. */
	q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (q < 0)
		die("msgget");
	m.mtype = 1;
	memset(m.mtext, 'm', sizeof(m.mtext));
	for (i = 0; i < NR_MSGS; i++) {
		if (msgsnd(q, &m, MSG_BASE + i * MSG_STEP, IPC_NOWAIT))
			die("msgsnd");
		ret = msgrcv(q, &m, sizeof(m.mtext), 0, IPC_NOWAIT);
		if (ret != (long)(MSG_BASE + i * MSG_STEP))
			die("msgrcv");
	}
	if (msgctl(q, IPC_RMID, NULL))
		die("msgctl IPC_RMID");
	fact("msg_base", MSG_BASE);
	fact("msg_step", MSG_STEP);
	fact("msgs", NR_MSGS);
}

static void swap(const char *cgroup, long mib)
{
	long len = mib << 20, pages = len / PAGE, i, bad = 0;
	uint64_t *a;

	join_cgroup(cgroup);
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		die("mmap");
	fact("swap_region", (unsigned long)a);
	fact("swap_region_len", len);
	fflush(facts);
	/* Non-zero pages: zero-filled ones would only be marked in the zeromap. */
	for (i = 0; i < pages; i++) {
		a[i * PAGE / 8] = 0x5a5a0000 + i;
		a[i * PAGE / 8 + 256] = ~i;
	}
	for (i = 0; i < pages; i++)
		bad += a[i * PAGE / 8] != 0x5a5a0000UL + i ||
		       a[i * PAGE / 8 + 256] != (uint64_t)~i;
	if (bad)
		fail("data read back from swap differs");
	if (munmap(a, len))
		die("munmap");
}

static void oom(const char *cgroup, long mib)
{
	int status, fd;
	pid_t child;

	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		long len = mib << 20, i;
		char *a;

		fd = open("/proc/self/oom_score_adj", O_WRONLY);
		if (fd < 0 || dprintf(fd, "%d\n", OOM_ADJ) < 0)
			die("/proc/self/oom_score_adj");
		close(fd);
		if (prctl(PR_SET_NAME, "lkst-oomvictim"))
			die("prctl");
		join_cgroup(cgroup);
		a = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED)
			die("mmap");
		for (i = 0; i < len; i += PAGE)
			a[i] = 1;
		fprintf(stderr, "lkst_mem: the OOM child survived %ld MiB\n", mib);
		_exit(3);
	}
	if (waitpid(child, &status, 0) != child)
		die("waitpid");
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		fail("the OOM child was not killed by SIGKILL");
	fact("oom_child", child);
	fact("oom_adj", OOM_ADJ);
}

static unsigned long vmstat(const char *prefix)
{
	unsigned long sum = 0, v;
	char key[64];
	FILE *f;

	f = fopen("/proc/vmstat", "r");
	if (!f)
		die("/proc/vmstat");
	while (fscanf(f, "%63s %lu", key, &v) == 2)
		if (!strncmp(key, prefix, strlen(prefix)))
			sum += v;
	fclose(f);
	return sum;
}

static void hog(long mib)
{
	unsigned long kswapd0 = vmstat("pageoutrun"), direct0 = vmstat("allocstall_");
	long step = 1 << 20, n;
	char *a;
	int fd;

	/* If reclaim cannot keep up, this process is the one to kill. */
	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	if (fd < 0 || dprintf(fd, "1000\n") < 0)
		die("/proc/self/oom_score_adj");
	close(fd);
	a = mmap(NULL, mib * step, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (a == MAP_FAILED)
		die("mmap");
	for (n = 0; n < mib; n++) {
		memset(a + n * step, 0x77, step);
		if (vmstat("pageoutrun") > kswapd0 && vmstat("allocstall_") > direct0)
			break;
	}
	fact("hog_mib", n);
	fact("hog_kswapd_runs", vmstat("pageoutrun") - kswapd0);
	fact("hog_direct_reclaims", vmstat("allocstall_") - direct0);
	munmap(a, mib * step);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *cgroup = NULL, *mode;
	long mib = 0;
	int opt;

	if (argc < 2)
		fail("usage: lkst_mem basic|swap|oom|hog -o FACTS [-c CGROUP] [-s MIB]");
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "o:c:s:")) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'c': cgroup = optarg; break;
		case 's': mib = atol(optarg); break;
		default: return 2;
		}
	}
	if (!out)
		fail("-o FACTS is required");
	if (strcmp(mode, "basic") && !mib)
		fail("-s MIB is required");
	if ((!strcmp(mode, "swap") || !strcmp(mode, "oom")) && !cgroup)
		fail("-c CGROUP_DIR is required");
	facts = fopen(out, "a");
	if (!facts)
		die(out);
	fprintf(facts, "pid_%s 0x%x\n", mode, getpid());
	fflush(facts);

	if (!strcmp(mode, "basic"))
		basic();
	else if (!strcmp(mode, "swap"))
		swap(cgroup, mib);
	else if (!strcmp(mode, "oom"))
		oom(cgroup, mib);
	else if (!strcmp(mode, "hog"))
		hog(mib);
	else
		fail("unknown mode (basic, swap, oom or hog)");
	if (fclose(facts))
		die(out);
	return 0;
}
