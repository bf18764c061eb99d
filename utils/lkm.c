// SPDX-License-Identifier: GPL-2.0
/*
 * lkm: manage lkst masksets, which route each event to a handler, and the
 * handlers that take options.  The verbs live in a file each by concept
 * (lkm_cmds.h); this is their table.
 */
#include "lkm_cmds.h"

#define DEV	LKST_NEEDS_DEVICE
#define ARGS	LKST_TAKES_ARGS

static const struct lkst_verb verbs[] = {
	LKST_VERB("list", DEV, &lkm_list_ops, "list the masksets"),
	LKST_VERB("read", DEV, &lkm_read_ops, "print a maskset as text (-m ID)"),
	LKST_VERB("write", DEV, &lkm_write_ops, "create or replace a maskset from text (-m ID)"),
	LKST_VERB("config", DEV | ARGS, &lkm_config_ops,
		  "route events or categories to handlers (-m ID EVENT HANDLER...)"),
	LKST_VERB("set", DEV, &lkm_set_ops, "make a maskset active (-m ID)"),
	LKST_VERB("delete", DEV, &lkm_delete_ops, "delete a user maskset (-m ID)"),
	LKST_VERB("events", 0, &lkm_events_ops, "list the events the tracer knows"),
	LKST_VERB("handlers", DEV, &lkm_handlers_ops, "list the registered event handlers"),
	LKST_VERB("stat", DEV, &lkm_stat_ops, "per-event hit and drop counters ([-e EVENTS] [--reset])"),
	LKST_VERB("filter", DEV | ARGS, &lkm_filter_ops,
		  "record an event only when a predicate holds (-m ID EVENT 'EXPR')"),
	LKST_VERB_GROUP("agg", &lkm_agg_group,
			"in-kernel aggregations: count, sum, min, max, avg, quantize (set|print|list|clear|delete)"),
	LKST_VERB("stack", DEV, &lkm_stack_ops,
		  "configure the stack handler: frames per stack, user stacks ([--depth N] [--user|--no-user])"),
	LKST_VERB_GROUP("probe", &lkm_probe_group,
			"dynamic probes: events fired by a kprobe or kretprobe (add|del|list)"),
	LKST_VERB_END
};

int main(int argc, char **argv)
{
	lkst_progname = "lkm";
	lkst_log_exit_on_sigbus();
	return lkst_run_verb(argc, argv, verbs);
}
