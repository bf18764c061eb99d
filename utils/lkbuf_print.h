/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LKBUF_PRINT_H
#define LKBUF_PRINT_H

#include "lkst_cli.h"
#include "lkst_logio.h"

/* lkbuf print -f LOG [filters] (lkbuf_print.c) */
int lkbuf_verb_print(int argc, const char **argv);

/*
 * What every verb that reads a log takes (print, convert, report), one
 * meaning everywhere; include them in a verb's options with
 * POPT_ARG_INCLUDE_TABLE.  lkbuf_input_options: -f FILE, given again for
 * more files of one trace ("-" standard input, a directory lkbuf record's
 * set).  lkbuf_select_options: -e -p -n -t -c --where, a struct
 * lkst_trace_select (lkst_logio.h).
 */
extern struct poptOption lkbuf_input_options[];
extern struct poptOption lkbuf_select_options[];
/* The -f files as one trace (flags: lkst_trace_open()'s); exits on errors. */
struct lkst_trace *lkbuf_open_input(const char *verb, unsigned int flags);
/* The first -f, for messages. */
const char *lkbuf_input_name(void);
/* The selection options into t (after it is open); exits on bad input. */
void lkbuf_select_apply(struct lkst_trace *t);
/* Frees the options' values. */
void lkbuf_select_free(void);

#endif /* LKBUF_PRINT_H */
