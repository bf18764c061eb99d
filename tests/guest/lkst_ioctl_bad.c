// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds /dev/lkst bad input through every ioctl and checks that each is
 * refused with the documented errno, then that an unprivileged process
 * cannot use the device at all.  Prints one "ok"/"FAIL" line per check and
 * exits with the number of failures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include "lkst_cpu0.h"
#include "lkst_expect.h"


/* HANDLER_CTL reaches only a registered handler that takes commands. */
static void check_handler_ctl(int fd)
{
	struct lkst_handler_ctl ctl = { .handler = LKST_HANDLER_DEFAULT };

	expect("HANDLER_CTL to default", ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl), EOPNOTSUPP);
	ctl.handler = 200;
	expect("HANDLER_CTL unregistered", ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl), ENOENT);
	ctl.handler = LKST_MAX_HANDLERS;
	expect("HANDLER_CTL handler 256", ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl), EINVAL);
	ctl.handler = LKST_HANDLER_DEFAULT;
	ctl.__pad = 1;
	expect("HANDLER_CTL padding", ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl), EINVAL);
	expect("HANDLER_CTL bad pointer", ioctl(fd, LKST_IOC_HANDLER_CTL, (void *)8), EFAULT);
}

/* The event table in one call: sizes checked, the count even without room. */
static void check_event_table(int fd, unsigned int nr_events)
{
	static struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
	struct lkst_event_desc one = { .id = LKST_EV_SYSCALL_EXIT };
	struct lkst_event_table t = {
		.descs = (uintptr_t)descs, .max_descs = LKST_NR_EVENT_IDS,
		.desc_size = sizeof(descs[0]),
	};

	expect("EVENT_TABLE", ioctl(fd, LKST_IOC_EVENT_TABLE, &t), 0);
	if (t.nr_descs != nr_events || descs[0].id != LKST_EV_PROCESS_CONTEXTSWITCH ||
	    strcmp(descs[0].mnemonic, "PROCESS_CONTEXTSWITCH")) {
		printf("FAIL EVENT_TABLE: %u events (GET_VERSION says %u), first 0x%x %s\n",
		       t.nr_descs, nr_events, descs[0].id, descs[0].mnemonic);
		failures++;
	}
	t.max_descs = 0;
	t.descs = 8;
	expect("EVENT_TABLE no room, bad pointer", ioctl(fd, LKST_IOC_EVENT_TABLE, &t), 0);
	t.max_descs = 2;
	expect("EVENT_TABLE bad pointer", ioctl(fd, LKST_IOC_EVENT_TABLE, &t), EFAULT);
	t.descs = (uintptr_t)descs;
	t.desc_size = sizeof(descs[0]) - 8;
	expect("EVENT_TABLE other desc size", ioctl(fd, LKST_IOC_EVENT_TABLE, &t), EINVAL);
	t.desc_size = sizeof(descs[0]);
	t.__pad = 1;
	expect("EVENT_TABLE padding", ioctl(fd, LKST_IOC_EVENT_TABLE, &t), EINVAL);
	expect("EVENT_DESC", ioctl(fd, LKST_IOC_EVENT_DESC, &one), 0);
	if (strcmp(one.mnemonic, "SYSCALL_EXIT") || one.arg_type[1] != LKST_ARG_RETVAL) {
		printf("FAIL EVENT_DESC 0x31: %s, second argument type %u\n", one.mnemonic,
		       one.arg_type[1]);
		failures++;
	}
	one.id = 0xef;
	expect("EVENT_DESC of no event", ioctl(fd, LKST_IOC_EVENT_DESC, &one), ENOENT);
	one.id = LKST_NR_EVENT_IDS;
	expect("EVENT_DESC id 256", ioctl(fd, LKST_IOC_EVENT_DESC, &one), ENOENT);
}

