// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown raised while /dev/lkst is open: opens the device, raises
 * lockdown to confidentiality itself, then asks through the open
 * descriptor for what lockdown forbids (adding a probe, reading records)
 * and for what it does not (the version, switching masksets off).  Prints
 * one "ok"/"FAIL" line per request and exits with the number of failures.
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

int main(void)
{
	static struct lkst_record records[16];
	static uint64_t seqs[16];
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
	int fd = open("/dev/lkst", O_RDWR);

	if (fd < 0) {
		perror("/dev/lkst");
		return 1;
	}
	expect("BUFFER_DRAIN before lockdown", ioctl(fd, LKST_IOC_BUFFER_DRAIN, &drain), 0);
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
	expect("GET_VERSION on an open descriptor", ioctl(fd, LKST_IOC_GET_VERSION, &v), 0);
	expect("MASKSET_SET 0 (tracing off) on an open descriptor",
	       ioctl(fd, LKST_IOC_MASKSET_SET, &maskset), 0);
	close(fd);
	return failures;
}
