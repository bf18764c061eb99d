// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf mark: write an annotation into the trace (event USER_MARK), so a
 * log can be cut at points a script or a person chose.
 */
#include <unistd.h>

#include "lkbuf_mark.h"
#include "lkst_cli.h"

int lkbuf_verb_mark(int argc, const char **argv)
{
	struct poptOption options[] = { LKST_POPT_TAIL };
	poptContext ctx = lkst_parse_options(argc, argv, options, "TEXT...");
	struct lkst_version version;
	struct lkst_mark mark;
	struct lkst_err err;
	int fd, ret;

	/* Checked before opening the device: a bad text never needs root. */
	if (lkst_mark_text(poptGetArgs(ctx), &mark, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fd = lkst_dev_open(&version);
	ret = lkst_dev_ioctl(fd, LKST_IOC_MARK, &mark);
	if (ret)
		lkst_die_errno(-ret, "writing the mark");
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}
