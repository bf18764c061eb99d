// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf convert -f LOG --to ctf|json -o OUT: the verb around liblkst's
 * exporters (lkst_export.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"
#include "lkst_export.h"

static char *format, *out;

static struct poptOption convert_options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
	{ "to", '\0', POPT_ARG_STRING, &format, 0,
	  "ctf: CTF 1.8 directory (babeltrace2, Trace Compass); json: Chrome "
	  "trace JSON (Perfetto, chrome://tracing)", "ctf|json" },
	{ "output", 'o', POPT_ARG_STRING, &out, 0,
	  "ctf: directory, created if missing (an empty one, or one an earlier "
	  "conversion wrote, is replaced); json: file, - for standard output",
	  "OUT" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_select_options, 0,
	  "Selecting records (the output holds only these; the rest still "
	  "name tasks):", NULL },
	LKST_POPT_TAIL
};

static int run_convert(struct lkst_cmd *cmd)
{
	const struct lkst_log *log;
	struct lkst_trace *trace;
	struct lkst_export x;
	struct lkst_err err;
	int ctf, ret;

	(void)cmd;
	lkst_require(format, "--to ctf|json", "convert");
	lkst_require(out, "-o OUT", "convert");
	if (strcmp(format, "ctf") && strcmp(format, "json"))
		lkst_die(LKST_EXIT_USAGE, "unknown output format '%s'; give --to ctf or --to json",
			 format);
	ctf = !strcmp(format, "ctf");
	if (ctf && !strcmp(out, "-"))
		lkst_die(LKST_EXIT_USAGE, "a CTF trace is a directory, not standard output; give -o DIR");
	trace = lkbuf_open_input("convert", 0);
	lkbuf_select_apply(trace);
	log = lkst_trace_log(trace);
	if (lkst_export_trace(&x, trace, &err))
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	ret = ctf ? lkst_export_ctf(&x, out, &err) : lkst_export_json(&x, out, &err);
	lkst_export_end_progress(&x);
	if (ret)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fprintf(stderr, "lkbuf: converted %llu %srecords of %u CPUs to %s (%s%s%s)\n",
		x.written, lkst_trace_selecting(trace) ? "selected " : "", log->nr_sections,
		out, ctf ? "CTF 1.8" : "Chrome trace JSON", x.summary[0] ? ": " : "",
		x.summary);
	lkst_export_free(&x);
	lkst_trace_close(trace);
	lkbuf_select_free();
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_convert_ops = { convert_options, NULL, NULL, run_convert, NULL };
