// SPDX-License-Identifier: GPL-2.0
/*
 * lkm's verbs on what the tracer knows: events, handlers, and stat (the
 * per-event counters).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkm_cmds.h"
#include "lkst_format.h"

static struct poptOption no_options[] = { LKST_POPT_TAIL };

/*
 * Each event's flags as the running kernel gives them: lkst.ko on a kernel
 * without the patch lacks some events (docs/stock.md).  All 0 without a
 * tracer.
 */
static void load_event_flags(__u32 *flags)
{
	static struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
	struct lkst_event_table table = {
		.descs = (uintptr_t)descs,
		.max_descs = LKST_NR_EVENT_IDS,
		.desc_size = sizeof(descs[0]),
	};
	int fd = open(LKST_DEVICE, O_RDWR | O_CLOEXEC);
	unsigned int i;

	if (fd < 0)
		return;
	if (!lkst_dev_ioctl(fd, LKST_IOC_EVENT_TABLE, &table))
		for (i = 0; i < table.nr_descs && i < LKST_NR_EVENT_IDS; i++)
			if (descs[i].id < LKST_NR_EVENT_IDS)
				flags[descs[i].id] = descs[i].flags;
	close(fd);
}

static const char *availability(__u32 flags)
{
	if (flags & LKST_EVENT_TWIN_MISSING)
		return "  [absent: its tracepoint is not in this kernel]";
	if (flags & LKST_EVENT_ABSENT)
		return "  [absent: needs the lkst patch]";
	if (flags & LKST_EVENT_TWIN_PARTIAL)
		return "  [partial: its tracepoint carries less]";
	return "";
}

static int run_events(struct lkst_cmd *cmd)
{
	static __u32 flags[LKST_NR_EVENT_IDS];
	static const char *const type_names[] = {
		"none", "dec", "udec", "hex", "pid", "state", "sysnr",
		"retval", "comm", "comm2", "text", "stackpos", "ksym", "uaddr",
	};
	/* A new argument type must get a name here, not read past the end. */
	_Static_assert(sizeof(type_names) / sizeof(type_names[0]) == LKST_NR_ARG_TYPES,
		       "type_names does not cover enum lkst_arg_type");
	unsigned int i, a;

	(void)cmd;
	lkst_events_use_running_kernel();
	load_event_flags(flags);
	for (i = 0; i < lkst_nr_events; i++) {
		const struct lkst_event_info *ev = &lkst_events[i];

		printf("0x%02x %-9s %-24s %s%s\n", ev->id,
		       lkst_category_name(ev->category), ev->mnemonic,
		       ev->description,
		       ev->id < LKST_NR_EVENT_IDS ? availability(flags[ev->id]) : "");
		for (a = 0; a < LKST_NR_ARGS; a++) {
			/* COMM2 and TEXT after TEXT continue the argument before. */
			if (ev->args[a].type == LKST_ARG_NONE ||
			    ev->args[a].type == LKST_ARG_COMM2 ||
			    (a && ev->args[a].type == LKST_ARG_TEXT &&
			     ev->args[a - 1].type == LKST_ARG_TEXT))
				continue;
			printf("       arg%u %-6s %s\n", a + 1,
			       type_names[ev->args[a].type], ev->args[a].desc);
		}
	}
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkm_events_ops = { no_options, NULL, NULL, run_events, NULL };

static struct lkst_handler_names *handlers;

static void check_handlers(struct lkst_cmd *cmd)
{
	(void)cmd;
	handlers = malloc(sizeof(*handlers));
	if (!handlers)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
}

static int run_handlers(struct lkst_cmd *cmd)
{
	unsigned int id;

	lkst_dev_load_handlers(cmd->fd, handlers);
	printf("%-3s %-31s %s\n", "ID", "NAME", "MODULE");
	for (id = 1; id < LKST_MAX_HANDLERS; id++) {
		if (!handlers->name[id][0])
			continue;
		printf("%-3u %-31s %s\n", id, handlers->name[id],
		       handlers->module[id][0] ? handlers->module[id] : "built-in");
	}
	free(handlers);
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkm_handlers_ops = { no_options, NULL, check_handlers, run_handlers, NULL };

static char *events_arg;
static int reset;
static unsigned char sel[LKST_NR_EVENT_IDS];

static struct poptOption stat_options[] = {
	{ "event", 'e', POPT_ARG_STRING, &events_arg, 0,
	  "only these events or categories, comma-separated", "EVENT,..." },
	/* The spelling before --event, which lkbuf print uses. */
	{ "events", '\0', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &events_arg, 0, NULL, NULL },
	{ "reset", '\0', POPT_ARG_NONE, &reset, 0,
	  "after printing, zero the counters of every event", NULL },
	LKST_POPT_TAIL
};

static void check_stat(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	(void)cmd;
	memset(sel, !events_arg, sizeof(sel));
	lkst_events_use_running_kernel();
	if (events_arg && lkst_parse_event_list(events_arg, sel, &err) < 0)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_stat(struct lkst_cmd *cmd)
{
	struct lkst_event_stat stat;
	unsigned int i;
	int ret;

	printf("%-4s %-24s %12s %12s\n", "ID", "EVENT", "HITS", "DROPPED");
	for (i = 0; i < lkst_nr_events; i++) {
		const struct lkst_event_info *ev = &lkst_events[i];

		if (!sel[ev->id])
			continue;
		memset(&stat, 0, sizeof(stat));
		stat.event = ev->id;
		ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_EVENT_STAT, &stat);
		if (ret) {
			char what[64];

			snprintf(what, sizeof(what), "reading the counters of event 0x%02x",
				 ev->id);
			lkst_die_errno(-ret, what);
		}
		printf("0x%02x %-24s %12llu %12llu\n", ev->id, ev->mnemonic,
		       (unsigned long long)stat.hits,
		       (unsigned long long)stat.dropped);
	}
	/* Print first, so counts taken before a reset are never lost. */
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the counters: %s; check the output%s",
			 strerror(errno), reset ? " (not reset)" : "");
	if (reset) {
		ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_EVENT_STAT_RESET, NULL);
		if (ret)
			lkst_die_errno(-ret, "resetting the event counters");
	}
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkm_stat_ops = { stat_options, NULL, check_stat, run_stat, NULL };
