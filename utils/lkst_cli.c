// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line half of lkm, lkbuf and the visualizers: messages that
 * exit, the /dev/lkst wrappers, the kernel's event table and the popt
 * helpers.  Not part of liblkst: the library returns errors, this exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lkst_log.h"
#include "lkst_cli.h"
#include "lkst_format.h"
#include "lkst_logio.h"

const char *lkst_progname = "lkst";

/*
 * Set once an error is on standard error: the check of standard output
 * at exit then says nothing more, so that an error is one line (a verb
 * that failed to write has said so, with the error it got).
 */
static bool died;

void lkst_die(int code, const char *fmt, ...)
{
	va_list ap;

	died = true;

	fprintf(stderr, "%s: ", lkst_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/* ---- Logs cut short while mapped ---------------------------------------- */

/*
 * A mapped file that shrinks under us (another program truncates it, or
 * its storage fails) raises SIGBUS where its pages are gone: for the
 * mappings of logs that ends the program with a message, not a crash.
 * liblkst calls these through its map hooks (lkst_log_set_map_hooks()).
 */
#define MAX_MAPPED 8

static struct mapped_log {
	uintptr_t start, end;		/* end 0: a free slot */
	size_t msg_len;
	char msg[384];
} mapped_logs[MAX_MAPPED];
static unsigned int nr_mapped;
static struct sigaction saved_sigbus;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t addr = (uintptr_t)si->si_addr;
	unsigned int i;

	(void)uc;
	for (i = 0; i < MAX_MAPPED; i++) {
		if (mapped_logs[i].end && addr >= mapped_logs[i].start &&
		    addr < mapped_logs[i].end) {
			if (write(STDERR_FILENO, mapped_logs[i].msg, mapped_logs[i].msg_len) < 0) {
				/* nothing more to say */
			}
			_exit(LKST_EXIT_USAGE);
		}
	}
	/* Not in a log: the disposition from before, as if unhandled. */
	sigaction(SIGBUS, &saved_sigbus, NULL);
	raise(sig);
}

static void watch_mapping(const void *start, size_t len, const char *path)
{
	struct sigaction sa;
	unsigned int i;
	int n;

	for (i = 0; i < MAX_MAPPED && mapped_logs[i].end; i++)
		;
	if (i == MAX_MAPPED)
		return;		/* unwatched: a shrinking file ends with SIGBUS */
	if (!nr_mapped) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &saved_sigbus))
			return;
	}
	n = snprintf(mapped_logs[i].msg, sizeof(mapped_logs[i].msg),
		     "%s: %s: the file cannot be read any more (cut short by another program while being read, or an I/O error); what was printed is incomplete\n",
		     lkst_progname, path);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(mapped_logs[i].msg))
		n = sizeof(mapped_logs[i].msg) - 1;
	mapped_logs[i].msg_len = n;
	mapped_logs[i].start = (uintptr_t)start;
	mapped_logs[i].end = (uintptr_t)start + len;
	nr_mapped++;
}

static void unwatch_mapping(const void *start)
{
	unsigned int i;

	for (i = 0; i < MAX_MAPPED; i++) {
		if (mapped_logs[i].end && mapped_logs[i].start == (uintptr_t)start) {
			mapped_logs[i].end = 0;
			if (!--nr_mapped)
				sigaction(SIGBUS, &saved_sigbus, NULL);
			return;
		}
	}
}

static const struct lkst_log_map_hooks exit_on_sigbus_hooks = {
	.mapped = watch_mapping,
	.unmapped = unwatch_mapping,
};

void lkst_log_exit_on_sigbus(void)
{
	lkst_log_set_map_hooks(&exit_on_sigbus_hooks);
}

/* ---- Device --------------------------------------------------------- */

/* Each message ends with the kernel's return value by name: "(-EINVAL)". */
static bool lkst_locked_down(void);