static void check_masksets(int fd)
{
	struct lkst_maskset_desc desc;
	struct lkst_maskset_entry entry;
	__u32 id;

	memset(&desc, 0, sizeof(desc));
	desc.id = LKST_MAX_MASKSETS;
	expect("MASKSET_READ id 32", ioctl(fd, LKST_IOC_MASKSET_READ, &desc), EINVAL);
	desc.id = 20;
	expect("MASKSET_READ unused id", ioctl(fd, LKST_IOC_MASKSET_READ, &desc), ENOENT);

	memset(&desc, 0, sizeof(desc));
	memset(desc.handler, LKST_HANDLER_NOTHING, sizeof(desc.handler));
	strcpy(desc.name, "bad");
	desc.id = LKST_MASKSET_RALL;
	expect("MASKSET_WRITE system", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), EROFS);
	desc.id = 20;
	desc.flags = 1;
	expect("MASKSET_WRITE flags", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), EINVAL);
	desc.flags = 0;
	memset(desc.name, 'x', sizeof(desc.name));
	expect("MASKSET_WRITE unterminated name", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), EINVAL);
	strcpy(desc.name, "bad");
	desc.handler[0x01] = 0;
	expect("MASKSET_WRITE handler 0", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), EINVAL);
	desc.handler[0x01] = 200;
	expect("MASKSET_WRITE unregistered handler", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), ENOENT);
	desc.handler[0x01] = LKST_HANDLER_NOTHING;
	desc.handler[0xff] = LKST_HANDLER_DEFAULT;
	expect("MASKSET_WRITE non-event routed", ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc), EINVAL);

	memset(&entry, 0, sizeof(entry));
	entry.id = 20;
	entry.event = 1;
	entry.handler = 1;
	expect("MASKSET_CONFIG missing maskset", ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry), ENOENT);
	entry.id = LKST_MASKSET_RNOTHING;
	expect("MASKSET_CONFIG system", ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry), EROFS);
	entry.id = 99;
	expect("MASKSET_CONFIG id 99", ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry), EINVAL);

	id = 99;
	expect("MASKSET_SET id 99", ioctl(fd, LKST_IOC_MASKSET_SET, &id), EINVAL);
	id = 20;
	expect("MASKSET_SET unused", ioctl(fd, LKST_IOC_MASKSET_SET, &id), ENOENT);
	id = LKST_MASKSET_RDEFAULT;
	expect("MASKSET_DELETE system", ioctl(fd, LKST_IOC_MASKSET_DELETE, &id), EROFS);
	id = 20;
	expect("MASKSET_DELETE unused", ioctl(fd, LKST_IOC_MASKSET_DELETE, &id), ENOENT);
}

