/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text forms: trace records as human text or CSV, and masksets as the
 * line-per-event text that `lkm read` prints and `lkm write` parses.
 */
#ifndef LKST_FORMAT_H
#define LKST_FORMAT_H

#include <stdio.h>

#include "lkst_util.h"

struct lkst_format_opts {
	int csv;		/* -C: CSV instead of text */
	int raw;		/* -r: every used argument as hex */
	int seconds;		/* -S: time as seconds.nanoseconds */
	int verbose;		/* -V: argument descriptions in CSV */
};

/* Task state bits as names joined by '|'; "TASK_RUNNING" for 0. */
void lkst_format_state(unsigned long long state, char *buf, size_t len);

/* 16 bytes of a command name held in two arguments, escaped printable. */
void lkst_format_comm(unsigned long long a, unsigned long long b,
		      char *buf, size_t len);

/* One argument as the options want it; "" for an unused slot. */
void lkst_format_arg(const struct lkst_record *rec, unsigned int index,
		     const struct lkst_format_opts *opts, char *buf, size_t len);

/* Writes a CSV field, quoted per RFC 4180 when it must be. */
void lkst_csv_field(FILE *out, const char *field);

void lkst_format_csv_header(FILE *out, const struct lkst_format_opts *opts);
void lkst_format_record(FILE *out, const struct lkst_record *rec, unsigned int cpu,
			const struct lkst_format_opts *opts);

const char *lkst_context_name(unsigned int context);

/* ---- Maskset text ----------------------------------------------------- */

/* Writes the text form: a name comment, then one line per table event. */
void lkst_maskset_format(FILE *out, const struct lkst_maskset_desc *desc,
			 const struct lkst_handler_names *handlers);

/*
 * Parses the text form into desc->handler[] (unlisted events: NOTHING) and
 * the name from the "# lkst maskset N "name"" comment into name_out ("" if
 * none).  Errors name the line.
 */
int lkst_maskset_parse(FILE *in, struct lkst_maskset_desc *desc,
		       char name_out[LKST_NAME_LEN],
		       const struct lkst_handler_names *handlers,
		       struct lkst_err *err);

/* Checks a maskset name given by the user. */
int lkst_maskset_check_name(const char *name, struct lkst_err *err);

#endif /* LKST_FORMAT_H */
