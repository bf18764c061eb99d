// SPDX-License-Identifier: GPL-2.0
/*
 * lkm agg set|print|list|clear|delete: the verbs on the lkst_agg handler's
 * aggregations (their parsing and formatting: lkm_agg.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkm_agg.h"
#include "lkm_cmds.h"

#define AGG_MODULE	"lkst_agg"

/* ---- Device ----------------------------------------------------------- */

static void __attribute__((noreturn))
die_agg(int err, const char *what)
{
	switch (err) {
	case EINVAL:
		lkst_die(LKST_EXIT_DEVICE, "%s: the agg handler rejected the request (is lkst_agg.ko from this build?)",
			 what);
	case ENOSPC:
		lkst_die(LKST_EXIT_DEVICE, "%s: there are already %d aggregations; delete one first (lkm agg delete -N NAME)",
			 what, LKST_AGG_MAX);
	case ENOMEM:
		lkst_die(LKST_EXIT_DEVICE, "%s: not enough memory for the tables; ask for fewer slots (--size)",
			 what);
	}
	lkst_die_errno(err, what);
}

static void die_no_agg(const char *name)
{
	lkst_die(LKST_EXIT_DEVICE, "no aggregation named %s; lkm agg list shows them",
		 name);
}

static void check_output(void)
{
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_DEVICE, "writing to standard output: %s",
			 strerror(errno));
}

/* The aggregation's info at @index: 0, or -ENOENT for an unused one. */
static int get_info(int fd, unsigned int handler, unsigned int index,
		    struct lkst_agg_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	info->index = index;
	ret = lkst_dev_handler_ctl(fd, handler, LKST_AGG_INFO, info, sizeof(*info));
	if (ret && ret != -ENOENT)
		die_agg(-ret, "reading an aggregation");
	info->config.name[LKST_AGG_NAME_LEN - 1] = '\0';
	return ret;
}

static void print_one(int fd, unsigned int handler, const struct lkst_agg_info *info,
		      int csv)
{
	const struct lkst_agg_config *cfg = &info->config;
	int quantize = cfg->func == LKST_AGG_F_QUANTIZE;
	unsigned int room = info->entries + 16, tries;
	struct lkst_agg_entry *entries = NULL;
	__u64 *buckets = NULL;
	struct lkst_agg_read rd;
	int ret = 0;

	for (tries = 0; tries < 8; tries++) {
		free(entries);
		free(buckets);
		entries = calloc(room, sizeof(*entries));
		buckets = quantize ? calloc((size_t)room * LKST_AGG_NR_BUCKETS,
					    sizeof(*buckets)) : NULL;
		if (!entries || (quantize && !buckets))
			lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
		memset(&rd, 0, sizeof(rd));
		rd.index = info->index;
		rd.max_entries = room;
		rd.entries = (uintptr_t)entries;
		rd.buckets = (uintptr_t)buckets;
		ret = lkst_dev_handler_ctl(fd, handler, LKST_AGG_READ, &rd, sizeof(rd));
		if (ret == -ENOENT)
			die_no_agg(cfg->name);
		if (ret < 0)
			die_agg(-ret, "reading an aggregation");
		if ((unsigned int)ret <= room)
			break;
		room = ret + 64;
	}
	if ((unsigned int)ret > rd.nr_entries)
		lkst_die(LKST_EXIT_DEVICE, "aggregation %s keeps growing faster than it can be read; try again",
			 cfg->name);
	lkm_agg_print(stdout, cfg, entries, buckets, rd.nr_entries, csv);
	if (!csv)
		putchar('\n');
	if (info->drops)
		fprintf(stderr, "%s: agg %s: %llu events dropped, its table was full (%u slots per CPU); set it again with a larger --size\n",
			lkst_progname, cfg->name, (unsigned long long)info->drops,
			cfg->slots);
	free(entries);
	free(buckets);
}

static const char *name_or_all(const char *name)
{
	return name ? name : "";
}

static char *name, *id_arg, *func, *value, *latency, *keys, *size;
static int record, csv;