void lkst_die_errno(int err, const char *what)
{
	const char *name = lkst_errno_name(-(long long)err);
	char code[48];

	snprintf(code, sizeof(code), "(-%s)", name ? name : "?");
	if (!name)
		snprintf(code, sizeof(code), "(-%d)", err);
	switch (err) {
	case EPERM:
		/* Raised while the device was open: records and probes refused. */
		if (lkst_locked_down())
			lkst_die(LKST_EXIT_DEVICE, "%s: refused under lockdown=confidentiality: records hold kernel addresses %s",
				 what, code);
		/* fall through */
	case EACCES:
		lkst_die(LKST_EXIT_DEVICE, "%s: permission denied; need CAP_SYS_ADMIN (run as root) %s",
			 what, code);
	case ENOTTY:
		lkst_die(LKST_EXIT_DEVICE, "%s: the kernel does not know this request; use utilities built for the running kernel %s",
			 what, code);
	case EINVAL:
		lkst_die(LKST_EXIT_DEVICE, "%s: the kernel rejected a value as out of range; check the IDs and sizes given %s",
			 what, code);
	case ENOMEM:
		lkst_die(LKST_EXIT_DEVICE, "%s: the kernel is out of memory; free memory or use smaller buffers %s",
			 what, code);
	case ENOSPC:
		lkst_die(LKST_EXIT_DEVICE, "%s: no free ID left; delete an unused one first %s",
			 what, code);
	default:
		lkst_die(LKST_EXIT_DEVICE, "%s: %s; check dmesg for lkst messages %s",
			 what, strerror(err), code);
	}
}

int lkst_dev_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

int lkst_dev_lookup(int fd, unsigned long cmd, void *arg, const char *what)
{
	int ret = lkst_dev_ioctl(fd, cmd, arg);

	if (ret && ret != -ENOENT)
		lkst_die_errno(-ret, what);
	return ret;
}

