// SPDX-License-Identifier: GPL-2.0
/*
 * lkm: manage lkst masksets, which route each event to a handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lkm_agg.h"
#include "lkm_stack.h"
#include "lkm_filter.h"
#include "lkm_probe.h"
#include "lkst_format.h"
#include "lkst_cli.h"

#define MASKSET_ID_MAX (LKST_MAX_MASKSETS - 1)

/* Exits with the message for an errno of a maskset request. */
static void __attribute__((noreturn))
die_maskset(int err, unsigned int id, const char *what)
{
	char context[96];

	switch (err) {
	case EROFS:
		lkst_die(LKST_EXIT_DEVICE, "maskset %u is a read-only system maskset; copy it to a user maskset (%u..%u) first",
			 id, LKST_MASKSET_FIRST_USER, MASKSET_ID_MAX);
	case EBUSY:
		lkst_die(LKST_EXIT_DEVICE, "maskset %u is active; switch to another maskset first (lkm set -m ID)",
			 id);
	case ENOENT:
		lkst_die(LKST_EXIT_DEVICE, "maskset %u does not exist; create it with lkm write", id);
	case EINVAL:
		lkst_die(LKST_EXIT_DEVICE, "%s maskset %u: the kernel rejected an ID or handler; check lkm events and lkm handlers",
			 what, id);
	}
	snprintf(context, sizeof(context), "%s maskset %u", what, id);
	lkst_die_errno(err, context);
}

static unsigned int maskset_option(const char *value, const char *verb)
{
	lkst_require(value, "-m ID", verb);
	return lkst_option_u32(value, MASKSET_ID_MAX, "maskset ID");
}

/* 0, or -ENOENT for an unused ID; other errors exit. */
static int read_maskset(int fd, unsigned int id, struct lkst_maskset_desc *desc)
{
	int ret;

	memset(desc, 0, sizeof(*desc));
	desc->id = id;
	ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_READ, desc);
	if (ret && ret != -ENOENT)
		die_maskset(-ret, id, "reading");
	desc->name[LKST_NAME_LEN - 1] = '\0';
	return ret;
}

static unsigned int routed_events(const struct lkst_maskset_desc *desc)
{
	unsigned int i, n = 0;

	for (i = 0; i < LKST_NR_EVENT_IDS; i++)
		n += desc->handler[i] != LKST_HANDLER_NOTHING;
	return n;
}

/* ---- Verbs ---------------------------------------------------------- */

