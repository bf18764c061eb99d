/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line half shared by lkm, lkbuf and the visualizers, outside
 * liblkst: messages that exit, the /dev/lkst ioctl wrappers (the only code
 * that touches the device), the kernel's event table and libpopt helpers.
 */
#ifndef LKST_CLI_H
#define LKST_CLI_H

#include "lkst_util.h"

#define LKST_EXIT_CODES_HELP \
	"Exit codes: 0 success, 1 bad usage, input or output (a path, a full disk), 2 device or kernel error"

/* Program name used as the prefix of every message ("lkm", "lkbuf"). */
extern const char *lkst_progname;

/* Print "<prog>: <message>" on stderr and exit with code. */
void lkst_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* ---- Event table from the kernel ---------------------------------------- */

/* The kernel's table (LKST_IOC_EVENT_TABLE) made active; 0 or -errno. */
int lkst_events_load_kernel(int fd);
/*
 * Before parsing event names a user gave: the running kernel's table,
 * dynamic probes included, when /dev/lkst opens; else the built-in one,
 * so that bad input is still found without a tracer.
 */
void lkst_events_use_running_kernel(void);

/* ---- Device (/dev/lkst) ------------------------------------------------ */

/* Opens the device and checks its ABI; exits with a clear message. */
int lkst_dev_open(struct lkst_version *version);

/* ioctl returning 0 or -errno (retrying EINTR). */
int lkst_dev_ioctl(int fd, unsigned long cmd, void *arg);

/*
 * An ioctl reading the object of an ID (a handler, an event): 0, or
 * -ENOENT for an unused ID; other errors exit with what.
 */
int lkst_dev_lookup(int fd, unsigned long cmd, void *arg, const char *what);

/* Exit with a message for an errno the caller has no better words for. */
void lkst_die_errno(int err, const char *what) __attribute__((noreturn));

/* Fill h with the kernel's registered handlers (IDs 1..255). */
void lkst_dev_load_handlers(int fd, struct lkst_handler_names *h);

/*
 * ID of the registered handler called @name (an extended handler's
 * module, e.g. "lkst_filter", is named in the message when it is not
 * loaded); exits when there is none.
 */
unsigned int lkst_dev_handler_id(int fd, const char *name, const char *module);

/* LKST_IOC_HANDLER_CTL: the handler's return value, or -errno. */
int lkst_dev_handler_ctl(int fd, unsigned int handler, unsigned int cmd,
			 void *data, uint32_t size);

/* ---- Command line (libpopt) ------------------------------------------ */

#include <popt.h>

/*
 * What the runner does around a verb, so that no verb writes it again:
 * LKST_NEEDS_DEVICE opens /dev/lkst after the verb's check() and closes it
 * after run(); lkst_dev_open() checks the ABI, loads the kernel's event
 * table and says what is missing when it is refused (root, lockdown), so
 * it is also the privilege check.  Input is checked before it, so that bad
 * input is a usage error (exit 1) on any machine, never a device error.
 */
#define LKST_NEEDS_DEVICE	(1u << 0)
/* Takes positional arguments (cmd->args); without it any is refused. */
#define LKST_TAKES_ARGS		(1u << 1)
/* Options only before the first argument, so "-8(%bp)" is an argument. */
#define LKST_OPTIONS_FIRST	(1u << 2)

/* What a verb's check() and run() get from the runner. */
struct lkst_cmd {
	const char *name;		/* "lkm agg set": argv[0] */
	poptContext ctx;		/* freed by the runner */
	const char **args;		/* positional arguments, NULL-terminated, or NULL */
	unsigned int nr_args;
	int fd;				/* LKST_NEEDS_DEVICE: the device; else -1 */
	struct lkst_version version;	/* LKST_NEEDS_DEVICE: the kernel's */
	const void *data;		/* the ops' data */
};