/* Whether lockdown=confidentiality is in force, which closes /dev/lkst. */
static bool lkst_locked_down(void)
{
	char levels[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");

	if (!f)
		return false;
	if (!fgets(levels, sizeof(levels), f))
		levels[0] = '\0';
	fclose(f);
	return strstr(levels, "[confidentiality]") != NULL;
}

int lkst_dev_open(struct lkst_version *version)
{
	int fd, ret;

	fd = open(LKST_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if (err == ENOENT || err == ENXIO || err == ENODEV)
			lkst_die(LKST_EXIT_DEVICE, "cannot open %s: %s; is the kernel built with CONFIG_LKST=y?",
				 LKST_DEVICE, strerror(err));
		if (err == EPERM && lkst_locked_down())
			lkst_die(LKST_EXIT_DEVICE, "cannot open %s: %s; the kernel is locked down (confidentiality), which closes tracers",
				 LKST_DEVICE, strerror(err));
		if (err == EACCES || err == EPERM)
			lkst_die(LKST_EXIT_DEVICE, "cannot open %s: %s; need CAP_SYS_ADMIN (run as root)",
				 LKST_DEVICE, strerror(err));
		lkst_die(LKST_EXIT_DEVICE, "cannot open %s: %s; check the device node",
			 LKST_DEVICE, strerror(err));
	}
	memset(version, 0, sizeof(*version));
	ret = lkst_dev_ioctl(fd, LKST_IOC_GET_VERSION, version);
	if (ret)
		lkst_die_errno(-ret, "reading the lkst ABI version");
	if (version->abi_version != LKST_ABI_VERSION ||
	    version->record_size != sizeof(struct lkst_record))
		lkst_die(LKST_EXIT_DEVICE, "kernel lkst ABI %u with %u-byte records, this tool speaks ABI %u with %zu-byte records; use utilities built for the running kernel",
			 version->abi_version, version->record_size,
			 LKST_ABI_VERSION, sizeof(struct lkst_record));
	ret = lkst_events_load_kernel(fd);
	if (ret)
		lkst_die_errno(-ret, "reading the kernel's event table");
	return fd;
}

int lkst_events_load_kernel(int fd)
{
	static struct lkst_event_desc descs[LKST_NR_EVENT_IDS];
	struct lkst_event_table table = {
		.descs = (uintptr_t)descs,
		.max_descs = LKST_NR_EVENT_IDS,
		.desc_size = sizeof(descs[0]),
	};
	struct lkst_err err;
	int ret;

	/* One call: a trace of system calls gets one record of it, not 256. */
	ret = lkst_dev_ioctl(fd, LKST_IOC_EVENT_TABLE, &table);
	if (ret == -ENOTTY)
		return 0;	/* a kernel before EVENT_TABLE: the built-in table */
	if (ret)
		return ret;
	if (table.nr_descs > LKST_NR_EVENT_IDS)
		lkst_die(LKST_EXIT_DEVICE, "the kernel describes %u events, more than %u IDs",
			 table.nr_descs, LKST_NR_EVENT_IDS);
	if (lkst_events_use(descs, table.nr_descs, sizeof(descs[0]), &err))
		lkst_die(LKST_EXIT_DEVICE, "the kernel's event table: %s", err.msg);
	return 0;
}

void lkst_events_use_running_kernel(void)
{
	struct lkst_version version;
	int fd = open(LKST_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;	/* no tracer here: the built-in table */
	close(fd);
	close(lkst_dev_open(&version));
}

void lkst_dev_load_handlers(int fd, struct lkst_handler_names *h)
{
	struct lkst_handler_desc desc;
	unsigned int id;

	lkst_handler_names_init(h);
	for (id = 1; id < LKST_MAX_HANDLERS; id++) {
		memset(&desc, 0, sizeof(desc));
		desc.id = id;
		if (lkst_dev_lookup(fd, LKST_IOC_HANDLER_INFO, &desc, "reading handler info"))
			continue;
		desc.name[LKST_NAME_LEN - 1] = '\0';
		desc.module[LKST_NAME_LEN - 1] = '\0';
		/* Keep the built-in names if the kernel lists a handler without one. */
		if (desc.name[0])
			memcpy(h->name[id], desc.name, LKST_NAME_LEN);
		memcpy(h->module[id], desc.module, LKST_NAME_LEN);
	}
}

unsigned int lkst_dev_handler_id(int fd, const char *name, const char *module)
{
	struct lkst_handler_names *h = malloc(sizeof(*h));
	unsigned int id;

	if (!h)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	lkst_dev_load_handlers(fd, h);
	for (id = 1; id < LKST_MAX_HANDLERS; id++)
		if (!strcasecmp(h->name[id], name))
			break;
	free(h);
	if (id == LKST_MAX_HANDLERS)
		lkst_die(LKST_EXIT_DEVICE, "no handler named %s is registered; load it first (insmod %s.ko)",
			 name, module);
	return id;
}

int lkst_dev_handler_ctl(int fd, unsigned int handler, unsigned int cmd,
			 void *data, uint32_t size)
{
	struct lkst_handler_ctl ctl = {
		.handler = handler,
		.cmd = cmd,
		.data = (uintptr_t)data,
		.size = size,
	};
	int ret;

	do
		ret = ioctl(fd, LKST_IOC_HANDLER_CTL, &ctl);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

/* ---- Command line --------------------------------------------------- */

struct poptOption lkst_exit_code_table[] = {
	POPT_TABLEEND
};

void lkst_print_version(void)
{
	printf("%s (lkst) %s, tracer ABI %u, log format %u (reads %u-%u)\n",
	       lkst_progname, LKST_RELEASE, LKST_ABI_VERSION, LKST_LOG_VERSION,
	       LKST_LOG_VERSION_MIN, LKST_LOG_VERSION);
}

/* A verb's --version, as popt's --help: prints, then exits. */
static void version_option(poptContext ctx, enum poptCallbackReason reason,
			   const struct poptOption *opt, const char *arg, const void *data)
{
	(void)ctx; (void)reason; (void)opt; (void)arg; (void)data;
	lkst_print_version();
	exit(LKST_EXIT_OK);	/* check_output_at_exit() checks the output */
}

struct poptOption lkst_help_table[] = {
	{ NULL, '\0', POPT_ARG_CALLBACK, (void *)version_option, 0, NULL, NULL },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, poptHelpOptions, 0, NULL, NULL },
	{ "version", '\0', POPT_ARG_NONE, NULL, 0,
	  "print the release, tracer ABI and log format versions and exit", NULL },
	POPT_TABLEEND
};

static void print_verbs(FILE *out, const struct lkst_verb *verbs)
{
	const struct lkst_verb *v;

	fprintf(out, "Usage: %s VERB [OPTION...]\n\nVerbs:\n", lkst_progname);
	for (v = verbs; v->name; v++)
		fprintf(out, "  %-10s %s\n", v->name, v->summary);
	fprintf(out, "\nRun '%s VERB --help' or '%s help VERB' for a verb's options;\n"
		"'%s --version' for the versions it speaks.\n%s\n",
		lkst_progname, lkst_progname, lkst_progname, LKST_EXIT_CODES_HELP);
}

static const struct lkst_verb *find_verb(const struct lkst_verb *verbs,
					 const char *name)
{
	const struct lkst_verb *v;

	for (v = verbs; v->name; v++)
		if (!strcmp(name, v->name))
			return v;
	return NULL;
}

/* Every verb: output that did not reach its destination is an error. */
static int check_output(int ret)
{
	errno = 0;	/* a failure seen before, not now: no stale errno (EIO) */
	if (fflush(stdout) || ferror(stdout))
		lkst_die(LKST_EXIT_USAGE, "cannot write the output: %s; check the output",
			 strerror(errno ? errno : EIO));
	return ret;
}

/* Also when popt's --help exits by itself. */
static void check_output_at_exit(void)
{
	if (died)
		return;
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write the output: %s; check the output\n",
			lkst_progname, strerror(errno ? errno : EIO));
		_exit(LKST_EXIT_USAGE);
	}
}

