// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/lkst refuses everything to an unprivileged process.  Run as root:
 *
 *   lkst_nonroot                  the matrix below; one ok/FAIL line per
 *                                 check, exit status = number of failures
 *   lkst_nonroot --exec CMD ARG.. run CMD as uid/gid 65534, no groups
 *
 * Two kinds of unprivileged process are tried, both forked from root:
 * "nobody" (uid/gid 65534, no supplementary groups) and "root-nocap"
 * (uid 0 without CAP_SYS_ADMIN).  Each must be refused
 *  - open() with every access mode, with the node as the kernel made it
 *    (0600: the VFS says EACCES for nobody) and opened up to 0666 (then
 *    the driver's own check must say EPERM);
 *  - every LKST_IOC_* command on an fd root opened and passed down, with a
 *    valid argument and with a NULL one, and an unknown command, all EPERM
 *    (not EFAULT or ENOTTY, which would tell it something), with nothing
 *    written to its argument or its record and sequence arrays.
 * Root then checks that none of the refused requests changed anything.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/lkst_ioctl.h>
#include "lkst_cmds.h"

#define NOBODY		65534
#define PATTERN		0xa5
#define NR_RECS		64
#define PROBE_MASKSET	30	/* an ID the refused MASKSET_WRITE would create */

static int failures;

static void result(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failures++;
}

static const char *errname(int ret, int e)
{
	return ret < 0 ? strerrorname_np(e) : "success";
}

/* uid/gid 65534, no supplementary groups; every capability goes with uid 0. */
static int become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return -1;
	return getuid() == NOBODY && geteuid() == NOBODY && getegid() == NOBODY ? 0 : -1;
}

/* Still uid 0, but without CAP_SYS_ADMIN in any set. */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i = CAP_TO_INDEX(CAP_SYS_ADMIN);
	__u32 bit = CAP_TO_MASK(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[i].effective &= ~bit;
	data[i].permitted &= ~bit;
	data[i].inheritable &= ~bit;
	if (syscall(SYS_capset, &hdr, data) || syscall(SYS_capget, &hdr, data))
		return -1;
	return (data[i].effective | data[i].permitted) & bit ? -1 : 0;
}

struct who {
	const char *name;
	int (*become)(void);
};

static const struct who whos[] = {
	{ "nobody", become_nobody },
	{ "root-nocap", drop_sys_admin },
};

/*
 * Run @fn as @who in a child; the child prints its own lines and exits
 * with its failure count.
 */
static void as_user(const struct who *who, void (*fn)(const struct who *, void *), void *arg)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		failures = 0;
		if (who->become()) {
			result(0, "%s: cannot drop privileges: %s", who->name, strerror(errno));
			_exit(1);
		}
		fn(who, arg);
		fflush(stdout);
		_exit(failures > 250 ? 250 : failures);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		result(0, "%s: fork/wait: %s", who->name, strerror(errno));
		return;
	}
	if (!WIFEXITED(status))
		result(0, "%s: child died with status 0x%x", who->name, status);
	else
		failures += WEXITSTATUS(status);
}

/* ---- open ---- */

static const struct { int flags; const char *name; } open_modes[] = {
	{ O_RDONLY, "O_RDONLY" }, { O_WRONLY, "O_WRONLY" }, { O_RDWR, "O_RDWR" },
	{ O_RDWR | O_NONBLOCK | O_CLOEXEC, "O_RDWR|O_NONBLOCK|O_CLOEXEC" },
};

/* @arg: the node's mode, which decides who refuses the open. */
static void try_open(const struct who *who, void *arg)
{
	mode_t mode = *(mode_t *)arg;
	unsigned int i;
	int fd, e;

	for (i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		fd = open(LKST_DEVICE, open_modes[i].flags);
		e = errno;
		if (fd >= 0)
			close(fd);
		/* Only the driver can refuse once the VFS lets anyone in. */
		if (mode == 0666 || !strcmp(who->name, "root-nocap"))
			result(fd < 0 && e == EPERM, "%s: open(%s) of a %04o node -> %s, wanted EPERM",
			       who->name, open_modes[i].name, mode, errname(fd, e));
		else
			result(fd < 0 && (e == EACCES || e == EPERM),
			       "%s: open(%s) of a %04o node -> %s, wanted EACCES or EPERM",
			       who->name, open_modes[i].name, mode, errname(fd, e));
	}
}

/* ---- ioctls on an inherited fd ---- */


static struct lkst_record records[NR_RECS];
static __u64 seqs[NR_RECS];

/*
 * An argument root would have had accepted: each would read records,
 * change the tracer or show a kernel address if it were let through.
 */