static void check_buffers(int fd)
{
	struct lkst_cpu_info cpu = { .cpu = 4096 };
	struct lkst_block_info info = { 0 };
	struct lkst_block_create create = { 0 };
	struct lkst_block_link link = { 0 };
	struct lkst_block_delete del = { 0 };
	struct lkst_block_jump jump = { 0 };
	struct lkst_block_read rd = { 0 };

	expect("CPU_INFO cpu 4096", ioctl(fd, LKST_IOC_CPU_INFO, &cpu), EINVAL);
	info.block = LKST_MAX_BLOCKS;
	expect("BLOCK_INFO block 64", ioctl(fd, LKST_IOC_BLOCK_INFO, &info), EINVAL);
	info.block = 63;
	expect("BLOCK_INFO missing block", ioctl(fd, LKST_IOC_BLOCK_INFO, &info), ENOENT);

	create.size = 100;
	create.next = LKST_NO_NEXT;
	expect("BLOCK_CREATE size 100", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create), EINVAL);
	create.size = LKST_BLOCK_MAX_SIZE + 1;
	expect("BLOCK_CREATE size too big", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create), EINVAL);
	create.size = 8192;
	create.next = 63;
	expect("BLOCK_CREATE next missing", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create), ENOENT);
	create.next = LKST_NO_NEXT;
	create.cpu = 4096;
	expect("BLOCK_CREATE cpu 4096", ioctl(fd, LKST_IOC_BLOCK_CREATE, &create), EINVAL);

	link.block = 0;
	link.next = 63;
	expect("BLOCK_LINK to missing", ioctl(fd, LKST_IOC_BLOCK_LINK, &link), ENOENT);
	link.next = LKST_NO_NEXT;
	link.__pad = 1;
	expect("BLOCK_LINK padding", ioctl(fd, LKST_IOC_BLOCK_LINK, &link), EINVAL);
	link.__pad = 0;
	jump.block = 63;
	expect("BLOCK_JUMP missing", ioctl(fd, LKST_IOC_BLOCK_JUMP, &jump), ENOENT);
	jump.__pad[0] = 1;
	expect("BLOCK_JUMP padding", ioctl(fd, LKST_IOC_BLOCK_JUMP, &jump), EINVAL);
	del.block = 63;
	expect("BLOCK_DELETE missing", ioctl(fd, LKST_IOC_BLOCK_DELETE, &del), ENOENT);
	del.__pad[1] = 1;
	expect("BLOCK_DELETE padding", ioctl(fd, LKST_IOC_BLOCK_DELETE, &del), EINVAL);
	del.__pad[1] = 0;
	del.block = 0;
	expect("BLOCK_DELETE current block", ioctl(fd, LKST_IOC_BLOCK_DELETE, &del), EBUSY);
	/* As binaries built when all three took a struct lkst_block_link. */
	link.next = 0;
	link.block = 63;
	expect("BLOCK_JUMP missing, link struct", ioctl(fd, LKST_IOC_BLOCK_JUMP, &link), ENOENT);
	expect("BLOCK_DELETE missing, link struct", ioctl(fd, LKST_IOC_BLOCK_DELETE, &link), ENOENT);
	link.next = 1;
	expect("BLOCK_DELETE next 1, link struct", ioctl(fd, LKST_IOC_BLOCK_DELETE, &link), EINVAL);
	link.next = 0;

	rd.block = 0;
	rd.max_records = 16;
	rd.records = 0x10;	/* unmapped */
	expect("BLOCK_READ bad pointer", ioctl(fd, LKST_IOC_BLOCK_READ, &rd), EFAULT);
	expect("BLOCK_READ bad argument pointer",
	       ioctl(fd, LKST_IOC_BLOCK_READ, (void *)0x10), EFAULT);
}

/* The drain, mode and resize requests of ABI 2. */
static void check_buffer_requests(int fd)
{
	struct lkst_buffer_drain drain = { .cpu = 4096, .max_records = 16 };
	struct lkst_buffer_mode mode = { .cpu = LKST_ALL_CPUS, .mode = LKST_MODE_STOP + 1 };
	struct lkst_buffer_resize resize = { .size = 100 };

	expect("BUFFER_DRAIN cpu 4096", ioctl(fd, LKST_IOC_BUFFER_DRAIN, &drain), EINVAL);
	/* CPU 0 holds records (lkst_fill_cpu0()): copying them out must fault. */
	drain.cpu = 0;
	drain.records = 0x10;	/* unmapped */
	drain.seqs = 0x10;
	expect("BUFFER_DRAIN bad pointer", ioctl(fd, LKST_IOC_BUFFER_DRAIN, &drain), EFAULT);
	expect("BUFFER_DRAIN bad argument pointer",
	       ioctl(fd, LKST_IOC_BUFFER_DRAIN, (void *)0x10), EFAULT);

	expect("BUFFER_MODE mode 2", ioctl(fd, LKST_IOC_BUFFER_MODE, &mode), EINVAL);
	mode.cpu = 4096;
	mode.mode = LKST_MODE_OVERWRITE;
	expect("BUFFER_MODE cpu 4096", ioctl(fd, LKST_IOC_BUFFER_MODE, &mode), EINVAL);

	expect("BUFFER_RESIZE size 100", ioctl(fd, LKST_IOC_BUFFER_RESIZE, &resize), EINVAL);
	resize.size = LKST_BLOCK_MAX_SIZE + 1;
	expect("BUFFER_RESIZE size too big", ioctl(fd, LKST_IOC_BUFFER_RESIZE, &resize), EINVAL);
	resize.size = 8192;
	resize.__pad = 1;
	expect("BUFFER_RESIZE padding", ioctl(fd, LKST_IOC_BUFFER_RESIZE, &resize), EINVAL);
}

