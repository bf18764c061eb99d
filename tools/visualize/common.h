/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lkst-procstate and lkst-pagemap share around their models: the
 * input and selection options, their checks, and drawing with gnuplot
 * (the data file next to the picture, the script next to the program or
 * installed) and --version.
 */
#ifndef LKST_VIZ_COMMON_H
#define LKST_VIZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lkst_cli.h"
#include "lkst_format.h"

/*
 * The options both visualizers take: the first member, v, of each one's
 * struct options, set by the VIZ_POPT_* entries below and
 * viz_parse_options().
 */
struct viz_options {
	char *log_file;
	char *csv_file;
	char *output;
	char *pids;
	char *comms;
	char *window;
	char *script;
	int summary;
	int width;
	struct lkst_select *select;	/* -p and -n */
};

/*
 * popt entries of -f/--csv-file and -p/-n; o is a struct viz_options.  --csv was the input's name before it meant CSV output
 * everywhere else (lkbuf print -C): kept, hidden, for scripts.
 */
#define VIZ_POPT_INPUT(o)						\
	{ "file", 'f', POPT_ARG_STRING, &(o).log_file, 0, "log file (lkbuf read)", "FILE" }, \
	{ "csv-file", '\0', POPT_ARG_STRING, &(o).csv_file, 0,	\
	  "CSV from lkbuf print -C (any of -r -S -V)", "FILE" },	\
	{ "csv", '\0', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &(o).csv_file, 0, NULL, NULL }
#define VIZ_POPT_SELECT(o)						\
	{ "pid", 'p', POPT_ARG_STRING, &(o).pids, 0,			\
	  "only these processes (decimal or 0x hex)", "PID[,PID]" },	\
	{ "comm", 'n', POPT_ARG_STRING, &(o).comms, 0,			\
	  "only processes with these command names, as lkbuf print -n: exact, "	\
	  "or PREFIX* for every name starting with PREFIX", "NAME[,NAME]" }
/* -t, the same as lkbuf print's; o is a struct with a window member. */
#define VIZ_TIME_HELP							\
	"time window: each side seconds of the trace clock (12.5) or, with -f, "	\
	"a time of day as lkbuf print shows it (hh:mm:ss[.frac], local time, on "	\
	"the day of the log's clock anchor; END before START: the next day); "	\
	"either side may be empty"
#define VIZ_POPT_TIME(o)						\
	{ "time", 't', POPT_ARG_STRING, &(o).window, 0, VIZ_TIME_HELP, "START,END" }

/* -o and --summary: draws says what -o draws ("draw the pages"). */
#define VIZ_POPT_OUTPUT(o, draws, summary_help)				\
	{ "output", 'o', POPT_ARG_STRING, &(o).output, 0,		\
	  draws " to this PNG (data in FILE.dat)", "FILE.png" },	\
	{ "summary", '\0', POPT_ARG_NONE, &(o).summary, 0, summary_help, NULL }
/* Both tools' first options, in their --help order. */
#define VIZ_POPT_COMMON(o, draws, summary_help)			\
	VIZ_POPT_INPUT(o),						\
	VIZ_POPT_OUTPUT(o, draws, summary_help),			\
	VIZ_POPT_SELECT(o),						\
	VIZ_POPT_TIME(o)
/* --script: gp is the script's file name. */
#define VIZ_POPT_SCRIPT(o, gp)						\
	{ "script", '\0', POPT_ARG_STRING, &(o).script, 0,		\
	  "gnuplot script (default: " gp " next to the program or in ../share/lkst)", "FILE" }

/* --width/--height: the data is decimated to the picture's pixels. */
#define VIZ_MAX_PIXELS	20000

void *viz_xcalloc(size_t n, size_t size);

/*
 * The start of both main()s: names the program (lkst_progname), parses
 * options (dies on a bad one or a positional argument), checks that
 * exactly one of -f and --csv-file is given, and parses -p and -n into
 * v->select (lkst_format.h: the parser and matcher of lkbuf print; test
 * with lkst_select_pid_wanted() and lkst_select_comm_wanted()).  Free
 * with viz_options_free().
 */
poptContext viz_parse_options(const char *progname, int argc, char **argv,
			      struct poptOption *options, struct viz_options *v);
void viz_options_free(poptContext ctx, struct viz_options *v);

/*
 * -t by lkst_parse_window(): with a log (loaded: its clock anchor converts
 * a time of day), or NULL for CSV input (seconds only).  Without -t (s
 * NULL) the window is 0..UINT64_MAX.  Dies on a bad window.
 */
struct viz_log;
void viz_parse_window(const char *s, const struct viz_log *log, uint64_t *from,
		      uint64_t *to);

/*
 * "A,B": copies A into first (len bytes) and returns B; NULL if there is
 * no comma or A does not fit.
 */
const char *viz_split_pair(const char *s, char *first, size_t len);

double viz_secs(uint64_t ns);
void viz_print_time(FILE *out, uint64_t ns);	/* seconds.nanoseconds */

/* gnuplot strings are quoted: keep quotes out of labels. */
void viz_unquote(char *s);

/* out.png -> out.dat (malloc'ed): the data file sits next to the picture. */
char *viz_data_path(const char *output);

/*
 * script (PATH_MAX): --script if given, else name next to the binary (the
 * source tree), else in VIZ_DATADIR_REL from the binary's directory (where
 * make install puts it: PREFIX/bin and PREFIX/share/lkst).  Dies if none.
 */
#define VIZ_DATADIR_REL "../share/lkst"
void viz_script_path(const char *given, const char *name, char *script, size_t len);

/* --version: prints the versions lkst_progname speaks, as lkm's, and exits. */
extern struct poptOption viz_version_table[];
#define VIZ_POPT_VERSION						\
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, viz_version_table, 0, NULL, NULL }

/*
 * Runs gnuplot -e vars script, which reads data and writes output (paths
 * already in vars, which must not hold a single quote).  Dies on failure.
 */
void viz_gnuplot(const char *vars, const char *script, const char *data,
		 const char *output);

#endif /* LKST_VIZ_COMMON_H */
