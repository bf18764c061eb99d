// SPDX-License-Identifier: GPL-2.0
/*
 * Load a capture kernel for kdump with kexec_file_load(), as
 * `kexec -p -s` does, without kexec-tools in the guest:
 *
 *   lkst_kexec_crash BZIMAGE INITRD CMDLINE
 *
 * After a panic the kernel boots BZIMAGE in its crashkernel= region,
 * where /proc/vmcore is the crashed kernel's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kexec.h>

int main(int argc, char **argv)
{
	int kernel_fd, initrd_fd;

	if (argc != 4) {
		fprintf(stderr, "usage: lkst_kexec_crash BZIMAGE INITRD CMDLINE\n");
		return 2;
	}
	kernel_fd = open(argv[1], O_RDONLY);
	initrd_fd = open(argv[2], O_RDONLY);
	if (kernel_fd < 0 || initrd_fd < 0) {
		perror("lkst_kexec_crash: open");
		return 1;
	}
	/* The length counts the terminating NUL. */
	if (syscall(SYS_kexec_file_load, kernel_fd, initrd_fd,
		    strlen(argv[3]) + 1, argv[3], KEXEC_FILE_ON_CRASH)) {
		fprintf(stderr, "lkst_kexec_crash: kexec_file_load: %s\n",
			strerror(errno));
		return 1;
	}
	printf("capture kernel loaded: %s %s \"%s\"\n", argv[1], argv[2], argv[3]);
	return 0;
}