static void valid_arg(unsigned long nr, void *buf)
{
	memset(buf, 0, 512);
	switch (nr) {
	case LKST_IOC_MASKSET_READ:
		((struct lkst_maskset_desc *)buf)->id = LKST_MASKSET_RALL;
		break;
	case LKST_IOC_MASKSET_WRITE: {
		struct lkst_maskset_desc *d = buf;

		d->id = PROBE_MASKSET;
		strcpy(d->name, "nonroot");
		memset(d->handler, LKST_HANDLER_NOTHING, sizeof(d->handler));
		d->handler[LKST_EV_USER_MARK] = LKST_HANDLER_DEFAULT;
		break;
	}
	case LKST_IOC_MASKSET_CONFIG: {
		struct lkst_maskset_entry *e = buf;

		e->id = PROBE_MASKSET;
		e->event = LKST_EV_USER_MARK;
		e->handler = LKST_HANDLER_DEFAULT;
		break;
	}
	case LKST_IOC_MASKSET_SET:
		*(__u32 *)buf = LKST_MASKSET_RNOTHING;
		break;
	case LKST_IOC_MASKSET_DELETE:
		*(__u32 *)buf = PROBE_MASKSET;
		break;
	case LKST_IOC_HANDLER_INFO:
		((struct lkst_handler_desc *)buf)->id = LKST_HANDLER_DEFAULT;
		break;
	case LKST_IOC_HANDLER_CTL:
		((struct lkst_handler_ctl *)buf)->handler = LKST_HANDLER_DEFAULT;
		break;
	case LKST_IOC_EVENT_STAT:
		((struct lkst_event_stat *)buf)->event = LKST_EV_SYSCALL_ENTRY;
		break;
	case LKST_IOC_BLOCK_READ: {
		struct lkst_block_read *r = buf;

		r->records = (__u64)(unsigned long)records;
		r->max_records = NR_RECS;
		break;
	}
	case LKST_IOC_BLOCK_CREATE: {
		struct lkst_block_create *c = buf;

		c->size = 8192;
		c->next = LKST_NO_NEXT;
		break;
	}
	case LKST_IOC_BLOCK_LINK:
		((struct lkst_block_link *)buf)->next = LKST_NO_NEXT;
		break;
	case LKST_IOC_BLOCK_DELETE:	/* a block that may exist */
		((struct lkst_block_delete *)buf)->block = 1;
		break;
	case LKST_IOC_BUFFER_DRAIN: {
		struct lkst_buffer_drain *d = buf;

		d->records = (__u64)(unsigned long)records;
		d->seqs = (__u64)(unsigned long)seqs;
		d->max_records = NR_RECS;
		break;
	}
	case LKST_IOC_BUFFER_MODE:
		((struct lkst_buffer_mode *)buf)->cpu = LKST_ALL_CPUS;
		((struct lkst_buffer_mode *)buf)->mode = LKST_MODE_STOP;
		break;
	case LKST_IOC_BUFFER_RESIZE:
		((struct lkst_buffer_resize *)buf)->size = 8192;
		break;
	case LKST_IOC_MARK:
		strcpy(buf, "written by an unprivileged process");
		break;
	default:	/* out-only: GET_VERSION, CLOCK_ANCHOR, CPU_INFO 0, ... */
		break;
	}
}

static int all_bytes(const void *p, size_t n, unsigned char v)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++ != v)
			return 0;
	return 1;
}

/* @arg: the fds root opened; every command on each must be refused. */
static void try_ioctls(const struct who *who, void *arg)
{
	const int *fds = arg;
	unsigned char buf[512], want[512];
	unsigned int i, f;
	long ret;
	int e;

	for (f = 0; f < 2; f++) {
		const char *how = f ? "O_RDONLY" : "O_RDWR";

		for (i = 0; i < NR_CMDS; i++) {
			valid_arg(cmds[i].nr, want);
			memcpy(buf, want, sizeof(buf));
			memset(records, PATTERN, sizeof(records));
			memset(seqs, PATTERN, sizeof(seqs));
			ret = ioctl(fds[f], cmds[i].nr, buf);
			e = errno;
			result(ret == -1 && e == EPERM, "%s: inherited %s fd: %s -> %s, wanted EPERM",
			       who->name, how, cmds[i].name, errname(ret, e));
			result(!memcmp(buf, want, sizeof(buf)) &&
			       all_bytes(records, sizeof(records), PATTERN) &&
			       all_bytes(seqs, sizeof(seqs), PATTERN),
			       "%s: inherited %s fd: %s wrote nothing back", who->name, how,
			       cmds[i].name);
			/* The capability is checked before the argument is read. */
			ret = ioctl(fds[f], cmds[i].nr, NULL);
			e = errno;
			result(ret == -1 && e == EPERM, "%s: inherited %s fd: %s with NULL -> %s, wanted EPERM",
			       who->name, how, cmds[i].name, errname(ret, e));
		}
		ret = ioctl(fds[f], _IO(LKST_IOC_MAGIC, 0x7f), 0);
		e = errno;
		result(ret == -1 && e == EPERM, "%s: inherited %s fd: unknown command -> %s, wanted EPERM",
		       who->name, how, errname(ret, e));
	}
}

/* ---- what root sees before and after ---- */