/*
 * A verb's own part: its options (static, ending in LKST_POPT_TAIL), then
 * check() (may be NULL) before the device, run() with it.  Exits on errors.
 */
struct lkst_verb_ops {
	const struct poptOption *options;
	const char *args_help;		/* poptSetOtherOptionHelp(), or NULL */
	void (*check)(struct lkst_cmd *cmd);
	int (*run)(struct lkst_cmd *cmd);
	/* What tells apart verbs that share check() and run() (lkbuf link, delete). */
	const void *data;
};

struct lkst_verb_group;

/* A row of a command table; the table ends with a NULL name. */
struct lkst_verb {
	const char *name;
	unsigned int flags;		/* LKST_NEEDS_DEVICE, ... */
	const struct lkst_verb_ops *ops;
	const char *summary;
	/* Instead of ops: a verb that parses its own argv (argv[0] its name), */
	int (*run_argv)(int argc, const char **argv);
	/* or nested verbs ("lkm agg set"). */
	const struct lkst_verb_group *group;
};

/* Rows of a command table. */
#define LKST_VERB(name, flags, ops, summary)	{ name, flags, ops, summary, NULL, NULL }
#define LKST_VERB_ARGV(name, run, summary)	{ name, 0, NULL, summary, run, NULL }
#define LKST_VERB_GROUP(name, group, summary)	{ name, 0, NULL, summary, NULL, group }
#define LKST_VERB_END				{ NULL, 0, NULL, NULL, NULL, NULL }

/* Nested verbs: "PROG NAME --help" lists them, then help_footer(). */
struct lkst_verb_group {
	const char *name;
	const struct lkst_verb *verbs;	/* ends with a NULL name */
	int name_width;			/* of the --help list's first column */
	void (*help_footer)(void);
};

/*
 * The release of lkst's tools, the one place it is written: --version of
 * lkbuf, lkm (and each verb) and the visualizers print it.
 */
#define LKST_RELEASE	"0.3.0"

/* "PROG (lkst) RELEASE, tracer ABI N, log format N (reads N-N)". */
void lkst_print_version(void);

/*
 * Option table tail: the exit codes as a help section, then popt's
 * --help and --usage and --version, so that every verb takes them.
 */
extern struct poptOption lkst_exit_code_table[];
extern struct poptOption lkst_help_table[];
#define LKST_POPT_TAIL							\
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkst_exit_code_table, 0,	\
	  LKST_EXIT_CODES_HELP, NULL },					\
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkst_help_table, 0,	\
	  "Help options:", NULL },					\
	POPT_TABLEEND

/*
 * Runs the verb named by argv[1] (--help, --version and help VERB too);
 * argv of the verb starts at its name, "PROG VERB".
 */
int lkst_run_verb(int argc, char **argv, const struct lkst_verb *verbs);

/*
 * Parses a verb's options, exiting with a one-line message on errors, a
 * single-valued option given twice (or with its hidden alias) among them.
 * Returns the context, positional arguments left for poptGetArgs().  With
 * LKST_OPTIONS_TABLE=1 in the environment it prints the option table and
 * exits instead (docs/options.md; "PROG" alone: every verb's).
 */
poptContext lkst_parse_options(int argc, const char **argv,
			       const struct poptOption *options,
			       const char *positional_help);
/* Exits if the verb got positional arguments it does not take. */
void lkst_no_positional(poptContext ctx);
/* Exits if a required option is missing. */
void lkst_require(const char *value, const char *option, const char *verb);
/* A numeric option value or exits with a usage error naming it. */
uint32_t lkst_option_u32(const char *value, uint32_t max, const char *what);

/*
 * Mapped logs (lkst_logio.h) that shrink while read raise SIGBUS: after
 * this call that ends the program with a message and LKST_EXIT_USAGE
 * instead of a crash.  Tools call it once; the library never exits.
 */
void lkst_log_exit_on_sigbus(void);

#endif /* LKST_CLI_H */