static poptContext parse_options(int argc, const char **argv,
				 const struct poptOption *options,
				 const char *positional_help, unsigned int popt_flags);
static bool listing_options(void);
static void list_all_options(const char *prefix, const struct lkst_verb *verbs);
static int run_group(const struct lkst_verb_group *g, int argc, const char **argv);

/* Options, check(), device, run(), then the teardown: written once here. */
static int run_cmd(const struct lkst_verb *v, int argc, const char **argv)
{
	const struct lkst_verb_ops *ops = v->ops;
	struct lkst_cmd cmd = { .name = argv[0], .fd = -1, .data = ops ? ops->data : NULL };
	int ret;

	if (v->group)
		return run_group(v->group, argc, argv);
	if (v->run_argv)
		return v->run_argv(argc, argv);
	cmd.ctx = parse_options(argc, argv, ops->options, ops->args_help,
				(v->flags & LKST_OPTIONS_FIRST) ? POPT_CONTEXT_POSIXMEHARDER : 0);
	if (!(v->flags & LKST_TAKES_ARGS))
		lkst_no_positional(cmd.ctx);
	cmd.args = poptGetArgs(cmd.ctx);
	while (cmd.args && cmd.args[cmd.nr_args])
		cmd.nr_args++;
	if (ops->check)
		ops->check(&cmd);
	if (v->flags & LKST_NEEDS_DEVICE)
		cmd.fd = lkst_dev_open(&cmd.version);
	ret = ops->run(&cmd);
	if (cmd.fd >= 0)
		close(cmd.fd);
	poptFreeContext(cmd.ctx);
	return ret;
}

/* "a, b or c": a group's verbs, for the message when none is given. */
static void list_names(const struct lkst_verb *verbs, char *buf, size_t len)
{
	const struct lkst_verb *v;
	size_t used = 0;

	buf[0] = '\0';
	for (v = verbs; v->name && used < len; v++)
		used += snprintf(buf + used, len - used, "%s%s",
				 v == verbs ? "" : v[1].name ? ", " : " or ", v->name);
}

/* argv[0] is "PROG NAME", argv[1] the nested verb. */
static int run_group(const struct lkst_verb_group *g, int argc, const char **argv)
{
	const struct lkst_verb *v;
	char names[256], *name;

	if (argc < 2) {
		list_names(g->verbs, names, sizeof(names));
		lkst_die(LKST_EXIT_USAGE, "%s needs a subcommand: %s; run %s %s --help",
			 g->name, names, lkst_progname, g->name);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("Usage: %s %s SUBCOMMAND [OPTION...]\n\nSubcommands:\n",
		       lkst_progname, g->name);
		for (v = g->verbs; v->name; v++)
			printf("  %-*s %s\n", g->name_width, v->name, v->summary);
		g->help_footer();
		return LKST_EXIT_OK;
	}
	v = find_verb(g->verbs, argv[1]);
	if (!v)
		lkst_die(LKST_EXIT_USAGE, "unknown subcommand '%s %s'; run %s %s --help",
			 g->name, argv[1], lkst_progname, g->name);
	if (asprintf(&name, "%s %s %s", lkst_progname, g->name, v->name) < 0)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	argv[1] = name;
	return run_cmd(v, argc - 1, argv + 1);
}