struct snapshot {
	struct lkst_version version;
	struct lkst_cpu_info cpu0;
	struct lkst_block_info block0;
	__u64 syscall_hits, mark_hits;
	int probe_exists;
};

static int snapshot(int fd, struct snapshot *s)
{
	struct lkst_event_stat st = { .event = LKST_EV_SYSCALL_ENTRY };
	struct lkst_maskset_desc d = { .id = PROBE_MASKSET };

	memset(s, 0, sizeof(*s));
	s->block0.block = 0;
	if (ioctl(fd, LKST_IOC_GET_VERSION, &s->version) ||
	    ioctl(fd, LKST_IOC_CPU_INFO, &s->cpu0) ||
	    ioctl(fd, LKST_IOC_BLOCK_INFO, &s->block0) ||
	    ioctl(fd, LKST_IOC_EVENT_STAT, &st))
		return -1;
	s->syscall_hits = st.hits;
	st.event = LKST_EV_USER_MARK;
	if (ioctl(fd, LKST_IOC_EVENT_STAT, &st))
		return -1;
	s->mark_hits = st.hits;
	s->probe_exists = !ioctl(fd, LKST_IOC_MASKSET_READ, &d);
	return 0;
}

static void compare(const struct snapshot *a, const struct snapshot *b)
{
	result(a->version.active_maskset == b->version.active_maskset,
	       "root: active maskset still %u (is %u)", a->version.active_maskset,
	       b->version.active_maskset);
	result(!b->probe_exists, "root: no maskset %u was created", PROBE_MASKSET);
	result(a->cpu0.nr_blocks == b->cpu0.nr_blocks && a->cpu0.mode == b->cpu0.mode,
	       "root: cpu 0 still has %u blocks in mode %u (has %u in mode %u)",
	       a->cpu0.nr_blocks, a->cpu0.mode, b->cpu0.nr_blocks, b->cpu0.mode);
	result(a->block0.size == b->block0.size, "root: cpu 0 block 0 still %u bytes (is %u)",
	       a->block0.size, b->block0.size);
	/* A reset would have started the counts again from 0. */
	result(b->syscall_hits >= a->syscall_hits, "root: event counters not reset (%llu -> %llu)",
	       (unsigned long long)a->syscall_hits, (unsigned long long)b->syscall_hits);
	result(a->mark_hits == b->mark_hits, "root: no USER_MARK recorded (%llu -> %llu)",
	       (unsigned long long)a->mark_hits, (unsigned long long)b->mark_hits);
}

static int exec_as_nobody(char **argv)
{
	if (become_nobody()) {
		fprintf(stderr, "lkst_nonroot: cannot become uid %d: %s\n", NOBODY, strerror(errno));
		return 126;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "lkst_nonroot: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	struct snapshot before, after;
	struct stat st;
	mode_t mode;
	int fds[2];
	unsigned int w;

	if (argc > 2 && !strcmp(argv[1], "--exec"))
		return exec_as_nobody(argv + 2);
	if (argc != 1) {
		fprintf(stderr, "usage: lkst_nonroot [--exec COMMAND [ARG...]]\n");
		return 126;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "lkst_nonroot: run me as root\n");
		return 126;
	}
	fds[0] = open(LKST_DEVICE, O_RDWR);
	fds[1] = open(LKST_DEVICE, O_RDONLY);
	if (fds[0] < 0 || fds[1] < 0 || snapshot(fds[0], &before)) {
		perror("lkst_nonroot: " LKST_DEVICE " as root");
		return 126;
	}
	if (stat(LKST_DEVICE, &st)) {
		perror("lkst_nonroot: stat " LKST_DEVICE);
		return 126;
	}
	result(S_ISCHR(st.st_mode) && st.st_uid == 0 && st.st_gid == 0 &&
	       (st.st_mode & 07777) == 0600,
	       "%s is a root:root character device of mode 0600 (%u:%u %04o)", LKST_DEVICE,
	       st.st_uid, st.st_gid, st.st_mode & 07777);

	for (w = 0; w < sizeof(whos) / sizeof(whos[0]); w++) {
		mode = 0600;
		as_user(&whos[w], try_open, &mode);
		/* Opened up, so that only the driver stands in the way. */
		if (chmod(LKST_DEVICE, 0666)) {
			result(0, "chmod 0666 %s: %s", LKST_DEVICE, strerror(errno));
		} else {
			mode = 0666;
			as_user(&whos[w], try_open, &mode);
			if (chmod(LKST_DEVICE, st.st_mode & 07777))
				result(0, "chmod back %s: %s", LKST_DEVICE, strerror(errno));
		}
		as_user(&whos[w], try_ioctls, fds);
	}

	if (snapshot(fds[0], &after)) {
		result(0, "root: reading the state again: %s", strerror(errno));
	} else {
		compare(&before, &after);
	}
	close(fds[0]);
	close(fds[1]);
	printf("%d failures\n", failures);
	return failures > 125 ? 125 : failures;
}
