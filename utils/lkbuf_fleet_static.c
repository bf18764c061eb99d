// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf.static's sql and ship: the guest's static build has no static
 * libcurl, and a guest ships its logs from the host (docs/fleet.md), so
 * these verbs say where they are instead.
 */
#include "lkbuf_cmds.h"

static struct poptOption no_options[] = {
	LKST_POPT_TAIL
};

static int run_absent(struct lkst_cmd *cmd)
{
	lkst_die(LKST_EXIT_USAGE, "%s is not in this static lkbuf (no SQLite or libcurl in it); copy the logs to a machine with the dynamic lkbuf and run it there (docs/fleet.md)",
		 cmd->name);
}

const struct lkst_verb_ops lkbuf_sql_ops = { no_options, NULL, NULL, run_absent, NULL };
const struct lkst_verb_ops lkbuf_ship_ops = { no_options, NULL, NULL, run_absent, NULL };