/* "lkm read" as argv[0], so popt's help and messages name the full command. */
static int run_verb(const struct lkst_verb *v, int argc, char **argv)
{
	char *name;

	if (!v)
		lkst_die(LKST_EXIT_USAGE, "unknown verb '%s'; run %s --help for the list of verbs",
			 argv[0], lkst_progname);
	if (asprintf(&name, "%s %s", lkst_progname, v->name) < 0)
		lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
	argv[0] = name;
	return check_output(run_cmd(v, argc, (const char **)argv));
}

/*
 * liblkst's messages as the tools print them: warnings on stderr, progress
 * as a line redrawn in place, on a terminal only.
 */
static void cli_msg(void *arg, enum lkst_msg_kind kind, unsigned int percent,
		    const char *text)
{
	(void)arg;
	if (kind == LKST_MSG_WARNING)
		fprintf(stderr, "%s: %s\n", lkst_progname, text);
	else if (kind == LKST_MSG_PROGRESS && isatty(STDERR_FILENO))
		fprintf(stderr, "\r%s: %s: %3u%%", lkst_progname, text, percent);
	else if (kind == LKST_MSG_PROGRESS_END && isatty(STDERR_FILENO))
		fprintf(stderr, "\r%*s\r", 24, "");
}

int lkst_run_verb(int argc, char **argv, const struct lkst_verb *verbs)
{
	char *help_argv[3] = { NULL, "--help", NULL };

	lkst_set_msg_handler(cli_msg, NULL);
	atexit(check_output_at_exit);
	if (listing_options() && argc < 2) {
		list_all_options(lkst_progname, verbs);
		return check_output(LKST_EXIT_OK);
	}
	if (argc < 2)
		lkst_die(LKST_EXIT_USAGE, "no verb given; run %s --help for the list of verbs",
			 lkst_progname);
	if (!strcmp(argv[1], "--version")) {
		if (argc > 2)
			lkst_die(LKST_EXIT_USAGE, "--version takes no arguments");
		lkst_print_version();
		return check_output(LKST_EXIT_OK);
	}
	/* help --help: help's own help is the list of verbs. */
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && (argc == 2 || !strcmp(argv[2], "--help") ||
					  !strcmp(argv[2], "-h")))) {
		print_verbs(stdout, verbs);
		return check_output(LKST_EXIT_OK);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 3)
			lkst_die(LKST_EXIT_USAGE, "help takes one verb; run %s --help for the list of verbs",
				 lkst_progname);
		help_argv[0] = argv[2];
		return run_verb(find_verb(verbs, argv[2]), 2, help_argv);
	}
	return run_verb(find_verb(verbs, argv[1]), argc - 1, argv + 1);
}

poptContext lkst_parse_options(int argc, const char **argv,
			       const struct poptOption *options,
			       const char *positional_help)
{
	return parse_options(argc, argv, options, positional_help, 0);
}

/* ---- Option tables: repeats refused, tables listed ------------------- */

/*
 * popt stores a repeated option's last value and says nothing, so
 * "-f a -f b" would read b.  The runner parses a copy of each table in
 * which every single-valued option also returns a tag (its val), and
 * refuses a second value for the same variable (an option or its hidden
 * alias).  Lists (POPT_ARG_ARGV) and flags may repeat.
 */
#define TAG_BASE	0x4c4b0000	/* returned vals: TAG_BASE + index in tagged[] */
#define MAX_TAGGED	512

static struct poptOption tag_pool[MAX_TAGGED];
static const struct poptOption *tagged[MAX_TAGGED];
static unsigned int nr_pool, nr_tagged;

static bool single_valued(const struct poptOption *o)
{
	switch (o->argInfo & POPT_ARG_MASK) {
	case POPT_ARG_STRING: case POPT_ARG_INT: case POPT_ARG_LONG:
	case POPT_ARG_LONGLONG: case POPT_ARG_SHORT: case POPT_ARG_FLOAT:
	case POPT_ARG_DOUBLE:
		return o->arg && !o->val;
	default:
		return false;
	}
}

