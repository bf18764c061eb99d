// SPDX-License-Identifier: GPL-2.0
/*
 * lkm's maskset verbs: list, read, write, config, set and delete.  A
 * maskset routes each event to a handler.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkm_cmds.h"
#include "lkst_format.h"

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

static int run_list(struct lkst_cmd *cmd)
{
	struct lkst_maskset_desc desc;
	unsigned int id;

	printf("%-3s %-31s %-14s %s\n", "ID", "NAME", "FLAGS", "EVENTS");
	for (id = 0; id < LKST_MAX_MASKSETS; id++) {
		if (read_maskset(cmd->fd, id, &desc))
			continue;
		printf("%-3u %-31s %-14s %u\n", id, desc.name,
		       (desc.flags & LKST_MS_SYSTEM) ?
			((desc.flags & LKST_MS_ACTIVE) ? "system,active" : "system") :
			((desc.flags & LKST_MS_ACTIVE) ? "active" : "-"),
		       routed_events(&desc));
	}
	return LKST_EXIT_OK;
}

static struct poptOption no_options[] = { LKST_POPT_TAIL };
const struct lkst_verb_ops lkm_list_ops = { no_options, NULL, NULL, run_list, NULL };

static char *id_arg, *name, *file;
static unsigned int id;		/* -m, checked */
static struct lkst_handler_names *handlers;

/* The table handler names are parsed and printed with. */
static void alloc_handlers(void)
{
	handlers = malloc(sizeof(*handlers));
	if (!handlers)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
}

static void check_read(struct lkst_cmd *cmd)
{
	(void)cmd;
	id = maskset_option(id_arg, "read");
	alloc_handlers();
}

static int run_read(struct lkst_cmd *cmd)
{
	struct lkst_maskset_desc desc;

	lkst_dev_load_handlers(cmd->fd, handlers);
	if (read_maskset(cmd->fd, id, &desc))
		die_maskset(ENOENT, id, "reading");
	lkst_maskset_format(stdout, &desc, handlers);
	if (fflush(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the maskset text; check the output");
	free(handlers);
	return LKST_EXIT_OK;
}

static struct poptOption read_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to print", "ID" },
	LKST_POPT_TAIL
};
const struct lkst_verb_ops lkm_read_ops = { read_options, NULL, check_read, run_read, NULL };

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

static FILE *in;

static void check_write(struct lkst_cmd *cmd)
{
	struct lkst_err err;

	(void)cmd;
	id = maskset_option(id_arg, "write");
	if (name && lkst_maskset_check_name(name, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	alloc_handlers();
	in = open_input(file);
}

static int run_write(struct lkst_cmd *cmd)
{
	char comment_name[LKST_NAME_LEN];
	struct lkst_maskset_desc desc;
	struct lkst_err err;
	int ret;

	lkst_dev_load_handlers(cmd->fd, handlers);
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

	ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_MASKSET_WRITE, &desc);
	if (ret)
		die_maskset(-ret, id, "writing");
	if (in != stdin)
		fclose(in);
	free(handlers);
	return LKST_EXIT_OK;
}

static struct poptOption write_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to create or replace", "ID" },
	{ "name", 'N', POPT_ARG_STRING, &name, 0,
	  "name (default: the name comment of the input, else maskset<ID>)", "NAME" },
	{ "file", 'f', POPT_ARG_STRING, &file, 0, "read the text from FILE, not stdin", "FILE" },
	LKST_POPT_TAIL
};
const struct lkst_verb_ops lkm_write_ops = { write_options, NULL, check_write, run_write, NULL };

static struct config_pair {
	unsigned char sel[LKST_NR_EVENT_IDS];
	unsigned int handler;
} *pairs;
static unsigned int nr_pairs;

static void check_config(struct lkst_cmd *cmd)
{
	struct lkst_err err;
	unsigned int i, n = cmd->nr_args;

	id = maskset_option(id_arg, "config");
	if (n == 0 || n % 2)
		lkst_die(LKST_EXIT_USAGE, "lkm config needs EVENT HANDLER pairs; e.g. lkm config -m 3 PROCESS_WAKEUP default");
	nr_pairs = n / 2;
	handlers = malloc(sizeof(*handlers));
	pairs = calloc(nr_pairs, sizeof(*pairs));
	if (!handlers || !pairs)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	lkst_events_use_running_kernel();
	/* Check every pair before the first change, so a typo changes nothing. */
	for (i = 0; i < nr_pairs; i++)
		if (lkst_parse_event_item(cmd->args[2 * i], pairs[i].sel, &err) < 0)
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
}

static int run_config(struct lkst_cmd *cmd)
{
	struct lkst_maskset_entry entry;
	struct lkst_err err;
	unsigned int i, ev;
	int ret;

	lkst_dev_load_handlers(cmd->fd, handlers);
	for (i = 0; i < nr_pairs; i++)
		if (lkst_parse_handler(cmd->args[2 * i + 1], handlers, &pairs[i].handler, &err))
			lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	/* In the order given, so a later pair overrides a category before it. */
	memset(&entry, 0, sizeof(entry));
	entry.id = id;
	for (i = 0; i < nr_pairs; i++) {
		entry.handler = pairs[i].handler;
		for (ev = 0; ev < LKST_NR_EVENT_IDS; ev++) {
			if (!pairs[i].sel[ev])
				continue;
			entry.event = ev;
			ret = lkst_dev_ioctl(cmd->fd, LKST_IOC_MASKSET_CONFIG, &entry);
			if (ret)
				die_maskset(-ret, id, "configuring");
		}
	}
	free(pairs);
	free(handlers);
	return LKST_EXIT_OK;
}

static struct poptOption config_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to change", "ID" },
	LKST_POPT_TAIL
};
const struct lkst_verb_ops lkm_config_ops = {
	config_options, "EVENT|CATEGORY HANDLER [EVENT|CATEGORY HANDLER...]",
	check_config, run_config, NULL
};

/* set and delete: one ioctl taking the maskset ID. */
struct id_verb {
	const char *verb, *what;
	unsigned long ioctl;
};

static void check_id(struct lkst_cmd *cmd)
{
	const struct id_verb *v = cmd->data;

	id = maskset_option(id_arg, v->verb);
}

static int run_id(struct lkst_cmd *cmd)
{
	const struct id_verb *v = cmd->data;
	__u32 arg = id;
	int ret = lkst_dev_ioctl(cmd->fd, v->ioctl, &arg);

	if (ret)
		die_maskset(-ret, id, v->what);
	return LKST_EXIT_OK;
}

static struct poptOption set_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to make active", "ID" },
	LKST_POPT_TAIL
};
static struct poptOption delete_options[] = {
	{ "maskset", 'm', POPT_ARG_STRING, &id_arg, 0, "maskset to delete", "ID" },
	LKST_POPT_TAIL
};
static const struct id_verb set_verb = { "set", "activating", LKST_IOC_MASKSET_SET };
static const struct id_verb delete_verb = { "delete", "deleting", LKST_IOC_MASKSET_DELETE };
const struct lkst_verb_ops lkm_set_ops = { set_options, NULL, check_id, run_id, &set_verb };
const struct lkst_verb_ops lkm_delete_ops = { delete_options, NULL, check_id, run_id, &delete_verb };