/*
 * The device node is root's, mode 0600; open it up so that the tracer's own
 * CAP_SYS_ADMIN checks are what refuses uid 65534, both at open and on an
 * fd that root opened and passed down.
 */
/*
 * kprobe's offset is an unsigned int: a larger one is refused, not cut to
 * its low 32 bits (which put this probe on vfs_read+0, while its
 * description named the full offset).
 */
static void check_probes(int fd)
{
	struct lkst_probe probe = { .offset = 1ULL << 32 };

	strcpy(probe.name, "bad_offset");
	strcpy(probe.symbol, "vfs_read");
	expect("PROBE_ADD offset 2^32", ioctl(fd, LKST_IOC_PROBE_ADD, &probe), EINVAL);
	probe.offset = 0;
	probe.flags = 1u << 7;
	expect("PROBE_ADD unknown flag", ioctl(fd, LKST_IOC_PROBE_ADD, &probe), EINVAL);
}

static void check_unprivileged(int root_fd)
{
	struct lkst_version v;
	pid_t pid;
	int status;

	if (chmod(LKST_DEVICE, 0666)) {
		perror("chmod " LKST_DEVICE);
		failures++;
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (setuid(65534))
			_exit(3);
		if (open(LKST_DEVICE, O_RDWR) >= 0 || errno != EPERM) {
			dprintf(1, "     open as uid 65534: %s\n", strerror(errno));
			_exit(1);
		}
		if (ioctl(root_fd, LKST_IOC_GET_VERSION, &v) == 0 ||
		    errno != EPERM) {
			dprintf(1, "     ioctl as uid 65534: %s\n", strerror(errno));
			_exit(2);
		}
		_exit(0);
	}
	waitpid(pid, &status, 0);
	chmod(LKST_DEVICE, 0600);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok   open and ioctl as uid 65534 -> %s\n", strerror(EPERM));
	} else {
		printf("FAIL uid 65534 not refused with EPERM (%s, status 0x%x)\n",
		       WEXITSTATUS(status) == 2 ? "ioctl" : "open", status);
		failures++;
	}
}

int main(void)
{
	struct lkst_version v;
	int fd = open(LKST_DEVICE, O_RDWR);
	__u32 restore;

	if (fd < 0) {
		perror(LKST_DEVICE);
		return 1;
	}
	expect("GET_VERSION", ioctl(fd, LKST_IOC_GET_VERSION, &v), 0);
	if (v.abi_version != LKST_ABI_VERSION || v.record_size != sizeof(struct lkst_record)) {
		printf("FAIL version %u record size %u\n", v.abi_version, v.record_size);
		failures++;
	}
	expect("unknown command", ioctl(fd, _IO(LKST_IOC_MAGIC, 0x7f), 0), ENOTTY);
	check_handler_ctl(fd);
	check_event_table(fd, v.nr_events);
	check_masksets(fd);
	/* A bad pointer must fault where a read or drain copies records. */
	if (lkst_fill_cpu0(fd, "lkst_ioctl_bad", &restore)) {
		failures++;
	} else {
		check_buffers(fd);
		check_buffer_requests(fd);
		expect("MASKSET_SET back", ioctl(fd, LKST_IOC_MASKSET_SET, &restore), 0);
	}
	check_probes(fd);
	check_unprivileged(fd);
	printf("%d failures\n", failures);
	return failures;
}