static bool include_table(const struct poptOption *o)
{
	return (o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE;
}

static bool needs_tags(const struct poptOption *t)
{
	for (; t->longName || t->shortName || t->arg; t++)
		if (single_valued(t) || (include_table(t) && needs_tags(t->arg)))
			return true;
	return false;
}

/* The copy of t with tags; tables without single-valued options as they are. */
static const struct poptOption *tag_table(const struct poptOption *t)
{
	struct poptOption *copy;
	unsigned int n = 0, i;

	if (!needs_tags(t))
		return t;
	while (t[n].longName || t[n].shortName || t[n].arg)
		n++;
	if (nr_pool + n + 1 > MAX_TAGGED)
		lkst_die(LKST_EXIT_USAGE, "option table too large (%u entries)", nr_pool + n + 1);
	copy = tag_pool + nr_pool;
	nr_pool += n + 1;
	memcpy(copy, t, (n + 1) * sizeof(*t));
	for (i = 0; i < n; i++) {
		if (include_table(&copy[i]))
			copy[i].arg = (void *)tag_table(copy[i].arg);
		else if (single_valued(&copy[i]) && nr_tagged < MAX_TAGGED) {
			copy[i].val = TAG_BASE + nr_tagged;
			tagged[nr_tagged++] = &t[i];
		}
	}
	return copy;
}

/* "-f", or "--long" for an option without a letter. */
static const char *option_name(const struct poptOption *o, char *buf, size_t len)
{
	if (o->shortName)
		snprintf(buf, len, "-%c", o->shortName);
	else
		snprintf(buf, len, "--%s", o->longName);
	return buf;
}

static void refuse_repeat(int rc)
{
	static bool given[MAX_TAGGED];
	const struct poptOption *o = tagged[rc - TAG_BASE];
	char a[64], b[64];
	unsigned int i;

	for (i = 0; i < nr_tagged; i++) {
		if (!given[i] || tagged[i]->arg != o->arg)
			continue;
		if (tagged[i] == o || !strcmp(option_name(tagged[i], a, sizeof(a)),
					      option_name(o, b, sizeof(b))))
			lkst_die(LKST_EXIT_USAGE, "%s given twice; give it once",
				 option_name(o, a, sizeof(a)));
		lkst_die(LKST_EXIT_USAGE, "%s and %s both given; they are the same option, give it once",
			 option_name(tagged[i], a, sizeof(a)), option_name(o, b, sizeof(b)));
	}
	given[rc - TAG_BASE] = true;
}

/*
 * LKST_OPTIONS_TABLE=1 in the environment: instead of running, print the
 * option table, a line per option, tab-separated:
 *   TOOL VERB SHORT LONG KIND HIDDEN SAME DOC
 * VERB "-" for a program without verbs, SHORT "-" without a letter, KIND
 * flag, value, string, number or list, HIDDEN "hidden" or "shown", SAME
 * the long name of the first option of the verb that sets the same
 * variable (itself, or what a hidden alias stands for), DOC "doc" when
 * it has a --help text, else "nodoc".
 * tests/host/test_options.sh and tools/build/gen-options.py read it.
 */
#define OPTIONS_TABLE_ENV	"LKST_OPTIONS_TABLE"

static const char *option_kind(const struct poptOption *o)
{
	switch (o->argInfo & POPT_ARG_MASK) {
	case POPT_ARG_NONE:	return "flag";
	case POPT_ARG_VAL:	return "value";
	case POPT_ARG_STRING:	return "string";
	case POPT_ARG_ARGV:	return "list";
	default:		return "number";
	}
}

static const struct poptOption *first_same(const struct poptOption *t,
					   const struct poptOption *o)
{
	const struct poptOption *f;

	for (; t->longName || t->shortName || t->arg; t++) {
		if (include_table(t)) {
			f = first_same(t->arg, o);
			if (f)
				return f;
		} else if (t == o || (o->arg && t->arg == o->arg)) {
			return t;
		}
	}
	return NULL;
}

static void print_table(const char *verb, const struct poptOption *top,
			const struct poptOption *t)
{
	const struct poptOption *same;

	for (; t->longName || t->shortName || t->arg; t++) {
		if (include_table(t)) {
			print_table(verb, top, t->arg);
			continue;
		}
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_CALLBACK)
			continue;
		same = first_same(top, t);
		printf("%s\t%s\t%c\t%s\t%s\t%s\t%s\t%s\n", lkst_progname, verb,
		       t->shortName ? t->shortName : '-', t->longName ? t->longName : "-",
		       option_kind(t),
		       (t->argInfo & POPT_ARGFLAG_DOC_HIDDEN) ? "hidden" : "shown",
		       same && same->longName ? same->longName : "-",
		       t->descrip && *t->descrip ? "doc" : "nodoc");
	}
}

