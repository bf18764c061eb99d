// SPDX-License-Identifier: GPL-2.0
/*
 * lkm filter: predicates of the lkst_filter handler.
 *
 *   lkm filter -m ID EVENT 'EXPR' [--handler HANDLER]   route EVENT in maskset ID
 *                                                  to the filter, which hands
 *                                                  it to HANDLER (default)
 *                                                  when EXPR holds
 *   lkm filter --list                              predicates and counters
 *   lkm filter --clear [EVENT]                     remove one or all
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkm_cmds.h"
#include "lkst_pred.h"

#define FILTER_MODULE "lkst_filter"

static void __attribute__((noreturn))
die_filter(int err, const char *what)
{
	if (err == EINVAL)
		lkst_die(LKST_EXIT_DEVICE, "%s: the filter handler rejected the request (is lkst_filter.ko from this build?)",
			 what);
	lkst_die_errno(err, what);
}

/* "lkm: filter: MESSAGE", then the expression with a caret under the error. */
static void __attribute__((noreturn))
die_expression(const char *text, size_t pos, const struct lkst_err *err)
{
	fprintf(stderr, "%s: filter: %s\n  %s\n  %*s^\n", lkst_progname,
		err->msg, text, (int)pos, "");
	exit(LKST_EXIT_USAGE);
}

static void print_filters(int fd, unsigned int filter)
{
	struct lkst_handler_names *names = malloc(sizeof(*names));
	struct lkst_filter_prog *prog = malloc(sizeof(*prog));
	struct lkst_filter_stat st;
	unsigned int i;
	int ret;

	if (!names || !prog)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	lkst_dev_load_handlers(fd, names);
	printf("%-28s %-10s %12s %12s  %s\n", "EVENT", "TO", "TESTED",
	       "PASSED", "PREDICATE");
	for (i = 0; i < lkst_nr_events; i++) {
		memset(prog, 0, sizeof(*prog));
		prog->event = lkst_events[i].id;
		ret = lkst_dev_handler_ctl(fd, filter, LKST_FILTER_GET, prog,
					   sizeof(*prog));
		if (ret == -ENOENT)
			continue;
		if (ret < 0)
			die_filter(-ret, "reading a predicate");
		memset(&st, 0, sizeof(st));
		st.event = prog->event;
		ret = lkst_dev_handler_ctl(fd, filter, LKST_FILTER_STAT, &st,
					   sizeof(st));
		if (ret < 0)
			die_filter(-ret, "reading the filter's counters");
		prog->text[LKST_FILTER_TEXT_LEN - 1] = '\0';
		printf("%-28s %-10s %12llu %12llu  %s\n", lkst_events[i].mnemonic,
		       lkst_handler_name(names, prog->target),
		       (unsigned long long)st.tested,
		       (unsigned long long)st.passed, prog->text);
	}
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_DEVICE, "writing to standard output: %s",
			 strerror(errno));
	free(prog);
	free(names);
}

static char *id_arg, *to_arg;
static int list, clear;

static struct poptOption filter_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0,
	  "maskset that routes EVENT to the filter", "ID" },
	{ "handler", '\0', POPT_ARG_STRING, &to_arg, 0,
	  "handler that gets the events that match (default: default, which records them)",
	  "HANDLER" },
	{ "to", '\0', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &to_arg, 0, NULL, NULL },	/* the spelling before --handler */
	{ "list", 'l', POPT_ARG_NONE, &list, 0,
	  "list the predicates with their counters", NULL },
	{ "clear", '\0', POPT_ARG_NONE, &clear, 0,
	  "remove EVENT's predicate, or every predicate", NULL },
	LKST_POPT_TAIL
};

static struct lkst_maskset_entry entry;
static struct lkst_filter_prog *new_prog;	/* compiled by check, installed by run */
static unsigned int event;
static uint32_t which;

/* Everything given is checked before the device is touched. */
static void check_filter(struct lkst_cmd *cmd)
{
	const char **args = cmd->args;
	unsigned int n = cmd->nr_args;
	struct lkst_err err;
	size_t pos;

	lkst_events_use_running_kernel();	/* EVENT may be a probe */
	if (list + clear > 1)
		lkst_die(LKST_EXIT_USAGE, "lkm filter: --list and --clear exclude each other");
	if (list) {
		if (n)
			lkst_die(LKST_EXIT_USAGE, "lkm filter --list takes no arguments");
		return;
	}
	if (clear) {
		which = LKST_FILTER_ALL;
		if (n > 1)
			lkst_die(LKST_EXIT_USAGE, "lkm filter --clear takes at most one EVENT");
		if (n && lkst_parse_event(args[0], &event, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
		if (n)
			which = event;
		return;
	}
	if (n != 2)
		lkst_die(LKST_EXIT_USAGE, "lkm filter needs EVENT 'EXPRESSION'; e.g. lkm filter -m 3 SYSCALL_ENTRY 'pid == 123 && arg1 == 0'");
	lkst_require(id_arg, "-m ID", "filter");
	entry = (struct lkst_maskset_entry){
		.id = lkst_option_u32(id_arg, LKST_MAX_MASKSETS - 1, "maskset ID"),
	};
	if (lkst_parse_event(args[0], &event, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	new_prog = malloc(sizeof(*new_prog));
	if (!new_prog)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	if (lkst_pred_compile(args[1], event, new_prog, &pos, &err))
		die_expression(args[1], pos, &err);
}

/* Installs the predicate, then routes EVENT to the filter. */
static void set_filter(int fd, unsigned int filter)
{
	struct lkst_handler_names *names = malloc(sizeof(*names));
	unsigned int target = LKST_HANDLER_DEFAULT;
	struct lkst_err err;
	int ret;

	if (!names)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	if (to_arg) {
		lkst_dev_load_handlers(fd, names);
		if (lkst_parse_handler(to_arg, names, &target, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
		if (target == filter)
			lkst_die(LKST_EXIT_USAGE, "the filter cannot hand events to itself");
	}
	new_prog->target = target;
	ret = lkst_dev_handler_ctl(fd, filter, LKST_FILTER_SET, new_prog,
				   sizeof(*new_prog));
	if (ret < 0)
		die_filter(-ret, "installing the predicate");
	/* The predicate is in place before any event reaches the filter. */
	entry.event = event;
	entry.handler = filter;
	ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry);
	if (ret == -EROFS)
		lkst_die(LKST_EXIT_DEVICE, "maskset %u is a read-only system maskset; copy it to a user maskset first (lkm read -m 0 | lkm write -m 3)",
			 entry.id);
	if (ret == -ENOENT)
		lkst_die(LKST_EXIT_DEVICE, "maskset %u does not exist; create it with lkm write",
			 entry.id);
	if (ret)
		lkst_die_errno(-ret, "routing the event to the filter");
	free(new_prog);
	free(names);
}

static int run_filter(struct lkst_cmd *cmd)
{
	unsigned int filter = lkst_dev_handler_id(cmd->fd, "filter", FILTER_MODULE);
	int ret;

	if (list) {
		print_filters(cmd->fd, filter);
	} else if (clear) {
		ret = lkst_dev_handler_ctl(cmd->fd, filter, LKST_FILTER_CLEAR,
					   &which, sizeof(which));
		if (ret < 0)
			die_filter(-ret, "clearing predicates");
	} else {
		set_filter(cmd->fd, filter);
	}
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkm_filter_ops = {
	filter_options, "EVENT 'EXPRESSION'", check_filter, run_filter, NULL
};
