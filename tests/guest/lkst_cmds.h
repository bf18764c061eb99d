/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every /dev/lkst command with its name, for the guest programs that try
 * them all (the fuzzer, the unprivileged-user checks).  The checker of
 * t97_nonroot compares this list with lkst_ioctl.h, so a new command
 * cannot be left out.
 */
#ifndef LKST_CMDS_H
#define LKST_CMDS_H

#include <linux/lkst_ioctl.h>

static const struct cmd {
	unsigned long nr;
	const char *name;
} cmds[] = {
#define C(x) { LKST_IOC_##x, #x }
	C(GET_VERSION), C(CLOCK_ANCHOR), C(MASKSET_READ), C(MASKSET_WRITE),
	C(MASKSET_CONFIG), C(MASKSET_SET), C(MASKSET_DELETE), C(HANDLER_INFO),
	C(HANDLER_CTL), C(EVENT_DESC), C(EVENT_TABLE), C(PROBE_ADD), C(PROBE_DEL),
	C(EVENT_STAT), C(EVENT_STAT_RESET), C(CPU_INFO), C(BLOCK_INFO),
	C(BLOCK_READ), C(BLOCK_CREATE), C(BLOCK_LINK), C(BLOCK_DELETE),
	C(BLOCK_JUMP), C(BUFFER_DRAIN), C(BUFFER_MODE), C(BUFFER_RESIZE),
	C(MARK), C(PREVIOUS_INFO), C(PREVIOUS_DRAIN), C(PREVIOUS_RELEASE),
#undef C
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

#endif