static struct poptOption set_options[] = {
	{ "name", 'N', POPT_ARG_STRING, &name, 0,
	  "aggregation to set (default: agg); one of that name is replaced", "NAME" },
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0,
	  "user maskset that routes the events to the agg handler", "ID" },
	{ "func", 'F', POPT_ARG_STRING, &func, 0,
	  "count, sum, min, max, avg or quantize (power-of-two histogram)", "FUNC" },
	{ "value", 'v', POPT_ARG_STRING, &value, 0,
	  "the events' argument the function takes", "arg1..arg6" },
	{ "latency", 'L', POPT_ARG_STRING, &latency, 0,
	  "or the latency (ns) of a pair: syscall (entry to exit), sched (wakeup to running), irq (handler entry to exit)",
	  "KIND" },
	{ "keys", 'K', POPT_ARG_STRING, &keys, 0,
	  "group by up to three of event, pid, comm (counts two), cpu, arg1..arg6", "KEYS" },
	{ "key", '\0', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &keys, 0, NULL, NULL },	/* the spelling before -K */
	{ "size", 's', POPT_ARG_STRING, &size, 0,
	  "hash table slots per CPU, rounded up to a power of two (default 1024)", "SLOTS" },
	{ "record", '\0', POPT_ARG_NONE, &record, 0,
	  "also record the events (route them to agg-record)", NULL },
	LKST_POPT_TAIL
};

static struct lkst_maskset_entry entry;
static struct lkst_agg_config cfg;