static bool listing_options(void)
{
	const char *v = getenv(OPTIONS_TABLE_ENV);

	return v && *v && strcmp(v, "0");
}

/* A verb's table, argv0 "PROG VERB..." (a program without verbs: its path). */
static void list_options(const char *argv0, const struct poptOption *options)
{
	size_t len = strlen(lkst_progname);
	const char *verb = "-";

	if (!strncmp(argv0, lkst_progname, len) && argv0[len] == ' ')
		verb = argv0 + len + 1;
	print_table(verb, options, options);
	check_output(0);
}

/* Every verb's table: groups nested, a verb parsing its own argv in a child. */
static void list_all_options(const char *prefix, const struct lkst_verb *verbs)
{
	const struct lkst_verb *v;
	char *name;
	int status;
	pid_t pid;

	for (v = verbs; v->name; v++) {
		if (asprintf(&name, "%s %s", prefix, v->name) < 0)
			lkst_die(LKST_EXIT_DEVICE, "out of memory; free some memory");
		if (v->group) {
			list_all_options(name, v->group->verbs);
		} else if (v->ops) {
			list_options(name, v->ops->options);
		} else {
			const char *argv[] = { name, NULL };

			check_output(0);
			pid = fork();
			if (pid < 0)
				lkst_die(LKST_EXIT_DEVICE, "fork: %s", strerror(errno));
			if (!pid)
				exit(v->run_argv(1, argv));
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				lkst_die(LKST_EXIT_USAGE, "listing the options of %s failed", name);
		}
		free(name);
	}
}

static poptContext parse_options(int argc, const char **argv,
				 const struct poptOption *options,
				 const char *positional_help, unsigned int popt_flags)
{
	poptContext ctx;
	int rc;

	if (listing_options()) {
		list_options(argv[0], options);
		exit(LKST_EXIT_OK);
	}
	ctx = poptGetContext(argv[0], argc, argv, tag_table(options), popt_flags);
	if (!ctx)
		lkst_die(LKST_EXIT_USAGE, "cannot parse the options; run %s --help", argv[0]);
	if (positional_help)
		poptSetOtherOptionHelp(ctx, positional_help);
	while ((rc = poptGetNextOpt(ctx)) >= TAG_BASE && rc < TAG_BASE + (int)nr_tagged)
		refuse_repeat(rc);
	if (rc < -1)
		lkst_die(LKST_EXIT_USAGE, "%s: %s; run %s --help",
			 poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			 poptStrerror(rc), argv[0]);
	if (rc != -1)
		lkst_die(LKST_EXIT_USAGE, "unexpected option value %d; run %s --help",
			 rc, argv[0]);
	return ctx;
}

void lkst_no_positional(poptContext ctx)
{
	const char *extra = poptPeekArg(ctx);

	if (extra)
		lkst_die(LKST_EXIT_USAGE, "unexpected argument '%s'; run %s --help for the usage",
			 extra, lkst_progname);
}

void lkst_require(const char *value, const char *option, const char *verb)
{
	if (!value)
		lkst_die(LKST_EXIT_USAGE, "%s needs %s; run %s %s --help",
			 verb, option, lkst_progname, verb);
}

uint32_t lkst_option_u32(const char *value, uint32_t max, const char *what)
{
	uint32_t n;

	if (lkst_parse_u32(value, max, &n))
		lkst_die(LKST_EXIT_USAGE, "bad %s '%s'; give a number 0..%u (decimal or 0x hex)",
			 what, value, max);
	return n;
}
