// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf: manage lkst's per-CPU buffer blocks, save them to a log file and
 * print log files.  The verbs live in a file each by concept
 * (lkbuf_cmds.h); this is their table.
 */
#include <stdlib.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"

#define DEV	LKST_NEEDS_DEVICE

static const struct lkst_verb verbs[] = {
	LKST_VERB("list", DEV, &lkbuf_list_ops,
		  "list each CPU's blocks and counters"),
	LKST_VERB("read", DEV, &lkbuf_read_ops,
		  "save the buffers, or the previous boot's trace, to a log file (-f FILE [-c CPU] | --previous-boot -f FILE [--release])"),
	LKST_VERB("extract", 0, &lkbuf_extract_ops,
		  "save the buffers of a crashed kernel from its kdump vmcore to a log file (--vmcore VMCORE --vmlinux VMLINUX -f FILE)"),
	LKST_VERB_ARGV("print", lkbuf_verb_print,
		       "print a log file (-f FILE [-r] [-C] [-S] [-V] [-e EVENTS] [-p PIDS] [-n COMMS] [-t START,END] [-c CPUS])"),
	LKST_VERB("info", 0, &lkbuf_info_ops,
		  "describe a log file: host, kernel, clock, per-CPU counts (-f FILE)"),
	LKST_VERB("record", DEV | LKST_TAKES_ARGS | LKST_OPTIONS_FIRST, &lkbuf_record_ops,
		  "record into one log or rotating files until SIGINT, SIGTERM, -d SECONDS or the end of COMMAND, optionally only some events ([-e EVENTS [--filter EXPR]]... -f FILE|-o DIR [-d SECONDS] [-s SIZE] [--mode MODE] [-- COMMAND ARG...])"),
	LKST_VERB("create", DEV, &lkbuf_create_ops,
		  "add a block (-c CPU -s SIZE [--next NEXT] [--mode MODE])"),
	LKST_VERB("link", DEV, &lkbuf_link_ops,
		  "set a block's next block (-c CPU -b ID --next NEXT|none)"),
	LKST_VERB("delete", DEV, &lkbuf_delete_ops,
		  "delete a block (-c CPU -b ID)"),
	LKST_VERB("jump", DEV, &lkbuf_jump_ops,
		  "make the writer continue in a block (-c CPU -b ID)"),
	LKST_VERB("resize", DEV, &lkbuf_resize_ops,
		  "replace every block of every CPU by an empty one of SIZE bytes (-s SIZE)"),
	LKST_VERB("mode", DEV | LKST_TAKES_ARGS, &lkbuf_mode_ops,
		  "when full, overwrite the oldest records or stop and drop new ones (-c CPU|-a overwrite|stop)"),
	LKST_VERB("mark", DEV | LKST_TAKES_ARGS, &lkbuf_mark_ops,
		  "record a USER_MARK event with TEXT (48 bytes at most)"),
	LKST_VERB("convert", 0, &lkbuf_convert_ops,
		  "convert a log file for other tools: CTF for babeltrace2 and Trace Compass, Chrome trace JSON or Perfetto's protobuf trace for Perfetto (-f FILE --to ctf|json|perfetto -o OUT)"),
	LKST_VERB("report", 0, &lkbuf_report_ops,
		  "summarize a log file as lkm agg would: counts by event, task, CPU and system call, latencies, errors (-f FILE [-C] [--section LIST] [-e -p -n -t -c --where])"),
	LKST_VERB("sql", 0, &lkbuf_sql_ops,
		  "write a log as a SQLite database with ready views (-f FILE -o DB; docs/fleet.md)"),
	LKST_VERB("ship", 0, &lkbuf_ship_ops,
		  "ship logs into ClickHouse over HTTP, at least once, resuming (--url URL [--create [--cluster NAME]] [-f FILE... | --dir DIR [--follow]])"),
	LKST_VERB_END
};

int main(int argc, char **argv)
{
	lkst_progname = "lkbuf";
	lkst_log_exit_on_sigbus();
	atexit(lkbuf_abort_unfinished_log);
	return lkst_run_verb(argc, argv, verbs);
}
