// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line checks and the gnuplot run shared by lkst-procstate and
 * lkst-pagemap (common.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "common.h"
#include "evarray.h"
#include "lkst_log.h"

void *viz_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		lkst_die(LKST_EXIT_USAGE, "out of memory");
	return p;
}

poptContext viz_parse_options(const char *progname, int argc, char **argv,
			      struct poptOption *options, struct viz_options *v)
{
	struct lkst_err err;
	poptContext ctx;

	lkst_progname = progname;
	lkst_log_exit_on_sigbus();
	ctx = lkst_parse_options(argc, (const char **)argv, options, NULL);
	lkst_no_positional(ctx);
	if (!v->log_file == !v->csv_file)
		lkst_die(LKST_EXIT_USAGE, "give one of -f LOG or --csv-file CSV; run %s --help",
			 lkst_progname);
	if (!(v->select = lkst_select_new(&err)) ||
	    (v->pids && lkst_select_pids(v->select, v->pids, &err)) ||
	    (v->comms && lkst_select_comms(v->select, v->comms, &err)))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	return ctx;
}

void viz_options_free(poptContext ctx, struct viz_options *v)
{
	lkst_select_free(v->select);
	poptFreeContext(ctx);
}

void viz_parse_window(const char *s, const struct viz_log *log, uint64_t *from,
		      uint64_t *to)
{
	struct lkst_clock_anchor anchor;
	unsigned long long start, end;
	struct lkst_err err;

	*from = 0;
	*to = UINT64_MAX;
	if (!s)
		return;
	if (log)
		anchor = lkst_trace_anchor(log->trace);
	if (lkst_parse_window(s, log ? &anchor : NULL, &start, &end, &err))
		lkst_die(LKST_EXIT_USAGE, "-t: %s", err.msg);
	*from = start;
	*to = end;
}

const char *viz_split_pair(const char *s, char *first, size_t len)
{
	const char *comma = strchr(s, ',');

	if (!comma || (size_t)(comma - s) >= len)
		return NULL;
	memcpy(first, s, comma - s);
	first[comma - s] = '\0';
	return comma + 1;
}

double viz_secs(uint64_t ns)
{
	return ns / 1e9;
}

void viz_print_time(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull),
		(unsigned long long)(ns % 1000000000ull));
}

void viz_unquote(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\'')
			*s = '`';
}

char *viz_data_path(const char *output)
{
	const char *dot = strrchr(output, '.');
	const char *slash = strrchr(output, '/');
	size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - output) : strlen(output);
	char *p = viz_xcalloc(stem + 5, 1);

	memcpy(p, output, stem);
	strcpy(p + stem, ".dat");
	return p;
}

void viz_script_path(const char *given, const char *name, char *script, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (given) {
		snprintf(script, len, "%s", given);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		lkst_die(LKST_EXIT_USAGE, "cannot find %s; give --script PATH", name);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	/* Built in the source tree: the script sits next to the program. */
	if ((size_t)snprintf(script, len, "%s/%s", exe, name) >= len)
		lkst_die(LKST_EXIT_USAGE, "program path too long; give --script PATH");
	if (!access(script, R_OK))
		return;
	/* Installed (make install): PREFIX/bin/PROGRAM, PREFIX/share/lkst/NAME. */
	if ((size_t)snprintf(script, len, "%s/" VIZ_DATADIR_REL "/%s", exe, name) >= len)
		lkst_die(LKST_EXIT_USAGE, "program path too long; give --script PATH");
	if (!access(script, R_OK))
		return;
	lkst_die(LKST_EXIT_USAGE, "cannot find %s in %s or %s/" VIZ_DATADIR_REL
		 "; give --script PATH", name, exe, exe);
}

static void print_version(poptContext ctx, enum poptCallbackReason reason,
			  const struct poptOption *opt, const char *arg, const void *data)
{
	(void)ctx; (void)reason; (void)opt; (void)arg; (void)data;
	lkst_print_version();
	exit(LKST_EXIT_OK);
}

struct poptOption viz_version_table[] = {
	{ NULL, '\0', POPT_ARG_CALLBACK, (void *)print_version, 0, NULL, NULL },
	{ "version", '\0', POPT_ARG_NONE, NULL, 0,
	  "print the release, tracer ABI and log format versions and exit", NULL },
	POPT_TABLEEND
};

void viz_gnuplot(const char *vars, const char *script, const char *data,
		 const char *output)
{
	int status;
	pid_t pid;

	if (strchr(data, '\'') || strchr(output, '\''))
		lkst_die(LKST_EXIT_USAGE, "-o path must not contain a single quote");
	pid = fork();
	if (pid < 0)
		lkst_die(LKST_EXIT_USAGE, "cannot start gnuplot: %s", strerror(errno));
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
		fprintf(stderr, "%s: cannot run gnuplot: %s; apt-get install gnuplot-nox\n",
			lkst_progname, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		lkst_die(LKST_EXIT_USAGE, "gnuplot failed on %s (data in %s)", script, data);
}