static int verb_list(int argc, const char **argv)
{
	struct poptOption options[] = { LKST_POPT_TAIL };
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_maskset_desc desc;
	struct lkst_version version;
	unsigned int id;
	int fd;

	lkst_no_positional(ctx);
	fd = lkst_dev_open(&version);
	printf("%-3s %-31s %-14s %s\n", "ID", "NAME", "FLAGS", "EVENTS");
	for (id = 0; id < LKST_MAX_MASKSETS; id++) {
		if (read_maskset(fd, id, &desc))
			continue;
		printf("%-3u %-31s %-14s %u\n", id, desc.name,
		       (desc.flags & LKST_MS_SYSTEM) ?
			((desc.flags & LKST_MS_ACTIVE) ? "system,active" : "system") :
			((desc.flags & LKST_MS_ACTIVE) ? "active" : "-"),
		       routed_events(&desc));
	}
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_read(int argc, const char **argv)
{
	char *id_arg = NULL;
	struct poptOption options[] = {
		{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to print", "ID" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_handler_names *handlers = malloc(sizeof(*handlers));
	struct lkst_maskset_desc desc;
	struct lkst_version version;
	unsigned int id;
	int fd;

	lkst_no_positional(ctx);
	id = maskset_option(id_arg, "read");
	if (!handlers)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	fd = lkst_dev_open(&version);
	lkst_dev_load_handlers(fd, handlers);
	if (read_maskset(fd, id, &desc))
		die_maskset(ENOENT, id, "reading");
	lkst_maskset_format(stdout, &desc, handlers);
	if (fflush(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the maskset text; check the output");
	free(handlers);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static FILE *open_input(const char *path)
{
	FILE *in;

	if (!path || !strcmp(path, "-"))
		return stdin;
	in = fopen(path, "r");
	if (!in)
		lkst_die(LKST_EXIT_USAGE, "cannot open %s: %s; check the file name",
			 path, strerror(errno));
	return in;
}

/*
 * A copy of RNOTHING, RDEFAULT or RALL gets a name of its own, so that
 * `lkm list` never shows a user maskset under a system maskset's name.
 */
static int is_system_name(const char *name)
{
	return !strcasecmp(name, "RNOTHING") || !strcasecmp(name, "RDEFAULT") ||
	       !strcasecmp(name, "RALL");
}

static int verb_write(int argc, const char **argv)
{
	char *id_arg = NULL, *name = NULL, *file = NULL;
	struct poptOption options[] = {
		{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to create or replace", "ID" },
		{ "name", 'n', POPT_ARG_STRING, &name, 0,
		  "name (default: the name comment of the input, else maskset<ID>)", "NAME" },
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "read the text from FILE, not stdin", "FILE" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_handler_names *handlers = malloc(sizeof(*handlers));
	char comment_name[LKST_NAME_LEN];
	struct lkst_maskset_desc desc;
	struct lkst_version version;
	struct lkst_err err;
	unsigned int id;
	FILE *in;
	int fd, ret;

	lkst_no_positional(ctx);
	id = maskset_option(id_arg, "write");
	if (name && lkst_maskset_check_name(name, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (!handlers)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	in = open_input(file);
	fd = lkst_dev_open(&version);
	lkst_dev_load_handlers(fd, handlers);

	memset(&desc, 0, sizeof(desc));
	desc.id = id;
	if (lkst_maskset_parse(in, &desc, comment_name, handlers, &err))
		lkst_die(LKST_EXIT_USAGE, "%s%s%s", file ? file : "stdin", ": ", err.msg);
	if (name)
		snprintf(desc.name, sizeof(desc.name), "%s", name);
	else if (comment_name[0] && !is_system_name(comment_name))
		memcpy(desc.name, comment_name, sizeof(desc.name));
	else
		snprintf(desc.name, sizeof(desc.name), "maskset%u", id);

	ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_WRITE, &desc);
	if (ret)
		die_maskset(-ret, id, "writing");
	if (in != stdin)
		fclose(in);
	free(handlers);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_config(int argc, const char **argv)
{
	char *id_arg = NULL;
	struct poptOption options[] = {
		{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to change", "ID" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options,
					     "EVENT|CATEGORY HANDLER [EVENT|CATEGORY HANDLER...]");
	struct lkst_handler_names *handlers = malloc(sizeof(*handlers));
	const char **pairs = poptGetArgs(ctx);
	struct config_pair {
		unsigned char sel[LKST_NR_EVENT_IDS];
		unsigned int handler;
	} *pair;
	struct lkst_maskset_entry entry;
	struct lkst_version version;
	struct lkst_err err;
	unsigned int id, i, ev, n = 0;
	int fd, ret;

	id = maskset_option(id_arg, "config");
	while (pairs && pairs[n])
		n++;
	if (n == 0 || n % 2)
		lkst_die(LKST_EXIT_USAGE, "lkm config needs EVENT HANDLER pairs; e.g. lkm config -m 3 PROCESS_WAKEUP default");
	pair = calloc(n / 2, sizeof(*pair));
	if (!handlers || !pair)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	lkst_events_use_running_kernel();
	/* Check every pair before the first change, so a typo changes nothing. */
	for (i = 0; i < n / 2; i++)
		if (lkst_parse_event_item(pairs[2 * i], pair[i].sel, &err) < 0)
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fd = lkst_dev_open(&version);
	lkst_dev_load_handlers(fd, handlers);
	for (i = 0; i < n / 2; i++)
		if (lkst_parse_handler(pairs[2 * i + 1], handlers, &pair[i].handler, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	/* In the order given, so a later pair overrides a category before it. */
	memset(&entry, 0, sizeof(entry));
	entry.id = id;
	for (i = 0; i < n / 2; i++) {
		entry.handler = pair[i].handler;
		for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
			if (!pair[i].sel[ev])
				continue;
			entry.event = ev;
			ret = lkst_dev_ioctl(fd, LKST_IOC_MASKSET_CONFIG, &entry);
			if (ret)
				die_maskset(-ret, id, "configuring");
		}
	}
	free(pair);
	free(handlers);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_stat(int argc, const char **argv)
{
	char *events_arg = NULL;
	int reset = 0;
	struct poptOption options[] = {
		{ "events", 'e', POPT_ARG_STRING, &events_arg, 0,
		  "only these events or categories, comma-separated", "EVENTS" },
		{ "reset", '\0', POPT_ARG_NONE, &reset, 0,
		  "after printing, zero the counters of every event", NULL },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	unsigned char sel[LKST_NR_EVENT_IDS];
	struct lkst_event_stat stat;
	struct lkst_version version;
	struct lkst_err err;
	unsigned int i;
	int fd, ret;

	lkst_no_positional(ctx);
	memset(sel, !events_arg, sizeof(sel));
	lkst_events_use_running_kernel();
	if (events_arg && lkst_parse_event_list(events_arg, sel, &err) < 0)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fd = lkst_dev_open(&version);
	printf("%-4s %-24s %12s %12s\n", "ID", "EVENT", "HITS", "DROPPED");
	for (i = 0; i < lkst_nr_events; i++) {
		const struct lkst_event_info *ev = &lkst_events[i];

		if (!sel[ev->id])
			continue;
		memset(&stat, 0, sizeof(stat));
		stat.event = ev->id;
		ret = lkst_dev_ioctl(fd, LKST_IOC_EVENT_STAT, &stat);
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
		ret = lkst_dev_ioctl(fd, LKST_IOC_EVENT_STAT_RESET, NULL);
		if (ret)
			lkst_die_errno(-ret, "resetting the event counters");
	}
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

/* set and delete: one ioctl taking the maskset ID. */
static int maskset_id_verb(int argc, const char **argv, const char *verb,
			   unsigned long cmd, const char *what, const char *help)
{
	char *id_arg = NULL;
	struct poptOption options[] = {
		{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, help, "ID" },
		LKST_POPT_TAIL
	};
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_version version;
	__u32 id;
	int fd, ret;

	lkst_no_positional(ctx);
	id = maskset_option(id_arg, verb);
	fd = lkst_dev_open(&version);
	ret = lkst_dev_ioctl(fd, cmd, &id);
	if (ret)
		die_maskset(-ret, id, what);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_set(int argc, const char **argv)
{
	return maskset_id_verb(argc, argv, "set", LKST_IOC_MASKSET_SET,
			       "activating", "maskset to make active");
}

static int verb_delete(int argc, const char **argv)
{
	return maskset_id_verb(argc, argv, "delete", LKST_IOC_MASKSET_DELETE,
			       "deleting", "maskset to delete");
}

static int verb_events(int argc, const char **argv)
{
	static const char *const type_names[] = {
		"none", "dec", "udec", "hex", "pid", "state", "sysnr",
		"retval", "comm", "comm2", "text", "stackpos", "ksym", "uaddr",
	};
	/* A new argument type must get a name here, not read past the end. */
	_Static_assert(sizeof(type_names) / sizeof(type_names[0]) == LKST_NR_ARG_TYPES,
		       "type_names does not cover enum lkst_arg_type");
	struct poptOption options[] = { LKST_POPT_TAIL };
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	unsigned int i, a;

	lkst_no_positional(ctx);
	lkst_events_use_running_kernel();
	for (i = 0; i < lkst_nr_events; i++) {
		const struct lkst_event_info *ev = &lkst_events[i];

		printf("0x%02x %-9s %-24s %s\n", ev->id,
		       lkst_category_name(ev->category), ev->mnemonic,
		       ev->description);
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
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static int verb_handlers(int argc, const char **argv)
{
	struct poptOption options[] = { LKST_POPT_TAIL };
	poptContext ctx = lkst_parse_options(argc, argv, options, NULL);
	struct lkst_handler_names *handlers = malloc(sizeof(*handlers));
	struct lkst_version version;
	unsigned int id;
	int fd;

	lkst_no_positional(ctx);
	if (!handlers)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	fd = lkst_dev_open(&version);
	lkst_dev_load_handlers(fd, handlers);
	printf("%-3s %-31s %s\n", "ID", "NAME", "MODULE");
	for (id = 1; id < LKST_MAX_HANDLERS; id++) {
		if (!handlers->name[id][0])
			continue;
		printf("%-3u %-31s %s\n", id, handlers->name[id],
		       handlers->module[id][0] ? handlers->module[id] : "built-in");
	}
	free(handlers);
	close(fd);
	poptFreeContext(ctx);
	return LKST_EXIT_OK;
}

static const struct lkst_verb verbs[] = {
	{ "list", verb_list, "list the masksets" },
	{ "read", verb_read, "print a maskset as text (-m ID)" },
	{ "write", verb_write, "create or replace a maskset from text (-m ID)" },
	{ "config", verb_config, "route events or categories to handlers (-m ID EVENT HANDLER...)" },
	{ "set", verb_set, "make a maskset active (-m ID)" },
	{ "delete", verb_delete, "delete a user maskset (-m ID)" },
	{ "events", verb_events, "list the events the tracer knows" },
	{ "handlers", verb_handlers, "list the registered event handlers" },
	{ "stat", verb_stat, "per-event hit and drop counters ([-e EVENTS] [--reset])" },
	{ "filter", lkm_verb_filter, "record an event only when a predicate holds (-m ID EVENT 'EXPR')" },
	{ "agg", lkm_verb_agg, "in-kernel aggregations: count, sum, min, max, avg, quantize (set|print|list|clear|delete)" },
	{ "stack", lkm_verb_stack, "configure the stack handler: frames per stack, user stacks ([--depth N] [--user|--no-user])" },
	{ "probe", lkm_verb_probe, "dynamic probes: events fired by a kprobe or kretprobe (add|del|list)" },
	{ NULL, NULL, NULL }
};

int main(int argc, char **argv)
{
	lkst_progname = "lkm";
	lkst_log_exit_on_sigbus();
	return lkst_run_verb(argc, argv, verbs);
}
