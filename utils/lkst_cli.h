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

struct lkst_verb {
	const char *name;
	int (*run)(int argc, const char **argv);
	const char *summary;
};

/* Option table tail: the exit codes as a help section, then --help. */
extern struct poptOption lkst_exit_code_table[];
#define LKST_POPT_TAIL							\
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkst_exit_code_table, 0,	\
	  LKST_EXIT_CODES_HELP, NULL },					\
	POPT_AUTOHELP							\
	POPT_TABLEEND

/* Runs the verb named by argv[1]; argv of the verb starts at its name. */
int lkst_run_verb(int argc, char **argv, const struct lkst_verb *verbs);

/*
 * Parses a verb's options, exiting with a one-line message on errors.
 * Returns the context, positional arguments left for poptGetArgs().
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
