// SPDX-License-Identifier: GPL-2.0
/*
 * lkbuf convert -f LOG --to ctf|json|perfetto -o OUT: the verb around
 * liblkst's exporters (lkst_export.h) and lkbuf's Perfetto writer
 * (lkst_export_perfetto.h: it needs libprotobuf-c, which liblkst does not).
 */
#include <stdlib.h>
#include <string.h>

#include "lkbuf_cmds.h"
#include "lkbuf_print.h"
#include "lkst_export.h"
#ifdef LKST_HAVE_PERFETTO
#include "lkst_export_perfetto.h"
#endif

static char *format, *out, *layout;

static struct poptOption convert_options[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, lkbuf_input_options, 0, NULL, NULL },
	{ "to", '\0', POPT_ARG_STRING, &format, 0,
	  "ctf: CTF 1.8 directory (babeltrace2, Trace Compass); json: Chrome "
	  "trace JSON (Perfetto, chrome://tracing); perfetto: Perfetto's native "
	  "protobuf trace (ui.perfetto.dev, trace_processor)", "ctf|json|perfetto" },
	{ "layout", '\0', POPT_ARG_STRING, &layout, 0,
	  "ctf only: lkst (default: lkst's events and fields) or lttng "
	  "(lttng-modules' names, which Trace Compass's kernel views read)",
	  "lkst|lttng" },
	{ "output", 'o', POPT_ARG_STRING, &out, 0,
	  "ctf: directory, created if missing (an empty one, or one an earlier "
	  "conversion wrote, is replaced); json, perfetto: file, - for standard "
	  "output",
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
	struct lkst_export *x;
	struct lkst_err err;
	const char *what;
	int ctf, lttng = 0, ret;

	(void)cmd;
	lkst_require(format, "--to ctf|json|perfetto", "convert");
	lkst_require(out, "-o OUT", "convert");
	if (strcmp(format, "ctf") && strcmp(format, "json") && strcmp(format, "perfetto"))
		lkst_die(LKST_EXIT_USAGE, "unknown output format '%s'; give --to ctf, --to json or --to perfetto",
			 format);
	ctf = !strcmp(format, "ctf");
	if (layout && !ctf)
		lkst_die(LKST_EXIT_USAGE, "--layout is for --to ctf only");
	if (layout && strcmp(layout, "lkst") && strcmp(layout, "lttng"))
		lkst_die(LKST_EXIT_USAGE, "unknown CTF layout '%s'; give --layout lkst or --layout lttng",
			 layout);
	lttng = layout && !strcmp(layout, "lttng");
	if (ctf && !strcmp(out, "-"))
		lkst_die(LKST_EXIT_USAGE, "a CTF trace is a directory, not standard output; give -o DIR");
	trace = lkbuf_open_input("convert", 0);
	lkbuf_select_apply(trace);
	log = lkst_trace_log(trace);
	x = lkst_export_new(trace, &err);
	if (!x)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	if (ctf) {
		ret = lttng ? lkst_export_ctf_lttng(x, out, &err) : lkst_export_ctf(x, out, &err);
		what = lttng ? "CTF 1.8, LTTng layout" : "CTF 1.8";
	} else if (!strcmp(format, "json")) {
		ret = lkst_export_json(x, out, &err);
		what = "Chrome trace JSON";
	} else {
#ifdef LKST_HAVE_PERFETTO
		ret = lkst_export_perfetto(x, out, &err);
#else
		lkst_die(LKST_EXIT_USAGE, "this lkbuf was built without libprotobuf-c; install it (tools/build/deps.sh) and rebuild for --to perfetto");
#endif
		what = "Perfetto protobuf trace";
	}
	lkst_export_end_progress(x);
	if (ret)
		lkst_die(LKST_EXIT_USAGE, "%s", err.msg);
	fprintf(stderr, "lkbuf: converted %llu %srecords of %u CPUs to %s (%s%s%s)\n",
		lkst_export_written(x), lkst_trace_selecting(trace) ? "selected " : "",
		lkst_log_nr_sections(log), out, what, lkst_export_summary(x)[0] ? ": " : "",
		lkst_export_summary(x));
	lkst_export_free(x);
	lkst_trace_close(trace);
	lkbuf_select_free();
	return LKST_EXIT_OK;
}

const struct lkst_verb_ops lkbuf_convert_ops = { convert_options, NULL, NULL, run_convert, NULL };
