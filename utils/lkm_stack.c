// SPDX-License-Identifier: GPL-2.0
/*
 * lkm stack: configures lkst_stack, the handler that records an event with
 * its kernel (and user) stack.  Routing events to it is lkm config's or
 * lkm filter's job (lkm config -m 3 IPC_PIPE_READ stack).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lkm_cmds.h"
#include "lkst_stack.h"

#define STACK_MODULE "lkst_stack"

static char *depth_arg;
static int user, no_user;
static uint32_t depth;

static struct poptOption stack_options[] = {
	{ "depth", '\0', POPT_ARG_STRING, &depth_arg, 0,
	  "frames of each stack, 1..64 (default 16)", "N" },
	{ "user", 'u', POPT_ARG_NONE, &user, 0,
	  "also record the user stack (frame-pointer walk)", NULL },
	{ "no-user", 'U', POPT_ARG_NONE, &no_user, 0,
	  "record the kernel stack only (the default)", NULL },
	LKST_POPT_TAIL
};

static void check_stack(struct lkst_cmd *cmd)
{
	(void)cmd;
	if (user && no_user)
		lkst_die(LKST_EXIT_USAGE, "--user and --no-user contradict each other; give one");
	if (depth_arg &&
	    (lkst_parse_u32(depth_arg, LKST_STACK_MAX_DEPTH, &depth) || !depth))
		lkst_die(LKST_EXIT_USAGE, "bad depth '%s'; give a number of frames 1..%u",
			 depth_arg, LKST_STACK_MAX_DEPTH);
}

/* With options, configures the handler; without, shows it. */
static int run_stack(struct lkst_cmd *cmd)
{
	unsigned int handler = lkst_dev_handler_id(cmd->fd, "stack", STACK_MODULE);
	struct lkst_stack_config cfg;
	struct lkst_stack_stat st;
	int fd = cmd->fd, ret;

	ret = lkst_dev_handler_ctl(fd, handler, LKST_STACK_GET, &cfg, sizeof(cfg));
	if (ret < 0)
		lkst_die_errno(-ret, "reading the stack handler's configuration");
	if (depth_arg || user || no_user) {
		if (depth_arg)
			cfg.depth = depth;
		if (user)
			cfg.flags |= LKST_STACK_F_USER;
		if (no_user)
			cfg.flags &= ~LKST_STACK_F_USER;
		ret = lkst_dev_handler_ctl(fd, handler, LKST_STACK_SET, &cfg,
					   sizeof(cfg));
		if (ret == -EINVAL)
			lkst_die(LKST_EXIT_DEVICE, "the stack handler rejected the configuration (is lkst_stack.ko from this build?)");
		if (ret < 0)
			lkst_die_errno(-ret, "configuring the stack handler");
		return LKST_EXIT_OK;
	}
	ret = lkst_dev_handler_ctl(fd, handler, LKST_STACK_STAT, &st, sizeof(st));
	if (ret < 0)
		lkst_die_errno(-ret, "reading the stack handler's counters");
	printf("depth %u\nuser %s\nevents %llu\nkernel_stacks %llu\nuser_stacks %llu\nuser_skipped %llu\n",
	       cfg.depth, cfg.flags & LKST_STACK_F_USER ? "on" : "off",
	       (unsigned long long)st.events,
	       (unsigned long long)st.kernel_stacks,
	       (unsigned long long)st.user_stacks,
	       (unsigned long long)st.user_skipped);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkm_stack_ops = { stack_options, NULL, check_stack, run_stack, NULL };