static void check_set(struct lkst_cmd *cmd)
{
	struct lkm_agg_args a = {
		.name = name, .func = func, .value = value, .latency = latency,
		.keys = keys, .size = size, .events = cmd->args,
	};
	struct lkst_err err;

	lkst_events_use_running_kernel();	/* an EVENT may be a probe */
	lkst_require(id_arg, "-m ID", "agg set");
	entry = (struct lkst_maskset_entry){
		.id = lkst_option_u32(id_arg, LKST_MAX_MASKSETS - 1, "maskset ID"),
	};
	if (entry.id < LKST_MASKSET_FIRST_USER)
		lkst_die(LKST_EXIT_USAGE, "maskset %u is a read-only system maskset; give a user maskset (%u..%u)",
			 entry.id, LKST_MASKSET_FIRST_USER, LKST_MAX_MASKSETS - 1);
	if (lkm_agg_config(&a, &cfg, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_set(struct lkst_cmd *cmd)
{
	__u64 start[LKST_NR_EVENT_IDS / 64], end[LKST_NR_EVENT_IDS / 64];
	struct lkst_maskset_desc desc;
	unsigned int handler, target, i;
	int fd = cmd->fd, ret;

	handler = lkst_dev_handler_id(fd, "agg", AGG_MODULE);
	target = record ? lkst_dev_handler_id(fd, "agg-record", AGG_MODULE) : handler;
	memset(&desc, 0, sizeof(desc));
	desc.id = entry.id;
	ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_READ, &desc);
	if (ret == -ENOENT)
		lkst_die(LKST_EXIT_DEVICE, "maskset %u does not exist; create it with lkm write (lkm read -m 0 | lkm write -m %u)",
			 entry.id, entry.id);
	if (ret)
		lkst_die_errno(-ret, "reading the maskset");
	ret = lkst_dev_handler_ctl(fd, handler, LKST_AGG_SET, &cfg, sizeof(cfg));
	if (ret < 0)
		die_agg(-ret, "setting the aggregation");
	/* The aggregation is in place before any event reaches it. */
	if (LKST_AGG_IS_LAT(cfg.value)) {
		lkst_agg_lat_events(cfg.value, start, end);
		for (i = 0; i < LKST_NR_EVENT_IDS / 64; i++)
			cfg.events[i] = start[i] | end[i];
	}
	for (i = 0; i < LKST_NR_EVENT_IDS; i++) {
		if (!lkst_agg_event_test(cfg.events, i))
			continue;
		entry.event = i;
		entry.handler = target;
		ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry);
		if (ret)
			lkst_die_errno(-ret, "routing the events to the agg handler");
	}
	return LKST_EXIT_OK;
}

#define NAME_OPT							\
	{ "name", 'N', POPT_ARG_STRING, &name, 0,			\
	  "only this aggregation (default: all)", "NAME" }

static struct poptOption print_options[] = {
	NAME_OPT,
	{ "csv", 'C', POPT_ARG_NONE, &csv, 0,
	  "CSV: aggregation,function,key1..key3,count,sum,min,max,value,bucket_min,bucket_max,bucket_count",
	  NULL },
	LKST_POPT_TAIL
};
static struct poptOption name_options[] = { NAME_OPT, LKST_POPT_TAIL };
static struct poptOption no_options[] = { LKST_POPT_TAIL };

/* -N NAME, checked: print, clear and delete. */
static struct lkst_agg_name agg_name;

static void check_name(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	(void)cmd;
	if (name && lkm_agg_parse_name(name, agg_name.name, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_print(struct lkst_cmd *cmd)
{
	struct lkst_agg_info info;
	unsigned int handler, i, found = 0;

	handler = lkst_dev_handler_id(cmd->fd, "agg", AGG_MODULE);
	if (csv)
		lkm_agg_csv_header(stdout);
	for (i = 0; i < LKST_AGG_MAX; i++) {
		if (get_info(cmd->fd, handler, i, &info))
			continue;
		if (name && strcmp(name, info.config.name))
			continue;
		found++;
		print_one(cmd->fd, handler, &info, csv);
	}
	check_output();
	if (name && !found)
		die_no_agg(name);
	return LKST_EXIT_OK;
}

static int run_list(struct lkst_cmd *cmd)
{
	struct lkst_agg_info info;
	unsigned int handler, i, ev, n;
	char desc[256];

	handler = lkst_dev_handler_id(cmd->fd, "agg", AGG_MODULE);
	printf("%-15s %6s %8s %8s %9s %8s %8s %8s %8s  %s\n", "NAME", "SLOTS",
	       "ENTRIES", "DROPS", "UNMATCHED", "EVICTED", "BUSY", "MISMATCH",
	       "NEGATIVE", "AGGREGATION");
	for (i = 0; i < LKST_AGG_MAX; i++) {
		if (get_info(cmd->fd, handler, i, &info))
			continue;
		lkm_agg_describe(&info.config, desc, sizeof(desc));
		printf("%-15s %6u %8llu %8llu %9llu %8llu %8llu %8llu %8llu  %s",
		       info.config.name, info.config.slots,
		       (unsigned long long)info.entries,
		       (unsigned long long)info.drops,
		       (unsigned long long)info.unmatched,
		       (unsigned long long)info.evicted,
		       (unsigned long long)info.busy,
		       (unsigned long long)info.mismatch,
		       (unsigned long long)info.negative, desc);
		if (LKST_AGG_IS_LAT(info.config.value)) {
			for (ev = 0, n = 0; ev < LKST_NR_EVENT_IDS; ev++)
				if (lkst_agg_event_test(info.config.events, ev))
					printf("%s%s", n++ ? "," : " of ",
					       lkst_event_by_id(ev) ?
					       lkst_event_by_id(ev)->mnemonic : "?");
		}
		putchar('\n');
	}
	check_output();
	return LKST_EXIT_OK;
}

/* clear and delete: one command on one aggregation, or all. */
struct name_verb {
	unsigned int cmd;
	const char *what;
};

static int run_named(struct lkst_cmd *cmd)
{
	const struct name_verb *v = cmd->data;
	unsigned int handler = lkst_dev_handler_id(cmd->fd, "agg", AGG_MODULE);
	int ret;

	ret = lkst_dev_handler_ctl(cmd->fd, handler, v->cmd, &agg_name, sizeof(agg_name));
	if (ret == -ENOENT)
		die_no_agg(name_or_all(name));
	if (ret < 0)
		die_agg(-ret, v->what);
	return LKST_EXIT_OK;
}

static const struct name_verb clear_verb = { LKST_AGG_CLEAR, "clearing" };
static const struct name_verb delete_verb = { LKST_AGG_DELETE, "deleting" };

static const struct lkst_verb_ops set_ops = { set_options, "[EVENT...]", check_set, run_set, NULL };
static const struct lkst_verb_ops print_ops = { print_options, NULL, check_name, run_print, NULL };
static const struct lkst_verb_ops list_ops = { no_options, NULL, NULL, run_list, NULL };
static const struct lkst_verb_ops clear_ops = { name_options, NULL, check_name, run_named, &clear_verb };
static const struct lkst_verb_ops delete_ops = { name_options, NULL, check_name, run_named, &delete_verb };

#define DEV	LKST_NEEDS_DEVICE

static const struct lkst_verb agg_verbs[] = {
	LKST_VERB("set", DEV | LKST_TAKES_ARGS, &set_ops,
		  "configure an aggregation and route its events (-m ID -F FUNC ...)"),
	LKST_VERB("print", DEV, &print_ops, "print aggregations like DTrace, or as CSV (-C)"),
	LKST_VERB("list", DEV, &list_ops, "aggregations with their sizes and lost-sample counters"),
	LKST_VERB("clear", DEV, &clear_ops, "empty an aggregation (-N NAME) or all"),
	LKST_VERB("delete", DEV, &delete_ops, "remove an aggregation (-N NAME) or all"),
	LKST_VERB_END
};

static void agg_help_footer(void)
{
	printf("\nRun '%s agg SUBCOMMAND --help' for its options; lkst_agg.ko must be loaded.\n%s\n",
	       lkst_progname, LKST_EXIT_CODES_HELP);
	check_output();
}

const struct lkst_verb_group lkm_agg_group = { "agg", agg_verbs, 8, agg_help_footer };
