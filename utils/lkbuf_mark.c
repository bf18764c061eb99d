// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf mark: write an annotation into the trace (event USER_MARK), so a
 * log can be cut at points a script or a person chose.
 */
#include "lkbuf_cmds.h"

static struct lkst_mark mark;

/* Checked before opening the device: a bad text never needs root. */
static void check_mark(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	if (lkst_mark_text(cmd->args, &mark, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_mark(struct lkst_cmd *cmd)
{
	int ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_MARK, &mark);

	if (ret)
		lkst_die_errno(-ret, "writing the mark");
	return LKST_EXIT_OK;
}

static struct poptOption mark_options[] = { LKST_POPT_TAIL };
const struct lkst_verb_ops lkbuf_mark_ops = { mark_options, "TEXT...", check_mark, run_mark, NULL };
