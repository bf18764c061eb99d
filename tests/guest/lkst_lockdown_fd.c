// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown raised while /dev/lkst is open: opens the device, raises
 * lockdown to confidentiality itself, then asks through the open
 * descriptor for what lockdown forbids (adding a probe, reading records,
 * reading lkst_agg's keys and values, which are arguments) and for what it
 * does not (the version, switching masksets off, lkst_agg's commands that
 * configure or count).  lkst_agg.ko must be loaded.  Prints one "ok"/"FAIL"
 * line per request and exits with the number of failures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/lkst_ioctl.h>
#include "../../handlers/lkst_agg.h"
#include "lkst_expect.h"

static int raise_lockdown(void)
{
	static const char level[] = "confidentiality";
	int fd = open("/sys/kernel/security/lockdown", O_WRONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, level, strlen(level));
		close(fd);
	}
	return n == (ssize_t)strlen(level) ? 0 : -1;
}

/* The ID of the handler named @name, or -1. */
static int handler_id(int fd, const char *name)
{
	struct lkst_handler_desc d;
	unsigned int id;

	for (id = 0; id < LKST_MAX_HANDLERS; id++) {
		memset(&d, 0, sizeof(d));
		d.id = id;
		if (!ioctl(fd, LKST_IOC_HANDLER_INFO, &d) && !strcmp(d.name, name))
			return id;
	}
	return -1;
}

/* lkst_agg's command @cmd on @data, of @size bytes. */
static int agg_ctl(int fd, int agg, unsigned int cmd, void *data, size_t size)
{
	struct lkst_handler_ctl ctl = {
		.handler = agg, .cmd = cmd, .data = (uintptr_t)data, .size = size,
	};

	return ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl);
}

int main(void)
{
	static struct lkst_record records[16];
	static uint64_t seqs[16];
	static struct lkst_agg_entry entries[16];
	struct lkst_version v;
	struct lkst_probe probe = { .nr_args = 0 };
	struct lkst_buffer_drain drain = {
		.cpu = 0, .records = (uintptr_t)records, .seqs = (uintptr_t)seqs,
		.max_records = 16,
	};
	struct lkst_block_read bread = {
		.cpu = 0, .block = 0, .records = (uintptr_t)records,
		.max_records = 16,
	};
	unsigned int maskset = 0;
	struct lkst_agg_config cfg = {
		.name = "lockdown", .func = LKST_AGG_F_COUNT,
		.keys = { LKST_AGG_KEY_ARG1 }, .slots = LKST_AGG_MIN_SLOTS,
	};
	struct lkst_agg_read aread = {
		.index = 0, .max_entries = 16, .entries = (uintptr_t)entries,
	};
	struct lkst_agg_info ainfo = { .index = 0 };
	struct lkst_agg_name aname = { .name = "lockdown" };
	int agg, index;
	int fd = open("/dev/lkst", O_RDWR);

	if (fd < 0) {
		perror("/dev/lkst");
		return 1;
	}
	expect("BUFFER_DRAIN before lockdown", ioctl(fd, LKST_IOC_BUFFER_DRAIN, &drain), 0);
	agg = handler_id(fd, "agg");
	if (agg < 0) {
		fprintf(stderr, "lkst_lockdown_fd: no handler named agg\n");
		return 1;
	}
	lkst_agg_event_set(cfg.events, LKST_EV_SYSCALL_ENTRY);
	index = agg_ctl(fd, agg, LKST_AGG_SET, &cfg, sizeof(cfg));
	expect("agg SET before lockdown", index, 0);
	aread.index = index;
	ainfo.index = index;
	expect("agg READ before lockdown",
	       agg_ctl(fd, agg, LKST_AGG_READ, &aread, sizeof(aread)), 0);
	if (raise_lockdown()) {
		perror("lockdown");
		return 1;
	}
	strcpy(probe.name, "lockdown_probe");
	strcpy(probe.symbol, "vfs_read");
	expect("PROBE_ADD on an open descriptor", ioctl(fd, LKST_IOC_PROBE_ADD, &probe), EPERM);
	expect("BUFFER_DRAIN on an open descriptor", ioctl(fd, LKST_IOC_BUFFER_DRAIN, &drain), EPERM);
	expect("BLOCK_READ on an open descriptor", ioctl(fd, LKST_IOC_BLOCK_READ, &bread), EPERM);
	drain.cpu = 0;
	expect("PREVIOUS_DRAIN on an open descriptor", ioctl(fd, LKST_IOC_PREVIOUS_DRAIN, &drain), EPERM);
	expect("agg READ on an open descriptor",
	       agg_ctl(fd, agg, LKST_AGG_READ, &aread, sizeof(aread)), EPERM);
	expect("GET_VERSION on an open descriptor", ioctl(fd, LKST_IOC_GET_VERSION, &v), 0);
	expect("agg INFO on an open descriptor",
	       agg_ctl(fd, agg, LKST_AGG_INFO, &ainfo, sizeof(ainfo)), 0);
	expect("agg CLEAR on an open descriptor",
	       agg_ctl(fd, agg, LKST_AGG_CLEAR, &aname, sizeof(aname)), 0);
	expect("agg DELETE on an open descriptor",
	       agg_ctl(fd, agg, LKST_AGG_DELETE, &aname, sizeof(aname)), 0);
	expect("MASKSET_SET 0 (tracing off) on an open descriptor",
	       ioctl(fd, LKST_IOC_MASKSET_SET, &maskset), 0);
	close(fd);
	return failures;
}
